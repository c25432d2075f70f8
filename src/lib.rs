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
//! | container (`Tool`) | `#[tool(gemini = "parameters")]`, `gemini = "json_schema"` | Gemini's definition always with `parameters` (checked at compile time, as strict mode is) or always with `parametersJsonSchema`; by default `parameters` when the schema fits |
//! | container (`Tool`) | `#[tool(strict)]`, `strict = "openai"`, `strict = "anthropic"` | strict mode: [`Tool::input_schema`] in [`Dialect::OpenAiStrict`] / [`Dialect::AnthropicStrict`], `"strict": true` in those definitions, and a compile error for what the strict grammar cannot express |
//! | container (`Tool`) | `#[tool(needs_approval)]` | the [`Runner`] holds each call for a person to approve or deny ([`Turn::held`], [`Runner::resume`]) |
//! | container (`ToolSchema`) | `/// doc` or `#[tool(description = "..")]` | the schema's `description` |
//! | field, variant | `/// doc` or `#[tool(description = "..")]` | the property's (or branch's) `description` |
//! | field | `#[tool(default = 5)]` (string, number, bool, `None`, array) | `"default"`, not required, and [`Tool::parse_args`] fills it in when missing |
//! | field | `#[tool(range(min = 1, max = 10))]` | `minimum` / `maximum` |
//! | field | `#[tool(length(min = 1, max = 80))]` | `minLength`/`maxLength` (strings), `minItems`/`maxItems` (arrays) |
//! | field | `#[tool(pattern = "^[a-z]+$")]` | `pattern`, checked as a regex at compile time |
//! | field | `#[tool(format = "date-time")]` | `format` (JSON Schema's formats only) |
//! | field | `#[tool(example = "Riga")]` (repeatable) | `examples` |
//! | field | `#[tool(schema = Type)]` | describe the field as `Type` (needed with `#[serde(with)]`) |
//! | field | `#[tool(recursive)]` | the field leads back to a type that holds this one: its types are `$ref`s to their entries under `$defs`, which cuts the cycle there. Types that hold each other (`A` holds `B` holds `A`) need it only where the cycle runs through generic types alone; the derive finds the others (see the README) |
//! | container | `#[serde(rename_all = "..")]` (every rule), `rename_all_fields` | property / value names |
//! | container | `#[serde(default)]` | no field is required |
//! | container | `#[serde(deny_unknown_fields)]` | `"additionalProperties": false` |
//! | container | `#[serde(transparent)]`, `from = ".."`, `try_from = ".."` | the schema of the type serde really reads |
//! | enum | `#[serde(tag = "..")]`, `tag` + `content`, `untagged` | the matching representation, as `anyOf` branches |
//! | field, variant | `#[serde(rename = "..")]`, `rename(deserialize = "..")` | the name serde reads |
//! | field | `#[serde(default)]`, `default = "path"` | not required; `"default"` when the type's default is known |
//! | field | `#[serde(flatten)]` | a struct's properties and `required` (or a map's `additionalProperties`) merged in |
//! | field, variant | `#[serde(skip)]`, `skip_deserializing` | not in the schema |
//! | variant | `#[serde(other)]`, `#[serde(untagged)]` | a branch for any other tag; a branch tried after the tagged ones |
//!
//! Doc comments: lines are joined with a space, common indentation removed, paragraphs kept;
//! list items and fenced code keep their line breaks.
//! `#[doc = include_str!("..")]` (or any doc expression) works too: the compiler reads the text,
//! and const evaluation JSON-escapes it; it is trimmed, and its lines are kept as they are.
//!
//! `#[serde(alias = "..")]` is accepted when parsing (serde reads it), but the schema advertises
//! the primary name only: a model should be steered to one spelling. `bound`, `crate`,
//! `expecting` and the serialize-only attributes (`skip_serializing_if`, ..) do not change what
//! serde reads and are passed over. `#[serde(with/deserialize_with)]` hands the field to a
//! function toolgen cannot read, so it needs `#[tool(schema = ..)]`; `remote`,
//! `variant_identifier` and `field_identifier` are compile errors.
//!
//! What the macro cannot see is checked in const evaluation, and stops the build with a message:
//! `#[serde(flatten)]` of a type that is not an object, two properties with one name after
//! flattening, a flattened enum at a tool's root (its arguments would be one of several objects)
//! or two flattened enums in one object, a `#[tool(default)]` string that is not one of an enum's values, and for a strict
//! tool anything its strict dialect cannot express (a map, `serde_json::Value`, a tuple, for
//! Anthropic recursion and regexes with `\b` or lookaround, OpenAI's size limits), at the field
//! that holds it: every such field in one build, each once, naming every provider that refuses
//! it.
//!
//! ## Dialects
//!
//! Besides [`Tool::INPUT_SCHEMA`] (standard JSON Schema, a compile-time const), a tool has its
//! schema in each provider's dialect ([`Tool::input_schema`]) and its whole definition for each
//! provider ([`Tool::definition_json`]), each a `&'static str` written once, at first use, from
//! the standard schema: a dialect or definition a program never asks for costs nothing, at build
//! time or at run time. Whether a strict dialect can express the input is known at compile time
//! (from each type's `FACTS`), so a strict tool that compiles always has its strict schema.
//! [`dialect_schema`] runs the same rewrite on any schema text.
//!
//! ## Types
//!
//! See the type-mapping table in the README. Fields of type `Option<T>` are not required and
//! accept `null`. Only an `Option` written as such counts: serde treats a missing `Option` field as
//! `None`, and the macro can only see the written type, so a type alias of an `Option` is required
//! in the schema. A [`Patch<T>`](Patch) field (with `#[serde(default)]`) tells a key left out
//! (`Patch::Absent`) from one sent as `null` (`Patch::Null`), as update tools mean them ("leave it
//! out to keep it, send `null` to clear it").
//!
//! ## Recursion
//!
//! A type that contains itself (`children: Vec<Self>` or `Vec<Node>` inside `Node`) is written once
//! under the root's `$defs` and referred to with `$ref`; everything else is inlined. Generic types
//! may contain themselves (`Tree<T>` in `Tree<T>`): `Tree<u8>` and `Tree<String>` are two
//! entries. An entry is keyed by the type's name; a second, different type with the same name
//! (from another module, or another type argument) gets `Name-2`, and so on, so two types never
//! share an entry, and the same type reached twice is written once. Types that recurse through
//! each other (`A` holds `B` holds `A`) are found by the derive and written the same way, each
//! type of the cycle once; a cycle through a generic type is marked `#[tool(recursive)]` at a
//! field of it (see the README).

