//! The tool calls a model makes: [`ToolCall`], taken out of a whole provider response, and
//! [`ToolCallError`] for responses that do not have the documented shape.

use serde_json::Value;

use crate::parse::args::ArgsError;
use crate::provider::Provider;
use crate::tool::Tool;
use crate::wire;

/// One tool call from a model: which tool, the arguments as JSON text, and the ids needed to
/// answer it.
///
/// [`ToolCall::parse`] takes every call out of a provider's response, in order. Dispatch on
/// [`name`](ToolCall::name) and parse the arguments with [`ToolCall::parse_args`]; an argument
/// error converts into a [`ToolResult`](crate::ToolResult) the model can read and correct itself
/// on.
///
/// `arguments` is always JSON *text*, so one `&str` parse path serves every provider: OpenAI sends
/// arguments as a string and it is kept exactly as sent, even when it is not valid JSON (the
/// error then goes back to the model); Anthropic, Gemini and MCP send a JSON object, which is
/// written out as compact JSON.
///
/// ```
/// use serde::Deserialize;
/// use toolgen::{Provider, Tool, ToolCall, ToolResult};
///
/// /// Get the current weather for a city.
/// #[derive(Tool, Deserialize)]
/// struct GetWeather { city: String }
///
/// let response = serde_json::json!({
///     "id": "msg_01", "type": "message", "role": "assistant", "stop_reason": "tool_use",
///     "content": [
///         {"type": "text", "text": "Let me check."},
///         {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Riga"}}
///     ]
/// });
///
/// for call in ToolCall::parse(Provider::Anthropic, &response)? {
///     let result = match call.name.as_str() {
///         GetWeather::NAME => match call.parse_args::<GetWeather>() {
///             Ok(args) => ToolResult::text(format!("Sunny in {}", args.city)),
///             Err(e) => ToolResult::from(e),
///         },
///         other => ToolResult::error(format!("unknown tool `{other}`")),
///     };
///     assert_eq!(
///         result.render(Provider::Anthropic, &call),
///         serde_json::json!({"type": "tool_result", "tool_use_id": "toolu_01", "content": "Sunny in Riga"})
///     );
/// }
/// # Ok::<(), toolgen::ToolCallError>(())
/// ```
///
/// It is `Serialize` and `Deserialize` (the fields that are `None` left out), so that a call
/// held for approval can be saved ([`Pending`](crate::Pending)).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ToolCall {
    /// The id the result must refer to: Anthropic's `tool_use.id`, OpenAI Chat's
    /// `tool_calls[].id`, the Responses API's `call_id`, Gemini's `functionCall.id`, or the
    /// JSON-RPC `id` of an MCP request (a numeric id written in decimal).
    ///
    /// A call the provider sent without an id (Gemini's often are; an Anthropic-compatible
    /// server's may be) gets one made up, so that results can always be matched to calls:
    /// `toolgen_0`, `toolgen_1`, ... in the order the calls come, counted within the response
    /// for [`ToolCall::parse`] and within the stream for
    /// [`ToolCallStream`](crate::ToolCallStream), so that a response and its stream give the
    /// same ids. A Gemini `functionResponse` leaves such an id out: Gemini never saw it. `None`
    /// only for a call built by hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The tool's name, as the model wrote it: compare it with [`Tool::NAME`].
    pub name: String,
    /// The arguments as JSON text, exactly as sent when the provider sends text (OpenAI), even if
    /// it is not valid JSON; compact JSON when the provider sends an object.
    pub arguments: String,
    /// Gemini only: the `thoughtSignature` of the part that held this call. Gemini 3 rejects the
    /// next request unless the model's turn in the history carries it back on the same part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thought_signature: Option<String>,
    /// Who made the call, where the provider says: the model itself, or a program the model
    /// wrote and the provider's hosted code tool runs (programmatic tool calling). OpenAI
    /// Responses' `caller` and Anthropic's `tool_use.caller`; `None` where the provider sends
    /// none. The result must go back to the same caller: the Responses API's
    /// `function_call_output` carries it ([`ToolResult::render`](crate::ToolResult::render)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caller: Option<Caller>,
    /// OpenAI Responses only: the `namespace` of the function called, carried back on its
    /// output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// MCP only: the JSON-RPC id when it was an integer, so the response echoes it as one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) rpc_number: Option<serde_json::Number>,
}

