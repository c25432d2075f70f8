//! The [`ToolSchema`] trait, and its impls for the standard library types a tool's fields use.

use crate::rope::{Defs, Rope};

/// A type whose JSON Schema is known at compile time.
///
/// `#[derive(ToolSchema)]` implements it for your structs and enums (and `#[derive(Tool)]` for a
/// tool's input struct); toolgen implements it for the standard library types listed in the
/// README's type-mapping table. The schema is a [`Rope`] of `&'static str` pieces: nothing is
/// built at run time.
///
/// ```
/// use toolgen::{ToolSchema, schema_text, Defs};
///
/// #[derive(ToolSchema)]
/// #[allow(dead_code)]
/// enum Units { Celsius, Fahrenheit }
///
/// let text = schema_text(&<Option<Units> as ToolSchema>::SCHEMA, &Defs::None);
/// assert_eq!(
///     text,
///     r#"{"anyOf":[{"type":"string","enum":["Celsius","Fahrenheit"]},{"type":"null"}]}"#
/// );
/// ```
///
/// Implementing it by hand (for a type from another crate, through a newtype) takes one const:
///
/// ```
/// use toolgen::{ToolSchema, Rope};
/// struct Email(String);
/// impl ToolSchema for Email {
///     const SCHEMA: Rope = Rope::Typed("string", &Rope::Str(r#","format":"email"}"#));
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no tool schema",
    label = "this type has no `ToolSchema` impl",
    note = "add `#[derive(toolgen::ToolSchema)]` to the type's definition, or implement `ToolSchema` by hand for a type from another crate (through a newtype)"
)]
pub trait ToolSchema {
    /// The type's schema where it is used: inline, or a `$ref` for a self-referential type.
    const SCHEMA: Rope;
    /// The definitions the schema's `$ref`s need; [`Defs::None`] for all but recursive types.
    const DEFS: Defs = Defs::None;
}

/// Key types a JSON object (and so a map field's schema) can have: string-like types.
///
/// ```
/// use std::collections::BTreeMap;
/// use toolgen::{Defs, ToolSchema, schema_text};
/// let text = schema_text(&<BTreeMap<String, bool> as ToolSchema>::SCHEMA, &Defs::None);
/// assert_eq!(text, r#"{"type":"object","additionalProperties":{"type":"boolean"}}"#);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the key of a map in a tool schema",
    label = "JSON object keys are strings",
    note = "use `String` (or another string-like type) as the map's key type"
)]
pub trait MapKey {}

impl MapKey for String {}
impl MapKey for str {}
impl<T: MapKey + ?Sized> MapKey for &T {}
impl<T: MapKey + ?Sized> MapKey for Box<T> {}
impl<T: MapKey + ?Sized + ToOwned> MapKey for std::borrow::Cow<'_, T> {}
impl<T: MapKey + ?Sized> MapKey for std::rc::Rc<T> {}
impl<T: MapKey + ?Sized> MapKey for std::sync::Arc<T> {}

macro_rules! typed {
    ($($ty:ty => $json_type:literal, $tail:literal;)*) => {$(
        impl ToolSchema for $ty {
            const SCHEMA: Rope = Rope::Typed($json_type, &Rope::Str($tail));
        }
    )*};
}

typed! {
    bool => "boolean", "}";
    i8 => "integer", r#","minimum":-128,"maximum":127}"#;
    i16 => "integer", r#","minimum":-32768,"maximum":32767}"#;
    i32 => "integer", r#","minimum":-2147483648,"maximum":2147483647}"#;
    i64 => "integer", "}";
    i128 => "integer", "}";
    isize => "integer", "}";
    u8 => "integer", r#","minimum":0,"maximum":255}"#;
    u16 => "integer", r#","minimum":0,"maximum":65535}"#;
    u32 => "integer", r#","minimum":0,"maximum":4294967295}"#;
    u64 => "integer", r#","minimum":0}"#;
    u128 => "integer", r#","minimum":0}"#;
    usize => "integer", r#","minimum":0}"#;
    f32 => "number", "}";
    f64 => "number", "}";
    char => "string", r#","minLength":1,"maxLength":1}"#;
    String => "string", "}";
    str => "string", "}";
    std::path::PathBuf => "string", "}";
    std::path::Path => "string", "}";
}

