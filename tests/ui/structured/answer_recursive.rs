// A recursive answer: Anthropic strict mode takes no recursion. The error names the type and is
// at the field that holds it again.
use serde::Deserialize;
use toolgen::ToolSchema;

/// An outline.
#[derive(ToolSchema, Deserialize)]
#[tool(answer)]
struct Outline {
    title: String,
    sections: Vec<Outline>,
}

#[derive(ToolSchema, Deserialize)]
struct Node {
    label: String,
    children: Vec<Node>,
}

/// A tree inside the answer: the error is at the field, with its path.
#[derive(ToolSchema, Deserialize)]
#[tool(answer)]
struct Report {
    summary: String,
    tree: Node,
}

fn main() {}
