//! Anthropic Messages API.
//!
//! <https://platform.claude.com/docs/en/build-with-claude/streaming>: a message streams as
//! `message_start`, then per content block a `content_block_start`, `content_block_delta`s and a
//! `content_block_stop`, all naming the block by `index`; then `message_delta` and `message_stop`.
//! "The deltas for `tool_use` content blocks correspond to updates for the `input` field of the
//! block ... the deltas are *partial JSON strings*, whereas the final `tool_use.input` is always
//! an *object*", to be accumulated until `content_block_stop`. The block start carries `id`,
//! `name` and `input: {}`. An `error` event reports a failure mid-stream; "new event types may be
//! added, and your code should handle unknown event types gracefully". `server_tool_use` and
//! `mcp_tool_use` blocks stream `input_json_delta`s too, for tools that run on Anthropic's side.
//!
//! Recorded streams go further (tests/traffic): with programmatic tool calling a `tool_use` block
//! called from code (with a `caller`) has its whole `input` in `content_block_start` and no delta;
//! and a server-side tool loop goes on in the same stream with another `message_start` whose
//! `message.content` already holds `tool_use` blocks.

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use super::{
    OpenCall, StreamError, ToolCallStream, member, message_deeper_than_allowed, read, text,
    too_deep,
};

use crate::provider::Provider;
use crate::wire::call::{ToolCall, next_made_up_id};
use crate::wire::{self, Obj, Tag, Text, WireCaller};

/// `message_start`: its `message` is read as a whole response is, when it has `content`.
#[derive(Deserialize)]
struct MessageStart {
    #[serde(default)]
    message: Option<Obj<StartedMessage>>,
}

#[derive(Deserialize)]
struct StartedMessage {
    #[serde(default)]
    content: Option<IgnoredAny>,
}

/// `content_block_start`.
#[derive(Deserialize)]
struct BlockStart<'a> {
    index: u64,
    #[serde(borrow)]
    content_block: Obj<Tag<'a>>,
}

/// The `tool_use` block of a `content_block_start`; its `input` is read apart.
#[derive(Deserialize)]
struct ToolUseStart<'a> {
    #[serde(default, borrow)]
    id: Option<Text<'a>>,
    #[serde(borrow)]
    name: Text<'a>,
    #[serde(default)]
    caller: Option<Obj<WireCaller>>,
}

/// `content_block_delta`.
#[derive(Deserialize)]
struct BlockDelta<'a> {
    index: u64,
    #[serde(borrow)]
    delta: Obj<Tag<'a>>,
}

/// The `input_json_delta` of a `content_block_delta`.
#[derive(Deserialize)]
struct InputJsonDelta<'a> {
    #[serde(borrow)]
    partial_json: Text<'a>,
}

/// `content_block_stop`.
#[derive(Deserialize)]
struct BlockStop {
    index: u64,
}

/// Anthropic's `error` event: `{"type": "error", "error": {"type": "overloaded_error", "message": ..}}`.
#[derive(Deserialize)]
struct AnthropicError<'a> {
    #[serde(borrow)]
    error: Obj<ErrorBody<'a>>,
}

#[derive(Deserialize)]
struct ErrorBody<'a> {
    #[serde(default, borrow)]
    r#type: Option<Text<'a>>,
    #[serde(default, borrow)]
    message: Option<Text<'a>>,
}

impl ToolCallStream {
    pub(super) fn push_anthropic(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        let provider = Provider::Anthropic;
        let Tag { r#type: Text(kind) } = read(provider, event, "")?;
        match kind {
            "message_start" => {
                let MessageStart { message } = read(provider, event, "")?;
                let has_content = matches!(message, Some(Obj(StartedMessage { content: Some(_) })));
                let message = member(event, "message");
                let prefilled = match has_content {
                    true if message_deeper_than_allowed(message) => {
                        return Err(too_deep(provider));
                    }
                    true => wire::anthropic::calls_at(message, "message")
                        .map_err(StreamError::from_parse)?,
                    false => Vec::new(),
                };
                // A new message: calls still open belong to one that was cut off.
                let ended = self.end_message();
                for mut call in prefilled {
                    call.id_or_made_up(&mut self.made_up_ids);
                    self.ready.push(call);
                }
                ended.map(|()| Vec::new())
            }
            "content_block_start" => {
                let BlockStart {
                    index,
                    content_block: Obj(block),
                } = read(provider, event, "")?;
                if block.r#type.0 != "tool_use" {
                    return Ok(Vec::new());
                }
                let block = member(event, "content_block");
                let ToolUseStart {
                    id,
                    name: Text(name),
                    caller,
                } = read(provider, block, "content_block")?;
                let input = block
                    .get("input")
                    .filter(|input| input.as_object().is_some_and(|input| !input.is_empty()));
                if input.is_some_and(message_deeper_than_allowed) {
                    return Err(too_deep(provider));
                }
                let id = match text(id) {
                    Some(id) => id.to_owned(),
                    None => next_made_up_id(&mut self.made_up_ids),
                };
                let mut call = OpenCall::new(Some(&id), name);
                call.caller = caller.map(|Obj(caller)| caller.into());
                if let Some(input) = input {
                    call.arguments = input.to_string();
                    call.prefilled = true;
                }
                Ok(self.open_call(index, call))
            }
            "content_block_delta" => {
                let BlockDelta {
                    index,
                    delta: Obj(delta),
                } = read(provider, event, "")?;
                if delta.r#type.0 == "input_json_delta"
                    && let Some(call) = self.open.get_mut(&index)
                {
                    let InputJsonDelta {
                        partial_json: Text(partial_json),
                    } = read(provider, member(event, "delta"), "delta")?;
                    call.take_delta(partial_json);
                }
                Ok(Vec::new())
            }
            "content_block_stop" => {
                let BlockStop { index } = read(provider, event, "")?;
                let Some(mut call) = self.close(index) else {
                    return Ok(Vec::new());
                };
                // A tool without parameters streams no input (`partial_json: ""`); the block's
                // `input` is then the `{}` it started with (an `input` given whole is in
                // `arguments` already).
                if call.arguments.trim().is_empty() {
                    call.arguments = "{}".to_owned();
                }
                Ok(vec![call])
            }
            "error" => {
                let AnthropicError { error: Obj(error) } = read(provider, event, "")?;
                Err(StreamError::failed(
                    provider,
                    text(error.r#type),
                    text(error.message),
                ))
            }
            _ => Ok(Vec::new()),
        }
    }
}
