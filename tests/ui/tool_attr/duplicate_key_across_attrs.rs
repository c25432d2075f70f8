use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
#[tool(description = "Get the weather.")]
#[tool(description = "Get the weather for a city.")]
struct GetWeather {
    city: String,
}

fn main() {}
