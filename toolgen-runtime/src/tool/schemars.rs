//! `schemars::JsonSchema` of a tool's input (feature `schemars1`), which the derive's impl for a
//! `#[derive(Tool)]` type calls.

use schemars::{Schema, SchemaGenerator};

use crate::schema::schemars::schemars_root;
use crate::tool::Tool;

/// `JsonSchema::json_schema` of a tool's input: [`Tool::INPUT_SCHEMA`],
/// with the entries of its `$defs` put into the generator's definitions. A tool is a root: its
/// `schema_id` is its Rust type's name and it is inline, also where it holds itself (its
/// references to itself are then to its entry, as in `INPUT_SCHEMA`).
pub fn schemars_input<T: Tool>(generator: &mut SchemaGenerator) -> Schema {
    schemars_root(T::INPUT_SCHEMA, &T::DEFS, generator)
}