impl ToolSchema for () {
    const SCHEMA: Rope = Rope::Str(r#"{"type":"null"}"#);
}

impl ToolSchema for serde_json::Value {
    const SCHEMA: Rope = Rope::Str("{}");
}

impl ToolSchema for serde_json::Map<String, serde_json::Value> {
    const SCHEMA: Rope = Rope::Typed("object", &Rope::Str("}"));
}

impl<T: ToolSchema> ToolSchema for Option<T> {
    const SCHEMA: Rope = Rope::Nullable(&T::SCHEMA);
    const DEFS: Defs = T::DEFS;
}

macro_rules! transparent {
    ($($ty:ty),*) => {$(
        impl<T: ToolSchema + ?Sized> ToolSchema for $ty {
            const SCHEMA: Rope = T::SCHEMA;
            const DEFS: Defs = T::DEFS;
        }
    )*};
}

transparent!(&T, &mut T, Box<T>, std::rc::Rc<T>, std::sync::Arc<T>);

impl<T: ToolSchema + ToOwned + ?Sized> ToolSchema for std::borrow::Cow<'_, T> {
    const SCHEMA: Rope = T::SCHEMA;
    const DEFS: Defs = T::DEFS;
}

macro_rules! sequence {
    ($tail:literal => $($ty:ident)::+ $(, $bound:path)?) => {
        impl<T: ToolSchema $(+ $bound)*> ToolSchema for $($ty)::+<T> {
            const SCHEMA: Rope = Rope::Typed(
                "array",
                &Rope::Seq(&[Rope::Str(r#","items":"#), T::SCHEMA, Rope::Str($tail)]),
            );
            const DEFS: Defs = T::DEFS;
        }
    };
}

sequence!("}" => Vec);
sequence!("}" => std::collections::VecDeque);
sequence!("}" => std::collections::LinkedList);
sequence!("}" => std::collections::BinaryHeap, Ord);
sequence!(r#","uniqueItems":true}"# => std::collections::BTreeSet);

impl<T: ToolSchema, S> ToolSchema for std::collections::HashSet<T, S> {
    const SCHEMA: Rope = Rope::Typed(
        "array",
        &Rope::Seq(&[
            Rope::Str(r#","items":"#),
            T::SCHEMA,
            Rope::Str(r#","uniqueItems":true}"#),
        ]),
    );
    const DEFS: Defs = T::DEFS;
}

impl<T: ToolSchema> ToolSchema for [T] {
    const SCHEMA: Rope = <Vec<T> as ToolSchema>::SCHEMA;
    const DEFS: Defs = T::DEFS;
}

impl<T: ToolSchema, const N: usize> ToolSchema for [T; N] {
    const SCHEMA: Rope = Rope::Typed(
        "array",
        &Rope::Seq(&[
            Rope::Str(r#","items":"#),
            T::SCHEMA,
            Rope::Str(r#","minItems":"#),
            Rope::Uint(N as u64),
            Rope::Str(r#","maxItems":"#),
            Rope::Uint(N as u64),
            Rope::Str("}"),
        ]),
    );
    const DEFS: Defs = T::DEFS;
}

const MAP_TAIL_START: Rope = Rope::Str(r#","additionalProperties":"#);

impl<K: MapKey, V: ToolSchema, S> ToolSchema for std::collections::HashMap<K, V, S> {
    const SCHEMA: Rope = Rope::Typed(
        "object",
        &Rope::Seq(&[MAP_TAIL_START, V::SCHEMA, Rope::Str("}")]),
    );
    const DEFS: Defs = V::DEFS;
}

impl<K: MapKey, V: ToolSchema> ToolSchema for std::collections::BTreeMap<K, V> {
    const SCHEMA: Rope = Rope::Typed(
        "object",
        &Rope::Seq(&[MAP_TAIL_START, V::SCHEMA, Rope::Str("}")]),
    );
    const DEFS: Defs = V::DEFS;
}

macro_rules! tuple {
    ($len:literal: $first:ident $(, $rest:ident)*) => {
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
