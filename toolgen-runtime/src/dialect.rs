//! Provider dialects of a tool's input schema: the standard JSON Schema text rewritten, in const
//! evaluation, into what OpenAI's and Anthropic's strict modes and Gemini's `parameters` accept.
//!
//! The derive flattens the standard schema ([`Tool::INPUT_SCHEMA`](crate::Tool::INPUT_SCHEMA))
//! first; every dialect is a rewrite of that text, so all of them describe the same type and are
//! `&'static str` consts. The same `const fn`s run at run time too ([`dialect_schema`]), which is
//! how tests and tools look at a dialect of any tool.
//!
//! The rules, from the providers' documentation (checked November 2026):
//! - OpenAI strict, <https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>:
//!   every object has `additionalProperties: false` and lists all its properties in `required`,
//!   so optional ones become nullable; supported keywords are, for strings `pattern` and `format`
//!   (`date-time`, `time`, `date`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`, `uuid`), for
//!   numbers `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, for arrays
//!   `minItems`, `maxItems`; `anyOf` (not `oneOf`), `enum`, `const`, `$defs`/`$ref` (recursion
//!   allowed); at most 5000 properties, 10 levels of nesting, 1000 enum values and 120,000
//!   characters of property names, definition names, enum and const values.
//! - Anthropic strict tool use,
//!   <https://docs.claude.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations>:
//!   `additionalProperties: false` on every object; no recursive schemas; no numerical
//!   (`minimum`, `maximum`, `multipleOf`, ..) or string-length constraints; `minItems` only 0 or
//!   1; formats `date-time`, `time`, `date`, `duration`, `email`, `hostname`, `uri`, `ipv4`,
//!   `ipv6`, `uuid`; regexes without backreferences, lookaround or word boundaries.
//! - Gemini `parameters`, <https://ai.google.dev/api/caching#Schema>: a subset of the OpenAPI 3.0
//!   schema object: one `type` plus `nullable: true`, string `enum`s only, no `const`, no
//!   `additionalProperties`, no `$ref`/`$defs`, `format` only `enum`/`date-time` for strings
//!   (`int32`/`int64`, `float`/`double` for numbers), `propertyOrdering` for the field order.
//!
//! What a dialect cannot state but the model should still know (`maxLength` under OpenAI strict,
//! `minimum` under Anthropic strict, a `default`, ..) is moved into the schema's `description`
//! in words ("At most 80 characters."). What it cannot express at all (a map, an arbitrary JSON
//! value, a tuple, and for Anthropic and Gemini recursion) is a [`DialectError`]: a strict tool with one does
//! not compile, and a tool that does not fit Gemini's `parameters` is sent with
//! `parametersJsonSchema`.
//!
//! This module works on the program's own schema text in const evaluation, never on model output;
//! an out-of-bounds index here means a malformed schema of the program's own, which stops the
//! build, so the runtime's no-panic lints do not apply to it.
#![allow(clippy::indexing_slicing, clippy::panic)]

use crate::rope::Out;

/// A provider's schema dialect.
///
/// ```
/// use toolgen::{Dialect, dialect_schema};
/// let standard = r#"{"type":"object","properties":{"city":{"type":"string","maxLength":80},"days":{"type":"integer"}},"required":["city"]}"#;
/// assert_eq!(
///     dialect_schema(standard, Dialect::OpenAiStrict).unwrap(),
///     r#"{"type":"object","properties":{"city":{"type":"string","description":"At most 80 characters."},"days":{"type":["integer","null"]}},"required":["city","days"],"additionalProperties":false}"#
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// JSON Schema 2020-12 as toolgen emits it: Anthropic and OpenAI without `strict`, MCP,
    /// Gemini's `parametersJsonSchema`.
    Standard,
    /// OpenAI strict mode (`"strict": true`, Chat Completions and Responses).
    OpenAiStrict,
    /// Anthropic strict tool use (`"strict": true` on the tool).
    AnthropicStrict,
    /// Gemini's `parameters` (an OpenAPI 3.0 subset).
    Gemini,
}

impl Dialect {
    /// Every dialect, in a fixed order.
    pub const ALL: [Dialect; 4] = [
        Dialect::Standard,
        Dialect::OpenAiStrict,
        Dialect::AnthropicStrict,
        Dialect::Gemini,
    ];

    pub(crate) const fn provider(self) -> &'static str {
        match self {
            Dialect::Standard => "standard JSON Schema",
            Dialect::OpenAiStrict => "OpenAI strict mode",
            Dialect::AnthropicStrict => "Anthropic strict mode",
            Dialect::Gemini => "Gemini `parameters`",
        }
    }
}

/// What a dialect cannot express.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// A map (`additionalProperties` with a schema): strict modes need `false` on every object.
    /// (Gemini's `parameters` take it as a free-form object, without the values' schema.)
    Map,
    /// A schema that allows any JSON value (`serde_json::Value`): every schema needs a type.
    AnyValue,
    /// A tuple (`prefixItems`).
    Tuple,
    /// A recursive type (`$ref`): Anthropic strict mode and Gemini `parameters` have no references.
    Recursive,
    /// A regex with backreferences, lookaround or word boundaries (Anthropic strict mode).
    Pattern,
    /// A value of several types (`"type": ["string","integer"]`): Gemini allows one.
    MultipleTypes,
    /// An `enum` or `const` that is not a string (Gemini).
    NonStringEnum,
    /// More than 5000 properties in all (OpenAI strict mode).
    TooManyProperties,
    /// Objects nested more than 10 deep (OpenAI strict mode).
    TooDeep,
    /// More than 1000 enum values in all (OpenAI strict mode).
    TooManyEnumValues,
    /// More than 120,000 characters of property names, definition names, enum and const values
    /// (OpenAI strict mode).
    TooMuchText,
    /// The text is not a JSON Schema of the shapes toolgen writes ([`dialect_schema`] only).
    NotASchema,
}

impl Rule {
    /// What the rule forbids, and what to do instead, in words.
    pub(crate) const fn words(self, dialect: Dialect) -> (&'static str, &'static str) {
        if let (Dialect::Gemini, false) = (dialect, matches!(self, Rule::NotASchema)) {
            let (what, _) = self.words(Dialect::Standard);
            return (
                what,
                "leave `gemini` out (or write `#[tool(gemini = \"json_schema\")]`), and Gemini gets the standard schema as `parametersJsonSchema`",
            );
        }
        match self {
            Rule::Map => (
                "cannot take a map (`HashMap`, `BTreeMap`, `serde_json::Map`, a flattened map): every object must have `additionalProperties: false`",
                "use a `Vec` of key/value structs, or drop `strict`",
            ),
            Rule::AnyValue => (
                "cannot take an arbitrary JSON value (`serde_json::Value`): every schema needs a type",
                "use a concrete type, or drop `strict`",
            ),
            Rule::Tuple => (
                "cannot take a tuple (`prefixItems`)",
                "use a struct with named fields",
            ),
            Rule::Recursive => (
                "cannot take a recursive type (`$ref`)",
                "use `#[tool(strict = \"openai\")]` (OpenAI strict mode allows recursion), or drop `strict`",
            ),
            Rule::Pattern => (
                "cannot take a `pattern` with backreferences, lookaround or word boundaries (`\\b`, `\\B`)",
                "rewrite the regex without them",
            ),
            Rule::MultipleTypes => ("cannot take a value of several types", ""),
            Rule::NonStringEnum => ("cannot take an `enum` or `const` that is not a string", ""),
            Rule::TooManyProperties => (
                "allows at most 5000 object properties in all",
                "split the tool, or drop `strict`",
            ),
            Rule::TooDeep => (
                "allows at most 10 levels of nested objects",
                "flatten the input, or drop `strict`",
            ),
            Rule::TooManyEnumValues => (
                "allows at most 1000 enum values in all",
                "use a `String` with a description, or drop `strict`",
            ),
            Rule::TooMuchText => (
                "allows at most 120,000 characters of property names, definition names, enum and const values in all",
                "shorten names or enums, or drop `strict`",
            ),
            Rule::NotASchema => (
                "cannot rewrite this text: it is not a JSON Schema of the shapes toolgen writes",
                "pass a schema toolgen emitted",
            ),
        }
    }
}

/// How much of a problem's path is kept.
const PATH_BYTES: usize = 200;
/// How many keywords one schema object may have.
const MAX_KEYWORDS: usize = 24;

