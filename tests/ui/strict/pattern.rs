use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

/// Find a word: the pattern is the tool's own, so the macro points at it.
#[derive(Tool, Deserialize)]
#[tool(strict)]
struct FindWord {
    #[tool(pattern = r"^\bword\b$")]
    word: String,
}

#[derive(ToolSchema, Deserialize)]
struct Query {
    #[tool(pattern = r"\Bing")]
    stem: String,
}

/// Find words: the pattern is in a nested type, so const evaluation finds it.
#[derive(Tool, Deserialize)]
#[tool(strict = "anthropic")]
struct FindWords {
    queries: Vec<Query>,
}

/// OpenAI strict mode takes word boundaries.
#[derive(Tool, Deserialize)]
#[tool(strict = "openai")]
struct FindOpenAi {
    #[tool(pattern = r"\bword\b")]
    word: String,
}

fn main() {}
