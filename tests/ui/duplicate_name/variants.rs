use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    #[serde(rename = "celsius")]
    Centigrade,
}

fn main() {}
