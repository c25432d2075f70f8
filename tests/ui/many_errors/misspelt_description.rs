use serde::Deserialize;
use toolgen::Tool;

// Two errors, not three: the misspelt `descripton` is the description the tool lacks, so that is
// not reported on its own.
#[derive(Tool, Deserialize)]
#[tool(name = "get weather", descripton = "Get the weather.")]
struct GetWeather {
    city: String,
}

fn main() {}
