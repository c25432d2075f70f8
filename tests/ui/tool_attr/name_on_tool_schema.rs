use serde::Deserialize;
use toolgen::ToolSchema;

/// Units of temperature.
#[derive(ToolSchema, Deserialize)]
#[tool(name = "units")]
enum Units {
    Celsius,
    Fahrenheit,
}

fn main() {}
