//! The MCP server over streamable HTTP as a deployed server meets its clients (feature `mcp`):
//! the transport specification's `Origin` rule, JSON-RPC's error replies for bodies that are not
//! requests, `-32602` for a `tools/call` whose parameters cannot be read, 404 for an unknown
//! session, and every limit of `HttpOptions` (body size and read time, bytes in flight, sessions,
//! connections and header read time), each with raw HTTP/1.1 on 127.0.0.1.
//!
//! Each test runs twice: in `plain`, as written, and in `authorized`, with a `ResourceServer`
//! on (its validator takes one token): there every request is first sent without the token and
//! must get 401, then with it, to reach the layer the test is about. `authorized` also sweeps
//! every method and path: nothing but the metadata document is served without a valid token.

#![cfg(feature = "mcp")]

mod http_client;
mod too_long;

use std::net::SocketAddr;
use std::time::Duration;

use http_client::{Reply, read_reply};
use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use toolgen::{
    Handler, HttpOptions, Invocation, McpServer, Principal, Progress, ResourceServer, Runner,
    TokenError, TokenValidator, Tool, ToolCall, ToolError, ToolResult, ToolSet, ValidateFuture,
};

/// Add two numbers.
#[derive(Tool, Deserialize)]
struct Add {
    a: i64,
    b: i64,
}

impl Handler<()> for Add {
    type Output = i64;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<i64, ToolError> {
        Ok(self.a.wrapping_add(self.b))
    }
}

/// Draw a chart.
#[derive(Tool, Deserialize)]
struct Chart {}

/// The chart's result: JSON, an image and a file.
fn chart() -> ToolResult {
    ToolResult::json(json!({"points": 3}))
        .with_image("iVBORw0KGgo=", "image/png")
        .with_file("cG9pbnRz", "text/csv", Some("points.csv"))
}

impl Handler<()> for Chart {
    type Output = ToolResult;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<ToolResult, ToolError> {
        Ok(chart())
    }
}

/// Count to `to` after `wait_ms`, telling the client each step.
#[derive(Tool, Deserialize)]
struct Count {
    to: u32,
    wait_ms: u64,
}

impl Handler<()> for Count {
    type Output = u32;
    async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<u32, ToolError> {
        tokio::time::sleep(Duration::from_millis(self.wait_ms)).await;
        for step in 1..=self.to {
            call.progress(Progress::new(f64::from(step)).total(f64::from(self.to)));
        }
        Ok(self.to)
    }
}

#[derive(ToolSet)]
enum Tools {
    Add(Add),
    Chart(Chart),
    Count(Count),
}

tokio::task_local! {
    /// Set in the `authorized` runs of the tests.
    static AUTHORIZED: ();
}

/// Whether this run has authorization on.
fn authorized() -> bool {
    AUTHORIZED.try_with(|()| ()).is_ok()
}

/// The one token [`OneToken`] takes.
const TOKEN: &str = "the-only-valid-token";

/// Takes [`TOKEN`] alone.
struct OneToken;

impl TokenValidator for OneToken {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        let valid = token == TOKEN;
        Box::pin(async move {
            match valid {
                true => Ok(Principal::new(Some("tester"), None, ["mcp"])),
                false => Err(TokenError::new("unknown token")),
            }
        })
    }
}

/// The `Authorization` header's line of a raw request: the token's in an `authorized` run.
fn authorization_line() -> String {
    match authorized() {
        true => format!("authorization: Bearer {TOKEN}\r\n"),
        false => String::new(),
    }
}

/// [`http_client::send`]; in an `authorized` run, first without the token (which must get 401
/// and a challenge), then with it.
async fn send(address: SocketAddr, method: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
    if !authorized() {
        return http_client::send(address, method, headers, body).await;
    }
    let refused = http_client::send(address, method, headers, body).await;
    assert_unauthorized(&refused);
    let bearer = format!("Bearer {TOKEN}");
    let mut headers = headers.to_vec();
    headers.push(("authorization", &bearer));
    http_client::send(address, method, &headers, body).await
}

