//! Tool sets: several tools offered together, and the dispatch of a model's call to the right one.

use serde_json::Value;

use crate::parse::args::ArgsError;
use crate::provider::Provider;
use crate::wire::call::ToolCall;

/// Several tools offered to a model together, as one enum with a variant per tool.
///
/// `#[derive(ToolSet)]` implements it for an enum whose variants each hold one [`Tool`](crate::Tool)
/// type. Two tools with the same name in one set are a compile error.
///
/// ```
/// use serde::Deserialize;
/// use toolgen::{Provider, Tool, ToolCall, ToolSet};
///
/// /// Get the current weather for a city.
/// #[derive(Tool, Deserialize, Debug, PartialEq)]
/// struct GetWeather { city: String }
///
/// /// Look up a word in the dictionary.
/// #[derive(Tool, Deserialize, Debug, PartialEq)]
/// struct Define { word: String }
///
/// #[derive(ToolSet, Debug, PartialEq)]
/// enum Tools { Weather(GetWeather), Define(Define) }
///
/// let definitions = Tools::definitions(Provider::OpenAiChat);
/// assert_eq!(definitions[1]["function"]["name"], "define");
///
/// let call = ToolCall::new("define", r#"{"word":"rope"}"#);
/// assert_eq!(Tools::parse_call(&call).unwrap(), Tools::Define(Define { word: "rope".into() }));
///
/// let unknown = ToolCall::new("get_wether", "{}");
/// assert_eq!(
///     Tools::parse_call(&unknown).unwrap_err().to_string(),
///     "invalid arguments: unknown tool `get_wether`; the tools are `get_weather`, `define`"
/// );
/// ```
pub trait ToolSet: Sized {
    /// The tools' names, in variant order.
    const NAMES: &'static [&'static str];

    /// The array of tool definitions to send in `provider`'s request, in variant order.
    fn definitions(provider: Provider) -> Value;

    /// The OAuth scopes the tool named `name` needs (its `#[tool(scope = "..")]`); none for a
    /// name that is not the set's.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use toolgen::{Tool, ToolSet};
    ///
    /// /// Delete a note.
    /// #[derive(Tool, Deserialize)]
    /// #[tool(scope = "notes:write notes:delete")]
    /// struct DeleteNote { id: u64 }
    ///
    /// #[derive(ToolSet)]
    /// enum Notes { DeleteNote(DeleteNote) }
    ///
    /// assert_eq!(Notes::scopes("delete_note"), ["notes:write", "notes:delete"]);
    /// assert!(Notes::scopes("other").is_empty());
    /// ```
    fn scopes(name: &str) -> &'static [&'static str] {
        let _ = name;
        &[]
    }

    /// Parses a call into the variant of the tool it names. An unknown name is an error that
    /// lists the known ones; bad arguments are the tool's [`ArgsError`].
    fn parse_call(call: &ToolCall) -> Result<Self, ArgsError>;

    /// Whether the tool named `name` is one whose calls a person must approve
    /// ([`Tool::NEEDS_APPROVAL`](crate::Tool::NEEDS_APPROVAL), `#[tool(needs_approval)]`);
    /// `false` for a name that is not the set's.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use toolgen::{Tool, ToolSet};
    ///
    /// /// Read a file.
    /// #[derive(Tool, Deserialize)]
    /// struct ReadFile { path: String }
    ///
    /// /// Delete a file.
    /// #[derive(Tool, Deserialize)]
    /// #[tool(needs_approval)]
    /// struct DeleteFile { path: String }
    ///
    /// #[derive(ToolSet)]
    /// enum Files { Read(ReadFile), Delete(DeleteFile) }
    ///
    /// assert!(Files::needs_approval("delete_file"));
    /// assert!(!Files::needs_approval("read_file"));
    /// ```
    fn needs_approval(name: &str) -> bool {
        let _ = name;
        false
    }

    /// The definitions of the tools named in `names` only, in variant order: the tools one
    /// turn offers (by auth, by workflow state). Names that are not the set's are ignored.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use toolgen::{Provider, Tool, ToolSet};
    ///
    /// /// Read a file.
    /// #[derive(Tool, Deserialize)]
    /// struct ReadFile { path: String }
    ///
    /// /// Delete a file.
    /// #[derive(Tool, Deserialize)]
    /// struct DeleteFile { path: String }
    ///
    /// #[derive(ToolSet)]
    /// enum Files { Read(ReadFile), Delete(DeleteFile) }
    ///
    /// let read_only = Files::definitions_of(Provider::Anthropic, &["read_file"]);
    /// assert_eq!(read_only.as_array().unwrap().len(), 1);
    /// assert_eq!(read_only[0]["name"], "read_file");
    /// ```
    fn definitions_of(provider: Provider, names: &[&str]) -> Value {
        match Self::definitions(provider) {
            Value::Array(all) => Value::Array(
                all.into_iter()
                    .zip(Self::NAMES)
                    .filter(|(_, name)| names.contains(name))
                    .map(|(definition, _)| definition)
                    .collect(),
            ),
            other => other,
        }
    }
}

/// The set of no tools, for a [`Runner`](crate::Runner) whose tools are all added at run time
/// (an MCP server's, [`DynamicTool`](crate::DynamicTool)s): `#[derive(ToolSet)]` refuses an
/// enum without variants, and this is that enum. [`Runner::without_set`](crate::Runner::without_set)
/// makes such a runner without naming it.
///
/// ```
/// use toolgen::{NoTools, Provider, ToolCall, ToolSet};
///
/// assert!(NoTools::NAMES.is_empty());
/// assert_eq!(NoTools::definitions(Provider::Anthropic), serde_json::json!([]));
/// let error = NoTools::parse_call(&ToolCall::new("search", "{}")).unwrap_err();
/// assert_eq!(error.to_string(), "invalid arguments: unknown tool `search`; there are no tools");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoTools {}

impl ToolSet for NoTools {
    const NAMES: &'static [&'static str] = &[];

    fn definitions(_: Provider) -> Value {
        Value::Array(Vec::new())
    }

    fn parse_call(call: &ToolCall) -> Result<Self, ArgsError> {
        Err(ArgsError::unknown_tool(&call.name, &[]))
    }
}

/// Stops the build if two tools of one set share a name; otherwise does nothing.
#[doc(hidden)]
// Runs only in const evaluation, on the program's own tools: its panic is a compile error.
#[allow(clippy::panic, clippy::indexing_slicing)]
pub const fn assert_unique_tool_names(names: &[&str]) {
    let mut i = 0;
    while i < names.len() {
        let mut j = i + 1;
        while j < names.len() {
            if crate::schema::rope::str_eq(names[i], names[j]) {
                panic!(
                    "toolgen: two tools in this ToolSet have the same name; give one another #[tool(name = \"...\")]"
                );
            }
            j += 1;
        }
        i += 1;
    }
}
