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

/// Make a card, the unit optional: its default is checked as the enum's.
#[derive(Tool, Deserialize)]
struct MakeOptionalCard {
    #[tool(default = "sentence")]
    unit: Option<Unit>,
}

/// A default among the enum's values, on an `Option` too: no error.
#[derive(Tool, Deserialize)]
struct MakeFineCard {
    #[tool(default = "phrase")]
    unit: Option<Unit>,
    #[tool(default = "word")]
    other: Unit,
}

fn main() {}
