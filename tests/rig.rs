//! `RigTools` (feature `rig044`): a runner's tools handed to a rig agent. The agent runs on a
//! completion model written here (a scripted runtime behind rig's scripted wire, no network),
//! which asks for tool calls, then answers; what the model reads in each request is checked:
//! the tools' definitions, the results, and the errors with their JSON paths. Derived tools,
//! a run-time tool and the tools of an MCP server (toolgen's own, in process) each go through.

#![cfg(feature = "__rig_agent")]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::stream::iter as frames;
use pretty_assertions::assert_eq;
use rig_agent::AgentBuilder;
use rig_agent::core::completion::{AssistantContent, CompletionRequest, CompletionResponse, Usage};
use rig_agent::core::driver::{Exchange, Model, Opened, Opening, Transport};
use rig_agent::core::message::{
    DocumentSourceKind, ImageMediaType, Message, Origin, ToolName, ToolResultContent, UserContent,
};
use rig_agent::core::test_utils::{MockFrame, MockScript};
use rig_agent::core::tool::ToolErrorKind;
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::{
    Dispatch, DynamicFuture, DynamicHandler, DynamicTool, Handler, Invocation, McpServer,
    McpToolset, Provider, RigTools, Runner, Stop, Tool, ToolError, ToolResult, ToolSet,
};

/// What the tools share: how many times each ran.
#[derive(Default)]
struct Ledger {
    added: AtomicUsize,
}

/// Add two numbers.
#[derive(Tool, Deserialize)]
struct Add {
    a: i64,
    b: i64,
}

impl Handler<Ledger> for Add {
    type Output = i64;
    async fn handle(self, ledger: &Ledger, _: &Invocation<'_>) -> Result<i64, ToolError> {
        ledger.added.fetch_add(1, Ordering::SeqCst);
        Ok(self.a + self.b)
    }
}

/// Wait for a long time.
#[derive(Tool, Deserialize)]
#[tool(timeout = "50ms")]
struct Slow {}

impl Handler<Ledger> for Slow {
    type Output = &'static str;
    async fn handle(self, _: &Ledger, _: &Invocation<'_>) -> Result<&'static str, ToolError> {
        tokio::time::sleep(Duration::from_secs(30)).await;
        Ok("done")
    }
}

#[derive(ToolSet)]
enum Tools {
    Add(Add),
    Slow(Slow),
}

/// Draw a chart.
#[derive(Tool, Deserialize)]
struct Chart {}

impl Handler<Ledger> for Chart {
    type Output = ToolResult;
    async fn handle(self, _: &Ledger, _: &Invocation<'_>) -> Result<ToolResult, ToolError> {
        Ok(ToolResult::json(json!({"points": 3}))
            .with_image("iVBORw0KGgo=", "image/png")
            .with_file("JVBERi0=", "application/pdf", Some("data.pdf")))
    }
}

/// Look up a profile.
#[derive(Tool, Deserialize)]
struct Profile {}

impl Handler<Ledger> for Profile {
    type Output = String;
    async fn handle(self, _: &Ledger, _: &Invocation<'_>) -> Result<String, ToolError> {
        Err(ToolError::json(
            json!({"success": false, "error": "profile_not_found"}),
        ))
    }
}

/// Break.
#[derive(Tool, Deserialize)]
struct Crash {}

impl Handler<Ledger> for Crash {
    type Output = String;
    async fn handle(self, _: &Ledger, _: &Invocation<'_>) -> Result<String, ToolError> {
        panic!("out of cheese")
    }
}

#[derive(ToolSet)]
enum Results {
    Chart(Chart),
    Profile(Profile),
    Crash(Crash),
    Add(Add),
}

/// Shouts its text (a tool defined at run time).
struct Shout;

impl DynamicHandler<Ledger> for Shout {
    fn handle<'a>(
        &'a self,
        _: &'a Ledger,
        args: Value,
        _: &'a Invocation<'a>,
    ) -> DynamicFuture<'a> {
        Box::pin(async move { Ok(json!(args["text"].as_str().unwrap_or("").to_uppercase())) })
    }
}

/// A completion model: it answers the requests in turn with the replies given, and keeps
/// every request it got.
#[derive(Clone)]
struct Scripted {
    replies: Arc<Vec<Vec<AssistantContent>>>,
    requests: Arc<Mutex<Vec<CompletionRequest>>>,
}

