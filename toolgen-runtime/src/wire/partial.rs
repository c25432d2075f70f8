//! Partial JSON: the value a truncated JSON text stands for so far, so that a UI can show a tool
//! call's arguments while they stream in. [`partial_json`] reads a whole prefix; [`PartialJson`]
//! takes the text delta by delta and does the work once.

use serde_json::{Map, Number, Value};

use crate::parse::lexer::{is_high_surrogate, is_whitespace, simple_escape, surrogate_pair};

/// The best value a truncated JSON text stands for: open strings, arrays and objects are closed,
/// and what cannot be shown yet is left out (a key without its value, a number or literal that
/// may still go on, half an escape).
///
/// What it shows is always a prefix of what arrives: each string shown is the start of the final
/// string, each array the first elements of the final array (the last may itself be partial),
/// each object some of the final object's members. So a UI can render it after every delta
/// without anything it showed being taken back.
///
/// `None` when the text holds no value yet, or is not the start of any JSON text (then the
/// finished arguments will not parse either). Nesting is limited as `serde_json` limits it.
///
/// Calling this after every delta re-reads the whole text each time; to follow a stream, feed the
/// deltas to a [`PartialJson`] instead, or ask
/// [`ToolCallStream::pending`](crate::ToolCallStream::pending), which does.
///
/// ```
/// use serde_json::json;
/// use toolgen::partial_json;
///
/// assert_eq!(partial_json(r#"{"city": "Ri"#), Some(json!({"city": "Ri"})));
/// assert_eq!(partial_json(r#"{"city": "Riga", "da"#), Some(json!({"city": "Riga"})));
/// assert_eq!(partial_json(r#"{"days": [1, 2"#), Some(json!({"days": [1]})));
/// assert_eq!(partial_json(r#"{"ok": tr"#), Some(json!({})));
/// assert_eq!(partial_json(r#"{"emoji": "\ud83d"#), Some(json!({"emoji": ""})));
/// assert_eq!(partial_json(""), None);
/// assert_eq!(partial_json(r#"{"city": Riga"#), None);
/// ```
pub fn partial_json(text: &str) -> Option<Value> {
    let mut parser = PartialJson::new();
    parser.push(text);
    parser.into_value()
}

/// How deeply arrays and objects may nest: `serde_json`'s recursion limit, so that what shows here
/// is what [`parse_args`](crate::parse_args) will read. Deeper text would not parse there, and
/// the tree is kept shallow enough to drop without exhausting the stack.
const MAX_DEPTH: usize = 127;

/// A JSON text read incrementally: [`push`](PartialJson::push) each delta as it arrives and
/// [`value`](PartialJson::value) shows what [`partial_json`] would show for all of the text so
/// far.
///
/// Each byte is read once and the value is updated in place, so following a call delta by delta
/// costs about one parse of the finished text, however many deltas there are.
///
/// ```
/// use serde_json::json;
/// use toolgen::PartialJson;
///
/// let mut args = PartialJson::new();
/// args.push(r#"{"city": "R"#);
/// assert_eq!(args.value(), Some(&json!({"city": "R"})));
/// args.push(r#"iga", "days": 1"#);
/// assert_eq!(args.value(), Some(&json!({"city": "Riga"})));
/// args.push("0}");
/// assert_eq!(args.value(), Some(&json!({"city": "Riga", "days": 10})));
/// ```
#[derive(Clone, Debug, Default)]
pub struct PartialJson {
    /// The value so far; strings, arrays and objects are in it from their first character.
    root: Option<Value>,
    /// The open arrays and objects, outermost first; the last is where the next value goes.
    frames: Vec<Frame>,
    /// What the text is in the middle of.
    lex: Lex,
    /// Characters of the string value being read that are not in `root` yet (appended at the
    /// end of each push, so a long string costs one tree walk per delta, not per character).
    pending: String,
}

/// An open array or object.
#[derive(Clone, Debug)]
struct Frame {
    is_object: bool,
    next: Next,
    /// Objects: the key being read, then the key of the member being read.
    key: String,
}

/// What may come next inside an open array or object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// Just after `[`: a value or `]`.
    ValueOrEnd,
    /// After `,` in an array or `:` in an object.
    Value,
    /// After a value.
    CommaOrEnd,
    /// Just after `{`: a key or `}`.
    KeyOrEnd,
    /// After `,` in an object.
    Key,
    /// After a key.
    Colon,
}

