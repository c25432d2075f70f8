//! The id of a JSON-RPC message too long to read, found in its first bytes, so that the error
//! that answers it reaches the request that waits (over stdio and HTTP alike).

use serde_json::Value;

/// How many of a too-long message's first bytes are kept to find its id.
pub(crate) const HEAD_BYTES: usize = 4096;

/// Adds to `head` what of `bytes` fits in [`HEAD_BYTES`].
pub(crate) fn keep_head(head: &mut Vec<u8>, bytes: &[u8]) {
    let room = HEAD_BYTES.saturating_sub(head.len());
    head.extend_from_slice(bytes.get(..room).unwrap_or(bytes));
}

/// The `id` of the message whose first bytes are `head`, where it can be read there: the
/// message object's own `id` member (not one inside its `params`), whole within `head`, and a
/// string or an integer (as [`readable_id`](super::readable_id) takes it). Else `null`,
/// JSON-RPC's id for "unknown": `head` is not the start of an object, the members before `id`
/// do not fit, or `id` is cut off or of another kind.
///
/// Reads without recursion, so any nesting in the members before `id` is safe.
pub(crate) fn id_in_head(head: &[u8]) -> Value {
    let mut cursor = Cursor { head, at: 0 };
    if head.starts_with(b"\xEF\xBB\xBF") {
        cursor.at = 3;
    }
    cursor.id().unwrap_or(Value::Null)
}

/// A place in the head. Each reader gives `None` where the head ends or is not JSON.
struct Cursor<'a> {
    head: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    /// The `id` member of the object the head starts with.
    fn id(&mut self) -> Option<Value> {
        self.expect(b'{')?;
        loop {
            self.skip_whitespace();
            let key = self.string()?;
            self.skip_whitespace();
            self.expect(b':')?;
            self.skip_whitespace();
            if is_id(key) {
                let value = match self.peek()? {
                    b'"' => self.string()?,
                    _ => self.scalar()?,
                };
                let value = serde_json::from_slice::<Value>(value).ok()?;
                return Some(super::readable_id(Some(&value)));
            }
            self.skip_value()?;
            self.skip_whitespace();
            // (`}`: the object ended without an `id`.)
            self.expect(b',')?;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.head.get(self.at).copied()
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_whitespace();
        (self.peek()? == byte).then(|| self.at += 1)
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// A whole string, its quotes included.
    fn string(&mut self) -> Option<&'a [u8]> {
        let start = self.at;
        if self.peek()? != b'"' {
            return None;
        }
        self.at += 1;
        loop {
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    return self.head.get(start..self.at);
                }
                b'\\' => self.at += 2,
                _ => self.at += 1,
            }
        }
    }

    /// A number or a literal, seen to its end (a number cut off by the head's end is not read:
    /// `12` may be the start of `1234`).
    fn scalar(&mut self) -> Option<&'a [u8]> {
        let start = self.at;
        while !matches!(
            self.peek()?,
            b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'
        ) {
            self.at += 1;
        }
        self.head
            .get(start..self.at)
            .filter(|token| !token.is_empty())
    }

    /// Any value, however nested.
    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(drop),
            b'{' | b'[' => {
                let mut depth = 0_usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.at += 1;
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.at += 1;
                }
            }
            _ => self.scalar().map(drop),
        }
    }
}

/// Whether the key `key` (a JSON string, quotes included) is `id`, written with escapes or not.
fn is_id(key: &[u8]) -> bool {
    key == b"\"id\""
        || (key.contains(&b'\\') && serde_json::from_slice::<String>(key).is_ok_and(|k| k == "id"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_id_is_read_where_the_head_holds_it() {
        let cases: &[(&[u8], Value)] = &[
            (br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"#, json!(7)),
            (br#"{"id":"call-7","#, json!("call-7")),
            (br#"{"id":"a \"quoted\" \\ id","#, json!("a \"quoted\" \\ id")),
            (b"\xEF\xBB\xBF {\n  \"id\" :\t-12 ,", json!(-12)),
            (br#"{"id":18446744073709551615}"#, json!(18_446_744_073_709_551_615_u64)),
            (br#"{"\u0069d":3,"#, json!(3)),
            // After `method` and `params` that fit, with an `id` inside the params.
            (
                br#"{"jsonrpc":"2.0","method":"tools/call","params":{"id":1,"a":[{"id":2},"}"]},"id":9,"#,
                json!(9),
            ),
        ];
        for (head, id) in cases {
            assert_eq!(id_in_head(head), *id, "{}", String::from_utf8_lossy(head));
        }
    }

    #[test]
    fn the_id_is_null_where_it_cannot_be_read() {
        let cases: &[&[u8]] = &[
            b"",
            br#"[{"id":1}]"#,
            br#"{"jsonrpc":"2.0","method":"tools/call","params":{"id":1,"pad":"xxxx"#,
            br#"{"method":"ping"}"#,
            br#"{"id":12"#,
            br#"{"id":"unfinished"#,
            br#"{"id":1.5,"#,
            br#"{"id":null,"#,
            br#"{"id":{"n":1},"#,
            br#"{"id":true,"#,
            br#"{"params":{"id":4}}"#,
            br#"{"jsonrpc" "2.0","id":1,"#,
            b"not json",
        ];
        for head in cases {
            assert_eq!(
                id_in_head(head),
                Value::Null,
                "{}",
                String::from_utf8_lossy(head)
            );
        }
        // Deep nesting before the id: read without recursion.
        let mut deep = br#"{"params":"#.to_vec();
        deep.extend(std::iter::repeat_n(b'[', 100_000));
        deep.extend(std::iter::repeat_n(b']', 100_000));
        deep.extend_from_slice(br#","id":5,"#);
        assert_eq!(id_in_head(&deep), json!(5));
        deep.truncate(50_000);
        assert_eq!(id_in_head(&deep), Value::Null);
    }
}
