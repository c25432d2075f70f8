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

/// OpenAI strict mode allows recursion, but what a marked field leads to is not known at
/// compile time where the field is held.
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

/// Both strict modes refuse the marked field: one sentence names both.
#[derive(Tool, Deserialize)]
#[tool(strict)]
struct Open {
    file: File,
}

fn main() {}
