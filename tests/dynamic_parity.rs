//! A derived tool and a `DynamicTool` built from its schema read arguments alike: on samples
//! written from the schema of each seed tool and each test tool (every row of the type mapping) (a valid value, then each property left out, `null`,
//! of the wrong type, repeated), both accept the same texts, give the same value (the dynamic
//! tool's value read by the derived type is the derived tool's), and refuse the same texts at
//! the same path with the same kind of error.

mod common;
mod dialect_check;
#[path = "../examples/seed_tools/mod.rs"]
mod seed_tools;

use serde_json::{Map, Value, json};
use toolgen::{ArgsError, ArgsErrorKind, DynamicTool, Tool, ToolSchema};

/// How deep [`sample`] writes before it ends lists (`[]`) and optional values (`null`, or left
/// out).
const DEEP: usize = 6;

/// A value `schema` (inside `root`) takes, as a model would write it: every property, the first
/// alternative that is not `null`, the first `enum` value, lists of one item.
fn sample(schema: &Value, root: &Value, depth: usize) -> Value {
    if depth > 12 {
        return Value::Null;
    }
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let target = reference
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer));
        return target.map_or(Value::Null, |target| sample(target, root, depth + 1));
    }
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        return values.first().cloned().unwrap_or(Value::Null);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = schema.get(key) {
            // Deep down (a recursive type), `null` where it may be, to end the value.
            let null = json!({"type": "null"});
            if depth > DEEP && branches.contains(&null) {
                return Value::Null;
            }
            let branch = branches
                .iter()
                .find(|branch| **branch != null)
                .unwrap_or(&Value::Null);
            return sample(branch, root, depth + 1);
        }
    }
    let nullable =
        matches!(schema.get("type"), Some(Value::Array(types)) if types.contains(&json!("null")));
    if depth > DEEP && nullable {
        return Value::Null;
    }
    let ty = match schema.get("type") {
        Some(Value::String(ty)) => ty.as_str(),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|ty| *ty != "null")
            .unwrap_or("null"),
        _ => "string",
    };
    match ty {
        "object" => {
            let mut map = Map::new();
            let required = schema.get("required").and_then(Value::as_array);
            let required = |key: &str| required.is_some_and(|names| names.contains(&json!(key)));
            if let Some(Value::Object(properties)) = schema.get("properties") {
                for (key, property) in properties {
                    // Deep down (a recursive type), an optional property left out, to end the
                    // value.
                    if depth > DEEP && !required(key) {
                        continue;
                    }
                    map.insert(key.clone(), sample(property, root, depth + 1));
                }
            }
            Value::Object(map)
        }
        "array" if depth > DEEP && schema.get("minItems").is_none() => json!([]),
        "array" if schema.get("prefixItems").is_some() => {
            let prefix = schema.get("prefixItems").and_then(Value::as_array);
            let items = prefix.into_iter().flatten();
            Value::Array(items.map(|item| sample(item, root, depth + 1)).collect())
        }
        "array" => {
            let count = schema
                .get("minItems")
                .and_then(Value::as_u64)
                .unwrap_or(1)
                .max(1);
            let item = schema
                .get("items")
                .map_or(json!("x"), |items| sample(items, root, depth + 1));
            // A set's items differ.
            let items = (0..count)
                .map(|index| match (&item, index) {
                    (Value::String(text), 1..) => json!(format!("{text}{index}")),
                    (Value::Number(_), 1..) => json!(index),
                    _ => item.clone(),
                })
                .collect();
            Value::Array(items)
        }
        "integer" | "number" => {
            let low = schema.get("minimum").and_then(Value::as_f64).unwrap_or(1.0);
            json!(low.max(1.0).ceil() as i64)
        }
        "boolean" => json!(true),
        "null" => Value::Null,
        _ => match schema.get("format").and_then(Value::as_str) {
            Some("date-time") => json!("2026-11-28T10:00:00Z"),
            Some("date") => json!("2026-11-28"),
            Some("email") => json!("a@example.com"),
            Some("uri" | "url") => json!("https://example.com/a"),
            Some("uuid") => json!("67e55044-10b1-426f-9247-bb680e5fe0c8"),
            _ => {
                let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(1);
                json!("x".repeat(usize::try_from(min.max(1)).unwrap()))
            }
        },
    }
}

