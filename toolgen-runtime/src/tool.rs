//! The [`Tool`] trait: a type that is an LLM tool's input.

use serde::de::DeserializeOwned;

use crate::args::{ArgsError, parse_tool_args};
use crate::provider::{Provider, ToolInfo, definition};
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
///     r#"{"type":"object","properties":{"city":{"type":"string","description":"City name, e.g. \"Riga\"."},"units":{"anyOf":[{"type":"string","enum":["celsius","fahrenheit"]},{"type":"null"}]}},"required":["city"]}"#
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
pub trait Tool: ToolSchema + DeserializeOwned {
    /// The tool's name, as the model calls it: `#[tool(name = "...")]`, or the type's name in
    /// snake_case. Matches `^[a-zA-Z0-9_-]{1,64}$`, checked at compile time.
    const NAME: &'static str;
    /// What the tool does, for the model: `#[tool(description = "...")]` or the doc comment.
    const DESCRIPTION: &'static str;
    /// Whether the tool asked for strict mode with `#[tool(strict)]`.
    const STRICT: bool = false;
    /// The input's JSON Schema (2020-12) as minified JSON text, properties in declaration order,
    /// without `$schema`. A true `const`, built by const evaluation.
    const INPUT_SCHEMA: &'static str;

    /// The tool definition object `provider`'s API expects in its request's tool list.
    fn definition(provider: Provider) -> serde_json::Value {
        definition(
            provider,
            ToolInfo {
                name: Self::NAME,
                description: Self::DESCRIPTION,
                input_schema: Self::INPUT_SCHEMA,
            },
        )
    }

    /// Parses the arguments a model sent (JSON text) into the tool's input.
    ///
    /// On failure the [`ArgsError`] names the JSON path of the problem.
    /// Fields with `#[tool(default = ..)]` that the model left out get their default.
    fn parse_args(args: &str) -> Result<Self, ArgsError> {
        parse_tool_args(args)
    }
}
