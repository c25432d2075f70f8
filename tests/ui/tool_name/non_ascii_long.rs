use serde::Deserialize;
use toolgen::Tool;

/// Узнать погоду.
#[derive(Tool, Deserialize)]
#[tool(name = "узнать_погоду_в_городе_на_завтра")]
struct Weather {
    city: String,
}

fn main() {}
