//! Schemas longer than the buffer the derive writes a text into in one walk (8 KiB): their
//! text is written again, by a second walk, and must be the same as a shorter one's would be.
//! Both places the derive writes a text are covered: a tool's `INPUT_SCHEMA`, and the text a
//! nested type's schema is kept as, which the tools that hold it copy.

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use toolgen::{Tool, ToolSchema};

/// The buffer's size (`toolgen_runtime::rope::CAP`): every text below is longer.
const ONE_WALK: usize = 8192;

/// The description of every field below: 200 characters, so 50 fields make about 11 KB.
const DESCRIPTION: &str = "A field with a long description, so that the schema of the type holding fifty of them is longer than the buffer the derive writes a schema's text into in one walk, which is eight KiB long..";

/// A struct of fifty `String` fields, `f00` to `f49`, each described by [`DESCRIPTION`].
macro_rules! wide {
    ($(#[$meta:meta])* struct $name:ident) => {
        wide!(@ $(#[$meta])* $name [
            f00 f01 f02 f03 f04 f05 f06 f07 f08 f09 f10 f11 f12 f13 f14 f15 f16 f17 f18 f19 f20
            f21 f22 f23 f24 f25 f26 f27 f28 f29 f30 f31 f32 f33 f34 f35 f36 f37 f38 f39 f40 f41
            f42 f43 f44 f45 f46 f47 f48 f49
        ]);
    };
    (@ $(#[$meta:meta])* $name:ident [$($field:ident)*]) => {
        $(#[$meta])*
        #[allow(dead_code)]
        struct $name {
            $(
                #[doc = "A field with a long description, so that the schema of the type holding fifty of them is longer than the buffer the derive writes a schema's text into in one walk, which is eight KiB long.."]
                $field: String,
            )*
        }
    };
}

wide! {
    /// A tool whose own schema is long.
    #[derive(Tool, Deserialize)]
    struct LongTool
}

wide! {
    /// A nested type whose schema is long.
    #[derive(ToolSchema, Deserialize)]
    struct LongPart
}

/// A short tool that holds the long nested type twice.
#[derive(Tool, Deserialize)]
#[allow(dead_code)]
struct HoldsLongPart {
    /// The part.
    part: LongPart,
    parts: Vec<LongPart>,
}

/// The object schema of the fifty fields, with `extra` members (a description) beside them.
fn fifty_fields(extra: &[(&str, Value)]) -> Value {
    let names: Vec<String> = (0..50).map(|i| format!("f{i:02}")).collect();
    let properties: Map<String, Value> = names
        .iter()
        .map(|name| {
            let property = json!({"type": "string", "description": DESCRIPTION});
            (name.clone(), property)
        })
        .collect();
    let mut object = json!({"type": "object", "properties": properties, "required": names});
    for (key, value) in extra {
        object[*key] = value.clone();
    }
    object
}

fn parsed(text: &str) -> Value {
    serde_json::from_str(text).expect("the schema is JSON")
}

#[test]
fn a_tool_schema_longer_than_one_walk_is_written_whole() {
    let text = <LongTool as Tool>::INPUT_SCHEMA;
    assert!(text.len() > ONE_WALK, "{} bytes", text.len());
    assert_eq!(parsed(text), fifty_fields(&[]));
}

#[test]
fn a_nested_schema_longer_than_one_walk_is_written_whole_where_it_is_held() {
    let text = <HoldsLongPart as Tool>::INPUT_SCHEMA;
    assert!(text.len() > 2 * ONE_WALK, "{} bytes", text.len());
    let part = fifty_fields(&[("description", json!("A nested type whose schema is long."))]);
    let mut item = part.clone();
    item["description"] = json!("A nested type whose schema is long.");
    let expected = json!({
        "type": "object",
        "properties": {
            "part": {
                "type": "object",
                "description": "The part.",
                "properties": part["properties"],
                "required": part["required"],
            },
            "parts": {"type": "array", "items": item},
        },
        "required": ["part", "parts"],
    });
    assert_eq!(parsed(text), expected);
}

#[test]
fn a_long_schema_is_the_text_the_runtime_walk_writes() {
    // The same ropes written at run time, by the walk `schema_text` makes: one buffer of the
    // right length, no second walk.
    let at_run_time = <HoldsLongPart as ToolSchema>::json_schema();
    let mut expected = parsed(<HoldsLongPart as Tool>::INPUT_SCHEMA);
    expected["description"] = json!("A short tool that holds the long nested type twice.");
    assert_eq!(parsed(&at_run_time), expected);
}
