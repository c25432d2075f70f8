use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
#[serde(tag = "action")]
enum Operation {
    Delete,
    // `title` is also a field of the struct this enum is flattened into.
    Rename { title: String },
}

#[derive(ToolSchema, Deserialize)]
struct Step {
    title: String,
    #[serde(flatten)]
    op: Operation,
}

/// Apply the steps.
#[derive(Tool, Deserialize)]
struct Apply {
    steps: Vec<Step>,
}

fn main() {}
