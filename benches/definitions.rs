//! Getting a tool's definition, toolgen against schemars, on the `emit_flashcards` tool.
//!
//! Run with `cargo bench --bench definitions`. All benchmarks are in one criterion group, so the
//! numbers being compared come from the same run:
//!
//! - `schema_text`: the input schema as JSON text. Ours is a const (`&'static str`, and
//!   `.to_owned()` for a `String` like the baseline's); the baseline is `schemars::schema_for!`
//!   followed by `serde_json::to_string`.
//! - `definition`: the Anthropic tool object as a `serde_json::Value`. Ours is
//!   `EmitFlashcards::definition(Provider::Anthropic)`; the baseline builds the same object around
//!   `schema_for!`.
//!
//!   With the `schemars1` feature, toolgen's derive implements `schemars::JsonSchema` itself
//!   (schemars' derive is then left out): the `schemars` lines measure `schema_for!` through
//!   toolgen's impl, `cargo bench --bench definitions --features schemars1`.
//! - `parse`: a 20-card call, parsed with `EmitFlashcards::parse_args` and with plain
//!   `serde_json::from_str`, and the same call with an invalid `unit` in card 15.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::{Provider, Tool, ToolSchema};

/// Returns a strictly structured JSON with a set of flashcards for the words and phrases of the
/// text.
#[derive(Tool, Deserialize, Debug)]
#[cfg_attr(not(feature = "schemars1"), derive(schemars::JsonSchema))]
#[tool(name = "emit_flashcards")]
#[allow(dead_code)]
struct EmitFlashcards {
    /// The flashcards, at least one.
    flashcards: Vec<Flashcard>,
}

/// One word or phrase to learn.
#[derive(ToolSchema, Deserialize, Debug)]
#[cfg_attr(not(feature = "schemars1"), derive(schemars::JsonSchema))]
#[allow(dead_code)]
struct Flashcard {
    /// The dictionary form (Latvian).
    base_form: String,
    /// Translation of the dictionary form (Russian).
    base_translation: Option<String>,
    /// Whether this is a single word or a phrase.
    unit: Unit,
    /// Inflected forms met in the text.
    #[serde(default)]
    forms: Vec<Form>,
    /// Sentences of the text in which the word occurs.
    contexts: Vec<Context>,
    /// Whether the card is shown to the learner.
    visible: bool,
}

/// A single word or a multi-word phrase.
#[derive(ToolSchema, Deserialize, Debug)]
#[cfg_attr(not(feature = "schemars1"), derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
enum Unit {
    Word,
    Phrase,
}

/// An inflected form of the base form.
#[derive(ToolSchema, Deserialize, Debug)]
#[cfg_attr(not(feature = "schemars1"), derive(schemars::JsonSchema))]
#[allow(dead_code)]
struct Form {
    /// The form as it appears in the text.
    form: String,
    /// Its translation.
    translation: String,
    /// Grammatical description, e.g. "genitive singular".
    #[serde(rename = "type")]
    kind: String,
}

/// A sentence of the text and its translation.
#[derive(ToolSchema, Deserialize, Debug)]
#[cfg_attr(not(feature = "schemars1"), derive(schemars::JsonSchema))]
#[allow(dead_code)]
struct Context {
    /// The sentence in Latvian.
    lv: String,
    /// The sentence in Russian.
    ru: String,
    /// Sentence id in the source text.
    sid: Option<f64>,
    /// Sentence signature.
    sig: Option<String>,
}

/// The same object as `EmitFlashcards::definition(Provider::Anthropic)`, from schemars.
fn schemars_definition() -> Value {
    json!({
        "name": "emit_flashcards",
        "description": EmitFlashcards::DESCRIPTION,
        "input_schema": schemars::schema_for!(EmitFlashcards).to_value(),
    })
}

/// A model's call with `cards` flashcards; the card at index `bad`, if any, has an invalid `unit`.
fn call_text(cards: usize, bad: Option<usize>) -> String {
    let cards: Vec<Value> = (0..cards)
        .map(|i| {
            let unit = if Some(i) == bad {
                "sentence"
            } else if i % 3 == 0 {
                "phrase"
            } else {
                "word"
            };
            json!({
                "base_form": format!("vārds {i}"),
                "base_translation": format!("слово {i}"),
                "unit": unit,
                "forms": [
                    {"form": format!("vārda {i}"), "translation": format!("слова {i}"), "type": "genitive singular"},
                    {"form": format!("vārdus {i}"), "translation": format!("слова {i}"), "type": "accusative plural"},
                ],
                "contexts": [
                    {"lv": format!("Šis ir teikums numur {i}."), "ru": format!("Это предложение номер {i}."), "sid": i as f64, "sig": format!("s{i}")},
                    {"lv": "Vēl viens teikums.", "ru": "Ещё одно предложение.", "sid": null},
                ],
                "visible": i % 2 == 0,
            })
        })
        .collect();
    json!({ "flashcards": cards }).to_string()
}

