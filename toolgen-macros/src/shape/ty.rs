//! What the macro knows of a Rust type from how it is written: its classification ([`Ty`]),
//! whether it mentions the container itself, and what it holds.
//!
//! Bare names are recognised only for primitives and the prelude types `String`, `Option`, `Vec`
//! and `Box`; for those the generated code also checks that the name really is the std type (see
//! `expand::prelude_checks`), so a shadowing type is a compile error, not a wrong schema. Other std
//! types are recognised only when written with a `std::`/`core::`/`alloc::` path; written bare
//! (`HashMap<..>` after a `use`), they go through their `ToolSchema` impls, which give the same
//! schema. A test compares both paths for every type.

use std::cell::RefCell;

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{GenericArgument, Ident, Path, PathArguments, Type};

/// Prelude names whose bare use is recognised
/// ([`prelude_path`](crate::expand::schema::types::prelude_path) is what the check compares them
/// to).
const PRELUDE: &[&str] = &["String", "Option", "Vec", "Box"];

/// Primitive types: `(name, JSON type, tail)`. Kept equal to the runtime's impls by the tests.
/// A primitive's name, its JSON type and the keywords that bound it (`minimum`/`maximum` of an
/// integer, the one character of a `char`), as key and JSON value.
pub type Primitive = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

const PRIMITIVES: &[Primitive] = &[
    ("bool", "boolean", &[]),
    ("i8", "integer", &[("minimum", "-128"), ("maximum", "127")]),
    (
        "i16",
        "integer",
        &[("minimum", "-32768"), ("maximum", "32767")],
    ),
    (
        "i32",
        "integer",
        &[("minimum", "-2147483648"), ("maximum", "2147483647")],
    ),
    ("i64", "integer", &[]),
    ("i128", "integer", &[]),
    ("isize", "integer", &[]),
    ("u8", "integer", &[("minimum", "0"), ("maximum", "255")]),
    ("u16", "integer", &[("minimum", "0"), ("maximum", "65535")]),
    (
        "u32",
        "integer",
        &[("minimum", "0"), ("maximum", "4294967295")],
    ),
    ("u64", "integer", &[("minimum", "0")]),
    ("u128", "integer", &[("minimum", "0")]),
    ("usize", "integer", &[("minimum", "0")]),
    ("f32", "number", &[]),
    ("f64", "number", &[]),
    ("char", "string", &[("minLength", "1"), ("maxLength", "1")]),
    ("str", "string", &[]),
];

/// Std types recognised when written with a `std::`/`core::`/`alloc::` path.
const QUALIFIED: &[&str] = &[
    "String",
    "Option",
    "Vec",
    "Box",
    "VecDeque",
    "LinkedList",
    "BinaryHeap",
    "HashSet",
    "BTreeSet",
    "HashMap",
    "BTreeMap",
    "Rc",
    "Arc",
    "Cow",
    "PathBuf",
];

/// Bare prelude names the schema relied on, with where they were used (for the checks).
pub type PreludeUses = RefCell<Vec<(&'static str, Span)>>;

/// What a path names, if the macro knows it: the std type's name.
fn std_name(path: &Path, uses: &PreludeUses) -> Option<&'static str> {
    let last = path.segments.last()?;
    let name = last.ident.to_string();
    if path.leading_colon.is_none() && path.segments.len() == 1 {
        if let Some((prim, _, _)) = PRIMITIVES.iter().find(|(p, _, _)| *p == name) {
            return Some(prim);
        }
        let prelude = PRELUDE.iter().find(|p| **p == name)?;
        uses.borrow_mut().push((prelude, last.ident.span()));
        return Some(prelude);
    }
    let first = path.segments.first()?.ident.to_string();
    if matches!(first.as_str(), "std" | "core" | "alloc") {
        return QUALIFIED.iter().find(|q| **q == name).copied();
    }
    if first == "serde_json" && path.segments.len() == 2 && name == "Value" {
        return Some("Value");
    }
    None
}

