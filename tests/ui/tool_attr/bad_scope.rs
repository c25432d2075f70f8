use serde::Deserialize;
use toolgen::Tool;

/// Empty.
#[derive(Tool, Deserialize)]
#[tool(scope = "")]
struct Empty {}

/// Two spaces between scopes.
#[derive(Tool, Deserialize)]
#[tool(scope = "notes:read  notes:write")]
struct TwoSpaces {}

/// A quote in a scope.
#[derive(Tool, Deserialize)]
#[tool(scope = "notes\"read")]
struct Quote {}

/// Not a string.
#[derive(Tool, Deserialize)]
#[tool(scope = 7)]
struct Number {}

/// A list, not a string.
#[derive(Tool, Deserialize)]
#[tool(scope = ["notes:read"])]
struct List {}

/// Twice.
#[derive(Tool, Deserialize)]
#[tool(scope = "a", scope = "b")]
struct Twice {}

fn main() {}
