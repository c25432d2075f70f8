use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
#[tool(output = String)]
struct Place {
    name: String,
}

fn main() {}
