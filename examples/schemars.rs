//! Toolgen types where schemars is asked (feature `schemars1`): `schema_for!` of a tool is its
//! `INPUT_SCHEMA`; a schemars-derived type holds toolgen types, recursive ones included, and a
//! generator's settings (here draft 7's) place their definitions.
//!
//! ```text
//! cargo run --example schemars --features schemars1
//! ```
//!
//! rmcp's `Parameters<T>` and `Json<T>` ask schemars the same way: see `tests/schemars_rmcp.rs`
//! for an rmcp `#[tool_router]` server whose parameters are toolgen types.

// The fields are what serde reads; this example only prints the schemas.
#![allow(dead_code)]

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, schema_for};
use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

/// A heading and the headings under it.
#[derive(ToolSchema, Deserialize)]
struct Heading {
    title: String,
    children: Vec<Heading>,
}

/// Write an outline of a document.
#[derive(Tool, Deserialize)]
struct WriteOutline {
    /// The document's title.
    #[tool(length(min = 1, max = 80))]
    title: String,
    /// The top-level headings.
    headings: Vec<Heading>,
}

/// A request a schemars-derived type describes, holding a toolgen tool's input.
#[derive(JsonSchema, Deserialize)]
struct Request {
    id: u64,
    outline: WriteOutline,
}

fn main() {
    // The tool's input schema, as toolgen writes it, plus the `$schema` and `title` schemars puts
    // on every root.
    let root = schema_for!(WriteOutline).to_value();
    let toolgen: serde_json::Value =
        serde_json::from_str(WriteOutline::INPUT_SCHEMA).expect("the schema is JSON");
    let mut bare = root.clone();
    if let Some(bare) = bare.as_object_mut() {
        bare.remove("$schema");
        bare.remove("title");
    }
    assert_eq!(bare, toolgen);
    println!("// schema_for!(WriteOutline)\n{}\n", pretty(&root));

    // Inside a schemars type: `Heading` is a definition of the generator's, which the tool's
    // `$ref`s point to.
    println!(
        "// schema_for!(Request)\n{}\n",
        pretty(&schema_for!(Request).to_value())
    );

    // Draft 7: the definitions under `definitions`, and the `$ref`s with them.
    let draft07 = SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<Request>();
    println!("// draft 7\n{}", pretty(&draft07.to_value()));
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).expect("a schema is JSON")
}
