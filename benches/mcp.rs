//! The MCP server (feature `mcp`), each measure beside a plain rmcp server (a `ServerHandler`
//! written by hand as rmcp's `#[tool]` macros write it: the arguments read with serde from
//! rmcp's map, the sum as text content) doing the same work on the same machine:
//! - `tools/call` of a trivial tool over an in-process transport (`tokio::io::duplex`), one
//!   request and its answer per iteration, with the heap allocations per call counted;
//! - the same call through `run_call` alone, so the ratio is what the protocol layer adds;
//! - over stdio, to a server in another process (this bench binary, run again as the server);
//! - over streamable HTTP, to a server in another process, with 8 and then 64 clients, each
//!   with its own session on a kept-alive connection, for 3 s: calls/s, median and 99th
//!   percentile latency, and the server's CPU time per call (from `/proc`).
//!
//! Run with `cargo bench --features mcp --bench mcp -- --warm-up-time 1 --measurement-time 3`
//! (`TOOLGEN_BENCH_MCP_LOAD=0` leaves the HTTP load out).

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use toolgen::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use toolgen::rmcp::service::RequestContext;
use toolgen::rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use toolgen::{
    Cancellation, Handler, Invocation, McpServer, Provider, Runner, Tool, ToolCall, ToolError,
    ToolSet, run_call,
};

/// Counts heap allocations, for the allocations per call.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static ALLOCATED: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is passed on to the system allocator as it came.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        ALLOCATED.fetch_add(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: as the caller promised for `layout`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        ALLOCATED.fetch_add(new_size as u64, Ordering::Relaxed);
        // SAFETY: as the caller promised.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

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

#[derive(ToolSet)]
enum Tools {
    Add(Add),
}

/// Set in a server process the bench spawns: `stdio`, `http`, or `http-rmcp`.
const SERVE: &str = "TOOLGEN_BENCH_MCP_SERVE";

fn server() -> McpServer<Tools, ()> {
    McpServer::new(Runner::<Tools, ()>::new(()), "bench", "0")
}

/// The same tool served by rmcp alone, as its `#[tool]` macros would: the arguments read from
/// rmcp's map with serde, the sum as text content.
#[derive(Clone)]
struct PlainRmcp {
    tools: Arc<[toolgen::rmcp::model::Tool]>,
}

#[derive(Deserialize)]
struct AddArgs {
    a: i64,
    b: i64,
}

impl PlainRmcp {
    fn new() -> Self {
        let schema = serde_json::json!({"type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"]});
        let serde_json::Value::Object(schema) = schema else {
            unreachable!()
        };
        let tool = toolgen::rmcp::model::Tool::new("add", "Add two numbers.", Arc::new(schema));
        PlainRmcp {
            tools: Arc::from(vec![tool]),
        }
    }
}

