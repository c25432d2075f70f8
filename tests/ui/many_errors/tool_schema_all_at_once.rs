use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
#[tool(name = "units", descripton = "Units.")]
enum Units {
    #[tool(description = 1)]
    Celsius,
    #[serde(rename = "Celsius")]
    Centigrade,
    Kelvin,
    Rankine(f64),
}

fn main() {}
