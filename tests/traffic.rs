//! Issue 14, real traffic: provider responses and streams recorded by public SDK test suites
//! (`tests/traffic/<provider>/`, sources in `tests/traffic/SOURCES.md`), run through
//! `ToolCall::parse` (whole responses, `.json`) and `ToolCallStream` (streams: `.chunks.txt`, one
//! decoded event per line, or `.sse`, the raw `data:` lines).
//!
//! - The calls each recording should give are computed by this file's own small reader, written
//!   on `serde_json::Value` from the providers' documentation and not from toolgen's code; toolgen
//!   must give the same calls (ids, names, arguments as JSON values) and the same number of
//!   errors.
//! - Every stream is replayed again with every argument delta cut into one-character deltas,
//!   with the same result, and with progress (`pending`) after every event showing a prefix of
//!   the final arguments.
//! - One test per item of the issue pins what the recordings show: Anthropic input given in
//!   `content_block_start` (1) and in `message_start` (2), a new message while a call is open
//!   (3), OpenAI-compatible servers (4), Gemini's streamed arguments (5), calls without an id
//!   (6).

mod progress;

use progress::is_prefix;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pretty_assertions::assert_eq;
use serde_json::{Map, Value, json};
use toolgen::{Provider, StreamError, ToolCall, ToolCallStream, ToolResult};

const PROVIDERS: [(Provider, &str); 4] = [
    (Provider::Anthropic, "anthropic"),
    (Provider::OpenAiChat, "openai_chat"),
    (Provider::OpenAiResponses, "openai_responses"),
    (Provider::Gemini, "gemini"),
];

// ---------------------------------------------------------------------------------------------
// The corpus

/// A recorded whole response, or a recorded stream's events.
enum Recording {
    Whole(Value),
    Stream(Vec<Value>),
}

fn traffic_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/traffic")
}

fn load(path: &Path) -> Recording {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let parse = |line: usize, json: &str| -> Value {
        serde_json::from_str(json)
            .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), line + 1))
    };
    let name = path.to_string_lossy();
    if name.ends_with(".json") {
        Recording::Whole(parse(0, &text))
    } else if name.ends_with(".sse") {
        // Server-sent events: each `data:` line is an event; `[DONE]` ends an OpenAI stream.
        Recording::Stream(
            text.lines()
                .enumerate()
                .filter_map(|(at, line)| Some((at, line.strip_prefix("data:")?.trim())))
                .filter(|(_, data)| *data != "[DONE]")
                .map(|(at, data)| parse(at, data))
                .collect(),
        )
    } else if name.ends_with(".chunks.txt") {
        Recording::Stream(
            text.lines()
                .enumerate()
                .filter(|(_, line)| !line.trim().is_empty())
                .map(|(at, line)| parse(at, line))
                .collect(),
        )
    } else {
        panic!("{}: not a recording", path.display())
    }
}

/// Every recording: (provider, file name, recording), in file name order.
fn corpus() -> Vec<(Provider, String, Recording)> {
    let mut all = Vec::new();
    for (provider, dir) in PROVIDERS {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(traffic_dir().join(dir))
            .unwrap_or_else(|e| panic!("no recordings for {provider}: {e}"))
            .map(|entry| entry.unwrap().path())
            .collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            all.push((provider, name, load(&path)));
        }
    }
    all
}

fn recording(dir: &str, name: &str) -> Recording {
    load(&traffic_dir().join(dir).join(name))
}

fn stream_of(dir: &str, name: &str) -> Vec<Value> {
    match recording(dir, name) {
        Recording::Stream(events) => events,
        Recording::Whole(_) => panic!("{name} is not a stream"),
    }
}

fn whole_of(dir: &str, name: &str) -> Value {
    match recording(dir, name) {
        Recording::Whole(response) => response,
        Recording::Stream(_) => panic!("{name} is not a whole response"),
    }
}

#[test]
fn every_file_is_named_in_sources() {
    let sources = std::fs::read_to_string(traffic_dir().join("SOURCES.md")).unwrap();
    let mut files = 0;
    for (_, dir) in PROVIDERS {
        for entry in std::fs::read_dir(traffic_dir().join(dir)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            assert!(
                sources.contains(&format!("`{dir}/{name}`")),
                "{dir}/{name} is not in SOURCES.md"
            );
            files += 1;
        }
    }
    assert!(files >= 80, "{files} files");
}

// ---------------------------------------------------------------------------------------------
// The test's own reader

/// A call as compared: id, name, and the arguments as a JSON value (text that is not JSON is
/// kept as `{"<not JSON>": text}`).
#[derive(Clone, Debug, PartialEq)]
struct Call {
    id: Option<String>,
    name: String,
    args: Value,
}

fn args_value(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| json!({ "<not JSON>": text }))
}

impl Call {
    fn of(call: &ToolCall) -> Call {
        Call {
            id: call.id.clone(),
            name: call.name.clone(),
            args: args_value(&call.arguments),
        }
    }
}

/// What a recording should give.
#[derive(Debug, Default, PartialEq)]
struct Outcome {
    calls: Vec<Call>,
    errors: usize,
}

/// Ids for calls sent without one, as documented: `toolgen_0`, `toolgen_1`, ... in the order
/// the calls begin, counted per response (`ToolCall::parse`) or per stream.
#[derive(Default)]
struct Ids(u64);

impl Ids {
    fn or_make_up(&mut self, id: &Value) -> Option<String> {
        match id.as_str() {
            Some(id) => Some(id.to_owned()),
            None => {
                self.0 += 1;
                Some(format!("toolgen_{}", self.0 - 1))
            }
        }
    }
}

fn str_of(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_owned()
}

fn list(value: &Value) -> &[Value] {
    value.as_array().map(Vec::as_slice).unwrap_or_default()
}