impl ServerHandler for PlainRmcp {
    fn get_info(&self) -> ServerConfig {
        let mut config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        config.server_info = Implementation::new("plain", "0");
        config
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<toolgen::rmcp::model::Tool> {
        self.tools.iter().find(|tool| tool.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != "add" {
            return Err(ErrorData::invalid_params("unknown tool", None));
        }
        let arguments = serde_json::Value::Object(request.arguments.unwrap_or_default());
        let args: AddArgs = serde_json::from_value(arguments)
            .map_err(|error| ErrorData::invalid_params(error.to_string(), None))?;
        let sum = args.a.wrapping_add(args.b);
        Ok(CallToolResponse::from(CallToolResult::success(vec![
            ContentBlock::text(sum.to_string()),
        ])))
    }
}

/// A client's line-by-line side of a connection, initialized.
struct Client<R, W> {
    reader: BufReader<R>,
    writer: W,
    line: String,
}

impl<R: tokio::io::AsyncRead + Unpin, W: tokio::io::AsyncWrite + Unpin> Client<R, W> {
    async fn new(reader: R, mut writer: W) -> Self {
        let init = concat!(
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","#,
            r#""capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            "\n"
        );
        writer.write_all(init.as_bytes()).await.expect("write");
        let mut client = Client {
            reader: BufReader::new(reader),
            writer,
            line: String::new(),
        };
        client
            .reader
            .read_line(&mut client.line)
            .await
            .expect("read");
        client
    }

    /// One `tools/call` and its answer.
    async fn call(&mut self) -> usize {
        self.writer.write_all(CALL.as_bytes()).await.expect("write");
        self.writer.write_all(b"\n").await.expect("write");
        self.writer.flush().await.expect("flush");
        self.line.clear();
        self.reader.read_line(&mut self.line).await.expect("read");
        assert!(self.line.contains(r#""text":"5""#), "{}", self.line);
        self.line.len()
    }
}

const CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}"#;

/// A client of a server over an in-process transport.
fn in_process<S: ServerHandler>(
    runtime: &tokio::runtime::Runtime,
    handler: S,
) -> Client<impl tokio::io::AsyncRead + Unpin, impl tokio::io::AsyncWrite + Unpin> {
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    runtime.spawn(async move {
        if let Ok(running) = handler.serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    let (reader, writer) = tokio::io::split(client_side);
    runtime.block_on(Client::new(reader, writer))
}

/// The heap allocations (count, bytes) of one call, averaged over 1,000.
fn allocations_per_call<R, W>(
    runtime: &tokio::runtime::Runtime,
    client: &mut Client<R, W>,
) -> (f64, f64)
where
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    const CALLS: u32 = 1000;
    let (count, bytes) = (
        ALLOCATIONS.load(Ordering::Relaxed),
        ALLOCATED.load(Ordering::Relaxed),
    );
    runtime.block_on(async {
        for _ in 0..CALLS {
            client.call().await;
        }
    });
    (
        (ALLOCATIONS.load(Ordering::Relaxed) - count) as f64 / f64::from(CALLS),
        (ALLOCATED.load(Ordering::Relaxed) - bytes) as f64 / f64::from(CALLS),
    )
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut ours = in_process(&runtime, server());
    let mut plain = in_process(&runtime, PlainRmcp::new());
    for (name, (count, bytes)) in [
        ("toolgen", allocations_per_call(&runtime, &mut ours)),
        ("rmcp", allocations_per_call(&runtime, &mut plain)),
    ] {
        eprintln!("allocations per call in process, {name}: {count:.1} ({bytes:.0} bytes)");
    }
    let mut group = c.benchmark_group("mcp");
    group.bench_function("tools_call_in_process", |b| {
        b.iter(|| runtime.block_on(async { black_box(ours.call().await) }))
    });
    group.bench_function("tools_call_in_process_rmcp", |b| {
        b.iter(|| runtime.block_on(async { black_box(plain.call().await) }))
    });
    let mut command = tokio::process::Command::new(std::env::current_exe().expect("this bench"));
    command
        .env(SERVE, "stdio")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true);
    let mut child = runtime.block_on(async { command.spawn().expect("the server process") });
    let (stdout, stdin) = (child.stdout.take(), child.stdin.take());
    let mut remote = runtime.block_on(Client::new(stdout.expect("piped"), stdin.expect("piped")));
    group.bench_function("tools_call_stdio", |b| {
        b.iter(|| runtime.block_on(async { black_box(remote.call().await) }))
    });
    let call = ToolCall::new("add", r#"{"a":2,"b":3}"#).with_id("1");
    let cancellation = Cancellation::new();
    group.bench_function("run_call_render", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let result =
                    run_call::<Tools, ()>(&(), black_box(&call), Provider::Mcp, &cancellation)
                        .await;
                toolgen::mcp_response(&call, &result)
            })
        })
    });
    group.finish();
    runtime.block_on(async { drop(child) });
}

/// This bench binary again, as the server `kind` (see [`SERVE`]).
fn spawn_server(kind: &str) -> std::process::Child {
    std::process::Command::new(std::env::current_exe().expect("this bench"))
        .env(SERVE, kind)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the server process")
}

/// Be the server `kind` on stdio, or on HTTP at a loopback port written to stdout.
fn serve(kind: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        if kind == "stdio" {
            if let Ok(running) = server().serve(toolgen::mcp_stdio()).await {
                let _ = running.waiting().await;
            }
            return;
        }
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        println!("{}", listener.local_addr().expect("an address"));
        if kind == "http" {
            let _ = server().serve_http(listener).await;
        } else {
            serve_plain_http(listener).await;
        }
    });
}

