//! OpenAI: Chat Completions (`tool_calls` on the assistant message, answered by `role: "tool"`
//! messages) and the Responses API (`function_call` output items, answered by
//! `function_call_output` input items).
//!
//! Follows the OpenAPI subset in `shared/specs/openai-tools.openapi-subset.json` (from
//! openai/openai-openapi 2.3.0): `ChatCompletionMessageToolCall`,
//! `ChatCompletionRequestToolMessage`, `FunctionToolCall` and `FunctionCallOutputItemParam`, and
//! <https://platform.openai.com/docs/guides/function-calling>. Arguments arrive as a string that
//! "the model does not always generate valid JSON" (`ChatCompletionMessageToolCall`), so they are
//! kept exactly as sent.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{Obj, Tag, WireCaller, items, read, read_at, write};
use crate::provider::Provider;
use crate::wire::call::{ToolCall, ToolCallError};
use crate::wire::result::ToolResult;

/// A chat completion (`object: "chat.completion"`).
#[derive(Deserialize)]
struct ChatCompletion {
    choices: Vec<Obj<Choice>>,
}

#[derive(Deserialize)]
struct Choice {
    message: Obj<ChatMessage>,
}

/// The assistant's message; `tool_calls` is absent or `null` when the model only wrote text. Its
/// items are read one by one.
#[derive(Deserialize)]
struct ChatMessage {
    #[serde(default)]
    tool_calls: Option<Vec<Obj<ChatTag>>>,
}

/// A tool call's `type`. OpenAI always sends it; some OpenAI-compatible servers (Mistral) leave
/// it out of function calls, the only kind they have.
#[derive(Deserialize)]
struct ChatTag {
    #[serde(default)]
    r#type: Option<String>,
}

/// `ChatCompletionMessageToolCall` of `type: "function"`. Calls of other tool types (`custom`)
/// are not function tools of ours and are skipped. `id` is required by OpenAI; a call from an
/// OpenAI-compatible server without one gets a made-up id (`ToolCall::parse`).
#[derive(Deserialize)]
struct ChatToolCall {
    #[serde(default)]
    id: Option<String>,
    function: Obj<ChatFunction>,
}

/// `arguments` is required by OpenAI; some OpenAI-compatible servers (OpenRouter) leave it out
/// of a call without arguments, which then has `{}`.
#[derive(Deserialize)]
struct ChatFunction {
    name: String,
    #[serde(default)]
    arguments: Option<String>,
}

pub(crate) fn chat_calls(response: &Value) -> Result<Vec<ToolCall>, ToolCallError> {
    let provider = Provider::OpenAiChat;
    let completion: ChatCompletion = read(provider, response)?;
    // With `n > 1` there are several alternative choices; the first is the answer.
    let Some(Obj(choice)) = completion.choices.into_iter().next() else {
        return Err(ToolCallError::NoCandidates {
            provider,
            block_reason: None,
        });
    };
    let Obj(message) = choice.message;
    let tags = message.tool_calls.unwrap_or_default();
    let list = items(
        response,
        "/choices/0/message/tool_calls",
        "choices[0].message.tool_calls",
    );
    let mut calls = Vec::new();
    for (Obj(tag), (at, item)) in tags.iter().zip(list) {
        if tag.r#type.as_deref().is_none_or(|kind| kind == "function") {
            let ChatToolCall {
                id,
                function: Obj(function),
            } = read_at(provider, item, &at)?;
            let arguments = function.arguments.unwrap_or_else(|| "{}".to_owned());
            let mut call = ToolCall::new(function.name, arguments);
            call.id = id;
            calls.push(call);
        }
    }
    Ok(calls)
}

/// A Responses API response (`object: "response"`): `output` is a list of items (`message`,
/// `reasoning`, `function_call`, built-in tool calls, ...), read one by one.
#[derive(Deserialize)]
struct Response<'a> {
    #[serde(borrow)]
    output: Vec<Obj<Tag<'a>>>,
}

/// `FunctionToolCall`. Its `id` (`fc_...`) names the item; `call_id` is what the output answers.
#[derive(Deserialize)]
struct FunctionCall {
    call_id: String,
    name: String,
    arguments: String,
    /// Set when code the model wrote made the call (programmatic tool calling); its output
    /// must carry it back.
    #[serde(default)]
    caller: Option<Obj<WireCaller>>,
    #[serde(default)]
    namespace: Option<String>,
}

pub(crate) fn responses_calls(response: &Value) -> Result<Vec<ToolCall>, ToolCallError> {
    let provider = Provider::OpenAiResponses;
    let Response { output } = read(provider, response)?;
    let mut calls = Vec::new();
    for (Obj(tag), (at, item)) in output.iter().zip(items(response, "/output", "output")) {
        if tag.r#type.0 == "function_call" {
            let call: FunctionCall = read_at(provider, item, &at)?;
            calls.push(ToolCall {
                caller: call.caller.map(|Obj(caller)| caller.into()),
                namespace: call.namespace,
                ..ToolCall::new(call.name, call.arguments).with_id(call.call_id)
            });
        }
    }
    Ok(calls)
}

/// `ChatCompletionRequestToolMessage`, with string content. Chat has no error flag: an error is
/// the text.
#[derive(Serialize)]
struct ToolMessage<'a> {
    role: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_call_id: Option<&'a str>,
    content: Cow<'a, str>,
}

pub(crate) fn render_chat_result(call: &ToolCall, result: &ToolResult) -> Value {
    let mut content = result.to_text();
    // Images and files cannot go in a tool message: a note says what is missing.
    for attachment in result.attachments() {
        let text = content.to_mut();
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&attachment.note("OpenAI Chat"));
    }
    write(&ToolMessage {
        role: "tool",
        tool_call_id: call.id.as_deref(),
        content,
    })
}

/// `FunctionCallOutputItemParam`, with string output ("A JSON string of the output of the function
/// tool call"; any text is accepted). No error flag either. `caller` and `namespace` are the
/// call's, sent back so that a program's call gets its answer (programmatic tool calling).
#[derive(Serialize)]
struct FunctionCallOutput<'a> {
    r#type: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    call_id: Option<&'a str>,
    output: Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    caller: Option<CallerParam<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<&'a str>,
}

/// `ToolCallCallerParam`: `{"type": "direct"}` or `{"type": "program", "caller_id"}`.
#[derive(Serialize)]
struct CallerParam<'a> {
    r#type: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    caller_id: Option<&'a str>,
}

pub(crate) fn render_responses_result(call: &ToolCall, result: &ToolResult) -> Value {
    let mut output = write(&FunctionCallOutput {
        r#type: "function_call_output",
        call_id: call.id.as_deref(),
        output: result.to_text(),
        caller: call.caller.as_ref().map(|caller| CallerParam {
            r#type: &caller.kind,
            caller_id: caller.id.as_deref(),
        }),
        namespace: call.namespace.as_deref(),
    });
    if !result.attachments().is_empty() {
        // `output` as a list: the text, an `input_image` per image, an `input_file` per file.
        let mut items = Vec::new();
        let text = result.to_text();
        if !text.is_empty() {
            items.push(json!({"type": "input_text", "text": text}));
        }
        for attachment in result.attachments() {
            items.push(if attachment.is_image() {
                json!({"type": "input_image", "image_url": attachment.data_url()})
            } else {
                json!({
                    "type": "input_file",
                    "file_data": attachment.data_url(),
                    "filename": attachment.name().unwrap_or("attachment"),
                })
            });
        }
        if let Some(object) = output.as_object_mut() {
            object.insert("output".to_owned(), Value::Array(items));
        }
    }
    output
}
