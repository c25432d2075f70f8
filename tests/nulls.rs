//! Null-stripping of defaults: under OpenAI strict mode every field is required and the optional
//! ones nullable, so models send `null` for what they would leave out. `parse_args`,
//! `parse_value` and `parse_bytes` drop those `null`s where the field has a default, so the
//! default applies; keep them for plain `Option` fields (`None`); and leave them for fields with
//! neither, so serde names the field in its error.

use std::collections::{BTreeMap, BTreeSet};

use pretty_assertions::assert_eq;
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::{ArgsError, ArgsErrorKind, Tool, ToolSchema};

/// Parses `text` through `parse_args`, `parse_bytes` and `parse_value` (when it is JSON), checks
/// that they agree, and returns the result. Where `parse_args` takes the fast path and succeeds,
/// checks that the fast path alone (the stripping deserializer, no fallback) gives the same.
#[track_caller]
fn parse<T: Tool + PartialEq + std::fmt::Debug>(text: &str) -> Result<T, ArgsError> {
    let from_text = T::parse_args(text);
    let fast = if T::FACTS.fills() {
        T::FACTS.fills_as_read()
    } else {
        (T::FACTS.checks() || T::FACTS.strips()) && !T::FACTS.fills_anywhere()
    };
    if fast
        && let Ok(parsed) = &from_text
        // Arguments encoded twice are a tolerance of the slow path.
        && !text.trim_start().starts_with('"')
        // So are keys with escapes (models do not escape names).
        && !has_escaped_key(text)
    {
        match toolgen::__private::parse_stripping::<T>(text) {
            Ok(fast) => assert_eq!(&fast, parsed, "fast path"),
            Err(error) => panic!("fast path: {error} for {text}"),
        }
    }
    assert_eq!(T::parse_bytes(text.as_bytes()), from_text, "parse_bytes");
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        let from_value = T::parse_value(value);
        match (&from_value, &from_text) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "parse_value"),
            (Err(a), Err(b)) => assert_eq!(a.path(), b.path(), "parse_value: {a} / {b}"),
            _ => panic!("parse_value {from_value:?}, parse_args {from_text:?}"),
        }
    }
    from_text
}

/// Whether a key of the JSON `text` is written with escapes (a backslash between its quotes).
fn has_escaped_key(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'"' {
            at += 1;
            continue;
        }
        let mut escaped = false;
        at += 1;
        while at < bytes.len() && bytes[at] != b'"' {
            if bytes[at] == b'\\' {
                escaped = true;
                at += 1;
            }
            at += 1;
        }
        at += 1;
        let rest = text.get(at..).unwrap_or("").trim_start();
        if escaped && rest.starts_with(':') {
            return true;
        }
    }
    false
}

/// The error of `text`, which must be of `kind`.
#[track_caller]
fn error_of<T: Tool + PartialEq + std::fmt::Debug>(text: &str, kind: ArgsErrorKind) -> ArgsError {
    match parse::<T>(text) {
        Ok(parsed) => panic!("{text} parsed: {parsed:?}"),
        Err(error) => {
            assert_eq!(error.kind(), kind, "{error}");
            error
        }
    }
}

fn seven() -> u32 {
    7
}

fn some_three() -> Option<u32> {
    Some(3)
}

// ---------------------------------------------------------------------------------------------
// Top level: default vs `Option` vs neither
// ---------------------------------------------------------------------------------------------

/// Save a setting.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Top {
    #[serde(default)]
    plain: u32,
    #[serde(default = "seven")]
    path: u32,
    /// `null` means `None` here.
    maybe: Option<u32>,
    /// A default wins over `Option`'s `None`.
    #[serde(default = "some_three")]
    maybe_default: Option<u32>,
    /// Neither: `null` is an error.
    needed: u32,
}

#[test]
fn top_level_defaults_apply_and_options_are_none() {
    let parsed: Top =
        parse(r#"{"plain":null,"path":null,"maybe":null,"maybe_default":null,"needed":1}"#)
            .unwrap();
    assert_eq!(
        parsed,
        Top {
            plain: 0,
            path: 7,
            maybe: None,
            maybe_default: Some(3),
            needed: 1
        }
    );
    // Values that are there stay.
    let parsed: Top =
        parse(r#"{"plain":1,"path":2,"maybe":3,"maybe_default":4,"needed":5}"#).unwrap();
    assert_eq!(
        (
            parsed.plain,
            parsed.path,
            parsed.maybe,
            parsed.maybe_default
        ),
        (1, 2, Some(3), Some(4))
    );
}

#[test]
fn null_without_a_default_is_a_clear_error() {
    let error = error_of::<Top>(
        r#"{"plain":null,"path":null,"needed":null}"#,
        ArgsErrorKind::Data,
    );
    assert_eq!(
        error.to_string(),
        "invalid arguments at `needed`: invalid type: null, expected u32"
    );
}

#[test]
fn first_middle_last_and_all_members_go() {
    for text in [
        r#"{"plain":null,"needed":1}"#,
        r#"{"needed":1,"plain":null}"#,
        r#"{"path":null,"needed":1,"plain":null}"#,
        r#"{"plain":null,"path":null,"needed":1,"maybe":null}"#,
        r#"{"needed":1,"plain":null,"path":null,"maybe_default":null}"#,
        // Whitespace around `:` and `,`, and line breaks as in pretty-printed JSON.
        " { \"plain\" : null , \"needed\" : 1 , \"path\" :null} ",
        "{\n  \"plain\": null,\n  \"needed\": 1,\n  \"path\": null\n}\n",
        "{\"plain\"\t:\tnull\r\n,\"needed\":1}",
    ] {
        let parsed: Top = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            (parsed.plain, parsed.path, parsed.needed),
            (0, 7, 1),
            "{text}"
        );
    }
}

/// Call with no required fields.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct AllDefaults {
    #[serde(default)]
    a: u32,
    #[serde(default)]
    b: String,
}