const MAX_PROPERTIES: usize = 5000;
const MAX_DEPTH: usize = 10;
const MAX_ENUM_VALUES: usize = 1000;
const MAX_TEXT: usize = 120_000;

/// Why a schema has no form in a dialect, and where, as const evaluation records it.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Problem {
    dialect: Dialect,
    rule: Rule,
    path: [u8; PATH_BYTES],
    path_len: usize,
}

/// Why a schema has no form in a dialect, and where: what [`dialect_schema`] returns, and what a
/// strict tool's build stops with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DialectError {
    dialect: Dialect,
    rule: Rule,
    path: String,
}

/// The result of a dry run: the rewritten text's length, and the first problem found.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Converted {
    /// The length of the rewritten text.
    pub len: usize,
    /// The first thing the dialect cannot express.
    pub error: Option<Problem>,
}

/// The state of one rewrite.
struct Cx<'s, 'b> {
    src: &'s [u8],
    /// Where each string, object and array of `src` ends (see [`fill_ends`]).
    ends: &'s [u32],
    out: Out<'b>,
    dialect: Dialect,
    /// The JSON path of the schema being written (`cards[].unit`), cut at `PATH_BYTES`.
    path: [u8; PATH_BYTES],
    path_len: usize,
    error: Option<Problem>,
    properties: usize,
    enum_values: usize,
    text: usize,
    objects: usize,
}

/// The keywords the rewrite knows; every other key is `Other`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Type,
    Properties,
    Required,
    AdditionalProperties,
    Items,
    PrefixItems,
    AnyOf,
    OneOf,
    AllOf,
    Enum,
    Const,
    Ref,
    Defs,
    Description,
    Title,
    Default,
    Format,
    Pattern,
    MinLength,
    MaxLength,
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
    MultipleOf,
    MinItems,
    MaxItems,
    UniqueItems,
    Examples,
    Not,
    Other,
}

/// The keyword a key (its span without quotes) names. Const evaluation is slow at comparing
/// strings, so each key is compared once, here, by its length first.
const fn classify(s: &[u8], a: usize, b: usize) -> Key {
    let candidates: &[(&str, Key)] = match b - a {
        3 => &[("not", Key::Not)],
        4 => &[("type", Key::Type), ("enum", Key::Enum), ("$ref", Key::Ref)],
        5 => &[
            ("items", Key::Items),
            ("anyOf", Key::AnyOf),
            ("oneOf", Key::OneOf),
            ("allOf", Key::AllOf),
            ("const", Key::Const),
            ("$defs", Key::Defs),
            ("title", Key::Title),
        ],
        6 => &[("format", Key::Format)],
        7 => &[
            ("default", Key::Default),
            ("pattern", Key::Pattern),
            ("minimum", Key::Minimum),
            ("maximum", Key::Maximum),
        ],
        8 => &[
            ("required", Key::Required),
            ("minItems", Key::MinItems),
            ("maxItems", Key::MaxItems),
            ("examples", Key::Examples),
        ],
        9 => &[("minLength", Key::MinLength), ("maxLength", Key::MaxLength)],
        10 => &[
            ("properties", Key::Properties),
            ("multipleOf", Key::MultipleOf),
        ],
        11 => &[
            ("description", Key::Description),
            ("prefixItems", Key::PrefixItems),
            ("uniqueItems", Key::UniqueItems),
        ],
        16 => &[
            ("exclusiveMinimum", Key::ExclusiveMinimum),
            ("exclusiveMaximum", Key::ExclusiveMaximum),
        ],
        20 => &[("additionalProperties", Key::AdditionalProperties)],
        _ => &[],
    };
    let mut i = 0;
    while i < candidates.len() {
        let (name, key) = candidates[i];
        if span_is(s, a, b, name) {
            return key;
        }
        i += 1;
    }
    Key::Other
}

/// A `"key":value` member of a JSON object: the key's span (quotes included), the value's, and
/// the keyword the key names.
#[derive(Clone, Copy)]
struct Kw {
    k0: usize,
    k1: usize,
    v0: usize,
    v1: usize,
    key: Key,
}

const NO_KW: Kw = Kw {
    k0: 0,
    k1: 0,
    v0: 0,
    v1: 0,
    key: Key::Other,
};

/// Past the white space at `i` (inline: toolgen's own text has none, and a call costs const
/// evaluation more than the check).
macro_rules! ws {
    ($s:expr, $i:expr) => {{
        let s: &[u8] = $s;
        let mut i: usize = $i;
        while i < s.len() && matches!(s[i], b' ' | b'\n' | b'\r' | b'\t') {
            i += 1;
        }
        i
    }};
}

/// Fills `ends` for the JSON text `s`: for each `"`, `{` and `[` that opens a value, the index
/// just past its end. Built once per rewrite, so that skipping a value is one lookup instead of a
/// scan (const evaluation runs a few million steps a second: rescanning each subtree at each
/// level cost the build ~80 ms per tool).
const fn fill_ends(s: &[u8], ends: &mut [u32]) {
    let mut stack = [0u32; MAX_DEPTH_JSON];
    let mut depth = 0;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'"' => {
                let mut j = i + 1;
                while s[j] != b'"' {
                    j += if s[j] == b'\\' { 2 } else { 1 };
                }
                ends[i] = (j + 1) as u32;
                i = j + 1;
                continue;
            }
            b'{' | b'[' => {
                assert!(depth < MAX_DEPTH_JSON, "toolgen: a schema nested too deep");
                stack[depth] = i as u32;
                depth += 1;
            }
            b'}' | b']' => {
                depth -= 1;
                ends[stack[depth] as usize] = (i + 1) as u32;
            }
            _ => {}
        }
        i += 1;
    }
}

/// How deep [`fill_ends`] follows nesting (beyond serde_json's own limit of 128).
const MAX_DEPTH_JSON: usize = 160;

/// The end (past the closing quote) of the string starting at `i`.
const fn string_end(s: &[u8], t: &[u32], i: usize) -> usize {
    let _ = s;
    t[i] as usize
}

