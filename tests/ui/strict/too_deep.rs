use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
struct L1 { next: L2 }
#[derive(ToolSchema, Deserialize)]
struct L2 { next: L3 }
#[derive(ToolSchema, Deserialize)]
struct L3 { next: L4 }
#[derive(ToolSchema, Deserialize)]
struct L4 { next: L5 }
#[derive(ToolSchema, Deserialize)]
struct L5 { next: L6 }
#[derive(ToolSchema, Deserialize)]
struct L6 { next: L7 }
#[derive(ToolSchema, Deserialize)]
struct L7 { next: L8 }
#[derive(ToolSchema, Deserialize)]
struct L8 { next: L9 }
#[derive(ToolSchema, Deserialize)]
struct L9 { next: L10 }
#[derive(ToolSchema, Deserialize)]
struct L10 { leaf: String }

/// Eleven levels of objects: OpenAI strict mode allows ten.
#[derive(Tool, Deserialize)]
#[tool(strict = "openai")]
struct Deep {
    first: L1,
}

fn main() {}
