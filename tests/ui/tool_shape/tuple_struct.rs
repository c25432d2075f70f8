use serde::Deserialize;
use toolgen::Tool;

/// Look up a city.
#[derive(Tool, Deserialize)]
struct Lookup(String);

fn main() {}
