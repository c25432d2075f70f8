//! The `tracing` spans and events of a runner's calls (feature `tracing01`): one span per call,
//! named and attributed as OpenTelemetry's GenAI conventions name a tool execution, and an
//! event for each way a call goes wrong. Without the feature every function here is empty.
//!
//! Conventions: <https://github.com/open-telemetry/semantic-conventions/blob/v1.38.0/docs/gen-ai/gen-ai-spans.md#execute-tool-span>.

use crate::parse::args::ArgsError;
#[cfg(feature = "tracing01")]
use crate::provider::Provider;
#[cfg(feature = "tracing01")]
use crate::run::principal::Principal;
use crate::run::runner::Verdict;
#[cfg(feature = "tracing01")]
use crate::wire::call::ToolCall;
#[cfg(feature = "tracing01")]
use crate::wire::result::ToolResult;

/// How a call ended, for its span's `error.type` (and, through [`Outcome::verdict`], for the
/// retry budget).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The handler ran and gave its result (an error result included: see [`record`]).
    Ran,
    /// The arguments were invalid.
    InvalidArguments,
    /// No such tool (or one not offered).
    UnknownTool,
    /// The handler, or the parsing of its arguments, panicked.
    Panicked,
    /// The call ran out of its time.
    TimedOut,
    /// The turn (or the MCP request) was cancelled.
    Cancelled,
    /// The call has a timeout but no Tokio timer runs.
    NoTimer,
}

impl Outcome {
    /// What the outcome says of the model's call, for the retry budget.
    pub(crate) fn verdict(self) -> Verdict {
        match self {
            Outcome::InvalidArguments => Verdict::Invalid,
            Outcome::UnknownTool => Verdict::Unknown,
            Outcome::Ran
            | Outcome::Panicked
            | Outcome::TimedOut
            | Outcome::Cancelled
            | Outcome::NoTimer => Verdict::Ran,
        }
    }

    /// The value of `error.type` for a call that ended so with `result`; `None` for a success.
    /// (Low-cardinality identifiers, as the convention asks; README lists them.)
    #[cfg(feature = "tracing01")]
    pub(crate) fn error_type(self, result: &ToolResult) -> Option<&'static str> {
        match self {
            Outcome::Ran if result.is_error() => Some("tool_error"),
            Outcome::Ran => None,
            Outcome::InvalidArguments => Some("invalid_arguments"),
            Outcome::UnknownTool => Some("unknown_tool"),
            Outcome::Panicked => Some("panic"),
            Outcome::TimedOut => Some("timeout"),
            Outcome::Cancelled => Some("cancelled"),
            Outcome::NoTimer => Some("no_timer"),
        }
    }
}

/// The `gen_ai.provider.name` of the API a call came from, as the convention spells it; none
/// for MCP (a client's request names no model provider).
#[cfg(feature = "tracing01")]
fn provider_name(provider: Provider) -> Option<&'static str> {
    match provider {
        Provider::Anthropic => Some("anthropic"),
        Provider::OpenAiChat | Provider::OpenAiResponses => Some("openai"),
        Provider::Gemini => Some("gcp.gemini"),
        Provider::Mcp => None,
    }
}

/// A call's span, `execute_tool {gen_ai.tool.name}`, with who called where it is known; the
/// arguments recorded only with `values`.
#[cfg(feature = "tracing01")]
pub(crate) fn call_span(
    provider: Provider,
    call: &ToolCall,
    principal: Option<&Principal>,
    values: bool,
) -> tracing::Span {
    let span = tracing::info_span!(
        "execute_tool",
        otel.name = %format_args!("execute_tool {}", call.name),
        otel.kind = "internal",
        otel.status_code = tracing::field::Empty,
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = %call.name,
        gen_ai.tool.type = "function",
        gen_ai.tool.call.id = call.id.as_deref(),
        gen_ai.provider.name = provider_name(provider),
        error.type = tracing::field::Empty,
        gen_ai.tool.call.arguments = tracing::field::Empty,
        gen_ai.tool.call.result = tracing::field::Empty,
        enduser.id = tracing::field::Empty,
        oauth.client.id = tracing::field::Empty,
    );
    if let Some(principal) = principal {
        record_principal(&span, principal);
    }
    if values {
        span.record("gen_ai.tool.call.arguments", call.arguments.as_str());
    }
    span
}

/// Who called, on `span`: the subject as `enduser.id` (OpenTelemetry's attribute registry) and
/// the OAuth client as `oauth.client.id` (no convention names it). Never the token, nor other
/// claims: their values may be secrets or personal data a trace should not keep.
#[cfg(feature = "tracing01")]
pub(crate) fn record_principal(span: &tracing::Span, principal: &Principal) {
    if let Some(subject) = principal.subject() {
        span.record("enduser.id", subject);
    }
    if let Some(client) = principal.client_id() {
        span.record("oauth.client.id", client);
    }
}

/// Records how the call of `span` ended: `error.type` and the error status on failure, the
/// result's text with `values` on success.
#[cfg(feature = "tracing01")]
pub(crate) fn record(span: &tracing::Span, outcome: Outcome, result: &ToolResult, values: bool) {
    match outcome.error_type(result) {
        Some(error_type) => {
            span.record("error.type", error_type);
            span.record("otel.status_code", "ERROR");
        }
        None if values => {
            span.record("gen_ai.tool.call.result", &*result.to_text());
        }
        None => {}
    }
}

/// An event for arguments the tool refused: where (the JSON path) and what kind of problem; the
/// parser's message (`reason`), which may quote the value, only with `values`.
pub(crate) fn invalid_arguments(error: &ArgsError, values: bool) {
    #[cfg(feature = "tracing01")]
    {
        let reason = values.then(|| error.message());
        tracing::warn!(
            path = error.path(),
            kind = ?error.kind(),
            reason,
            "invalid tool arguments"
        );
    }
    #[cfg(not(feature = "tracing01"))]
    let _ = (error, values);
}

/// An event for a call stopped by its timeout; `stood` when the handler's result in its last
/// poll stands.
pub(crate) fn timed_out(timeout: std::time::Duration, stood: bool) {
    #[cfg(feature = "tracing01")]
    tracing::warn!(
        timeout_ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
        result_stands = stood,
        "tool call timed out"
    );
    #[cfg(not(feature = "tracing01"))]
    let _ = (timeout, stood);
}

/// An event for a call its turn's cancellation stopped (or kept from starting).
pub(crate) fn cancelled(started: bool) {
    #[cfg(feature = "tracing01")]
    tracing::info!(started, "tool call cancelled");
    #[cfg(not(feature = "tracing01"))]
    let _ = started;
}

/// An event for a tool whose invalid-argument turns in a row grew to `attempts`, against the
/// runner's budget of `max_retries`; `spent` when the runner now says to stop.
pub(crate) fn retry(tool: &str, attempts: usize, max_retries: usize, spent: bool) {
    #[cfg(feature = "tracing01")]
    if spent {
        tracing::warn!(
            gen_ai.tool.name = tool,
            attempts,
            max_retries,
            "retry budget spent"
        );
    } else {
        tracing::info!(
            gen_ai.tool.name = tool,
            attempts,
            max_retries,
            "invalid arguments again"
        );
    }
    #[cfg(not(feature = "tracing01"))]
    let _ = (tool, attempts, max_retries, spent);
}
