use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

/// Given a value.
#[derive(Tool, Deserialize)]
#[tool(needs_approval = "x")]
struct WithValue {}

/// Given `true`.
#[derive(Tool, Deserialize)]
#[tool(needs_approval = true)]
struct WithBool {}

/// Written twice.
#[derive(Tool, Deserialize)]
#[tool(needs_approval, needs_approval)]
struct Twice {}

/// On a field.
#[derive(Tool, Deserialize)]
struct OnField {
    #[tool(needs_approval)]
    to: String,
}

/// A type that is not a tool.
#[derive(ToolSchema, Deserialize)]
#[tool(needs_approval)]
struct NotATool {
    to: String,
}

fn main() {}
