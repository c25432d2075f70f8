use serde::Deserialize;
use toolgen::Tool;

/// Search the catalog.
#[derive(Tool, Deserialize)]
struct Search {
    #[tool(range())]
    page: u32,
}

fn main() {}
