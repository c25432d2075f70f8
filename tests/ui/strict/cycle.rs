use std::collections::HashMap;

use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

// Types that hold each other, without a mark: each refers to the other by `$ref`.
#[derive(ToolSchema, Deserialize)]
struct Team {
    name: String,
    tags: HashMap<String, String>,
    members: Vec<Person>,
}

#[derive(ToolSchema, Deserialize)]
struct Person {
    name: String,
    team: Option<Box<Team>>,
}

/// OpenAI strict mode takes the `$ref`, and checks the types of the cycle: the map in `Team`
/// stops the build, named by the path through the cycle.
#[derive(Tool, Deserialize)]
#[tool(strict = "openai")]
struct Lookup {
    person: Person,
}

/// Anthropic strict mode has no references at all.
#[derive(Tool, Deserialize)]
#[tool(strict = "anthropic")]
struct Find {
    name: String,
    person: Person,
}

fn main() {}
