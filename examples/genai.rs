//! toolgen with genai: toolgen's definitions become genai `Tool`s and its `ToolChoice` genai's, a
//! `ChatRequest` goes out through genai's client for OpenAI Chat, the Responses API, Anthropic and
//! Gemini, the calls of genai's `ChatResponse` are read back as toolgen `ToolCall`s and run by a
//! `Runner`, and the results go back as genai `ToolResponse`s in the next request.
//!
//! ```text
//! cargo run --example genai --features __genai07
//! ```
//!
//! genai has no way to build a provider's request or read its response without sending it: its
//! adapters are private. So the example runs a server on 127.0.0.1 that records each request body
//! genai sends and answers with a recording of `tests/traffic/`; nothing leaves the machine.
//! `tests/genai.rs` compares what genai sent with what toolgen writes for the same turn.

#[allow(dead_code)]
#[path = "recipe_tools/mod.rs"]
pub mod recipe_tools;

use std::sync::{Arc, Mutex};

use genai::adapter::AdapterKind;
use genai::chat::{ChatOptions, ChatRequest, ChatResponse, Tool, ToolResponse};
use genai::resolver::{AuthData, Endpoint};
use genai::{Client, ModelIden, ServiceTarget};
use recipe_tools::{Tools, recording, runner};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use toolgen::{Provider, ToolCall, ToolChoice, ToolSet};

/// A toolgen definition (any provider's shape) as a genai `Tool`: its name, description, schema
/// and `strict`.
pub fn genai_tool(definition: &Value) -> Tool {
    let definition = definition.get("function").unwrap_or(definition);
    let text = |key: &str| definition.get(key).and_then(Value::as_str);
    let mut tool = Tool::new(text("name").unwrap_or_default());
    if let Some(description) = text("description") {
        tool = tool.with_description(description);
    }
    let schema = [
        "parameters",
        "input_schema",
        "parametersJsonSchema",
        "inputSchema",
    ]
    .iter()
    .find_map(|key| definition.get(*key));
    if let Some(schema) = schema {
        tool = tool.with_schema(schema.clone());
    }
    if let Some(strict) = definition.get("strict").and_then(Value::as_bool) {
        tool = tool.with_strict(strict);
    }
    tool
}

/// The recipe's tools as genai `Tool`s for `provider`. genai sends Gemini every schema as
/// `parametersJsonSchema`, so Gemini's are read from the MCP definitions (the standard JSON Schema)
/// rather than from Gemini's, whose `parameters` are in the OpenAPI subset.
pub fn genai_tools(provider: Provider) -> Vec<Tool> {
    let from = match provider {
        Provider::Gemini => Provider::Mcp,
        other => other,
    };
    let definitions = Tools::definitions(from);
    definitions
        .as_array()
        .into_iter()
        .flatten()
        .map(genai_tool)
        .collect()
}

/// toolgen's choice as genai's, read from the OpenAI Chat `tool_choice` toolgen writes for it
/// (genai has no setting for parallel calls: `parallel(false)` is not carried).
pub fn genai_choice(choice: &ToolChoice) -> genai::chat::ToolChoice {
    use genai::chat::ToolChoice as Genai;
    let fields = choice.request_fields(Provider::OpenAiChat);
    match fields.get("tool_choice") {
        Some(Value::String(mode)) if mode == "none" => Genai::None,
        Some(Value::String(mode)) if mode == "required" => Genai::Required,
        Some(Value::Object(named)) => match named["function"]["name"].as_str() {
            Some(name) => Genai::tool(name),
            None => Genai::Auto,
        },
        _ => Genai::Auto,
    }
}

/// genai's adapter for a toolgen provider, and a model name of that provider.
pub fn adapter(provider: Provider) -> Option<(AdapterKind, &'static str)> {
    match provider {
        Provider::OpenAiChat => Some((AdapterKind::OpenAI, "gpt-5")),
        Provider::OpenAiResponses => Some((AdapterKind::OpenAIResp, "gpt-5")),
        Provider::Anthropic => Some((AdapterKind::Anthropic, "claude-sonnet-4-5")),
        Provider::Gemini => Some((AdapterKind::Gemini, "gemini-3-pro-preview")),
        // MCP, and providers toolgen adds later (`Provider` is non-exhaustive).
        _ => None,
    }
}

/// genai's calls as toolgen's: id, name, the arguments as JSON text, and Gemini's thought
/// signature.
pub fn toolgen_calls(response: &ChatResponse) -> Vec<ToolCall> {
    response
        .tool_calls()
        .into_iter()
        .map(|call| {
            let mut toolgen =
                ToolCall::new(&call.fn_name, call.fn_arguments.to_string()).with_id(&call.call_id);
            if let Some(signature) = call.thought_signatures.iter().flatten().next() {
                toolgen = toolgen.with_thought_signature(signature);
            }
            toolgen
        })
        .collect()
}