/// The argument texts tried for a tool: its sample, `{}`, and the sample with each top-level
/// member (and each member of each object one level down) left out, `null`, of another type,
/// and repeated.
fn samples(schema: &Value) -> Vec<String> {
    let full = sample(schema, schema, 0);
    let mut texts = vec![full.to_string(), "{}".to_owned(), String::new()];
    let mut variants = Vec::new();
    variants_of(&full, "", &mut variants, 0);
    texts.extend(variants);
    texts
}

/// The variants of the object at `pointer` in `root`, as texts of the whole arguments; then
/// those of the objects inside it (in a list, its first item), three levels down.
fn variants_of(root: &Value, pointer: &str, out: &mut Vec<String>, depth: usize) {
    let Some(Value::Object(map)) = root.pointer(pointer) else {
        return;
    };
    for (key, member) in map {
        let changes = [
            None,
            Some(Value::Null),
            Some(json!(7)),
            Some(json!("seven")),
            Some(json!([])),
        ];
        for change in changes {
            let mut value = root.clone();
            let Some(Value::Object(object)) = value.pointer_mut(pointer) else {
                continue;
            };
            match change {
                None => {
                    object.remove(key);
                }
                Some(change) => {
                    object.insert(key.clone(), change);
                }
            }
            out.push(value.to_string());
        }
        // The member twice: `{"key": .., "key": ..}`.
        let object = Value::Object(map.clone()).to_string();
        let repeated = format!("{{{}:{member},{}", Value::String(key.clone()), &object[1..]);
        out.push(replace_at(root, pointer, &repeated));
        if depth < 3 {
            let inner = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
            match member {
                Value::Object(_) => variants_of(root, &inner, out, depth + 1),
                Value::Array(items) if !items.is_empty() => {
                    variants_of(root, &format!("{inner}/0"), out, depth + 1);
                }
                _ => {}
            }
        }
    }
}

/// The text of `root` with the value at `pointer` written as `text` (JSON text that may repeat
/// a key, which a `Value` cannot hold).
fn replace_at(root: &Value, pointer: &str, text: &str) -> String {
    const MARK: &str = "\u{1}mark\u{1}";
    if pointer.is_empty() {
        return text.to_owned();
    }
    let mut value = root.clone();
    if let Some(slot) = value.pointer_mut(pointer) {
        *slot = json!(MARK);
    }
    value
        .to_string()
        .replacen(&Value::String(MARK.to_owned()).to_string(), text, 1)
}

/// What a parse gave, to compare: the value, or the error's path and kind.
/// (Which kind a refusal is may differ where the derived type's own `Deserialize` refuses what
/// the schema states as a constraint: the seeds' `NonEmpty`.)
fn outcome(result: &Result<Value, ArgsError>) -> Result<&Value, (String, bool)> {
    result.as_ref().map_err(|error| {
        (
            error.path().to_owned(),
            error.kind() == ArgsErrorKind::Syntax,
        )
    })
}

/// Whether `error` is a missing field that the derived tool read as `None` (`null` in
/// `derived`, its value written back).
fn read_as_none(derived: &Value, error: &ArgsError) -> bool {
    let Some(name) = error
        .message()
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'))
    else {
        return false;
    };
    // Paths of plain keys only (`a.b`), which is what the samples hold here.
    let object = error
        .path()
        .split('.')
        .filter(|key| !key.is_empty())
        .try_fold(derived, |value, key| value.get(key));
    object.and_then(|object| object.get(name)) == Some(&Value::Null)
}

/// Whether the dynamic tool's path goes further into the value than the derived tool's: serde
/// reads an internally tagged enum's variant from a buffered copy of the object, which loses
/// where in it an error is (`operations[0]`, where the dynamic tool says
/// `operations[0].title`).
fn more_precise(derived: &str, dynamic: &str) -> bool {
    dynamic
        .strip_prefix(derived)
        .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
}

