//! `#[tool(default = ..)]` values are written in where the model left a key out, wherever serde
//! reads the field: in nested structs, sequences, map values, `Option`s, tuple positions,
//! flattened structs, recursive types and the variants of tagged enums; never below an untagged
//! variant, where which variant serde reads is not known (a value written in for one could make
//! serde take it over another). One walk of the parse plan (built from `ToolSchema::FACTS`), the tree `null`-stripping
//! follows, does it; another walk of the same tree finds a set's repeated items.

use std::collections::BTreeMap;

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::{ArgsError, Tool, ToolSchema};

/// Parses `value` as text and as a value; checks that both agree.
#[track_caller]
fn parse<T: Tool + PartialEq + std::fmt::Debug>(value: Value) -> Result<T, ArgsError> {
    let from_text = T::parse_args(&value.to_string());
    match (&from_text, T::parse_value(value)) {
        (Ok(a), Ok(b)) => assert_eq!(a, &b, "parse_value"),
        (Err(a), Err(b)) => assert_eq!(a.path(), b.path(), "parse_value: {a} / {b}"),
        (a, b) => panic!("parse_args {a:?}, parse_value {b:?}"),
    }
    from_text
}

/// An item; its size is 5 unless the model says otherwise.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Item {
    name: String,
    #[tool(default = 5)]
    size: u32,
}

/// Two items, by position.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Pair(Item, Item);

/// A tree whose every node has a weight.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Tree {
    #[tool(default = 1)]
    weight: u32,
    #[serde(default)]
    kids: Vec<Tree>,
}

/// Tagged variants are filled as serde reads them; the untagged one is not.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
enum Shape {
    Circle {
        #[tool(default = 2)]
        radius: u32,
    },
    Boxed(Item),
    Line(Item, Item),
    #[serde(untagged)]
    Loose {
        #[tool(default = 3)]
        loose: u32,
    },
}

/// An internally tagged enum.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "kind")]
enum Step {
    Move {
        #[tool(default = 10)]
        distance: u32,
    },
    Pick(Item),
}

/// An adjacently tagged enum.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "kind", content = "args")]
enum Call {
    Move {
        #[tool(default = 10)]
        distance: u32,
    },
}

/// An untagged enum: serde tries `Sized` first, and takes it only when the model sent a size.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Either {
    Sized(Item),
    Named { name: String },
}

/// Every place a default can be.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Everywhere {
    item: Item,
    items: Vec<Item>,
    by_name: BTreeMap<String, Item>,
    maybe: Option<Item>,
    pair: Pair,
    tuple: (Item, u8),
    #[serde(flatten)]
    flat: Item2,
    tree: Tree,
    shapes: Vec<Shape>,
    steps: Vec<Step>,
    calls: Vec<Call>,
    either: Either,
}

/// Flattened into `Everywhere`.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Item2 {
    #[tool(default = "left")]
    side: String,
}

fn item(name: &str, size: u32) -> Item {
    Item {
        name: name.to_owned(),
        size,
    }
}

/// `{"kids": [{"kids": [{}]}, {"weight": 4}]}` with every weight filled in.
fn filled_tree() -> Tree {
    let leaf = |weight| Tree {
        weight,
        kids: vec![],
    };
    Tree {
        weight: 1,
        kids: vec![
            Tree {
                weight: 1,
                kids: vec![leaf(1)],
            },
            leaf(4),
        ],
    }
}

#[test]
fn defaults_are_filled_wherever_serde_reads_the_field() {
    let parsed: Everywhere = parse(json!({
        "item": {"name": "a"},
        "items": [{"name": "b"}, {"name": "c", "size": 1}],
        "by_name": {"d": {"name": "d"}},
        "maybe": {"name": "e"},
        "pair": [{"name": "f"}, {"name": "g", "size": 2}],
        "tuple": [{"name": "h"}, 0],
        "tree": {"kids": [{"kids": [{}]}, {"weight": 4}]},
        "shapes": [
            {"Circle": {}},
            {"Boxed": {"name": "i"}},
            {"Line": [{"name": "j"}, {"name": "k"}]},
        ],
        "steps": [{"kind": "Move"}, {"kind": "Pick", "name": "l"}],
        "calls": [{"kind": "Move", "args": {}}],
        "either": {"name": "m", "size": 6},
    }))
    .unwrap();
    assert_eq!(
        parsed,
        Everywhere {
            item: item("a", 5),
            items: vec![item("b", 5), item("c", 1)],
            by_name: BTreeMap::from([("d".to_owned(), item("d", 5))]),
            maybe: Some(item("e", 5)),
            pair: Pair(item("f", 5), item("g", 2)),
            tuple: (item("h", 5), 0),
            flat: Item2 {
                side: "left".to_owned()
            },
            tree: filled_tree(),
            shapes: vec![
                Shape::Circle { radius: 2 },
                Shape::Boxed(item("i", 5)),
                Shape::Line(item("j", 5), item("k", 5)),
            ],
            steps: vec![Step::Move { distance: 10 }, Step::Pick(item("l", 5))],
            calls: vec![Call::Move { distance: 10 }],
            either: Either::Sized(item("m", 6)),
        }
    );
}

