//! Types that hold each other, without a mark: the tokens of a type's node in the graph of which
//! types hold which (`ToolSchema::EDGES`), and, for a concrete type, whether it is on a cycle.
//!
//! That is a const, `__TOOLGEN_ON_CYCLE`, that walks the graph in const evaluation from each
//! type it holds (one call each, spanned at the type). The type's own consts choose by it,
//! through the alias `__ToolgenCutOf` (`CutOf<Self, __TOOLGEN_ON_CYCLE>`): on a cycle, a `$ref`
//! to its entry, wherever it is held (see the runtime's `cycles` module). The types it holds are
//! named as they are. (Choosing for each held type whether it leads back, with a const and a
//! wrapper type each, cost the deep family of `benches/compile_time.sh` 2.7% more instructions
//! to build.)

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{GenericArgument, PathArguments, Type};

use crate::ast::{Container, Data, Shape};
use crate::expand::input_type;
use crate::schema::types::{Ty, mentions_self, span_of};

/// The types of the user's that a type holds, each once: the leaves (what is left of a field's
/// type once the standard containers are taken off) of its fields and variant contents, but
/// for those of fields marked `#[tool(recursive)]` (already cut) and those that hold the type
/// itself (a recursive type refers to itself by `$ref` already).
pub fn held_types(container: &Container<'_>) -> Vec<Type> {
    let mut types: Vec<&Type> = Vec::new();
    // A type serde reads as another (`from`, `transparent`) holds what that one holds.
    let delegate = crate::schema::delegate_type(container);
    match &container.data {
        _ if delegate.is_some() => types.extend(delegate),
        Data::Named(fields) => types.extend(
            fields
                .iter()
                .filter(|f| !f.skip && !f.tool.recursive.is_present())
                .map(input_type),
        ),
        Data::Tuple(fields) => types.extend(fields.iter().map(|f| &f.ty)),
        Data::Enum(variants) => {
            for variant in variants.iter().filter(|v| !v.skip) {
                match &variant.shape {
                    Shape::Unit => {}
                    Shape::Newtype(ty) => types.push(ty),
                    Shape::Tuple(items) => types.extend(items.iter().copied()),
                    Shape::Struct(fields) => types.extend(
                        fields
                            .iter()
                            .filter(|f| !f.skip && !f.tool.recursive.is_present())
                            .map(input_type),
                    ),
                }
            }
        }
        Data::Unit | Data::Union => {}
    }
    let mut leaves: Vec<Type> = Vec::new();
    for ty in types {
        visit_leaves(&mut ty.clone(), &mut |leaf| {
            if !mentions_self(leaf, container.ident) && !leaves.contains(leaf) {
                leaves.push(leaf.clone());
            }
        });
    }
    leaves
}

/// The standard containers known by their last name, even where the macro cannot tell that the
/// name is the standard one (`use std::collections::BTreeMap;` then `BTreeMap<K, V>`): which of
/// their type arguments they hold. toolgen's `ToolSchema` impls of all of them take any
/// `ToolSchema` there, so a held type in that place may be replaced by a `$ref` to it.
const HOLDERS: &[(&str, usize)] = &[
    ("Option", 0),
    ("Box", 0),
    ("Rc", 0),
    ("Arc", 0),
    ("Vec", 0),
    ("VecDeque", 0),
    ("LinkedList", 0),
    ("HashSet", 0),
    ("BTreeSet", 0),
    ("IndexSet", 0),
    ("HashMap", 1),
    ("BTreeMap", 1),
    ("IndexMap", 1),
];

