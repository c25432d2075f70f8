//! `ToolCall::parse` on arbitrary JSON for each provider, and `ToolCallStream` on arbitrary event
//! sequences.
//!
//! The first byte picks the provider. The rest is read twice: as one JSON value given to
//! `ToolCall::parse`, and as JSON Lines, each line an event pushed into a `ToolCallStream`
//! (asking for the pending calls after each), then `finish`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolgen::{Provider, ToolCall, ToolCallStream};

const PROVIDERS: [Provider; 5] = [
    Provider::Anthropic,
    Provider::OpenAiChat,
    Provider::OpenAiResponses,
    Provider::Gemini,
    Provider::Mcp,
];

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let provider = PROVIDERS[usize::from(which) % PROVIDERS.len()];
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };

    if let Ok(response) = serde_json::from_str::<Value>(text)
        && let Ok(calls) = ToolCall::parse(provider, &response)
    {
        for call in &calls {
            let _ = toolgen::partial_json(&call.arguments);
        }
    }

    let mut stream = ToolCallStream::new(provider);
    for line in text.lines() {
        let Ok(event) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let _ = stream.push(&event);
        for pending in stream.pending() {
            let _ = (pending.name.len(), pending.partial);
        }
    }
    // A call cut off is an error; the complete calls open beside it come out of the next
    // `finish`. Then the stream is empty and takes the next response.
    if stream.finish().is_err() {
        let _ = stream.finish();
    }
    assert_eq!(stream.pending().count(), 0);
    assert_eq!(stream.finish(), Ok(Vec::new()));
});
