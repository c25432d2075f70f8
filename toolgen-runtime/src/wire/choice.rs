//! How the model must choose among the tools of a request: [`ToolChoice`], rendered as each API
//! takes it.

use serde::{Deserialize, Serialize};
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
/// | [`allowed`](ToolChoice::allowed) | none (an error from [`try_request_fields`](ToolChoice::try_request_fields)) | `{"type":"allowed_tools",..}` (each API its own shape) | `{"mode":"VALIDATED" or "ANY","allowedFunctionNames"}` |
///
/// To offer a turn only some of a set's tools, keep the definitions and say which with
/// [`ToolChoice::allowed`] (the prompt cache survives); where the API cannot (Anthropic), send
/// only their definitions ([`ToolSet::definitions_of`](crate::ToolSet::definitions_of)).
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
///
/// It is `Serialize` and `Deserialize` (a turn held for approval keeps its choice, in the
/// runner's `Pending`), as `{"type": "allowed", "tools": [..], "mode": "auto"}`,
/// `{"type": "tool", "name": ..}`, `{"type": "auto"}` and so on, with `"parallel"` where set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolChoice {
    #[serde(flatten)]
    mode: Mode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    parallel: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Mode {
    Auto,
    Required,
    None,
    Tool { name: String },
    Allowed { tools: Vec<String>, mode: Allowed },
}

/// Whether the model must call one of the tools a [`ToolChoice::allowed`] turn allows, or may
/// answer in words instead.
///
/// ```
/// use toolgen::{Allowed, Provider, ToolChoice};
///
/// let choice = ToolChoice::allowed(["get_weather"], Allowed::Auto);
/// let fields = choice.request_fields(Provider::Gemini);
/// assert_eq!(fields["toolConfig"]["functionCallingConfig"]["mode"], "VALIDATED");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Allowed {
    /// The model calls one of the allowed tools or answers in words: OpenAI's `auto`, Gemini's
    /// `VALIDATED`.
    Auto,
    /// The model must call one or more of the allowed tools: OpenAI's `required`, Gemini's
    /// `ANY`.
    Required,
}

/// Why a [`ToolChoice`] cannot be said in a provider's request fields, from
/// [`ToolChoice::try_request_fields`].
///
/// ```
/// use toolgen::{Allowed, Provider, ToolChoice};
///
/// let err = ToolChoice::allowed(["a", "b"], Allowed::Auto)
///     .try_request_fields(Provider::Anthropic)
///     .unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "Anthropic requests cannot restrict a turn to some of their tools (allowed tools); \
///      send only those tools' definitions instead"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoiceError {
    provider: Provider,
    what: &'static str,
    instead: &'static str,
}

impl ChoiceError {
    /// The API that cannot take the choice.
    pub fn provider(&self) -> Provider {
        self.provider
    }
}

impl std::fmt::Display for ChoiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} requests cannot {}; {}",
            self.provider, self.what, self.instead
        )
    }
}

