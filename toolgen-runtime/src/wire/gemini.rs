//! Google Gemini `generateContent`: `functionCall` parts in the candidate's content, answered by
//! `functionResponse` parts.
//!
//! Follows the API reference <https://ai.google.dev/api/caching#Part> (`FunctionCall`: `name`,
//! optional `args` object and `id`; `FunctionResponse`: `name`, optional `id`, and a `response`
//! object that uses "`output` key to specify function output and `error` key to specify error
//! details"), <https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse> (no
//! `candidates` when `promptFeedback.blockReason` says the prompt was blocked) and
//! <https://ai.google.dev/gemini-api/docs/thought-signatures> (a `thoughtSignature` sits beside the
//! `functionCall` in its part, only on the first of parallel calls, and must be sent back on that
//! same part).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Obj, arguments_text, read, write};
use crate::provider::Provider;
use crate::wire::call::{ToolCall, ToolCallError, is_made_up_id};
use crate::wire::result::{Output, ToolResult};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GenerateContentResponse {
    #[serde(default)]
    candidates: Vec<Obj<Candidate>>,
    #[serde(default)]
    prompt_feedback: Option<Obj<PromptFeedback>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PromptFeedback {
    #[serde(default)]
    block_reason: Option<String>,
}

/// A candidate; `content` is absent when the answer itself was blocked (see `finishReason`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Candidate {
    #[serde(default)]
    content: Option<Obj<Content>>,
    #[serde(default)]
    finish_reason: Option<String>,
}

/// What a candidate's `finishReason` says of the turn, by the meaning Gemini documents for it
/// (<https://ai.google.dev/api/generate-content#FinishReason>): read by `ToolCall::parse` and by
/// structured answers, for a whole response and a stream alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Finish {
    /// `STOP`, or `FINISH_REASON_UNSPECIFIED`: the turn ended as the model meant it to (or has
    /// not ended yet).
    Done,
    /// `MAX_TOKENS`: cut off by the token limit.
    CutOff,
    /// Stopped by a filter: `SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`,
    /// `IMAGE_SAFETY`, `IMAGE_PROHIBITED_CONTENT`, `IMAGE_RECITATION`, and Vertex AI's
    /// `MODEL_ARMOR`.
    Blocked,
    /// Stopped at a tool call Gemini would not pass on: `MALFORMED_FUNCTION_CALL` (it does not
    /// parse), `UNEXPECTED_TOOL_CALL` (a tool the request does not offer), `TOO_MANY_TOOL_CALLS`
    /// (calls in a row until Gemini ended the turn).
    CallFailed,
    /// Stopped for another reason: `LANGUAGE`, `OTHER`, `MALFORMED_RESPONSE`,
    /// `MISSING_THOUGHT_SIGNATURE`, `IMAGE_OTHER`, `NO_IMAGE`, and any reason not documented yet.
    Stopped,
}

impl Finish {
    /// The meaning of the `finishReason` `reason`.
    pub(crate) fn of(reason: &str) -> Finish {
        match reason {
            "STOP" | "FINISH_REASON_UNSPECIFIED" => Finish::Done,
            "MAX_TOKENS" => Finish::CutOff,
            "SAFETY"
            | "RECITATION"
            | "BLOCKLIST"
            | "PROHIBITED_CONTENT"
            | "SPII"
            | "IMAGE_SAFETY"
            | "IMAGE_PROHIBITED_CONTENT"
            | "IMAGE_RECITATION"
            | "MODEL_ARMOR" => Finish::Blocked,
            "MALFORMED_FUNCTION_CALL" | "UNEXPECTED_TOOL_CALL" | "TOO_MANY_TOOL_CALLS" => {
                Finish::CallFailed
            }
            _ => Finish::Stopped,
        }
    }
}

