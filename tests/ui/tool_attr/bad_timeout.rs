use serde::Deserialize;
use toolgen::Tool;

/// No unit.
#[derive(Tool, Deserialize)]
#[tool(timeout = "10")]
struct NoUnit {}

/// Zero.
#[derive(Tool, Deserialize)]
#[tool(timeout = "0s")]
struct Zero {}

/// A word.
#[derive(Tool, Deserialize)]
#[tool(timeout = "fast")]
struct Word {}

/// Less than a millisecond.
#[derive(Tool, Deserialize)]
#[tool(timeout = "0.5ms")]
struct Fraction {}

/// Not a string.
#[derive(Tool, Deserialize)]
#[tool(timeout = 10)]
struct Number {}

/// Twice.
#[derive(Tool, Deserialize)]
#[tool(timeout = "1s", timeout = "2s")]
struct Twice {}

fn main() {}
