//! Structured outputs (`Structured<T>`): the request fields for every provider and route, checked
//! against the official OpenAI spec and each provider's documented shape; the answer read from
//! whole responses and from streams (re-split at every character); and every failure kind
//! (refusal, cut off, blocked, failed, no answer, invalid) for every provider.
//!
//! The type is seed 000's flashcards (`emit_flashcards`), the tool the document forces to get a
//! typed answer; `Weather` is a small type whose fields are written out by hand.

mod spec_folder;

#[allow(dead_code)]
#[path = "../examples/structured_output.rs"]
mod example;

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::{AnswerError, Dialect, Provider, Route, Structured, Tool, ToolSchema};

use example::seed_tools;
use seed_tools::flashcards::EmitFlashcards;

static CARDS: Structured<EmitFlashcards> = Structured::from_tool(Route::Native);
static CARDS_BY_TOOL: Structured<EmitFlashcards> = Structured::from_tool(Route::Tool);

/// A city's weather.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Weather {
    /// The city.
    city: String,
    #[tool(range(min = -90, max = 60))]
    celsius: i32,
    #[serde(default)]
    note: Option<String>,
}

static WEATHER: Structured<Weather> = Structured::new(Route::Native);
static WEATHER_BY_TOOL: Structured<Weather> = Structured::new(Route::Tool);

const PROVIDERS: [Provider; 4] = [
    Provider::OpenAiChat,
    Provider::OpenAiResponses,
    Provider::Anthropic,
    Provider::Gemini,
];

/// A flashcards answer with text outside ASCII (Latvian and Russian), as the seed's model writes.
const ANSWER: &str = r#"{"flashcards":[{"base_form":"māja","base_translation":"дом","unit":"word","forms":[{"form":"mājas","translation":"дома","type":"gen. sg."}],"contexts":[{"lv":"Mana māja ir liela.","ru":"Мой дом большой.","sid":1,"sig":"a"}],"visible":true}]}"#;

fn expected_cards() -> EmitFlashcards {
    EmitFlashcards::parse_args(ANSWER).expect("the sample answer is valid")
}

// ---------------------------------------------------------------------------------------------
// Request fields.

#[test]
fn native_fields_as_each_provider_documents_them() {
    let strict = json!({"type": "object", "description": "A city's weather.",
        "properties": {
            "city": {"type": "string", "description": "The city."},
            "celsius": {"type": "integer", "minimum": -90, "maximum": 60},
            "note": {"type": ["string", "null"]}},
        "required": ["city", "celsius", "note"], "additionalProperties": false});
    assert_eq!(
        Value::Object(WEATHER.request_fields(Provider::OpenAiChat)),
        json!({"response_format": {"type": "json_schema", "json_schema": {
            "name": "weather", "description": "A city's weather.", "schema": strict, "strict": true}}})
    );
    assert_eq!(
        Value::Object(WEATHER.request_fields(Provider::OpenAiResponses)),
        json!({"text": {"format": {"type": "json_schema", "name": "weather",
            "description": "A city's weather.", "schema": strict, "strict": true}}})
    );
    assert_eq!(
        Value::Object(WEATHER.request_fields(Provider::Anthropic)),
        json!({"output_config": {"format": {"type": "json_schema", "schema": {
            "type": "object", "description": "A city's weather.",
            "properties": {
                "city": {"type": "string", "description": "The city."},
                "celsius": {"type": "integer", "description": "At least -90. At most 60."},
                "note": {"type": "string"}},
            "required": ["city", "celsius"], "additionalProperties": false}}}})
    );
    assert_eq!(
        Value::Object(WEATHER.request_fields(Provider::Gemini)),
        json!({"generationConfig": {"responseMimeType": "application/json", "responseSchema": {
            "type": "object", "description": "A city's weather.",
            "properties": {
                "city": {"type": "string", "description": "The city."},
                "celsius": {"type": "integer", "minimum": -90, "maximum": 60},
                "note": {"type": "string"}},
            "required": ["city", "celsius"], "propertyOrdering": ["city", "celsius", "note"]}}})
    );
    assert!(WEATHER.request_fields(Provider::Mcp).is_empty());
}

