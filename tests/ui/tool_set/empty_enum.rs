use toolgen::ToolSet;

#[derive(ToolSet)]
enum Tools {}

fn main() {}
