use serde::Deserialize;
use toolgen::Tool;

/// Pick a unit.
#[derive(Tool, Deserialize)]
enum Units {
    Celsius,
    Fahrenheit,
}

fn main() {}
