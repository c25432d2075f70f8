//! Derive macros for [toolgen](https://docs.rs/toolgen). Use them through the `toolgen` crate,
//! which re-exports them beside the traits they implement.
//!
//! This file only declares the derives; each stage of the work is a module of its own:
//! `attr` (with `doc`) reads `#[tool(..)]` and doc comments, `serde_attr` reads `#[serde(..)]` through serde's own code, `ast` builds the model, `check` applies the
//! rules that span attributes, `schema` turns the model into schema pieces, and `expand` (with
//! `fallback`) writes the tokens.

mod ast;
mod attr;
mod check;
mod cycles;
mod doc;
mod expand;
mod facts;
mod fallback;
mod nulls;
mod schema;
mod serde_attr;
mod toolset;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `toolgen::Tool` (and `toolgen::ToolSchema`) for a tool's input struct.
///
/// See the `toolgen` crate documentation for the attributes it reads.
#[proc_macro_derive(Tool, attributes(tool))]
pub fn derive_tool(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input, ast::Derive::Tool).into()
}

/// Derives `toolgen::ToolSchema` for a type used inside a tool's input.
///
/// See the `toolgen` crate documentation for the attributes it reads.
#[proc_macro_derive(ToolSchema, attributes(tool))]
pub fn derive_tool_schema(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input, ast::Derive::ToolSchema).into()
}

/// Derives `toolgen::ToolSet` for an enum whose variants each hold one tool type.
///
/// See the `toolgen` crate documentation.
#[proc_macro_derive(ToolSet)]
pub fn derive_tool_set(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    toolset::derive(&input).into()
}