/// The smallest arguments around `either` and `shapes`.
fn with(either: Value, shapes: Value) -> Value {
    json!({
        "item": {"name": "a"},
        "items": [],
        "by_name": {},
        "maybe": null,
        "pair": [{"name": "f"}, {"name": "g"}],
        "tuple": [{"name": "h"}, 0],
        "tree": {},
        "shapes": shapes,
        "steps": [],
        "calls": [],
        "either": either,
    })
}

#[test]
fn nothing_is_filled_below_an_untagged_variant() {
    // Without a size, `Sized` does not read the object: serde goes on to `Named`. Filling in
    // `Item`'s size would have made it `Sized`.
    let parsed: Everywhere = parse(with(json!({"name": "m"}), json!([]))).unwrap();
    assert_eq!(
        parsed.either,
        Either::Named {
            name: "m".to_owned()
        }
    );
    // `Loose` is untagged: its `loose` is not filled in, so an empty object is no variant.
    let error = parse::<Everywhere>(with(json!({"name": "m"}), json!([{}]))).unwrap_err();
    assert_eq!(error.path(), "shapes[0]", "{error}");
    let parsed: Everywhere = parse(with(json!({"name": "m"}), json!([{"loose": 4}]))).unwrap();
    assert_eq!(parsed.shapes, vec![Shape::Loose { loose: 4 }]);
}

/// An externally tagged enum, without untagged variants.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
enum Mark {
    Dot,
    Circle {
        #[tool(default = 2)]
        radius: u32,
    },
    Boxed(Item),
}

/// Every place a default can be where the stripping parse fills it as it reads: plain objects,
/// sequences, maps, `Option`s, tuples, recursion, externally tagged enums.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Plainly {
    item: Item,
    items: Vec<Item>,
    by_name: BTreeMap<String, Item>,
    maybe: Option<Item>,
    pair: Pair,
    tuple: (Item, u8),
    tree: Tree,
    marks: Vec<Mark>,
    /// A default holding a `null`: left to the `Value` path, which keeps it.
    #[tool(default = json!([1, null]))]
    #[serde(default)]
    sparse: Vec<Option<u8>>,
}

/// A list with a default of its own, whose items have theirs.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Shelf {
    #[tool(default = [])]
    items: Vec<Item>,
    #[tool(default = 7)]
    count: u32,
    #[tool(default = "shelf")]
    label: String,
}

