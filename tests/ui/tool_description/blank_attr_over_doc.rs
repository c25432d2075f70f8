use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
#[tool(description = "   ")]
struct GetWeather {
    city: String,
}

fn main() {}
