// `#[tool(form)]`: each field an MCP elicitation form cannot hold stops the build at its type,
// saying what it is and what a form field can be.
use std::collections::HashMap;

use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
struct Address {
    street: String,
}

#[derive(ToolSchema, Deserialize)]
#[serde(untagged)]
enum Amount {
    Text(String),
    Number(f64),
}

/// A sign-up: fields a form cannot hold beside those it can.
#[derive(ToolSchema, Deserialize)]
#[tool(form)]
struct SignUp {
    name: String,
    address: Address,
    tags: Vec<String>,
    scores: HashMap<String, u32>,
    amount: Amount,
    extra: serde_json::Value,
    age: Option<u8>,
}

#[derive(ToolSchema, Deserialize)]
struct Dates {
    from: String,
}

/// A stay: its dates flattened in, which a form cannot take.
#[derive(ToolSchema, Deserialize)]
#[tool(form)]
struct Stay {
    #[serde(flatten)]
    dates: Dates,
    nights: u32,
}

fn main() {}