/// The type arguments of a path's last segment (lifetimes and consts left out).
fn type_args(path: &Path) -> Vec<&Type> {
    match path.segments.last().map(|s| &s.arguments) {
        Some(PathArguments::AngleBracketed(args)) => args
            .args
            .iter()
            .filter_map(|arg| match arg {
                GenericArgument::Type(ty) => Some(ty),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// What the macro knows of a type from how it is written, classified once (as clap's `Ty`): the
/// schema, the JSON type, the `Default`, the integer bounds, the null handling and the plain
/// types whose facts kids and check code are left out all read this one classification.
#[derive(Clone, Copy)]
pub enum Ty<'a> {
    /// `bool`, the integers, the floats, `char`, `str`.
    Primitive(&'static Primitive),
    /// `String`.
    String,
    /// `std::path::PathBuf`.
    PathBuf,
    /// `serde_json::Value`.
    Value,
    /// `()`.
    Unit,
    /// `Option<T>`.
    Option(&'a Type),
    /// `Box<T>`, `Rc<T>`, `Arc<T>`, `Cow<T>`: serde reads a `T`.
    Pointer(&'a Type),
    /// `Vec<T>`, `VecDeque<T>`, `LinkedList<T>`, `BinaryHeap<T>`.
    Seq(&'a Type),
    /// `HashSet<T>`, `BTreeSet<T>`.
    Set(&'a Type),
    /// `HashMap<K, V>`, `BTreeMap<K, V>`.
    Map(&'a Type, &'a Type),
    /// `(A, B, ..)`
    Tuple(&'a syn::TypeTuple),
    /// `[T; N]`
    Array(&'a Type, &'a syn::Expr),
    /// `[T]`
    Slice(&'a Type),
    /// Any other type: its `ToolSchema` impl says what it is.
    Other,
}

impl<'a> Ty<'a> {
    /// The classification of `ty` (seen through parentheses and references).
    pub fn of(ty: &'a Type) -> Ty<'a> {
        Ty::classify(ty, None)
    }

    /// [`Ty::of`], recording the bare prelude names it relied on in `uses`.
    pub fn of_tracked(ty: &'a Type, uses: &PreludeUses) -> Ty<'a> {
        Ty::classify(ty, Some(uses))
    }

    fn classify(ty: &'a Type, uses: Option<&PreludeUses>) -> Ty<'a> {
        match ty {
            Type::Paren(inner) => Ty::classify(&inner.elem, uses),
            Type::Group(inner) => Ty::classify(&inner.elem, uses),
            Type::Reference(reference) => Ty::classify(&reference.elem, uses),
            Type::Tuple(tuple) if tuple.elems.is_empty() => Ty::Unit,
            Type::Tuple(tuple) => Ty::Tuple(tuple),
            Type::Array(array) => Ty::Array(&array.elem, &array.len),
            Type::Slice(slice) => Ty::Slice(&slice.elem),
            Type::Path(path) if path.qself.is_none() => Ty::of_path(&path.path, uses),
            _ => Ty::Other,
        }
    }

    fn of_path(path: &'a Path, uses: Option<&PreludeUses>) -> Ty<'a> {
        let throwaway = PreludeUses::default();
        let Some(name) = std_name(path, uses.unwrap_or(&throwaway)) else {
            return Ty::Other;
        };
        if let Some(primitive) = PRIMITIVES.iter().find(|(p, _, _)| *p == name) {
            return Ty::Primitive(primitive);
        }
        let args = type_args(path);
        match (name, args.first().copied(), args.get(1).copied()) {
            ("String", _, _) => Ty::String,
            ("PathBuf", _, _) => Ty::PathBuf,
            ("Value", _, _) => Ty::Value,
            ("Option", Some(inner), _) => Ty::Option(inner),
            ("Box" | "Rc" | "Arc" | "Cow", Some(inner), _) => Ty::Pointer(inner),
            ("Vec" | "VecDeque" | "LinkedList" | "BinaryHeap", Some(item), _) => Ty::Seq(item),
            ("HashSet" | "BTreeSet", Some(item), _) => Ty::Set(item),
            ("HashMap" | "BTreeMap", Some(key), Some(value)) => Ty::Map(key, value),
            _ => Ty::Other,
        }
    }

    /// The JSON type of a value: `"string"`, `"integer"`, `"number"`, `"boolean"`, `"array"`,
    /// `"object"` (maps) or `"null"`; `None` when only the type's `ToolSchema` knows.
    pub fn json_type(self) -> Option<&'static str> {
        match self {
            Ty::Primitive((_, json, _)) => Some(json),
            Ty::String | Ty::PathBuf => Some("string"),
            Ty::Unit => Some("null"),
            Ty::Seq(_) | Ty::Set(_) | Ty::Tuple(_) | Ty::Array(..) | Ty::Slice(_) => Some("array"),
            Ty::Map(..) => Some("object"),
            Ty::Option(inner) | Ty::Pointer(inner) => Ty::of(inner).json_type(),
            Ty::Value | Ty::Other => None,
        }
    }

    /// The type's `Default` as JSON text, when the macro knows it (equal to the runtime's
    /// `ToolSchema::DEFAULT`; the tests compare them).
    pub fn default_text(self) -> Option<&'static str> {
        Some(match self {
            Ty::Primitive((name, json, _)) => match (*name, *json) {
                ("bool", _) => "false",
                ("char", _) => "\"\\u0000\"",
                ("str", _) => "\"\"",
                (_, "integer") => "0",
                _ => "0.0",
            },
            Ty::String | Ty::PathBuf => "\"\"",
            Ty::Option(_) | Ty::Value | Ty::Unit => "null",
            Ty::Seq(_) | Ty::Set(_) => "[]",
            Ty::Map(..) => "{}",
            Ty::Pointer(inner) => return Ty::of(inner).default_text(),
            Ty::Tuple(_) | Ty::Array(..) | Ty::Slice(_) | Ty::Other => return None,
        })
    }

    /// The bounds of a primitive integer (`u8`: `(Some(0), Some(255))`), seen through `Option`.
    pub fn integer_bounds(self) -> Option<(Option<i128>, Option<i128>)> {
        let name = match self {
            Ty::Option(inner) => return Ty::of(inner).integer_bounds(),
            Ty::Primitive((name, "integer", _)) => *name,
            _ => return None,
        };
        Some(match name {
            "i8" => (Some(i8::MIN.into()), Some(i8::MAX.into())),
            "i16" => (Some(i16::MIN.into()), Some(i16::MAX.into())),
            "i32" => (Some(i32::MIN.into()), Some(i32::MAX.into())),
            "u8" => (Some(0), Some(u8::MAX.into())),
            "u16" => (Some(0), Some(u16::MAX.into())),
            "u32" => (Some(0), Some(u32::MAX.into())),
            "u64" | "u128" | "usize" => (Some(0), None),
            _ => (None, None),
        })
    }

    /// Whether serde reads a map key of this type from a JSON object's key as it is.
    pub fn is_string_like(self) -> bool {
        match self {
            Ty::String | Ty::Primitive(("str", _, _)) => true,
            Ty::Pointer(inner) => Ty::of(inner).is_string_like(),
            _ => false,
        }
    }
}

/// Whether `ty` is known to have no defaults inside and need no checks: a primitive, `String`, or
/// `Option`/`Vec`/`Box` of one, written with the bare names the schema also reads as the std
/// types (and the prelude checks pin). Their facts kids and check code would be dead (no work
/// for argument parsing, nothing to check) and cost compile time, so they are left out.
pub fn is_plain(ty: &syn::Type) -> bool {
    let syn::Type::Path(path) = ty else {
        return false;
    };
    let bare =
        path.qself.is_none() && path.path.leading_colon.is_none() && path.path.segments.len() == 1;
    bare && match Ty::of(ty) {
        Ty::Primitive((name, _, _)) => *name != "str",
        Ty::String => true,
        Ty::Option(inner) | Ty::Pointer(inner) | Ty::Seq(inner) => is_plain(inner),
        _ => false,
    }
}

/// The types of `ty` that [`cycle_schema`](crate::expand::schema::types::cycle_schema) refers to by
/// `$ref`.
pub fn cycle_leaves(ty: &Type) -> Vec<&Type> {
    let mut out = Vec::new();
    collect_cycle_leaves(ty, &mut out);
    out
}

fn collect_cycle_leaves<'t>(ty: &'t Type, out: &mut Vec<&'t Type>) {
    match Ty::of(ty) {
        Ty::Option(inner)
        | Ty::Pointer(inner)
        | Ty::Seq(inner)
        | Ty::Set(inner)
        | Ty::Slice(inner) => collect_cycle_leaves(inner, out),
        Ty::Array(
            inner,
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(_),
                ..
            }),
        ) => collect_cycle_leaves(inner, out),
        Ty::Map(key, value) if Ty::of(key).is_string_like() => collect_cycle_leaves(value, out),
        Ty::Tuple(tuple) => tuple
            .elems
            .iter()
            .for_each(|elem| collect_cycle_leaves(elem, out)),
        Ty::Other => out.push(ty),
        Ty::Primitive(_)
        | Ty::String
        | Ty::PathBuf
        | Ty::Value
        | Ty::Unit
        | Ty::Array(..)
        | Ty::Map(..) => {}
    }
}

/// Whether a path is the container itself (`Self`, or its bare name).
pub fn is_self_path(path: &Path, ident: &Ident) -> bool {
    path.leading_colon.is_none()
        && path.segments.len() == 1
        && (path.segments[0].ident == "Self" || path.segments[0].ident == *ident)
}

/// Whether `ty` mentions the container itself anywhere (a recursive field).
pub fn mentions_self(ty: &Type, ident: &Ident) -> bool {
    matches!(ty, Type::Path(path) if is_self_path(&path.path, ident))
        || inner_types(ty)
            .into_iter()
            .any(|inner| mentions_self(inner, ident))
}

/// Which segments of a path [`inner_types_mut`] takes the type arguments of.
#[derive(Clone, Copy)]
pub enum PathArgs {
    /// Every segment's (`a::B<T>::C<U>`: `T` and `U`).
    EverySegment,
    /// The last only: what a container named by its last name holds.
    LastSegment,
}

/// The types written directly inside `ty`: what is parenthesised, grouped or referenced, an
/// array's or slice's element, a tuple's elements, and the type arguments of a path's segments.
pub fn inner_types(ty: &Type) -> Vec<&Type> {
    match ty {
        Type::Paren(inner) => vec![&inner.elem],
        Type::Group(inner) => vec![&inner.elem],
        Type::Reference(reference) => vec![&reference.elem],
        Type::Array(array) => vec![&array.elem],
        Type::Slice(slice) => vec![&slice.elem],
        Type::Tuple(tuple) => tuple.elems.iter().collect(),
        Type::Path(path) => path
            .path
            .segments
            .iter()
            .flat_map(|segment| match &segment.arguments {
                PathArguments::AngleBracketed(args) => args.args.iter().collect(),
                _ => Vec::new(),
            })
            .filter_map(|arg| match arg {
                GenericArgument::Type(inner) => Some(inner),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// [`inner_types`], to change them; a path's type arguments those of `segments`.
pub fn inner_types_mut(ty: &mut Type, segments: PathArgs) -> Vec<&mut Type> {
    match ty {
        Type::Paren(inner) => vec![&mut inner.elem],
        Type::Group(inner) => vec![&mut inner.elem],
        Type::Reference(reference) => vec![&mut reference.elem],
        Type::Array(array) => vec![&mut array.elem],
        Type::Slice(slice) => vec![&mut slice.elem],
        Type::Tuple(tuple) => tuple.elems.iter_mut().collect(),
        Type::Path(path) => {
            let skip = match segments {
                PathArgs::EverySegment => 0,
                PathArgs::LastSegment => path.path.segments.len().saturating_sub(1),
            };
            path.path
                .segments
                .iter_mut()
                .skip(skip)
                .flat_map(|segment| match &mut segment.arguments {
                    PathArguments::AngleBracketed(args) => args.args.iter_mut().collect(),
                    _ => Vec::new(),
                })
                .filter_map(|arg| match arg {
                    GenericArgument::Type(inner) => Some(inner),
                    _ => None,
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Whether a type is written as a `Patch<T>` (any path to it): the derive then checks, in
/// const evaluation, that it is toolgen's where it is held so that its `Absent` never arrives
/// (`check_patch`). A name, not a type: a type of the same name is let through by that check.
pub fn names_patch(ty: &Type) -> bool {
    match ty {
        Type::Paren(inner) => names_patch(&inner.elem),
        Type::Group(inner) => names_patch(&inner.elem),
        Type::Path(path) => {
            path.qself.is_none()
                && path.path.segments.last().is_some_and(|last| {
                    last.ident == "Patch"
                        && matches!(last.arguments, PathArguments::AngleBracketed(_))
                })
        }
        _ => false,
    }
}

/// The JSON type of the value a field's keywords (`range`, `length`, `pattern`, `format`) are
/// about: [`Ty::json_type`], and through a type written as a `Patch<T>`, `T`'s (a `Patch`'s
/// value is checked as `T`'s; a type of yours of that name must implement `Constrained` for
/// the checks, as any other type toolgen cannot see into).
pub fn value_json_type(ty: &Type) -> Option<&'static str> {
    Ty::of(ty).json_type().or_else(|| {
        let Type::Path(path) = ty else { return None };
        if !names_patch(ty) {
            return None;
        }
        type_args(&path.path)
            .first()
            .and_then(|inner| value_json_type(inner))
    })
}

/// Whether `ty` (through pointers: `Box<T>`) is written as a `Patch<T>` ([`names_patch`]), and
/// the ones it holds by the std types whose values are never left out (the items of a sequence
/// or set, a map's values, tuple positions, an `Option`'s value): one walk, which reads each
/// name once (the names cross the compiler's proc-macro bridge).
pub fn patches(ty: &Type) -> (bool, Vec<&Type>) {
    let mut held = Vec::new();
    let own = collect_patches(ty, false, &mut held);
    (own, held)
}

/// Adds the `Patch`es held inside `ty` to `out`; whether `ty` itself is one (not `held`).
fn collect_patches<'t>(ty: &'t Type, held: bool, out: &mut Vec<&'t Type>) -> bool {
    match Ty::of(ty) {
        Ty::Pointer(inner) => return collect_patches(inner, held, out),
        Ty::Option(inner)
        | Ty::Seq(inner)
        | Ty::Set(inner)
        | Ty::Slice(inner)
        | Ty::Array(inner, _)
        | Ty::Map(_, inner) => {
            collect_patches(inner, true, out);
        }
        Ty::Tuple(tuple) => tuple.elems.iter().for_each(|elem| {
            collect_patches(elem, true, out);
        }),
        Ty::Other if names_patch(ty) => {
            if held {
                out.push(ty);
            }
            return !held;
        }
        Ty::Other | Ty::Primitive(_) | Ty::String | Ty::PathBuf | Ty::Value | Ty::Unit => {}
    }
    false
}

/// Whether serde lets the field be missing because it is an `Option` (serde_derive reads a
/// missing `Option` field as `None`). Only a visible `Option` counts: an alias is required.
pub fn is_option(ty: &Type) -> bool {
    matches!(Ty::of(ty), Ty::Option(_))
}

/// The span to blame for a field type's schema.
pub fn span_of(ty: &Type) -> Span {
    ty.span()
}

/// Whether a value of `ty` reads `null` as itself, while a missing key is an error: a
/// `serde_json::Value` (`Null`) and `()`. (An `Option` reads both as `None`.) A bare `Value` is
/// taken for `serde_json`'s too: it is what that name means in nearly every crate, and taking it
/// wrongly only keeps a `null` that serde then reports.
pub fn reads_null_as_value(ty: &syn::Type) -> bool {
    let bare_value =
        matches!(ty, syn::Type::Path(path) if path.qself.is_none() && path.path.is_ident("Value"));
    bare_value || matches!(Ty::of(ty), Ty::Value | Ty::Unit)
}
