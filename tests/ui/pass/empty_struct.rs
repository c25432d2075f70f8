use serde::Deserialize;
use toolgen::Tool;

/// Get the current time.
#[derive(Tool, Deserialize)]
struct Now {}

/// Ping the server.
#[derive(Tool, Deserialize)]
#[serde(deny_unknown_fields)]
struct Ping {}

fn main() {
    assert_eq!(Now::NAME, "now");
    assert_eq!(Now::INPUT_SCHEMA, r#"{"type":"object","properties":{}}"#);
    assert_eq!(
        Ping::INPUT_SCHEMA,
        r#"{"type":"object","properties":{},"additionalProperties":false}"#
    );
    Now::parse_args("{}").unwrap();
}
