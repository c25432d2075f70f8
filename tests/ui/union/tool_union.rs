use toolgen::Tool;

/// Set some bits.
#[derive(Tool)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
