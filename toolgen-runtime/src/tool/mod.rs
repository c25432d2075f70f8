//! The [`Tool`] trait: a type that is an LLM tool's input.

pub(crate) mod dynamic;
mod inline;
#[cfg(feature = "schemars1")]
pub(crate) mod schemars;

use serde::de::DeserializeOwned;

use std::any::TypeId;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::{OnceLock, RwLock};

use crate::dialect::rewrite::rewrite_text;
use crate::dialect::rules::Rules;
use crate::dialect::{Dialect, PerDialect};
use crate::kept::kept;
use crate::parse::args::{ArgsError, parse_tool_args, parse_tool_bytes, parse_tool_value};
use crate::provider::{Extras, Provider};
use crate::schema::ToolSchema;

/// An LLM tool: its name, description and input schema, all known at compile time, and the
/// parsing of the arguments a model sends for it.
///
/// Implemented by `#[derive(Tool)]`; see the crate docs for the attributes it reads.
///
/// ```
/// use serde::Deserialize;
/// use toolgen::{Provider, Tool, ToolSchema};
///
/// /// Get the current weather for a city.
/// #[derive(Tool, Deserialize)]
/// #[tool(name = "get_weather")]
/// struct GetWeather {
///     /// City name, e.g. "Riga".
///     city: String,
///     units: Option<Units>,
/// }
///
/// #[derive(ToolSchema, Deserialize)]
/// #[serde(rename_all = "lowercase")]
/// enum Units { Celsius, Fahrenheit }
///
/// const SCHEMA: &str = GetWeather::INPUT_SCHEMA;
/// assert_eq!(
///     SCHEMA,
///     r#"{"type":"object","properties":{"city":{"type":"string","description":"City name, e.g. \"Riga\"."},"units":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"]}"#
/// );
/// assert_eq!(GetWeather::NAME, "get_weather");
/// assert_eq!(GetWeather::DESCRIPTION, "Get the current weather for a city.");
///
/// let anthropic = GetWeather::definition(Provider::Anthropic);
/// assert_eq!(anthropic["input_schema"]["required"][0], "city");
///
/// let call = GetWeather::parse_args(r#"{"city":"Riga","units":"celsius"}"#).unwrap();
/// assert_eq!(call.city, "Riga");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool",
    label = "this type does not implement `toolgen::Tool`",
    note = "add `#[derive(toolgen::Tool, serde::Deserialize)]` and a doc comment saying what the tool does"
)]
pub trait Tool: ToolSchema + DeserializeOwned + 'static {
    /// The tool's name, as the model calls it: `#[tool(name = "...")]`, or the type's name in
    /// snake_case. Matches `^[a-zA-Z0-9_-]{1,64}$`, checked at compile time.
    const NAME: &'static str;
    /// What the tool does, for the model: `#[tool(description = "...")]` or the doc comment.
    const DESCRIPTION: &'static str;
    /// Whether the tool asked for strict mode: `#[tool(strict)]` (OpenAI and Anthropic),
    /// `#[tool(strict = "openai")]` or `#[tool(strict = "anthropic")]`.
    const STRICT: bool = false;
    /// The input's JSON Schema (2020-12) as minified JSON text, properties in declaration order,
    /// without `$schema`. A true `const`, built by const evaluation.
    const INPUT_SCHEMA: &'static str;
    /// What the tool returns, from `#[tool(output = Type)]`: the JSON Schema of `Type` (any
    /// type with a schema), built at compile time like [`Tool::INPUT_SCHEMA`]. MCP definitions
    /// carry it as `outputSchema`, and the tool's output becomes MCP `structuredContent`. MCP
    /// `2025-11-25` takes only an object's schema there: [`Provider::Mcp`]
    /// definitions (that version's) leave any other out, and an `McpServer` (feature `mcp`)
    /// gives it to clients of `2026-07-28` only.
    ///
    /// ```
    /// use toolgen::{Provider, Tool, ToolSchema};
    ///
    /// #[derive(ToolSchema, serde::Serialize)]
    /// struct Forecast { celsius: f64 }
    ///
    /// /// Get the forecast.
    /// #[derive(Tool, serde::Deserialize)]
    /// #[tool(output = Forecast)]
    /// struct GetForecast { city: String }
    ///
    /// assert_eq!(
    ///     GetForecast::OUTPUT_SCHEMA,
    ///     Some(r#"{"type":"object","properties":{"celsius":{"type":"number"}},"required":["celsius"]}"#)
    /// );
    /// let mcp = GetForecast::definition(Provider::Mcp);
    /// assert_eq!(mcp["outputSchema"]["required"][0], "celsius");
    /// ```
    const OUTPUT_SCHEMA: Option<&'static str> = None;
    /// How long a call may run, from `#[tool(timeout = "10s")]`: the
    /// [`Runner`](crate::Runner) gives up on the call after it, with an error result the model
    /// reads. `None`: the runner's default.
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolgen::Tool;
    ///
    /// /// Search the web.
    /// #[derive(Tool, serde::Deserialize)]
    /// #[tool(timeout = "10s")]
    /// struct SearchWeb { query: String }
    ///
    /// assert_eq!(SearchWeb::TIMEOUT, Some(Duration::from_secs(10)));
    /// ```
    const TIMEOUT: Option<std::time::Duration> = None;
    /// Whether a person must approve each call before it runs, from `#[tool(needs_approval)]`:
    /// the [`Runner`](crate::Runner) holds such calls ([`Turn::held`](crate::Turn::held)) and
    /// runs them only once approved ([`Runner::resume`](crate::Runner::resume)).
    ///
    /// ```
    /// use toolgen::Tool;
    ///
    /// /// Send an email.
    /// #[derive(Tool, serde::Deserialize)]
    /// #[tool(needs_approval)]
    /// struct SendEmail { to: String, body: String }
    ///
    /// assert!(SendEmail::NEEDS_APPROVAL);
    /// ```
    const NEEDS_APPROVAL: bool = false;
    /// `#[tool(scope = "..")]`: the OAuth scopes a caller's access token needs for the tool. An
    /// MCP server with authorization on (`HttpOptions::authorization`) answers a call without
    /// them with HTTP 403 `insufficient_scope`, naming them, before the tool runs.
    ///
    /// ```
    /// use toolgen::Tool;
    ///
    /// /// Delete a note.
    /// #[derive(Tool, serde::Deserialize)]
    /// #[tool(scope = "notes:write")]
    /// struct DeleteNote { id: u64 }
    ///
    /// assert_eq!(DeleteNote::SCOPES, ["notes:write"]);
    /// ```
    const SCOPES: &'static [&'static str] = &[];
    /// Which dialects the tool insists on (`facts::OPENAI`, `ANTHROPIC`, `GEMINI`) or skips
    /// (`GEMINI_SKIP`), as bits.
    #[doc(hidden)]
    const MODES: u8 = 0;
    /// The provider-specific properties of the tool's definition (`#[tool(cache_control)]`, ..).
    #[doc(hidden)]
    const EXTRAS: Extras = Extras::NONE;

    /// The input schema in `dialect`, as `&'static str`: [`Tool::INPUT_SCHEMA`] for
    /// [`Dialect::Standard`]; otherwise rewritten from it once, at first use, and kept. `None`
    /// where the tool has no such schema: a strict dialect of a tool that is not strict for that
    /// provider, or Gemini's `parameters` of a schema that does not fit them (or of a tool with
    /// `#[tool(gemini = "json_schema")]`).
    ///
    /// - OpenAI strict (`#[tool(strict)]` or `strict = "openai"`): every property `required`,
    ///   optional ones admitting `null` (which [`parse_args`](Tool::parse_args) reads as "left
    ///   out" for fields with a default), `"additionalProperties": false` on every object, and what
    ///   the dialect has no keyword for said in the description.
    /// - Anthropic strict (`#[tool(strict)]` or `strict = "anthropic"`): `"additionalProperties":
    ///   false` everywhere, optional fields stay optional.
    /// - Gemini `parameters` (an OpenAPI 3.0 subset): one `type` and `nullable`, string enums,
    ///   `propertyOrdering`.
    ///
    /// What a strict dialect (or, with `#[tool(gemini = "parameters")]`, Gemini's) cannot
    /// express stops the build, at the field: the texts are written at run time, but whether they
    /// can be is known at compile time.
    ///
    /// ```
    /// use toolgen::{Dialect, Tool};
    ///
    /// /// Search the notes.
    /// #[derive(Tool, serde::Deserialize)]
    /// #[tool(strict)]
    /// struct Search {
    ///     #[tool(length(max = 80))]
    ///     query: String,
    ///     #[serde(default)]
    ///     limit: u8,
    /// }
    ///
    /// assert_eq!(Search::input_schema(Dialect::Standard), Some(Search::INPUT_SCHEMA));
    /// assert_eq!(
    ///     Search::input_schema(Dialect::OpenAiStrict),
    ///     Some(r#"{"type":"object","properties":{"query":{"type":"string","description":"At most 80 characters."},"limit":{"type":["integer","null"],"minimum":0,"maximum":255,"description":"Default: 0."}},"required":["query","limit"],"additionalProperties":false}"#)
    /// );
    /// assert_eq!(
    ///     Search::input_schema(Dialect::Gemini),
    ///     Some(r#"{"type":"object","properties":{"query":{"type":"string","maxLength":80},"limit":{"type":"integer","minimum":0,"maximum":255,"default":0}},"required":["query"],"propertyOrdering":["query","limit"]}"#)
    /// );
    /// let args = Search::parse_args(r#"{"query":"rust","limit":null}"#).unwrap();
    /// assert_eq!(args.limit, 0);
    ///
    /// /// Greet someone.
    /// #[derive(Tool, serde::Deserialize)]
    /// struct Greet { name: String }
    /// assert_eq!(Greet::input_schema(Dialect::OpenAiStrict), None); // not strict
    /// ```
    fn input_schema(dialect: Dialect) -> Option<&'static str> {
        ToolCache::of(TypeId::of::<Self>()).input_schema(&Info::<Self>::INFO, dialect)
    }

    /// The tool definition object `provider`'s API expects in its request's tool list, as JSON
    /// text: built once, at first use, and kept, so a request body can embed it (for example as
    /// a `serde_json::value::RawValue`) with no work per request.
    ///
    /// Strict tools get the strict dialect and `"strict": true` (OpenAI always gets `strict`,
    /// `false` included); Gemini gets `parameters` when the schema fits them, else
    /// `parametersJsonSchema`.
    ///
    /// ```
    /// use toolgen::{Provider, Tool};
    /// /// Greet someone.
    /// #[derive(Tool, serde::Deserialize)]
    /// struct Greet { name: String }
    /// assert_eq!(
    ///     Greet::definition_json(Provider::OpenAiResponses),
    ///     r#"{"type":"function","name":"greet","description":"Greet someone.","parameters":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]},"strict":false}"#
    /// );
    /// const ANTHROPIC: &str = r#"{"name":"greet","description":"Greet someone.","input_schema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}"#;
    /// assert_eq!(Greet::definition_json(Provider::Anthropic), ANTHROPIC);
    /// ```
    fn definition_json(provider: Provider) -> &'static str {
        ToolCache::of(TypeId::of::<Self>()).definition(&Info::<Self>::INFO, provider)
    }

    /// The tool definition object `provider`'s API expects in its request's tool list, as a
    /// `serde_json::Value` ([`Tool::definition_json`] parsed).
    // The text is built from the derive's own schema, and parsed by the tests for every
    // provider; nothing from a model reaches here.
    #[allow(clippy::expect_used)]
    fn definition(provider: Provider) -> serde_json::Value {
        serde_json::from_str(Self::definition_json(provider))
            .expect("toolgen builds every definition as JSON")
    }

    /// Parses the arguments a model sent (JSON text) into the tool's input.
    ///
    /// On failure the [`ArgsError`] names the JSON path of the problem.
    ///
    /// Fields with `#[tool(default = ..)]` that the model left out get their default, and what
    /// the schema states but serde does not check (`range`, `length`, `pattern`, `format`) is
    /// checked, with the same path-bearing errors ([`ArgsErrorKind::Constraint`](crate::ArgsErrorKind::Constraint)).
    ///
    /// Under OpenAI strict mode every property is required, so the model sends `null` for what it
    /// would have left out: a `null` for a field with a default (`#[serde(default)]`, on the field
    /// or its container, or `#[tool(default = ..)]`), at any depth, is dropped so that the default
    /// applies; a `null` for a plain `Option` field is `None`; for a field with neither it stays,
    /// and serde reports it.
    ///
    /// What real models send is tolerated where it cannot hide a real error, and only after the
    /// plain parse failed, so valid arguments pay nothing for it:
    /// - an empty (or blank) string, read as `{}` (a tool without required fields);
    /// - the arguments encoded twice, as a JSON string holding the object;
    /// - a whole number written as a float (`5.0`) where the type wants an integer; `5.5` is
    ///   still an error.
    ///
    /// ```
    /// use toolgen::Tool;
    ///
    /// /// Roll dice.
    /// #[derive(Tool, serde::Deserialize, Debug, PartialEq)]
    /// struct Roll { #[tool(range(min = 1, max = 20))] sides: u8, #[serde(default)] count: u8 }
    ///
    /// assert_eq!(Roll::parse_args(r#"{"sides": 6.0}"#).unwrap(), Roll { sides: 6, count: 0 });
    /// assert_eq!(Roll::parse_args(r#""{\"sides\": 6}""#).unwrap(), Roll { sides: 6, count: 0 });
    /// assert_eq!(
    ///     Roll::parse_args(r#"{"sides": 6.5}"#).unwrap_err().to_string(),
    ///     "invalid arguments at `sides`: invalid type: floating point `6.5`, expected u8"
    /// );
    /// assert_eq!(
    ///     Roll::parse_args(r#"{"sides": 30}"#).unwrap_err().to_string(),
    ///     "invalid arguments at `sides`: must be at most 20, not 30"
    /// );
    /// ```
    fn parse_args(args: &str) -> Result<Self, ArgsError> {
        parse_tool_args(args)
    }

    /// Parses arguments given as a JSON value (Anthropic's `input`, Gemini's `args`), as
    /// [`Tool::parse_args`] does.
    ///
    /// ```
    /// use toolgen::Tool;
    /// /// Greet someone.
    /// #[derive(Tool, serde::Deserialize)]
    /// struct Greet { name: String }
    /// let greet = Greet::parse_value(serde_json::json!({"name": "Ada"})).unwrap();
    /// assert_eq!(greet.name, "Ada");
    /// ```
    fn parse_value(args: serde_json::Value) -> Result<Self, ArgsError> {
        parse_tool_value(args)
    }

    /// Parses arguments given as bytes (straight from a response body), as [`Tool::parse_args`]
    /// does; bytes that are not UTF-8 are an error, not a panic.
    ///
    /// ```
    /// use toolgen::Tool;
    /// /// Greet someone.
    /// #[derive(Tool, serde::Deserialize, Debug)]
    /// struct Greet { name: String }
    /// assert_eq!(Greet::parse_bytes(br#"{"name":"Ada"}"#).unwrap().name, "Ada");
    /// assert!(Greet::parse_bytes(b"{\"name\":\"\xff\"}").is_err());
    /// ```
    fn parse_bytes(args: &[u8]) -> Result<Self, ArgsError> {
        parse_tool_bytes(args)
    }
}

