//! The offline agent turn of `examples/agent_turn.rs`, for every provider: recorded response in,
//! typed dispatch over the content agent's nine tools, results out, checked against what each
//! API expects (and, where the specs are at hand, against the specs themselves).

#[allow(dead_code)]
#[path = "../examples/agent_turn.rs"]
mod agent_turn;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use toolgen::Provider;

fn recorded(file: &str) -> Value {
    let path = format!("{}/examples/recorded/{file}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn anthropic_results_come_first_in_one_user_message() {
    let out = agent_turn::turn(Provider::Anthropic, &recorded("anthropic.json")).unwrap();
    assert_eq!(out.len(), 1);
    let message = &out[0];
    assert_eq!(message["role"], "user");
    let blocks = message["content"].as_array().unwrap();
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0]["type"], "tool_result");
    assert_eq!(blocks[0]["tool_use_id"], "toolu_01A09q90qw90lq917835lq9");
    assert!(blocks[0].get("is_error").is_none());
    // `platform: "tiktok"` is not a platform: the model is told where and why.
    assert_eq!(blocks[1]["tool_use_id"], "toolu_01B3kx8ZpPwNvTq2uZc8Wm1d");
    assert_eq!(blocks[1]["is_error"], true);
    let text = blocks[1]["content"].to_string();
    assert!(text.contains("platform"), "{text}");
    assert!(text.contains("unknown variant `tiktok`"), "{text}");
}

#[test]
fn openai_chat_answers_each_call_by_id() {
    let out = agent_turn::turn(Provider::OpenAiChat, &recorded("openai_chat.json")).unwrap();
    assert_eq!(out.len(), 2);
    assert_eq!(out[0]["role"], "tool");
    assert_eq!(out[0]["tool_call_id"], "call_Wd2vX8mZk1");
    // `limit: 3.5` is not a whole number: an error the model can read.
    assert_eq!(out[1]["tool_call_id"], "call_Qp7rT3nB9c");
    let text = out[1]["content"].as_str().unwrap();
    assert!(text.contains("limit"), "{text}");
}

#[test]
fn openai_responses_answer_by_call_id() {
    let out = agent_turn::turn(
        Provider::OpenAiResponses,
        &recorded("openai_responses.json"),
    )
    .unwrap();
    assert_eq!(
        out.iter().map(|o| o["call_id"].clone()).collect::<Vec<_>>(),
        [json!("call_9Xk2mPq"), json!("call_4Hn8vRt")]
    );
    assert_eq!(out[1]["type"], "function_call_output");
    assert_eq!(out[1]["output"], "Recorded TooFormal feedback.");
}

#[test]
fn gemini_missing_arguments_are_an_error_result() {
    let out = agent_turn::turn(Provider::Gemini, &recorded("gemini.json")).unwrap();
    assert_eq!(out.len(), 2);
    assert_eq!(out[0]["functionResponse"]["name"], "search_web");
    assert!(
        out[0]["functionResponse"]["response"]
            .get("output")
            .is_some()
    );
    let error = &out[1]["functionResponse"]["response"]["error"];
    assert!(
        error.to_string().contains("missing field `page_id`"),
        "{error}"
    );
}

#[test]
fn mcp_structured_results_keep_the_request_id() {
    let out = agent_turn::turn(Provider::Mcp, &recorded("mcp.json")).unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["id"], 7);
    let result = &out[0]["result"];
    assert_eq!(
        result["structuredContent"]["query"],
        "burnout statistics 2025"
    );
    // `isError` is optional in the spec and left out on success.
    assert!(result.get("isError").is_none_or(|e| e == false), "{result}");
}
