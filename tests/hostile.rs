//! Model output is untrusted input (issue 6): huge, deeply nested, malformed or crafted arguments
//! and calls each give an error value the caller can send back, never a panic or a stack
//! overflow. How parsing time grows with size is measured in `benches/hostile.rs`, not here.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::{
    ArgsError, ArgsErrorKind, Provider, StreamError, Tool, ToolCall, ToolCallError, ToolCallStream,
    ToolSet, partial_json,
};

/// Save a note.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct SaveNote {
    /// Where to save it.
    path: String,
    /// The note's text.
    content: String,
}

/// Record numbers of every width.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Numbers {
    tiny: Option<i8>,
    small: Option<u8>,
    count: Option<u32>,
    big: Option<i64>,
    huge: Option<u64>,
    ratio: Option<f32>,
    exact: Option<f64>,
}

/// Store any JSON value under a key.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Store {
    key: String,
    data: Value,
}

/// Tag things; its default sends every parse through a `serde_json::Value`.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Tag {
    #[tool(default = 1)]
    weight: u32,
    labels: BTreeMap<String, u32>,
}

#[derive(ToolSet, Debug, PartialEq)]
enum Tools {
    Note(SaveNote),
    Numbers(Numbers),
}

const MB: usize = 1 << 20;

/// The error, which must be of `kind`. Failures print at most the start of a (huge) error.
#[track_caller]
fn error_of<T>(result: Result<T, ArgsError>, kind: ArgsErrorKind) -> ArgsError {
    let Err(error) = result else {
        panic!("hostile input parsed");
    };
    assert_eq!(error.kind(), kind, "{}", short(&error.to_string()));
    error
}

/// The error, which must be of `kind` and short enough to send back to the model.
#[track_caller]
fn short_error_of<T>(result: Result<T, ArgsError>, kind: ArgsErrorKind) -> ArgsError {
    let error = error_of(result, kind);
    assert!(
        error.to_string().len() < 1_000,
        "long: {}",
        short(&error.to_string())
    );
    error
}

/// The first 200 characters of `text`, for failure messages.
fn short(text: &str) -> String {
    text.chars().take(200).collect()
}

// ---------------------------------------------------------------------------------------------
// Size
// ---------------------------------------------------------------------------------------------

