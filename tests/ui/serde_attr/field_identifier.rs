use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Field {
    City,
    Units,
}

fn main() {}
