use serde::Deserialize;
use toolgen::Tool;

/// Look up a city.
#[derive(Tool, Deserialize)]
#[serde(transparent)]
struct Lookup {
    city: String,
}

fn main() {}
