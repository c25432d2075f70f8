//! The spans of MCP requests (features `mcp`, `tracing01` and `opentelemetry033`), exported by
//! tracing-opentelemetry into OpenTelemetry's own in-memory exporter: their names, kinds and
//! attributes against OpenTelemetry's MCP semantic conventions,
//! <https://github.com/open-telemetry/semantic-conventions-genai/blob/v0.1.0/docs/gen-ai/mcp.md>
//! ("Client" and "Server" spans: `{mcp.method.name} {target}`, `mcp.method.name`,
//! `jsonrpc.request.id`, `mcp.session.id`, `mcp.protocol.version`, `network.transport`,
//! `gen_ai.tool.name`, `error.type`, `rpc.response.status_code`; the values opt-in), and one
//! trace across a gateway (client -> gateway `McpServer` over an `McpToolset` -> far-end
//! `McpServer`, in process), its context carried in `params._meta` ("Context propagation").

use std::collections::BTreeMap;

use opentelemetry::trace::{SpanKind, Status, TracerProvider};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::rmcp::ServiceExt;
use toolgen::rmcp::model::CallToolRequestParams;
use toolgen::{
    Elicited, Handler, HttpOptions, Invocation, McpServer, McpStdio, McpToolset, Principal,
    ResourceServer, Runner, TokenError, TokenValidator, Tool, ToolError, ToolSchema, ToolSet,
    ValidateFuture,
};
use tracing_subscriber::layer::SubscriberExt;

/// Add two numbers.
#[derive(Tool, Deserialize)]
struct Add {
    a: i64,
    b: i64,
}

impl Handler<()> for Add {
    type Output = i64;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<i64, ToolError> {
        Ok(self.a + self.b)
    }
}

/// Always fail.
#[derive(Tool, Deserialize)]
struct Fail {}

impl Handler<()> for Fail {
    type Output = i64;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<i64, ToolError> {
        Err(ToolError::new("it failed"))
    }
}

/// The far end's tools.
#[derive(ToolSet)]
enum Far {
    Add(Add),
    Fail(Fail),
}

/// The gateway's own tools (none is called here).
#[derive(ToolSet)]
enum Near {
    Fail(Fail),
}

/// A plain rmcp client.
struct Client;

impl toolgen::rmcp::ClientHandler for Client {}

/// Runs `body` on a current-thread runtime (every task on this thread, in its subscriber),
/// with tracing-opentelemetry exporting into the in-memory exporter and the W3C propagator
/// set; the spans that ended, once `body` is done.
fn traced<F: Future<Output = ()>>(body: impl FnOnce() -> F) -> Vec<SpanData> {
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("tracing_mcp"));
    let subscriber = tracing_subscriber::registry().with(layer);
    tracing::subscriber::with_default(subscriber, || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            body().await;
            // (The servers' tasks end their spans once their answers are out.)
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        });
    });
    provider.force_flush().unwrap();
    exporter.get_finished_spans().unwrap()
}

/// A span's attributes, as strings.
fn attributes(span: &SpanData) -> BTreeMap<String, String> {
    (span.attributes.iter())
        .map(|kv| (kv.key.to_string(), kv.value.to_string()))
        .collect()
}

/// The one span named `name` of `kind`.
fn the<'a>(spans: &'a [SpanData], name: &str, kind: SpanKind) -> &'a SpanData {
    let found: Vec<&SpanData> = (spans.iter())
        .filter(|span| span.name == name && span.span_kind == kind)
        .collect();
    let names: Vec<(&str, &SpanKind)> = spans.iter().map(|s| (&*s.name, &s.span_kind)).collect();
    assert_eq!(
        found.len(),
        1,
        "one `{name}` span of kind {kind:?} in {names:?}"
    );
    found[0]
}

fn call(name: &str, arguments: Value) -> CallToolRequestParams {
    let params = CallToolRequestParams::new(name.to_owned());
    match arguments {
        Value::Object(arguments) => params.with_arguments(arguments),
        _ => params,
    }
}

/// Serves `server` on one end of a duplex pipe, in a task; the other end.
fn serve(server: impl toolgen::rmcp::ServerHandler) -> tokio::io::DuplexStream {
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    client_side
}

/// A gateway of the far end's tools (as `far_`), its server built by `server`: the gateway
/// client's end.
async fn gateway(
    server: impl FnOnce(Runner<Near, ()>) -> McpServer<Near, ()>,
) -> tokio::io::DuplexStream {
    let far = McpServer::new(Runner::<Far, ()>::new(()), "far", "1.0.0");
    let toolset = McpToolset::connect(serve(far)).await.unwrap();
    let runner = Runner::<Near, ()>::new(()).with_mcp(toolset.prefix("far_"));
    serve(server(runner))
}

