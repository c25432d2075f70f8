//! Structured outputs: a type's schema as the form of the model's final answer, asked for the way
//! each provider takes it ([`Structured::request_fields`]), and the answer read back into the
//! type from a whole response ([`Structured::parse`]) or a stream ([`AnswerStream`]).

mod reply;
mod stream;

use std::marker::PhantomData;
use std::sync::OnceLock;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::dialect::rewrite::rewrite_text;
use crate::dialect::strict::check_answer;
use crate::dialect::{Dialect, PerDialect};
use crate::parse::args::{ArgsError, ArgsErrorKind, parse_tool_args};
use crate::provider::Extras;
use crate::provider::{DefinitionParts, Provider, definition_text};
use crate::schema::ToolSchema;
use crate::schema::rope::schema_text;
use crate::tool::Tool;
use crate::wire::call::{ToolCall, ToolCallError};
use crate::wire::choice::ToolChoice;
use crate::wire::stream::StreamError;

use reply::{Reply, Stop};
pub use stream::AnswerStream;

/// How the typed answer is asked for: the provider's own structured outputs, or a tool the model
/// must call, whose arguments are the answer. One argument switches between them; the type, the
/// parsing and its errors are the same.
///
/// ```
/// use toolgen::Route;
/// assert_ne!(Route::Native, Route::Tool);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Route {
    /// The provider's structured outputs: OpenAI Chat `response_format`, OpenAI Responses
    /// `text.format`, Anthropic `output_config.format`, Gemini `generationConfig`'s response
    /// schema. The answer is the text of the model's message.
    Native,
    /// A forced tool call (for a model or provider without structured outputs): `tools` holds
    /// one tool whose input is the type, and `tool_choice` makes the model call it, once. The
    /// answer is the call's arguments (seed 000's `emit_flashcards`).
    Tool,
}

/// `T` as the form of a model's final answer: the request fields that ask for it from each
/// provider, and the answer parsed back into `T`.
///
/// The schema is `T`'s, in each provider's strict dialect (OpenAI and Anthropic; Gemini's
/// `responseSchema` where the schema fits the OpenAPI subset, else `responseJsonSchema`), with
/// `"strict": true` where the API takes it. A type that cannot be a strict answer does not
/// compile: the same rules as `#[tool(strict)]`, checked when `Structured::<T>::new` is built
/// (in a `static` or `const`, by `cargo check`; in a function, only by `cargo build`), naming the
/// type and the path of the first field a dialect cannot express; and the answer must be an
/// object (a struct with named fields), as OpenAI and Anthropic require. `#[tool(answer)]` on
/// the type checks it where it is defined, by `cargo check` too, each error at its field:
///
/// ```compile_fail
/// use std::collections::HashMap;
///
/// /// Word counts.
/// #[derive(toolgen::ToolSchema, serde::Deserialize)]
/// #[tool(answer)]
/// struct WordCounts {
///     by_word: HashMap<String, u32>, // error: a strict answer cannot take a map
/// }
/// ```
///
/// The name (OpenAI's `json_schema.name`, and the tool's name on the [`Route::Tool`]) is `T`'s
/// name in snake_case, or [`Tool::NAME`] for a tool ([`Structured::from_tool`]), or set with
/// [`with_name`](Structured::with_name); the description is `T`'s doc comment (its schema's
/// `description`), [`Tool::DESCRIPTION`] for a tool, or [`with_description`](Structured::with_description).
///
/// The answer is parsed as tool arguments are ([`Tool::parse_args`]): JSON paths in errors,
/// OpenAI strict's `null`s dropped for fields with defaults, `#[tool(default = ..)]` values
/// filled in, constraints checked; an answer wrapped in a Markdown code fence (` ```json `), as
/// models without structured outputs write one on the [`Route::Native`], is read inside it. A
/// refusal, a cut-off answer, a safety stop or a missing answer are their own [`AnswerError`]s.
///
/// Everything is built at first use and kept, so a `static` holds one for the program:
///
/// ```
/// use serde::Deserialize;
/// use serde_json::json;
/// use toolgen::{Provider, Route, Structured, ToolSchema};
///
/// /// A city's weather.
/// #[derive(ToolSchema, Deserialize, Debug, PartialEq)]
/// struct Weather {
///     city: String,
///     #[tool(range(min = -90, max = 60))]
///     celsius: i32,
/// }
///
/// static WEATHER: Structured<Weather> = Structured::new(Route::Native);
///
/// let fields = WEATHER.request_fields(Provider::OpenAiChat);
/// assert_eq!(
///     serde_json::Value::Object(fields),
///     json!({"response_format": {"type": "json_schema", "json_schema": {
///         "name": "weather",
///         "description": "A city's weather.",
///         "schema": {"type": "object", "description": "A city's weather.",
///             "properties": {"city": {"type": "string"},
///                 "celsius": {"type": "integer", "minimum": -90, "maximum": 60}},
///             "required": ["city", "celsius"], "additionalProperties": false},
///         "strict": true}}})
/// );
///
/// let response = json!({"choices": [{"index": 0, "finish_reason": "stop", "message":
///     {"role": "assistant", "content": "{\"city\":\"Riga\",\"celsius\":4}", "refusal": null}}]});
/// let weather = WEATHER.parse(Provider::OpenAiChat, &response)?;
/// assert_eq!(weather, Weather { city: "Riga".into(), celsius: 4 });
/// # Ok::<(), toolgen::AnswerError>(())
/// ```
pub struct Structured<T> {
    route: Route,
    /// A tool's input schema ([`Tool::INPUT_SCHEMA`]), which has no root description: the
    /// tool's doc comment is its description.
    schema: Option<&'static str>,
    name: Option<&'static str>,
    description: Option<&'static str>,
    built: OnceLock<Built>,
    answer: PhantomData<fn() -> T>,
}

