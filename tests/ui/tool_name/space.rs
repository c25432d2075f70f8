use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
#[tool(name = "get weather")]
struct GetWeather {
    city: String,
}

fn main() {}
