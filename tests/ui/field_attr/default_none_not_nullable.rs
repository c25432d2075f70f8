use serde::Deserialize;
use toolgen::Tool;

/// Search.
#[derive(Tool, Deserialize)]
struct Search {
    query: String,
    // Its schema is `{"type":"integer"}`, which refuses its own `"default": null`.
    #[tool(default = None)]
    limit: Option<u32>,
    // Admits `null`: fine.
    #[tool(default = None, nullable)]
    offset: Option<u32>,
}

fn main() {}
