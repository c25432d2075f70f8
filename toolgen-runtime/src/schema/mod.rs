//! The [`ToolSchema`] trait, sealed, and its impls for the standard library types a tool's fields use.

pub(crate) mod cycles;
pub(crate) mod ecosystem;
pub(crate) mod facts;
pub(crate) mod json_schema;
pub(crate) mod lists;
pub(crate) mod rope;
#[cfg(feature = "schemars1")]
pub(crate) mod schemars;

use serde_json::Value;

use crate::schema::cycles::{Edges, EdgesAt};
use crate::schema::facts::{Facts, Kid, LeadsTo, Via};
use crate::schema::rope::{Branches, Defs, Names, Object, Rope, schema_text};

/// A type whose JSON Schema is known at compile time: what a tool's fields, a handler's output
/// and a structured answer are made of.
///
/// `#[derive(ToolSchema)]` implements it for your structs and enums (and `#[derive(Tool)]` for a
/// tool's input struct); toolgen implements it for the standard library types listed in the
/// README's type-mapping table, and, behind cargo features, for other crates' types (`uuid1`,
/// `chrono04`, ..). The schema is compile-time data: nothing is built at run time but the text
/// [`ToolSchema::json_schema`] writes.
///
/// ```
/// use toolgen::ToolSchema;
///
/// #[derive(ToolSchema)]
/// #[allow(dead_code)]
/// enum Units { Celsius, Fahrenheit }
///
/// assert_eq!(
///     <Option<Units>>::json_schema(),
///     r#"{"anyOf":[{"type":"string","enum":["Celsius","Fahrenheit"]},{"type":"null"}]}"#
/// );
/// ```
///
/// The trait is sealed: what it is made of (the schema's pieces, its shape for the strict-mode
/// checks and for argument parsing, the graph of types that hold each other) is not public API,
/// and every type with a schema gets it from the derive (or from toolgen, for std types and,
/// behind features, other crates' types). A newtype of yours takes keywords on its field, and a
/// field of a type without a schema says what JSON it is read from:
///
/// ```
/// use toolgen::ToolSchema;
///
/// /// An e-mail address.
/// #[derive(ToolSchema, serde::Deserialize)]
/// struct Email(#[tool(format = "email")] String);
///
/// assert_eq!(
///     Email::json_schema(),
///     r#"{"type":"string","format":"email","description":"An e-mail address."}"#
/// );
///
/// /// An address book entry.
/// #[derive(ToolSchema, serde::Deserialize)]
/// struct Contact {
///     /// Where to write.
///     #[tool(schema = String, format = "email")]
///     email: other_crate::Address,
/// }
/// # mod other_crate {
/// #     #[derive(serde::Deserialize)] pub struct Address(String);
/// # }
///
/// assert_eq!(
///     Contact::json_schema(),
///     r#"{"type":"object","properties":{"email":{"type":"string","format":"email","description":"Where to write."}},"required":["email"],"description":"An address book entry."}"#
/// );
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no tool schema: it does not implement `ToolSchema`",
    label = "toolgen needs a schema for this type",
    note = "for a type of another crate, turn on toolgen's feature for that crate if it has one (`uuid1`, `chrono04`, `jiff02`, `time03`, `url2`, `semver1`, `rust_decimal1`, `bigdecimal04`, `indexmap2`, `smallvec1`, `arrayvec07`, `smol_str02`, `bytes1`, `either1`), or describe the field as the JSON it is read from: `#[tool(schema = String, format = \"..\")]`",
    note = "for a type of your own, add `#[derive(toolgen::ToolSchema)]` beside `Deserialize`"
)]
pub trait ToolSchema: Sealed {
    /// The type's schema where it is used: inline, or a `$ref` for a self-referential type.
    #[doc(hidden)]
    const SCHEMA: Rope;
    /// The definitions the schema's `$ref`s need; [`Defs::None`] for all but recursive types.
    #[doc(hidden)]
    const DEFS: Defs = Defs::None;
    /// The type's shape, beside its schema text: what the provider dialects need to know (a
    /// map, an arbitrary value, a tuple, recursion, nesting and counts), which strict tools check
    /// at compile time, and how serde reads it (defaults, sets, enum representations), from which
    /// argument parsing builds its plan at first use. Combined by the types that hold this one.
    /// [`Facts::NONE`] suits a schema of a string, number or boolean.
    #[doc(hidden)]
    const FACTS: &'static Facts = &Facts::NONE;
    /// For types serde reads from a JSON object with named fields: their properties and required
    /// names, which `#[serde(flatten)]` merges into the enclosing object. `None` otherwise.
    #[doc(hidden)]
    const OBJECT: Option<Object> = None;
    /// The JSON text of `Default::default()`, where it is known at compile time: what a field
    /// with a plain `#[serde(default)]` shows as its schema's `"default"`. `None` otherwise.
    #[doc(hidden)]
    const DEFAULT: Option<Rope> = None;
    /// A derived struct's name as written (`WordCounts`), which the build errors of a
    /// structured answer name (`Structured::new`); `""` for other types.
    #[doc(hidden)]
    const TYPE_NAME: &'static str = "";
    /// For enums serde reads from a plain string: the strings it accepts. Lets a
    /// `#[tool(default = "..")]` on a field of this type be checked at compile time.
    #[doc(hidden)]
    const ENUM_VALUES: Option<&'static [&'static str]> = None;

    /// The node of the graph of which types of the user's hold which, for a type that holds
    /// some: what a type holding this one walks to learn whether this one leads back to it
    /// (`$ref` there; see `toolgen::__private::reaches`). `None` for a type that holds none.
    #[doc(hidden)]
    const EDGES: Option<EdgesAt> = None;

    /// The type's JSON Schema (draft 2020-12), with the `$defs` its recursive types need: the
    /// standard dialect, as a tool's `INPUT_SCHEMA` writes a tool's input.
    ///
    /// ```
    /// use toolgen::ToolSchema;
    /// assert_eq!(
    ///     <Vec<bool>>::json_schema(),
    ///     r#"{"type":"array","items":{"type":"boolean"}}"#
    /// );
    /// ```
    fn json_schema() -> String {
        schema_text(&Self::SCHEMA, &Self::DEFS)
    }
}

