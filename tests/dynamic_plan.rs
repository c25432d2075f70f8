//! A `DynamicTool` follows the parse plan a derived tool follows, built from its JSON Schema:
//! on the same arguments, it writes the same `#[tool(default = ..)]` values in (nested, in
//! lists, map values, `Option`s, tuple positions, flattened structs, recursive types, tagged
//! variants; never below an untagged enum), drops the same `null`s, refuses the same repeated
//! keys and the same repeated set items, with the same path and message. And its plan goes with
//! it: building and dropping dynamic tools keeps nothing for the program.

use std::collections::{BTreeMap, BTreeSet};

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::{ArgsError, ArgsErrorKind, DynamicTool, Tool, ToolSchema};

/// An item; its size is 5 unless the model says otherwise.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Item {
    name: String,
    #[tool(default = 5)]
    size: u32,
}

/// A tree whose every node has a weight.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Tree {
    #[tool(default = 1)]
    weight: u32,
    #[serde(default)]
    kids: Vec<Tree>,
}

/// Externally tagged variants are filled as serde reads them.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
enum Shape {
    Circle {
        #[tool(default = 2)]
        radius: u32,
    },
    Boxed(Item),
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
    Stop,
}

/// An untagged enum: nothing is written in below it.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Either {
    Sized(Item),
    Named { name: String },
}

/// An operation with its kind flattened in.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Operation {
    id: String,
    #[serde(flatten)]
    action: Action,
}

/// What an [`Operation`] does.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "action")]
enum Action {
    Add {
        title: String,
        #[tool(default = "note")]
        kind: String,
    },
    Remove {
        #[serde(default)]
        cascade: bool,
    },
}

/// Flattened into [`Everywhere`].
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Side {
    #[tool(default = "left")]
    side: String,
}

/// Every place a default, a `null` to drop, a set or a repeated key can be.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Everywhere {
    item: Item,
    items: Vec<Item>,
    by_name: BTreeMap<String, Item>,
    maybe: Option<Item>,
    tuple: (Item, u8),
    #[serde(flatten)]
    flat: Side,
    tree: Tree,
    shapes: Vec<Shape>,
    steps: Vec<Step>,
    calls: Vec<Call>,
    either: Either,
    operations: Vec<Operation>,
    tags: BTreeSet<String>,
    #[serde(default)]
    note: Option<String>,
    #[tool(default = 3)]
    count: u8,
}

/// A valid call, with every key that has a default left out.
fn base() -> Value {
    json!({
        "item": {"name": "a"},
        "items": [{"name": "b"}, {"name": "c", "size": 1}],
        "by_name": {"d": {"name": "d"}},
        "maybe": {"name": "e"},
        "tuple": [{"name": "f"}, 7],
        "tree": {"kids": [{"kids": [{}]}, {"weight": 4}]},
        "shapes": [{"Circle": {}}, {"Boxed": {"name": "g"}}],
        "steps": [{"kind": "Move"}, {"kind": "Pick", "name": "h"}],
        "calls": [{"kind": "Move", "args": {}}, {"kind": "Stop"}],
        "either": {"name": "i"},
        "operations": [
            {"id": "1", "action": "Add", "title": "j"},
            {"action": "Remove", "id": "2"}
        ],
        "tags": ["x", "y"]
    })
}

/// The arguments to compare: the base, and each member of it (at every depth) changed to
/// `null`, left out, of another type, and repeated; a set with a repeat; keys repeated inside.
fn samples() -> Vec<String> {
    let mut out = vec![base().to_string()];
    let mut pointers = Vec::new();
    pointers_of(&base(), String::new(), &mut pointers);
    for pointer in &pointers {
        let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", pointer));
        for change in [
            Some(Value::Null),
            None,
            Some(json!({"odd": true})),
            Some(json!(-1)),
        ] {
            let mut value = base();
            match (value.pointer_mut(parent), change) {
                (Some(Value::Object(map)), Some(change)) => {
                    map.insert(key.to_owned(), change);
                }
                (Some(Value::Object(map)), None) => {
                    map.remove(key);
                }
                (Some(Value::Array(items)), Some(change)) => {
                    if let Some(item) = key.parse().ok().and_then(|i: usize| items.get_mut(i)) {
                        *item = change;
                    }
                }
                _ => continue,
            }
            out.push(value.to_string());
        }
        // The member written twice.
        if let Some(Value::Object(map)) = base().pointer(parent) {
            let member = base().pointer(pointer).cloned().unwrap_or_default();
            let object = Value::Object(map.clone()).to_string();
            let twice = format!("{{{}:{member},{}", json!(key), &object[1..]);
            let marked = {
                let mut value = base();
                if let Some(slot) = value.pointer_mut(parent) {
                    *slot = json!("\u{1}");
                }
                value.to_string()
            };
            out.push(marked.replacen("\"\\u0001\"", &twice, 1));
        }
    }
    let mut repeated = base();
    repeated["tags"] = json!(["x", "y", "x"]);
    out.push(repeated.to_string());
    out
}

