//! How the model must choose among the tools of a request: [`ToolChoice`], rendered as each API
//! takes it.

use serde_json::{Map, Value, json};

use crate::provider::Provider;

/// Whether and which tool the model must call, and whether it may call several at once: the
/// request fields each API reads for it, from [`request_fields`](ToolChoice::request_fields).
///
/// | | Anthropic `tool_choice` | OpenAI Chat / Responses `tool_choice` | Gemini `toolConfig.functionCallingConfig` |
/// |---|---|---|---|
/// | [`auto`](ToolChoice::auto) | `{"type":"auto"}` | `"auto"` | `{"mode":"AUTO"}` |
/// | [`required`](ToolChoice::required) | `{"type":"any"}` | `"required"` | `{"mode":"ANY"}` |
/// | [`none`](ToolChoice::none) | `{"type":"none"}` | `"none"` | `{"mode":"NONE"}` |
/// | [`tool`](ToolChoice::tool) | `{"type":"tool","name"}` | `{"type":"function","function":{"name"}}` (Chat), `{"type":"function","name"}` (Responses) | `{"mode":"ANY","allowedFunctionNames":[name]}` |
///
/// [`parallel(false)`](ToolChoice::parallel) is Anthropic's `disable_parallel_tool_use: true`
/// inside `tool_choice` (where the seed 000 document puts it beside `tool_choice`, the API
/// does not read it) and OpenAI's `parallel_tool_calls: false`. Gemini has no such switch: there
/// the setting is left out, and [`ToolChoice::expresses`] says so. MCP requests carry no tool
/// choice (the client's model picks): the fields are empty.
///
/// To offer a turn only some of a set's tools, send only their definitions
/// ([`ToolSet::definitions_of`](crate::ToolSet::definitions_of)).
///
/// ```
/// use serde_json::json;
/// use toolgen::{Provider, ToolChoice};
///
/// // Seed 000: one tool, always called, once.
/// let choice = ToolChoice::tool("emit_flashcards").parallel(false);
/// assert_eq!(
///     choice.request_fields(Provider::Anthropic),
///     json!({"tool_choice": {"type": "tool", "name": "emit_flashcards", "disable_parallel_tool_use": true}})
///         .as_object().unwrap().clone()
/// );
/// assert_eq!(
///     choice.request_fields(Provider::OpenAiChat),
///     json!({"tool_choice": {"type": "function", "function": {"name": "emit_flashcards"}},
///            "parallel_tool_calls": false})
///         .as_object().unwrap().clone()
/// );
/// assert_eq!(
///     choice.request_fields(Provider::Gemini),
///     json!({"toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["emit_flashcards"]}}})
///         .as_object().unwrap().clone()
/// );
/// assert!(!choice.expresses(Provider::Gemini));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolChoice {
    mode: Mode,
    parallel: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Mode {
    Auto,
    Required,
    None,
    Tool(String),
}

impl ToolChoice {
    /// The model calls tools or not, as it sees fit (every API's default when tools are sent).
    pub fn auto() -> Self {
        ToolChoice {
            mode: Mode::Auto,
            parallel: None,
        }
    }

    /// The model must call at least one tool.
    pub fn required() -> Self {
        ToolChoice {
            mode: Mode::Required,
            parallel: None,
        }
    }

    /// The model must not call a tool.
    pub fn none() -> Self {
        ToolChoice {
            mode: Mode::None,
            parallel: None,
        }
    }

    /// The model must call the tool named `name` (a [`Tool::NAME`](crate::Tool::NAME)).
    pub fn tool(name: impl Into<String>) -> Self {
        ToolChoice {
            mode: Mode::Tool(name.into()),
            parallel: None,
        }
    }

    /// Whether the model may call several tools in one turn (unset: the API's default, which is
    /// yes).
    #[must_use]
    pub fn parallel(mut self, parallel: bool) -> Self {
        self.parallel = Some(parallel);
        self
    }

    /// Whether `provider`'s fields say all of this choice: `false` only where parallel calls
    /// are set for Gemini, which has no such switch, or where a tool choice is asked of MCP.
    pub fn expresses(&self, provider: Provider) -> bool {
        match provider {
            Provider::Gemini => self.parallel.is_none(),
            Provider::Mcp => self.mode == Mode::Auto && self.parallel.is_none(),
            _ => true,
        }
    }

    /// The top-level request fields for this choice in `provider`'s API, to merge into the
    /// request body beside `tools`.
    pub fn request_fields(&self, provider: Provider) -> Map<String, Value> {
        let mut fields = Map::new();
        match provider {
            Provider::Anthropic => {
                let mut choice = match &self.mode {
                    Mode::Auto => json!({"type": "auto"}),
                    Mode::Required => json!({"type": "any"}),
                    Mode::None => json!({"type": "none"}),
                    Mode::Tool(name) => json!({"type": "tool", "name": name}),
                };
                // `none` takes no parallel setting: no tool is called at all.
                if let (Some(parallel), false, Some(object)) = (
                    self.parallel,
                    self.mode == Mode::None,
                    choice.as_object_mut(),
                ) {
                    object.insert("disable_parallel_tool_use".to_owned(), json!(!parallel));
                }
                fields.insert("tool_choice".to_owned(), choice);
            }
            Provider::OpenAiChat | Provider::OpenAiResponses => {
                let choice = match &self.mode {
                    Mode::Auto => json!("auto"),
                    Mode::Required => json!("required"),
                    Mode::None => json!("none"),
                    Mode::Tool(name) if provider == Provider::OpenAiChat => {
                        json!({"type": "function", "function": {"name": name}})
                    }
                    Mode::Tool(name) => json!({"type": "function", "name": name}),
                };
                fields.insert("tool_choice".to_owned(), choice);
                if let Some(parallel) = self.parallel {
                    fields.insert("parallel_tool_calls".to_owned(), json!(parallel));
                }
            }
            Provider::Gemini => {
                let config = match &self.mode {
                    Mode::Auto => json!({"mode": "AUTO"}),
                    Mode::Required => json!({"mode": "ANY"}),
                    Mode::None => json!({"mode": "NONE"}),
                    Mode::Tool(name) => json!({"mode": "ANY", "allowedFunctionNames": [name]}),
                };
                fields.insert(
                    "toolConfig".to_owned(),
                    json!({ "functionCallingConfig": config }),
                );
            }
            Provider::Mcp => {}
        }
        fields
    }
}

impl Default for ToolChoice {
    /// [`ToolChoice::auto`].
    fn default() -> Self {
        ToolChoice::auto()
    }
}
