//! The stream targets' shared body: `ToolCallStream` of one provider on an arbitrary sequence of
//! events.
//!
//! The input is read as JSON Lines, each line that is JSON an event pushed into the stream (the
//! others skipped). After each push the pending calls are asked for; a push refused as malformed
//! or as a failure must leave them as they were (`ToolCallStream::push` documents it); a call
//! that comes out has an id. Then `finish`, after which the stream is empty.

use serde_json::Value;
use toolgen::{Provider, StreamError, ToolCallStream};

/// The pending calls as they stand: id, name, arguments.
fn pending(stream: &mut ToolCallStream) -> Vec<(Option<String>, String, String)> {
    stream
        .pending()
        .map(|call| {
            (
                call.id.map(str::to_owned),
                call.name.to_owned(),
                call.arguments.to_owned(),
            )
        })
        .collect()
}

pub fn run(provider: Provider, data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut stream = ToolCallStream::new(provider);
    for line in text.lines() {
        let Ok(event) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let before = pending(&mut stream);
        match stream.push(&event) {
            Ok(calls) => {
                for call in calls {
                    assert!(call.id.is_some(), "a call without an id: {call:?}");
                    let _ = toolgen::partial_json(&call.arguments);
                }
            }
            Err(StreamError::Malformed { .. } | StreamError::Failed { .. }) => {
                assert_eq!(
                    pending(&mut stream),
                    before,
                    "a refused event changed the stream"
                );
            }
            Err(_) => {}
        }
        for call in stream.pending() {
            let _ = (call.name.len(), call.partial);
        }
    }
    if let Ok(calls) = stream.finish() {
        for call in calls {
            assert!(call.id.is_some(), "a call without an id: {call:?}");
        }
    }
    // `finish` empties the stream, even when a call was cut off.
    let _ = stream.finish();
    assert_eq!(stream.pending().count(), 0);
    assert_eq!(stream.finish(), Ok(Vec::new()));
}