/// A 401 with the challenge naming the metadata, and a JSON-RPC error.
fn assert_unauthorized(reply: &Reply) {
    assert_eq!(reply.status, 401, "{reply:?}");
    let challenge = reply.header("www-authenticate").unwrap_or_default();
    assert!(
        challenge.starts_with("Bearer ") && challenge.contains("resource_metadata=\"http://"),
        "{reply:?}"
    );
    assert_eq!(reply.json()["error"]["code"], -32600, "{reply:?}");
}

/// A server on a port of its own, with `options` (and, in an `authorized` run, a
/// `ResourceServer` taking [`TOKEN`]).
async fn serve(mut options: HttpOptions) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    if authorized() {
        let auth = ResourceServer::new(format!("http://{address}/mcp"), OneToken)
            .unwrap()
            .authorization_servers(["http://127.0.0.1:9/"]);
        options = options.authorization(auth);
    }
    let server = McpServer::new(Runner::<Tools, ()>::new(()), "http-test", "0");
    // What serves names no type of the test's: the HTTP server is compiled once, in toolgen
    // (does not compile while `HttpService` takes the set and the context).
    let _: toolgen::HttpService = server.http_service(&options);
    tokio::spawn(async move { server.serve_http_with(listener, &options).await });
    address
}

const JSON: (&str, &str) = ("content-type", "application/json");

/// A 2025-11-25 `initialize`.
fn initialize() -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
           "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                      "clientInfo": {"name": "raw-http", "version": "0"}}})
    .to_string()
    .into_bytes()
}

/// A session at 2025-11-25, initialized: its id.
async fn open_session(address: SocketAddr) -> String {
    let reply = send(address, "POST", &[JSON], &initialize()).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let session = reply
        .header("mcp-session-id")
        .expect("a session")
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let headers = [JSON, ("mcp-session-id", &session)];
    let reply = send(
        address,
        "POST",
        &headers,
        initialized.to_string().as_bytes(),
    )
    .await;
    assert_eq!(reply.status, 202, "{reply:?}");
    session
}

/// `tools/call` of `add` in `session`: the reply.
async fn add_in(address: SocketAddr, session: &str) -> Reply {
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "add", "arguments": {"a": 2, "b": 3}}});
    let headers = [
        JSON,
        ("mcp-session-id", session),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    send(address, "POST", &headers, call.to_string().as_bytes()).await
}

/// A stateless 2026-07-28 `tools/call` of `add`, with `extra` headers.
async fn stateless_add(address: SocketAddr, extra: &[(&str, &str)]) -> Reply {
    let call = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 2, "b": 3}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "raw-http", "version": "0"}}}});
    let mut headers = vec![
        JSON,
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "add"),
    ];
    headers.extend_from_slice(extra);
    send(address, "POST", &headers, call.to_string().as_bytes()).await
}

/// A present `Origin` that is not allowed gets 403, in a session and stateless alike; no
/// `Origin`, or a loopback one, is answered; a configured list replaces the loopback one.
async fn origin_is_checked() {
    let address = serve(HttpOptions::default()).await;
    for origin in [
        "http://evil.example",
        "null",
        "http://localhost.evil.example",
    ] {
        let reply = send(address, "POST", &[JSON, ("origin", origin)], &initialize()).await;
        assert_eq!(reply.status, 403, "{origin}: {reply:?}");
        let reply = stateless_add(address, &[("origin", origin)]).await;
        assert_eq!(reply.status, 403, "{origin}: {reply:?}");
    }
    let session = open_session(address).await;
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "add", "arguments": {"a": 2, "b": 3}}});
    let headers = [
        JSON,
        ("mcp-session-id", session.as_str()),
        ("origin", "http://evil.example"),
    ];
    let reply = send(address, "POST", &headers, call.to_string().as_bytes()).await;
    assert_eq!(reply.status, 403, "{reply:?}");
    for origin in [
        "http://localhost:6274",
        "http://127.0.0.1",
        "https://[::1]:8443",
    ] {
        let reply = stateless_add(address, &[("origin", origin)]).await;
        assert_eq!(reply.status, 200, "{origin}: {reply:?}");
        assert_eq!(reply.json()["result"]["content"][0]["text"], "5");
    }
    assert_eq!(stateless_add(address, &[]).await.status, 200);

    let address = serve(HttpOptions::default().allowed_origins(["https://app.example.com"])).await;
    let allowed = stateless_add(address, &[("origin", "https://app.example.com")]).await;
    assert_eq!(allowed.status, 200, "{allowed:?}");
    let local = stateless_add(address, &[("origin", "http://localhost:3000")]).await;
    assert_eq!(local.status, 403, "{local:?}");
}

