// A key toolgen reads somewhere, written where it is not read: the error says where it belongs,
// at each place a `#[tool(..)]` is written. A key read nowhere keeps darling's "did you mean".
use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

/// On a tool: a field's key, an enum's, a `ToolSchema` struct's, and a misspelt MCP key.
#[derive(Tool, Deserialize)]
#[tool(length(max = 80), one_of, answer, titel = "Search")]
struct Search {
    query: String,
}

/// On a `ToolSchema` struct: an enum's key and a field's.
#[derive(ToolSchema, Deserialize)]
#[tool(one_of, default = 1)]
struct Page {
    number: u32,
}

/// On an enum: a struct's key and a field's.
#[derive(ToolSchema, Deserialize)]
#[tool(answer, range(min = 1))]
enum Size {
    Small,
    Large,
}

/// On a variant: an enum's key and a field's.
#[derive(ToolSchema, Deserialize)]
enum Shape {
    #[tool(one_of, pattern = "^[a-z]+$")]
    Circle { radius: f64 },
    Square { side: f64 },
}

/// On a field: an enum's key, a struct's and a tool's.
#[derive(ToolSchema, Deserialize)]
struct Order {
    #[tool(one_of, answer, timeout = "1s")]
    id: String,
}

/// On a newtype's field: an enum's key.
#[derive(ToolSchema, Deserialize)]
struct Email(#[tool(format = "email", one_of)] String);

fn main() {}