impl Transport<MockScript> for Scripted {
    fn send(&self, request: CompletionRequest, _: Exchange) -> Opening<MockFrame> {
        let mut requests = self.requests.lock().unwrap();
        let reply = self.replies[requests.len()].clone();
        requests.push(request);
        let response = CompletionResponse::new(
            reply,
            Usage::new(),
            Origin::new("test.local", "scripted", ""),
            Value::Null,
        );
        Opening::ready(Opened::new(frames([Ok(MockFrame::Response(Box::new(
            response,
        )))])))
    }
}

impl Scripted {
    fn new(replies: Vec<Vec<AssistantContent>>) -> Self {
        Scripted {
            replies: Arc::new(replies),
            requests: Arc::new(Mutex::new(Vec::new())),
        }
    }

    fn model(&self) -> Model<MockScript, Scripted> {
        Model::new(MockScript::new("scripted"), self.clone())
    }

    fn requests(&self) -> Vec<CompletionRequest> {
        self.requests.lock().unwrap().clone()
    }
}

/// A rig agent's answer to `prompt`, on `model`, with `rig`'s tools.
async fn ask<S, Ctx>(rig: &RigTools<S, Ctx>, model: &Scripted, prompt: &str) -> String
where
    S: Dispatch<Ctx> + 'static,
    Ctx: Send + Sync + 'static,
{
    let agent = AgentBuilder::new(model.model())
        .dynamic_tools(rig.tools())
        .build();
    agent.prompt(prompt).max_turns(3).await.unwrap().output()
}

/// The model's call of `name` with `arguments`, as call `id`.
fn call(id: &str, name: &str, arguments: Value) -> AssistantContent {
    AssistantContent::tool_call(id, ToolName::new(name).unwrap(), arguments)
}

