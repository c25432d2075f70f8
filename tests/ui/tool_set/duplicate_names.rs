use serde::Deserialize;
use toolgen::{Tool, ToolSet};

/// Get the weather.
#[derive(Tool, Deserialize)]
#[tool(name = "weather")]
struct GetWeather {
    city: String,
}

/// Get the weather forecast.
#[derive(Tool, Deserialize)]
#[tool(name = "weather")]
struct Forecast {
    city: String,
    days: u8,
}

#[derive(ToolSet)]
enum Tools {
    Weather(GetWeather),
    Forecast(Forecast),
}

fn main() {}
