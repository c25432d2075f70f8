use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
#[serde(rename_all = "camelCase")]
struct GetWeather {
    #[serde(rename = "cityLimits")]
    in_city: bool,
    city_limits: bool,
}

fn main() {}
