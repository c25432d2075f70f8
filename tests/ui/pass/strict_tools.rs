//! Strict tools that compile: recursion for OpenAI alone, optional and defaulted fields, nested
//! enums, constraints that go into the description.

use serde::Deserialize;
use toolgen::{Dialect, Provider, Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
struct Node {
    title: String,
    #[serde(default)]
    children: Vec<Node>,
}

/// Add a tree under a node.
#[derive(Tool, Deserialize)]
#[tool(strict = "openai")]
struct AddTree {
    parent: String,
    tree: Node,
}

#[derive(ToolSchema, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    Circle { radius: f64 },
    Square { side: f64 },
}

/// Draw shapes.
#[derive(Tool, Deserialize)]
#[tool(strict)]
struct Draw {
    #[tool(length(min = 1, max = 10))]
    shapes: Vec<Shape>,
    #[tool(range(min = 0, max = 100))]
    opacity: Option<u8>,
    #[serde(default)]
    label: String,
}

/// Always `parametersJsonSchema` for Gemini (no Gemini dialect is built).
#[derive(Tool, Deserialize)]
#[tool(gemini = "json_schema")]
struct Plain {
    query: String,
}

/// Gemini `parameters`, checked at compile time.
#[derive(Tool, Deserialize)]
#[tool(gemini = "parameters")]
struct Checked {
    query: String,
    limit: Option<u8>,
}

fn main() {
    assert!(Plain::input_schema(Dialect::Gemini).is_none());
    assert!(Plain::definition(Provider::Gemini).get("parametersJsonSchema").is_some());
    assert!(Checked::definition(Provider::Gemini).get("parameters").is_some());
    assert!(AddTree::input_schema(Dialect::OpenAiStrict).is_some());
    assert!(AddTree::input_schema(Dialect::AnthropicStrict).is_none());
    let chat = AddTree::definition(Provider::OpenAiChat);
    assert_eq!(chat["function"]["strict"], true);
    let anthropic = AddTree::definition(Provider::Anthropic);
    assert!(anthropic.get("strict").is_none());
    assert!(Draw::input_schema(Dialect::AnthropicStrict).is_some());
    assert_eq!(Draw::definition(Provider::Anthropic)["strict"], true);
}
