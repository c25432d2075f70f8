//! The MCP server (feature `mcp`): `tools/call` of a trivial tool through rmcp and toolgen's
//! `McpServer`, over an in-process transport (`tokio::io::duplex`), one request and its answer
//! per iteration; beside it, the same call through `run_call` alone, so the ratio is what the
//! protocol layer adds. Requests per second are 1 / the time per iteration.
//!
//! Run with `cargo bench --features mcp --bench mcp -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
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

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    let server = McpServer::new(Runner::<Tools, ()>::new(()), "bench", "0");
    runtime.spawn(async move {
        if let Ok(running) = server.serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    let (reader, mut writer) = tokio::io::split(client_side);
    let mut reader = BufReader::new(reader);
    let mut line = String::new();
    runtime.block_on(async {
        let init = concat!(
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","#,
            r#""capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            "\n"
        );
        writer.write_all(init.as_bytes()).await.expect("write");
        reader.read_line(&mut line).await.expect("read");
    });
    let request = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"add\",\"arguments\":{\"a\":2,\"b\":3}}}\n";
    let mut group = c.benchmark_group("mcp");
    group.bench_function("tools_call_in_process", |b| {
        b.iter(|| {
            runtime.block_on(async {
                writer.write_all(request.as_bytes()).await.expect("write");
                line.clear();
                reader.read_line(&mut line).await.expect("read");
                black_box(line.len())
            })
        })
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
criterion_main!(benches);
