//! Structured answers: `Structured::parse` and `answer_text` of a whole provider response, and
//! `AnswerStream` fed a sequence of events, for every provider and both routes.
//!
//! The first byte picks the provider, the route and the answer's type (seed 000's flashcards,
//! or a small type with a range, an optional field and a default); the rest is read twice, as
//! one JSON response and as JSON Lines of stream events.
//!
//! What must hold: `parse` is `answer_text` then `parse_text`; an answer, written back out as
//! JSON, parses again into the same value; an event the stream refuses as not of the
//! provider's shape leaves the stream as it was; and nothing panics.

#![no_main]

#[path = "../../examples/seed_tools/mod.rs"]
#[allow(dead_code)]
mod seed_tools;

use std::fmt::Debug;

use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use toolgen::{AnswerError, Provider, Route, Structured, ToolSchema};

use seed_tools::flashcards::EmitFlashcards;

/// A city's weather.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
struct Weather {
    city: String,
    #[tool(range(min = -90, max = 60))]
    celsius: i32,
    #[serde(default)]
    note: Option<String>,
    #[tool(default = 1)]
    stations: u8,
}

static CARDS: Structured<EmitFlashcards> = Structured::from_tool(Route::Native);
static CARDS_BY_TOOL: Structured<EmitFlashcards> = Structured::from_tool(Route::Tool);
static WEATHER: Structured<Weather> = Structured::new(Route::Native);
static WEATHER_BY_TOOL: Structured<Weather> = Structured::new(Route::Tool);

/// An answer written back out parses again, into the same value.
fn check_again<T>(answer: &Structured<T>, value: &T)
where
    T: ToolSchema + DeserializeOwned + Serialize + PartialEq + Debug,
{
    let text = serde_json::to_string(value).expect("an answer writes out");
    match answer.parse_text(&text) {
        Ok(again) => assert_eq!(&again, value, "{text}"),
        Err(error) => panic!("an answer written out does not parse again: {error}: {text}"),
    }
}

fn run<T>(answer: &Structured<T>, provider: Provider, text: &str)
where
    T: ToolSchema + DeserializeOwned + Serialize + PartialEq + Debug,
{
    if let Ok(response) = serde_json::from_str::<Value>(text) {
        let parsed = answer.parse(provider, &response);
        let read = answer.answer_text(provider, &response);
        match (&parsed, read) {
            (Ok(value), Ok(text)) => {
                assert_eq!(answer.parse_text(&text).as_ref(), Ok(value));
                check_again(answer, value);
            }
            (Err(AnswerError::Invalid(_)), Ok(text)) => {
                assert!(answer.parse_text(&text).is_err(), "{text}");
            }
            (Err(error), Err(again)) => assert_eq!(error, &again),
            (parsed, read) => panic!("parse {parsed:?} and answer_text {read:?} disagree"),
        }
    }

    let mut stream = answer.stream(provider);
    for line in text.lines() {
        let Ok(event) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let before = (stream.text().to_owned(), stream.partial().cloned());
        match stream.push(&event) {
            Err(AnswerError::Stream(_)) => {
                let after = (stream.text().to_owned(), stream.partial().cloned());
                assert_eq!(after, before, "a refused event changed the stream: {line}");
            }
            Err(AnswerError::Failed { .. }) | Ok(()) => {}
            Err(other) => panic!("push gave {other:?}"),
        }
    }
    if let Ok(value) = stream.finish() {
        check_again(answer, &value);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let provider = Provider::ALL[usize::from(which & 7) % Provider::ALL.len()];
    match which >> 3 & 3 {
        0 => run(&CARDS, provider, text),
        1 => run(&CARDS_BY_TOOL, provider, text),
        2 => run(&WEATHER, provider, text),
        _ => run(&WEATHER_BY_TOOL, provider, text),
    }
});
