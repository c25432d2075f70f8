//! The runner's calls in `tracing` spans (feature `tracing01`), printed by tracing-subscriber's
//! formatter: one `execute_tool` span per call with OpenTelemetry's GenAI attributes, and events
//! for an argument error (with its JSON path) and a timeout.
//!
//! ```text
//! cargo run --example tracing --features tracing01
//! ```
//!
//! A service would export the same spans with tracing-opentelemetry (and, with `mcp` and
//! `opentelemetry033`, carry their trace context across MCP: README, "Tracing").

use std::time::Duration;

use serde::Deserialize;
use serde_json::json;
use toolgen::{Handler, Invocation, Provider, Runner, Tool, ToolCall, ToolError, ToolSet};
use tracing_subscriber::fmt::format::FmtSpan;

/// Look up a user's open tickets.
#[derive(Tool, Deserialize)]
struct OpenTickets {
    /// The user's login.
    user: String,
    /// How many tickets to return at most.
    #[tool(range(min = 1, max = 50))]
    limit: u32,
}

impl Handler<()> for OpenTickets {
    type Output = String;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<String, ToolError> {
        Ok(format!(
            "{} has 3 open tickets (showing {})",
            self.user,
            self.limit.min(3)
        ))
    }
}

/// Rebuild the search index (slow).
#[derive(Tool, Deserialize)]
#[tool(timeout = "200ms")]
struct Reindex {}

impl Handler<()> for Reindex {
    type Output = &'static str;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> {
        tokio::time::sleep(Duration::from_secs(5)).await;
        Ok("reindexed")
    }
}

#[derive(ToolSet)]
enum Tools {
    OpenTickets(OpenTickets),
    Reindex(Reindex),
}

fn main() {
    // Spans are printed when they close, with their fields (the GenAI attributes) and timing.
    tracing_subscriber::fmt()
        .with_span_events(FmtSpan::CLOSE)
        .with_target(false)
        .without_time()
        .init();

    let calls = [
        ToolCall::new(
            "open_tickets",
            json!({"user": "ada", "limit": 10}).to_string(),
        )
        .with_id("toolu_1"),
        // Out of range: the model reads the error; the event has the path (`limit`), not
        // the value (values are recorded only with `Runner::trace_values(true)`).
        ToolCall::new(
            "open_tickets",
            json!({"user": "ada", "limit": 500}).to_string(),
        )
        .with_id("toolu_2"),
        ToolCall::new("reindex", "{}").with_id("toolu_3"),
    ];
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a Tokio runtime");
    let turn = runtime.block_on(async {
        let mut runner = Runner::<Tools, ()>::new(());
        runner.run(Provider::Anthropic, &calls).await
    });
    for result in turn.results() {
        println!("{}", result.to_text());
    }
}
