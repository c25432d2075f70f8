//! The `tracing` spans of MCP requests (feature `tracing01`): one for each request an
//! [`McpServer`](super::McpServer) answers (kind server), one for each call an
//! [`McpToolset`](super::McpToolset) forwards (kind client), named and attributed as
//! OpenTelemetry's MCP conventions say; with the feature `opentelemetry033`, the trace context
//! crosses in `params._meta`. Without `tracing` a span holds nothing and does nothing.
//!
//! Conventions: <https://github.com/open-telemetry/semantic-conventions-genai/blob/v0.1.0/docs/gen-ai/mcp.md>.

use std::future::Future;

use rmcp::model::{InputRequiredResult, RequestId};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use crate::wire::result::ToolResult;

/// The `network.transport` of the requests a transport reads (stdio's: `pipe`), put in each
/// request's extensions for its span. (Streamable HTTP's requests carry their HTTP parts.)
#[cfg(feature = "tracing01")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct NetworkTransport(pub(crate) &'static str);

/// `message` with the `network.transport` of the transport that read it, where it is a request
/// and the feature `tracing01` is on (else `message` as it is).
#[cfg_attr(not(feature = "tracing01"), allow(unused_mut))]
pub(crate) fn read_over(
    mut message: rmcp::model::ClientJsonRpcMessage,
    transport: &'static str,
) -> rmcp::model::ClientJsonRpcMessage {
    #[cfg(feature = "tracing01")]
    if let rmcp::model::JsonRpcMessage::Request(request) = &mut message {
        use rmcp::model::GetExtensions;
        let extensions = request.request.extensions_mut();
        extensions.insert(NetworkTransport(transport));
    }
    #[cfg(not(feature = "tracing01"))]
    let _ = transport;
    message
}

/// What a client knows of its connection, for its spans.
#[cfg_attr(not(feature = "tracing01"), allow(dead_code))]
#[derive(Clone, Debug, Default)]
pub(crate) struct Connection {
    /// `network.transport`: `pipe` for a child's stdio, `tcp` for HTTP, none for another
    /// transport.
    pub(crate) transport: Option<&'static str>,
    /// `mcp.protocol.version`, as the server answered `initialize`.
    pub(crate) protocol_version: Option<String>,
}

/// The span of one MCP request, at the server or at the client (empty without the feature
/// `tracing`). Failures set `error.type` and the error status; values (arguments, results)
/// are recorded only where the span was made with `values`.
pub(crate) struct McpSpan {
    #[cfg(feature = "tracing01")]
    span: tracing::Span,
    #[cfg(feature = "tracing01")]
    values: bool,
}

impl McpSpan {
    /// The server's span of a request of `method` (about the tool `tool`, if any) with
    /// `context`'s id, session, version and transport: `{method} {tool}`, kind server. With the
    /// feature `opentelemetry033`, the trace context in the request's `_meta` is its parent.
    #[cfg_attr(not(feature = "tracing01"), allow(unused_variables))]
    pub(crate) fn server(
        method: &'static str,
        tool: Option<&str>,
        context: &RequestContext<RoleServer>,
        values: bool,
    ) -> Self {
        #[cfg(feature = "tracing01")]
        {
            use tracing::field::Empty;
            let parts = context.extensions.get::<http::request::Parts>();
            let session = parts
                .and_then(|parts| parts.headers.get("mcp-session-id"))
                .and_then(|id| id.to_str().ok());
            let transport = match parts {
                Some(_) => Some("tcp"),
                None => (context.extensions.get::<NetworkTransport>()).map(|transport| transport.0),
            };
            let version = context.protocol_version();
            let span = tracing::info_span!(
                "mcp.server",
                otel.name = %SpanName(method, tool),
                otel.kind = "server",
                otel.status_code = Empty,
                otel.status_description = Empty,
                mcp.method.name = method,
                mcp.session.id = session,
                mcp.protocol.version = version.as_ref().map(|version| version.as_str()),
                jsonrpc.request.id = %context.id,
                network.transport = transport,
                network.protocol.name = parts.map(|_| "http"),
                network.protocol.version = parts.and_then(|parts| http_version(parts.version)),
                gen_ai.operation.name = tool.map(|_| "execute_tool"),
                gen_ai.tool.name = tool,
                error.type = Empty,
                rpc.response.status_code = Empty,
                gen_ai.tool.call.arguments = Empty,
                gen_ai.tool.call.result = Empty,
                mcp.result.type = Empty,
                mcp.input_request.keys = Empty,
                enduser.id = Empty,
                oauth.client.id = Empty,
            );
            if let Some(principal) = super::principal_of(context) {
                crate::run::trace::record_principal(&span, principal);
            }
            #[cfg(feature = "opentelemetry033")]
            propagation::continue_from(&span, &context.meta);
            McpSpan { span, values }
        }
        #[cfg(not(feature = "tracing01"))]
        McpSpan {}
    }