/// A body that is not one JSON-RPC message: HTTP 400 with JSON-RPC's parse error (`-32700`) or
/// invalid request (`-32600`), `"id": null` unless the id can be read.
async fn unreadable_bodies_get_json_rpc_errors() {
    let address = serve(HttpOptions::default()).await;
    let nested = "[".repeat(200) + &"]".repeat(200);
    let cases: [(&[u8], i64, &str, Value); 8] = [
        (
            b"{\"jsonrpc\": \"2.0\", \"id\": 1,",
            -32700,
            "Parse error: EOF while parsing a value at line 1 column 27",
            Value::Null,
        ),
        (
            b"",
            -32700,
            "Parse error: EOF while parsing a value at line 1 column 0",
            Value::Null,
        ),
        (
            b"{\"jsonrpc\": \"2.0\", \"id\": \"\xff\"}",
            -32700,
            "Parse error: the body is not UTF-8 (invalid utf-8 sequence of 1 bytes from index 26)",
            Value::Null,
        ),
        (
            nested.as_bytes(),
            -32700,
            "Parse error: recursion limit exceeded at line 1 column 128",
            Value::Null,
        ),
        (
            b"[]",
            -32600,
            "Invalid Request: a batch (a JSON array) is not supported; send one message per request",
            Value::Null,
        ),
        (
            b"null",
            -32600,
            "Invalid Request: a message is a JSON object",
            Value::Null,
        ),
        (
            b"123",
            -32600,
            "Invalid Request: a message is a JSON object",
            Value::Null,
        ),
        (b"{\"jsonrpc\": \"2.0\", \"id\": 7}", -32600, "", json!(7)),
    ];
    for (body, code, message, id) in cases {
        let reply = send(address, "POST", &[JSON], body).await;
        let shown = String::from_utf8_lossy(body);
        assert_eq!(reply.status, 400, "{shown}: {reply:?}");
        assert_eq!(reply.header("content-type"), Some("application/json"));
        let mut answer = reply.json();
        if message.is_empty() {
            // (The reason is rmcp's words: only its start is ours.)
            let said = answer["error"]["message"].as_str().unwrap_or_default();
            assert!(
                said.starts_with("Invalid Request: not a JSON-RPC request"),
                "{said}"
            );
            answer["error"]["message"] = Value::from("");
        }
        assert_eq!(
            answer,
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}),
            "{shown}"
        );
    }
    // Another media type is still HTTP 415.
    let reply = send(address, "POST", &[("content-type", "text/plain")], b"{}").await;
    assert_eq!(reply.status, 415, "{reply:?}");
}

