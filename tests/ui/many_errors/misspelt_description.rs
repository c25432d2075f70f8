use serde::Deserialize;
use toolgen::Tool;

// One error, not two: the misspelt `descripton` is the description the tool lacks, so that is
// not reported on its own. (The invalid name is reported once the attribute reads.)
#[derive(Tool, Deserialize)]
#[tool(name = "get weather", descripton = "Get the weather.")]
struct GetWeather {
    city: String,
}

fn main() {}
