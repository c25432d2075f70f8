//! Anthropic Messages API: `tool_use` blocks in the assistant's message, `tool_result` blocks in
//! the user message that answers it.
//!
//! Follows <https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls>
//! ("Handle tool calls": `tool_use` has `id`, `name` and an `input` object; `tool_result` has
//! `tool_use_id`, optional `content` as a string, and `is_error`) and
//! <https://platform.claude.com/docs/en/agents-and-tools/tool-use/parallel-tool-use> (every result
//! of a turn goes in the one next user message).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{Obj, Tag, WireCaller, items, read_at, write};
use crate::provider::Provider;
use crate::wire::call::{ToolCall, ToolCallError};
use crate::wire::result::ToolResult;

/// A Messages API response (`type: "message"`): its `content` is a list of blocks (`text`,
/// `thinking`, `tool_use`, `server_tool_use`, ...), read one by one.
#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    content: Vec<Obj<Tag<'a>>>,
}

/// A `tool_use` block: a call of a client tool. Server tools run on Anthropic's side and need no
/// answer. The API always sends an `id`; some compatible servers do not, and the call then gets
/// one made up (see [`ToolCall::id`]).
#[derive(Deserialize)]
struct ToolUse {
    #[serde(default)]
    id: Option<String>,
    name: String,
    input: Value,
    /// Set with programmatic tool calling: `direct`, or the code execution tool that ran the
    /// code making the call.
    #[serde(default)]
    caller: Option<Obj<WireCaller>>,
}

pub(crate) fn calls(response: &Value) -> Result<Vec<ToolCall>, ToolCallError> {
    calls_at(response, "")
}

/// The calls of a message found at JSON path `at` (a stream's `message_start` holds one under
/// `message`), without made-up ids yet.
pub(crate) fn calls_at(message: &Value, at: &str) -> Result<Vec<ToolCall>, ToolCallError> {
    let provider = Provider::Anthropic;
    let Message { content } = read_at(provider, message, at)?;
    let path = match at {
        "" => "content".to_owned(),
        _ => format!("{at}.content"),
    };
    let mut calls = Vec::new();
    for (Obj(tag), (at, block)) in content.iter().zip(items(message, "/content", &path)) {
        if tag.r#type.0 == "tool_use" {
            let ToolUse {
                id,
                name,
                input,
                caller,
            } = read_at(provider, block, &at)?;
            calls.push(ToolCall {
                id,
                caller: caller.map(|Obj(caller)| caller.into()),
                ..ToolCall::new(name, input.to_string())
            });
        }
    }
    Ok(calls)
}

/// A block of the user message that answers tool calls.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum UserBlock<'a> {
    ToolResult {
        #[serde(skip_serializing_if = "Option::is_none")]
        tool_use_id: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        content: Option<Cow<'a, str>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        is_error: Option<bool>,
    },
    Text {
        text: &'a str,
    },
}

#[derive(Serialize)]
struct UserMessage {
    role: &'static str,
    content: Vec<Value>,
}

// The API rejects a `tool_result` with `is_error: true` and no content ("content cannot be empty
// if `is_error` is true", https://github.com/bytedance/trae-agent/issues/230).
const EMPTY_ERROR: &str = "the tool failed without a message";

fn result_block<'a>(call: &'a ToolCall, result: &'a ToolResult) -> UserBlock<'a> {
    let text = result.to_text();
    let content = match (text.is_empty(), result.is_error()) {
        (false, _) => Some(text),
        (true, true) => Some(Cow::Borrowed(EMPTY_ERROR)),
        // `content` is optional; an empty string is rejected as empty content.
        (true, false) => None,
    };
    UserBlock::ToolResult {
        tool_use_id: call.id.as_deref(),
        content,
        is_error: result.is_error().then_some(true),
    }
}

pub(crate) fn render_result(call: &ToolCall, result: &ToolResult) -> Value {
    if result.attachments().is_empty() {
        write(&result_block(call, result))
    } else {
        with_attachments(call, result)
    }
}

/// A `tool_result` whose content is blocks: its text, then an `image` block per image and a
/// `document` block per file.
fn with_attachments(call: &ToolCall, result: &ToolResult) -> Value {
    let mut blocks = Vec::new();
    let mut text = result.to_text().into_owned();
    // The API takes images of four types, and documents as PDF (base64): anything else is a
    // note in the text, as for OpenAI Chat.
    let (taken, noted): (Vec<_>, Vec<_>) = result.attachments().iter().partition(|attachment| {
        if attachment.is_image() {
            matches!(
                attachment.media_type(),
                "image/jpeg" | "image/png" | "image/gif" | "image/webp"
            )
        } else {
            attachment.media_type() == "application/pdf"
        }
    });
    for attachment in noted {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&attachment.note("Anthropic"));
    }
    // A blank text block is refused.
    if !text.trim().is_empty() {
        blocks.push(json!({"type": "text", "text": text}));
    } else if result.is_error() {
        blocks.push(json!({"type": "text", "text": EMPTY_ERROR}));
    }
    for attachment in taken {
        let source = json!({
            "type": "base64",
            "media_type": attachment.media_type(),
            "data": attachment.data(),
        });
        blocks.push(if attachment.is_image() {
            json!({"type": "image", "source": source})
        } else {
            let mut block = json!({"type": "document", "source": source});
            if let (Some(name), Some(object)) = (attachment.name(), block.as_object_mut()) {
                object.insert("title".to_owned(), json!(name));
            }
            block
        });
    }
    let mut block = json!({"type": "tool_result"});
    if let Some(object) = block.as_object_mut() {
        if let Some(id) = &call.id {
            object.insert("tool_use_id".to_owned(), json!(id));
        }
        object.insert("content".to_owned(), Value::Array(blocks));
        if result.is_error() {
            object.insert("is_error".to_owned(), json!(true));
        }
    }
    block
}

pub(crate) fn user_message<'a>(
    results: impl IntoIterator<Item = (&'a ToolCall, &'a ToolResult)>,
    extra_text: Option<&'a str>,
) -> Value {
    // "In the user message containing tool results, the tool_result blocks must come FIRST in the
    // content array. Any text must come AFTER all tool results" (handle-tool-calls, above); and
    // text blocks must not be blank.
    let mut content: Vec<Value> = results
        .into_iter()
        .map(|(call, result)| render_result(call, result))
        .collect();
    if let Some(text) = extra_text.filter(|text| !text.trim().is_empty()) {
        content.push(write(&UserBlock::Text { text }));
    }
    write(&UserMessage {
        role: "user",
        content,
    })
}
