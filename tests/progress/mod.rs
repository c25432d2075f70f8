//! What the streaming tests share: how a call's progress (`pending()`) relates to its arguments.

use serde_json::Value;

/// Whether `shown` is what a partial value may show of `full`: strings a prefix, arrays the first
/// elements with only the last one partial, objects some members with at most one partial.
pub fn is_prefix(shown: &Value, full: &Value) -> bool {
    match (shown, full) {
        (Value::String(shown), Value::String(full)) => full.starts_with(shown.as_str()),
        (Value::Array(shown), Value::Array(full)) => {
            shown.len() <= full.len()
                && match shown.split_last() {
                    None => true,
                    Some((last, whole)) => {
                        whole[..] == full[..whole.len()] && is_prefix(last, &full[whole.len()])
                    }
                }
        }
        (Value::Object(shown), Value::Object(full)) => {
            let mut partial = 0;
            shown.iter().all(|(key, value)| match full.get(key) {
                Some(whole) if whole == value => true,
                Some(whole) if is_prefix(value, whole) => {
                    partial += 1;
                    partial == 1
                }
                _ => false,
            })
        }
        _ => shown == full,
    }
}