fn expected_whole(provider: Provider, response: &Value) -> Outcome {
    let mut ids = Ids::default();
    let mut calls = Vec::new();
    match provider {
        Provider::Anthropic => {
            for block in list(&response["content"]) {
                if block["type"] == "tool_use" {
                    calls.push(Call {
                        id: ids.or_make_up(&block["id"]),
                        name: str_of(&block["name"]),
                        args: block["input"].clone(),
                    });
                }
            }
        }
        Provider::OpenAiChat => {
            for call in list(&response["choices"][0]["message"]["tool_calls"]) {
                if call.get("type").is_none_or(|kind| kind == "function") {
                    let function = &call["function"];
                    calls.push(Call {
                        id: Some(str_of(&call["id"])),
                        name: str_of(&function["name"]),
                        args: function["arguments"]
                            .as_str()
                            .map_or_else(|| json!({}), args_value),
                    });
                }
            }
        }
        Provider::OpenAiResponses => {
            for item in list(&response["output"]) {
                if item["type"] == "function_call" {
                    calls.push(Call {
                        id: Some(str_of(&item["call_id"])),
                        name: str_of(&item["name"]),
                        args: args_value(item["arguments"].as_str().unwrap()),
                    });
                }
            }
        }
        Provider::Gemini => {
            for part in list(&response["candidates"][0]["content"]["parts"]) {
                if let Some(call) = part.get("functionCall") {
                    calls.push(Call {
                        id: ids.or_make_up(&call["id"]),
                        name: str_of(&call["name"]),
                        args: call.get("args").cloned().unwrap_or_else(|| json!({})),
                    });
                }
            }
        }
        _ => unreachable!("no recordings for {provider}"),
    }
    Outcome { calls, errors: 0 }
}

fn expected_stream(provider: Provider, events: &[Value]) -> Outcome {
    match provider {
        Provider::Anthropic => anthropic_reader(events),
        Provider::OpenAiChat => chat_reader(events),
        Provider::OpenAiResponses => responses_reader(events),
        Provider::Gemini => gemini_reader(events),
        _ => unreachable!("no recordings for {provider}"),
    }
}

/// An Anthropic call being streamed: id, name, the block's `input`, the input deltas.
type AnthropicOpen = (Option<String>, String, Value, String);

/// A call cut off where it stands: complete when its arguments are JSON.
fn cut_off(out: &mut Outcome, id: Option<String>, name: String, text: &str) -> bool {
    match serde_json::from_str(text) {
        Ok(args) => {
            out.calls.push(Call { id, name, args });
            true
        }
        Err(_) => false,
    }
}

/// Anthropic: `tool_use` blocks given whole in `message_start`, or opened by
/// `content_block_start` (with their `input`) and completed by `input_json_delta`s until
/// `content_block_stop`. A block still open when another message starts, or at the end, was cut
/// off: an error unless what it has is complete JSON.
fn anthropic_reader(events: &[Value]) -> Outcome {
    let mut out = Outcome::default();
    let mut ids = Ids::default();
    let mut open: BTreeMap<u64, AnthropicOpen> = BTreeMap::new();
    let end = |open: &mut BTreeMap<u64, AnthropicOpen>, out: &mut Outcome| {
        let mut unfinished = false;
        for (_, (id, name, input, text)) in std::mem::take(open) {
            let text = if text.trim().is_empty() && input.as_object().is_some_and(|o| !o.is_empty())
            {
                input.to_string()
            } else {
                text
            };
            if !cut_off(out, id, name, &text) {
                unfinished = true;
            }
        }
        out.errors += usize::from(unfinished);
    };
    for event in events {
        match event["type"].as_str().unwrap_or_default() {
            "message_start" => {
                end(&mut open, &mut out);
                for block in list(&event["message"]["content"]) {
                    if block["type"] == "tool_use" {
                        out.calls.push(Call {
                            id: ids.or_make_up(&block["id"]),
                            name: str_of(&block["name"]),
                            args: block["input"].clone(),
                        });
                    }
                }
            }
            "content_block_start" => {
                let block = &event["content_block"];
                if block["type"] == "tool_use" {
                    let index = event["index"].as_u64().unwrap();
                    let id = ids.or_make_up(&block["id"]);
                    let input = block["input"].clone();
                    open.insert(index, (id, str_of(&block["name"]), input, String::new()));
                }
            }
            "content_block_delta" => {
                let index = event["index"].as_u64().unwrap();
                if event["delta"]["type"] == "input_json_delta"
                    && let Some(call) = open.get_mut(&index)
                {
                    call.3
                        .push_str(event["delta"]["partial_json"].as_str().unwrap());
                }
            }
            "content_block_stop" => {
                let index = event["index"].as_u64().unwrap();
                if let Some((id, name, input, text)) = open.remove(&index) {
                    let args = if text.trim().is_empty() {
                        input
                    } else {
                        args_value(&text)
                    };
                    out.calls.push(Call { id, name, args });
                }
            }
            "error" => out.errors += 1,
            _ => {}
        }
    }
    end(&mut open, &mut out);
    out
}

/// An OpenAI Chat call being streamed: id, name, arguments text, whether any fragment carried
/// `arguments`, whether it is of another tool type.
type ChatOpen = (Option<String>, String, String, bool, bool);

/// OpenAI Chat and compatible servers: fragments of the first choice, by `index` (or, without
/// one, their position in the chunk's `tool_calls`); a new id at an index in use starts another
/// call. All calls end at a `finish_reason`, or at the end.
fn chat_reader(events: &[Value]) -> Outcome {
    let mut out = Outcome::default();
    let mut open: BTreeMap<u64, ChatOpen> = BTreeMap::new();
    let close = |call: ChatOpen, out: &mut Outcome| {
        let (id, name, text, sent, other) = call;
        if !other {
            let args = if sent { args_value(&text) } else { json!({}) };
            out.calls.push(Call { id, name, args });
        }
    };
    for chunk in events {
        if chunk.get("error").is_some_and(|e| !e.is_null()) {
            out.errors += 1;
            continue;
        }
        for choice in list(&chunk["choices"]) {
            if choice["index"].as_u64().unwrap_or(0) != 0 {
                continue;
            }
            for (position, fragment) in list(&choice["delta"]["tool_calls"]).iter().enumerate() {
                let key = fragment["index"].as_u64().unwrap_or(position as u64);
                let id = fragment["id"].as_str().filter(|id| !id.is_empty());
                let starts = match open.get(&key) {
                    None => true,
                    Some(call) => id.is_some() && call.0.as_deref() != id,
                };
                if starts {
                    if let Some(call) = open.remove(&key) {
                        close(call, &mut out);
                    }
                    let other = fragment["type"].as_str().is_some_and(|t| t != "function");
                    let name = str_of(&fragment["function"]["name"]);
                    open.insert(key, (None, name, String::new(), false, other));
                }
                let call = open.get_mut(&key).unwrap();
                if call.0.is_none() {
                    call.0 = id.map(str::to_owned);
                }
                if let Some(arguments) = fragment["function"]["arguments"].as_str() {
                    call.2.push_str(arguments);
                    call.3 = true;
                }
            }
            if !choice["finish_reason"].is_null() {
                for (_, call) in std::mem::take(&mut open) {
                    close(call, &mut out);
                }
            }
        }
    }
    let mut unfinished = false;
    for (_, (id, name, text, sent, other)) in open {
        let text = if sent { text } else { "{}".to_owned() };
        if !other && !cut_off(&mut out, id, name, &text) {
            unfinished = true;
        }
    }
    out.errors += usize::from(unfinished);
    out
}

