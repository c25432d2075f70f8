//! Tool calls assembled from a streamed response: [`ToolCallStream`] takes one decoded stream
//! event at a time and hands back each call as soon as the provider closes it, with
//! [`PendingCall`]s showing the calls still arriving.
//!
//! Each provider streams a call its own way; the formats followed are cited where they are read.
//! What all share is kept here: open calls by the provider's index, their arguments text growing
//! delta by delta (a delta may end anywhere, even inside an escape sequence: only the
//! concatenation is JSON), and a [`PartialJson`] per call that reads each byte once.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, Visitor};
use serde_json::Value;

use crate::provider::Provider;
use crate::wire::call::{ToolCall, ToolCallError, nested_deeper_than, next_made_up_id};
use crate::wire::partial::PartialJson;
use crate::wire::{self, Obj};

/// Assembles the tool calls of a streamed response, event by event.
///
/// Give [`push`](ToolCallStream::push) each event of the stream as it arrives, decoded: the JSON
/// payload of one server-sent event's `data:` line. It returns the calls that event completed, so
/// a call can run while the model is still writing the next one. At the end of the stream,
/// [`finish`](ToolCallStream::finish) returns the calls the provider never closed.
///
/// | `provider` | events | a call opens at | and is complete at |
/// |---|---|---|---|
/// | [`Anthropic`](Provider::Anthropic) | Messages API stream events | `content_block_start` of a `tool_use` block | its `content_block_stop` |
/// | [`OpenAiChat`](Provider::OpenAiChat) | `chat.completion.chunk`s | the first `delta.tool_calls[]` entry of an `index` | the choice's `finish_reason` |
/// | [`OpenAiResponses`](Provider::OpenAiResponses) | Responses API stream events | `response.output_item.added` of a `function_call` | its `response.output_item.done` |
/// | [`Gemini`](Provider::Gemini) | `streamGenerateContent` chunks | a `functionCall` part with `willContinue: true` (Gemini 3's streamed arguments) | the next part without `willContinue: true`; a whole `functionCall` part is complete at once |
/// | [`Mcp`](Provider::Mcp) | JSON-RPC messages | — | its `tools/call` request |
///
/// Text, thinking, reasoning, server-side tools and events of other types are skipped, as
/// [`ToolCall::parse`] skips them. Calls come out as `ToolCall::parse` gives them from the whole
/// response, with the arguments text as it streamed (where `ToolCall::parse` writes an Anthropic
/// `input` object out compactly), and a call sent without an id gets one made up as
/// `ToolCall::parse` makes them up ([`ToolCall::id`]), counted within the stream.
///
/// What providers send besides the documented events, and how it is read:
///
/// - Anthropic: a `tool_use` block whose whole `input` is in its `content_block_start`, with no
///   delta after it (programmatic tool calling), has that input; `tool_use` blocks already in a
///   `message_start` (a server-side tool loop going on; a stream may hold several messages) are
///   calls, complete at that event; a `message_start` while calls are still open ends them as
///   [`finish`](ToolCallStream::finish) would; a block without `id` gets one made up.
/// - OpenAI-compatible Chat servers: a fragment without `type` is a function call's; without
///   `index`, its position in the chunk's `tool_calls` stands for it (calls are then told apart
///   by `id`); a call none of whose fragments had `function.arguments` has `{}`.
/// - Gemini 3's streamed arguments (`streamFunctionCallArguments`): a `functionCall` part with
///   `name` and `willContinue: true` opens a call; the parts after it set values by `jsonPath`
///   in `partialArgs` (`$.a.b[0]`, `$['a']`; `stringValue`, `numberValue`, `boolValue`,
///   `nullValue`; a `stringValue` with `willContinue: true` goes on in the next one for the same
///   path; an index past the end of an array appends); the first part without
///   `willContinue: true` completes it. At the end of the stream an open call is complete unless
///   it stopped inside a string that was to go on. `arguments` is the JSON of the value so far.
///
/// ```
/// use serde_json::json;
/// use toolgen::{Provider, ToolCall, ToolCallStream};
///
/// let events = [
///     json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
///     json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Checking."}}),
///     json!({"type": "content_block_stop", "index": 0}),
///     json!({"type": "content_block_start", "index": 1, "content_block":
///         {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {}}}),
///     json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"city\": \"Ri"}}),
///     json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "ga\"}"}}),
///     json!({"type": "content_block_stop", "index": 1}),
///     json!({"type": "message_stop"}),
/// ];
///
/// let mut stream = ToolCallStream::new(Provider::Anthropic);
/// let mut calls = Vec::new();
/// for event in &events {
///     calls.extend(stream.push(event)?);
/// }
/// calls.extend(stream.finish()?);
/// assert_eq!(calls, [ToolCall::new("get_weather", r#"{"city": "Riga"}"#).with_id("toolu_01")]);
/// # Ok::<(), toolgen::StreamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ToolCallStream {
    provider: Provider,
    /// The calls opened and not yet closed, by the provider's index for them: Anthropic's content
    /// block `index`, Chat's tool call `index`, the Responses API's `output_index`.
    open: BTreeMap<u64, OpenCall>,
    /// How many ids this stream has made up for calls that came without one.
    made_up_ids: u64,
    /// Calls complete but not handed out yet: an event that completed them also reported calls
    /// cut off ([`StreamError::Unfinished`]); the next `push` or `finish` returns them first.
    ready: Vec<ToolCall>,
}

