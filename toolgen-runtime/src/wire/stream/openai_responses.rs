//! OpenAI Responses API.
//!
//! The function calling guide (<https://platform.openai.com/docs/guides/function-calling#streaming>):
//! "an event of type `response.output_item.added` will be emitted for each function call" with
//! `output_index` ("This represents the individual function calls in the response") and the
//! in-progress `item` (`type: "function_call"`, `id`, `call_id`, `name`, `arguments: ""`); then
//! `response.function_call_arguments.delta` events with `item_id`, `output_index` and the `delta`
//! of `arguments`; then `response.function_call_arguments.done` with the whole `arguments`, and
//! `response.output_item.done` with the finished item. The API reference adds the `error` and
//! `response.failed` events.

use serde::Deserialize;
use serde_json::Value;

use super::{OpenCall, StreamError, ToolCallStream, failure, member, read, text};

use crate::provider::Provider;
use crate::wire::call::{Caller, ToolCall};
use crate::wire::{Obj, Tag, Text, WireCaller};

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
    #[serde(default)]
    caller: Option<Obj<WireCaller>>,
    #[serde(default, borrow)]
    namespace: Option<Text<'a>>,
}

impl FunctionCallItem<'_> {
    /// The item's `caller` and `namespace`, for the call.
    fn origin(&mut self) -> (Option<Caller>, Option<String>) {
        (
            self.caller.take().map(|Obj(caller)| caller.into()),
            text(self.namespace).map(str::to_owned),
        )
    }
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
    pub(super) fn push_responses(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
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
                let mut item: FunctionCallItem = read(provider, member(event, "item"), "item")?;
                let mut call = OpenCall::new(Some(item.call_id.0), item.name.0);
                (call.caller, call.namespace) = item.origin();
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
                let mut item: FunctionCallItem = read(provider, member(event, "item"), "item")?;
                // The finished item is the final word; the arguments streamed stand in only if
                // it lacks them.
                let streamed = self.open.remove(&output_index);
                let arguments = match (text(item.arguments), streamed) {
                    (Some(arguments), _) => arguments.to_owned(),
                    (None, Some(streamed)) => streamed.arguments,
                    (None, None) => String::new(),
                };
                let (caller, namespace) = item.origin();
                Ok(vec![ToolCall {
                    caller,
                    namespace,
                    ..ToolCall::new(item.name.0, arguments).with_id(item.call_id.0)
                }])
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
