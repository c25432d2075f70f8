use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
struct Paging {
    limit: u32,
}

/// List posts.
#[derive(Tool, Deserialize)]
struct ListPosts {
    limit: u32,
    #[serde(flatten)]
    paging: Paging,
}

fn main() {}