#[test]
fn a_value_sent_for_a_field_with_a_default_is_read_as_sent() {
    let shelf = |items, count, label: &str| Shelf {
        items,
        count,
        label: label.to_owned(),
    };
    let cases = [
        // Sent: its items' `null`s dropped and their defaults written in; `null`: the default.
        (
            r#"{"items":[{"name":"a","size":null},{"name":"b","size":1}],"count":null,"label":"x"}"#,
            shelf(vec![item("a", 5), item("b", 1)], 7, "x"),
        ),
        (
            r#"{"items":null,"count":2,"label":null}"#,
            shelf(vec![], 2, "shelf"),
        ),
        (
            r#"{ "items" : [ ] , "label" :  null }"#,
            shelf(vec![], 7, "shelf"),
        ),
        (r#"{"count":null}"#, shelf(vec![], 7, "shelf")),
        (
            "{\n  \"label\":\tnull,\n  \"items\": [{\"size\": null, \"name\": \"c\"}]\n}",
            shelf(vec![item("c", 5)], 7, "shelf"),
        ),
    ];
    for (text, expected) in cases {
        let fast = toolgen::__private::parse_stripping::<Shelf>(text);
        assert_eq!(fast.unwrap(), expected, "{text}");
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(parse::<Shelf>(value).unwrap(), expected, "{text}");
    }
    // What is wrong is reported where it is, sent or not.
    for (text, path) in [
        (r#"{"items":[null]}"#, "items[0]"),
        (r#"{"items":[{"size":null}]}"#, "items[0]"),
        (r#"{"count":"two"}"#, "count"),
        (r#"{"label":nul}"#, "label"),
    ] {
        let error = Shelf::parse_args(text).unwrap_err();
        assert_eq!(error.path(), path, "{text}: {error}");
    }
}

#[test]
fn plain_objects_are_filled_as_serde_reads_them() {
    let arguments = json!({
        "item": {"name": "a", "size": null},
        "items": [{"name": "b"}, {"name": "c", "size": 1}],
        "by_name": {"d": {"name": "d"}},
        "maybe": {"name": "e"},
        "pair": [{"name": "f"}, {"name": "g", "size": 2}],
        "tuple": [{"name": "h"}, 0],
        "tree": {"kids": [{"kids": [{}]}, {"weight": 4}]},
        "marks": ["Dot", {"Circle": {}}, {"Circle": {"radius": null}}, {"Boxed": {"name": "i"}}],
    });
    let expected = Plainly {
        item: item("a", 5),
        items: vec![item("b", 5), item("c", 1)],
        by_name: BTreeMap::from([("d".to_owned(), item("d", 5))]),
        maybe: Some(item("e", 5)),
        pair: Pair(item("f", 5), item("g", 2)),
        tuple: (item("h", 5), 0),
        tree: filled_tree(),
        marks: vec![
            Mark::Dot,
            Mark::Circle { radius: 2 },
            Mark::Circle { radius: 2 },
            Mark::Boxed(item("i", 5)),
        ],
        sparse: vec![Some(1), None],
    };
    assert_eq!(parse::<Plainly>(arguments.clone()).unwrap(), expected);
    // The stripping parse alone fills all but the default with a `null`, which it leaves to
    // the `Value` path.
    let text = arguments.to_string();
    assert!(toolgen::__private::parse_stripping::<Plainly>(&text).is_err());
    let mut with_sparse = arguments;
    with_sparse["sparse"] = json!([1, 2]);
    let text = with_sparse.to_string();
    let fast = toolgen::__private::parse_stripping::<Plainly>(&text).unwrap();
    assert_eq!(
        fast,
        Plainly {
            sparse: vec![Some(1), Some(2)],
            ..expected
        }
    );
    assert_eq!(Plainly::parse_args(&text).unwrap(), fast);
    // Errors are the `Value` path's, as before.
    let error = Plainly::parse_args(&json!({"item": {}}).to_string()).unwrap_err();
    assert_eq!(error.path(), "item", "{error}");
    assert!(error.message().contains("missing field `name`"), "{error}");
}

/// The facts' `fills` follows the tree (checked at compile time).
const _: () = {
    assert!(<Item as toolgen::ToolSchema>::FACTS.fills());
    assert!(<Pair as toolgen::ToolSchema>::FACTS.fills());
    assert!(<Vec<Option<Item>> as toolgen::ToolSchema>::FACTS.fills());
    assert!(<Tree as toolgen::ToolSchema>::FACTS.fills());
    assert!(<Shape as toolgen::ToolSchema>::FACTS.fills());
    assert!(<Everywhere as toolgen::ToolSchema>::FACTS.fills());
    // Only below an untagged variant, or none at all.
    assert!(!<Either as toolgen::ToolSchema>::FACTS.fills());
    assert!(!<Vec<String> as toolgen::ToolSchema>::FACTS.fills());
    // Which of them the stripping parse fills as it reads.
    assert!(<Plainly as toolgen::ToolSchema>::FACTS.fills_as_read());
    assert!(<AsRead as toolgen::ToolSchema>::FACTS.fills_as_read());
    assert!(!<Everywhere as toolgen::ToolSchema>::FACTS.fills_as_read());
};

/// An operation with its id, and the operation's fields beside it (seed 004's shape).
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct WithId {
    id: u32,
    #[serde(flatten)]
    step: Step,
}

/// Every place a default can be where the stripping parse fills it as it reads, enums and
/// flattened types included: all but below an untagged enum.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct AsRead {
    item: Item,
    #[serde(flatten)]
    flat: Item2,
    marks: Vec<Mark>,
    steps: Vec<Step>,
    calls: Vec<Call>,
    with_ids: Vec<WithId>,
    #[serde(default)]
    count: u32,
}

#[test]
fn enums_and_flattened_types_are_filled_as_serde_reads_them() {
    let arguments = json!({
        "item": {"name": "a", "size": null},
        "marks": [{"Circle": {}}, {"Boxed": {"name": "b"}}],
        "steps": [{"kind": "Move"}, {"name": "c", "kind": "Pick"}, {"kind": "Move", "distance": 1}],
        "calls": [{"kind": "Move", "args": {"distance": null}}, {"args": {}, "kind": "Move"}],
        "with_ids": [
            {"id": 1, "kind": "Move"},
            {"kind": "Pick", "id": 2, "name": "d", "size": 7},
            {"id": 3, "kind": "Pick", "name": "e", "size": null},
        ],
        "count": null,
    });
    let expected = AsRead {
        item: item("a", 5),
        flat: Item2 {
            side: "left".to_owned(),
        },
        marks: vec![Mark::Circle { radius: 2 }, Mark::Boxed(item("b", 5))],
        steps: vec![
            Step::Move { distance: 10 },
            Step::Pick(item("c", 5)),
            Step::Move { distance: 1 },
        ],
        calls: vec![Call::Move { distance: 10 }, Call::Move { distance: 10 }],
        with_ids: vec![
            WithId {
                id: 1,
                step: Step::Move { distance: 10 },
            },
            WithId {
                id: 2,
                step: Step::Pick(item("d", 7)),
            },
            WithId {
                id: 3,
                step: Step::Pick(item("e", 5)),
            },
        ],
        count: 0,
    };
    assert_eq!(parse::<AsRead>(arguments.clone()).unwrap(), expected);
    // One pass: the stripping parse alone writes them all in.
    let text = arguments.to_string();
    assert_eq!(
        toolgen::__private::parse_stripping::<AsRead>(&text).unwrap(),
        expected
    );
    // A flattened enum's tag may be its variant's index (serde reads it from the buffered
    // object); both ways fill that variant.
    let by_index = json!({
        "item": {"name": "a"}, "marks": [], "steps": [], "calls": [],
        "with_ids": [{"id": 1, "kind": 0}],
    });
    assert_eq!(
        parse::<AsRead>(by_index).unwrap().with_ids,
        vec![WithId {
            id: 1,
            step: Step::Move { distance: 10 },
        }]
    );
    // A value the model gave is kept, in a flattened type too.
    let mut given = arguments;
    given["side"] = json!("right");
    let parsed = toolgen::__private::parse_stripping::<AsRead>(&given.to_string()).unwrap();
    assert_eq!(parsed.flat.side, "right");
    assert_eq!(parse::<AsRead>(given).unwrap(), parsed);
}

/// Labels, each once.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Labels {
    labels: std::collections::BTreeSet<String>,
}

/// Either labelled or loose (untagged: serde tries `Labelled` first).
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Loose {
    Labelled(Labels),
    Other { other: Vec<String> },
}

/// A tagged enum holding sets.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "kind")]
enum Group {
    Named {
        by_name: BTreeMap<String, Vec<Labels>>,
    },
    Pair {
        pair: (Labels, Labels),
    },
}

/// Sets at depth.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Sets {
    groups: Vec<Group>,
    loose: Loose,
}

#[test]
fn repeated_items_are_found_wherever_serde_reads_a_set() {
    let ok = json!({
        "groups": [
            {"kind": "Named", "by_name": {"a": [{"labels": ["x", "y"]}]}},
            {"kind": "Pair", "pair": [{"labels": []}, {"labels": ["x"]}]},
        ],
        "loose": {"labels": ["x"]},
    });
    parse::<Sets>(ok.clone()).unwrap();
    let mut named = ok.clone();
    named["groups"][0]["by_name"]["a"][0]["labels"] = json!(["x", "y", "x"]);
    let error = parse::<Sets>(named).unwrap_err();
    assert_eq!(error.path(), "groups[0].by_name.a[0].labels[2]", "{error}");
    assert!(error.message().contains("item 0"), "{error}");
    let mut pair = ok.clone();
    pair["groups"][1]["pair"][1]["labels"] = json!(["x", "x"]);
    let error = parse::<Sets>(pair).unwrap_err();
    assert_eq!(error.path(), "groups[1].pair[1].labels[1]", "{error}");
    // Below an untagged enum the JSON is not checked (which variant serde reads is not known
    // there); serde merges the repeat.
    let mut loose = ok;
    loose["loose"] = json!({"labels": ["x", "x"]});
    let parsed = parse::<Sets>(loose).unwrap();
    assert_eq!(
        parsed.loose,
        Loose::Labelled(Labels {
            labels: ["x".to_owned()].into()
        })
    );
}

/// A tag of a set: its weight is 1 unless the model says otherwise.
#[derive(ToolSchema, Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Tag {
    name: String,
    #[tool(default = 1)]
    weight: u32,
    #[serde(default)]
    note: String,
}

/// Sets of structs with defaults, and a set of sets.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Tagged {
    tags: std::collections::BTreeSet<Tag>,
    #[serde(default)]
    grid: std::collections::BTreeSet<std::collections::BTreeSet<u8>>,
}

