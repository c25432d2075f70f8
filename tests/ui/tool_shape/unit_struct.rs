use serde::Deserialize;
use toolgen::Tool;

/// Say hello.
#[derive(Tool, Deserialize)]
struct Hello;

fn main() {}