/// `tools/call` whose `name` or `arguments` has the wrong type: invalid params (`-32602`), in
/// a session and stateless alike.
async fn bad_call_params_are_invalid_params() {
    let address = serve(HttpOptions::default()).await;
    let session = open_session(address).await;
    let headers = [
        JSON,
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    for (params, message) in [
        (
            json!({"name": 5}),
            "invalid params of `tools/call`: `name` must be a string",
        ),
        (
            json!({"name": "add", "arguments": [1, 2]}),
            "invalid params of `tools/call`: `arguments` must be an object",
        ),
        (
            json!([1]),
            "invalid params of `tools/call`: `params` must be an object with the tool's `name`",
        ),
    ] {
        let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": params});
        let reply = send(address, "POST", &headers, call.to_string().as_bytes()).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(
            reply.json(),
            json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": message}})
        );
    }
    // An unknown method is still "method not found".
    let call = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/dance", "params": {}});
    let reply = send(address, "POST", &headers, call.to_string().as_bytes()).await;
    assert_eq!(reply.json()["error"]["code"], -32601, "{reply:?}");
    // And the session goes on.
    assert_eq!(
        add_in(address, &session).await.json()["result"]["content"][0]["text"],
        "5"
    );
}

/// `DELETE` of a session: 200 for one the server holds (as the official SDKs' servers answer,
/// and the Python SDK's client expects: 200 or 204; rmcp answers 202), then 404, as for any
/// unknown one.
async fn deleting_an_unknown_session_is_404() {
    let address = serve(HttpOptions::default()).await;
    let session = open_session(address).await;
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    assert_eq!(send(address, "DELETE", &headers, b"").await.status, 200);
    assert_eq!(send(address, "DELETE", &headers, b"").await.status, 404);
    let unknown = [("mcp-session-id", "no-such-session")];
    assert_eq!(send(address, "DELETE", &unknown, b"").await.status, 404);
    // The Origin check comes first.
    let evil = [("mcp-session-id", "x"), ("origin", "http://evil.example")];
    assert_eq!(send(address, "DELETE", &evil, b"").await.status, 403);
}

/// POSTs `body` in chunks of 500 bytes, with no length stated: the reply.
async fn chunked_post(address: SocketAddr, body: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(address).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {address}\r\nconnection: close\r\n\
         accept: application/json, text/event-stream\r\ncontent-type: application/json\r\n\
         transfer-encoding: chunked\r\n{}\r\n",
        authorization_line()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    for chunk in body.chunks(500) {
        let mut framed = format!("{:x}\r\n", chunk.len()).into_bytes();
        framed.extend_from_slice(chunk);
        framed.extend_from_slice(b"\r\n");
        // A server may refuse the body before reading it all, and close.
        if stream.write_all(&framed).await.is_err() {
            break;
        }
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;
    tokio::time::timeout(Duration::from_secs(10), read_reply(&mut stream))
        .await
        .expect("a reply within 10 s")
}

/// A body over `max_body_bytes`: 413, with a JSON-RPC error with its request's id where its
/// first 4 KiB hold it (the message's own `id`), else `null`; stated or streamed in chunks.
async fn a_body_too_large_is_413_with_its_id() {
    let address = serve(HttpOptions::default().max_body_bytes(1024)).await;
    let messages = too_long::messages();
    for (body, id) in &messages {
        let reply = send(address, "POST", &[JSON], body.as_bytes()).await;
        assert_eq!(reply.status, 413, "{reply:?}");
        assert_eq!(
            reply.json(),
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600,
                   "message": "Payload Too Large: the request body is over 1024 bytes"}})
        );
    }
    // A client that waits for `100 Continue` is not asked for its body.
    let waits = [JSON, ("expect", "100-continue")];
    let reply = send(address, "POST", &waits, messages[0].0.as_bytes()).await;
    assert_eq!(reply.status, 413, "{reply:?}");
    assert_eq!(reply.json()["id"], Value::Null);
    // Chunked, with no length stated: the id of the bytes read.
    let reply = chunked_post(address, messages[0].0.as_bytes()).await;
    assert_eq!(reply.status, 413, "{reply:?}");
    assert_eq!(reply.json()["id"], 7);
}

