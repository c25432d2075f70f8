use serde::Deserialize;
use toolgen::Tool;

#[derive(Tool, Deserialize)]
#[tool(name = "get weather")]
#[serde(rename_all = "camel")]
struct GetWeather {
    #[serde(flatten)]
    place: std::collections::HashMap<String, String>,
    #[tool(description = "The city.", strict, version = 2)]
    city: String,
    #[serde(rename = "city")]
    town: String,
}

fn main() {}