/// A server on 127.0.0.1 that answers every request with `response` and keeps each request's
/// body.
pub struct Recorder {
    pub base_url: String,
    pub bodies: Arc<Mutex<Vec<Value>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Recorder {
    pub async fn serve(response: Value) -> std::io::Result<Recorder> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let base_url = format!("http://{}/", listener.local_addr()?);
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let kept = bodies.clone();
        let reply = response.to_string();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let mut stream = BufReader::new(stream);
                // One HTTP/1.1 request: the head up to its empty line, then `content-length` bytes.
                let mut length = 0;
                let mut line = String::new();
                while stream.read_line(&mut line).await.is_ok_and(|read| read > 2) {
                    if let Some((name, value)) = line.split_once(':')
                        && name.eq_ignore_ascii_case("content-length")
                    {
                        length = value.trim().parse().unwrap_or(0);
                    }
                    line.clear();
                }
                let mut body = vec![0; length];
                if stream.read_exact(&mut body).await.is_err() {
                    continue;
                }
                let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
                kept.lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .push(body);
                let head = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    reply.len()
                );
                let _ = stream.get_mut().write_all(head.as_bytes()).await;
                let _ = stream.get_mut().write_all(reply.as_bytes()).await;
                let _ = stream.get_mut().shutdown().await;
            }
        });
        Ok(Recorder {
            base_url,
            bodies,
            task,
        })
    }

    /// The request bodies received so far.
    pub fn bodies(&self) -> Vec<Value> {
        self.bodies
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// One round trip through genai: the requests it sent (the first with the tools and the choice,
/// the second with the model's turn and the results) and the calls read back.
pub struct Exchange {
    pub requests: Vec<Value>,
    pub calls: Vec<ToolCall>,
}

/// Sends the recipe's tools with `choice` to `provider` through genai, answered with `recorded`;
/// runs the calls of genai's response, and sends the results back.
pub async fn round_trip(
    provider: Provider,
    recorded: &str,
    choice: &ToolChoice,
) -> Result<Exchange, Box<dyn std::error::Error>> {
    let (kind, model) = adapter(provider).ok_or("genai has no adapter for MCP")?;
    let recorder = Recorder::serve(recording(recorded)).await?;
    let target = ServiceTarget {
        endpoint: Endpoint::from_owned(recorder.base_url.clone()),
        auth: AuthData::from_single("offline"),
        model: ModelIden::new(kind, model),
    };
    let client = Client::builder().build()?;
    let request =
        ChatRequest::from_user("What is the weather in Paris?").with_tools(genai_tools(provider));
    let options = ChatOptions::default().with_tool_choice(genai_choice(choice));

    let response = client
        .exec_chat(target.clone(), request.clone(), Some(&options))
        .await?;
    let calls = toolgen_calls(&response);
    let turn = runner().run(provider, &calls).await;
    let mut next = request;
    if let Some(assistant) = response.into_assistant_message_for_tool_use() {
        next = next.append_message(assistant);
    }
    for (call, result) in turn.calls().iter().zip(turn.results()) {
        let id = call.id.clone().unwrap_or_default();
        next = next.append_message(ToolResponse::new(id, result.to_text()));
    }
    client.exec_chat(target, next, Some(&options)).await?;
    Ok(Exchange {
        requests: recorder.bodies(),
        calls,
    })
}

/// The recording each provider's round trip is answered with.
pub const RECORDED: [(Provider, &str); 5] = [
    (
        Provider::OpenAiChat,
        "openai_chat/moonshotai-tool-call.json",
    ),
    (
        Provider::OpenAiResponses,
        "openai_responses/lmstudio-tool-call.1.json",
    ),
    (
        Provider::Anthropic,
        "anthropic/anthropic-json-other-tool.1.json",
    ),
    // A call of a tool the recipe does not have: its result is an error.
    (Provider::Anthropic, "anthropic/anthropic-tool-no-args.json"),
    (Provider::Gemini, "gemini/google-tool-call.json"),
];

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    for (provider, recorded) in RECORDED {
        let exchange = round_trip(provider, recorded, &ToolChoice::auto()).await?;
        println!("== {provider}: {} call(s) read back", exchange.calls.len());
        for (at, request) in exchange.requests.iter().enumerate() {
            println!(
                "// request {}\n{}",
                at + 1,
                serde_json::to_string_pretty(request)?
            );
        }
        println!();
    }
    Ok(())
}
