//! Runtime support for [toolgen](https://docs.rs/toolgen): the [`ToolSchema`] and [`Tool`]
//! traits, compile-time schema assembly, argument parsing and its checks, tool calls
//! in ([`ToolCall`], [`ToolCallStream`]) and results out ([`ToolResult`]) in every provider's
//! format, and tool sets ([`ToolSet`]).
//!
//! Depend on the `toolgen` crate, which re-exports all of this together with the derives.

#![deny(missing_docs)]
// docs.rs builds with every feature and `--cfg docsrs`: each item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
// Without `run` the runner's items (`Runner`, `Turn`, `Pending`) are not built, and the docs of
// the tools and results that name them cannot link them: their names show as text there. Every
// build with `run` (`mcp`, `--all-features`, docs.rs) checks each link.
#![cfg_attr(not(feature = "run"), allow(rustdoc::broken_intra_doc_links))]
// Model output is untrusted input: nothing it can reach may panic. The few `expect`s left are
// on the crate's own invariants, each allowed where it is with the reason external data cannot
// reach it.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

// The layers, each using only those before it (README, "Layout"; `tests/layers.rs`): a type's
// schema (`schema`), its rewrite for a provider and the strict checks (`dialect`), the
// providers' definitions (`provider`), arguments parsed against it (`parse`), tools (`tool`),
// what goes over the wire and tool sets (`wire`), typed answers (`output`), running calls
// (`run`) and serving them over MCP (`mcp`).
mod dialect;
mod kept;
#[cfg(feature = "mcp")]
mod mcp;
mod output;
mod parse;
mod patch;
mod provider;
mod run;
mod schema;
mod tool;
mod wire;

pub use dialect::{Dialect, DialectError, Rule, dialect_schema};
/// The JWT crate of [`JwtValidator`] (its `Algorithm` for
/// [`JwtValidator::algorithms`]), feature `oauth`.
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use jsonwebtoken;
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use mcp::{ClientCredentials, IntrospectionValidator, JwtValidator};
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub use mcp::{
    HttpOptions, HttpService, InvalidResource, McpClientError, McpElicitation, McpHandler,
    McpServer, McpStdio, McpToolProblem, McpToolset, McpToolsetBuilder, Parameters, ResourceServer,
    TokenError, TokenFuture, TokenProvider, TokenValidator, ToolSwitch, ValidateFuture, mcp_stdio,
};
pub use output::{AnswerError, AnswerStream, Route, Structured};
pub use parse::args::{ArgsError, ArgsErrorKind, parse_args};
pub use patch::Patch;
pub use provider::{AllowedCaller, Provider};
/// The official MCP Rust SDK, for serving an [`McpServer`] (feature `mcp`).
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub use rmcp;
#[cfg(feature = "run")]
#[cfg_attr(docsrs, doc(cfg(feature = "run")))]
pub use run::approval::{Decision, HeldCall, Pending, ResumeError};
pub use run::elicit::{
    ElicitAnswer, ElicitError, ElicitFuture, ElicitMode, ElicitRequest, Elicited, Elicitor, Form,
};
pub use run::handler::{
    CallFuture, Cancellation, Cancelled, Dispatch, DynamicFuture, DynamicHandler, Handler,
    Invocation, Progress, ToolError, ToolOutput, run_call,
};
pub use run::principal::Principal;
#[cfg(feature = "rig044")]
#[cfg_attr(docsrs, doc(cfg(feature = "rig044")))]
pub use run::rig::RigTools;
#[cfg(feature = "run")]
#[cfg_attr(docsrs, doc(cfg(feature = "run")))]
pub use run::runner::{Runner, Stop, Turn};
#[cfg(feature = "run")]
#[cfg_attr(docsrs, doc(cfg(feature = "run")))]
pub use run::toolset::{RefreshFuture, Toolset};
pub use schema::{MapKey, ToolSchema};
pub use tool::Tool;
pub use tool::dynamic::{DynamicTool, DynamicToolError};
pub use wire::call::{Caller, ToolCall, ToolCallError};
pub use wire::choice::{Allowed, ChoiceError, ToolChoice};
pub use wire::partial::{PartialJson, partial_json};
pub use wire::result::{Attachment, ToolResult, anthropic_user_message, mcp_response};
pub use wire::set::{NoTools, ToolSet};
pub use wire::stream::{PendingCall, StreamError, ToolCallStream};

