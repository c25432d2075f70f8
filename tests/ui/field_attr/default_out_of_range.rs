use serde::Deserialize;
use toolgen::Tool;

/// Search the catalog.
#[derive(Tool, Deserialize)]
struct Search {
    #[tool(default = 300)]
    page: u8,
}

fn main() {}
