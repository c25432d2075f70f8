use serde::Deserialize;
use toolgen::Tool;

#[derive(Tool, Deserialize)]
#[tool(description = "")]
struct GetWeather {
    city: String,
}

fn main() {}
