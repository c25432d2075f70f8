//! `partial_json` and `PartialJson` on arbitrary text.
//!
//! Checks, besides "no panic": reading the text in pieces (sizes from the first byte) gives what
//! reading it whole gives, and a complete JSON text that is not a bare number (which might still
//! go on) reads as the value `serde_json` reads.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolgen::{PartialJson, partial_json};

fuzz_target!(|data: &[u8]| {
    let Some((&step, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let whole = partial_json(text);

    let step = usize::from(step % 16) + 1;
    let mut pieces = PartialJson::new();
    let mut start = 0;
    while start < text.len() {
        let mut end = (start + step).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        pieces.push(&text[start..end]);
        start = end;
    }
    assert_eq!(
        pieces.value(),
        whole.as_ref(),
        "pieces of {step} bytes disagree"
    );

    if let Ok(value) = serde_json::from_str::<Value>(text)
        && !value.is_number()
    {
        assert_eq!(
            whole.as_ref(),
            Some(&value),
            "complete text read differently"
        );
    }
});
