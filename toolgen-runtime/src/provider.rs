//! The LLM APIs toolgen speaks, and the tool definition object each one expects.

use crate::dialect::{Dialect, PerDialect};

/// An LLM API whose tool format toolgen speaks.
///
/// ```
/// use toolgen::Provider;
/// assert_eq!(Provider::ALL.len(), 5);
/// assert_eq!(Provider::OpenAiChat.to_string(), "OpenAI Chat Completions");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum Provider {
    /// Anthropic Messages API: `{"name","description","input_schema"}`.
    Anthropic,
    /// OpenAI Chat Completions: `{"type":"function","function":{..}}`.
    OpenAiChat,
    /// OpenAI Responses API: the flat `{"type":"function","name",..}` form.
    OpenAiResponses,
    /// Google Gemini: a function declaration with `parameters` (the OpenAPI subset) when the
    /// schema fits it, else `parametersJsonSchema`.
    Gemini,
    /// Model Context Protocol (2025-11-25): a `Tool` with `inputSchema`, and `outputSchema`
    /// when the tool has one that describes an object (that version refuses any other; an
    /// `McpServer` gives those to clients of 2026-07-28).
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

/// What a tool's definition is made of: its name and description as text, its schemas as JSON
/// text.
pub(crate) struct DefinitionParts<'a> {
    /// The tool's name.
    pub name: &'a str,
    /// What the tool does.
    pub description: &'a str,
    /// The input schema ([`Tool::INPUT_SCHEMA`](crate::Tool::INPUT_SCHEMA)) as the standard
    /// dialect, and each dialect the tool has: the strict ones for a tool strict for that
    /// provider, Gemini's `parameters` when the schema fits them.
    pub schemas: PerDialect<Option<&'a str>>,
    /// The output schema: MCP's `outputSchema`, and OpenAI Responses' `output_schema` for a
    /// tool that code may call.
    pub output: Option<&'a str>,
    /// What only some providers take (`#[tool(cache_control)]`, ..).
    pub extras: Extras,
}

/// Properties of a tool's definition that only some providers take, from `#[tool(..)]`: each is
/// written for the providers that document it, and left out for the others.
///
/// Not public API (the derive writes it; see the README for the attributes).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extras {
    /// Anthropic `cache_control`: `Some("")` for `{"type":"ephemeral"}`, `Some("1h")` with that
    /// `ttl`.
    pub cache_control: Option<&'static str>,
    /// Anthropic and OpenAI Responses `defer_loading: true` (tool search loads the tool).
    pub defer_loading: bool,
    /// Anthropic `eager_input_streaming: true`.
    pub eager_input_streaming: bool,
    /// Anthropic `input_examples`: a JSON array of inputs, or `""` for none.
    pub input_examples: &'static str,
    /// MCP `title`.
    pub title: Option<&'static str>,
    /// MCP `annotations`: `readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`.
    pub hints: [Option<bool>; 4],
    /// MCP `icons`.
    pub icons: &'static [Icon],
    /// Anthropic and OpenAI Responses `allowed_callers`; empty for none (the provider's
    /// default: the model only).
    pub allowed_callers: &'static [AllowedCaller],
}

impl Extras {
    /// No extra properties.
    pub const NONE: Extras = Extras {
        cache_control: None,
        defer_loading: false,
        eager_input_streaming: false,
        input_examples: "",
        title: None,
        hints: [None; 4],
        icons: &[],
        allowed_callers: &[],
    };
}

