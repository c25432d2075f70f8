use serde::Deserialize;
use toolgen::Tool;

/// Unknown callers, each reported at its word, and one written twice.
#[derive(Tool, Deserialize)]
#[tool(allowed_callers(direct, model, direct))]
struct Unknown {}

/// Providers' own names: OpenAI's and Anthropic's.
#[derive(Tool, Deserialize)]
#[tool(allowed_callers(programmatic, code_execution_20250825))]
struct ProviderNames {}

/// No caller at all.
#[derive(Tool, Deserialize)]
#[tool(allowed_callers())]
struct Empty {}

/// A string, not a list of words.
#[derive(Tool, Deserialize)]
#[tool(allowed_callers = "program")]
struct NotAList {}

/// A string inside the list.
#[derive(Tool, Deserialize)]
#[tool(allowed_callers("program"))]
struct Quoted {}

fn main() {}
