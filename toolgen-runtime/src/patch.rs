//! [`Patch`]: a field that tells a key left out from a key sent as `null`, as published update
//! tools mean them ("leave it out to keep, send `null` to clear").

use serde::de::{Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::schema::cycles::EdgesAt;
use crate::schema::facts::{Facts, Kid};
use crate::schema::rope::{Defs, Rope};
use crate::schema::{Sealed, ToolSchema};

/// A field that may be left out, sent as `null`, or sent with a value, each read as its own
/// state: what GitHub's, Notion's or Playwright's update tools mean by "leave it out to keep it,
/// send `null` to clear it". An `Option<T>` reads both a missing key and `null` as `None`; a
/// `Patch<T>` reads a missing key as [`Patch::Absent`] and `null` as [`Patch::Null`]
/// (serde_with's `double_option`, as a type).
///
/// Give the field `#[serde(default)]` (on it or on its struct): serde reads a missing key as the
/// field's `Default`, which is `Absent`; without it, serde reads a missing key as `null`, and the
/// derive stops the build to say so. Its schema is `T`'s admitting `null`
/// (`{"type":["string","null"]}`, or `anyOf` with `{"type":"null"}`), not listed in `required`;
/// Gemini's `parameters` write it `"nullable": true`. Argument parsing keeps its `null` (the
/// `null`s it drops, under OpenAI strict mode, are those of fields whose default stands for
/// them): a `null` is a value here.
///
/// OpenAI strict mode lists every property in `required`, so a model sends every key, `null`
/// for what it would leave out: there a `Patch` field is required and nullable, and `Absent`
/// never arrives (a `null` is `Null`). For a tool whose "keep" must be expressible, leave it
/// non-strict for OpenAI (`#[tool(strict = "anthropic")]` keeps optional fields optional).
///
/// ```
/// use serde::Deserialize;
/// use toolgen::{Patch, Tool};
///
/// /// Update an issue: leave a field out to keep it, send `null` to clear it.
/// #[derive(Tool, Deserialize)]
/// struct UpdateIssue {
///     number: u64,
///     #[serde(default)]
///     milestone: Patch<u64>,
///     #[serde(default)]
///     title: Patch<String>,
/// }
///
/// assert_eq!(
///     UpdateIssue::INPUT_SCHEMA,
///     concat!(
///         r#"{"type":"object","properties":{"number":{"type":"integer","minimum":0},"#,
///         r#""milestone":{"type":["integer","null"],"minimum":0},"#,
///         r#""title":{"type":["string","null"]}},"required":["number"]}"#
///     )
/// );
/// let call = UpdateIssue::parse_args(r#"{"number": 7, "milestone": null}"#).unwrap();
/// assert_eq!(call.milestone, Patch::Null);
/// assert_eq!(call.title, Patch::Absent);
///
/// let mut milestone = Some(3);
/// call.milestone.apply(&mut milestone);
/// assert_eq!(milestone, None);
/// ```
///
/// It writes `Absent` and `Null` as `null` (an `Option` writes `None` so); to leave an `Absent`
/// field out, add `#[serde(skip_serializing_if = "Patch::is_absent")]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Patch<T> {
    /// The key was left out.
    #[default]
    Absent,
    /// The key was sent as `null`.
    Null,
    /// The key was sent with a value.
    Value(T),
}

impl<T> Patch<T> {
    /// Whether the key was left out.
    ///
    /// ```
    /// assert!(toolgen::Patch::<u8>::Absent.is_absent());
    /// ```
    pub const fn is_absent(&self) -> bool {
        matches!(self, Patch::Absent)
    }

    /// Whether the key was sent as `null`.
    ///
    /// ```
    /// assert!(toolgen::Patch::<u8>::Null.is_null());
    /// ```
    pub const fn is_null(&self) -> bool {
        matches!(self, Patch::Null)
    }

    /// The value, by reference.
    ///
    /// ```
    /// use toolgen::Patch;
    /// assert_eq!(Patch::Value(String::from("a")).as_ref(), Patch::Value(&String::from("a")));
    /// ```
    pub const fn as_ref(&self) -> Patch<&T> {
        match self {
            Patch::Absent => Patch::Absent,
            Patch::Null => Patch::Null,
            Patch::Value(value) => Patch::Value(value),
        }
    }

    /// The value, if one was sent.
    ///
    /// ```
    /// use toolgen::Patch;
    /// assert_eq!(Patch::Value(3).value(), Some(3));
    /// assert_eq!(Patch::<u8>::Null.value(), None);
    /// ```
    pub fn value(self) -> Option<T> {
        match self {
            Patch::Value(value) => Some(value),
            Patch::Absent | Patch::Null => None,
        }
    }

    /// The value mapped by `f`, the state kept.
    ///
    /// ```
    /// use toolgen::Patch;
    /// assert_eq!(Patch::Value(3).map(|n| n * 2), Patch::Value(6));
    /// assert_eq!(Patch::<u8>::Null.map(|n| n * 2), Patch::Null);
    /// ```
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Patch<U> {
        match self {
            Patch::Absent => Patch::Absent,
            Patch::Null => Patch::Null,
            Patch::Value(value) => Patch::Value(f(value)),
        }
    }