#[test]
fn tool_route_fields_force_the_answer_tool() {
    let fields = WEATHER_BY_TOOL.request_fields(Provider::OpenAiChat);
    assert_eq!(
        fields["tool_choice"],
        json!({"type": "function", "function": {"name": "weather"}})
    );
    assert_eq!(fields["parallel_tool_calls"], json!(false));
    assert_eq!(fields["tools"][0]["function"]["strict"], json!(true));
    assert_eq!(
        fields["tools"][0]["function"]["parameters"],
        json!(
            WEATHER
                .schema(Dialect::OpenAiStrict)
                .map(|s| serde_json::from_str::<Value>(s).unwrap())
        )
    );

    // Seed 000: the forced `emit_flashcards`, as the document sends it to Claude, strict now.
    let fields = CARDS_BY_TOOL.request_fields(Provider::Anthropic);
    assert_eq!(
        fields["tool_choice"],
        json!({"type": "tool", "name": "emit_flashcards", "disable_parallel_tool_use": true})
    );
    let tool = &fields["tools"][0];
    assert_eq!(tool["name"], json!("emit_flashcards"));
    assert_eq!(tool["description"], json!(EmitFlashcards::DESCRIPTION));
    assert_eq!(tool["strict"], json!(true));
    assert_eq!(
        tool["input_schema"],
        serde_json::from_str::<Value>(CARDS.schema(Dialect::AnthropicStrict).unwrap()).unwrap()
    );

    let fields = CARDS_BY_TOOL.request_fields(Provider::Gemini);
    assert_eq!(
        fields["toolConfig"],
        json!({"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["emit_flashcards"]}})
    );
    assert_eq!(
        fields["tools"][0]["functionDeclarations"][0]["name"],
        json!("emit_flashcards")
    );
    let fields = CARDS_BY_TOOL.request_fields(Provider::OpenAiResponses);
    assert_eq!(fields["tools"][0]["type"], json!("function"));
    assert_eq!(
        fields["tool_choice"],
        json!({"type": "function", "name": "emit_flashcards"})
    );
    assert!(CARDS_BY_TOOL.request_fields(Provider::Mcp).is_empty());
}

#[test]
fn names_and_descriptions_come_from_the_type() {
    assert_eq!(CARDS.name(), "emit_flashcards");
    assert_eq!(CARDS.description(), Some(EmitFlashcards::DESCRIPTION));
    assert_eq!(WEATHER.name(), "weather");
    assert_eq!(WEATHER.description(), Some("A city's weather."));
    static RENAMED: Structured<Weather> = Structured::new(Route::Native)
        .with_name("forecast")
        .with_description("Tomorrow's weather.");
    let fields = RENAMED.request_fields(Provider::OpenAiChat);
    assert_eq!(fields["response_format"]["json_schema"]["name"], "forecast");
    assert_eq!(
        fields["response_format"]["json_schema"]["description"],
        "Tomorrow's weather."
    );
}

/// The strict schemas of a structured answer follow the same documented rules as strict tools
/// (`strict_rules.rs` walks them too); here: they are the tool's strict dialects, and valid
/// JSON Schema.
#[test]
fn answer_schemas_are_the_strict_dialects() {
    for dialect in [
        Dialect::OpenAiStrict,
        Dialect::AnthropicStrict,
        Dialect::Gemini,
    ] {
        let expected = toolgen::dialect_schema(EmitFlashcards::INPUT_SCHEMA, dialect).unwrap();
        assert_eq!(
            CARDS.schema(dialect),
            Some(expected.as_str()),
            "{dialect:?}"
        );
        let schema: Value = serde_json::from_str(&expected).unwrap();
        jsonschema::draft202012::meta::validate(&schema).unwrap();
    }
    assert_eq!(
        CARDS.schema(Dialect::Standard),
        Some(EmitFlashcards::INPUT_SCHEMA)
    );
}

const OPENAI_FILE: &str = "openai-tools.openapi-subset.json";

fn openai_validator(spec: &Value, pointer: &str) -> jsonschema::Validator {
    let mut root = spec.clone();
    let object = root.as_object_mut().expect("the spec is an object");
    object.insert("$ref".to_owned(), json!(pointer));
    object.insert(
        "$schema".to_owned(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    jsonschema::draft202012::new(&root).unwrap_or_else(|e| panic!("{pointer}: {e}"))
}

#[test]
fn openai_fields_are_what_the_spec_takes() {
    let Some(dir) = spec_folder::specs_dir("openai_fields_are_what_the_spec_takes") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join(OPENAI_FILE)).unwrap();
    let spec: Value = serde_json::from_str(&text).unwrap();
    let checks: [(&str, &str, Provider, Route, &str); 5] = [
        (
            "#/components/schemas/ResponseFormatJsonSchema",
            "response_format",
            Provider::OpenAiChat,
            Route::Native,
            "",
        ),
        (
            "#/components/schemas/ResponseTextParam",
            "text",
            Provider::OpenAiResponses,
            Route::Native,
            "",
        ),
        (
            "#/components/schemas/ChatCompletionTool",
            "tools",
            Provider::OpenAiChat,
            Route::Tool,
            "/0",
        ),
        (
            "#/components/schemas/FunctionTool",
            "tools",
            Provider::OpenAiResponses,
            Route::Tool,
            "/0",
        ),
        (
            "#/components/schemas/ChatCompletionToolChoiceOption",
            "tool_choice",
            Provider::OpenAiChat,
            Route::Tool,
            "",
        ),
    ];
    for (pointer, key, provider, route, inner) in checks {
        let validator = openai_validator(&spec, pointer);
        for fields in [
            match route {
                Route::Native => CARDS.request_fields(provider),
                Route::Tool => CARDS_BY_TOOL.request_fields(provider),
            },
            match route {
                Route::Native => WEATHER.request_fields(provider),
                Route::Tool => WEATHER_BY_TOOL.request_fields(provider),
            },
        ] {
            let value = fields[key].pointer(inner).unwrap_or(&Value::Null).clone();
            if let Err(error) = validator.validate(&value) {
                panic!("{key} for {provider}: not a {pointer}: {error}\n{value:#}");
            }
        }
    }
    // The check can fail: a `json_schema` without its name is not what Chat takes.
    let validator = openai_validator(&spec, "#/components/schemas/ResponseFormatJsonSchema");
    let mut broken = WEATHER.request_fields(Provider::OpenAiChat)["response_format"].clone();
    broken["json_schema"]
        .as_object_mut()
        .unwrap()
        .remove("name");
    assert!(!validator.is_valid(&broken));
}

// ---------------------------------------------------------------------------------------------
// Whole responses.

/// `provider`'s whole response whose answer is `text`, with the thoughts or reasoning each
/// provider puts before it (skipped by the reader).
fn native_response(provider: Provider, text: &str) -> Value {
    match provider {
        Provider::OpenAiChat => json!({"id": "chatcmpl-1", "object": "chat.completion",
            "created": 1, "model": "gpt-4.1",
            "choices": [{"index": 0, "finish_reason": "stop", "logprobs": null, "message":
                {"role": "assistant", "content": text, "refusal": null, "annotations": []}}]}),
        Provider::OpenAiResponses => json!({"id": "resp_1", "object": "response",
            "status": "completed", "incomplete_details": null, "output": [
                {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Cards."}]},
                {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                 "content": [{"type": "output_text", "text": text, "annotations": []}]}]}),
        Provider::Anthropic => json!({"id": "msg_1", "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-5", "stop_reason": "end_turn", "stop_sequence": null,
            "content": [{"type": "thinking", "thinking": "Cards.", "signature": "sig"},
                {"type": "text", "text": text}]}),
        Provider::Gemini => json!({"candidates": [{"index": 0, "finishReason": "STOP",
            "content": {"role": "model", "parts": [{"text": "Cards.", "thought": true},
                {"text": text}]}}], "modelVersion": "gemini-2.5-flash"}),
        Provider::Mcp => json!({"jsonrpc": "2.0", "id": 1, "result": {"role": "assistant",
            "model": "claude", "stopReason": "endTurn", "content": {"type": "text", "text": text}}}),
        _ => unreachable!(),
    }
}

/// `provider`'s whole response calling `name` with `arguments`.
fn tool_response(provider: Provider, name: &str, arguments: &str) -> Value {
    let args: Value = serde_json::from_str(arguments).unwrap_or(Value::Null);
    match provider {
        Provider::OpenAiChat => json!({"choices": [{"index": 0, "finish_reason": "stop",
            "message": {"role": "assistant", "content": null, "refusal": null, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}]}}]}),
        Provider::OpenAiResponses => json!({"status": "completed", "output": [
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": name,
             "arguments": arguments, "status": "completed"}]}),
        Provider::Anthropic => json!({"type": "message", "role": "assistant",
            "stop_reason": "tool_use", "content": [
                {"type": "text", "text": "Here are the cards."},
                {"type": "tool_use", "id": "toolu_1", "name": name, "input": args}]}),
        Provider::Gemini => json!({"candidates": [{"finishReason": "STOP", "content":
            {"role": "model", "parts": [{"functionCall": {"name": name, "args": args}}]}}]}),
        _ => unreachable!(),
    }
}

#[test]
fn answers_from_whole_responses() {
    let expected = expected_cards();
    for provider in PROVIDERS.into_iter().chain([Provider::Mcp]) {
        let response = native_response(provider, ANSWER);
        assert_eq!(
            CARDS.parse(provider, &response).unwrap(),
            expected,
            "{provider}"
        );
    }
    for provider in PROVIDERS {
        let response = tool_response(provider, "emit_flashcards", ANSWER);
        assert_eq!(
            CARDS_BY_TOOL.parse(provider, &response).unwrap(),
            expected,
            "{provider}"
        );
        // A call of another tool is not the answer.
        let other = tool_response(provider, "get_weather", ANSWER);
        assert!(
            matches!(
                CARDS_BY_TOOL.parse(provider, &other),
                Err(AnswerError::NoAnswer { .. })
            ),
            "{provider}"
        );
    }
}

/// OpenAI strict's `null`s for defaulted fields are dropped, defaults filled and constraints
/// checked, as for tool arguments.
#[test]
fn answers_are_parsed_as_arguments_are() {
    let text = r#"{"city": "Riga", "celsius": 4, "note": null}"#;
    let weather = WEATHER
        .parse(
            Provider::OpenAiChat,
            &native_response(Provider::OpenAiChat, text),
        )
        .unwrap();
    assert_eq!(
        weather,
        Weather {
            city: "Riga".into(),
            celsius: 4,
            note: None
        }
    );
    let err = WEATHER
        .parse_text(r#"{"city": "Riga", "celsius": 70}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid answer at `celsius`: must be at most 60, not 70"
    );
    // The seed's `#[tool(default = "word")]` fills a `unit` the model left out.
    let cards = CARDS
        .parse_text(r#"{"flashcards": [{"base_form": "un", "contexts": [], "visible": true}]}"#)
        .unwrap();
    assert_eq!(
        cards.flashcards.0[0].unit,
        seed_tools::flashcards::Unit::Word
    );
    // A model without structured outputs writes its JSON in a Markdown fence: read inside it.
    let fenced = "```json\n{\"city\": \"Riga\", \"celsius\": 4}\n```";
    assert_eq!(WEATHER.parse_text(fenced).unwrap().city, "Riga");
    let err = WEATHER
        .parse_text("```json\n{\"city\": 4}\n```")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid answer at `city`: invalid type: integer `4`, expected a string"
    );
    let err = WEATHER.parse_text("It is 4°C in Riga.").unwrap_err();
    assert!(matches!(&err, AnswerError::Invalid(e) if e.kind() == toolgen::ArgsErrorKind::Syntax));
    let err = CARDS.parse_text(r#"{"flashcards": []}"#).unwrap_err();
    assert!(
        matches!(&err, AnswerError::Invalid(e) if e.path() == "flashcards"),
        "{err}"
    );
}

fn chat_choice(finish_reason: &str, message: Value) -> Value {
    json!({"choices": [{"index": 0, "finish_reason": finish_reason, "message": message}]})
}

/// What each failure looks like in each provider's whole response, and the error it must give.
#[test]
fn every_failure_kind_for_every_provider() {
    let cut = r#"{"city": "Ri"#;
    let cases: Vec<(&str, Provider, Value)> = vec![
        // Refused.
        (
            "refused",
            Provider::OpenAiChat,
            chat_choice(
                "stop",
                json!({"role": "assistant", "content": null, "refusal": "I can't help with that."}),
            ),
        ),
        (
            "refused",
            Provider::OpenAiResponses,
            json!({"status": "completed", "output": [
            {"type": "message", "role": "assistant", "content": [
                {"type": "refusal", "refusal": "I can't help with that."}]}]}),
        ),
        (
            "refused",
            Provider::Anthropic,
            json!({"type": "message", "stop_reason": "refusal",
            "content": [{"type": "text", "text": "I can't help with that."}]}),
        ),
        // Cut off.
        (
            "cut_off",
            Provider::OpenAiChat,
            chat_choice(
                "length",
                json!({"role": "assistant", "content": cut, "refusal": null}),
            ),
        ),
        (
            "cut_off",
            Provider::OpenAiResponses,
            json!({"status": "incomplete",
            "incomplete_details": {"reason": "max_output_tokens"}, "output": [
                {"type": "message", "role": "assistant", "content": [
                    {"type": "output_text", "text": cut}]}]}),
        ),
        (
            "cut_off",
            Provider::Anthropic,
            json!({"type": "message", "stop_reason": "max_tokens",
            "content": [{"type": "text", "text": cut}]}),
        ),
        (
            "cut_off",
            Provider::Gemini,
            json!({"candidates": [{"finishReason": "MAX_TOKENS",
            "content": {"role": "model", "parts": [{"text": cut}]}}]}),
        ),
        (
            "cut_off",
            Provider::Mcp,
            json!({"role": "assistant", "model": "m",
            "stopReason": "maxTokens", "content": {"type": "text", "text": cut}}),
        ),
        // Blocked: a safety or content filter, a blocked prompt.
        (
            "blocked",
            Provider::OpenAiChat,
            chat_choice(
                "content_filter",
                json!({"role": "assistant", "content": null, "refusal": null}),
            ),
        ),
        (
            "blocked",
            Provider::OpenAiResponses,
            json!({"status": "incomplete",
            "incomplete_details": {"reason": "content_filter"}, "output": []}),
        ),
        (
            "blocked",
            Provider::Gemini,
            json!({"candidates": [{"finishReason": "SAFETY",
            "safetyRatings": [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT",
                "probability": "HIGH", "blocked": true}]}]}),
        ),
        (
            "blocked",
            Provider::Gemini,
            json!({"promptFeedback": {"blockReason": "SAFETY"}}),
        ),
        // Failed.
        (
            "failed",
            Provider::OpenAiResponses,
            json!({"status": "failed", "output": [],
            "error": {"code": "server_error", "message": "The model failed."}}),
        ),
        (
            "failed",
            Provider::Mcp,
            json!({"jsonrpc": "2.0", "id": 1,
            "error": {"code": -1, "message": "User rejected sampling request"}}),
        ),
        // No answer.
        ("no_answer", Provider::OpenAiChat, json!({"choices": []})),
        (
            "no_answer",
            Provider::OpenAiChat,
            chat_choice(
                "stop",
                json!({"role": "assistant", "content": null, "refusal": null}),
            ),
        ),
        (
            "no_answer",
            Provider::OpenAiResponses,
            json!({"status": "completed", "output": [
            {"type": "reasoning", "id": "rs_1", "summary": []}]}),
        ),
        (
            "no_answer",
            Provider::Anthropic,
            json!({"type": "message", "stop_reason": "end_turn",
            "content": []}),
        ),
        (
            "no_answer",
            Provider::Gemini,
            json!({"candidates": [{"finishReason": "STOP",
            "content": {"role": "model", "parts": [{"text": "Hmm.", "thought": true}]}}]}),
        ),
        (
            "no_answer",
            Provider::Mcp,
            json!({"role": "assistant", "model": "m",
            "content": {"type": "image", "data": "", "mimeType": "image/png"}}),
        ),
        // Invalid: the text is not the type.
        (
            "invalid",
            Provider::OpenAiChat,
            native_response(Provider::OpenAiChat, "Riga, 4°C"),
        ),
        (
            "invalid",
            Provider::OpenAiResponses,
            native_response(Provider::OpenAiResponses, r#"{"city": 4}"#),
        ),
        (
            "invalid",
            Provider::Anthropic,
            native_response(Provider::Anthropic, r#"{"city": "Riga"}"#),
        ),
        (
            "invalid",
            Provider::Gemini,
            native_response(Provider::Gemini, r#"{"city": "Riga", "celsius": 99}"#),
        ),
        (
            "invalid",
            Provider::Mcp,
            native_response(Provider::Mcp, "[]"),
        ),
        // Malformed: not the provider's shape.
        (
            "malformed",
            Provider::OpenAiChat,
            json!({"choices": [{"message": {"content": 7}}]}),
        ),
        (
            "malformed",
            Provider::OpenAiResponses,
            json!({"output": {"type": "message"}}),
        ),
        (
            "malformed",
            Provider::Anthropic,
            json!({"content": [{"type": "text", "text": ["a"]}]}),
        ),
        (
            "malformed",
            Provider::Gemini,
            json!({"candidates": [{"content": {"parts": "text"}}]}),
        ),
        ("malformed", Provider::Mcp, json!("text")),
    ];
    let mut seen = std::collections::BTreeSet::new();
    for (kind, provider, response) in &cases {
        let err = WEATHER.parse(*provider, response).unwrap_err();
        let got = kind_of(&err);
        assert_eq!(got, *kind, "{provider}: {err}\n{response:#}");
        seen.insert((*kind, provider.name()));
        // The tool route reads the same stop reasons (and has no call here).
        let by_tool = WEATHER_BY_TOOL.parse(*provider, response);
        let expected_by_tool = match *kind {
            "invalid" if *provider != Provider::Mcp => "no_answer",
            kind => kind,
        };
        assert_eq!(
            kind_of(&by_tool.unwrap_err()),
            expected_by_tool,
            "{provider} tool route"
        );
    }
    // Every kind for every provider that has it: Gemini and MCP have no refusal, Anthropic no
    // content filter apart from its refusal, and only the Responses API and MCP report a failure
    // in a whole response.
    // 30 cases; Gemini's blocked and Chat's empty answers are two cases each.
    assert_eq!((cases.len(), seen.len()), (30, 28));
    let err = WEATHER
        .parse(Provider::OpenAiChat, &cases[3].2)
        .unwrap_err();
    assert_eq!(
        err,
        AnswerError::CutOff {
            provider: Provider::OpenAiChat,
            partial: cut.to_owned()
        }
    );
    assert_eq!(
        WEATHER
            .parse(
                Provider::Anthropic,
                &json!({"content": [{"type": "text", "text": ["a"]}]})
            )
            .unwrap_err()
            .to_string(),
        "malformed Anthropic response at `content[0].text`: invalid type: sequence, expected a string"
    );
}

fn kind_of(err: &AnswerError) -> &'static str {
    match err {
        AnswerError::Refused { .. } => "refused",
        AnswerError::CutOff { .. } => "cut_off",
        AnswerError::Blocked { .. } => "blocked",
        AnswerError::Failed { .. } => "failed",
        AnswerError::NoAnswer { .. } => "no_answer",
        AnswerError::Invalid(_) => "invalid",
        AnswerError::Malformed(_) => "malformed",
        AnswerError::Stream(_) => "stream",
        _ => "other",
    }
}

/// A forced call whose arguments were cut off is a cut-off answer, not a parse error.
#[test]
fn a_cut_off_call_is_a_cut_off_answer() {
    let cut = r#"{"flashcards": [{"base_form": "mā"#;
    let mut response = tool_response(Provider::OpenAiChat, "emit_flashcards", cut);
    response["choices"][0]["finish_reason"] = json!("length");
    let err = CARDS_BY_TOOL
        .parse(Provider::OpenAiChat, &response)
        .unwrap_err();
    assert_eq!(
        err,
        AnswerError::CutOff {
            provider: Provider::OpenAiChat,
            partial: cut.to_owned()
        }
    );
    let mut response = tool_response(Provider::Anthropic, "emit_flashcards", ANSWER);
    response["stop_reason"] = json!("max_tokens");
    assert!(matches!(
        CARDS_BY_TOOL.parse(Provider::Anthropic, &response),
        Err(AnswerError::CutOff { .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// Streams.

/// `provider`'s stream events writing `pieces` as the answer's text, then `stop`.
fn native_events(provider: Provider, pieces: &[&str], stop: &str) -> Vec<Value> {
    let mut events = Vec::new();
    match provider {
        Provider::OpenAiChat => {
            events.push(json!({"object": "chat.completion.chunk", "choices": [{"index": 0,
                "delta": {"role": "assistant", "content": "", "refusal": null}, "finish_reason": null}]}));
            for piece in pieces {
                events.push(
                    json!({"object": "chat.completion.chunk", "choices": [{"index": 0,
                    "delta": {"content": piece}, "finish_reason": null}]}),
                );
            }
            events.push(
                json!({"object": "chat.completion.chunk", "choices": [{"index": 0,
                "delta": {}, "finish_reason": stop}]}),
            );
            events.push(json!({"object": "chat.completion.chunk", "choices": [],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}));
        }
        Provider::OpenAiResponses => {
            events.push(json!({"type": "response.created", "response": {"status": "in_progress", "output": []}}));
            events.push(
                json!({"type": "response.output_item.added", "output_index": 0,
                "item": {"type": "reasoning", "id": "rs_1", "summary": []}}),
            );
            events.push(
                json!({"type": "response.reasoning_summary_text.delta", "item_id": "rs_1",
                "output_index": 0, "summary_index": 0, "delta": "Cards."}),
            );
            events.push(
                json!({"type": "response.output_item.added", "output_index": 1,
                "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": []}}),
            );
            for piece in pieces {
                events.push(
                    json!({"type": "response.output_text.delta", "item_id": "msg_1",
                    "output_index": 1, "content_index": 0, "delta": piece}),
                );
            }
            let text: String = pieces.concat();
            events.push(
                json!({"type": "response.output_text.done", "item_id": "msg_1",
                "output_index": 1, "content_index": 0, "text": text}),
            );
            events.push(match stop {
                "completed" => {
                    json!({"type": "response.completed", "response": {"status": "completed"}})
                }
                reason => {
                    json!({"type": "response.incomplete", "response": {"status": "incomplete",
                    "incomplete_details": {"reason": reason}}})
                }
            });
        }
        Provider::Anthropic => {
            events.push(
                json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
                "role": "assistant", "content": [], "stop_reason": null}}),
            );
            events.push(json!({"type": "content_block_start", "index": 0,
                "content_block": {"type": "thinking", "thinking": "", "signature": ""}}));
            events.push(json!({"type": "content_block_delta", "index": 0,
                "delta": {"type": "thinking_delta", "thinking": "{\"not\": \"this\"}"}}));
            events.push(json!({"type": "content_block_stop", "index": 0}));
            events.push(json!({"type": "content_block_start", "index": 1,
                "content_block": {"type": "text", "text": ""}}));
            for piece in pieces {
                events.push(json!({"type": "content_block_delta", "index": 1,
                    "delta": {"type": "text_delta", "text": piece}}));
            }
            events.push(json!({"type": "content_block_stop", "index": 1}));
            events.push(
                json!({"type": "message_delta", "delta": {"stop_reason": stop,
                "stop_sequence": null}, "usage": {"output_tokens": 9}}),
            );
            events.push(json!({"type": "message_stop"}));
        }
        Provider::Gemini => {
            events.push(json!({"candidates": [{"content": {"role": "model",
                "parts": [{"text": "Cards.", "thought": true}]}}]}));
            for piece in pieces {
                events.push(json!({"candidates": [{"content": {"role": "model",
                    "parts": [{"text": piece}]}}]}));
            }
            events.push(
                json!({"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]},
                "finishReason": stop}], "usageMetadata": {"totalTokenCount": 9}}),
            );
        }
        _ => unreachable!(),
    }
    events
}

/// `provider`'s stream events calling `name` with arguments written in `pieces`.
fn tool_events(provider: Provider, name: &str, pieces: &[&str]) -> Vec<Value> {
    let mut events = Vec::new();
    let arguments: String = pieces.concat();
    match provider {
        Provider::OpenAiChat => {
            events.push(
                json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": null,
                "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                    "function": {"name": name, "arguments": ""}}]}, "finish_reason": null}]}),
            );
            for piece in pieces {
                events.push(
                    json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
                    "function": {"arguments": piece}}]}, "finish_reason": null}]}),
                );
            }
            events.push(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}));
        }
        Provider::OpenAiResponses => {
            events.push(json!({"type": "response.output_item.added", "output_index": 0, "item": {
                "type": "function_call", "id": "fc_1", "call_id": "call_1", "name": name, "arguments": ""}}));
            for piece in pieces {
                events.push(
                    json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1",
                    "output_index": 0, "delta": piece}),
                );
            }
            events.push(
                json!({"type": "response.output_item.done", "output_index": 0, "item": {
                "type": "function_call", "id": "fc_1", "call_id": "call_1", "name": name,
                "arguments": arguments}}),
            );
            events.push(json!({"type": "response.completed", "response": {"status": "completed"}}));
        }
        Provider::Anthropic => {
            events.push(
                json!({"type": "content_block_start", "index": 0, "content_block":
                {"type": "tool_use", "id": "toolu_1", "name": name, "input": {}}}),
            );
            for piece in pieces {
                events.push(json!({"type": "content_block_delta", "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": piece}}));
            }
            events.push(json!({"type": "content_block_stop", "index": 0}));
            events.push(json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}));
        }
        Provider::Gemini => {
            let args: Value = serde_json::from_str(&arguments).unwrap();
            events.push(
                json!({"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"name": name, "args": args}}]}, "finishReason": "STOP"}]}),
            );
        }
        _ => unreachable!(),
    }
    events
}

