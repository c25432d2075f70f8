//! `McpToolset`, the client of a far MCP server, reading what that server says while one of its
//! tools runs: results, errors, progress, list changes and requests of its own, as arbitrary
//! JSON Lines.
//!
//! A server in process (over a duplex pipe) answers `initialize` and `tools/list` (one tool,
//! `echo`), and answers the `tools/call` with the input's lines, written as they are but for
//! `@ID` and `@TOKEN`, which become the call's request id and progress token; then it stops
//! writing. A runner calls the tool once, through the toolset.
//!
//! What must hold: the call ends with one result (the server said its answer, or the pipe
//! closed: the call never waits for the toolset's timeout), and where rmcp reads every line,
//! the result is what the first answer to the call says: `isError` makes an error result,
//! `structuredContent` is the result's JSON, the text blocks are its text, each image, audio
//! and embedded blob an attachment; a JSON-RPC error, an empty result, or no answer at all, an
//! error result or an empty text as documented.

#![no_main]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use toolgen::rmcp::model::{
    ContentBlock, JsonRpcMessage, NumberOrString, ResourceContents, ServerJsonRpcMessage,
    ServerResult,
};
// (Only its runtime: the checks of error replies are the server targets'.)
#[allow(dead_code)]
#[path = "common/mcp.rs"]
mod mcp;

use toolgen::{
    Handler, Invocation, McpToolset, Provider, Runner, Tool, ToolCall, ToolError, ToolSet,
};

/// A tool of the runner's own (the toolset's tool is the one called).
#[derive(Tool, Deserialize)]
struct Nothing {}

impl Handler<()> for Nothing {
    type Output = &'static str;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> {
        Ok("")
    }
}

#[derive(ToolSet)]
enum Tools {
    Nothing(Nothing),
}

/// The call as the server saw it: its request id and progress token (as JSON).
#[derive(Default)]
struct Seen {
    id: Option<Value>,
    token: Option<Value>,
}

/// How long the toolset gives a call: on the paused clock, reached only by a call that waits
/// for nothing.
const TIMEOUT: Duration = Duration::from_secs(30);

/// The far server: the handshake, a listing, and the input's lines for the call.
async fn serve(side: DuplexStream, lines: Vec<Vec<u8>>, seen: Arc<Mutex<Seen>>) {
    let (read, mut write) = tokio::io::split(side);
    let mut read = BufReader::new(read);
    let mut write = Some(&mut write);
    let mut line = String::new();
    loop {
        line.clear();
        match read.read_line(&mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let id = message.get("id").cloned().unwrap_or_default();
        let reply = match message.get("method").and_then(Value::as_str) {
            Some("initialize") => json!({"jsonrpc": "2.0", "id": id, "result": {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {"listChanged": true}},
                "serverInfo": {"name": "fuzz", "version": "0"}}}),
            Some("tools/list") => json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [
                {"name": "echo", "description": "Says it back.",
                 "inputSchema": {"type": "object"}}]}}),
            Some("tools/call") => {
                let token = message
                    .pointer("/params/_meta/progressToken")
                    .cloned()
                    .unwrap_or_default();
                let (id_text, token_text) = (id.to_string(), token.to_string());
                *seen.lock().unwrap_or_else(|e| e.into_inner()) = Seen {
                    id: Some(id),
                    token: Some(token),
                };
                let Some(write) = write.take() else {
                    continue;
                };
                for line in &lines {
                    let line = String::from_utf8_lossy(line)
                        .replace("@ID", &id_text)
                        .replace("@TOKEN", &token_text);
                    if write.write_all(line.as_bytes()).await.is_err()
                        || write.write_all(b"\n").await.is_err()
                    {
                        break;
                    }
                }
                // The client reads what was written, then the end.
                let _ = write.shutdown().await;
                continue;
            }
            _ => continue,
        };
        let Some(write) = write.as_mut() else {
            continue;
        };
        let text = reply.to_string() + "\n";
        if write.write_all(text.as_bytes()).await.is_err() {
            return;
        }
    }
}

/// What the first answer to the call says the result is, where rmcp reads every line.
#[derive(Debug)]
enum Expected {
    /// An error result.
    Error,
    /// A result: an error or not, its JSON, its text (where every block is text), its count
    /// of attachments.
    Result {
        error: bool,
        json: Option<Value>,
        text: Option<String>,
        attachments: usize,
    },
}