#[test]
fn every_member_dropped_leaves_an_empty_object() {
    for text in [
        r#"{"a":null}"#,
        r#"{"a":null,"b":null}"#,
        r#"{ "b" : null }"#,
    ] {
        assert_eq!(
            parse::<AllDefaults>(text).unwrap(),
            AllDefaults {
                a: 0,
                b: String::new()
            },
            "{text}"
        );
    }
}

#[test]
fn escaped_keys_are_compared_decoded() {
    // A key with escapes that names a field with a default is left to the `Value` path: the
    // fast path finds a `null` by the key's place in the text, which decoded keys do not have.
    for text in [
        r#"{"\u0070lain":null,"pa\u0074h":null,"needed":1}"#,
        r#"{"\u0070lain":null,"path":null,"needed":1}"#,
    ] {
        assert!(
            toolgen::__private::parse_stripping::<Top>(text).is_err(),
            "{text}"
        );
        let parsed = Top::parse_args(text).unwrap();
        assert_eq!((parsed.plain, parsed.path, parsed.needed), (0, 7, 1));
        assert_eq!(Top::parse_bytes(text.as_bytes()).unwrap(), parsed);
    }
    // So is a key with escapes that names a field without one (models do not escape names).
    let text = r#"{"plain":null,"\u006eeeded":1,"maybe":null}"#;
    assert!(toolgen::__private::parse_stripping::<Top>(text).is_err());
    let parsed: Top = parse(text).unwrap();
    assert_eq!((parsed.plain, parsed.needed), (0, 1));
    // Escapes in values are serde_json's alone; a string value that looks like a member is
    // text.
    let text = r#"{"b":"\"a\":null,","a":null}"#;
    assert!(!has_escaped_key(text));
    let parsed: AllDefaults = parse(text).unwrap();
    assert_eq!(parsed.b, "\"a\":null,");
}

// ---------------------------------------------------------------------------------------------
// Nested: structs, arrays of objects, map values, `Option` of a struct
// ---------------------------------------------------------------------------------------------

#[derive(ToolSchema, Deserialize, Debug, PartialEq, Default)]
struct Card {
    front: String,
    #[serde(default)]
    back: String,
    #[serde(default = "seven")]
    weight: u32,
    hint: Option<String>,
}

/// Make a deck.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Deck {
    first: Card,
    cards: Vec<Card>,
    by_name: BTreeMap<String, Card>,
    maybe: Option<Box<Card>>,
    /// Map values that are `Option`s keep their `null`s: they are entries.
    counts: BTreeMap<String, Option<u32>>,
}

fn card(front: &str) -> Card {
    Card {
        front: front.into(),
        back: String::new(),
        weight: 7,
        hint: None,
    }
}