/// What a [`Structured`] builds at first use.
#[derive(Debug)]
struct Built {
    name: String,
    description: Option<String>,
    /// The standard schema, and each dialect's: the strict ones are `None` only if the
    /// run-time rewrite disagrees with the compile-time check (then the standard schema is
    /// sent, not strict); Gemini's `responseSchema`, where the schema fits it.
    schemas: PerDialect<Option<String>>,
    fields: [OnceLock<Map<String, Value>>; 5],
}

impl<T: ToolSchema + DeserializeOwned> Structured<T> {
    /// `T` as the answer, asked for by `route`; nothing is built until first use.
    ///
    /// Does not compile when `T` cannot be a strict answer (see [`Structured`]).
    pub const fn new(route: Route) -> Self {
        const { check_answer(T::FACTS, T::TYPE_NAME, false) };
        Structured {
            route,
            schema: None,
            name: None,
            description: None,
            built: OnceLock::new(),
            answer: PhantomData,
        }
    }

    /// The answer's name instead of `T`'s: OpenAI's `json_schema.name`, and the tool's name on
    /// the [`Route::Tool`].
    ///
    /// # Panics
    ///
    /// When `name` does not match `^[a-zA-Z0-9_-]{1,64}$` (what OpenAI and Anthropic take): in
    /// a `static` or `const`, that stops the build.
    ///
    /// ```
    /// # #[derive(toolgen::ToolSchema, serde::Deserialize)] struct Cards { front: String }
    /// use toolgen::{Route, Structured};
    /// static CARDS: Structured<Cards> = Structured::new(Route::Tool).with_name("emit_flashcards");
    /// assert_eq!(CARDS.name(), "emit_flashcards");
    /// ```
    #[must_use]
    // Documented: a bad name is the program's own mistake, and in a `static` a compile error.
    #[allow(clippy::panic)]
    pub const fn with_name(mut self, name: &'static str) -> Self {
        if !valid_name(name.as_bytes()) {
            panic!("toolgen: an answer's name must match ^[a-zA-Z0-9_-]{{1,64}}$");
        }
        self.name = Some(name);
        self
    }

    /// The answer's description instead of `T`'s doc comment.
    #[must_use]
    pub const fn with_description(mut self, description: &'static str) -> Self {
        self.description = Some(description);
        self
    }

    /// The route the answer is asked for by.
    pub fn route(&self) -> Route {
        self.route
    }

    /// The answer's name.
    ///
    /// ```
    /// # #[derive(toolgen::ToolSchema, serde::Deserialize)] struct CityWeather { city: String }
    /// use toolgen::{Route, Structured};
    /// assert_eq!(Structured::<CityWeather>::new(Route::Native).name(), "city_weather");
    /// ```
    pub fn name(&self) -> &str {
        &self.built().name
    }

    /// The answer's description, if it has one.
    pub fn description(&self) -> Option<&str> {
        self.built().description.as_deref()
    }

