//! One OpenTelemetry trace across MCP (features `mcp` and `opentelemetry033`): a runner calls a
//! tool of an MCP server over streamable HTTP through an `McpToolset`; the runner's
//! `execute_tool` span, the toolset's client span and the server's span (and its own
//! `execute_tool`) share one trace id, the server's parent read from `params._meta.traceparent`.
//!
//! ```text
//! cargo run --example opentelemetry --features mcp,opentelemetry033
//! ```
//!
//! The spans go to OpenTelemetry's in-memory exporter and are printed; a service would set an
//! OTLP exporter on the same `SdkTracerProvider` instead.

use opentelemetry::trace::TracerProvider;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider};
use serde::Deserialize;
use toolgen::{
    Handler, Invocation, McpServer, McpToolset, Provider, Runner, Tool, ToolCall, ToolError,
    ToolSet,
};
use tracing_subscriber::layer::SubscriberExt;

/// Convert an amount between two currencies at today's rate.
#[derive(Tool, Deserialize)]
struct Convert {
    /// The amount to convert.
    amount: f64,
    /// ISO 4217 code of the amount's currency.
    from: String,
    /// ISO 4217 code of the currency wanted.
    to: String,
}

impl Handler<()> for Convert {
    type Output = String;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<String, ToolError> {
        Ok(format!(
            "{} {} = {:.2} {}",
            self.amount,
            self.from,
            self.amount * 0.92,
            self.to
        ))
    }
}

/// The MCP server's tools.
#[derive(ToolSet)]
enum Rates {
    Convert(Convert),
}

fn main() {
    // The W3C propagator: what the toolset writes into `_meta` and the server reads back.
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let subscriber = tracing_subscriber::registry()
        .with(tracing_opentelemetry::layer().with_tracer(provider.tracer("example")));

    tracing::subscriber::with_default(subscriber, || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a Tokio runtime");
        runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("a port on 127.0.0.1");
            let url = format!("http://{}/mcp", listener.local_addr().expect("its address"));
            let server = McpServer::new(Runner::<Rates, ()>::new(()), "rates", "1.0.0");
            tokio::spawn(server.serve_http(listener));

            let toolset = McpToolset::http(&url).await.expect("the server's tools");
            let mut runner = Runner::without_set(()).with_mcp(toolset.clone());
            let call = ToolCall::new("convert", r#"{"amount":100,"from":"USD","to":"EUR"}"#)
                .with_id("toolu_1");
            let turn = runner.run(Provider::Anthropic, &[call]).await;
            println!("result: {}\n", turn.results()[0].to_text());
            toolset.close().await;
            // The server's task ends its span once its answer is out.
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        });
    });

    provider.force_flush().expect("spans flushed");
    let mut spans = exporter.get_finished_spans().expect("the exported spans");
    spans.sort_by_key(|span| span.start_time);
    // toolgen's spans (rmcp's own, such as `serve_inner`, are exported too).
    let ours = |span: &&opentelemetry_sdk::trace::SpanData| {
        let keys = ["mcp.method.name", "gen_ai.operation.name"];
        (span.attributes.iter()).any(|kv| keys.contains(&kv.key.as_str()))
    };
    println!(
        "{:<24} {:<8} {:<32} {:<16} parent",
        "span", "kind", "trace", "id"
    );
    for span in spans.iter().filter(ours) {
        println!(
            "{:<24} {:<8} {:<32} {:<16} {}",
            span.name,
            format!("{:?}", span.span_kind),
            span.span_context.trace_id(),
            span.span_context.span_id(),
            span.parent_span_id
        );
    }
}
