//! `examples/async_openai.rs`: toolgen's definitions, choices and messages through async-openai's
//! request and response types, and back. Each value that crosses is compared whole with what
//! toolgen wrote or read without async-openai, so a key its types drop or refuse fails here.

#[allow(dead_code)]
#[path = "../examples/async_openai.rs"]
mod recipe;

use async_openai::types::chat::{
    ChatCompletionRequestMessage, ChatCompletionTools, CreateChatCompletionRequest,
    CreateChatCompletionResponse,
};
use async_openai::types::responses::{CreateResponse, InputItem, InputParam, Response, Tool};
use pretty_assertions::assert_eq;
use recipe::recipe_tools::{recording, run_turn, seed_tools};
use recipe::{typed, untyped};
use serde_json::Value;
use toolgen::{Provider, ToolCall, ToolChoice};

/// The choices a request can carry, each with and without `parallel(false)`.
fn choices() -> Vec<ToolChoice> {
    let choices = [
        ToolChoice::auto(),
        ToolChoice::required(),
        ToolChoice::none(),
        ToolChoice::tool("get_weather"),
    ];
    choices
        .iter()
        .flat_map(|choice| [choice.clone(), choice.clone().parallel(false)])
        .collect()
}

/// `value` read into `T` and written back.
fn through<T: serde::de::DeserializeOwned + serde::Serialize>(value: &Value) -> Value {
    match typed::<T>(value) {
        Ok(typed) => untyped(&typed),
        Err(error) => panic!("{} refuses {value}: {error}", std::any::type_name::<T>()),
    }
}

#[test]
fn every_seed_tool_crosses_the_tool_types_whole() {
    for definition in seed_tools::definitions(Provider::OpenAiChat) {
        assert_eq!(through::<ChatCompletionTools>(&definition), definition);
    }
    for definition in seed_tools::definitions(Provider::OpenAiResponses) {
        assert_eq!(through::<Tool>(&definition), definition);
    }
}

#[test]
fn every_choice_crosses_the_request_types_whole() {
    for choice in choices() {
        let chat = recipe::chat_request_json(&choice);
        assert_eq!(through::<CreateChatCompletionRequest>(&chat), chat);
        let responses = recipe::responses_request_json(&choice);
        // async-openai writes the user message as the item it is, with its `"type"`.
        let mut expected = responses.clone();
        expected["input"][0]["type"] = "message".into();
        assert_eq!(through::<CreateResponse>(&responses), expected);
    }
}

/// The whole responses of a directory of `tests/traffic/`, by file name.
fn recordings(dir: &str) -> Vec<(String, Value)> {
    let path = format!("{}/tests/traffic/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&path)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".json"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let value = recording(&format!("{dir}/{name}"));
            (name, value)
        })
        .collect()
}

/// What async-openai's response type does to the recordings of `dir`: the files it refuses, with
/// its error; for the others, toolgen must read the same calls from the type's JSON as from the
/// recording, and the files whose next turn (the model's message written back, then the results)
/// differs are listed with the keys that differ.
async fn through_response<T: serde::de::DeserializeOwned + serde::Serialize>(
    provider: Provider,
    dir: &str,
) -> (Vec<(String, String)>, Vec<(String, Vec<String>)>) {
    let (mut refused, mut changed) = (Vec::new(), Vec::new());
    for (name, recorded) in recordings(dir) {
        let response = match typed::<T>(&recorded) {
            Ok(response) => untyped(&response),
            Err(error) => {
                refused.push((name, error.to_string()));
                continue;
            }
        };
        let calls = ToolCall::parse(provider, &recorded);
        assert_eq!(ToolCall::parse(provider, &response), calls, "{dir}/{name}");
        if calls.is_ok_and(|calls| !calls.is_empty()) {
            let typed = run_turn(provider, &response).await.unwrap().next;
            let direct = run_turn(provider, &recorded).await.unwrap().next;
            let keys = differing_keys(&typed[0], &direct[0]);
            assert_eq!(typed[1..], direct[1..], "{dir}/{name}: the results");
            if !keys.is_empty() {
                changed.push((name, keys));
            }
        }
    }
    (refused, changed)
}

