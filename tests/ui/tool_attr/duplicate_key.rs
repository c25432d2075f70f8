use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
#[tool(name = "get_weather", name = "weather")]
struct GetWeather {
    city: String,
}

fn main() {}
