use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

/// A word, whole: a pattern on a newtype's field is the newtype's.
#[derive(ToolSchema, Deserialize)]
struct Word(#[tool(pattern = r"^\bword\b$")] String);

/// Find a word: the pattern is in the newtype, so const evaluation finds it.
#[derive(Tool, Deserialize)]
#[tool(strict = "anthropic")]
struct FindWord {
    word: Word,
}

fn main() {}