/// What a tool builds at run time, each once, at first use: its dialects and its definitions.
///
/// Each tool type has one, made when a dialect or definition of it is first asked for
/// ([`ToolCache::of`]); nothing in it is built at compile time, so a dialect or definition the
/// program never asks for costs nothing at all.
struct ToolCache {
    dialects: PerDialect<OnceLock<Option<String>>>,
    definitions: [OnceLock<String>; 5],
}

/// What [`ToolCache`] builds from: the tool's consts. (The cache's methods are not generic, so a
/// tool's dialects and definitions add no code of their own to the program.)
struct ToolInfo {
    name: &'static str,
    description: &'static str,
    input_schema: &'static str,
    output_schema: Option<&'static str>,
    modes: u8,
    extras: Extras,
}

/// A tool's [`ToolInfo`], as a const: callers borrow it as a `'static` value, so a tool's
/// `definition_json` and `input_schema` are two calls each, and compile to little.
struct Info<T>(PhantomData<T>);

impl<T: Tool> Info<T> {
    const INFO: ToolInfo = ToolInfo {
        name: T::NAME,
        description: T::DESCRIPTION,
        input_schema: T::INPUT_SCHEMA,
        output_schema: T::OUTPUT_SCHEMA,
        modes: T::MODES,
        extras: T::EXTRAS,
    };
}