/// Who made a [`ToolCall`]: the model, or code the model wrote, run by a provider's hosted code
/// tool, which calls your function and waits for its result (programmatic tool calling).
///
/// | provider | the model | a program |
/// |---|---|---|
/// | OpenAI Responses (`caller`) | `{"type":"direct"}` | `{"type":"program","caller_id"}` |
/// | Anthropic (`tool_use.caller`) | `{"type":"direct"}` | `{"type":"code_execution_20250825","tool_id"}` |
///
/// ```
/// use toolgen::{Caller, Provider, ToolCall};
///
/// let response = serde_json::json!({"output": [{"type": "function_call", "call_id": "call_1",
///     "name": "get_demand", "arguments": "{}",
///     "caller": {"type": "program", "caller_id": "call_0"}}]});
/// let call = &ToolCall::parse(Provider::OpenAiResponses, &response)?[0];
/// assert_eq!(call.caller, Some(Caller::program("program", "call_0")));
/// assert!(!call.caller.as_ref().unwrap().is_direct());
/// # Ok::<(), toolgen::ToolCallError>(())
/// ```
///
/// It is `Serialize` and `Deserialize` as its [`ToolCall`] is (saved with a held call).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Caller {
    /// The provider's `type`: `direct`, OpenAI's `program`, Anthropic's code execution tool
    /// version (`code_execution_20250825`, ..).
    pub kind: String,
    /// The program's own call: OpenAI's `caller_id`, Anthropic's `tool_id`; `None` for the
    /// model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

impl Caller {
    /// The model itself (`{"type":"direct"}`).
    ///
    /// ```
    /// assert!(toolgen::Caller::direct().is_direct());
    /// ```
    pub fn direct() -> Self {
        Caller {
            kind: "direct".to_owned(),
            id: None,
        }
    }

    /// A program of kind `kind` (the provider's `type`), whose call is `id`.
    ///
    /// ```
    /// let caller = toolgen::Caller::program("code_execution_20250825", "srvtoolu_1");
    /// assert_eq!(caller.id.as_deref(), Some("srvtoolu_1"));
    /// ```
    pub fn program(kind: impl Into<String>, id: impl Into<String>) -> Self {
        Caller {
            kind: kind.into(),
            id: Some(id.into()),
        }
    }

    /// Whether the model made the call itself.
    ///
    /// ```
    /// assert!(!toolgen::Caller::program("program", "call_0").is_direct());
    /// ```
    pub fn is_direct(&self) -> bool {
        self.kind == "direct"
    }
}

impl ToolCall {
    /// A call built by hand (from a stream, a log, a test), without an id.
    ///
    /// ```
    /// use toolgen::ToolCall;
    ///
    /// let call = ToolCall::new("get_weather", r#"{"city":"Riga"}"#).with_id("call_1");
    /// assert_eq!(call.id.as_deref(), Some("call_1"));
    /// assert_eq!(call.arguments, r#"{"city":"Riga"}"#);
    /// ```
    pub fn new(name: impl Into<String>, arguments: impl Into<String>) -> Self {
        ToolCall {
            id: None,
            name: name.into(),
            arguments: arguments.into(),
            thought_signature: None,
            caller: None,
            namespace: None,
            rpc_number: None,
        }
    }

    /// Sets the call id.
    ///
    /// ```
    /// let call = toolgen::ToolCall::new("get_weather", "{}").with_id("toolu_01");
    /// assert_eq!(call.id.as_deref(), Some("toolu_01"));
    /// ```
    #[must_use]
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// Sets Gemini's thought signature.
    ///
    /// ```
    /// let call = toolgen::ToolCall::new("get_weather", "{}").with_thought_signature("CiQB...");
    /// assert_eq!(call.thought_signature.as_deref(), Some("CiQB..."));
    /// ```
    #[must_use]
    pub fn with_thought_signature(mut self, signature: impl Into<String>) -> Self {
        self.thought_signature = Some(signature.into());
        self
    }