/// The seal of [`ToolSchema`]: what the derive implements beside it, so that a hand-written impl
/// (which would have to say, in compile-time data, what the derive works out) does not compile.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`ToolSchema` is implemented by `#[derive(ToolSchema)]`, not by hand",
    label = "toolgen's schema trait is sealed",
    note = "derive it on a type of your own (keywords go on its fields, a newtype's too: `struct Email(#[tool(format = \"email\")] String);`), or describe a field of another crate's type as the JSON it is read from: `#[tool(schema = String, format = \"..\")]`"
)]
pub trait Sealed {}

/// How many items are compared pair by pair before they are hashed.
const FEW_ITEMS: usize = 16;

/// The first item of `items` equal to an earlier one (`serde_json::Value`'s equality), and the
/// first item it repeats: `(earlier, later)`. Items are hashed, so that a long array from a
/// model (or an attacker) takes linear time, not quadratic.
pub(crate) fn first_repeat(items: &[Value]) -> Option<(usize, usize)> {
    use std::hash::BuildHasher as _;
    if items.len() <= FEW_ITEMS {
        return items.iter().enumerate().find_map(|(later, item)| {
            let earlier = items.iter().take(later).position(|other| other == item)?;
            Some((earlier, later))
        });
    }
    let state = std::collections::hash_map::RandomState::new();
    let mut seen: std::collections::HashMap<u64, Vec<usize>> =
        std::collections::HashMap::with_capacity(items.len());
    for (later, item) in items.iter().enumerate() {
        let bucket = seen.entry(state.hash_one(HashedValue(item))).or_default();
        if let Some(&earlier) = bucket
            .iter()
            .find(|&&earlier| items.get(earlier) == Some(item))
        {
            return Some((earlier, later));
        }
        bucket.push(later);
    }
    None
}

/// A `serde_json::Value` hashed consistently with its equality: an object's members in key
/// order (equality ignores their order), `-0.0` as `0.0` (they are equal).
struct HashedValue<'a>(&'a Value);

