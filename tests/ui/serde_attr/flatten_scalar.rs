use serde::Deserialize;
use toolgen::Tool;

/// Search the catalog.
#[derive(Tool, Deserialize)]
struct Search {
    query: String,
    #[serde(flatten)]
    page: u32,
}

fn main() {}