/// A POST that states a body of `length` bytes and sends only its first 10, then waits.
async fn stalled_post(address: SocketAddr, length: usize) -> TcpStream {
    let mut stream = TcpStream::connect(address).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {address}\r\nconnection: close\r\n\
         accept: application/json, text/event-stream\r\ncontent-type: application/json\r\n\
         content-length: {length}\r\n{}\r\n{{\"jsonrpc\"",
        authorization_line()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream
}

/// A body that does not arrive within `body_read_timeout`: 408; other clients are answered
/// meanwhile.
async fn a_slow_body_is_408() {
    let address = serve(HttpOptions::default().body_read_timeout(Duration::from_millis(300))).await;
    let mut slow = stalled_post(address, 100).await;
    assert_eq!(stateless_add(address, &[]).await.status, 200);
    let reply = tokio::time::timeout(Duration::from_secs(10), read_reply(&mut slow))
        .await
        .unwrap();
    assert_eq!(reply.status, 408, "{reply:?}");
    assert_eq!(reply.json()["error"]["code"], -32600);
}

/// Request bytes held at once are bounded: a request that would pass `max_bytes_in_flight`
/// gets 503 with `Retry-After`, and once the bytes held are freed, requests go through.
async fn bytes_in_flight_are_bounded() {
    let options = HttpOptions::default()
        .max_body_bytes(4096)
        .max_bytes_in_flight(4096)
        .body_read_timeout(Duration::from_millis(500));
    let address = serve(options).await;
    // A request stating 4,000 bytes, sending 10: its 4,000 are counted while it is read.
    let mut holder = stalled_post(address, 4000).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    let reply = stateless_add(address, &[]).await;
    assert_eq!(reply.status, 503, "{reply:?}");
    assert_eq!(reply.header("retry-after"), Some("1"));
    assert_eq!(reply.json()["error"]["code"], -32603);
    // The holder times out (408), and its bytes are free again.
    let held = tokio::time::timeout(Duration::from_secs(10), read_reply(&mut holder))
        .await
        .unwrap();
    assert_eq!(held.status, 408, "{held:?}");
    assert_eq!(stateless_add(address, &[]).await.status, 200);
}

/// Past `max_sessions`, a new session closes the one used least recently (its requests then
/// get 404); the others go on.
async fn sessions_are_capped_by_evicting_the_least_recently_used() {
    let address = serve(HttpOptions::default().max_sessions(2)).await;
    let first = open_session(address).await;
    let second = open_session(address).await;
    // The first is used again: the second is now the least recently used.
    assert_eq!(add_in(address, &first).await.status, 200);
    let third = open_session(address).await;
    assert_eq!(add_in(address, &second).await.status, 404);
    for session in [&first, &third] {
        let reply = add_in(address, session).await;
        assert_eq!(
            reply.json()["result"]["content"][0]["text"],
            "5",
            "{reply:?}"
        );
    }
}

/// A session unused for `session_idle_timeout` is closed.
async fn idle_sessions_expire() {
    let address =
        serve(HttpOptions::default().session_idle_timeout(Duration::from_millis(300))).await;
    let session = open_session(address).await;
    assert_eq!(add_in(address, &session).await.status, 200);
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(add_in(address, &session).await.status, 404);
}

/// Connections past `max_connections` wait to be accepted; a client that does not finish its
/// headers within `header_read_timeout` is cut off, and the waiting client is served.
async fn connections_and_header_reads_are_bounded() {
    let options = HttpOptions::default()
        .max_connections(2)
        .header_read_timeout(Duration::from_millis(300));
    let address = serve(options).await;
    let mut stalled = Vec::new();
    for _ in 0..2 {
        let mut stream = TcpStream::connect(address).await.unwrap();
        stream
            .write_all(b"POST /mcp HTTP/1.1\r\nhost: ")
            .await
            .unwrap();
        stalled.push(stream);
    }
    // Served once a stalled client is cut off (well within the 10 s `send` allows).
    let reply = stateless_add(address, &[]).await;
    assert_eq!(
        reply.json()["result"]["content"][0]["text"],
        "5",
        "{reply:?}"
    );
    for mut stream in stalled {
        let mut rest = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut rest));
        // Closed by the server: the end of the stream (maybe after a 408), or a reset.
        assert!(read.await.is_ok(), "a stalled client stays connected");
    }
}

/// A result with JSON, an image and a file reaches the client as `mcp_response` writes it
/// (the server builds rmcp's result directly, without that JSON): text, image and resource
/// content, and the object as `structuredContent`.
async fn results_reach_the_client_as_mcp_response_writes_them() {
    let address = serve(HttpOptions::default()).await;
    let session = open_session(address).await;
    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                      "params": {"name": "chart", "arguments": {}}});
    let headers = [
        JSON,
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let reply = send(address, "POST", &headers, call.to_string().as_bytes()).await;
    let expected = toolgen::mcp_response(&ToolCall::new("chart", "{}").with_id("5"), &chart());
    let expected = expected["result"].clone();
    assert_eq!(expected["content"].as_array().map(Vec::len), Some(3));
    assert_eq!(reply.json()["result"], expected);
}

