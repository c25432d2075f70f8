//! The MCP server (feature `mcp`), each measure beside an rmcp server written as rmcp's
//! `#[tool_router]` and `#[tool]` macros have it written (feature `__rmcp_macros`: the arguments
//! read by rmcp's `Parameters<T>`, a `String` or a `Json<T>` answer) with the same two tools,
//! doing the same work on the same machine: `add`, trivial, and `search_orders`, of a real
//! tool's size (five arguments, one of them an enum and one a list, and about 1 KB of
//! structured output).
//! - `tools/call` over an in-process transport (`tokio::io::duplex`), one request and its
//!   answer per iteration, with the heap allocations per call counted;
//! - the same call through `run_call` alone, so the ratio is what the protocol layer adds;
//! - over stdio, to a server in another process (this bench binary, run again as the server);
//! - over streamable HTTP, to a server in another process, with 8 and then 64 clients, each
//!   with its own session on a kept-alive connection, for 3 s: calls/s, median and 99th
//!   percentile latency, and the server's CPU time per call (from `/proc`); and toolgen's
//!   server again with authorization on, a `TokenValidator` that accepts one fixed token.
//!
//! Run with `cargo bench --features mcp,__rmcp_macros --bench mcp -- --warm-up-time 1
//! --measurement-time 3` (`TOOLGEN_BENCH_MCP_LOAD=0` leaves the HTTP load out).

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use toolgen::rmcp::handler::server::router::tool::ToolRouter;
use toolgen::rmcp::handler::server::wrapper::{Json, Parameters};
use toolgen::rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use toolgen::rmcp::{self, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use toolgen::{
    Cancellation, Handler, HttpOptions, Invocation, McpServer, Principal, Provider, ResourceServer,
    Runner, TokenError, TokenValidator, Tool, ToolCall, ToolError, ToolSchema, ToolSet,
    ValidateFuture, run_call,
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

/// Find a customer's orders.
#[derive(Tool, Deserialize)]
struct SearchOrders {
    /// The customer's account name.
    #[tool(length(min = 1, max = 64))]
    customer: String,
    /// Only orders in this state.
    status: Option<Status>,
    /// Only orders placed on this day or after (`YYYY-MM-DD`).
    since: Option<String>,
    /// Only orders with each of these tags.
    tags: Vec<String>,
    /// How many orders at most.
    #[tool(range(min = 1, max = 50), default = 10)]
    limit: u32,
}

impl Handler<()> for SearchOrders {
    type Output = Orders;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<Orders, ToolError> {
        Ok(orders(
            &self.customer,
            self.status,
            self.since.as_deref(),
            &self.tags,
            self.limit,
        ))
    }
}

/// An order's state. (Under the feature `schemars1`, `ToolSchema` writes the `JsonSchema`
/// that rmcp's `Json<T>` needs; otherwise schemars' derive does.)
#[derive(Clone, Copy, Deserialize, Serialize, ToolSchema)]
#[cfg_attr(not(feature = "schemars1"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
enum Status {
    Open,
    Shipped,
    Delivered,
}

/// The orders found.
#[derive(Serialize, ToolSchema)]
#[cfg_attr(not(feature = "schemars1"), derive(schemars::JsonSchema))]
struct Orders {
    customer: String,
    orders: Vec<Order>,
}

/// One order.
#[derive(Serialize, ToolSchema)]
#[cfg_attr(not(feature = "schemars1"), derive(schemars::JsonSchema))]
struct Order {
    id: String,
    placed: String,
    status: Status,
    total_cents: u64,
    tags: Vec<String>,
    lines: Vec<Line>,
}

/// One line of an order.
#[derive(Serialize, ToolSchema)]
#[cfg_attr(not(feature = "schemars1"), derive(schemars::JsonSchema))]
struct Line {
    sku: String,
    quantity: u32,
    price_cents: u64,
}

/// The work of `search_orders`, the same for both servers: at most five orders, made up.
fn orders(
    customer: &str,
    status: Option<Status>,
    since: Option<&str>,
    tags: &[String],
    limit: u32,
) -> Orders {
    let orders = (1..=limit.min(5))
        .map(|n| {
            let lines: Vec<Line> = (1..=2)
                .map(|line| Line {
                    sku: format!("SKU-{n}{line:02}"),
                    quantity: line,
                    price_cents: u64::from(n * 1000 + line * 99),
                })
                .collect();
            Order {
                id: format!("{customer}-{n}"),
                placed: since.unwrap_or("2026-01-01").to_owned(),
                status: status.unwrap_or(Status::Open),
                total_cents: lines
                    .iter()
                    .map(|line| line.price_cents * u64::from(line.quantity))
                    .sum(),
                tags: tags.to_vec(),
                lines,
            }
        })
        .collect();
    Orders {
        customer: customer.to_owned(),
        orders,
    }
}

#[derive(ToolSet)]
enum Tools {
    Add(Add),
    SearchOrders(SearchOrders),
}

/// Set in a server process the bench spawns: `stdio`, `http`, `http-token` (toolgen's, with
/// authorization) or `http-rmcp`.
const SERVE: &str = "TOOLGEN_BENCH_MCP_SERVE";

fn server() -> McpServer<Tools, ()> {
    McpServer::new(Runner::<Tools, ()>::new(()), "bench", "0")
}

/// The token that [`FixedToken`] accepts.
const TOKEN: &str = "bench-token";

/// A `TokenValidator` that accepts [`TOKEN`] alone: what authorization adds to a call, less the
/// validation of a real token.
struct FixedToken;

impl TokenValidator for FixedToken {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        let known = token == TOKEN;
        Box::pin(async move {
            if known {
                Ok(Principal::new(Some("bench"), None, ["orders:read"]))
            } else {
                Err(TokenError::new("unknown token"))
            }
        })
    }
}

/// `search_orders`'s arguments for rmcp's `Parameters<T>`.
#[derive(Deserialize, schemars::JsonSchema)]
struct SearchArgs {
    /// The customer's account name.
    customer: String,
    /// Only orders in this state.
    status: Option<Status>,
    /// Only orders placed on this day or after (`YYYY-MM-DD`).
    since: Option<String>,
    /// Only orders with each of these tags.
    tags: Vec<String>,
    /// How many orders at most.
    #[serde(default = "ten")]
    limit: u32,
}

fn ten() -> u32 {
    10
}

/// `add`'s arguments for rmcp's `Parameters<T>`.
#[derive(Deserialize, schemars::JsonSchema)]
struct AddArgs {
    a: i64,
    b: i64,
}

/// The same tools served by rmcp alone, written as its `#[tool]` macros are meant to be used;
/// the router kept in the server (rmcp's `#[tool_handler]` alone builds it again for each call,
/// which costs more).
#[derive(Clone)]
struct RmcpTools {
    tool_router: ToolRouter<RmcpTools>,
}

#[tool_router]
impl RmcpTools {
    fn new() -> Self {
        RmcpTools {
            tool_router: Self::tool_router(),
        }
    }

    /// Add two numbers.
    #[tool]
    async fn add(&self, Parameters(args): Parameters<AddArgs>) -> String {
        args.a.wrapping_add(args.b).to_string()
    }

    /// Find a customer's orders.
    #[tool]
    async fn search_orders(&self, Parameters(args): Parameters<SearchArgs>) -> Json<Orders> {
        Json(orders(
            &args.customer,
            args.status,
            args.since.as_deref(),
            &args.tags,
            args.limit,
        ))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for RmcpTools {
    fn get_info(&self) -> ServerConfig {
        let mut config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        config.server_info = Implementation::new("rmcp", "0");
        config
    }
}

/// A `tools/call` request, and what its answer holds.
#[derive(Clone, Copy)]
struct Call {
    request: &'static str,
    answer: &'static str,
}

const ADD: Call = Call {
    request: r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}"#,
    answer: r#""text":"5""#,
};

const SEARCH: Call = Call {
    request: concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_orders","#,
        r#""arguments":{"customer":"acme","status":"shipped","since":"2026-11-01","#,
        r#""tags":["priority","export"],"limit":5}}}"#
    ),
    answer: r#""id":"acme-5""#,
};

/// The call `TOOLGEN_BENCH_MCP_TOOL` names: `add` (unset) or `search_orders`.
fn chosen_call() -> Call {
    match std::env::var("TOOLGEN_BENCH_MCP_TOOL").as_deref() {
        Ok("search_orders") => SEARCH,
        _ => ADD,
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
    async fn call(&mut self, call: Call) -> usize {
        let writer = &mut self.writer;
        writer
            .write_all(call.request.as_bytes())
            .await
            .expect("write");
        writer.write_all(b"\n").await.expect("write");
        writer.flush().await.expect("flush");
        self.line.clear();
        self.reader.read_line(&mut self.line).await.expect("read");
        assert!(self.line.contains(call.answer), "{}", self.line);
        self.line.len()
    }
}

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

/// The heap allocations (count, bytes) of one `call`, averaged over 1,000.
fn allocations_per_call<R, W>(
    runtime: &tokio::runtime::Runtime,
    client: &mut Client<R, W>,
    call: Call,
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
            client.call(call).await;
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
    let mut theirs = in_process(&runtime, RmcpTools::new());
    for (tool, call) in [("add", ADD), ("search_orders", SEARCH)] {
        for (name, (count, bytes)) in [
            ("toolgen", allocations_per_call(&runtime, &mut ours, call)),
            ("rmcp", allocations_per_call(&runtime, &mut theirs, call)),
        ] {
            eprintln!(
                "allocations per call of {tool} in process, {name}: {count:.1} ({bytes:.0} bytes)"
            );
        }
    }
    let mut group = c.benchmark_group("mcp");
    for (tool, call) in [("add", ADD), ("search_orders", SEARCH)] {
        group.bench_function(format!("tools_call_in_process_{tool}"), |b| {
            b.iter(|| runtime.block_on(async { black_box(ours.call(call).await) }))
        });
        group.bench_function(format!("tools_call_in_process_{tool}_rmcp"), |b| {
            b.iter(|| runtime.block_on(async { black_box(theirs.call(call).await) }))
        });
    }
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
        b.iter(|| runtime.block_on(async { black_box(remote.call(ADD).await) }))
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
        // Exits when its stdin closes: under callgrind, which writes its counts at the exit.
        std::thread::spawn(|| {
            let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
            std::process::exit(0);
        });
        match kind {
            "http" => {
                let _ = server().serve_http(listener).await;
            }
            // Every answer an event stream, as before answers came as JSON.
            "http-sse" => {
                let options = HttpOptions::default().json_reply_wait(Duration::ZERO);
                let _ = server().serve_http_with(listener, &options).await;
            }
            "http-token" => {
                let resource = format!("http://{}/mcp", listener.local_addr().expect("bound"));
                let auth = ResourceServer::new(resource, FixedToken).expect("a resource URI");
                let options = HttpOptions::default().authorization(auth);
                let _ = server().serve_http_with(listener, &options).await;
            }
            _ => serve_rmcp_http(listener).await,
        }
    });
}

