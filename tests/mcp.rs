//! The MCP server (feature `mcp`): a tool set served with rmcp over an in-process transport,
//! driven with raw JSON-RPC as a client sends it, for both protocol versions. Every message the
//! server sends is held against the negotiated version's official schema when `TOOLGEN_SPECS`
//! names the folder (see `tests/specs.rs`).

#![cfg(feature = "mcp")]

mod spec_folder;

mod python_sdk;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use toolgen::rmcp::RoleServer;
use toolgen::rmcp::service::RunningService;
use toolgen::{
    Handler, Invocation, McpHandler, McpServer, Progress, Runner, Tool, ToolError, ToolSchema,
    ToolSet, ToolSwitch,
};

/// The handlers' context: the server's switch, and how many calls saw their cancellation.
struct Lab {
    switch: ToolSwitch,
    stopped: AtomicUsize,
}

/// Add two numbers.
#[derive(Tool, Deserialize)]
#[tool(
    title = "Add two numbers",
    read_only,
    open_world = false,
    icon(
        src = "https://example.com/add.png",
        mime_type = "image/png",
        sizes = "48x48"
    )
)]
struct Add {
    a: i64,
    b: i64,
}

/// A sum and its operands.
#[derive(serde::Serialize, ToolSchema)]
struct Sum {
    sum: i64,
    /// What to know of it, if anything: an optional field, which serde writes as `null` when
    /// `None` and the schema leaves out of `required` without `null`; the server leaves it out
    /// of the structured content, which clients check against the schema.
    note: Option<String>,
}

impl Handler<Lab> for Add {
    type Output = Sum;
    async fn handle(self, _: &Lab, _: &Invocation<'_>) -> Result<Sum, ToolError> {
        self.a
            .checked_add(self.b)
            .map(|sum| Sum { sum, note: None })
            .ok_or_else(|| ToolError::json(json!({"error": "overflow"})))
    }
}

/// Wait until cancelled (a client that asks for progress hears when it starts).
#[derive(Tool, Deserialize)]
struct Hang {}

impl Handler<Lab> for Hang {
    type Output = String;
    async fn handle(self, lab: &Lab, call: &Invocation<'_>) -> Result<String, ToolError> {
        // Says it started, for a client to cancel it then.
        call.progress(Progress::new(0.0).message("waiting"));
        call.cancelled().await;
        lab.stopped.fetch_add(1, Ordering::SeqCst);
        Ok("cancelled".to_owned())
    }
}

/// Count to a number, reporting each step.
#[derive(Tool, Deserialize)]
struct Count {
    to: u32,
}

impl Handler<Lab> for Count {
    type Output = String;
    async fn handle(self, _: &Lab, call: &Invocation<'_>) -> Result<String, ToolError> {
        for done in 1..=self.to {
            let step = Progress::new(done.into()).total(self.to.into());
            call.progress(step.message(format!("counted {done}")));
            // Neither goes out: not more than the last report, not a number.
            call.progress(Progress::new(done.into()));
            call.progress(Progress::new(f64::NAN).total(f64::INFINITY));
            tokio::task::yield_now().await;
        }
        Ok(format!("counted to {}", self.to))
    }
}

/// Unlock the secret tool.
#[derive(Tool, Deserialize)]
struct Unlock {}