fn stop_of(provider: Provider) -> &'static str {
    match provider {
        Provider::OpenAiChat => "stop",
        Provider::OpenAiResponses => "completed",
        Provider::Anthropic => "end_turn",
        _ => "STOP",
    }
}

/// The answer's text cut at `cuts` (character boundaries), as a stream's deltas.
fn pieces_at(text: &str, cuts: &[usize]) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut start = 0;
    for &cut in cuts {
        pieces.push(text[start..cut].to_owned());
        start = cut;
    }
    pieces.push(text[start..].to_owned());
    pieces
}

fn read_stream(
    output: &Structured<EmitFlashcards>,
    provider: Provider,
    events: &[Value],
) -> Result<EmitFlashcards, AnswerError> {
    let mut stream = output.stream(provider);
    for event in events {
        stream.push(event)?;
        stream.partial();
    }
    stream.finish()
}

#[test]
fn streams_resplit_at_every_character_give_the_same_answer() {
    let expected = expected_cards();
    let boundaries: Vec<usize> = ANSWER.char_indices().map(|(i, _)| i).skip(1).collect();
    for provider in PROVIDERS {
        for cut in &boundaries {
            let pieces = pieces_at(ANSWER, &[*cut]);
            let pieces: Vec<&str> = pieces.iter().map(String::as_str).collect();
            let events = native_events(provider, &pieces, stop_of(provider));
            assert_eq!(
                read_stream(&CARDS, provider, &events).unwrap(),
                expected,
                "{provider} cut at {cut}"
            );
            if provider != Provider::Gemini {
                let events = tool_events(provider, "emit_flashcards", &pieces);
                assert_eq!(
                    read_stream(&CARDS_BY_TOOL, provider, &events).unwrap(),
                    expected,
                    "{provider} tool route cut at {cut}"
                );
            }
        }
        // One character at a time: the partial value grows with every delta, and ends as the
        // answer.
        let pieces = pieces_at(ANSWER, &boundaries);
        let pieces: Vec<&str> = pieces.iter().map(String::as_str).collect();
        for (output, events) in [
            (&CARDS, native_events(provider, &pieces, stop_of(provider))),
            (
                &CARDS_BY_TOOL,
                tool_events(provider, "emit_flashcards", &pieces),
            ),
        ] {
            let mut stream = output.stream(provider);
            let mut partials = 0;
            let mut last = None;
            for event in &events {
                stream.push(event).unwrap();
                if let Some(partial) = stream.partial() {
                    partials += 1;
                    last = Some(partial.clone());
                }
            }
            let whole: Value = serde_json::from_str(ANSWER).unwrap();
            assert_eq!(
                last.as_ref(),
                Some(&whole),
                "{provider} {:?}",
                output.route()
            );
            if provider != Provider::Gemini || output.route() == Route::Native {
                assert!(
                    partials > ANSWER.chars().count() / 2,
                    "{provider}: {partials} partials"
                );
            }
            assert_eq!(stream.finish().unwrap(), expected);
        }
    }
}