/// Where the reader is between and inside tokens.
#[derive(Clone, Debug, Default)]
enum Lex {
    /// Between tokens, where the top frame's `next` (or, with no frame, a root value) is due.
    #[default]
    Between,
    /// Inside a string: a key (into the top frame's `key`) or a value (into `pending`).
    Str { key: bool, escape: Escape },
    /// Inside a number; its text so far. Numbers show once they end, as `12` may become `123`.
    Number(String),
    /// Inside `true`, `false` or `null`, with this many bytes of it read.
    Literal { word: &'static str, read: usize },
    /// After the root value: only whitespace may follow.
    Done,
    /// The text is not the start of any JSON text.
    Failed,
}

/// Where the reader is inside an escape sequence.
#[derive(Clone, Copy, Debug, Default)]
enum Escape {
    #[default]
    None,
    /// After `\`.
    Backslash,
    /// In the four hex digits after `\u`, with `digits` of them read into `code`; `high` is the
    /// leading surrogate this escape must complete.
    Hex {
        high: Option<u32>,
        digits: u8,
        code: u32,
    },
    /// After a leading surrogate: its trailing half must follow, starting with `\`.
    Trail { high: u32 },
    /// After a leading surrogate and `\`: `u` must follow.
    TrailU { high: u32 },
}

impl PartialJson {
    /// An empty reader: no text yet, so no value.
    ///
    /// ```
    /// assert_eq!(toolgen::PartialJson::new().value(), None);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads the next piece of the text. A delta may end anywhere: inside a string, a number, a
    /// literal or an escape sequence.
    ///
    /// ```
    /// use serde_json::json;
    /// let mut args = toolgen::PartialJson::new();
    /// args.push(r#"{"face": "\ud83d"#); // half of a surrogate pair
    /// assert_eq!(args.value(), Some(&json!({"face": ""})));
    /// args.push(r#"\ude00"}"#);
    /// assert_eq!(args.value(), Some(&json!({"face": "😀"})));
    /// ```
    pub fn push(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut at = 0;
        while let Some(&byte) = bytes.get(at) {
            match &mut self.lex {
                Lex::Failed => break,
                Lex::Str {
                    key,
                    escape: Escape::None,
                } => {
                    // The common case: copy a run of plain characters at once. The run ends at
                    // an ASCII byte, so both ends are character boundaries.
                    let key = *key;
                    let rest = bytes.get(at..).unwrap_or_default();
                    let run = rest
                        .iter()
                        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                        .unwrap_or(rest.len());
                    if run > 0 {
                        let chunk = text.get(at..at + run).unwrap_or_default();
                        self.string_text(key, chunk);
                        at += run;
                        continue;
                    }
                    self.string_byte(key, byte);
                }
                Lex::Str { key, escape } => {
                    let key = *key;
                    let escape = *escape;
                    self.escape_byte(key, escape, byte);
                }
                Lex::Number(number) => {
                    if matches!(byte, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                        number.push(char::from(byte));
                    } else {
                        let number = std::mem::take(number);
                        self.end_number(&number);
                        // The byte after a number is read as the token it starts.
                        continue;
                    }
                }
                Lex::Literal { word, read } => {
                    let word = *word;
                    if word.as_bytes().get(*read) == Some(&byte) {
                        *read += 1;
                        if *read == word.len() {
                            let value = match word {
                                "true" => Value::Bool(true),
                                "false" => Value::Bool(false),
                                _ => Value::Null,
                            };
                            self.lex = Lex::Between;
                            self.add_scalar(value);
                        }
                    } else {
                        self.lex = Lex::Failed;
                    }
                }
                Lex::Done => {
                    if !is_whitespace(byte) {
                        self.lex = Lex::Failed;
                    }
                }
                Lex::Between => self.between(byte),
            }
            at += 1;
        }
        self.flush();
    }

    /// The value the text so far stands for; `None` before any value begins, or once the text
    /// cannot be JSON.
    ///
    /// ```
    /// use serde_json::json;
    /// let mut args = toolgen::PartialJson::new();
    /// args.push(r#"{"tags": ["a", "b"#);
    /// assert_eq!(args.value(), Some(&json!({"tags": ["a", "b"]})));
    /// args.push("\"}"); // `]` was due
    /// assert_eq!(args.value(), None);
    /// ```
    pub fn value(&self) -> Option<&Value> {
        match self.lex {
            Lex::Failed => None,
            _ => self.root.as_ref(),
        }
    }

