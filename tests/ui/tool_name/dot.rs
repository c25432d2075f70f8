use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
#[tool(name = "weather.get")]
struct GetWeather {
    city: String,
}

fn main() {}