    /// The client's span of a `tools/call` of `tool` over `connection`: `tools/call {tool}`,
    /// kind client (the request's id is recorded once it is sent: [`McpSpan::sent`]).
    #[cfg_attr(not(feature = "tracing01"), allow(unused_variables))]
    pub(crate) fn client(tool: &str, connection: &Connection) -> Self {
        #[cfg(feature = "tracing01")]
        {
            use tracing::field::Empty;
            let span = tracing::info_span!(
                "mcp.client",
                otel.name = %SpanName("tools/call", Some(tool)),
                otel.kind = "client",
                otel.status_code = Empty,
                otel.status_description = Empty,
                mcp.method.name = "tools/call",
                mcp.protocol.version = connection.protocol_version.as_deref(),
                jsonrpc.request.id = Empty,
                network.transport = connection.transport,
                gen_ai.operation.name = "execute_tool",
                gen_ai.tool.name = tool,
                error.type = Empty,
                rpc.response.status_code = Empty,
            );
            // (The runner's `execute_tool` span around it records the values, when asked.)
            McpSpan {
                span,
                values: false,
            }
        }
        #[cfg(not(feature = "tracing01"))]
        McpSpan {}
    }

    /// Runs `future` in the span.
    pub(crate) fn instrument<F: Future>(&self, future: F) -> impl Future<Output = F::Output> {
        #[cfg(feature = "tracing01")]
        return tracing::Instrument::instrument(future, self.span.clone());
        #[cfg(not(feature = "tracing01"))]
        future
    }

    /// Writes the span's trace context into `request`'s `_meta` (feature `opentelemetry033`),
    /// for the server's span to continue.
    #[cfg_attr(not(feature = "opentelemetry033"), allow(unused_variables))]
    pub(crate) fn carry(&self, request: &mut rmcp::model::ClientRequest) {
        #[cfg(feature = "opentelemetry033")]
        {
            use rmcp::model::GetMeta;
            propagation::carry(&self.span, request.get_meta_mut());
        }
    }

    /// Records the id of the request sent.
    #[cfg_attr(not(feature = "tracing01"), allow(unused_variables))]
    pub(crate) fn sent(&self, id: &RequestId) {
        #[cfg(feature = "tracing01")]
        self.span
            .record("jsonrpc.request.id", tracing::field::display(id));
    }

    /// Records the call's arguments (JSON text), with values.
    #[cfg_attr(not(feature = "tracing01"), allow(unused_variables))]
    pub(crate) fn arguments(&self, arguments: &str) {
        #[cfg(feature = "tracing01")]
        if self.values {
            self.span.record("gen_ai.tool.call.arguments", arguments);
        }
    }

    /// Records a tool's result: `error.type` `tool_error` for an error result (as the
    /// convention asks for `isError: true`), else its text, with values.
    #[cfg_attr(not(feature = "tracing01"), allow(unused_variables))]
    pub(crate) fn answered(&self, result: &ToolResult) {
        #[cfg(feature = "tracing01")]
        if result.is_error() {
            self.failed("tool_error", None);
        } else if self.values {
            self.span
                .record("gen_ai.tool.call.result", &*result.to_text());
        }
    }

