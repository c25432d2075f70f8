//! `ToolCallStream` for OpenAI Responses on arbitrary event sequences (JSON Lines); see
//! `common/stream.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use toolgen::Provider;

#[path = "common/stream.rs"]
mod stream;

fuzz_target!(|data: &[u8]| stream::run(Provider::OpenAiResponses, data));
