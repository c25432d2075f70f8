// `#[tool(nullable)]` shows the `null` of an `Option` field; on another field it says nothing.
use toolgen::Tool;

/// Finds notes.
#[derive(Tool, serde::Deserialize)]
struct Find {
    #[tool(nullable)]
    limit: u32,
    #[tool(nullable)]
    tag: Option<String>,
}

fn main() {}
