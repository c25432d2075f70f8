use serde::Deserialize;
use toolgen::Tool;

const LIMIT: u32 = 5;

/// Search.
#[derive(Tool, Deserialize)]
struct Search {
    // A Rust expression inside `json!`: the schema is written at compile time.
    #[tool(example = json!({"query": "rust", "limit": LIMIT}))]
    options: serde_json::Map<String, serde_json::Value>,
    // A key that is not a string.
    #[tool(example = json!({query: "rust"}))]
    more: serde_json::Map<String, serde_json::Value>,
}

fn main() {}