    /// Every tool call in a whole provider response, in order.
    ///
    /// | `provider` | `response` | calls read from |
    /// |---|---|---|
    /// | [`Anthropic`](Provider::Anthropic) | a Messages API message | `content[]` blocks of `type: "tool_use"` |
    /// | [`OpenAiChat`](Provider::OpenAiChat) | a chat completion | `choices[0].message.tool_calls[]` of `type: "function"` |
    /// | [`OpenAiResponses`](Provider::OpenAiResponses) | a Responses API response | `output[]` items of `type: "function_call"` |
    /// | [`Gemini`](Provider::Gemini) | a `generateContent` response | `candidates[0].content.parts[]` with a `functionCall` |
    /// | [`Mcp`](Provider::Mcp) | a JSON-RPC `tools/call` request | `params` (one call; the JSON-RPC `id` is its id) |
    ///
    /// Everything else (text, thinking, server-tool blocks, other items) is skipped. A response
    /// without calls gives an empty `Vec`.
    ///
    /// # Errors
    ///
    /// [`ToolCallError`] when the response lacks a field the provider documents or has one of the
    /// wrong type (naming its JSON path), has no choice or candidate at all, ends at a call the
    /// provider would not pass on ([`ToolCallError::CallFailed`]), is an MCP request for another
    /// method, or is nested deeper than [`ToolCallError::MAX_DEPTH`]. Bad *arguments* are
    /// not an error here: they are kept for [`ToolCall::parse_args`] to report to the model.
    ///
    /// ```
    /// use toolgen::{Provider, ToolCall};
    ///
    /// let completion = serde_json::json!({
    ///     "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4.1",
    ///     "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
    ///         "role": "assistant", "content": null, "refusal": null,
    ///         "tool_calls": [{"id": "call_1", "type": "function",
    ///             "function": {"name": "get_weather", "arguments": "{\"city\": \"Ri"}}]
    ///     }}]
    /// });
    /// let calls = ToolCall::parse(Provider::OpenAiChat, &completion).unwrap();
    /// assert_eq!(calls[0].arguments, "{\"city\": \"Ri"); // kept as sent, for the model to fix
    ///
    /// let err = ToolCall::parse(Provider::OpenAiChat, &serde_json::json!({"choices": 3})).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "malformed OpenAI Chat Completions response at `choices`: invalid type: integer `3`, expected a sequence"
    /// );
    /// ```
    pub fn parse(provider: Provider, response: &Value) -> Result<Vec<ToolCall>, ToolCallError> {
        // Typed deserialization recurses; refuse values deep enough to threaten the stack first.
        if nested_deeper_than(response, ToolCallError::MAX_DEPTH) {
            return Err(ToolCallError::TooDeep {
                provider,
                limit: ToolCallError::MAX_DEPTH,
            });
        }
        let mut calls = match provider {
            Provider::Anthropic => wire::anthropic::calls(response),
            Provider::OpenAiChat => wire::openai::chat_calls(response),
            Provider::OpenAiResponses => wire::openai::responses_calls(response),
            Provider::Gemini => wire::gemini::calls(response),
            Provider::Mcp => wire::mcp::calls(response),
        }?;
        let mut made_up = 0;
        for call in &mut calls {
            call.id_or_made_up(&mut made_up);
        }
        Ok(calls)
    }

    /// Gives the call the next made-up id if it has none.
    pub(crate) fn id_or_made_up(&mut self, made_up: &mut u64) {
        if self.id.is_none() {
            self.id = Some(next_made_up_id(made_up));
        }
    }

    /// Whether this is a call of tool `T` (its name is [`T::NAME`](Tool::NAME)).
    ///
    /// ```
    /// use toolgen::{Tool, ToolCall};
    ///
    /// /// Get the current weather for a city.
    /// #[derive(Tool, serde::Deserialize)]
    /// struct GetWeather { city: String }
    ///
    /// assert!(ToolCall::new("get_weather", "{}").is::<GetWeather>());
    /// assert!(!ToolCall::new("get_time", "{}").is::<GetWeather>());
    /// ```
    pub fn is<T: Tool>(&self) -> bool {
        self.name == T::NAME
    }

    /// Parses the arguments into tool `T`'s input ([`Tool::parse_args`] on the JSON text).
    ///
    /// It does not check the name; dispatch on [`name`](ToolCall::name) or [`ToolCall::is`]
    /// first.
    ///
    /// # Errors
    ///
    /// [`ArgsError`] naming the JSON path of the problem; turn it into a result for the model
    /// with [`ToolResult::from`](crate::ToolResult).
    ///
    /// ```
    /// use toolgen::{Tool, ToolCall};
    ///
    /// /// Get the current weather for a city.
    /// #[derive(Tool, serde::Deserialize, Debug)]
    /// struct GetWeather { city: String }
    ///
    /// let ok = ToolCall::new("get_weather", r#"{"city":"Riga"}"#).parse_args::<GetWeather>();
    /// assert_eq!(ok.unwrap().city, "Riga");
    /// let bad = ToolCall::new("get_weather", r#"{"city":7}"#).parse_args::<GetWeather>();
    /// assert_eq!(bad.unwrap_err().path(), "city");
    /// ```
    pub fn parse_args<T: Tool>(&self) -> Result<T, ArgsError> {
        T::parse_args(&self.arguments)
    }
}

