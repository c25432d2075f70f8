//! Tool calls and tool results through every provider's wire format: recorded-shape responses in
//! `tests/fixtures/<provider>/` go through extraction, argument parsing and result rendering; the
//! rendered messages are checked against the official specs (the folder named by `TOOLGEN_SPECS`);
//! and hostile input must give errors, never panics.

use std::path::{Path, PathBuf};

use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use toolgen::{
    ArgsErrorKind, Provider, Tool, ToolCall, ToolCallError, ToolResult, anthropic_user_message,
    mcp_response,
};

/// Get the weather forecast for a city.
#[derive(toolgen::Tool, serde::Deserialize, Debug, PartialEq)]
struct GetForecast {
    /// City name, e.g. "Riga".
    city: String,
    /// How many days ahead; 1 when absent.
    days: Option<u8>,
}

/// Get the local time in a time zone.
#[derive(toolgen::Tool, serde::Deserialize, Debug, PartialEq)]
struct GetTime {
    /// IANA time zone such as "Europe/Riga"; UTC when absent.
    timezone: Option<String>,
}

/// Runs a call the way an application would: dispatch on the name, parse, answer.
fn run(call: &ToolCall) -> ToolResult {
    match call.name.as_str() {
        GetForecast::NAME => match call.parse_args::<GetForecast>() {
            Ok(args) => ToolResult::json(json!({
                "city": args.city, "days": args.days.unwrap_or(1), "sky": "sunny", "temp_c": 21
            })),
            Err(e) => ToolResult::from(e),
        },
        GetTime::NAME => match call.parse_args::<GetTime>() {
            Ok(args) => ToolResult::text(format!(
                "14:05 in {}",
                args.timezone.as_deref().unwrap_or("UTC")
            )),
            Err(e) => ToolResult::args_error(&e),
        },
        other => ToolResult::error(format!("unknown tool `{other}`")),
    }
}

const FORECAST_JSON: &str = r#"{"city":"Riga","days":3,"sky":"sunny","temp_c":21}"#;

/// Each provider and the folder of its fixtures.
const PROVIDERS: [(Provider, &str); 5] = [
    (Provider::Anthropic, "anthropic"),
    (Provider::OpenAiChat, "openai_chat"),
    (Provider::OpenAiResponses, "openai_responses"),
    (Provider::Gemini, "gemini"),
    (Provider::Mcp, "mcp"),
];

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

fn fixture(dir: &str, name: &str) -> Value {
    read_json(&fixtures_dir().join(dir).join(format!("{name}.json")))
}

/// Every fixture of every provider: (provider, file name, response).
fn all_fixtures() -> Vec<(Provider, String, Value)> {
    let mut all = Vec::new();
    for (provider, dir) in PROVIDERS {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(fixtures_dir().join(dir))
            .unwrap_or_else(|e| panic!("no fixtures for {provider}: {e}"))
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
            .collect();
        paths.sort();
        assert!(paths.len() >= 4, "{provider}: expected at least 4 fixtures");
        for path in paths {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            all.push((provider, name, read_json(&path)));
        }
    }
    all
}

fn parse_ok(provider: Provider, response: &Value) -> Vec<ToolCall> {
    ToolCall::parse(provider, response).unwrap_or_else(|e| panic!("{provider}: {e}"))
}

// ---------------------------------------------------------------------------------------------
// Anthropic

#[test]
fn anthropic_one_call() {
    let calls = parse_ok(Provider::Anthropic, &fixture("anthropic", "one_call"));
    assert_eq!(
        calls,
        [ToolCall::new("get_forecast", r#"{"city":"Riga","days":3}"#)
            .with_id("toolu_01A09q90qw90lq917835lq9")]
    );
    let args = calls[0].parse_args::<GetForecast>().unwrap();
    assert_eq!(
        args,
        GetForecast {
            city: "Riga".into(),
            days: Some(3)
        }
    );
    assert_eq!(
        run(&calls[0]).render(Provider::Anthropic, &calls[0]),
        json!({
            "type": "tool_result",
            "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
            "content": FORECAST_JSON
        })
    );
}

#[test]
fn anthropic_several_calls_answered_in_one_message_results_first() {
    let calls = parse_ok(Provider::Anthropic, &fixture("anthropic", "several_calls"));
    assert_eq!(
        calls,
        [
            ToolCall::new("get_forecast", r#"{"city":"Riga"}"#).with_id("toolu_01"),
            ToolCall::new("get_time", r#"{"timezone":"Europe/Riga"}"#).with_id("toolu_02"),
        ]
    );
    assert!(calls[0].is::<GetForecast>() && calls[1].is::<GetTime>());
    let results: Vec<ToolResult> = calls.iter().map(run).collect();
    let message = anthropic_user_message(calls.iter().zip(&results), Some("Keep it short."));
    assert_eq!(
        message,
        json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01",
             "content": r#"{"city":"Riga","days":1,"sky":"sunny","temp_c":21}"#},
            {"type": "tool_result", "tool_use_id": "toolu_02", "content": "14:05 in Europe/Riga"},
            {"type": "text", "text": "Keep it short."}
        ]})
    );
    // A blank text block is rejected by the API, so it is left out.
    let message = anthropic_user_message(calls.iter().zip(&results), Some("  \n"));
    assert_eq!(message["content"].as_array().unwrap().len(), 2);
}

