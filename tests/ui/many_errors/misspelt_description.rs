use serde::Deserialize;
use toolgen::Tool;

// The misspelt key and the invalid name, read beside it; not the missing description: the
// misspelt `descripton` is the description the tool lacks, so that is not reported on its own.
#[derive(Tool, Deserialize)]
#[tool(name = "get weather", descripton = "Get the weather.")]
struct GetWeather {
    city: String,
}

fn main() {}
