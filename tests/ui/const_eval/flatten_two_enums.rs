use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
#[serde(tag = "action")]
enum Operation {
    Add { title: String },
    Delete,
}

#[derive(ToolSchema, Deserialize)]
#[serde(tag = "kind")]
enum Target {
    Node { node_id: String },
    Root,
}

#[derive(ToolSchema, Deserialize)]
struct Step {
    #[serde(flatten)]
    op: Operation,
    #[serde(flatten)]
    target: Target,
}

/// Apply the steps.
#[derive(Tool, Deserialize)]
struct Apply {
    steps: Vec<Step>,
}

fn main() {}
