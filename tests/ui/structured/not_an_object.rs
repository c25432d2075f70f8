use serde::Deserialize;
use toolgen::{Route, Structured, ToolSchema};

/// How sure the model is: an enum, not an object.
#[derive(ToolSchema, Deserialize)]
enum Confidence {
    Low,
    High,
}

static ANSWER: Structured<Confidence> = Structured::new(Route::Native);

fn main() {
    let _ = &ANSWER;
}
