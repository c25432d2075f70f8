//! The `requestState` of `2026-07-28`'s input-required rounds, sealed: the server writes the
//! answers so far and the questions it asked, with an HMAC-SHA256 tag under its key over them
//! and the call they belong to (the tool, its arguments, who called); the client echoes it on
//! its retry, and a state the server did not write for that call, or that was changed, is
//! refused. So a client cannot rewrite an earlier answer, move one to another call, or answer a
//! question it was not asked.

use std::sync::Arc;

use hmac::{Hmac, KeyInit, Mac};
use serde_json::Value;
use sha2::Sha256;

use super::McpServer;

/// A server's key for its `requestState`s.
pub(crate) struct StateKey([u8; 32]);

impl StateKey {
    /// A random key, for a server whose rounds all come back to the same process.
    pub(crate) fn random() -> Self {
        let mut key = [0_u8; 32];
        if getrandom::fill(&mut key).is_err() {
            // (No system randomness, which getrandom reports only on odd platforms: std's
            // hasher keys, themselves random per process, fill it in.)
            use std::hash::{BuildHasher, Hasher};
            for chunk in key.chunks_mut(8) {
                let hasher = std::collections::hash_map::RandomState::new().build_hasher();
                let bytes = hasher.finish().to_le_bytes();
                chunk.copy_from_slice(bytes.get(..chunk.len()).unwrap_or_default());
            }
        }
        StateKey(key)
    }

    /// The key derived from `secret` (of any length), the same in every process given it.
    pub(crate) fn from_secret(secret: &[u8]) -> Self {
        StateKey(tag(secret, &[b"toolgen requestState key"]))
    }

    /// `payload` sealed for the call `binding` ([`binding`]): `v1.{tag in hex}.{payload}`.
    pub(crate) fn seal(&self, binding: &[u8], payload: &str) -> String {
        let tag = tag(&self.0, &[binding, payload.as_bytes()]);
        let mut sealed = String::with_capacity(3 + 64 + 1 + payload.len());
        sealed.push_str(VERSION);
        for byte in tag {
            sealed.push(hex_digit(byte >> 4));
            sealed.push(hex_digit(byte & 0xf));
        }
        sealed.push('.');
        sealed.push_str(payload);
        sealed
    }

    /// The payload of `state`, if this key sealed it for the call `binding`.
    pub(crate) fn open<'s>(&self, binding: &[u8], state: &'s str) -> Option<&'s str> {
        let rest = state.strip_prefix(VERSION)?;
        let (tag, payload) = rest.split_at_checked(64)?;
        let payload = payload.strip_prefix('.')?;
        let mut given = [0_u8; 32];
        for (byte, pair) in given.iter_mut().zip(tag.as_bytes().chunks(2)) {
            let [high, low] = pair else { return None };
            *byte = (hex_value(*high)? << 4) | hex_value(*low)?;
        }
        // (`verify_slice` compares in constant time.)
        mac(&self.0, &[binding, payload.as_bytes()])
            .verify_slice(&given)
            .ok()?;
        Some(payload)
    }
}

/// The start of a sealed state (its format's version, for a later one to tell them apart).
const VERSION: &str = "v1.";

/// The HMAC-SHA256 of `parts` under `key`, each part preceded by its length (so that no two
/// lists of parts read alike).
fn mac(key: &[u8], parts: &[&[u8]]) -> Hmac<Sha256> {
    // (HMAC takes a key of any length: this never fails.)
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(key)
        .unwrap_or_else(|_| <Hmac<Sha256> as KeyInit>::new(&Default::default()));
    for part in parts {
        mac.update(&(part.len() as u64).to_be_bytes());
        mac.update(part);
    }
    mac
}

/// The tag of `parts` under `key`.
fn tag(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    mac(key, parts).finalize().into_bytes().into()
}

