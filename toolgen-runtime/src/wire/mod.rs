//! The providers' wire formats for tool calls and tool results, as typed serde structs: one module
//! per API family, each citing the documentation or official spec it follows.
//!
//! Incoming types declare only the fields toolgen reads, so everything else a provider adds is
//! ignored; outgoing types borrow from the [`ToolCall`](crate::ToolCall) and
//! [`ToolResult`](crate::ToolResult) they render.
//!
//! Lists that mix kinds of item told apart by `type` (content blocks, output items) are read as
//! [`Tag`]s, then the items of interest one by one, rather than as a `#[serde(tag = "type")]`
//! enum: serde buffers a tagged enum's content, which loses the JSON path of an error inside it.

pub(crate) mod call;
pub(crate) mod choice;
pub(crate) mod partial;
pub(crate) mod result;
pub(crate) mod set;
pub(crate) mod stream;

use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::Value;

use crate::provider::Provider;
use crate::wire::call::{Caller, ToolCallError};

pub(crate) mod anthropic;
pub(crate) mod gemini;
pub(crate) mod mcp;
pub(crate) mod openai;

/// A `T` read only from a JSON object. serde also reads a struct from an array of its fields
/// (`["toolu_1", "get_time", {}]`), which no provider sends.
pub(crate) struct Obj<T>(pub(crate) T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjVisitor<T> {
            type Value = T;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map))
            }
        }

        deserializer
            .deserialize_map(ObjVisitor(PhantomData))
            .map(Obj)
    }
}

/// Deserializes `provider`'s wire type `T` out of a whole response.
fn read<'de, T: Deserialize<'de>>(
    provider: Provider,
    value: &'de Value,
) -> Result<T, ToolCallError> {
    read_at(provider, value, "")
}

/// Deserializes `provider`'s wire type `T` out of `value`, found at JSON path `at`; errors name
/// the full path. The value is read straight away; only a failure is read again, to find the
/// path of the problem.
pub(crate) fn read_at<'de, T: Deserialize<'de>>(
    provider: Provider,
    value: &'de Value,
    at: &str,
) -> Result<T, ToolCallError> {
    match Obj::<T>::deserialize(value) {
        Ok(Obj(wire)) => Ok(wire),
        Err(_) => Err(locate::<T>(provider, value, at)),
    }
}

#[cold]
fn locate<'de, T: Deserialize<'de>>(
    provider: Provider,
    value: &'de Value,
    at: &str,
) -> ToolCallError {
    match serde_path_to_error::deserialize::<_, Obj<T>>(value) {
        Err(error) => ToolCallError::malformed(provider, at, &error),
        // Both reads see the same value; should they ever disagree, say so without a path.
        Ok(_) => ToolCallError::Malformed {
            provider,
            path: at.to_owned(),
            message: "the value could not be read".to_owned(),
        },
    }
}

/// An item of a mixed list, or an event, by its `type`: read first, so that only the items of
/// interest are read again in full, as their own type.
#[derive(Deserialize)]
pub(crate) struct Tag<'a> {
    #[serde(borrow)]
    pub(crate) r#type: Text<'a>,
}

/// A string of a response or event, borrowed from it (serde's `&str` would say "a borrowed
/// string" in its errors).
#[derive(Clone, Copy)]
pub(crate) struct Text<'a>(pub(crate) &'a str);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;

        impl<'de> Visitor<'de> for TextVisitor {
            type Value = &'de str;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }

            fn visit_borrowed_str<E: serde::de::Error>(
                self,
                text: &'de str,
            ) -> Result<&'de str, E> {
                Ok(text)
            }
        }

        deserializer.deserialize_str(TextVisitor).map(Text)
    }
}

/// A call's `caller` as OpenAI Responses (`ToolCallCaller`: `caller_id`) and Anthropic
/// (`tool_id`) send it; other members are ignored.
#[derive(Deserialize)]
pub(crate) struct WireCaller {
    r#type: String,
    #[serde(default)]
    caller_id: Option<String>,
    #[serde(default)]
    tool_id: Option<String>,
}

impl From<WireCaller> for Caller {
    fn from(wire: WireCaller) -> Self {
        Caller {
            kind: wire.r#type,
            id: wire.caller_id.or(wire.tool_id),
        }
    }
}

/// Each item of the array at JSON pointer `pointer` in `value` (none if there is no array there),
/// with its JSON path, `{path}[{index}]`.
fn items<'a>(
    value: &'a Value,
    pointer: &str,
    path: &'a str,
) -> impl Iterator<Item = (String, &'a Value)> {
    value
        .pointer(pointer)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .map(move |(index, item)| (format!("{path}[{index}]"), item))
}

/// Serializes an outgoing wire type. Those hold only strings, numbers, booleans and JSON values,
/// which always serialize.
// Model data does pass through here (ids, names, result values), but only as strings and
// `serde_json::Value`s, whose serialization to a `Value` cannot fail (no non-string map keys).
#[allow(clippy::expect_used)]
fn write<T: serde::Serialize>(wire: &T) -> Value {
    serde_json::to_value(wire).expect("wire types hold only strings, numbers, booleans and JSON")
}

/// The JSON text of a model's arguments sent as a JSON value. An absent value means no arguments:
/// `{}`.
fn arguments_text(arguments: Option<&Value>) -> String {
    arguments.map_or_else(|| "{}".to_owned(), Value::to_string)
}