/// Items used by the code `#[derive(Tool)]` and `#[derive(ToolSchema)]` generate.
///
/// Not public API: no stability promise covers anything in here.
#[doc(hidden)]
pub mod __private {
    /// The crates of the optional integrations, for the tests that hold their types' schemas
    /// against their `Deserialize`.
    pub mod ecosystem {
        #[cfg(feature = "arrayvec07")]
        pub use arrayvec;
        #[cfg(feature = "bigdecimal04")]
        pub use bigdecimal;
        #[cfg(feature = "bytes1")]
        pub use bytes;
        #[cfg(feature = "chrono04")]
        pub use chrono;
        #[cfg(feature = "either1")]
        pub use either;
        #[cfg(feature = "indexmap2")]
        pub use indexmap;
        #[cfg(feature = "jiff02")]
        pub use jiff;
        #[cfg(feature = "rust_decimal1")]
        pub use rust_decimal;
        #[cfg(feature = "semver1")]
        pub use semver;
        #[cfg(feature = "smallvec1")]
        pub use smallvec;
        #[cfg(feature = "smol_str02")]
        pub use smol_str;
        #[cfg(feature = "time03")]
        pub use time;
        #[cfg(feature = "url2")]
        pub use url;
        #[cfg(feature = "uuid1")]
        pub use uuid;
    }
    pub use crate::dialect::strict::{
        check_answer, check_answer_field, check_field, check_rest, first_problem,
    };
    pub use crate::parse::plan::{parse_stripping, plan_for, plans_kept};
    pub use crate::parse::walk::strip_value;
    pub use crate::patch::{PatchMisuse, check_patch};
    pub use crate::provider::{AllowedCaller, Extras, Icon};
    pub use crate::schema::cycles::{Cut, CutOf, Edges, EdgesAt, reaches};
    pub use crate::schema::facts::{
        EnumRepr, Facts, Keywords, Kid, LeadsTo, Parse, Pick, PickBySerde, PickNone, Target,
        TargetAt, UntaggedPick, Via,
    };
    pub use crate::schema::lists::*;
    pub use crate::schema::rope::{
        Branch, Branches, Capped, Cyclic, DefId, Defs, DefsAt, Flat, NO_ARGS, NO_DEFS, Names,
        Object, Recursive, Rope, escaped, escaped_len, flat_text, flatten_capped, flattened_after,
        flattened_at_root, flattened_str, has_defs, has_no_branches, require_object, schema_text,
        trim_doc, unique_names,
    };
    #[cfg(feature = "schemars1")]
    pub use crate::schema::schemars::{schemars_id, schemars_inline, schemars_schema};
    pub use crate::schema::{Cycle, Recursion, check_default};
    pub use crate::schema::{Sealed, ToolSchema};
    #[cfg(feature = "schemars1")]
    pub use schemars;
    /// The bits of [`Facts`] and of a tool's modes, and the facts of a field with nothing to say.
    pub mod facts {
        pub use crate::dialect::strict::{ANTHROPIC, GEMINI, GEMINI_SKIP, OPENAI};
        pub use crate::schema::facts::{
            ANY, BEHIND, MAP, MULTIPLE_TYPES, NO_FACTS, NON_STRING_ENUM, PATTERN, RECURSIVE, TUPLE,
        };
    }
    pub use crate::dialect::rewrite::rewrite_text;
    pub use crate::run::elicit::{Form, check_form, check_form_field};
    pub use crate::run::handler::{
        CallFuture, Dispatch, Handler, Invocation, handle, tool_output_schema,
    };
    pub use crate::tool::Tool;
    #[cfg(feature = "schemars1")]
    pub use crate::tool::schemars::schemars_input;
    pub use crate::wire::set::{ToolSet, assert_unique_tool_names};
    pub use crate::{ArgsError, Provider, ToolCall};
    pub use serde;
    pub use serde_json;
}
