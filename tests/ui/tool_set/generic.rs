use toolgen::{Tool, ToolSet};

#[derive(ToolSet)]
enum Tools<T: Tool> {
    One(T),
}

fn main() {}
