use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
enum Tree<T> {
    Leaf(T),
    Node { kids: Vec<Tree<T>> },
}

fn main() {}