/// The type arguments of a path type's last segment.
fn type_args_mut(ty: &mut Type) -> Vec<&mut Type> {
    let Type::Path(path) = ty else {
        return Vec::new();
    };
    match path.path.segments.last_mut().map(|s| &mut s.arguments) {
        Some(PathArguments::AngleBracketed(args)) => args
            .args
            .iter_mut()
            .filter_map(|arg| match arg {
                GenericArgument::Type(inner) => Some(inner),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Calls `f` on each type inside `ty` that is neither a standard container nor a primitive
/// (what a field holds, once the containers are taken off): the types whose schemas only their
/// `ToolSchema` impls know.
fn visit_leaves(ty: &mut Type, f: &mut dyn FnMut(&mut Type)) {
    let held = match Ty::of(ty) {
        Ty::Primitive(_) | Ty::String | Ty::PathBuf | Ty::Value | Ty::Unit => return,
        // A map whose keys are not strings has no schema (its error is the map's own).
        Ty::Map(key, _) if !Ty::of(key).is_string_like() => return,
        Ty::Other => {
            let place = match ty {
                Type::Path(path) if path.qself.is_none() => path
                    .path
                    .segments
                    .last()
                    .and_then(|segment| HOLDERS.iter().find(|(name, _)| segment.ident == name))
                    .map(|(_, place)| *place),
                _ => None,
            };
            match place {
                Some(1)
                    if !type_args_mut(ty)
                        .first()
                        .is_some_and(|key| Ty::of(key).is_string_like()) =>
                {
                    return;
                }
                Some(place) => Some(place),
                None => {
                    f(ty);
                    return;
                }
            }
        }
        _ => None,
    };
    match ty {
        Type::Paren(inner) => visit_leaves(&mut inner.elem, f),
        Type::Group(inner) => visit_leaves(&mut inner.elem, f),
        Type::Reference(reference) => visit_leaves(&mut reference.elem, f),
        Type::Array(array) => visit_leaves(&mut array.elem, f),
        Type::Slice(slice) => visit_leaves(&mut slice.elem, f),
        Type::Tuple(tuple) => tuple
            .elems
            .iter_mut()
            .for_each(|elem| visit_leaves(elem, f)),
        Type::Path(_) => {
            // A container named by its last name holds its argument at `held`; `Option`,
            // `Box`, `Vec`, sets and maps (the value, the last argument) as the macro reads them.
            let mut args = type_args_mut(ty);
            let index = held.unwrap_or(args.len().saturating_sub(1));
            if let Some(inner) = args.get_mut(index) {
                visit_leaves(inner, f);
            } else if held.is_some() {
                f(ty);
            }
        }
        _ => {}
    }
}

/// The string that names a concrete type in the graph: `module::Name`, and where it is defined
/// (two types of one name in one module are each inside a function of their own).
fn type_id(container: &Container<'_>) -> TokenStream {
    let name = container.ident.to_string();
    quote! {
        ::core::concat!(
            ::core::module_path!(), "::", #name, "@", ::core::line!(), ":", ::core::column!()
        )
    }
}

/// `const EDGES` for the container, and the `static`s it points to: nothing for a type that
/// holds none of the user's types, and for a tool's input (a root, which nothing holds).
///
/// A concrete type's node is a `static`, and so is what a `$ref` to it needs (its definitions
/// and facts), filled only when it is on a cycle. A generic type's node is a
/// const of its own (a `static` cannot be generic), which a walk never looks for: it only
/// passes through it.
pub fn edges(container: &Container<'_>, held: &[Type]) -> (TokenStream, TokenStream) {
    if held.is_empty() || container.tool.is_some() {
        return (TokenStream::new(), TokenStream::new());
    }
    let kids = held
        .iter()
        .map(|ty| quote_spanned!(span_of(ty)=> <#ty as ::toolgen::__private::ToolSchema>::EDGES));
    if !container.original.generics.params.is_empty() {
        let item = quote! {
            const EDGES: ::core::option::Option<::toolgen::__private::EdgesAt> =
                ::core::option::Option::Some(::toolgen::__private::EdgesAt::of(
                    &::toolgen::__private::Edges::of("", &[#(#kids),*]),
                ));
        };
        return (TokenStream::new(), item);
    }
    let id = type_id(container);
    let ident = container.ident;
    // On a cycle when a type it holds leads back to it: one walk from each, in one const, each
    // spanned at its type (a walk that meets too many types stops the build there).
    let walks = held.iter().map(|ty| {
        quote_spanned! {span_of(ty)=>
            ::toolgen::__private::reaches(
                <#ty as ::toolgen::__private::ToolSchema>::EDGES,
                __TOOLGEN_EDGES.id,
            )
        }
    });
    let on_cycle = quote!(#(#walks)||*);
    let statics = quote! {
        static __TOOLGEN_EDGES: ::toolgen::__private::Edges =
            ::toolgen::__private::Edges::concrete(#id, &[#(#kids),*], &__TOOLGEN_CUT);
        const __TOOLGEN_ON_CYCLE: bool = #on_cycle;
        type __ToolgenCutOf = ::toolgen::__private::CutOf<#ident, __TOOLGEN_ON_CYCLE>;
        static __TOOLGEN_CUT: ::toolgen::__private::Cut = __ToolgenCutOf::CUT;
    };
    let item = quote! {
        const EDGES: ::core::option::Option<::toolgen::__private::EdgesAt> =
            ::core::option::Option::Some(::toolgen::__private::EdgesAt::of(&__TOOLGEN_EDGES));
    };
    (statics, item)
}