/// The tool results of a request's last message, by call id: whether each is an error, and its
/// content (a text as a JSON string).
fn results(request: &CompletionRequest) -> Vec<(String, bool, Value)> {
    let mut found = Vec::new();
    for message in &request.chat_history {
        let Message::User { content } = message else {
            continue;
        };
        for item in content.iter() {
            if let UserContent::ToolResult(result) = item {
                let content: Vec<Value> = result
                    .content
                    .iter()
                    .map(|content| match content {
                        ToolResultContent::Json { value } => value.clone(),
                        other => json!(other.as_text()),
                    })
                    .collect();
                found.push((result.call.to_string(), result.is_error, json!(content)));
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rig_agent_runs_the_tools_and_the_model_reads_their_errors_with_paths() {
    let shout = DynamicTool::new(
        "shout",
        "Shout the text.",
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
    )
    .unwrap();
    let runner = Runner::<Tools, Ledger>::new(Ledger::default()).with_tool(shout, Shout);
    let rig = RigTools::new(runner, Provider::OpenAiChat);
    let model = Scripted::new(vec![
        vec![
            call("call_1", "add", json!({"a": 2, "b": 3})),
            call("call_2", "add", json!({"a": 2, "b": "three"})),
            call("call_3", "slow", json!({})),
            call("call_4", "shout", json!({"text": 7})),
            call("call_5", "shout", json!({"text": "hi"})),
        ],
        vec![AssistantContent::text("2 + 3 is 5.")],
    ]);
    let answer = ask(&rig, &model, "What is 2 + 3?").await;

    assert_eq!(answer, "2 + 3 is 5.");
    assert_eq!(rig.runner().context().added.load(Ordering::SeqCst), 1);
    let requests = model.requests();
    assert_eq!(requests.len(), 2);
    // The definitions are toolgen's: names, descriptions and input schemas.
    let offered: Vec<Value> = requests[0]
        .tools
        .iter()
        .map(|tool| json!([tool.name.to_string(), tool.description, tool.parameters]))
        .collect();
    let schema = |text: &str| serde_json::from_str::<Value>(text).unwrap();
    assert_eq!(
        offered,
        [
            json!(["add", "Add two numbers.", schema(Add::INPUT_SCHEMA)]),
            json!(["slow", "Wait for a long time.", schema(Slow::INPUT_SCHEMA)]),
            json!(["shout", "Shout the text.", {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}]),
        ]
    );
    // What the model reads in its next request: each result, the errors in toolgen's words.
    assert_eq!(
        results(&requests[1]),
        [
            ("call_1".to_owned(), false, json!([5])),
            (
                "call_2".to_owned(),
                true,
                json!(["invalid arguments at `b`: invalid type: string \"three\", expected i64"])
            ),
            (
                "call_3".to_owned(),
                true,
                json!(["the tool `slow` timed out after 50ms"])
            ),
            (
                "call_4".to_owned(),
                true,
                json!([
                    "invalid arguments at `text`: invalid type: integer `7`, expected a string"
                ])
            ),
            ("call_5".to_owned(), false, json!(["HI"])),
        ]
    );
    // One invalid call of each tool: within the budget (3).
    assert_eq!(rig.stop(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tools_of_an_mcp_server_go_to_a_rig_agent() {
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    let server = McpServer::new(
        Runner::<Tools, Ledger>::new(Ledger::default()),
        "calculator",
        "1.0.0",
    );
    tokio::spawn(async move {
        let running = server.serve(server_side).await.unwrap();
        running.waiting().await
    });
    let remote = McpToolset::connect(client_side)
        .await
        .unwrap()
        .prefix("remote_");
    let local = Ledger::default();
    let rig = RigTools::new(
        Runner::<Tools, Ledger>::new(local).with_mcp(remote),
        Provider::Anthropic,
    );
    let model = Scripted::new(vec![
        vec![
            call("toolu_1", "remote_add", json!({"a": 20, "b": 22})),
            call("toolu_2", "remote_add", json!({"a": 20})),
        ],
        vec![AssistantContent::text("42.")],
    ]);
    let answer = ask(&rig, &model, "What is 20 + 22?").await;

    assert_eq!(answer, "42.");
    let requests = model.requests();
    let names: Vec<String> = requests[0]
        .tools
        .iter()
        .map(|tool| tool.name.to_string())
        .collect();
    assert_eq!(names, ["add", "slow", "remote_add", "remote_slow"]);
    let remote_add = &requests[0].tools[2];
    assert_eq!(remote_add.description, "Add two numbers.");
    assert_eq!(
        remote_add.parameters,
        serde_json::from_str::<Value>(Add::INPUT_SCHEMA).unwrap()
    );
    assert_eq!(
        results(&requests[1]),
        [
            // (MCP carries the number as text: it is not an object, so no structured content.)
            ("toolu_1".to_owned(), false, json!(["42"])),
            (
                "toolu_2".to_owned(),
                true,
                json!(["invalid arguments: missing field `b`"])
            ),
        ]
    );
    // The local tools never ran: the calls went to the server.
    assert_eq!(rig.runner().context().added.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn results_keep_their_json_images_and_error_kinds() {
    let runner = Runner::<Results, Ledger>::new(Ledger::default()).max_retries(1);
    let rig = RigTools::new(runner, Provider::Gemini);
    let tools = rig.tools();
    let tool = |name: &str| {
        tools
            .iter()
            .find(|tool| tool.name() == name)
            .unwrap_or_else(|| panic!("no tool `{name}`"))
    };

    let chart = tool("chart").execute(json!({})).await.unwrap();
    let content = chart.as_content();
    assert_eq!(content.len(), 3);
    assert_eq!(content[0].as_json(), Some(&json!({"points": 3})));
    let ToolResultContent::Image(image) = &content[1] else {
        panic!("not an image: {:?}", content[1]);
    };
    assert_eq!(
        image.data,
        DocumentSourceKind::Base64("iVBORw0KGgo=".to_owned())
    );
    assert_eq!(image.media_type, Some(ImageMediaType::PNG));
    assert_eq!(
        content[2].as_text(),
        Some(
            "[a file `data.pdf` (application/pdf, 8 bytes of base64) is not shown: rig tool results do not carry it]"
        )
    );

    let profile = tool("profile").execute(json!({})).await.unwrap_err();
    assert_eq!(profile.kind(), ToolErrorKind::Other);
    assert_eq!(
        profile.model_output().as_json(),
        Some(&json!({"success": false, "error": "profile_not_found"}))
    );

    let crash = tool("crash").execute(json!({})).await.unwrap_err();
    assert_eq!(crash.kind(), ToolErrorKind::Other);
    assert_eq!(
        crash.model_feedback(),
        Some("the tool `crash` failed: it panicked: out of cheese")
    );

    // The retry budget (1 here): a second invalid call in a row spends it; a valid one ends it.
    let add = tool("add");
    for _ in 0..2 {
        let error = add.execute(json!({"a": 1})).await.unwrap_err();
        assert_eq!(error.kind(), ToolErrorKind::InvalidArgs);
    }
    assert_eq!(
        rig.stop(),
        Some(Stop::RetriesExhausted {
            tool: "add".to_owned(),
            attempts: 2
        })
    );
    assert_eq!(
        add.execute(json!({"a": 1, "b": 2}))
            .await
            .unwrap()
            .as_json(),
        Some(&json!(3))
    );
    assert_eq!(rig.stop(), None);
}
