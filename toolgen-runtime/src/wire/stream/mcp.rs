//! Model Context Protocol: a server reads whole JSON-RPC messages; each `tools/call` request is a
//! call, and every other message (other requests, notifications, responses) is skipped.

use serde_json::Value;

use super::StreamError;

use crate::provider::Provider;
use crate::wire::call::ToolCall;

pub(super) fn push_mcp(message: &Value) -> Result<Vec<ToolCall>, StreamError> {
    match message.get("method").and_then(Value::as_str) {
        Some("tools/call") => {
            ToolCall::parse(Provider::Mcp, message).map_err(StreamError::from_parse)
        }
        _ => Ok(Vec::new()),
    }
}