impl Handler<Lab> for Unlock {
    type Output = &'static str;
    async fn handle(self, lab: &Lab, _: &Invocation<'_>) -> Result<&'static str, ToolError> {
        lab.switch.enable("secret");
        Ok("unlocked")
    }
}

/// Yes or no.
// Not an object: only MCP 2026-07-28 takes its schema as `outputSchema`.
#[derive(serde::Serialize, ToolSchema)]
#[serde(rename_all = "lowercase")]
enum Verdict {
    Yes,
    No,
}

/// Say whether a number is even.
#[derive(Tool, Deserialize)]
#[tool(output = Verdict)]
struct Judge {
    n: i64,
}

impl Handler<Lab> for Judge {
    type Output = Verdict;
    async fn handle(self, _: &Lab, _: &Invocation<'_>) -> Result<Verdict, ToolError> {
        Ok(if self.n % 2 == 0 {
            Verdict::Yes
        } else {
            Verdict::No
        })
    }
}

/// Tell the secret.
#[derive(Tool, Deserialize)]
struct Secret {}

impl Handler<Lab> for Secret {
    type Output = &'static str;
    async fn handle(self, _: &Lab, _: &Invocation<'_>) -> Result<&'static str, ToolError> {
        Ok("the secret is 42")
    }
}

#[derive(ToolSet)]
enum Tools {
    Add(Add),
    Hang(Hang),
    Count(Count),
    Unlock(Unlock),
    Judge(Judge),
    Secret(Secret),
}

/// The tools a client is offered before `unlock`, as the unknown-tool error names them.
const OFFERED: &str = "`add`, `hang`, `count`, `unlock`, `judge`";

/// The client's side of a served connection.
struct Client {
    reader: Box<dyn AsyncBufRead + Unpin + Send>,
    writer: Box<dyn AsyncWrite + Unpin + Send>,
    sent: Vec<Value>,
    /// The notifications that came while waiting for a reply, not yet looked at.
    notifications: Vec<Value>,
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
                    .unwrap_or_else(|_| {
                        panic!("no answer within 5 s; the last was {:?}", self.sent.last())
                    })
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

    /// Sends a request (with the version's `_meta`, beside any given).
    async fn send_request(&mut self, id: u64, method: &str, mut params: Value) {
        if let Some(meta) = &self.meta {
            let given = params["_meta"].as_object().cloned().unwrap_or_default();
            params["_meta"] = meta.clone();
            params["_meta"].as_object_mut().unwrap().extend(given);
        }
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
    }

    /// A `tools/call` of `name` with `arguments`, and its reply.
    async fn call(&mut self, id: u64, name: &str, arguments: Value) -> Value {
        let params = json!({"name": name, "arguments": arguments});
        self.request(id, "tools/call", params).await
    }

    async fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send_request(id, method, params).await;
        self.reply(id).await
    }

    /// The reply to the request `id`; notifications before it are kept.
    async fn reply(&mut self, id: u64) -> Value {
        loop {
            let message = self.receive().await;
            if message.get("id").is_none() {
                self.notifications.push(message);
                continue;
            }
            assert_eq!(message["id"], id, "{message}");
            return message;
        }
    }

    /// The next notification of `method` (kept ones first).
    async fn notification(&mut self, method: &str) -> Value {
        loop {
            if let Some(at) = self
                .notifications
                .iter()
                .position(|n| n["method"] == method)
            {
                return self.notifications.remove(at);
            }
            let message = self.receive().await;
            assert!(
                message.get("id").is_none(),
                "a reply nobody waits for: {message}"
            );
            self.notifications.push(message);
        }
    }
}

/// The server the tests talk to: `secret` off until `unlock`, two tools a page.
fn server() -> McpServer<Tools, Lab> {
    let switch = ToolSwitch::new();
    switch.disable("secret");
    let lab = Lab {
        switch: switch.clone(),
        stopped: AtomicUsize::new(0),
    };
    McpServer::new(Runner::new(lab), "calculator", "1.2.3")
        .with_switch(switch)
        .page_size(2)
}

/// Serves `server` on `transport` in a task of its own, until the client leaves.
fn serve_in_task<T, E, A>(server: McpServer<Tools, Lab>, transport: T)
where
    T: toolgen::rmcp::transport::IntoTransport<toolgen::rmcp::RoleServer, E, A> + Send + 'static,
    E: std::error::Error + Send + Sync + 'static,
{
    tokio::spawn(async move {
        // What serves is the server's handler, whose type names no tool set: rmcp's service
        // loop is compiled once, in toolgen, not in each crate that serves tools (README,
        // "Build cost").
        let served: Result<RunningService<RoleServer, McpHandler>, _> =
            server.serve(transport).await;
        if let Ok(running) = served {
            let _ = running.waiting().await;
        }
    });
}

/// This test binary run again as the server on its stdin and stdout
/// (`stdio_server_process`), with its stderr as given.
fn spawn_stdio_server(stderr: std::process::Stdio) -> tokio::process::Child {
    tokio::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "stdio_server_process", "--nocapture", "--quiet"])
        .env(SERVE, "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(stderr)
        .kill_on_drop(true)
        .spawn()
        .unwrap()
}