/// Who may call a tool, for its definition's `allowed_callers` (programmatic tool calling): the
/// model itself, code the model writes and a provider's hosted code tool runs, or both.
///
/// | | Anthropic | OpenAI Responses |
/// |---|---|---|
/// | [`Direct`](AllowedCaller::Direct) | `"direct"` | `"direct"` |
/// | [`Program`](AllowedCaller::Program) | `"code_execution_20250825"` | `"programmatic"` |
///
/// Written for those two APIs only: OpenAI Chat, Gemini and MCP have no programmatic tool
/// calling, and their definitions leave it out. Anthropic's name is that of its code execution
/// tool `code_execution_20250825`, which the request must also send (OpenAI's request sends a
/// `{"type":"programmatic_tool_calling"}` tool).
///
/// ```
/// use toolgen::{AllowedCaller, DynamicTool, Provider};
///
/// let tool = DynamicTool::new("get_demand", "Units asked for.", serde_json::json!({"type": "object"}))
///     .unwrap()
///     .with_allowed_callers(&[AllowedCaller::Program]);
/// assert_eq!(tool.definition(Provider::OpenAiResponses)["allowed_callers"], serde_json::json!(["programmatic"]));
/// assert_eq!(tool.definition(Provider::Anthropic)["allowed_callers"], serde_json::json!(["code_execution_20250825"]));
/// assert!(tool.definition(Provider::Gemini).get("allowed_callers").is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AllowedCaller {
    /// The model calls the tool itself.
    Direct,
    /// Code the model wrote, run by the provider's code tool, calls it.
    Program,
}

impl AllowedCaller {
    /// The callers in `callers`, in one order and each once, as a `'static` list.
    pub(crate) fn set(callers: &[AllowedCaller]) -> &'static [AllowedCaller] {
        match (
            callers.contains(&AllowedCaller::Direct),
            callers.contains(&AllowedCaller::Program),
        ) {
            (true, true) => &[AllowedCaller::Direct, AllowedCaller::Program],
            (true, false) => &[AllowedCaller::Direct],
            (false, true) => &[AllowedCaller::Program],
            (false, false) => &[],
        }
    }

    /// Its name in `provider`'s `allowed_callers`, where the provider takes it.
    pub(crate) fn name_for(self, provider: Provider) -> Option<&'static str> {
        match (self, provider) {
            (AllowedCaller::Direct, Provider::Anthropic | Provider::OpenAiResponses) => {
                Some("direct")
            }
            (AllowedCaller::Program, Provider::Anthropic) => Some("code_execution_20250825"),
            (AllowedCaller::Program, Provider::OpenAiResponses) => Some("programmatic"),
            (_, Provider::OpenAiChat | Provider::Gemini | Provider::Mcp) => None,
        }
    }
}

/// An MCP `Icon` of a tool, from `#[tool(icon ..)]`.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Icon {
    /// `src`: an `https:` URL or a `data:` URI.
    pub src: &'static str,
    /// `mimeType`
    pub mime_type: Option<&'static str>,
    /// `sizes` (`48x48`, `any`)
    pub sizes: &'static [&'static str],
    /// `theme`: `light` or `dark`.
    pub theme: Option<&'static str>,
}

