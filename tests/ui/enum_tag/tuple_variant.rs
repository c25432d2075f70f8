use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
#[serde(tag = "kind")]
enum Place {
    Named { name: String },
    Coordinates(f64, f64),
}

fn main() {}