/// The end of the JSON value starting at `i`.
const fn value_end(s: &[u8], t: &[u32], i: usize) -> usize {
    match s[i] {
        b'"' | b'{' | b'[' => t[i] as usize,
        _ => {
            let mut j = i;
            while j < s.len() && !matches!(s[j], b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t')
            {
                j += 1;
            }
            j
        }
    }
}

/// The members of the object starting at `i`, and its end.
const fn members(s: &[u8], t: &[u32], i: usize) -> ([Kw; MAX_KEYWORDS], usize, usize) {
    let mut kws = [NO_KW; MAX_KEYWORDS];
    let mut n = 0;
    let mut j = ws!(s, i + 1);
    if s[j] == b'}' {
        return (kws, 0, j + 1);
    }
    loop {
        j = ws!(s, j);
        let k1 = string_end(s, t, j);
        let v0 = ws!(s, ws!(s, k1) + 1);
        let v1 = value_end(s, t, v0);
        assert!(
            n < MAX_KEYWORDS,
            "toolgen: a schema object has too many keywords"
        );
        kws[n] = Kw {
            k0: j,
            k1,
            v0,
            v1,
            key: classify(s, j + 1, k1 - 1),
        };
        n += 1;
        j = ws!(s, v1);
        if s[j] == b'}' {
            return (kws, n, j + 1);
        }
        j += 1; // ','
    }
}

/// Whether the bytes `s[a..b]` are `text`.
const fn span_is(s: &[u8], a: usize, b: usize, text: &str) -> bool {
    let t = text.as_bytes();
    if b - a != t.len() {
        return false;
    }
    let mut i = 0;
    while i < t.len() {
        if s[a + i] != t[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether the member names `key`.
const fn is_key(kw: &Kw, key: Key) -> bool {
    kw.key as u8 == key as u8
}

const fn find(kws: &[Kw; MAX_KEYWORDS], n: usize, key: Key) -> Option<Kw> {
    let mut i = 0;
    while i < n {
        if kws[i].key as u8 == key as u8 {
            return Some(kws[i]);
        }
        i += 1;
    }
    None
}

/// Whether two spans hold the same bytes.
const fn spans_equal(s: &[u8], a0: usize, a1: usize, b0: usize, b1: usize) -> bool {
    if a1 - a0 != b1 - b0 {
        return false;
    }
    let mut i = 0;
    while i < a1 - a0 {
        if s[a0 + i] != s[b0 + i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether the array at `v0..v1` holds the string whose span (quotes included) is `k0..k1`.
const fn array_has(s: &[u8], t: &[u32], v0: usize, v1: usize, k0: usize, k1: usize) -> bool {
    let mut j = ws!(s, v0 + 1);
    while j < v1 && s[j] != b']' {
        let e = value_end(s, t, j);
        if spans_equal(s, j, e, k0, k1) {
            return true;
        }
        j = ws!(s, e);
        if s[j] == b',' {
            j = ws!(s, j + 1);
        }
    }
    false
}

/// Whether the array at `v0..v1` holds the string `text` (given without quotes).
const fn array_has_str(s: &[u8], t: &[u32], v0: usize, v1: usize, text: &str) -> bool {
    let mut j = ws!(s, v0 + 1);
    while j < v1 && s[j] != b']' {
        let e = value_end(s, t, j);
        if s[j] == b'"' && span_is(s, j + 1, e - 1, text) {
            return true;
        }
        j = ws!(s, e);
        if s[j] == b',' {
            j = ws!(s, j + 1);
        }
    }
    false
}

/// How many items the array at `v0..v1` has.
const fn array_len(s: &[u8], t: &[u32], v0: usize, v1: usize) -> usize {
    let mut n = 0;
    let mut j = ws!(s, v0 + 1);
    while j < v1 && s[j] != b']' {
        n += 1;
        j = ws!(s, value_end(s, t, j));
        if s[j] == b',' {
            j = ws!(s, j + 1);
        }
    }
    n
}

/// Whether the value at `v0..v1` is `{"type":"null"}` (the text is minified).
const fn is_null_schema(s: &[u8], v0: usize, v1: usize) -> bool {
    span_is(s, v0, v1, "{\"type\":\"null\"}")
}

impl Cx<'_, '_> {
    // Const evaluation spends more on a function call than on a few statements: copies are
    // plain byte loops, not slicing and `copy_nonoverlapping` (each several calls deep).
    const fn copy(&mut self, a: usize, b: usize) {
        if !self.out.dry {
            let mut i = a;
            let mut pos = self.out.pos;
            while i < b {
                self.out.buf[pos] = self.src[i];
                pos += 1;
                i += 1;
            }
        }
        self.out.pos += b - a;
    }

    /// Copies JSON text into a JSON string's content: quotes and backslashes escaped.
    const fn copy_escaped(&mut self, a: usize, b: usize) {
        let mut i = a;
        let mut run = a;
        while i < b {
            let c = self.src[i];
            if c == b'"' || c == b'\\' {
                self.copy(run, i);
                self.put("\\");
                run = i;
            }
            i += 1;
        }
        self.copy(run, b);
    }

    const fn put(&mut self, text: &str) {
        let bytes = text.as_bytes();
        if !self.out.dry {
            let mut i = 0;
            let mut pos = self.out.pos;
            while i < bytes.len() {
                self.out.buf[pos] = bytes[i];
                pos += 1;
                i += 1;
            }
        }
        self.out.pos += bytes.len();
    }

    const fn fail(&mut self, rule: Rule) {
        if self.error.is_none() {
            self.error = Some(Problem {
                dialect: self.dialect,
                rule,
                path: self.path,
                path_len: self.path_len,
            });
        }
    }

    /// Adds to the path: `.name` (the key's span, quotes included) or `[]` (no key); returns the
    /// length to go back to.
    const fn push(&mut self, key: Option<(usize, usize)>) -> usize {
        let old = self.path_len;
        match key {
            Some((k0, k1)) => {
                if old > 0 {
                    self.path_byte(b'.');
                }
                let mut i = k0 + 1;
                while i < k1 - 1 {
                    self.path_byte(self.src[i]);
                    i += 1;
                }
            }
            None => {
                self.path_byte(b'[');
                self.path_byte(b']');
            }
        }
        old
    }

    const fn path_byte(&mut self, byte: u8) {
        if self.path_len < PATH_BYTES {
            self.path[self.path_len] = byte;
            self.path_len += 1;
        }
    }

    const fn is(&self, dialect: Dialect) -> bool {
        self.dialect as u8 == dialect as u8
    }
}

/// What a dialect does with a keyword.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Action {
    /// Written as it is.
    Copy,
    /// Rewritten by [`schema`] itself.
    Special,
    /// Left out; the description says it in words.
    Words,
    /// Left out without a word.
    Drop,
}

const fn is_number_type(s: &[u8], t: &[u32], ty: Option<Kw>, name: &str) -> bool {
    match ty {
        Some(kw) => {
            span_is(s, kw.v0 + 1, kw.v1 - 1, name)
                || (s[kw.v0] == b'[' && array_has_str(s, t, kw.v0, kw.v1, name))
        }
        None => false,
    }
}

/// Whether the dialect accepts the `format` at `kw` for a schema of type `ty`.
const fn format_supported(cx: &Cx<'_, '_>, kw: &Kw, ty: Option<Kw>) -> bool {
    let s = cx.src;
    let t = cx.ends;
    let (a, b) = (kw.v0 + 1, kw.v1 - 1);
    let common = span_is(s, a, b, "date-time")
        || span_is(s, a, b, "time")
        || span_is(s, a, b, "date")
        || span_is(s, a, b, "duration")
        || span_is(s, a, b, "email")
        || span_is(s, a, b, "hostname")
        || span_is(s, a, b, "ipv4")
        || span_is(s, a, b, "ipv6")
        || span_is(s, a, b, "uuid");
    match cx.dialect {
        Dialect::Standard => true,
        Dialect::OpenAiStrict => common,
        Dialect::AnthropicStrict => common || span_is(s, a, b, "uri"),
        Dialect::Gemini => {
            span_is(s, a, b, "date-time")
                || span_is(s, a, b, "enum")
                || (is_number_type(s, t, ty, "integer")
                    && (span_is(s, a, b, "int32") || span_is(s, a, b, "int64")))
                || (is_number_type(s, t, ty, "number")
                    && (span_is(s, a, b, "float") || span_is(s, a, b, "double")))
        }
    }
}

const fn action(cx: &Cx<'_, '_>, kw: &Kw, ty: Option<Kw>) -> Action {
    let s = cx.src;
    let d = cx.dialect;
    if matches!(d, Dialect::Standard) {
        return Action::Copy;
    }
    let os = matches!(d, Dialect::OpenAiStrict);
    let an = matches!(d, Dialect::AnthropicStrict);
    let gm = matches!(d, Dialect::Gemini);
    if is_key(kw, Key::Type)
        || is_key(kw, Key::Properties)
        || is_key(kw, Key::Required)
        || is_key(kw, Key::Items)
        || is_key(kw, Key::AnyOf)
        || is_key(kw, Key::OneOf)
        || is_key(kw, Key::AllOf)
        || is_key(kw, Key::Defs)
        || is_key(kw, Key::Description)
        || is_key(kw, Key::Const)
        || is_key(kw, Key::Enum)
        || is_key(kw, Key::AdditionalProperties)
        || is_key(kw, Key::Pattern)
    {
        return Action::Special;
    }
    if is_key(kw, Key::Ref) || is_key(kw, Key::PrefixItems) {
        return if gm { Action::Drop } else { Action::Copy };
    }
    if is_key(kw, Key::Title) {
        return Action::Copy;
    }
    if is_key(kw, Key::Not) {
        // `#[serde(other)]`'s catch-all string: without `not` it is any string, which serde
        // accepts there anyway.
        return Action::Drop;
    }
    if is_key(kw, Key::Default) {
        return if os { Action::Words } else { Action::Copy };
    }
    if is_key(kw, Key::Format) {
        return if format_supported(cx, kw, ty) {
            Action::Copy
        } else {
            Action::Words
        };
    }
    if is_key(kw, Key::MinLength) || is_key(kw, Key::MaxLength) {
        return if gm { Action::Copy } else { Action::Words };
    }
    if is_key(kw, Key::Minimum) || is_key(kw, Key::Maximum) {
        return if an { Action::Words } else { Action::Copy };
    }
    if is_key(kw, Key::ExclusiveMinimum)
        || is_key(kw, Key::ExclusiveMaximum)
        || is_key(kw, Key::MultipleOf)
    {
        return if os { Action::Copy } else { Action::Words };
    }
    if is_key(kw, Key::MinItems) {
        let small = span_is(s, kw.v0, kw.v1, "0") || span_is(s, kw.v0, kw.v1, "1");
        return if an && !small {
            Action::Words
        } else {
            Action::Copy
        };
    }
    if is_key(kw, Key::MaxItems) {
        return if an { Action::Words } else { Action::Copy };
    }
    if is_key(kw, Key::UniqueItems) || is_key(kw, Key::Examples) {
        return Action::Words;
    }
    // Anything else (a hand-written schema's own keyword): strict grammars reject what they do
    // not know, and Gemini's schema object has no such field.
    Action::Drop
}

/// The sentence that says a left-out keyword in words.
const fn put_sentence(cx: &mut Cx<'_, '_>, kw: &Kw) {
    let s = cx.src;
    let (prefix, suffix, quoted) = if is_key(kw, Key::MinLength) {
        ("At least ", " characters.", false)
    } else if is_key(kw, Key::MaxLength) {
        ("At most ", " characters.", false)
    } else if is_key(kw, Key::Minimum) {
        ("At least ", ".", false)
    } else if is_key(kw, Key::Maximum) {
        ("At most ", ".", false)
    } else if is_key(kw, Key::ExclusiveMinimum) {
        ("Greater than ", ".", false)
    } else if is_key(kw, Key::ExclusiveMaximum) {
        ("Less than ", ".", false)
    } else if is_key(kw, Key::MultipleOf) {
        ("A multiple of ", ".", false)
    } else if is_key(kw, Key::MinItems) {
        ("At least ", " items.", false)
    } else if is_key(kw, Key::MaxItems) {
        ("At most ", " items.", false)
    } else if is_key(kw, Key::UniqueItems) {
        if span_is(s, kw.v0, kw.v1, "true") {
            cx.put("Items must be unique.");
        }
        return;
    } else if is_key(kw, Key::Format) {
        ("Format: ", ".", true)
    } else if is_key(kw, Key::Default) {
        ("Default: ", ".", false)
    } else if is_key(kw, Key::Examples) {
        ("Examples: ", ".", false)
    } else {
        return;
    };
    cx.put(prefix);
    if quoted {
        cx.copy(kw.v0 + 1, kw.v1 - 1);
    } else {
        cx.copy_escaped(kw.v0, kw.v1);
    }
    cx.put(suffix);
}

/// Whether the keyword says something in words (the `uniqueItems: false` says nothing).
const fn has_words(cx: &Cx<'_, '_>, kw: &Kw, act: Action) -> bool {
    let says_nothing = is_key(kw, Key::UniqueItems) && !span_is(cx.src, kw.v0, kw.v1, "true");
    !says_nothing && matches!(act, Action::Words)
}

/// Writes `"description":"<text> <words>"`: the text of `own` (a string value's span), then the
/// left-out keywords in words.
const fn put_description(
    cx: &mut Cx<'_, '_>,
    own: Option<(usize, usize)>,
    kws: &[Kw; MAX_KEYWORDS],
    n: usize,
    says: &[bool; MAX_KEYWORDS],
) {
    cx.put("\"description\":\"");
    let mut wrote = false;
    if let Some((a, b)) = own
        && b - a > 2
    {
        cx.copy(a + 1, b - 1);
        wrote = true;
    }
    let mut i = 0;
    while i < n {
        if says[i] {
            if wrote {
                cx.put(" ");
            }
            put_sentence(cx, &kws[i]);
            wrote = true;
        }
        i += 1;
    }
    cx.put("\"");
}

/// Whether a regex (a JSON string's span) uses what Anthropic's strict grammar rejects:
/// backreferences (`\1`, `\k<name>`), lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) or word
/// boundaries (`\b`, `\B`).
const fn pattern_unsupported(s: &[u8], v0: usize, v1: usize) -> bool {
    // The JSON text escapes a regex backslash as `\\`.
    let mut i = v0 + 1;
    let end = v1 - 1;
    while i < end {
        if s[i] == b'\\' && i + 1 < end && s[i + 1] == b'\\' && i + 2 < end {
            let c = s[i + 2];
            if matches!(c, b'b' | b'B' | b'k' | b'1'..=b'9') {
                return true;
            }
            // `\\\\`: an escaped backslash in the regex; skip both.
            if c == b'\\' && i + 3 < end && s[i + 3] == b'\\' {
                i += 4;
                continue;
            }
            i += 3;
            continue;
        }
        if s[i] == b'\\' {
            i += 2;
            continue;
        }
        if s[i] == b'(' && i + 2 < end && s[i + 1] == b'?' {
            let c = s[i + 2];
            if c == b'=' || c == b'!' {
                return true;
            }
            if c == b'<' && i + 3 < end && (s[i + 3] == b'=' || s[i + 3] == b'!') {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// How a schema is written where it stands.
#[derive(Clone, Copy)]
struct Flags {
    /// OpenAI strict: an optional property, which must admit `null`. Gemini: admits `null`.
    nullable: bool,
    /// A description that replaces the schema's own (Gemini, when `{"anyOf":[T,null]}` becomes
    /// `T` with `nullable`).
    description: Option<(usize, usize)>,
    /// Leave `"null"` out of a `type` list: the schema is the first branch of an `anyOf` that
    /// has the `null` branch.
    drop_null: bool,
}

const PLAIN: Flags = Flags {
    nullable: false,
    description: None,
    drop_null: false,
};

/// Writes the schema at `i` in the dialect; returns where it ends.
const fn schema(cx: &mut Cx<'_, '_>, i: usize, flags: Flags) -> usize {
    let s = cx.src;
    let t = cx.ends;
    let i = ws!(s, i);
    if s[i] != b'{' {
        let end = value_end(s, t, i);
        cx.copy(i, end);
        return end;
    }
    let (kws, n, end) = members(s, t, i);
    let ty = find(&kws, n, Key::Type);
    // What the dialect does with each keyword, decided once.
    let mut acts = [Action::Copy; MAX_KEYWORDS];
    let mut says = [false; MAX_KEYWORDS];
    let mut words = false;
    let mut k = 0;
    while k < n {
        acts[k] = action(cx, &kws[k], ty);
        says[k] = has_words(cx, &kws[k], acts[k]);
        words |= says[k];
        k += 1;
    }
    let any_of = match find(&kws, n, Key::AnyOf) {
        Some(kw) => Some(kw),
        None => find(&kws, n, Key::OneOf),
    };
    let enum_ = find(&kws, n, Key::Enum);
    let const_ = find(&kws, n, Key::Const);
    let ref_ = find(&kws, n, Key::Ref);
    let props = find(&kws, n, Key::Properties);
    let required = find(&kws, n, Key::Required);
    let additional = find(&kws, n, Key::AdditionalProperties);
    let description = find(&kws, n, Key::Description);
    let os = cx.is(Dialect::OpenAiStrict);
    let gm = cx.is(Dialect::Gemini);
    let standard = cx.is(Dialect::Standard);

    if standard {
        cx.copy(i, end);
        return end;
    }

    // What the dialect cannot express at all.
    let typed = ty.is_some()
        || any_of.is_some()
        || enum_.is_some()
        || const_.is_some()
        || ref_.is_some()
        || find(&kws, n, Key::AllOf).is_some();
    if !typed {
        cx.fail(Rule::AnyValue);
    }
    // A map. Gemini has no `additionalProperties`: an object without `properties` is its
    // free-form object (as seed 003's `**kwargs` example writes it), so there the map stays, with
    // its values' schema left out.
    let is_object = props.is_some() || is_number_type(s, t, ty, "object");
    let free_form = match additional {
        Some(kw) => !span_is(s, kw.v0, kw.v1, "false"),
        // `{"type":"object"}` without `properties`: any object (`serde_json::Map`).
        None => is_object && props.is_none(),
    };
    if free_form && !gm {
        cx.fail(Rule::Map);
    }
    if find(&kws, n, Key::PrefixItems).is_some() {
        cx.fail(Rule::Tuple);
    }
    if ref_.is_some() && !os {
        cx.fail(Rule::Recursive);
    }
    if cx.is(Dialect::AnthropicStrict)
        && let Some(kw) = find(&kws, n, Key::Pattern)
        && pattern_unsupported(s, kw.v0, kw.v1)
    {
        cx.fail(Rule::Pattern);
    }

    // Which `null`s are there already.
    let type_has_null = match ty {
        Some(kw) => s[kw.v0] == b'[' && array_has_str(s, t, kw.v0, kw.v1, "null"),
        None => false,
    };
    let mut any_of_null = false;
    let mut any_of_other = 0;
    let mut any_of_first = 0;
    if let Some(kw) = any_of {
        let mut j = ws!(s, kw.v0 + 1);
        while s[j] != b']' {
            let e = value_end(s, t, j);
            if is_null_schema(s, j, e) {
                any_of_null = true;
            } else {
                if any_of_other == 0 {
                    any_of_first = j;
                }
                any_of_other += 1;
            }
            j = ws!(s, e);
            if s[j] == b',' {
                j = ws!(s, j + 1);
            }
        }
    }

    // Gemini: `{"anyOf":[T,{"type":"null"}],"description":..}` is `T` with `nullable: true`.
    if gm && any_of_null && any_of_other == 1 && n <= 2 && (n == 1 || description.is_some()) {
        let own = match description {
            Some(kw) => Some((kw.v0, kw.v1)),
            None => flags.description,
        };
        schema(
            cx,
            any_of_first,
            Flags {
                nullable: true,
                description: own,
                drop_null: false,
            },
        );
        return end;
    }

    // OpenAI strict: an optional property must admit `null`, by a widened type or an `anyOf`
    // branch; objects (and enums, consts, references) are wrapped in an `anyOf` with `null`.
    let can_widen =
        ty.is_some() && !is_object && enum_.is_none() && const_.is_none() && any_of.is_none();
    let can_add_branch = any_of.is_some() && ty.is_none() && enum_.is_none() && const_.is_none();
    let null_object = os && is_object && type_has_null && !flags.drop_null;
    let needs_null = os && flags.nullable && !type_has_null && !any_of_null;
    let widen_type = needs_null && can_widen;
    let add_null_branch = needs_null && !can_widen && can_add_branch;
    if null_object || (needs_null && !can_widen && !can_add_branch) {
        cx.put("{\"anyOf\":[");
        schema(
            cx,
            i,
            Flags {
                nullable: false,
                description: flags.description,
                drop_null: true,
            },
        );
        cx.put(",{\"type\":\"null\"}]}");
        return end;
    }

    if os && is_object {
        cx.objects += 1;
        if cx.objects > MAX_DEPTH {
            cx.fail(Rule::TooDeep);
        }
    }

    let mut gemini_nullable = gm && flags.nullable;
    let mut wrote_description = false;
    let mut first = true;
    cx.put("{");
    let mut k = 0;
    while k < n {
        let kw = kws[k];
        k += 1;
        let act = acts[k - 1];
        if matches!(act, Action::Drop | Action::Words) {
            continue;
        }
        // Keywords a dialect leaves out entirely.
        if is_key(&kw, Key::AdditionalProperties) && gm {
            continue;
        }
        if is_key(&kw, Key::Defs) && gm {
            continue;
        }
        if !first {
            cx.put(",");
        }
        first = false;
        if matches!(act, Action::Copy) {
            cx.copy(kw.k0, kw.v1);
            continue;
        }
        // Keys the branches below write themselves.
        let renamed = is_key(&kw, Key::Description)
            || (is_key(&kw, Key::OneOf) && !gm)
            || (is_key(&kw, Key::Const) && gm);
        if !renamed {
            cx.copy(kw.k0, kw.k1);
            cx.put(":");
        }
        if is_key(&kw, Key::Type) {
            if s[kw.v0] == b'[' {
                if gm {
                    // One type, and `nullable` for the `null`.
                    let mut types = 0;
                    let mut j = ws!(s, kw.v0 + 1);
                    while s[j] != b']' {
                        let e = value_end(s, t, j);
                        if span_is(s, j, e, "\"null\"") {
                            gemini_nullable = true;
                        } else {
                            if types == 0 {
                                cx.copy(j, e);
                            }
                            types += 1;
                        }
                        j = ws!(s, e);
                        if s[j] == b',' {
                            j = ws!(s, j + 1);
                        }
                    }
                    if types != 1 {
                        cx.fail(Rule::MultipleTypes);
                    }
                } else if widen_type {
                    cx.copy(kw.v0, kw.v1 - 1);
                    cx.put(",\"null\"]");
                } else if flags.drop_null {
                    put_types_without_null(cx, kw.v0);
                } else {
                    cx.copy(kw.v0, kw.v1);
                }
            } else if widen_type {
                cx.put("[");
                cx.copy(kw.v0, kw.v1);
                cx.put(",\"null\"]");
            } else {
                cx.copy(kw.v0, kw.v1);
            }
        } else if is_key(&kw, Key::Properties) {
            cx.put("{");
            let (a, b) = match required {
                Some(kw) => (kw.v0, kw.v1),
                None => (0, 0),
            };
            let mut j = ws!(s, kw.v0 + 1);
            let mut first_prop = true;
            while s[j] != b'}' {
                let k1 = string_end(s, t, j);
                let v0 = ws!(s, ws!(s, k1) + 1);
                if !first_prop {
                    cx.put(",");
                }
                first_prop = false;
                cx.properties += 1;
                cx.text += k1 - j - 2;
                let optional = required.is_none() || !array_has(s, t, a, b, j, k1);
                cx.copy(j, k1);
                cx.put(":");
                let back = cx.push(Some((j, k1)));
                let v1 = schema(
                    cx,
                    v0,
                    Flags {
                        nullable: os && optional,
                        description: None,
                        drop_null: false,
                    },
                );
                cx.path_len = back;
                j = ws!(s, v1);
                if s[j] == b',' {
                    j = ws!(s, j + 1);
                }
            }
            cx.put("}");
        } else if is_key(&kw, Key::Required) {
            if os {
                put_keys(cx, props);
            } else {
                cx.copy(kw.v0, kw.v1);
            }
        } else if is_key(&kw, Key::Items) {
            let back = cx.push(None);
            schema(cx, kw.v0, PLAIN);
            cx.path_len = back;
        } else if is_key(&kw, Key::AnyOf) || is_key(&kw, Key::OneOf) || is_key(&kw, Key::AllOf) {
            if is_key(&kw, Key::OneOf) && !gm {
                // The strict grammars have `anyOf` only; the branches of a `oneOf` toolgen writes
                // never overlap, so `anyOf` means the same.
                cx.put("\"anyOf\":");
            }
            cx.put("[");
            let mut j = ws!(s, kw.v0 + 1);
            let mut first_branch = true;
            while s[j] != b']' {
                let e = value_end(s, t, j);
                if gm && is_null_schema(s, j, e) {
                    gemini_nullable = true;
                } else {
                    if !first_branch {
                        cx.put(",");
                    }
                    first_branch = false;
                    schema(cx, j, PLAIN);
                }
                j = ws!(s, e);
                if s[j] == b',' {
                    j = ws!(s, j + 1);
                }
            }
            if add_null_branch {
                cx.put(",{\"type\":\"null\"}");
            }
            cx.put("]");
        } else if is_key(&kw, Key::Defs) {
            cx.put("{");
            let mut j = ws!(s, kw.v0 + 1);
            let mut first_def = true;
            while s[j] != b'}' {
                let k1 = string_end(s, t, j);
                let v0 = ws!(s, ws!(s, k1) + 1);
                if !first_def {
                    cx.put(",");
                }
                first_def = false;
                cx.text += k1 - j - 2;
                cx.copy(j, k1);
                cx.put(":");
                let back = cx.push(Some((j, k1)));
                let saved = cx.objects;
                cx.objects = 0;
                let v1 = schema(cx, v0, PLAIN);
                cx.objects = saved;
                cx.path_len = back;
                j = ws!(s, v1);
                if s[j] == b',' {
                    j = ws!(s, j + 1);
                }
            }
            cx.put("}");
        } else if is_key(&kw, Key::Description) {
            let own = match flags.description {
                Some(span) => Some(span),
                None => Some((kw.v0, kw.v1)),
            };
            put_description(cx, own, &kws, n, &says);
            wrote_description = true;
        } else if is_key(&kw, Key::Enum) {
            let count = array_len(s, t, kw.v0, kw.v1);
            cx.enum_values += count;
            cx.text += kw.v1 - kw.v0;
            if gm && !all_strings(s, t, kw.v0, kw.v1) {
                cx.fail(Rule::NonStringEnum);
            }
            cx.copy(kw.v0, kw.v1);
        } else if is_key(&kw, Key::Const) {
            cx.text += kw.v1 - kw.v0;
            if gm {
                // Gemini has no `const`: a one-value `enum`.
                if s[kw.v0] != b'"' {
                    cx.fail(Rule::NonStringEnum);
                }
                cx.put("\"enum\":[");
                cx.copy(kw.v0, kw.v1);
                cx.put("]");
            } else {
                cx.copy(kw.v0, kw.v1);
            }
        } else {
            // `additionalProperties: false`, `pattern` (checked above): as they are.
            cx.copy(kw.v0, kw.v1);
        }
    }

    // What the dialect adds.
    if !wrote_description && (words || flags.description.is_some()) {
        if !first {
            cx.put(",");
        }
        first = false;
        put_description(cx, flags.description, &kws, n, &says);
    }
    if gm && const_.is_some() && ty.is_none() {
        if !first {
            cx.put(",");
        }
        first = false;
        cx.put("\"type\":\"string\"");
    }
    if os && is_object && required.is_none() {
        if !first {
            cx.put(",");
        }
        first = false;
        cx.put("\"required\":");
        put_keys(cx, props);
    }
    if !gm && is_object && additional.is_none() {
        if !first {
            cx.put(",");
        }
        first = false;
        cx.put("\"additionalProperties\":false");
    }
    if gemini_nullable {
        if !first {
            cx.put(",");
        }
        first = false;
        cx.put("\"nullable\":true");
    }
    if gm && props.is_some() {
        if !first {
            cx.put(",");
        }
        cx.put("\"propertyOrdering\":");
        put_keys(cx, props);
    }
    cx.put("}");
    if os && is_object {
        cx.objects -= 1;
    }
    if os {
        if cx.properties > MAX_PROPERTIES {
            cx.fail(Rule::TooManyProperties);
        }
        if cx.enum_values > MAX_ENUM_VALUES {
            cx.fail(Rule::TooManyEnumValues);
        }
        if cx.text > MAX_TEXT {
            cx.fail(Rule::TooMuchText);
        }
    }
    end
}

/// Writes a `type` list without its `"null"`: the one type left as a string, several as a list.
const fn put_types_without_null(cx: &mut Cx<'_, '_>, v0: usize) {
    let s = cx.src;
    let t = cx.ends;
    let mut types = 0;
    let mut j = ws!(s, v0 + 1);
    while s[j] != b']' {
        let e = value_end(s, t, j);
        if !span_is(s, j, e, "\"null\"") {
            types += 1;
        }
        j = ws!(s, e);
        if s[j] == b',' {
            j = ws!(s, j + 1);
        }
    }
    if types != 1 {
        cx.put("[");
    }
    let mut first = true;
    j = ws!(s, v0 + 1);
    while s[j] != b']' {
        let e = value_end(s, t, j);
        if !span_is(s, j, e, "\"null\"") {
            if !first {
                cx.put(",");
            }
            first = false;
            cx.copy(j, e);
        }
        j = ws!(s, e);
        if s[j] == b',' {
            j = ws!(s, j + 1);
        }
    }
    if types != 1 {
        cx.put("]");
    }
}

/// Whether every item of the array at `v0..v1` is a string.
const fn all_strings(s: &[u8], t: &[u32], v0: usize, v1: usize) -> bool {
    let mut j = ws!(s, v0 + 1);
    while j < v1 && s[j] != b']' {
        if s[j] != b'"' {
            return false;
        }
        j = ws!(s, value_end(s, t, j));
        if s[j] == b',' {
            j = ws!(s, j + 1);
        }
    }
    true
}

/// Writes the keys of the `properties` object as a JSON array of strings (`[]` for none).
const fn put_keys(cx: &mut Cx<'_, '_>, props: Option<Kw>) {
    let s = cx.src;
    let t = cx.ends;
    cx.put("[");
    if let Some(kw) = props {
        let mut j = ws!(s, kw.v0 + 1);
        let mut first = true;
        while s[j] != b'}' {
            let k1 = string_end(s, t, j);
            if !first {
                cx.put(",");
            }
            first = false;
            cx.copy(j, k1);
            j = ws!(s, value_end(s, t, ws!(s, ws!(s, k1) + 1)));
            if s[j] == b',' {
                j = ws!(s, j + 1);
            }
        }
    }
    cx.put("]");
}

const fn run(
    src: &str,
    dialect: Dialect,
    ends: &mut [u32],
    buf: &mut [u8],
    dry: bool,
) -> Converted {
    fill_ends(src.as_bytes(), ends);
    let mut cx = Cx {
        src: src.as_bytes(),
        ends,
        out: Out { buf, pos: 0, dry },
        dialect,
        path: [0; PATH_BYTES],
        path_len: 0,
        error: None,
        properties: 0,
        enum_values: 0,
        text: 0,
        objects: 0,
    };
    schema(&mut cx, 0, PLAIN);
    Converted {
        len: cx.out.pos,
        error: cx.error,
    }
}

/// A dry run of the rewrite of `standard` (a schema toolgen emitted) into `dialect`: the length of
/// the text, and the first thing the dialect cannot express (for the tests of `bound`).
///
/// `ends` is scratch space of `standard.len()` items.
#[cfg(test)]
const fn convert(standard: &str, dialect: Dialect, ends: &mut [u32]) -> Converted {
    let mut nothing: [u8; 0] = [];
    run(standard, dialect, ends, &mut nothing, true)
}

/// An upper bound of the length of any dialect of `standard`: its bytes copied, escaped or
/// repeated (keys in `required` and `propertyOrdering`, values in words) at most 8 times over, and
/// at most 192 bytes added to each schema object (an `anyOf` with `null`, `additionalProperties`,
/// `nullable`, a `description`'s key, ...).
#[doc(hidden)]
pub const fn bound(standard: &str) -> usize {
    let s = standard.as_bytes();
    let mut objects = 0;
    let mut i = 0;
    let mut in_string = false;
    while i < s.len() {
        match s[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'{' if !in_string => objects += 1,
            _ => {}
        }
        i += 1;
    }
    8 * s.len() + 192 * objects + 256
}

/// The rewrite written into a buffer of [`bound`]'s size: one pass gives the text, its length
/// and the first problem. [`tighten`] then copies the text into an array of its exact length,
/// which is all that reaches the program (a dry run to learn the length first would be a second
/// pass, and const evaluation is slow).
#[doc(hidden)]
pub struct Written<const B: usize> {
    buf: [u8; B],
    /// The length and the first problem.
    pub converted: Converted,
}

/// [`Written`] for `standard` in `dialect`; `B` is [`bound`] of `standard`, and `ends` scratch
/// space of `standard.len()` items.
#[doc(hidden)]
pub const fn write<const B: usize>(
    standard: &str,
    dialect: Dialect,
    ends: &mut [u32],
) -> Written<B> {
    let mut buf = [0u8; B];
    let converted = run(standard, dialect, ends, &mut buf, false);
    Written { buf, converted }
}

/// The written text in an array of its exact length `N` (`written.converted.len`).
#[doc(hidden)]
pub const fn tighten<const N: usize, const B: usize>(written: &Written<B>) -> [u8; N] {
    assert!(
        written.converted.len == N,
        "toolgen: dialect length mismatch"
    );
    let mut out = [0u8; N];
    let (text, _) = written.buf.split_at(N);
    out.copy_from_slice(text);
    out
}

/// A schema toolgen emitted (such as [`Tool::INPUT_SCHEMA`](crate::Tool::INPUT_SCHEMA)), in
/// another provider's dialect; what the dialect cannot express is an error.
///
/// Tools have their dialects as consts already (see [`Tool`](crate::Tool)); this is the same
/// rewrite at run time, for a look at any tool in any dialect.
///
/// ```
/// use toolgen::{Dialect, dialect_schema};
/// let standard = r#"{"type":"object","properties":{"tags":{"type":"object","additionalProperties":{"type":"string"}}},"required":["tags"]}"#;
/// let error = dialect_schema(standard, Dialect::AnthropicStrict).unwrap_err();
/// assert!(error.to_string().starts_with("Anthropic strict mode cannot take a map"));
/// assert_eq!(error.path(), "tags");
/// let gemini = dialect_schema(r#"{"type":["string","null"]}"#, Dialect::Gemini).unwrap();
/// assert_eq!(gemini, r#"{"type":"string","nullable":true}"#);
/// ```
pub fn dialect_schema(standard: &str, dialect: Dialect) -> Result<String, DialectError> {
    // The rewrite reads the shapes toolgen writes; other text is checked first, so that it is an
    // error rather than a panic.
    let standard = match serde_json::from_str::<serde_json::Value>(standard) {
        Ok(value) if well_formed(&value, 0) => value.to_string(),
        _ => {
            return Err(DialectError {
                dialect,
                rule: Rule::NotASchema,
                path: String::new(),
            });
        }
    };
    let standard = standard.as_str();
    let mut ends = vec![0u32; standard.len()];
    // One pass into a buffer of `bound`'s size, as const evaluation does.
    let mut buf = vec![0u8; bound(standard)];
    let done = run(standard, dialect, &mut ends, &mut buf, false);
    if let Some(problem) = done.error {
        return Err(DialectError {
            dialect: problem.dialect,
            rule: problem.rule,
            path: problem.path_text().to_owned(),
        });
    }
    buf.truncate(done.len);
    // Pieces of a `str` and ASCII punctuation: always UTF-8.
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// Whether `schema` has the shapes the rewrite reads: objects of at most `MAX_KEYWORDS`
/// keywords whose `properties` and `$defs` are objects of schemas, `items` a schema, `anyOf`,
/// `oneOf`, `allOf` and `prefixItems` lists of schemas, `required` and `enum` lists, `type` a
/// string or a list of strings, `description`, `format` and `pattern` strings.
fn well_formed(schema: &serde_json::Value, depth: usize) -> bool {
    use serde_json::Value;
    let Some(object) = schema.as_object() else {
        return schema.is_boolean();
    };
    if object.len() > MAX_KEYWORDS || depth > 128 {
        return false;
    }
    object.iter().all(|(key, value)| match key.as_str() {
        "properties" | "$defs" => value
            .as_object()
            .is_some_and(|map| map.values().all(|v| well_formed(v, depth + 1))),
        "items" | "additionalProperties" | "not" => well_formed(value, depth + 1),
        "anyOf" | "oneOf" | "allOf" | "prefixItems" => value
            .as_array()
            .is_some_and(|list| list.iter().all(|v| well_formed(v, depth + 1))),
        "required" => value
            .as_array()
            .is_some_and(|list| list.iter().all(Value::is_string)),
        "enum" | "examples" => value.is_array(),
        "type" => {
            value.is_string()
                || value
                    .as_array()
                    .is_some_and(|list| list.iter().all(Value::is_string))
        }
        "description" | "format" | "pattern" | "$ref" | "title" => value.is_string(),
        _ => true,
    })
}

impl DialectError {
    /// The error for `rule` broken at `path` in `dialect` (for the run-time rewrite).
    pub(crate) fn new(dialect: Dialect, rule: Rule, path: String) -> DialectError {
        DialectError {
            dialect,
            rule,
            path,
        }
    }

    /// The dialect that cannot express the schema.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The rule the schema breaks.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The JSON path of the property the dialect cannot express (`cards[].meta`; in a recursive
    /// type's definition `$defs.Name..`), empty for the root.
    pub fn path(&self) -> &str {
        &self.path
    }
}

impl Problem {
    /// The path as text; a cut in the middle of a character is dropped.
    fn path_text(&self) -> &str {
        let (path, _) = self.path.split_at(self.path_len.min(PATH_BYTES));
        match std::str::from_utf8(path) {
            Ok(text) => text,
            Err(error) => {
                let (valid, _) = path.split_at(error.valid_up_to());
                std::str::from_utf8(valid).unwrap_or_default()
            }
        }
    }

    /// Whether the problem is in the property `name` of the root object (or inside it).
    pub const fn is_in(&self, name: &str) -> bool {
        let name = name.as_bytes();
        if self.path_len < name.len() {
            return false;
        }
        let mut i = 0;
        while i < name.len() {
            if self.path[i] != name[i] {
                return false;
            }
            i += 1;
        }
        self.path_len == name.len() || matches!(self.path[name.len()], b'.' | b'[')
    }
}

impl std::fmt::Display for DialectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (what, fix) = self.rule.words(self.dialect);
        let path = self.path();
        let provider = self.dialect.provider();
        if path.is_empty() {
            write!(f, "{provider} {what}; {fix}")
        } else {
            write!(f, "{provider} {what}, at `{path}`; {fix}")
        }
    }
}

impl std::error::Error for DialectError {}

/// Writes (or counts) the message a strict tool's build stops with.
const fn put_message(error: &Problem, out: &mut Out<'_>) {
    let (what, fix) = error.rule.words(error.dialect);
    out.put(match error.dialect {
        Dialect::Gemini => b"toolgen: `#[tool(gemini = \"parameters\")]`: ",
        _ => b"toolgen: `#[tool(strict)]`: ",
    });
    out.put(error.dialect.provider().as_bytes());
    out.put(b" ");
    out.put(what.as_bytes());
    if error.path_len > 0 {
        out.put(b", at `");
        let (path, _) = error.path.split_at(error.path_len);
        out.put(path);
        out.put(b"`");
    }
    out.put(b"; ");
    out.put(fix.as_bytes());
}

/// The length of the message for `converted`'s problem (0 for none).
#[doc(hidden)]
pub const fn message_len(converted: &Converted) -> usize {
    match &converted.error {
        Some(error) => {
            let mut out = Out {
                buf: &mut [],
                pos: 0,
                dry: true,
            };
            put_message(error, &mut out);
            out.pos
        }
        None => 0,
    }
}

/// The message for `converted`'s problem; `N` is [`message_len`].
#[doc(hidden)]
pub const fn message<const N: usize>(converted: &Converted) -> [u8; N] {
    let mut buf = [0u8; N];
    if let Some(error) = &converted.error {
        let mut out = Out {
            buf: &mut buf,
            pos: 0,
            dry: false,
        };
        put_message(error, &mut out);
    }
    buf
}

/// Stops the build if the strict dialect cannot express the tool's field `name` (its JSON name);
/// called with the field's span, so the error points at the field. The message is
/// [`message`]'s text.
#[doc(hidden)]
pub const fn strict_field(converted: &Converted, name: &str, message: &[u8]) {
    if let Some(error) = &converted.error
        && error.is_in(name)
    {
        fail(message);
    }
}

/// Stops the build if the strict dialect cannot express something no field of `names` claims
/// (a flattened field's property, a recursive type's definition).
#[doc(hidden)]
pub const fn strict_rest(converted: &Converted, names: &[&str], message: &[u8]) {
    if let Some(error) = &converted.error {
        let mut i = 0;
        while i < names.len() {
            if error.is_in(names[i]) {
                return;
            }
            i += 1;
        }
        fail(message);
    }
}

const fn fail(message: &[u8]) {
    match core::str::from_utf8(message) {
        Ok(text) => panic!("{}", text),
        Err(_) => panic!("toolgen: a strict dialect cannot express this tool's input"),
    }
}

/// The dialect's text's length, if it has no problem.
#[doc(hidden)]
pub const fn dialect_len(converted: &Converted) -> Option<usize> {
    match converted.error {
        Some(_) => None,
        None => Some(converted.len),
    }
}

/// The dialect's text as `&str`, if it has no problem.
#[doc(hidden)]
pub const fn dialect_text(converted: &Converted, bytes: &'static [u8]) -> Option<&'static str> {
    if converted.error.is_some() {
        return None;
    }
    match core::str::from_utf8(bytes) {
        Ok(text) => Some(text),
        Err(_) => panic!("toolgen: a dialect's text is not UTF-8"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(text: &str) -> String {
        dialect_schema(text, Dialect::OpenAiStrict).unwrap()
    }
    fn an(text: &str) -> String {
        dialect_schema(text, Dialect::AnthropicStrict).unwrap()
    }
    fn gm(text: &str) -> String {
        dialect_schema(text, Dialect::Gemini).unwrap()
    }

    #[test]
    fn openai_strict_requires_every_property_and_widens_optional_ones() {
        let standard = r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer","minimum":0,"default":5},"c":{"type":"object","properties":{"x":{"type":"boolean"}},"required":["x"]},"d":{"type":"string","enum":["p","q"]},"e":{"anyOf":[{"type":"string"},{"type":"null"}]},"f":{"type":["object","null"],"properties":{}}},"required":["a"]}"#;
        assert_eq!(
            os(standard),
            r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["integer","null"],"minimum":0,"description":"Default: 5."},"c":{"anyOf":[{"type":"object","properties":{"x":{"type":"boolean"}},"required":["x"],"additionalProperties":false},{"type":"null"}]},"d":{"anyOf":[{"type":"string","enum":["p","q"]},{"type":"null"}]},"e":{"anyOf":[{"type":"string"},{"type":"null"}]},"f":{"anyOf":[{"type":"object","properties":{},"required":[],"additionalProperties":false},{"type":"null"}]}},"required":["a","b","c","d","e","f"],"additionalProperties":false}"#
        );
    }

    #[test]
    fn words_for_what_a_dialect_leaves_out() {
        let standard = r#"{"type":"string","description":"A \"name\".","minLength":1,"maxLength":80,"format":"uri-reference","default":"x\\y"}"#;
        assert_eq!(
            os(standard),
            r#"{"type":"string","description":"A \"name\". At least 1 characters. At most 80 characters. Format: uri-reference. Default: \"x\\\\y\"."}"#
        );
        assert_eq!(
            an(standard),
            r#"{"type":"string","description":"A \"name\". At least 1 characters. At most 80 characters. Format: uri-reference.","default":"x\\y"}"#
        );
        assert_eq!(
            gm(standard),
            r#"{"type":"string","description":"A \"name\". Format: uri-reference.","minLength":1,"maxLength":80,"default":"x\\y"}"#
        );
        assert_eq!(
            an(
                r#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":255},"minItems":2,"uniqueItems":true}"#
            ),
            r#"{"type":"array","items":{"type":"integer","description":"At least 0. At most 255."},"description":"At least 2 items. Items must be unique."}"#
        );
    }

    #[test]
    fn gemini_uses_nullable_one_type_and_string_enums() {
        let standard = r#"{"type":"object","properties":{"a":{"anyOf":[{"type":"object","properties":{"k":{"const":"v","description":"K."}},"required":["k"],"description":"Inner."},{"type":"null"}],"description":"Outer."},"b":{"type":["integer","null"],"format":"int64"},"c":{"type":"string","format":"email"}},"required":[],"additionalProperties":false}"#;
        assert_eq!(
            gm(standard),
            r#"{"type":"object","properties":{"a":{"type":"object","properties":{"k":{"enum":["v"],"description":"K.","type":"string"}},"required":["k"],"description":"Outer.","nullable":true,"propertyOrdering":["k"]},"b":{"type":"integer","format":"int64","nullable":true},"c":{"type":"string","description":"Format: email."}},"required":[],"propertyOrdering":["a","b","c"]}"#
        );
    }

    #[test]
    fn what_a_dialect_cannot_express_is_an_error_with_a_path() {
        let map = r#"{"type":"object","properties":{"cards":{"type":"array","items":{"type":"object","properties":{"meta":{"type":"object","additionalProperties":{"type":"string"}}},"required":["meta"]}}},"required":["cards"]}"#;
        assert_eq!(
            gm(map),
            r#"{"type":"object","properties":{"cards":{"type":"array","items":{"type":"object","properties":{"meta":{"type":"object"}},"required":["meta"],"propertyOrdering":["meta"]}}},"required":["cards"],"propertyOrdering":["cards"]}"#
        );
        for dialect in [Dialect::OpenAiStrict, Dialect::AnthropicStrict] {
            let error = dialect_schema(map, dialect).unwrap_err();
            assert_eq!((error.rule(), error.path()), (Rule::Map, "cards[].meta"));
            let problem = convert(map, dialect, &mut vec![0; map.len()])
                .error
                .unwrap();
            assert!(problem.is_in("cards") && !problem.is_in("card"));
        }
        let any =
            r#"{"type":"object","properties":{"v":{"description":"Anything."}},"required":["v"]}"#;
        assert_eq!(
            dialect_schema(any, Dialect::OpenAiStrict)
                .unwrap_err()
                .to_string(),
            "OpenAI strict mode cannot take an arbitrary JSON value (`serde_json::Value`): every schema needs a type, at `v`; use a concrete type, or drop `strict`"
        );
        let recursive = r##"{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},"required":["n"],"$defs":{"N":{"type":"object","properties":{"c":{"type":"array","items":{"$ref":"#/$defs/N"}}},"required":["c"]}}}"##;
        assert!(dialect_schema(recursive, Dialect::OpenAiStrict).is_ok());
        assert_eq!(
            dialect_schema(recursive, Dialect::AnthropicStrict)
                .unwrap_err()
                .rule(),
            Rule::Recursive
        );
        let pattern = r#"{"type":"string","pattern":"^\\bword\\b$"}"#;
        assert_eq!(
            dialect_schema(pattern, Dialect::AnthropicStrict)
                .unwrap_err()
                .rule(),
            Rule::Pattern
        );
        assert!(
            dialect_schema(
                r#"{"type":"string","pattern":"^a\\\\b$"}"#,
                Dialect::AnthropicStrict
            )
            .is_ok()
        );
        assert!(
            dialect_schema(
                r#"{"type":"string","pattern":"(?=a)"}"#,
                Dialect::AnthropicStrict
            )
            .is_err()
        );
    }

    #[test]
    fn openai_limits() {
        let mut deep = String::from(r#"{"type":"string"}"#);
        for _ in 0..11 {
            deep = format!(r#"{{"type":"object","properties":{{"x":{deep}}},"required":["x"]}}"#);
        }
        let error = dialect_schema(&deep, Dialect::OpenAiStrict).unwrap_err();
        assert_eq!(error.rule(), Rule::TooDeep);
        let values: Vec<String> = (0..1001).map(|i| format!("\"v{i}\"")).collect();
        let many = format!(r#"{{"type":"string","enum":[{}]}}"#, values.join(","));
        assert_eq!(
            dialect_schema(&many, Dialect::OpenAiStrict)
                .unwrap_err()
                .rule(),
            Rule::TooManyEnumValues
        );
        assert!(dialect_schema(&many, Dialect::AnthropicStrict).is_ok());
    }

    #[test]
    fn text_that_is_not_a_schema_is_an_error_not_a_panic() {
        let many: Vec<String> = (0..50).map(|i| format!("\"k{i}\":1")).collect();
        let cases = [
            String::new(),
            "{".to_owned(),
            "[1,2]".to_owned(),
            r#"{"properties":5}"#.to_owned(),
            r#"{"type":"object","properties":{"a":7}}"#.to_owned(),
            r#"{"anyOf":{"type":"null"}}"#.to_owned(),
            r#"{"required":"a"}"#.to_owned(),
            r#"{"type":5}"#.to_owned(),
            format!("{{{}}}", many.join(",")),
            "[".repeat(10_000),
            format!("{}{}", r#"{"items":"#.repeat(200), "}".repeat(200)),
        ];
        for case in cases {
            for dialect in Dialect::ALL {
                if let Err(error) = dialect_schema(&case, dialect) {
                    assert_eq!(error.rule(), Rule::NotASchema, "{case}");
                }
            }
        }
        // White space is fine: the text is read as JSON first.
        assert_eq!(
            dialect_schema("{ \"type\" : [ \"string\" , \"null\" ] }", Dialect::Gemini).unwrap(),
            r#"{"type":"string","nullable":true}"#
        );
    }

    /// What const evaluation writes into a buffer of `bound`'s size never outgrows it, even for
    /// schemas made of the constructs each dialect adds the most to.
    #[test]
    fn every_dialect_fits_the_bound() {
        let tiny_objects: Vec<String> = (0..40)
            .map(|i| format!(r#""p{i}":{{"type":"object","properties":{{}}}}"#))
            .collect();
        let enums: Vec<String> = (0..40)
            .map(|i| format!(r#""e{i}":{{"enum":["a"]}}"#))
            .collect();
        let words: Vec<String> = (0..40)
            .map(|i| {
                format!(
                    r#""w{i}":{{"type":"string","default":"\"\"\"\"","minLength":1,"maxLength":2,"format":"x","examples":["\"\""]}}"#
                )
            })
            .collect();
        let nested = r#"{"type":["object","null"],"properties":{"a":{"anyOf":[{"type":"object","properties":{"b":{"const":"c"}}},{"type":"null"}]}}}"#;
        for properties in [tiny_objects, enums, words, vec![format!(r#""n":{nested}"#)]] {
            let schema = format!(
                r#"{{"type":"object","properties":{{{}}}}}"#,
                properties.join(",")
            );
            for dialect in Dialect::ALL {
                let done = convert(&schema, dialect, &mut vec![0; schema.len()]);
                assert!(
                    done.len <= bound(&schema),
                    "{dialect:?}: {} > {} for {schema}",
                    done.len,
                    bound(&schema)
                );
            }
        }
    }

    #[test]
    fn the_standard_dialect_is_the_text_itself() {
        let text = r#"{"type":"object","properties":{"a":{"type":"string"}}}"#;
        assert_eq!(dialect_schema(text, Dialect::Standard).unwrap(), text);
    }
}
