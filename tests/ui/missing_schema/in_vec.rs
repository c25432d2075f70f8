use serde::Deserialize;
use toolgen::Tool;

#[derive(Deserialize)]
struct City {
    name: String,
}

/// Get the weather for several cities.
#[derive(Tool, Deserialize)]
struct GetWeather {
    cities: Vec<City>,
}

fn main() {}
