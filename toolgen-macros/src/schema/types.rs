//! Rust types to schema nodes. Standard library types the macro recognises by name are written
//! out as literal text (the cheap path for const evaluation); every other type goes through its
//! `ToolSchema` impl.
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

use super::{Context, Node};

/// Prelude names whose bare use is recognised, with the path the check compares them to.
pub const PRELUDE: &[(&str, &str)] = &[
    ("String", "::std::string::String"),
    ("Option", "::core::option::Option<()>"),
    ("Vec", "::std::vec::Vec<()>"),
    ("Box", "::std::boxed::Box<()>"),
];

/// Primitive types: `(name, JSON type, tail)`. Kept equal to the runtime's impls by the tests.
/// A primitive's name, its JSON type and the keywords that bound it (`minimum`/`maximum` of an
/// integer, the one character of a `char`), as key and JSON value.
type Primitive = (
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
        let (prelude, _) = PRELUDE.iter().find(|(p, _)| *p == name)?;
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

fn array_of(item: Node, extra: &str) -> Node {
    Node::typed(
        "array",
        Node::Seq(vec![
            Node::text(",\"items\":"),
            item,
            Node::text(format!("{extra}}}")),
        ]),
    )
}

/// `{"type":"array","prefixItems":[..],"minItems":n,"maxItems":n}`
pub fn tuple(items: Vec<Node>) -> Node {
    let n = items.len();
    let mut tail = vec![Node::text(",\"prefixItems\":[")];
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            tail.push(Node::text(","));
        }
        tail.push(item);
    }
    tail.push(Node::text(format!("],\"minItems\":{n},\"maxItems\":{n}}}")));
    Node::typed("array", Node::Seq(tail))
}

/// The schema of a field's type.
pub fn schema_for_type(cx: &Context<'_>, ty: &Type) -> Node {
    match ty {
        Type::Paren(inner) => schema_for_type(cx, &inner.elem),
        Type::Group(inner) => schema_for_type(cx, &inner.elem),
        Type::Reference(reference) => schema_for_type(cx, &reference.elem),
        Type::Tuple(tuple_ty) if tuple_ty.elems.is_empty() => Node::text(r#"{"type":"null"}"#),
        Type::Tuple(tuple_ty) => tuple(
            tuple_ty
                .elems
                .iter()
                .map(|elem| schema_for_type(cx, elem))
                .collect(),
        ),
        Type::Array(array) => match &array.len {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(n),
                ..
            }) => {
                let n = n.base10_digits();
                array_of(
                    schema_for_type(cx, &array.elem),
                    &format!(",\"minItems\":{n},\"maxItems\":{n}"),
                )
            }
            _ => Node::Trait(Box::new(ty.clone())),
        },
        Type::Slice(slice) => array_of(schema_for_type(cx, &slice.elem), ""),
        Type::Path(path) if path.qself.is_none() => {
            if let Some(self_ty) = &cx.self_ref
                && is_self_path(&path.path, cx.container.ident)
            {
                return Node::SelfRef(Box::new(self_ty.clone()));
            }
            schema_for_path(cx, ty, &path.path).unwrap_or_else(|| Node::Trait(Box::new(ty.clone())))
        }
        _ => Node::Trait(Box::new(ty.clone())),
    }
}

