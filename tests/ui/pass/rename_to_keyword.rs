use serde::Deserialize;
use toolgen::Tool;

/// Look up an item by its type.
#[derive(Tool, Deserialize)]
struct Lookup {
    /// The item's type.
    #[serde(rename = "type")]
    kind: String,
    #[serde(rename = "self")]
    own: bool,
}

fn main() {
    assert_eq!(
        Lookup::INPUT_SCHEMA,
        r#"{"type":"object","properties":{"type":{"type":"string","description":"The item's type."},"self":{"type":"boolean"}},"required":["type","self"]}"#
    );
    let args = Lookup::parse_args(r#"{"type":"book","self":true}"#).unwrap();
    assert_eq!(args.kind, "book");
    assert!(args.own);
}
