//! What a tool answers: [`ToolResult`] (text, JSON or an error), rendered into the message each
//! provider expects, plus the whole answering message where a provider has rules for it.

use std::borrow::Cow;

use serde_json::Value;

use crate::args::ArgsError;
use crate::call::ToolCall;
use crate::provider::Provider;
use crate::wire;

/// The outcome of running a tool, for the model to read on its next turn: text, a JSON value, or
/// an error message.
///
/// [`render`](ToolResult::render) turns it into the answer to a [`ToolCall`] in a provider's
/// format. An [`ArgsError`] converts into an error result, so a model that sent bad arguments
/// reads what was wrong and can try again.
///
/// ```
/// use serde_json::json;
/// use toolgen::{Provider, ToolCall, ToolResult};
///
/// let call = ToolCall::new("get_weather", r#"{"city":"Riga"}"#).with_id("call_1");
/// let result = ToolResult::json(json!({"temp_c": 21}));
///
/// assert_eq!(
///     result.render(Provider::OpenAiChat, &call),
///     json!({"role": "tool", "tool_call_id": "call_1", "content": r#"{"temp_c":21}"#})
/// );
/// assert_eq!(
///     result.render(Provider::Gemini, &call),
///     json!({"functionResponse": {"name": "get_weather", "id": "call_1", "response": {"output": {"temp_c": 21}}}})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolResult {
    output: Output,
    is_error: bool,
}

/// What a result holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Output {
    Text(String),
    Json(Value),
}

impl ToolResult {
    /// A successful result in words.
    ///
    /// ```
    /// let result = toolgen::ToolResult::text("21 °C and sunny");
    /// assert_eq!(result.to_text(), "21 °C and sunny");
    /// assert!(!result.is_error());
    /// ```
    pub fn text(text: impl Into<String>) -> Self {
        ToolResult {
            output: Output::Text(text.into()),
            is_error: false,
        }
    }

    /// A successful result as JSON. Providers that take text get its compact JSON text; Gemini
    /// gets the value itself, and MCP both (`structuredContent`, when it is an object, and its
    /// text in `content`).
    ///
    /// To return a `Serialize` type, convert it first with `serde_json::to_value`.
    ///
    /// ```
    /// let result = toolgen::ToolResult::json(serde_json::json!({"temp_c": 21}));
    /// assert_eq!(result.to_text(), r#"{"temp_c":21}"#);
    /// ```
    pub fn json(value: impl Into<Value>) -> Self {
        ToolResult {
            output: Output::Json(value.into()),
            is_error: false,
        }
    }

    /// A failed call, explained for the model: Anthropic's `is_error`, MCP's `isError` and
    /// Gemini's `error` key mark it. OpenAI's formats have no such flag, so there the message is
    /// all the model sees: say plainly that it is an error.
    ///
    /// ```
    /// let result = toolgen::ToolResult::error("no city named `Atlantis`");
    /// assert!(result.is_error());
    /// ```
    pub fn error(message: impl Into<String>) -> Self {
        ToolResult {
            output: Output::Text(message.into()),
            is_error: true,
        }
    }

    /// A failed call whose JSON `body` the model reads (a structured error return, as
    /// `{"success": false, "error": "profile_not_found", "message": ..}`), marked as an error
    /// where the provider has a mark ([`ToolResult::error`]).
    ///
    /// ```
    /// let result = toolgen::ToolResult::error_json(serde_json::json!({"error": "not_found"}));
    /// assert!(result.is_error());
    /// assert_eq!(result.to_text(), r#"{"error":"not_found"}"#);
    /// ```
    pub fn error_json(body: impl Into<Value>) -> Self {
        ToolResult {
            output: Output::Json(body.into()),
            is_error: true,
        }
    }

    /// The error result for arguments that did not parse: its message names the JSON path and
    /// the problem (the same as `ToolResult::from(error.clone())`).
    ///
    /// ```
    /// use toolgen::{Tool, ToolResult};
    ///
    /// /// Get the current weather for a city.
    /// #[derive(Tool, serde::Deserialize, Debug)]
    /// struct GetWeather { city: String }
    ///
    /// let err = GetWeather::parse_args(r#"{"city": 7}"#).unwrap_err();
    /// let result = ToolResult::args_error(&err);
    /// assert!(result.is_error());
    /// assert_eq!(result.to_text(), "invalid arguments at `city`: invalid type: integer `7`, expected a string");
    /// ```
    pub fn args_error(error: &ArgsError) -> Self {
        ToolResult::error(error.to_string())
    }