/// Waits until the handler of the call the client cancelled has seen it.
async fn handler_stopped(server: &McpServer<Tools, Lab>) {
    let stopped = &server.runner().context().stopped;
    for _ in 0..500 {
        if stopped.load(Ordering::SeqCst) == 1 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the cancelled handler did not stop");
}

/// A server served in this process, and a client initialized at `version`.
async fn connect(version: &str, server: McpServer<Tools, Lab>) -> (Client, Value) {
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    serve_in_task(server, server_side);
    let (reader, writer) = tokio::io::split(client_side);
    let client = Client {
        reader: Box::new(BufReader::new(reader)),
        writer: Box::new(writer),
        sent: Vec::new(),
        notifications: Vec::new(),
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
    let Some(dir) = spec_folder::specs_dir("MCP schema checks") else {
        return;
    };
    let path = dir.join(format!("mcp-{version}.schema.json"));
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
    let served = server();
    let (client, init) = connect(version, served.clone()).await;
    exercise(client, init, version).await;
    handler_stopped(&served).await;
}

/// Lists (page by page), calls (valid, invalid, failing, unknown, with progress), cancels, and
/// sees a tool switched on, as a client does.
async fn exercise(mut client: Client, init: Value, version: &str) -> Client {
    let current = version == "2026-07-28";
    if current {
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
    assert_eq!(init["result"]["capabilities"]["tools"]["listChanged"], true);

    // Two tools a page, in the set's order; `secret` is off.
    let tools = list_all(&mut client, 10).await;
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["add", "hang", "count", "unlock", "judge"]);
    let add = &tools[0];
    assert_eq!(add["title"], "Add two numbers");
    assert_eq!(
        add["annotations"],
        json!({"readOnlyHint": true, "openWorldHint": false})
    );
    assert_eq!(
        add["icons"],
        json!([{"src": "https://example.com/add.png", "mimeType": "image/png", "sizes": ["48x48"]}])
    );
    assert_eq!(add["inputSchema"]["required"], json!(["a", "b"]));
    assert_eq!(add["outputSchema"]["required"], json!(["sum"]));
    // A schema that is not an object's is `outputSchema` only from 2026-07-28 on.
    let judge = &tools[4];
    if current {
        assert_eq!(
            judge["outputSchema"],
            json!({"type": "string", "enum": ["yes", "no"], "description": "Yes or no."})
        );
    } else {
        assert!(judge.get("outputSchema").is_none(), "{judge}");
    }
    let bad_cursor = client
        .request(19, "tools/list", json!({"cursor": "abc"}))
        .await;
    assert_eq!(bad_cursor["error"]["code"], -32602, "{bad_cursor}");

    let ok = client.call(20, "add", json!({"a": 2, "b": 3})).await;
    assert_eq!(ok["result"]["structuredContent"], json!({"sum": 5}));
    assert_eq!(ok["result"]["content"][0]["text"], r#"{"sum":5}"#);
    assert!(ok["result"].get("isError").is_none());

    let judged = client.call(21, "judge", json!({"n": 4})).await;
    assert_eq!(judged["result"]["content"][0]["text"], "yes");
    if current {
        assert_eq!(judged["result"]["structuredContent"], "yes");
    } else {
        assert!(
            judged["result"].get("structuredContent").is_none(),
            "{judged}"
        );
    }

    // Bad arguments: a result the model reads, with the path.
    let bad = client.call(22, "add", json!({"a": "two", "b": 3})).await;
    assert_eq!(bad["result"]["isError"], true);
    assert_eq!(
        bad["result"]["content"][0]["text"],
        "invalid arguments at `a`: invalid type: string \"two\", expected i64"
    );

    // The handler's error, with its JSON body.
    let failed = client.call(23, "add", json!({"a": i64::MAX, "b": 1})).await;
    assert_eq!(failed["result"]["isError"], true);
    assert_eq!(
        failed["result"]["structuredContent"],
        json!({"error": "overflow"})
    );

    // An unknown tool, and one switched off: protocol errors.
    for (id, name) in [(24, "sub"), (25, "secret")] {
        let unknown = client.call(id, name, json!({})).await;
        assert_eq!(unknown["error"]["code"], -32602);
        assert_eq!(
            unknown["error"]["message"],
            format!("unknown tool `{name}`; the tools are {OFFERED}")
        );
    }

    // Progress, before the result, in order.
    let counted = client
        .request(
            26,
            "tools/call",
            json!({"name": "count", "arguments": {"to": 3},
                   "_meta": {"progressToken": "count-1"}}),
        )
        .await;
    assert_eq!(counted["result"]["content"][0]["text"], "counted to 3");
    // All before the result.
    assert_eq!(client.notifications.len(), 3, "{:?}", client.notifications);
    let mut steps = Vec::new();
    for _ in 0..3 {
        let step = client.notification("notifications/progress").await;
        steps.push(step["params"].clone());
    }
    let expected: Vec<Value> = (1..=3)
        .map(|done| {
            json!({"progressToken": "count-1", "progress": f64::from(done), "total": 3.0,
                   "message": format!("counted {done}")})
        })
        .collect();
    assert_eq!(steps, expected);
    // No token, no progress.
    let quiet = client.call(27, "count", json!({"to": 2})).await;
    assert_eq!(quiet["result"]["content"][0]["text"], "counted to 2");
    assert!(
        client.notifications.is_empty(),
        "{:?}",
        client.notifications
    );

    // A call cancelled once it started gets no answer, its handler stops, the server goes on.
    client
        .send_request(
            28,
            "tools/call",
            json!({"name": "hang", "arguments": {}, "_meta": {"progressToken": 28}}),
        )
        .await;
    let started = client.notification("notifications/progress").await;
    assert_eq!(started["params"]["message"], "waiting");
    client
        .send(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": 28, "reason": "the user stopped it"}}),
        )
        .await;
    // (`ping` is gone in 2026-07-28: a list shows the server is there.)
    let after = client.request(29, "tools/list", json!({})).await;
    assert_eq!(after["result"]["nextCursor"], "2", "{after}");

    // `unlock` switches `secret` on: the client is told (at 2026-07-28 on the stream it opened
    // for that), and lists it.
    if current {
        client
            .send_request(
                30,
                "subscriptions/listen",
                json!({"notifications": {"toolsListChanged": true}}),
            )
            .await;
        let ack = client
            .notification("notifications/subscriptions/acknowledged")
            .await;
        assert_eq!(
            ack["params"]["notifications"]["toolsListChanged"], true,
            "{ack}"
        );
        // A stream that asked for nothing this server sends stays open, and quiet.
        client
            .send_request(32, "subscriptions/listen", json!({"notifications": {}}))
            .await;
        let quiet = client
            .notification("notifications/subscriptions/acknowledged")
            .await;
        assert_eq!(
            quiet["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
            32
        );
    }
    let unlocked = client.call(31, "unlock", json!({})).await;
    assert_eq!(unlocked["result"]["content"][0]["text"], "unlocked");
    let changed = client
        .notification("notifications/tools/list_changed")
        .await;
    if current {
        assert_eq!(
            changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
            30
        );
    }
    let tools = list_all(&mut client, 40).await;
    assert_eq!(tools.last().map(|t| &t["name"]), Some(&json!("secret")));
    let secret = client.call(50, "secret", json!({})).await;
    assert_eq!(secret["result"]["content"][0]["text"], "the secret is 42");
    if current {
        // On stdio a client ends its subscription so (rmcp gives a request still running at
        // the end of the input 5 s to finish).
        for id in [30, 32] {
            client
                .send(
                    json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                             "params": {"requestId": id}}),
                )
                .await;
        }
        // Nothing came on the quiet stream (a change there would have closed it, with a reply).
        let on = |n: &Value| n["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == 32;
        assert!(
            !client.notifications.iter().any(on),
            "{:?}",
            client.notifications
        );
    }

    validate_sent(version, &client.sent);
    client
}

/// Every tool, page by page, with request ids from `id`.
async fn list_all(client: &mut Client, mut id: u64) -> Vec<Value> {
    let mut tools = Vec::new();
    let mut params = json!({});
    loop {
        let page = client.request(id, "tools/list", params).await;
        id += 1;
        let listed = page["result"]["tools"].as_array().expect("tools");
        assert!(listed.len() <= 2, "{page}");
        tools.extend(listed.iter().cloned());
        match page["result"]["nextCursor"].as_str() {
            Some(cursor) => params = json!({"cursor": cursor}),
            None => return tools,
        }
    }
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
        let running = server().serve(toolgen::mcp_stdio()).await.unwrap();
        let _ = running.waiting().await;
    });
}

#[tokio::test]
async fn serves_over_stdio_in_another_process() {
    for version in ["2025-11-25", "2026-07-28"] {
        let mut child = spawn_stdio_server(std::process::Stdio::inherit());
        let client = Client {
            reader: Box::new(BufReader::new(child.stdout.take().unwrap())),
            writer: Box::new(child.stdin.take().unwrap()),
            sent: Vec::new(),
            notifications: Vec::new(),
            meta: None,
        };
        let (client, init) = handshake(client, version).await;
        let client = exercise(client, init, version).await;
        // The end of its input ends the server; its harness's last words are read, not cut.
        drop(client.writer);
        let status = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
        assert!(status.is_ok_and(|status| status.is_ok_and(|s| s.success())));
    }
}

/// Runs `tests/mcp_client.py` with `args`, its stdin and stdout given to `serve` (stdio) or
/// left alone (HTTP), and holds its verdict.
async fn python_client(python: &str, args: &[&str]) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_client.py");
    let stdio = args[0] == "stdio";
    let piped = || {
        if stdio {
            std::process::Stdio::piped()
        } else {
            std::process::Stdio::null()
        }
    };
    let mut child = tokio::process::Command::new(python)
        .arg(script)
        .args(args)
        .stdin(piped())
        .stdout(piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    if stdio {
        let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
        serve_in_task(server(), transport);
    }
    let output = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("the Python client ends within a minute")
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "mcp_client.py {args:?}: {said}");
}