/// The keys of two objects whose values differ (or that only one has), sorted.
fn differing_keys(left: &Value, right: &Value) -> Vec<String> {
    let (Some(left), Some(right)) = (left.as_object(), right.as_object()) else {
        return vec![String::new()];
    };
    let mut keys: Vec<String> = left
        .keys()
        .chain(right.keys())
        .filter(|key| left.get(*key) != right.get(*key))
        .cloned()
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

fn owned<const N: usize, T: ToString, U: Clone>(pairs: [(T, U); N]) -> Vec<(String, U)> {
    pairs
        .iter()
        .map(|(name, value)| (name.to_string(), value.clone()))
        .collect()
}

#[tokio::test]
async fn chat_completions_keep_their_calls() {
    let (refused, changed) =
        through_response::<CreateChatCompletionResponse>(Provider::OpenAiChat, "openai_chat").await;
    // Findings: what async-openai 0.43's `CreateChatCompletionResponse` refuses of what servers
    // send, and what it drops of the model's message, which the next turn sends back.
    assert_eq!(
        refused,
        owned([
            (
                "groq-tool-call.json",
                "unknown variant `on_demand`, expected one of `auto`, `default`, `flex`, `scale`, `priority`, `fast`".to_string(),
            ),
            ("handmade-no-arguments.json", "missing field `arguments`".to_string()),
            ("mistral-tool-call.json", "missing field `type`".to_string()),
        ])
    );
    assert_eq!(changed, owned::<0, String, Vec<String>>([]));
}

#[tokio::test]
async fn responses_keep_their_calls() {
    let (refused, changed) =
        through_response::<Response>(Provider::OpenAiResponses, "openai_responses").await;
    assert_eq!(refused, owned::<0, String, String>([]));
    assert_eq!(changed, owned::<0, String, Vec<String>>([]));
}

/// The next turn as toolgen writes it from the recording itself, without async-openai.
async fn next_without_async_openai(provider: Provider, recorded: &str) -> Vec<Value> {
    run_turn(provider, &recording(recorded)).await.unwrap().next
}

#[tokio::test]
async fn the_next_chat_turn_goes_into_request_messages_whole() {
    let recorded = "openai_chat/moonshotai-tool-call.json";
    let next = recipe::chat(recorded).await.unwrap();
    let messages: Vec<Value> = next.messages.iter().map(untyped).collect();
    let toolgen = next_without_async_openai(Provider::OpenAiChat, recorded).await;
    assert_eq!(toolgen[1]["content"], "12.0");
    // async-openai leaves out the assistant's `"content": null` (a tool-calling turn without
    // text), which the API reads the same as a missing `content`; all else crosses whole.
    let mut expected = toolgen.clone();
    assert_eq!(
        expected[0].as_object_mut().unwrap().remove("content"),
        Some(Value::Null)
    );
    assert_eq!(messages[1..], expected[..]);
    for (message, expected) in toolgen.iter().zip(&expected) {
        assert_eq!(&through::<ChatCompletionRequestMessage>(message), expected);
    }
}

#[tokio::test]
async fn the_next_responses_turn_goes_into_input_items_whole() {
    let recorded = "openai_responses/lmstudio-tool-call.1.json";
    let next = recipe::responses(recorded).await.unwrap();
    let InputParam::Items(items) = &next.input else {
        panic!("the input is items: {:?}", next.input)
    };
    let items: Vec<Value> = items.iter().map(untyped).collect();
    let expected = next_without_async_openai(Provider::OpenAiResponses, recorded).await;
    assert_eq!(items[1..], expected[..]);
    assert_eq!(expected[1]["output"], "18.5");
    for item in &expected {
        assert_eq!(&through::<InputItem>(item), item);
    }
}
