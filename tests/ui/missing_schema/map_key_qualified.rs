use serde::Deserialize;
use toolgen::Tool;

/// Record readings by station id.
#[derive(Tool, Deserialize)]
struct Record {
    readings: std::collections::HashMap<u32, String>,
}

fn main() {}
