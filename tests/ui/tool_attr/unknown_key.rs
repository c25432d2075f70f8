use serde::Deserialize;
use toolgen::Tool;

#[derive(Tool, Deserialize)]
#[tool(descripton = "Get the weather.")]
struct GetWeather {
    city: String,
}

fn main() {}
