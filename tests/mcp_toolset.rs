//! `McpToolset` (feature `mcp`): the tools of MCP servers offered in a `Runner` beside a set's
//! own, each call forwarded. Against toolgen's own server (in process, over a duplex pipe) and
//! against a server written with the official Python SDK (`tests/mcp_toolset_server.py`, a
//! child process over stdio, where Python has the SDK): listing every page, each result kind,
//! errors, timeouts reaching the server as `notifications/cancelled`, progress, list changes,
//! a server that ends mid-call; and a gateway (`McpServer` over a runner of MCP tools).

#![cfg(feature = "mcp")]

mod python_sdk;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::rmcp::ServiceExt;
use toolgen::rmcp::model::{CallToolRequestParams, ProgressNotificationParam};
use toolgen::{
    Handler, Invocation, McpServer, McpToolset, Progress, Provider, Runner, Tool, ToolCall,
    ToolError, ToolResult, ToolSchema, ToolSet, ToolSwitch,
};

/// The remote server's context: its switch, and how many calls saw their cancellation.
struct Lab {
    switch: ToolSwitch,
    stopped: Arc<AtomicUsize>,
}

/// Add two numbers.
#[derive(Tool, Deserialize)]
#[tool(title = "Add two numbers", read_only)]
struct Add {
    a: i64,
    b: i64,
}

/// A sum.
#[derive(serde::Serialize, ToolSchema)]
struct Sum {
    sum: i64,
}

impl Handler<Lab> for Add {
    type Output = Sum;
    async fn handle(self, _: &Lab, _: &Invocation<'_>) -> Result<Sum, ToolError> {
        Ok(Sum {
            sum: self.a + self.b,
        })
    }
}

/// Draw a picture.
#[derive(Tool, Deserialize)]
struct Picture {}

impl Handler<Lab> for Picture {
    type Output = ToolResult;
    async fn handle(self, _: &Lab, _: &Invocation<'_>) -> Result<ToolResult, ToolError> {
        Ok(ToolResult::text("a picture")
            .with_image("iVBORw0KGgo=", "image/png")
            .with_file("JVBERi0=", "application/pdf", Some("report.pdf")))
    }
}

/// Always fails.
#[derive(Tool, Deserialize)]
struct Fail {}

impl Handler<Lab> for Fail {
    type Output = String;
    async fn handle(self, _: &Lab, _: &Invocation<'_>) -> Result<String, ToolError> {
        Err(ToolError::json(json!({"error": "broken"})))
    }
}

/// Count, reporting each step.
#[derive(Tool, Deserialize)]
struct Count {
    to: u32,
}