/// A call being streamed.
#[derive(Clone, Debug, Default)]
struct OpenCall {
    id: Option<String>,
    name: String,
    arguments: String,
    /// Responses API: the output item's own id (`fc_...`), which argument events also name.
    item_id: Option<String>,
    /// Chat Completions: a call of another tool type than `function`, followed only to be
    /// skipped, as `ToolCall::parse` skips it.
    skipped: bool,
    /// Anthropic: `arguments` is the `input` given whole in `content_block_start`, which deltas,
    /// if any come, replace.
    prefilled: bool,
    /// Chat Completions: no fragment has had `function.arguments` yet; closed so, the call has
    /// `{}`, as in a whole response.
    arguments_absent: bool,
    /// Gemini: the `thoughtSignature` of the part that opened the call.
    thought_signature: Option<String>,
    /// Gemini 3: arguments streamed as values by path, assembled here.
    assembled: Option<Box<Assembled>>,
    /// The arguments read so far, for [`ToolCallStream::pending`]; it catches up lazily.
    partial: PartialJson,
    /// How many bytes of `arguments` `partial` has read.
    read: usize,
}

/// A call that is still streaming, as [`ToolCallStream::pending`] shows it.
///
/// ```
/// use serde_json::json;
/// use toolgen::{Provider, ToolCallStream};
///
/// let mut stream = ToolCallStream::new(Provider::OpenAiChat);
/// stream.push(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
///     "id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"ci"}}]}}]}))?;
/// let call = stream.pending().next().unwrap();
/// assert_eq!((call.id, call.name, call.arguments), (Some("call_1"), "get_weather", "{\"ci"));
/// assert_eq!(call.partial, Some(&json!({})));
/// # Ok::<(), toolgen::StreamError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct PendingCall<'a> {
    /// The call's id, once the provider has sent it.
    pub id: Option<&'a str>,
    /// The tool's name.
    pub name: &'a str,
    /// The arguments text received so far.
    pub arguments: &'a str,
    /// What the arguments so far stand for ([`partial_json`](crate::partial_json)), to show
    /// them as they arrive; `None` before they begin or if they cannot become JSON.
    pub partial: Option<&'a Value>,
}

impl ToolCallStream {
    /// A stream of `provider`'s events, with no calls yet.
    ///
    /// ```
    /// let mut stream = toolgen::ToolCallStream::new(toolgen::Provider::OpenAiResponses);
    /// assert_eq!(stream.finish(), Ok(vec![]));
    /// ```
    pub fn new(provider: Provider) -> Self {
        ToolCallStream {
            provider,
            open: BTreeMap::new(),
            made_up_ids: 0,
            ready: Vec::new(),
        }
    }

    /// Reads the next event of the stream and returns the calls it completed, in order (often
    /// none).
    ///
    /// A call the provider closes comes out as sent, even if its arguments are not valid JSON
    /// (a response cut short by the token limit): [`ToolCall::parse_args`] then reports it, as it
    /// would for the whole response.
    ///
    /// # Errors
    ///
    /// [`StreamError::Malformed`] when the event lacks a field the provider documents for its
    /// type, or has one of the wrong type; [`StreamError::Failed`] when the event reports that
    /// the response failed (an `error` event, a blocked prompt). The stream is left as it was
    /// before the event, so skipping the event and going on is possible.
    ///
    /// [`StreamError::Unfinished`] when the event starts a new message (Anthropic's
    /// `message_start`) while a call of the message before is still open and its arguments are
    /// not complete JSON: that call was cut off and is dropped. The event is taken all the same:
    /// the calls it completed come out of the next `push` or `finish`.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgen::{Provider, ToolCall, ToolCallStream};
    ///
    /// let mut stream = ToolCallStream::new(Provider::OpenAiResponses);
    /// stream.push(&json!({"type": "response.output_item.added", "output_index": 1, "item": {
    ///     "type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_time", "arguments": ""}}))?;
    /// stream.push(&json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1",
    ///     "output_index": 1, "delta": "{}"}))?;
    /// let done = stream.push(&json!({"type": "response.output_item.done", "output_index": 1, "item": {
    ///     "type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_time", "arguments": "{}"}}))?;
    /// assert_eq!(done, [ToolCall::new("get_time", "{}").with_id("call_1")]);
    ///
    /// let err = stream.push(&json!({"type": "response.output_item.added", "output_index": "2"})).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "malformed OpenAI Responses stream event at `output_index`: invalid type: string \"2\", expected u64"
    /// );
    /// # Ok::<(), toolgen::StreamError>(())
    /// ```
    pub fn push(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        let mut calls = match self.provider {
            Provider::Anthropic => self.push_anthropic(event),
            Provider::OpenAiChat => self.push_chat(event),
            Provider::OpenAiResponses => self.push_responses(event),
            Provider::Gemini => self.push_gemini(event),
            Provider::Mcp => push_mcp(event),
        }?;
        if !self.ready.is_empty() {
            calls.splice(0..0, std::mem::take(&mut self.ready));
        }
        self.make_up_ids(&mut calls);
        Ok(calls)
    }

    /// Gives the calls sent without an id (an OpenAI Chat call from some compatible servers)
    /// the next made-up ids, in order; the other providers' calls get theirs when they open.
    fn make_up_ids(&mut self, calls: &mut [ToolCall]) {
        for call in calls {
            call.id_or_made_up(&mut self.made_up_ids);
        }
    }

