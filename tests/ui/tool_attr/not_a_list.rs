use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
#[tool = "get_weather"]
struct GetWeather {
    city: String,
}

fn main() {}
