//! Messages over a limit of 1,024 bytes, each with the id the server answers it with: its own
//! `id` where its first 4 KiB hold it, else `null`. One list for stdio and HTTP alike.

use serde_json::{Value, json};

/// The messages, and the ids of their answers.
pub fn messages() -> Vec<(String, Value)> {
    let pad = "x".repeat(2000);
    let far = "x".repeat(5000);
    vec![
        (
            format!(
                r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"pad":"{pad}"}}}}"#
            ),
            json!(7),
        ),
        // Whitespace around the `id` (a `\r`, not a `\n`, which ends a line over stdio).
        (
            format!(
                "{{ \"jsonrpc\" : \"2.0\" ,\r \"id\" :\t\"seven\" , \"method\":\"ping\",\"pad\":\"{pad}\"}}"
            ),
            json!("seven"),
        ),
        // After `method` and `params` that fit, `id`s inside them passed over.
        (
            format!(
                r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"add","arguments":{{"id":3,"b":[{{"id":4}},"}}"]}}}},"id":8,"pad":"{pad}"}}"#
            ),
            json!(8),
        ),
        // Beyond the head.
        (
            format!(r#"{{"jsonrpc":"2.0","method":"ping","params":{{"pad":"{far}"}},"id":9}}"#),
            Value::Null,
        ),
        // Only an `id` inside `params` within the head.
        (
            format!(
                r#"{{"jsonrpc":"2.0","method":"ping","params":{{"id":4,"pad":"{far}"}},"id":10}}"#
            ),
            Value::Null,
        ),
        (
            format!(r#"{{"jsonrpc":"2.0","method":"ping","pad":"{pad}"}}"#),
            Value::Null,
        ),
        (
            format!(r#"{{"jsonrpc":"2.0","id":1.5,"pad":"{pad}"}}"#),
            Value::Null,
        ),
        (
            format!(r#"[{{"jsonrpc":"2.0","id":11,"pad":"{pad}"}}]"#),
            Value::Null,
        ),
    ]
}