    /// The answer's schema in `dialect` (the standard one, OpenAI's or Anthropic's strict one, or
    /// Gemini's `responseSchema`, `None` where it does not fit).
    ///
    /// ```
    /// # #[derive(toolgen::ToolSchema, serde::Deserialize)] struct Answer { text: String }
    /// use toolgen::{Dialect, Route, Structured};
    /// let answer = Structured::<Answer>::new(Route::Native);
    /// assert_eq!(
    ///     answer.schema(Dialect::AnthropicStrict),
    ///     Some(r#"{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}"#)
    /// );
    /// ```
    pub fn schema(&self, dialect: Dialect) -> Option<&str> {
        self.built().schemas.schema(dialect)
    }

    /// The top-level request fields that ask `provider` for the answer, to merge into the
    /// request body (built once, then cloned).
    ///
    /// [`Route::Native`]:
    ///
    /// | provider | fields |
    /// |---|---|
    /// | OpenAI Chat | `response_format: {"type": "json_schema", "json_schema": {name, description, schema, "strict": true}}` |
    /// | OpenAI Responses | `text: {"format": {"type": "json_schema", name, description, schema, "strict": true}}` |
    /// | Anthropic | `output_config: {"format": {"type": "json_schema", schema}}` (generally available on Claude 4.5 models and later, no beta header; the earlier beta took `output_format` with the `structured-outputs-2025-11-13` header) |
    /// | Gemini | `generationConfig: {"responseMimeType": "application/json", "responseSchema"}` (or `responseJsonSchema` with the standard schema, where the OpenAPI subset cannot hold it) |
    /// | MCP | none: `sampling/createMessage` takes no schema (say it in the prompt) |
    ///
    /// [`Route::Tool`]: `tools` with the one answer tool (its definition as
    /// [`Tool::definition`] writes a strict tool's), and the tool choice that forces it
    /// ([`ToolChoice::tool`], not parallel): replace `tools`, or add the request's other tools to
    /// it. Anthropic refuses a forced tool with extended thinking on. MCP: none.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgen::{Provider, Route, Structured};
    ///
    /// /// A greeting.
    /// #[derive(toolgen::ToolSchema, serde::Deserialize)]
    /// struct Greeting { text: String }
    ///
    /// let native = Structured::<Greeting>::new(Route::Native);
    /// assert_eq!(
    ///     serde_json::Value::Object(native.request_fields(Provider::Anthropic)),
    ///     json!({"output_config": {"format": {"type": "json_schema", "schema": {"type": "object",
    ///         "description": "A greeting.", "properties": {"text": {"type": "string"}},
    ///         "required": ["text"], "additionalProperties": false}}}})
    /// );
    ///
    /// let tool = Structured::<Greeting>::new(Route::Tool);
    /// let fields = tool.request_fields(Provider::Anthropic);
    /// assert_eq!(fields["tools"][0]["name"], "greeting");
    /// assert_eq!(fields["tools"][0]["strict"], true);
    /// assert_eq!(fields["tool_choice"], json!({"type": "tool", "name": "greeting", "disable_parallel_tool_use": true}));
    /// ```
    pub fn request_fields(&self, provider: Provider) -> Map<String, Value> {
        let built = self.built();
        let [anthropic, chat, responses, gemini, mcp] = &built.fields;
        let slot = match provider {
            Provider::Anthropic => anthropic,
            Provider::OpenAiChat => chat,
            Provider::OpenAiResponses => responses,
            Provider::Gemini => gemini,
            Provider::Mcp => mcp,
        };
        slot.get_or_init(|| match self.route {
            Route::Native => native_fields(built, provider),
            Route::Tool => tool_fields(built, provider),
        })
        .clone()
    }

