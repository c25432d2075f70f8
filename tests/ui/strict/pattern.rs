use serde::Deserialize;
use toolgen::Tool;

/// Find a word.
#[derive(Tool, Deserialize)]
#[tool(strict)]
struct FindWord {
    #[tool(pattern = r"^\bword\b$")]
    word: String,
}

fn main() {}
