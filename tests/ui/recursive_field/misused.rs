use serde::Deserialize;
use toolgen::ToolSchema;

#[derive(ToolSchema, Deserialize)]
struct Folder {
    name: String,
    files: Vec<File>,
}

#[derive(ToolSchema, Deserialize)]
struct File {
    // A flattened field's properties are merged in: it cannot be a `$ref`.
    #[tool(recursive)]
    #[serde(flatten)]
    parent: Folder,
    // A type that holds itself needs no mark.
    #[tool(recursive)]
    next: Option<Box<File>>,
    // Only standard types: nothing leads back.
    #[tool(recursive)]
    tags: Vec<String>,
    // A flag takes no value.
    #[tool(recursive = true)]
    up: Option<Box<Folder>>,
}

// What the field leads to is kept in a `static`, which cannot be generic.
#[derive(ToolSchema, Deserialize)]
struct Shelf<T> {
    #[tool(recursive)]
    items: Vec<Holder<T>>,
}

#[derive(ToolSchema, Deserialize)]
struct Holder<T> {
    item: T,
}

fn main() {}
