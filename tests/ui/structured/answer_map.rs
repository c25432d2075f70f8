// `#[tool(answer)]`: the type is checked as a structured answer where it is defined (`cargo
// check` sees it), each error at the field, with the path and the provider's rule.
use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
struct Entry {
    word: String,
    meta: BTreeMap<String, String>,
}

/// Word counts: maps, which a strict answer cannot hold.
#[derive(ToolSchema, Deserialize)]
#[tool(answer)]
struct WordCounts {
    total: u32,
    by_word: HashMap<String, u32>,
    entries: Vec<Entry>,
    note: serde_json::Value,
}

fn main() {}
