use serde::Deserialize;
use toolgen::Tool;

/// Order boxes.
#[derive(Tool, Deserialize)]
struct OrderBoxes {
    // On text: `multiple_of` is for numbers.
    #[tool(multiple_of = 5)]
    label: String,
    // Zero (or less) divides nothing.
    #[tool(multiple_of = 0)]
    count: u32,
    // A default the field's own step refuses.
    #[tool(multiple_of = 6, default = 10)]
    eggs: u32,
    // An example the field's own step refuses.
    #[tool(multiple_of = 0.5, example = 1.25)]
    kilos: f64,
}

fn main() {}
