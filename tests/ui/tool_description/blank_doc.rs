use serde::Deserialize;
use toolgen::Tool;

///
#[derive(Tool, Deserialize)]
struct GetWeather {
    city: String,
}

fn main() {}