/// OpenAI Responses: each `function_call` item's final form in `response.output_item.done`.
fn responses_reader(events: &[Value]) -> Outcome {
    let mut out = Outcome::default();
    let mut open: BTreeMap<u64, (String, String, String)> = BTreeMap::new();
    for event in events {
        match event["type"].as_str().unwrap_or_default() {
            "response.output_item.added" if event["item"]["type"] == "function_call" => {
                let item = &event["item"];
                open.insert(
                    event["output_index"].as_u64().unwrap(),
                    (
                        str_of(&item["call_id"]),
                        str_of(&item["name"]),
                        String::new(),
                    ),
                );
            }
            "response.function_call_arguments.delta" => {
                if let Some(call) = open.get_mut(&event["output_index"].as_u64().unwrap()) {
                    call.2.push_str(event["delta"].as_str().unwrap());
                }
            }
            "response.output_item.done" if event["item"]["type"] == "function_call" => {
                open.remove(&event["output_index"].as_u64().unwrap());
                let item = &event["item"];
                out.calls.push(Call {
                    id: Some(str_of(&item["call_id"])),
                    name: str_of(&item["name"]),
                    args: args_value(item["arguments"].as_str().unwrap()),
                });
            }
            "error" | "response.failed" => out.errors += 1,
            _ => {}
        }
    }
    let mut unfinished = false;
    for (_, (id, name, text)) in open {
        unfinished |= !cut_off(&mut out, Some(id), name, &text);
    }
    out.errors += usize::from(unfinished);
    out
}

/// A step of a Gemini `jsonPath`.
enum Step {
    Key(String),
    Index(usize),
}

/// `$.a.b[2].c`: the paths the recordings use.
fn json_path(path: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut rest = path.strip_prefix('$').unwrap();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            steps.push(Step::Key(after[..end].to_owned()));
            rest = &after[end..];
        } else {
            let after = rest.strip_prefix('[').unwrap();
            let end = after.find(']').unwrap();
            steps.push(Step::Index(after[..end].parse().unwrap()));
            rest = &after[end + 1..];
        }
    }
    steps
}

fn slot<'a>(mut at: &'a mut Value, steps: &[Step]) -> &'a mut Value {
    for step in steps {
        at = match step {
            Step::Key(key) => {
                if !at.is_object() {
                    *at = Value::Object(Map::new());
                }
                at.as_object_mut()
                    .unwrap()
                    .entry(key.clone())
                    .or_insert(Value::Null)
            }
            Step::Index(index) => {
                if !at.is_array() {
                    *at = Value::Array(Vec::new());
                }
                let items = at.as_array_mut().unwrap();
                while items.len() <= *index {
                    items.push(Value::Null);
                }
                &mut items[*index]
            }
        };
    }
    at
}

/// A Gemini call whose arguments stream: id, name, arguments so far, the path of a string still
/// to be continued.
type GeminiOpen = (Option<String>, String, Value, Option<String>);