fn schema_for_path(cx: &Context<'_>, ty: &Type, path: &Path) -> Option<Node> {
    let name = std_name(path, &cx.prelude_uses)?;
    if let Some((_, json_type, keywords)) = PRIMITIVES.iter().find(|(p, _, _)| *p == name) {
        let keywords = keywords
            .iter()
            .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
            .collect();
        return Some(Node::typed(json_type, Node::Keywords(keywords)));
    }
    let args = type_args(path);
    let first = || args.first().map(|arg| schema_for_type(cx, arg));
    let node = match name {
        "String" | "PathBuf" => Node::typed("string", Node::Keywords(Vec::new())),
        "Value" => Node::text("{}"),
        "Option" => Node::Nullable(Box::new(first()?)),
        "Box" | "Rc" | "Arc" | "Cow" => first()?,
        "Vec" | "VecDeque" | "LinkedList" | "BinaryHeap" => array_of(first()?, ""),
        "HashSet" | "BTreeSet" => array_of(first()?, ",\"uniqueItems\":true"),
        "HashMap" | "BTreeMap" => {
            let (key, value) = (args.first()?, args.get(1)?);
            if !is_string_like(key) {
                // Let the `MapKey` bound of the trait impl explain what is wrong with the key.
                return Some(Node::Trait(Box::new(ty.clone())));
            }
            Node::typed(
                "object",
                Node::Seq(vec![
                    Node::text(",\"additionalProperties\":"),
                    schema_for_type(cx, value),
                    Node::text("}"),
                ]),
            )
        }
        _ => return None,
    };
    Some(node)
}