/// The samples of one tool that a `DynamicTool` built from its schema reads otherwise, as
/// lines to show; how many samples were compared is added to `compared`.
fn differences(tool: &common::ParsingTool, compared: &mut usize) -> Vec<String> {
    let common::ParsingTool {
        name,
        input_schema,
        parse_args,
        parse_value,
    } = *tool;
    let schema: Value = serde_json::from_str(input_schema).unwrap();
    let dynamic_name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let dynamic = DynamicTool::new(dynamic_name, "A tool.", schema.clone()).unwrap();
    let mut differences = Vec::new();
    for text in samples(&schema) {
        *compared += 1;
        let derived = parse_args(&text);
        let dynamic = dynamic.parse_args(&text);
        // The dynamic tool's value, read by the derived type.
        let read_back = match &dynamic {
            Ok(value) => parse_value(value.clone()),
            Err(error) => Err(error.clone()),
        };
        let same = match (outcome(&derived), outcome(&dynamic)) {
            (Ok(derived), Ok(_)) => read_back.as_ref().ok() == Some(derived),
            // The schema requires a field that serde reads as `None` when it is missing: an
            // `Option` behind a type alias, which the derive cannot see through. The schema,
            // which is what the model sees, is the stricter of the two.
            (Ok(derived), Err(_)) => dynamic
                .as_ref()
                .is_err_and(|error| read_as_none(derived, error)),
            (Err(derived), Err(dynamic)) => {
                derived == dynamic || more_precise(&derived.0, &dynamic.0)
            }
            _ => false,
        };
        if !same {
            differences.push(format!(
                "{name}: {text}\n  derived: {:?}\n  dynamic: {:?}\n  dynamic read back: {:?}",
                derived.as_ref().map_err(ToString::to_string),
                dynamic.as_ref().map_err(ToString::to_string),
                read_back.as_ref().map_err(ToString::to_string),
            ));
        }
    }
    differences
}

