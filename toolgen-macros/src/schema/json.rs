//! JSON string escaping, for names and descriptions written into schema text.

/// `text` as the inside of a JSON string (without the quotes).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// `text` as a JSON string, with the quotes.
pub fn string(text: &str) -> String {
    format!("\"{}\"", escape(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_json_requires() {
        assert_eq!(string("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(string("line\nnext\ttab"), r#""line\nnext\ttab""#);
        assert_eq!(string("\u{1}\u{7f}é🦀"), "\"\\u0001\u{7f}é🦀\"");
    }
}
