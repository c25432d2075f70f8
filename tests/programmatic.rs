//! Issue 50, programmatic tool calling: a hosted code tool calls your functions. A definition
//! says who may call the tool (`#[tool(allowed_callers(..))]`, `allowed_callers`) and, for
//! OpenAI Responses, what its output holds (`output_schema`); a call made by code carries a
//! `caller` that its output must carry back.
//!
//! The recorded OpenAI Responses response `tests/traffic/openai_responses/programmatic-tool-calling.2.json`
//! is read and answered through the `Runner`; its input items for the next request are checked
//! against the OpenAPI subset (`TOOLGEN_SPECS`, as `tests/specs.rs` does).

#![cfg(feature = "run")]

mod spec_folder;

use std::path::PathBuf;

use pretty_assertions::assert_eq;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolgen::{
    AllowedCaller, Caller, DynamicTool, Handler, Invocation, Provider, Runner, Tool, ToolCall,
    ToolError, ToolSchema, ToolSet,
};

/// Get available inventory for a SKU.
#[derive(Tool, Deserialize)]
#[tool(name = "getInventory", strict, allowed_callers(program), output = Inventory)]
struct GetInventory {
    sku: String,
}

#[derive(Serialize, ToolSchema)]
#[serde(rename_all = "camelCase")]
struct Inventory {
    sku: String,
    available_units: f64,
}

/// Get requested units for a SKU.
#[derive(Tool, Deserialize)]
#[tool(name = "getDemand", strict, allowed_callers(program))]
struct GetDemand {
    sku: String,
}

// What `getDemand` answers; its schema comes from the handler's output type, not from
// `#[tool(output = ..)]` (no doc comment: the recorded request's schema has no description).
#[derive(Serialize, ToolSchema)]
#[serde(rename_all = "camelCase")]
struct Demand {
    sku: String,
    requested_units: f64,
}

/// Say hello: called by the model or by code.
#[derive(Tool, Deserialize)]
#[tool(allowed_callers(direct, program))]
struct Hello {
    name: Option<String>,
}

impl Handler<()> for GetInventory {
    type Output = Inventory;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<Inventory, ToolError> {
        Ok(Inventory {
            sku: self.sku,
            available_units: 5.0,
        })
    }
}

impl Handler<()> for GetDemand {
    type Output = Demand;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<Demand, ToolError> {
        Ok(Demand {
            sku: self.sku,
            requested_units: 7.0,
        })
    }
}

impl Handler<()> for Hello {
    type Output = String;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<String, ToolError> {
        Ok(format!("hello {}", self.name.unwrap_or_default()))
    }
}

#[derive(ToolSet)]
enum Stock {
    Inventory(GetInventory),
    Demand(GetDemand),
    Hello(Hello),
}

fn recorded() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/traffic/openai_responses/programmatic-tool-calling.2.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `actual` is the golden `tests/golden/programmatic/{file}`, whole (`TOOLGEN_BLESS=1` writes
/// it).
fn check_golden(file: &str, actual: &Value) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/programmatic")
        .join(file);
    let text = serde_json::to_string_pretty(actual).unwrap() + "\n";
    if std::env::var_os("TOOLGEN_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (TOOLGEN_BLESS=1 writes it)", path.display()));
    assert_eq!(text, expected, "{file}");
}

/// The runner's definitions of the set, for every provider, against goldens: `allowed_callers`
/// for Anthropic and OpenAI Responses only, `output_schema` for OpenAI Responses only (from
/// `#[tool(output = ..)]` or the handler's output type), strict for a strict tool.
#[test]
fn definitions_say_who_may_call() {
    let runner = Runner::<Stock, ()>::new(());
    for provider in Provider::ALL {
        check_golden(&format!("{provider:?}.json"), &runner.definitions(provider));
    }
    let responses = runner.definitions(Provider::OpenAiResponses);
    assert_eq!(responses[0]["allowed_callers"], json!(["programmatic"]));
    assert_eq!(
        responses[2]["allowed_callers"],
        json!(["direct", "programmatic"])
    );
    let anthropic = runner.definitions(Provider::Anthropic);
    assert_eq!(
        anthropic[2]["allowed_callers"],
        json!(["direct", "code_execution_20250825"])
    );
    for provider in [Provider::OpenAiChat, Provider::Gemini, Provider::Mcp] {
        let text = runner.definitions(provider).to_string();
        assert!(
            !text.contains("allowed_callers") && !text.contains("output_schema"),
            "{provider}"
        );
    }
    // A derived tool's own definition has what `#[tool(output = ..)]` gives; the handler's
    // type only the runner knows.
    assert!(
        GetInventory::definition(Provider::OpenAiResponses)
            .get("output_schema")
            .is_some()
    );
    assert!(
        GetDemand::definition(Provider::OpenAiResponses)
            .get("output_schema")
            .is_none()
    );

    // The recorded request's definitions, written by OpenAI's own SDK from the same tools: the
    // same callers and output schemas, strict.
    let recorded = recorded();
    for (ours, theirs) in responses
        .as_array()
        .unwrap()
        .iter()
        .zip(recorded["tools"].as_array().unwrap().iter().skip(1))
    {
        assert_eq!(ours["name"], theirs["name"]);
        for key in ["allowed_callers", "output_schema", "strict", "type"] {
            assert_eq!(ours[key], theirs[key], "{key}");
        }
    }
}

