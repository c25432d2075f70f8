use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(Deserialize)]
struct Plain {
    name: String,
}

/// A type of only standard types cannot lead back to anything.
#[derive(ToolSchema, Deserialize)]
struct Leaf {
    name: String,
}

/// Search: a tool's input is a root; a cycle through it is marked at a field that leads
/// elsewhere (here, `holder`).
#[derive(toolgen::Tool, Deserialize)]
struct Search {
    holder: Option<Box<Holder>>,
}

// A marked field refers to the types it holds by `$ref`: each must derive `ToolSchema`, and
// lead back.
#[derive(ToolSchema, Deserialize)]
struct Holder {
    #[tool(recursive)]
    plain: Option<Box<Plain>>,
    #[tool(recursive)]
    leaf: Vec<Leaf>,
    #[tool(recursive)]
    search: Option<Box<Search>>,
}

fn main() {}