/// The start of the ids made up for calls sent without one; a number follows.
const MADE_UP_ID: &str = "toolgen_";

/// The next id made up for a call sent without one, `toolgen_{made_up}`, counting it.
pub(crate) fn next_made_up_id(made_up: &mut u64) -> String {
    *made_up += 1;
    format!("{MADE_UP_ID}{}", *made_up - 1)
}

/// Whether `id` is one toolgen made up (`toolgen_` and a number).
pub(crate) fn is_made_up_id(id: &str) -> bool {
    id.strip_prefix(MADE_UP_ID)
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Why [`ToolCall::parse`] could not read a response.
///
/// ```
/// use toolgen::{Provider, ToolCall, ToolCallError};
///
/// let request = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
/// let err = ToolCall::parse(Provider::Mcp, &request).unwrap_err();
/// assert!(matches!(err, ToolCallError::NotToolsCall { .. }));
/// assert_eq!(err.to_string(), "MCP request is for method `tools/list`, not `tools/call`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolCallError {
    /// A field the provider documents is missing or has the wrong type (including a response that
    /// is not a JSON object at all).
    Malformed {
        /// The API whose format was expected.
        provider: Provider,
        /// The JSON path of the problem, such as `content[1]` or `choices[0].message`; empty for
        /// the whole value.
        path: String,
        /// What is wrong, in serde's words.
        message: String,
    },
    /// The response holds no choice (OpenAI Chat `choices`) or candidate (Gemini `candidates`),
    /// so it says nothing about tool calls. Gemini leaves `candidates` out when it blocks the
    /// prompt.
    NoCandidates {
        /// The API that sent the response.
        provider: Provider,
        /// Gemini's `promptFeedback.blockReason`, when given.
        block_reason: Option<String>,
    },
    /// The provider ended the turn at a tool call it would not pass on, so the response holds
    /// no usable call: Gemini's `finishReason` `MALFORMED_FUNCTION_CALL` (the model wrote a
    /// call that does not parse), `UNEXPECTED_TOOL_CALL` (a call of a tool the request does not
    /// offer, or with calling turned off) or `TOO_MANY_TOOL_CALLS` (the model called tools in a
    /// row until Gemini stopped it).
    ///
    /// Not a filter and not the caller's mistake as such: the model slipped, and sending the
    /// same request again often gets a good call (for `UNEXPECTED_TOOL_CALL`, check the
    /// request's `tools` and `toolConfig` first).
    ///
    /// ```
    /// use toolgen::{Provider, ToolCall, ToolCallError};
    ///
    /// let response = serde_json::json!({"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL"}]});
    /// let err = ToolCall::parse(Provider::Gemini, &response).unwrap_err();
    /// assert!(matches!(&err, ToolCallError::CallFailed { reason, .. } if reason == "MALFORMED_FUNCTION_CALL"));
    /// assert_eq!(
    ///     err.to_string(),
    ///     "the Google Gemini model's tool call failed (MALFORMED_FUNCTION_CALL); asking again may work"
    /// );
    /// ```
    CallFailed {
        /// The API that sent the response.
        provider: Provider,
        /// The provider's reason (`MALFORMED_FUNCTION_CALL`, ..).
        reason: String,
    },
    /// The MCP message is a request for another method than `tools/call`.
    NotToolsCall {
        /// The request's method.
        method: String,
    },
    /// The response nests arrays and objects deeper than [`ToolCallError::MAX_DEPTH`] levels.
    TooDeep {
        /// The API whose format was expected.
        provider: Provider,
        /// The limit, [`ToolCallError::MAX_DEPTH`].
        limit: usize,
    },
}

impl ToolCallError {
    /// How deeply arrays and objects may nest in a response given to [`ToolCall::parse`].
    ///
    /// Twice `serde_json`'s own parsing limit, so any response parsed from text is within it; a
    /// deeper value can only have been built in code.
    ///
    /// ```
    /// assert_eq!(toolgen::ToolCallError::MAX_DEPTH, 256);
    /// ```
    pub const MAX_DEPTH: usize = 256;

