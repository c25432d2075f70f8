use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
#[tool(name = "get_the_current_weather_for_a_city_with_units_and_a_forecast_window")]
struct GetWeather {
    city: String,
}

fn main() {}
