use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
#[tool(strict, description = "A place.")]
struct Place {
    name: String,
}

fn main() {}
