use serde::Deserialize;
use toolgen::Tool;

/// Get the forecast.
#[derive(Tool, Deserialize)]
#[tool(input_example = json!({"city": "Riga", "days": null}))]
#[tool(input_example = json!({"city": "R", "days": 300}))]
#[tool(input_example = json!({"days": 2}))]
struct Forecast {
    #[tool(length(min = 2))]
    city: String,
    days: Option<u8>,
}

fn main() {}
