use serde::Deserialize;
use toolgen::{Patch, Tool, ToolSchema};

/// Update a page.
#[derive(Tool, Deserialize)]
struct UpdatePage {
    // No `#[serde(default)]`: a missing key would read as `null`.
    title: Patch<String>,
    // A value written in where the key is missing.
    #[serde(default)]
    #[tool(default = "Untitled")]
    icon: Patch<String>,
    // An item is never left out.
    tags: Vec<Patch<String>>,
    // Right: no error.
    #[serde(default)]
    cover: Patch<String>,
}

/// A row of a generic table.
#[derive(ToolSchema, Deserialize)]
struct Row<T> {
    cells: Option<Patch<T>>,
}

/// Fill a row.
#[derive(Tool, Deserialize)]
struct FillRow {
    row: Row<u8>,
}

// A type of the user's own named `Patch`: let through.
mod own {
    /// A diff.
    #[derive(toolgen::ToolSchema, serde::Deserialize)]
    pub struct Patch<T> {
        pub diff: T,
    }
}

/// Apply a diff.
#[derive(Tool, Deserialize)]
struct ApplyDiff {
    patch: own::Patch<String>,
    patches: Vec<own::Patch<String>>,
}

fn main() {
    let _ = FillRow::INPUT_SCHEMA;
}
