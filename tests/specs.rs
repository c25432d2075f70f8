//! Provider definitions checked against the providers' own schemas: MCP's `Tool` (MCP 2025-11-25
//! JSON Schema) and OpenAI's `ChatCompletionTool` and `FunctionTool` (a subset of OpenAI's
//! OpenAPI document).
//!
//! The spec files are not in this repository: `TOOLGEN_SPECS` names their folder (CI sets it to
//! `../shared/specs`; a relative path is taken from the crate root). Unset, each test says it is
//! skipped and passes, except under `CI=true`, where a missing folder fails.
//!
//! ```text
//! TOOLGEN_SPECS=../shared/specs cargo test --test specs
//! ```

#[path = "../examples/seed_tools/mod.rs"]
mod seed_tools;

mod common;
mod dialect_check;
mod spec_folder;

use spec_folder::specs_dir;

use serde_json::{Value, json};
use toolgen::{Provider, Tool};

use seed_tools::bridge::GetWeather;

const MCP_FILE: &str = "mcp-2025-11-25.schema.json";
const OPENAI_FILE: &str = "openai-tools.openapi-subset.json";

fn read_json(dir: &std::path::Path, file: &str) -> Value {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every tool's definition for `provider`: the seed tools and the test tools.
fn definitions(provider: Provider) -> Vec<(String, Value)> {
    let seeds = seed_tools::SEEDS
        .iter()
        .flat_map(|seed| seed.tools.iter())
        .map(|tool| (tool.name.to_owned(), (tool.definition)(provider)));
    let tests = common::tools()
        .into_iter()
        .map(|tool| (tool.name.to_owned(), (tool.definition)(provider)));
    seeds.chain(tests).collect()
}

/// A validator for `pointer` (`#/$defs/Tool`) of a spec document, the document being the root
/// resource its `$ref`s resolve in.
fn validator_for(spec: &Value, pointer: &str) -> jsonschema::Validator {
    let mut root = spec.clone();
    let object = root.as_object_mut().expect("spec documents are objects");
    object.insert("$ref".to_owned(), json!(pointer));
    // OpenAPI 3.1 schema objects are JSON Schema 2020-12; the MCP file says so itself.
    object.insert(
        "$schema".to_owned(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    jsonschema::draft202012::new(&root)
        .unwrap_or_else(|e| panic!("{pointer}: the spec does not compile: {e}"))
}

fn check_all(validator: &jsonschema::Validator, provider: Provider, what: &str) {
    let definitions = definitions(provider);
    assert!(!definitions.is_empty());
    for (name, definition) in definitions {
        if let Err(error) = validator.validate(&definition) {
            panic!(
                "{name}: the {provider} definition is not a valid {what}: {error} (at {})\n{definition:#}",
                error.instance_path()
            );
        }
    }
}

#[test]
fn mcp_definitions_are_mcp_tools() {
    let Some(dir) = specs_dir("mcp_definitions_are_mcp_tools") else {
        return;
    };
    let validator = validator_for(&read_json(&dir, MCP_FILE), "#/$defs/Tool");
    check_all(&validator, Provider::Mcp, "MCP Tool");
    // The check can fail: a tool whose input is not an object schema is not an MCP tool.
    let mut broken = GetWeather::definition(Provider::Mcp);
    broken["inputSchema"]["type"] = json!("array");
    assert!(!validator.is_valid(&broken));
}

#[test]
fn openai_chat_definitions_are_chat_completion_tools() {
    let Some(dir) = specs_dir("openai_chat_definitions_are_chat_completion_tools") else {
        return;
    };
    let spec = read_json(&dir, OPENAI_FILE);
    let validator = validator_for(&spec, "#/components/schemas/ChatCompletionTool");
    check_all(&validator, Provider::OpenAiChat, "ChatCompletionTool");
    let mut broken = GetWeather::definition(Provider::OpenAiChat);
    broken["function"]["strict"] = json!("yes");
    assert!(!validator.is_valid(&broken));
}

#[test]
fn openai_responses_definitions_are_function_tools() {
    let Some(dir) = specs_dir("openai_responses_definitions_are_function_tools") else {
        return;
    };
    let spec = read_json(&dir, OPENAI_FILE);
    let validator = validator_for(&spec, "#/components/schemas/FunctionTool");
    check_all(&validator, Provider::OpenAiResponses, "FunctionTool");
    let mut broken = GetWeather::definition(Provider::OpenAiResponses);
    broken.as_object_mut().map(|o| o.remove("strict"));
    assert!(!validator.is_valid(&broken));
}

/// Tools that fail in every way a handler can, for the runner's messages.
#[cfg(feature = "run")]
mod running {
    use serde::Deserialize;
    use serde_json::json;
    use toolgen::{Handler, Invocation, Tool, ToolError, ToolSet};

    /// Answer, or fail as asked.
    #[derive(Tool, Deserialize)]
    pub struct Act {
        /// `ok`, `text`, `words`, `json` or `panic`.
        how: String,
    }

    impl Handler<()> for Act {
        type Output = serde_json::Value;
        async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<serde_json::Value, ToolError> {
            match self.how.as_str() {
                "ok" => Ok(json!({"done": true})),
                "text" => Ok(json!("done")),
                "words" => Err(ToolError::new("the store is offline")),
                "json" => Err(ToolError::json(
                    json!({"success": false, "error": "not_found"}),
                )),
                _ => panic!("asked to"),
            }
        }
    }

    /// Measure a text.
    #[derive(Tool, Deserialize)]
    pub struct Measure {
        text: String,
    }

    /// A text's measures.
    #[derive(serde::Serialize, toolgen::ToolSchema)]
    pub struct Measures {
        characters: usize,
        words: usize,
    }

    impl Handler<()> for Measure {
        type Output = Measures;
        async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<Measures, ToolError> {
            Ok(Measures {
                characters: self.text.chars().count(),
                words: self.text.split_whitespace().count(),
            })
        }
    }

    #[derive(ToolSet)]
    pub enum Tools {
        Act(Act),
        Measure(Measure),
    }
}

#[cfg(feature = "run")]
#[test]
fn runner_definitions_with_output_schemas_are_mcp_tools() {
    let Some(dir) = specs_dir("runner_definitions_with_output_schemas_are_mcp_tools") else {
        return;
    };
    let runner = toolgen::Runner::<running::Tools, ()>::new(());
    let definitions = runner.definitions(Provider::Mcp);
    let measure = &definitions[1];
    assert_eq!(
        measure["outputSchema"]["required"],
        json!(["characters", "words"])
    );
    for file in [MCP_FILE, "mcp-2026-07-28.schema.json"] {
        let validator = validator_for(&read_json(&dir, file), "#/$defs/Tool");
        for definition in definitions.as_array().expect("a list") {
            if let Err(error) = validator.validate(definition) {
                panic!(
                    "{file}: {error} (at {})\n{definition:#}",
                    error.instance_path()
                );
            }
        }
    }
}

/// A turn of every outcome (success as JSON and as text, an error in words and as JSON, a
/// panic, bad arguments, an unknown tool), run for `provider`: its messages.
#[cfg(feature = "run")]
fn turn_messages(provider: Provider) -> Vec<Value> {
    let mut calls: Vec<toolgen::ToolCall> = ["ok", "text", "words", "json", "panic"]
        .iter()
        .map(|how| toolgen::ToolCall::new("act", json!({ "how": how }).to_string()))
        .collect();
    calls.push(toolgen::ToolCall::new("act", "{}"));
    calls.push(toolgen::ToolCall::new("nope", "{}"));
    for (i, call) in calls.iter_mut().enumerate() {
        call.id = Some(format!("call_{i}"));
    }
    let mut runner = toolgen::Runner::<running::Tools, ()>::new(());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime");
    runtime.block_on(runner.run(provider, &calls)).messages()
}

#[cfg(feature = "run")]
#[test]
fn runner_messages_are_what_the_apis_take() {
    let Some(dir) = specs_dir("runner_messages_are_what_the_apis_take") else {
        return;
    };
    let openai = read_json(&dir, OPENAI_FILE);
    let checks = [
        (
            Provider::OpenAiChat,
            validator_for(
                &openai,
                "#/components/schemas/ChatCompletionRequestToolMessage",
            ),
        ),
        (
            Provider::OpenAiResponses,
            validator_for(&openai, "#/components/schemas/FunctionCallOutputItemParam"),
        ),
        (
            Provider::Mcp,
            validator_for(&read_json(&dir, MCP_FILE), "#/$defs/JSONRPCResultResponse"),
        ),
    ];
    let call_tool_result = validator_for(&read_json(&dir, MCP_FILE), "#/$defs/CallToolResult");
    for (provider, validator) in &checks {
        let messages = turn_messages(*provider);
        assert_eq!(messages.len(), 7, "{provider}");
        for message in &messages {
            if let Err(error) = validator.validate(message) {
                panic!(
                    "{provider}: {error} (at {})\n{message:#}",
                    error.instance_path()
                );
            }
            if *provider == Provider::Mcp {
                assert!(call_tool_result.is_valid(&message["result"]), "{message:#}");
            }
        }
        // The checks can fail.
        assert!(!validator.is_valid(&json!({})), "{provider}");
    }
}

#[test]
fn tool_choices_are_what_openai_chat_takes() {
    let Some(dir) = specs_dir("tool_choices_are_what_openai_chat_takes") else {
        return;
    };
    let openai = read_json(&dir, OPENAI_FILE);
    let validator = validator_for(
        &openai,
        "#/components/schemas/ChatCompletionToolChoiceOption",
    );
    for choice in [
        toolgen::ToolChoice::auto(),
        toolgen::ToolChoice::required(),
        toolgen::ToolChoice::none(),
        toolgen::ToolChoice::tool("get_weather"),
        toolgen::ToolChoice::allowed(["get_weather", "get_time"], toolgen::Allowed::Auto),
        toolgen::ToolChoice::allowed(["get_weather"], toolgen::Allowed::Required),
    ] {
        let fields = choice.parallel(false).request_fields(Provider::OpenAiChat);
        let tool_choice = &fields["tool_choice"];
        if let Err(error) = validator.validate(tool_choice) {
            panic!("{tool_choice}: {error}");
        }
        assert_eq!(fields["parallel_tool_calls"], json!(false));
    }
    // The check can fail: Anthropic's spelling is not OpenAI's.
    let anthropic = toolgen::ToolChoice::required().request_fields(Provider::Anthropic);
    assert!(!validator.is_valid(&anthropic["tool_choice"]));
    // Nor is the Responses API's allowed tools (flat, its tools named at the top) Chat's.
    let responses = toolgen::ToolChoice::allowed(["get_weather"], toolgen::Allowed::Auto)
        .request_fields(Provider::OpenAiResponses);
    assert!(!validator.is_valid(&responses["tool_choice"]));
}

#[test]
fn attachments_are_what_the_apis_take() {
    let Some(dir) = specs_dir("attachments_are_what_the_apis_take") else {
        return;
    };
    let result = toolgen::ToolResult::text("The chart.")
        .with_image("iVBORw0KGgo=", "image/png")
        .with_file("JVBERi0=", "application/pdf", Some("report.pdf"));
    let call = toolgen::ToolCall::new("plot", "{}").with_id("call_1");
    let openai = read_json(&dir, OPENAI_FILE);
    let responses = validator_for(&openai, "#/components/schemas/FunctionCallOutputItemParam");
    let rendered = result.render(Provider::OpenAiResponses, &call);
    if let Err(error) = responses.validate(&rendered) {
        panic!("{error} (at {})\n{rendered:#}", error.instance_path());
    }
    let chat = validator_for(
        &openai,
        "#/components/schemas/ChatCompletionRequestToolMessage",
    );
    assert!(chat.is_valid(&result.render(Provider::OpenAiChat, &call)));
    for file in [MCP_FILE, "mcp-2026-07-28.schema.json"] {
        let spec = read_json(&dir, file);
        let content = validator_for(&spec, "#/$defs/ContentBlock");
        let rendered = result.render(Provider::Mcp, &call);
        let blocks = rendered["content"].as_array().expect("content is a list");
        assert_eq!(blocks.len(), 3);
        for block in blocks {
            if let Err(error) = content.validate(block) {
                panic!("{file}: {error} (at {})\n{block:#}", error.instance_path());
            }
        }
        // The check can fail: an image needs its data.
        assert!(!content.is_valid(&json!({"type": "image", "mimeType": "image/png"})));
    }
}
