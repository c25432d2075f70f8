use serde::{Deserialize, Deserializer};
use toolgen::Tool;

fn upper<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    String::deserialize(d).map(|s| s.to_uppercase())
}

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetWeather {
    #[serde(deserialize_with = "upper")]
    city: String,
}

fn main() {}
