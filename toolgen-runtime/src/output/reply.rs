//! What a model answered in words: the text of a whole response, whether the model refused, and
//! why it stopped, read for each provider ([`read`]) and, event by event, from a stream
//! ([`ReplyStream`]).
//!
//! Read by hand over the `serde_json::Value` rather than as typed structs: only a few fields are
//! wanted, each may be absent or `null`, and the answer's text is borrowed where it is one piece.
//! A field of the wrong type is an error naming its JSON path, in serde's words.
//!
//! Followed:
//! - OpenAI Chat: `CreateChatCompletionResponse`, `ChatCompletionResponseMessage` (`content`,
//!   `refusal`) and `finish_reason` (`length`, `content_filter`) in the OpenAPI spec
//!   (`shared/specs`); the stream's `choices[].delta.{content,refusal}`.
//! - OpenAI Responses: `output[]` items of `type: "message"` whose `content[]` holds
//!   `output_text` (`text`) and `refusal` (`refusal`) parts; `status` and
//!   `incomplete_details.reason` (`max_output_tokens`, `content_filter`); the stream's
//!   `response.output_text.delta`, `response.refusal.delta`, `response.completed`,
//!   `response.incomplete`, `response.failed` and `error` events
//!   (<https://platform.openai.com/docs/guides/structured-outputs>).
//! - Anthropic: `content[]` `text` blocks, `stop_reason` (`refusal`, `max_tokens`,
//!   `model_context_window_exceeded`); the stream's `content_block_start`/`content_block_delta`
//!   (`text_delta`), `message_delta` and `error` events
//!   (<https://platform.claude.com/docs/en/build-with-claude/structured-outputs>).
//! - Gemini: `candidates[0].content.parts[].text`, skipping parts with `thought: true`;
//!   `finishReason` by its documented meaning (`wire::gemini::Finish`:
//!   <https://ai.google.dev/api/generate-content#FinishReason>); `promptFeedback.blockReason` without candidates; a stream's chunks are of the
//!   same shape (<https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse>).
//! - MCP: a `sampling/createMessage` result (`CreateMessageResult`: `content` a text block or a
//!   list of blocks, `stopReason` `maxTokens`), alone or in its JSON-RPC response.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::parse::schema_check::unexpected;
use crate::provider::Provider;
use crate::wire::call::ToolCallError;
use crate::wire::gemini::Finish;

/// Why the model stopped, as far as the answer is concerned.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Stop {
    /// It finished (or the provider has not said yet).
    #[default]
    Done,
    /// It ran out of tokens: the answer is cut off.
    CutOff,
    /// It was stopped for safety, a content filter, recitation, or another reason than the
    /// answer's end; the provider's word for it.
    Blocked(String),
    /// The provider ended the turn at a tool call it would not pass on (Gemini's
    /// `MALFORMED_FUNCTION_CALL`, ..); its word for it.
    CallFailed(String),
    /// It stopped for a reason that is neither the answer's end, a limit, a filter nor a call
    /// (Gemini's `LANGUAGE`, `OTHER`, ..); the provider's word for it.
    Stopped(String),
    /// The provider reports that the response failed; its message.
    Failed(String),
}

/// What a response says in words.
#[derive(Debug, Default)]
pub(crate) struct Reply<'a> {
    /// The answer's text: its pieces joined (thoughts and reasoning left out).
    pub(crate) text: Cow<'a, str>,
    /// The model's refusal, when it refused (OpenAI's `refusal`, Anthropic's `stop_reason:
    /// "refusal"` with the text it wrote).
    pub(crate) refusal: Option<String>,
    /// Why it stopped.
    pub(crate) stop: Stop,
}

impl<'a> Reply<'a> {
    fn push(&mut self, piece: &'a str) {
        if self.text.is_empty() {
            self.text = Cow::Borrowed(piece);
        } else {
            self.text.to_mut().push_str(piece);
        }
    }
}