/// Whether the map key type is one serde reads from a JSON object key as it is.
fn is_string_like(ty: &Type) -> bool {
    match ty {
        Type::Reference(reference) => is_string_like(&reference.elem),
        Type::Paren(inner) => is_string_like(&inner.elem),
        Type::Path(path) if path.qself.is_none() => {
            let Some(last) = path.path.segments.last() else {
                return false;
            };
            match last.ident.to_string().as_str() {
                "String" | "str" => true,
                "Box" | "Rc" | "Arc" | "Cow" => type_args(&path.path)
                    .first()
                    .is_some_and(|arg| is_string_like(arg)),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Whether a path is the container itself (`Self`, or its bare name).
fn is_self_path(path: &Path, ident: &Ident) -> bool {
    path.leading_colon.is_none()
        && path.segments.len() == 1
        && (path.segments[0].ident == "Self" || path.segments[0].ident == *ident)
}

/// Whether `ty` mentions the container itself anywhere (a recursive field).
pub fn mentions_self(ty: &Type, ident: &Ident) -> bool {
    match ty {
        Type::Paren(inner) => mentions_self(&inner.elem, ident),
        Type::Group(inner) => mentions_self(&inner.elem, ident),
        Type::Reference(reference) => mentions_self(&reference.elem, ident),
        Type::Array(array) => mentions_self(&array.elem, ident),
        Type::Slice(slice) => mentions_self(&slice.elem, ident),
        Type::Tuple(tuple_ty) => tuple_ty.elems.iter().any(|e| mentions_self(e, ident)),
        Type::Path(path) => {
            is_self_path(&path.path, ident)
                || path
                    .path
                    .segments
                    .iter()
                    .any(|segment| match &segment.arguments {
                        PathArguments::AngleBracketed(args) => {
                            args.args.iter().any(|arg| match arg {
                                GenericArgument::Type(ty) => mentions_self(ty, ident),
                                _ => false,
                            })
                        }
                        _ => false,
                    })
        }
        _ => false,
    }
}

/// Whether serde lets the field be missing because it is an `Option` (serde_derive reads a
/// missing `Option` field as `None`). Only a visible `Option` counts: an alias is required.
pub fn is_option(ty: &Type) -> bool {
    match ty {
        Type::Paren(inner) => is_option(&inner.elem),
        Type::Group(inner) => is_option(&inner.elem),
        Type::Path(path) if path.qself.is_none() => {
            let segments = &path.path.segments;
            let Some(last) = segments.last() else {
                return false;
            };
            let qualified = segments.len() == 1
                || matches!(
                    segments[0].ident.to_string().as_str(),
                    "std" | "core" | "alloc"
                );
            last.ident == "Option" && qualified
        }
        _ => false,
    }
}

/// The span to blame for a field type's schema.
pub fn span_of(ty: &Type) -> Span {
    ty.span()
}

/// `"default":<json>` for a field with a plain `#[serde(default)]`: the type's `Default` as
/// text when the macro knows it (equal to the runtime's `ToolSchema::DEFAULT`; the tests compare
/// them), else a [`Node::DefaultOf`] that const evaluation resolves.
pub fn default_of(ty: &Type) -> Node {
    match known_default(ty) {
        Some(text) => Node::text(format!("\"default\":{text}")),
        None => Node::DefaultOf(Box::new(ty.clone())),
    }
}

fn known_default(ty: &Type) -> Option<&'static str> {
    let Type::Path(path) = ty else {
        return match ty {
            Type::Paren(inner) => known_default(&inner.elem),
            Type::Group(inner) => known_default(&inner.elem),
            Type::Tuple(tuple_ty) if tuple_ty.elems.is_empty() => Some("null"),
            _ => None,
        };
    };
    if path.qself.is_some() {
        return None;
    }
    let name = std_name(&path.path, &PreludeUses::default())?;
    Some(match name {
        "bool" => "false",
        "f32" | "f64" => "0.0",
        "char" => "\"\\u0000\"",
        "str" | "String" | "PathBuf" => "\"\"",
        "Option" | "Value" => "null",
        "Vec" | "VecDeque" | "LinkedList" | "BinaryHeap" | "HashSet" | "BTreeSet" => "[]",
        "HashMap" | "BTreeMap" => "{}",
        "Box" | "Rc" | "Arc" | "Cow" => {
            return type_args(&path.path).first().and_then(|t| known_default(t));
        }
        _ if PRIMITIVES
            .iter()
            .any(|(p, ty, _)| *p == name && *ty == "integer") =>
        {
            "0"
        }
        _ => return None,
    })
}

/// The JSON type of a field's type, when the macro knows it by name: `"string"`, `"integer"`,
/// `"number"`, `"boolean"`, `"array"`, `"object"` (maps) or `"null"`; `None` for other types.
pub fn known_json_type(ty: &Type) -> Option<&'static str> {
    match ty {
        Type::Paren(inner) => known_json_type(&inner.elem),
        Type::Group(inner) => known_json_type(&inner.elem),
        Type::Reference(reference) => known_json_type(&reference.elem),
        Type::Tuple(tuple_ty) if tuple_ty.elems.is_empty() => Some("null"),
        Type::Tuple(_) | Type::Array(_) | Type::Slice(_) => Some("array"),
        Type::Path(path) if path.qself.is_none() => {
            let name = std_name(&path.path, &PreludeUses::default())?;
            if let Some((_, json, _)) = PRIMITIVES.iter().find(|(p, _, _)| *p == name) {
                return Some(json);
            }
            match name {
                "String" | "PathBuf" => Some("string"),
                "Vec" | "VecDeque" | "LinkedList" | "BinaryHeap" | "HashSet" | "BTreeSet" => {
                    Some("array")
                }
                "HashMap" | "BTreeMap" => Some("object"),
                "Option" | "Box" | "Rc" | "Arc" | "Cow" => type_args(&path.path)
                    .first()
                    .and_then(|t| known_json_type(t)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The bounds of a primitive integer type (`u8`: `(Some(0), Some(255))`), seen through `Option`.
pub fn integer_bounds(ty: &Type) -> Option<(Option<i128>, Option<i128>)> {
    let Type::Path(path) = ty else { return None };
    let name = std_name(&path.path, &PreludeUses::default())?;
    if name == "Option" {
        return type_args(&path.path)
            .first()
            .and_then(|t| integer_bounds(t));
    }
    Some(match name {
        "i8" => (Some(i8::MIN.into()), Some(i8::MAX.into())),
        "i16" => (Some(i16::MIN.into()), Some(i16::MAX.into())),
        "i32" => (Some(i32::MIN.into()), Some(i32::MAX.into())),
        "u8" => (Some(0), Some(u8::MAX.into())),
        "u16" => (Some(0), Some(u16::MAX.into())),
        "u32" => (Some(0), Some(u32::MAX.into())),
        "u64" | "u128" | "usize" => (Some(0), None),
        "i64" | "i128" | "isize" => (None, None),
        _ => return None,
    })
}
