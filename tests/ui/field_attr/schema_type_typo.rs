// A typo inside a type written without quotes is reported at the misspelt name, and rustc's
// suggestion replaces that name alone.
use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;
use toolgen::Tool;

/// Store settings.
#[derive(Tool, Deserialize)]
#[tool(output = Vec<Valu>)]
struct StoreSettings {
    #[tool(schema = HashMap<String, Valu>, description = "The settings.")]
    settings: HashMap<String, Value>,
}

fn main() {}