/// Reads `provider`'s whole response.
pub(crate) fn read(provider: Provider, response: &Value) -> Result<Reply<'_>, ToolCallError> {
    let mut reply = Reply::default();
    let at = Fields::new(provider);
    match provider {
        Provider::OpenAiChat => {
            let root = at.object(response, "")?;
            let Some(choice) = at.array(root.get("choices"), "choices")?.first() else {
                return Ok(reply);
            };
            let choice = at.object(choice, "choices[0]")?;
            let message = at.object(
                choice.get("message").unwrap_or(&Value::Null),
                "choices[0].message",
            )?;
            chat_message(&at, message, "choices[0].message", &mut reply)?;
            reply.stop =
                chat_stop(at.string(choice.get("finish_reason"), "choices[0].finish_reason")?);
        }
        Provider::OpenAiResponses => {
            let root = at.object(response, "")?;
            for (i, item) in at.array(root.get("output"), "output")?.iter().enumerate() {
                let path = format!("output[{i}]");
                let item = at.object(item, &path)?;
                if at.string(item.get("type"), &format!("{path}.type"))? != Some("message") {
                    continue;
                }
                let content = at.array(item.get("content"), &format!("{path}.content"))?;
                for (j, part) in content.iter().enumerate() {
                    responses_part(&at, part, &format!("{path}.content[{j}]"), &mut reply)?;
                }
            }
            reply.stop = responses_stop(&at, root, "")?;
        }
        Provider::Anthropic => {
            let root = at.object(response, "")?;
            for (i, block) in at.array(root.get("content"), "content")?.iter().enumerate() {
                let path = format!("content[{i}]");
                let block = at.object(block, &path)?;
                if at.string(block.get("type"), &format!("{path}.type"))? == Some("text")
                    && let Some(text) = at.string(block.get("text"), &format!("{path}.text"))?
                {
                    reply.push(text);
                }
            }
            anthropic_stop(
                at.string(root.get("stop_reason"), "stop_reason")?,
                &mut reply,
            );
        }
        Provider::Gemini => gemini_chunk(&at, response, &mut reply)?,
        Provider::Mcp => {
            let root = at.object(response, "")?;
            if let Some(error) = root.get("error") {
                reply.stop = Stop::Failed(failure_message(error));
                return Ok(reply);
            }
            let (result, path) = match root.get("result") {
                Some(result) => (at.object(result, "result")?, "result."),
                None => (root, ""),
            };
            let content = result.get("content").unwrap_or(&Value::Null);
            let blocks = match content {
                Value::Array(blocks) => blocks.as_slice(),
                Value::Null => &[],
                block => std::slice::from_ref(block),
            };
            for (i, block) in blocks.iter().enumerate() {
                let block_path = match content {
                    Value::Array(_) => format!("{path}content[{i}]"),
                    _ => format!("{path}content"),
                };
                let block = at.object(block, &block_path)?;
                if at.string(block.get("type"), &format!("{block_path}.type"))? == Some("text")
                    && let Some(text) =
                        at.string(block.get("text"), &format!("{block_path}.text"))?
                {
                    reply.push(text);
                }
            }
            if at.string(result.get("stopReason"), &format!("{path}stopReason"))?
                == Some("maxTokens")
            {
                reply.stop = Stop::CutOff;
            }
        }
    }
    Ok(reply)
}

