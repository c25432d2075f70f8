//! An agent that uses the tools of an MCP server: the content agent's server
//! (`examples/mcp_server.rs`) started as a child process, its nine tools offered beside this
//! program's own `current_time` with an `McpToolset`, and a turn of every provider's recorded
//! response (`examples/recorded/`) run through the `Runner`, each call forwarded to the server,
//! offline (toolgen's feature `mcp`).
//!
//! Run: `cargo run --features mcp --example mcp_client`. The server is the `mcp_server` example
//! built beside this one (`cargo build --features mcp --examples`), or else `cargo run` starts
//! it. Its `search_web` calls an API that never answers: the toolset's timeout (1 s here) gives
//! the model an error result, and the server is sent `notifications/cancelled`.

use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;
use toolgen::{
    Handler, Invocation, McpToolset, Provider, Runner, Tool, ToolCall, ToolError, ToolSet,
};

/// The recorded response of each provider, as its API returned it.
const RECORDED: [(Provider, &str); 5] = [
    (Provider::Anthropic, include_str!("recorded/anthropic.json")),
    (
        Provider::OpenAiChat,
        include_str!("recorded/openai_chat.json"),
    ),
    (
        Provider::OpenAiResponses,
        include_str!("recorded/openai_responses.json"),
    ),
    (Provider::Gemini, include_str!("recorded/gemini.json")),
    (Provider::Mcp, include_str!("recorded/mcp.json")),
];

/// Say what time it is (this program's own tool, beside the server's).
#[derive(Tool, Deserialize)]
struct CurrentTime {}

impl Handler<()> for CurrentTime {
    type Output = &'static str;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> {
        Ok("2026-02-08T14:30:00Z")
    }
}

#[derive(ToolSet)]
enum Own {
    CurrentTime(CurrentTime),
}

/// The command that starts the content agent's MCP server: the `mcp_server` example beside
/// this one, else `cargo run`.
fn server_command() -> tokio::process::Command {
    let built = std::env::current_exe().ok().and_then(|exe| {
        let sibling = exe.with_file_name(format!("mcp_server{}", std::env::consts::EXE_SUFFIX));
        sibling.is_file().then_some(sibling)
    });
    match built {
        Some(server) => tokio::process::Command::new(server),
        None => {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
            let mut command = tokio::process::Command::new(cargo);
            command.args(["run", "-q", "--features", "mcp", "--example", "mcp_server"]);
            command.current_dir(env!("CARGO_MANIFEST_DIR"));
            command
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let ghostpen = McpToolset::stdio(server_command())
            .await?
            .timeout(Duration::from_secs(1));
        let names: Vec<String> = ghostpen
            .tools()
            .iter()
            .map(|t| t.name().to_owned())
            .collect();
        println!(
            "connected to `{}`: {} tools ({})",
            ghostpen.server_name(),
            names.len(),
            names.join(", ")
        );
        let mut runner = Runner::<Own, ()>::new(()).with_mcp(ghostpen.clone());
        for (provider, recorded) in RECORDED {
            println!("== {provider}");
            let definitions = runner.definitions(provider);
            let count = definitions.as_array().map_or(0, Vec::len);
            println!("-> {count} tool definitions");
            let response: Value = serde_json::from_str(recorded)?;
            let calls = ToolCall::parse(provider, &response)?;
            let turn = runner.run(provider, &calls).await;
            for message in turn.next_messages(&response)? {
                println!("<- {}", serde_json::to_string_pretty(&message)?);
            }
            println!();
        }
        ghostpen.close().await;
        Ok(())
    })
}
