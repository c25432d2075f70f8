use serde::Deserialize;
use toolgen::{Tool, ToolSet};

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetWeather {
    city: String,
}

#[derive(Deserialize)]
struct Define {
    word: String,
}

#[derive(ToolSet)]
enum Tools {
    Weather(GetWeather),
    Define(Define),
}

fn main() {}
