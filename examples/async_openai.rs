//! toolgen with async-openai's types: the request of an OpenAI Chat completion and of a Responses
//! call carry toolgen's definitions and `ToolChoice`, a recorded response is read into
//! async-openai's response type, its calls are read back with toolgen and run by a `Runner`, and
//! the next turn's messages go back into async-openai's types. Offline: the responses are
//! recordings from `tests/traffic/`.
//!
//! ```text
//! cargo run --example async_openai --features __async_openai043
//! ```
//!
//! Everything crosses by serde: toolgen writes the provider's JSON, async-openai's types read it
//! (`serde_json::from_value`), and toolgen reads theirs back from `serde_json::to_value`.
//! `tests/async_openai.rs` checks that nothing is lost on the way.

#[allow(dead_code)]
#[path = "seed_tools/mod.rs"]
pub mod seed_tools;

use async_openai::types::chat::{
    ChatCompletionRequestMessage, CreateChatCompletionRequest, CreateChatCompletionResponse,
};
use async_openai::types::responses::{CreateResponse, InputItem, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use toolgen::{
    Handler, Invocation, Provider, Runner, Tool, ToolCall, ToolCallError, ToolChoice, ToolError,
    ToolSet,
};

// The tool the recordings of `tests/traffic/` were made with (their requests define it so).
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "weather")]
/// Get the weather in a location
pub struct Weather {
    /// The location to get the weather for
    pub location: String,
}

/// The recordings' tool beside seed 003's `get_weather`, which a recording calls too.
#[derive(ToolSet, Debug)]
pub enum Tools {
    Weather(Weather),
    GetWeather(seed_tools::function_calling::GetWeather),
}

/// What the handlers read: canned temperatures, so the turn runs offline.
pub struct Forecasts(pub Vec<(&'static str, f64)>);

impl Forecasts {
    fn of(&self, place: &str) -> Result<f64, ToolError> {
        self.0
            .iter()
            .find(|(name, _)| *name == place)
            .map(|(_, temperature)| *temperature)
            .ok_or_else(|| ToolError::json(json!({"error": "unknown_place", "place": place})))
    }
}

impl Handler<Forecasts> for Weather {
    type Output = f64;
    async fn handle(self, app: &Forecasts, _call: &Invocation<'_>) -> Result<f64, ToolError> {
        app.of(&self.location)
    }
}

impl Handler<Forecasts> for seed_tools::function_calling::GetWeather {
    type Output = f64;
    async fn handle(self, app: &Forecasts, _call: &Invocation<'_>) -> Result<f64, ToolError> {
        app.of(&self.city)
    }
}

/// The runner of the recipe's tools, with its forecasts.
pub fn runner() -> Runner<Tools, Forecasts> {
    Runner::new(Forecasts(vec![("San Francisco", 18.5), ("Paris", 12.0)]))
}

/// A request body as toolgen writes it: the model, the messages, the tool definitions and the
/// choice's fields (`tool_choice`, `parallel_tool_calls`).
pub fn request_json(provider: Provider, messages: &str, body: Value, choice: &ToolChoice) -> Value {
    let mut request = Map::new();
    request.insert("model".into(), json!("gpt-5"));
    request.insert(messages.into(), body);
    request.insert("tools".into(), Tools::definitions(provider));
    request.extend(choice.request_fields(provider));
    Value::Object(request)
}

/// The Chat request toolgen writes for `choice`, one user message asking for the weather.
pub fn chat_request_json(choice: &ToolChoice) -> Value {
    let messages = json!([{"role": "user", "content": "What is the weather in Paris?"}]);
    request_json(Provider::OpenAiChat, "messages", messages, choice)
}

/// The Responses request toolgen writes for `choice`.
pub fn responses_request_json(choice: &ToolChoice) -> Value {
    let input = json!([{"role": "user", "content": "What is the weather in San Francisco?"}]);
    request_json(Provider::OpenAiResponses, "input", input, choice)
}

/// One of async-openai's types read from toolgen's JSON (or a recording).
pub fn typed<T: DeserializeOwned>(value: &Value) -> Result<T, serde_json::Error> {
    serde_json::from_value(value.clone())
}

/// A value of async-openai's types written back as JSON, for toolgen to read.
pub fn untyped(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// What one turn gives: the calls toolgen read from async-openai's response, and the next turn's
/// messages as toolgen writes them (the model's turn, then the results).
pub struct Turn {
    pub calls: Vec<ToolCall>,
    pub next: Vec<Value>,
}

/// Reads the calls of a response already in async-openai's type, runs them, and returns the
/// next turn's messages: toolgen reads the response from the type's JSON.
pub async fn run_turn(provider: Provider, response: &Value) -> Result<Turn, ToolCallError> {
    let calls = ToolCall::parse(provider, response)?;
    let turn = runner().run(provider, &calls).await;
    let next = turn.next_messages(response)?;
    Ok(Turn { calls, next })
}

/// A recording of `tests/traffic/`, as JSON.
pub fn recording(path: &str) -> Value {
    let path = format!("{}/tests/traffic/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// The Chat recipe: the request through `CreateChatCompletionRequest`, the recorded completion
/// through `CreateChatCompletionResponse`, the next messages through
/// `ChatCompletionRequestMessage`. Returns the next request.
pub async fn chat(
    recorded: &str,
) -> Result<CreateChatCompletionRequest, Box<dyn std::error::Error>> {
    let choice = ToolChoice::tool("get_weather").parallel(false);
    let mut request: CreateChatCompletionRequest = typed(&chat_request_json(&choice))?;
    let response: CreateChatCompletionResponse = typed(&recording(recorded))?;
    let turn = run_turn(Provider::OpenAiChat, &untyped(&response)).await?;
    for message in &turn.next {
        request
            .messages
            .push(typed::<ChatCompletionRequestMessage>(message)?);
    }
    Ok(request)
}

/// The Responses recipe: the request through `CreateResponse`, the recorded response through
/// `Response`, the next items through `InputItem`. Returns the next request.
pub async fn responses(recorded: &str) -> Result<CreateResponse, Box<dyn std::error::Error>> {
    let choice = ToolChoice::required();
    let request: CreateResponse = typed(&responses_request_json(&choice))?;
    let response: Response = typed(&recording(recorded))?;
    let turn = run_turn(Provider::OpenAiResponses, &untyped(&response)).await?;
    let mut input = untyped(&request.input);
    if let Some(items) = input.as_array_mut() {
        items.extend(turn.next.iter().cloned());
    }
    let items: Vec<InputItem> = typed(&input)?;
    Ok(CreateResponse {
        input: async_openai::types::responses::InputParam::Items(items),
        ..request
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let next = chat("openai_chat/moonshotai-tool-call.json").await?;
    println!(
        "// Chat: the next request\n{}\n",
        serde_json::to_string_pretty(&next)?
    );
    let next = responses("openai_responses/lmstudio-tool-call.1.json").await?;
    println!(
        "// Responses: the next request\n{}",
        serde_json::to_string_pretty(&next)?
    );
    Ok(())
}