#[test]
fn a_call_through_a_gateway_is_one_trace_of_server_and_client_spans() {
    let spans = traced(|| async {
        let end = gateway(|runner| McpServer::new(runner, "gateway", "1.0.0")).await;
        let client = Client.serve(end).await.unwrap();
        let sum = client
            .call_tool(call("far_add", json!({"a": 1, "b": 2})))
            .await
            .unwrap();
        assert_eq!(sum.structured_content, None);
        client.cancel().await.unwrap();
    });

    // The gateway's span of the client's request.
    let gateway = the(&spans, "tools/call far_add", SpanKind::Server);
    let attributes_of_gateway = attributes(gateway);
    assert_eq!(attributes_of_gateway["mcp.method.name"], "tools/call");
    assert_eq!(attributes_of_gateway["gen_ai.tool.name"], "far_add");
    assert_eq!(
        attributes_of_gateway["gen_ai.operation.name"],
        "execute_tool"
    );
    // (rmcp's client says `initialize` with 2025-11-25.)
    assert_eq!(attributes_of_gateway["mcp.protocol.version"], "2025-11-25");
    assert!(attributes_of_gateway.contains_key("jsonrpc.request.id"));
    // Not asked for: no values; a duplex pipe is no network transport the convention names.
    for absent in [
        "gen_ai.tool.call.arguments",
        "gen_ai.tool.call.result",
        "error.type",
        "network.transport",
        "mcp.session.id",
    ] {
        assert!(!attributes_of_gateway.contains_key(absent), "{absent}");
    }
    assert_eq!(gateway.status, Status::Unset);

    // Inside it, the runner's call; inside that, the forwarded call.
    let execute = the(&spans, "execute_tool far_add", SpanKind::Internal);
    assert_eq!(execute.parent_span_id, gateway.span_context.span_id());
    let forwarded = the(&spans, "tools/call add", SpanKind::Client);
    assert_eq!(forwarded.parent_span_id, execute.span_context.span_id());
    let attributes_of_forwarded = attributes(forwarded);
    assert_eq!(attributes_of_forwarded["mcp.method.name"], "tools/call");
    assert_eq!(attributes_of_forwarded["gen_ai.tool.name"], "add");
    assert_eq!(
        attributes_of_forwarded["gen_ai.operation.name"],
        "execute_tool"
    );
    // (`McpToolset` speaks 2026-07-28 with a server that does.)
    assert_eq!(
        attributes_of_forwarded["mcp.protocol.version"],
        "2026-07-28"
    );
    let id = &attributes_of_forwarded["jsonrpc.request.id"];

    // The far end continues the trace: its span's parent is the forwarded call's, whose
    // context went in `params._meta`.
    let far = the(&spans, "tools/call add", SpanKind::Server);
    assert_eq!(far.parent_span_id, forwarded.span_context.span_id());
    assert!(far.parent_span_is_remote);
    assert_eq!(&attributes(far)["jsonrpc.request.id"], id);
    let far_execute = the(&spans, "execute_tool add", SpanKind::Internal);
    assert_eq!(far_execute.parent_span_id, far.span_context.span_id());
    let trace = gateway.span_context.trace_id();
    for span in [execute, forwarded, far, far_execute] {
        assert_eq!(span.span_context.trace_id(), trace, "{}", span.name);
    }

    // The toolset's handshake and listing, at the far end.
    let listed = the(&spans, "tools/list", SpanKind::Server);
    assert_eq!(attributes(listed)["mcp.method.name"], "tools/list");
    assert!(!attributes(listed).contains_key("gen_ai.tool.name"));
    // (The toolset starts with `server/discover` at 2026-07-28, which has no `initialize`.)
    assert_eq!(
        (spans.iter())
            .filter(|span| span.name == "initialize" && span.span_kind == SpanKind::Server)
            .count(),
        1,
        "the gateway's"
    );
}

