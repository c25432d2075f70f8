use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema)]
enum Verdict {
    Yes,
    No,
}

/// Decide.
#[derive(Tool, Deserialize)]
#[tool(output = Verdict)]
struct Decide {
    question: String,
}

fn main() {}
