//! The LLM APIs toolgen speaks, and the tool definition object each one expects.

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
    /// Google Gemini: a function declaration with `parameters` (the OpenAPI subset) when the
    /// schema fits it, else `parametersJsonSchema`.
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

/// What a tool's definition is made of: its name and description as text, its schemas as JSON
/// text.
pub(crate) struct DefinitionParts {
    /// The tool's name.
    pub name: &'static str,
    /// What the tool does.
    pub description: &'static str,
    /// The input schema ([`Tool::INPUT_SCHEMA`](crate::Tool::INPUT_SCHEMA)).
    pub standard: &'static str,
    /// The OpenAI strict dialect, for a tool strict for OpenAI.
    pub openai: Option<&'static str>,
    /// The Anthropic strict dialect, for a tool strict for Anthropic.
    pub anthropic: Option<&'static str>,
    /// Gemini's `parameters`, when the schema fits them.
    pub gemini: Option<&'static str>,
    /// The output schema, for MCP.
    pub output: Option<&'static str>,
}

/// `provider`'s definition object, as JSON text:
/// - Anthropic: `{"name","description","input_schema"}`, plus `"strict":true` with the strict
///   schema (<https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use>);
/// - OpenAI: `strict` is always sent, `false` included: left out, the Responses API decides for
///   itself (`FunctionObject` / `FunctionTool` in the OpenAPI subset in `shared/specs`);
/// - Gemini: `parameters` (the OpenAPI subset) when the schema fits it, else
///   `parametersJsonSchema` (<https://ai.google.dev/api/caching#FunctionDeclaration>);
/// - MCP 2025-11-25 `Tool`: `inputSchema`, and `outputSchema` when the tool has one.
pub(crate) fn definition_text(provider: Provider, parts: &DefinitionParts) -> String {
    let name = json_string(parts.name);
    let description = json_string(parts.description);
    let (openai, openai_strict) = match parts.openai {
        Some(schema) => (schema, "true"),
        None => (parts.standard, "false"),
    };
    let pieces: &[&str] = match provider {
        Provider::Anthropic => match parts.anthropic {
            Some(schema) => &[
                "{\"name\":",
                &name,
                ",\"description\":",
                &description,
                ",\"input_schema\":",
                schema,
                ",\"strict\":true}",
            ],
            None => &[
                "{\"name\":",
                &name,
                ",\"description\":",
                &description,
                ",\"input_schema\":",
                parts.standard,
                "}",
            ],
        },
        Provider::OpenAiChat => &[
            "{\"type\":\"function\",\"function\":{\"name\":",
            &name,
            ",\"description\":",
            &description,
            ",\"parameters\":",
            openai,
            ",\"strict\":",
            openai_strict,
            "}}",
        ],
        Provider::OpenAiResponses => &[
            "{\"type\":\"function\",\"name\":",
            &name,
            ",\"description\":",
            &description,
            ",\"parameters\":",
            openai,
            ",\"strict\":",
            openai_strict,
            "}",
        ],
        Provider::Gemini => match parts.gemini {
            Some(schema) => &[
                "{\"name\":",
                &name,
                ",\"description\":",
                &description,
                ",\"parameters\":",
                schema,
                "}",
            ],
            None => &[
                "{\"name\":",
                &name,
                ",\"description\":",
                &description,
                ",\"parametersJsonSchema\":",
                parts.standard,
                "}",
            ],
        },
        Provider::Mcp => match parts.output {
            Some(output) => &[
                "{\"name\":",
                &name,
                ",\"description\":",
                &description,
                ",\"inputSchema\":",
                parts.standard,
                ",\"outputSchema\":",
                output,
                "}",
            ],
            None => &[
                "{\"name\":",
                &name,
                ",\"description\":",
                &description,
                ",\"inputSchema\":",
                parts.standard,
                "}",
            ],
        },
    };
    pieces.concat()
}

/// `text` as a JSON string (serde_json's escaping, the same as the derive's).
fn json_string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}
