use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

/// A folder and what it holds.
#[derive(ToolSchema, Deserialize)]
struct Folder {
    name: String,
    children: Vec<Self>,
    parent: Option<Box<Folder>>,
}

/// Create a folder tree.
#[derive(Tool, Deserialize)]
struct CreateTree {
    root: Folder,
}

fn main() {
    assert_eq!(
        CreateTree::INPUT_SCHEMA,
        r##"{"type":"object","properties":{"root":{"$ref":"#/$defs/Folder"}},"required":["root"],"$defs":{"Folder":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/Folder"}},"parent":{"$ref":"#/$defs/Folder"}},"required":["name","children"],"description":"A folder and what it holds."}}}"##
    );
    let tree = CreateTree::parse_args(
        r#"{"root":{"name":"a","children":[{"name":"b","children":[],"parent":null}]}}"#,
    )
    .unwrap();
    assert_eq!(tree.root.children[0].name, "b");
    assert!(tree.root.parent.is_none());
}
