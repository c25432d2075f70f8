//! What `McpToolset` adds to a call of an MCP server's tool (feature `mcp`): a trivial tool of
//! toolgen's own server, in this process over `tokio::io::duplex`, called
//! - directly with rmcp's client (`Peer::call_tool`), the floor;
//! - as a model's call in a `Runner` turn, forwarded by an `McpToolset` (the arguments checked
//!   against the tool's schema, the request with its progress token, the result mapped back
//!   into a `ToolResult` and rendered in the turn's messages), and the schema check alone;
//! - as a call of the set's own tool in a `Runner` turn, which the runner's own work costs.
//!
//! Run with `cargo bench --features mcp --bench mcp_client -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde::Deserialize;
use serde_json::json;
use toolgen::rmcp::ServiceExt;
use toolgen::rmcp::model::CallToolRequestParams;
use toolgen::{
    Handler, Invocation, McpServer, McpToolset, Provider, Runner, Tool, ToolCall, ToolError,
    ToolSet,
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

/// A toolgen server in a task of `runtime`; the client's end of its pipe.
fn served(runtime: &tokio::runtime::Runtime) -> tokio::io::DuplexStream {
    let server = McpServer::new(Runner::<Tools, ()>::new(()), "bench", "0");
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    runtime.spawn(async move {
        if let Ok(running) = server.serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    client_side
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let direct = runtime
        .block_on(().serve(served(&runtime)))
        .expect("rmcp's client connects");
    let toolset = runtime
        .block_on(McpToolset::connect(served(&runtime)))
        .expect("the toolset connects")
        .prefix("remote_");
    let mut runner = Runner::<Tools, ()>::new(()).with_mcp(toolset);
    let arguments = json!({"a": 2, "b": 3});
    let arguments = arguments.as_object().cloned().unwrap_or_default();
    let forwarded = [ToolCall::new("remote_add", r#"{"a":2,"b":3}"#).with_id("1")];
    let local = [ToolCall::new("add", r#"{"a":2,"b":3}"#).with_id("1")];

    let mut group = c.benchmark_group("mcp_client");
    group.bench_function("rmcp_call_tool", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let params = CallToolRequestParams::new("add").with_arguments(arguments.clone());
                black_box(direct.call_tool(params).await.expect("a result"))
            })
        })
    });
    group.bench_function("runner_forwarded_call", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let turn = runner
                    .run(Provider::OpenAiChat, black_box(&forwarded))
                    .await;
                black_box(turn.messages())
            })
        })
    });
    group.bench_function("runner_own_call", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let turn = runner.run(Provider::OpenAiChat, black_box(&local)).await;
                black_box(turn.messages())
            })
        })
    });
    // Parts of the forwarded call's own work.
    let tools = McpToolset::tools(
        &runtime
            .block_on(McpToolset::connect(served(&runtime)))
            .expect("the toolset connects"),
    );
    let add = &tools[0];
    group.bench_function("dynamic_parse_args", |b| {
        b.iter(|| black_box(add.parse_args(black_box(r#"{"a":2,"b":3}"#))))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