/// The official Python SDK as a second, independent client: over stdio and streamable HTTP,
/// at both versions (`tests/mcp_client.py` says what it checks).
#[tokio::test]
async fn the_python_sdk_client_agrees() {
    let Some(python) = python_sdk::python_with_mcp("client") else {
        return;
    };
    let mut runs = Vec::new();
    for version in ["2025-11-25", "2026-07-28"] {
        // A server of its own for each run: `unlock` changes it.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        tokio::spawn(server().serve_http(listener));
        let python = python.clone();
        runs.push(tokio::spawn(async move {
            python_client(&python, &["stdio", "--version", version]).await;
            python_client(&python, &["http", &url, "--version", version]).await;
        }));
    }
    for run in runs {
        run.await.unwrap();
    }
}

/// rmcp's own client, with what the server tells it besides replies.
#[derive(Clone)]
struct RmcpClient {
    config: toolgen::rmcp::model::ClientConfig,
    progress: tokio::sync::mpsc::UnboundedSender<toolgen::rmcp::model::ProgressNotificationParam>,
    changed: tokio::sync::mpsc::UnboundedSender<()>,
}

impl toolgen::rmcp::ClientHandler for RmcpClient {
    fn get_info(&self) -> toolgen::rmcp::model::ClientConfig {
        self.config.clone()
    }

