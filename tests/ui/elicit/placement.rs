// `#[tool(form)]` is for a struct with named fields and no type parameters.
use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
#[serde(rename_all = "lowercase")]
#[tool(form)]
enum Size {
    Small,
    Large,
}

#[derive(ToolSchema, Deserialize)]
#[tool(form)]
struct Page<T> {
    items: Vec<T>,
}

#[derive(ToolSchema, Deserialize)]
#[tool(form)]
struct Meters(f64);

fn main() {}