#[test]
fn derived_and_dynamic_tools_parse_every_sample_alike() {
    let mut compared = 0;
    let mut found = Vec::new();
    let seeds = seed_tools::SEEDS
        .iter()
        .flat_map(|seed| seed.tools)
        .map(|tool| common::ParsingTool {
            name: tool.name,
            input_schema: tool.input_schema,
            parse_args: tool.parse_args,
            parse_value: tool.parse_value,
        });
    for tool in seeds.chain(common::parsing_tools()) {
        found.extend(differences(&tool, &mut compared));
    }
    assert!(compared > 1000, "{compared} samples");
    assert!(
        found.is_empty(),
        "{} of {compared} samples read differently:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn a_value_of_another_type_is_a_data_error_at_its_field() {
    // serde_json files this as a syntax error, "expected value at line 1 column 25", though the
    // text is JSON: the derived tool says what is wrong, as the dynamic tool does.
    let get_weather = seed_tools::SEEDS
        .iter()
        .flat_map(|seed| seed.tools)
        .find(|tool| tool.name == "get_weather")
        .unwrap();
    for (units, what) in [("null", "null"), ("7", "integer `7`"), ("[]", "sequence")] {
        let text = format!(r#"{{"location": "Riga", "units": {units}}}"#);
        let error = (get_weather.parse_args)(&text).unwrap_err();
        assert_eq!(
            (error.path(), error.message(), error.kind()),
            (
                "units",
                format!("invalid type: {what}, expected a string naming a variant").as_str(),
                ArgsErrorKind::Data
            )
        );
    }
    // The same for a 128-bit integer ("invalid number at line 1 column 10").
    let int128 = common::parsing_tools()
        .into_iter()
        .find(|tool| tool.name == "int128::Folded")
        .unwrap();
    let error = (int128.parse_args)(r#"{"value": "seven"}"#).unwrap_err();
    assert_eq!(
        (error.path(), error.message(), error.kind()),
        (
            "value",
            r#"invalid type: string "seven", expected an integer"#,
            ArgsErrorKind::Data
        )
    );
    // Text that is not JSON stays a syntax error.
    let error = (get_weather.parse_args)(r#"{"location": "Riga", "units": }"#).unwrap_err();
    assert_eq!(error.kind(), ArgsErrorKind::Syntax);
}

/// An unknown variant is worded alike, as serde words it for the derived tool (two names, more
/// names, a long string cut short).
#[test]
fn an_unknown_variant_is_worded_alike() {
    let tools = seed_tools::SEEDS.iter().flat_map(|seed| seed.tools);
    let mut compared = 0;
    for (name, key, valid) in [
        ("get_weather", "units", r#""location": "Riga""#),
        ("read_past_posts", "platform", r#""keywords": ["burnout"]"#),
    ] {
        let Some(tool) = tools.clone().find(|tool| tool.name == name) else {
            panic!("no seed tool {name}");
        };
        let schema: Value = serde_json::from_str(tool.input_schema).unwrap();
        let dynamic = DynamicTool::new(name, "A tool.", schema).unwrap();
        for variant in ["kelvin".to_owned(), "k".repeat(5000)] {
            let text = format!(r#"{{{valid}, "{key}": "{variant}"}}"#);
            let derived = (tool.parse_args)(&text).unwrap_err();
            let dynamic = dynamic.parse_args(&text).unwrap_err();
            assert_eq!(
                (dynamic.path(), dynamic.message(), dynamic.kind()),
                (derived.path(), derived.message(), derived.kind()),
            );
            assert!(derived.message().starts_with("unknown variant `"));
            compared += 1;
        }
    }
    assert_eq!(compared, 4);
}

/// A stock count: a map whose values have constraints of their own.
#[derive(Tool, serde::Deserialize)]
#[allow(dead_code)]
struct CountStock {
    /// Units per shelf, by shelf name.
    shelves: std::collections::HashMap<String, Shelf>,
}

#[derive(ToolSchema, serde::Deserialize)]
#[allow(dead_code)]
struct Shelf {
    #[tool(range(min = 1, max = 9))]
    units: u32,
    #[tool(length(min = 2), pattern = "^[A-Z]")]
    label: String,
    #[tool(length(max = 2))]
    bins: Vec<u32>,
}

/// A broken constraint is worded alike, at the same path, by the one checker both tools use:
/// a number, a text's length and pattern, a list's length, inside a map's value, whose key
/// (the model's) is cut in the path as every path of an argument error cuts it (a derived
/// tool's constraint error showed it whole).
#[test]
fn a_broken_constraint_is_worded_alike_at_the_same_path() {
    let dynamic = DynamicTool::new(
        "count_stock",
        "A tool.",
        serde_json::from_str(CountStock::INPUT_SCHEMA).unwrap(),
    )
    .unwrap();
    let long = "s".repeat(100);
    let mut compared = 0;
    for key in ["a", long.as_str()] {
        for (path, value, message) in [
            ("units", json!(0), "must be at least 1, not 0"),
            ("units", json!(10), "must be at most 9, not 10"),
            (
                "label",
                json!("A"),
                "must have at least 2 characters, not 1",
            ),
            ("label", json!("ab"), "must match the pattern `^[A-Z]`"),
            ("bins", json!([1, 2, 3]), "must have at most 2 items, not 3"),
        ] {
            let mut shelf = json!({"units": 1, "label": "Ab", "bins": []});
            shelf[path] = value;
            let text = format!(r#"{{"shelves": {{"{key}": {shelf}}}}}"#);
            let derived = CountStock::parse_args(&text).err().unwrap();
            let dynamic = dynamic.parse_args(&text).unwrap_err();
            assert_eq!(
                (dynamic.path(), dynamic.message(), dynamic.kind()),
                (derived.path(), derived.message(), derived.kind()),
                "{text}"
            );
            let shown = match key.char_indices().nth(64) {
                Some((end, _)) => format!("{}…", &key[..end]),
                None => key.to_owned(),
            };
            assert_eq!(
                (derived.path(), derived.message(), derived.kind()),
                (
                    format!("shelves.{shown}.{path}").as_str(),
                    message,
                    ArgsErrorKind::Constraint
                ),
                "{text}"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 10);
}

/// Text that is not JSON, or that repeats a key (also inside arguments encoded twice), is
/// refused alike, at the same path and in the same words: both tools read arguments into a
/// value with the one reader.
#[test]
fn broken_text_and_repeated_keys_are_refused_alike() {
    let get_weather = seed_tools::SEEDS
        .iter()
        .flat_map(|seed| seed.tools)
        .find(|tool| tool.name == "get_weather")
        .unwrap();
    let schema: Value = serde_json::from_str(get_weather.input_schema).unwrap();
    let dynamic = DynamicTool::new("get_weather", "A tool.", schema).unwrap();
    let texts = [
        r#"{"location": "#,
        r#"{"location": "Riga",}"#,
        r#"{"location": "Riga", "units": "celsius"} x"#,
        r#"{"location": "Riga", "location": "Oslo"}"#,
        r#""{\"location\": \"Riga\", \"location\": \"Oslo\"}""#,
        r#"{"location": "Riga", "units": "celsius", "units": "kelvin"}"#,
        "  ",
    ];
    for text in texts {
        let derived = (get_weather.parse_args)(text).unwrap_err();
        let dynamic = dynamic.parse_args(text).unwrap_err();
        assert_eq!(
            (dynamic.path(), dynamic.message(), dynamic.kind()),
            (derived.path(), derived.message(), derived.kind()),
            "{text}"
        );
    }
}
