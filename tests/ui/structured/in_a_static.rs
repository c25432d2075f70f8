// Without `#[tool(answer)]`, `Structured::new` checks the type where it is built (in a `static`,
// as the program is built): the error names the type and the path of the field.
use std::collections::HashMap;

use serde::Deserialize;
use toolgen::{Route, Structured, ToolSchema};

/// Word counts: a map, which a strict answer cannot hold.
#[derive(ToolSchema, Deserialize)]
struct WordCounts {
    total: u32,
    by_word: HashMap<String, u32>,
}

pub static COUNTS: Structured<WordCounts> = Structured::new(Route::Native);

fn main() {
    let _ = &COUNTS;
}