#[test]
fn sets_are_checked_as_serde_reads_the_text() {
    let tag = |name: &str, weight| Tag {
        name: name.to_owned(),
        weight,
        note: String::new(),
    };
    let arguments = json!({
        "tags": [{"name": "a", "note": null}, {"name": "a", "weight": 2}, {"name": "b"}],
        "grid": [[1, 2], [2, 1, 3]],
    });
    let expected = Tagged {
        tags: [tag("a", 1), tag("a", 2), tag("b", 1)].into(),
        grid: [[1, 2].into(), [1, 2, 3].into()].into(),
    };
    assert_eq!(parse::<Tagged>(arguments.clone()).unwrap(), expected);
    // One pass: the stripping parse alone drops the `null`s, writes the defaults in and checks
    // the sets.
    let text = arguments.to_string();
    assert_eq!(
        toolgen::__private::parse_stripping::<Tagged>(&text).unwrap(),
        expected
    );
    // Items are compared as serde reads them: `null`s dropped and defaults written in, so these
    // two are the same tag.
    let same = json!({"tags": [{"name": "a", "note": null}, {"name": "a", "weight": 1}]});
    assert!(toolgen::__private::parse_stripping::<Tagged>(&same.to_string()).is_err());
    let error = parse::<Tagged>(same).unwrap_err();
    assert_eq!(error.path(), "tags[1]", "{error}");
    assert!(error.message().contains("item 0"), "{error}");
    // A set inside a set's item.
    let inner = json!({"tags": [], "grid": [[1], [2, 2]]});
    assert!(toolgen::__private::parse_stripping::<Tagged>(&inner.to_string()).is_err());
    let error = parse::<Tagged>(inner).unwrap_err();
    assert_eq!(error.path(), "grid[1][1]", "{error}");
    // `[1, 2]` and `[2, 1]` are different JSON arrays, one Rust set: the schema's `uniqueItems`
    // is about the JSON.
    let orders = json!({"tags": [], "grid": [[1, 2], [2, 1]]});
    let parsed = parse::<Tagged>(orders).unwrap();
    assert_eq!(parsed.grid.len(), 1);
}

/// The facts' `checks` follows the tree (checked at compile time).
const _: () = {
    assert!(<Labels as toolgen::ToolSchema>::FACTS.checks());
    assert!(<Group as toolgen::ToolSchema>::FACTS.checks());
    assert!(<Sets as toolgen::ToolSchema>::FACTS.checks());
    assert!(!<Loose as toolgen::ToolSchema>::FACTS.checks());
    assert!(!<Vec<String> as toolgen::ToolSchema>::FACTS.checks());
};

/// An untagged enum beside a defaulted field: the `null` is dropped, and still nothing is filled
/// in below the enum.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Beside {
    either: Either,
    #[serde(default)]
    count: u32,
}

#[test]
fn nothing_is_filled_below_an_untagged_variant_when_nulls_are_dropped() {
    let parsed: Beside = parse(json!({"either": {"name": "m"}, "count": null})).unwrap();
    assert_eq!(
        parsed,
        Beside {
            either: Either::Named {
                name: "m".to_owned()
            },
            count: 0
        }
    );
}
