//! Derive macros for [toolgen](https://docs.rs/toolgen). Use them through the `toolgen` crate,
//! which re-exports them beside the traits they implement.
//!
//! This file only declares the derives; the work is done in three layers, each a folder:
//! `attr` reads `#[tool(..)]`, `#[serde(..)]` (through serde's own code) and doc comments;
//! `shape` decides, once, what serde reads (the container, its fields and variants, the enum's
//! representation, each field's derived values) and checks the rules that span attributes;
//! `expand` writes the tokens (the schema pieces, the consts and impls, or errors and a stub).

mod attr;
mod expand;
mod json;
mod shape;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `toolgen::Tool` (and `toolgen::ToolSchema`) for a tool's input struct.
///
/// See the `toolgen` crate documentation for the attributes it reads.
#[proc_macro_derive(Tool, attributes(tool))]
pub fn derive_tool(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input, shape::Derive::Tool).into()
}

/// Derives `toolgen::ToolSchema` for a type used inside a tool's input.
///
/// See the `toolgen` crate documentation for the attributes it reads.
#[proc_macro_derive(ToolSchema, attributes(tool))]
pub fn derive_tool_schema(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input, shape::Derive::ToolSchema).into()
}

/// Derives `toolgen::ToolSet` for an enum whose variants each hold one tool type.
///
/// See the `toolgen` crate documentation.
#[proc_macro_derive(ToolSet)]
pub fn derive_tool_set(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::toolset::derive(&input).into()
}