    /// Reads the answer out of `provider`'s whole response, into `T`.
    ///
    /// [`Route::Native`]: the text of the model's message (Chat `message.content`, Responses
    /// `output_text` parts, Anthropic `text` blocks, Gemini text parts, MCP sampling's text
    /// content), thoughts and reasoning left out. [`Route::Tool`]: the arguments of the model's
    /// call of the answer tool.
    ///
    /// # Errors
    ///
    /// [`AnswerError::Refused`], [`CutOff`](AnswerError::CutOff), [`Blocked`](AnswerError::Blocked),
    /// [`Failed`](AnswerError::Failed) and [`NoAnswer`](AnswerError::NoAnswer) as the response
    /// says; [`Invalid`](AnswerError::Invalid) when the answer does not parse into `T` (with its
    /// JSON path); [`Malformed`](AnswerError::Malformed) when the response is not of the
    /// provider's shape.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgen::{AnswerError, Provider, Route, Structured};
    ///
    /// #[derive(toolgen::ToolSchema, serde::Deserialize, Debug)]
    /// struct Verdict { guilty: bool }
    /// let verdict = Structured::<Verdict>::new(Route::Native);
    ///
    /// let refused = json!({"choices": [{"index": 0, "finish_reason": "stop", "message":
    ///     {"role": "assistant", "content": null, "refusal": "I can't help with that."}}]});
    /// let err = verdict.parse(Provider::OpenAiChat, &refused).unwrap_err();
    /// assert!(matches!(&err, AnswerError::Refused { message, .. } if message == "I can't help with that."));
    ///
    /// let gemini = json!({"candidates": [{"content": {"role": "model", "parts": [
    ///     {"text": "Weighing it.", "thought": true}, {"text": "{\"guilty\": \"no\"}"}]},
    ///     "finishReason": "STOP"}]});
    /// let err = verdict.parse(Provider::Gemini, &gemini).unwrap_err();
    /// assert_eq!(err.to_string(), "invalid answer at `guilty`: invalid type: string \"no\", expected a boolean");
    /// ```
    pub fn parse(&self, provider: Provider, response: &Value) -> Result<T, AnswerError> {
        self.read(provider, response, parse_answer)
    }

    /// The answer's JSON text in `provider`'s whole response, unparsed (to log it, or to read it
    /// some other way): what [`parse`](Structured::parse) parses, with the same errors but
    /// [`Invalid`](AnswerError::Invalid).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgen::{Provider, Route, Structured};
    ///
    /// #[derive(toolgen::ToolSchema, serde::Deserialize)]
    /// struct Verdict { guilty: bool }
    ///
    /// let message = json!({"type": "message", "role": "assistant", "stop_reason": "end_turn",
    ///     "content": [{"type": "text", "text": "{\"guilty\": false}"}]});
    /// let text = Structured::<Verdict>::new(Route::Native).answer_text(Provider::Anthropic, &message)?;
    /// assert_eq!(text, r#"{"guilty": false}"#);
    /// # Ok::<(), toolgen::AnswerError>(())
    /// ```
    pub fn answer_text(&self, provider: Provider, response: &Value) -> Result<String, AnswerError> {
        self.read(provider, response, |text| Ok(text.to_owned()))
    }

    /// The answer in `response`, given to `then`.
    fn read<R>(
        &self,
        provider: Provider,
        response: &Value,
        then: impl FnOnce(&str) -> Result<R, AnswerError>,
    ) -> Result<R, AnswerError> {
        let reply = reply::read(provider, response).map_err(AnswerError::Malformed)?;
        // MCP sampling's result is the answer's text on either route.
        if self.route == Route::Native || provider == Provider::Mcp {
            return answer_of(provider, &reply).and_then(then);
        }
        let calls = match ToolCall::parse(provider, response) {
            Ok(calls) => calls,
            // No choice or candidate, or a call Gemini would not pass on: said by the reply (a
            // blocked prompt, the call's failure) or no answer.
            Err(ToolCallError::NoCandidates { .. } | ToolCallError::CallFailed { .. }) => {
                Vec::new()
            }
            Err(error) => return Err(AnswerError::Malformed(error)),
        };
        let name = self.name();
        let call = calls.into_iter().find(|call| call.name == name);
        called(
            provider,
            &reply,
            call.as_ref().map(|c| c.arguments.as_str()),
        )
        .and_then(then)
    }

    /// Parses an answer's text into `T`, as [`parse`](Structured::parse) does once it has the
    /// text.
    ///
    /// ```
    /// # #[derive(toolgen::ToolSchema, serde::Deserialize, Debug)] struct Answer { #[tool(length(max = 3))] text: String }
    /// use toolgen::{Route, Structured};
    /// let answer = Structured::<Answer>::new(Route::Native);
    /// assert_eq!(answer.parse_text(r#"{"text": "yes"}"#).unwrap().text, "yes");
    /// assert_eq!(
    ///     answer.parse_text(r#"{"text": "maybe"}"#).unwrap_err().to_string(),
    ///     "invalid answer at `text`: must have at most 3 characters, not 5"
    /// );
    /// ```
    pub fn parse_text(&self, text: &str) -> Result<T, AnswerError> {
        parse_answer(text)
    }

