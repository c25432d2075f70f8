use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
struct Node {
    title: String,
    children: Vec<Node>,
}

/// A tree: Gemini's `parameters` have no `$ref`, and this tool insists on them.
#[derive(Tool, Deserialize)]
#[tool(gemini = "parameters")]
struct AddTree {
    tree: Node,
}

/// A pair: no tuples in Gemini's `parameters` either.
#[derive(Tool, Deserialize)]
#[tool(gemini = "parameters")]
struct Pair {
    pair: (u8, String),
}

/// Not a field of Gemini's function declaration.
#[derive(Tool, Deserialize)]
#[tool(gemini = "schema")]
struct Bad {
    x: String,
}

fn main() {}