fn expected(lines: &[Vec<u8>], seen: &Seen) -> Option<Expected> {
    let id = seen.id.as_ref()?;
    let (id_text, token_text) = (
        id.to_string(),
        seen.token
            .as_ref()
            .map(Value::to_string)
            .unwrap_or_default(),
    );
    let mut messages = Vec::new();
    for line in lines {
        let line = String::from_utf8_lossy(line)
            .replace("@ID", &id_text)
            .replace("@TOKEN", &token_text);
        // A line rmcp cannot read may end the connection, or be skipped: no expectation.
        messages.push(serde_json::from_str::<ServerJsonRpcMessage>(&line).ok()?);
    }
    let ours = |other: &NumberOrString| other.clone().into_json_value() == *id;
    for message in messages {
        match message {
            JsonRpcMessage::Response(response) if ours(&response.id) => {
                return Some(match response.result {
                    ServerResult::CallToolResult(result) => {
                        let structured = result.structured_content.filter(|v| !v.is_null());
                        let all_text = result.content.iter().all(|block| block.as_text().is_some());
                        let text = (structured.is_none() && all_text).then(|| {
                            let texts: Vec<&str> = result
                                .content
                                .iter()
                                .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
                                .collect();
                            texts.join("\n\n")
                        });
                        Expected::Result {
                            error: result.is_error == Some(true),
                            json: structured,
                            text,
                            attachments: result.content.iter().filter(|b| attached(b)).count(),
                        }
                    }
                    ServerResult::EmptyResult(_) => Expected::Result {
                        error: false,
                        json: None,
                        text: Some(String::new()),
                        attachments: 0,
                    },
                    _ => Expected::Error,
                });
            }
            JsonRpcMessage::Error(error) if error.id.as_ref().is_some_and(ours) => {
                return Some(Expected::Error);
            }
            _ => {}
        }
    }
    // No answer: the server closed the pipe while the call ran.
    Some(Expected::Error)
}

/// Whether a content block comes to the model as an attachment.
fn attached(block: &ContentBlock) -> bool {
    match block {
        ContentBlock::Image(_) | ContentBlock::Audio(_) => true,
        ContentBlock::Resource(resource) => {
            matches!(
                resource.resource,
                ResourceContents::BlobResourceContents { .. }
            )
        }
        _ => false,
    }
}

fuzz_target!(|data: &[u8]| {
    let lines: Vec<Vec<u8>> = data
        .split(|&byte| byte == b'\n')
        .filter(|line| !line.is_empty())
        .map(<[u8]>::to_vec)
        .collect();
    mcp::paused_runtime().block_on(async {
        let (server_side, client_side) = tokio::io::duplex(1 << 16);
        let seen = Arc::new(Mutex::new(Seen::default()));
        let server = tokio::spawn(serve(server_side, lines.clone(), Arc::clone(&seen)));
        let toolset = McpToolset::connect(client_side)
            .await
            .expect("the handshake with a fixed server")
            .timeout(TIMEOUT);
        assert_eq!(toolset.tools().len(), 1);
        let mut runner = Runner::<Tools, ()>::new(()).with_mcp(toolset);
        let mut call = ToolCall::new("echo", "{}");
        call.id = Some("call_1".to_owned());
        let started = tokio::time::Instant::now();
        let turn = runner.run(Provider::Anthropic, &[call]).await;
        assert!(
            started.elapsed() < TIMEOUT,
            "the call waited for its timeout: {:?}",
            turn.results()
        );
        let [result] = turn.results() else {
            panic!("not one result: {:?}", turn.results());
        };
        let seen = std::mem::take(&mut *seen.lock().unwrap_or_else(|e| e.into_inner()));
        match expected(&lines, &seen) {
            None => {}
            Some(Expected::Error) => assert!(result.is_error(), "{result:?}"),
            Some(Expected::Result {
                error,
                json,
                text,
                attachments,
            }) => {
                assert_eq!(result.is_error(), error, "{result:?}");
                assert_eq!(result.as_json(), json.as_ref(), "{result:?}");
                if let Some(text) = text {
                    assert_eq!(result.to_text(), text, "{result:?}");
                }
                assert_eq!(result.attachments().len(), attachments, "{result:?}");
            }
        }
        drop(runner);
        server.abort();
    });
});