impl std::hash::Hash for HashedValue<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self.0 {
            Value::Null => state.write_u8(0),
            Value::Bool(b) => (1_u8, b).hash(state),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    (2_u8, u).hash(state);
                } else if let Some(i) = n.as_i64() {
                    (3_u8, i).hash(state);
                } else {
                    let f = n.as_f64().unwrap_or_default();
                    let f = if f == 0.0 { 0.0_f64 } else { f };
                    (4_u8, f.to_bits()).hash(state);
                }
            }
            Value::String(text) => (5_u8, text).hash(state),
            Value::Array(items) => {
                (6_u8, items.len()).hash(state);
                items.iter().for_each(|item| HashedValue(item).hash(state));
            }
            Value::Object(map) => {
                (7_u8, map.len()).hash(state);
                let mut members: Vec<(&String, &Value)> = map.iter().collect();
                members.sort_unstable_by(|a, b| a.0.cmp(b.0));
                for (key, value) in members {
                    key.hash(state);
                    HashedValue(value).hash(state);
                }
            }
        }
    }
}

/// Key types a JSON object (and so a map field's schema) can have: string-like types.
///
/// ```
/// use std::collections::BTreeMap;
/// use toolgen::ToolSchema;
/// let text = <BTreeMap<String, bool>>::json_schema();
/// assert_eq!(text, r#"{"type":"object","additionalProperties":{"type":"boolean"}}"#);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the key type of a map in a tool's input",
    label = "JSON object keys are strings, and toolgen describes maps with string keys only",
    note = "use `String` as the key type, and convert the keys after parsing the arguments"
)]
pub trait MapKey {
    /// The key as the JSON object key it was read from.
    #[doc(hidden)]
    fn as_key(&self) -> &str;
}

impl MapKey for String {
    fn as_key(&self) -> &str {
        self
    }
}
impl MapKey for str {
    fn as_key(&self) -> &str {
        self
    }
}

macro_rules! map_key_delegate {
    ($($ty:ty),*) => {$(
        impl<T: MapKey + ?Sized> MapKey for $ty {
            fn as_key(&self) -> &str {
                (**self).as_key()
            }
        }
    )*};
}
map_key_delegate!(&T, Box<T>, std::rc::Rc<T>, std::sync::Arc<T>);

impl<T: MapKey + ?Sized + ToOwned> MapKey for std::borrow::Cow<'_, T> {
    fn as_key(&self) -> &str {
        (**self).as_key()
    }
}

macro_rules! typed {
    ($($ty:ty => $json_type:literal, $tail:literal, $default:literal;)*) => {$(
        impl Sealed for $ty {}
        impl ToolSchema for $ty {
            const SCHEMA: Rope = Rope::Typed($json_type, &Rope::Str($tail));
            const DEFAULT: Option<Rope> = Some(Rope::Str($default));
        }
    )*};
}

typed! {
    bool => "boolean", "}", "false";
    i8 => "integer", r#","minimum":-128,"maximum":127}"#, "0";
    i16 => "integer", r#","minimum":-32768,"maximum":32767}"#, "0";
    i32 => "integer", r#","minimum":-2147483648,"maximum":2147483647}"#, "0";
    i64 => "integer", "}", "0";
    i128 => "integer", "}", "0";
    isize => "integer", "}", "0";
    u8 => "integer", r#","minimum":0,"maximum":255}"#, "0";
    u16 => "integer", r#","minimum":0,"maximum":65535}"#, "0";
    u32 => "integer", r#","minimum":0,"maximum":4294967295}"#, "0";
    u64 => "integer", r#","minimum":0}"#, "0";
    u128 => "integer", r#","minimum":0}"#, "0";
    usize => "integer", r#","minimum":0}"#, "0";
    f32 => "number", "}", "0.0";
    f64 => "number", "}", "0.0";
    char => "string", r#","minLength":1,"maxLength":1}"#, r#""\u0000""#;
    String => "string", "}", r#""""#;
    str => "string", "}", r#""""#;
    std::path::PathBuf => "string", "}", r#""""#;
    std::path::Path => "string", "}", r#""""#;
}

const NULL: Option<Rope> = Some(Rope::Str("null"));
const EMPTY_ARRAY: Option<Rope> = Some(Rope::Str("[]"));
const EMPTY_OBJECT: Option<Rope> = Some(Rope::Str("{}"));

