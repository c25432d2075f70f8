//! OpenAI Chat Completions.
//!
//! `CreateChatCompletionStreamResponse` in the OpenAPI spec (openai/openai-openapi): each chunk
//! has `choices[]` of `{index, delta, finish_reason}` ("can also be empty for the last chunk if
//! you set `stream_options: {"include_usage": true}`"); `delta.tool_calls[]` are
//! `ChatCompletionMessageToolCallChunk`s, where only `index` is required and `id`, `type` and
//! `function.{name, arguments}` are optional (`null` in later fragments). The function calling
//! guide (<https://platform.openai.com/docs/guides/function-calling?api-mode=chat#streaming>) has
//! the first fragment of each call carry its `id` and `function.name` and the later ones append
//! to `function.arguments`, accumulated by `index` until the choice's `finish_reason`. The stream
//! ends with `data: [DONE]`, which is not JSON and not an event.
//!
//! OpenAI-compatible servers deviate (tests/traffic): Mistral sends each call whole in one
//! fragment without `index` or `type`; OpenRouter leaves `arguments` out of a call without any.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::{OpenCall, StreamError, ToolCallStream, failure, read, text};

use crate::provider::Provider;
use crate::wire::call::ToolCall;
use crate::wire::{Obj, Text};

/// `CreateChatCompletionStreamResponse`.
#[derive(Deserialize)]
struct ChatChunk<'a> {
    #[serde(borrow)]
    choices: Vec<Obj<ChunkChoice<'a>>>,
}

#[derive(Deserialize)]
struct ChunkChoice<'a> {
    #[serde(default)]
    index: u64,
    #[serde(default, borrow)]
    delta: Option<Obj<ChunkDelta<'a>>>,
    #[serde(default, borrow)]
    finish_reason: Option<Text<'a>>,
}

#[derive(Deserialize)]
struct ChunkDelta<'a> {
    #[serde(default, borrow)]
    tool_calls: Option<Vec<Obj<ToolCallChunk<'a>>>>,
}

/// `ChatCompletionMessageToolCallChunk`; `index` is required by OpenAI only.
#[derive(Deserialize)]
struct ToolCallChunk<'a> {
    #[serde(default)]
    index: Option<u64>,
    #[serde(default, borrow)]
    id: Option<Text<'a>>,
    #[serde(default, borrow)]
    r#type: Option<Text<'a>>,
    #[serde(default, borrow)]
    function: Option<Obj<FunctionChunk<'a>>>,
}

#[derive(Deserialize)]
struct FunctionChunk<'a> {
    #[serde(default, borrow)]
    name: Option<Text<'a>>,
    #[serde(default, borrow)]
    arguments: Option<Text<'a>>,
}

impl<'a> ToolCallChunk<'a> {
    /// The key of the call this fragment is part of: its `index`, or without one its position
    /// in the chunk's `tool_calls`.
    fn key(&self, position: usize) -> u64 {
        self.index.unwrap_or(position as u64)
    }

    fn name(&self) -> Option<&'a str> {
        let Obj(function) = self.function.as_ref()?;
        text(function.name).filter(|name| !name.is_empty())
    }

    fn id(&self) -> Option<&'a str> {
        text(self.id).filter(|id| !id.is_empty())
    }

    /// A tool type other than `function` (custom tools), which is not ours to follow.
    fn is_other_tool(&self) -> bool {
        text(self.r#type).is_some_and(|kind| kind != "function")
    }

    /// Whether this fragment opens a call, given the id of the call open at its index (`None`
    /// when none is). A new id at an index in use opens another call: some OpenAI-compatible
    /// servers number every call of a parallel batch 0 and tell them apart by id only.
    fn opens_call(&self, open: Option<Option<&str>>) -> bool {
        match (open, self.id()) {
            (None, _) => true,
            (Some(Some(open_id)), Some(id)) => open_id != id,
            (Some(_), _) => false,
        }
    }
}

impl ToolCallStream {
    pub(super) fn push_chat(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        let provider = Provider::OpenAiChat;
        // An error mid-stream comes as a chunk holding only `error`.
        if let Some(error) = event.get("error").filter(|error| !error.is_null()) {
            return Err(failure(provider, error, "type"));
        }
        let chunk: ChatChunk = read(provider, event, "")?;
        // With `n > 1` choices stream side by side; the first is the answer, as in
        // `ToolCall::parse`.
        let first = || {
            chunk
                .choices
                .iter()
                .enumerate()
                .filter(|(_, Obj(choice))| choice.index == 0)
        };
        for (at, Obj(choice)) in first() {
            self.check_chat_fragments(at, choice)?;
        }
        let mut calls = Vec::new();
        for (_, Obj(choice)) in first() {
            if let Some(Obj(delta)) = &choice.delta {
                for (position, Obj(fragment)) in delta.tool_calls.iter().flatten().enumerate() {
                    calls.extend(self.chat_fragment(fragment.key(position), fragment));
                }
            }
            if choice.finish_reason.is_some() {
                calls.extend(
                    std::mem::take(&mut self.open)
                        .into_values()
                        .filter_map(OpenCall::into_call),
                );
            }
        }
        Ok(calls)
    }

    /// Refuses a chunk, before anything of it is taken, if a fragment that opens a call does not
    /// name the call and its function, as the first fragment always does.
    fn check_chat_fragments(&self, at: usize, choice: &ChunkChoice) -> Result<(), StreamError> {
        let Some(Obj(delta)) = &choice.delta else {
            return Ok(());
        };
        let fragments = delta.tool_calls.as_deref().unwrap_or_default();
        // The id open at each index as this chunk's fragments are taken in turn (a chunk usually
        // has one fragment, which needs none of this).
        let mut opened: BTreeMap<u64, Option<&str>> = BTreeMap::new();
        for (position, Obj(fragment)) in fragments.iter().enumerate() {
            let key = fragment.key(position);
            let open = match opened.get(&key) {
                Some(id) => Some(*id),
                None => self.open.get(&key).map(|open| open.id.as_deref()),
            };
            if fragment.opens_call(open) && !fragment.is_other_tool() {
                // Without an `id` (some OpenAI-compatible servers) the call gets a made-up one
                // when it closes, as in a whole response.
                if fragment.name().is_none() {
                    return Err(StreamError::Malformed {
                        provider: Provider::OpenAiChat,
                        path: format!("choices[{at}].delta.tool_calls[{position}]"),
                        message: format!(
                            "the first fragment of tool call {key} has no `function.name`"
                        ),
                    });
                }
            }
            if position + 1 < fragments.len() {
                opened.insert(key, fragment.id().or(open.flatten()));
            }
        }
        Ok(())
    }

    /// Takes one checked fragment of the call under `key`; returns a call it closed by opening
    /// another there.
    fn chat_fragment(&mut self, key: u64, fragment: &ToolCallChunk) -> Vec<ToolCall> {
        let open = self.open.get(&key).map(|open| open.id.as_deref());
        let mut closed = Vec::new();
        if fragment.opens_call(open) {
            let mut call = OpenCall::new(fragment.id(), fragment.name().unwrap_or_default());
            call.skipped = fragment.is_other_tool();
            call.arguments_absent = true;
            closed = self.open_call(key, call);
        }
        if let Some(call) = self.open.get_mut(&key) {
            if call.id.is_none() {
                call.id = fragment.id().map(str::to_owned);
            }
            if let Some(Obj(function)) = &fragment.function
                && let Some(Text(arguments)) = function.arguments
            {
                call.arguments.push_str(arguments);
                call.arguments_absent = false;
            }
        }
        closed
    }
}