    /// A stream of `provider`'s events to read the answer from as it arrives.
    pub fn stream(&self, provider: Provider) -> AnswerStream<'_, T> {
        AnswerStream::new(self, provider)
    }

    fn built(&self) -> &Built {
        self.built.get_or_init(|| {
            let standard = match self.schema {
                Some(schema) => schema.to_owned(),
                None => schema_text(&T::SCHEMA, &T::DEFS),
            };
            let name = match self.name {
                Some(name) => name.to_owned(),
                None => name_of_type(std::any::type_name::<T>()),
            };
            let description = match self.description {
                Some(text) => Some(text.to_owned()),
                None => root_description(&standard),
            };
            Built {
                name,
                description,
                schemas: PerDialect::rewritten(standard, |standard, dialect| {
                    rewrite_text(standard, dialect).ok()
                }),
                fields: Default::default(),
            }
        })
    }
}

impl<T: Tool> Structured<T> {
    /// Tool `T`'s input as the answer, with the tool's name and description ([`Tool::NAME`],
    /// [`Tool::DESCRIPTION`]): seed 000's `emit_flashcards`, asked for natively or as itself.
    ///
    /// ```
    /// use toolgen::{Provider, Route, Structured, Tool};
    ///
    /// /// Emit the flashcards.
    /// #[derive(Tool, serde::Deserialize)]
    /// #[tool(name = "emit_flashcards")]
    /// struct EmitFlashcards { cards: Vec<String> }
    ///
    /// static CARDS: Structured<EmitFlashcards> = Structured::from_tool(Route::Native);
    /// let fields = CARDS.request_fields(Provider::OpenAiResponses);
    /// assert_eq!(fields["text"]["format"]["name"], "emit_flashcards");
    /// assert_eq!(fields["text"]["format"]["description"], "Emit the flashcards.");
    /// ```
    pub const fn from_tool(route: Route) -> Self {
        let mut answer = Structured::new(route)
            .with_name(T::NAME)
            .with_description(T::DESCRIPTION);
        answer.schema = Some(T::INPUT_SCHEMA);
        answer
    }
}

