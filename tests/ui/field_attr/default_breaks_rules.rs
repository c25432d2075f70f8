// A default the field's own `range`, `length` or `pattern` refuses: every call that leaves the
// field out would be refused, so the build stops at the default.
use toolgen::Tool;

/// Lists issues.
#[derive(Tool, serde::Deserialize)]
struct ListIssues {
    #[tool(default = 0, range(min = 1, max = 100))]
    per_page: u32,
    #[tool(default = 250, range(max = 100))]
    limit: u32,
    #[serde(default)]
    #[tool(range(min = 1))]
    page: u32,
    #[tool(default = "", length(min = 1))]
    query: String,
    #[tool(default = ["a", "b", "c"], length(max = 2))]
    labels: Vec<String>,
    #[serde(default)]
    #[tool(length(min = 1))]
    states: Vec<String>,
    #[tool(default = -5, range(min = -1))]
    offset: i32,
    #[tool(default = "Open", pattern = "^[a-z]+$")]
    state: String,
    #[serde(default)]
    #[tool(pattern = "^[a-z]+$")]
    sort: String,
    // Not ASCII: left to argument parsing, whose engine reads Unicode classes.
    #[tool(default = "Відкрито", pattern = "^[a-z]+$")]
    label: String,
}

fn main() {}
