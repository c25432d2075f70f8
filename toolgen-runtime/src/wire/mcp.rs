//! Model Context Protocol (2025-11-25): the `tools/call` JSON-RPC request a server receives, and
//! the `CallToolResult` it answers with.
//!
//! Follows `shared/specs/mcp-2025-11-25.schema.json` (`CallToolRequest`, `CallToolRequestParams`,
//! `RequestId`, `CallToolResult`, `TextContent`, `JSONRPCResultResponse`) and
//! <https://modelcontextprotocol.io/specification/2025-11-25/server/tools>: "a tool that returns
//! structured content SHOULD also return the serialized JSON in a TextContent block", and input
//! validation errors are tool execution errors (`isError: true`) the model can see, not protocol
//! errors (SEP-1303,
//! <https://modelcontextprotocol.io/community/seps/1303-input-validation-errors-as-tool-execution-errors>).

use std::borrow::Cow;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};

use super::{Obj, arguments_text, read, write};
use crate::provider::Provider;
use crate::wire::call::{ToolCall, ToolCallError};
use crate::wire::result::{Attachment, Output, ToolResult};

/// `RequestId`: a string or an integer.
enum RequestId {
    String(String),
    Integer(Number),
}

// By hand rather than `#[serde(untagged)]`, for an error that says what an id may be.
impl<'de> Deserialize<'de> for RequestId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdVisitor;

        impl Visitor<'_> for IdVisitor {
            type Value = RequestId;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON-RPC id (a string or an integer)")
            }

            fn visit_str<E: de::Error>(self, id: &str) -> Result<RequestId, E> {
                Ok(RequestId::String(id.to_owned()))
            }

            fn visit_i64<E: de::Error>(self, id: i64) -> Result<RequestId, E> {
                Ok(RequestId::Integer(id.into()))
            }

            fn visit_u64<E: de::Error>(self, id: u64) -> Result<RequestId, E> {
                Ok(RequestId::Integer(id.into()))
            }
        }

        deserializer.deserialize_any(IdVisitor)
    }
}

/// The JSON-RPC envelope, read first so that another method is reported as such rather than as
/// missing `tools/call` parameters.
#[derive(Deserialize)]
struct Envelope {
    method: String,
}

/// `CallToolRequest`.
#[derive(Deserialize)]
struct CallToolRequest {
    id: RequestId,
    params: Obj<CallToolParams>,
}

/// `CallToolRequestParams`: `arguments` is optional.
#[derive(Deserialize)]
struct CallToolParams {
    name: String,
    #[serde(default)]
    arguments: Option<Value>,
}

pub(crate) fn calls(request: &Value) -> Result<Vec<ToolCall>, ToolCallError> {
    let envelope: Envelope = read(Provider::Mcp, request)?;
    if envelope.method != "tools/call" {
        return Err(ToolCallError::NotToolsCall {
            method: envelope.method,
        });
    }
    let CallToolRequest {
        id,
        params: Obj(params),
    } = read(Provider::Mcp, request)?;
    let (id, rpc_number) = match id {
        RequestId::String(id) => (id, None),
        RequestId::Integer(number) => (number.to_string(), Some(number)),
    };
    Ok(vec![ToolCall {
        id: Some(id),
        rpc_number,
        ..ToolCall::new(params.name, arguments_text(params.arguments.as_ref()))
    }])
}

/// `CallToolResult` with text content only.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallToolResult<'a> {
    content: [TextContent<'a>; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    structured_content: Option<&'a Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    is_error: Option<bool>,
}

/// `TextContent`.
#[derive(Serialize)]
struct TextContent<'a> {
    r#type: &'static str,
    text: Cow<'a, str>,
}

fn call_tool_result(result: &ToolResult) -> CallToolResult<'_> {
    // `structuredContent` must be an object in 2025-11-25; other JSON goes out as text only.
    let structured_content = match result.output() {
        Output::Json(Value::Object(object)) => Some(object),
        _ => None,
    };
    CallToolResult {
        content: [TextContent {
            r#type: "text",
            text: result.to_text(),
        }],
        structured_content,
        is_error: result.is_error().then_some(true),
    }
}

pub(crate) fn render_result(result: &ToolResult) -> Value {
    let mut rendered = write(&call_tool_result(result));
    add_attachments(&mut rendered, result);
    rendered
}

/// Appends to a `CallToolResult`'s `content` an `ImageContent` per image and an
/// `EmbeddedResource` (`blob`) per file.
fn add_attachments(rendered: &mut Value, result: &ToolResult) {
    let Some(Value::Array(content)) = rendered.get_mut("content") else {
        return;
    };
    for (index, attachment) in result.attachments().iter().enumerate() {
        content.push(if attachment.is_image() {
            serde_json::json!({
                "type": "image",
                "data": attachment.data(),
                "mimeType": attachment.media_type(),
            })
        } else {
            let uri = attachment_uri(attachment, index);
            serde_json::json!({
                "type": "resource",
                "resource": {"uri": uri, "mimeType": attachment.media_type(), "blob": attachment.data()},
            })
        });
    }
}

/// The URI of an `EmbeddedResource` for the file `attachment`, the `index`th of its result: by
/// its name, else by its place.
pub(crate) fn attachment_uri(attachment: &Attachment, index: usize) -> String {
    match attachment.name() {
        Some(name) => format!("attachment:///{name}"),
        None => format!("attachment:///{index}"),
    }
}

/// `JSONRPCResultResponse`.
#[derive(Serialize)]
struct ResultResponse<'a> {
    jsonrpc: &'static str,
    /// `null` only for a call that came from no request (JSON-RPC's id for "unknown").
    id: Option<ResponseId<'a>>,
    result: CallToolResult<'a>,
}

/// The request's id, with the JSON type it was sent with.
#[derive(Serialize)]
#[serde(untagged)]
enum ResponseId<'a> {
    Integer(&'a Number),
    String(&'a str),
}

pub(crate) fn response(call: &ToolCall, result: &ToolResult) -> Value {
    let id = match (&call.rpc_number, &call.id) {
        (Some(number), _) => Some(ResponseId::Integer(number)),
        (None, Some(id)) => Some(ResponseId::String(id)),
        (None, None) => None,
    };
    let mut rendered = write(&ResultResponse {
        jsonrpc: "2.0",
        id,
        result: call_tool_result(result),
    });
    if let Some(result_value) = rendered.get_mut("result") {
        add_attachments(result_value, result);
    }
    rendered
}
