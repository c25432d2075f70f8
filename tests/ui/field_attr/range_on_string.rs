use serde::Deserialize;
use toolgen::Tool;

/// Search the catalog.
#[derive(Tool, Deserialize)]
struct Search {
    #[tool(range(min = 1))]
    query: String,
}

fn main() {}