/// What a state is bound to: the tool `name`, the call's `arguments` (JSON text) in their
/// canonical spelling ([`canonical`]) and the caller's `subject`, if known.
pub(crate) fn binding(name: &str, arguments: &str, subject: Option<&str>) -> Vec<u8> {
    let arguments = canonical(arguments);
    let mut binding = Vec::with_capacity(name.len() + arguments.len() + 32);
    let subject = subject.unwrap_or_default().as_bytes();
    for part in [name.as_bytes(), &arguments, subject] {
        binding.extend_from_slice(&(part.len() as u64).to_be_bytes());
        binding.extend_from_slice(part);
    }
    binding
}

/// The JSON text `json` spelled one way whatever way it came: objects' keys sorted, no
/// whitespace, strings as serde_json escapes them, a number with no fraction (`1.0`, `1e2`) as
/// an integer. A client's retry re-sends the call's arguments as it re-serialized them (the
/// Python SDK from a dict, a host from its own model): a state goes with what they say.
/// (Text that is not JSON, which the server never gives, is taken as it is.)
fn canonical(json: &str) -> Vec<u8> {
    let Ok(value) = serde_json::from_str::<Value>(json) else {
        return json.as_bytes().to_vec();
    };
    let mut out = Vec::with_capacity(json.len());
    write_canonical(&value, &mut out);
    out
}

/// The largest magnitude below which every integer is a float exactly (2^53).
const EXACT_INTEGERS: f64 = 9_007_199_254_740_992.0;

// (The value was parsed by serde_json, whose depth limit, 128, bounds the recursion.)
fn write_canonical(value: &Value, out: &mut Vec<u8>) {
    // (Writing to a Vec never fails.)
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push(b'{');
            for (at, (key, value)) in entries.into_iter().enumerate() {
                if at > 0 {
                    out.push(b',');
                }
                let _ = serde_json::to_writer(&mut *out, key);
                out.push(b':');
                write_canonical(value, out);
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (at, item) in items.iter().enumerate() {
                if at > 0 {
                    out.push(b',');
                }
                write_canonical(item, out);
            }
            out.push(b']');
        }
        Value::Number(number) => match number.as_f64() {
            Some(float)
                if number.is_f64() && float.fract() == 0.0 && float.abs() < EXACT_INTEGERS =>
            {
                // (Exact: an integer below 2^53 in magnitude.)
                out.extend_from_slice((float as i64).to_string().as_bytes());
            }
            _ => {
                let _ = serde_json::to_writer(&mut *out, number);
            }
        },
        other => {
            let _ = serde_json::to_writer(&mut *out, other);
        }
    }
}

fn hex_digit(nibble: u8) -> char {
    char::from_digit(u32::from(nibble), 16).unwrap_or('0')
}

fn hex_value(digit: u8) -> Option<u8> {
    char::from(digit)
        .to_digit(16)
        .and_then(|value| u8::try_from(value).ok())
}

