use toolgen::ToolSet;

#[derive(ToolSet)]
struct Tools {
    weather: u32,
}

fn main() {}