/// When every session past `max_sessions` has a stream open (here a client's `GET` stream), a
/// new session is refused with 503 and `Retry-After`, and the sessions held go on.
async fn a_new_session_is_refused_when_every_session_is_busy() {
    let address = serve(HttpOptions::default().max_sessions(1)).await;
    let session = open_session(address).await;
    let mut listening = TcpStream::connect(address).await.unwrap();
    let get = format!(
        "GET /mcp HTTP/1.1\r\nhost: {address}\r\naccept: text/event-stream\r\n\
         mcp-session-id: {session}\r\nmcp-protocol-version: 2025-11-25\r\n{}\r\n",
        authorization_line()
    );
    listening.write_all(get.as_bytes()).await.unwrap();
    // The stream's head: it is open.
    let mut head = [0_u8; 12];
    tokio::time::timeout(Duration::from_secs(10), listening.read_exact(&mut head))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
    let reply = send(address, "POST", &[JSON], &initialize()).await;
    assert_eq!(reply.status, 503, "{reply:?}");
    assert_eq!(reply.header("retry-after"), Some("1"));
    assert_eq!(reply.json()["error"]["code"], -32603);
    assert_eq!(
        add_in(address, &session).await.json()["result"]["content"][0]["text"],
        "5"
    );
}

/// With authorization on, nothing but the metadata document is served without a valid token:
/// every method at every path (the endpoint, the root, other well-known documents, the
/// metadata's paths by another method), in a session the server holds or none, with no
/// `Authorization`, another scheme's, an unknown token or a malformed header, gets 401 (400 for
/// the malformed) and its challenge; a GET of the metadata at its two paths alone is 200,
/// whatever the header.
#[tokio::test]
async fn nothing_but_the_metadata_is_served_without_a_valid_token() {
    AUTHORIZED
        .scope((), async {
            let address = serve(HttpOptions::default()).await;
            let session = open_session(address).await;
            let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                              "params": {"name": "add", "arguments": {"a": 2, "b": 3}}});
            let call = call.to_string();
            let metadata = [
                "/.well-known/oauth-protected-resource",
                "/.well-known/oauth-protected-resource/mcp",
            ];
            let paths = [
                "/mcp",
                "/mcp/",
                "/MCP",
                "/",
                "/other",
                "/mcp?x=1",
                "//mcp",
                "/.well-known/oauth-authorization-server",
                "/.well-known/openid-configuration",
                "/.well-known/oauth-protected-resource/other",
                "/.well-known/oauth-protected-resource/mcp/x",
                "/.well-known/oauth-protected-resource/../../mcp",
                metadata[0],
                metadata[1],
            ];
            let methods = ["POST", "GET", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD"];
            let credentials = [
                (None, 401),
                (Some("Basic dXNlcjpwYXNz"), 401),
                (Some("Bearer unknown-token"), 401),
                (Some("Bearer"), 400),
                (Some("Bearer a b"), 400),
            ];
            let mut served = 0;
            for path in paths {
                for method in methods {
                    for (credential, refusal) in credentials {
                        for in_session in [false, true] {
                            let mut headers = vec![JSON, ("mcp-protocol-version", "2025-11-25")];
                            if in_session {
                                headers.push(("mcp-session-id", &session));
                            }
                            if let Some(credential) = credential {
                                headers.push(("authorization", credential));
                            }
                            let body = if method == "POST" {
                                call.as_bytes()
                            } else {
                                b""
                            };
                            let reply =
                                http_client::send_to(address, method, path, &headers, body).await;
                            let shown = format!("{method} {path} {credential:?}: {reply:?}");
                            if method == "GET" && metadata.contains(&path) {
                                assert_eq!(reply.status, 200, "{shown}");
                                assert_eq!(
                                    reply.json()["resource"],
                                    format!("http://{address}/mcp")
                                );
                                served += 1;
                                continue;
                            }
                            assert_eq!(reply.status, refusal, "{shown}");
                            let challenge = reply.header("www-authenticate").unwrap_or_default();
                            assert!(challenge.contains("resource_metadata="), "{shown}");
                            if method != "HEAD" {
                                assert_eq!(reply.json()["error"]["code"], -32600, "{shown}");
                            }
                        }
                    }
                }
            }
            assert_eq!(served, 2 * 5 * 2);
        })
        .await;
}

/// Each test twice: `plain::*` as written, `authorized::*` with authorization on.
/// A `tools/call` of `count` in `session` (with a progress token: the server may report).
async fn count_in(address: SocketAddr, session: &str, to: u32, wait_ms: u64) -> Reply {
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                      "params": {"name": "count", "arguments": {"to": to, "wait_ms": wait_ms},
                                 "_meta": {"progressToken": "p"}}});
    let headers = [
        JSON,
        ("mcp-session-id", session),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    send(address, "POST", &headers, call.to_string().as_bytes()).await
}

