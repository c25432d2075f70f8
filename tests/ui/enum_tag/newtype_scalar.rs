use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
#[serde(tag = "kind")]
enum Place {
    Named(String),
    Here,
}

fn main() {}