/// A run-time tool says the same through its builder.
#[test]
fn dynamic_tools_say_who_may_call() {
    let tool = DynamicTool::new(
        "getDemand",
        "Get requested units for a SKU.",
        json!({"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]}),
    )
    .unwrap()
    .strict()
    .unwrap()
    .with_allowed_callers(&[AllowedCaller::Program, AllowedCaller::Program])
    .with_output_schema(json!({"type": "object", "properties": {
        "sku": {"type": "string"}, "requestedUnits": {"type": "number"}},
        "required": ["sku", "requestedUnits"]}));
    assert_eq!(tool.allowed_callers(), [AllowedCaller::Program]);
    let derived = Runner::<Stock, ()>::new(()).definitions(Provider::OpenAiResponses)[1].clone();
    let mut dynamic = tool.definition(Provider::OpenAiResponses);
    // The descriptions are the same; the dynamic output schema is strict-rewritten as the
    // derived one is (every property required, no others).
    dynamic["description"] = derived["description"].clone();
    assert_eq!(dynamic, derived);
    assert_eq!(
        tool.definition(Provider::Anthropic)["allowed_callers"],
        json!(["code_execution_20250825"])
    );
    assert!(
        tool.definition(Provider::Gemini)
            .get("allowed_callers")
            .is_none()
    );
}

/// The recorded response read, its call run, and the next request's input items written: the
/// model's `function_call` item as sent, then the output, carrying the call's `caller` back.
#[tokio::test]
async fn the_recorded_call_is_answered_to_its_caller() {
    let response = recorded();
    let calls = ToolCall::parse(Provider::OpenAiResponses, &response).unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(
        calls[0].caller,
        Some(Caller::program("program", "call_O2IvSLQcJ0bwIvJZ2ovGV69M"))
    );
    let mut runner = Runner::<Stock, ()>::new(());
    let turn = runner.run(Provider::OpenAiResponses, &calls).await;
    let items = turn.next_messages(&response).unwrap();
    assert_eq!(
        items,
        [
            response["output"][0].clone(),
            json!({"type": "function_call_output", "call_id": "call_IYnPSr6i8TyBPs1H9U539pUP",
                   "output": r#"{"sku":"sku_123","requestedUnits":7.0}"#,
                   "caller": {"type": "program", "caller_id": "call_O2IvSLQcJ0bwIvJZ2ovGV69M"}}),
        ]
    );

    let Some(dir) = spec_folder::specs_dir("the_recorded_call_is_answered_to_its_caller") else {
        return;
    };
    let spec = spec(&dir);
    let call = validator_for(&spec, "#/components/schemas/FunctionToolCall");
    let output = validator_for(&spec, "#/components/schemas/FunctionCallOutputItemParam");
    for (item, validator) in items.iter().zip([&call, &output]) {
        if let Err(error) = validator.validate(item) {
            panic!("{error} (at {})\n{item:#}", error.instance_path());
        }
    }
    // The check can fail: a caller without its id is not a program's.
    let mut wrong = items[1].clone();
    wrong["caller"] = json!({"type": "program"});
    assert!(!output.is_valid(&wrong));
}

/// Every definition of the set, and the dynamic tool's, is a `FunctionTool` of the spec.
#[test]
fn definitions_are_function_tools() {
    let Some(dir) = spec_folder::specs_dir("definitions_are_function_tools") else {
        return;
    };
    let spec = spec(&dir);
    let validator = validator_for(&spec, "#/components/schemas/FunctionTool");
    let runner = Runner::<Stock, ()>::new(());
    for definition in runner
        .definitions(Provider::OpenAiResponses)
        .as_array()
        .unwrap()
    {
        if let Err(error) = validator.validate(definition) {
            panic!("{error} (at {})\n{definition:#}", error.instance_path());
        }
    }
    let mut wrong = runner.definitions(Provider::OpenAiResponses)[0].clone();
    wrong["allowed_callers"] = json!(["code_execution_20250825"]);
    assert!(!validator.is_valid(&wrong));
}

fn spec(dir: &std::path::Path) -> Value {
    let path = dir.join("openai-tools.openapi-subset.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A validator for `pointer` of the spec, the document being the root its `$ref`s resolve in.
fn validator_for(spec: &Value, pointer: &str) -> jsonschema::Validator {
    let mut root = spec.clone();
    let object = root.as_object_mut().unwrap();
    object.insert("$ref".to_owned(), json!(pointer));
    object.insert(
        "$schema".to_owned(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    jsonschema::draft202012::new(&root).unwrap()
}