impl<S, Ctx> McpServer<S, Ctx> {
    /// Seals the `requestState` of its `2026-07-28` rounds with a key derived from `secret`
    /// (at least 32 random bytes), where by default each server makes a random key of its own.
    /// Give every replica behind a load balancer the same secret: a client's retry may reach
    /// another one. A state that was not sealed with the key, or not for the call it comes
    /// with (its tool, arguments and caller), or that was changed, is refused with an
    /// invalid-params error (`-32602`): a client cannot rewrite an earlier answer. A new secret
    /// refuses the states of rounds under way (their clients call again from the start).
    ///
    /// ```
    /// # use serde::Deserialize;
    /// # use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
    /// # use toolgen_runtime::McpServer;
    /// # /// Say hello.
    /// # #[derive(Tool, Deserialize)]
    /// # struct Hello {}
    /// # impl Handler<()> for Hello {
    /// #     type Output = &'static str;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> { Ok("hello") }
    /// # }
    /// # #[derive(ToolSet)]
    /// # enum Tools { Hello(Hello) }
    /// # let secret_from_the_environment = [7_u8; 32];
    /// let server = McpServer::new(Runner::<Tools, ()>::new(()), "greeter", "1.0.0")
    ///     .with_state_key(secret_from_the_environment);
    /// # drop(server);
    /// ```
    #[must_use]
    pub fn with_state_key(mut self, secret: impl AsRef<[u8]>) -> Self {
        self.handler.state_key = Arc::new(StateKey::from_secret(secret.as_ref()));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::{StateKey, binding};

    #[test]
    fn a_state_opens_only_with_its_key_for_its_call_unchanged() {
        let key = StateKey::from_secret(b"secret");
        let call = binding("book", r#"{"a":1}"#, Some("alice"));
        let sealed = key.seal(&call, r#"{"answered":{}}"#);
        assert_eq!(key.open(&call, &sealed), Some(r#"{"answered":{}}"#));
        // Another key, another call, another caller.
        assert_eq!(StateKey::from_secret(b"other").open(&call, &sealed), None);
        assert_eq!(StateKey::random().open(&call, &sealed), None);
        let other = binding("book", r#"{"a":2}"#, Some("alice"));
        assert_eq!(key.open(&other, &sealed), None);
        assert_eq!(
            key.open(&binding("book", r#"{"a":1}"#, None), &sealed),
            None
        );
        // Changed anywhere, or not a sealed state at all.
        let changed = sealed.replace("{}", r#"{"x":1}"#);
        assert_eq!(key.open(&call, &changed), None);
        let mut flipped = sealed.clone().into_bytes();
        flipped[3] = if flipped[3] == b'0' { b'1' } else { b'0' };
        assert_eq!(key.open(&call, &String::from_utf8(flipped).unwrap()), None);
        for odd in ["", "v1.", "v1.zz", "{}", "v1.é", &sealed[..50]] {
            assert_eq!(key.open(&call, odd), None, "{odd}");
        }
    }

    #[test]
    fn arguments_are_bound_by_what_they_say_not_how_they_are_spelled() {
        let call = |arguments: &str| binding("book", arguments, Some("alice"));
        let first = call(r#"{"a":1,"b":{"y":[1.5,"x"],"x":null},"c":"\u00e9"}"#);
        for same in [
            r#"{"c":"é","b":{"x":null,"y":[1.50,"x"]},"a":1}"#,
            r#" { "a" : 1.0 , "b" : { "x" : null , "y" : [ 15e-1 , "\u0078" ] } , "c" : "é" } "#,
            r#"{"a":1e0,"b":{"y":[1.5,"x"],"x":null},"c":"é"}"#,
        ] {
            assert_eq!(call(same), first, "{same}");
        }
        for other in [
            r#"{"a":2,"b":{"y":[1.5,"x"],"x":null},"c":"é"}"#,
            r#"{"a":1,"b":{"y":["x",1.5],"x":null},"c":"é"}"#,
            r#"{"a":1,"b":{"y":[1.5,"x"]},"c":"é"}"#,
            r#"{"a":"1","b":{"y":[1.5,"x"],"x":null},"c":"é"}"#,
            r#"{"a":1,"b":{"y":[1.5,"x"],"x":null},"c":"e"}"#,
        ] {
            assert_ne!(call(other), first, "{other}");
        }
        // Integers past 2^53, and floats, as they are.
        assert_ne!(call("[9007199254740993]"), call("[9007199254740992.0]"));
        assert_eq!(call("[1e300]"), call("[1E+300]"));
        assert_eq!(call("[-0.0]"), call("[0]"));
        assert_ne!(call("[0.1]"), call("[0]"));
        // Not JSON (never given): as it is.
        assert_eq!(call("{"), call("{"));
        assert_ne!(call("{"), call("{ "));
    }

    #[test]
    fn parts_are_told_apart_by_their_lengths() {
        assert_ne!(binding("ab", "c", None), binding("a", "bc", None));
        assert_ne!(binding("a", "b", None), binding("a", "", Some("b")));
    }
}
