use serde::Deserialize;
use toolgen::Tool;

/// Save a note.
#[derive(Tool, Deserialize)]
struct Save {
    // Required already: `#[tool(required)]` says nothing.
    #[tool(required)]
    title: String,
    // `required` takes no value.
    #[serde(default)]
    #[tool(required = true)]
    tags: Vec<String>,
    // Twice.
    #[tool(default = 1, required, required)]
    count: u8,
}

fn main() {}
