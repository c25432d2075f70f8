use serde::Deserialize;
use toolgen::Tool;

/// Any JSON value.
#[derive(Tool, Deserialize)]
#[tool(strict = "openai")]
struct Store {
    key: String,
    /// What to store.
    value: serde_json::Value,
}

fn main() {}
