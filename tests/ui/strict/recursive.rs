use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
struct Node {
    title: String,
    children: Vec<Node>,
}

/// A tree: OpenAI strict mode takes it (`strict = "openai"` compiles), Anthropic's does not.
#[derive(Tool, Deserialize)]
#[tool(strict)]
struct AddTree {
    tree: Node,
}

fn main() {}