/// rmcp's streamable HTTP service for [`RmcpTools`], with its defaults, on hyper as
/// `McpServer::serve_http` uses it (HTTP/1.1, `TCP_NODELAY`, a task a connection).
async fn serve_rmcp_http(listener: tokio::net::TcpListener) {
    use toolgen::rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use toolgen::rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    let handler = RmcpTools::new();
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
    /// Sent with each request (for a server with authorization on).
    token: Option<&'static str>,
    session: String,
    body: Vec<u8>,
}

impl HttpClient {
    async fn new(address: SocketAddr, token: Option<&'static str>) -> Self {
        let stream = tokio::net::TcpStream::connect(address)
            .await
            .expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        let (reader, writer) = stream.into_split();
        let mut client = HttpClient {
            reader: BufReader::new(reader),
            writer,
            address,
            token,
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
        if let Some(token) = self.token {
            request.push_str("authorization: Bearer ");
            request.push_str(token);
            request.push_str("\r\n");
        }
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
    async fn call(&mut self, call: Call) {
        self.post(call.request).await;
        let answer = std::str::from_utf8(&self.body).unwrap_or_default();
        assert!(answer.contains(call.answer), "{answer}");
    }
}

/// The CPU time `pid` has used, in clock ticks (user and system).
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's name, in parentheses: utime and stime are the 12th and 13th fields.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// How a load is run: which call, by how many clients, with which token, for how long.
struct Load {
    call: Call,
    clients: usize,
    token: Option<&'static str>,
    time: Duration,
}

/// The clients of `load` calling the server at `address` (process `pid`): calls/s, median
/// and 99th percentile latency, server CPU microseconds per call.
fn load(
    runtime: &tokio::runtime::Runtime,
    address: SocketAddr,
    pid: u32,
    load: &Load,
) -> (f64, Duration, Duration, f64) {
    let (call, time) = (load.call, load.time);
    runtime.block_on(async {
        let mut connected = Vec::new();
        for _ in 0..load.clients {
            connected.push(HttpClient::new(address, load.token).await);
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
                        client.call(call).await;
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

/// The servers of the HTTP load, with their names and the token their clients send.
const SERVERS: [(&str, &str, Option<&str>); 3] = [
    ("http", "toolgen", None),
    ("http-rmcp", "rmcp", None),
    ("http-token", "toolgen, token", Some(TOKEN)),
];

/// The HTTP load, ours and rmcp's side by side, printed as a table.
fn http_load() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    println!("\nHTTP load (3 s each; server CPU per call from /proc, in 10 ms ticks):");
    println!("| tool | server | clients | calls/s | p50 | p99 | server CPU per call |");
    println!("|---|---|---|---|---|---|---|");
    for (tool, call) in [("add", ADD), ("search_orders", SEARCH)] {
        for clients in [8, 64] {
            for (kind, name, token) in SERVERS {
                let mut child = spawn_server(kind);
                let mut port = String::new();
                let stdout = child.stdout.as_mut().expect("piped");
                std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut port)
                    .expect("the server's address");
                let address: SocketAddr = port.trim().parse().expect("an address");
                let time = Duration::from_secs(3);
                let (call, pid) = (
                    Load {
                        call,
                        clients,
                        token,
                        time,
                    },
                    child.id(),
                );
                let (rate, p50, p99, cpu) = load(&runtime, address, pid, &call);
                println!(
                    "| {tool} | {name} | {clients} | {rate:.0} | {:.2} ms | {:.2} ms | {cpu:.1} µs |",
                    p50.as_secs_f64() * 1e3,
                    p99.as_secs_f64() * 1e3
                );
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

/// `count` calls of `call` with `client`.
fn calls_in_process<R, W>(
    runtime: &tokio::runtime::Runtime,
    mut client: Client<R, W>,
    call: Call,
    count: u32,
) where
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    runtime.block_on(async {
        for _ in 0..count {
            client.call(call).await;
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
    // `TOOLGEN_BENCH_MCP_SERVE=http`, `http-sse`, `http-token` or `http-rmcp`, under callgrind: the
    // difference of two N's, divided, is one call's instructions in the server). The call is
    // `add`, or `search_orders` with `TOOLGEN_BENCH_MCP_TOOL=search_orders`; the token is sent
    // with `TOOLGEN_BENCH_MCP_TOKEN=1`.
    if let Some(target) = std::env::var_os("TOOLGEN_BENCH_MCP_HTTP_CALLS") {
        let target = target.to_string_lossy().into_owned();
        let (address, count) = target.rsplit_once(':').expect("ADDRESS:N");
        let address: SocketAddr = address.parse().expect("an address");
        let count: usize = count.parse().expect("a count");
        let token = std::env::var_os("TOOLGEN_BENCH_MCP_TOKEN").map(|_| TOKEN);
        let call = chosen_call();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let mut tasks = Vec::new();
            for _ in 0..8 {
                let mut client = HttpClient::new(address, token).await;
                tasks.push(tokio::spawn(async move {
                    for _ in 0..count / 8 {
                        client.call(call).await;
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
    // under callgrind (the difference of two N's, divided, is one call's); of `add`, or of
    // `search_orders` with `TOOLGEN_BENCH_MCP_TOOL=search_orders`.
    if let Some(calls) = std::env::var_os("TOOLGEN_BENCH_MCP_CALLS") {
        let calls = calls.to_string_lossy().into_owned();
        let (kind, count) = calls.split_once(':').expect("KIND:N");
        let count: u32 = count.parse().expect("a count");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let call = chosen_call();
        if kind == "toolgen" {
            calls_in_process(&runtime, in_process(&runtime, server()), call, count);
        } else {
            calls_in_process(
                &runtime,
                in_process(&runtime, RmcpTools::new()),
                call,
                count,
            );
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
    if std::env::var_os("TOOLGEN_BENCH_MCP_LOAD").is_none_or(|load| load != "0") {
        http_load();
    }
}