#[test]
fn failures_set_the_error_type_and_status() {
    let spans = traced(|| async {
        let end = gateway(|runner| McpServer::new(runner, "gateway", "1.0.0")).await;
        let client = Client.serve(end).await.unwrap();
        let failed = client.call_tool(call("far_fail", json!({}))).await.unwrap();
        assert_eq!(failed.is_error, Some(true));
        let refused = client.call_tool(call("nope", json!({}))).await;
        assert!(refused.is_err());
        client.cancel().await.unwrap();
    });

    // A tool's error result: `tool_error`, at both ends and at the gateway.
    for (name, kind) in [
        ("tools/call far_fail", SpanKind::Server),
        ("tools/call fail", SpanKind::Client),
        ("tools/call fail", SpanKind::Server),
    ] {
        let span = the(&spans, name, kind.clone());
        assert_eq!(
            attributes(span)["error.type"],
            "tool_error",
            "{name} {kind:?}"
        );
        assert!(
            matches!(span.status, Status::Error { .. }),
            "{name} {kind:?}"
        );
    }

    // A JSON-RPC error: its code, as `error.type` and `rpc.response.status_code`; its message
    // as the status's description.
    let refused = the(&spans, "tools/call nope", SpanKind::Server);
    let attributes_of_refused = attributes(refused);
    assert_eq!(attributes_of_refused["error.type"], "-32602");
    assert_eq!(attributes_of_refused["rpc.response.status_code"], "-32602");
    let Status::Error { description } = &refused.status else {
        panic!("{:?}", refused.status);
    };
    assert!(description.contains("nope"), "{description}");
}