impl Sealed for () {}
impl ToolSchema for () {
    const SCHEMA: Rope = Rope::Str(r#"{"type":"null"}"#);
    const DEFAULT: Option<Rope> = NULL;
}

impl Sealed for serde_json::Value {}
impl ToolSchema for serde_json::Value {
    const SCHEMA: Rope = Rope::Str("{}");
    const FACTS: &'static Facts = &Facts::node(facts::ANY, false, [0, 0, 0], &[]);
    const DEFAULT: Option<Rope> = NULL;
}

impl Sealed for serde_json::Map<String, serde_json::Value> {}
impl ToolSchema for serde_json::Map<String, serde_json::Value> {
    const SCHEMA: Rope = Rope::Typed("object", &Rope::Str("}"));
    const FACTS: &'static Facts = &Facts::node(facts::MAP, true, [0, 0, 0], &[]);
    const OBJECT: Option<Object> = Some(Object {
        properties: Rope::Str(""),
        required: Rope::Str(""),
        additional: Some(Rope::Str("{}")),
        names: Names::None,
        deny_unknown: false,
        branches: Branches::None,
    });
    const DEFAULT: Option<Rope> = EMPTY_OBJECT;
}

impl<T> Sealed for Option<T> {}
impl<T: ToolSchema> ToolSchema for Option<T> {
    const SCHEMA: Rope = Rope::Nullable(&T::SCHEMA);
    const DEFS: Defs = T::DEFS;
    const FACTS: &'static Facts = T::FACTS;
    const DEFAULT: Option<Rope> = NULL;
    const EDGES: Option<EdgesAt> = T::EDGES;
}

macro_rules! transparent {
    ($([$($bound:tt)*] $ty:ty),*) => {$(
        impl<T: ?Sized $($bound)*> Sealed for $ty {}
        impl<T: ToolSchema + ?Sized $($bound)*> ToolSchema for $ty {
            const SCHEMA: Rope = T::SCHEMA;
            const DEFS: Defs = T::DEFS;
            const FACTS: &'static Facts = T::FACTS;
            const OBJECT: Option<Object> = T::OBJECT;
            const DEFAULT: Option<Rope> = T::DEFAULT;
            const ENUM_VALUES: Option<&'static [&'static str]> = T::ENUM_VALUES;
            const EDGES: Option<EdgesAt> = T::EDGES;
        }
    )*};
}

transparent!(
    [] &T,
    [] &mut T,
    [] Box<T>,
    [] std::rc::Rc<T>,
    [] std::sync::Arc<T>,
    [+ ToOwned] std::borrow::Cow<'_, T>
);

/// The [`ToolSchema::FACTS`] of an array of `T`.
const fn items_facts<T: ToolSchema + ?Sized>() -> Facts {
    Facts::node(
        0,
        false,
        [0, 0, 0],
        &[Kid {
            via: Via::Items,
            name: "",
            facts: T::FACTS,
        }],
    )
}

/// A recursive type's reference to itself (`T`), where the derive describes the type's own
/// definition: its [`ToolSchema::FACTS`] are a [`Facts::reference`] to the type's, which cuts the
/// cycle.
#[doc(hidden)]
pub struct Recursion<T: ?Sized>(core::marker::PhantomData<T>);

impl<T: ?Sized> Sealed for Recursion<T> {}
impl<T: ToolSchema + ?Sized> ToolSchema for Recursion<T> {
    const SCHEMA: Rope = Rope::Str("{}");
    const FACTS: &'static Facts = &Facts::reference(facts_of::<T>);
}

/// `T`'s facts, for a [`Facts::reference`].
fn facts_of<T: ToolSchema + ?Sized>() -> &'static Facts {
    T::FACTS
}

/// A type reached through a field marked `#[tool(recursive)]`, where the derive describes the
/// field's facts: its [`ToolSchema::FACTS`] point to the type's (`T` names where they are),
/// which cuts the cycle.
#[doc(hidden)]
pub struct Cycle<T>(core::marker::PhantomData<T>);

impl<T> Sealed for Cycle<T> {}
impl<T: LeadsTo> ToolSchema for Cycle<T> {
    const SCHEMA: Rope = Rope::Str("{}");
    const FACTS: &'static Facts = &Facts::behind(T::TARGET);
}

/// The [`ToolSchema::FACTS`] of a set of `T`: an array whose items must all differ.
const fn set_facts<T: ToolSchema + ?Sized>() -> Facts {
    items_facts::<T>().set()
}

