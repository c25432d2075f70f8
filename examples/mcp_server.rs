//! The content agent of seed 002 as an MCP server: its nine tools, with the handlers of
//! `examples/content_agent.rs`, served with rmcp over toolgen's stdio transport (toolgen's
//! feature `mcp`).
//!
//! Run: `cargo run --features mcp --example mcp_server` (it then waits for an MCP client on
//! stdin), or `cargo run --features mcp --example mcp_server -- --http 127.0.0.1:8080` to serve
//! streamable HTTP at `http://127.0.0.1:8080/mcp`. The README shows how to register it in a
//! client's configuration. The data folder is a fresh temporary one with seed 002's two style
//! profiles; Notion is not configured.

#[allow(dead_code)]
#[path = "content_agent.rs"]
mod content_agent;

use content_agent::{Agent, data_folder};
use toolgen::{McpServer, Runner};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let data = data_folder()?;
    let agent = Agent {
        data: data.clone(),
        notion_token: std::env::var("NOTION_TOKEN").ok(),
        now: "2026-02-08T14:30:00Z",
    };
    let runner =
        Runner::<content_agent::seed_tools::ghostpen::Tools, Agent>::new(agent).concurrency(4);
    let server = McpServer::new(runner, "ghostpen", env!("CARGO_PKG_VERSION"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let http = match std::env::args().skip(1).collect::<Vec<_>>().as_slice() {
        [] => None,
        [flag, address] if flag == "--http" => Some(address.clone()),
        _ => return Err("usage: mcp_server [--http ADDRESS:PORT]".into()),
    };
    let outcome = runtime.block_on(async {
        match http {
            Some(address) => {
                let listener = tokio::net::TcpListener::bind(&address).await?;
                eprintln!("serving MCP at http://{}/mcp", listener.local_addr()?);
                server.serve_http(listener).await?;
            }
            None => {
                // toolgen's stdio transport: a line that is not a message is answered.
                let running = server.serve(toolgen::mcp_stdio()).await?;
                running.waiting().await?;
            }
        }
        Ok::<_, Box<dyn std::error::Error>>(())
    });
    let _ = std::fs::remove_dir_all(&data);
    outcome
}
