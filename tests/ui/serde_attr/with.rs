use serde::Deserialize;
use toolgen::Tool;

mod upper {
    use serde::{Deserialize, Deserializer};

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        String::deserialize(d).map(|s| s.to_uppercase())
    }
}

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetWeather {
    #[serde(with = "upper")]
    city: String,
}

fn main() {}