impl<T> Clone for Structured<T> {
    fn clone(&self) -> Self {
        Structured {
            route: self.route,
            schema: self.schema,
            name: self.name,
            description: self.description,
            built: OnceLock::new(),
            answer: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for Structured<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Structured")
            .field("type", &std::any::type_name::<T>())
            .field("route", &self.route)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// The schema text as a JSON value. The texts are the program's own, built from its types.
#[allow(clippy::expect_used)]
fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("toolgen writes every schema as JSON")
}

fn object(members: impl IntoIterator<Item = (&'static str, Value)>) -> Map<String, Value> {
    members
        .into_iter()
        .map(|(key, value)| (key.to_owned(), value))
        .collect()
}

/// [`Route::Native`]'s fields.
fn native_fields(built: &Built, provider: Provider) -> Map<String, Value> {
    // OpenAI: the strict schema, with its name and description.
    // Chat's `json_schema` object has no `type`; the Responses API's `format` has one.
    let openai = |with_type: bool| {
        let (schema, strict) = match built.schemas.schema(Dialect::OpenAiStrict) {
            Some(strict) => (json(strict), true),
            None => (json(built.schemas.standard()), false),
        };
        let mut format = Map::new();
        if with_type {
            format.insert("type".to_owned(), Value::from("json_schema"));
        }
        format.insert("name".to_owned(), Value::from(built.name.as_str()));
        if let Some(description) = &built.description {
            format.insert("description".to_owned(), Value::from(description.as_str()));
        }
        format.insert("schema".to_owned(), schema);
        format.insert("strict".to_owned(), Value::from(strict));
        format
    };
    match provider {
        Provider::OpenAiChat => object([(
            "response_format",
            Value::Object(object([
                ("type", Value::from("json_schema")),
                ("json_schema", Value::Object(openai(false))),
            ])),
        )]),
        Provider::OpenAiResponses => object([(
            "text",
            Value::Object(object([("format", Value::Object(openai(true)))])),
        )]),
        Provider::Anthropic => {
            let schema = json(
                built
                    .schemas
                    .schema(Dialect::AnthropicStrict)
                    .unwrap_or(built.schemas.standard()),
            );
            object([(
                "output_config",
                Value::Object(object([(
                    "format",
                    Value::Object(object([
                        ("type", Value::from("json_schema")),
                        ("schema", schema),
                    ])),
                )])),
            )])
        }
        Provider::Gemini => {
            let schema = match built.schemas.schema(Dialect::Gemini) {
                Some(gemini) => ("responseSchema", json(gemini)),
                None => ("responseJsonSchema", json(built.schemas.standard())),
            };
            object([(
                "generationConfig",
                Value::Object(object([
                    ("responseMimeType", Value::from("application/json")),
                    schema,
                ])),
            )])
        }
        Provider::Mcp => Map::new(),
    }
}

/// [`Route::Tool`]'s fields: the answer tool, and the choice that forces it.
fn tool_fields(built: &Built, provider: Provider) -> Map<String, Value> {
    if provider == Provider::Mcp {
        return Map::new();
    }
    let description = built
        .description
        .as_deref()
        .unwrap_or("Give the answer as this tool's input.");
    let definition = definition_text(
        provider,
        &DefinitionParts {
            name: &built.name,
            description,
            schemas: built.schemas.borrowed(),
            output: None,
            extras: Extras::NONE,
        },
    );
    let tools = match provider {
        // Gemini's function declarations sit in a `Tool` object.
        Provider::Gemini => Value::Array(vec![Value::Object(object([(
            "functionDeclarations",
            Value::Array(vec![json(&definition)]),
        )]))]),
        Provider::Anthropic | Provider::OpenAiChat | Provider::OpenAiResponses | Provider::Mcp => {
            Value::Array(vec![json(&definition)])
        }
    };
    let mut choice = ToolChoice::tool(built.name.clone());
    if provider != Provider::Gemini {
        choice = choice.parallel(false);
    }
    let mut fields = object([("tools", tools)]);
    fields.extend(choice.request_fields(provider));
    fields
}

/// The answer's text of a native reply, or why there is none.
fn answer_of<'r>(provider: Provider, reply: &'r Reply<'_>) -> Result<&'r str, AnswerError> {
    called(provider, reply, Some(&reply.text))
}

/// The answer (`answer`: the text, or the answer tool's arguments), unless the reply says why
/// there is none.
fn called<'r>(
    provider: Provider,
    reply: &Reply<'_>,
    answer: Option<&'r str>,
) -> Result<&'r str, AnswerError> {
    if let Some(message) = &reply.refusal {
        return Err(AnswerError::Refused {
            provider,
            message: message.clone(),
        });
    }
    let partial = || answer.unwrap_or_default().to_owned();
    match &reply.stop {
        Stop::Failed(message) => Err(AnswerError::Failed {
            provider,
            message: message.clone(),
        }),
        Stop::Blocked(reason) => Err(AnswerError::Blocked {
            provider,
            reason: reason.clone(),
            partial: partial(),
        }),
        Stop::CutOff => Err(AnswerError::CutOff {
            provider,
            partial: partial(),
        }),
        Stop::CallFailed(reason) => Err(AnswerError::CallFailed {
            provider,
            reason: reason.clone(),
            partial: partial(),
        }),
        Stop::Stopped(reason) => Err(AnswerError::Stopped {
            provider,
            reason: reason.clone(),
            partial: partial(),
        }),
        Stop::Done => match answer {
            Some(text) if !text.trim().is_empty() => Ok(text),
            _ => Err(AnswerError::NoAnswer {
                provider,
                text: reply.text.clone().into_owned(),
            }),
        },
    }
}

/// The answer's text parsed into `T`, as tool arguments are. Text that is not JSON but holds
/// it in one Markdown code fence (` ```json ... ``` `, as a model without structured outputs
/// often writes it) is read inside the fence; the error stays the text's own otherwise.
fn parse_answer<T: ToolSchema + DeserializeOwned>(text: &str) -> Result<T, AnswerError> {
    match parse_tool_args(text) {
        Err(error) if error.kind() == ArgsErrorKind::Syntax => match unfenced(text) {
            Some(inside) => parse_tool_args(inside).map_err(AnswerError::Invalid),
            None => Err(AnswerError::Invalid(error)),
        },
        result => result.map_err(AnswerError::Invalid),
    }
}

/// What one Markdown code fence around the whole text holds: ` ``` `, an optional language
/// word, a line break, the body, ` ``` `.
fn unfenced(text: &str) -> Option<&str> {
    let inner = text.trim().strip_prefix("```")?.strip_suffix("```")?;
    let (language, body) = inner.split_once('\n')?;
    let language = language.trim();
    language
        .bytes()
        .all(|b| b.is_ascii_alphanumeric())
        .then_some(body)
}

/// `^[a-zA-Z0-9_-]{1,64}$`, in a const fn.
// `i < name.len()` before each index (iterators are not const).
#[allow(clippy::indexing_slicing)]
const fn valid_name(name: &[u8]) -> bool {
    if name.is_empty() || name.len() > 64 {
        return false;
    }
    let mut i = 0;
    while i < name.len() {
        let b = name[i];
        if !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
            return false;
        }
        i += 1;
    }
    true
}