/// Gemini: a `functionCall` part with a `name` begins a call (with its `args`); `partialArgs`
/// set the values at their `jsonPath`s (a string with `willContinue` goes on in the next
/// `stringValue` for the same path); the call ends at the first part without
/// `willContinue: true`, or at the end of the stream unless a string is unfinished.
fn gemini_reader(events: &[Value]) -> Outcome {
    let mut out = Outcome::default();
    let mut ids = Ids::default();
    let mut open: Option<GeminiOpen> = None;
    for chunk in events {
        if chunk.get("error").is_some_and(|e| !e.is_null()) {
            out.errors += 1;
            continue;
        }
        if list(&chunk["candidates"]).is_empty() {
            out.errors += usize::from(!chunk["promptFeedback"]["blockReason"].is_null());
            continue;
        }
        for part in list(&chunk["candidates"][0]["content"]["parts"]) {
            let Some(call) = part.get("functionCall") else {
                continue;
            };
            if let Some(name) = call["name"].as_str() {
                if let Some((id, name, args, _)) = open.take() {
                    out.calls.push(Call { id, name, args });
                }
                let args = call.get("args").cloned().unwrap_or_else(|| json!({}));
                open = Some((ids.or_make_up(&call["id"]), name.to_owned(), args, None));
            }
            if let Some((_, _, args, continued)) = &mut open {
                for arg in list(&call["partialArgs"]) {
                    let path = str_of(&arg["jsonPath"]);
                    let at = slot(args, &json_path(&path));
                    if let Some(text) = arg["stringValue"].as_str() {
                        match (continued.as_deref() == Some(path.as_str()), &mut *at) {
                            (true, Value::String(so_far)) => so_far.push_str(text),
                            _ => *at = json!(text),
                        }
                    } else if let Some(number) = arg.get("numberValue") {
                        *at = number.clone();
                    } else if let Some(flag) = arg.get("boolValue") {
                        *at = flag.clone();
                    } else {
                        *at = Value::Null;
                    }
                    let goes_on = arg["stringValue"].is_string() && arg["willContinue"] == true;
                    *continued = goes_on.then_some(path);
                }
            }
            if call["willContinue"] != true
                && let Some((id, name, args, _)) = open.take()
            {
                out.calls.push(Call { id, name, args });
            }
        }
    }
    if let Some((id, name, args, continued)) = open {
        match continued {
            None => out.calls.push(Call { id, name, args }),
            Some(_) => out.errors += 1,
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Replaying streams

/// What toolgen gave for a stream: the calls, and the errors with the event they came at
/// (`None`: `finish`).
#[derive(Debug, Default)]
struct Replay {
    calls: Vec<ToolCall>,
    errors: Vec<(Option<usize>, StreamError)>,
}

impl Replay {
    fn outcome(&self) -> Outcome {
        Outcome {
            calls: self.calls.iter().map(Call::of).collect(),
            errors: self.errors.len(),
        }
    }
}

/// Pushes every event, going on after errors, then finishes. With `progress`, looks at the
/// pending calls after every event and checks each against the call it becomes.
fn replay(provider: Provider, events: &[Value], progress: bool) -> Replay {
    let mut stream = ToolCallStream::new(provider);
    let mut replay = Replay::default();
    let mut seen: Vec<(Option<String>, Option<Value>)> = Vec::new();
    for (at, event) in events.iter().enumerate() {
        match stream.push(event) {
            Ok(calls) => replay.calls.extend(calls),
            Err(error) => replay.errors.push((Some(at), error)),
        }
        if progress {
            for call in stream.pending() {
                seen.push((call.id.map(str::to_owned), call.partial.cloned()));
            }
        }
    }
    match stream.finish() {
        Ok(calls) => replay.calls.extend(calls),
        Err(error) => replay.errors.push((None, error)),
    }
    for (id, partial) in seen {
        let Some(call) = replay.calls.iter().find(|call| call.id == id) else {
            continue; // cut off: it never became a call
        };
        if let (Some(partial), Ok(full)) = (partial, serde_json::from_str(&call.arguments)) {
            assert!(is_prefix(&partial, &full), "{partial} of {full}");
        }
    }
    replay
}

/// Each character of `text` as its own piece.
fn chars(text: &str) -> Vec<String> {
    text.chars().map(String::from).collect()
}

/// The same stream with every argument delta cut into one-character deltas.
fn one_character_deltas(provider: Provider, events: &[Value]) -> Vec<Value> {
    let mut split = Vec::new();
    for event in events {
        match provider {
            Provider::Anthropic if event["delta"]["type"] == "input_json_delta" => {
                let text = event["delta"]["partial_json"].as_str().unwrap();
                for piece in chars(text) {
                    let mut event = event.clone();
                    event["delta"]["partial_json"] = json!(piece);
                    split.push(event);
                }
                if text.is_empty() {
                    split.push(event.clone());
                }
            }
            Provider::OpenAiChat => split.extend(split_chat_chunk(event)),
            Provider::OpenAiResponses
                if event["type"] == "response.function_call_arguments.delta" =>
            {
                for piece in chars(event["delta"].as_str().unwrap()) {
                    let mut event = event.clone();
                    event["delta"] = json!(piece);
                    split.push(event);
                }
            }
            Provider::Gemini => split.extend(split_gemini_chunk(event)),
            _ => split.push(event.clone()),
        }
    }
    split
}

/// A chat chunk as several: chunk `j` carries character `j` of every fragment's arguments, each
/// fragment staying at its position (without `index`, the position tells calls apart); the first
/// carries the rest of each fragment and the last the `finish_reason`.
fn split_chat_chunk(chunk: &Value) -> Vec<Value> {
    let Some(fragments) = chunk
        .pointer("/choices/0/delta/tool_calls")
        .and_then(Value::as_array)
    else {
        return vec![chunk.clone()];
    };
    let pieces: Vec<Option<Vec<String>>> = fragments
        .iter()
        .map(|f| f["function"]["arguments"].as_str().map(chars))
        .collect();
    let count = pieces
        .iter()
        .flatten()
        .map(Vec::len)
        .max()
        .unwrap_or(0)
        .max(1);
    (0..count)
        .map(|j| {
            let mut chunk = chunk.clone();
            if j + 1 < count {
                chunk["choices"][0]["finish_reason"] = Value::Null;
            }
            let list = chunk["choices"][0]["delta"]["tool_calls"]
                .as_array_mut()
                .unwrap();
            for (fragment, pieces) in list.iter_mut().zip(&pieces) {
                if j > 0 {
                    let mut rest = json!({});
                    if let Some(index) = fragment.get("index") {
                        rest["index"] = index.clone();
                    }
                    rest["function"] = json!({});
                    *fragment = rest;
                }
                if let Some(pieces) = pieces {
                    let piece = pieces.get(j).cloned().unwrap_or_default();
                    fragment["function"]["arguments"] = json!(piece);
                }
            }
            chunk
        })
        .collect()
}

/// A Gemini chunk as several: every `stringValue` of `partialArgs` one character at a time, all
/// but the last piece with `willContinue: true` (the part too).
fn split_gemini_chunk(chunk: &Value) -> Vec<Value> {
    let parts = list(&chunk["candidates"][0]["content"]["parts"]);
    let streams_strings = parts.len() == 1
        && list(&parts[0]["functionCall"]["partialArgs"])
            .iter()
            .any(|arg| {
                arg["stringValue"]
                    .as_str()
                    .is_some_and(|s| s.chars().count() > 1)
            });
    if !streams_strings {
        return vec![chunk.clone()];
    }
    let call = &parts[0]["functionCall"];
    let mut pieces: Vec<Value> = Vec::new();
    for arg in list(&call["partialArgs"]) {
        match arg["stringValue"].as_str() {
            Some(text) if !text.is_empty() => {
                let text = chars(text);
                for (at, piece) in text.iter().enumerate() {
                    let mut arg = arg.clone();
                    arg["stringValue"] = json!(piece);
                    if at + 1 < text.len() {
                        arg["willContinue"] = json!(true);
                    }
                    pieces.push(arg);
                }
            }
            _ => pieces.push(arg.clone()),
        }
    }
    let count = pieces.len();
    pieces
        .into_iter()
        .enumerate()
        .map(|(at, arg)| {
            let mut chunk = chunk.clone();
            let call = &mut chunk["candidates"][0]["content"]["parts"][0]["functionCall"];
            call["partialArgs"] = json!([arg]);
            if at + 1 < count {
                call["willContinue"] = json!(true);
            }
            chunk
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The whole corpus, both paths

#[test]
fn every_recording_gives_the_calls_its_reader_expects() {
    let mut streams = 0;
    let mut wholes = 0;
    let mut calls = 0;
    for (provider, name, recording) in corpus() {
        match recording {
            Recording::Whole(response) => {
                let expected = expected_whole(provider, &response);
                let parsed = ToolCall::parse(provider, &response)
                    .unwrap_or_else(|e| panic!("{provider} {name}: {e}"));
                let got = Outcome {
                    calls: parsed.iter().map(Call::of).collect(),
                    errors: 0,
                };
                assert_eq!(got, expected, "{provider} {name}");
                calls += got.calls.len();
                wholes += 1;
            }
            Recording::Stream(events) => {
                let expected = expected_stream(provider, &events);
                let got = replay(provider, &events, false);
                assert_eq!(
                    got.outcome(),
                    expected,
                    "{provider} {name}: {:?}",
                    got.errors
                );

                let split = one_character_deltas(provider, &events);
                assert_eq!(
                    expected_stream(provider, &split),
                    expected,
                    "{provider} {name}: the reader on one-character deltas"
                );
                let got = replay(provider, &split, true);
                assert_eq!(
                    got.outcome(),
                    expected,
                    "{provider} {name}, one-character deltas"
                );
                calls += got.calls.len();
                streams += 1;
            }
        }
    }
    assert!(
        streams >= 40 && wholes >= 35,
        "{streams} streams, {wholes} responses"
    );
    assert!(calls >= 75, "{calls} calls");
}

/// The splitting really splits: more events, and argument pieces of one character.
#[test]
fn one_character_deltas_are_one_character() {
    let events = stream_of(
        "gemini",
        "google-vertex-stream-tool-call-arguments-nested.1.chunks.txt",
    );
    let split = one_character_deltas(Provider::Gemini, &events);
    assert!(split.len() > 10 * events.len(), "{} events", split.len());
    let events = stream_of("openai_chat", "handmade-no-index.chunks.txt");
    let split = one_character_deltas(Provider::OpenAiChat, &events);
    // The argument pieces at each position of `tool_calls`, in order.
    let pieces = |events: &[Value]| -> BTreeMap<usize, Vec<String>> {
        let mut pieces: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for chunk in events {
            let fragments = list(&chunk["choices"][0]["delta"]["tool_calls"]);
            for (position, fragment) in fragments.iter().enumerate() {
                if let Some(piece) = fragment["function"]["arguments"].as_str() {
                    pieces.entry(position).or_default().push(piece.to_owned());
                }
            }
        }
        pieces
    };
    let (whole, split) = (pieces(&events), pieces(&split));
    assert_eq!(
        whole.keys().collect::<Vec<_>>(),
        split.keys().collect::<Vec<_>>()
    );
    for (position, pieces) in &split {
        assert!(pieces.iter().all(|piece| piece.chars().count() <= 1));
        assert!(pieces.len() > whole[position].len());
        assert_eq!(pieces.concat(), whole[position].concat());
    }
}

// ---------------------------------------------------------------------------------------------
// The issue's items

fn calls_of(replay: &Replay) -> Vec<(Option<&str>, &str, Value)> {
    replay
        .calls
        .iter()
        .map(|call| {
            (
                call.id.as_deref(),
                call.name.as_str(),
                args_value(&call.arguments),
            )
        })
        .collect()
}

/// 1. Programmatic tool calling: a `tool_use` block's whole `input` in `content_block_start`,
///    with no delta after it.
#[test]
fn anthropic_input_given_in_content_block_start() {
    let events = stream_of(
        "anthropic",
        "anthropic-programmatic-tool-calling.1.chunks.txt",
    );
    assert_eq!(
        events[163]["content_block"]["caller"]["type"],
        "code_execution_20250825"
    );
    let id = events[163]["content_block"]["id"].as_str();
    assert_eq!(events[164]["type"], "content_block_stop");
    let replay = replay(Provider::Anthropic, &events[..165], true);
    assert_eq!(
        calls_of(&replay),
        [(id, "rollDie", json!({"player": "player1"}))]
    );
    assert_eq!(replay.errors.len(), 0);

    // Given in the start, it shows as progress at once; deltas, when they come, replace it.
    let mut stream = ToolCallStream::new(Provider::Anthropic);
    stream
        .push(
            &json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}}),
        )
        .unwrap();
    assert_eq!(
        stream.pending().next().unwrap().partial,
        Some(&json!({"a": 1}))
    );
    stream
        .push(&json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": "{\"b\": 2}"}}))
        .unwrap();
    let done = stream
        .push(&json!({"type": "content_block_stop", "index": 0}))
        .unwrap();
    assert_eq!(done, [ToolCall::new("f", r#"{"b": 2}"#).with_id("toolu_1")]);
}

/// 2. `tool_use` blocks already in `message_start`, and several `message_start`s in a stream.
#[test]
fn anthropic_calls_prefilled_in_message_start() {
    let prefilled = replay(
        Provider::Anthropic,
        &stream_of(
            "anthropic",
            "anthropic-message-start-prepopulated-content.chunks.txt",
        ),
        true,
    );
    assert_eq!(
        calls_of(&prefilled),
        [(
            Some("toolu_followup"),
            "lookup_customer",
            json!({"id": "customer_123"})
        )]
    );
    assert_eq!(prefilled.errors.len(), 0);

    // One stream of a server-side tool loop: 1 call streamed, 13 given in `message_start`s.
    let events = stream_of(
        "anthropic",
        "anthropic-programmatic-tool-calling.1.chunks.txt",
    );
    let replay = replay(Provider::Anthropic, &events, true);
    assert_eq!(replay.errors.len(), 0);
    let players: Vec<String> = replay
        .calls
        .iter()
        .map(|call| {
            assert_eq!(call.name, "rollDie");
            args_value(&call.arguments)["player"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(players.len(), 14);
    for (turn, player) in players.iter().enumerate() {
        assert_eq!(player, &format!("player{}", turn % 2 + 1));
    }
}

/// 3. A new `message_start` while a `tool_use` block is open: the call was cut off.
#[test]
fn anthropic_new_message_while_a_call_is_open() {
    let events = stream_of("anthropic", "spliced-message-start.chunks.txt");
    let replay = replay(Provider::Anthropic, &events, true);
    assert_eq!(
        calls_of(&replay),
        [(
            Some("toolu_second"),
            "test-tool",
            json!({"value": "Sparkle Day"})
        )]
    );
    let [(Some(7), StreamError::Unfinished { call, .. })] = &replay.errors[..] else {
        panic!("{:?}", replay.errors);
    };
    assert_eq!(
        (call.id.as_deref(), call.arguments.as_str()),
        (Some("toolu_first"), r#"{"value":"Spark"#)
    );

    // A duplicate `message_start` with nothing open changes nothing.
    let duplicate = self::replay(
        Provider::Anthropic,
        &stream_of("anthropic", "duplicate-message-start.chunks.txt"),
        true,
    );
    assert_eq!((duplicate.calls.len(), duplicate.errors.len()), (0, 0));
}

/// 4. OpenAI-compatible servers: no `type`, no `index`, no `arguments`.
#[test]
fn openai_compatible_servers() {
    // Mistral: a call without `type`, whole and streamed without `index`.
    let mistral = [(
        Some("gSIMJiOkT"),
        "weather",
        json!({"location": "San Francisco"}),
    )];
    let whole = ToolCall::parse(
        Provider::OpenAiChat,
        &whole_of("openai_chat", "mistral-tool-call.json"),
    )
    .unwrap();
    let whole = Replay {
        calls: whole,
        errors: vec![],
    };
    assert_eq!(calls_of(&whole), mistral);
    let streamed = replay(
        Provider::OpenAiChat,
        &stream_of("openai_chat", "mistral-tool-call.chunks.txt"),
        true,
    );
    assert_eq!(calls_of(&streamed), mistral);

    // Without `index`, calls are told apart by id, and a fragment without id goes on with the
    // call at its position.
    let events = stream_of("openai_chat", "handmade-no-index.chunks.txt");
    let streamed = replay(Provider::OpenAiChat, &events, true);
    assert_eq!(
        calls_of(&streamed),
        [
            (Some("hmA1b2C3d"), "weather", json!({"location": "Paris"})),
            (Some("hmE4f5G6h"), "weather", json!({"location": "Rome"})),
            (Some("hmI7j8K9l"), "weather", json!({"location": "Oslo"})),
            (Some("hmM0n1O2p"), "time", json!({"zone": "CET"})),
        ]
    );
    assert_eq!(streamed.errors.len(), 0);

    // `arguments` left out: no arguments.
    let whole = ToolCall::parse(
        Provider::OpenAiChat,
        &whole_of("openai_chat", "handmade-no-arguments.json"),
    )
    .unwrap();
    assert_eq!(
        whole,
        [ToolCall::new("list_available_components", "{}").with_id("toolu_bdrk_handmade01")]
    );
    let streamed = replay(
        Provider::OpenAiChat,
        &stream_of("openai_chat", "handmade-no-arguments.chunks.txt"),
        true,
    );
    assert_eq!(
        streamed.calls,
        [ToolCall::new("list_available_components", "{}").with_id("toolu_bdrk_handmade02")]
    );
    // Also when the stream ends without a `finish_reason`.
    let events = stream_of("openai_chat", "handmade-no-arguments.chunks.txt");
    let cut = replay(Provider::OpenAiChat, &events[..2], false);
    assert_eq!((cut.calls.len(), cut.errors.len()), (1, 0));
}

/// 5. Gemini 3's streamed function call arguments (`partialArgs`).
#[test]
fn gemini_streamed_arguments() {
    let weather = replay(
        Provider::Gemini,
        &stream_of("gemini", "google-stream-tool-call-arguments.chunks.txt"),
        true,
    );
    assert_eq!(
        calls_of(&weather),
        [
            (
                Some("toolgen_0"),
                "getWeather",
                json!({"location": "Boston"})
            ),
            (
                Some("toolgen_1"),
                "getWeather",
                json!({"location": "San Francisco"})
            ),
        ]
    );
    assert!(weather.calls[0].thought_signature.is_some());
    assert_eq!(weather.calls[1].thought_signature, None);

    // A call without arguments, whole, between streamed ones.
    let screens = replay(
        Provider::Gemini,
        &stream_of("gemini", "google-stream-no-args-tool-call.chunks.txt"),
        true,
    );
    let names: Vec<(&str, Value)> = screens
        .calls
        .iter()
        .map(|call| (call.name.as_str(), args_value(&call.arguments)))
        .collect();
    assert_eq!(
        names,
        [
            ("read_theme", json!({})),
            ("read_screen", json!({"id": "A"})),
            ("read_screen", json!({"id": "B"})),
            ("read_screen", json!({"id": "C"})),
        ]
    );

    // Nested objects and arrays, a string over several parts.
    let events = stream_of(
        "gemini",
        "google-vertex-stream-tool-call-arguments-nested.1.chunks.txt",
    );
    let recipe = replay(Provider::Gemini, &events, true);
    let [call] = &recipe.calls[..] else {
        panic!("{:?}", recipe.calls)
    };
    let args = args_value(&call.arguments);
    assert_eq!(args["recipe"]["name"], "Lasagna");
    assert_eq!(args["recipe"]["ingredients"].as_array().unwrap().len(), 10);
    assert_eq!(
        args["recipe"]["ingredients"][0],
        json!({"amount": "16 oz", "name": "Lasagna noodles"})
    );
    assert_eq!(
        args["recipe"]["steps"][4],
        "In a 9x13 baking dish, spread a thin layer of meat sauce."
    );
    assert_eq!(args["recipe"]["steps"].as_array().unwrap().len(), 10);

    // Progress while it streams.
    let mut stream = ToolCallStream::new(Provider::Gemini);
    for event in &events[..4] {
        assert_eq!(stream.push(event).unwrap(), []);
    }
    let pending = stream.pending().next().unwrap();
    assert_eq!(
        (pending.id, pending.name),
        (Some("toolgen_0"), "cookRecipe")
    );
    assert_eq!(
        pending.partial,
        Some(&json!({"recipe": {"ingredients": [{"amount": "16 oz", "name": "Lasagna noodles"}]}}))
    );
    assert_eq!(args_value(pending.arguments), *pending.partial.unwrap());

    // The last part without `willContinue` ends the call; no terminating part follows.
    let items = replay(
        Provider::Gemini,
        &stream_of(
            "gemini",
            "google-stream-tool-call-array-arguments-missing-terminal-function-call.chunks.txt",
        ),
        true,
    );
    assert_eq!(
        calls_of(&items),
        [(
            Some("toolgen_0"),
            "writeItems",
            json!({"operations": [
                {"action": "add", "description": "Fresh red apple", "itemid": "apple_001", "price": 0.5},
                {"action": "add", "description": "Ripe yellow banana", "itemid": "banana_001", "price": 0.3}
            ]})
        )]
    );

    // Every kind of value; an id and a signature on the first part; a streamed call without
    // arguments; a stream that ends with a call open but complete.
    let values = replay(
        Provider::Gemini,
        &stream_of("gemini", "handmade-partial-args-values.chunks.txt"),
        true,
    );
    assert_eq!(values.errors.len(), 0);
    assert_eq!(
        calls_of(&values),
        [
            (
                Some("hm01call"),
                "searchFlights",
                json!({
                    "route": {"from": "RIX", "to": "Lisbon \"Portela\" ✈ T1"},
                    "passengers": 2, "maxPrice": 199.5, "direct": false, "promoCode": null,
                    "dates": ["2026-05-01", "2026-05-08"],
                    "legs": [{"cabin": "economy", "seats": [12]}, {"cabin": "business"}]
                })
            ),
            (Some("toolgen_0"), "listAirports", json!({})),
            (Some("toolgen_1"), "getTime", json!({"zone": "WET"})),
            (Some("toolgen_2"), "bookSeat", json!({"seat": "12A"})),
        ]
    );
    assert_eq!(
        values.calls[0].thought_signature.as_deref(),
        Some("aGFuZG1hZGUgc2lnbmF0dXJl")
    );

    // Cut off inside a string that was to go on: unfinished.
    let cut = replay(
        Provider::Gemini,
        &stream_of("gemini", "handmade-partial-args-cut-off.chunks.txt"),
        true,
    );
    assert_eq!(cut.calls, []);
    let [(None, StreamError::Unfinished { call, .. })] = &cut.errors[..] else {
        panic!("{:?}", cut.errors);
    };
    assert_eq!(call.name, "writeNote");
    assert_eq!(
        args_value(&call.arguments),
        json!({"title": "Shopping", "body": "milk, br"})
    );
}

/// 5. What cannot be a streamed Gemini call is an error that changes nothing.
#[test]
fn gemini_streamed_arguments_that_make_no_sense() {
    let chunk =
        |call: Value| json!({"candidates": [{"content": {"parts": [{"functionCall": call}]}}]});
    let cases = [
        (
            json!({"partialArgs": [{"jsonPath": "$.a", "stringValue": "x"}]}),
            "malformed Google Gemini stream event at `candidates[0].content.parts[0].functionCall`: \
             arguments for no call: no call is streaming",
        ),
        (
            json!({"partialArgs": [{"jsonPath": "a.b", "stringValue": "x"}], "willContinue": true}),
            "malformed Google Gemini stream event at \
             `candidates[0].content.parts[0].functionCall.partialArgs[0].jsonPath`: \
             `a.b` is not a JSON path such as `$.a.b[0]`",
        ),
        (
            json!({"partialArgs": [{"jsonPath": "$.a", "numberValue": "1"}], "willContinue": true}),
            "malformed Google Gemini stream event at \
             `candidates[0].content.parts[0].functionCall.partialArgs[0].numberValue`: \
             invalid type: string \"1\", expected a JSON number",
        ),
    ];
    for (call, message) in cases {
        let mut stream = ToolCallStream::new(Provider::Gemini);
        if call.get("willContinue").is_some() {
            stream
                .push(&chunk(json!({"name": "f", "willContinue": true})))
                .unwrap();
        }
        let before: Vec<String> = stream.pending().map(|c| c.arguments.to_owned()).collect();
        let err = stream.push(&chunk(call)).unwrap_err();
        assert_eq!(err.to_string(), message);
        let after: Vec<String> = stream.pending().map(|c| c.arguments.to_owned()).collect();
        assert_eq!(before, after);
    }
}

/// 6. A call without an id gets `toolgen_<n>`, the same from `ToolCall::parse` and from a
///    stream of the same response; Gemini is not sent back an id it never gave.
#[test]
fn calls_without_an_id() {
    let whole = ToolCall::parse(
        Provider::Anthropic,
        &whole_of("anthropic", "handmade-tool-use-without-id.json"),
    )
    .unwrap();
    let ids: Vec<Option<&str>> = whole.iter().map(|call| call.id.as_deref()).collect();
    assert_eq!(
        ids,
        [
            Some("toolgen_0"),
            Some("toolu_handmade_02"),
            Some("toolgen_1")
        ]
    );
    let streamed = replay(
        Provider::Anthropic,
        &stream_of("anthropic", "handmade-tool-use-without-id.chunks.txt"),
        true,
    );
    assert_eq!(
        streamed.calls.iter().map(Call::of).collect::<Vec<_>>(),
        whole.iter().map(Call::of).collect::<Vec<_>>()
    );
    assert_eq!(
        ToolResult::text("sunny").render(Provider::Anthropic, &whole[0]),
        json!({"type": "tool_result", "tool_use_id": "toolgen_0", "content": "sunny"})
    );

    // Gemini: the same ids from the whole response and from its stream.
    let whole = ToolCall::parse(
        Provider::Gemini,
        &whole_of("gemini", "google-tool-call.json"),
    )
    .unwrap();
    let streamed = replay(
        Provider::Gemini,
        &stream_of("gemini", "google-tool-call.chunks.txt"),
        true,
    );
    assert_eq!(whole[0].id.as_deref(), Some("toolgen_0"));
    assert_eq!(streamed.calls[0].id.as_deref(), Some("toolgen_0"));
    let result = ToolResult::text("sunny").render(Provider::Gemini, &whole[0]);
    assert_eq!(
        result,
        json!({"functionResponse": {"name": whole[0].name, "response": {"output": "sunny"}}})
    );
    // An id Gemini gave goes back.
    let given = ToolCall::new("weather", "{}").with_id("toolgen_x1");
    assert_eq!(
        ToolResult::text("sunny").render(Provider::Gemini, &given)["functionResponse"]["id"],
        "toolgen_x1"
    );
}

// ---------------------------------------------------------------------------------------------
// Hostile variations

/// The JSON pointer of every value in `value`.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let path = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
                out.push(path.clone());
                pointers(inner, path, out);
            }
        }
        Value::Array(items) => {
            for (index, inner) in items.iter().enumerate() {
                let path = format!("{at}/{index}");
                out.push(path.clone());
                pointers(inner, path, out);
            }
        }
        _ => {}
    }
}

/// Every value of every event of every recorded stream replaced by wrong ones, pushed into the
/// stream as it stood before that event: errors, never panics.
#[test]
fn every_value_of_every_recorded_event_replaced() {
    let wrong = [
        Value::Null,
        json!(-1),
        json!(1.5),
        json!("$["),
        json!("$.a[99999999999999999999]"),
        json!([]),
        json!({}),
        json!(true),
    ];
    let mut pushes = 0;
    for (provider, _, recording) in corpus() {
        let Recording::Stream(events) = recording else {
            continue;
        };
        let mut stream = ToolCallStream::new(provider);
        for event in &events {
            let mut paths = Vec::new();
            pointers(event, String::new(), &mut paths);
            // The first fields are the ones read; the long tails are usage and metadata.
            for path in paths.iter().take(48) {
                for value in &wrong {
                    let mut mutated = event.clone();
                    *mutated.pointer_mut(path).unwrap() = value.clone();
                    let mut copy = stream.clone();
                    let _ = copy.push(&mutated);
                    let _ = copy.pending().count();
                    let _ = copy.finish();
                    pushes += 1;
                }
            }
            let _ = stream.push(event);
        }
    }
    assert!(pushes > 10_000, "{pushes}");
}

/// Issue 50, programmatic tool calling: a call made by code the model wrote carries a `caller`
/// (OpenAI Responses `{"type":"program","caller_id"}`, Anthropic
/// `{"type":"code_execution_20250825","tool_id"}`), kept on the call from a whole response and
/// from its stream alike, and sent back on the Responses API's output.
#[test]
fn programmatic_calls_keep_their_caller() {
    use toolgen::Caller;

    // What each recording's callers are, read here from the raw JSON.
    fn caller_of(sent: &Value) -> Option<Caller> {
        let id = sent
            .get("caller_id")
            .or_else(|| sent.get("tool_id"))
            .and_then(Value::as_str);
        Some(Caller {
            kind: sent.get("type")?.as_str()?.to_owned(),
            id: id.map(str::to_owned),
        })
    }
    for (provider, dir, name, items) in [
        (
            Provider::OpenAiResponses,
            "openai_responses",
            "programmatic-tool-calling.2",
            "/output",
        ),
        (
            Provider::Anthropic,
            "anthropic",
            "anthropic-programmatic-tool-calling.1",
            "/content",
        ),
    ] {
        let response = whole_of(dir, &format!("{name}.json"));
        let kind = match provider {
            Provider::Anthropic => "tool_use",
            _ => "function_call",
        };
        let expected: Vec<Option<Caller>> = list(response.pointer(items).unwrap())
            .iter()
            .filter(|item| item["type"] == kind)
            .map(|item| caller_of(&item["caller"]))
            .collect();
        assert!(expected.iter().any(|caller| {
            caller
                .as_ref()
                .is_some_and(|caller| !caller.is_direct() && caller.id.is_some())
        }));
        let calls = ToolCall::parse(provider, &response).unwrap();
        let callers: Vec<Option<Caller>> = calls.iter().map(|call| call.caller.clone()).collect();
        assert_eq!(callers, expected, "{name}.json");

        // The stream (a recording of its own) gives its first call the caller of the first
        // call event: the Responses API's `output_item.done` item, Anthropic's
        // `content_block_start` block.
        let events = stream_of(dir, &format!("{name}.chunks.txt"));
        let first = events
            .iter()
            .find_map(|event| match provider {
                Provider::Anthropic => event
                    .pointer("/content_block")
                    .filter(|block| block["type"] == "tool_use"),
                _ => event
                    .pointer("/item")
                    .filter(|item| item["type"] == "function_call")
                    .filter(|_| event["type"] == "response.output_item.done"),
            })
            .unwrap();
        let streamed = replay(provider, &events, false);
        assert_eq!(streamed.errors.len(), 0);
        assert!(first["caller"]["type"].is_string());
        assert_eq!(
            streamed.calls[0].caller,
            caller_of(&first["caller"]),
            "{name}.chunks.txt"
        );
    }

    // The output carries the caller and namespace back, as `ToolCallCallerParam`.
    let response = whole_of("openai_responses", "programmatic-tool-calling.2.json");
    let call = &ToolCall::parse(Provider::OpenAiResponses, &response).unwrap()[0];
    assert_eq!(
        ToolResult::text("7").render(Provider::OpenAiResponses, call),
        json!({"type": "function_call_output", "call_id": "call_IYnPSr6i8TyBPs1H9U539pUP",
               "output": "7", "caller": {"type": "program", "caller_id": "call_O2IvSLQcJ0bwIvJZ2ovGV69M"}})
    );
    let namespaced = json!({"output": [{"type": "function_call", "call_id": "c", "name": "f",
        "arguments": "{}", "namespace": "crm", "caller": {"type": "direct"}}]});
    let call = &ToolCall::parse(Provider::OpenAiResponses, &namespaced).unwrap()[0];
    assert_eq!(call.namespace.as_deref(), Some("crm"));
    assert_eq!(
        ToolResult::text("ok").render(Provider::OpenAiResponses, call),
        json!({"type": "function_call_output", "call_id": "c", "output": "ok",
               "caller": {"type": "direct"}, "namespace": "crm"})
    );
}
