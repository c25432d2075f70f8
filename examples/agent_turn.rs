//! One whole agent turn, offline, for every provider: the content agent's nine tools go out as
//! definitions, a recorded model response comes back, its tool calls are parsed into the typed
//! `Tools` enum and run, and the results go back in the provider's format. One call per provider
//! has arguments the tool cannot take, to show the error result the model gets to correct itself.
//!
//! Run: `cargo run --example agent_turn`

#[path = "seed_tools/mod.rs"]
mod seed_tools;

use seed_tools::ghostpen::Tools;
use serde_json::{Value, json};
use toolgen::{Provider, ToolCall, ToolResult, ToolSet, anthropic_user_message, mcp_response};

/// The recorded response of each provider, as its API returned it.
const RECORDED: [(Provider, &str); 5] = [
    (Provider::Anthropic, include_str!("recorded/anthropic.json")),
    (
        Provider::OpenAiChat,
        include_str!("recorded/openai_chat.json"),
    ),
    (
        Provider::OpenAiResponses,
        include_str!("recorded/openai_responses.json"),
    ),
    (Provider::Gemini, include_str!("recorded/gemini.json")),
    (Provider::Mcp, include_str!("recorded/mcp.json")),
];

/// What the tools do here: canned answers, so the turn runs offline.
fn run(tool: &Tools) -> ToolResult {
    match tool {
        Tools::SearchWeb(search) => ToolResult::json(json!({
            "query": search.query,
            "results": [{"title": "Burnout report 2025", "stat": "77% of workers report burnout"}],
        })),
        Tools::ReadPastPosts(read) => ToolResult::text(format!(
            "No past posts match {:?} (limit {}).",
            read.keywords, read.limit
        )),
        Tools::TrackFeedback(feedback) => {
            ToolResult::text(format!("Recorded {:?} feedback.", feedback.category))
        }
        other => ToolResult::text(format!("{other:?} done.")),
    }
}

/// One provider's turn: what goes back to the model, for the next request.
pub fn turn(provider: Provider, response: &Value) -> Result<Vec<Value>, toolgen::ToolCallError> {
    let calls = ToolCall::parse(provider, response)?;
    let answered: Vec<(ToolCall, ToolResult)> = calls
        .into_iter()
        .map(|call| {
            let result = match Tools::parse_call(&call) {
                Ok(tool) => run(&tool),
                // An argument error goes back to the model as an error result, never a panic.
                Err(error) => ToolResult::from(error),
            };
            (call, result)
        })
        .collect();
    Ok(match provider {
        // Anthropic wants every tool_result block of the turn in one user message, first.
        Provider::Anthropic => {
            let blocks = answered.iter().map(|(call, result)| (call, result));
            vec![anthropic_user_message(blocks, None)]
        }
        Provider::Mcp => answered
            .iter()
            .map(|(call, result)| mcp_response(call, result))
            .collect(),
        _ => answered
            .iter()
            .map(|(call, result)| result.render(provider, call))
            .collect(),
    })
}

fn main() {
    for (provider, recorded) in RECORDED {
        println!("== {provider}");
        let definitions = Tools::definitions(provider);
        let count = definitions.as_array().map_or(0, Vec::len);
        println!("-> {count} tool definitions ({})", Tools::NAMES.join(", "));
        let response: Value = serde_json::from_str(recorded).expect("recorded responses are JSON");
        match turn(provider, &response) {
            Ok(messages) => {
                for message in messages {
                    println!(
                        "<- {}",
                        serde_json::to_string_pretty(&message).unwrap_or_default()
                    );
                }
            }
            Err(error) => println!("!! {error}"),
        }
        println!();
    }
}
