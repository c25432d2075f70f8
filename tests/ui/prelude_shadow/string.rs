use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
struct String {
    text: std::string::String,
}

/// Send a message.
#[derive(Tool, Deserialize)]
struct Send {
    message: String,
}

fn main() {}
