// `one_of` joins an enum's alternatives: on a struct or a variant it has none to join.
use toolgen::ToolSchema;

#[derive(ToolSchema, serde::Deserialize)]
#[tool(one_of)]
struct Page {
    id: String,
}

#[derive(ToolSchema, serde::Deserialize)]
enum Parent {
    #[tool(one_of)]
    Page { id: String },
    Database { id: String },
}

fn main() {}