/// A Chat Completions message's (or stream delta's) `content` and `refusal`. `content` is a
/// string; some OpenAI-compatible servers send a list of `{"type":"text","text"}` parts.
fn chat_message<'a>(
    at: &Fields,
    message: &'a Map<String, Value>,
    path: &str,
    reply: &mut Reply<'a>,
) -> Result<(), ToolCallError> {
    match message.get("content") {
        Some(Value::Array(parts)) => {
            for (i, part) in parts.iter().enumerate() {
                let part_path = format!("{path}.content[{i}]");
                let part = at.object(part, &part_path)?;
                if at.string(part.get("type"), &format!("{part_path}.type"))? == Some("text")
                    && let Some(text) = at.string(part.get("text"), &format!("{part_path}.text"))?
                {
                    reply.push(text);
                }
            }
        }
        content => {
            if let Some(text) = at.string(content, &format!("{path}.content"))? {
                reply.push(text);
            }
        }
    }
    if let Some(refusal) = at.string(message.get("refusal"), &format!("{path}.refusal"))? {
        reply.refusal.get_or_insert_default().push_str(refusal);
    }
    Ok(())
}

fn chat_stop(finish_reason: Option<&str>) -> Stop {
    match finish_reason {
        Some("length") => Stop::CutOff,
        Some("content_filter") => Stop::Blocked("content_filter".to_owned()),
        _ => Stop::Done,
    }
}

/// A part of a Responses API `message` item: `output_text` or `refusal`.
fn responses_part<'a>(
    at: &Fields,
    part: &'a Value,
    path: &str,
    reply: &mut Reply<'a>,
) -> Result<(), ToolCallError> {
    let part = at.object(part, path)?;
    match at.string(part.get("type"), &format!("{path}.type"))? {
        Some("output_text") => {
            if let Some(text) = at.string(part.get("text"), &format!("{path}.text"))? {
                reply.push(text);
            }
        }
        Some("refusal") => {
            let refusal = at.string(part.get("refusal"), &format!("{path}.refusal"))?;
            reply
                .refusal
                .get_or_insert_default()
                .push_str(refusal.unwrap_or_default());
        }
        _ => {}
    }
    Ok(())
}

/// A Responses API response's `status`, `incomplete_details` and `error`, at `path`.
fn responses_stop(
    at: &Fields,
    response: &Map<String, Value>,
    path: &str,
) -> Result<Stop, ToolCallError> {
    let status = at.string(response.get("status"), &join(path, "status"))?;
    Ok(match status {
        Some("incomplete") => {
            let reason = match response.get("incomplete_details") {
                Some(Value::Null) | None => None,
                Some(details) => {
                    let details_path = join(path, "incomplete_details");
                    let details = at.object(details, &details_path)?;
                    at.string(details.get("reason"), &format!("{details_path}.reason"))?
                }
            };
            match reason {
                Some("max_output_tokens") | None => Stop::CutOff,
                Some(reason) => Stop::Blocked(reason.to_owned()),
            }
        }
        Some("failed") => Stop::Failed(
            response
                .get("error")
                .map_or_else(|| "no message given".to_owned(), failure_message),
        ),
        _ => Stop::Done,
    })
}

fn anthropic_stop(stop_reason: Option<&str>, reply: &mut Reply<'_>) {
    match stop_reason {
        Some("refusal") => reply.refusal = Some(reply.text.clone().into_owned()),
        Some("max_tokens" | "model_context_window_exceeded") => reply.stop = Stop::CutOff,
        _ => {}
    }
}

