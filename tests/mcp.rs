//! The MCP server (feature `mcp`): a tool set served with rmcp over an in-process transport,
//! driven with raw JSON-RPC as a client sends it, for both protocol versions. Every message the
//! server sends is held against the negotiated version's official schema when `TOOLGEN_SPECS`
//! names the folder (see `tests/specs.rs`).

#![cfg(feature = "mcp")]

use std::time::Duration;

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use toolgen::rmcp::ServiceExt;
use toolgen::{Handler, Invocation, McpServer, Runner, Tool, ToolError, ToolSchema, ToolSet};

/// Add two numbers.
#[derive(Tool, Deserialize)]
struct Add {
    a: i64,
    b: i64,
}

/// A sum and its operands.
#[derive(serde::Serialize, ToolSchema)]
struct Sum {
    sum: i64,
}

impl Handler<()> for Add {
    type Output = Sum;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<Sum, ToolError> {
        self.a
            .checked_add(self.b)
            .map(|sum| Sum { sum })
            .ok_or_else(|| ToolError::json(json!({"error": "overflow"})))
    }
}

/// Wait until cancelled.
#[derive(Tool, Deserialize)]
struct Hang {}

impl Handler<()> for Hang {
    type Output = String;
    async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<String, ToolError> {
        call.cancelled().await;
        Ok("cancelled".to_owned())
    }
}

#[derive(ToolSet)]
enum Tools {
    Add(Add),
    Hang(Hang),
}

/// The client's side of a served connection.
struct Client {
    reader: Box<dyn AsyncBufRead + Unpin + Send>,
    writer: Box<dyn AsyncWrite + Unpin + Send>,
    sent: Vec<Value>,
    /// `2026-07-28` has no `initialize`: each request's `_meta` carries the version and the
    /// client's capabilities.
    meta: Option<Value>,
}

impl Client {
    async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.writer.write_all(line.as_bytes()).await.unwrap();
    }

    /// The next message from the server, within five seconds. (Lines that are not JSON are
    /// the test harness's own, in the spawned process.)
    async fn receive(&mut self) -> Value {
        loop {
            let mut line = String::new();
            let read =
                tokio::time::timeout(Duration::from_secs(5), self.reader.read_line(&mut line))
                    .await
                    .expect("the server answers")
                    .unwrap();
            assert!(read > 0, "the server closed the connection");
            // The harness may write before a message on its line (`test .. ... `).
            let json = line.find('{').and_then(|start| line.get(start..));
            if let Some(Ok(message)) = json.map(serde_json::from_str::<Value>) {
                self.sent.push(message.clone());
                return message;
            }
        }
    }

    async fn request(&mut self, id: u64, method: &str, mut params: Value) -> Value {
        if let Some(meta) = &self.meta {
            params["_meta"] = meta.clone();
        }
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        let reply = self.receive().await;
        assert_eq!(reply["id"], id, "{reply}");
        reply
    }
}

/// The server the tests talk to.
fn server() -> McpServer<Tools, ()> {
    McpServer::new(Runner::<Tools, ()>::new(()), "calculator", "1.2.3")
}

/// A server served in this process, and a client initialized at `version`.
async fn connect(version: &str) -> (Client, Value) {
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    let server = server();
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    let (reader, writer) = tokio::io::split(client_side);
    let client = Client {
        reader: Box::new(BufReader::new(reader)),
        writer: Box::new(writer),
        sent: Vec::new(),
        meta: None,
    };
    handshake(client, version).await
}

/// `client` initialized at `version`, and the server's answer.
async fn handshake(mut client: Client, version: &str) -> (Client, Value) {
    if version == "2026-07-28" {
        client.meta = Some(json!({
            "io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "raw-test", "version": "0"},
        }));
        let discover = client.request(1, "server/discover", json!({})).await;
        return (client, discover);
    }
    let init = client
        .request(
            1,
            "initialize",
            json!({"protocolVersion": version, "capabilities": {},
                   "clientInfo": {"name": "raw-test", "version": "0"}}),
        )
        .await;
    client
        .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    (client, init)
}

/// Holds every message the server sent against the version's schema, when the specs are at
/// hand.
fn validate_sent(version: &str, sent: &[Value]) {
    let Some(dir) = std::env::var_os("TOOLGEN_SPECS") else {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "CI=true but TOOLGEN_SPECS is unset"
        );
        eprintln!("MCP schema checks skipped: TOOLGEN_SPECS is unset");
        return;
    };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(dir)
        .join(format!("mcp-{version}.schema.json"));
    let mut spec: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let object = spec.as_object_mut().unwrap();
    object.insert("$ref".to_owned(), json!("#/$defs/JSONRPCMessage"));
    let validator = jsonschema::draft202012::new(&spec).unwrap();
    for message in sent {
        if let Err(error) = validator.validate(message) {
            panic!(
                "{version}: {error} (at {})\n{message:#}",
                error.instance_path()
            );
        }
    }
    assert!(!validator.is_valid(&json!({"jsonrpc": "1.0"})));
}

