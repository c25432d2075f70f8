//! Reading the input's attributes into plain Rust values: `#[tool(..)]` ([`tool`]), `#[serde(..)]`
//! through serde's own code ([`serde`]) and doc comments ([`doc`]).

pub mod doc;
pub mod serde;
pub mod tool;
