use serde::Deserialize;
use toolgen::Tool;

/// A provider toolgen has no strict mode for.
#[derive(Tool, Deserialize)]
#[tool(strict = "gemini")]
struct A {
    x: String,
}

/// A boolean.
#[derive(Tool, Deserialize)]
#[tool(strict = true)]
struct B {
    x: String,
}

/// A list.
#[derive(Tool, Deserialize)]
#[tool(strict(openai))]
struct C {
    x: String,
}

/// Twice.
#[derive(Tool, Deserialize)]
#[tool(strict, strict = "openai")]
struct D {
    x: String,
}

fn main() {}
