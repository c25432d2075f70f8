use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
enum Place {
    Named {
        name: String,
        #[serde(rename = "name")]
        label: String,
    },
}

fn main() {}
