//! The schema tree the dialect rewrite reads and writes: a JSON value whose objects keep their
//! members in document order, and the small helpers every pass uses.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;

use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};

/// The key by which serde_json's `arbitrary_precision` feature hands a number to a visitor.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// A JSON value whose objects keep their members in document order, whatever serde_json's
/// `preserve_order` feature says. Reading text keeps the last of repeated keys, at the place of
/// the first, as `serde_json::Value` does.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// An object's members; none for anything else.
    pub(crate) fn members(&self) -> &[(String, Json)] {
        match self {
            Json::Object(members) => members,
            _ => &[],
        }
    }

    /// An array's items; none for anything else.
    pub(crate) fn items(&self) -> &[Json] {
        match self {
            Json::Array(items) => items,
            _ => &[],
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(text) => Some(text),
            _ => None,
        }
    }

    /// Whether this is the string `text`.
    pub(crate) fn is(&self, text: &str) -> bool {
        self.as_str() == Some(text)
    }

    /// The value's JSON text, as serde_json writes it (and the const rewrite copies it).
    pub(crate) fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

pub(crate) fn string(text: &str) -> Json {
    Json::String(text.to_owned())
}

pub(crate) fn null_schema() -> Json {
    Json::Object(vec![("type".to_owned(), string("null"))])
}

pub(crate) fn is_null_schema(json: &Json) -> bool {
    matches!(json.members(), [(key, value)] if key == "type" && value.is("null"))
}

/// A string's content as JSON text writes it: escaped, without the quotes.
pub(crate) fn escaped(text: &str) -> String {
    let quoted = string(text).text();
    let inner = quoted.strip_prefix('"').and_then(|t| t.strip_suffix('"'));
    inner.unwrap_or_default().to_owned()
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(value) => serializer.serialize_bool(*value),
            Json::Number(number) => number.serialize(serializer),
            Json::String(text) => serializer.serialize_str(text),
            Json::Array(items) => serializer.collect_seq(items),
            Json::Object(members) => serializer.collect_map(members.iter().map(|(k, v)| (k, v))),
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// Reads any JSON value into a [`Json`] (serde_json stops nesting deeper than 128).
struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Json, E> {
        Ok(Json::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Json, E> {
        Ok(Json::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Json, E> {
        Ok(Json::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Json, E> {
        Ok(serde_json::Number::from_f64(value).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Json, E> {
        Ok(string(value))
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members: Vec<(String, Json)> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        while let Some(key) = map.next_key::<String>()? {
            if index.is_empty() && key == NUMBER_TOKEN {
                let digits: String = map.next_value()?;
                return digits.parse().map(Json::Number).map_err(A::Error::custom);
            }
            let value = map.next_value()?;
            match index.entry(key) {
                Entry::Occupied(at) => {
                    if let Some(member) = members.get_mut(*at.get()) {
                        member.1 = value;
                    }
                }
                Entry::Vacant(at) => {
                    members.push((at.key().clone(), value));
                    at.insert(members.len() - 1);
                }
            }
        }
        Ok(Json::Object(members))
    }
}

/// The value of the member `key`.
pub(crate) fn find<'a>(members: &'a [(String, Json)], key: &str) -> Option<&'a Json> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Whether `ty` (a `type` keyword's value) names `name`.
pub(crate) fn has_type(ty: Option<&Json>, name: &str) -> bool {
    ty.is_some_and(|ty| ty.is(name) || ty.items().iter().any(|t| t.is(name)))
}

/// The keys of a `properties` object, as a list of strings.
pub(crate) fn keys(props: Option<&Json>) -> Json {
    let names = props.map(Json::members).unwrap_or_default();
    Json::Array(names.iter().map(|(key, _)| string(key)).collect())
}