    async fn on_progress(
        &self,
        params: toolgen::rmcp::model::ProgressNotificationParam,
        _: toolgen::rmcp::service::NotificationContext<toolgen::rmcp::RoleClient>,
    ) {
        let _ = self.progress.send(params);
    }

    async fn on_tool_list_changed(
        &self,
        _: toolgen::rmcp::service::NotificationContext<toolgen::rmcp::RoleClient>,
    ) {
        let _ = self.changed.send(());
    }
}

/// What rmcp's client sees of the server over `transport`, at `version`: the same session as
/// `exercise`, through the SDK's typed API.
async fn rmcp_session<T, E, A>(transport: T, version: &str)
where
    T: toolgen::rmcp::transport::IntoTransport<toolgen::rmcp::RoleClient, E, A> + Send + 'static,
    E: std::error::Error + Send + Sync + 'static,
{
    use toolgen::rmcp::model::{
        CallToolRequestParams, ClientRequest, ErrorCode, ProtocolVersion, SubscriptionFilter,
    };
    use toolgen::rmcp::{ClientLifecycleMode, ClientServiceExt, ServiceError};

    let current = version == "2026-07-28";
    let (progress, mut progressed) = tokio::sync::mpsc::unbounded_channel();
    let (changed, mut changes) = tokio::sync::mpsc::unbounded_channel();
    let mut config = toolgen::rmcp::model::ClientConfig::default();
    config.protocol_version = ProtocolVersion::V_2025_11_25;
    let handler = RmcpClient {
        config,
        progress,
        changed,
    };
    let lifecycle = if current {
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        }
    } else {
        ClientLifecycleMode::Initialize
    };
    let client = handler
        .serve_with_lifecycle(transport, lifecycle)
        .await
        .expect("the client connects");
    let call = |name: &str, arguments: Value| {
        let params = CallToolRequestParams::new(name.to_owned());
        match arguments {
            Value::Object(arguments) => params.with_arguments(arguments),
            _ => params,
        }
    };

    // Every page, as the SDK follows `nextCursor`.
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["add", "hang", "count", "unlock", "judge"]);
    assert_eq!(tools[0].title.as_deref(), Some("Add two numbers"));
    let hints = tools[0].annotations.as_ref().unwrap();
    assert_eq!(
        (
            hints.read_only_hint,
            hints.destructive_hint,
            hints.open_world_hint
        ),
        (Some(true), None, Some(false))
    );
    assert_eq!(tools[4].output_schema.is_some(), current);

    let ok = client
        .call_tool(call("add", json!({"a": 2, "b": 3})))
        .await
        .unwrap();
    assert_eq!(ok.structured_content, Some(json!({"sum": 5})));
    assert_ne!(ok.is_error, Some(true));

    let bad = client
        .call_tool(call("add", json!({"a": "two"})))
        .await
        .unwrap();
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(
        bad.content[0].as_text().map(|text| text.text.as_str()),
        Some("invalid arguments at `a`: invalid type: string \"two\", expected i64")
    );

    let failed = client
        .call_tool(call("add", json!({"a": i64::MAX, "b": 1})))
        .await
        .unwrap();
    assert_eq!(failed.is_error, Some(true));
    assert_eq!(
        failed.structured_content,
        Some(json!({"error": "overflow"}))
    );

    match client.call_tool(call("sub", json!({}))).await {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
            assert_eq!(
                error.message,
                format!("unknown tool `sub`; the tools are {OFFERED}")
            );
        }
        other => panic!("an unknown tool is a protocol error, not {other:?}"),
    }

    // rmcp gives every request a progress token: the reports come, in order.
    let counted = client
        .call_tool(call("count", json!({"to": 3})))
        .await
        .unwrap();
    assert_eq!(
        counted.content[0].as_text().map(|text| text.text.as_str()),
        Some("counted to 3")
    );
    let mut steps = Vec::new();
    for _ in 0..3 {
        let step = tokio::time::timeout(Duration::from_secs(5), progressed.recv())
            .await
            .expect("progress within 5 s")
            .unwrap();
        steps.push((step.progress, step.total, step.message));
    }
    let expected: Vec<_> = (1..=3)
        .map(|done| (f64::from(done), Some(3.0), Some(format!("counted {done}"))))
        .collect();
    assert_eq!(steps, expected);

    // Cancelled by the client once it started: the handler is stopped, the server goes on.
    let request =
        ClientRequest::CallToolRequest(toolgen::rmcp::model::Request::new(call("hang", json!({}))));
    let handle = client
        .send_cancellable_request(
            request,
            toolgen::rmcp::service::PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    let started = tokio::time::timeout(Duration::from_secs(5), progressed.recv())
        .await
        .expect("the tool starts")
        .unwrap();
    assert_eq!(started.message.as_deref(), Some("waiting"));
    handle
        .cancel(Some("the user stopped it".to_owned()))
        .await
        .unwrap();
    assert_eq!(client.list_all_tools().await.unwrap().len(), 5);

    // `unlock`: told at 2025-11-25 through the handler, at 2026-07-28 on a subscription.
    let mut subscription = if current {
        let filter = SubscriptionFilter::builder().tools_list_changed().build();
        Some(client.listen(filter).await.unwrap())
    } else {
        None
    };
    client.call_tool(call("unlock", json!({}))).await.unwrap();
    match &mut subscription {
        Some(subscription) => {
            let told = tokio::time::timeout(Duration::from_secs(5), subscription.next())
                .await
                .expect("told within 5 s")
                .unwrap();
            assert!(
                matches!(
                    told,
                    Some(toolgen::rmcp::model::ServerNotification::ToolListChangedNotification(_))
                ),
                "{told:?}"
            );
        }
        None => tokio::time::timeout(Duration::from_secs(5), changes.recv())
            .await
            .expect("told within 5 s")
            .unwrap(),
    }
    let secret = client.call_tool(call("secret", json!({}))).await.unwrap();
    assert_eq!(
        secret.content[0].as_text().map(|text| text.text.as_str()),
        Some("the secret is 42")
    );
    if let Some(mut subscription) = subscription {
        subscription.cancel().await.unwrap();
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn rmcp_client_in_process() {
    for version in ["2025-11-25", "2026-07-28"] {
        let (server_side, client_side) = tokio::io::duplex(1 << 16);
        let served = server();
        serve_in_task(served.clone(), server_side);
        rmcp_session(client_side, version).await;
        handler_stopped(&served).await;
    }
}

#[tokio::test]
async fn rmcp_client_over_stdio() {
    for version in ["2025-11-25", "2026-07-28"] {
        let mut child = spawn_stdio_server(std::process::Stdio::null());
        let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
        rmcp_session(transport, version).await;
        // The client closed the connection: the server ends (its harness may find its output
        // closed too, so its exit status says nothing). Within 10 s: should the subscription's
        // cancel not have reached it before the connection closed, rmcp gives the stream 5 s.
        let ended = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
        assert!(ended.is_ok(), "the server ends with its connection");
    }
}

/// One JSON-RPC message POSTed to a streamable HTTP endpoint, as a client does (HTTP/1.0, so
/// that the answer ends with the connection): the messages of the answer (one JSON body, or
/// the `data:` of each server-sent event) and the `mcp-session-id` it gave, if any.
async fn post(
    address: std::net::SocketAddr,
    message: &Value,
    headers: &[(&str, &str)],
) -> (Vec<Value>, Option<String>) {
    use tokio::io::AsyncReadExt;
    let body = message.to_string();
    let mut request = format!(
        "POST /mcp HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut answer))
        .await
        .expect("the server answers within 5 s")
        .unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
    assert!(
        head.starts_with("HTTP/1.") && head.contains(" 20"),
        "{head}"
    );
    let session = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("mcp-session-id")
            .then(|| value.trim().to_owned())
    });
    let messages = if body.trim_start().starts_with('{') {
        vec![serde_json::from_str(body).unwrap()]
    } else {
        body.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter(|data| !data.trim().is_empty())
            .map(|data| serde_json::from_str(data.trim()).unwrap())
            .collect()
    };
    (messages, session)
}

/// Streamable HTTP (`serve_http`), at both versions: the lifecycle, a list, a call with its
/// progress, bad arguments; every message held against the version's schema.
#[tokio::test]
async fn serves_streamable_http() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(server().serve_http(listener));

    // 2025-11-25: `initialize` opens a session; its id comes with every request after it.
    let version = "2025-11-25";
    let mut sent = Vec::new();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"protocolVersion": version, "capabilities": {},
                                 "clientInfo": {"name": "raw-http", "version": "0"}}});
    let (answer, session) = post(address, &init, &[]).await;
    assert_eq!(
        answer[0]["result"]["protocolVersion"], version,
        "{answer:?}"
    );
    sent.extend(answer);
    let session = session.expect("a session id");
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", version),
    ];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let _ = post(address, &initialized, &headers).await;
    let counted = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                         "params": {"name": "count", "arguments": {"to": 2},
                                    "_meta": {"progressToken": "p"}}});
    let (answer, _) = post(address, &counted, &headers).await;
    let methods: Vec<&str> = answer.iter().filter_map(|m| m["method"].as_str()).collect();
    assert_eq!(methods, ["notifications/progress"; 2], "{answer:?}");
    assert_eq!(
        answer.last().unwrap()["result"]["content"][0]["text"],
        "counted to 2"
    );
    sent.extend(answer);
    validate_sent(version, &sent);

    // 2026-07-28: no session; each request carries the version and the client in `_meta`.
    let version = "2026-07-28";
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw-http", "version": "0"},
    });
    let headers = [("mcp-protocol-version", version)];
    let mut sent = Vec::new();
    for (id, method, mut params) in [
        (1, "server/discover", json!({})),
        (2, "tools/list", json!({"cursor": "4"})),
        (
            3,
            "tools/call",
            json!({"name": "judge", "arguments": {"n": 3}}),
        ),
        (
            4,
            "tools/call",
            json!({"name": "add", "arguments": {"a": "two"}}),
        ),
    ] {
        params["_meta"] = meta.clone();
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let mut request_headers = headers.to_vec();
        if method == "tools/call" {
            request_headers.push(("mcp-method", "tools/call"));
            request_headers.push(("mcp-name", params["name"].as_str().unwrap()));
        } else {
            request_headers.push(("mcp-method", method));
        }
        let (answer, session) = post(address, &request, &request_headers).await;
        assert!(session.is_none());
        let reply = answer.last().expect("a reply").clone();
        assert_eq!(reply["id"], id, "{answer:?}");
        match id {
            2 => assert_eq!(reply["result"]["tools"][0]["name"], "judge", "{reply}"),
            3 => assert_eq!(reply["result"]["structuredContent"], "no", "{reply}"),
            4 => assert_eq!(reply["result"]["isError"], true, "{reply}"),
            _ => {}
        }
        sent.extend(answer);
    }
    validate_sent(version, &sent);
}

