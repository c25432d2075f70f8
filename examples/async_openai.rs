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
#[path = "recipe_tools/mod.rs"]
pub mod recipe_tools;

use async_openai::types::chat::{
    ChatCompletionRequestMessage, CreateChatCompletionRequest, CreateChatCompletionResponse,
};
use async_openai::types::responses::{CreateResponse, InputItem, Response};
use recipe_tools::{Tools, recording, run_turn};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use toolgen::{Provider, ToolChoice, ToolSet};

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
