use serde::Deserialize;
use toolgen::Tool;

/// Delete a post.
#[derive(Tool, Deserialize)]
// A title is for people to read: not blank.
#[tool(title = " ")]
// A hint is true or false.
#[tool(open_world = "no")]
struct DeletePost {
    id: String,
}

/// Read a post.
#[derive(Tool, Deserialize)]
// MCP reads `destructiveHint` and `idempotentHint` only of a tool that is not read-only.
#[tool(read_only, destructive, idempotent = false)]
struct ReadPost {
    id: String,
}

/// Archive a post.
#[derive(Tool, Deserialize)]
// A hint given twice.
#[tool(destructive = false, destructive)]
struct ArchivePost {
    id: String,
}

/// Describe a post: the tool's own keys, not a field's.
#[derive(toolgen::ToolSchema, Deserialize)]
struct Post {
    #[tool(read_only)]
    id: String,
}

fn main() {}