/// A type's name (`std::any::type_name`) as an answer's name: the last path segment before any
/// generic arguments, in snake_case, as `#[derive(Tool)]` names a tool; `answer` if nothing is
/// left.
fn name_of_type(type_name: &str) -> String {
    let base = type_name.split('<').next().unwrap_or(type_name);
    let last = base.rsplit("::").next().unwrap_or(base);
    let mut name = String::with_capacity(last.len() + 4);
    let mut previous: Option<char> = None;
    for c in last.chars() {
        if c.is_ascii_uppercase() {
            if previous.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit()) {
                name.push('_');
            }
            name.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            name.push(c);
        }
        previous = Some(c);
    }
    name.truncate(64);
    if name.is_empty() {
        name.push_str("answer");
    }
    name
}

/// The `description` at the root of a schema: the type's doc comment.
fn root_description(schema: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Described {
        description: Option<String>,
    }
    serde_json::from_str::<Described>(schema)
        .ok()
        .and_then(|d| d.description)
}

/// Why a [`Structured`] answer could not be read.
///
/// ```
/// use serde_json::json;
/// use toolgen::{AnswerError, Provider, Route, Structured};
///
/// #[derive(toolgen::ToolSchema, serde::Deserialize, Debug)]
/// struct Summary { text: String }
///
/// let cut = json!({"type": "message", "role": "assistant", "stop_reason": "max_tokens",
///     "content": [{"type": "text", "text": "{\"text\": \"The film opens on"}]});
/// let err = Structured::<Summary>::new(Route::Native).parse(Provider::Anthropic, &cut).unwrap_err();
/// assert!(matches!(&err, AnswerError::CutOff { partial, .. } if partial.ends_with("opens on")));
/// assert_eq!(err.to_string(), "the Anthropic answer was cut off by the token limit");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnswerError {
    /// The model refused (OpenAI's `refusal`, Anthropic's `stop_reason: "refusal"`).
    Refused {
        /// The API that answered.
        provider: Provider,
        /// What the model said instead.
        message: String,
    },
    /// The answer was cut off by the token limit (`length`, `max_output_tokens`, `max_tokens`,
    /// `MAX_TOKENS`, `maxTokens`).
    CutOff {
        /// The API that answered.
        provider: Provider,
        /// The answer as far as it came.
        partial: String,
    },
    /// The model was stopped by a safety or content filter (OpenAI's `content_filter`,
    /// Gemini's `SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`,
    /// `IMAGE_SAFETY`, `IMAGE_PROHIBITED_CONTENT`, `IMAGE_RECITATION`, Vertex AI's
    /// `MODEL_ARMOR`), or the prompt was blocked (Gemini's `promptFeedback.blockReason`).
    Blocked {
        /// The API that answered.
        provider: Provider,
        /// The provider's reason (`content_filter`, `SAFETY`, a `blockReason`).
        reason: String,
        /// The answer as far as it came.
        partial: String,
    },
    /// The provider ended the turn at a tool call it would not pass on: Gemini's
    /// `MALFORMED_FUNCTION_CALL` (the model wrote a call that does not parse),
    /// `UNEXPECTED_TOOL_CALL` (a call of a tool the request does not offer) or
    /// `TOO_MANY_TOOL_CALLS` (calls in a row until Gemini stopped it), on either [`Route`].
    ///
    /// Not a filter: the model slipped, and sending the same request again often works (for
    /// `UNEXPECTED_TOOL_CALL` on [`Route::Native`], the model called a tool where it should have
    /// answered in text).
    ///
    /// ```
    /// use toolgen::{AnswerError, Provider, Route, Structured};
    ///
    /// #[derive(toolgen::ToolSchema, serde::Deserialize, Debug)]
    /// struct Summary { text: String }
    ///
    /// let response = serde_json::json!({"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL"}]});
    /// let err = Structured::<Summary>::new(Route::Tool).parse(Provider::Gemini, &response).unwrap_err();
    /// assert!(matches!(&err, AnswerError::CallFailed { reason, .. } if reason == "MALFORMED_FUNCTION_CALL"));
    /// ```
    CallFailed {
        /// The API that answered.
        provider: Provider,
        /// The provider's reason (`MALFORMED_FUNCTION_CALL`, ..).
        reason: String,
        /// The answer as far as it came.
        partial: String,
    },
    /// The model stopped for a reason that is neither the answer's end, a token limit, a filter
    /// nor a tool call: Gemini's `LANGUAGE` (a language it does not support), `OTHER`,
    /// `MALFORMED_RESPONSE`, `MISSING_THOUGHT_SIGNATURE` (the request left out the
    /// `thoughtSignature` of an earlier turn's part, which must be sent back as it came),
    /// `IMAGE_OTHER`, `NO_IMAGE`, or a reason toolgen does not know.
    Stopped {
        /// The API that answered.
        provider: Provider,
        /// The provider's reason (`LANGUAGE`, `OTHER`, ..).
        reason: String,
        /// The answer as far as it came.
        partial: String,
    },
    /// The response reports that it failed (a Responses API `failed` status, a stream's `error`
    /// event, an MCP error).
    Failed {
        /// The API that answered.
        provider: Provider,
        /// The provider's message.
        message: String,
    },
    /// The response holds no answer: no text, or on the [`Route::Tool`] no call of the answer
    /// tool.
    NoAnswer {
        /// The API that answered.
        provider: Provider,
        /// What the model wrote instead, if anything.
        text: String,
    },
    /// The answer does not parse into the type, or breaks one of its constraints.
    Invalid(ArgsError),
    /// The response is not of the provider's shape.
    Malformed(ToolCallError),
    /// A stream's event is not of the provider's shape, or the stream ended inside the answer
    /// tool's call.
    Stream(StreamError),
}