/// rmcp's streamable HTTP service for [`PlainRmcp`], with its defaults, on hyper as
/// `McpServer::serve_http` uses it (HTTP/1.1, `TCP_NODELAY`, a task a connection).
async fn serve_plain_http(listener: tokio::net::TcpListener) {
    use toolgen::rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use toolgen::rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    let handler = PlainRmcp::new();
    let service = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    while let Ok((stream, _)) = listener.accept().await {
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await;
        });
    }
}

/// One HTTP client: a kept-alive connection and a 2025-11-25 session on it.
struct HttpClient {
    reader: BufReader<tokio::net::tcp::OwnedReadHalf>,
    writer: tokio::net::tcp::OwnedWriteHalf,
    address: SocketAddr,
    session: String,
    body: Vec<u8>,
}

impl HttpClient {
    async fn new(address: SocketAddr) -> Self {
        let stream = tokio::net::TcpStream::connect(address)
            .await
            .expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        let (reader, writer) = stream.into_split();
        let mut client = HttpClient {
            reader: BufReader::new(reader),
            writer,
            address,
            session: String::new(),
            body: Vec::new(),
        };
        let init = concat!(
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","#,
            r#""capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#
        );
        client.session = client.post(init).await.expect("a session id");
        client
            .post(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        client
    }

    /// POSTs `body` and reads the reply; the reply's session id, if it has one.
    async fn post(&mut self, body: &str) -> Option<String> {
        let mut request = format!(
            "POST /mcp HTTP/1.1\r\nhost: {}\r\naccept: application/json, text/event-stream\r\n\
             content-type: application/json\r\ncontent-length: {}\r\n",
            self.address,
            body.len()
        );
        if !self.session.is_empty() {
            request.push_str("mcp-session-id: ");
            request.push_str(&self.session);
            request.push_str("\r\nmcp-protocol-version: 2025-11-25\r\n");
        }
        request.push_str("\r\n");
        request.push_str(body);
        self.writer
            .write_all(request.as_bytes())
            .await
            .expect("write");
        let mut session = None;
        let (mut length, mut chunked) = (0, false);
        let mut line = String::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line).await.expect("read");
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let lower = header.to_ascii_lowercase();
            if let Some(id) = lower.strip_prefix("mcp-session-id:") {
                session = Some(header[header.len() - id.trim().len()..].to_owned());
            } else if let Some(value) = lower.strip_prefix("content-length:") {
                length = value.trim().parse().expect("a length");
            } else if lower == "transfer-encoding: chunked" {
                chunked = true;
            }
        }
        self.body.clear();
        if chunked {
            loop {
                line.clear();
                self.reader.read_line(&mut line).await.expect("read");
                let size = usize::from_str_radix(line.trim(), 16).expect("a chunk size");
                let start = self.body.len();
                self.body.resize(start + size + 2, 0);
                self.reader
                    .read_exact(&mut self.body[start..])
                    .await
                    .expect("read");
                self.body.truncate(start + size);
                if size == 0 {
                    break;
                }
            }
        } else {
            self.body.resize(length, 0);
            self.reader.read_exact(&mut self.body).await.expect("read");
        }
        session
    }

    /// One `tools/call` and its answer.
    async fn call(&mut self) {
        self.post(CALL).await;
        let answer = std::str::from_utf8(&self.body).unwrap_or_default();
        assert!(answer.contains(r#""text":"5""#), "{answer}");
    }
}

/// The CPU time `pid` has used, in clock ticks (user and system).
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's name, in parentheses: utime and stime are the 12th and 13th fields.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// `clients` clients calling the server at `address` (process `pid`) for `time`: calls/s,
/// median and 99th percentile latency, server CPU microseconds per call.
fn load(
    runtime: &tokio::runtime::Runtime,
    address: SocketAddr,
    pid: u32,
    clients: usize,
    time: Duration,
) -> (f64, Duration, Duration, f64) {
    runtime.block_on(async {
        let mut connected = Vec::new();
        for _ in 0..clients {
            connected.push(HttpClient::new(address).await);
        }
        let ticks = cpu_ticks(pid);
        let start = Instant::now();
        let tasks: Vec<_> = connected
            .into_iter()
            .map(|mut client| {
                tokio::spawn(async move {
                    let mut latencies = Vec::new();
                    while start.elapsed() < time {
                        let sent = Instant::now();
                        client.call().await;
                        latencies.push(sent.elapsed());
                    }
                    latencies
                })
            })
            .collect();
        let mut latencies = Vec::new();
        for task in tasks {
            latencies.extend(task.await.expect("a client"));
        }
        let elapsed = start.elapsed();
        let used = cpu_ticks(pid)
            .zip(ticks)
            .map(|(after, before)| after - before);
        latencies.sort();
        let calls = latencies.len();
        let at = |part: f64| latencies[((calls as f64 * part) as usize).min(calls - 1)];
        // (Linux counts CPU time in ticks of 10 ms.)
        let cpu = used.map_or(f64::NAN, |ticks| ticks as f64 * 10_000.0 / calls as f64);
        (calls as f64 / elapsed.as_secs_f64(), at(0.5), at(0.99), cpu)
    })
}

/// The HTTP load, ours and rmcp's side by side, printed as a table.
fn http_load() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    println!("\nHTTP load (3 s each; server CPU per call from /proc, in 10 ms ticks):");
    println!("| server | clients | calls/s | p50 | p99 | server CPU per call |");
    println!("|---|---|---|---|---|---|");
    for clients in [8, 64] {
        for kind in ["http", "http-rmcp"] {
            let mut child = spawn_server(kind);
            let mut port = String::new();
            let stdout = child.stdout.as_mut().expect("piped");
            std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut port)
                .expect("the server's address");
            let address: SocketAddr = port.trim().parse().expect("an address");
            let (rate, p50, p99, cpu) = load(
                &runtime,
                address,
                child.id(),
                clients,
                Duration::from_secs(3),
            );
            let name = if kind == "http" { "toolgen" } else { "rmcp" };
            println!(
                "| {name} | {clients} | {rate:.0} | {:.2} ms | {:.2} ms | {cpu:.1} µs |",
                p50.as_secs_f64() * 1e3,
                p99.as_secs_f64() * 1e3
            );
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `count` calls with `client`.
fn calls_in_process<R, W>(runtime: &tokio::runtime::Runtime, mut client: Client<R, W>, count: u32)
where
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    runtime.block_on(async {
        for _ in 0..count {
            client.call().await;
        }
    });
}

criterion_group!(benches, bench);

fn main() {
    // Run again as a server by the benches above.
    if let Some(kind) = std::env::var_os(SERVE) {
        serve(&kind.to_string_lossy());
        return;
    }
    // `ADDRESS:N`: N calls over HTTP by 8 clients to a server started by hand (this binary with
    // `TOOLGEN_BENCH_MCP_SERVE=http` or `http-rmcp`, under callgrind: the difference of two N's,
    // divided, is one call's instructions in the server).
    if let Some(target) = std::env::var_os("TOOLGEN_BENCH_MCP_HTTP_CALLS") {
        let target = target.to_string_lossy().into_owned();
        let (address, count) = target.rsplit_once(':').expect("ADDRESS:N");
        let address: SocketAddr = address.parse().expect("an address");
        let count: usize = count.parse().expect("a count");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let mut tasks = Vec::new();
            for _ in 0..8 {
                let mut client = HttpClient::new(address).await;
                tasks.push(tokio::spawn(async move {
                    for _ in 0..count / 8 {
                        client.call().await;
                    }
                }));
            }
            for task in tasks {
                task.await.expect("a client");
            }
        });
        return;
    }
    // `toolgen:N` or `rmcp:N`: N calls in process and nothing else, to count instructions
    // under callgrind (the difference of two N's, divided, is one call's).
    if let Some(calls) = std::env::var_os("TOOLGEN_BENCH_MCP_CALLS") {
        let calls = calls.to_string_lossy().into_owned();
        let (kind, count) = calls.split_once(':').expect("KIND:N");
        let count: u32 = count.parse().expect("a count");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        if kind == "toolgen" {
            calls_in_process(&runtime, in_process(&runtime, server()), count);
        } else {
            calls_in_process(&runtime, in_process(&runtime, PlainRmcp::new()), count);
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
    if std::env::var_os("TOOLGEN_BENCH_MCP_LOAD").is_none_or(|load| load != "0") {
        http_load();
    }
}