    /// Ends the stream: returns the calls still open, in the provider's order. Some
    /// OpenAI-compatible servers end a stream without a `finish_reason`; their calls come out
    /// here. Either way the stream is then empty and can take the next response.
    ///
    /// # Errors
    ///
    /// [`StreamError::Unfinished`] for the first open call whose arguments are not valid JSON
    /// (or, for Gemini's streamed arguments, that stopped inside a string that was to go on):
    /// the stream was cut off inside it, by a dropped connection for example. The other calls
    /// that were open and complete come out of the next `finish` (or `push`).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgen::{Provider, StreamError, ToolCall, ToolCallStream};
    ///
    /// let chunk = |arguments: &str| json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
    ///     "id": "call_1", "type": "function", "function": {"name": "get_time", "arguments": arguments}}]}}]});
    ///
    /// let mut stream = ToolCallStream::new(Provider::OpenAiChat);
    /// stream.push(&chunk("{}"))?;
    /// assert_eq!(stream.finish()?, [ToolCall::new("get_time", "{}").with_id("call_1")]);
    ///
    /// stream.push(&chunk("{\"timezone\": \"Eur"))?;
    /// let err = stream.finish().unwrap_err();
    /// assert!(matches!(&err, StreamError::Unfinished { call, .. } if call.arguments == "{\"timezone\": \"Eur"));
    /// # Ok::<(), toolgen::StreamError>(())
    /// ```
    pub fn finish(&mut self) -> Result<Vec<ToolCall>, StreamError> {
        self.end_message()?;
        let mut calls = std::mem::take(&mut self.ready);
        self.make_up_ids(&mut calls);
        Ok(calls)
    }

    /// Ends the message the open calls belong to: those that are complete go to `ready`, and the
    /// first one that was cut off is the error.
    fn end_message(&mut self) -> Result<(), StreamError> {
        let mut unfinished = None;
        for (_, open) in std::mem::take(&mut self.open) {
            let inside_string = open
                .assembled
                .as_ref()
                .is_some_and(|a| a.continued.is_some());
            if let Some(call) = open.into_call() {
                // Only the text is checked here: its shape is for `parse_args` to judge.
                if !inside_string && serde_json::from_str::<IgnoredAny>(&call.arguments).is_ok() {
                    self.ready.push(call);
                } else if unfinished.is_none() {
                    unfinished = Some(call);
                }
            }
        }
        match unfinished {
            Some(call) => Err(StreamError::Unfinished {
                provider: self.provider,
                call: Box::new(call),
            }),
            None => Ok(()),
        }
    }

    /// The calls still streaming, in the provider's order, with their arguments so far read as
    /// [`partial_json`](crate::partial_json) reads them, to show progress.
    ///
    /// Each call's arguments are read incrementally and only here, so asking after every event
    /// costs about one parse of the arguments over the whole stream, and nothing if never asked.
    /// (Gemini's streamed arguments arrive as values, not text: `partial` is the value assembled
    /// so far, and `arguments` its JSON, written again when asked after a change.)
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgen::{Provider, ToolCallStream};
    ///
    /// let mut stream = ToolCallStream::new(Provider::Anthropic);
    /// stream.push(&json!({"type": "content_block_start", "index": 0, "content_block":
    ///     {"type": "tool_use", "id": "toolu_01", "name": "write_note", "input": {}}}))?;
    /// for piece in [r#"{"title": "Sh"#, r#"opping", "items": ["milk", "br"#] {
    ///     stream.push(&json!({"type": "content_block_delta", "index": 0,
    ///         "delta": {"type": "input_json_delta", "partial_json": piece}}))?;
    /// }
    /// let call = stream.pending().next().unwrap();
    /// assert_eq!(call.partial, Some(&json!({"title": "Shopping", "items": ["milk", "br"]})));
    /// # Ok::<(), toolgen::StreamError>(())
    /// ```
    pub fn pending(&mut self) -> impl Iterator<Item = PendingCall<'_>> {
        self.open
            .values_mut()
            .filter(|open| !open.skipped)
            .map(OpenCall::view)
    }

    /// Opens a call under `key`. A call still open under the same key is closed as it stands:
    /// some OpenAI-compatible servers number every call of a parallel batch 0.
    fn open_call(&mut self, key: u64, call: OpenCall) -> Vec<ToolCall> {
        self.open
            .insert(key, call)
            .and_then(OpenCall::into_call)
            .into_iter()
            .collect()
    }

    /// Closes the call under `key`, if one is open.
    fn close(&mut self, key: u64) -> Option<ToolCall> {
        self.open.remove(&key)?.into_call()
    }
}

impl OpenCall {
    fn new(id: Option<&str>, name: &str) -> Self {
        OpenCall {
            id: id.map(str::to_owned),
            name: name.to_owned(),
            ..OpenCall::default()
        }
    }

    /// Replaces the arguments with their final text. When it extends what was read so far, the
    /// partial value goes on from there.
    fn set_arguments(&mut self, text: &str) {
        if let Some(rest) = text.strip_prefix(self.arguments.as_str()) {
            self.arguments.push_str(rest);
        } else {
            self.arguments = text.to_owned();
            self.partial = PartialJson::new();
            self.read = 0;
        }
    }

    /// Replaces arguments given whole in advance, when the first delta comes.
    fn take_delta(&mut self, delta: &str) {
        if self.prefilled && !delta.is_empty() {
            self.prefilled = false;
            self.set_arguments("");
        }
        self.arguments.push_str(delta);
    }

