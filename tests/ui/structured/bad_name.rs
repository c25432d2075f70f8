use serde::Deserialize;
use toolgen::{Route, Structured, ToolSchema};

#[derive(ToolSchema, Deserialize)]
struct Summary {
    text: String,
}

static ANSWER: Structured<Summary> = Structured::new(Route::Native).with_name("the summary");

fn main() {
    let _ = &ANSWER;
}
