use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
struct Page<T> {
    items: Vec<T>,
}

// A generic type named as if it were concrete: its node is a const, with nothing to refer to.
type PostPage = Page<Post>;

#[derive(ToolSchema, Deserialize)]
struct Thread {
    posts: PostPage,
}

#[derive(ToolSchema, Deserialize)]
struct Post {
    text: String,
    replies: Vec<Thread>,
}

/// Read a thread.
#[derive(Tool, Deserialize)]
struct Read {
    thread: Thread,
}

fn main() {}
