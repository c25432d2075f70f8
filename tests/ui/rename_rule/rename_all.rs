use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
#[serde(rename_all = "camelcase")]
struct GetWeather {
    city_name: String,
}

fn main() {}