/// `ToolSchema` for a sequence type read as a JSON array of `T`: its schema (`$schema`, a rope
/// expression), its facts (`items_facts`, or `set_facts` for a set, whose items must all
/// differ), its generics and bounds (the schema's `T: ToolSchema` besides).
macro_rules! sequence {
    (
        $facts:ident, $schema:expr, $default:expr =>
        impl[$($generics:tt)*] $ty:ty $(where [$($bounds:tt)*])?
    ) => {
        impl<$($generics)*> Sealed for $ty $(where $($bounds)*)? {}
        impl<$($generics)*> ToolSchema for $ty where T: ToolSchema $(, $($bounds)*)? {
            const SCHEMA: Rope = $schema;
            const DEFS: Defs = T::DEFS;
            const FACTS: &'static Facts = &$facts::<T>();
            const DEFAULT: Option<Rope> = $default;
            const EDGES: Option<EdgesAt> = T::EDGES;
        }
    };
}

/// `{"type":"array","items":<T>` and `pieces` (ending with `}`).
macro_rules! array_with {
    ($($piece:expr),*) => {
        Rope::Typed(
            "array",
            &Rope::Seq(&[Rope::Str(r#","items":"#), T::SCHEMA, $($piece),*]),
        )
    };
}

/// `{"type":"array","items":<T>` and `tail`.
macro_rules! array_of {
    ($tail:literal) => {
        array_with!(Rope::Str($tail))
    };
}

sequence!(items_facts, array_of!("}"), EMPTY_ARRAY => impl[T] Vec<T>);
sequence!(items_facts, array_of!("}"), EMPTY_ARRAY =>
    impl[T] std::collections::VecDeque<T>);
sequence!(items_facts, array_of!("}"), EMPTY_ARRAY =>
    impl[T] std::collections::LinkedList<T>);
sequence!(items_facts, array_of!("}"), EMPTY_ARRAY =>
    impl[T: Ord] std::collections::BinaryHeap<T>);
sequence!(set_facts, array_of!(r#","uniqueItems":true}"#), EMPTY_ARRAY =>
    impl[T] std::collections::BTreeSet<T>);
sequence!(set_facts, array_of!(r#","uniqueItems":true}"#), EMPTY_ARRAY =>
    impl[T, S] std::collections::HashSet<T, S>);
// A slice's default is not known (it is unsized); serde reads it only behind a reference.
sequence!(items_facts, array_of!("}"), None => impl[T] [T]);
sequence!(
    items_facts,
    array_with!(
        Rope::Str(r#","minItems":"#),
        Rope::Uint(N as u64),
        Rope::Str(r#","maxItems":"#),
        Rope::Uint(N as u64),
        Rope::Str("}")
    ),
    if N == 0 { EMPTY_ARRAY } else { None } =>
    impl[T, const N: usize] [T; N]
);

// The collections of other crates, each behind its feature (`ecosystem.rs` has the rest).
#[cfg(feature = "indexmap2")]
sequence!(set_facts, array_of!(r#","uniqueItems":true}"#), EMPTY_ARRAY =>
    impl[T, S] indexmap::IndexSet<T, S>);
#[cfg(feature = "smallvec1")]
sequence!(items_facts, array_of!("}"), EMPTY_ARRAY =>
    impl[T, const N: usize] smallvec::SmallVec<[T; N]>
    where [[T; N]: smallvec::Array<Item = T>]);
// An `ArrayVec` holds at most its capacity.
#[cfg(feature = "arrayvec07")]
sequence!(
    items_facts,
    array_with!(Rope::Str(r#","maxItems":"#), Rope::Uint(CAP as u64), Rope::Str("}")),
    EMPTY_ARRAY =>
    impl[T, const CAP: usize] arrayvec::ArrayVec<T, CAP>
);

const MAP_TAIL_START: Rope = Rope::Str(r#","additionalProperties":"#);

macro_rules! map {
    ($($param:ident),* => $ty:ty) => {
        impl<K, V $(, $param)*> Sealed for $ty {}
        impl<K: MapKey, V: ToolSchema $(, $param)*> ToolSchema for $ty {
            const SCHEMA: Rope = Rope::Typed(
                "object",
                &Rope::Seq(&[MAP_TAIL_START, V::SCHEMA, Rope::Str("}")]),
            );
            const DEFS: Defs = V::DEFS;
            // The strict modes stop at the map; Gemini takes it as a free-form object.
            const FACTS: &'static Facts =
                &Facts::node(facts::MAP, true, [0, 0, 0], &[]).values(V::FACTS);
            const OBJECT: Option<Object> = Some(Object {
                properties: Rope::Str(""),
                required: Rope::Str(""),
                additional: Some(V::SCHEMA),
                names: Names::None,
                deny_unknown: false,
                branches: Branches::None,
            });
            const DEFAULT: Option<Rope> = EMPTY_OBJECT;
            const EDGES: Option<EdgesAt> = V::EDGES;
        }
    };
}

map!(S => std::collections::HashMap<K, V, S>);
map!(=> std::collections::BTreeMap<K, V>);
#[cfg(feature = "indexmap2")]
map!(S => indexmap::IndexMap<K, V, S>);

macro_rules! tuple {
    ($len:literal: $first:ident $(, $rest:ident)*) => {
        impl<$first $(, $rest)*> Sealed for ($first, $($rest,)*) {}
        impl<$first: ToolSchema $(, $rest: ToolSchema)*> ToolSchema for ($first, $($rest,)*) {
            const SCHEMA: Rope = Rope::Typed(
                "array",
                &Rope::Seq(&[
                    Rope::Str(r#","prefixItems":["#),
                    $first::SCHEMA,
                    $(Rope::Str(","), $rest::SCHEMA,)*
                    Rope::Str(concat!(r#"],"minItems":"#, $len, r#","maxItems":"#, $len, "}")),
                ]),
            );
            const DEFS: Defs = Defs::Seq(&[$first::DEFS $(, $rest::DEFS)*]);
            const FACTS: &'static Facts = &Facts::node(facts::TUPLE, false, [0, 0, 0], &[])
                .tuple(&[$first::FACTS $(, $rest::FACTS)*]);
            const EDGES: Option<EdgesAt> =
                Some(EdgesAt::of(&Edges::of("", &[$first::EDGES $(, $rest::EDGES)*])));
        }
    };
}

tuple!(1: A);
tuple!(2: A, B);
tuple!(3: A, B, C);
tuple!(4: A, B, C, D);
tuple!(5: A, B, C, D, E);
tuple!(6: A, B, C, D, E, F);
tuple!(7: A, B, C, D, E, F, G);
tuple!(8: A, B, C, D, E, F, G, H);
tuple!(9: A, B, C, D, E, F, G, H, I);
tuple!(10: A, B, C, D, E, F, G, H, I, J);
tuple!(11: A, B, C, D, E, F, G, H, I, J, K);
tuple!(12: A, B, C, D, E, F, G, H, I, J, K, L);

/// Stops the build if a `#[tool(default = ..)]` literal cannot be a value of `T`: a string that
/// is not one of a string enum's values, or any literal for an object type. `string` is the
/// literal when it is a string. Otherwise the empty string (so it can sit in a [`Rope::Str`]).
#[doc(hidden)]
// Runs only in const evaluation, on the program's own attributes: its panic is a compile error.
#[allow(clippy::panic, clippy::indexing_slicing)]
pub const fn check_default<T: ToolSchema + ?Sized>(string: Option<&str>) -> &'static str {
    if let Some(values) = T::ENUM_VALUES {
        let mut found = false;
        if let Some(string) = string {
            let mut i = 0;
            while i < values.len() {
                if crate::schema::rope::str_eq(values[i], string) {
                    found = true;
                }
                i += 1;
            }
        }
        if !found {
            let message = NotAValue::new(string, values);
            panic!("{}", message.text());
        }
    }
    // A struct or a map; an enum (whose object form is its alternatives) takes its literals.
    if let Some(object) = T::OBJECT
        && !matches!(object.branches, Branches::List(_))
    {
        panic!(
            "toolgen: #[tool(default = ..)] gives a literal, but this field's type is an object"
        );
    }
    ""
}

/// The message of a `#[tool(default = ..)]` that is not one of an enum's values, written in
/// const evaluation (which formats only a `&str`): the value and the allowed ones, cut at
/// [`NotAValue::CAP`] bytes.
struct NotAValue {
    bytes: [u8; NotAValue::CAP],
    len: usize,
}

// Runs in const evaluation, where `get` is not const for slices of `&str`; every index is
// below a length checked in the loop's condition.
#[allow(clippy::indexing_slicing)]
impl NotAValue {
    const CAP: usize = 1024;

    const fn new(string: Option<&str>, values: &[&str]) -> NotAValue {
        let mut message = NotAValue {
            bytes: [0; NotAValue::CAP],
            len: 0,
        };
        message.push("toolgen: #[tool(default = ..)] is ");
        match string {
            Some(string) => {
                message.push("\"");
                message.push(string);
                message.push("\"");
            }
            None => message.push("not a string"),
        }
        message.push(", not one of the enum's values: ");
        let mut i = 0;
        while i < values.len() {
            if i > 0 {
                message.push(", ");
            }
            message.push("\"");
            message.push(values[i]);
            message.push("\"");
            i += 1;
        }
        message.push("; give one of them, as serde reads it");
        message
    }

    /// Appends `text`, as much of it as fits (whole characters).
    const fn push(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() && self.len < NotAValue::CAP {
            self.bytes[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
        // A character cut in two is dropped.
        while self.len > 0 && core::str::from_utf8(self.bytes.split_at(self.len).0).is_err() {
            self.len -= 1;
        }
    }

    const fn text(&self) -> &str {
        match core::str::from_utf8(self.bytes.split_at(self.len).0) {
            Ok(text) => text,
            Err(_) => "toolgen: #[tool(default = ..)] is not one of the enum's values",
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    #[test]
    fn a_default_not_among_an_enums_values_is_named_with_them() {
        let message = super::NotAValue::new(Some("wordd"), &["word", "phrase"]);
        assert_eq!(
            message.text(),
            "toolgen: #[tool(default = ..)] is \"wordd\", not one of the enum's values: \"word\", \
             \"phrase\"; give one of them, as serde reads it"
        );
        let message = super::NotAValue::new(None, &["a"]);
        assert!(message.text().contains("is not a string, not one of"));
        // Cut at its capacity, on a character's boundary.
        let long = "é".repeat(2000);
        let message = super::NotAValue::new(Some(&long), &["a"]);
        assert!(message.text().len() <= super::NotAValue::CAP);
        assert!(
            message
                .text()
                .starts_with("toolgen: #[tool(default = ..)] is \"éé")
        );
    }

    use super::{FEW_ITEMS, first_repeat};

    /// The pair-by-pair answer.
    fn naive(items: &[Value]) -> Option<(usize, usize)> {
        items.iter().enumerate().find_map(|(later, item)| {
            let earlier = items.iter().take(later).position(|other| other == item)?;
            Some((earlier, later))
        })
    }

    #[test]
    fn hashed_items_find_the_same_repeat_as_comparing_pairs() {
        let pool = [
            json!(1),
            json!(1.0),
            json!(-1),
            json!(0.0),
            json!(-0.0),
            json!("1"),
            json!(null),
            json!(true),
            json!([1, 2]),
            json!([2, 1]),
            json!({"a": 1, "b": [1]}),
            json!({"b": [1], "a": 1}),
            json!({"a": 1}),
        ];
        let mut random: u64 = 0x9E37_79B9_7F4A_7C15;
        for length in [0, 1, 2, FEW_ITEMS, FEW_ITEMS + 1, 40, 200] {
            for _ in 0..50 {
                let items: Vec<Value> = (0..length)
                    .map(|i| {
                        random ^= random << 13;
                        random ^= random >> 7;
                        random ^= random << 17;
                        // Mostly distinct numbers, now and then one of the pool.
                        if random.is_multiple_of(7) {
                            pool[(random / 7) as usize % pool.len()].clone()
                        } else {
                            json!(i)
                        }
                    })
                    .collect();
                assert_eq!(first_repeat(&items), naive(&items), "{items:?}");
            }
        }
        // Equal values hash alike: members in another order, `-0.0` and `0.0`.
        let items: Vec<Value> = (0..FEW_ITEMS)
            .map(|i| json!(i))
            .chain([pool[10].clone(), pool[11].clone()])
            .collect();
        assert_eq!(first_repeat(&items), Some((FEW_ITEMS, FEW_ITEMS + 1)));
        let items: Vec<Value> = (0..FEW_ITEMS)
            .map(|i| json!(i))
            .chain([pool[3].clone(), pool[4].clone()])
            .collect();
        assert_eq!(first_repeat(&items), Some((FEW_ITEMS, FEW_ITEMS + 1)));
    }
}
