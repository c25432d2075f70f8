//! The MCP server (feature `mcp`): `tools/call` of a trivial tool through rmcp and toolgen's
//! `McpServer`, over an in-process transport (`tokio::io::duplex`), one request and its answer
//! per iteration; beside it, the same call through `run_call` alone, so the ratio is what the
//! protocol layer adds; and over stdio, to a server in another process (this bench binary, run
//! again as the server), so the difference from the in-process time is what stdio adds per call.
//! Requests per second are 1 / the time per iteration.
//!
//! Run with `cargo bench --features mcp --bench mcp -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group};
use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use toolgen::rmcp::ServiceExt;
use toolgen::{
    Cancellation, Handler, Invocation, McpServer, Provider, Runner, Tool, ToolCall, ToolError,
    ToolSet, run_call,
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

#[derive(ToolSet)]
enum Tools {
    Add(Add),
}

/// Set in the server process the stdio bench spawns.
const SERVE: &str = "TOOLGEN_BENCH_MCP_SERVE";

fn server() -> McpServer<Tools, ()> {
    McpServer::new(Runner::<Tools, ()>::new(()), "bench", "0")
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
        let request = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"add\",\"arguments\":{\"a\":2,\"b\":3}}}\n";
        self.writer
            .write_all(request.as_bytes())
            .await
            .expect("write");
        self.writer.flush().await.expect("flush");
        self.line.clear();
        self.reader.read_line(&mut self.line).await.expect("read");
        assert!(self.line.contains(r#""text":"5""#), "{}", self.line);
        self.line.len()
    }
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    runtime.spawn(async move {
        if let Ok(running) = server().serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    let (reader, writer) = tokio::io::split(client_side);
    let mut client = runtime.block_on(Client::new(reader, writer));
    let mut group = c.benchmark_group("mcp");
    group.bench_function("tools_call_in_process", |b| {
        b.iter(|| runtime.block_on(async { black_box(client.call().await) }))
    });
    let mut command = tokio::process::Command::new(std::env::current_exe().expect("this bench"));
    command
        .env(SERVE, "1")
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
}

criterion_group!(benches, bench);

fn main() {
    // Run again by the stdio bench: be the server on stdin and stdout.
    if std::env::var_os(SERVE).is_some() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            if let Ok(running) = server().serve(toolgen::rmcp::transport::stdio()).await {
                let _ = running.waiting().await;
            }
        });
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
