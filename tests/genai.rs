//! `examples/genai.rs`: toolgen's definitions, choices and results through genai's `ChatRequest`,
//! `ToolChoice`, `ChatResponse` and `ToolResponse`, for OpenAI Chat, the Responses API, Anthropic
//! and Gemini. What genai sends (recorded by a server on 127.0.0.1) is compared whole with what
//! toolgen writes for the same turn, so a key genai drops or changes fails here.

#[allow(dead_code)]
#[path = "../examples/genai.rs"]
mod recipe;

use pretty_assertions::assert_eq;
use recipe::recipe_tools::{Tools, recording, run_turn};
use recipe::{Exchange, RECORDED, round_trip};
use serde_json::{Map, Value, json};
use toolgen::{Provider, ToolCall, ToolChoice, ToolSet};

/// The keys of a request that hold the tools, the choice and the conversation, for `provider`.
fn keys(provider: Provider) -> (&'static str, &'static [&'static str], &'static str) {
    match provider {
        Provider::OpenAiChat => ("tools", &["tool_choice", "parallel_tool_calls"], "messages"),
        Provider::OpenAiResponses => ("tools", &["tool_choice", "parallel_tool_calls"], "input"),
        Provider::Anthropic => ("tools", &["tool_choice"], "messages"),
        Provider::Gemini => ("tools", &["toolConfig"], "contents"),
        other => panic!("no genai round trip for {other}"),
    }
}

/// The tool definitions of a request as toolgen lists them (Gemini's inside its one `tools`
/// entry's `functionDeclarations`).
fn tools_sent(provider: Provider, request: &Value) -> Value {
    let tools = &request[keys(provider).0];
    match provider {
        Provider::Gemini => tools[0]["functionDeclarations"].clone(),
        _ => tools.clone(),
    }
}

/// The choice's fields of a request.
fn choice_sent(provider: Provider, request: &Value) -> Map<String, Value> {
    keys(provider)
        .1
        .iter()
        .filter_map(|key| Some((key.to_string(), request.get(*key)?.clone())))
        .collect()
}

async fn exchange(provider: Provider, recorded: &str, choice: &ToolChoice) -> Exchange {
    let exchange = round_trip(provider, recorded, choice).await.unwrap();
    assert_eq!(exchange.requests.len(), 2, "{provider}");
    exchange
}

/// toolgen's definitions for `provider`, as genai can send them. Finding: genai sends Gemini
/// every schema as `parametersJsonSchema` (toolgen's Gemini definitions have `parameters`, in
/// the OpenAPI subset, where the schema fits it), so the recipe gives genai the standard schema,
/// and Gemini gets what toolgen writes for `#[tool(gemini = "json_schema")]`.
fn definitions_genai_sends(provider: Provider) -> Value {
    match provider {
        Provider::Gemini => {
            let mcp = Tools::definitions(Provider::Mcp);
            let declarations = mcp.as_array().unwrap().iter().map(|tool| {
                json!({
                    "name": tool["name"],
                    "description": tool["description"],
                    "parametersJsonSchema": tool["inputSchema"],
                })
            });
            Value::Array(declarations.collect())
        }
        _ => Tools::definitions(provider),
    }
}

#[tokio::test]
async fn definitions_cross_whole() {
    let (mut sent, mut expected) = (Vec::new(), Vec::new());
    for (provider, recorded) in RECORDED {
        let exchange = exchange(provider, recorded, &ToolChoice::auto()).await;
        for request in &exchange.requests {
            sent.push((provider, tools_sent(provider, request)));
            expected.push((provider, definitions_genai_sends(provider)));
        }
    }
    assert_eq!(sent, expected);
}

#[tokio::test]
async fn choices_cross_whole() {
    let choices = [
        ToolChoice::auto(),
        ToolChoice::required(),
        ToolChoice::none(),
        ToolChoice::tool("get_weather"),
    ];
    for (provider, recorded) in RECORDED {
        for choice in &choices {
            let chosen = exchange(provider, recorded, choice).await;
            let expected = choice.request_fields(provider);
            assert_eq!(
                choice_sent(provider, &chosen.requests[0]),
                expected,
                "{provider} {choice:?}"
            );
            // Finding: genai has no setting for parallel calls, so `parallel(false)` is not
            // sent (OpenAI's `parallel_tool_calls`, Anthropic's `disable_parallel_tool_use`):
            // the request has the fields of the choice without it.
            let sequential = choice.clone().parallel(false);
            let parallel_off = exchange(provider, recorded, &sequential).await;
            assert_eq!(choice_sent(provider, &parallel_off.requests[0]), expected);
        }
    }
}

#[tokio::test]
async fn calls_read_back_whole() {
    let (mut sent, mut expected) = (Vec::new(), Vec::new());
    for (provider, recorded) in RECORDED {
        let exchange = exchange(provider, recorded, &ToolChoice::auto()).await;
        sent.push((provider, exchange.calls));
        let mut calls = ToolCall::parse(provider, &recording(recorded)).unwrap();
        if provider == Provider::Gemini {
            // Finding: genai makes up the id of a Gemini call that has none (`call#{name}#{n}`,
            // where toolgen writes `toolgen_{n}`), and its `ToolCall` cannot tell such an id
            // from one Gemini sent. Neither sends it back to Gemini.
            for (at, call) in calls.iter_mut().enumerate() {
                call.id = Some(format!("call#{}#{at}", call.name));
            }
        }
        expected.push((provider, calls));
    }
    assert_eq!(sent, expected);
}

/// toolgen's next turn (the model's turn, then the results) changed as genai sends it back.
/// Findings, each a key of toolgen's that genai's types have no place for:
fn as_genai_sends(provider: Provider, next: &mut [Value]) {
    let results = next.len() - 1;
    match provider {
        // The model's turn without text: `"content": ""` where toolgen writes `null` (the API
        // takes both).
        Provider::OpenAiChat => next[0]["content"] = json!(""),
        // The `function_call` item without its `id` and `status`: a `ToolCall` keeps neither.
        Provider::OpenAiResponses => {
            let item = next[0].as_object_mut().unwrap();
            item.remove("id");
            item.remove("status");
        }
        // A result without `"is_error": true`: a `ToolResponse` is text only, with no error flag.
        Provider::Anthropic => {
            for block in next[results]["content"].as_array_mut().unwrap() {
                block.as_object_mut().unwrap().remove("is_error");
            }
        }
        // A result as text, `{"name", "content"}`, where toolgen writes the JSON value as
        // `{"output": ..}`: a `ToolResponse` is text only.
        Provider::Gemini => {
            for part in next[results]["parts"].as_array_mut().unwrap() {
                let response = &mut part["functionResponse"];
                let name = response["name"].clone();
                let text = match &response["response"]["output"] {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                response["response"] = json!({"name": name, "content": text});
            }
        }
        other => panic!("no genai round trip for {other}"),
    }
}

#[tokio::test]
async fn the_next_turn_crosses_whole() {
    let (mut sent, mut expected) = (Vec::new(), Vec::new());
    for (provider, recorded) in RECORDED {
        let exchange = exchange(provider, recorded, &ToolChoice::auto()).await;
        let conversation = exchange.requests[1][keys(provider).2].as_array().unwrap();
        sent.push((provider, conversation[1..].to_vec()));
        let mut next = run_turn(provider, &recording(recorded)).await.unwrap().next;
        as_genai_sends(provider, &mut next);
        expected.push((provider, next));
    }
    assert_eq!(sent, expected);
}

#[tokio::test]
async fn a_tool_use_without_id_is_refused() {
    // Finding: genai refuses an Anthropic message whose `tool_use` has no `id` (as some
    // Anthropic-compatible proxies send), where toolgen makes one up.
    let recorded = "anthropic/handmade-tool-use-without-id.json";
    let error = round_trip(Provider::Anthropic, recorded, &ToolChoice::auto())
        .await
        .err()
        .unwrap()
        .to_string();
    assert!(error.contains(r#"PropertyNotFound("id")"#), "{error}");
    let calls = ToolCall::parse(Provider::Anthropic, &recording(recorded)).unwrap();
    assert_eq!(calls[0].id.as_deref(), Some("toolgen_0"));
}