/// The plain API's MCP definitions follow `2025-11-25`, as `Provider::Mcp` says: a tool's, a
/// set's and a runner's alike leave out an output schema that is not an object's (which that
/// version refuses), keep an object's, and are MCP `Tool`s of that version's schema; the server
/// still gives the other to clients of `2026-07-28` (see `exercise`).
#[test]
fn plain_mcp_definitions_follow_2025_11_25() {
    use toolgen::{Provider, Tool};

    let judge = Judge::definition(Provider::Mcp);
    assert!(judge.get("outputSchema").is_none(), "{judge}");
    let runner = Runner::<Tools, Lab>::new(Lab {
        switch: ToolSwitch::new(),
        stopped: AtomicUsize::new(0),
    });
    let from_set = <Tools as ToolSet>::definitions(Provider::Mcp);
    let from_runner = runner.definitions(Provider::Mcp);
    for definitions in [&from_set, &from_runner] {
        let judge = &definitions[4];
        assert_eq!(judge["name"], "judge");
        assert!(judge.get("outputSchema").is_none(), "{judge}");
    }
    // An object's schema stays: `#[tool(output)]`-less `add` gets its handler's in the runner.
    assert_eq!(
        from_runner[0]["outputSchema"],
        json!({"type": "object", "properties": {"sum": {"type": "integer"}, "note": {
                   "type": "string",
                   "description": "What to know of it, if anything: an optional field, which serde writes as `null` when `None` and the schema leaves out of `required` without `null`; the server leaves it out of the structured content, which clients check against the schema."
               }},
               "required": ["sum"], "description": "A sum and its operands."})
    );
    let Some(dir) = spec_folder::specs_dir("MCP schema checks") else {
        return;
    };
    let path = dir.join("mcp-2025-11-25.schema.json");
    let mut spec: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    spec.as_object_mut()
        .unwrap()
        .insert("$ref".to_owned(), json!("#/$defs/Tool"));
    let validator = jsonschema::draft202012::new(&spec).unwrap();
    for definitions in [&from_set, &from_runner] {
        for tool in definitions.as_array().unwrap() {
            if let Err(error) = validator.validate(tool) {
                panic!("{error}\n{tool:#}");
            }
        }
    }
}
