//! A [`Structured`] answer read from a stream, event by event.

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::reply::{Reply, ReplyStream, Stop};
use super::{AnswerError, Route, Structured, called, parse_answer};
use crate::provider::Provider;
use crate::schema::ToolSchema;
use crate::wire::call::ToolCall;
use crate::wire::partial::PartialJson;
use crate::wire::stream::{StreamError, ToolCallStream};

/// A [`Structured`] answer assembled from a streamed response: give [`push`](AnswerStream::push)
/// each event, decoded (the JSON payload of a server-sent event's `data:` line, a Gemini chunk),
/// watch the answer grow with [`partial`](AnswerStream::partial), and take it, typed, from
/// [`finish`](AnswerStream::finish).
///
/// [`Route::Native`]: the text deltas of the model's message (Chat `delta.content`, Responses
/// `response.output_text.delta`, Anthropic `text_delta`, Gemini text parts; thoughts and
/// reasoning skipped). [`Route::Tool`]: the answer tool's call, as [`ToolCallStream`] assembles
/// it. Either way the stop reason, refusal and failure events are read as
/// [`Structured::parse`] reads them in a whole response.
///
/// ```
/// use serde_json::json;
/// use toolgen::{Provider, Route, Structured};
///
/// #[derive(toolgen::ToolSchema, serde::Deserialize, Debug, PartialEq)]
/// struct Plan { steps: Vec<String> }
///
/// let plan = Structured::<Plan>::new(Route::Native);
/// let mut stream = plan.stream(Provider::Anthropic);
/// let delta = |text: &str| json!({"type": "content_block_delta", "index": 0,
///     "delta": {"type": "text_delta", "text": text}});
/// stream.push(&json!({"type": "content_block_start", "index": 0,
///     "content_block": {"type": "text", "text": ""}}))?;
/// stream.push(&delta(r#"{"steps": ["boil wa"#))?;
/// assert_eq!(stream.partial(), Some(&json!({"steps": ["boil wa"]})));
/// stream.push(&delta(r#"ter", "add tea"]}"#))?;
/// stream.push(&json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}}))?;
/// assert_eq!(stream.finish()?, Plan { steps: vec!["boil water".into(), "add tea".into()] });
/// # Ok::<(), toolgen::AnswerError>(())
/// ```
#[derive(Debug)]
pub struct AnswerStream<'s, T> {
    output: &'s Structured<T>,
    provider: Provider,
    reply: ReplyStream,
    /// [`Route::Tool`]: the calls being streamed.
    calls: Option<ToolCallStream>,
    /// [`Route::Tool`]: the answer tool's call, once complete.
    call: Option<ToolCall>,
    /// The answer read so far: the text on the native route, a complete call's arguments on the
    /// tool route.
    partial: PartialJson,
    /// How many bytes of that text `partial` has read.
    read: usize,
}

impl<'s, T: ToolSchema + DeserializeOwned> AnswerStream<'s, T> {
    pub(super) fn new(output: &'s Structured<T>, provider: Provider) -> Self {
        let calls = (output.route == Route::Tool && provider != Provider::Mcp)
            .then(|| ToolCallStream::new(provider));
        AnswerStream {
            output,
            provider,
            reply: ReplyStream::new(provider),
            calls,
            call: None,
            partial: PartialJson::new(),
            read: 0,
        }
    }

    /// Reads the next event.
    ///
    /// # Errors
    ///
    /// [`AnswerError::Stream`] when the event is not of the provider's shape (the stream is left
    /// as it was: skipping the event and going on is possible); [`AnswerError::Failed`] when it
    /// reports that the response failed (an `error` event).
    pub fn push(&mut self, event: &Value) -> Result<(), AnswerError> {
        let said = self
            .reply
            .read(event)
            .map_err(|error| AnswerError::Stream(StreamError::from_parse(error)))?;
        let ends = said.stop != Stop::Done && said.stop != Stop::CutOff;
        if !ends && let Some(calls) = &mut self.calls {
            match calls.push(event) {
                Ok(done) => take_answer(&mut self.call, done, self.output.name()),
                Err(StreamError::Failed { provider, message }) => {
                    return Err(AnswerError::Failed { provider, message });
                }
                Err(error) => return Err(AnswerError::Stream(error)),
            }
        }
        let failed = match &said.stop {
            Stop::Failed(message) => Some(message.clone()),
            _ => None,
        };
        self.reply.apply(said);
        match failed {
            Some(message) => Err(AnswerError::Failed {
                provider: self.provider,
                message,
            }),
            None => Ok(()),
        }
    }

    /// The text of the model's message so far: on the [`Route::Native`], the answer's JSON
    /// text; on the [`Route::Tool`], whatever the model wrote beside its call.
    pub fn text(&self) -> &str {
        &self.reply.text
    }

    /// The answer so far, read as [`partial_json`](crate::partial_json) reads an unfinished
    /// text, to show it as it arrives (not yet checked against `T`); `None` before it begins.
    /// Each byte is read once over the whole stream.
    pub fn partial(&mut self) -> Option<&Value> {
        let text = match (&mut self.calls, &self.call) {
            (_, Some(call)) => call.arguments.as_str(),
            (Some(calls), None) => {
                let name = self.output.name();
                return calls
                    .pending()
                    .find(|call| call.name == name)
                    .and_then(|call| call.partial);
            }
            (None, None) => self.reply.text.as_str(),
        };
        if let Some(unread) = text.get(self.read..) {
            self.partial.push(unread);
        }
        self.read = text.len();
        self.partial.value()
    }

    /// Ends the stream: the answer, parsed into `T`.
    ///
    /// # Errors
    ///
    /// As [`Structured::parse`]: [`AnswerError::Refused`], [`CutOff`](AnswerError::CutOff)
    /// (also for a stream that ended inside the answer tool's call),
    /// [`Blocked`](AnswerError::Blocked), [`NoAnswer`](AnswerError::NoAnswer),
    /// [`Invalid`](AnswerError::Invalid).
    pub fn finish(mut self) -> Result<T, AnswerError> {
        if let Some(calls) = &mut self.calls {
            match calls.finish() {
                Ok(done) => take_answer(&mut self.call, done, self.output.name()),
                // Cut off inside the call: a dropped connection, or the token limit.
                Err(StreamError::Unfinished { call, .. }) if call.name == self.output.name() => {
                    return Err(AnswerError::CutOff {
                        provider: self.provider,
                        partial: call.arguments,
                    });
                }
                Err(error) => return Err(AnswerError::Stream(error)),
            }
        }
        let reply = Reply {
            text: Cow::Borrowed(&self.reply.text),
            refusal: self.reply.refusal.take(),
            stop: std::mem::take(&mut self.reply.stop),
        };
        let answer = match &self.calls {
            Some(_) => self.call.as_ref().map(|call| call.arguments.as_str()),
            None => Some(&*self.reply.text),
        };
        called(self.provider, &reply, answer).and_then(parse_answer)
    }
}

/// Keeps the first complete call of the answer tool among `done`.
fn take_answer(answer: &mut Option<ToolCall>, done: Vec<ToolCall>, name: &str) {
    if answer.is_none() {
        *answer = done.into_iter().find(|call| call.name == name);
    }
}
