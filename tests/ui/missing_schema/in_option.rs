use serde::Deserialize;
use toolgen::Tool;

#[derive(Deserialize)]
enum Units {
    Celsius,
    Fahrenheit,
}

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetWeather {
    city: String,
    units: Option<Units>,
}

fn main() {}
