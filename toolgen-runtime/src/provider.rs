//! The LLM APIs toolgen speaks, and the tool definition object each one expects.

use serde::Serialize;
use serde_json::Value;

/// An LLM API whose tool format toolgen speaks.
///
/// ```
/// use toolgen::Provider;
/// assert_eq!(Provider::ALL.len(), 5);
/// assert_eq!(Provider::OpenAiChat.to_string(), "OpenAI Chat Completions");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// Anthropic Messages API: `{"name","description","input_schema"}`.
    Anthropic,
    /// OpenAI Chat Completions: `{"type":"function","function":{..}}`.
    OpenAiChat,
    /// OpenAI Responses API: the flat `{"type":"function","name",..}` form.
    OpenAiResponses,
    /// Google Gemini: a function declaration with `parametersJsonSchema`.
    Gemini,
    /// Model Context Protocol (2025-11-25): a `Tool` with `inputSchema`.
    Mcp,
}

impl Provider {
    /// Every provider, in a fixed order.
    pub const ALL: [Provider; 5] = [
        Provider::Anthropic,
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Gemini,
        Provider::Mcp,
    ];

    /// A human-readable name.
    pub const fn name(self) -> &'static str {
        match self {
            Provider::Anthropic => "Anthropic",
            Provider::OpenAiChat => "OpenAI Chat Completions",
            Provider::OpenAiResponses => "OpenAI Responses",
            Provider::Gemini => "Google Gemini",
            Provider::Mcp => "MCP",
        }
    }
}

impl std::fmt::Display for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What every provider's definition is made of.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ToolInfo<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub input_schema: &'a str,
    pub output_schema: Option<&'a str>,
}

// https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
#[derive(Serialize)]
struct AnthropicTool<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: Value,
}

// OpenAPI subset in shared/specs: `ChatCompletionTool` / `FunctionObject`.
#[derive(Serialize)]
struct ChatTool<'a> {
    r#type: &'static str,
    function: ChatFunction<'a>,
}

#[derive(Serialize)]
struct ChatFunction<'a> {
    name: &'a str,
    description: &'a str,
    parameters: Value,
    strict: bool,
}

// OpenAPI subset in shared/specs: `FunctionTool` (Responses API).
#[derive(Serialize)]
struct ResponsesTool<'a> {
    r#type: &'static str,
    name: &'a str,
    description: &'a str,
    parameters: Value,
    strict: bool,
}

// https://ai.google.dev/api/caching#FunctionDeclaration: `parametersJsonSchema` takes JSON Schema
// as it is (the OpenAPI-subset `parameters` field comes with the provider dialects).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GeminiFunctionDeclaration<'a> {
    name: &'a str,
    description: &'a str,
    parameters_json_schema: Value,
}

// MCP 2025-11-25 schema, `$defs/Tool`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct McpTool<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<Value>,
}

// Reads only the tool's own consts, which the derive writes at compile time (and tests parse for
// every type mapping); nothing from a model reaches here.
#[allow(clippy::expect_used)]
pub(crate) fn definition(provider: Provider, tool: ToolInfo<'_>) -> Value {
    let schema: Value = serde_json::from_str(tool.input_schema)
        .expect("toolgen emits INPUT_SCHEMA as valid JSON at compile time");
    let ToolInfo {
        name, description, ..
    } = tool;
    // Strict schemas come with the provider dialects; until then every definition is non-strict,
    // and OpenAI gets `strict: false` explicitly rather than letting the API pick a default.
    let strict = false;
    let object = match provider {
        Provider::Anthropic => serde_json::to_value(AnthropicTool {
            name,
            description,
            input_schema: schema,
        }),
        Provider::OpenAiChat => serde_json::to_value(ChatTool {
            r#type: "function",
            function: ChatFunction {
                name,
                description,
                parameters: schema,
                strict,
            },
        }),
        Provider::OpenAiResponses => serde_json::to_value(ResponsesTool {
            r#type: "function",
            name,
            description,
            parameters: schema,
            strict,
        }),
        Provider::Gemini => serde_json::to_value(GeminiFunctionDeclaration {
            name,
            description,
            parameters_json_schema: schema,
        }),
        Provider::Mcp => serde_json::to_value(McpTool {
            name,
            description,
            input_schema: schema,
            output_schema: tool
                .output_schema
                .and_then(|text| serde_json::from_str(text).ok()),
        }),
    };
    object.expect("tool definitions hold only strings, booleans and JSON values")
}