    /// Whether this result reports a failure.
    ///
    /// ```
    /// assert!(toolgen::ToolResult::error("timed out").is_error());
    /// assert!(!toolgen::ToolResult::text("done").is_error());
    /// ```
    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// The result as text: the text itself, or a JSON value's compact JSON text.
    ///
    /// ```
    /// assert_eq!(toolgen::ToolResult::json(serde_json::json!([1, 2])).to_text(), "[1,2]");
    /// ```
    pub fn to_text(&self) -> Cow<'_, str> {
        match &self.output {
            Output::Text(text) => Cow::Borrowed(text),
            Output::Json(value) => Cow::Owned(value.to_string()),
        }
    }

    /// The JSON value of a result made with [`ToolResult::json`].
    ///
    /// ```
    /// let result = toolgen::ToolResult::json(serde_json::json!({"ok": true}));
    /// assert_eq!(result.as_json().unwrap()["ok"], true);
    /// assert!(toolgen::ToolResult::text("ok").as_json().is_none());
    /// ```
    pub fn as_json(&self) -> Option<&Value> {
        match &self.output {
            Output::Json(value) => Some(value),
            Output::Text(_) => None,
        }
    }

    pub(crate) fn output(&self) -> &Output {
        &self.output
    }

    /// This result as the answer to `call` in `provider`'s format:
    ///
    /// | `provider` | rendered as |
    /// |---|---|
    /// | [`Anthropic`](Provider::Anthropic) | a `{"type":"tool_result","tool_use_id","content","is_error"?}` block; put it in a user message with [`anthropic_user_message`] |
    /// | [`OpenAiChat`](Provider::OpenAiChat) | a `{"role":"tool","tool_call_id","content"}` message |
    /// | [`OpenAiResponses`](Provider::OpenAiResponses) | a `{"type":"function_call_output","call_id","output"}` input item |
    /// | [`Gemini`](Provider::Gemini) | a `{"functionResponse":{"name","id"?,"response":{"output"}}}` part, or `{"error"}` for errors |
    /// | [`Mcp`](Provider::Mcp) | a `CallToolResult` `{"content":[text],"structuredContent"?,"isError"?}`; wrap it with [`mcp_response`] |
    ///
    /// The id comes from `call.id`; a call without one (made by hand) renders without it, which
    /// only Gemini and MCP accept.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgen::{Provider, ToolCall, ToolResult};
    ///
    /// let call = ToolCall::new("get_weather", "{}").with_id("toolu_01");
    /// assert_eq!(
    ///     ToolResult::error("timed out").render(Provider::Anthropic, &call),
    ///     json!({"type": "tool_result", "tool_use_id": "toolu_01", "content": "timed out", "is_error": true})
    /// );
    /// assert_eq!(
    ///     ToolResult::json(json!({"temp_c": 21})).render(Provider::Mcp, &call),
    ///     json!({"content": [{"type": "text", "text": r#"{"temp_c":21}"#}], "structuredContent": {"temp_c": 21}})
    /// );
    /// ```
    pub fn render(&self, provider: Provider, call: &ToolCall) -> Value {
        match provider {
            Provider::Anthropic => wire::anthropic::render_result(call, self),
            Provider::OpenAiChat => wire::openai::render_chat_result(call, self),
            Provider::OpenAiResponses => wire::openai::render_responses_result(call, self),
            Provider::Gemini => wire::gemini::render_result(call, self),
            Provider::Mcp => wire::mcp::render_result(self),
        }
    }
}

impl From<ArgsError> for ToolResult {
    /// See [`ToolResult::args_error`].
    fn from(error: ArgsError) -> Self {
        ToolResult::args_error(&error)
    }
}

/// The Anthropic user message that answers a turn's tool calls: every `tool_result` block first,
/// in the order given, then `extra_text` (if not blank) as a text block.
///
/// The Messages API rejects a user message whose text comes before its tool results, and every
/// call of the turn must be answered in this one message.
///
/// ```
/// use serde_json::json;
/// use toolgen::{ToolCall, ToolResult, anthropic_user_message};
///
/// let call = ToolCall::new("get_weather", "{}").with_id("toolu_01");
/// let result = ToolResult::text("21 °C");
/// assert_eq!(
///     anthropic_user_message([(&call, &result)], Some("Answer in Latvian.")),
///     json!({"role": "user", "content": [
///         {"type": "tool_result", "tool_use_id": "toolu_01", "content": "21 °C"},
///         {"type": "text", "text": "Answer in Latvian."}
///     ]})
/// );
/// ```
pub fn anthropic_user_message<'a>(
    results: impl IntoIterator<Item = (&'a ToolCall, &'a ToolResult)>,
    extra_text: Option<&'a str>,
) -> Value {
    wire::anthropic::user_message(results, extra_text)
}

/// The whole JSON-RPC response an MCP server sends for a `tools/call` request: `{"jsonrpc":
/// "2.0", "id", "result": CallToolResult}`, with the request's id as sent (a string or an
/// integer).
///
/// ```
/// use serde_json::json;
/// use toolgen::{Provider, ToolCall, ToolResult, mcp_response};
///
/// let request = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
///                      "params": {"name": "get_weather", "arguments": {"city": "Riga"}}});
/// let call = &ToolCall::parse(Provider::Mcp, &request).unwrap()[0];
/// assert_eq!(
///     mcp_response(call, &ToolResult::text("21 °C")),
///     json!({"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "21 °C"}]}})
/// );
/// ```
pub fn mcp_response(call: &ToolCall, result: &ToolResult) -> Value {
    wire::mcp::response(call, result)
}
