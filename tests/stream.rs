//! Issue 7, streaming: tool calls assembled from each provider's stream events, and partial
//! arguments for progress.
//!
//! - Recorded event sequences in `tests/fixtures/stream/<provider>/*.jsonl` (one decoded `data:`
//!   payload per line) go through a `ToolCallStream`; those named `several_calls` stream the same
//!   response as `tests/fixtures/<provider>/several_calls.json` and must give the calls
//!   `ToolCall::parse` gives for it. The others interleave calls, mix in text, thinking,
//!   reasoning and server tools, split arguments inside escape sequences, or fail.
//! - Properties: any arguments text, cut at every character boundary (every byte of an escape
//!   sequence is one) or into random deltas, assembles to the unsplit call and parses to the
//!   same tool value; `partial_json` of every prefix shows a prefix of the final value, and the
//!   incremental reader agrees with it.
//! - Hostile events (every field of every recorded event replaced by wrong values, random JSON,
//!   deep nesting) give errors, never panics.

mod progress;

use progress::is_prefix;
use std::path::{Path, PathBuf};

use pretty_assertions::assert_eq;
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolgen::{PartialJson, Provider, StreamError, Tool, ToolCall, ToolCallStream, partial_json};

/// Get the weather forecast for a city.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct GetForecast {
    /// City name, e.g. "Riga".
    city: String,
    /// How many days ahead; 1 when absent.
    days: Option<u8>,
}

/// Get the local time in a time zone.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct GetTime {
    /// IANA time zone such as "Europe/Riga"; UTC when absent.
    timezone: Option<String>,
}

/// Write a note.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq, Clone)]
struct WriteNote {
    title: String,
    body: String,
    #[serde(default)]
    tags: Vec<String>,
    pinned: Option<bool>,
    priority: Option<i32>,
}

/// The arguments of the interleaved fixtures: escapes of a two-byte character and of a surrogate
/// pair, which the recorded deltas cut in the middle.
const NOTE_ARGS: &str = r#"{"title": "Caf\u00e9 \ud83d\ude00", "body": "line\none"}"#;
const FORECAST_ARGS: &str = r#"{"city": "Rīga", "days": 3}"#;

// ---------------------------------------------------------------------------------------------
// Replaying recorded streams

/// What a stream gave: each call with the event that completed it (`None`: `finish`), and each
/// error with its event.
#[derive(Debug, Default)]
struct Replay {
    calls: Vec<(Option<usize>, ToolCall)>,
    errors: Vec<(Option<usize>, StreamError)>,
}

impl Replay {
    fn calls(&self) -> Vec<ToolCall> {
        self.calls.iter().map(|(_, call)| call.clone()).collect()
    }
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn read_events(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .map(|(line, event)| {
            serde_json::from_str(event)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), line + 1))
        })
        .collect()
}

fn events(dir: &str, name: &str) -> Vec<Value> {
    read_events(
        &fixtures_dir()
            .join("stream")
            .join(dir)
            .join(format!("{name}.jsonl")),
    )
}

const STREAMING: [(Provider, &str); 4] = [
    (Provider::Anthropic, "anthropic"),
    (Provider::OpenAiChat, "openai_chat"),
    (Provider::OpenAiResponses, "openai_responses"),
    (Provider::Gemini, "gemini"),
];

/// Every recorded stream: (provider, file name, events).
fn all_recordings() -> Vec<(Provider, String, Vec<Value>)> {
    let mut all = Vec::new();
    for (provider, dir) in STREAMING {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(fixtures_dir().join("stream").join(dir))
            .unwrap_or_else(|e| panic!("no recorded streams for {provider}: {e}"))
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
            .collect();
        paths.sort();
        assert!(
            paths.len() >= 3,
            "{provider}: expected at least 3 recorded streams"
        );
        for path in paths {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            all.push((provider, name, read_events(&path)));
        }
    }
    all
}

/// Pushes every event, keeps going after errors, then finishes.
fn replay(provider: Provider, events: &[Value]) -> Replay {
    let mut stream = ToolCallStream::new(provider);
    let mut replay = Replay::default();
    for (at, event) in events.iter().enumerate() {
        match stream.push(event) {
            Ok(calls) => replay
                .calls
                .extend(calls.into_iter().map(|call| (Some(at), call))),
            Err(error) => replay.errors.push((Some(at), error)),
        }
    }
    match stream.finish() {
        Ok(calls) => replay
            .calls
            .extend(calls.into_iter().map(|call| (None, call))),
        Err(error) => replay.errors.push((None, error)),
    }
    replay
}

fn replay_ok(provider: Provider, events: &[Value]) -> Vec<(Option<usize>, ToolCall)> {
    let replay = replay(provider, events);
    assert_eq!(replay.errors, [], "{provider}");
    replay.calls
}

fn args(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("arguments {text:?}: {e}"))
}

/// The streamed calls are the calls of the whole response: same ids (unless made up), names,
/// signatures, and arguments that parse to the same value (the text may differ: Anthropic and
/// Gemini send objects, written out compactly by `ToolCall::parse`).
fn assert_same_calls(streamed: &[ToolCall], whole: &[ToolCall], made_up_ids: bool) {
    assert_eq!(streamed.len(), whole.len());
    for (streamed, whole) in streamed.iter().zip(whole) {
        assert_eq!(streamed.name, whole.name);
        assert_eq!(streamed.thought_signature, whole.thought_signature);
        assert_eq!(args(&streamed.arguments), args(&whole.arguments));
        if !made_up_ids {
            assert_eq!(streamed.id, whole.id);
        }
    }
}

