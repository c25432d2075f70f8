use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetWeather {
    #[tool(strict)]
    city: String,
}

fn main() {}