    /// The value, taken out of the reader.
    ///
    /// ```
    /// let mut args = toolgen::PartialJson::new();
    /// args.push(r#"[1, 2, 3]"#);
    /// assert_eq!(args.into_value(), Some(serde_json::json!([1, 2, 3])));
    /// ```
    pub fn into_value(self) -> Option<Value> {
        match self.lex {
            Lex::Failed => None,
            _ => self.root,
        }
    }

    /// A byte between tokens.
    fn between(&mut self, byte: u8) {
        if is_whitespace(byte) {
            return;
        }
        let Some(frame) = self.frames.last_mut() else {
            // No open container: the root value starts here (`Done` covers after it).
            self.begin_value(byte);
            return;
        };
        match (frame.next, byte) {
            (Next::ValueOrEnd, b']') | (Next::CommaOrEnd, b']') if !frame.is_object => {
                self.close();
            }
            (Next::KeyOrEnd, b'}') | (Next::CommaOrEnd, b'}') if frame.is_object => self.close(),
            (Next::ValueOrEnd | Next::Value, _) => self.begin_value(byte),
            (Next::CommaOrEnd, b',') => {
                frame.next = if frame.is_object {
                    Next::Key
                } else {
                    Next::Value
                };
            }
            (Next::KeyOrEnd | Next::Key, b'"') => {
                frame.key.clear();
                self.lex = Lex::Str {
                    key: true,
                    escape: Escape::None,
                };
            }
            (Next::Colon, b':') => frame.next = Next::Value,
            _ => self.lex = Lex::Failed,
        }
    }

    /// The first byte of a value.
    fn begin_value(&mut self, byte: u8) {
        match byte {
            b'{' | b'[' => {
                if self.frames.len() >= MAX_DEPTH {
                    self.lex = Lex::Failed;
                    return;
                }
                let is_object = byte == b'{';
                let container = if is_object {
                    Value::Object(Map::new())
                } else {
                    Value::Array(Vec::new())
                };
                if self.insert(container) {
                    self.frames.push(Frame {
                        is_object,
                        next: if is_object {
                            Next::KeyOrEnd
                        } else {
                            Next::ValueOrEnd
                        },
                        key: String::new(),
                    });
                }
            }
            b'"' => {
                if self.insert(Value::String(String::new())) {
                    self.lex = Lex::Str {
                        key: false,
                        escape: Escape::None,
                    };
                }
            }
            b'-' | b'0'..=b'9' => self.lex = Lex::Number(char::from(byte).to_string()),
            b't' => self.lex = literal("true"),
            b'f' => self.lex = literal("false"),
            b'n' => self.lex = literal("null"),
            _ => self.lex = Lex::Failed,
        }
    }

    /// A number has ended; it shows if it is one JSON allows.
    fn end_number(&mut self, text: &str) {
        self.lex = Lex::Between;
        // serde_json has the last word on number syntax and range, as it will for the arguments.
        match serde_json::from_str::<Number>(text) {
            Ok(number) => self.add_scalar(Value::Number(number)),
            Err(_) => self.lex = Lex::Failed,
        }
    }

    /// A number, `true`, `false` or `null`, read whole.
    fn add_scalar(&mut self, value: Value) {
        if self.insert(value) {
            self.value_done();
        }
    }

    /// A value is complete: its container (or the root) moves past it.
    fn value_done(&mut self) {
        match self.frames.last_mut() {
            Some(frame) => frame.next = Next::CommaOrEnd,
            None => self.lex = Lex::Done,
        }
    }

    /// `]` or `}` of the innermost container.
    fn close(&mut self) {
        self.frames.pop();
        self.value_done();
    }

    /// Puts a new value where the text is: the root, the end of the innermost array, or the
    /// member of the innermost object under the key just read. False (and the reader failed)
    /// if the tree does not have the shape the frames describe, which cannot happen.
    fn insert(&mut self, value: Value) -> bool {
        let placed = match self.frames.last() {
            None => {
                self.root = Some(value);
                true
            }
            Some(frame) => match innermost(&mut self.root, &self.frames) {
                Some(Value::Array(items)) => {
                    items.push(value);
                    true
                }
                Some(Value::Object(map)) => {
                    map.insert(frame.key.clone(), value);
                    true
                }
                _ => false,
            },
        };
        if !placed {
            self.lex = Lex::Failed;
        }
        placed
    }

