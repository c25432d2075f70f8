//! What the MCP targets share: a runtime for one input, and what a JSON-RPC error reply to a
//! message that could not be read must be.

use serde_json::Value;

/// A runtime for one input, its clock paused: a timer (a body's read time, a session's idle
/// time, a call's timeout) runs out at once when every task waits, so an input runs the same
/// way each time, and one that would hang is seen at its timeout rather than waited for.
pub fn paused_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .expect("a runtime")
}

/// The id an error reply to `message` must carry: the message's own where it is a string or
/// an integer (MCP's `RequestId`), else `null` (a byte order mark before it is skipped).
pub fn readable_id(message: &[u8]) -> Value {
    let message = message.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(message);
    let value: Value = serde_json::from_slice(message).unwrap_or_default();
    match value.get("id") {
        Some(id) if id.is_string() || id.is_i64() || id.is_u64() => id.clone(),
        _ => Value::Null,
    }
}

/// How many of a too-long message's first bytes the server reads its id from (the runtime's
/// `mcp::head::HEAD_BYTES`).
pub const HEAD_BYTES: usize = 4096;

/// The id an error reply to a message over the size limit may carry: `null` (its id could not
/// be read), or a string or an integer that the message's first [`HEAD_BYTES`] hold whole as
/// the value of an `"id"` member. The server reads only the message object's own `id`; this
/// weaker oracle, written apart from the server's reader, holds it to ids that are there.
pub fn long_message_id(shown: &str, message: &[u8], reply: &Value) -> Value {
    let id = &reply["id"];
    if id.is_null() {
        return Value::Null;
    }
    assert!(
        id.is_string() || id.is_i64() || id.is_u64(),
        "{shown}: a reply's id of another kind: {reply}"
    );
    let head = message.get(..HEAD_BYTES).unwrap_or(message);
    let held = (0..head.len()).any(|at| {
        let Some(rest) = head[at..].strip_prefix(b"\"id\"") else {
            return false;
        };
        let rest = rest.trim_ascii_start();
        let Some(rest) = rest.strip_prefix(b":") else {
            return false;
        };
        serde_json::Deserializer::from_slice(rest.trim_ascii_start())
            .into_iter::<Value>()
            .next()
            .is_some_and(|value| value.is_ok_and(|value| &value == id))
    });
    assert!(
        held,
        "{shown}: the reply's id {id} is not in the message's head"
    );
    id.clone()
}

/// Checks a JSON-RPC error reply to `shown`: `"jsonrpc": "2.0"`, a code among `codes`, a
/// message, and the id `id`.
pub fn check_error_reply(shown: &str, reply: &Value, codes: &[i64], id: &Value) {
    assert_eq!(reply["jsonrpc"], "2.0", "{shown}: {reply}");
    let code = reply["error"]["code"].as_i64().unwrap_or_default();
    assert!(codes.contains(&code), "{shown}: {reply}");
    assert!(
        reply["error"]["message"]
            .as_str()
            .is_some_and(|message| !message.is_empty()),
        "{shown}: {reply}"
    );
    assert_eq!(&reply["id"], id, "{shown}: the reply's id");
}