    fn view(&mut self) -> PendingCall<'_> {
        if let Some(assembled) = &mut self.assembled {
            // Written out again when asked after a change: Gemini streams a call in a few dozen
            // parts, each a whole value or a piece of a string.
            if assembled.changed {
                self.arguments = assembled.value.to_string();
                assembled.changed = false;
            }
            return PendingCall {
                id: self.id.as_deref(),
                name: &self.name,
                arguments: &self.arguments,
                partial: Some(&assembled.value),
            };
        }
        if let Some(unread) = self.arguments.get(self.read..) {
            self.partial.push(unread);
        }
        self.read = self.arguments.len();
        PendingCall {
            id: self.id.as_deref(),
            name: &self.name,
            arguments: &self.arguments,
            partial: self.partial.value(),
        }
    }

    /// The finished call, arguments as sent; `None` for a call that is skipped.
    fn into_call(self) -> Option<ToolCall> {
        if self.skipped {
            return None;
        }
        let arguments = match (self.assembled, self.arguments_absent) {
            (Some(assembled), _) => assembled.value.to_string(),
            (None, true) => "{}".to_owned(),
            (None, false) => self.arguments,
        };
        Some(ToolCall {
            id: self.id,
            thought_signature: self.thought_signature,
            ..ToolCall::new(self.name, arguments)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Anthropic Messages API.
//
// https://platform.claude.com/docs/en/build-with-claude/streaming: a message streams as
// `message_start`, then per content block a `content_block_start`, `content_block_delta`s and a
// `content_block_stop`, all naming the block by `index`; then `message_delta` and `message_stop`.
// "The deltas for `tool_use` content blocks correspond to updates for the `input` field of the
// block ... the deltas are *partial JSON strings*, whereas the final `tool_use.input` is always
// an *object*", to be accumulated until `content_block_stop`. The block start carries `id`,
// `name` and `input: {}`. An `error` event reports a failure mid-stream; "new event types may be
// added, and your code should handle unknown event types gracefully". `server_tool_use` and
// `mcp_tool_use` blocks stream `input_json_delta`s too, for tools that run on Anthropic's side.
//
// Recorded streams go further (tests/traffic): with programmatic tool calling a `tool_use` block
// called from code (with a `caller`) has its whole `input` in `content_block_start` and no delta;
// and a server-side tool loop goes on in the same stream with another `message_start` whose
// `message.content` already holds `tool_use` blocks.

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
    fn push_anthropic(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
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

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions.
//
// `CreateChatCompletionStreamResponse` in the OpenAPI spec (openai/openai-openapi): each chunk
// has `choices[]` of `{index, delta, finish_reason}` ("can also be empty for the last chunk if
// you set `stream_options: {"include_usage": true}`"); `delta.tool_calls[]` are
// `ChatCompletionMessageToolCallChunk`s, where only `index` is required and `id`, `type` and
// `function.{name, arguments}` are optional (`null` in later fragments). The function calling
// guide (https://platform.openai.com/docs/guides/function-calling?api-mode=chat#streaming) has
// the first fragment of each call carry its `id` and `function.name` and the later ones append
// to `function.arguments`, accumulated by `index` until the choice's `finish_reason`. The stream
// ends with `data: [DONE]`, which is not JSON and not an event.
//
// OpenAI-compatible servers deviate (tests/traffic): Mistral sends each call whole in one
// fragment without `index` or `type`; OpenRouter leaves `arguments` out of a call without any.

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
    fn push_chat(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
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

// ---------------------------------------------------------------------------------------------
// OpenAI Responses API.
//
// The function calling guide (https://platform.openai.com/docs/guides/function-calling#streaming):
// "an event of type `response.output_item.added` will be emitted for each function call" with
// `output_index` ("This represents the individual function calls in the response") and the
// in-progress `item` (`type: "function_call"`, `id`, `call_id`, `name`, `arguments: ""`); then
// `response.function_call_arguments.delta` events with `item_id`, `output_index` and the `delta`
// of `arguments`; then `response.function_call_arguments.done` with the whole `arguments`, and
// `response.output_item.done` with the finished item. The API reference adds the `error` and
// `response.failed` events.

/// `response.output_item.added` and `response.output_item.done`.
#[derive(Deserialize)]
struct ItemEvent<'a> {
    output_index: u64,
    #[serde(borrow)]
    item: Obj<Tag<'a>>,
}

/// A `function_call` item (`FunctionToolCall`). Its `id` names the item; `call_id` is what the
/// output answers.
#[derive(Deserialize)]
struct FunctionCallItem<'a> {
    #[serde(default, borrow)]
    id: Option<Text<'a>>,
    #[serde(borrow)]
    call_id: Text<'a>,
    #[serde(borrow)]
    name: Text<'a>,
    #[serde(default, borrow)]
    arguments: Option<Text<'a>>,
}

/// `response.function_call_arguments.delta`.
#[derive(Deserialize)]
struct ArgumentsDelta<'a> {
    #[serde(default)]
    output_index: Option<u64>,
    #[serde(default, borrow)]
    item_id: Option<Text<'a>>,
    #[serde(borrow)]
    delta: Text<'a>,
}

/// `response.function_call_arguments.done`.
#[derive(Deserialize)]
struct ArgumentsDone<'a> {
    #[serde(default)]
    output_index: Option<u64>,
    #[serde(default, borrow)]
    item_id: Option<Text<'a>>,
    #[serde(borrow)]
    arguments: Text<'a>,
}

/// The `error` event's fields at the top level: `{"type": "error", "code": .., "message": ..}`,
/// as the API reference once had it. The API sends them nested,
/// `{"type": "error", "error": {"type", "code", "message", "param"}}`, which is read first.
#[derive(Deserialize)]
struct ResponsesError<'a> {
    #[serde(default, borrow)]
    code: Option<Text<'a>>,
    #[serde(default, borrow)]
    message: Option<Text<'a>>,
}

