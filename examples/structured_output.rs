//! Seed 000's flashcards as the model's typed answer, from every provider, offline: the request
//! fields that ask for them (natively, and as the forced `emit_flashcards` tool the document
//! uses), the answer read back into `EmitFlashcards` from a whole response and from a stream
//! (with the partial answer as it grows), and a refusal, which is its own error.
//!
//! The responses in `examples/recorded/structured/` are written in each provider's documented
//! shape (ids made up), one file per provider: `native`, `tool`, `stream` and `refusal`.
//!
//! Run: `cargo run --example structured_output`

#[path = "seed_tools/mod.rs"]
pub mod seed_tools;

use seed_tools::flashcards::EmitFlashcards;
use serde_json::Value;
use toolgen::{AnswerError, Provider, Route, Structured};

/// The flashcards asked for with each provider's structured outputs.
static NATIVE: Structured<EmitFlashcards> = Structured::from_tool(Route::Native);
/// The same type as a forced tool call: one argument apart.
static BY_TOOL: Structured<EmitFlashcards> = Structured::from_tool(Route::Tool);

pub const RECORDED: [(Provider, &str); 4] = [
    (
        Provider::Anthropic,
        include_str!("recorded/structured/anthropic.json"),
    ),
    (
        Provider::OpenAiChat,
        include_str!("recorded/structured/openai_chat.json"),
    ),
    (
        Provider::OpenAiResponses,
        include_str!("recorded/structured/openai_responses.json"),
    ),
    (
        Provider::Gemini,
        include_str!("recorded/structured/gemini.json"),
    ),
];

/// The request fields' keys, and where the schema went, in one line.
fn fields_line(output: &Structured<EmitFlashcards>, provider: Provider) -> String {
    let fields = output.request_fields(provider);
    let keys: Vec<&str> = fields.keys().map(String::as_str).collect();
    format!("{{{}}}", keys.join(", "))
}

/// One provider: the answer from each route and from the stream, and the refusal.
pub fn answers(provider: Provider, recorded: &Value) -> Result<EmitFlashcards, AnswerError> {
    let native = NATIVE.parse(provider, &recorded["native"])?;
    let by_tool = BY_TOOL.parse(provider, &recorded["tool"])?;
    assert_eq!(native, by_tool, "both routes give the same answer");

    let mut stream = NATIVE.stream(provider);
    let mut shown = 0;
    for event in recorded["stream"].as_array().into_iter().flatten() {
        stream.push(event)?;
        // What a UI would show as it arrives: the cards so far.
        let cards = stream
            .partial()
            .and_then(|answer| answer["flashcards"].as_array())
            .map_or(0, Vec::len);
        if cards > shown {
            shown = cards;
            println!("    streaming: {cards} card(s) so far");
        }
    }
    let streamed = stream.finish()?;
    assert_eq!(streamed, native, "the stream gives the same answer");

    match NATIVE.parse(provider, &recorded["refusal"]) {
        Err(error @ (AnswerError::Refused { .. } | AnswerError::Blocked { .. })) => {
            println!("    refusal: {error}");
        }
        other => println!("    refusal: unexpected {other:?}"),
    }
    Ok(native)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for (provider, text) in RECORDED {
        let recorded: Value = serde_json::from_str(text)?;
        println!("{provider}");
        println!("  native fields: {}", fields_line(&NATIVE, provider));
        println!("  tool fields:   {}", fields_line(&BY_TOOL, provider));
        let cards = answers(provider, &recorded)?;
        for card in &cards.flashcards.0 {
            println!(
                "  {} — {} ({:?}, {} context(s))",
                card.base_form,
                card.base_translation,
                card.unit,
                card.contexts.len()
            );
        }
    }
    Ok(())
}
