use serde::Deserialize;
use toolgen::Tool;

/// Search the catalog.
#[derive(Tool, Deserialize)]
struct Search {
    #[tool(range(min = 10, max = 1))]
    page: u32,
}

fn main() {}
