use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(Deserialize)]
struct Plain {
    name: String,
}

// A marked field refers to the types it holds by `$ref`: each must derive `ToolSchema`.
#[derive(ToolSchema, Deserialize)]
struct Holder {
    #[tool(recursive)]
    plain: Option<Box<Plain>>,
}

fn main() {}
