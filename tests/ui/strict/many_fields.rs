use std::collections::HashMap;

use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
struct Node {
    title: String,
    children: Vec<Node>,
}

#[derive(ToolSchema, Deserialize)]
#[serde(tag = "action")]
enum Op {
    Rename { title: String },
    Tag { meta: HashMap<String, String> },
}

/// Every field the dialects refuse is reported in one build, each once: both strict modes
/// share a sentence where they refuse the same thing, and Gemini `parameters` has its own.
#[derive(Tool, Deserialize)]
#[tool(strict, gemini = "parameters")]
struct Everything {
    fine: String,
    tags: HashMap<String, u32>,
    anything: serde_json::Value,
    pair: (u8, u8),
    tree: Node,
    ops: Vec<Op>,
    #[serde(flatten)]
    rest: HashMap<String, String>,
}

fn main() {}
