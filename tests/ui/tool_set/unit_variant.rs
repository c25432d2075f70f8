use serde::Deserialize;
use toolgen::{Tool, ToolSet};

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetWeather {
    city: String,
}

#[derive(ToolSet)]
enum Tools {
    Weather(GetWeather),
    Nothing,
}

fn main() {}
