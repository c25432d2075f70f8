mod maybe {
    use serde::Deserialize;
    use toolgen::ToolSchema;

    #[derive(ToolSchema, Deserialize)]
    pub struct Option<T> {
        pub value: T,
    }
}

use maybe::Option;
use serde::Deserialize;
use toolgen::Tool;

/// Get the weather.
#[derive(Tool, Deserialize)]
struct GetWeather {
    city: Option<String>,
}

fn main() {}