impl std::error::Error for ChoiceError {}

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
            mode: Mode::Tool { name: name.into() },
            parallel: None,
        }
    }

    /// The model may call only the tools named in `names` this turn, though the request still
    /// sends every definition: the tool list stays the same from turn to turn, and so does the
    /// providers' prompt cache, which a narrowed list would break.
    ///
    /// | | fields |
    /// |---|---|
    /// | OpenAI Chat | `tool_choice: {"type":"allowed_tools","allowed_tools":{"mode","tools":[{"type":"function","function":{"name"}}]}}` |
    /// | OpenAI Responses | `tool_choice: {"type":"allowed_tools","mode","tools":[{"type":"function","name"}]}` |
    /// | Gemini | `toolConfig.functionCallingConfig: {"mode":"VALIDATED" or "ANY","allowedFunctionNames"}` |
    /// | Anthropic, MCP | none: neither can say it ([`try_request_fields`](ToolChoice::try_request_fields) is an error) |
    ///
    /// Anthropic's `tool_choice` names one tool or none: for one tool that must be called, use
    /// [`ToolChoice::tool`]; for several, send only their definitions
    /// ([`Runner::offer`](crate::Runner), [`ToolSet::definitions_of`](crate::ToolSet::definitions_of)),
    /// at the cost of the cache. MCP requests carry no choice at all. For these,
    /// [`request_fields`](ToolChoice::request_fields) writes the mode alone (`auto` or `any`)
    /// and [`expresses`](ToolChoice::expresses) is `false`.
    ///
    /// Give the same choice to [`Runner::run_with_choice`](crate::Runner) so that a call of
    /// another tool is refused rather than run.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgen::{Allowed, Provider, ToolChoice};
    ///
    /// let choice = ToolChoice::allowed(["get_weather", "get_time"], Allowed::Required);
    /// assert_eq!(
    ///     choice.request_fields(Provider::OpenAiResponses)["tool_choice"],
    ///     json!({"type": "allowed_tools", "mode": "required", "tools": [
    ///         {"type": "function", "name": "get_weather"}, {"type": "function", "name": "get_time"}]})
    /// );
    /// assert_eq!(
    ///     choice.request_fields(Provider::Gemini)["toolConfig"],
    ///     json!({"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_weather", "get_time"]}})
    /// );
    /// assert!(choice.allows("get_time") && !choice.allows("delete_file"));
    /// assert!(!choice.expresses(Provider::Anthropic));
    /// ```
    pub fn allowed<I>(names: I, mode: Allowed) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        ToolChoice {
            mode: Mode::Allowed {
                tools: names.into_iter().map(Into::into).collect(),
                mode,
            },
            parallel: None,
        }
    }

    /// Whether this choice lets the model call the tool named `name`: any tool for
    /// [`auto`](ToolChoice::auto) and [`required`](ToolChoice::required), none for
    /// [`none`](ToolChoice::none), the one named or those allowed otherwise.
    ///
    /// ```
    /// use toolgen::ToolChoice;
    ///
    /// assert!(ToolChoice::auto().allows("anything"));
    /// assert!(!ToolChoice::none().allows("get_weather"));
    /// assert!(!ToolChoice::tool("get_time").allows("get_weather"));
    /// ```
    pub fn allows(&self, name: &str) -> bool {
        match &self.mode {
            Mode::Auto | Mode::Required => true,
            Mode::None => false,
            Mode::Tool { name: tool } => tool == name,
            Mode::Allowed { tools: names, .. } => names.iter().any(|allowed| allowed == name),
        }
    }

    /// The names of the tools the model may call, where the choice limits them (`None` for
    /// [`auto`](ToolChoice::auto) and [`required`](ToolChoice::required)).
    ///
    /// ```
    /// use toolgen::{Allowed, ToolChoice};
    ///
    /// assert_eq!(ToolChoice::allowed(["a", "b"], Allowed::Auto).allowed_names(), Some(vec!["a", "b"]));
    /// assert_eq!(ToolChoice::none().allowed_names(), Some(vec![]));
    /// assert_eq!(ToolChoice::auto().allowed_names(), None);
    /// ```
    pub fn allowed_names(&self) -> Option<Vec<&str>> {
        match &self.mode {
            Mode::Auto | Mode::Required => None,
            Mode::None => Some(Vec::new()),
            Mode::Tool { name } => Some(vec![name.as_str()]),
            Mode::Allowed { tools: names, .. } => Some(names.iter().map(String::as_str).collect()),
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
    /// are set for Gemini, which has no such switch, where a tool choice is asked of MCP, or
    /// where [allowed tools](ToolChoice::allowed) are asked of Anthropic.
    pub fn expresses(&self, provider: Provider) -> bool {
        self.unexpressed(provider).is_none()
    }

    /// What `provider`'s fields cannot say of this choice, if anything.
    fn unexpressed(&self, provider: Provider) -> Option<ChoiceError> {
        let error = |what, instead| {
            Some(ChoiceError {
                provider,
                what,
                instead,
            })
        };
        let allowed = matches!(self.mode, Mode::Allowed { .. });
        match provider {
            Provider::Anthropic | Provider::Mcp if allowed => error(
                "restrict a turn to some of their tools (allowed tools)",
                "send only those tools' definitions instead",
            ),
            Provider::Gemini | Provider::Mcp if self.parallel.is_some() => error(
                "turn parallel tool calls on or off",
                "leave `parallel` unset",
            ),
            Provider::Mcp if self.mode != Mode::Auto => error(
                "choose tools (the client's model picks)",
                "leave the choice `auto`",
            ),
            Provider::Anthropic
            | Provider::OpenAiChat
            | Provider::OpenAiResponses
            | Provider::Gemini
            | Provider::Mcp => None,
        }
    }

    /// [`request_fields`](ToolChoice::request_fields), or an error where `provider`'s fields
    /// cannot say all of the choice ([`expresses`](ToolChoice::expresses) is `false`), rather
    /// than fields that say less.
    ///
    /// # Errors
    ///
    /// [`ChoiceError`] saying what cannot be said and what to do instead.
    ///
    /// ```
    /// use toolgen::{Provider, ToolChoice};
    ///
    /// assert!(ToolChoice::required().try_request_fields(Provider::Anthropic).is_ok());
    /// let err = ToolChoice::auto().parallel(false).try_request_fields(Provider::Gemini).unwrap_err();
    /// assert_eq!(err.provider(), Provider::Gemini);
    /// ```
    pub fn try_request_fields(
        &self,
        provider: Provider,
    ) -> Result<Map<String, Value>, ChoiceError> {
        match self.unexpressed(provider) {
            Some(error) => Err(error),
            None => Ok(self.request_fields(provider)),
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
                    Mode::Tool { name } => json!({"type": "tool", "name": name}),
                    // No such choice (`try_request_fields` refuses it): the mode alone.
                    Mode::Allowed {
                        mode: Allowed::Auto,
                        ..
                    } => json!({"type": "auto"}),
                    Mode::Allowed {
                        mode: Allowed::Required,
                        ..
                    } => json!({"type": "any"}),
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
                    Mode::Tool { name } if provider == Provider::OpenAiChat => {
                        json!({"type": "function", "function": {"name": name}})
                    }
                    Mode::Tool { name } => json!({"type": "function", "name": name}),
                    Mode::Allowed { tools: names, mode } => {
                        let mode = match mode {
                            Allowed::Auto => "auto",
                            Allowed::Required => "required",
                        };
                        // Chat: `ChatCompletionAllowedToolsChoice`, the tools in Chat's shape;
                        // Responses: `ToolChoiceAllowed`, flat, in the Responses shape.
                        if provider == Provider::OpenAiChat {
                            let tools: Vec<Value> = names
                                .iter()
                                .map(|name| json!({"type": "function", "function": {"name": name}}))
                                .collect();
                            json!({"type": "allowed_tools",
                                   "allowed_tools": {"mode": mode, "tools": tools}})
                        } else {
                            let tools: Vec<Value> = names
                                .iter()
                                .map(|name| json!({"type": "function", "name": name}))
                                .collect();
                            json!({"type": "allowed_tools", "mode": mode, "tools": tools})
                        }
                    }
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
                    Mode::Tool { name } => json!({"mode": "ANY", "allowedFunctionNames": [name]}),
                    // `VALIDATED`: a call or words, calls held to the schemas and the names.
                    Mode::Allowed {
                        tools: names,
                        mode: Allowed::Auto,
                    } => {
                        json!({"mode": "VALIDATED", "allowedFunctionNames": names})
                    }
                    Mode::Allowed {
                        tools: names,
                        mode: Allowed::Required,
                    } => {
                        json!({"mode": "ANY", "allowedFunctionNames": names})
                    }
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
