//! An rmcp server written with rmcp's own `#[tool_router]` and `#[tool]`, whose parameters are
//! toolgen types (issue 54, feature `schemars1`): its `tools/list` gives each tool's input schema
//! as toolgen writes it (`Provider::Mcp`), to rmcp's client in process and to the official
//! Python SDK's over stdio, which calls a tool.

mod schemars_types;

mod python_sdk;

use std::collections::BTreeMap;

use pretty_assertions::assert_eq;
use schemars_types::{Inspect, PlanWork, Query};
use serde_json::Value;
use toolgen::rmcp::handler::server::wrapper::Parameters;
use toolgen::rmcp::{self, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use toolgen::{Provider, Tool};

/// The server: `#[tool_handler]` asks `Self::tool_router()` for the tools.
#[derive(Clone)]
struct Files;

#[tool_router]
impl Files {
    /// Look at a file.
    #[tool]
    async fn inspect(&self, Parameters(args): Parameters<Inspect>) -> String {
        let folder = args.file.parent.map_or(String::new(), |folder| folder.name);
        let steps = std::iter::successors(Some(&args.chain), |step| step.next.as_deref()).count();
        let headings = args.outline.len();
        format!(
            "{} in {folder}, {steps} steps, {headings} heading",
            args.file.name
        )
    }

    /// Plan the work.
    #[tool]
    async fn plan_work(&self, Parameters(args): Parameters<PlanWork>) -> String {
        args.title
    }

    /// A query that holds queries.
    #[tool]
    async fn query(&self, Parameters(args): Parameters<Query>) -> String {
        args.term
    }
}

#[tool_handler]
impl ServerHandler for Files {}

/// Each tool's input schema as toolgen writes it for MCP, by name.
fn expected() -> BTreeMap<&'static str, Value> {
    [
        (Inspect::NAME, Inspect::definition(Provider::Mcp)),
        (PlanWork::NAME, PlanWork::definition(Provider::Mcp)),
        (Query::NAME, Query::definition(Provider::Mcp)),
    ]
    .into_iter()
    .map(|(name, definition)| (name, definition["inputSchema"].clone()))
    .collect()
}

#[tokio::test]
async fn rmcp_lists_each_toolgen_type_as_toolgen_writes_it() {
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = Files.serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    let client = ().serve(client_side).await.expect("the client connects");
    let tools = client.list_all_tools().await.unwrap();
    let listed: BTreeMap<&str, Value> = tools
        .iter()
        .map(|tool| {
            let mut schema = Value::Object((*tool.input_schema).clone());
            let meta = schema.as_object_mut().and_then(|s| s.remove("$schema"));
            assert_eq!(
                meta.as_ref().and_then(Value::as_str),
                Some("https://json-schema.org/draft/2020-12/schema")
            );
            (tool.name.as_ref(), schema)
        })
        .collect();
    assert_eq!(listed, expected());
    let _ = client.cancel().await;
}

#[tokio::test]
async fn the_python_sdk_lists_and_calls_the_rmcp_server() {
    let Some(python) = python_sdk::python_with_mcp("client") else {
        return;
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/schemars_rmcp_client.py");
    let expected = serde_json::to_string(&expected()).unwrap();
    python_sdk::serve_client(Files, &python, &[script, &expected]).await;
}
