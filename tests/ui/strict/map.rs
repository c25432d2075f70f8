use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

/// A map straight in the tool.
#[derive(Tool, Deserialize)]
#[tool(strict)]
struct Tags {
    tags: HashMap<String, String>,
}

#[derive(ToolSchema, Deserialize)]
struct Card {
    front: String,
    meta: BTreeMap<String, u32>,
}

/// A map inside a nested type, inside a list: the error is at the tool's field, with the path.
#[derive(Tool, Deserialize)]
#[tool(strict = "openai")]
struct Cards {
    cards: Vec<Card>,
}

/// A `serde_json::Map`, for Anthropic only.
#[derive(Tool, Deserialize)]
#[tool(strict = "anthropic")]
struct Changes {
    reason: String,
    changes: serde_json::Map<String, serde_json::Value>,
}

/// A flattened map: no field of the tool holds it, so the error is at `strict`.
#[derive(Tool, Deserialize)]
#[tool(strict = "openai")]
struct Extra {
    name: String,
    #[serde(flatten)]
    rest: HashMap<String, String>,
}

fn main() {}