#[test]
fn anthropic_invalid_arguments_become_an_error_result() {
    let calls = parse_ok(
        Provider::Anthropic,
        &fixture("anthropic", "invalid_arguments"),
    );
    assert_eq!(calls[0].arguments, r#"{"city":"Riga","days":"three"}"#);
    let err = calls[0].parse_args::<GetForecast>().unwrap_err();
    assert_eq!((err.path(), err.kind()), ("days", ArgsErrorKind::Data));
    assert_eq!(
        ToolResult::from(err).render(Provider::Anthropic, &calls[0]),
        json!({
            "type": "tool_result",
            "tool_use_id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
            "content": "invalid arguments at `days`: invalid type: string \"three\", expected u8",
            "is_error": true
        })
    );
}

#[test]
fn anthropic_empty_results() {
    let call = ToolCall::new("get_time", "{}").with_id("toolu_9");
    // `content` is optional, and an empty one is rejected; an error must say something.
    assert_eq!(
        ToolResult::text("").render(Provider::Anthropic, &call),
        json!({"type": "tool_result", "tool_use_id": "toolu_9"})
    );
    let rendered = ToolResult::error("").render(Provider::Anthropic, &call);
    assert_eq!(rendered["is_error"], true);
    assert!(!rendered["content"].as_str().unwrap().is_empty());
}

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions

#[test]
fn openai_chat_one_call() {
    let calls = parse_ok(Provider::OpenAiChat, &fixture("openai_chat", "one_call"));
    assert_eq!(
        calls,
        [ToolCall::new("get_forecast", r#"{"city":"Riga","days":3}"#).with_id("call_12345xyz")]
    );
    assert_eq!(
        run(&calls[0]).render(Provider::OpenAiChat, &calls[0]),
        json!({"role": "tool", "tool_call_id": "call_12345xyz", "content": FORECAST_JSON})
    );
}

#[test]
fn openai_chat_several_calls_keep_arguments_as_sent() {
    let calls = parse_ok(
        Provider::OpenAiChat,
        &fixture("openai_chat", "several_calls"),
    );
    assert_eq!(
        calls,
        [
            ToolCall::new("get_forecast", r#"{"city": "Riga"}"#)
                .with_id("call_FthC9qRpsL5kBpwwyw6c7j4k"),
            ToolCall::new("get_time", r#"{"timezone": "Europe/Riga"}"#)
                .with_id("call_RpEDoB8O0FTL9JoKTuCVFOyR"),
        ]
    );
    let messages: Vec<Value> = calls
        .iter()
        .map(|call| run(call).render(Provider::OpenAiChat, call))
        .collect();
    assert_eq!(
        messages[1],
        json!({"role": "tool", "tool_call_id": "call_RpEDoB8O0FTL9JoKTuCVFOyR",
               "content": "14:05 in Europe/Riga"})
    );
}

#[test]
fn openai_chat_invalid_json_is_kept_and_reported_to_the_model() {
    let calls = parse_ok(
        Provider::OpenAiChat,
        &fixture("openai_chat", "invalid_arguments"),
    );
    assert_eq!(calls[0].arguments, r#"{"city": "Riga", "days": 3"#);
    let err = calls[0].parse_args::<GetForecast>().unwrap_err();
    assert_eq!(err.kind(), ArgsErrorKind::Syntax);
    let message = run(&calls[0]).render(Provider::OpenAiChat, &calls[0]);
    assert_eq!(message["tool_call_id"], "call_Vx3kP0wQe2Lr8TnYb5Jm1Zc9");
    assert_eq!(message["content"], err.to_string());
    assert!(
        err.to_string().contains("EOF while parsing an object"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// OpenAI Responses

#[test]
fn openai_responses_one_call() {
    let calls = parse_ok(
        Provider::OpenAiResponses,
        &fixture("openai_responses", "one_call"),
    );
    assert_eq!(
        calls,
        [ToolCall::new("get_forecast", r#"{"city":"Riga","days":3}"#)
            .with_id("call_unLAR8MvFNptuiZK6K6HCy5k")]
    );
    assert_eq!(
        run(&calls[0]).render(Provider::OpenAiResponses, &calls[0]),
        json!({"type": "function_call_output", "call_id": "call_unLAR8MvFNptuiZK6K6HCy5k",
               "output": FORECAST_JSON})
    );
}

#[test]
fn openai_responses_several_calls_skip_reasoning_and_messages() {
    let calls = parse_ok(
        Provider::OpenAiResponses,
        &fixture("openai_responses", "several_calls"),
    );
    let ids: Vec<_> = calls
        .iter()
        .map(|c| (c.name.as_str(), c.id.as_deref()))
        .collect();
    assert_eq!(
        ids,
        [
            ("get_forecast", Some("call_8GQ2nVj0cYp4kTz1Lw3Xr6Hs")),
            ("get_time", Some("call_2mRk7Wb9dQs5nUy0Hx4Ze1Jt")),
        ]
    );
}

#[test]
fn openai_responses_invalid_arguments() {
    let calls = parse_ok(
        Provider::OpenAiResponses,
        &fixture("openai_responses", "invalid_arguments"),
    );
    assert_eq!(
        run(&calls[0]).render(Provider::OpenAiResponses, &calls[0]),
        json!({"type": "function_call_output", "call_id": "call_Yq5Tn2Ls8Wd1Mk7Bv4Hp0Xe3",
               "output": "invalid arguments at `days`: invalid type: string \"three\", expected u8"})
    );
}

// ---------------------------------------------------------------------------------------------
// Gemini

#[test]
fn gemini_one_call_keeps_the_thought_signature() {
    let calls = parse_ok(Provider::Gemini, &fixture("gemini", "one_call"));
    assert_eq!(
        calls,
        [ToolCall::new("get_forecast", r#"{"city":"Riga","days":3}"#)
            .with_id("toolgen_0")
            .with_thought_signature("CiQBVKhc7kXhR2Sz0mJ3aGlzIGlzIGEgdGhvdWdodCBzaWduYXR1cmU=")]
    );
    assert_eq!(
        run(&calls[0]).render(Provider::Gemini, &calls[0]),
        json!({"functionResponse": {"name": "get_forecast", "response": {"output":
            {"city": "Riga", "days": 3, "sky": "sunny", "temp_c": 21}}}})
    );
}

#[test]
fn gemini_parallel_calls_signature_on_the_first_only() {
    let calls = parse_ok(Provider::Gemini, &fixture("gemini", "several_calls"));
    assert_eq!(calls.len(), 2);
    assert_eq!(
        calls[0].thought_signature.as_deref(),
        Some("CiwBVKhc7pQ3c2lnbmF0dXJlIG9mIHRoZSBmaXJzdCBwYXJhbGxlbCBjYWxs")
    );
    assert_eq!(
        calls[1],
        ToolCall::new("get_time", r#"{"timezone":"Europe/Riga"}"#).with_id("toolgen_1")
    );
    assert_eq!(
        run(&calls[1]).render(Provider::Gemini, &calls[1]),
        json!({"functionResponse": {"name": "get_time", "response": {"output": "14:05 in Europe/Riga"}}})
    );
}

#[test]
fn gemini_call_ids_are_echoed_and_missing_args_are_empty() {
    let calls = parse_ok(Provider::Gemini, &fixture("gemini", "with_call_ids"));
    assert_eq!(
        calls,
        [ToolCall::new("get_time", "{}").with_id("fc-8d1b6c2e-3f4a-4b5c-9d0e-1f2a3b4c5d6e")]
    );
    assert_eq!(
        run(&calls[0]).render(Provider::Gemini, &calls[0]),
        json!({"functionResponse": {"name": "get_time", "id": "fc-8d1b6c2e-3f4a-4b5c-9d0e-1f2a3b4c5d6e",
               "response": {"output": "14:05 in UTC"}}})
    );
}

#[test]
fn gemini_errors_use_the_error_key() {
    let calls = parse_ok(Provider::Gemini, &fixture("gemini", "invalid_arguments"));
    assert_eq!(
        run(&calls[0]).render(Provider::Gemini, &calls[0]),
        json!({"functionResponse": {"name": "get_forecast", "response": {"error":
            "invalid arguments at `city`: invalid type: sequence, expected a string"}}})
    );
}

#[test]
fn gemini_blocked_prompt_is_an_error() {
    let err = ToolCall::parse(Provider::Gemini, &fixture("gemini", "blocked_prompt")).unwrap_err();
    assert_eq!(
        err,
        ToolCallError::NoCandidates {
            provider: Provider::Gemini,
            block_reason: Some("SAFETY".into())
        }
    );
    assert_eq!(
        err.to_string(),
        "Google Gemini response has no candidates (prompt blocked: SAFETY)"
    );
}

// ---------------------------------------------------------------------------------------------
// MCP

#[test]
fn mcp_call_with_integer_id() {
    let calls = parse_ok(Provider::Mcp, &fixture("mcp", "one_call"));
    assert_eq!(calls.len(), 1);
    let call = &calls[0];
    assert_eq!(
        (
            call.id.as_deref(),
            call.name.as_str(),
            call.arguments.as_str()
        ),
        (Some("2"), "get_forecast", r#"{"city":"Riga","days":3}"#)
    );
    let result = run(call);
    let expected = json!({
        "content": [{"type": "text", "text": FORECAST_JSON}],
        "structuredContent": {"city": "Riga", "days": 3, "sky": "sunny", "temp_c": 21}
    });
    assert_eq!(result.render(Provider::Mcp, call), expected);
    // The response echoes the id with its JSON type: the number 2, not the string "2".
    assert_eq!(
        mcp_response(call, &result),
        json!({"jsonrpc": "2.0", "id": 2, "result": expected})
    );
}

#[test]
fn mcp_call_with_string_id() {
    let calls = parse_ok(Provider::Mcp, &fixture("mcp", "string_id"));
    assert_eq!(
        calls,
        [ToolCall::new("get_forecast", r#"{"city":"Riga"}"#).with_id("req-7f3a9c")]
    );
    assert_eq!(mcp_response(&calls[0], &run(&calls[0]))["id"], "req-7f3a9c");
}

#[test]
fn mcp_missing_arguments_are_empty() {
    let calls = parse_ok(Provider::Mcp, &fixture("mcp", "no_arguments"));
    assert_eq!(calls[0].arguments, "{}");
    assert_eq!(
        run(&calls[0]).render(Provider::Mcp, &calls[0]),
        json!({"content": [{"type": "text", "text": "14:05 in UTC"}]})
    );
}

#[test]
fn mcp_invalid_arguments_are_a_tool_execution_error() {
    let calls = parse_ok(Provider::Mcp, &fixture("mcp", "invalid_arguments"));
    assert_eq!(
        mcp_response(&calls[0], &run(&calls[0])),
        json!({"jsonrpc": "2.0", "id": 3, "result": {
            "content": [{"type": "text",
                "text": "invalid arguments at `days`: invalid value: integer `-1`, expected u8"}],
            "isError": true
        }})
    );
}

#[test]
fn mcp_other_methods_are_refused() {
    let err = ToolCall::parse(Provider::Mcp, &fixture("mcp", "other_method")).unwrap_err();
    assert_eq!(
        err,
        ToolCallError::NotToolsCall {
            method: "tools/list".into()
        }
    );
}

#[test]
fn mcp_non_object_json_results_are_text_only() {
    let call = ToolCall::new("get_time", "{}").with_id("1");
    assert_eq!(
        ToolResult::json(json!([1, 2])).render(Provider::Mcp, &call),
        json!({"content": [{"type": "text", "text": "[1,2]"}]})
    );
}

// ---------------------------------------------------------------------------------------------
// Every fixture, every provider

#[test]
fn every_fixture_round_trips() {
    let mut count = 0;
    for (provider, name, response) in all_fixtures() {
        let calls = match ToolCall::parse(provider, &response) {
            Ok(calls) => calls,
            Err(e) => {
                // The fixtures of responses that hold no calls at all, by design.
                assert!(
                    ["blocked_prompt.json", "other_method.json"].contains(&name.as_str()),
                    "{provider} {name}: {e}"
                );
                continue;
            }
        };
        if name == "text_only.json" {
            assert_eq!(calls, [], "{provider} {name}");
        } else {
            assert!(!calls.is_empty(), "{provider} {name}");
        }
        for call in &calls {
            let result = run(call);
            assert_eq!(
                result.is_error(),
                name == "invalid_arguments.json",
                "{provider} {name}: {result:?}"
            );
            let rendered = result.render(provider, call);
            let rendered_id = match provider {
                Provider::Anthropic => &rendered["tool_use_id"],
                Provider::OpenAiChat => &rendered["tool_call_id"],
                Provider::OpenAiResponses => &rendered["call_id"],
                Provider::Gemini => &rendered["functionResponse"]["id"],
                _ => &mcp_response(call, &result)["id"],
            };
            // Every parsed call has an id; one made up for a Gemini call without one is not
            // sent back to Gemini.
            let id = call.id.as_deref().unwrap();
            if provider == Provider::Gemini && id.starts_with("toolgen_") {
                assert!(rendered_id.is_null(), "{provider} {name}: {rendered}");
            } else {
                assert_eq!(rendered_id.to_string().trim_matches('"'), id);
            }
            count += 1;
        }
    }
    assert!(count >= 15, "only {count} calls in the fixtures");
}

// ---------------------------------------------------------------------------------------------
// The official specs

/// The spec documents, or `None` (the test is skipped) when `TOOLGEN_SPECS` is unset outside CI.
struct Specs {
    openai: Value,
    mcp: Value,
}

fn specs() -> Option<Specs> {
    let ci = std::env::var("CI").is_ok_and(|ci| ci == "true");
    let Some(dir) = std::env::var_os("TOOLGEN_SPECS") else {
        assert!(
            !ci,
            "CI=true but TOOLGEN_SPECS is not set: the spec tests cannot run"
        );
        eprintln!(
            "skipped: set TOOLGEN_SPECS to the folder of the official specs to run this test"
        );
        return None;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    assert!(
        dir.is_dir(),
        "TOOLGEN_SPECS={} is not a folder",
        dir.display()
    );
    Some(Specs {
        openai: read_json(&dir.join("openai-tools.openapi-subset.json")),
        mcp: read_json(&dir.join("mcp-2025-11-25.schema.json")),
    })
}

const OPENAI_URI: &str = "https://toolgen.invalid/openai-tools.openapi-subset.json";
const MCP_URI: &str = "https://toolgen.invalid/mcp-2025-11-25.schema.json";

/// Checks `instances` against the definition at `pointer` in the spec `document` (at `uri`).
fn assert_valid(document: &Value, uri: &str, pointer: &str, instances: &[Value]) {
    let registry = jsonschema::Registry::new()
        .add(uri, document.clone())
        .and_then(|builder| builder.prepare())
        .expect("spec document loads");
    let validator = jsonschema::options()
        .offline()
        .with_registry(&registry)
        .build(&json!({"$ref": format!("{uri}#{pointer}")}))
        .unwrap_or_else(|e| panic!("{pointer}: {e}"));
    // Every definition checked here has required fields: a validator that takes `{}` did not
    // resolve the reference.
    assert!(!validator.is_valid(&json!({})), "{pointer} accepts `{{}}`");
    assert!(!instances.is_empty(), "nothing to check against {pointer}");
    for instance in instances {
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .map(|e| e.to_string())
            .collect();
        assert!(
            errors.is_empty(),
            "{pointer} rejects {instance:#}: {errors:#?}"
        );
    }
}

/// The calls of every fixture of `provider`, with their results.
fn answered_calls(provider: Provider) -> Vec<(ToolCall, ToolResult)> {
    all_fixtures()
        .into_iter()
        .filter(|(p, ..)| *p == provider)
        .filter_map(|(_, _, response)| ToolCall::parse(provider, &response).ok())
        .flatten()
        .map(|call| {
            let result = run(&call);
            (call, result)
        })
        .collect()
}

/// Results of every kind: text, JSON object, JSON non-object, errors, empty text.
fn extra_results() -> Vec<ToolResult> {
    vec![
        ToolResult::text("done"),
        ToolResult::text(""),
        ToolResult::json(json!({"nested": {"list": [1, null, "x"]}})),
        ToolResult::json(json!("just a string")),
        ToolResult::error("no city named `Atlantis`"),
        ToolResult::error(""),
    ]
}

fn rendered(provider: Provider, call: &ToolCall) -> Vec<Value> {
    let mut all: Vec<Value> = answered_calls(provider)
        .iter()
        .map(|(call, result)| result.render(provider, call))
        .collect();
    all.extend(
        extra_results()
            .iter()
            .map(|result| result.render(provider, call)),
    );
    all
}

#[test]
fn openai_chat_tool_messages_match_the_spec() {
    let Some(specs) = specs() else { return };
    let call = ToolCall::new("get_time", "{}").with_id("call_1");
    let pointer = "/components/schemas/ChatCompletionRequestToolMessage";
    assert_valid(
        &specs.openai,
        OPENAI_URI,
        pointer,
        &rendered(Provider::OpenAiChat, &call),
    );
}

#[test]
fn openai_responses_outputs_match_the_spec() {
    let Some(specs) = specs() else { return };
    let call = ToolCall::new("get_time", "{}").with_id("call_1");
    let outputs = rendered(Provider::OpenAiResponses, &call);
    // The input item we send, and the item as the API returns it in a conversation.
    for pointer in [
        "/components/schemas/FunctionCallOutputItemParam",
        "/components/schemas/FunctionToolCallOutput",
    ] {
        assert_valid(&specs.openai, OPENAI_URI, pointer, &outputs);
    }
}

#[test]
fn mcp_results_match_the_spec() {
    let Some(specs) = specs() else { return };
    let call = &parse_ok(Provider::Mcp, &fixture("mcp", "one_call"))[0];
    assert_valid(
        &specs.mcp,
        MCP_URI,
        "/$defs/CallToolResult",
        &rendered(Provider::Mcp, call),
    );
    let mut responses: Vec<Value> = answered_calls(Provider::Mcp)
        .iter()
        .map(|(call, result)| mcp_response(call, result))
        .collect();
    responses.extend(
        extra_results()
            .iter()
            .map(|result| mcp_response(call, result)),
    );
    assert_valid(
        &specs.mcp,
        MCP_URI,
        "/$defs/JSONRPCResultResponse",
        &responses,
    );
}

/// The fixtures themselves follow the specs where there is one, so what they test is real.
#[test]
fn fixtures_match_the_spec() {
    let Some(specs) = specs() else { return };
    let mut chat_calls = Vec::new();
    for name in ["one_call", "several_calls", "invalid_arguments"] {
        let response = fixture("openai_chat", name);
        chat_calls.extend(
            response["choices"][0]["message"]["tool_calls"]
                .as_array()
                .unwrap()
                .clone(),
        );
    }
    let pointer = "/components/schemas/ChatCompletionMessageToolCall";
    assert_valid(&specs.openai, OPENAI_URI, pointer, &chat_calls);

    let mut function_calls = Vec::new();
    for name in ["one_call", "several_calls", "invalid_arguments"] {
        let response = fixture("openai_responses", name);
        let output = response["output"].as_array().unwrap();
        function_calls.extend(
            output
                .iter()
                .filter(|item| item["type"] == "function_call")
                .cloned(),
        );
    }
    let pointer = "/components/schemas/FunctionToolCall";
    assert_valid(&specs.openai, OPENAI_URI, pointer, &function_calls);

    let requests: Vec<Value> = ["one_call", "string_id", "no_arguments", "invalid_arguments"]
        .iter()
        .map(|name| fixture("mcp", name))
        .collect();
    assert_valid(&specs.mcp, MCP_URI, "/$defs/CallToolRequest", &requests);
}

// ---------------------------------------------------------------------------------------------
// Hostile input

fn malformed(provider: Provider, response: Value) -> (String, String) {
    match ToolCall::parse(provider, &response) {
        Err(ToolCallError::Malformed {
            provider: p,
            path,
            message,
        }) => {
            assert_eq!(p, provider);
            (path, message)
        }
        other => panic!("{provider}: expected Malformed for {response}, got {other:?}"),
    }
}

#[test]
fn non_objects_are_errors() {
    for (provider, _) in PROVIDERS {
        for response in [
            json!(null),
            json!("text"),
            json!(42),
            json!([1, 2]),
            json!(true),
        ] {
            let (path, _) = malformed(provider, response);
            assert_eq!(path, "");
        }
    }
    assert_eq!(
        ToolCall::parse(Provider::Anthropic, &json!("hi"))
            .unwrap_err()
            .to_string(),
        "malformed Anthropic response: invalid type: string \"hi\", expected a JSON object"
    );
}

#[test]
fn missing_and_mistyped_fields_name_their_path() {
    let cases = [
        (
            Provider::Anthropic,
            json!({}),
            "",
            "missing field `content`",
        ),
        (
            Provider::Anthropic,
            json!({"content": [{"type": "text", "text": "hi"}, {"type": "tool_use", "id": "t", "input": {}}]}),
            "content[1]",
            "missing field `name`",
        ),
        (
            Provider::Anthropic,
            json!({"content": [{"text": "no type"}]}),
            "content[0]",
            "missing field `type`",
        ),
        (
            Provider::OpenAiChat,
            json!({"choices": [{"message": {"tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": {"a": 1}}}
            ]}}]}),
            "choices[0].message.tool_calls[0].function.arguments",
            "invalid type: map, expected a string",
        ),
        (
            Provider::OpenAiChat,
            json!({"choices": [{"message": {"tool_calls": {"id": "c1"}}}]}),
            "choices[0].message.tool_calls",
            "invalid type: map, expected a sequence",
        ),
        (
            Provider::OpenAiChat,
            json!({"choices": [{}]}),
            "choices[0]",
            "missing field `message`",
        ),
        (
            Provider::OpenAiResponses,
            json!({"output": [{"type": "function_call", "call_id": 7, "name": "f", "arguments": "{}"}]}),
            "output[0].call_id",
            "invalid type: integer `7`, expected a string",
        ),
        (
            Provider::Gemini,
            json!({"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]}),
            "candidates[0].content.parts[0].functionCall",
            "missing field `name`",
        ),
        (
            Provider::Gemini,
            json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "f"}, "thoughtSignature": 1}]}}]}),
            "candidates[0].content.parts[0].thoughtSignature",
            "invalid type: integer `1`, expected a string",
        ),
        (
            Provider::Mcp,
            json!({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "f"}}),
            "",
            "missing field `id`",
        ),
        (
            Provider::Mcp,
            json!({"jsonrpc": "2.0", "id": 1.5, "method": "tools/call", "params": {"name": "f"}}),
            "id",
            "invalid type: floating point `1.5`, expected a JSON-RPC id (a string or an integer)",
        ),
        (
            Provider::Mcp,
            json!({"jsonrpc": "2.0", "id": null, "method": "tools/call", "params": {"name": "f"}}),
            "id",
            "invalid type: null, expected a JSON-RPC id (a string or an integer)",
        ),
        (
            Provider::Mcp,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call"}),
            "",
            "missing field `params`",
        ),
        (
            Provider::Mcp,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": ["f"]}}),
            "params.name",
            "invalid type: sequence, expected a string",
        ),
    ];
    for (provider, response, path, message) in cases {
        assert_eq!(
            malformed(provider, response),
            (path.to_owned(), message.to_owned())
        );
    }
    let err = ToolCall::parse(
        Provider::Anthropic,
        &json!({"content": [{"type": "tool_use"}]}),
    );
    assert_eq!(
        err.unwrap_err().to_string(),
        "malformed Anthropic response at `content[0]`: missing field `name`"
    );
    let err = ToolCall::parse(Provider::Mcp, &json!({"id": 1, "params": {}}));
    assert_eq!(
        err.unwrap_err().to_string(),
        "malformed MCP tools/call request: missing field `method`"
    );
}

#[test]
fn empty_and_absent_lists() {
    assert_eq!(
        ToolCall::parse(Provider::Anthropic, &json!({"content": []})),
        Ok(vec![])
    );
    assert_eq!(
        ToolCall::parse(Provider::OpenAiResponses, &json!({"output": []})),
        Ok(vec![])
    );
    let no_calls = json!({"choices": [{"message": {"role": "assistant", "tool_calls": null}}]});
    assert_eq!(ToolCall::parse(Provider::OpenAiChat, &no_calls), Ok(vec![]));
    assert_eq!(
        ToolCall::parse(Provider::OpenAiChat, &json!({"choices": []}))
            .unwrap_err()
            .to_string(),
        "OpenAI Chat Completions response has no choices"
    );
    // A candidate blocked after generation has no content.
    let blocked = json!({"candidates": [{"finishReason": "SAFETY", "index": 0}]});
    assert_eq!(ToolCall::parse(Provider::Gemini, &blocked), Ok(vec![]));
    // Other tool types are not ours.
    let custom = json!({"choices": [{"message": {"tool_calls": [
        {"id": "c1", "type": "custom", "custom": {"name": "sql", "input": "SELECT 1"}}
    ]}}]});
    assert_eq!(ToolCall::parse(Provider::OpenAiChat, &custom), Ok(vec![]));
}

/// `levels` nested arrays around `inner`.
fn nested(levels: usize, inner: Value) -> Value {
    (0..levels).fold(inner, |value, _| Value::Array(vec![value]))
}

#[test]
fn deep_values_are_refused_before_recursing() {
    let limit = ToolCallError::MAX_DEPTH;
    for (provider, _) in PROVIDERS {
        let response = json!({"content": nested(limit * 4, json!(1))});
        let err = ToolCall::parse(provider, &response).unwrap_err();
        assert_eq!(err, ToolCallError::TooDeep { provider, limit });
    }
    let err = ToolCall::parse(Provider::Gemini, &nested(limit + 1, json!({})));
    assert_eq!(
        err.unwrap_err().to_string(),
        "Google Gemini response is nested deeper than 256 levels"
    );

    // Just within the limit (response, content, block, input, "extra", then 250 more levels):
    // the arguments are kept as text, and serde_json skips the unknown field without recursing.
    let deep_input = json!({"timezone": "UTC", "extra": nested(limit - 6, json!({}))});
    let response = json!({"content": [{"type": "tool_use", "id": "t", "name": "get_time", "input": deep_input}]});
    let calls = parse_ok(Provider::Anthropic, &response);
    assert_eq!(calls[0].arguments, deep_input.to_string());
    let args = calls[0].parse_args::<GetTime>().unwrap();
    assert_eq!(args.timezone.as_deref(), Some("UTC"));
}

#[test]
fn huge_responses() {
    // Many calls, in order.
    let blocks: Vec<Value> = (0..10_000)
        .map(|i| json!({"type": "tool_use", "id": format!("toolu_{i}"), "name": "get_time", "input": {}}))
        .collect();
    let calls = parse_ok(Provider::Anthropic, &json!({"content": blocks}));
    assert_eq!(calls.len(), 10_000);
    assert_eq!(calls[9_999].id.as_deref(), Some("toolu_9999"));

    // Large arguments text, kept as sent.
    let city = "R".repeat(4 << 20);
    let arguments = json!({"city": city}).to_string();
    let response = json!({"choices": [{"message": {"tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "get_forecast", "arguments": arguments}}
    ]}}]});
    let calls = parse_ok(Provider::OpenAiChat, &response);
    assert_eq!(
        calls[0].parse_args::<GetForecast>().unwrap().city.len(),
        4 << 20
    );
}

/// Every JSON pointer in `value`.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                pointers(item, format!("{at}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                pointers(
                    item,
                    format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        _ => {}
    }
    out.push(at);
}

/// Every node of every fixture replaced by odd values, read as every provider: errors or calls,
/// never a panic; and whatever calls come out render for every provider.
#[test]
fn mutated_fixtures_never_panic() {
    let replacements = [
        json!(null),
        json!(false),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(u64::MAX),
        json!(""),
        json!("tool_use"),
        json!([]),
        json!({}),
        json!([{}]),
        json!({"type": "function_call"}),
        nested(200, json!({"type": "tool_use"})),
    ];
    let mut outcomes = (0, 0);
    for (_, name, response) in all_fixtures() {
        let mut paths = Vec::new();
        pointers(&response, String::new(), &mut paths);
        for path in &paths {
            for replacement in &replacements {
                let mut mutated = response.clone();
                match mutated.pointer_mut(path) {
                    Some(node) => *node = replacement.clone(),
                    None => panic!("{name}: no node at {path}"),
                }
                for (provider, _) in PROVIDERS {
                    match ToolCall::parse(provider, &mutated) {
                        Ok(calls) => {
                            outcomes.0 += 1;
                            for call in &calls {
                                let result = run(call);
                                for (other, _) in PROVIDERS {
                                    result.render(other, call);
                                }
                                mcp_response(call, &result);
                            }
                        }
                        Err(e) => {
                            outcomes.1 += 1;
                            assert!(!e.to_string().is_empty());
                        }
                    }
                }
            }
        }
    }
    let (ok, err) = outcomes;
    assert!(ok > 1_000 && err > 1_000, "{ok} parsed, {err} refused");
}