/// A Gemini response, or one chunk of its stream: the first candidate's text parts (thoughts
/// left out), its `finishReason`, and `promptFeedback.blockReason` when there is no candidate.
fn gemini_chunk<'a>(
    at: &Fields,
    response: &'a Value,
    reply: &mut Reply<'a>,
) -> Result<(), ToolCallError> {
    let root = at.object(response, "")?;
    let Some(candidate) = at.array(root.get("candidates"), "candidates")?.first() else {
        if let Some(feedback) = root.get("promptFeedback").filter(|f| !f.is_null()) {
            let feedback = at.object(feedback, "promptFeedback")?;
            if let Some(reason) =
                at.string(feedback.get("blockReason"), "promptFeedback.blockReason")?
            {
                reply.stop = Stop::Blocked(reason.to_owned());
            }
        }
        return Ok(());
    };
    let candidate = at.object(candidate, "candidates[0]")?;
    if let Some(content) = candidate.get("content").filter(|c| !c.is_null()) {
        let content = at.object(content, "candidates[0].content")?;
        let parts = at.array(content.get("parts"), "candidates[0].content.parts")?;
        for (i, part) in parts.iter().enumerate() {
            let path = format!("candidates[0].content.parts[{i}]");
            let part = at.object(part, &path)?;
            if part.get("thought").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            if let Some(text) = at.string(part.get("text"), &format!("{path}.text"))? {
                reply.push(text);
            }
        }
    }
    if let Some(reason) = at.string(candidate.get("finishReason"), "candidates[0].finishReason")? {
        let reason = reason.to_owned();
        match Finish::of(&reason) {
            Finish::Done => {}
            Finish::CutOff => reply.stop = Stop::CutOff,
            Finish::Blocked => reply.stop = Stop::Blocked(reason),
            Finish::CallFailed => reply.stop = Stop::CallFailed(reason),
            Finish::Stopped => reply.stop = Stop::Stopped(reason),
        }
    }
    Ok(())
}

/// An error object's `message` (with its `type` or `code`), or the error itself as text.
fn failure_message(error: &Value) -> String {
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .or_else(|| error.as_str());
    let kind = ["type", "code"]
        .iter()
        .find_map(|key| error.get(key).and_then(Value::as_str));
    match (kind, message) {
        (Some(kind), Some(message)) => format!("{kind}: {message}"),
        (Some(text), None) | (None, Some(text)) => text.to_owned(),
        (None, None) => error.to_string(),
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// Reading fields of a provider's response, each error naming its JSON path.
struct Fields {
    provider: Provider,
}

impl Fields {
    fn new(provider: Provider) -> Self {
        Fields { provider }
    }

    fn malformed(&self, path: &str, value: &Value, expected: &str) -> ToolCallError {
        ToolCallError::Malformed {
            provider: self.provider,
            path: path.to_owned(),
            message: format!("invalid type: {}, expected {expected}", unexpected(value)),
        }
    }

    fn object<'a>(
        &self,
        value: &'a Value,
        path: &str,
    ) -> Result<&'a Map<String, Value>, ToolCallError> {
        value
            .as_object()
            .ok_or_else(|| self.malformed(path, value, "a JSON object"))
    }

    /// An array, or none for an absent or `null` member.
    fn array<'a>(
        &self,
        value: Option<&'a Value>,
        path: &str,
    ) -> Result<&'a [Value], ToolCallError> {
        match value {
            None | Some(Value::Null) => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(other) => Err(self.malformed(path, other, "a sequence")),
        }
    }

    /// A string, or none for an absent or `null` member.
    fn string<'a>(
        &self,
        value: Option<&'a Value>,
        path: &str,
    ) -> Result<Option<&'a str>, ToolCallError> {
        match value {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(other) => Err(self.malformed(path, other, "a string")),
        }
    }
}

/// What a streamed response has said so far in words, event by event.
#[derive(Debug)]
pub(crate) struct ReplyStream {
    provider: Provider,
    /// The answer's text so far.
    pub(crate) text: String,
    /// The refusal so far, once the model began one.
    pub(crate) refusal: Option<String>,
    /// Why it stopped, once it said.
    pub(crate) stop: Stop,
}

impl ReplyStream {
    pub(crate) fn new(provider: Provider) -> Self {
        ReplyStream {
            provider,
            text: String::new(),
            refusal: None,
            stop: Stop::Done,
        }
    }

