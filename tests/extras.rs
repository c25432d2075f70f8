//! Issue 15, provider extras: `#[tool(cache_control, defer_loading, eager_input_streaming,
//! input_example)]` written into the definitions of the providers that document them, and left
//! out of the others'. `tests/specs.rs` validates the same tool's OpenAI and MCP definitions
//! against the official specs (it is one of `common::tools()`).
//!
//! - Anthropic (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-reference>):
//!   `cache_control` (`{"type":"ephemeral"}`, `ttl` `5m` or `1h`), `defer_loading`,
//!   `eager_input_streaming`, `input_examples`.
//! - OpenAI Responses (<https://developers.openai.com/api/docs/guides/tools-tool-search>):
//!   `defer_loading` on a function tool (`FunctionTool.defer_loading` in the OpenAPI spec).
//! - OpenAI Chat Completions, Gemini and MCP document none of them.

mod common;
mod dialect_check;

use common::FindOrders;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use toolgen::{Provider, Tool};

#[test]
fn anthropic_takes_all_four() {
    let definition = FindOrders::definition(Provider::Anthropic);
    assert_eq!(
        definition["cache_control"],
        json!({"type": "ephemeral", "ttl": "1h"})
    );
    assert_eq!(definition["defer_loading"], json!(true));
    assert_eq!(definition["eager_input_streaming"], json!(true));
    assert_eq!(
        definition["input_examples"],
        json!([{"customer": "C-1042", "status": "open"}, {"customer": "C-7"}])
    );
    let keys: Vec<&String> = definition.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "name",
            "description",
            "input_schema",
            "cache_control",
            "defer_loading",
            "eager_input_streaming",
            "input_examples"
        ]
    );
}

#[test]
fn openai_responses_takes_defer_loading_only() {
    let definition = FindOrders::definition(Provider::OpenAiResponses);
    assert_eq!(definition["defer_loading"], json!(true));
    for key in ["cache_control", "eager_input_streaming", "input_examples"] {
        assert!(definition.get(key).is_none(), "{key}");
    }
}

#[test]
fn the_others_take_none() {
    for provider in [Provider::OpenAiChat, Provider::Gemini, Provider::Mcp] {
        let text = FindOrders::definition_json(provider);
        for key in [
            "cache_control",
            "defer_loading",
            "eager_input_streaming",
            "input_examples",
        ] {
            assert!(!text.contains(key), "{provider}: {key} in {text}");
        }
    }
}

/// Each input example is an input the tool accepts, and its schema validates.
#[test]
fn every_input_example_is_valid_input() {
    let definition = FindOrders::definition(Provider::Anthropic);
    let validator = common::validator("FindOrders", FindOrders::INPUT_SCHEMA);
    for example in definition["input_examples"].as_array().unwrap() {
        assert!(validator.is_valid(example), "{example}");
        FindOrders::parse_args(&example.to_string()).unwrap();
    }
}

/// A tool without extras writes none of them: the definitions stay what they were.
#[test]
fn a_plain_tool_writes_no_extras() {
    let definition: Value = common::Optionals::definition(Provider::Anthropic);
    let keys: Vec<&String> = definition.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["name", "description", "input_schema"]);
}