impl ToolCallStream {
    fn push_responses(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        let provider = Provider::OpenAiResponses;
        let Tag { r#type: Text(kind) } = read(provider, event, "")?;
        match kind {
            "response.output_item.added" => {
                let ItemEvent {
                    output_index,
                    item: Obj(item),
                } = read(provider, event, "")?;
                if item.r#type.0 != "function_call" {
                    return Ok(Vec::new());
                }
                let item: FunctionCallItem = read(provider, member(event, "item"), "item")?;
                let mut call = OpenCall::new(Some(item.call_id.0), item.name.0);
                call.item_id = text(item.id).map(str::to_owned);
                call.arguments = text(item.arguments).unwrap_or_default().to_owned();
                Ok(self.open_call(output_index, call))
            }
            "response.function_call_arguments.delta" => {
                let ArgumentsDelta {
                    output_index,
                    item_id,
                    delta,
                } = read(provider, event, "")?;
                if let Some(call) = self.responses_call(output_index, text(item_id)) {
                    call.arguments.push_str(delta.0);
                }
                Ok(Vec::new())
            }
            "response.function_call_arguments.done" => {
                let ArgumentsDone {
                    output_index,
                    item_id,
                    arguments,
                } = read(provider, event, "")?;
                if let Some(call) = self.responses_call(output_index, text(item_id)) {
                    call.set_arguments(arguments.0);
                }
                Ok(Vec::new())
            }
            "response.output_item.done" => {
                let ItemEvent {
                    output_index,
                    item: Obj(item),
                } = read(provider, event, "")?;
                if item.r#type.0 != "function_call" {
                    return Ok(Vec::new());
                }
                let item: FunctionCallItem = read(provider, member(event, "item"), "item")?;
                // The finished item is the final word; the arguments streamed stand in only if
                // it lacks them.
                let streamed = self.open.remove(&output_index);
                let arguments = match (text(item.arguments), streamed) {
                    (Some(arguments), _) => arguments.to_owned(),
                    (None, Some(streamed)) => streamed.arguments,
                    (None, None) => String::new(),
                };
                Ok(vec![
                    ToolCall::new(item.name.0, arguments).with_id(item.call_id.0),
                ])
            }
            "error" => {
                if let Some(error) = event.get("error").filter(|error| error.is_object()) {
                    return Err(failure(provider, error, "code"));
                }
                let ResponsesError { code, message } = read(provider, event, "")?;
                Err(StreamError::failed(provider, text(code), text(message)))
            }
            "response.failed" => {
                let error = event.pointer("/response/error").unwrap_or(&Value::Null);
                Err(failure(provider, error, "code"))
            }
            _ => Ok(Vec::new()),
        }
    }

    /// The open call an argument event is for: by `output_index`, else by the item's id.
    fn responses_call(
        &mut self,
        output_index: Option<u64>,
        item_id: Option<&str>,
    ) -> Option<&mut OpenCall> {
        let key = output_index
            .filter(|index| self.open.contains_key(index))
            .or_else(|| {
                let item_id = item_id?;
                self.open
                    .iter()
                    .find(|(_, call)| call.item_id.as_deref() == Some(item_id))
                    .map(|(key, _)| *key)
            })?;
        self.open.get_mut(&key)
    }
}

// ---------------------------------------------------------------------------------------------
// Google Gemini `streamGenerateContent`.
//
// Each chunk is a whole `GenerateContentResponse` (https://ai.google.dev/api/generate-content),
// whose `functionCall` parts are read as `ToolCall::parse` reads them, keeping each part's
// `thoughtSignature` (https://ai.google.dev/gemini-api/docs/thought-signatures). A chunk may hold
// only usage or a finish reason and no candidate.
//
// Gemini 3 can also stream a call's arguments (`streamFunctionCallArguments`; Vertex AI's
// `FunctionCall.partialArgs` and `willContinue`, https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content#FunctionCall):
// a part `{name, willContinue: true}` opens the call, parts `{partialArgs: [{jsonPath,
// stringValue | numberValue | boolValue | nullValue, willContinue}], willContinue: true}` give its
// values one by one (a string over several parts while its `willContinue` is true), and a part
// without `willContinue: true`, often an empty `functionCall: {}`, ends it. Recorded streams
// (tests/traffic) also end a call with its last `partialArgs` part, and have parts
// `{willContinue: true}` with nothing in them.

/// The key the one Gemini call streaming at a time is open under.
const GEMINI_CALL: u64 = 0;

/// A `GenerateContentResponse` chunk.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiChunk<'a> {
    #[serde(default, borrow)]
    candidates: Vec<Obj<GeminiCandidate<'a>>>,
    #[serde(default, borrow)]
    prompt_feedback: Option<Obj<GeminiFeedback<'a>>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiFeedback<'a> {
    #[serde(default, borrow)]
    block_reason: Option<Text<'a>>,
}