    /// The error for a value at JSON path `at` that did not deserialize into `provider`'s wire
    /// type.
    pub(crate) fn malformed(
        provider: Provider,
        at: &str,
        error: &serde_path_to_error::Error<serde_json::Error>,
    ) -> Self {
        let inner = error.path().to_string();
        let path = match (at.is_empty(), inner.as_str()) {
            (_, ".") => at.to_owned(),
            (true, _) => inner,
            (false, _) if inner.starts_with('[') => format!("{at}{inner}"),
            (false, _) => format!("{at}.{inner}"),
        };
        ToolCallError::Malformed {
            provider,
            path,
            message: error.inner().to_string(),
        }
    }
}

impl std::fmt::Display for ToolCallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToolCallError::Malformed {
                provider,
                path,
                message,
            } => {
                write!(f, "malformed {provider} {}", message_kind(*provider))?;
                if !path.is_empty() {
                    write!(f, " at `{path}`")?;
                }
                write!(f, ": {message}")
            }
            ToolCallError::NoCandidates {
                provider,
                block_reason,
            } => {
                let what = match provider {
                    Provider::Gemini => "candidates",
                    Provider::OpenAiChat => "choices",
                    // Only Gemini and Chat Completions report a response without one.
                    Provider::Anthropic | Provider::OpenAiResponses | Provider::Mcp => "choices",
                };
                write!(f, "{provider} response has no {what}")?;
                match block_reason {
                    Some(reason) => write!(f, " (prompt blocked: {reason})"),
                    None => Ok(()),
                }
            }
            ToolCallError::CallFailed { provider, reason } => write!(
                f,
                "the {provider} model's tool call failed ({reason}); asking again may work"
            ),
            ToolCallError::NotToolsCall { method } => {
                write!(f, "MCP request is for method `{method}`, not `tools/call`")
            }
            ToolCallError::TooDeep { provider, limit } => write!(
                f,
                "{provider} {} is nested deeper than {limit} levels",
                message_kind(*provider)
            ),
        }
    }
}

impl std::error::Error for ToolCallError {}

/// What `ToolCall::parse` reads: a response from the model, or for MCP a request to the server.
fn message_kind(provider: Provider) -> &'static str {
    match provider {
        Provider::Mcp => "tools/call request",
        Provider::Anthropic
        | Provider::OpenAiChat
        | Provider::OpenAiResponses
        | Provider::Gemini => "response",
    }
}

/// Whether arrays and objects in `value` nest more than `limit` levels deep, found without
/// recursion (the point is to protect the stack).
pub(crate) fn nested_deeper_than(value: &Value, limit: usize) -> bool {
    fn is_container(value: &&Value) -> bool {
        value.is_array() || value.is_object()
    }
    let mut stack: Vec<(&Value, usize)> = Some(value)
        .filter(is_container)
        .map(|root| (root, 1))
        .into_iter()
        .collect();
    while let Some((value, depth)) = stack.pop() {
        if depth > limit {
            return true;
        }
        let inner = depth + 1;
        match value {
            Value::Array(items) => {
                stack.extend(items.iter().filter(is_container).map(|c| (c, inner)));
            }
            Value::Object(map) => {
                stack.extend(map.values().filter(is_container).map(|c| (c, inner)));
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(levels: usize) -> Value {
        let mut value = Value::Null;
        for _ in 0..levels {
            value = Value::Array(vec![value]);
        }
        value
    }

    #[test]
    fn made_up_ids_are_recognised() {
        let mut made_up = 3;
        let mut call = ToolCall::new("f", "{}");
        call.id_or_made_up(&mut made_up);
        assert_eq!((call.id.as_deref(), made_up), (Some("toolgen_3"), 4));
        call.id_or_made_up(&mut made_up);
        assert_eq!((call.id.as_deref(), made_up), (Some("toolgen_3"), 4));
        assert!(is_made_up_id("toolgen_3"));
        for id in [
            "toolgen_",
            "toolgen_x1",
            "toolgen_1a",
            "toolu_1",
            "call_toolgen_1",
        ] {
            assert!(!is_made_up_id(id), "{id}");
        }
    }

    #[test]
    fn depth_counts_containers_only() {
        assert!(!nested_deeper_than(&Value::Null, 0));
        assert!(nested_deeper_than(&nested(1), 0));
        assert!(!nested_deeper_than(&nested(3), 3));
        assert!(nested_deeper_than(&nested(4), 3));
        let wide = serde_json::json!({"a": [1, 2, {"b": []}], "c": "d"});
        assert!(!nested_deeper_than(&wide, 4));
        assert!(nested_deeper_than(&wide, 3));
    }
}
