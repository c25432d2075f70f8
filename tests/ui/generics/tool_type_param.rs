use serde::Deserialize;
use toolgen::Tool;

/// Store a value.
#[derive(Tool, Deserialize)]
struct Store<T> {
    value: T,
}

fn main() {}