#[test]
fn recorded_streams_give_the_calls_of_the_whole_response() {
    for (provider, dir) in STREAMING {
        let whole = serde_json::from_str(
            &std::fs::read_to_string(fixtures_dir().join(dir).join("several_calls.json")).unwrap(),
        )
        .unwrap();
        let whole = ToolCall::parse(provider, &whole).unwrap();
        let streamed = replay_ok(provider, &events(dir, "several_calls"));
        let streamed: Vec<ToolCall> = streamed.into_iter().map(|(_, call)| call).collect();
        let made_up = provider == Provider::Gemini;
        assert_same_calls(&streamed, &whole, made_up);
        assert_eq!(
            streamed[0].parse_args::<GetForecast>().unwrap().city,
            "Riga"
        );
        assert_eq!(
            streamed[1]
                .parse_args::<GetTime>()
                .unwrap()
                .timezone
                .as_deref(),
            Some("Europe/Riga")
        );
        if made_up {
            assert_eq!(streamed[0].id.as_deref(), Some("toolgen_0"));
            assert_eq!(streamed[1].id.as_deref(), Some("toolgen_1"));
        }
    }
}

#[test]
fn each_call_comes_out_at_the_event_that_closes_it() {
    // Anthropic: at each block's `content_block_stop`.
    let anthropic = events("anthropic", "several_calls");
    let calls = replay_ok(Provider::Anthropic, &anthropic);
    let stops: Vec<Option<usize>> = calls.iter().map(|(at, _)| *at).collect();
    for (at, call) in &calls {
        let event = &anthropic[at.unwrap()];
        assert_eq!(event["type"], "content_block_stop", "{call:?}");
    }
    assert!(stops[0] < stops[1]);

    // Chat: all at the chunk with `finish_reason`, before the usage chunk.
    let chat = events("openai_chat", "several_calls");
    let calls = replay_ok(Provider::OpenAiChat, &chat);
    let finish = chat.len() - 2;
    assert_eq!(chat[finish]["choices"][0]["finish_reason"], "tool_calls");
    assert!(calls.iter().all(|(at, _)| *at == Some(finish)));

    // Responses: at each item's `response.output_item.done`.
    let responses = events("openai_responses", "several_calls");
    for (at, _) in replay_ok(Provider::OpenAiResponses, &responses) {
        assert_eq!(responses[at.unwrap()]["type"], "response.output_item.done");
    }

    // Gemini: at the chunk holding the part.
    let gemini = events("gemini", "several_calls");
    let at: Vec<Option<usize>> = replay_ok(Provider::Gemini, &gemini)
        .into_iter()
        .map(|(at, _)| at)
        .collect();
    assert_eq!(at, [Some(2), Some(3)]);
}

/// `write_note` with `NOTE_ARGS` and `get_forecast` with `FORECAST_ARGS`, whatever the order.
fn assert_note_and_forecast(calls: &[ToolCall], note_id: &str, forecast_id: &str) {
    let note = calls.iter().find(|call| call.name == "write_note").unwrap();
    let forecast = calls
        .iter()
        .find(|call| call.name == "get_forecast")
        .unwrap();
    assert_eq!(note.id.as_deref(), Some(note_id));
    assert_eq!(forecast.id.as_deref(), Some(forecast_id));
    let note = note.parse_args::<WriteNote>().unwrap();
    assert_eq!(
        (note.title.as_str(), note.body.as_str()),
        ("Café 😀", "line\none")
    );
    let forecast = forecast.parse_args::<GetForecast>().unwrap();
    assert_eq!(
        forecast,
        GetForecast {
            city: "Rīga".into(),
            days: Some(3)
        }
    );
}

#[test]
fn interleaved_calls_with_escapes_cut_in_the_middle() {
    // Anthropic: a server tool's block streams input too and is skipped; the second call closes
    // first.
    let anthropic = replay(Provider::Anthropic, &events("anthropic", "interleaved"));
    assert_eq!(anthropic.errors, []);
    let calls = anthropic.calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].name.as_str(), calls[0].arguments.as_str()),
        ("get_forecast", FORECAST_ARGS)
    );
    assert_eq!(calls[1].arguments, NOTE_ARGS);
    assert_note_and_forecast(&calls, "toolu_A", "toolu_B");

    // Chat: fragments of both calls in one chunk, `null`s in later fragments, the last fragment
    // in the `finish_reason` chunk; calls come out in index order.
    let calls: Vec<ToolCall> =
        replay_ok(Provider::OpenAiChat, &events("openai_chat", "interleaved"))
            .into_iter()
            .map(|(_, call)| call)
            .collect();
    assert_eq!(
        calls,
        [
            ToolCall::new("write_note", NOTE_ARGS).with_id("call_note"),
            ToolCall::new("get_forecast", FORECAST_ARGS).with_id("call_weather"),
        ]
    );
    assert_note_and_forecast(&calls, "call_note", "call_weather");

    // Responses: deltas alternate, some name only their `item_id`; items finish in reverse.
    let responses = events("openai_responses", "interleaved");
    let calls: Vec<ToolCall> = replay_ok(Provider::OpenAiResponses, &responses)
        .into_iter()
        .map(|(_, call)| call)
        .collect();
    assert_eq!(
        calls,
        [
            ToolCall::new("get_forecast", FORECAST_ARGS).with_id("call_weather"),
            ToolCall::new("write_note", NOTE_ARGS).with_id("call_note"),
        ]
    );

    // Gemini: both calls whole in one chunk, with Gemini 3's ids, the signature on the first.
    let calls = replay(Provider::Gemini, &events("gemini", "with_ids")).calls();
    assert_note_and_forecast(&calls, "8f2b1a3c", "9a3c2b4d");
    assert_eq!(
        calls[0].thought_signature.as_deref(),
        Some("EjQKMgEMc2lnbmF0dXJl")
    );
    assert_eq!(calls[1].thought_signature, None);
}

