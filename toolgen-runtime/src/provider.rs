//! The LLM APIs toolgen speaks, and the tool definition object each one expects, as JSON text
//! assembled in const evaluation.

// `concat` and `definition_pieces` index only the program's own pieces, at compile time.
#![allow(clippy::indexing_slicing)]

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

/// The tool's definition object for every provider, as JSON text built at compile time.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Definitions {
    /// Anthropic's tool.
    pub anthropic: &'static str,
    /// OpenAI Chat Completions' tool.
    pub openai_chat: &'static str,
    /// OpenAI Responses' tool.
    pub openai_responses: &'static str,
    /// Gemini's function declaration.
    pub gemini: &'static str,
    /// MCP's tool.
    pub mcp: &'static str,
}

impl Definitions {
    /// The definition for `provider`.
    pub const fn get(&self, provider: Provider) -> &'static str {
        match provider {
            Provider::Anthropic => self.anthropic,
            Provider::OpenAiChat => self.openai_chat,
            Provider::OpenAiResponses => self.openai_responses,
            Provider::Gemini => self.gemini,
            Provider::Mcp => self.mcp,
        }
    }
}

/// What a tool's definitions are made of, each piece JSON text.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct DefinitionParts {
    /// The name, as a JSON string.
    pub name: &'static str,
    /// The description, as a JSON string.
    pub description: &'static str,
    /// The standard input schema.
    pub standard: &'static str,
    /// The OpenAI strict schema, for a tool strict for OpenAI.
    pub openai: Option<&'static str>,
    /// The Anthropic strict schema, for a tool strict for Anthropic.
    pub anthropic: Option<&'static str>,
    /// Gemini's `parameters`, when the schema fits them.
    pub gemini: Option<&'static str>,
    /// MCP's `outputSchema`.
    pub output: Option<&'static str>,
}

const fn or_empty(text: Option<&'static str>) -> &'static str {
    match text {
        Some(text) => text,
        None => "",
    }
}

/// The pieces of `provider`'s definition object; [`concat`] joins them.
///
/// - Anthropic: `{"name","description","input_schema"}`, plus `"strict":true` with the strict
///   schema (<https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use>);
/// - OpenAI: `strict` is always sent, `false` included: left out, the Responses API decides for
///   itself (`FunctionObject` / `FunctionTool` in the OpenAPI subset in `shared/specs`);
/// - Gemini: `parameters` (the OpenAPI subset) when the schema fits it, else
///   `parametersJsonSchema` (<https://ai.google.dev/api/caching#FunctionDeclaration>);
/// - MCP 2025-11-25 `Tool`: `inputSchema`, and `outputSchema` when the tool has one.
#[doc(hidden)]
pub const fn definition_pieces(provider: Provider, parts: &DefinitionParts) -> [&'static str; 11] {
    let DefinitionParts {
        name,
        description,
        standard,
        openai,
        anthropic,
        gemini,
        output,
    } = *parts;
    let (openai_schema, openai_strict) = match openai {
        Some(schema) => (schema, "true"),
        None => (standard, "false"),
    };
    match provider {
        Provider::Anthropic => [
            "{\"name\":",
            name,
            ",\"description\":",
            description,
            ",\"input_schema\":",
            match anthropic {
                Some(schema) => schema,
                None => standard,
            },
            if anthropic.is_some() {
                ",\"strict\":true"
            } else {
                ""
            },
            "}",
            "",
            "",
            "",
        ],
        Provider::OpenAiChat => [
            "{\"type\":\"function\",\"function\":{\"name\":",
            name,
            ",\"description\":",
            description,
            ",\"parameters\":",
            openai_schema,
            ",\"strict\":",
            openai_strict,
            "}}",
            "",
            "",
        ],
        Provider::OpenAiResponses => [
            "{\"type\":\"function\",\"name\":",
            name,
            ",\"description\":",
            description,
            ",\"parameters\":",
            openai_schema,
            ",\"strict\":",
            openai_strict,
            "}",
            "",
            "",
        ],
        Provider::Gemini => [
            "{\"name\":",
            name,
            ",\"description\":",
            description,
            if gemini.is_some() {
                ",\"parameters\":"
            } else {
                ",\"parametersJsonSchema\":"
            },
            match gemini {
                Some(schema) => schema,
                None => standard,
            },
            "}",
            "",
            "",
            "",
            "",
        ],
        Provider::Mcp => [
            "{\"name\":",
            name,
            ",\"description\":",
            description,
            ",\"inputSchema\":",
            standard,
            if output.is_some() {
                ",\"outputSchema\":"
            } else {
                ""
            },
            or_empty(output),
            "}",
            "",
            "",
        ],
    }
}

/// The length of the pieces joined.
#[doc(hidden)]
pub const fn concat_len(pieces: &[&str]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < pieces.len() {
        n += pieces[i].len();
        i += 1;
    }
    n
}

/// The lengths of a tool's [`DefinitionParts`]: enough to know each definition's length without
/// building the dialects' texts, which const evaluation then does only for the definitions a
/// program uses (an array's length is computed wherever its type is checked; its value only when
/// it is used).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct DefinitionLens {
    /// The name, as a JSON string.
    pub name: usize,
    /// The description, as a JSON string.
    pub description: usize,
    /// The standard input schema.
    pub standard: usize,
    /// The OpenAI strict schema, for a tool strict for OpenAI.
    pub openai: Option<usize>,
    /// The Anthropic strict schema, for a tool strict for Anthropic.
    pub anthropic: Option<usize>,
    /// Gemini's `parameters`, when the schema fits them.
    pub gemini: Option<usize>,
    /// MCP's `outputSchema`.
    pub output: Option<usize>,
}

/// The length of [`definition_pieces`] joined, from the parts' lengths: the pieces with empty
/// parts give the fixed text, and the parts the provider uses are added.
#[doc(hidden)]
pub const fn definition_len(provider: Provider, lens: &DefinitionLens) -> usize {
    const fn some(len: Option<usize>) -> Option<&'static str> {
        match len {
            Some(_) => Some(""),
            None => None,
        }
    }
    let fixed = concat_len(&definition_pieces(
        provider,
        &DefinitionParts {
            name: "",
            description: "",
            standard: "",
            openai: some(lens.openai),
            anthropic: some(lens.anthropic),
            gemini: some(lens.gemini),
            output: some(lens.output),
        },
    ));
    const fn or(len: Option<usize>, other: usize) -> usize {
        match len {
            Some(len) => len,
            None => other,
        }
    }
    let schema = match provider {
        Provider::Anthropic => or(lens.anthropic, lens.standard),
        Provider::OpenAiChat | Provider::OpenAiResponses => or(lens.openai, lens.standard),
        Provider::Gemini => or(lens.gemini, lens.standard),
        Provider::Mcp => lens.standard + or(lens.output, 0),
    };
    fixed + lens.name + lens.description + schema
}

/// The pieces joined; `N` is [`concat_len`] (or [`definition_len`]): a wrong `N` stops the
/// build.
#[doc(hidden)]
pub const fn concat<const N: usize>(pieces: &[&str]) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut out = crate::rope::Out {
        buf: &mut buf,
        pos: 0,
        dry: false,
    };
    let mut i = 0;
    while i < pieces.len() {
        out.put(pieces[i].as_bytes());
        i += 1;
    }
    assert!(out.pos == N, "toolgen: definition length mismatch");
    buf
}
