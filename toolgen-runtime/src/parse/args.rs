//! Parsing a model's tool arguments into the tool's type, with errors that name the JSON path.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::parse::sets::{Conflict, Conflicts, Segment};
use crate::parse::walk::strip_value_with;
use crate::schema::ToolSchema;
use crate::schema::facts::{EnumRepr, Facts, Parse};

/// Why a model's arguments did not parse into the tool's type.
///
/// It names where the problem is (a JSON path such as `flashcards[2].unit`) and what it is, in
/// words meant for the model to correct itself on its next turn. What the model sent is quoted
/// at most in part: a string, variant, field, key or tool name longer than 64 characters is cut
/// there, and the message says how long it was (`string "aaa…" (1048576 characters)`).
///
/// ```
/// use toolgen::Tool;
///
/// /// Reply to the user.
/// #[derive(Tool, serde::Deserialize, Debug)]
/// struct Reply { text: String, tags: Vec<String> }
///
/// let err = Reply::parse_args(r#"{"text": "hi", "tags": ["a", 7]}"#).unwrap_err();
/// assert_eq!(err.path(), "tags[1]");
/// assert_eq!(err.to_string(), "invalid arguments at `tags[1]`: invalid type: integer `7`, expected a string");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgsError {
    path: String,
    message: String,
    kind: ArgsErrorKind,
}

/// What kind of problem an [`ArgsError`] reports.
///
/// ```
/// use toolgen::{ArgsErrorKind, parse_args};
/// let err = parse_args::<Vec<u8>>("[1, 2").unwrap_err();
/// assert_eq!(err.kind(), ArgsErrorKind::Syntax);
/// let err = parse_args::<Vec<u8>>("[1, 300]").unwrap_err();
/// assert_eq!((err.kind(), err.path()), (ArgsErrorKind::Data, "[1]"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ArgsErrorKind {
    /// The text is not JSON (or ends too early).
    Syntax,
    /// The JSON does not have the shape the tool's schema describes, or a number does not fit
    /// its field's type (`300` for a `u8`, `1e39` for an `f32`, `1e400` for anything).
    Data,
    /// The call names a tool that is not in the set.
    UnknownTool,
    /// The value parsed, but breaks a constraint the schema states (`range`, `length`, `pattern`,
    /// `format`).
    Constraint,
}

impl ArgsError {
    /// The JSON path of the problem (`flashcards[2].unit`); empty for the whole value.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong, without the path.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether the text was not JSON or the JSON had the wrong shape.
    pub fn kind(&self) -> ArgsErrorKind {
        self.kind
    }

    /// An error at `path`; what `message` quotes of the model's text is cut
    /// ([`shorten_quotes`]), as every argument error's is.
    pub(crate) fn new(path: String, message: String, kind: ArgsErrorKind) -> Self {
        ArgsError {
            path,
            message: shorten_quotes(message),
            kind,
        }
    }

    /// A call to a tool the set does not have; the message lists the ones it has.
    ///
    /// The name comes from the model and may be of any length: the message quotes it as every
    /// argument error quotes the model's text, at most [`MAX_QUOTED`] characters and its length
    /// (`` unknown tool `abc…` (5000 characters) ``), so that it stays short enough to send back.
    #[doc(hidden)]
    pub fn unknown_tool(name: &str, known: &[&str]) -> Self {
        let known: Vec<String> = known.iter().map(|n| format!("`{n}`")).collect();
        // (Cut here, not by `shorten_quotes`: a name may hold a backtick.)
        let shown = match name.char_indices().nth(MAX_QUOTED) {
            Some((end, _)) => format!(
                "`{}…` ({} characters)",
                name.get(..end).unwrap_or_default(),
                name.chars().count()
            ),
            None => format!("`{name}`"),
        };
        let message = match known.as_slice() {
            [] => format!("unknown tool {shown}; there are no tools"),
            known => format!("unknown tool {shown}; the tools are {}", known.join(", ")),
        };
        ArgsError {
            path: String::new(),
            message,
            kind: ArgsErrorKind::UnknownTool,
        }
    }

    pub(crate) fn from_json(error: &serde_json::Error, path: String) -> Self {
        let mut message = error.to_string();
        let kind = match error.classify() {
            serde_json::error::Category::Data => ArgsErrorKind::Data,
            // A number beyond what the field's type holds (beyond `f64`, or an `f32`'s range) is
            // valid JSON (RFC 8259 sets no limit) of the wrong value: a data error at the field,
            // as `256` for a `u8` is, though serde_json files it with syntax errors.
            serde_json::error::Category::Syntax if is_out_of_range(&message) => ArgsErrorKind::Data,
            _ => ArgsErrorKind::Syntax,
        };
        // serde_json appends the position; the path says more, and the model sent one line anyway.
        if kind == ArgsErrorKind::Data
            && let Some(at) = message.rfind(" at line ")
        {
            message.truncate(at);
        }
        ArgsError {
            path,
            message: shorten_quotes(message),
            kind,
        }
    }
}