    /// Records a call that ended asking for input (`2026-07-28`'s `InputRequiredResult`, the
    /// client to call again with the answers): `mcp.result.type` `input_required` (MCP's
    /// `resultType`; the conventions have no attribute for it yet) and the keys of its
    /// `inputRequests`, comma-separated, as `mcp.input_request.keys`. Not a failure: the status
    /// stays unset.
    #[cfg_attr(not(feature = "tracing01"), allow(unused_variables))]
    pub(crate) fn input_required(&self, result: &InputRequiredResult) {
        #[cfg(feature = "tracing01")]
        {
            self.span.record("mcp.result.type", "input_required");
            if let Some(requests) = &result.input_requests {
                let keys: Vec<&str> = requests.keys().map(String::as_str).collect();
                self.span
                    .record("mcp.input_request.keys", keys.join(", ").as_str());
            }
        }
    }

    /// Records a JSON-RPC error answer: its code as `error.type` and
    /// `rpc.response.status_code`, its message as the status description.
    #[cfg_attr(not(feature = "tracing01"), allow(unused_variables))]
    pub(crate) fn refused(&self, error: &ErrorData) {
        #[cfg(feature = "tracing01")]
        {
            let code = error.code.0.to_string();
            self.span.record("rpc.response.status_code", code.as_str());
            self.failed(&code, Some(&error.message));
        }
    }

    /// Records a failure of the kind `error_type` (and what it says, for the status).
    #[cfg_attr(not(feature = "tracing01"), allow(unused_variables))]
    pub(crate) fn failed(&self, error_type: &str, description: Option<&str>) {
        #[cfg(feature = "tracing01")]
        {
            self.span.record("error.type", error_type);
            self.span.record("otel.status_code", "ERROR");
            if let Some(description) = description {
                self.span.record("otel.status_description", description);
            }
        }
    }
}

/// A span's name, `{mcp.method.name} {target}` (the tool's name), or the method alone.
#[cfg(feature = "tracing01")]
struct SpanName<'a>(&'static str, Option<&'a str>);

#[cfg(feature = "tracing01")]
impl std::fmt::Display for SpanName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.1 {
            Some(target) => write!(f, "{} {target}", self.0),
            None => f.write_str(self.0),
        }
    }
}

/// `network.protocol.version` of an HTTP request.
#[cfg(feature = "tracing01")]
fn http_version(version: http::Version) -> Option<&'static str> {
    Some(match version {
        http::Version::HTTP_09 => "0.9",
        http::Version::HTTP_10 => "1.0",
        http::Version::HTTP_11 => "1.1",
        http::Version::HTTP_2 => "2",
        http::Version::HTTP_3 => "3",
        _ => return None,
    })
}

/// Trace context through `params._meta` (feature `opentelemetry033`), as the application's
/// OpenTelemetry propagator writes and reads it (W3C's gives `traceparent` and `tracestate`,
/// the keys MCP reserves for them).
#[cfg(feature = "opentelemetry033")]
mod propagation {
    use opentelemetry::propagation::{Extractor, Injector};
    use opentelemetry::trace::TraceContextExt;
    use rmcp::model::MetaObject;
    use serde_json::Value;
    use tracing_opentelemetry::OpenTelemetrySpanExt;

    /// `_meta`'s string members, as a propagator reads them.
    struct Reading<'a>(&'a MetaObject);

    impl Extractor for Reading<'_> {
        fn get(&self, key: &str) -> Option<&str> {
            self.0.get(key).and_then(Value::as_str)
        }

        fn keys(&self) -> Vec<&str> {
            self.0.keys().map(String::as_str).collect()
        }
    }

    /// `_meta`, as a propagator writes it.
    struct Writing<'a>(&'a mut MetaObject);

    impl Injector for Writing<'_> {
        fn set(&mut self, key: &str, value: String) {
            self.0.insert(key.to_owned(), Value::String(value));
        }
    }

    /// Makes the trace context in `meta` the parent of `span`, where it holds a valid one.
    pub(super) fn continue_from(span: &tracing::Span, meta: &MetaObject) {
        let parent = opentelemetry::global::get_text_map_propagator(|propagator| {
            propagator.extract(&Reading(meta))
        });
        if parent.span().span_context().is_valid() {
            // (Fails only without tracing-opentelemetry's layer: nothing to continue then.)
            let _ = span.set_parent(parent);
        }
    }

    /// Writes `span`'s trace context into `meta`.
    pub(super) fn carry(span: &tracing::Span, meta: &mut MetaObject) {
        let context = span.context();
        opentelemetry::global::get_text_map_propagator(|propagator| {
            propagator.inject_context(&context, &mut Writing(meta));
        });
    }
}
