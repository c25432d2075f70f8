use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
#[serde(tag = "kind")]
enum Target {
    Node { node_id: String },
    Root,
}

#[derive(ToolSchema, Deserialize)]
#[serde(tag = "action")]
enum Operation {
    Add {
        title: String,
        #[serde(flatten)]
        target: Target,
    },
    Delete,
}

#[derive(ToolSchema, Deserialize)]
struct Step {
    id: u32,
    #[serde(flatten)]
    op: Operation,
}

/// Apply the steps.
#[derive(Tool, Deserialize)]
struct Apply {
    steps: Vec<Step>,
}

fn main() {}