/// The JSON pointers of every member and item in `value`.
fn pointers_of(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, member) in map {
                let pointer = format!("{at}/{key}");
                out.push(pointer.clone());
                pointers_of(member, pointer, out);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                let pointer = format!("{at}/{index}");
                out.push(pointer.clone());
                pointers_of(item, pointer, out);
            }
        }
        _ => {}
    }
}

/// Whether two errors are at the same place: the same path, or one further in where it can
/// say more (serde reads a tagged variant from a buffered copy of the object, which loses
/// where in it an error is; the schema checker says only that a union's value matches none of
/// its branches, as `tests/dynamic_parity.rs` allows).
fn same_place(derived: &ArgsError, dynamic: &ArgsError) -> bool {
    let further = |long: &str, short: &str| {
        long.strip_prefix(short)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
    };
    derived.path() == dynamic.path()
        || further(dynamic.path(), derived.path())
        || (dynamic
            .message()
            .contains("none of the schema's alternatives")
            && further(derived.path(), dynamic.path()))
}

/// Held by each test: [`dropped_dynamic_tools_keep_nothing`] counts what every plan holds, so
/// the others do not build plans meanwhile.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The lock of [`ONE_AT_A_TIME`] (a test that failed holding it leaves it poisoned, not taken).
fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The dynamic tool built from `Everywhere`'s schema.
fn dynamic() -> DynamicTool {
    let schema: Value = serde_json::from_str(Everywhere::INPUT_SCHEMA).unwrap();
    DynamicTool::new("everywhere", "Everywhere.", schema).unwrap()
}

#[test]
fn a_dynamic_tool_fills_strips_and_refuses_as_the_derived_tool() {
    let _serial = one_at_a_time();
    let dynamic = dynamic();
    let mut refused = 0;
    for text in samples() {
        let derived = Everywhere::parse_args(&text);
        let read = dynamic.parse_args(&text);
        match (&derived, &read) {
            (Ok(derived), Ok(value)) => {
                // The dynamic tool's value, defaults written in, is what serde reads as the
                // derived tool's (serde reads no default of its own for `#[tool(default)]`).
                let read: Everywhere = serde_json::from_value(value.clone())
                    .unwrap_or_else(|error| panic!("{text}\n{value}\n{error}"));
                assert_eq!(&read, derived, "{text}");
            }
            (Err(derived), Err(read)) => {
                refused += 1;
                assert!(same_place(derived, read), "{text}: {derived} / {read}");
                // (A number out of a Rust type's range is serde's data error, the schema's
                // constraint: the kinds agree on syntax, as in `tests/dynamic_parity.rs`.)
                let syntax = |e: &ArgsError| e.kind() == ArgsErrorKind::Syntax;
                assert_eq!(syntax(read), syntax(derived), "{text}: {derived} / {read}");
                // Repeats say the same: a key twice, a set's item twice.
                if derived.message().starts_with("duplicate field")
                    || derived.message().starts_with("repeats item")
                {
                    assert_eq!(read.message(), derived.message(), "{text}");
                }
            }
            _ => panic!("{text}\nderived: {derived:?}\ndynamic: {read:?}"),
        }
    }
    assert!(refused > 20, "{refused}");
}

#[test]
fn the_defaults_are_written_in_where_serde_reads_them() {
    let _serial = one_at_a_time();
    let value = dynamic().parse_args(&base().to_string()).unwrap();
    assert_eq!(value["item"]["size"], 5);
    assert_eq!(
        value["items"],
        json!([{"name": "b", "size": 5}, {"name": "c", "size": 1}])
    );
    assert_eq!(value["by_name"]["d"]["size"], 5);
    assert_eq!(value["maybe"]["size"], 5);
    assert_eq!(value["tuple"][0]["size"], 5);
    assert_eq!(value["side"], "left");
    assert_eq!(value["count"], 3);
    assert_eq!(value["tree"]["kids"][0]["kids"][0]["weight"], 1);
    assert_eq!(value["tree"]["kids"][1]["weight"], 4);
    assert_eq!(value["shapes"][0], json!({"Circle": {"radius": 2}}));
    assert_eq!(value["shapes"][1]["Boxed"]["size"], 5);
    assert_eq!(value["steps"][0]["distance"], 10);
    assert_eq!(value["steps"][1]["size"], 5);
    assert_eq!(value["calls"][0]["args"]["distance"], 10);
    assert_eq!(value["operations"][0]["kind"], "note");
    // Below an untagged enum, nothing: `{"name": "i"}` stays `Named`.
    assert_eq!(value["either"], json!({"name": "i"}));
    // A `null` for a field with a default is dropped, then the default written in; a `null`
    // for an `Option` without one stays.
    let mut nulls = base();
    nulls["item"]["size"] = Value::Null;
    nulls["note"] = Value::Null;
    nulls["maybe"] = Value::Null;
    let value = dynamic().parse_args(&nulls.to_string()).unwrap();
    assert_eq!(value["item"]["size"], 5);
    assert_eq!(value["maybe"], Value::Null);
    assert!(value.get("note").is_none(), "{value}");
}