#[test]
fn values_are_recorded_only_when_the_server_opts_in() {
    let spans = traced(|| async {
        let end =
            gateway(|runner| McpServer::new(runner, "gateway", "1.0.0").trace_values(true)).await;
        let client = Client.serve(end).await.unwrap();
        client
            .call_tool(call("far_add", json!({"a": 1, "b": 2})))
            .await
            .unwrap();
        client.cancel().await.unwrap();
    });
    let gateway = attributes(the(&spans, "tools/call far_add", SpanKind::Server));
    assert_eq!(gateway["gen_ai.tool.call.arguments"], r#"{"a":1,"b":2}"#);
    assert_eq!(gateway["gen_ai.tool.call.result"], "3");
    // The far end did not opt in.
    let far = attributes(the(&spans, "tools/call add", SpanKind::Server));
    assert!(!far.contains_key("gen_ai.tool.call.arguments"));
    assert!(!far.contains_key("gen_ai.tool.call.result"));
}

#[test]
fn stdio_is_a_pipe_and_streamable_http_a_tcp_session() {
    let spans = traced(|| async {
        // Over toolgen's stdio transport.
        let (server_side, client_side) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(server_side);
        let server = McpServer::new(Runner::<Far, ()>::new(()), "far", "1.0.0");
        tokio::spawn(async move {
            if let Ok(running) = server.serve(McpStdio::new(read, write)).await {
                let _ = running.waiting().await;
            }
        });
        let client = Client.serve(client_side).await.unwrap();
        client
            .call_tool(call("add", json!({"a": 1, "b": 2})))
            .await
            .unwrap();
        client.cancel().await.unwrap();

        // Over streamable HTTP, through a toolset.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let server = McpServer::new(Runner::<Far, ()>::new(()), "far", "1.0.0");
        tokio::spawn(server.serve_http(listener));
        let toolset = McpToolset::http(&url).await.unwrap();
        let mut runner = Runner::<Near, ()>::new(()).with_mcp(toolset.clone());
        let call = toolgen::ToolCall::new("add", r#"{"a":1,"b":2}"#);
        let result = runner.run(toolgen::Provider::Mcp, &[call]).await;
        assert!(!result.results()[0].is_error());
        toolset.close().await;
    });

    let served: Vec<BTreeMap<String, String>> = (spans.iter())
        .filter(|span| span.name == "tools/call add" && span.span_kind == SpanKind::Server)
        .map(attributes)
        .collect();
    assert_eq!(served.len(), 2);
    let (piped, http) = (&served[0], &served[1]);
    assert_eq!(piped["network.transport"], "pipe");
    assert!(!piped.contains_key("mcp.session.id"));
    assert!(!piped.contains_key("network.protocol.name"));
    assert_eq!(http["network.transport"], "tcp");
    assert_eq!(http["network.protocol.name"], "http");
    assert_eq!(http["network.protocol.version"], "1.1");
    // (The toolset speaks 2026-07-28, whose requests stand alone: no session.)
    assert_eq!(http["mcp.protocol.version"], "2026-07-28");
    assert!(!http.contains_key("mcp.session.id"));
    let forwarded = attributes(the(&spans, "tools/call add", SpanKind::Client));
    assert_eq!(forwarded["network.transport"], "tcp");
}

/// Takes the token `alice-token`: the subject `alice` of the client `notes-cli`, with a claim
/// that must not reach a trace.
struct Alice;

impl TokenValidator for Alice {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        let claims = json!({"sub": "alice", "client_id": "notes-cli", "secret": "s3cret"});
        let principal = Principal::from_claims(claims.as_object().unwrap().clone());
        Box::pin(async move {
            match token {
                "alice-token" => Ok(principal),
                _ => Err(TokenError::new("unknown token")),
            }
        })
    }
}

#[test]
fn who_called_is_on_the_spans_but_not_the_token_nor_other_claims() {
    let spans = traced(|| async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let auth = ResourceServer::new(&url, Alice).unwrap();
        let options = HttpOptions::default().authorization(auth);
        let server = McpServer::new(Runner::<Far, ()>::new(()), "far", "1.0.0");
        tokio::spawn(async move { server.serve_http_with(listener, &options).await });
        let toolset = McpToolset::http_with_token(&url, "alice-token")
            .await
            .unwrap();
        let mut runner = Runner::<Near, ()>::new(()).with_mcp(toolset.clone());
        let call = toolgen::ToolCall::new("add", r#"{"a":1,"b":2}"#);
        let result = runner.run(toolgen::Provider::Mcp, &[call]).await;
        assert!(!result.results()[0].is_error());
        toolset.close().await;
    });
    let served = attributes(the(&spans, "tools/call add", SpanKind::Server));
    assert_eq!(served["enduser.id"], "alice");
    assert_eq!(served["oauth.client.id"], "notes-cli");
    // The far server's execute_tool span has them too; the client side's (no principal) not.
    let executed: Vec<BTreeMap<String, String>> = (spans.iter())
        .filter(|span| span.name == "execute_tool add")
        .map(attributes)
        .collect();
    assert_eq!(executed.len(), 2);
    let who: Vec<Option<(&str, &str)>> = (executed.iter())
        .map(|attributes| {
            let subject = attributes.get("enduser.id")?;
            Some((subject.as_str(), attributes["oauth.client.id"].as_str()))
        })
        .collect();
    assert!(who.contains(&Some(("alice", "notes-cli"))), "{who:?}");
    assert!(who.contains(&None), "{who:?}");
    for span in &spans {
        for (key, value) in attributes(span) {
            assert!(
                !value.contains("alice-token") && !value.contains("s3cret"),
                "{}: {key} = {value}",
                span.name
            );
        }
    }
}

/// Yes or no.
#[derive(ToolSchema, Deserialize)]
#[tool(form)]
struct Confirm {
    ok: bool,
}

/// Asks the person to confirm.
#[derive(Tool, Deserialize)]
struct Ask {}

impl Handler<()> for Ask {
    type Output = bool;
    async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<bool, ToolError> {
        let answer = call.elicit::<Confirm>("Sure?").await?;
        Ok(matches!(answer, Elicited::Accepted(Confirm { ok: true })))
    }
}

#[derive(ToolSet)]
enum Asking {
    Ask(Ask),
}

/// A `2026-07-28` call that ends asking for input (`InputRequiredResult`): its span says so,
/// with the keys of what it asked, and is not an error; the retry's span ends as a call does.
#[test]
fn a_call_that_ends_asking_for_input_says_so() {
    let spans = traced(|| async {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
        let server =
            McpServer::new(Runner::<Asking, ()>::new(()), "asking", "1.0.0").trace_values(true);
        let (reader, mut writer) = tokio::io::split(serve(server));
        let mut lines = tokio::io::BufReader::new(reader).lines();
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
        });
        let mut params = json!({"name": "ask", "arguments": {}, "_meta": meta});
        let mut replies = Vec::new();
        for id in [1, 2] {
            let request =
                json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
            writer
                .write_all(format!("{request}\n").as_bytes())
                .await
                .unwrap();
            let reply: Value =
                serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
            params["requestState"] = reply["result"]["requestState"].clone();
            params["inputResponses"] =
                json!({"elicit-0": {"action": "accept", "content": {"ok": true}}});
            replies.push(reply);
        }
        assert_eq!(
            replies[0]["result"]["resultType"], "input_required",
            "{replies:?}"
        );
        assert_eq!(
            replies[1]["result"]["content"][0]["text"], "true",
            "{replies:?}"
        );
    });
    let calls: Vec<&SpanData> = (spans.iter())
        .filter(|span| span.name == "tools/call ask" && span.span_kind == SpanKind::Server)
        .collect();
    assert_eq!(calls.len(), 2);
    let asked = attributes(calls[0]);
    assert_eq!(asked["mcp.result.type"], "input_required");
    assert_eq!(asked["mcp.input_request.keys"], "elicit-0");
    assert!(!asked.contains_key("error.type"));
    assert!(!asked.contains_key("gen_ai.tool.call.result"));
    assert!(!matches!(calls[0].status, Status::Error { .. }));
    let answered = attributes(calls[1]);
    assert!(!answered.contains_key("mcp.result.type"));
    assert_eq!(answered["gen_ai.tool.call.result"], "true");
}
