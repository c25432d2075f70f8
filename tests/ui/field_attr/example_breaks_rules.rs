use serde::Deserialize;
use toolgen::Tool;

/// Book a table.
#[derive(Tool, Deserialize)]
struct BookTable {
    #[tool(range(min = 1, max = 12), example = 20, example = 4)]
    guests: u8,
    // Its schema is `{"type":"string"}`: an example of `null` is refused.
    #[tool(example = None)]
    note: Option<String>,
    #[tool(pattern = "^[0-9]{2}:[0-9]{2}$", example = "7pm")]
    time: String,
}

fn main() {}
