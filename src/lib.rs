//! # toolgen
//!
//! Turn annotated Rust types into LLM tool definitions at compile time, and parse the calls that
//! come back.
//!
//! `#[derive(Tool)]` on a struct reads its doc comments, `#[tool(..)]` and `#[serde(..)]`
//! attributes and emits the tool's JSON Schema as a `&'static str` const, assembled by const
//! evaluation: no allocation, no `OnceLock`, usable in a `const` item. `#[derive(ToolSchema)]`
//! does the same for the types used inside a tool.
//!
//! ```
//! use serde::Deserialize;
//! use toolgen::{Provider, Tool, ToolSchema};
//!
//! /// Get the current weather for a city.
//! #[derive(Tool, Deserialize, Debug)]
//! #[tool(name = "get_weather")]
//! struct GetWeather {
//!     /// City name, e.g. "Riga".
//!     city: String,
//!     units: Option<Units>,
//! }
//!
//! #[derive(ToolSchema, Deserialize, Debug)]
//! #[serde(rename_all = "lowercase")]
//! enum Units { Celsius, Fahrenheit }
//!
//! const SCHEMA: &str = GetWeather::INPUT_SCHEMA; // a true const
//! assert!(SCHEMA.starts_with(r#"{"type":"object","properties":{"city":"#));
//!
//! // The tool object each API expects in its request.
//! let tools: Vec<_> = Provider::ALL.iter().map(|&p| GetWeather::definition(p)).collect();
//! assert_eq!(tools[0]["name"], "get_weather");
//!
//! // The model's arguments, parsed; errors name the JSON path.
//! let args = GetWeather::parse_args(r#"{"city": "Riga", "units": "kelvin"}"#);
//! assert_eq!(args.unwrap_err().path(), "units");
//! ```
//!
//! ## What the derives read
//!
//! | where | attribute | effect |
//! |---|---|---|
//! | container (`Tool`) | `/// doc` or `#[tool(description = "..")]` | the tool's description (required) |
//! | container (`Tool`) | `#[tool(name = "..")]` | the tool's name (default: the type name in snake_case); must match `^[a-zA-Z0-9_-]{1,64}$` |
//! | container (`Tool`) | `#[tool(strict)]` | sets [`Tool::STRICT`] |
//! | container (`ToolSchema`) | `/// doc` or `#[tool(description = "..")]` | the schema's `description` |
//! | field, variant | `/// doc` or `#[tool(description = "..")]` | the property's (or value's) `description` |
//! | container | `#[serde(rename_all = "..")]` (every serde rule) | property / value names |
//! | container | `#[serde(default)]` | no field is required |
//! | container | `#[serde(deny_unknown_fields)]` | `"additionalProperties": false` |
//! | field, variant | `#[serde(rename = "..")]`, `rename(deserialize = "..")` | the name serde reads |
//! | field | `#[serde(default)]`, `default = "path"` | not required |
//! | field, variant | `#[serde(skip)]`, `skip_deserializing` | not in the schema |
//!
//! Doc comments: lines are joined with a space, common indentation removed, paragraphs kept;
//! list items and fenced code keep their line breaks. `#[serde(alias)]` is accepted when parsing,
//! but the schema advertises the primary name only. serde attributes that change the accepted
//! shape in ways not described yet (`flatten`, `with`, `tag`, `untagged`, ...) are compile errors
//! rather than silently wrong schemas.
//!
//! ## Types
//!
//! See the type-mapping table in the README. Fields of type `Option<T>` are not required and
//! accept `null`. Only an `Option` written as such counts: serde treats a missing `Option` field as
//! `None`, and the macro can only see the written type, so a type alias of an `Option` is required
//! in the schema.
//!
//! ## Recursion
//!
//! A type that contains itself (`children: Vec<Self>` or `Vec<Node>` inside `Node`) is written once
//! under the root's `$defs` and referred to with `$ref`; everything else is inlined. Types that
//! recurse through each other (`A` holds `B` holds `A`) are not supported: the compiler reports a
//! cycle in const evaluation. Recursive generic types are a compile error.

#![deny(missing_docs)]

pub use toolgen_macros::{Tool, ToolSchema};
pub use toolgen_runtime::{
    ArgsError, ArgsErrorKind, Defs, MapKey, Provider, Rope, Tool, ToolSchema, parse_args,
    schema_text,
};

#[doc(hidden)]
pub use toolgen_runtime::__private;
