use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(Deserialize)]
struct Coordinates {
    lat: f64,
    lon: f64,
}

#[derive(ToolSchema, Deserialize)]
struct Place {
    name: String,
    at: Coordinates,
}

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetWeather {
    place: Place,
}

fn main() {}
