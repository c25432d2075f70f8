use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetTheCurrentWeatherForACityWithUnitsAndAForecastWindowOfSomeDays {
    city: String,
}

fn main() {}
