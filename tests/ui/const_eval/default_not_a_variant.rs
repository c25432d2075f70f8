use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Word,
    Phrase,
}

/// Make a card.
#[derive(Tool, Deserialize)]
struct MakeCard {
    #[tool(default = "wordd")]
    unit: Unit,
}

fn main() {}
