//! What a tool answers: [`ToolResult`] (text, JSON or an error), rendered into the message each
//! provider expects, plus the whole answering message where a provider has rules for it.

use std::borrow::Cow;

use serde_json::Value;

use crate::parse::args::ArgsError;
use crate::provider::Provider;
use crate::wire;
use crate::wire::call::ToolCall;

/// The outcome of running a tool, for the model to read on its next turn: text, a JSON value, or
/// an error message (in words or as JSON), with images and files attached if any.
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
///
/// It is `Serialize` and `Deserialize`, so that the results of a turn that holds calls for
/// approval can be saved with them ([`Pending`](crate::Pending)).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ToolResult {
    output: Output,
    is_error: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    attachments: Vec<Attachment>,
}

/// An image or a file a [`ToolResult`] carries beside its text or JSON: base64 data and its
/// media type.
///
/// ```
/// let result = toolgen::ToolResult::text("The chart:").with_image("iVBORw0KGgo=", "image/png");
/// let image = &result.attachments()[0];
/// assert_eq!(image.media_type(), "image/png");
/// assert!(image.is_image());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Attachment {
    image: bool,
    data: String,
    media_type: String,
    name: Option<String>,
}

impl Attachment {
    /// Whether it is an image (else a file).
    pub fn is_image(&self) -> bool {
        self.image
    }

    /// The base64 data.
    pub fn data(&self) -> &str {
        &self.data
    }

    /// The media type, such as `image/png` or `application/pdf`.
    pub fn media_type(&self) -> &str {
        &self.media_type
    }

    /// The file's name, if given.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// `data:<media type>;base64,<data>`.
    pub(crate) fn data_url(&self) -> String {
        format!("data:{};base64,{}", self.media_type, self.data)
    }

    /// The note that stands for it where a provider cannot carry it.
    pub(crate) fn note(&self, provider: &str) -> String {
        let kind = if self.image { "an image" } else { "a file" };
        let name = self
            .name
            .as_ref()
            .map(|name| format!(" `{name}`"))
            .unwrap_or_default();
        format!(
            "[{kind}{name} ({}, {} bytes of base64) is not shown: {provider} tool results do not carry it]",
            self.media_type,
            self.data.len()
        )
    }
}

/// What a result holds.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
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
            attachments: Vec::new(),
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
            attachments: Vec::new(),
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
            attachments: Vec::new(),
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
            attachments: Vec::new(),
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

    /// The result with an image attached: base64 `data` of `media_type` (`image/png`,
    /// `image/jpeg`, `image/gif`, `image/webp`).
    ///
    /// | provider | an image goes as |
    /// |---|---|
    /// | Anthropic | an `image` block in the `tool_result`'s content |
    /// | OpenAI Responses | an `input_image` item of `output` (a `data:` URL) |
    /// | Gemini | an `inlineData` part of the `functionResponse` (Gemini 3) |
    /// | MCP | an `ImageContent` |
    /// | OpenAI Chat | a note in the text: tool messages carry text only |
    ///
    /// ```
    /// use toolgen::{Provider, ToolCall, ToolResult};
    ///
    /// let call = ToolCall::new("plot", "{}").with_id("call_1");
    /// let result = ToolResult::text("The chart:").with_image("iVBORw0KGgo=", "image/png");
    /// let block = result.render(Provider::Anthropic, &call);
    /// assert_eq!(block["content"][1]["source"]["media_type"], "image/png");
    /// let chat = result.render(Provider::OpenAiChat, &call);
    /// assert_eq!(
    ///     chat["content"],
    ///     "The chart:\n[an image (image/png, 12 bytes of base64) is not shown: OpenAI Chat tool results do not carry it]"
    /// );
    /// ```
    #[must_use]
    pub fn with_image(mut self, data: impl Into<String>, media_type: impl Into<String>) -> Self {
        self.attachments.push(Attachment {
            image: true,
            data: data.into(),
            media_type: media_type.into(),
            name: None,
        });
        self
    }

    /// The result with a file attached: base64 `data` of `media_type` (`application/pdf`, ...),
    /// and its name if it has one. Anthropic takes a PDF as a `document` block, the Responses API
    /// any file as an `input_file`, Gemini as `inlineData`, MCP as an embedded resource (`blob`);
    /// OpenAI Chat gets a note, as for images, and so does Anthropic for a file that is not a
    /// PDF (or an image that is not JPEG, PNG, GIF or WebP).
    ///
    /// ```
    /// let result = toolgen::ToolResult::text("The report.")
    ///     .with_file("JVBERi0=", "application/pdf", Some("report.pdf"));
    /// assert_eq!(result.attachments()[0].name(), Some("report.pdf"));
    /// ```
    #[must_use]
    pub fn with_file(
        mut self,
        data: impl Into<String>,
        media_type: impl Into<String>,
        name: Option<&str>,
    ) -> Self {
        self.attachments.push(Attachment {
            image: false,
            data: data.into(),
            media_type: media_type.into(),
            name: name.map(str::to_owned),
        });
        self
    }

    /// The images and files attached, in order.
    pub fn attachments(&self) -> &[Attachment] {
        &self.attachments
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

    /// The result's parts, its text or JSON moved out: the output, whether it is an error, and
    /// the attachments.
    #[cfg(feature = "mcp")]
    pub(crate) fn into_parts(self) -> (Output, bool, Vec<Attachment>) {
        (self.output, self.is_error, self.attachments)
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
    /// Images and files ([`with_image`](ToolResult::with_image),
    /// [`with_file`](ToolResult::with_file)) go where each API takes them: Anthropic content
    /// blocks, Responses `output` items, Gemini `inlineData` parts, MCP content; OpenAI Chat
    /// tool messages take text only, so there each is a note in the text.
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