impl Handler<Lab> for Count {
    type Output = String;
    async fn handle(self, _: &Lab, call: &Invocation<'_>) -> Result<String, ToolError> {
        for done in 1..=self.to {
            let step = Progress::new(done.into()).total(self.to.into());
            call.progress(step.message(format!("counted {done}")));
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        Ok(format!("counted to {}", self.to))
    }
}

/// Wait until cancelled.
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

/// Add the secret tool.
#[derive(Tool, Deserialize)]
struct Unlock {}

impl Handler<Lab> for Unlock {
    type Output = &'static str;
    async fn handle(self, lab: &Lab, _: &Invocation<'_>) -> Result<&'static str, ToolError> {
        lab.switch.enable("secret");
        Ok("unlocked")
    }
}

/// Tell the secret.
#[derive(Tool, Deserialize)]
struct Secret {}

impl Handler<Lab> for Secret {
    type Output = &'static str;
    async fn handle(self, _: &Lab, _: &Invocation<'_>) -> Result<&'static str, ToolError> {
        Ok("the secret is 42")
    }
}

/// Tag a post (a map: OpenAI's strict dialect cannot take it).
#[derive(Tool, Deserialize)]
struct Tag {
    tags: std::collections::HashMap<String, String>,
}

impl Handler<Lab> for Tag {
    type Output = usize;
    async fn handle(self, _: &Lab, _: &Invocation<'_>) -> Result<usize, ToolError> {
        Ok(self.tags.len())
    }
}

#[derive(ToolSet)]
enum Remote {
    Tag(Tag),
    Add(Add),
    Picture(Picture),
    Fail(Fail),
    Count(Count),
    Hang(Hang),
    Unlock(Unlock),
    Secret(Secret),
}

/// The local set, beside the remote tools: its own `add`, whose name the remote one shares.
#[derive(ToolSet)]
enum Local {
    Add(LocalAdd),
}

/// Add two numbers here.
#[derive(Tool, Deserialize)]
#[tool(name = "add")]
struct LocalAdd {
    a: i64,
    b: i64,
}

impl Handler<()> for LocalAdd {
    type Output = i64;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<i64, ToolError> {
        Ok(self.a + self.b + 1000)
    }
}

/// The remote server served in a task of this process over a duplex pipe (pages of 2 tools);
/// the toolset connected to it, the task that relays their bytes (aborted, the connection is
/// gone as when a server process dies), and the server's count of stopped calls.
async fn remote() -> (McpToolset, tokio::task::JoinHandle<()>, Arc<AtomicUsize>) {
    let switch = ToolSwitch::new();
    switch.disable("secret");
    let stopped = Arc::new(AtomicUsize::new(0));
    let lab = Lab {
        switch: switch.clone(),
        stopped: Arc::clone(&stopped),
    };
    let server = McpServer::new(Runner::<Remote, Lab>::new(lab), "lab", "1.0.0")
        .with_switch(switch)
        .page_size(2);
    let (server_side, mut relay_to_server) = tokio::io::duplex(1 << 16);
    let (mut relay_to_client, client_side) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    let relay = tokio::spawn(async move {
        let _ = tokio::io::copy_bidirectional(&mut relay_to_server, &mut relay_to_client).await;
    });
    let toolset = McpToolset::connect(client_side).await.unwrap();
    (toolset, relay, stopped)
}

/// Waits (5 s at most) until `done` holds.
async fn eventually(what: &str, done: impl Fn() -> bool) {
    for _ in 0..500 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("not within 5 s: {what}");
}

fn texts(results: &[ToolResult]) -> Vec<String> {
    results.iter().map(|r| r.to_text().into_owned()).collect()
}

#[tokio::test]
async fn our_server_tools_run_beside_the_sets() {
    let (toolset, _task, stopped) = remote().await;
    assert_eq!(toolset.server_name(), "lab");
    let toolset = toolset.prefix("lab_").deny(&["count", "tag"]);
    // Every page (2 tools each); `secret` is off, `count` denied.
    let names: Vec<String> = toolset
        .tools()
        .iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert_eq!(
        names,
        [
            "lab_add",
            "lab_picture",
            "lab_fail",
            "lab_hang",
            "lab_unlock"
        ]
    );
    assert!(toolset.problems().is_empty());
    let mut runner = Runner::<Local, ()>::new(())
        .timeout(Duration::from_millis(300))
        .with_mcp(toolset.clone());

    // Title, annotations and the output schema carried over, in the MCP definitions.
    let definitions = runner.definitions(Provider::Mcp);
    let add = &definitions[1];
    assert_eq!(add["name"], "lab_add");
    assert_eq!(add["title"], "Add two numbers");
    assert_eq!(add["annotations"]["readOnlyHint"], true);
    assert_eq!(add["outputSchema"]["properties"]["sum"]["type"], "integer");
    let anthropic = runner.definitions(Provider::Anthropic);
    assert_eq!(anthropic.as_array().unwrap().len(), 6);
    assert_eq!(anthropic[1]["input_schema"]["required"], json!(["a", "b"]));

    let calls = [
        ToolCall::new("add", r#"{"a": 2, "b": 3}"#).with_id("1"),
        ToolCall::new("lab_add", r#"{"a": 2, "b": 3}"#).with_id("2"),
        ToolCall::new("lab_add", r#"{"a": "two", "b": 3}"#).with_id("3"),
        ToolCall::new("lab_picture", "{}").with_id("4"),
        ToolCall::new("lab_fail", "{}").with_id("5"),
        ToolCall::new("lab_hang", "{}").with_id("6"),
        ToolCall::new("lab_count", r#"{"to": 1}"#).with_id("7"),
    ];
    let turn = runner.run(Provider::Anthropic, &calls).await;
    let results = turn.results();
    assert_eq!(
        texts(results),
        [
            "1005",
            r#"{"sum":5}"#,
            "invalid arguments at `a`: invalid type: string \"two\", expected an integer",
            "a picture",
            r#"{"error":"broken"}"#,
            "the tool `lab_hang` timed out after 300ms",
            "invalid arguments: unknown tool `lab_count`; the tools are `add`, `lab_add`, \
             `lab_picture`, `lab_fail`, `lab_hang`, `lab_unlock`",
        ]
    );
    assert_eq!(results[1].as_json(), Some(&json!({"sum": 5})));
    let errors: Vec<bool> = results.iter().map(ToolResult::is_error).collect();
    assert_eq!(errors, [false, false, true, false, true, true, true]);
    let picture: Vec<_> = results[3]
        .attachments()
        .iter()
        .map(|a| (a.is_image(), a.media_type().to_owned(), a.data().to_owned()))
        .collect();
    assert_eq!(
        picture,
        [
            (true, "image/png".to_owned(), "iVBORw0KGgo=".to_owned()),
            (false, "application/pdf".to_owned(), "JVBERi0=".to_owned())
        ]
    );
    // Anthropic's rendering of the forwarded result: the image block, the PDF document.
    let rendered = results[3].render(Provider::Anthropic, &calls[3]);
    assert_eq!(rendered["content"][1]["type"], "image");
    assert_eq!(rendered["content"][2]["type"], "document");
    // The timeout reached the server as `notifications/cancelled`: its handler stopped.
    eventually("the server's handler saw the cancellation", || {
        stopped.load(Ordering::SeqCst) == 1
    })
    .await;

    // The list changes: the runner lists again before its next turn.
    let unlock = [ToolCall::new("lab_unlock", "{}").with_id("8")];
    let turn = runner.run(Provider::Anthropic, &unlock).await;
    assert_eq!(turn.results()[0].to_text(), "unlocked");
    eventually("told of the change", || toolset.list_changed()).await;
    let secret = [ToolCall::new("lab_secret", "{}").with_id("9")];
    let turn = runner.run(Provider::Anthropic, &secret).await;
    assert_eq!(turn.results()[0].to_text(), "the secret is 42");
    assert_eq!(
        runner
            .definitions(Provider::Anthropic)
            .as_array()
            .unwrap()
            .len(),
        7
    );
}

/// A runner of an MCP server's tools alone (no tool set of its own): it offers them and runs
/// their calls, and serves them on as a gateway.
#[tokio::test]
async fn a_runner_of_an_mcp_servers_tools_alone() {
    let (toolset, _task, _) = remote().await;
    let mut runner = Runner::without_set(()).with_mcp(toolset.allow(&["add", "fail"]));
    let names: Vec<Value> = (runner.definitions(Provider::OpenAiChat).as_array().unwrap())
        .iter()
        .map(|definition| definition["function"]["name"].clone())
        .collect();
    assert_eq!(names, [json!("add"), json!("fail")]);
    let calls = [
        ToolCall::new("add", r#"{"a": 2, "b": 3}"#).with_id("1"),
        ToolCall::new("fail", "{}").with_id("2"),
        ToolCall::new("count", r#"{"to": 1}"#).with_id("3"),
    ];
    let turn = runner.run(Provider::OpenAiChat, &calls).await;
    assert_eq!(
        texts(turn.results()),
        [
            r#"{"sum":5}"#,
            r#"{"error":"broken"}"#,
            "invalid arguments: unknown tool `count`; the tools are `add`, `fail`",
        ]
    );

    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    let gateway = McpServer::new(runner, "gateway", "1.0.0");
    tokio::spawn(async move {
        if let Ok(running) = gateway.serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    let client = ().serve(client_side).await.unwrap();
    let sum = client
        .call_tool(call("add", json!({"a": 1, "b": 2})))
        .await
        .unwrap();
    assert_eq!(sum.structured_content, Some(json!({"sum": 3})));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn allow_keeps_only_the_named_tools_and_strict_says_why_not() {
    let (toolset, _task, _) = remote().await;
    let toolset = toolset.allow(&["add", "hang", "tag"]).strict();
    let tools = toolset.tools();
    let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    assert_eq!(names, ["tag", "add", "hang"]);
    // Strict where the schema allows: `add`'s schema fits OpenAI's strict dialect; `tag`'s
    // does not, so it is offered non-strict, and the toolset says why.
    let strict =
        |index: usize| tools[index].definition(Provider::OpenAiChat)["function"]["strict"].clone();
    assert_eq!((strict(0), strict(1)), (json!(false), json!(true)));
    let problems = toolset.problems();
    assert_eq!(problems.len(), 1);
    assert_eq!(
        (problems[0].tool.as_str(), problems[0].offered),
        ("tag", true)
    );
    assert!(
        problems[0].reason.contains("cannot take a map"),
        "{}",
        problems[0].reason
    );

    // A turn's future can be spawned: it is `Send`.
    fn send<T: Send>(_: &T) {}
    let mut runner = Runner::<Local, ()>::new(()).with_mcp(toolset);
    let calls = [ToolCall::new("tag", r#"{"tags": {"a": "b"}}"#).with_id("1")];
    let turn = runner.run(Provider::OpenAiChat, &calls);
    send(&turn);
    assert_eq!(turn.await.results()[0].to_text(), "1");
}

#[tokio::test]
async fn a_servers_tools_can_need_approval() {
    let (toolset, _task, _) = remote().await;
    let toolset = toolset.prefix("lab_").require_approval(&["add"]);
    let needing: Vec<bool> = toolset.tools().iter().map(|t| t.needs_approval()).collect();
    assert_eq!(needing, [false, true, false, false, false, false, false]);
    let mut runner = Runner::<Local, ()>::new(()).with_mcp(toolset);
    let calls = [
        ToolCall::new("lab_add", r#"{"a": 2, "b": 3}"#).with_id("1"),
        ToolCall::new("lab_fail", "{}").with_id("2"),
    ];
    let turn = runner.run(Provider::Anthropic, &calls).await;
    assert_eq!(turn.held().len(), 1);
    let held = &turn.held()[0];
    assert_eq!((held.index(), held.name()), (0, "lab_add"));
    assert_eq!(held.arguments(), &json!({"a": 2, "b": 3}));
    // The annotations as the server listed them.
    assert_eq!(held.annotations().unwrap()["readOnlyHint"], true);
    assert_eq!(turn.results()[1].to_text(), r#"{"error":"broken"}"#);
    let mut pending = turn.pending().unwrap();
    pending.approve(0).unwrap();
    let turn = runner.resume(&pending).await.unwrap();
    assert_eq!(
        texts(turn.results()),
        [r#"{"sum":5}"#, r#"{"error":"broken"}"#]
    );
}

#[tokio::test]
async fn a_server_that_ends_mid_call_gives_error_results() {
    let (toolset, relay, _) = remote().await;
    let mut runner = Runner::<Local, ()>::new(()).with_mcp(toolset.prefix("lab_"));
    let calls = [ToolCall::new("lab_hang", "{}").with_id("1")];
    let abort = async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        relay.abort();
    };
    let (turn, ()) = tokio::join!(runner.run(Provider::OpenAiChat, &calls), abort);
    assert!(turn.results()[0].is_error());
    assert_eq!(
        turn.results()[0].to_text(),
        "the MCP server `lab` closed the connection while `hang` ran"
    );
    // And later calls say so at once.
    let started = std::time::Instant::now();
    let turn = runner.run(Provider::OpenAiChat, &calls).await;
    assert!(turn.results()[0].is_error());
    assert!(started.elapsed() < Duration::from_secs(2));
}

/// A client of a gateway that hears its progress reports.
struct Listener {
    progress: tokio::sync::mpsc::UnboundedSender<ProgressNotificationParam>,
}

impl toolgen::rmcp::ClientHandler for Listener {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _: toolgen::rmcp::service::NotificationContext<toolgen::rmcp::RoleClient>,
    ) {
        let _ = self.progress.send(params);
    }
}

fn call(name: &str, arguments: Value) -> CallToolRequestParams {
    let params = CallToolRequestParams::new(name.to_owned());
    match arguments {
        Value::Object(arguments) => params.with_arguments(arguments),
        _ => params,
    }
}

/// A gateway with no tool set of its own: its type is `McpServer`, no parameters named.
fn gateway_of(toolset: McpToolset) -> McpServer {
    McpServer::new(
        Runner::without_set(()).with_mcp(toolset),
        "gateway",
        "1.0.0",
    )
}

#[tokio::test]
async fn a_gateway_without_a_set_of_its_own_serves_its_servers_tools() {
    let (first, _first_task, _) = remote().await;
    let gateway = gateway_of(first.prefix("one_").allow(&["add", "count"]));
    let tools = gateway.tools();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["one_add", "one_count"]);
}

#[tokio::test]
async fn a_gateway_serves_the_tools_of_several_servers() {
    let (first, _first_task, first_stopped) = remote().await;
    let (second, _second_task, _) = remote().await;
    let runner = Runner::<Local, ()>::new(())
        .with_mcp(
            first
                .prefix("one_")
                .allow(&["add", "count", "picture", "hang"]),
        )
        .with_mcp(second.prefix("two_").allow(&["add"]));
    let gateway = McpServer::new(runner, "gateway", "1.0.0");
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = gateway.serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    let (progress, mut progressed) = tokio::sync::mpsc::unbounded_channel();
    let client = Listener { progress }.serve(client_side).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "add",
            "one_add",
            "one_picture",
            "one_count",
            "one_hang",
            "two_add"
        ]
    );
    assert_eq!(tools[1].title.as_deref(), Some("Add two numbers"));
    assert!(tools[1].output_schema.is_some());

    let sum = client
        .call_tool(call("two_add", json!({"a": 1, "b": 2})))
        .await
        .unwrap();
    assert_eq!(sum.structured_content, Some(json!({"sum": 3})));
    let picture = client
        .call_tool(call("one_picture", json!({})))
        .await
        .unwrap();
    let kinds: Vec<Value> = picture
        .content
        .iter()
        .map(|block| serde_json::to_value(block).unwrap()["type"].clone())
        .collect();
    assert_eq!(kinds, [json!("text"), json!("image"), json!("resource")]);
    // The remote server's progress, through the gateway's runner, to the gateway's client.
    let counted = client
        .call_tool(call("one_count", json!({"to": 3})))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&counted.content[0]).unwrap()["text"],
        "counted to 3"
    );
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

    // The gateway's client cancels a call: the gateway cancels its forwarded call in turn, and
    // the remote server's handler stops.
    let request = toolgen::rmcp::model::ClientRequest::CallToolRequest(
        toolgen::rmcp::model::Request::new(call("one_hang", json!({}))),
    );
    let options = toolgen::rmcp::service::PeerRequestOptions::no_options();
    let handle = client
        .send_cancellable_request(request, options)
        .await
        .unwrap();
    let started = tokio::time::timeout(Duration::from_secs(5), progressed.recv())
        .await
        .expect("the remote tool starts")
        .unwrap();
    assert_eq!(started.message.as_deref(), Some("waiting"));
    handle
        .cancel(Some("the user stopped it".to_owned()))
        .await
        .unwrap();
    eventually("the remote handler saw the cancellation", || {
        first_stopped.load(Ordering::SeqCst) == 1
    })
    .await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_python_sdk_servers_tools_run() {
    let Some(python) = python_sdk::python_with_mcp("server") else {
        return;
    };
    let marker = std::env::temp_dir().join(format!("toolgen-toolset-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let mut command = tokio::process::Command::new(python);
    command
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/mcp_toolset_server.py"
        ))
        .env("TOOLSET_MARKER", &marker)
        .stderr(std::process::Stdio::null());
    let toolset = McpToolset::stdio(command).await.unwrap();
    assert_eq!(toolset.server_name(), "python-tools");
    let version = toolset.peer().peer_info().unwrap().protocol_version.clone();
    assert_eq!(version.as_str(), "2026-07-28");
    let names: Vec<String> = toolset
        .tools()
        .iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert_eq!(
        names,
        [
            "add",
            "media",
            "fail",
            "notes_search",
            "count",
            "hang",
            "unlock",
            "exit_now"
        ]
    );
    let mut runner = Runner::<Local, ()>::new(())
        .timeout(Duration::from_millis(500))
        .with_mcp(toolset.clone().prefix("py_"));
    let definitions = runner.definitions(Provider::Mcp);
    assert_eq!(definitions[1]["title"], "Add two numbers");
    assert_eq!(definitions[1]["annotations"]["readOnlyHint"], true);
    assert_eq!(definitions[1]["outputSchema"]["required"], json!(["sum"]));

    let calls = [
        ToolCall::new("py_add", r#"{"a": 2, "b": 3}"#).with_id("1"),
        ToolCall::new("py_add", r#"{"a": 2}"#).with_id("2"),
        ToolCall::new("py_media", "{}").with_id("3"),
        ToolCall::new("py_fail", "{}").with_id("4"),
        ToolCall::new("py_notes_search", r#"{"query": "rust"}"#).with_id("5"),
        ToolCall::new("py_hang", "{}").with_id("6"),
    ];
    let turn = runner.run(Provider::OpenAiResponses, &calls).await;
    let results = turn.results();
    assert_eq!(
        texts(results),
        [
            r#"{"sum":5}"#,
            "invalid arguments: missing field `b`",
            "a picture\n\n[resource file:///notes.txt]\ninside\n\n[resource link: more <file:///more.txt>]",
            "Error executing tool fail",
            r#"{"result":"found rust"}"#,
            "the tool `py_hang` timed out after 500ms",
        ]
    );
    let errors: Vec<bool> = results.iter().map(ToolResult::is_error).collect();
    assert_eq!(errors, [false, true, false, true, false, true]);
    let media: Vec<_> = results[2]
        .attachments()
        .iter()
        .map(|a| {
            (
                a.is_image(),
                a.media_type().to_owned(),
                a.name().map(str::to_owned),
            )
        })
        .collect();
    assert_eq!(
        media,
        [
            (true, "image/png".to_owned(), None),
            (false, "audio/wav".to_owned(), None),
            (
                false,
                "application/pdf".to_owned(),
                Some("report.pdf".to_owned())
            ),
        ]
    );
    // The timeout reached the Python server: its tool was cancelled.
    eventually("the Python tool saw the cancellation", || {
        std::fs::read_to_string(&marker).is_ok_and(|text| text == "cancelled")
    })
    .await;
    let _ = std::fs::remove_file(&marker);

    // Progress, through a gateway to its client.
    let client_side = gateway(toolset.clone().allow(&["count"]));
    let (progress, mut progressed) = tokio::sync::mpsc::unbounded_channel();
    let client = Listener { progress }.serve(client_side).await.unwrap();
    let counted = client
        .call_tool(call("count", json!({"to": 2})))
        .await
        .unwrap();
    assert_eq!(
        counted.structured_content,
        Some(json!({"result": "counted to 2"}))
    );
    for done in 1..=2 {
        let step = tokio::time::timeout(Duration::from_secs(5), progressed.recv())
            .await
            .expect("progress within 5 s")
            .unwrap();
        assert_eq!(
            (step.progress, step.total, step.message),
            (f64::from(done), Some(2.0), Some(format!("counted {done}")))
        );
    }
    client.cancel().await.unwrap();

    // A tool added while serving: the next turn lists again.
    let unlock = [ToolCall::new("py_unlock", "{}").with_id("7")];
    let turn = runner.run(Provider::OpenAiResponses, &unlock).await;
    assert_eq!(turn.results()[0].to_text(), r#"{"result":"unlocked"}"#);
    eventually("told of the change", || toolset.list_changed()).await;
    let secret = [ToolCall::new("py_secret", "{}").with_id("8")];
    let turn = runner.run(Provider::OpenAiResponses, &secret).await;
    assert_eq!(
        turn.results()[0].to_text(),
        r#"{"result":"the secret is 42"}"#
    );

    // The process ends in the middle of a call: an error result, and so for the calls after.
    let exit = [ToolCall::new("py_exit_now", "{}").with_id("9")];
    let turn = runner.run(Provider::OpenAiResponses, &exit).await;
    assert!(turn.results()[0].is_error());
    assert_eq!(
        turn.results()[0].to_text(),
        "the MCP server `python-tools` closed the connection while `exit_now` ran"
    );
    let again = [ToolCall::new("py_add", r#"{"a": 1, "b": 1}"#).with_id("10")];
    let turn = runner.run(Provider::OpenAiResponses, &again).await;
    assert!(turn.results()[0].is_error(), "{:?}", turn.results()[0]);
}

#[tokio::test]
async fn over_streamable_http() {
    let switch = ToolSwitch::new();
    switch.disable("secret");
    let lab = Lab {
        switch: switch.clone(),
        stopped: Arc::new(AtomicUsize::new(0)),
    };
    let server =
        McpServer::new(Runner::<Remote, Lab>::new(lab), "lab", "1.0.0").with_switch(switch);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(server.serve_http(listener));
    let toolset = McpToolset::http(&url)
        .await
        .unwrap()
        .allow(&["add", "picture"]);
    let mut runner = Runner::<Local, ()>::new(()).with_mcp(toolset.prefix("lab_"));
    let calls = [
        ToolCall::new("lab_add", r#"{"a": 20, "b": 22}"#).with_id("1"),
        ToolCall::new("lab_picture", "{}").with_id("2"),
    ];
    let turn = runner.run(Provider::Gemini, &calls).await;
    assert_eq!(turn.results()[0].as_json(), Some(&json!({"sum": 42})));
    assert_eq!(turn.results()[1].attachments().len(), 2);
}

#[tokio::test]
async fn a_server_that_will_not_start_is_an_error() {
    let missing = tokio::process::Command::new("/nonexistent/mcp-server");
    let error = McpToolset::stdio(missing).await.unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("the MCP server did not start: "),
        "{error}"
    );
    // A process that exits at once: the handshake fails, at once.
    let started = std::time::Instant::now();
    let error = McpToolset::stdio(tokio::process::Command::new("true"))
        .await
        .unwrap_err();
    assert!(
        error.to_string().starts_with("the MCP handshake failed: "),
        "{error}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// A server of `2025-11-25` over a duplex pipe that answers nothing before `initialize` but a
/// `ping` (as the earlier versions allow): silent to `server/discover`. Its lines read are kept.
fn silent_to_discover(seen: Arc<std::sync::Mutex<Vec<Value>>>) -> tokio::io::DuplexStream {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let (read, mut write) = tokio::io::split(server_side);
        let mut lines = tokio::io::BufReader::new(read).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let message: Value = serde_json::from_str(&line).unwrap();
            seen.lock().unwrap().push(message.clone());
            let result = match message["method"].as_str() {
                Some("ping") => json!({}),
                Some("initialize") => json!({"protocolVersion": "2025-11-25",
                    "capabilities": {"tools": {}}, "serverInfo": {"name": "old", "version": "0"}}),
                Some("tools/list") => json!({"tools": [{"name": "hello",
                    "inputSchema": {"type": "object"}}]}),
                // `server/discover` and notifications.
                _ => continue,
            };
            let reply = json!({"jsonrpc": "2.0", "id": message["id"], "result": result});
            if write
                .write_all(format!("{reply}\n").as_bytes())
                .await
                .is_err()
            {
                return;
            }
        }
    });
    client_side
}

#[tokio::test]
async fn a_server_silent_to_server_discover_is_met_with_initialize_within_a_second() {
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let started = std::time::Instant::now();
    let toolset = McpToolset::connect(silent_to_discover(Arc::clone(&seen)))
        .await
        .unwrap();
    let took = started.elapsed();
    // The ping answered, the probe is given 1 s more (rmcp's own wait: 10 s).
    assert!(took < Duration::from_secs(3), "{took:?}");
    assert_eq!(toolset.tools()[0].name(), "hello");
    let methods: Vec<Value> = (seen.lock().unwrap().iter())
        .map(|message| message["method"].clone())
        .collect();
    assert_eq!(
        methods,
        [
            "server/discover",
            "ping",
            "initialize",
            "notifications/initialized",
            "tools/list"
        ]
    );
}

/// Say which server answers.
#[derive(Tool, Deserialize)]
struct Echo {}

impl Handler<&'static str> for Echo {
    type Output = &'static str;
    async fn handle(
        self,
        server: &&'static str,
        _: &Invocation<'_>,
    ) -> Result<&'static str, ToolError> {
        Ok(server)
    }
}

/// A tool to switch off and on, to change the list without touching `echo`.
#[derive(Tool, Deserialize)]
struct Spare {}

impl Handler<&'static str> for Spare {
    type Output = &'static str;
    async fn handle(self, _: &&'static str, _: &Invocation<'_>) -> Result<&'static str, ToolError> {
        Ok("spare")
    }
}

#[derive(ToolSet)]
enum Echoes {
    Echo(Echo),
    Spare(Spare),
}

/// A server named `name` whose `echo` answers its name, in process; the toolset connected to
/// it, and the switch that changes its list.
async fn echo_server(name: &'static str) -> (McpToolset, ToolSwitch) {
    let switch = ToolSwitch::new();
    let server = McpServer::new(Runner::<Echoes, &'static str>::new(name), name, "1.0.0")
        .with_switch(switch.clone());
    (McpToolset::connect(in_task(server)).await.unwrap(), switch)
}

/// A run-time tool `echo` that answers `here`.
fn local_echo() -> (toolgen::DynamicTool, impl toolgen::DynamicHandler<()>) {
    struct Here;
    impl toolgen::DynamicHandler<()> for Here {
        fn handle<'a>(
            &'a self,
            _: &'a (),
            _: Value,
            _: &'a Invocation<'a>,
        ) -> toolgen::DynamicFuture<'a> {
            Box::pin(async { Ok(json!("here")) })
        }
    }
    let schema = json!({"type": "object", "properties": {}});
    let tool = toolgen::DynamicTool::new("echo", "Say which answers.", schema).unwrap();
    (tool, Here)
}

/// Who answers a call of `echo` in `runner` (after it lists again what changed).
async fn who_echoes(runner: &mut Runner<Local, ()>) -> String {
    let calls = [ToolCall::new("echo", "{}").with_id("1")];
    let turn = runner.run(Provider::Anthropic, &calls).await;
    turn.results()[0].to_text().into_owned()
}

fn offered_names(runner: &Runner<Local, ()>) -> Vec<String> {
    let definitions = runner.definitions(Provider::Anthropic);
    let definitions = definitions.as_array().unwrap();
    definitions
        .iter()
        .map(|definition| definition["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Two servers offer `echo`: the one added last answers, and keeps it through the first one's
/// list changes, whether its new list has `echo` or not; every source keeps its place.
#[tokio::test]
async fn a_name_stays_with_its_source_through_list_changes() {
    let (one, one_switch) = echo_server("one").await;
    let (two, _two_switch) = echo_server("two").await;
    let mut runner = Runner::<Local, ()>::new(())
        .with_mcp(one.clone())
        .with_mcp(two.clone().allow(&["echo"]));
    assert_eq!(who_echoes(&mut runner).await, "two");
    assert_eq!(offered_names(&runner), ["add", "spare", "echo"]);

    // The first server's list changes, `echo` still in it.
    one_switch.disable("spare");
    eventually("told of the change", || one.list_changed()).await;
    assert_eq!(who_echoes(&mut runner).await, "two");
    assert_eq!(offered_names(&runner), ["add", "echo"]);
    one_switch.enable("spare");
    eventually("told of the change", || one.list_changed()).await;
    runner.refresh_toolsets().await.unwrap();
    assert_eq!(offered_names(&runner), ["add", "spare", "echo"]);

    // Its new list has no `echo`: the second server's stays.
    one_switch.disable("echo");
    eventually("told of the change", || one.list_changed()).await;
    assert_eq!(who_echoes(&mut runner).await, "two");
    assert_eq!(offered_names(&runner), ["add", "spare", "echo"]);

    // A run-time tool added after the toolset keeps its name through the toolset's changes.
    let (one, one_switch) = echo_server("one").await;
    let (tool, handler) = local_echo();
    let mut runner = Runner::<Local, ()>::new(())
        .with_mcp(one.clone())
        .with_tool(tool, handler);
    assert_eq!(who_echoes(&mut runner).await, "here");
    one_switch.disable("spare");
    eventually("told of the change", || one.list_changed()).await;
    assert_eq!(who_echoes(&mut runner).await, "here");
    assert_eq!(offered_names(&runner), ["add", "echo"]);

    // Added before the toolset, it is the toolset's `echo` that answers; when the server no
    // longer has it, the run-time tool answers again.
    let (one, one_switch) = echo_server("one").await;
    let (tool, handler) = local_echo();
    let mut runner = Runner::<Local, ()>::new(())
        .with_tool(tool, handler)
        .with_mcp(one.clone());
    assert_eq!(who_echoes(&mut runner).await, "one");
    assert_eq!(offered_names(&runner), ["add", "echo", "spare"]);
    one_switch.disable("echo");
    eventually("told of the change", || one.list_changed()).await;
    assert_eq!(who_echoes(&mut runner).await, "here");
    assert_eq!(offered_names(&runner), ["add", "echo", "spare"]);
    one_switch.enable("echo");
    eventually("told of the change", || one.list_changed()).await;
    assert_eq!(who_echoes(&mut runner).await, "one");
}

/// Report `count` steps back to back, then answer.
#[derive(Tool, Deserialize)]
struct Burst {
    count: u32,
}

impl Handler<()> for Burst {
    type Output = &'static str;
    async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<&'static str, ToolError> {
        for done in 1..=self.count {
            call.progress(Progress::new(f64::from(done)).total(f64::from(self.count)));
        }
        Ok("burst")
    }
}

#[derive(ToolSet)]
enum Bursts {
    Burst(Burst),
}

/// The server of `Bursts`, in a task: the client's end of its pipe.
fn bursts() -> tokio::io::DuplexStream {
    in_task(McpServer::new(
        Runner::<Bursts, ()>::new(()),
        "bursts",
        "1.0.0",
    ))
}

/// A gateway (an `McpServer` over a runner that holds `toolset`), in a task: the client's end
/// of its pipe.
fn gateway(toolset: McpToolset) -> tokio::io::DuplexStream {
    in_task(McpServer::new(
        Runner::<Local, ()>::new(()).with_mcp(toolset),
        "gateway",
        "1.0.0",
    ))
}

/// `server` served in a task over a pipe: the client's end.
fn in_task(server: impl toolgen::rmcp::ServerHandler) -> tokio::io::DuplexStream {
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    client_side
}

/// Calls `tool` with `arguments` `calls` times on the server at the end of `pipe`, as a client
/// that reads its lines as they come: how many progress reports of each call came before its
/// answer.
async fn reports_before_answers(
    pipe: tokio::io::DuplexStream,
    calls: u64,
    tool: &str,
    arguments: Value,
) -> Vec<usize> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let (read, mut write) = tokio::io::split(pipe);
    let mut lines = tokio::io::BufReader::new(read).lines();
    let mut next = async || -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
            .await
            .expect("a line within 10 s")
            .unwrap()
            .expect("the server is open");
        serde_json::from_str(&line).unwrap()
    };
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                      "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                 "clientInfo": {"name": "counter", "version": "0"}}});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let hello = format!("{init}\n{initialized}\n");
    write.write_all(hello.as_bytes()).await.unwrap();
    assert_eq!(next().await["id"], 0);
    let mut counts = Vec::new();
    for id in 1..=calls {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                          "params": {"name": tool, "arguments": arguments,
                                     "_meta": {"progressToken": id}}});
        write
            .write_all(format!("{call}\n").as_bytes())
            .await
            .unwrap();
        let mut reports = 0;
        loop {
            let message = next().await;
            if message["id"] == id {
                assert_eq!(message["result"]["isError"], json!(null), "{message}");
                break;
            }
            assert_eq!(message["method"], "notifications/progress", "{message}");
            assert_eq!(message["params"]["progressToken"], id, "{message}");
            reports += 1;
        }
        counts.push(reports);
    }
    counts
}

/// A far end that sends 20 reports back to back and then answers: through a gateway, all 20
/// reach the client before the answer, call after call (on a runtime of two threads, where
/// rmcp's tasks for notifications run beside the call that waits for the answer).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_report_reaches_the_client_through_a_gateway() {
    let toolset = McpToolset::connect(bursts()).await.unwrap();
    let counts = reports_before_answers(gateway(toolset), 30, "burst", json!({"count": 20})).await;
    assert_eq!(counts, [20; 30]);
}

/// A handler that reports in a tight loop, faster than the reports go out: the reports that
/// wait are bounded (64, the oldest dropped), not 10,000 in memory; those kept go out before
/// the answer.
#[tokio::test]
async fn a_fast_handlers_waiting_reports_are_bounded() {
    let counts = reports_before_answers(bursts(), 3, "burst", json!({"count": 10_000})).await;
    assert_eq!(counts, [64; 3]);
}

/// The same through a gateway, with a far end written with the official Python SDK.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_report_of_the_python_sdk_server_reaches_the_client_through_a_gateway() {
    let Some(python) = python_sdk::python_with_mcp("server") else {
        return;
    };
    let mut command = tokio::process::Command::new(python);
    command
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/mcp_toolset_server.py"
        ))
        .stderr(std::process::Stdio::null());
    let toolset = McpToolset::stdio(command).await.unwrap().allow(&["count"]);
    let counts = reports_before_answers(gateway(toolset), 30, "count", json!({"to": 20})).await;
    assert_eq!(counts, [20; 30]);
}

/// `server`, whose `tools/list` fails once each time `fail` is set.
struct Flaky {
    server: McpServer<Echoes, &'static str>,
    fail: Arc<std::sync::atomic::AtomicBool>,
}

impl toolgen::rmcp::ServerHandler for Flaky {
    fn get_info(&self) -> toolgen::rmcp::model::ServerConfig {
        self.server.get_info()
    }

    async fn initialize(
        &self,
        request: toolgen::rmcp::model::InitializeRequestParams,
        context: toolgen::rmcp::service::RequestContext<toolgen::rmcp::RoleServer>,
    ) -> Result<toolgen::rmcp::model::InitializeResult, toolgen::rmcp::ErrorData> {
        self.server.initialize(request, context).await
    }

    async fn list_tools(
        &self,
        request: Option<toolgen::rmcp::model::PaginatedRequestParams>,
        context: toolgen::rmcp::service::RequestContext<toolgen::rmcp::RoleServer>,
    ) -> Result<toolgen::rmcp::model::ListToolsResult, toolgen::rmcp::ErrorData> {
        if self.fail.swap(false, Ordering::SeqCst) {
            return Err(toolgen::rmcp::ErrorData::internal_error(
                "listing broke",
                None,
            ));
        }
        self.server.list_tools(request, context).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: toolgen::rmcp::service::RequestContext<toolgen::rmcp::RoleServer>,
    ) -> Result<toolgen::rmcp::model::CallToolResponse, toolgen::rmcp::ErrorData> {
        self.server.call_tool(request, context).await
    }

    async fn on_initialized(
        &self,
        context: toolgen::rmcp::service::NotificationContext<toolgen::rmcp::RoleServer>,
    ) {
        self.server.on_initialized(context).await;
    }

    fn accepted_subscription_filter(
        &self,
        requested: &toolgen::rmcp::model::SubscriptionFilter,
    ) -> Option<toolgen::rmcp::model::SubscriptionFilter> {
        self.server.accepted_subscription_filter(requested)
    }

    async fn listen(
        &self,
        context: toolgen::rmcp::service::SubscriptionContext,
    ) -> Result<(), toolgen::rmcp::ErrorData> {
        self.server.listen(context).await
    }
}

/// A re-listing that fails keeps the toolset's tools and its change flag: the next turn lists
/// again, and offers the new tools.
#[tokio::test]
async fn a_failed_relisting_is_tried_again_next_turn() {
    let switch = ToolSwitch::new();
    let server = McpServer::new(Runner::<Echoes, _>::new("flaky"), "flaky", "1.0.0")
        .with_switch(switch.clone());
    let fail = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flaky = Flaky {
        server,
        fail: Arc::clone(&fail),
    };
    let toolset = McpToolset::connect(in_task(flaky)).await.unwrap();
    let mut runner = Runner::<Local, ()>::new(()).with_mcp(toolset.clone());
    assert_eq!(offered_names(&runner), ["add", "echo", "spare"]);

    switch.disable("spare");
    eventually("told of the change", || toolset.list_changed()).await;
    fail.store(true, Ordering::SeqCst);
    let error = runner.refresh_toolsets().await.unwrap_err();
    assert!(error.to_string().contains("listing broke"), "{error}");
    assert!(toolset.list_changed());
    assert_eq!(offered_names(&runner), ["add", "echo", "spare"]);

    // The next turn lists again.
    assert_eq!(who_echoes(&mut runner).await, "flaky");
    assert!(!toolset.list_changed());
    assert_eq!(offered_names(&runner), ["add", "echo"]);
}

/// A runner's progress sink gets the reports of its local handlers and of an MCP server's tools,
/// each with its call, every one before the turn ends; no gateway between.
#[tokio::test]
async fn a_runners_progress_sink_gets_local_and_remote_reports() {
    let (remote, _task, _) = remote().await;
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let mut runner = Runner::<Bursts, ()>::new(())
        .with_mcp(remote.prefix("lab_").allow(&["count"]))
        .on_progress(move |call, step| {
            let id = call.id.clone().unwrap_or_default();
            sink.lock()
                .unwrap()
                .push((id, step.progress, step.total, step.message));
        });
    let calls = [
        ToolCall::new("burst", r#"{"count": 3}"#).with_id("here"),
        ToolCall::new("lab_count", r#"{"to": 3}"#).with_id("there"),
    ];
    let turn = runner.run(Provider::Anthropic, &calls).await;
    assert_eq!(texts(turn.results()), ["burst", "counted to 3"]);
    let seen = seen.lock().unwrap().clone();
    let of = |id: &str| -> Vec<_> {
        let steps = seen.iter().filter(|(call, ..)| call == id);
        steps
            .map(|(_, progress, total, message)| (*progress, *total, message.clone()))
            .collect()
    };
    let here: Vec<_> = (1..=3)
        .map(|done| (f64::from(done), Some(3.0), None))
        .collect();
    assert_eq!(of("here"), here);
    let there: Vec<_> = (1..=3)
        .map(|done| (f64::from(done), Some(3.0), Some(format!("counted {done}"))))
        .collect();
    assert_eq!(of("there"), there);
}

/// Name the first letters of the alphabet (an output that is not an object).
#[derive(Tool, Deserialize)]
#[tool(output = Vec<String>)]
struct Letters {
    count: u8,
}

impl Handler<&'static str> for Letters {
    type Output = Vec<String>;
    async fn handle(self, _: &&'static str, _: &Invocation<'_>) -> Result<Vec<String>, ToolError> {
        Ok((b'a'..)
            .take(self.count.into())
            .map(|c| char::from(c).to_string())
            .collect())
    }
}

#[derive(ToolSet)]
enum Modern {
    Echo(Echo),
    Spare(Spare),
    Letters(Letters),
}

/// Checks a toolset connected to the server of `Modern` whose tools `switch` changes: it speaks
/// `2026-07-28`, keeps an output schema that is not an object's and its structured content,
/// and hears of list changes on its `subscriptions/listen` stream.
async fn speaks_2026_07_28(toolset: McpToolset, switch: &ToolSwitch) {
    let version = toolset.peer().peer_info().unwrap().protocol_version.clone();
    assert_eq!(version.as_str(), "2026-07-28");
    let mut runner = Runner::<Local, ()>::new(()).with_mcp(toolset.clone());
    let tools = toolset.tools();
    assert_eq!(tools[2].name(), "letters");
    assert_eq!(
        tools[2].output_schema(),
        Some(&json!({"type": "array", "items": {"type": "string"}}))
    );
    let calls = [ToolCall::new("letters", r#"{"count": 3}"#).with_id("1")];
    let turn = runner.run(Provider::Anthropic, &calls).await;
    assert_eq!(turn.results()[0].as_json(), Some(&json!(["a", "b", "c"])));

    switch.disable("spare");
    eventually("told of the change", || toolset.list_changed()).await;
    assert_eq!(who_echoes(&mut runner).await, "modern");
    assert_eq!(offered_names(&runner), ["add", "echo", "letters"]);
}

/// The toolset speaks `2026-07-28` with a server that does (toolgen's, over a pipe and over
/// streamable HTTP).
#[tokio::test]
async fn the_toolset_speaks_2026_07_28() {
    let switch = ToolSwitch::new();
    let server = McpServer::new(Runner::<Modern, _>::new("modern"), "modern", "1.0.0")
        .with_switch(switch.clone());
    let toolset = McpToolset::connect(in_task(server)).await.unwrap();
    speaks_2026_07_28(toolset, &switch).await;

    let switch = ToolSwitch::new();
    let server = McpServer::new(Runner::<Modern, _>::new("modern"), "modern", "1.0.0")
        .with_switch(switch.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(server.serve_http(listener));
    let toolset = McpToolset::http(&url).await.unwrap();
    speaks_2026_07_28(toolset, &switch).await;
}

/// A gateway's list follows its upstream's: the Python SDK's server (`py_unlock`) adds a tool
/// while the gateway serves, and the gateway's client, written with the Python SDK too
/// (`tests/mcp_gateway_client.py`), is told (`notifications/tools/list_changed`, at
/// `2026-07-28` on its `subscriptions/listen` stream), lists the new tool and calls it; at both
/// versions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateways_list_follows_its_upstreams() {
    let Some(python) = python_sdk::python_with_mcp("gateway") else {
        return;
    };
    for version in ["2026-07-28", "2025-11-25"] {
        let mut command = tokio::process::Command::new(&python);
        command
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/mcp_toolset_server.py"
            ))
            .stderr(std::process::Stdio::null());
        let upstream = McpToolset::stdio(command).await.unwrap().prefix("py_");
        let runner = Runner::<Local, ()>::new(()).with_mcp(upstream);
        let gateway = McpServer::new(runner, "gateway", "1.0.0");
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_gateway_client.py");
        python_sdk::serve_client(gateway, &python, &[script, "--version", version]).await;
    }
}
