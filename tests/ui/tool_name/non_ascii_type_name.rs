use serde::Deserialize;
use toolgen::Tool;

/// Узнать погоду в городе.
#[derive(Tool, Deserialize)]
struct Погода {
    город: String,
}

fn main() {}
