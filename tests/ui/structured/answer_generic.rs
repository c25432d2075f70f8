// `#[tool(answer)]` checks one type where it is defined: a generic type is not one type.
use serde::Deserialize;
use toolgen::ToolSchema;

/// A page of results.
#[derive(ToolSchema, Deserialize)]
#[tool(answer)]
struct Page<T> {
    items: Vec<T>,
}

/// A tool is checked by `strict`, not `answer`.
#[derive(toolgen::Tool, Deserialize)]
#[tool(answer)]
struct Search {
    query: String,
}

fn main() {}
