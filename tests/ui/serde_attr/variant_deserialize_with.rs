use serde::{Deserialize, Deserializer};
use toolgen::ToolSchema;

fn celsius<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    f64::deserialize(d)
}

#[derive(ToolSchema, Deserialize)]
enum Temperature {
    #[serde(deserialize_with = "celsius")]
    Celsius(f64),
    Kelvin(f64),
}

fn main() {}