impl std::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnswerError::Refused { provider, message } => {
                write!(f, "the {provider} model refused to answer: {message}")
            }
            AnswerError::CutOff { provider, .. } => {
                write!(f, "the {provider} answer was cut off by the token limit")
            }
            AnswerError::Blocked {
                provider, reason, ..
            } => write!(f, "the {provider} answer was stopped: {reason}"),
            AnswerError::CallFailed {
                provider, reason, ..
            } => write!(
                f,
                "the {provider} model's tool call failed ({reason}); asking again may work"
            ),
            AnswerError::Stopped {
                provider, reason, ..
            } => write!(
                f,
                "the {provider} model stopped before its answer's end: {reason}"
            ),
            AnswerError::Failed { provider, message } => {
                write!(f, "the {provider} response failed: {message}")
            }
            AnswerError::NoAnswer { provider, .. } => {
                write!(f, "the {provider} response holds no answer")
            }
            AnswerError::Invalid(error) if error.path().is_empty() => {
                write!(f, "invalid answer: {}", error.message())
            }
            AnswerError::Invalid(error) => {
                write!(
                    f,
                    "invalid answer at `{}`: {}",
                    error.path(),
                    error.message()
                )
            }
            AnswerError::Malformed(error) => error.fmt(f),
            AnswerError::Stream(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for AnswerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AnswerError::Invalid(error) => Some(error),
            AnswerError::Malformed(error) => Some(error),
            AnswerError::Stream(error) => Some(error),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_become_answer_names() {
        for (type_name, name) in [
            ("my_crate::Flashcards", "flashcards"),
            ("my_crate::deep::CityWeather", "city_weather"),
            ("alloc::vec::Vec<my::Card>", "vec"),
            ("Http2Reply", "http2_reply"),
            ("()", "answer"),
        ] {
            assert_eq!(name_of_type(type_name), name, "{type_name}");
            assert!(valid_name(name_of_type(type_name).as_bytes()));
        }
        assert_eq!(name_of_type(&format!("a::{}", "X".repeat(80))).len(), 64);
    }

    #[test]
    fn fences_are_taken_off_whole_texts_only() {
        assert_eq!(unfenced("```json\n{\"a\": 1}\n```"), Some("{\"a\": 1}\n"));
        assert_eq!(unfenced("  ```\n[]```\n"), Some("[]"));
        for text in [
            "{}",
            "```json {}```",
            "Here:\n```json\n{}\n```",
            "```js on\n{}\n```",
        ] {
            assert_eq!(unfenced(text), None, "{text}");
        }
    }

    #[test]
    fn names_are_checked() {
        assert!(valid_name(b"emit_flashcards-2"));
        for bad in [&b""[..], b"with space", b"dot.ted", &[b'a'; 65]] {
            assert!(!valid_name(bad));
        }
    }
}
