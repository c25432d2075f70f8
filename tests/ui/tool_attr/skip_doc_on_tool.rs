// A tool's doc comment is its description: `skip_doc` cannot leave it out.
use toolgen::Tool;

/// Gets the weather.
#[derive(Tool, serde::Deserialize)]
#[tool(skip_doc)]
struct GetWeather {
    city: String,
}

fn main() {}
