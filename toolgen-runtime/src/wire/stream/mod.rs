//! Tool calls assembled from a streamed response: [`ToolCallStream`] takes one decoded stream
//! event at a time and hands back each call as soon as the provider closes it, with
//! [`PendingCall`]s showing the calls still arriving.
//!
//! Each provider streams a call its own way; the formats followed are cited where they are read.
//! What all share is kept here: open calls by the provider's index, their arguments text growing
//! delta by delta (a delta may end anywhere, even inside an escape sequence: only the
//! concatenation is JSON), and a [`PartialJson`] per call that reads each byte once.

mod anthropic;
mod gemini;
mod mcp;
mod openai_chat;
mod openai_responses;

use std::collections::BTreeMap;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use crate::provider::Provider;
use crate::wire::call::{Caller, ToolCall, ToolCallError, nested_deeper_than};
use crate::wire::partial::PartialJson;
use crate::wire::{self, Text};

use gemini::Assembled;
use mcp::push_mcp;

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
    /// Anthropic and OpenAI Responses: the call's `caller` (programmatic tool calling).
    caller: Option<Caller>,
    /// OpenAI Responses: the function's `namespace`.
    namespace: Option<String>,
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
            caller: self.caller,
            namespace: self.namespace,
            ..ToolCall::new(self.name, arguments)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Reading events.

/// The text of an optional string.
fn text(text: Option<Text<'_>>) -> Option<&str> {
    text.map(|Text(text)| text)
}

/// Reads `provider`'s event type `T` out of `value`, found at JSON path `at` in the event, as
/// [`wire::read_at`] reads a whole response.
fn read<'de, T: Deserialize<'de>>(
    provider: Provider,
    value: &'de Value,
    at: &str,
) -> Result<T, StreamError> {
    wire::read_at(provider, value, at).map_err(StreamError::from_parse)
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
    pub(crate) fn from_parse(error: ToolCallError) -> Self {
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
            ToolCallError::CallFailed { provider, reason } => StreamError::Failed {
                provider,
                message: format!("the model's tool call failed ({reason})"),
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