#[derive(Deserialize)]
struct GeminiCandidate<'a> {
    #[serde(default, borrow)]
    content: Option<Obj<GeminiContent<'a>>>,
}

#[derive(Deserialize)]
struct GeminiContent<'a> {
    #[serde(default, borrow)]
    parts: Vec<Obj<GeminiPart<'a>>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiPart<'a> {
    #[serde(default, borrow)]
    function_call: Option<Obj<StreamedCall<'a>>>,
    #[serde(default, borrow)]
    thought_signature: Option<Text<'a>>,
}

/// A `functionCall` part: a whole call (`name`, `args`), or a piece of a streamed one.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StreamedCall<'a> {
    #[serde(default, borrow)]
    id: Option<Text<'a>>,
    #[serde(default, borrow)]
    name: Option<Text<'a>>,
    #[serde(default)]
    args: Option<Value>,
    #[serde(default, borrow)]
    partial_args: Option<Vec<Obj<PartialArg<'a>>>>,
    #[serde(default)]
    will_continue: Option<bool>,
}

/// A value of a streamed call, at `jsonPath`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PartialArg<'a> {
    #[serde(borrow)]
    json_path: Text<'a>,
    #[serde(default, borrow)]
    string_value: Option<Text<'a>>,
    #[serde(default)]
    number_value: Option<serde_json::Number>,
    #[serde(default)]
    bool_value: Option<bool>,
    /// `nullValue` is there, whatever it holds (`null`, or the enum's `NULL_VALUE`).
    #[serde(default, deserialize_with = "is_there")]
    null_value: bool,
    #[serde(default)]
    will_continue: Option<bool>,
}

fn is_there<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    IgnoredAny::deserialize(deserializer).map(|_| true)
}

impl PartialArg<'_> {
    /// The value to set, if the part gives one.
    fn value(&self) -> Option<Value> {
        if let Some(Text(text)) = self.string_value {
            Some(Value::String(text.to_owned()))
        } else if let Some(number) = &self.number_value {
            Some(Value::Number(number.clone()))
        } else if let Some(flag) = self.bool_value {
            Some(Value::Bool(flag))
        } else {
            self.null_value.then_some(Value::Null)
        }
    }
}

/// A step of a `jsonPath`.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

/// The steps of a JSON path such as `$.a.b[0]` or `$['a']`; `None` if it is not one, or is
/// deeper than `ToolCall::parse` allows.
fn json_path(path: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    let mut rest = path.strip_prefix('$')?;
    while !rest.is_empty() {
        if steps.len() >= ToolCallError::MAX_DEPTH {
            return None;
        }
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            let (key, next) = after.split_at(end);
            if key.is_empty() {
                return None;
            }
            steps.push(Step::Key(key.to_owned()));
            rest = next;
        } else {
            let after = rest.strip_prefix('[')?;
            let quote = after.chars().next().filter(|c| *c == '\'' || *c == '"');
            if let Some(quote) = quote {
                let inner = &after[1..];
                let end = inner.find(quote)?;
                steps.push(Step::Key(inner[..end].to_owned()));
                rest = inner[end + 1..].strip_prefix(']')?;
            } else {
                let end = after.find(']')?;
                steps.push(Step::Index(after[..end].parse().ok()?));
                rest = &after[end + 1..];
            }
        }
    }
    Some(steps)
}

/// The arguments of a Gemini call streamed as values by path.
#[derive(Clone, Debug)]
struct Assembled {
    value: Value,
    /// The path of the string a `willContinue` said goes on in the next value.
    continued: Option<String>,
    /// Whether `value` changed since `arguments` was written from it.
    changed: bool,
}

impl Assembled {
    fn new(value: Value) -> Self {
        Assembled {
            value,
            continued: None,
            changed: true,
        }
    }

    /// Sets the value of `arg` at its path (`steps`), or goes on with the string there.
    fn set(&mut self, steps: &[Step], arg: &PartialArg) {
        let path = arg.json_path.0;
        if let Some(value) = arg.value()
            && let Some(at) = slot(&mut self.value, steps)
        {
            match (&mut *at, &value) {
                (Value::String(so_far), Value::String(more))
                    if self.continued.as_deref() == Some(path) =>
                {
                    so_far.push_str(more);
                }
                _ => *at = value,
            }
            self.changed = true;
        }
        let goes_on = arg.string_value.is_some() && arg.will_continue == Some(true);
        self.continued = goes_on.then(|| path.to_owned());
    }
}

/// The place at `steps` in `value`, made where missing: an object or array replaces what is in
/// the way, and an index past the end of an array appends.
fn slot<'v>(value: &'v mut Value, steps: &[Step]) -> Option<&'v mut Value> {
    steps.iter().try_fold(value, |value, step| match step {
        Step::Key(key) => {
            if !value.is_object() {
                *value = Value::Object(serde_json::Map::new());
            }
            match value {
                Value::Object(map) => Some(map.entry(key.clone()).or_insert(Value::Null)),
                _ => None,
            }
        }
        Step::Index(index) => {
            if !value.is_array() {
                *value = Value::Array(Vec::new());
            }
            match value {
                Value::Array(items) => {
                    if *index >= items.len() {
                        items.push(Value::Null);
                    }
                    let at = (*index).min(items.len().saturating_sub(1));
                    items.get_mut(at)
                }
                _ => None,
            }
        }
    })
}

