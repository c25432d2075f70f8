use toolgen::ToolSchema;

// Each level holds a tree of lists of the level above: a new type at every level.
// (serde's derived `Deserialize` overflows on it too.)
#[derive(ToolSchema)]
struct Tree<T> {
    value: T,
    deeper: Option<Box<Tree<Vec<T>>>>,
}

fn main() {}
