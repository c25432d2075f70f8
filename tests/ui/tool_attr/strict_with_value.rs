use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
#[tool(strict = "yes")]
struct GetWeather {
    city: String,
}

fn main() {}
