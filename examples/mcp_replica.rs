//! One replica of an MCP server run as several processes behind a load balancer (README,
//! "Several processes behind a load balancer"): two tools, `add` and `wait`, each answering with
//! the id of the replica that ran it, served over streamable HTTP at `/mcp`.
//!
//! Run: `cargo run --features mcp --example mcp_replica -- --id r1 --http 127.0.0.1:9001`. Port
//! 0 takes a free one; the address served is the one line the replica prints on stdout.
//! `examples/replicas/haproxy.cfg` is a load balancer's configuration for such replicas;
//! `tests/mcp_replicas.rs` and `benches/replicas.sh` run them behind it.

use serde::{Deserialize, Serialize};
use toolgen::{
    Handler, HttpOptions, Invocation, McpServer, Runner, Tool, ToolError, ToolSchema, ToolSet,
};

/// The replica: its id, as each answer names it.
pub struct Replica {
    pub id: String,
}

/// What a tool of the replica answers: its value, and which replica gave it.
#[derive(Serialize, ToolSchema)]
pub struct Answer {
    value: i64,
    /// The id of the replica that ran the call.
    replica: String,
}

/// Add two numbers.
#[derive(Tool, Deserialize)]
pub struct Add {
    a: i64,
    b: i64,
}

impl Handler<Replica> for Add {
    type Output = Answer;
    async fn handle(self, replica: &Replica, _: &Invocation<'_>) -> Result<Answer, ToolError> {
        Ok(Answer {
            value: self.a.wrapping_add(self.b),
            replica: replica.id.clone(),
        })
    }
}

/// Wait a number of milliseconds, then answer it (a stand-in for a slow tool).
#[derive(Tool, Deserialize)]
pub struct Wait {
    #[tool(range(max = 60_000))]
    ms: u64,
}

impl Handler<Replica> for Wait {
    type Output = Answer;
    async fn handle(self, replica: &Replica, call: &Invocation<'_>) -> Result<Answer, ToolError> {
        tokio::select! {
            () = tokio::time::sleep(std::time::Duration::from_millis(self.ms)) => {}
            () = call.cancelled() => return Err(ToolError::new("cancelled")),
        }
        Ok(Answer {
            value: i64::try_from(self.ms).unwrap_or(i64::MAX),
            replica: replica.id.clone(),
        })
    }
}

#[derive(ToolSet)]
pub enum Tools {
    Add(Add),
    Wait(Wait),
}

/// Serves the replica `id` on `address` (`host:port`) until the process ends, on one thread:
/// N replicas are N processes, each on a core of its own where the machine has them. The
/// address served is printed on stdout once bound.
pub fn serve(id: &str, address: &str) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(address).await?;
        println!("{}", listener.local_addr()?);
        let replica = Replica { id: id.to_owned() };
        let server = McpServer::new(Runner::<Tools, Replica>::new(replica), "replica", "1.0.0");
        // Behind a load balancer the `Host` a client sends is the balancer's: allow it, or
        // have the balancer set it (`http-request set-header host`).
        let options = HttpOptions::default();
        server.serve_http_with(listener, &options).await?;
        Ok(())
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [id_flag, id, http_flag, address] if id_flag == "--id" && http_flag == "--http" => {
            serve(id, address)
        }
        _ => Err("usage: mcp_replica --id ID --http ADDRESS:PORT".into()),
    }
}