#[test]
fn nested_objects_arrays_and_maps() {
    let text = json!({
        "first": {"front": "a", "back": null, "weight": null, "hint": null},
        "cards": [
            {"front": "b", "back": null, "weight": null, "hint": null},
            {"back": "x", "front": "c", "weight": 1, "hint": "h"},
            {"weight": null, "front": "d", "back": null, "hint": null},
        ],
        "by_name": {"e": {"front": "e", "back": null, "weight": null, "hint": null}, "weight": {"front": "f", "weight": null}},
        "maybe": {"front": "g", "back": null, "weight": null, "hint": null},
        "counts": {"k": null, "weight": null},
    })
    .to_string();
    let parsed: Deck = parse(&text).unwrap();
    assert_eq!(
        parsed,
        Deck {
            first: card("a"),
            cards: vec![
                card("b"),
                Card {
                    front: "c".into(),
                    back: "x".into(),
                    weight: 1,
                    hint: Some("h".into())
                },
                card("d")
            ],
            by_name: BTreeMap::from([("e".into(), card("e")), ("weight".into(), card("f"))]),
            maybe: Some(Box::new(card("g"))),
            counts: BTreeMap::from([("k".into(), None), ("weight".into(), None)]),
        }
    );
    let parsed: Deck =
        parse(r#"{"first":{"front":"a"},"cards":[],"by_name":{},"maybe":null,"counts":{}}"#)
            .unwrap();
    assert_eq!(parsed.maybe, None);
}

#[test]
fn errors_after_stripping_name_the_right_path() {
    let text = json!({
        "first": {"front": "a", "back": null},
        "cards": [
            {"front": "b", "back": null, "weight": null},
            {"back": null, "front": null, "weight": null},
        ],
        "by_name": {},
        "maybe": null,
        "counts": {},
    })
    .to_string();
    let error = error_of::<Deck>(&text, ArgsErrorKind::Data);
    assert_eq!(
        error.to_string(),
        "invalid arguments at `cards[1].front`: invalid type: null, expected a string"
    );
    let text = text.replace(r#""front":null"#, r#""front":"c","weight":"heavy""#);
    let text = text.replace(r#","weight":null}]"#, "}]");
    let error = error_of::<Deck>(&text, ArgsErrorKind::Data);
    assert_eq!(error.path(), "cards[1].weight");
}

/// Keep cards (defaulted fields whose values are objects and arrays).
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Keep {
    #[serde(default)]
    card: Card,
    #[serde(default)]
    pair: (u32, Card),
    #[serde(default)]
    cards: Vec<Card>,
}

#[test]
fn defaulted_objects_and_arrays_are_kept_and_stripped_inside() {
    let text = json!({
        "card": {"front": "a", "back": null, "weight": null, "hint": null},
        "pair": [1, {"front": "b", "weight": null}],
        "cards": [{"front": "c", "back": null}, {"front": "d", "weight": 2}],
    })
    .to_string();
    assert_eq!(
        parse::<Keep>(&text).unwrap(),
        Keep {
            card: card("a"),
            pair: (1, card("b")),
            cards: vec![
                card("c"),
                Card {
                    weight: 2,
                    ..card("d")
                }
            ],
        }
    );
    let parsed: Keep = parse(r#"{"card":null,"pair":null,"cards":null}"#).unwrap();
    assert_eq!(
        parsed,
        Keep {
            card: Card::default(),
            pair: (0, Card::default()),
            cards: vec![]
        }
    );
    // A `null` inside a tuple is an item, not a member: it stays, for serde to reject.
    let error = error_of::<Keep>(r#"{"pair":[1,null]}"#, ArgsErrorKind::Data);
    assert_eq!(error.path(), "pair[1]");
}

// ---------------------------------------------------------------------------------------------
// `#[tool(default)]`, container defaults, flatten, the `Value` path
// ---------------------------------------------------------------------------------------------

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(default)]
struct Settings {
    size: u32,
    name: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            size: 10,
            name: "standard".into(),
        }
    }
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Extra {
    #[serde(default)]
    level: u8,
    note: Option<String>,
}

/// Configure things.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Configure {
    #[tool(default = 5)]
    retries: u32,
    #[tool(default = "fast")]
    mode: String,
    settings: Settings,
    #[serde(default)]
    fallback: Settings,
    #[serde(flatten)]
    extra: Extra,
}

#[test]
fn tool_defaults_container_defaults_and_flatten() {
    let parsed: Configure = parse(
        r#"{"retries":null,"mode":null,"settings":{"size":null,"name":null},"fallback":null,"level":null,"note":null}"#,
    )
    .unwrap();
    assert_eq!(
        parsed,
        Configure {
            retries: 5,
            mode: "fast".into(),
            settings: Settings::default(),
            fallback: Settings::default(),
            extra: Extra {
                level: 0,
                note: None
            },
        }
    );
    let parsed: Configure =
        parse(r#"{"retries":1,"settings":{"size":3,"name":null},"level":2}"#).unwrap();
    assert_eq!(
        (
            parsed.retries,
            parsed.settings.size,
            parsed.settings.name,
            parsed.extra.level
        ),
        (1, 3, "standard".into(), 2)
    );
}

/// Flatten a map next to defaults.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct WithRest {
    #[serde(default)]
    known: u32,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

#[test]
fn a_flattened_map_keeps_its_nulls() {
    let parsed: WithRest = parse(r#"{"known":null,"other":null}"#).unwrap();
    assert_eq!(parsed.known, 0);
    assert_eq!(parsed.rest, BTreeMap::from([("other".into(), Value::Null)]));
}

/// Tag things (a set: the arguments go through a `serde_json::Value`).
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Tag {
    labels: BTreeSet<String>,
    #[serde(default)]
    cards: Vec<Card>,
    #[serde(default)]
    weight: u32,
}

#[test]
fn types_read_through_a_value_are_stripped_there() {
    let parsed: Tag =
        parse(r#"{"labels":["a"],"cards":[{"front":"x","back":null}],"weight":null}"#).unwrap();
    assert_eq!((parsed.cards, parsed.weight), (vec![card("x")], 0));
    // And arguments encoded twice, a tolerance of the value path.
    let parsed: Top = parse(r#""{\"plain\":null,\"needed\":2}""#).unwrap();
    assert_eq!((parsed.plain, parsed.needed), (0, 2));
    let parsed: Tag = parse(r#""{\"labels\":[],\"weight\":null}""#).unwrap();
    assert_eq!(parsed.weight, 0);
}

// ---------------------------------------------------------------------------------------------
// Enums: every representation
// ---------------------------------------------------------------------------------------------

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Side {
    #[serde(default = "seven")]
    length: u32,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
enum External {
    Dot,
    Circle {
        #[serde(default)]
        radius: u32,
    },
    Square(Side),
    Pair(Side, Side),
    #[serde(untagged)]
    Loose {
        #[serde(default)]
        loose: u32,
    },
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "kind")]
enum Internal {
    Dot,
    Circle {
        #[serde(default)]
        radius: u32,
    },
    Square(Side),
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "kind", content = "data")]
enum Adjacent {
    Dot,
    Circle {
        #[serde(default)]
        radius: u32,
    },
    Square(Side),
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Untagged {
    Circle {
        radius: u32,
        #[serde(default)]
        filled: bool,
    },
    Square(Side),
}

/// Draw shapes.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Draw {
    external: Vec<External>,
    internal: Vec<Internal>,
    adjacent: Vec<Adjacent>,
    untagged: Vec<Untagged>,
}

#[test]
fn every_enum_representation() {
    let text = json!({
        "external": [
            "Dot",
            {"Circle": {"radius": null}},
            {"Square": {"length": null}},
            {"Pair": [{"length": null}, {"length": 1}]},
            {"loose": null},
        ],
        "internal": [
            {"kind": "Dot"},
            {"radius": null, "kind": "Circle"},
            {"kind": "Square", "length": null},
        ],
        "adjacent": [
            {"kind": "Dot"},
            {"kind": "Circle", "data": {"radius": null}},
            {"data": {"length": null}, "kind": "Square"},
        ],
        "untagged": [
            {"radius": 1, "filled": null},
            {"length": null},
        ],
    })
    .to_string();
    let parsed: Draw = parse(&text).unwrap();
    assert_eq!(
        parsed,
        Draw {
            external: vec![
                External::Dot,
                External::Circle { radius: 0 },
                External::Square(Side { length: 7 }),
                External::Pair(Side { length: 7 }, Side { length: 1 }),
                External::Loose { loose: 0 },
            ],
            internal: vec![
                Internal::Dot,
                Internal::Circle { radius: 0 },
                Internal::Square(Side { length: 7 }),
            ],
            adjacent: vec![
                Adjacent::Dot,
                Adjacent::Circle { radius: 0 },
                Adjacent::Square(Side { length: 7 }),
            ],
            untagged: vec![
                Untagged::Circle {
                    radius: 1,
                    filled: false
                },
                Untagged::Square(Side { length: 7 }),
            ],
        }
    );
}

/// An edit, found by its `op`: `note` is a value where `null` means "clear it" in one variant,
/// and a string with a default in the other.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case")]
enum Edit {
    SetNote {
        /// `null` clears the note.
        note: Value,
    },
    Rename {
        name: String,
        #[serde(default)]
        note: String,
    },
    Touch,
}

/// The same, adjacently tagged.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
enum AdjacentEdit {
    SetNote {
        note: Value,
    },
    Rename {
        name: String,
        #[serde(default)]
        note: String,
    },
}

/// Apply edits.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct ApplyEdits {
    edits: Vec<Edit>,
    adjacent: Vec<AdjacentEdit>,
}

#[test]
fn each_variant_of_a_tagged_enum_strips_as_it_reads() {
    // Before: a `null` was dropped where any variant defaulted its key, so `set_note` lost its
    // `null` and serde refused the missing `note`.
    let text = json!({
        "edits": [
            {"op": "set_note", "note": null},
            // The tag after the member it decides.
            {"note": null, "op": "set_note"},
            {"op": "rename", "name": "a", "note": null},
            {"note": null, "name": "b", "op": "rename"},
            {"op": "touch"},
        ],
        "adjacent": [
            {"op": "set_note", "args": {"note": null}},
            {"args": {"name": "c", "note": null}, "op": "rename"},
        ],
    })
    .to_string();
    let parsed: ApplyEdits = parse(&text).unwrap();
    let rename = |name: &str| Edit::Rename {
        name: name.to_owned(),
        note: String::new(),
    };
    assert_eq!(
        parsed,
        ApplyEdits {
            edits: vec![
                Edit::SetNote { note: Value::Null },
                Edit::SetNote { note: Value::Null },
                rename("a"),
                rename("b"),
                Edit::Touch,
            ],
            adjacent: vec![
                AdjacentEdit::SetNote { note: Value::Null },
                AdjacentEdit::Rename {
                    name: "c".to_owned(),
                    note: String::new(),
                },
            ],
        }
    );

    // A tag with escapes, in its value or in its key (the key is left to the `Value` path),
    // and white space everywhere.
    for text in [
        r#"{"edits":[{"note":null,"op":"set\u005fnote"},{"op":"re\u006eame","name":"d","note":null}],"adjacent":[]}"#,
        r#"{"edits":[{"\u006fp":"rename","name":"d","note":null},{"note":null,"o\u0070":"set_note"}],"adjacent":[]}"#,
        "{ \"edits\" : [ { \"note\" : null , \"op\" : \"set_note\" } ] , \"adjacent\" : [ ] }",
    ] {
        let parsed = ApplyEdits::parse_args(text).unwrap();
        assert_eq!(ApplyEdits::parse_bytes(text.as_bytes()).unwrap(), parsed);
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(ApplyEdits::parse_value(value).unwrap(), parsed);
    }

    // A missing or unknown tag is serde's error, whatever is stripped.
    for edit in [
        json!({"note": null}),
        json!({"op": "nope", "note": null}),
        json!({"op": 7, "note": null}),
    ] {
        let text = json!({"edits": [edit], "adjacent": []}).to_string();
        let error = parse::<ApplyEdits>(&text).unwrap_err();
        assert!(error.path().starts_with("edits[0]"), "{error}");
    }
}

/// An edit with a label, the edit flattened in beside it.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Labeled {
    #[serde(default)]
    label: String,
    #[serde(flatten)]
    edit: Edit,
}

/// Apply labeled edits.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct ApplyLabeled {
    edits: Vec<Labeled>,
}

#[test]
fn a_flattened_tagged_enum_strips_as_its_variant_reads() {
    let text = json!({
        "edits": [
            {"label": null, "note": null, "op": "set_note"},
            {"op": "rename", "note": null, "label": null, "name": "a"},
        ],
    })
    .to_string();
    let parsed: ApplyLabeled = parse(&text).unwrap();
    // serde also reads a variant's index as the tag where it buffers the object (a flattened
    // enum): the index names the variant whose nulls go.
    let by_index = json!({
        "edits": [
            {"label": null, "note": null, "op": 0},
            {"op": 1, "note": null, "label": null, "name": "a"},
        ],
    })
    .to_string();
    assert_eq!(parse::<ApplyLabeled>(&by_index).unwrap(), parsed);
    assert_eq!(
        parsed.edits,
        vec![
            Labeled {
                label: String::new(),
                edit: Edit::SetNote { note: Value::Null },
            },
            Labeled {
                label: String::new(),
                edit: Edit::Rename {
                    name: "a".to_owned(),
                    note: String::new(),
                },
            },
        ]
    );
}

/// An untagged edit: serde tries `SetNote` first, where `note: null` is a value, then
/// `Rename`, where `note` has a default.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum LooseEdit {
    SetNote {
        set: u32,
        /// `null` clears the note.
        note: Value,
    },
    Rename {
        name: String,
        #[serde(default)]
        note: String,
    },
}

/// The same variants the other way round: `Rename` is tried first.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum LooseEditRenameFirst {
    Rename {
        name: String,
        #[serde(default)]
        note: String,
    },
    SetNote {
        set: u32,
        note: Value,
    },
}

/// Two variants both of which read `{"note": null}`: the one serde tries first decides.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum KeepFirst {
    Keep {
        note: Value,
    },
    Default {
        #[serde(default)]
        note: String,
    },
}