    /// Applies the patch to `target`: `Absent` keeps it, `Null` clears it, a value replaces it.
    ///
    /// ```
    /// use toolgen::Patch;
    /// let mut assignee = Some("ana");
    /// Patch::Absent.apply(&mut assignee);
    /// assert_eq!(assignee, Some("ana"));
    /// Patch::Value("ben").apply(&mut assignee);
    /// assert_eq!(assignee, Some("ben"));
    /// Patch::Null.apply(&mut assignee);
    /// assert_eq!(assignee, None);
    /// ```
    pub fn apply(self, target: &mut Option<T>) {
        match self {
            Patch::Absent => {}
            Patch::Null => *target = None,
            Patch::Value(value) => *target = Some(value),
        }
    }
}

/// `None` for `Absent`, `Some(None)` for `Null`, `Some(Some(value))` for a value: serde_with's
/// `double_option` shape.
///
/// ```
/// use toolgen::Patch;
/// assert_eq!(Option::<Option<u8>>::from(Patch::Null), Some(None));
/// assert_eq!(Patch::from(Some(Some(2))), Patch::Value(2));
/// ```
impl<T> From<Patch<T>> for Option<Option<T>> {
    fn from(patch: Patch<T>) -> Self {
        match patch {
            Patch::Absent => None,
            Patch::Null => Some(None),
            Patch::Value(value) => Some(Some(value)),
        }
    }
}

impl<T> From<Option<Option<T>>> for Patch<T> {
    fn from(option: Option<Option<T>>) -> Self {
        match option {
            None => Patch::Absent,
            Some(None) => Patch::Null,
            Some(Some(value)) => Patch::Value(value),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Patch<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PatchVisitor<T>(core::marker::PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for PatchVisitor<T> {
            type Value = Patch<T>;

            fn expecting(&self, formatter: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                formatter.write_str("a value or null")
            }

            fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                Ok(Patch::Null)
            }

            // serde's buffered content (a flattened struct's, an untagged enum's) hands a JSON
            // `null` over as a unit.
            fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                Ok(Patch::Null)
            }

            fn visit_some<D: Deserializer<'de>>(
                self,
                deserializer: D,
            ) -> Result<Self::Value, D::Error> {
                T::deserialize(deserializer).map(Patch::Value)
            }
        }

        deserializer.deserialize_option(PatchVisitor(core::marker::PhantomData))
    }
}

impl<T: Serialize> Serialize for Patch<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Patch::Absent | Patch::Null => serializer.serialize_none(),
            Patch::Value(value) => serializer.serialize_some(value),
        }
    }
}

impl<T> Sealed for Patch<T> {}
impl<T: ToolSchema> ToolSchema for Patch<T> {
    const SCHEMA: Rope = Rope::Nullable(&T::SCHEMA);
    const DEFS: Defs = T::DEFS;
    const FACTS: &'static Facts = &Facts::null_value(&[Kid::branch(T::FACTS)]);
    const EDGES: Option<EdgesAt> = T::EDGES;
}

/// Where a field's type is held wrongly for a [`Patch`] ([`check_patch`]).
#[doc(hidden)]
#[derive(Clone, Copy)]
pub enum PatchMisuse {
    /// A field without `#[serde(default)]`.
    NoDefault,
    /// A field with `#[tool(default = ..)]`.
    Filled,
    /// Inside another type (an item, a map's value, an `Option`).
    Held,
}

/// Stops the build if `T` is a [`Patch`] (it reads `null` as a value of its own) used as
/// `misuse` says: the field's `Absent` would never arrive. Else the empty string (so it can sit
/// in a [`Rope::Str`]). The derive calls it only where a field's type names a `Patch`.
#[doc(hidden)]
// Runs only in const evaluation, on the program's own types: its panic is a compile error.
#[allow(clippy::panic)]
pub const fn check_patch<T: ToolSchema + ?Sized>(misuse: PatchMisuse) -> &'static str {
    if !T::FACTS.reads_null() {
        return "";
    }
    match misuse {
        PatchMisuse::NoDefault => panic!(
            "toolgen: a `Patch` field needs `#[serde(default)]` (on it or on its struct): without \
             it serde reads a missing key as `null`, so `Patch::Absent` never arrives; add \
             `#[serde(default)]`"
        ),
        PatchMisuse::Filled => panic!(
            "toolgen: a `Patch` field cannot take `#[tool(default = ..)]`: the value is written in \
             where the key is missing, so `Patch::Absent` never arrives; use `#[serde(default)]` \
             instead, or an `Option` field with the default"
        ),
        PatchMisuse::Held => panic!(
            "toolgen: `Patch` tells a field left out from one sent as `null`, but here it is held \
             inside another type (an item, a map's value, an `Option`), where nothing can be \
             left out; use `Option<T>` there, or make the `Patch` the field's own type"
        ),
    }
}