/// The deltas really are cut inside the escapes, so the tests above test that.
#[test]
fn recorded_deltas_cut_inside_escapes() {
    let deltas: Vec<String> = events("anthropic", "interleaved")
        .iter()
        .filter(|event| event["index"] == 1 && event["delta"]["type"] == "input_json_delta")
        .map(|event| event["delta"]["partial_json"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(deltas.concat(), NOTE_ARGS);
    assert!(
        deltas.iter().any(|delta| delta.ends_with(r"\u0")),
        "{deltas:?}"
    );
    assert!(
        deltas.iter().any(|delta| delta.ends_with(r"\ud83")),
        "{deltas:?}"
    );
    assert!(
        deltas.iter().any(|delta| delta.ends_with(r"\u")),
        "{deltas:?}"
    );
}

#[test]
fn a_tool_without_parameters() {
    let calls = replay_ok(Provider::Anthropic, &events("anthropic", "no_input"));
    assert_eq!(
        calls,
        [(Some(3), ToolCall::new("get_time", "{}").with_id("toolu_03"))]
    );
    assert_eq!(
        calls[0].1.parse_args::<GetTime>().unwrap(),
        GetTime { timezone: None }
    );

    // Cut off before the block stops, the same call has not been made.
    let cut = replay(Provider::Anthropic, &events("anthropic", "no_input")[..3]);
    assert_eq!(cut.calls(), []);
    let [(None, StreamError::Unfinished { call, .. })] = &cut.errors[..] else {
        panic!("{:?}", cut.errors);
    };
    assert_eq!(call.arguments, "");
}

#[test]
fn failures_in_the_stream() {
    // Anthropic's `error` event, then the stream ends inside the call.
    let anthropic = replay(Provider::Anthropic, &events("anthropic", "error"));
    assert_eq!(anthropic.calls(), []);
    let [(Some(3), failed), (None, unfinished)] = &anthropic.errors[..] else {
        panic!("{:?}", anthropic.errors);
    };
    assert_eq!(
        failed.to_string(),
        "the Anthropic stream failed: overloaded_error: Overloaded"
    );
    let StreamError::Unfinished { call, .. } = unfinished else {
        panic!("{unfinished:?}");
    };
    assert_eq!(
        (
            call.id.as_deref(),
            call.name.as_str(),
            call.arguments.as_str()
        ),
        (Some("toolu_04"), "get_forecast", r#"{"city": "Ri"#)
    );
    assert_eq!(
        unfinished.to_string(),
        "the Anthropic stream ended inside the call of `get_forecast`: its arguments are not \
         complete JSON"
    );

    // A blocked Gemini prompt.
    let gemini = replay(Provider::Gemini, &events("gemini", "blocked"));
    assert_eq!(gemini.calls(), []);
    assert_eq!(
        gemini
            .errors
            .iter()
            .map(|(at, e)| (*at, e.to_string()))
            .collect::<Vec<_>>(),
        [(
            Some(1),
            "the Google Gemini stream failed: the prompt was blocked (SAFETY)".to_owned()
        )]
    );

    // Errors sent as chunks or events by the other APIs.
    let chat_error =
        json!({"error": {"message": "The server had an error", "type": "server_error"}});
    let responses_error = json!({"type": "error", "code": "rate_limit_exceeded", "message": "Slow down", "param": null});
    let failed = json!({"type": "response.failed", "response": {"id": "resp_1", "status": "failed",
        "error": {"code": "server_error", "message": "The model failed"}}});
    let gemini_error = json!({"error": {"code": 429, "message": "Quota exceeded", "status": "RESOURCE_EXHAUSTED"}});
    for (provider, event, message) in [
        (
            Provider::OpenAiChat,
            chat_error,
            "server_error: The server had an error",
        ),
        (
            Provider::OpenAiResponses,
            responses_error,
            "rate_limit_exceeded: Slow down",
        ),
        (
            Provider::OpenAiResponses,
            failed,
            "server_error: The model failed",
        ),
        (
            Provider::Gemini,
            gemini_error,
            "RESOURCE_EXHAUSTED: Quota exceeded",
        ),
    ] {
        let err = ToolCallStream::new(provider).push(&event).unwrap_err();
        assert_eq!(
            err,
            StreamError::Failed {
                provider,
                message: message.to_owned()
            }
        );
    }
}

#[test]
fn a_stream_cut_off_inside_a_call() {
    let events = events("openai_responses", "cut_off");
    let mut stream = ToolCallStream::new(Provider::OpenAiResponses);
    for event in &events {
        assert_eq!(stream.push(event), Ok(vec![]));
    }
    let pending: Vec<(Option<&str>, Option<Value>)> = stream
        .pending()
        .map(|call| (call.id, call.partial.cloned()))
        .collect();
    assert_eq!(
        pending,
        [(Some("call_cut"), Some(json!({"title": "Café "})))]
    );
    let Err(StreamError::Unfinished { call, .. }) = stream.finish() else {
        panic!("the call is not complete");
    };
    assert_eq!(call.arguments, r#"{"title": "Caf\u00e9 \"#);
    assert_eq!(stream.finish(), Ok(vec![]));
}

#[test]
fn an_openai_compatible_server_that_numbers_every_call_zero() {
    // Each new id at index 0 closes the call before it; no `finish_reason`, so the last comes
    // out of `finish`.
    let calls = replay_ok(
        Provider::OpenAiChat,
        &events("openai_chat", "compatible_server"),
    );
    assert_eq!(
        calls,
        [
            (
                Some(2),
                ToolCall::new("get_time", r#"{"timezone": "UTC"}"#).with_id("call_a")
            ),
            (
                None,
                ToolCall::new("get_forecast", r#"{"city": "Oslo"}"#).with_id("call_b")
            ),
        ]
    );
}

#[test]
fn gemini_ids_are_made_up_only_when_missing_and_count_across_responses() {
    let mut stream = ToolCallStream::new(Provider::Gemini);
    let chunk = |call: Value| json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": call}]}}]});
    let first = stream.push(&chunk(json!({"name": "get_time"}))).unwrap();
    let given = stream
        .push(&chunk(json!({"name": "get_time", "id": "abc"})))
        .unwrap();
    assert_eq!(stream.finish(), Ok(vec![]));
    let second = stream
        .push(&chunk(json!({"name": "get_time", "args": {}})))
        .unwrap();
    assert_eq!(
        first,
        [ToolCall::new("get_time", "{}").with_id("toolgen_0")]
    );
    assert_eq!(given, [ToolCall::new("get_time", "{}").with_id("abc")]);
    assert_eq!(
        second,
        [ToolCall::new("get_time", "{}").with_id("toolgen_1")]
    );
}

#[test]
fn mcp_messages_are_whole_calls() {
    let mut stream = ToolCallStream::new(Provider::Mcp);
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "get_time", "arguments": {"timezone": "UTC"}}});
    let other = json!({"jsonrpc": "2.0", "id": 8, "method": "tools/list"});
    let notification = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let response = json!({"jsonrpc": "2.0", "id": 1, "result": {}});
    // The same call `ToolCall::parse` reads, which keeps the id's JSON type for the response.
    assert_eq!(
        stream.push(&call).unwrap(),
        ToolCall::parse(Provider::Mcp, &call).unwrap()
    );
    let [got] = &ToolCall::parse(Provider::Mcp, &call).unwrap()[..] else {
        unreachable!()
    };
    assert_eq!(
        (got.id.as_deref(), got.arguments.as_str()),
        (Some("7"), r#"{"timezone":"UTC"}"#)
    );
    for message in [other, notification, response] {
        assert_eq!(stream.push(&message), Ok(vec![]));
    }
    assert_eq!(stream.finish(), Ok(vec![]));
}

// ---------------------------------------------------------------------------------------------
// Progress

#[test]
fn the_prefix_relation() {
    let full = json!({"a": "xyz", "b": [1, {"c": "d"}], "e": null});
    for shown in [
        json!({}),
        json!({"a": "x"}),
        json!({"a": "xyz", "b": [1, {}]}),
        full.clone(),
    ] {
        assert!(is_prefix(&shown, &full), "{shown}");
    }
    for shown in [
        json!({"a": "y"}),
        json!({"b": [{}]}),
        json!({"a": "x", "b": [1, {}]}),
        json!([]),
    ] {
        assert!(!is_prefix(&shown, &full), "{shown}");
    }
}

/// After every event of every recording, each pending call's text is the start of its final
/// arguments and its partial value a prefix of the final value.
#[test]
fn pending_calls_show_prefixes_of_what_arrives() {
    for (provider, name, events) in all_recordings() {
        let mut stream = ToolCallStream::new(provider);
        let mut seen: Vec<(String, String, Option<Value>)> = Vec::new();
        let mut finished = Vec::new();
        for event in &events {
            finished.extend(stream.push(event).unwrap_or_default());
            for call in stream.pending() {
                let id = call.id.unwrap().to_owned();
                seen.push((id, call.arguments.to_owned(), call.partial.cloned()));
            }
        }
        finished.extend(stream.finish().unwrap_or_default());
        for (id, text, partial) in seen {
            let Some(call) = finished
                .iter()
                .find(|call| call.id.as_deref() == Some(id.as_str()))
            else {
                continue; // the call never finished (the `error` recording)
            };
            assert!(call.arguments.starts_with(&text), "{name}: {text:?}");
            if let Some(partial) = partial {
                let full = args(&call.arguments);
                assert!(is_prefix(&partial, &full), "{name}: {partial} of {full}");
            }
        }
    }
}

#[test]
fn pending_shows_the_arguments_so_far() {
    let events = events("anthropic", "interleaved");
    let mut stream = ToolCallStream::new(Provider::Anthropic);
    let mut shown = Vec::new();
    for event in &events {
        stream.push(event).unwrap();
        if let Some(note) = stream.pending().find(|call| call.name == "write_note") {
            shown.push(note.partial.cloned());
        }
    }
    let shown: Vec<Value> = shown.into_iter().flatten().collect();
    assert!(shown.contains(&json!({"title": "Caf"})), "{shown:?}");
    assert!(shown.contains(&json!({"title": "Café "})), "{shown:?}");
    assert!(shown.contains(&json!({"title": "Café 😀"})), "{shown:?}");
    assert_eq!(
        shown.last(),
        Some(&json!({"title": "Café 😀", "body": "line\none"}))
    );
}

// ---------------------------------------------------------------------------------------------
// Properties: any split of any arguments text

/// The events that stream one call with these argument deltas; the call opens at event 0 and
/// delta `i` is event `i + 1`.
fn call_events(provider: Provider, deltas: &[&str]) -> Vec<Value> {
    let full = deltas.concat();
    let mut events = Vec::new();
    match provider {
        Provider::Anthropic => {
            events.push(
                json!({"type": "content_block_start", "index": 1, "content_block":
                {"type": "tool_use", "id": "toolu_1", "name": "write_note", "input": {}}}),
            );
            for delta in deltas {
                events.push(json!({"type": "content_block_delta", "index": 1,
                    "delta": {"type": "input_json_delta", "partial_json": delta}}));
            }
            events.push(json!({"type": "content_block_stop", "index": 1}));
        }
        Provider::OpenAiChat => {
            let chunk = |fragment: Value, finish: Value| {
                json!({"object": "chat.completion.chunk", "choices":
                    [{"index": 0, "delta": {"tool_calls": [fragment]}, "finish_reason": finish}]})
            };
            events.push(chunk(
                json!({"index": 0, "id": "call_1", "type": "function",
                    "function": {"name": "write_note", "arguments": ""}}),
                Value::Null,
            ));
            for delta in deltas {
                events.push(chunk(
                    json!({"index": 0, "function": {"arguments": delta}}),
                    Value::Null,
                ));
            }
            events.push(
                json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
            );
        }
        Provider::OpenAiResponses => {
            let item = |arguments: &str| {
                json!({"type": "function_call", "id": "fc_1",
                "call_id": "call_1", "name": "write_note", "arguments": arguments})
            };
            events.push(
                json!({"type": "response.output_item.added", "output_index": 0, "item": item("")}),
            );
            for delta in deltas {
                events.push(json!({"type": "response.function_call_arguments.delta",
                    "item_id": "fc_1", "output_index": 0, "delta": delta}));
            }
            events.push(json!({"type": "response.function_call_arguments.done",
                "item_id": "fc_1", "output_index": 0, "arguments": full}));
            events.push(json!({"type": "response.output_item.done", "output_index": 0, "item": item(&full)}));
        }
        _ => unreachable!("{provider} sends calls whole"),
    }
    events
}

const SPLITTING: [Provider; 3] = [
    Provider::Anthropic,
    Provider::OpenAiChat,
    Provider::OpenAiResponses,
];

/// Streams `deltas` through `provider`'s events: the one call that comes out has the whole text
/// as its arguments, what `pending` showed after the last delta was the whole text too, and each
/// partial value on the way was a prefix of the final value.
fn check_split(provider: Provider, deltas: &[&str]) -> Result<ToolCall, TestCaseError> {
    let full = deltas.concat();
    let final_value: Value = serde_json::from_str(&full).unwrap();
    let mut stream = ToolCallStream::new(provider);
    let mut calls = Vec::new();
    for (at, event) in call_events(provider, deltas).iter().enumerate() {
        calls.extend(
            stream
                .push(event)
                .map_err(|e| TestCaseError::fail(e.to_string()))?,
        );
        let pending = stream
            .pending()
            .next()
            .map(|call| (call.arguments.to_owned(), call.partial.cloned()));
        if let Some((_, Some(partial))) = &pending {
            prop_assert!(
                is_prefix(partial, &final_value),
                "{partial} of {final_value}"
            );
        }
        if at == deltas.len() {
            prop_assert_eq!(pending, Some((full.clone(), Some(final_value.clone()))));
        }
    }
    calls.extend(
        stream
            .finish()
            .map_err(|e| TestCaseError::fail(e.to_string()))?,
    );
    prop_assert_eq!(calls.len(), 1);
    let call = calls.pop().unwrap();
    prop_assert_eq!(&call.arguments, &full);
    Ok(call)
}

/// JSON text with every non-ASCII character escaped as `\uXXXX` (astral ones as surrogate
/// pairs), so that splits land inside the escapes.
fn ascii_json(value: &Value) -> String {
    let text = serde_json::to_string(value).unwrap();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

fn note() -> impl Strategy<Value = WriteNote> {
    let text = prop_oneof![
        ".{0,12}",
        "[a-zé😀\"\\\\\n\t\u{1}/]{0,12}",
        any::<String>().prop_map(|s| s.chars().take(16).collect()),
    ];
    (
        text.clone(),
        text.clone(),
        vec(text, 0..3),
        proptest::option::of(any::<bool>()),
        proptest::option::of(any::<i32>()),
    )
        .prop_map(|(title, body, tags, pinned, priority)| WriteNote {
            title,
            body,
            tags,
            pinned,
            priority,
        })
}

/// The three ways the arguments may be written: compact, pretty, and ASCII with escapes.
fn argument_texts(note: &WriteNote) -> [String; 3] {
    let value = serde_json::to_value(note).unwrap();
    [
        serde_json::to_string(note).unwrap(),
        serde_json::to_string_pretty(note).unwrap(),
        ascii_json(&value),
    ]
}

#[test]
fn any_split_assembles_to_the_unsplit_call() {
    let mut runner = TestRunner::new(Config {
        cases: 48,
        ..Config::default()
    });
    runner
        .run(&note(), |note| {
            for text in argument_texts(&note) {
                let parsed =
                    WriteNote::parse_args(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(&parsed, &note);
                for provider in SPLITTING {
                    let unsplit = check_split(provider, &[&text])?;
                    for cut in (0..=text.len()).filter(|&cut| text.is_char_boundary(cut)) {
                        let call = check_split(provider, &[&text[..cut], &text[cut..]])?;
                        prop_assert_eq!(&call, &unsplit);
                        prop_assert_eq!(call.parse_args::<WriteNote>().unwrap(), parsed.clone());
                    }
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn any_number_of_deltas_assembles_to_the_unsplit_call() {
    let mut runner = TestRunner::new(Config {
        cases: 96,
        ..Config::default()
    });
    runner
        .run(
            &(note(), vec(any::<prop::sample::Index>(), 0..24)),
            |(note, cuts)| {
                for text in argument_texts(&note) {
                    let boundaries: Vec<usize> = (0..=text.len())
                        .filter(|&cut| text.is_char_boundary(cut))
                        .collect();
                    let mut cuts: Vec<usize> =
                        cuts.iter().map(|cut| *cut.get(&boundaries)).collect();
                    cuts.sort_unstable();
                    let mut deltas = Vec::new();
                    let mut start = 0;
                    for cut in cuts.into_iter().chain([text.len()]) {
                        deltas.push(&text[start..cut]); // empty deltas included: they happen
                        start = cut;
                    }
                    for provider in SPLITTING {
                        let call = check_split(provider, &deltas)?;
                        prop_assert_eq!(call.parse_args::<WriteNote>().unwrap(), note.clone());
                    }
                }
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn a_delta_boundary_inside_a_surrogate_pair_escape() {
    // The two halves of 😀's escape in separate deltas, and every other cut of the escape.
    let text = r#"{"title": "\ud83d\ude00", "body": ""}"#;
    let start = text.find('\\').unwrap();
    for provider in SPLITTING {
        let call = check_split(
            provider,
            &[r#"{"title": "\ud83d"#, r#"\ude00", "body": ""}"#],
        )
        .unwrap();
        assert_eq!(call.parse_args::<WriteNote>().unwrap().title, "😀");
        for cut in start..start + 12 {
            let call = check_split(provider, &[&text[..cut], &text[cut..]]).unwrap();
            assert_eq!(call.arguments, text);
            assert_eq!(call.parse_args::<WriteNote>().unwrap().title, "😀");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Properties: partial_json

/// Any JSON value: strings with any characters, numbers of every kind, nesting.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        (-1000.0..1000.0f64).prop_map(Value::from),
        any::<String>().prop_map(Value::String),
        "[a-z\"\\\\é😀\n]{0,6}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(Value::Array),
            btree_map("[a-zé\"]{0,5}", inner, 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// A JSON text in one of several layouts, with the value `serde_json` reads back from it (floats
/// may not round-trip exactly; both readers use `serde_json`'s number parsing).
fn json_text() -> impl Strategy<Value = (String, Value)> {
    (json_value(), 0..3usize).prop_map(|(value, layout)| {
        let text = match layout {
            0 => serde_json::to_string(&value).unwrap(),
            1 => serde_json::to_string_pretty(&value).unwrap(),
            _ => ascii_json(&value),
        };
        let read = serde_json::from_str(&text).unwrap();
        (text, read)
    })
}

#[test]
fn partial_json_of_every_prefix_is_a_prefix_of_the_value() {
    let mut runner = TestRunner::new(Config {
        cases: 256,
        ..Config::default()
    });
    runner
        .run(&json_text(), |(text, value)| {
            let mut incremental = PartialJson::new();
            let mut last = 0;
            for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
                let shown = partial_json(&text[..end]);
                incremental.push(&text[last..end]);
                last = end;
                prop_assert_eq!(incremental.value(), shown.as_ref(), "at {}", end);
                if let Some(shown) = &shown {
                    prop_assert!(is_prefix(shown, &value), "{} of {}", shown, value);
                }
            }
            // Whole, the text shows the value, unless it is a bare number (which may go on).
            if value.is_number() {
                prop_assert_eq!(partial_json(&text), None);
                prop_assert_eq!(partial_json(&format!("{text} ")), Some(value));
            } else {
                prop_assert_eq!(partial_json(&text), Some(value));
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn partial_json_agrees_with_serde_json_on_what_is_json() {
    // Texts from a JSON-ish alphabet: whenever the whole text is JSON (an array, so that it is
    // not a number that may go on), `partial_json` shows what serde_json reads; when serde_json
    // rejects it for anything but ending early, `partial_json` shows nothing.
    let alphabet = "[\\[\\]{}\",:0-9.eE+\\-tfrueanlsx \\\\u/dD8cC\u{1}é]{0,24}";
    let mut runner = TestRunner::new(Config {
        cases: 4096,
        ..Config::default()
    });
    runner
        .run(&alphabet, |text| {
            let text = format!("[{text}]");
            let shown = partial_json(&text);
            match serde_json::from_str::<Value>(&text) {
                Ok(value) => prop_assert_eq!(shown, Some(value)),
                Err(e) if !e.is_eof() => prop_assert_eq!(shown, None, "{}", e),
                Err(_) => {}
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn partial_json_never_panics() {
    let mut runner = TestRunner::new(Config {
        cases: 2048,
        ..Config::default()
    });
    runner
        .run(&any::<String>(), |text| {
            let _ = partial_json(&text);
            let mut incremental = PartialJson::new();
            for c in text.chars() {
                incremental.push(c.encode_utf8(&mut [0; 4]));
            }
            prop_assert_eq!(incremental.into_value(), partial_json(&text));
            Ok(())
        })
        .unwrap();
}

/// A realistic big call: flashcards for a Latvian text, about 13 KB of JSON with Cyrillic and
/// Latvian letters, nested objects and arrays, numbers, booleans and nulls.
fn flashcards() -> String {
    let words = [
        ("valoda", "язык", "Latviešu valoda ir skaista."),
        ("grāmata", "книга", "Es lasu grāmatu par vēsturi."),
        ("ceļš", "дорога", "Ceļš uz Rīgu ir garš."),
        ("jūra", "море", "Vasarā mēs braucam uz jūru."),
        ("sniegs", "снег", "Ziemā snieg daudz sniega."),
    ];
    let cards: Vec<Value> = (0..40)
        .map(|i| {
            let (word, translation, sentence) = words[i % words.len()];
            json!({
                "base_form": format!("{word}{i}"),
                "base_translation": if i % 7 == 0 { Value::Null } else { json!(translation) },
                "unit": if i % 3 == 0 { "phrase" } else { "word" },
                "forms": [
                    {"form": format!("{word}s"), "translation": translation, "grammar": "gen. sg."},
                    {"form": format!("{word}m"), "translation": translation, "grammar": "dat. sg."}
                ],
                "contexts": [{"sentence": sentence, "translation": format!("{translation} — пример {i}"), "position": i * 3}],
                "visible": i % 5 != 0
            })
        })
        .collect();
    serde_json::to_string(&json!({"flashcards": cards})).unwrap()
}

/// Real argument texts: those of the recorded responses and streams, and a 13 KB call.
fn real_argument_texts() -> Vec<String> {
    let mut texts = vec![NOTE_ARGS.to_owned(), FORECAST_ARGS.to_owned(), flashcards()];
    for (provider, dir) in STREAMING {
        for entry in std::fs::read_dir(fixtures_dir().join(dir)).unwrap() {
            let whole =
                serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap())
                    .unwrap();
            if let Ok(calls) = ToolCall::parse(provider, &whole) {
                texts.extend(calls.into_iter().map(|call| call.arguments));
            }
        }
    }
    for (provider, _, events) in all_recordings() {
        texts.extend(
            replay(provider, &events)
                .calls()
                .into_iter()
                .map(|call| call.arguments),
        );
    }
    texts.retain(|text| serde_json::from_str::<Value>(text).is_ok());
    texts.sort();
    texts.dedup();
    texts
}

#[test]
fn partial_json_on_every_prefix_of_real_arguments() {
    let texts = real_argument_texts();
    assert!(texts.len() >= 10, "{texts:?}");
    let big = texts.iter().map(String::len).max().unwrap();
    assert!(
        (12_000..14_000).contains(&big),
        "the big call has {big} bytes"
    );
    for text in texts {
        let full = args(&text);
        let mut incremental = PartialJson::new();
        let mut last = 0;
        let mut checked = 0;
        for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
            incremental.push(&text[last..end]);
            last = end;
            // Short texts at every prefix, the 13 KB one at every 40th (comparing is linear).
            if text.len() < 2000 || end % 40 == 0 || end == text.len() {
                let shown = partial_json(&text[..end]);
                assert_eq!(incremental.value(), shown.as_ref());
                if let Some(shown) = &shown {
                    assert!(is_prefix(shown, &full), "{shown} of {full}");
                }
                checked += 1;
            }
        }
        assert!(
            checked >= (text.chars().count() + 1).min(50),
            "{checked} prefixes of {text}"
        );
        assert_eq!(incremental.into_value(), Some(full));
    }
}

// ---------------------------------------------------------------------------------------------
// Hostile events

/// Every recorded event, with each of its values in turn replaced by each of these, pushed into
/// a stream that has taken the events before it: an error or a result, never a panic.
#[test]
fn every_field_of_every_event_replaced_by_wrong_values() {
    let replacements = [
        Value::Null,
        json!(-1),
        json!(u64::MAX),
        json!(1.5),
        json!("x"),
        json!(""),
        json!([]),
        json!({}),
        json!([1, "a"]),
        json!({"type": "tool_use"}),
    ];
    let mut cases = 0;
    for (provider, name, events) in all_recordings() {
        for at in 0..events.len() {
            let mut pointers = Vec::new();
            collect_pointers(&events[at], String::new(), &mut pointers);
            for pointer in &pointers {
                for replacement in &replacements {
                    let mut stream = ToolCallStream::new(provider);
                    for event in &events[..at] {
                        let _ = stream.push(event);
                    }
                    let mut event = events[at].clone();
                    *event.pointer_mut(pointer).unwrap() = replacement.clone();
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        let _ = stream.push(&event);
                        let _ = stream.pending().count();
                        let _ = stream.finish();
                    }));
                    assert!(
                        result.is_ok(),
                        "{name} event {at} with {pointer} = {replacement}"
                    );
                    cases += 1;
                }
            }
        }
    }
    assert!(cases > 5000, "{cases}");
}

fn collect_pointers(value: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match value {
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                collect_pointers(item, format!("{at}/{index}"), out);
            }
        }
        Value::Object(members) => {
            for (key, item) in members {
                collect_pointers(
                    item,
                    format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        _ => {}
    }
}

#[test]
fn random_events_never_panic() {
    let kinds = prop_oneof![
        Just("content_block_start"),
        Just("content_block_delta"),
        Just("content_block_stop"),
        Just("error"),
        Just("response.output_item.added"),
        Just("response.function_call_arguments.delta"),
        Just("response.function_call_arguments.done"),
        Just("response.output_item.done"),
        Just("response.failed"),
    ];
    let event = prop_oneof![
        json_value(),
        (kinds, json_value()).prop_map(|(kind, mut value)| {
            if let Value::Object(members) = &mut value {
                members.insert("type".to_owned(), json!(kind));
            }
            value
        }),
    ];
    let mut runner = TestRunner::new(Config {
        cases: 512,
        ..Config::default()
    });
    runner
        .run(&vec(event, 1..8), |events| {
            for provider in Provider::ALL {
                let mut stream = ToolCallStream::new(provider);
                for event in &events {
                    let _ = stream.push(event);
                    let _ = stream.pending().count();
                }
                let _ = stream.finish();
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn deep_events_are_errors_not_stack_overflows() {
    // 300 levels: past `ToolCall::parse`'s limit of 256, and still shallow enough for this
    // test's own clones and drops, which recurse.
    let mut deep = json!({});
    for _ in 0..150 {
        deep = json!({"a": [deep]});
    }
    let gemini = json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": deep.clone()}}]}}]});
    let err = ToolCallStream::new(Provider::Gemini)
        .push(&gemini)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "malformed Google Gemini stream event: nested deeper than 256 levels"
    );
    // Anthropic's `input` given whole, at the block's start or in `message_start`, is read too.
    for event in [
        json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "t", "name": "f", "input": {"a": deep.clone()}}}),
        json!({"type": "message_start", "message": {"content":
            [{"type": "tool_use", "id": "t", "name": "f", "input": deep.clone()}]}}),
    ] {
        let err = ToolCallStream::new(Provider::Anthropic)
            .push(&event)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "malformed Anthropic stream event: nested deeper than 256 levels"
        );
    }
    // Elsewhere deep values sit in fields no event type reads.
    for (provider, event) in [
        (
            Provider::Anthropic,
            json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "text", "text": "", "citations": deep.clone()}}),
        ),
        (
            Provider::OpenAiChat,
            json!({"choices": [], "usage": deep.clone()}),
        ),
        (
            Provider::OpenAiResponses,
            json!({"type": "response.completed", "response": deep.clone()}),
        ),
    ] {
        assert!(ToolCallStream::new(provider).push(&event).is_ok());
    }
    // Unbounded nesting in the arguments is refused by the partial reader, which never recurses.
    let mut stream = ToolCallStream::new(Provider::Anthropic);
    stream
        .push(
            &json!({"type": "content_block_start", "index": 0, "content_block":
        {"type": "tool_use", "id": "t", "name": "f", "input": {}}}),
        )
        .unwrap();
    stream
        .push(&json!({"type": "content_block_delta", "index": 0,
        "delta": {"type": "input_json_delta", "partial_json": "[".repeat(200_000)}}))
        .unwrap();
    assert_eq!(stream.pending().next().unwrap().partial, None);
    assert!(matches!(
        stream.finish(),
        Err(StreamError::Unfinished { .. })
    ));
}

#[test]
fn malformed_events_name_the_problem() {
    let open = json!({"type": "content_block_start", "index": 0, "content_block":
        {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}}});
    let cases = [
        (
            Provider::Anthropic,
            json!([]),
            "malformed Anthropic stream event: invalid type: sequence, expected a JSON object",
        ),
        (
            Provider::Anthropic,
            json!({"type": 5}),
            "malformed Anthropic stream event at `type`: invalid type: integer `5`, expected a string",
        ),
        (
            Provider::Anthropic,
            json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": 3}}),
            "malformed Anthropic stream event at `delta.partial_json`: invalid type: integer `3`, expected a string",
        ),
        (
            Provider::Anthropic,
            json!({"type": "content_block_start", "index": "0", "content_block": {"type": "tool_use"}}),
            "malformed Anthropic stream event at `index`: invalid type: string \"0\", expected u64",
        ),
        (
            Provider::Anthropic,
            json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "t"}}),
            "malformed Anthropic stream event at `content_block`: missing field `name`",
        ),
        (
            Provider::OpenAiChat,
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": -1}]}}]}),
            "malformed OpenAI Chat Completions stream event at `choices[0].delta.tool_calls[0].index`: invalid value: integer `-1`, expected u64",
        ),
        (
            Provider::OpenAiChat,
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "function": {"arguments": "{"}}]}}]}),
            "malformed OpenAI Chat Completions stream event at `choices[0].delta.tool_calls[0]`: the first fragment of tool call 0 has no `function.name`",
        ),
        (
            Provider::OpenAiChat,
            json!({"object": "chat.completion.chunk"}),
            "malformed OpenAI Chat Completions stream event: missing field `choices`",
        ),
        (
            Provider::OpenAiResponses,
            json!({"type": "response.output_item.added", "output_index": 0,
            "item": {"type": "function_call", "name": "f", "arguments": ""}}),
            "malformed OpenAI Responses stream event at `item`: missing field `call_id`",
        ),
        (
            Provider::OpenAiResponses,
            json!({"type": "response.function_call_arguments.delta", "output_index": 0, "delta": null}),
            "malformed OpenAI Responses stream event at `delta`: invalid type: null, expected a string",
        ),
        (
            Provider::Gemini,
            json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": 3}}]}}]}),
            "malformed Google Gemini stream event at `candidates[0].content.parts[0].functionCall.name`: invalid type: integer `3`, expected a string",
        ),
        (
            Provider::Gemini,
            json!({"candidates": [{"content": {"parts": [{"functionCall": {"partialArgs":
                [{"jsonPath": "$.a", "boolValue": true}], "willContinue": true}}]}}]}),
            "malformed Google Gemini stream event at `candidates[0].content.parts[0].functionCall`: arguments for no call: no call is streaming",
        ),
        (
            Provider::Gemini,
            json!({"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]}),
            "malformed Google Gemini stream event at `candidates[0].content.parts[0].functionCall`: missing field `name`",
        ),
    ];
    for (provider, event, message) in cases {
        let mut stream = ToolCallStream::new(provider);
        if provider == Provider::Anthropic {
            stream.push(&open).unwrap();
        }
        let err = stream.push(&event).unwrap_err();
        assert!(matches!(err, StreamError::Malformed { .. }));
        assert_eq!(err.to_string(), message);
    }
}

#[test]
fn a_refused_chunk_changes_nothing() {
    let mut stream = ToolCallStream::new(Provider::OpenAiChat);
    stream
        .push(
            &json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
            "type": "function", "function": {"name": "get_time", "arguments": "{"}}]}}]}),
        )
        .unwrap();
    // The fragment for call 0 is fine, the one opening call 1 has no name: neither is taken.
    let bad = json!({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "function": {"arguments": "}"}},
        {"index": 1, "id": "call_2", "function": {"arguments": "{}"}}]}}]});
    assert!(stream.push(&bad).is_err());
    let pending: Vec<(&str, &str)> = stream
        .pending()
        .map(|call| (call.name, call.arguments))
        .collect();
    assert_eq!(pending, [("get_time", "{")]);
}