impl ToolCallStream {
    fn push_gemini(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        let provider = Provider::Gemini;
        if let Some(error) = event.get("error").filter(|error| !error.is_null()) {
            return Err(failure(provider, error, "status"));
        }
        // Typed deserialization of `args` recurses; refuse values deep enough to threaten the
        // stack first, as `ToolCall::parse` does.
        if message_deeper_than_allowed(event) {
            return Err(too_deep(provider));
        }
        let chunk: GeminiChunk = read(provider, event, "")?;
        let Some(Obj(candidate)) = chunk.candidates.first() else {
            return match chunk
                .prompt_feedback
                .and_then(|Obj(f)| text(f.block_reason))
            {
                Some(reason) => Err(StreamError::from_parse(ToolCallError::NoCandidates {
                    provider,
                    block_reason: Some(reason.to_owned()),
                })),
                None => Ok(Vec::new()),
            };
        };
        let parts: &[Obj<GeminiPart>] = match &candidate.content {
            Some(Obj(content)) => &content.parts,
            None => &[],
        };
        let paths = self.check_gemini_parts(parts)?;
        let mut calls = Vec::new();
        for (Obj(part), paths) in parts.iter().zip(paths) {
            let Some(Obj(call)) = &part.function_call else {
                continue;
            };
            if let Some(Text(name)) = call.name {
                let id = match text(call.id) {
                    Some(id) => id.to_owned(),
                    None => next_made_up_id(&mut self.made_up_ids),
                };
                let mut open = OpenCall::new(Some(&id), name);
                open.thought_signature = text(part.thought_signature).map(str::to_owned);
                let args = call
                    .args
                    .clone()
                    .unwrap_or_else(|| Value::Object(Default::default()));
                open.assembled = Some(Box::new(Assembled::new(args)));
                calls.extend(self.open_call(GEMINI_CALL, open));
            }
            if let Some(assembled) = self
                .open
                .get_mut(&GEMINI_CALL)
                .and_then(|open| open.assembled.as_mut())
            {
                for (Obj(arg), steps) in call.partial_args.iter().flatten().zip(&paths) {
                    assembled.set(steps, arg);
                }
            }
            if call.will_continue != Some(true) {
                calls.extend(self.close(GEMINI_CALL));
            }
        }
        Ok(calls)
    }

    /// Checks a chunk's parts before any is taken, and reads the paths of their values.
    fn check_gemini_parts(
        &self,
        parts: &[Obj<GeminiPart>],
    ) -> Result<Vec<Vec<Vec<Step>>>, StreamError> {
        let malformed = |path: String, message: &str| StreamError::Malformed {
            provider: Provider::Gemini,
            path,
            message: message.to_owned(),
        };
        let mut streaming = self.open.contains_key(&GEMINI_CALL);
        let mut paths = Vec::with_capacity(parts.len());
        for (index, Obj(part)) in parts.iter().enumerate() {
            let at = format!("candidates[0].content.parts[{index}].functionCall");
            let Some(Obj(call)) = &part.function_call else {
                paths.push(Vec::new());
                continue;
            };
            if call.name.is_none() && call.args.is_some() {
                return Err(malformed(at, "missing field `name`"));
            }
            streaming |= call.name.is_some();
            let args = call.partial_args.as_deref().unwrap_or_default();
            if !args.is_empty() && !streaming {
                return Err(malformed(at, "arguments for no call: no call is streaming"));
            }
            let mut steps = Vec::with_capacity(args.len());
            for (arg_index, Obj(arg)) in args.iter().enumerate() {
                let path = arg.json_path.0;
                steps.push(json_path(path).ok_or_else(|| {
                    malformed(
                        format!("{at}.partialArgs[{arg_index}].jsonPath"),
                        &format!("`{path}` is not a JSON path such as `$.a.b[0]`"),
                    )
                })?);
            }
            paths.push(steps);
            if call.will_continue != Some(true) {
                streaming = false;
            }
        }
        Ok(paths)
    }
}

// ---------------------------------------------------------------------------------------------
// Model Context Protocol: a server reads whole JSON-RPC messages; each `tools/call` request is a
// call, and every other message (other requests, notifications, responses) is skipped.

fn push_mcp(message: &Value) -> Result<Vec<ToolCall>, StreamError> {
    match message.get("method").and_then(Value::as_str) {
        Some("tools/call") => {
            ToolCall::parse(Provider::Mcp, message).map_err(StreamError::from_parse)
        }
        _ => Ok(Vec::new()),
    }
}

// ---------------------------------------------------------------------------------------------
// Reading events.

/// An event or item by its `type`, read first so that only the events of interest are read in
/// full.
#[derive(Deserialize)]
struct Tag<'a> {
    #[serde(borrow)]
    r#type: Text<'a>,
}

/// A string of an event, borrowed from it (serde's `&str` would say "a borrowed string" in its
/// errors).
#[derive(Clone, Copy)]
struct Text<'a>(&'a str);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;

        impl<'de> Visitor<'de> for TextVisitor {
            type Value = &'de str;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }

            fn visit_borrowed_str<E: serde::de::Error>(
                self,
                text: &'de str,
            ) -> Result<&'de str, E> {
                Ok(text)
            }
        }

        deserializer.deserialize_str(TextVisitor).map(Text)
    }
}

/// The text of an optional string.
fn text(text: Option<Text<'_>>) -> Option<&str> {
    text.map(|Text(text)| text)
}

