use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

/// Matches things by kind.
#[derive(ToolSchema, Deserialize)]
#[allow(non_camel_case_types)]
enum r#match {
    r#async,
    Plain,
}

/// Look up an item by its type.
#[derive(Tool, Deserialize)]
#[allow(non_camel_case_types)]
struct r#lookup {
    r#type: String,
    r#match: Option<r#match>,
}

fn main() {
    assert_eq!(<r#lookup as Tool>::NAME, "lookup");
    assert_eq!(
        <r#lookup as Tool>::INPUT_SCHEMA,
        r#"{"type":"object","properties":{"type":{"type":"string"},"match":{"type":"string","enum":["async","Plain"],"description":"Matches things by kind."}},"required":["type"]}"#
    );
    let args = r#lookup::parse_args(r#"{"type":"book","match":"async"}"#).unwrap();
    assert_eq!(args.r#type, "book");
}
