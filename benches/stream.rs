//! Streaming a 13 KB tool call delivered in 1,000 deltas (issue 7), against one `parse_args` of
//! the whole text.
//!
//! Run with `cargo bench --bench stream`. All benchmarks are in one criterion group, so the
//! numbers being compared come from the same run:
//!
//! - `parse_args`: `EmitFlashcards::parse_args` of the whole arguments text, the baseline.
//! - `serde_json_value`: the whole text read into a `serde_json::Value`, the tree a partial
//!   value is, built once.
//! - `assemble/anthropic`, `assemble/openai_chat`: a `ToolCallStream` taking the 1,002 decoded
//!   events (start, 1,000 deltas, stop) of that call; the events are built beforehand, as a
//!   client's SSE decoder would hand them over.
//! - `assemble_with_progress/anthropic`: the same, asking `pending()` for the partial value after
//!   every event, as a UI showing the arguments would.
//! - `partial_json_incremental`: a `PartialJson` fed the 1,000 deltas, its value read after each.
//! - `partial_json_every_prefix`: `partial_json` of the whole text so far after every delta, the
//!   way that re-reads everything each time; it grows with the square of the length.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::{PartialJson, Provider, Tool, ToolCallStream, ToolSchema, partial_json};

/// Returns the flashcards for the words and phrases of a text.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "emit_flashcards")]
#[allow(dead_code)]
struct EmitFlashcards {
    /// The flashcards, at least one.
    flashcards: Vec<Flashcard>,
}

/// One word or phrase to learn.
#[derive(ToolSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Flashcard {
    /// The dictionary form (Latvian).
    base_form: String,
    /// Translation of the dictionary form (Russian).
    base_translation: Option<String>,
    /// Whether this is a single word or a phrase.
    unit: Unit,
    /// Inflected forms met in the text.
    forms: Vec<Form>,
    /// Sentences of the text in which the word occurs.
    contexts: Vec<Context>,
    /// Whether the card is shown to the learner.
    visible: bool,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Word,
    Phrase,
}

/// An inflected form.
#[derive(ToolSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Form {
    form: String,
    translation: String,
    grammar: String,
}

/// A sentence of the text.
#[derive(ToolSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Context {
    sentence: String,
    translation: String,
    position: u32,
}

/// About 13 KB of arguments: 40 cards with Latvian and Cyrillic text.
fn arguments() -> String {
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

/// The text cut into `count` deltas of about equal size, at character boundaries.
fn deltas(text: &str, count: usize) -> Vec<&str> {
    let mut deltas = Vec::with_capacity(count);
    let mut start = 0;
    for i in 1..=count {
        let mut end = text.len() * i / count;
        while !text.is_char_boundary(end) {
            end += 1;
        }
        deltas.push(&text[start..end]);
        start = end;
    }
    deltas
}

fn anthropic_events(deltas: &[&str]) -> Vec<Value> {
    let mut events = vec![
        json!({"type": "content_block_start", "index": 1, "content_block":
        {"type": "tool_use", "id": "toolu_01", "name": "emit_flashcards", "input": {}}}),
    ];
    events.extend(deltas.iter().map(|delta| {
        json!({"type": "content_block_delta", "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": delta}})
    }));
    events.push(json!({"type": "content_block_stop", "index": 1}));
    events
}

fn chat_events(deltas: &[&str]) -> Vec<Value> {
    let chunk = |fragment: Value| {
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1",
            "choices": [{"index": 0, "delta": {"tool_calls": [fragment]}, "logprobs": null, "finish_reason": null}]})
    };
    let mut events = vec![chunk(
        json!({"index": 0, "id": "call_1", "type": "function",
        "function": {"name": "emit_flashcards", "arguments": ""}}),
    )];
    events.extend(
        deltas
            .iter()
            .map(|delta| chunk(json!({"index": 0, "function": {"arguments": delta}}))),
    );
    events.push(
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
        "model": "gpt-4.1", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    );
    events
}

fn assemble(provider: Provider, events: &[Value], progress: bool) -> usize {
    let mut stream = ToolCallStream::new(provider);
    let mut calls = Vec::new();
    for event in events {
        calls.extend(stream.push(event).unwrap());
        if progress {
            black_box(stream.pending().next().map(|call| call.partial));
        }
    }
    calls.extend(stream.finish().unwrap());
    calls.len()
}

fn bench(c: &mut Criterion) {
    let text = arguments();
    let deltas = deltas(&text, 1000);
    assert_eq!(deltas.concat(), text);
    let anthropic = anthropic_events(&deltas);
    let chat = chat_events(&deltas);
    assert!(EmitFlashcards::parse_args(&text).is_ok());
    eprintln!(
        "arguments: {} bytes in {} deltas; {} Anthropic events",
        text.len(),
        deltas.len(),
        anthropic.len()
    );

    let mut group = c.benchmark_group("stream");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));

    group.bench_function("parse_args", |b| {
        b.iter(|| EmitFlashcards::parse_args(black_box(&text)).unwrap())
    });
    group.bench_function("serde_json_value", |b| {
        b.iter(|| serde_json::from_str::<Value>(black_box(&text)).unwrap())
    });
    group.bench_function("assemble/anthropic", |b| {
        b.iter(|| assemble(Provider::Anthropic, black_box(&anthropic), false))
    });
    group.bench_function("assemble/openai_chat", |b| {
        b.iter(|| assemble(Provider::OpenAiChat, black_box(&chat), false))
    });
    group.bench_function("assemble_with_progress/anthropic", |b| {
        b.iter(|| assemble(Provider::Anthropic, black_box(&anthropic), true))
    });
    group.bench_function("partial_json_incremental", |b| {
        b.iter(|| {
            let mut partial = PartialJson::new();
            for delta in &deltas {
                partial.push(black_box(delta));
                black_box(partial.value());
            }
        })
    });
    group.bench_function("partial_json_every_prefix", |b| {
        b.iter(|| {
            let mut end = 0;
            for delta in &deltas {
                end += delta.len();
                black_box(partial_json(black_box(&text[..end])));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
