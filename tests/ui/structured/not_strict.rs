use std::collections::HashMap;

use serde::Deserialize;
use toolgen::{Route, Structured, ToolSchema};

/// Word counts: a map, which a strict answer cannot hold.
#[derive(ToolSchema, Deserialize)]
struct Counts {
    total: u32,
    by_word: HashMap<String, u32>,
}

fn main() {
    // Not in a `static`: the check still stops the build.
    let answer = Structured::<Counts>::new(Route::Tool);
    let _ = answer.route();
}
