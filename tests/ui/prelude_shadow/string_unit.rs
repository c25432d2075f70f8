use serde::Deserialize;
use toolgen::Tool;

#[derive(Deserialize)]
struct String;

/// Send a message.
#[derive(Tool, Deserialize)]
struct Send {
    message: String,
}

fn main() {}