#[test]
fn every_failure_kind_in_streams() {
    let cut = [r#"{"flashcards": [{"base_"#];
    // Cut off.
    for (provider, stop) in [
        (Provider::OpenAiChat, "length"),
        (Provider::OpenAiResponses, "max_output_tokens"),
        (Provider::Anthropic, "max_tokens"),
        (Provider::Gemini, "MAX_TOKENS"),
    ] {
        let err = read_stream(&CARDS, provider, &native_events(provider, &cut, stop)).unwrap_err();
        assert_eq!(
            err,
            AnswerError::CutOff {
                provider,
                partial: cut[0].to_owned()
            }
        );
    }
    // Blocked.
    for (provider, stop) in [
        (Provider::OpenAiChat, "content_filter"),
        (Provider::OpenAiResponses, "content_filter"),
        (Provider::Gemini, "SAFETY"),
    ] {
        let err = read_stream(&CARDS, provider, &native_events(provider, &cut, stop)).unwrap_err();
        assert!(
            matches!(err, AnswerError::Blocked { .. }),
            "{provider}: {err}"
        );
    }
    let blocked = [json!({"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"}})];
    for output in [&CARDS, &CARDS_BY_TOOL] {
        let err = read_stream(output, Provider::Gemini, &blocked).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the Google Gemini answer was stopped: PROHIBITED_CONTENT"
        );
    }
    // Refused.
    let chat = [
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "refusal": "I can't "}, "finish_reason": null}]}),
        json!({"choices": [{"index": 0, "delta": {"refusal": "help with that."}, "finish_reason": null}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
    ];
    let responses = [
        json!({"type": "response.refusal.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "I can't "}),
        json!({"type": "response.refusal.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "help with that."}),
        json!({"type": "response.refusal.done", "item_id": "msg_1", "output_index": 0, "content_index": 0, "refusal": "I can't help with that."}),
        json!({"type": "response.completed", "response": {"status": "completed"}}),
    ];
    let anthropic = native_events(
        Provider::Anthropic,
        &["I can't ", "help with that."],
        "refusal",
    );
    for (provider, events) in [
        (Provider::OpenAiChat, &chat[..]),
        (Provider::OpenAiResponses, &responses[..]),
        (Provider::Anthropic, &anthropic[..]),
    ] {
        for output in [&CARDS, &CARDS_BY_TOOL] {
            let err = read_stream(output, provider, events).unwrap_err();
            assert_eq!(
                err,
                AnswerError::Refused {
                    provider,
                    message: "I can't help with that.".to_owned()
                },
                "{provider}"
            );
        }
    }
    // Failed: an error event ends the stream at once.
    for (provider, event) in [
        (
            Provider::Anthropic,
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        ),
        (
            Provider::OpenAiResponses,
            json!({"type": "error", "code": "server_error", "message": "The model failed."}),
        ),
        (
            Provider::OpenAiResponses,
            json!({"type": "response.failed", "response": {"status": "failed",
            "error": {"code": "server_error", "message": "The model failed."}}}),
        ),
        (
            Provider::OpenAiChat,
            json!({"error": {"message": "Provider returned error", "code": 502}}),
        ),
    ] {
        for output in [&CARDS, &CARDS_BY_TOOL] {
            let mut stream = output.stream(provider);
            let err = stream.push(&event).unwrap_err();
            assert!(
                matches!(err, AnswerError::Failed { .. }),
                "{provider}: {err}"
            );
        }
    }
    // No answer: a stream that ends with nothing, or (tool route) without the answer tool's call.
    for provider in PROVIDERS {
        let err = read_stream(
            &CARDS,
            provider,
            &native_events(provider, &[], stop_of(provider)),
        )
        .unwrap_err();
        assert!(
            matches!(err, AnswerError::NoAnswer { .. }),
            "{provider}: {err}"
        );
        let events = tool_events(provider, "get_weather", &[r#"{"city": "Riga"}"#]);
        let err = read_stream(&CARDS_BY_TOOL, provider, &events).unwrap_err();
        assert!(
            matches!(err, AnswerError::NoAnswer { .. }),
            "{provider}: {err}"
        );
    }
    // Cut off inside the answer tool's call: the stream ended without closing it.
    let mut events = tool_events(Provider::OpenAiChat, "emit_flashcards", &cut);
    events.pop();
    let err = read_stream(&CARDS_BY_TOOL, Provider::OpenAiChat, &events).unwrap_err();
    assert!(matches!(err, AnswerError::CutOff { .. }), "{err}");
    // Malformed events are errors, and leave the stream as it was.
    let mut stream = CARDS.stream(Provider::Anthropic);
    for event in native_events(Provider::Anthropic, &[ANSWER], "end_turn") {
        let bad = json!({"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": 5}});
        let err = stream.push(&bad).unwrap_err();
        assert_eq!(
            err.to_string(),
            "malformed Anthropic stream event at `delta.text`: invalid type: integer `5`, expected a string"
        );
        stream.push(&event).unwrap();
    }
    assert_eq!(stream.finish().unwrap(), expected_cards());
}

/// `examples/structured_output.rs` (whose seed tools this file uses): every provider's native,
/// tool-route and streamed answers agree, and the refusal is one.
#[test]
fn the_example_reads_every_provider() {
    for (provider, text) in example::RECORDED {
        let recorded: Value = serde_json::from_str(text).unwrap();
        let cards = example::answers(provider, &recorded).unwrap();
        assert_eq!(cards.flashcards.0.len(), 2, "{provider}");
        assert_eq!(cards.flashcards.0[1].base_form, "labdien");
    }
}

// ---------------------------------------------------------------------------------------------
// Recorded traffic (`tests/traffic/structured/`, see its SOURCES.md): real responses and streams
// of structured outputs from the SDKs' and frameworks' test suites.

/// Any object: serde skips the fields, so every recorded answer that is an object reads.
#[derive(ToolSchema, Deserialize, Debug)]
struct AnyObject {}

static ANY: Structured<AnyObject> = Structured::new(Route::Native);

#[test]
fn recorded_answers_are_read() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/traffic/structured");
    let read = |file: &str| std::fs::read_to_string(dir.join(file)).unwrap();
    let expected: serde_json::Map<String, Value> =
        serde_json::from_str(&read("expected.json")).unwrap();
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    for (file, want) in &expected {
        let provider = match file.split('/').next().unwrap() {
            "anthropic" => Provider::Anthropic,
            "openai_chat" => Provider::OpenAiChat,
            "openai_responses" => Provider::OpenAiResponses,
            "gemini" => Provider::Gemini,
            other => panic!("{other}"),
        };
        let text = read(file);
        let (answer, result) = if file.ends_with(".chunks.txt") {
            let mut stream = ANY.stream(provider);
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let event: Value = serde_json::from_str(line).unwrap();
                stream
                    .push(&event)
                    .unwrap_or_else(|e| panic!("{file}: {e}"));
                stream.partial();
            }
            let answer = stream.text().to_owned();
            (Ok(answer), stream.finish().map(|_| ()))
        } else {
            let response: Value = serde_json::from_str(&text).unwrap();
            (
                ANY.answer_text(provider, &response),
                ANY.parse(provider, &response).map(|_| ()),
            )
        };
        match (
            want.get("answer"),
            want.get("error").and_then(Value::as_str),
        ) {
            (Some(value), _) => {
                let answer = answer.unwrap_or_else(|e| panic!("{file}: {e}"));
                let read: Value = serde_json::from_str(&answer).unwrap();
                assert_eq!(&read, value, "{file}");
                match (value.is_object(), result) {
                    (true, Ok(())) => {}
                    // A top-level array is no object: `AnyObject` refuses it, by its path.
                    (false, Err(AnswerError::Invalid(_))) => {}
                    (_, other) => panic!("{file}: {other:?}"),
                }
                *counts.entry(format!("{provider} answer")).or_default() += 1;
            }
            (None, Some(kind)) => {
                let err = result.unwrap_err();
                let got = match kind_of(&err) {
                    "blocked" => "safety",
                    "refused" => "refusal",
                    other => other,
                };
                assert_eq!(got, kind, "{file}: {err}");
                if let (Some(message), AnswerError::Refused { message: got, .. }) =
                    (want.get("text").and_then(Value::as_str), &err)
                {
                    assert_eq!(got, message, "{file}");
                }
                *counts.entry(format!("{provider} {kind}")).or_default() += 1;
            }
            _ => panic!("{file}: {want}"),
        }
    }
    assert_eq!(expected.len(), 38, "{counts:?}");
}

/// Gemini's `FinishReason`, every value the API reference documents
/// (<https://ai.google.dev/api/generate-content#FinishReason>; the google-genai SDKs'
/// `FinishReason` lists the same), with its documented meaning and what toolgen makes of it:
/// the answer, or the kind of [`AnswerError`] (`kind_of`).
const GEMINI_FINISH_REASONS: [(&str, &str, &str); 20] = [
    (
        "FINISH_REASON_UNSPECIFIED",
        "Default value. This value is unused.",
        "answer",
    ),
    (
        "STOP",
        "Natural stop point of the model or provided stop sequence.",
        "answer",
    ),
    (
        "MAX_TOKENS",
        "The maximum number of tokens as specified in the request was reached.",
        "cut_off",
    ),
    (
        "SAFETY",
        "The response candidate content was flagged for safety reasons.",
        "blocked",
    ),
    (
        "RECITATION",
        "The response candidate content was flagged for recitation reasons.",
        "blocked",
    ),
    (
        "LANGUAGE",
        "The response candidate content was flagged for using an unsupported language.",
        "stopped",
    ),
    ("OTHER", "Unknown reason.", "stopped"),
    (
        "BLOCKLIST",
        "Token generation stopped because the content contains forbidden terms.",
        "blocked",
    ),
    (
        "PROHIBITED_CONTENT",
        "Token generation stopped for potentially containing prohibited content.",
        "blocked",
    ),
    (
        "SPII",
        "Token generation stopped because the content potentially contains Sensitive Personally Identifiable Information (SPII).",
        "blocked",
    ),
    (
        "MALFORMED_FUNCTION_CALL",
        "The function call generated by the model is invalid.",
        "call_failed",
    ),
    (
        "IMAGE_SAFETY",
        "Token generation stopped because generated images contain safety violations.",
        "blocked",
    ),
    (
        "IMAGE_PROHIBITED_CONTENT",
        "Image generation stopped because generated images has other prohibited content.",
        "blocked",
    ),
    (
        "IMAGE_OTHER",
        "Image generation stopped because of other miscellaneous issue.",
        "stopped",
    ),
    (
        "NO_IMAGE",
        "The model was expected to generate an image, but none was generated.",
        "stopped",
    ),
    (
        "IMAGE_RECITATION",
        "Image generation stopped due to recitation.",
        "blocked",
    ),
    (
        "UNEXPECTED_TOOL_CALL",
        "Model generated a tool call but no tools were enabled in the request.",
        "call_failed",
    ),
    (
        "TOO_MANY_TOOL_CALLS",
        "Model called too many tools consecutively, thus the system exited execution.",
        "call_failed",
    ),
    (
        "MISSING_THOUGHT_SIGNATURE",
        "Request has at least one thought signature missing.",
        "stopped",
    ),
    (
        "MALFORMED_RESPONSE",
        "Finished due to malformed response.",
        "stopped",
    ),
];

fn kind_or_answer<T>(result: &Result<T, AnswerError>) -> &'static str {
    match result {
        Ok(_) => "answer",
        Err(AnswerError::CallFailed { .. }) => "call_failed",
        Err(AnswerError::Stopped { .. }) => "stopped",
        Err(err) => kind_of(err),
    }
}

/// Each documented `finishReason` is read by its meaning, in a whole response and in a stream,
/// on both routes: a filter is `Blocked`, a call Gemini would not pass on is `CallFailed` (which
/// a caller can ask again for), any other stop `Stopped`; none of those is taken for the answer.
#[test]
fn every_documented_gemini_finish_reason_by_its_meaning() {
    let text = r#"{"city": "Riga", "celsius": 4}"#;
    for (reason, _, expected) in GEMINI_FINISH_REASONS {
        let mut native = native_response(Provider::Gemini, text);
        native["candidates"][0]["finishReason"] = json!(reason);
        let got = kind_or_answer(&WEATHER.parse(Provider::Gemini, &native));
        assert_eq!(got, expected, "{reason}, native");

        let mut called = tool_response(Provider::Gemini, WEATHER.name(), text);
        called["candidates"][0]["finishReason"] = json!(reason);
        let got = kind_or_answer(&WEATHER_BY_TOOL.parse(Provider::Gemini, &called));
        assert_eq!(got, expected, "{reason}, tool route");

        let events = native_events(Provider::Gemini, &[ANSWER], reason);
        let got = kind_or_answer(&read_stream(&CARDS, Provider::Gemini, &events));
        assert_eq!(got, expected, "{reason}, stream");
    }
    let err = WEATHER
        .parse(
            Provider::Gemini,
            &json!({"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL"}]}),
        )
        .unwrap_err();
    assert_eq!(
        err,
        AnswerError::CallFailed {
            provider: Provider::Gemini,
            reason: "MALFORMED_FUNCTION_CALL".to_owned(),
            partial: String::new(),
        }
    );
    assert_eq!(
        err.to_string(),
        "the Google Gemini model's tool call failed (MALFORMED_FUNCTION_CALL); asking again may work"
    );
    let err = WEATHER
        .parse(
            Provider::Gemini,
            &json!({"candidates": [{"finishReason": "LANGUAGE"}]}),
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the Google Gemini model stopped before its answer's end: LANGUAGE"
    );
}

/// A tool-call turn that Gemini ended at a call it would not pass on (with no parts, as Gemini
/// sends it) is an error naming the reason, in a whole response and in a stream, not a turn
/// without calls; every other documented reason gives the calls there are.
#[test]
fn gemini_tool_call_turns_that_failed_at_the_call_say_so() {
    use toolgen::{ToolCall, ToolCallError, ToolCallStream};
    for (reason, _, expected) in GEMINI_FINISH_REASONS {
        let bare = json!({"candidates": [{"index": 0, "finishReason": reason}]});
        let mut with_call = tool_response(Provider::Gemini, "get_weather", r#"{"city": "Riga"}"#);
        with_call["candidates"][0]["finishReason"] = json!(reason);
        let mut stream = ToolCallStream::new(Provider::Gemini);
        let streamed = stream.push(&bare);
        if expected == "call_failed" {
            let failed = ToolCallError::CallFailed {
                provider: Provider::Gemini,
                reason: reason.to_owned(),
            };
            assert_eq!(
                ToolCall::parse(Provider::Gemini, &bare),
                Err(failed.clone())
            );
            assert_eq!(ToolCall::parse(Provider::Gemini, &with_call), Err(failed));
            let err = streamed.unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("the Google Gemini stream failed: the model's tool call failed ({reason})"),
            );
        } else {
            assert_eq!(
                ToolCall::parse(Provider::Gemini, &bare),
                Ok(Vec::new()),
                "{reason}"
            );
            let calls = ToolCall::parse(Provider::Gemini, &with_call).unwrap();
            assert_eq!(calls.len(), 1, "{reason}");
            assert_eq!(streamed.map(|calls| calls.len()), Ok(0), "{reason}");
        }
    }
}
