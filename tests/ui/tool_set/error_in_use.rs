use serde::Deserialize;
use toolgen::{Provider, Tool, ToolSet};

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetWeather {
    city: String,
}

// One error for the bad variant, none where the set is used.
#[derive(ToolSet)]
enum Tools {
    Weather(GetWeather),
    Nothing,
}

fn main() {
    let _ = Tools::definitions(Provider::Anthropic);
}