#[test]
fn other_choices_and_tool_types_are_skipped() {
    let mut stream = ToolCallStream::new(Provider::OpenAiChat);
    let chunk = json!({"choices": [
        {"index": 1, "delta": {"tool_calls": [{"index": 0, "id": "call_x", "type": "function",
            "function": {"name": "get_time", "arguments": "{}"}}]}, "finish_reason": "tool_calls"},
        {"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_c", "type": "custom",
            "custom": {"name": "run_code", "input": "print(1)"}}]}}]});
    assert_eq!(stream.push(&chunk), Ok(vec![]));
    assert_eq!(stream.pending().count(), 0);
    assert_eq!(stream.finish(), Ok(vec![]));
}

/// The Responses API's `error` event nests its fields: `{"type": "error", "error": {"code",
/// "message"}}` (as the recorded streams and the SDKs have it); the flat form is read too.
#[test]
fn responses_error_events_with_nested_fields() {
    let nested = json!({"type": "error", "sequence_number": 3, "error": {"type": "invalid_request_error",
        "code": "context_length_exceeded", "message": "Too long", "param": null}});
    let err = ToolCallStream::new(Provider::OpenAiResponses)
        .push(&nested)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the OpenAI Responses stream failed: context_length_exceeded: Too long"
    );
    let flat = json!({"type": "error", "code": "rate_limit_exceeded", "message": "Slow down"});
    let err = ToolCallStream::new(Provider::OpenAiResponses)
        .push(&flat)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the OpenAI Responses stream failed: rate_limit_exceeded: Slow down"
    );
}

