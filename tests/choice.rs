//! `ToolChoice` as each API takes it: every mode, with and without parallel calls, for every
//! provider, as whole values.

use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use toolgen::{Allowed, Provider, ToolChoice};

fn fields(choice: &ToolChoice, provider: Provider) -> Value {
    Value::Object(choice.request_fields(provider))
}

#[test]
fn every_mode_for_every_provider() {
    let choices = [
        ToolChoice::auto(),
        ToolChoice::required(),
        ToolChoice::none(),
        ToolChoice::tool("search_web"),
    ];
    let anthropic: Vec<Value> = choices
        .iter()
        .map(|c| fields(c, Provider::Anthropic))
        .collect();
    assert_eq!(
        anthropic,
        vec![
            json!({"tool_choice": {"type": "auto"}}),
            json!({"tool_choice": {"type": "any"}}),
            json!({"tool_choice": {"type": "none"}}),
            json!({"tool_choice": {"type": "tool", "name": "search_web"}}),
        ]
    );
    let chat: Vec<Value> = choices
        .iter()
        .map(|c| fields(c, Provider::OpenAiChat))
        .collect();
    assert_eq!(
        chat,
        vec![
            json!({"tool_choice": "auto"}),
            json!({"tool_choice": "required"}),
            json!({"tool_choice": "none"}),
            json!({"tool_choice": {"type": "function", "function": {"name": "search_web"}}}),
        ]
    );
    let responses: Vec<Value> = choices
        .iter()
        .map(|c| fields(c, Provider::OpenAiResponses))
        .collect();
    assert_eq!(
        responses,
        vec![
            json!({"tool_choice": "auto"}),
            json!({"tool_choice": "required"}),
            json!({"tool_choice": "none"}),
            json!({"tool_choice": {"type": "function", "name": "search_web"}}),
        ]
    );
    let gemini: Vec<Value> = choices
        .iter()
        .map(|c| fields(c, Provider::Gemini))
        .collect();
    let config = |c: Value| json!({"toolConfig": {"functionCallingConfig": c}});
    assert_eq!(
        gemini,
        vec![
            config(json!({"mode": "AUTO"})),
            config(json!({"mode": "ANY"})),
            config(json!({"mode": "NONE"})),
            config(json!({"mode": "ANY", "allowedFunctionNames": ["search_web"]})),
        ]
    );
    for choice in &choices {
        assert_eq!(fields(choice, Provider::Mcp), json!({}));
        assert!(choice.expresses(Provider::Gemini));
    }
    assert!(ToolChoice::auto().expresses(Provider::Mcp));
    assert!(!ToolChoice::required().expresses(Provider::Mcp));
    assert_eq!(ToolChoice::default(), ToolChoice::auto());
}

#[test]
fn parallel_calls_on_and_off() {
    let off = ToolChoice::required().parallel(false);
    assert_eq!(
        fields(&off, Provider::Anthropic),
        json!({"tool_choice": {"type": "any", "disable_parallel_tool_use": true}})
    );
    assert_eq!(
        fields(&ToolChoice::auto().parallel(true), Provider::Anthropic),
        json!({"tool_choice": {"type": "auto", "disable_parallel_tool_use": false}})
    );
    // `none` calls no tool: nothing to say about parallel calls.
    assert_eq!(
        fields(&ToolChoice::none().parallel(false), Provider::Anthropic),
        json!({"tool_choice": {"type": "none"}})
    );
    assert_eq!(
        fields(&off, Provider::OpenAiChat),
        json!({"tool_choice": "required", "parallel_tool_calls": false})
    );
    assert_eq!(
        fields(&off, Provider::OpenAiResponses),
        json!({"tool_choice": "required", "parallel_tool_calls": false})
    );
    // Gemini has no switch: left out, and said so.
    assert_eq!(
        fields(&off, Provider::Gemini),
        json!({"toolConfig": {"functionCallingConfig": {"mode": "ANY"}}})
    );
    assert!(!off.expresses(Provider::Gemini));
    assert!(off.expresses(Provider::Anthropic));
}

/// Issue 50: allowed tools for one turn, each API's own shape, the tool list untouched.
#[test]
fn allowed_tools_for_one_turn() {
    let auto = ToolChoice::allowed(["get_weather", "get_time"], Allowed::Auto);
    let required = ToolChoice::allowed(vec!["get_weather".to_owned()], Allowed::Required);
    assert_eq!(
        [&auto, &required].map(|c| fields(c, Provider::OpenAiChat)),
        [
            json!({"tool_choice": {"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": [
                {"type": "function", "function": {"name": "get_weather"}},
                {"type": "function", "function": {"name": "get_time"}}]}}}),
            json!({"tool_choice": {"type": "allowed_tools", "allowed_tools": {"mode": "required", "tools": [
                {"type": "function", "function": {"name": "get_weather"}}]}}}),
        ]
    );
    assert_eq!(
        [&auto, &required].map(|c| fields(c, Provider::OpenAiResponses)),
        [
            json!({"tool_choice": {"type": "allowed_tools", "mode": "auto", "tools": [
                {"type": "function", "name": "get_weather"}, {"type": "function", "name": "get_time"}]}}),
            json!({"tool_choice": {"type": "allowed_tools", "mode": "required", "tools": [
                {"type": "function", "name": "get_weather"}]}}),
        ]
    );
    assert_eq!(
        [&auto, &required].map(|c| {
            fields(&c.clone().parallel(false), Provider::OpenAiChat)["parallel_tool_calls"].clone()
        }),
        [json!(false), json!(false)]
    );
    assert_eq!(
        [&auto, &required].map(|c| fields(c, Provider::Gemini)),
        [
            json!({"toolConfig": {"functionCallingConfig": {"mode": "VALIDATED",
                "allowedFunctionNames": ["get_weather", "get_time"]}}}),
            json!({"toolConfig": {"functionCallingConfig": {"mode": "ANY",
                "allowedFunctionNames": ["get_weather"]}}}),
        ]
    );
    for provider in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Gemini,
    ] {
        assert!(auto.expresses(provider));
        assert_eq!(
            auto.try_request_fields(provider).map(Value::Object),
            Ok(fields(&auto, provider))
        );
    }

    // Anthropic and MCP cannot say it: an error, not fields that say less.
    for provider in [Provider::Anthropic, Provider::Mcp] {
        assert!(!auto.expresses(provider));
        let err = auto.try_request_fields(provider).unwrap_err();
        assert_eq!(err.provider(), provider);
        assert_eq!(
            err.to_string(),
            format!(
                "{provider} requests cannot restrict a turn to some of their tools (allowed tools); \
                 send only those tools' definitions instead"
            )
        );
    }
    // What the choice allows, which the runner enforces.
    assert!(auto.allows("get_time") && !auto.allows("delete_file"));
    assert_eq!(required.allowed_names(), Some(vec!["get_weather"]));

    // The old choices' errors come through `try_request_fields` too.
    assert!(
        ToolChoice::auto()
            .parallel(true)
            .try_request_fields(Provider::Gemini)
            .is_err()
    );
    assert!(
        ToolChoice::required()
            .try_request_fields(Provider::Mcp)
            .is_err()
    );
    assert!(
        ToolChoice::tool("f")
            .try_request_fields(Provider::Anthropic)
            .is_ok()
    );
}