/// The error for a turn whose `finishReason` is `reason`, where it says the model's tool call
/// failed ([`Finish::CallFailed`]): no call reaches the caller, who should know why.
pub(crate) fn call_failed(reason: Option<&str>) -> Option<ToolCallError> {
    let reason = reason?;
    (Finish::of(reason) == Finish::CallFailed).then(|| ToolCallError::CallFailed {
        provider: Provider::Gemini,
        reason: reason.to_owned(),
    })
}

#[derive(Deserialize)]
struct Content {
    #[serde(default)]
    parts: Vec<Obj<Part>>,
}

/// A part holds one kind of data (`text`, `functionCall`, ...) plus metadata such as
/// `thoughtSignature`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Part {
    #[serde(default)]
    function_call: Option<Obj<FunctionCall>>,
    #[serde(default)]
    thought_signature: Option<String>,
}

#[derive(Deserialize)]
struct FunctionCall {
    #[serde(default)]
    id: Option<String>,
    name: String,
    #[serde(default)]
    args: Option<Value>,
}

pub(crate) fn calls(response: &Value) -> Result<Vec<ToolCall>, ToolCallError> {
    let response: GenerateContentResponse = read(Provider::Gemini, response)?;
    let Some(Obj(candidate)) = response.candidates.into_iter().next() else {
        return Err(ToolCallError::NoCandidates {
            provider: Provider::Gemini,
            block_reason: response.prompt_feedback.and_then(|Obj(f)| f.block_reason),
        });
    };
    if let Some(error) = call_failed(candidate.finish_reason.as_deref()) {
        return Err(error);
    }
    let parts = candidate.content.map(|Obj(c)| c.parts).unwrap_or_default();
    Ok(parts
        .into_iter()
        .filter_map(|Obj(part)| {
            let Obj(call) = part.function_call?;
            Some(ToolCall {
                id: call.id,
                thought_signature: part.thought_signature,
                ..ToolCall::new(call.name, arguments_text(call.args.as_ref()))
            })
        })
        .collect())
}

/// A `Part` holding a `FunctionResponse`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FunctionResponsePart<'a> {
    function_response: FunctionResponse<'a>,
}

#[derive(Serialize)]
struct FunctionResponse<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a str>,
    response: Response<'a>,
}

/// The `response` object: `{"output": ..}` or `{"error": ..}`.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum Response<'a> {
    Output(Payload<'a>),
    Error(Payload<'a>),
}

/// A text result is a JSON string; a JSON result goes in as the value itself.
#[derive(Serialize)]
#[serde(untagged)]
enum Payload<'a> {
    Text(&'a str),
    Json(&'a Value),
}

pub(crate) fn render_result(call: &ToolCall, result: &ToolResult) -> Value {
    let payload = match result.output() {
        Output::Text(text) => Payload::Text(text),
        Output::Json(value) => Payload::Json(value),
    };
    let mut part = write(&FunctionResponsePart {
        function_response: FunctionResponse {
            name: &call.name,
            // Gemini matches a response to a call without an id by name and order; an id made
            // up for such a call means nothing to it.
            id: call.id.as_deref().filter(|id| !is_made_up_id(id)),
            response: if result.is_error() {
                Response::Error(payload)
            } else {
                Response::Output(payload)
            },
        },
    });
    if !result.attachments().is_empty() {
        // Gemini 3's multimodal function responses: `inlineData` parts inside the response.
        let parts: Vec<Value> = result
            .attachments()
            .iter()
            .map(|attachment| {
                let mut data = serde_json::json!({
                    "mimeType": attachment.media_type(),
                    "data": attachment.data(),
                });
                if let (Some(name), Some(object)) = (attachment.name(), data.as_object_mut()) {
                    object.insert("displayName".to_owned(), Value::from(name));
                }
                serde_json::json!({ "inlineData": data })
            })
            .collect();
        if let Some(response) = part
            .get_mut("functionResponse")
            .and_then(Value::as_object_mut)
        {
            response.insert("parts".to_owned(), Value::Array(parts));
        }
    }
    part
}