/// `provider`'s definition object, as JSON text:
/// - Anthropic: `{"name","description","input_schema"}`, plus `"strict":true` with the strict
///   schema (<https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use>);
/// - OpenAI: `strict` is always sent, `false` included: left out, the Responses API decides for
///   itself (`FunctionObject` / `FunctionTool` in the OpenAPI subset in `shared/specs`);
/// - Gemini: `parameters` (the OpenAPI subset) when the schema fits it, else
///   `parametersJsonSchema` (<https://ai.google.dev/api/caching#FunctionDeclaration>); neither
///   for a tool without arguments in `parameters`, which the API allows and needs;
/// - MCP 2025-11-25 `Tool`: `inputSchema`, and `outputSchema` when the tool has one that
///   describes an object (as that version requires).
pub(crate) fn definition_text(provider: Provider, parts: &DefinitionParts<'_>) -> String {
    let standard = parts.schemas.standard();
    let strict_openai = parts.schemas.schema(Dialect::OpenAiStrict);
    let openai = strict_openai.unwrap_or(standard);
    // What comes before the name, the schema's key and the schema, and what ends the object.
    let (open, key, schema, close): (&str, &str, &str, &str) = match provider {
        Provider::Anthropic => match parts.schemas.schema(Dialect::AnthropicStrict) {
            Some(schema) => ("{", "input_schema", schema, ",\"strict\":true}"),
            None => ("{", "input_schema", standard, "}"),
        },
        Provider::OpenAiChat => (
            "{\"type\":\"function\",\"function\":{",
            "parameters",
            openai,
            if strict_openai.is_some() {
                ",\"strict\":true}}"
            } else {
                ",\"strict\":false}}"
            },
        ),
        Provider::OpenAiResponses => (
            "{\"type\":\"function\",",
            "parameters",
            openai,
            if strict_openai.is_some() {
                ",\"strict\":true}"
            } else {
                ",\"strict\":false}"
            },
        ),
        Provider::Gemini => match parts.schemas.schema(Dialect::Gemini) {
            // No `parameters` at all: the API rejects an OBJECT with empty `properties`.
            Some(schema) if takes_no_arguments(schema) => ("{", "", "", "}"),
            Some(schema) => ("{", "parameters", schema, "}"),
            None => ("{", "parametersJsonSchema", standard, "}"),
        },
        Provider::Mcp => ("{", "inputSchema", standard, "}"),
    };
    let mut text =
        String::with_capacity(parts.name.len() + parts.description.len() + schema.len() + 96);
    text.push_str(open);
    text.push_str("\"name\":");
    text.push_str(&json_string(parts.name));
    text.push_str(",\"description\":");
    text.push_str(&json_string(parts.description));
    if !key.is_empty() {
        text.push_str(",\"");
        text.push_str(key);
        text.push_str("\":");
        text.push_str(schema);
    }
    // MCP 2025-11-25 takes only an object's schema as `outputSchema`; an `McpServer` gives
    // any other to clients of 2026-07-28.
    if let (Provider::Mcp, Some(output)) = (provider, parts.output)
        && is_object_schema(output)
    {
        text.push_str(",\"outputSchema\":");
        text.push_str(output);
    }
    if let (Provider::OpenAiResponses, Some(output)) = (provider, parts.output)
        && takes_output_schema(provider, &parts.extras)
    {
        text.push_str(",\"output_schema\":");
        text.push_str(&responses_output_schema(output, strict_openai.is_some()));
    }
    text.push_str(close);
    let extras = extras_text(provider, &parts.extras);
    if !extras.is_empty() && text.ends_with('}') {
        // Inside the definition object, after everything else.
        text.pop();
        text.push_str(&extras);
        text.push('}');
    }
    text
}

/// Whether `provider`'s definition of a tool with `extras` carries its output schema other than
/// as MCP's `outputSchema`: OpenAI Responses' `output_schema`, which tells the code that calls
/// the tool (programmatic tool calling) what its string output holds, for a tool that code may
/// call.
pub(crate) fn takes_output_schema(provider: Provider, extras: &Extras) -> bool {
    provider == Provider::OpenAiResponses
        && extras.allowed_callers.contains(&AllowedCaller::Program)
}

/// The `output_schema` of an OpenAI Responses definition: for a strict tool, the output schema
/// rewritten for OpenAI's strict mode as its input is (every property required, no other
/// properties), or as it is where strict mode cannot express it (the API does not hold the
/// output to it; it tells the code what to expect).
pub(crate) fn responses_output_schema(output: &str, strict: bool) -> std::borrow::Cow<'_, str> {
    match strict {
        true => {
            crate::dialect::rewrite::rewrite_text(output, crate::dialect::Dialect::OpenAiStrict)
                .map_or(std::borrow::Cow::Borrowed(output), std::borrow::Cow::Owned)
        }
        false => std::borrow::Cow::Borrowed(output),
    }
}

/// Whether a schema's text describes an object (`"type": "object"`), as MCP 2025-11-25 requires
/// of an `outputSchema`.
pub(crate) fn is_object_schema(schema: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Typed<'a> {
        #[serde(borrow, rename = "type")]
        kind: Option<&'a str>,
    }
    serde_json::from_str::<Typed<'_>>(schema).is_ok_and(|typed| typed.kind == Some("object"))
}

