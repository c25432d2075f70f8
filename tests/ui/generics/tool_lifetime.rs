use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetWeather<'a> {
    city: &'a str,
}

fn main() {}
