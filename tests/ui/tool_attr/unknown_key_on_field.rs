use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetWeather {
    #[tool(desc = "City name.")]
    city: String,
}

fn main() {}