/// The extra properties `provider` documents for a tool definition, each as `,"key":value`:
/// - Anthropic: `cache_control`, `defer_loading`, `eager_input_streaming`, `input_examples`
///   (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-reference>);
/// - OpenAI Responses: `defer_loading` of a function tool, for tool search
///   (<https://developers.openai.com/api/docs/guides/tools-tool-search>);
/// - Anthropic and OpenAI Responses: `allowed_callers`, for programmatic tool calling
///   (`FunctionTool` in the OpenAPI subset in `shared/specs`,
///   <https://platform.claude.com/docs/en/agents-and-tools/tool-use/programmatic-tool-calling>).
///
/// - MCP: `title`, `annotations` (the hints) and `icons`
///   (<https://modelcontextprotocol.io/specification/2026-07-28/server/tools>).
///
/// Chat Completions and Gemini document none of them.
fn extras_text(provider: Provider, extras: &Extras) -> String {
    let mut text = String::new();
    match provider {
        Provider::Anthropic => {
            if let Some(ttl) = extras.cache_control {
                text.push_str(",\"cache_control\":{\"type\":\"ephemeral\"");
                if !ttl.is_empty() {
                    text.push_str(",\"ttl\":");
                    text.push_str(&json_string(ttl));
                }
                text.push('}');
            }
            if extras.defer_loading {
                text.push_str(",\"defer_loading\":true");
            }
            if extras.eager_input_streaming {
                text.push_str(",\"eager_input_streaming\":true");
            }
            if !extras.input_examples.is_empty() {
                text.push_str(",\"input_examples\":");
                text.push_str(extras.input_examples);
            }
        }
        Provider::OpenAiResponses => {
            if extras.defer_loading {
                text.push_str(",\"defer_loading\":true");
            }
        }
        Provider::Mcp => {
            if let Some(title) = extras.title {
                text.push_str(",\"title\":");
                text.push_str(&json_string(title));
            }
            let names = [
                "readOnlyHint",
                "destructiveHint",
                "idempotentHint",
                "openWorldHint",
            ];
            let mut hints = names
                .iter()
                .zip(extras.hints)
                .filter_map(|(name, hint)| hint.map(|on| format!("\"{name}\":{on}")));
            if let Some(first) = hints.next() {
                text.push_str(",\"annotations\":{");
                text.push_str(&first);
                for hint in hints {
                    text.push(',');
                    text.push_str(&hint);
                }
                text.push('}');
            }
            if !extras.icons.is_empty() {
                let icons: Vec<String> = extras.icons.iter().map(icon_text).collect();
                text.push_str(",\"icons\":[");
                text.push_str(&icons.join(","));
                text.push(']');
            }
        }
        // Chat Completions and Gemini document none of them.
        Provider::OpenAiChat | Provider::Gemini => {}
    }
    let callers: Vec<String> = extras
        .allowed_callers
        .iter()
        .filter_map(|caller| caller.name_for(provider))
        .map(json_string)
        .collect();
    if !callers.is_empty() {
        text.push_str(",\"allowed_callers\":[");
        text.push_str(&callers.join(","));
        text.push(']');
    }
    text
}

/// An MCP `Icon` as JSON text.
fn icon_text(icon: &Icon) -> String {
    let mut text = String::from("{\"src\":");
    text.push_str(&json_string(icon.src));
    if let Some(mime_type) = icon.mime_type {
        text.push_str(",\"mimeType\":");
        text.push_str(&json_string(mime_type));
    }
    if !icon.sizes.is_empty() {
        let sizes: Vec<String> = icon.sizes.iter().map(|size| json_string(size)).collect();
        text.push_str(",\"sizes\":[");
        text.push_str(&sizes.join(","));
        text.push(']');
    }
    if let Some(theme) = icon.theme {
        text.push_str(",\"theme\":");
        text.push_str(&json_string(theme));
    }
    text.push('}');
    text
}

/// Whether a Gemini `parameters` schema is that of a tool without arguments: an object with no
/// properties and nothing else to say (`{"type":"object","properties":{},"propertyOrdering":[]}`),
/// which the Gemini API refuses ("properties: should be non-empty for OBJECT type"). A map, or a
/// free-form object, has no `properties` member, and keeps its schema.
fn takes_no_arguments(schema: &str) -> bool {
    let Ok(serde_json::Value::Object(members)) = serde_json::from_str(schema) else {
        return false;
    };
    let empty = |key: &str| match members.get(key) {
        Some(serde_json::Value::Object(map)) => map.is_empty(),
        Some(serde_json::Value::Array(items)) => items.is_empty(),
        _ => false,
    };
    empty("properties")
        && members.iter().all(|(key, value)| match key.as_str() {
            "type" => value == "object",
            "properties" | "required" | "propertyOrdering" => empty(key),
            _ => false,
        })
}

/// `text` as a JSON string (serde_json's escaping, the same as the derive's).
fn json_string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}