    /// Reads one event (the JSON payload of a server-sent event, a Gemini chunk, an MCP
    /// result) without taking it: [`ReplyStream::apply`] does.
    pub(crate) fn read<'e>(&self, event: &'e Value) -> Result<Reply<'e>, ToolCallError> {
        let at = Fields::new(self.provider);
        let mut reply = Reply::default();
        match self.provider {
            Provider::OpenAiChat => {
                let root = at.object(event, "")?;
                if let Some(error) = root.get("error").filter(|e| !e.is_null()) {
                    reply.stop = Stop::Failed(failure_message(error));
                }
                for (i, choice) in at.array(root.get("choices"), "choices")?.iter().enumerate() {
                    let path = format!("choices[{i}]");
                    let choice = at.object(choice, &path)?;
                    // With `n > 1` the choices alternate; the first (index 0) is the answer.
                    if choice.get("index").and_then(Value::as_u64).unwrap_or(0) != 0 {
                        continue;
                    }
                    if let Some(delta) = choice.get("delta").filter(|d| !d.is_null()) {
                        let delta_path = format!("{path}.delta");
                        chat_message(&at, at.object(delta, &delta_path)?, &delta_path, &mut reply)?;
                    }
                    let finish = at.string(
                        choice.get("finish_reason"),
                        &format!("{path}.finish_reason"),
                    )?;
                    if finish.is_some() {
                        reply.stop = chat_stop(finish);
                    }
                }
            }
            Provider::OpenAiResponses => {
                let root = at.object(event, "")?;
                match at.string(root.get("type"), "type")? {
                    Some("response.output_text.delta") => {
                        if let Some(delta) = at.string(root.get("delta"), "delta")? {
                            reply.push(delta);
                        }
                    }
                    Some("response.refusal.delta") => {
                        let delta = at.string(root.get("delta"), "delta")?;
                        reply.refusal = Some(delta.unwrap_or_default().to_owned());
                    }
                    Some("response.completed" | "response.incomplete" | "response.failed") => {
                        let response =
                            at.object(root.get("response").unwrap_or(&Value::Null), "response")?;
                        reply.stop = responses_stop(&at, response, "response")?;
                    }
                    Some("error") => reply.stop = Stop::Failed(failure_message(event)),
                    _ => {}
                }
            }
            Provider::Anthropic => {
                let root = at.object(event, "")?;
                match at.string(root.get("type"), "type")? {
                    Some("content_block_start") => {
                        let block = at.object(
                            root.get("content_block").unwrap_or(&Value::Null),
                            "content_block",
                        )?;
                        if at.string(block.get("type"), "content_block.type")? == Some("text")
                            && let Some(text) =
                                at.string(block.get("text"), "content_block.text")?
                        {
                            reply.push(text);
                        }
                    }
                    Some("content_block_delta") => {
                        let delta =
                            at.object(root.get("delta").unwrap_or(&Value::Null), "delta")?;
                        if at.string(delta.get("type"), "delta.type")? == Some("text_delta")
                            && let Some(text) = at.string(delta.get("text"), "delta.text")?
                        {
                            reply.push(text);
                        }
                    }
                    Some("message_delta") => {
                        let delta =
                            at.object(root.get("delta").unwrap_or(&Value::Null), "delta")?;
                        let stop = at.string(delta.get("stop_reason"), "delta.stop_reason")?;
                        match stop {
                            Some("refusal") => {
                                reply.refusal = Some(format!("{}{}", self.text, reply.text));
                            }
                            _ => anthropic_stop(stop, &mut reply),
                        }
                    }
                    Some("error") => {
                        let error = root.get("error").unwrap_or(event);
                        reply.stop = Stop::Failed(failure_message(error));
                    }
                    _ => {}
                }
            }
            Provider::Gemini => gemini_chunk(&at, event, &mut reply)?,
            Provider::Mcp => reply = read(Provider::Mcp, event)?,
        }
        Ok(reply)
    }

    /// Takes what [`ReplyStream::read`] read of an event.
    pub(crate) fn apply(&mut self, reply: Reply<'_>) {
        self.text.push_str(&reply.text);
        if let Some(refusal) = reply.refusal {
            self.refusal.get_or_insert_default().push_str(&refusal);
        }
        if reply.stop != Stop::Done {
            self.stop = reply.stop;
        }
    }
}