#[test]
fn ten_megabyte_arguments_parse() {
    let content = "Rīga \\\"quoted\\\" 😀 \\n".repeat(10 * MB / 24);
    let text = format!(r#"{{"path": "big.md", "content": "{content}"}}"#);
    assert!(text.len() >= 10 * MB - 100);
    let note = SaveNote::parse_args(&text).unwrap();
    assert!(note.content.starts_with("Rīga \"quoted\" 😀 \n"));
    assert_eq!(SaveNote::parse_bytes(text.as_bytes()).unwrap(), note);
}

#[test]
fn ten_megabyte_broken_arguments_are_errors() {
    let content = "x".repeat(10 * MB);
    // Cut off inside the string: a syntax error at the very end.
    let cut = format!(r#"{{"path": "big.md", "content": "{content}"#);
    let error = short_error_of(SaveNote::parse_args(&cut), ArgsErrorKind::Syntax);
    assert!(
        error.message().starts_with("EOF while parsing a string"),
        "{error}"
    );
    // A wrong type after 10 MB of valid text: found, with its path.
    let wrong = format!(r#"{{"content": "{content}", "path": 7}}"#);
    let error = short_error_of(SaveNote::parse_args(&wrong), ArgsErrorKind::Data);
    assert_eq!(error.path(), "path");
    // Through the `Value` path (a type with defaults) as well.
    let labels = format!(r#"{{"labels": {{"a": 1, "b": "{content}"}}}}"#);
    let error = error_of(Tag::parse_args(&labels), ArgsErrorKind::Data);
    assert_eq!(error.path(), "labels.b");
}

/// What the model sent is quoted in an error at most in part, with its length: a 1 MB string
/// where a number belongs gives a short message, not a 1 MB one, on every path.
#[test]
fn a_huge_wrong_string_is_quoted_short() {
    let text = format!(r#"{{"count": "{}"}}"#, "9".repeat(MB));
    let expected = format!(
        "invalid type: string \"{}…\" ({MB} characters), expected u32",
        "9".repeat(64)
    );
    for error in [
        Numbers::parse_args(&text).unwrap_err(),
        Numbers::parse_bytes(text.as_bytes()).unwrap_err(),
        Numbers::parse_value(serde_json::from_str(&text).unwrap()).unwrap_err(),
    ] {
        assert_eq!((error.kind(), error.path()), (ArgsErrorKind::Data, "count"));
        assert_eq!(error.message(), expected);
    }
    // Through the `Value` path, a map's value and a map's key.
    let text = format!(r#"{{"labels": {{"a": "{}"}}}}"#, "x".repeat(MB));
    let error = short_error_of(Tag::parse_args(&text), ArgsErrorKind::Data);
    assert_eq!(error.path(), "labels.a");
    assert!(
        error.message().contains(&format!("({MB} characters)")),
        "{error}"
    );
    let key = "k".repeat(MB);
    let text = format!(r#"{{"labels": {{"{key}": 1, "{key}": 2}}}}"#);
    let error = short_error_of(Tag::parse_args(&text), ArgsErrorKind::Data);
    assert_eq!(
        error.message(),
        format!("duplicate field `{}…` ({MB} characters)", "k".repeat(64))
    );
    let text = format!(r#"{{"labels": {{"{key}": "one"}}}}"#);
    let error = short_error_of(Tag::parse_args(&text), ArgsErrorKind::Data);
    assert_eq!(error.path(), format!("labels.{}…", "k".repeat(64)));
    // Escapes count as the characters they stand for.
    let text = format!(r#"{{"count": "{}"}}"#, "\\n".repeat(100));
    let error = short_error_of(Numbers::parse_args(&text), ArgsErrorKind::Data);
    assert_eq!(
        error.message(),
        format!(
            "invalid type: string \"{}…\" (100 characters), expected u32",
            "\\n".repeat(64)
        )
    );
    // A short string is quoted whole.
    let error = Numbers::parse_args(r#"{"count": "nine"}"#).unwrap_err();
    assert_eq!(
        error.message(),
        "invalid type: string \"nine\", expected u32"
    );
}

/// An unknown variant or field the model made up is quoted short too.
#[test]
fn a_huge_unknown_variant_is_quoted_short() {
    /// Pick a mode.
    #[derive(Tool, Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Pick {
        mode: Mode,
    }
    #[derive(toolgen::ToolSchema, Deserialize, Debug)]
    #[serde(rename_all = "lowercase")]
    enum Mode {
        Fast,
        Slow,
    }
    let long = "é".repeat(MB);
    let error = short_error_of(
        Pick::parse_args(&format!(r#"{{"mode": "{long}"}}"#)),
        ArgsErrorKind::Data,
    );
    assert_eq!(
        error.message(),
        format!(
            "unknown variant `{}…` ({MB} characters), expected `fast` or `slow`",
            "é".repeat(64)
        )
    );
    let error = short_error_of(
        Pick::parse_args(&format!(r#"{{"mode": "fast", "{long}": 1}}"#)),
        ArgsErrorKind::Data,
    );
    assert_eq!(
        error.message(),
        format!(
            "unknown field `{}…` ({MB} characters), expected `mode`",
            "é".repeat(64)
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Nesting
// ---------------------------------------------------------------------------------------------

/// `serde_json` stops at 128 levels: deeper structure is an error, found without deep recursion.
#[test]
fn nesting_beyond_the_recursion_limit_is_an_error() {
    for depth in [126, 127, 128, 1_000, 100_000] {
        let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let text = format!(r#"{{"key": "k", "data": {nested}}}"#);
        // The object around it is one level, and serde_json takes at most 127.
        if depth < 127 {
            let store = Store::parse_args(&text).unwrap();
            assert!(store.data.is_array());
            continue;
        }
        let error = short_error_of(Store::parse_args(&text), ArgsErrorKind::Syntax);
        assert!(
            error.message().starts_with("recursion limit exceeded"),
            "{error}"
        );
        let error = short_error_of(Store::parse_bytes(text.as_bytes()), ArgsErrorKind::Syntax);
        assert!(
            error.message().starts_with("recursion limit exceeded"),
            "{error}"
        );
        // Through the `Value` path too, and unclosed.
        let open = format!(r#"{{"labels": {{"a": {}"#, "{\"b\": ".repeat(depth));
        let error = short_error_of(Tag::parse_args(&open), ArgsErrorKind::Syntax);
        assert!(
            error.message().starts_with("recursion limit exceeded"),
            "{error}"
        );
    }
    // 100,000 unclosed brackets as the whole text: an error, short, without deep recursion.
    // Which error depends on how far serde reads before the depth matters (a struct can be read
    // from a sequence, whose first element is then of the wrong type).
    let Err(error) = SaveNote::parse_args(&"[".repeat(100_000)) else {
        panic!("brackets parsed");
    };
    assert!(
        error.to_string().len() < 1_000,
        "{}",
        short(&error.to_string())
    );
    let error = short_error_of(Tag::parse_args(&"[".repeat(100_000)), ArgsErrorKind::Syntax);
    assert!(
        error.message().starts_with("recursion limit exceeded"),
        "{error}"
    );
    assert_eq!(partial_json(&"[".repeat(100_000)), None);
}

/// The same brackets inside a string value are just text.
#[test]
fn brackets_in_a_string_are_text() {
    let brackets = "[".repeat(100_000);
    let text = json!({"path": "p", "content": brackets}).to_string();
    assert_eq!(SaveNote::parse_args(&text).unwrap().content, brackets);
    // And arguments encoded twice, as a string holding the brackets: not an object inside.
    let twice = Value::String(format!(r#"{{"path": "p", "content": {brackets}"#)).to_string();
    error_of(SaveNote::parse_args(&twice), ArgsErrorKind::Data);
}

/// A response nested deeper than `ToolCallError::MAX_DEPTH` (possible only for a value built in
/// code) is refused before typed deserialization recurses into it; as arguments text, it is the
/// arguments' error.
#[test]
fn deep_responses_and_arguments() {
    let mut deep = json!("bottom");
    for _ in 0..1_000 {
        deep = json!([deep]);
    }
    let response = json!({"type": "message", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "store", "input": {"key": "k", "data": deep}}
    ]});
    for provider in [Provider::Anthropic, Provider::Gemini, Provider::Mcp] {
        let error = ToolCall::parse(provider, &response).unwrap_err();
        assert!(
            matches!(error, ToolCallError::TooDeep { limit: 256, .. }),
            "{error}"
        );
    }
    let mut stream = ToolCallStream::new(Provider::Gemini);
    let error = stream
        .push(&json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "store", "args": deep}}]}}]}))
        .unwrap_err();
    assert!(matches!(error, StreamError::Malformed { .. }), "{error}");

    // OpenAI sends text: the call is read, and the arguments' nesting is their error.
    let arguments = format!(r#"{{"key": "k", "data": {}"#, "[".repeat(100_000));
    let completion = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": null,
        "tool_calls": [{"id": "call_1", "type": "function",
            "function": {"name": "store", "arguments": arguments}}]}}]});
    let calls = ToolCall::parse(Provider::OpenAiChat, &completion).unwrap();
    let error = short_error_of(calls[0].parse_args::<Store>(), ArgsErrorKind::Syntax);
    assert!(
        error.message().starts_with("recursion limit exceeded"),
        "{error}"
    );
    assert_eq!(partial_json(&calls[0].arguments), None);

    // Streamed in pieces, shown as it comes, and finished: an unfinished call.
    let mut stream = ToolCallStream::new(Provider::Anthropic);
    stream
        .push(
            &json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "toolu_1", "name": "store", "input": {}}}),
        )
        .unwrap();
    for piece in arguments.as_bytes().chunks(10_000) {
        let piece = std::str::from_utf8(piece).unwrap();
        stream
            .push(&json!({"type": "content_block_delta", "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": piece}}))
            .unwrap();
        assert_eq!(stream.pending().next().unwrap().partial, None);
    }
    let error = stream.finish().unwrap_err();
    assert!(matches!(error, StreamError::Unfinished { .. }), "{error}");
}

// ---------------------------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------------------------

#[test]
fn invalid_utf8_is_an_error_in_the_bytes_api() {
    let cases: [(&[u8], usize); 6] = [
        (b"{\"path\": \"p\", \"content\": \"\xff\"}", 26),
        // A sequence cut short at the end.
        (b"{\"path\": \"p\", \"content\": \"\xe2\x82", 26),
        // An overlong encoding of `/`.
        (b"{\"path\": \"\xc0\xaf\", \"content\": \"c\"}", 10),
        // A surrogate (U+D800) encoded as UTF-8.
        (b"{\"path\": \"\xed\xa0\x80\", \"content\": \"c\"}", 10),
        // Beyond U+10FFFF.
        (b"{\"path\": \"\xf4\x90\x80\x80\", \"content\": \"c\"}", 10),
        // Outside any string.
        (b"\x80{}", 0),
    ];
    for (bytes, at) in cases {
        let error = short_error_of(SaveNote::parse_bytes(bytes), ArgsErrorKind::Syntax);
        assert_eq!(
            error.message(),
            format!("the arguments are not valid UTF-8 (at byte {at})")
        );
        assert_eq!(error.path(), "");
    }
}

/// Escapes that name no character (a lone surrogate) are errors, as serde_json makes them.
#[test]
fn lone_surrogate_escapes_are_errors() {
    for text in [
        r#"{"path": "\ud800", "content": "c"}"#,
        r#"{"path": "\udc00", "content": "c"}"#,
        r#"{"path": "\ud800\u0041", "content": "c"}"#,
    ] {
        let error = short_error_of(SaveNote::parse_args(text), ArgsErrorKind::Syntax);
        assert_eq!(error.path(), "path");
    }
    let ok = SaveNote::parse_args(r#"{"path": "\ud83d\ude00", "content": "\u0000"}"#).unwrap();
    assert_eq!((ok.path.as_str(), ok.content.as_str()), ("😀", "\0"));
}

// ---------------------------------------------------------------------------------------------
// Duplicate keys
// ---------------------------------------------------------------------------------------------

#[test]
fn duplicate_fields_are_errors() {
    let text = r#"{"path": "a", "content": "c", "path": "b"}"#;
    let error = short_error_of(SaveNote::parse_args(text), ArgsErrorKind::Data);
    assert_eq!(error.message(), "duplicate field `path`");
    short_error_of(SaveNote::parse_bytes(text.as_bytes()), ArgsErrorKind::Data);
    // Through the `Value` path: the same error, not the last value silently kept.
    let text = r#"{"weight": 1, "labels": {}, "weight": 2}"#;
    let error = short_error_of(Tag::parse_args(text), ArgsErrorKind::Data);
    assert_eq!(error.message(), "duplicate field `weight`");
    // Arguments encoded twice, with a duplicate inside.
    let twice = Value::String(r#"{"path": "a", "content": "c", "path": "b"}"#.into()).to_string();
    let error = short_error_of(SaveNote::parse_args(&twice), ArgsErrorKind::Data);
    assert_eq!(error.message(), "duplicate field `path`");
    let error = short_error_of(
        SaveNote::parse_value(Value::String(
            r#"{"path": "a", "content": "c", "path": "b"}"#.into(),
        )),
        ArgsErrorKind::Data,
    );
    assert_eq!(error.message(), "duplicate field `path`");
}

/// Label things; a plain map field, which the fast path reads.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Labels {
    labels: std::collections::HashMap<String, u32>,
}

/// A duplicate key in a map field (or in an arbitrary JSON value) is an error on every path:
/// the model sent something ambiguous, and a map would keep one of the values silently.
#[test]
fn duplicate_keys_in_a_map() {
    let text = r#"{"labels": {"a": 1, "a": 2}}"#;
    let error = short_error_of(Tag::parse_args(text), ArgsErrorKind::Data);
    assert_eq!(error.message(), "duplicate field `a`");
    for error in [
        Labels::parse_args(text).unwrap_err(),
        Labels::parse_bytes(text.as_bytes()).unwrap_err(),
    ] {
        assert_eq!(
            (error.kind(), error.path(), error.message()),
            (ArgsErrorKind::Data, "labels", "duplicate field `a`")
        );
    }
    let text = r#"{"key": "k", "data": {"a": 1, "b": [{"c": 1, "c": 1}]}}"#;
    for error in [
        Store::parse_args(text).unwrap_err(),
        Store::parse_bytes(text.as_bytes()).unwrap_err(),
        // Encoded twice, as a JSON string.
        Store::parse_value(Value::String(text.into())).unwrap_err(),
    ] {
        assert_eq!(
            (error.kind(), error.path(), error.message()),
            (ArgsErrorKind::Data, "data.b[0]", "duplicate field `c`"),
            "{error}"
        );
    }
    // The same keys in different objects are fine.
    let text = r#"{"key": "k", "data": {"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}}"#;
    assert_eq!(
        Store::parse_args(text).unwrap().data,
        json!({"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]})
    );
    assert_eq!(
        Labels::parse_args(r#"{"labels": {"a": 1, "b": 2}}"#)
            .unwrap()
            .labels
            .len(),
        2
    );
}

/// A key repeated after many others (past the few compared one by one, into the hash set) is
/// found the same way on the text (a map field) and on the way through a value (a dynamic tool,
/// a value encoded twice), in an object and in an array's object.
#[test]
fn duplicate_keys_among_many() {
    let keys: Vec<String> = (0..40).map(|i| format!(r#""k{i}": {i}"#)).collect();
    let many = format!("{{{}, \"k3\": 0}}", keys.join(", "));
    let text = format!(r#"{{"labels": {many}}}"#);
    for error in [
        Labels::parse_args(&text).unwrap_err(),
        Labels::parse_value(Value::String(text.clone())).unwrap_err(),
    ] {
        assert_eq!(
            (error.kind(), error.path(), error.message()),
            (ArgsErrorKind::Data, "labels", "duplicate field `k3`")
        );
    }
    let dynamic = toolgen::DynamicTool::new("store", "Store.", json!({"type": "object"})).unwrap();
    let error = dynamic
        .parse_args(&format!(r#"{{"rows": [{{}}, {many}]}}"#))
        .unwrap_err();
    assert_eq!(
        (error.path(), error.message()),
        ("rows[1]", "duplicate field `k3`")
    );
    let unique = format!("{{{}}}", keys.join(", "));
    assert_eq!(
        Labels::parse_args(&format!(r#"{{"labels": {unique}}}"#))
            .unwrap()
            .labels
            .len(),
        40
    );
}

// ---------------------------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------------------------

#[test]
fn numbers_out_of_range_are_errors() {
    let cases = [
        (
            r#"{"tiny": 128}"#,
            "tiny",
            "invalid value: integer `128`, expected i8",
        ),
        (
            r#"{"tiny": -129}"#,
            "tiny",
            "invalid value: integer `-129`, expected i8",
        ),
        (
            r#"{"small": 256}"#,
            "small",
            "invalid value: integer `256`, expected u8",
        ),
        (
            r#"{"small": -1}"#,
            "small",
            "invalid value: integer `-1`, expected u8",
        ),
        (
            r#"{"count": 4294967296}"#,
            "count",
            "invalid value: integer `4294967296`, expected u32",
        ),
        (
            r#"{"big": 9223372036854775808}"#,
            "big",
            "invalid value: integer `9223372036854775808`, expected i64",
        ),
        // Beyond u64 serde_json reads a float, which no whole-float tolerance mends.
        (
            r#"{"huge": 18446744073709551616}"#,
            "huge",
            "invalid type: floating point `1.8446744073709552e+19`, expected u64",
        ),
        (
            r#"{"huge": 1e300}"#,
            "huge",
            "invalid type: floating point `1e+300`, expected u64",
        ),
        // A whole float is mended to the integer it is, which is then out of range.
        (
            r#"{"small": 256.0}"#,
            "small",
            "invalid value: integer `256`, expected u8",
        ),
    ];
    for (text, path, message) in cases {
        let error = short_error_of(Numbers::parse_args(text), ArgsErrorKind::Data);
        assert_eq!((error.path(), error.message()), (path, message), "{text}");
    }
    // Beyond f64: serde_json refuses the number itself. The text is JSON (RFC 8259 sets no
    // limit), the number does not fit the field: a data error at the field, as for `256` in a
    // `u8`.
    for (text, path) in [
        (r#"{"exact": 1e400}"#, "exact"),
        (r#"{"exact": -1e400}"#, "exact"),
        (r#"{"ratio": 1e400}"#, "ratio"),
    ] {
        for error in [
            Numbers::parse_args(text).unwrap_err(),
            Numbers::parse_bytes(text.as_bytes()).unwrap_err(),
        ] {
            assert_eq!(
                (error.kind(), error.path(), error.message()),
                (ArgsErrorKind::Data, path, "number out of range"),
                "{text}"
            );
        }
    }
    // Through the `Value` path (a type with defaults) as well.
    let error = short_error_of(
        Tag::parse_args(r#"{"labels": {"a": 1e999}}"#),
        ArgsErrorKind::Data,
    );
    assert_eq!(error.message(), "number out of range");
}

/// An `f32` refuses a number beyond its range, on every path: serde converts an `f64` read from
/// a `serde_json::Value` with `as`, which makes it infinity, and so does serde_json from text
/// without its `float_roundtrip` feature.
#[test]
fn f32_overflow() {
    for (text, path) in [
        (r#"{"ratio": 1e39}"#, "ratio"),
        (r#"{"ratio": -3.5e38}"#, "ratio"),
    ] {
        for error in [
            Numbers::parse_args(text).unwrap_err(),
            Numbers::parse_bytes(text.as_bytes()).unwrap_err(),
            Numbers::parse_value(serde_json::from_str(text).unwrap()).unwrap_err(),
            Scaled::parse_args(text).unwrap_err(),
            Scaled::parse_value(serde_json::from_str(text).unwrap()).unwrap_err(),
        ] {
            assert_eq!(
                (error.kind(), error.path(), error.message()),
                (ArgsErrorKind::Data, path, "number out of range"),
                "{text}"
            );
        }
    }
    // The largest `f32` and big `f64`s are fine.
    let max = json!({"ratio": f32::MAX, "exact": 1e300});
    let parsed = Numbers::parse_value(max.clone()).unwrap();
    assert_eq!((parsed.ratio, parsed.exact), (Some(f32::MAX), Some(1e300)));
    assert_eq!(Numbers::parse_args(&max.to_string()).unwrap(), parsed);
    let parsed = Scaled::parse_value(json!({"ratio": 0.5, "note": 1e300})).unwrap();
    assert_eq!(parsed.ratio, 0.5);
}

/// Scale by a ratio; its default sends parsing through a `serde_json::Value`.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Scaled {
    ratio: f32,
    #[tool(default = 1)]
    times: u32,
}

#[test]
fn nan_and_infinity_are_syntax_errors() {
    for word in [
        "NaN",
        "nan",
        "Infinity",
        "-Infinity",
        "inf",
        "+1",
        "0x10",
        ".5",
    ] {
        let text = format!(r#"{{"exact": {word}}}"#);
        short_error_of(Numbers::parse_args(&text), ArgsErrorKind::Syntax);
        short_error_of(Numbers::parse_bytes(text.as_bytes()), ArgsErrorKind::Syntax);
        let text = format!(r#"{{"weight": {word}, "labels": {{}}}}"#);
        short_error_of(Tag::parse_args(&text), ArgsErrorKind::Syntax);
    }
    // As strings they are strings, not numbers.
    let error = error_of(
        Numbers::parse_args(r#"{"exact": "NaN"}"#),
        ArgsErrorKind::Data,
    );
    assert_eq!(
        error.message(),
        "invalid type: string \"NaN\", expected f64"
    );
}

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------

/// A 1 MB tool name is read as sent; dispatching it gives an unknown-tool error whose message
/// quotes only its first 64 characters, and its length.
#[test]
fn very_long_tool_names() {
    let name = "n".repeat(MB);
    let responses = [
        (
            Provider::Anthropic,
            json!({"content": [{"type": "tool_use", "id": "t", "name": name, "input": {}}]}),
        ),
        (
            Provider::OpenAiChat,
            json!({"choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": name, "arguments": "{}"}}]}}]}),
        ),
        (
            Provider::OpenAiResponses,
            json!({"output": [{"type": "function_call", "call_id": "c", "name": name, "arguments": "{}"}]}),
        ),
        (
            Provider::Gemini,
            json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": name, "args": {}}}]}}]}),
        ),
        (
            Provider::Mcp,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name}}),
        ),
    ];
    for (provider, response) in responses {
        let calls = ToolCall::parse(provider, &response).unwrap();
        assert_eq!(calls[0].name.len(), MB, "{provider}");
        let error = short_error_of(Tools::parse_call(&calls[0]), ArgsErrorKind::UnknownTool);
        assert_eq!(
            error.message(),
            format!(
                "unknown tool `{}…` ({MB} characters); the tools are `save_note`, `numbers`",
                "n".repeat(64)
            )
        );
    }
    // Streamed.
    let mut stream = ToolCallStream::new(Provider::Anthropic);
    stream
        .push(
            &json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "t", "name": name, "input": {}}}),
        )
        .unwrap();
    stream
        .push(&json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": "{}"}}))
        .unwrap();
    assert_eq!(stream.pending().next().unwrap().name.len(), MB);
    let calls = stream.finish().unwrap();
    short_error_of(Tools::parse_call(&calls[0]), ArgsErrorKind::UnknownTool);
}

/// Names are cut at a character, not a byte, at 64 as every quote of the model's text; a name
/// of 64 is quoted whole.
#[test]
fn unknown_names_are_cut_at_characters() {
    let name = "ž".repeat(150);
    let error = Tools::parse_call(&ToolCall::new(name, "{}")).unwrap_err();
    assert!(
        error.message().starts_with(&format!(
            "unknown tool `{}…` (150 characters);",
            "ž".repeat(64)
        )),
        "{error}"
    );
    let error = Tools::parse_call(&ToolCall::new("x".repeat(64), "{}")).unwrap_err();
    assert!(
        error
            .message()
            .starts_with(&format!("unknown tool `{}`;", "x".repeat(64))),
        "{error}"
    );
}

/// A run-time tool that refuses unknown keys quotes a huge one cut, as a derived tool does:
/// a 1 MB key (a secret pasted as a key, say) is not echoed whole.
#[test]
fn a_dynamic_tools_unknown_key_is_cut() {
    let tool = toolgen::DynamicTool::new(
        "save",
        "Save.",
        json!({"type": "object", "properties": {"text": {"type": "string"}},
               "additionalProperties": false}),
    )
    .unwrap();
    let key = "k".repeat(MB);
    let error = tool.parse_value(json!({ key: 1 })).unwrap_err();
    assert_eq!(
        error.message(),
        format!(
            "unknown field `{}…` ({MB} characters), expected one of `text`",
            "k".repeat(64)
        )
    );
}

/// Tag items.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct TagIds {
    /// The item ids, each once.
    ids: std::collections::BTreeSet<u64>,
}

#[test]
fn a_huge_set_is_checked_for_repeats_in_linear_time() {
    // 200,000 ids: compared pair by pair, that was 2 * 10^10 comparisons.
    let ids: Vec<u64> = (0..200_000).collect();
    let text = json!({ "ids": ids }).to_string();
    assert_eq!(TagIds::parse_args(&text).unwrap().ids.len(), 200_000);
    let mut repeated = ids;
    repeated.push(123_456);
    let error = TagIds::parse_args(&json!({ "ids": repeated }).to_string()).unwrap_err();
    assert_eq!(error.path(), "ids[200000]", "{error}");
    assert!(error.message().contains("item 123456"), "{error}");
}