/// As [`KeepFirst`], the other way round.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum DefaultFirst {
    Default {
        #[serde(default)]
        note: String,
    },
    Keep {
        note: Value,
    },
}

/// Apply untagged edits.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct ApplyLoose {
    edits: Vec<LooseEdit>,
    #[serde(default)]
    rename_first: Vec<LooseEditRenameFirst>,
    #[serde(default)]
    keep_first: Option<KeepFirst>,
    #[serde(default)]
    default_first: Option<DefaultFirst>,
}

/// The same, with a `#[tool(default)]`: its arguments are always read through a `Value`.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct ApplyLooseFilled {
    edits: Vec<LooseEdit>,
    #[tool(default = 3)]
    times: u32,
}

/// `parse_args`, `parse_bytes` and `parse_value` of `text`, which must agree.
#[track_caller]
fn parse_three<T: Tool + PartialEq + std::fmt::Debug>(text: &str) -> Result<T, ArgsError> {
    let parsed = T::parse_args(text);
    assert_eq!(T::parse_bytes(text.as_bytes()), parsed, "parse_bytes");
    let value: Value = serde_json::from_str(text).unwrap();
    match (T::parse_value(value), &parsed) {
        (Ok(a), Ok(b)) => assert_eq!(&a, b, "parse_value"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "parse_value"),
        (a, b) => panic!("parse_value {a:?}, parse_args {b:?}"),
    }
    parsed
}