impl std::fmt::Display for ArgsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "invalid arguments: {}", self.message)
        } else {
            write!(f, "invalid arguments at `{}`: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ArgsError {}

/// Parses `args` (the JSON text a model sent) into `T`.
///
/// The fast path is plain `serde_json`; only when it fails is the text parsed again with
/// `serde_path_to_error` to find the JSON path of the failure, so valid arguments pay nothing for
/// paths. [`Tool::parse_args`](crate::Tool::parse_args) calls this.
///
/// ```
/// use std::collections::HashMap;
/// let err = toolgen::parse_args::<HashMap<String, Vec<bool>>>(r#"{"a": [true, "no"]}"#).unwrap_err();
/// assert_eq!(err.to_string(), "invalid arguments at `a[1]`: invalid type: string \"no\", expected a boolean");
/// ```
pub fn parse_args<T: DeserializeOwned>(args: &str) -> Result<T, ArgsError> {
    match serde_json::from_str(args) {
        Ok(value) => Ok(value),
        Err(first) => Err(locate::<T>(args, &first)),
    }
}

/// How many characters of a string the model sent an error message quotes (serde quotes a
/// string of the wrong type, an unknown variant or field, a repeated key, in full; an unknown
/// tool's name), and how many of a key a path shows.
const MAX_QUOTED: usize = 64;

/// serde_json's message for a number beyond `f64`, or beyond an `f32` read from text.
const OUT_OF_RANGE: &str = "number out of range";

fn is_out_of_range(message: &str) -> bool {
    message.starts_with(OUT_OF_RANGE)
}

/// `message` with each string from the model that it quotes cut to its first [`MAX_QUOTED`]
/// characters and its length: `string "abc…" (5000 characters)`, `` unknown variant `abc…`
/// (5000 characters) ``. serde quotes strings in full, so a 1 MB string of the wrong type would
/// otherwise give a 1 MB message, which goes back to the model.
pub(crate) fn shorten_quotes(message: String) -> String {
    // Nothing quoted can be long in a short message.
    if message.len() <= MAX_QUOTED {
        return message;
    }
    let mut out = String::new();
    let mut rest = message.as_str();
    while let Some((start, close)) = next_quote(rest) {
        let Some(body) = rest.get(start..) else {
            break;
        };
        let Some((quoted, end)) = quoted_span(body, close) else {
            break;
        };
        let count = quoted_chars(quoted, close);
        if count > MAX_QUOTED {
            let cut = cut_quoted(quoted, close, MAX_QUOTED);
            out.push_str(rest.get(..start).unwrap_or_default());
            out.push_str(cut);
            out.push('…');
            out.push(close);
            out.push_str(&format!(" ({count} characters)"));
        } else {
            out.push_str(
                rest.get(..start + end + close.len_utf8())
                    .unwrap_or_default(),
            );
        }
        rest = body.get(end + close.len_utf8()..).unwrap_or_default();
    }
    if out.is_empty() {
        return message;
    }
    out.push_str(rest);
    out
}

/// The next quote of the model's text in `message`: where its text starts, and the quote that
/// closes it. serde writes a string value in Rust's `{:?}` form after `string `,
/// and a variant, field or key name between backticks, as it is.
fn next_quote(message: &str) -> Option<(usize, char)> {
    const OPENERS: [(&str, char); 4] = [
        ("string \"", '"'),
        ("unknown variant `", '`'),
        ("unknown field `", '`'),
        ("duplicate field `", '`'),
    ];
    OPENERS
        .iter()
        .filter_map(|&(opener, close)| message.find(opener).map(|at| (at + opener.len(), close)))
        .min_by_key(|&(at, _)| at)
}

/// The quoted text at the start of `body` and where its closing quote is. A `"` closes a
/// `{:?}` string unless escaped; a backtick closes a name where a `, ` or the end follows it (a
/// name with such a backtick in it is cut there, which only shortens what is shown).
fn quoted_span(body: &str, close: char) -> Option<(&str, usize)> {
    let end = if close == '"' {
        let mut escaped = false;
        body.char_indices().find_map(|(at, c)| {
            let end = !escaped && c == '"';
            escaped = !escaped && c == '\\';
            end.then_some(at)
        })?
    } else {
        body.match_indices('`')
            .map(|(at, _)| at)
            .find(|&at| {
                let after = body.get(at + 1..).unwrap_or_default();
                after.is_empty() || after.starts_with(", ") || after.starts_with(' ')
            })
            .or_else(|| body.rfind('`'))?
    };
    Some((body.get(..end)?, end))
}

/// How many characters the quoted text stands for: an escape in a `{:?}` string (`\n`,
/// `\u{1f600}`) is one.
fn quoted_chars(quoted: &str, close: char) -> usize {
    if close != '"' {
        return quoted.chars().count();
    }
    let mut count = 0;
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.next() == Some('u') {
            for c in chars.by_ref() {
                if c == '}' {
                    break;
                }
            }
        }
        count += 1;
    }
    count
}

/// The start of the quoted text that stands for its first `keep` characters, not cutting an
/// escape.
fn cut_quoted(quoted: &str, close: char, keep: usize) -> &str {
    let mut count = 0;
    let mut chars = quoted.char_indices();
    while let Some((at, c)) = chars.next() {
        if count == keep {
            return quoted.get(..at).unwrap_or(quoted);
        }
        if close == '"' && c == '\\' && chars.next().is_some_and(|(_, c)| c == 'u') {
            for (_, c) in chars.by_ref() {
                if c == '}' {
                    break;
                }
            }
        }
        count += 1;
    }
    quoted
}

/// How many integral floats (`5.0` sent for an integer) one parse will mend before giving up.
const MAX_FLOAT_FIXES: usize = 64;

/// Parses a tool's arguments, the way [`Tool::parse_args`](crate::Tool::parse_args) documents.
///
/// Where `T` has fields with defaults, the `null`s sent for them (OpenAI strict mode makes every
/// field required) are dropped, so that the defaults apply: on the fast path as serde reads the
/// text ([`crate::parse::fast::from_str`]). Should that fail (the arguments are wrong, or are
/// among the rare ones it leaves to the other way: a key written with escapes, a `null` that an
/// untagged enum's variants disagree about), they are read through a `serde_json::Value`, which
/// is stripped and filled as the plan says, and whose errors have the same paths.
pub(crate) fn parse_tool_args<T: ToolSchema + DeserializeOwned>(
    args: &str,
) -> Result<T, ArgsError> {
    // Nothing to drop, fill in, compare or check anywhere in `T` (most tools): serde_json
    // alone. The test is a const, so rustc does not even build the paths below for such a `T`.
    if const { !(T::FACTS.strips() || T::FACTS.fills() || T::FACTS.checks() || T::FACTS.constrains()) }
    {
        return parse_text(args, false);
    }
    // Text without a `null` has nothing to drop: serde_json alone reads it faster, unless
    // `#[tool(default = ..)]` values are to be written in (as it reads, unless some are below an
    // untagged enum; the `Value` path fills the others), or sets or keywords are to be checked
    // (as it reads them).
    // Keywords below an untagged enum are checked once serde has read the value (which
    // alternative's apply is known only then): on the `Value` path.
    let (stream, strip) = if const { T::FACTS.fills() } {
        (
            const { T::FACTS.fills_as_read() && T::FACTS.constrains_as_read() },
            false,
        )
    } else if const { T::FACTS.checks() || T::FACTS.constrains() } {
        // Where that fails, the `Value` path strips the `null`s itself.
        (
            const { !T::FACTS.fills_anywhere() && T::FACTS.constrains_as_read() },
            false,
        )
    } else {
        let strip = const { T::FACTS.strips() } && args.contains("null");
        // The stripping parse fills all it meets, and nothing is filled in below an untagged
        // enum: a type with values there takes the `Value` path.
        let unfilled = const { T::FACTS.fills_anywhere() };
        (strip && !unfilled, strip)
    };
    if stream
        && let Ok(parsed) = crate::parse::fast::from_str::<T>(args, crate::parse::plan::plan::<T>())
    {
        distinct_keys::<T>(args)?;
        return Ok(parsed);
    }
    parse_text(args, strip)
}

/// [`parse_tool_args`] where the fast path did not read the arguments (or was not for them).
///
/// Valid arguments take the fast path: `serde_json` straight from the text into `T`.
/// Everything else (a failed parse, a type with `#[tool(default)]` values to fill in, sets or
/// keywords to check, or, `strip`, `null`s to drop) goes through a `serde_json::Value`, where the
/// tolerances apply.
fn parse_text<T: ToolSchema + DeserializeOwned>(args: &str, strip: bool) -> Result<T, ArgsError> {
    let text_error =
        if const { T::FACTS.fills() || T::FACTS.checks() || T::FACTS.constrains() } || strip {
            None
        } else {
            match serde_json::from_str::<T>(args) {
                Ok(parsed) => {
                    distinct_keys::<T>(args)?;
                    return Ok(parsed);
                }
                Err(error) => {
                    // Most failures are what they seem: find the path on the text and stop, unless
                    // a tolerance could apply (blank text, a JSON string holding the object, a
                    // float where an integer belongs). That keeps a failed parse to two passes.
                    let (located, path) = locate_with_path::<T>(args, &error);
                    let trimmed = args.trim_start();
                    if !trimmed.is_empty()
                        && !trimmed.starts_with('"')
                        && !located.message.starts_with("invalid type: floating point")
                    {
                        return Err(inside_tagged_text::<T>(args, path.as_ref(), located));
                    }
                    Some(error)
                }
            }
        };
    let (value, tolerated) = read_arguments(args)?;
    match (parse_value_tolerant::<T, true>(value), text_error) {
        // The text failed, and the value only parsed because reading it as a `Value` lost what
        // was wrong (a duplicate key keeps its last value there): the text's error stands.
        (Ok((_, false)), Some(error)) if !tolerated => {
            let (located, path) = locate_with_path::<T>(args, &error);
            Err(inside_tagged_text::<T>(args, path.as_ref(), located))
        }
        (Ok((parsed, _)), _) => Ok(parsed),
        (Err(error), _) => Err(error),
    }
}

/// After `T` parsed from `args` on a text path: where `T` holds a map or an arbitrary JSON value,
/// whose keys serde reads last-wins from text, a repeated key in any object of `args` is the
/// error, as it is for serde's derived structs and on the `Value` path. One more pass over the
/// text ([`DistinctKeys`], which keeps nothing), only for such types.
fn distinct_keys<T: ToolSchema>(args: &str) -> Result<(), ArgsError> {
    use crate::schema::facts::{ANY, MAP};
    if const { T::FACTS.all & (MAP | ANY) == 0 } {
        return Ok(());
    }
    check_distinct_keys(args)
}

/// [`distinct_keys`]' pass, the same for every `T`: built once, in this crate.
fn check_distinct_keys(args: &str) -> Result<(), ArgsError> {
    match serde_json::from_str::<DistinctKeys>(args) {
        Ok(DistinctKeys) => Ok(()),
        Err(error) => Err(locate::<DistinctKeys>(args, &error)),
    }
}

/// Any JSON value, read to check that no object in it repeats a key; nothing is kept.
struct DistinctKeys;

/// A JSON value read without losing duplicate keys silently: a repeated key is an error, as it
/// is for serde's derived structs (a `serde_json::Value` would keep the last one).
pub(crate) struct UniqueKeys(pub(crate) Value);

/// The one reader of a JSON value that refuses an object repeating a key ("duplicate field
/// `k`", serde's words for a derived struct's), at the repeated key: what it keeps of the value
/// is `K`'s, nothing ([`DistinctKeys`], a check of the text) or the value ([`UniqueKeys`]).
struct KeysOnce<K>(std::marker::PhantomData<K>);

/// What [`KeysOnce`] keeps of a value, as it reads it.
trait Kept<'de>: serde::Deserialize<'de> {
    /// An object being read, with the keys read so far.
    type Object: Default;
    /// A key as it is read.
    type Key: serde::Deserialize<'de> + std::fmt::Display;
    /// An array being read.
    type Array: Default;
    /// Whether `object` has `key` already.
    fn repeats(object: &Self::Object, key: &Self::Key) -> bool;
    /// `key` and its value added to `object`.
    fn value(object: &mut Self::Object, key: Self::Key, value: Self);
    fn object(object: Self::Object) -> Self;
    fn item(array: &mut Self::Array, item: Self);
    fn array(array: Self::Array) -> Self;
    /// A scalar, which `make` writes as a value (called only by those that keep it).
    fn scalar(make: impl FnOnce() -> Value) -> Self;
}

impl<'de, K: Kept<'de>> serde::de::Visitor<'de> for KeysOnce<K> {
    type Value = K;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<K, A::Error> {
        let mut object = K::Object::default();
        while let Some(key) = map.next_key::<K::Key>()? {
            if K::repeats(&object, &key) {
                return Err(serde::de::Error::custom(format_args!(
                    "duplicate field `{key}`"
                )));
            }
            let value = map.next_value::<K>()?;
            K::value(&mut object, key, value);
        }
        Ok(K::object(object))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<K, A::Error> {
        let mut array = K::Array::default();
        while let Some(item) = seq.next_element::<K>()? {
            K::item(&mut array, item);
        }
        Ok(K::array(array))
    }

    fn visit_bool<E>(self, v: bool) -> Result<K, E> {
        Ok(K::scalar(|| Value::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<K, E> {
        Ok(K::scalar(|| Value::from(v)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<K, E> {
        Ok(K::scalar(|| Value::from(v)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<K, E> {
        Ok(K::scalar(|| Value::from(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<K, E> {
        Ok(K::scalar(|| Value::String(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<K, E> {
        Ok(K::scalar(|| Value::String(v)))
    }
    fn visit_unit<E>(self) -> Result<K, E> {
        Ok(K::scalar(|| Value::Null))
    }
    fn visit_none<E>(self) -> Result<K, E> {
        Ok(K::scalar(|| Value::Null))
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<K, D::Error> {
        K::deserialize(d)
    }
}

impl<'de> serde::Deserialize<'de> for DistinctKeys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(KeysOnce(std::marker::PhantomData))
    }
}

impl<'de> serde::Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(KeysOnce(std::marker::PhantomData))
    }
}

/// How many keys of an object are compared one by one before they go into a hash set.
const FEW_KEYS: usize = 16;

/// An object's keys as [`DistinctKeys`] reads them: compared one by one while they are few.
#[derive(Default)]
struct KeySet<'de> {
    few: Vec<Key<'de>>,
    many: std::collections::HashSet<Key<'de>>,
}

impl<'de> Kept<'de> for DistinctKeys {
    type Object = KeySet<'de>;
    type Key = Key<'de>;
    type Array = ();

    fn repeats(keys: &KeySet<'de>, key: &Key<'de>) -> bool {
        keys.few.contains(key) || (!keys.many.is_empty() && keys.many.contains(key))
    }
    fn value(keys: &mut KeySet<'de>, key: Key<'de>, _: DistinctKeys) {
        if keys.many.is_empty() && keys.few.len() < FEW_KEYS {
            keys.few.push(key);
        } else {
            keys.many.extend(keys.few.drain(..));
            keys.many.insert(key);
        }
    }
    fn object(_: KeySet<'de>) -> DistinctKeys {
        DistinctKeys
    }
    fn item(_: &mut (), _: DistinctKeys) {}
    fn array(_: ()) -> DistinctKeys {
        DistinctKeys
    }
    fn scalar(_: impl FnOnce() -> Value) -> DistinctKeys {
        DistinctKeys
    }
}

impl<'de> Kept<'de> for UniqueKeys {
    type Object = serde_json::Map<String, Value>;
    type Key = String;
    type Array = Vec<Value>;

    fn repeats(object: &Self::Object, key: &String) -> bool {
        object.contains_key(key)
    }
    fn value(object: &mut Self::Object, key: String, UniqueKeys(value): UniqueKeys) {
        object.insert(key, value);
    }
    fn object(object: Self::Object) -> UniqueKeys {
        UniqueKeys(Value::Object(object))
    }
    fn item(array: &mut Vec<Value>, UniqueKeys(item): UniqueKeys) {
        array.push(item);
    }
    fn array(array: Vec<Value>) -> UniqueKeys {
        UniqueKeys(Value::Array(array))
    }
    fn scalar(make: impl FnOnce() -> Value) -> UniqueKeys {
        UniqueKeys(make())
    }
}

/// An object's key, borrowed from the text unless it has escapes.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key<'de>(std::borrow::Cow<'de, str>);

impl std::fmt::Display for Key<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> serde::de::Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a key")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(std::borrow::Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
        Ok(Key(std::borrow::Cow::Owned(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
        Ok(Key(std::borrow::Cow::Owned(v)))
    }
}

/// The arguments' text `args` as a value, the way through a `serde_json::Value` of derived and
/// [`DynamicTool`](crate::DynamicTool)s alike: blank text is `{}` (a tolerance, then `true`:
/// models send it for tools without parameters), a repeated key in any object an error at its
/// path, text that is not JSON an error where it stops being JSON.
pub(crate) fn read_arguments(args: &str) -> Result<(Value, bool), ArgsError> {
    if args.trim().is_empty() {
        return Ok((Value::Object(serde_json::Map::new()), true));
    }
    read_unique(args).map(|value| (value, false))
}

/// `args` read as a [`UniqueKeys`] value: the same for every `T` (so built once, in this crate,
/// not in each crate with a tool).
fn read_unique(args: &str) -> Result<Value, ArgsError> {
    match serde_json::from_str::<UniqueKeys>(args) {
        Ok(UniqueKeys(value)) => Ok(value),
        Err(_) => Err(locate::<UniqueKeys>(args, &syntax_error(args))),
    }
}

/// The error `serde_json` gives for `args` as plain JSON (for the position of a syntax error).
#[cold]
fn syntax_error(args: &str) -> serde_json::Error {
    match serde_json::from_str::<UniqueKeys>(args) {
        Err(error) => error,
        // Unreachable in practice: the caller saw this parse fail.
        Ok(_) => serde::de::Error::custom("the arguments could not be read"),
    }
}

/// Parses a tool's arguments given as a JSON value; see [`parse_tool_args`].
pub(crate) fn parse_tool_value<T: ToolSchema + DeserializeOwned>(
    value: Value,
) -> Result<T, ArgsError> {
    parse_value_tolerant::<T, false>(value).map(|(parsed, _)| parsed)
}

/// [`parse_tool_value`], and whether a tolerance was needed.
///
/// `TEXT`: the value came from text (the way the text parse falls back on, for its tolerances),
/// and `T` is read from the value written back as text, with the text's deserializer, which the
/// text parse has built already: serde's code for `T` and each type in it is then built once for
/// serde_json's text deserializer and once for `serde_path_to_error` over it, not also twice more
/// for `&Value`, in every crate that parses a tool's arguments (issue 33: two thirds of what a
/// crate of two small tools cost). The value's own way (`Tool::parse_value`) reads the value.
fn parse_value_tolerant<T: ToolSchema + DeserializeOwned, const TEXT: bool>(
    mut value: Value,
) -> Result<(T, bool), ArgsError> {
    let tolerated = decode_twice_encoded(&mut value)?;
    if const { T::FACTS.strips() } {
        let mut conflicts = Conflicts::default();
        strip_value_with(&mut value, crate::parse::plan::plan::<T>(), &mut conflicts);
        if conflicts.met {
            return settle_conflicts::<T, TEXT>(value, tolerated);
        }
    }
    read_value::<T, TEXT>(value, tolerated)
}

/// Tolerance: arguments encoded twice, a JSON string holding the object, replaced by the object
/// (then `true`). A tool's input is always an object, so a string at the top is never valid as it
/// is. The same for every `T`, and for a [`DynamicTool`](crate::DynamicTool): built once, in
/// this crate.
pub(crate) fn decode_twice_encoded(value: &mut Value) -> Result<bool, ArgsError> {
    if let Value::String(text) = &*value {
        match serde_json::from_str::<UniqueKeys>(text) {
            Ok(UniqueKeys(inner @ Value::Object(_))) => {
                *value = inner;
                return Ok(true);
            }
            // An object inside with a repeated key: that is the error, as it is unencoded (a
            // `Value` would keep the last one silently). Only `UniqueKeys` raises data errors.
            Err(error) if error.classify() == serde_json::error::Category::Data => {
                return Err(locate::<UniqueKeys>(text, &error));
            }
            _ => {}
        }
    }
    Ok(false)
}

/// How many times one parse tries again, with the `null`s an untagged enum's variants disagree
/// about in one more object the other way ([`settle_conflicts`]).
const MAX_CONFLICT_ATTEMPTS: usize = 256;

/// [`read_value`] of `value`, whose `null`s that an untagged enum's variants disagree about are
/// still in it (one variant defaults the key, another reads the `null` as a value): serde takes
/// the first variant that reads the object, so each such `null` is first kept or dropped as that
/// variant would have it. Where the value then fails to read, the `null`s in the object that
/// failed (serde stops at the first) are tried the other way, and so on, object by object; where
/// both ways fail, the first way's error stands.
#[cold]
fn settle_conflicts<T: ToolSchema + DeserializeOwned, const TEXT: bool>(
    mut value: Value,
    tolerated: bool,
) -> Result<(T, bool), ArgsError> {
    let mut conflicts = Conflicts {
        met: false,
        found: Some(Vec::new()),
    };
    strip_value_with(&mut value, crate::parse::plan::plan::<T>(), &mut conflicts);
    let found = conflicts.found.unwrap_or_default();
    // Each `null`'s choice: dropped or kept, and whether the other way was tried.
    let mut choices: Vec<(&Conflict, String, bool, bool)> = found
        .iter()
        .map(|conflict| {
            let mut path = String::new();
            for segment in &conflict.path {
                match segment {
                    Segment::Key(key) => push_key(&mut path, key),
                    Segment::Index(index) => push_index(&mut path, *index),
                }
            }
            (conflict, path, conflict.default_first, false)
        })
        .collect();
    // The error where choices were last turned, as it was before.
    let mut before: Option<ArgsError> = None;
    for _ in 0..MAX_CONFLICT_ATTEMPTS {
        let mut candidate = value.clone();
        for (conflict, _, drop, _) in &choices {
            if *drop {
                drop_member(&mut candidate, conflict);
            }
        }
        let error = match read_value::<T, TEXT>(candidate, tolerated) {
            Ok(parsed) => return Ok(parsed),
            Err(error) => error,
        };
        if let Some(earlier) = before.take()
            && within(&error.path, &earlier.path)
        {
            return Err(earlier);
        }
        let mut turned = false;
        for (_, path, drop, tried) in &mut choices {
            if !*tried && within(path, &error.path) {
                *tried = true;
                *drop = !*drop;
                turned = true;
            }
        }
        if !turned {
            return Err(error);
        }
        before = Some(error);
    }
    Err(before.unwrap_or_else(|| {
        ArgsError::new(
            String::new(),
            "the arguments could not be read".to_owned(),
            ArgsErrorKind::Data,
        )
    }))
}

/// Whether `path` (an error's or an object's, as [`path_text`] writes them) is `prefix` or
/// inside it.
fn within(path: &str, prefix: &str) -> bool {
    prefix.is_empty()
        || path
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}

/// Removes the member of `conflict` from its object in `value`.
fn drop_member(value: &mut Value, conflict: &Conflict) {
    let mut at = value;
    for segment in &conflict.path {
        let next = match (segment, at) {
            (Segment::Key(key), Value::Object(map)) => map.get_mut(key),
            (Segment::Index(index), Value::Array(items)) => items.get_mut(*index),
            _ => None,
        };
        match next {
            Some(next) => at = next,
            None => return,
        }
    }
    if let Value::Object(map) = at {
        // `retain` keeps the order of the others, with `preserve_order`.
        map.retain(|key, _| *key != conflict.key);
    }
}

/// The rest of [`parse_value_tolerant`], once `null`s are stripped: defaults filled in, `T`
/// read (from the value, or with `TEXT` from its text), integral floats mended.
fn read_value<T: ToolSchema + DeserializeOwned, const TEXT: bool>(
    mut value: Value,
    tolerated: bool,
) -> Result<(T, bool), ArgsError> {
    if const { T::FACTS.fills() } {
        crate::parse::walk::fill_value(&mut value, crate::parse::plan::plan::<T>());
    }
    let mut fixes = 0;
    loop {
        // `TEXT` is a const: rustc builds only the way taken.
        let read = if TEXT {
            read_as_text::<T>(&value)
        } else {
            T::deserialize(&value).map_err(|_| locate_in_value::<T>(&value))
        };
        match read {
            Ok(parsed) => {
                if const { T::FACTS.checks() || T::FACTS.constrains() } {
                    crate::parse::walk::check_value(&value, crate::parse::plan::plan::<T>())?;
                }
                // From text, a number beyond `f32` is already an error (`float_roundtrip`).
                if !TEXT && has_f32_overflow(&value) {
                    out_of_f32_range::<T>(&value)?;
                }
                return Ok((parsed, tolerated || fixes > 0));
            }
            Err((error, path)) => {
                // Tolerance: `5.0` where serde wants an integer, only when it is exactly whole.
                if fixes < MAX_FLOAT_FIXES
                    && error.message.starts_with("invalid type: floating point")
                    && let Some(path) = &path
                    && mend_integral_float(&mut value, path, quoted_number(&error.message))
                {
                    fixes += 1;
                    continue;
                }
                return Err(inside_tagged::<T>(&value, path.as_ref(), error));
            }
        }
    }
}

/// `T` read from `value` written as text, as the text parse reads it; on failure, the error and
/// its path, as [`locate_in_value`] gives them. A number beyond `f32`'s range where `T` has an
/// `f32` is an error here as on the text path (where from the value it is infinity, which
/// [`out_of_f32_range`] then reports).
fn read_as_text<T: DeserializeOwned>(
    value: &Value,
) -> Result<T, (ArgsError, Option<serde_path_to_error::Path>)> {
    let Some(text) = value_text(value) else {
        let error = ArgsError::new(
            String::new(),
            "the arguments could not be read".to_owned(),
            ArgsErrorKind::Data,
        );
        return Err((error, None));
    };
    serde_json::from_str::<T>(&text).map_err(|error| locate_with_path::<T>(&text, &error))
}

/// Whether `value` has a number beyond `f32`'s range, which serde makes infinity when it reads
/// it as an `f32` from a `serde_json::Value` (it converts the `f64` with `as`). Rare: only then
/// does [`out_of_f32_range`] look further.
pub(crate) fn has_f32_overflow(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Number(number)
                if number.is_f64()
                    && number
                        .as_f64()
                        .is_some_and(|f| f.abs() > f64::from(f32::MAX)) =>
            {
                return true;
            }
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    false
}

/// The error for a number beyond an `f32`'s range in `value`, if `T` reads one as an `f32`:
/// found as serde_json finds it in text (with its `float_roundtrip` feature, which this crate
/// turns on, it refuses such a number for an `f32`), with its path.
#[cold]
fn out_of_f32_range<T: DeserializeOwned>(value: &Value) -> Result<(), ArgsError> {
    let Some(text) = value_text(value) else {
        return Ok(());
    };
    match serde_json::from_str::<T>(&text) {
        Err(error) if is_out_of_range(&error.to_string()) => Err(locate::<T>(&text, &error)),
        _ => Ok(()),
    }
}

/// `value` as JSON text; the same for every `T`, so built once, in this crate.
fn value_text(value: &Value) -> Option<String> {
    serde_json::to_string(value).ok()
}

/// Parses arguments given as bytes: they must be UTF-8 JSON.
pub(crate) fn parse_tool_bytes<T: ToolSchema + DeserializeOwned>(
    bytes: &[u8],
) -> Result<T, ArgsError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_tool_args(text),
        Err(error) => Err(ArgsError::new(
            String::new(),
            format!(
                "the arguments are not valid UTF-8 (at byte {})",
                error.valid_up_to()
            ),
            ArgsErrorKind::Syntax,
        )),
    }
}

/// The number serde quoted in "invalid type: floating point `5.0`, expected ..".
fn quoted_number(message: &str) -> Option<f64> {
    let (_, rest) = message.split_once('`')?;
    let (number, _) = rest.split_once('`')?;
    number.parse().ok()
}

/// Replaces the float at `path` by the integer it equals, if it is a whole number in range.
///
/// Inside an internally tagged enum serde's path stops at the variant's object; there the float
/// is the direct child holding the number serde quoted.
fn mend_integral_float(
    value: &mut Value,
    path: &serde_path_to_error::Path,
    quoted: Option<f64>,
) -> bool {
    use serde_path_to_error::Segment;
    let mut target = value;
    for segment in path.iter() {
        let next = match (segment, target) {
            (Segment::Seq { index }, Value::Array(items)) => items.get_mut(*index),
            (Segment::Map { key }, Value::Object(map)) => map.get_mut(key),
            (Segment::Enum { variant }, Value::Object(map)) => map.get_mut(variant),
            _ => None,
        };
        match next {
            Some(next) => target = next,
            None => return false,
        }
    }
    if !target.is_number()
        && let Some(quoted) = quoted
    {
        let children: Vec<&mut Value> = match target {
            Value::Object(map) => map.values_mut().collect(),
            Value::Array(items) => items.iter_mut().collect(),
            _ => Vec::new(),
        };
        match children
            .into_iter()
            .find(|child| child.is_f64() && child.as_f64() == Some(quoted))
        {
            Some(child) => target = child,
            None => return false,
        }
    }
    let Some(float) = target.as_f64().filter(|_| target.is_f64()) else {
        return false;
    };
    if float.fract() != 0.0 {
        return false;
    }
    // i64 and u64 hold every whole f64 in their ranges exactly (9007199254740991.0, JavaScript's
    // `Number.MAX_SAFE_INTEGER`, is a bound published schemas use).
    const TWO_TO_63: f64 = 9_223_372_036_854_775_808.0;
    let whole = if (-TWO_TO_63..TWO_TO_63).contains(&float) {
        Value::from(float as i64)
    } else if (TWO_TO_63..2.0 * TWO_TO_63).contains(&float) {
        Value::from(float as u64)
    } else {
        return false;
    };
    *target = whole;
    true
}

/// The path as text, empty for the whole value. serde_path_to_error writes the root as `.`, and
/// `?` where the input ended before it could tell which key came next.
///
/// A key longer than [`MAX_QUOTED`] characters (a map's key comes from the model) is cut there,
/// with `…`.
fn path_text(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut text = String::new();
    for segment in path.iter() {
        let key = match segment {
            Segment::Seq { index } => {
                push_index(&mut text, *index);
                continue;
            }
            Segment::Map { key } => key.as_str(),
            Segment::Enum { variant } => variant.as_str(),
            Segment::Unknown => "?",
        };
        push_key(&mut text, key);
    }
    match text.as_str() {
        "." | "?" => String::new(),
        _ => text,
    }
}

/// Appends `[index]` to the path `text`.
pub(crate) fn push_index(text: &mut String, index: usize) {
    text.push_str(&format!("[{index}]"));
}

/// Appends `key` to the path `text`, cut at [`MAX_QUOTED`] characters (a model may send any
/// key).
pub(crate) fn push_key(text: &mut String, key: &str) {
    if !text.is_empty() {
        text.push('.');
    }
    match key.char_indices().nth(MAX_QUOTED) {
        Some((end, _)) => {
            text.push_str(key.get(..end).unwrap_or_default());
            text.push('…');
        }
        None => text.push_str(key),
    }
}

/// The slow path for a value: where does it fail to parse as `T`, and the path itself.
#[cold]
fn locate_in_value<T: DeserializeOwned>(
    value: &Value,
) -> (ArgsError, Option<serde_path_to_error::Path>) {
    match serde_path_to_error::deserialize::<_, T>(value) {
        Err(error) => {
            let path = path_text(error.path());
            (
                ArgsError::from_json(error.inner(), path),
                Some(error.path().clone()),
            )
        }
        Ok(_) => (
            ArgsError::new(
                String::new(),
                "the arguments parsed on a second attempt but not the first".to_owned(),
                ArgsErrorKind::Data,
            ),
            None,
        ),
    }
}

/// The message for a value of the wrong type that serde_json files as a syntax error though the
/// text is JSON: an enum given what is neither a string nor an object (`"units": null`,
/// "expected value at line 1 column 25"), or an `i128`/`u128` given what is not a number
/// ("invalid number"). What the value at `path` is, and what was expected. `None` where the text
/// is not JSON, or the error is another.
#[cold]
fn wrong_type(args: &str, path: &serde_path_to_error::Path, message: &str) -> Option<String> {
    use serde_path_to_error::Segment;
    let expected = if message.starts_with("expected value at ") {
        "a string naming a variant"
    } else if message.starts_with("invalid number at ") {
        "an integer"
    } else {
        return None;
    };
    let value: Value = serde_json::from_str(args).ok()?;
    let mut at = &value;
    for segment in path.iter() {
        at = match segment {
            Segment::Seq { index } => at.get(index)?,
            Segment::Map { key } => at.get(key.as_str())?,
            Segment::Enum { .. } | Segment::Unknown => return None,
        };
    }
    let what = match at {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) if n.is_f64() => format!("floating point `{n}`"),
        Value::Number(n) => format!("integer `{n}`"),
        Value::Array(_) => "sequence".to_owned(),
        Value::String(text) => format!("string {}", Value::String(text.clone())),
        Value::Object(_) => "map".to_owned(),
    };
    Some(format!("invalid type: {what}, expected {expected}"))
}

/// The slow path: find where `args` fails to parse as `T`.
#[cold]
pub(crate) fn locate<T: DeserializeOwned>(args: &str, first: &serde_json::Error) -> ArgsError {
    locate_with_path::<T>(args, first).0
}

/// [`locate`], and the path of the failure as `serde_path_to_error` gives it (for mending an
/// integral float there); `None` where the failure is outside any path.
#[cold]
fn locate_with_path<T: DeserializeOwned>(
    args: &str,
    first: &serde_json::Error,
) -> (ArgsError, Option<serde_path_to_error::Path>) {
    let mut de = serde_json::Deserializer::from_str(args);
    match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Err(error) => {
            let path = path_text(error.path());
            if error.inner().classify() == serde_json::error::Category::Syntax
                && let Some(wrong) = wrong_type(args, error.path(), &error.inner().to_string())
            {
                return (
                    ArgsError::new(path, wrong, ArgsErrorKind::Data),
                    Some(error.path().clone()),
                );
            }
            (
                ArgsError::from_json(error.inner(), path),
                Some(error.path().clone()),
            )
        }
        // The value parsed, so what failed is after it: trailing characters, outside any path.
        Ok(_) => match de.end() {
            Err(trailing) => (ArgsError::from_json(&trailing, String::new()), None),
            // Both parses see the same text; should they ever disagree, report the first error.
            Ok(()) => (ArgsError::from_json(first, String::new()), None),
        },
    }
}

/// How many times [`inside_tagged`] reads `T` again, at most, for one error.
const MAX_PROBES: usize = 256;

/// How much text [`inside_tagged`] reads in all, at most, for one error (so that huge
/// arguments are read again only a few times).
const MAX_PROBE_BYTES: usize = 16 << 20;

/// `error`, whose path (`path`, as `serde_path_to_error` found it in `value`) stops at the
/// object of an internally tagged enum, with the path inside it where the error is.
///
/// serde reads such an object into a buffer before it knows the variant, and reads the variant
/// from the buffer, where `serde_path_to_error` sees nothing: the path of every error inside
/// ends at the object (`timing`, not `timing.minutes`). What serde reads from the buffer, it
/// reads in order: an object's members as they are written, stopping at a member a struct
/// already has ("duplicate field"). So `T` is read again from `value` with the object written
/// as its members before one of them, the tags, and that member twice: a member whose value is
/// wrong gives the same error before the repeat is reached, and the same object without it
/// does not (a member the struct does not know is skipped, repeat and all, and does not change
/// the error). An array's items are tried in the same way, cut after one of them. The path goes
/// down while the error stays the same, and stops where no member or item holds it: at a value,
/// or at an object whose own error it is.
///
/// Only for errors that serde's path leaves at an object holding a tag of one of `T`'s
/// internally tagged enums, and only after a parse failed: nothing on the way of valid
/// arguments. Not for errors that are an object's own by their words (a missing or repeated
/// field, an untagged enum's), nor for a tag's (an unknown variant). At most [`MAX_PROBES`]
/// reads and [`MAX_PROBE_BYTES`] of text; where they do not settle it, `error` as it was.
#[cold]
fn inside_tagged<T: ToolSchema + DeserializeOwned>(
    value: &Value,
    path: Option<&serde_path_to_error::Path>,
    error: ArgsError,
) -> ArgsError {
    inside_tagged_of(value, path, error, T::FACTS, read_error::<T>)
}

/// The message of the error reading `T` from `text` gives, if it fails.
fn read_error<T: DeserializeOwned>(text: &str) -> Option<String> {
    serde_json::from_str::<T>(text)
        .err()
        .map(|error| ArgsError::from_json(&error, String::new()).message)
}

/// [`inside_tagged`] for the type whose facts are `facts` and which `read` reads: the same for
/// every type, so built once, in this crate.
fn inside_tagged_of(
    value: &Value,
    path: Option<&serde_path_to_error::Path>,
    error: ArgsError,
    facts: &'static Facts,
    read: fn(&str) -> Option<String>,
) -> ArgsError {
    use serde_path_to_error::Segment as S;
    if error.kind != ArgsErrorKind::Data
        || error.message.starts_with("missing field")
        || error.message.starts_with("duplicate field")
        || error.message.starts_with("data did not match any variant")
    {
        return error;
    }
    let tags = internal_tags(facts);
    if tags.is_empty() {
        return error;
    }
    let Some(path) = path else {
        return error;
    };
    let mut at: Vec<Segment> = Vec::new();
    for segment in path.iter() {
        at.push(match segment {
            S::Seq { index } => Segment::Index(*index),
            S::Map { key } => Segment::Key(key.clone()),
            S::Enum { variant } => Segment::Key(variant.clone()),
            S::Unknown => return error,
        });
    }
    let tagged = |node: &Value| {
        node.as_object().is_some_and(|map| {
            tags.iter()
                .any(|tag| map.get(*tag).is_some_and(Value::is_string))
        })
    };
    if !node_at(value, &at).is_some_and(tagged) {
        return error;
    }
    let mut probes = 0;
    let mut read_bytes = 0;
    let mut moved = false;
    // Where `T`, read from `value` with the node at `at` written as `text`, fails as `error`.
    let mut same = |at: &[Segment], text: String| -> Option<bool> {
        probes += 1;
        if probes > MAX_PROBES {
            return None;
        }
        let written = written_with(value, at, &text)?;
        read_bytes += written.len();
        if read_bytes > MAX_PROBE_BYTES {
            return None;
        }
        Some(read(&written).is_some_and(|message| message == error.message))
    };
    'down: while let Some(node) = node_at(value, &at) {
        match node {
            Value::Object(map) => {
                let members: Vec<(&String, &Value)> = map.iter().collect();
                for (i, (key, member)) in members.iter().enumerate() {
                    // A tag is the enum's: what is wrong with it is the object's.
                    if tags.contains(&key.as_str()) && member.is_string() {
                        continue;
                    }
                    // The members before it, the tags, and it, twice; and without it.
                    let mut without = String::from("{");
                    for (j, (key, member)) in members.iter().enumerate() {
                        if j < i || tags.contains(&key.as_str()) {
                            push_member(&mut without, key, member);
                        }
                    }
                    let mut with = without.clone();
                    push_member(&mut with, key, member);
                    push_member(&mut with, key, member);
                    let close = |mut text: String| {
                        if text.ends_with(',') {
                            text.pop();
                        }
                        text.push('}');
                        text
                    };
                    let here = match same(&at, close(with)) {
                        Some(true) => same(&at, close(without)).map(|still| !still),
                        other => other,
                    };
                    match here {
                        Some(true) => {
                            at.push(Segment::Key((*key).clone()));
                            moved = true;
                            continue 'down;
                        }
                        Some(false) => {}
                        None => break 'down,
                    }
                }
                break;
            }
            Value::Array(items) => {
                // An error that is the array's own (of its length) is there without its items.
                if same(&at, "[]".to_owned()) != Some(false) {
                    break;
                }
                for i in 0..items.len() {
                    let Some(text) = items
                        .get(..=i)
                        .and_then(|cut| serde_json::to_string(cut).ok())
                    else {
                        break 'down;
                    };
                    match same(&at, text) {
                        Some(true) => {
                            at.push(Segment::Index(i));
                            moved = true;
                            continue 'down;
                        }
                        Some(false) => {}
                        None => break 'down,
                    }
                }
                break;
            }
            _ => break,
        }
    }
    if !moved {
        return error;
    }
    let mut text = String::new();
    for segment in &at {
        match segment {
            Segment::Key(key) => push_key(&mut text, key),
            Segment::Index(index) => push_index(&mut text, *index),
        }
    }
    ArgsError {
        path: text,
        ..error
    }
}

/// [`inside_tagged`] for arguments given as text.
#[cold]
fn inside_tagged_text<T: ToolSchema + DeserializeOwned>(
    args: &str,
    path: Option<&serde_path_to_error::Path>,
    error: ArgsError,
) -> ArgsError {
    match serde_json::from_str::<Value>(args) {
        Ok(value) => inside_tagged::<T>(&value, path, error),
        Err(_) => error,
    }
}

/// `"key":value,` appended to `text`.
fn push_member(text: &mut String, key: &str, value: &Value) {
    if let (Ok(key), Ok(value)) = (serde_json::to_string(key), serde_json::to_string(value)) {
        text.push_str(&key);
        text.push(':');
        text.push_str(&value);
        text.push(',');
    }
}

/// The node of `value` at `at`.
fn node_at<'v>(value: &'v Value, at: &[Segment]) -> Option<&'v Value> {
    let mut node = value;
    for segment in at {
        node = match segment {
            Segment::Key(key) => node.get(key.as_str())?,
            Segment::Index(index) => node.get(*index)?,
        };
    }
    Some(node)
}

/// `value` as JSON text, with the node at `at` written as `text` (which may repeat a key, as a
/// `Value` cannot).
fn written_with(value: &Value, at: &[Segment], text: &str) -> Option<String> {
    // A string no model sends, in the place of the node, then replaced in the text.
    const MARK: &str = "\u{0}toolgen\u{0}probe\u{0}";
    let mut marked = value.clone();
    let mut node = &mut marked;
    for segment in at {
        node = match segment {
            Segment::Key(key) => node.get_mut(key.as_str())?,
            Segment::Index(index) => node.get_mut(*index)?,
        };
    }
    *node = Value::String(MARK.to_owned());
    let written = serde_json::to_string(&marked).ok()?;
    let mark = serde_json::to_string(MARK).ok()?;
    let (before, after) = written.split_once(&mark)?;
    // Should the model have sent the mark itself, the place is not certain.
    if after.contains(&mark) {
        return None;
    }
    Some(format!("{before}{text}{after}"))
}

/// The tags of the internally tagged enums in a type whose facts are `facts` (each once).
fn internal_tags(facts: &'static Facts) -> Vec<&'static str> {
    let mut tags: Vec<&'static str> = Vec::new();
    let mut seen: Vec<*const Facts> = Vec::new();
    let mut stack = vec![facts];
    while let Some(facts) = stack.pop() {
        if seen.contains(&std::ptr::from_ref(facts)) {
            continue;
        }
        seen.push(facts);
        if let Some(target) = facts.behind {
            stack.push(target.get().facts);
        }
        match facts.parse {
            Parse::Enum(EnumRepr::Internal(tag), ..) if !tags.contains(&tag) => tags.push(tag),
            Parse::Values(values) => stack.push(values),
            Parse::Tuple(items) => stack.extend(items.iter().copied()),
            Parse::Reference(of) => stack.push(of()),
            _ => {}
        }
        stack.extend(facts.kids.iter().map(|kid| kid.facts));
    }
    tags
}