    /// Plain characters of a string.
    fn string_text(&mut self, key: bool, text: &str) {
        if key {
            if let Some(frame) = self.frames.last_mut() {
                frame.key.push_str(text);
            }
        } else {
            self.pending.push_str(text);
        }
    }

    /// A byte inside a string that is not plain text: the closing quote, a backslash, or a
    /// control character (which JSON does not allow unescaped).
    fn string_byte(&mut self, key: bool, byte: u8) {
        match byte {
            b'"' if key => {
                if let Some(frame) = self.frames.last_mut() {
                    frame.next = Next::Colon;
                }
                self.lex = Lex::Between;
            }
            b'"' => {
                self.lex = Lex::Between;
                self.flush();
                self.value_done();
            }
            b'\\' => {
                self.lex = Lex::Str {
                    key,
                    escape: Escape::Backslash,
                };
            }
            _ => self.lex = Lex::Failed,
        }
    }

    /// A byte of an escape sequence.
    fn escape_byte(&mut self, key: bool, escape: Escape, byte: u8) {
        let next = match escape {
            Escape::None => Some(Escape::None),
            Escape::Backslash => match (simple_escape(byte), byte) {
                (Some(c), _) => {
                    self.string_text(key, c.encode_utf8(&mut [0; 4]));
                    Some(Escape::None)
                }
                (None, b'u') => Some(Escape::Hex {
                    high: None,
                    digits: 0,
                    code: 0,
                }),
                (None, _) => None,
            },
            Escape::Hex { high, digits, code } => match char::from(byte).to_digit(16) {
                Some(digit) if digits < 3 => Some(Escape::Hex {
                    high,
                    digits: digits + 1,
                    code: code * 16 + digit,
                }),
                Some(digit) => self.escaped_code(key, high, code * 16 + digit),
                None => None,
            },
            Escape::Trail { high } => (byte == b'\\').then_some(Escape::TrailU { high }),
            Escape::TrailU { high } => (byte == b'u').then_some(Escape::Hex {
                high: Some(high),
                digits: 0,
                code: 0,
            }),
        };
        self.lex = match next {
            Some(escape) => Lex::Str { key, escape },
            None => Lex::Failed,
        };
    }

    /// The code unit of a complete `\uXXXX`: a character, or the leading half of a surrogate
    /// pair. Unpaired surrogates are errors, as they are for `serde_json`.
    fn escaped_code(&mut self, key: bool, high: Option<u32>, code: u32) -> Option<Escape> {
        let c = match high {
            None if is_high_surrogate(code) => return Some(Escape::Trail { high: code }),
            // A lone trailing half is no character (`from_u32` refuses surrogates).
            None => char::from_u32(code)?,
            Some(high) => surrogate_pair(high, code)?,
        };
        self.string_text(key, c.encode_utf8(&mut [0; 4]));
        Some(Escape::None)
    }

    /// Appends the pending characters to the string value being read.
    fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let target = match self.frames.last() {
            None => self.root.as_mut(),
            Some(frame) => match innermost(&mut self.root, &self.frames) {
                Some(Value::Array(items)) => items.last_mut(),
                Some(Value::Object(map)) => member(map, &frame.key),
                _ => None,
            },
        };
        match target {
            Some(Value::String(text)) => text.push_str(&self.pending),
            _ => self.lex = Lex::Failed,
        }
        self.pending.clear();
    }
}

/// The container the last frame describes: each frame's container is the last element (array) or
/// the member under its key (object) of the one before.
fn innermost<'a>(root: &'a mut Option<Value>, frames: &[Frame]) -> Option<&'a mut Value> {
    let (_, parents) = frames.split_last()?;
    let mut current = root.as_mut()?;
    for frame in parents {
        current = match current {
            Value::Array(items) => items.last_mut()?,
            Value::Object(map) => member(map, &frame.key)?,
            _ => return None,
        };
    }
    Some(current)
}

/// The member `key` of an object, which is usually the one read last: with `serde_json`'s
/// `preserve_order` it is then found at the end without hashing the key.
fn member<'a>(map: &'a mut Map<String, Value>, key: &str) -> Option<&'a mut Value> {
    if map.iter().next_back().is_some_and(|(last, _)| last == key) {
        map.iter_mut().next_back().map(|(_, value)| value)
    } else {
        map.get_mut(key)
    }
}

