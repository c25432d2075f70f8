//! A rig agent that uses toolgen's tools: a derived tool with a handler, run by a `Runner`
//! (its timeout and retry budget kept), handed to rig's `AgentBuilder` as rig tools with
//! `RigTools` (toolgen's feature `rig044`).
//!
//! The agent's model is written here, offline: a scripted model (rig's scripted wire, as rig's
//! own examples use) that asks for two calls, one with bad arguments, then answers from what
//! the tools said. With a real provider, the model is `OpenAI::from_env()?.completion(..)` or
//! another rig client's, and nothing else changes.
//!
//! Run: `cargo run --features __rig_agent --example rig` (the feature brings rig's agent
//! runtime here; an application depends on `rig` or `rig-agent` itself, and turns on
//! toolgen's `rig044`).

use std::time::Duration;

use futures_util::stream;
use rig_agent::AgentBuilder;
use rig_agent::core::completion::{AssistantContent, CompletionRequest, CompletionResponse, Usage};
use rig_agent::core::driver::{Exchange, Model, Opened, Opening, Transport};
use rig_agent::core::message::{Message, Origin, ToolName, UserContent};
use rig_agent::core::test_utils::{MockFrame, MockScript};
use serde::Deserialize;
use serde_json::json;
use toolgen::{Handler, Invocation, Provider, RigTools, Runner, Tool, ToolError, ToolSet};

/// Get the current temperature in a city, in °C.
#[derive(Tool, Deserialize)]
#[tool(timeout = "2s")]
struct GetWeather {
    /// The city's name.
    city: String,
}

impl Handler<()> for GetWeather {
    type Output = f64;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<f64, ToolError> {
        match self.city.as_str() {
            "Riga" => Ok(14.5),
            "Lisbon" => Ok(22.0),
            other => Err(ToolError::new(format!("no weather station in `{other}`"))),
        }
    }
}

#[derive(ToolSet)]
enum Tools {
    GetWeather(GetWeather),
}

/// The model: its first turn asks for the weather twice (the second call's `city` is a
/// number), its second reads the tools' results in its request and answers from them.
#[derive(Clone)]
struct Scripted;

impl Transport<MockScript> for Scripted {
    fn send(&self, request: CompletionRequest, _: Exchange) -> Opening<MockFrame> {
        let results: Vec<String> = request
            .chat_history
            .iter()
            .filter_map(|message| match message {
                Message::User { content } => Some(content.iter()),
                _ => None,
            })
            .flatten()
            .filter_map(|item| match item {
                UserContent::ToolResult(result) => Some(format!(
                    "{}{}",
                    if result.is_error { "error: " } else { "" },
                    result
                        .content
                        .iter()
                        .map(|content| match content.as_text() {
                            Some(text) => text.to_owned(),
                            None => content.as_json().map(|v| v.to_string()).unwrap_or_default(),
                        })
                        .collect::<String>()
                )),
                _ => None,
            })
            .collect();
        let reply = if results.is_empty() {
            let name = ToolName::new("get_weather").expect("a tool name");
            vec![
                AssistantContent::tool_call("call_1", name.clone(), json!({"city": "Riga"})),
                AssistantContent::tool_call("call_2", name, json!({"city": 7})),
            ]
        } else {
            vec![AssistantContent::text(format!(
                "The tools said: {}",
                results.join("; ")
            ))]
        };
        let response = CompletionResponse::new(
            reply,
            Usage::new(),
            Origin::new("example.local", "scripted", ""),
            serde_json::Value::Null,
        );
        Opening::ready(Opened::new(stream::iter([Ok(MockFrame::Response(
            Box::new(response),
        ))])))
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runner = Runner::<Tools, ()>::new(())
        .timeout(Duration::from_secs(10))
        .max_retries(2);
    let tools = RigTools::new(runner, Provider::OpenAiChat);
    for tool in tools.tools() {
        let definition = tool.definition();
        println!(
            "rig tool `{}`: {}\n  parameters: {}",
            definition.name, definition.description, definition.parameters
        );
    }

    let model = Model::new(MockScript::new("scripted"), Scripted);
    let agent = AgentBuilder::new(model)
        .preamble("Answer with the tools' results.")
        .dynamic_tools(tools.tools())
        .build();
    let answer = agent.prompt("How warm is it in Riga?").max_turns(3).await?;
    println!("answer: {}", answer.output());

    // The retry budget: one invalid call of `get_weather` so far, within the 2 allowed.
    match tools.stop() {
        Some(stop) => println!("stop: {stop}"),
        None => println!("the retry budget holds"),
    }
    Ok(())
}