/// Reads `provider`'s event type `T` out of `value`, found at JSON path `at` in the event. Events
/// are read straight away; only a failure is read again to find the path of the problem.
fn read<'de, T: Deserialize<'de>>(
    provider: Provider,
    value: &'de Value,
    at: &str,
) -> Result<T, StreamError> {
    match Obj::<T>::deserialize(value) {
        Ok(Obj(wire)) => Ok(wire),
        Err(_) => Err(locate::<T>(provider, value, at)),
    }
}

#[cold]
fn locate<'de, T: Deserialize<'de>>(
    provider: Provider,
    value: &'de Value,
    at: &str,
) -> StreamError {
    match serde_path_to_error::deserialize::<_, Obj<T>>(value) {
        Err(error) => StreamError::from_parse(ToolCallError::malformed(provider, at, &error)),
        // Both reads see the same value; should they ever disagree, say so without a path.
        Ok(_) => StreamError::Malformed {
            provider,
            path: at.to_owned(),
            message: "the event could not be read".to_owned(),
        },
    }
}

/// Whether a value the stream reads whole nests deeper than `ToolCall::parse` allows: reading
/// or writing it would recurse that deep.
fn message_deeper_than_allowed(value: &Value) -> bool {
    nested_deeper_than(value, ToolCallError::MAX_DEPTH)
}

fn too_deep(provider: Provider) -> StreamError {
    StreamError::from_parse(ToolCallError::TooDeep {
        provider,
        limit: ToolCallError::MAX_DEPTH,
    })
}

/// The member `key` of an event already read as an object with that member.
fn member<'a>(event: &'a Value, key: &str) -> &'a Value {
    event.get(key).unwrap_or(&Value::Null)
}

/// The failure an error object in the stream reports: its `message` (or the error itself, when
/// it is a string), with its kind under `kind_key` (`type`, `code`, `status`) when given.
fn failure(provider: Provider, error: &Value, kind_key: &str) -> StreamError {
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .or_else(|| error.as_str());
    let kind = error.get(kind_key).and_then(Value::as_str);
    StreamError::failed(provider, kind, message)
}

/// Why a [`ToolCallStream`] could not take an event, or could not finish.
///
/// ```
/// use serde_json::json;
/// use toolgen::{Provider, StreamError, ToolCallStream};
///
/// let mut stream = ToolCallStream::new(Provider::Anthropic);
/// let overloaded = json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
/// let err = stream.push(&overloaded).unwrap_err();
/// assert!(matches!(err, StreamError::Failed { .. }));
/// assert_eq!(err.to_string(), "the Anthropic stream failed: overloaded_error: Overloaded");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StreamError {
    /// An event lacks a field the provider documents for its type, has one of the wrong type, or
    /// is not a JSON object.
    Malformed {
        /// The API whose events were expected.
        provider: Provider,
        /// The JSON path of the problem in the event, such as `delta.partial_json`; empty for
        /// the whole event.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// The provider reported in the stream that the response failed: an `error` event, or a
    /// Gemini prompt that was blocked.
    Failed {
        /// The API that sent the stream.
        provider: Provider,
        /// The provider's message, with its error type or code when given.
        message: String,
    },
    /// The stream ended inside a call: its arguments are not valid JSON.
    Unfinished {
        /// The API that sent the stream.
        provider: Provider,
        /// The call as far as it came, with the arguments received.
        call: Box<ToolCall>,
    },
}

impl StreamError {
    fn failed(provider: Provider, kind: Option<&str>, message: Option<&str>) -> Self {
        let message = match (kind, message) {
            (Some(kind), Some(message)) => format!("{kind}: {message}"),
            (Some(text), None) | (None, Some(text)) => text.to_owned(),
            (None, None) => "no message given".to_owned(),
        };
        StreamError::Failed { provider, message }
    }

    /// The error for an event read with `ToolCall::parse`, or by the wire types' rules.
    fn from_parse(error: ToolCallError) -> Self {
        match error {
            ToolCallError::Malformed {
                provider,
                path,
                message,
            } => StreamError::Malformed {
                provider,
                path,
                message,
            },
            ToolCallError::NoCandidates {
                provider,
                block_reason,
            } => StreamError::Failed {
                provider,
                message: match block_reason {
                    Some(reason) => format!("the prompt was blocked ({reason})"),
                    None => "the response has no candidate".to_owned(),
                },
            },
            ToolCallError::NotToolsCall { method } => StreamError::Malformed {
                provider: Provider::Mcp,
                path: "method".to_owned(),
                message: format!("`{method}` is not `tools/call`"),
            },
            ToolCallError::TooDeep { provider, limit } => StreamError::Malformed {
                provider,
                path: String::new(),
                message: format!("nested deeper than {limit} levels"),
            },
        }
    }
}

impl std::fmt::Display for StreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamError::Malformed {
                provider,
                path,
                message,
            } => {
                write!(f, "malformed {provider} stream event")?;
                if !path.is_empty() {
                    write!(f, " at `{path}`")?;
                }
                write!(f, ": {message}")
            }
            StreamError::Failed { provider, message } => {
                write!(f, "the {provider} stream failed: {message}")
            }
            StreamError::Unfinished { provider, call } => write!(
                f,
                "the {provider} stream ended inside the call of `{}`: its arguments are not \
                 complete JSON",
                call.name
            ),
        }
    }
}

impl std::error::Error for StreamError {}
