use std::collections::HashMap;

use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
struct Folder {
    name: String,
    files: Vec<File>,
}

#[derive(ToolSchema, Deserialize)]
struct File {
    name: String,
    #[tool(recursive)]
    parent: Option<Box<Folder>>,
}

/// OpenAI strict mode allows recursion: it checks the types behind a marked field, and these
/// are fine.
#[derive(Tool, Deserialize)]
#[tool(strict = "openai")]
struct Inspect {
    file: File,
}

/// Anthropic strict mode has no references at all.
#[derive(Tool, Deserialize)]
#[tool(strict = "anthropic")]
struct Browse {
    folder: Folder,
}

/// Both strict modes: only Anthropic's refuses the marked field.
#[derive(Tool, Deserialize)]
#[tool(strict)]
struct Open {
    file: File,
}

#[derive(ToolSchema, Deserialize)]
struct Team {
    name: String,
    tags: HashMap<String, String>,
    members: Vec<Person>,
}

#[derive(ToolSchema, Deserialize)]
struct Person {
    name: String,
    #[tool(recursive)]
    team: Option<Box<Team>>,
}

/// What is behind a marked field is checked too: OpenAI strict mode refuses the map there, and
/// the path goes through the field.
#[derive(Tool, Deserialize)]
#[tool(strict = "openai")]
struct Lookup {
    person: Person,
}

fn main() {}