#[test]
fn repeats_are_refused_where_they_are() {
    let _serial = one_at_a_time();
    let dynamic = dynamic();
    let text = base()
        .to_string()
        .replacen(r#""name":"a""#, r#""name":"a","name":"b""#, 1);
    let derived = Everywhere::parse_args(&text).unwrap_err();
    let error = dynamic.parse_args(&text).unwrap_err();
    assert_eq!(error.to_string(), derived.to_string());
    assert_eq!(error.path(), "item");
    assert_eq!(error.message(), "duplicate field `name`");
    let mut set = base();
    set["tags"] = json!(["x", "y", "x"]);
    let derived = Everywhere::parse_args(&set.to_string()).unwrap_err();
    let error = dynamic.parse_args(&set.to_string()).unwrap_err();
    assert_eq!(error.to_string(), derived.to_string());
    assert_eq!(error.path(), "tags[2]");
    assert_eq!(error.kind(), ArgsErrorKind::Constraint);
}

/// Building, using and dropping dynamic tools (an MCP client refreshing a server's tools) keeps
/// nothing: the derived types' store does not grow, and every block the plans held is freed.
#[test]
fn dropped_dynamic_tools_keep_nothing() {
    let _serial = one_at_a_time();
    // The derived tool's plan, built first: it is kept for the program, once.
    let _ = Everywhere::parse_args(&base().to_string()).unwrap();
    let before = toolgen::__private::plans_kept();
    let schema: Value = serde_json::from_str(Everywhere::INPUT_SCHEMA).unwrap();
    let text = base().to_string();
    let mut kept = Vec::new();
    for round in 0..300 {
        let tool = DynamicTool::new("everywhere", "Everywhere.", schema.clone()).unwrap();
        let value = tool.parse_args(&text).unwrap();
        assert_eq!(value["item"]["size"], 5);
        // Some live a while, and their clones share the plan.
        if round % 3 == 0 {
            kept.push(tool.clone());
        }
    }
    assert!(toolgen::__private::plans_kept().1 > before.1);
    drop(kept);
    assert_eq!(toolgen::__private::plans_kept(), before);
}

/// A `$ref` that leads back (a recursive schema written by hand) is followed as deep as the
/// value goes; the plan holds it once.
#[test]
fn a_recursive_schema_is_followed_through_its_references() -> Result<(), ArgsError> {
    let _serial = one_at_a_time();
    let schema = json!({
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "required": ["root"],
        "$defs": {"Node": {
            "type": "object",
            "properties": {
                "label": {"type": "string", "default": "?"},
                "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}
            }
        }}
    });
    let tool = DynamicTool::new("tree", "A tree.", schema).unwrap();
    let value = tool.parse_args(r#"{"root": {"kids": [{"kids": [{"label": null}]}]}}"#)?;
    assert_eq!(
        value,
        json!({"root": {"label": "?", "kids": [{"label": "?", "kids": [{"label": "?"}]}]}})
    );
    let error = tool
        .parse_args(r#"{"root": {"kids": [{"kids": [{"tags": ["a", "a"]}]}]}}"#)
        .unwrap_err();
    assert_eq!(error.path(), "root.kids[0].kids[0].tags[1]");
    Ok(())
}

/// A schema about as deep as `DynamicTool::new` takes (its text nests 128 levels at most), and
/// a chain of `$ref`s, each a level deeper, are built and read with, on a test thread's stack.
#[test]
fn deep_schemas_are_built_within_bounds() {
    let _serial = one_at_a_time();
    let mut schema =
        json!({"type": "object", "properties": {"x": {"type": "integer", "default": 1}}});
    for _ in 0..31 {
        schema =
            json!({"type": "object", "properties": {"a": {"anyOf": [schema, {"type": "null"}]}}});
    }
    let tool = DynamicTool::new("deep", "Deep.", schema).unwrap();
    assert!(tool.parse_args(r#"{"a": {"a": null}}"#).is_ok());
    let mut defs = serde_json::Map::new();
    for level in 0..20 {
        let next = json!({"$ref": format!("#/$defs/L{}", level + 1)});
        defs.insert(
            format!("L{level}"),
            json!({"type": "object", "properties": {
                "next": {"anyOf": [next, {"type": "null"}]},
                "n": {"type": "integer", "default": level}
            }}),
        );
    }
    defs.insert("L20".to_owned(), json!({"type": "object"}));
    let chain =
        json!({"type": "object", "properties": {"first": {"$ref": "#/$defs/L0"}}, "$defs": defs});
    let tool = DynamicTool::new("chain", "A chain.", chain).unwrap();
    let value = tool
        .parse_args(r#"{"first": {"next": {"next": {}}}}"#)
        .unwrap();
    assert_eq!(
        value,
        json!({"first": {"n": 0, "next": {"n": 1, "next": {"n": 2}}}})
    );
}
