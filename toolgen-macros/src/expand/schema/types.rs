//! Rust types to schema nodes. Standard library types the macro recognises by name are written
//! out as literal text (the cheap path for const evaluation); every other type goes through its
//! `ToolSchema` impl.
//! (Which types it recognises, and how: [`crate::shape::ty`].)

use proc_macro2::TokenStream;
use quote::quote;
use syn::Type;

use super::{Context, Node};
use crate::shape::ty::{PathArgs, Ty, inner_types_mut, is_self_path};

/// The path a prelude name's use is checked against (as tokens: parsing a string into them
/// costs the derive more than writing them).
pub fn prelude_path(name: &str) -> Option<TokenStream> {
    Some(match name {
        "String" => quote!(::std::string::String),
        "Option" => quote!(::core::option::Option<()>),
        "Vec" => quote!(::std::vec::Vec<()>),
        "Box" => quote!(::std::boxed::Box<()>),
        _ => return None,
    })
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
    schema_in(cx, ty, false)
}

/// The schema of the type of a field marked `#[tool(recursive)]`: the types only their
/// `ToolSchema` impls know are referred to by `$ref` ([`Node::Cycle`]).
pub fn cycle_schema(cx: &Context<'_>, ty: &Type) -> Node {
    schema_in(cx, ty, true)
}

/// `ty` with the types [`cycle_schema`] refers to by `$ref` replaced by `Cycle<marker>`, whose
/// facts point to theirs (their own would be a cycle). Each such type is one of `targets`, added
/// there when it is new, and its marker is [`target_marker`] of its index.
pub fn cut_cycles(ty: &Type, targets: &mut Vec<Type>) -> Type {
    let mut ty = ty.clone();
    cut_in(&mut ty, targets);
    ty
}

/// The type that names the `index`th target of a container's `#[tool(recursive)]` fields.
pub fn target_marker(index: usize) -> syn::Ident {
    quote::format_ident!("__TOOLGEN_LEADS_TO_{}", index)
}

fn cut_in(ty: &mut Type, targets: &mut Vec<Type>) {
    match Ty::of(ty) {
        Ty::Other => {
            let index = match targets.iter().position(|target| target == ty) {
                Some(index) => index,
                None => {
                    targets.push(ty.clone());
                    targets.len() - 1
                }
            };
            let marker = target_marker(index);
            *ty = syn::parse_quote!(::toolgen::__private::Cycle<#marker>);
            return;
        }
        Ty::Primitive(_) | Ty::String | Ty::PathBuf | Ty::Value | Ty::Unit => return,
        _ => {}
    }
    for inner in inner_types_mut(ty, PathArgs::LastSegment) {
        cut_in(inner, targets);
    }
}

fn schema_in(cx: &Context<'_>, ty: &Type, cycle: bool) -> Node {
    if let Type::Path(path) = unwrapped(ty)
        && let Some(self_ty) = &cx.self_ref
        && path.qself.is_none()
        && is_self_path(&path.path, cx.container.ident)
    {
        return Node::SelfRef(Box::new(self_ty.clone()));
    }
    let trait_node = || Node::Trait(Box::new(ty.clone()));
    let other = || {
        if cycle {
            Node::Cycle(Box::new(ty.clone()))
        } else {
            trait_node()
        }
    };
    match Ty::of_tracked(ty, &cx.prelude_uses) {
        Ty::Primitive((_, json_type, keywords)) => {
            let keywords = keywords
                .iter()
                .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
                .collect();
            Node::typed(json_type, Node::Keywords(keywords))
        }
        Ty::String | Ty::PathBuf => Node::typed("string", Node::Keywords(Vec::new())),
        Ty::Value => Node::text("{}"),
        Ty::Unit => Node::text(r#"{"type":"null"}"#),
        Ty::Option(inner) => Node::Nullable(Box::new(schema_in(cx, inner, cycle))),
        Ty::Pointer(inner) => schema_in(cx, inner, cycle),
        Ty::Seq(item) | Ty::Slice(item) => array_of(schema_in(cx, item, cycle), ""),
        Ty::Set(item) => array_of(schema_in(cx, item, cycle), ",\"uniqueItems\":true"),
        // Let the `MapKey` bound of the trait impl explain what is wrong with the key.
        Ty::Map(key, _) if !Ty::of(key).is_string_like() => trait_node(),
        Ty::Map(_, value) => Node::typed(
            "object",
            Node::Seq(vec![
                Node::text(",\"additionalProperties\":"),
                schema_in(cx, value, cycle),
                Node::text("}"),
            ]),
        ),
        Ty::Tuple(tuple_ty) => tuple(
            tuple_ty
                .elems
                .iter()
                .map(|elem| schema_in(cx, elem, cycle))
                .collect(),
        ),
        Ty::Array(
            item,
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(n),
                ..
            }),
        ) => {
            let n = n.base10_digits();
            array_of(
                schema_in(cx, item, cycle),
                &format!(",\"minItems\":{n},\"maxItems\":{n}"),
            )
        }
        Ty::Array(..) => trait_node(),
        Ty::Other => other(),
    }
}

/// `ty` without the parentheses, invisible groups and references around it.
fn unwrapped(ty: &Type) -> &Type {
    match ty {
        Type::Paren(inner) => unwrapped(&inner.elem),
        Type::Group(inner) => unwrapped(&inner.elem),
        Type::Reference(reference) => unwrapped(&reference.elem),
        _ => ty,
    }
}

/// `"default":<json>` for a field with a plain `#[serde(default)]`: the type's `Default` as
/// text when the macro knows it (equal to the runtime's `ToolSchema::DEFAULT`; the tests compare
/// them), else a [`Node::DefaultOf`] that const evaluation resolves.
pub fn default_of(ty: &Type) -> Node {
    match Ty::of(ty).default_text() {
        Some(text) => Node::text(format!("\"default\":{text}")),
        None => Node::DefaultOf(Box::new(ty.clone())),
    }
}
