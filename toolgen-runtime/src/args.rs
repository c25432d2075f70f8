//! Parsing a model's tool arguments into the tool's type, with errors that name the JSON path.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::schema::ToolSchema;

/// Why a model's arguments did not parse into the tool's type.
///
/// It names where the problem is (a JSON path such as `flashcards[2].unit`) and what it is, in
/// words meant for the model to correct itself on its next turn.
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
    /// The JSON does not have the shape the tool's schema describes.
    Data,
    /// The call names a tool that is not in the set.
    UnknownTool,
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

    /// A call to a tool the set does not have; the message lists the ones it has.
    #[doc(hidden)]
    pub fn unknown_tool(name: &str, known: &[&str]) -> Self {
        let known: Vec<String> = known.iter().map(|n| format!("`{n}`")).collect();
        ArgsError {
            path: String::new(),
            message: format!("unknown tool `{name}`; the tools are {}", known.join(", ")),
            kind: ArgsErrorKind::UnknownTool,
        }
    }

    fn from_json(error: &serde_json::Error, path: String) -> Self {
        let kind = match error.classify() {
            serde_json::error::Category::Data => ArgsErrorKind::Data,
            _ => ArgsErrorKind::Syntax,
        };
        let mut message = error.to_string();
        // serde_json appends the position; the path says more, and the model sent one line anyway.
        if kind == ArgsErrorKind::Data
            && let Some(at) = message.rfind(" at line ")
        {
            message.truncate(at);
        }
        ArgsError {
            path,
            message,
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

/// Parses a tool's arguments: [`parse_args`], except that a type with `#[tool(default = ..)]`
/// fields somewhere inside it is read into a `serde_json::Value` first, so the missing defaults
/// can be written in before serde sees them.
pub(crate) fn parse_tool_args<T: ToolSchema + DeserializeOwned>(
    args: &str,
) -> Result<T, ArgsError> {
    if !T::NEEDS_FILL {
        return parse_args(args);
    }
    let mut value: Value = match serde_json::from_str(args) {
        Ok(value) => value,
        Err(error) => return Err(ArgsError::from_json(&error, String::new())),
    };
    T::fill_defaults(&mut value);
    match T::deserialize(&value) {
        Ok(parsed) => Ok(parsed),
        Err(_) => Err(locate_in_value::<T>(&value)),
    }
}

/// The path as text, empty for the whole value. serde_path_to_error writes the root as `.`, and
/// `?` where the input ended before it could tell which key came next.
fn path_text(path: &serde_path_to_error::Path) -> String {
    let text = path.to_string();
    match text.as_str() {
        "." | "?" => String::new(),
        _ => text,
    }
}

/// The slow path for a value: where does it fail to parse as `T`.
#[cold]
fn locate_in_value<T: DeserializeOwned>(value: &Value) -> ArgsError {
    match serde_path_to_error::deserialize::<_, T>(value) {
        Err(error) => {
            let path = path_text(error.path());
            ArgsError::from_json(error.inner(), path)
        }
        Ok(_) => ArgsError {
            path: String::new(),
            message: "the arguments parsed on a second attempt but not the first".to_owned(),
            kind: ArgsErrorKind::Data,
        },
    }
}

/// The slow path: find where `args` fails to parse as `T`.
#[cold]
fn locate<T: DeserializeOwned>(args: &str, first: &serde_json::Error) -> ArgsError {
    let mut de = serde_json::Deserializer::from_str(args);
    match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Err(error) => {
            let path = path_text(error.path());
            ArgsError::from_json(error.inner(), path)
        }
        // The value parsed, so what failed is after it: trailing characters, outside any path.
        Ok(_) => match de.end() {
            Err(trailing) => ArgsError::from_json(&trailing, String::new()),
            // Both parses see the same text; should they ever disagree, report the first error.
            Ok(()) => ArgsError::from_json(first, String::new()),
        },
    }
}