/// Get the current weather for a city: the small call of the parse benchmark.
#[derive(Tool, Deserialize, Debug)]
#[allow(dead_code)]
struct GetWeather {
    /// City name.
    city: String,
    units: Option<Units>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
enum Units {
    Celsius,
    Fahrenheit,
}

/// Every benchmark, in one criterion group so the ratios come from the same run.
fn emit_flashcards(c: &mut Criterion) {
    let valid = call_text(20, None);
    let invalid = call_text(20, Some(14));
    assert_eq!(
        EmitFlashcards::parse_args(&valid).unwrap().flashcards.len(),
        20
    );
    assert_eq!(
        EmitFlashcards::parse_args(&invalid).unwrap_err().path(),
        "flashcards[14].unit"
    );

    let mut group = c.benchmark_group("emit_flashcards");

    // The input schema as JSON text.
    group.bench_function("schema_text/toolgen_const", |b| {
        b.iter(|| black_box(EmitFlashcards::INPUT_SCHEMA))
    });
    group.bench_function("schema_text/toolgen_const_to_owned", |b| {
        b.iter(|| black_box(EmitFlashcards::INPUT_SCHEMA).to_owned())
    });
    group.bench_function("schema_text/schemars_schema_for_to_string", |b| {
        b.iter(|| serde_json::to_string(&schemars::schema_for!(EmitFlashcards)).unwrap())
    });

    // The Anthropic tool object as a `serde_json::Value`.
    group.bench_function("definition/toolgen_anthropic", |b| {
        b.iter(|| EmitFlashcards::definition(black_box(Provider::Anthropic)))
    });
    group.bench_function("definition/schemars_anthropic", |b| {
        b.iter(schemars_definition)
    });

    // Parsing a 20-card call, valid and with an invalid `unit` in card 15.
    group.bench_function("parse_ok/toolgen_parse_args", |b| {
        b.iter(|| EmitFlashcards::parse_args(black_box(&valid)))
    });
    group.bench_function("parse_ok/serde_json_from_str", |b| {
        b.iter(|| serde_json::from_str::<EmitFlashcards>(black_box(&valid)))
    });
    group.bench_function("parse_err/toolgen_parse_args", |b| {
        b.iter(|| EmitFlashcards::parse_args(black_box(&invalid)))
    });
    group.bench_function("parse_err/serde_json_from_str", |b| {
        b.iter(|| serde_json::from_str::<EmitFlashcards>(black_box(&invalid)))
    });

    // A small call.
    let small = r#"{"city":"Riga","units":"celsius"}"#;
    group.bench_function("parse_small/toolgen_parse_args", |b| {
        b.iter(|| GetWeather::parse_args(black_box(small)))
    });
    group.bench_function("parse_small/serde_json_from_str", |b| {
        b.iter(|| serde_json::from_str::<GetWeather>(black_box(small)))
    });

    group.finish();
}

/// Sanity checks before timing: both sides describe the same tool.
fn check() {
    let ours: Value = serde_json::from_str(EmitFlashcards::INPUT_SCHEMA).unwrap();
    assert_eq!(ours["required"], json!(["flashcards"]));
    let card = &ours["properties"]["flashcards"]["items"];
    assert_eq!(
        card["required"],
        json!(["base_form", "unit", "contexts", "visible"])
    );
    let theirs = schemars_definition();
    assert_eq!(
        theirs["input_schema"]["$defs"]["Flashcard"]["required"],
        card["required"]
    );
    let definition = EmitFlashcards::definition(Provider::Anthropic);
    assert_eq!(definition["name"], theirs["name"]);
    assert_eq!(definition["description"], theirs["description"]);
    eprintln!(
        "input schema: toolgen {} bytes (inlined), schemars {} bytes ($defs and $ref)",
        EmitFlashcards::INPUT_SCHEMA.len(),
        serde_json::to_string(&schemars::schema_for!(EmitFlashcards))
            .unwrap()
            .len()
    );
}

fn config() -> Criterion {
    check();
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
}

criterion_group! {
    name = benches;
    config = config();
    targets = emit_flashcards
}
criterion_main!(benches);