async fn session(version: &str) {
    let (client, init) = connect(version).await;
    exercise(client, init, version).await;
}

/// Lists, calls (valid, invalid, failing, unknown) and cancels, as a client does.
async fn exercise(mut client: Client, init: Value, version: &str) {
    if version == "2026-07-28" {
        // `server/discover`: the versions the server speaks, and what it is.
        assert!(
            init["result"]["supportedVersions"]
                .as_array()
                .is_some_and(|v| v.contains(&json!(version))),
            "{init}"
        );
        assert_eq!(
            init["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
            "calculator"
        );
    } else {
        assert_eq!(init["result"]["protocolVersion"], version);
        assert_eq!(init["result"]["serverInfo"]["name"], "calculator");
    }
    assert!(init["result"]["capabilities"]["tools"].is_object());

    let list = client.request(2, "tools/list", json!({})).await;
    let tools = list["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 2);
    assert_eq!(tools[0]["name"], "add");
    assert_eq!(tools[0]["inputSchema"]["required"], json!(["a", "b"]));
    assert_eq!(tools[0]["outputSchema"]["required"], json!(["sum"]));

    let ok = client
        .request(
            3,
            "tools/call",
            json!({"name": "add", "arguments": {"a": 2, "b": 3}}),
        )
        .await;
    assert_eq!(ok["result"]["structuredContent"], json!({"sum": 5}));
    assert_eq!(ok["result"]["content"][0]["text"], r#"{"sum":5}"#);
    assert!(ok["result"].get("isError").is_none());

    // Bad arguments: a result the model reads, with the path.
    let bad = client
        .request(
            4,
            "tools/call",
            json!({"name": "add", "arguments": {"a": "two", "b": 3}}),
        )
        .await;
    assert_eq!(bad["result"]["isError"], true);
    assert_eq!(
        bad["result"]["content"][0]["text"],
        "invalid arguments at `a`: invalid type: string \"two\", expected i64"
    );

    // The handler's error, with its JSON body.
    let failed = client
        .request(
            5,
            "tools/call",
            json!({"name": "add", "arguments": {"a": i64::MAX, "b": 1}}),
        )
        .await;
    assert_eq!(failed["result"]["isError"], true);
    assert_eq!(
        failed["result"]["structuredContent"],
        json!({"error": "overflow"})
    );

    // An unknown tool: a protocol error.
    let unknown = client
        .request(6, "tools/call", json!({"name": "sub", "arguments": {}}))
        .await;
    assert_eq!(unknown["error"]["code"], -32602);
    assert_eq!(
        unknown["error"]["message"],
        "unknown tool `sub`; the tools are `add`, `hang`"
    );

    // A cancelled call gets no answer; the server goes on.
    let mut params = json!({"name": "hang", "arguments": {}});
    if let Some(meta) = &client.meta {
        params["_meta"] = meta.clone();
    }
    client
        .send(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}))
        .await;
    client
        .send(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": 7, "reason": "the user stopped it"}}),
        )
        .await;
    // (`ping` is gone in 2026-07-28: a list shows the server is there.)
    let after = client.request(8, "tools/list", json!({})).await;
    assert_eq!(
        after["result"]["tools"].as_array().map(Vec::len),
        Some(2),
        "{after}"
    );

    validate_sent(version, &client.sent);
}

#[tokio::test]
async fn serves_a_tool_set_at_2025_11_25() {
    session("2025-11-25").await;
}

#[tokio::test]
async fn serves_a_tool_set_at_2026_07_28() {
    session("2026-07-28").await;
}

/// Set in the process `serves_over_stdio_in_another_process` spawns.
const SERVE: &str = "TOOLGEN_MCP_TEST_SERVE";

/// Not a test of its own: in the spawned process, the server on stdin and stdout.
#[test]
fn stdio_server_process() {
    if std::env::var_os(SERVE).is_none() {
        return;
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let running = server()
            .serve(toolgen::rmcp::transport::stdio())
            .await
            .unwrap();
        let _ = running.waiting().await;
    });
}

#[tokio::test]
async fn serves_over_stdio_in_another_process() {
    for version in ["2025-11-25", "2026-07-28"] {
        let mut child = tokio::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "stdio_server_process", "--nocapture", "--quiet"])
            .env(SERVE, "1")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let client = Client {
            reader: Box::new(BufReader::new(child.stdout.take().unwrap())),
            writer: Box::new(child.stdin.take().unwrap()),
            sent: Vec::new(),
            meta: None,
        };
        let (client, init) = handshake(client, version).await;
        exercise(client, init, version).await;
        let _ = child.kill().await;
    }
}
