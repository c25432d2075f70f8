use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
#[serde(tag = "action")]
enum Operation {
    Add { title: String },
    Delete,
}

/// Apply one operation: a tool's arguments must be one object, not one of several.
#[derive(Tool, Deserialize)]
struct Apply {
    id: String,
    #[serde(flatten)]
    op: Operation,
}

fn main() {}
