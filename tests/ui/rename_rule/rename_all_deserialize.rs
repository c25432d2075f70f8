use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
#[serde(rename_all(serialize = "lowercase", deserialize = "kebab"))]
enum Units {
    Celsius,
    Fahrenheit,
}

fn main() {}
