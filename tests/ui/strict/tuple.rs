use serde::Deserialize;
use toolgen::Tool;

/// A point as a tuple.
#[derive(Tool, Deserialize)]
#[tool(strict = "anthropic")]
struct Move {
    to: (i32, i32),
}

fn main() {}
