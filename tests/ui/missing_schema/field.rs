use serde::Deserialize;
use toolgen::Tool;

#[derive(Deserialize)]
struct City {
    name: String,
}

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetWeather {
    city: City,
}

fn main() {}