#[test]
fn an_untagged_enum_tries_a_disputed_null_kept_and_dropped() {
    // Before: a `null` was dropped where any variant defaulted its key, so `SetNote` never saw
    // its `null` (the first two edits, and `keep_first`, were read wrongly or refused).
    let text = json!({
        "edits": [
            {"set": 1, "note": null},
            {"note": null, "set": 2},
            {"name": "a", "note": null},
            {"name": "b", "note": "x"},
            {"set": 3, "note": "y"},
        ],
        "rename_first": [
            {"set": 4, "note": null},
            {"name": "c", "note": null},
        ],
        "keep_first": {"note": null},
        "default_first": {"note": null},
    })
    .to_string();
    let parsed = parse_three::<ApplyLoose>(&text).unwrap();
    let set = |set: u32, note: Value| LooseEdit::SetNote { set, note };
    let rename = |name: &str, note: &str| LooseEdit::Rename {
        name: name.to_owned(),
        note: note.to_owned(),
    };
    assert_eq!(
        parsed,
        ApplyLoose {
            edits: vec![
                set(1, Value::Null),
                set(2, Value::Null),
                rename("a", ""),
                rename("b", "x"),
                set(3, json!("y")),
            ],
            rename_first: vec![
                LooseEditRenameFirst::SetNote {
                    set: 4,
                    note: Value::Null,
                },
                LooseEditRenameFirst::Rename {
                    name: "c".to_owned(),
                    note: String::new(),
                },
            ],
            // As serde reads `{"note": null}` and `{}` variant by variant: the first variant
            // that reads the object wins.
            keep_first: Some(KeepFirst::Keep { note: Value::Null }),
            default_first: Some(DefaultFirst::Default {
                note: String::new(),
            }),
        }
    );
    // The fast path leaves a disputed `null` to the slow one; without one it reads the text.
    assert!(toolgen::__private::parse_stripping::<ApplyLoose>(&text).is_err());
    let undisputed = json!({"edits": [{"name": "a", "note": "x"}], "keep_first": null});
    assert_eq!(
        toolgen::__private::parse_stripping::<ApplyLoose>(&undisputed.to_string()).unwrap(),
        parse_three::<ApplyLoose>(&undisputed.to_string()).unwrap(),
    );

    // Through a `Value`, with a default to fill in.
    let filled =
        json!({"edits": [{"set": 1, "note": null}, {"name": "a", "note": null}], "times": null});
    assert_eq!(
        parse_three::<ApplyLooseFilled>(&filled.to_string()).unwrap(),
        ApplyLooseFilled {
            edits: vec![set(1, Value::Null), rename("a", "")],
            times: 3,
        }
    );

    // Neither choice reads: serde's error, at the edit.
    let error = parse_three::<ApplyLoose>(r#"{"edits": [{"note": null}]}"#).unwrap_err();
    assert_eq!(error.path(), "edits[0]", "{error}");
    let error =
        parse_three::<ApplyLooseFilled>(r#"{"edits": [{"note": null}], "times": 1}"#).unwrap_err();
    assert_eq!(error.path(), "edits[0]", "{error}");
    // After an object settled the other way, the next that neither way reads is the error.
    let text =
        r#"{"edits": [{"name": "a", "note": null}, {"set": 1, "note": null}, {"note": null}]}"#;
    let error = parse_three::<ApplyLoose>(text).unwrap_err();
    assert_eq!(error.path(), "edits[2]", "{error}");

    // Object by object: a hundred edits, every other one the other way from the first choice.
    let edits: Vec<Value> = (0..100)
        .map(|i| match i % 2 {
            0 => json!({"set": i, "note": null}),
            _ => json!({"name": i.to_string(), "note": null}),
        })
        .collect();
    let parsed = parse_three::<ApplyLoose>(&json!({ "edits": edits }).to_string()).unwrap();
    let expected: Vec<LooseEdit> = (0..100)
        .map(|i| match i % 2 {
            0 => set(i, Value::Null),
            _ => rename(&i.to_string(), ""),
        })
        .collect();
    assert_eq!(parsed.edits, expected);
}

// ---------------------------------------------------------------------------------------------
// A self-recursive type
// ---------------------------------------------------------------------------------------------

/// A tree of labels.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Tree {
    #[serde(default)]
    label: String,
    #[serde(default)]
    children: Vec<Tree>,
    parent: Option<Box<Tree>>,
}

fn leaf() -> Tree {
    Tree {
        label: String::new(),
        children: Vec::new(),
        parent: None,
    }
}

#[test]
fn a_recursive_type_is_stripped_at_every_level() {
    let text = json!({
        "label": null,
        "children": [
            {"label": null, "children": [{"label": null, "children": null, "parent": null}], "parent": null},
            {"label": "b", "children": null, "parent": {"label": null, "children": null, "parent": null}},
        ],
        "parent": null,
    })
    .to_string();
    let parsed: Tree = parse(&text).unwrap();
    assert_eq!(
        parsed,
        Tree {
            label: String::new(),
            children: vec![
                Tree {
                    children: vec![leaf()],
                    ..leaf()
                },
                Tree {
                    label: "b".into(),
                    parent: Some(Box::new(leaf())),
                    ..leaf()
                },
            ],
            parent: None,
        }
    );
}

// ---------------------------------------------------------------------------------------------
// Malformed, hostile and huge input
// ---------------------------------------------------------------------------------------------

#[test]
fn wrong_arguments_are_reported_where_they_are_wrong() {
    for text in [
        r#"{"plain":null,"needed":1"#,
        r#"{"plain":null,"needed":1,}"#,
        r#"{"plain":null "needed":1}"#,
        r#"{"needed":1 "plain":null}"#,
        r#"{"plain" null,"needed":1}"#,
        r#"{"plain":nul,"needed":1}"#,
        r#"{"plain":null,"needed":1}}"#,
        r#"{"plain":null,"needed":1} x"#,
        r#"{"plain":null,"needed":01}"#,
        r#"{"plain":null,"needed":1,"maybe":1e999}"#,
        // Wrong inside a part with nothing to strip.
        r#"{"plain":null,"needed":1,"x":[1 2]}"#,
        r#"{"plain":null,"needed":1,"x":{"a" 1}}"#,
        r#"{"plain":null,"needed":1,"x":["\q"]}"#,
        r#"{"plain":null,"\ud800":1,"needed":1}"#,
        r#"{"plain":null,"needed":1,"x":"\q"}"#,
        "{\"plain\":null,\"needed\":1,\"x\":\"\u{1}\"}",
        r#"{"plain":null,"plain":1,"needed":1}"#,
        r#"{"plain":1,"plain":null,"needed":1}"#,
        r#"{"plain":null,"\u0070lain":null,"needed":1}"#,
        r#"{"plain":1,"plain":2,"needed":1}"#,
        r#"{"needed":1,"needed":2,"plain":null}"#,
        // Well-formed, of the wrong shape.
        r#"{"plain":null,"needed":"x"}"#,
        r#"{"needed":1,"plain":null,"maybe":{"plain":null,"needed":[]}}"#,
    ] {
        // Not on the fast path: serde_json rejects the text there, or a key with a default
        // repeats (dropping one copy would hide the repeat from serde).
        assert!(
            toolgen::__private::parse_stripping::<Top>(text).is_err(),
            "{text}"
        );
        // The `null` sent for a field with a default is never the error: the error is the one
        // the same text gives with a value there, read without stripping (the free
        // `parse_args`), found where serde_json reads the text as JSON (a syntax error's path
        // may go deeper, into a field serde would skip; its column counts the byte that is
        // wrong, where skipping counts the one before).
        let valued = text.replace(r#""plain":null"#, r#""plain":1234"#);
        let expected = toolgen::parse_args::<Top>(&valued).expect_err(&valued);
        let now = Top::parse_args(text).expect_err(text);
        let without_place = |message: &str| message.split(" at line ").next().map(str::to_owned);
        assert_eq!(now.kind(), expected.kind(), "{text}");
        assert_eq!(
            without_place(now.message()),
            without_place(expected.message()),
            "{text}"
        );
        assert!(now.path().starts_with(expected.path()), "{text}: {now}");
        assert_eq!(
            Top::parse_bytes(text.as_bytes()).unwrap_err(),
            now,
            "{text}"
        );
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    // Through the recursive type, beyond serde_json's limit.
    // Each level is an object and an array: serde_json reads at most 127 nested ones.
    for depth in [60, 70, 100_000] {
        let text = format!(
            r#"{}{{"label":null}}{}"#,
            r#"{"label":null,"children":["#.repeat(depth),
            "]}".repeat(depth)
        );
        let result = Tree::parse_args(&text);
        if depth < 63 {
            assert_eq!(
                toolgen::__private::parse_stripping::<Tree>(&text)
                    .as_ref()
                    .ok(),
                result.as_ref().ok()
            );
            let mut tree = result.unwrap();
            let mut levels = 0;
            while let Some(child) = tree.children.pop() {
                tree = child;
                levels += 1;
            }
            assert_eq!(levels, depth);
        } else {
            // Deeper than serde_json reads: that is the error, whatever `null`s the text has
            // (not the first `null`, which strict mode sends for a field with a default).
            let error = result.unwrap_err();
            assert_eq!(error.kind(), ArgsErrorKind::Syntax);
            assert!(
                error.message().starts_with("recursion limit exceeded"),
                "{error}"
            );
            let text = text.replace(r#""label":null"#, r#""label":"x""#);
            let error = Tree::parse_args(&text).unwrap_err();
            assert!(
                error.message().starts_with("recursion limit exceeded"),
                "{error}"
            );
        }
    }
    // Unclosed, and in a part of the value with nothing to strip.
    let text = format!(r#"{{"plain":null,"needed":1,"x":{}"#, "[".repeat(100_000));
    let error = Top::parse_args(&text).unwrap_err();
    assert_eq!(error.kind(), ArgsErrorKind::Syntax);
    assert!(
        error.message().starts_with("recursion limit exceeded"),
        "{error}"
    );
    // A deep `Value` given to `parse_value` is an error too.
    let mut value = json!({"label": null});
    for _ in 0..200 {
        value = json!({"label": null, "children": [value]});
    }
    assert_eq!(
        Tree::parse_value(value).unwrap_err().kind(),
        ArgsErrorKind::Data
    );
}

#[test]
fn huge_arguments_parse() {
    let cards: Vec<Value> = (0..100_000)
        .map(|i| json!({"front": format!("card {i}"), "back": null, "weight": null, "hint": null}))
        .collect();
    let text = json!({
        "first": {"front": "a", "back": null},
        "cards": cards,
        "by_name": {},
        "maybe": null,
        "counts": {},
    })
    .to_string();
    assert!(text.len() > 5 << 20);
    let parsed = Deck::parse_args(&text).unwrap();
    assert_eq!(
        toolgen::__private::parse_stripping::<Deck>(&text).unwrap(),
        parsed
    );
    assert_eq!(parsed.cards.len(), 100_000);
    assert_eq!(parsed.cards[99_999], card("card 99999"));
    // One key written with escapes, which the stripping parse leaves to the `Value` path: read
    // there, into the same deck.
    let escaped = text.replacen(r#""back":null"#, r#""\u0062ack":null"#, 1);
    assert!(toolgen::__private::parse_stripping::<Deck>(&escaped).is_err());
    assert_eq!(Deck::parse_args(&escaped).unwrap(), parsed);
    // Broken at the very end: that is the error (not the first `null`), and it is short.
    let broken = &text[..text.len() - 1];
    let error = Deck::parse_args(broken).unwrap_err();
    assert_eq!(error.kind(), ArgsErrorKind::Syntax);
    assert!(error.message().starts_with("EOF while parsing"), "{error}");
    assert!(error.to_string().len() < 200, "{error}");
}

// ---------------------------------------------------------------------------------------------
// Generated: random strict-mode arguments
// ---------------------------------------------------------------------------------------------

/// A card as the model might send it: each defaulted field given, `null`, or left out.
fn card_json() -> impl Strategy<Value = Value> {
    let field =
        |present: Value| prop_oneof![Just(Some(present)), Just(Some(Value::Null)), Just(None)];
    (
        // Text that looks like JSON, members to drop included.
        "(null|back|[a-z\"\\\\{},: ]){0,8}",
        field(json!("back")),
        field(json!(3)),
        prop_oneof![Just(Some(json!("h"))), Just(Some(Value::Null)), Just(None)],
        any::<u64>(),
    )
        .prop_map(|(front, back, weight, hint, order)| {
            let mut members = vec![
                ("front", Some(json!(front))),
                ("back", back),
                ("weight", weight),
                ("hint", hint),
            ];
            // A member order of its own for every card.
            let len = members.len();
            for i in (1..len).rev() {
                let j = (order >> (i * 8)) as usize % (i + 1);
                members.swap(i, j);
            }
            let mut map = serde_json::Map::new();
            for (key, value) in members {
                if let Some(value) = value {
                    map.insert(key.into(), value);
                }
            }
            Value::Object(map)
        })
}

/// `value` without the members that are `null` where the field has a default.
fn without_default_nulls(value: &Value) -> Value {
    let mut value = value.clone();
    for card in value["cards"].as_array_mut().unwrap() {
        let card = card.as_object_mut().unwrap();
        card.retain(|key, member| !(member.is_null() && (key == "back" || key == "weight")));
    }
    value
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Whatever the nulls, the order and the layout, `parse_args` gives what serde gives for the
    /// arguments with the defaulted nulls taken out by hand.
    #[test]
    fn strict_arguments_parse_as_if_the_nulls_were_left_out(
        cards in prop::collection::vec(card_json(), 0..6),
        pretty in any::<bool>(),
    ) {
        let value = json!({
            "first": {"front": "x"}, "cards": cards, "by_name": {}, "maybe": null, "counts": {},
        });
        let text = if pretty {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            serde_json::to_string(&value).unwrap()
        };
        let expected = serde_json::from_value::<Deck>(without_default_nulls(&value)).unwrap();
        prop_assert_eq!(&parse::<Deck>(&text).unwrap(), &expected);
        prop_assert_eq!(Deck::parse_value(value).unwrap(), expected);
    }
}

/// Optional fields whose default is `None`.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct NoneByDefault {
    #[serde(default)]
    limit: Option<u32>,
    #[serde(default)]
    tags: Option<Vec<String>>,
}

/// The same, where the container's `Default` may set them.
#[derive(Tool, Deserialize, Debug, PartialEq)]
#[serde(default)]
struct ContainerDefault {
    limit: Option<u32>,
}

impl Default for ContainerDefault {
    fn default() -> Self {
        ContainerDefault { limit: Some(5) }
    }
}

#[test]
fn an_option_that_defaults_to_none_needs_no_stripping() {
    // `null` reads as `None`, which is the default: the fast path is plain serde_json.
    const NONE_STRIPS: bool = <NoneByDefault as toolgen::ToolSchema>::FACTS.strips();
    const CONTAINER_STRIPS: bool = <ContainerDefault as toolgen::ToolSchema>::FACTS.strips();
    assert_eq!((NONE_STRIPS, CONTAINER_STRIPS), (false, true));
    assert_eq!(
        parse::<NoneByDefault>(r#"{"limit": null, "tags": null}"#).unwrap(),
        NoneByDefault {
            limit: None,
            tags: None
        }
    );
    assert_eq!(
        parse::<NoneByDefault>(r#"{"tags": ["a"]}"#).unwrap(),
        NoneByDefault {
            limit: None,
            tags: Some(vec!["a".into()])
        }
    );
    // A container default is not `None`: its `null`s are dropped, so it applies.
    assert_eq!(
        parse::<ContainerDefault>(r#"{"limit": null}"#).unwrap(),
        ContainerDefault { limit: Some(5) }
    );
}
