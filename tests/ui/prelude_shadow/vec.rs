use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
struct Vec<T> {
    first: T,
}

/// Sum numbers.
#[derive(Tool, Deserialize)]
struct Sum {
    numbers: Vec<i64>,
}

fn main() {}
