use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
struct Tree<T> {
    v: T,
    kids: Vec<Tree<T>>,
}

fn main() {}