/// An OpenAI Chat call streamed with no `id` in its first fragment (some OpenAI-compatible
/// servers) gets a made-up `toolgen_N` id, as the same call in a whole response does.
#[test]
fn openai_chat_calls_without_an_id_get_one() {
    let mut stream = ToolCallStream::new(Provider::OpenAiChat);
    let fragment = |index: u64, name: Option<&str>, arguments: &str| {
        let mut function = json!({"arguments": arguments});
        if let Some(name) = name {
            function["name"] = json!(name);
        }
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index, "function": function}]}}]})
    };
    assert_eq!(stream.push(&fragment(0, Some("get_time"), "{")), Ok(vec![]));
    assert_eq!(stream.push(&fragment(0, None, "}")), Ok(vec![]));
    assert_eq!(
        stream.push(&fragment(1, Some("get_forecast"), r#"{"city":"Riga"}"#)),
        Ok(vec![])
    );
    let done = stream
        .push(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}))
        .unwrap();
    let expected = [
        ToolCall::new("get_time", "{}").with_id("toolgen_0"),
        ToolCall::new("get_forecast", r#"{"city":"Riga"}"#).with_id("toolgen_1"),
    ];
    assert_eq!(done, expected);
    // The whole response agrees.
    let response = json!({"choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": [
        {"type": "function", "function": {"name": "get_time", "arguments": "{}"}},
        {"type": "function", "function": {"name": "get_forecast", "arguments": r#"{"city":"Riga"}"#}}]}}]});
    assert_eq!(
        ToolCall::parse(Provider::OpenAiChat, &response).unwrap(),
        expected
    );
    // A stream ended without `finish_reason` too, and the count goes on per stream.
    assert_eq!(
        stream.push(&fragment(0, Some("get_time"), "{}")),
        Ok(vec![])
    );
    assert_eq!(
        stream.finish(),
        Ok(vec![ToolCall::new("get_time", "{}").with_id("toolgen_2")])
    );
}