impl ToolCache {
    /// An empty cache.
    const fn new() -> ToolCache {
        ToolCache {
            dialects: PerDialect::new(
                OnceLock::new(),
                OnceLock::new(),
                OnceLock::new(),
                OnceLock::new(),
            ),
            definitions: [const { OnceLock::new() }; 5],
        }
    }

    /// The cache of the tool whose type is `tool`: made at its first use and kept for the life
    /// of the program, one for each tool type it uses (a few hundred bytes each). One map for
    /// all tools, rather than a `static` that the derive writes into each tool: a `static` a
    /// tool cost about 2.5 M instructions to compile (benches/compile_time.sh), and its
    /// definitions are read once a request, where a look in the map takes tens of nanoseconds.
    fn of(tool: TypeId) -> &'static ToolCache {
        static CACHES: RwLock<BTreeMap<TypeId, &'static ToolCache>> = RwLock::new(BTreeMap::new());
        kept(&CACHES, tool, ToolCache::new)
    }

    /// [`Tool::input_schema`].
    fn input_schema(&'static self, tool: &ToolInfo, dialect: Dialect) -> Option<&'static str> {
        let rules = Rules::of(dialect);
        if rules.is_identity() {
            return Some(tool.input_schema);
        }
        if !rules.asked(tool.modes) {
            return None;
        }
        self.dialects[dialect]
            .get_or_init(|| rewrite_text(tool.input_schema, dialect).ok())
            .as_deref()
    }

    /// [`Tool::definition_json`].
    fn definition(&'static self, tool: &ToolInfo, provider: Provider) -> &'static str {
        let slot = match provider {
            Provider::Anthropic => &self.definitions[0],
            Provider::OpenAiChat => &self.definitions[1],
            Provider::OpenAiResponses => &self.definitions[2],
            Provider::Gemini => &self.definitions[3],
            Provider::Mcp => &self.definitions[4],
        };
        slot.get_or_init(|| {
            crate::provider::definition_text(
                provider,
                &crate::provider::DefinitionParts {
                    name: tool.name,
                    description: tool.description,
                    schemas: PerDialect::from_fn(|dialect| self.input_schema(tool, dialect)),
                    output: tool.output_schema,
                    extras: tool.extras,
                },
            )
        })
    }
}