//!
//! ## schemars
//!
//! With the `schemars1` feature, the derives also implement `schemars::JsonSchema`, giving
//! schemars the schema toolgen writes (a tool's [`Tool::INPUT_SCHEMA`], another type's
//! [`ToolSchema::json_schema`]), with the entries of its `$defs` in the generator's definitions:
//! a toolgen type works as rmcp's `Parameters<T>` and `Json<T>`, and wherever schemars is asked.
//! See the README's "schemars" section for the names, the generator's settings and the cost.
//!
//! ```
//! # #[cfg(feature = "schemars1")] {
//! use serde::Deserialize;
//! use toolgen::{Tool, ToolSchema};
//!
//! /// A heading and the headings under it.
//! #[derive(ToolSchema, Deserialize)]
//! struct Heading { title: String, children: Vec<Heading> }
//!
//! /// Write an outline.
//! #[derive(Tool, Deserialize)]
//! struct WriteOutline { headings: Vec<Heading> }
//!
//! let mut root = schemars::schema_for!(WriteOutline).to_value();
//! let root = root.as_object_mut().unwrap();
//! assert_eq!(root.remove("$schema").unwrap(), "https://json-schema.org/draft/2020-12/schema");
//! assert_eq!(root.remove("title").unwrap(), "WriteOutline");
//! let toolgen: serde_json::Value = serde_json::from_str(WriteOutline::INPUT_SCHEMA).unwrap();
//! assert_eq!(serde_json::Value::Object(root.clone()), toolgen);
//! assert_eq!(toolgen["$defs"]["Heading"]["properties"]["children"]["items"]["$ref"], "#/$defs/Heading");
//! # }
//! ```

#![deny(missing_docs)]
// docs.rs builds with every feature and `--cfg docsrs`: each item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use toolgen_macros::{Tool, ToolSchema, ToolSet};
#[cfg(feature = "rig044")]
#[cfg_attr(docsrs, doc(cfg(feature = "rig044")))]
pub use toolgen_runtime::RigTools;
/// The JWT crate of [`JwtValidator`] (feature `oauth`).
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use toolgen_runtime::jsonwebtoken;
/// The official MCP Rust SDK, for serving an [`McpServer`] (feature `mcp`).
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub use toolgen_runtime::rmcp;
pub use toolgen_runtime::{Allowed, ChoiceError};
pub use toolgen_runtime::{AllowedCaller, DynamicTool, DynamicToolError};
pub use toolgen_runtime::{AnswerError, AnswerStream, Route, Structured};
pub use toolgen_runtime::{
    ArgsError, ArgsErrorKind, MapKey, NoTools, Patch, Provider, Tool, ToolSchema, ToolSet,
    parse_args,
};
pub use toolgen_runtime::{
    Attachment, Caller, ToolCall, ToolCallError, ToolChoice, ToolResult, anthropic_user_message,
    mcp_response,
};
pub use toolgen_runtime::{
    CallFuture, Cancellation, Cancelled, Dispatch, DynamicFuture, DynamicHandler, Handler,
    Invocation, Principal, Progress, ToolError, ToolOutput, run_call,
};
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use toolgen_runtime::{ClientCredentials, IntrospectionValidator, JwtValidator};
#[cfg(feature = "run")]
#[cfg_attr(docsrs, doc(cfg(feature = "run")))]
pub use toolgen_runtime::{
    Decision, HeldCall, Pending, RefreshFuture, ResumeError, Runner, Stop, Toolset, Turn,
};
pub use toolgen_runtime::{Dialect, DialectError, Rule, dialect_schema};
pub use toolgen_runtime::{
    ElicitAnswer, ElicitError, ElicitFuture, ElicitMode, ElicitRequest, Elicited, Elicitor, Form,
};
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub use toolgen_runtime::{
    HttpOptions, HttpService, InvalidResource, McpClientError, McpElicitation, McpHandler,
    McpServer, McpStdio, McpToolProblem, McpToolset, McpToolsetBuilder, Parameters, ResourceServer,
    TokenError, TokenFuture, TokenProvider, TokenValidator, ToolSwitch, ValidateFuture, mcp_stdio,
};
pub use toolgen_runtime::{PartialJson, PendingCall, StreamError, ToolCallStream, partial_json};

#[doc(hidden)]
pub use toolgen_runtime::__private;

/// The README's code, compiled and run as doctests (its fragments are marked `ignore`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