fn literal(word: &'static str) -> Lex {
    Lex::Literal { word, read: 1 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every prefix shows a value the next prefix extends, ending at the whole value.
    #[test]
    fn prefixes_of_a_call() {
        let text = r#"{"city": "Rīga", "days": [1, 20, -3.5e2], "ok": true, "n": null, "o": {}}"#;
        let full: Value = serde_json::from_str(text).unwrap();
        let mut last = None;
        for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
            let shown = partial_json(&text[..end]);
            if end > 0 {
                assert!(shown.is_some(), "nothing shown for {:?}", &text[..end]);
            }
            last = shown;
        }
        assert_eq!(last, Some(full));
    }

    #[test]
    fn strings_and_escapes() {
        assert_eq!(partial_json(r#""a\"#), Some(json!("a")));
        assert_eq!(partial_json(r#""a\n"#), Some(json!("a\n")));
        assert_eq!(partial_json(r#""\u00e9"#), Some(json!("é")));
        assert_eq!(partial_json(r#""\u00e"#), Some(json!("")));
        assert_eq!(partial_json(r#""\ud83d\ude00""#), Some(json!("😀")));
        assert_eq!(partial_json(r#""\ud83d\"#), Some(json!("")));
        assert_eq!(partial_json(r#""\ud83d x"#), None);
        assert_eq!(partial_json(r#""\ude00"#), None);
        assert_eq!(partial_json(r#""\ud83d\u0041"#), None);
        assert_eq!(partial_json(r#""\x"#), None);
        assert_eq!(partial_json("\"a\tb\""), None);
    }

    #[test]
    fn numbers_and_literals_show_once_whole() {
        assert_eq!(partial_json("[1"), Some(json!([])));
        assert_eq!(partial_json("[1,"), Some(json!([1])));
        assert_eq!(partial_json("[1 "), Some(json!([1])));
        assert_eq!(partial_json("[-"), Some(json!([])));
        assert_eq!(partial_json("[-]"), None);
        assert_eq!(partial_json("[01]"), None);
        assert_eq!(partial_json("[1.]"), None);
        assert_eq!(partial_json("[nul"), Some(json!([])));
        assert_eq!(partial_json("[null"), Some(json!([null])));
        assert_eq!(partial_json("[nulls"), None);
        assert_eq!(partial_json("12"), None);
        assert_eq!(partial_json("12 "), Some(json!(12)));
        assert_eq!(partial_json("true"), Some(json!(true)));
    }

    #[test]
    fn keys_show_with_their_values() {
        assert_eq!(partial_json("{"), Some(json!({})));
        assert_eq!(partial_json(r#"{"a"#), Some(json!({})));
        assert_eq!(partial_json(r#"{"a":"#), Some(json!({})));
        assert_eq!(partial_json(r#"{"a": {"#), Some(json!({"a": {}})));
        assert_eq!(partial_json(r#"{"a": ["#), Some(json!({"a": []})));
        assert_eq!(partial_json(r#"{"a": ""#), Some(json!({"a": ""})));
        assert_eq!(
            partial_json(r#"{"a": 1, "b": [{"c": "d"#),
            Some(json!({"a": 1, "b": [{"c": "d"}]}))
        );
    }

    #[test]
    fn structure_errors() {
        for text in [
            "{,",
            "{\"a\" 1",
            "[1 2",
            "[1,]",
            "{\"a\":1,}",
            "]",
            "}",
            "[}",
            "{]",
            "x",
            "{} x",
            "[\"é\" é",
            "{1:2}",
            "[,1]",
        ] {
            assert_eq!(partial_json(text), None, "{text}");
        }
        assert_eq!(partial_json("{}  \n"), Some(json!({})));
        assert_eq!(partial_json("  "), None);
    }

    #[test]
    fn nesting_is_limited_like_serde_json() {
        for depth in [126, 127, 128, 129] {
            let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            let serde_ok = serde_json::from_str::<Value>(&text).is_ok();
            assert_eq!(partial_json(&text).is_some(), serde_ok, "depth {depth}");
        }
        // A huge prefix of opening brackets fails without deep recursion anywhere.
        assert_eq!(partial_json(&"[".repeat(100_000)), None);
    }

    #[test]
    fn duplicate_keys_keep_the_last_like_serde_json() {
        let text = r#"{"a": [1], "a": ["x"#;
        assert_eq!(partial_json(text), Some(json!({"a": ["x"]})));
    }
}
