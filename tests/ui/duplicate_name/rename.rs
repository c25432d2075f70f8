use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetWeather {
    city: String,
    #[serde(rename = "city")]
    town: String,
}

fn main() {}