/// The JSON-RPC messages of an event stream's body.
fn events(reply: &Reply) -> Vec<Value> {
    (reply.body.lines())
        .filter_map(|line| line.strip_prefix("data:"))
        .filter(|data| !data.trim().is_empty())
        .map(|data| serde_json::from_str(data.trim()).unwrap())
        .collect()
}

/// A request whose answer is all it sends, within the wait, is answered as one JSON body (the
/// client accepts both); one that reports progress first, or runs past the wait, as an event
/// stream, every message in it.
async fn answers_are_json_unless_something_comes_first() {
    let address = serve(HttpOptions::default().json_reply_wait(Duration::from_millis(300))).await;
    let reply = send(address, "POST", &[JSON], &initialize()).await;
    assert_eq!(
        reply.header("content-type"),
        Some("application/json"),
        "{reply:?}"
    );
    assert_eq!(reply.json()["result"]["protocolVersion"], "2025-11-25");
    assert!(reply.header("mcp-session-id").is_some(), "{reply:?}");
    let session = open_session(address).await;
    for reply in [
        add_in(address, &session).await,
        stateless_add(address, &[]).await,
        count_in(address, &session, 0, 0).await,
    ] {
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(
            reply.header("content-type"),
            Some("application/json"),
            "{reply:?}"
        );
        assert!(
            reply.json()["result"]["content"][0]["text"].is_string(),
            "{reply:?}"
        );
    }
    // Progress first: a stream, the reports before the answer.
    let reply = count_in(address, &session, 2, 0).await;
    assert_eq!(
        reply.header("content-type"),
        Some("text/event-stream"),
        "{reply:?}"
    );
    let methods: Vec<Value> = events(&reply).iter().map(|m| m["method"].clone()).collect();
    assert_eq!(
        methods,
        [
            json!("notifications/progress"),
            json!("notifications/progress"),
            Value::Null
        ]
    );
    assert_eq!(reply.json()["result"]["content"][0]["text"], "2");
    // The bytes read before the first message are sent too: the priming event rmcp begins each
    // stream with (its event id and retry time, for a client that resumes it).
    let priming = reply.body.find("\nretry: 3000\n");
    let progress = reply.body.find("notifications/progress");
    assert!(priming.is_some() && priming < progress, "{reply:?}");
    // Past the wait: a stream, with the answer.
    let reply = count_in(address, &session, 0, 900).await;
    assert_eq!(
        reply.header("content-type"),
        Some("text/event-stream"),
        "{reply:?}"
    );
    assert_eq!(reply.json()["result"]["content"][0]["text"], "0");
    // `Duration::ZERO`: always a stream.
    let address = serve(HttpOptions::default().json_reply_wait(Duration::ZERO)).await;
    let reply = stateless_add(address, &[]).await;
    assert_eq!(
        reply.header("content-type"),
        Some("text/event-stream"),
        "{reply:?}"
    );
    assert_eq!(reply.json()["result"]["content"][0]["text"], "5");
}

macro_rules! plain_and_authorized {
    ($($name:ident),* $(,)?) => {
        mod plain {
            $(#[tokio::test]
            async fn $name() {
                super::$name().await;
            })*
        }
        mod authorized {
            $(#[tokio::test]
            async fn $name() {
                super::AUTHORIZED.scope((), super::$name()).await;
            })*
        }
    };
}

plain_and_authorized!(
    origin_is_checked,
    unreadable_bodies_get_json_rpc_errors,
    bad_call_params_are_invalid_params,
    deleting_an_unknown_session_is_404,
    a_body_too_large_is_413_with_its_id,
    a_slow_body_is_408,
    bytes_in_flight_are_bounded,
    sessions_are_capped_by_evicting_the_least_recently_used,
    idle_sessions_expire,
    connections_and_header_reads_are_bounded,
    results_reach_the_client_as_mcp_response_writes_them,
    a_new_session_is_refused_when_every_session_is_busy,
    answers_are_json_unless_something_comes_first,
);
