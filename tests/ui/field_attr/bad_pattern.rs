use serde::Deserialize;
use toolgen::Tool;

/// Search the catalog.
#[derive(Tool, Deserialize)]
struct Search {
    #[tool(pattern = "([a-z]+")]
    query: String,
}

fn main() {}
