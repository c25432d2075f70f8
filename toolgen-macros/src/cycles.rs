//! Types that hold each other, without a mark: the tokens of a type's node in the graph of which
//! types hold which (`ToolSchema::EDGES`), and, for a concrete type, the choice for each type it
//! holds whether to refer to it by `$ref` (it leads back) or to hold it as it is.
//!
//! The choice is a const, `__TOOLGEN_CUT_<k>`, that walks the graph in const evaluation; the
//! consts that describe the type's schema (its rope, definitions, facts, `null` tree and checks)
//! read the held type `L` as `Held<L, __TOOLGEN_CUT_<k>>` (see the runtime's `cycles` module).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::{GenericArgument, PathArguments, Type};

use crate::ast::{Container, Data, Shape};
use crate::expand::input_type;
use crate::schema::types::{Ty, cycle_leaves, mentions_self, span_of};

/// The types of the user's that a type holds, each once: the leaves (what is left of a field's
/// type once the standard containers are taken off) of its fields and variant contents, but
/// for those of fields marked `#[tool(recursive)]` (already cut) and those that hold the type
/// itself (a recursive type refers to itself by `$ref` already).
pub fn held_types(container: &Container<'_>) -> Vec<Type> {
    let mut types: Vec<&Type> = Vec::new();
    match &container.data {
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
        for leaf in cycle_leaves(ty) {
            if !mentions_self(leaf, container.ident) && !leaves.contains(leaf) {
                leaves.push(leaf.clone());
            }
        }
    }
    leaves
}

/// The `module::Name` string that names a concrete type in the graph.
fn type_id(container: &Container<'_>) -> TokenStream {
    let name = container.ident.to_string();
    quote!(::core::concat!(::core::module_path!(), "::", #name))
}

/// `const EDGES` for the container, and the `static` it points to: nothing for a type that
/// holds none of the user's types, and for a tool's input (a root, which nothing holds).
/// A generic type's node is a const of its own (a `static` cannot be generic), which a walk
/// never looks for: it only passes through it.
pub fn edges(container: &Container<'_>, held: &[Type]) -> (TokenStream, TokenStream) {
    if held.is_empty() || container.tool.is_some() {
        return (TokenStream::new(), TokenStream::new());
    }
    let kids = held
        .iter()
        .map(|ty| quote_spanned!(span_of(ty)=> <#ty as ::toolgen::__private::ToolSchema>::EDGES));
    if container.original.generics.params.is_empty() {
        let id = type_id(container);
        let statics = quote! {
            static __TOOLGEN_EDGES: ::toolgen::__private::Edges = ::toolgen::__private::Edges {
                id: #id,
                kids: &[#(#kids),*],
            };
        };
        let item = quote! {
            const EDGES: ::core::option::Option<::toolgen::__private::EdgesAt> =
                ::core::option::Option::Some(::toolgen::__private::EdgesAt::of(&__TOOLGEN_EDGES));
        };
        (statics, item)
    } else {
        let item = quote! {
            const EDGES: ::core::option::Option<::toolgen::__private::EdgesAt> =
                ::core::option::Option::Some(::toolgen::__private::EdgesAt::of(
                    &::toolgen::__private::Edges { id: "", kids: &[#(#kids),*] },
                ));
        };
        (TokenStream::new(), item)
    }
}

/// The `CutTarget` impl of a concrete type that holds types of the user's: where a field that
/// leads back here finds its definitions and facts, in `static`s (a const would be part of the
/// cycle).
pub fn cut_target(container: &Container<'_>, held: &[Type]) -> TokenStream {
    if held.is_empty() || container.tool.is_some() || !container.original.generics.params.is_empty()
    {
        return TokenStream::new();
    }
    let ident = container.ident;
    quote! {
        static __TOOLGEN_ENTRY: ::toolgen::__private::Defs = ::toolgen::__private::Defs::Seq(&[
            <#ident as ::toolgen::__private::ToolSchema>::DEFS,
            ::toolgen::__private::Defs::Def(
                &<#ident as ::toolgen::__private::Cyclic>::ID,
                &<#ident as ::toolgen::__private::ToolSchema>::SCHEMA,
            ),
        ]);
        static __TOOLGEN_FACTS: ::toolgen::__private::Target = ::toolgen::__private::Target {
            id: &<#ident as ::toolgen::__private::Cyclic>::ID,
            facts: <#ident as ::toolgen::__private::ToolSchema>::FACTS,
        };
        #[automatically_derived]
        impl ::toolgen::__private::CutTarget for #ident {
            const ENTRY: ::toolgen::__private::DefsAt =
                ::toolgen::__private::DefsAt::of(&__TOOLGEN_ENTRY);
            const TARGET: ::toolgen::__private::TargetAt =
                ::toolgen::__private::TargetAt::of(&__TOOLGEN_FACTS);
        }
    }
}

/// The held types a concrete type decides about: each may lead back to it, and is then referred
/// to by `$ref`. Empty for a generic type (its consts cannot be chosen between per type
/// argument) and for a tool's input (a root).
#[derive(Default)]
pub struct Cuts {
    /// The held types, by the index of their `__TOOLGEN_CUT_<k>` const.
    types: Vec<Type>,
}

impl Cuts {
    /// The container's choices: one for each concrete held type (a generic one, such as
    /// `Page<T>`, has no `static` to refer to, and is held as it is).
    pub fn of(container: &Container<'_>, held: &[Type]) -> Cuts {
        if container.tool.is_some() || !container.original.generics.params.is_empty() {
            return Cuts::default();
        }
        Cuts {
            types: held.iter().filter(|ty| is_concrete(ty)).cloned().collect(),
        }
    }

    /// The `__TOOLGEN_CUT_<k>` consts.
    pub fn consts(&self, container: &Container<'_>) -> TokenStream {
        let id = type_id(container);
        let consts = self.types.iter().enumerate().map(|(k, ty)| {
            let name = format_ident!("__TOOLGEN_CUT_{}", k);
            quote_spanned! {span_of(ty)=>
                const #name: bool = ::toolgen::__private::reaches(
                    <#ty as ::toolgen::__private::ToolSchema>::EDGES,
                    #id,
                );
            }
        });
        quote!(#(#consts)*)
    }

    /// `ty` with each held type that the container decides about replaced by
    /// `Held<type, __TOOLGEN_CUT_<k>>`, for the consts that describe the schema.
    pub fn apply(&self, ty: &Type) -> Type {
        let mut ty = ty.clone();
        if !self.types.is_empty() {
            self.replace(&mut ty);
        }
        ty
    }

    fn replace(&self, ty: &mut Type) {
        match Ty::of(ty) {
            Ty::Other => {
                if let Some(k) = self.types.iter().position(|held| held == ty) {
                    let name = format_ident!("__TOOLGEN_CUT_{}", k);
                    let span = span_of(ty);
                    let held = ty.clone();
                    *ty =
                        syn::parse_quote_spanned!(span=> ::toolgen::__private::Held<#held, #name>);
                }
                return;
            }
            Ty::Primitive(_) | Ty::String | Ty::PathBuf | Ty::Value | Ty::Unit => return,
            _ => {}
        }
        match ty {
            Type::Paren(inner) => self.replace(&mut inner.elem),
            Type::Group(inner) => self.replace(&mut inner.elem),
            Type::Reference(reference) => self.replace(&mut reference.elem),
            Type::Array(array) => self.replace(&mut array.elem),
            Type::Slice(slice) => self.replace(&mut slice.elem),
            Type::Tuple(tuple) => tuple.elems.iter_mut().for_each(|elem| self.replace(elem)),
            Type::Path(path) => {
                if let Some(PathArguments::AngleBracketed(args)) =
                    path.path.segments.last_mut().map(|s| &mut s.arguments)
                {
                    for arg in &mut args.args {
                        if let GenericArgument::Type(inner) = arg {
                            self.replace(inner);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether `ty` names a type without type arguments (a generic type's instance has no `static`
/// of its own).
fn is_concrete(ty: &Type) -> bool {
    match ty {
        Type::Path(path) => {
            path.qself.is_none()
                && path
                    .path
                    .segments
                    .iter()
                    .all(|segment| segment.arguments.is_none())
        }
        Type::Paren(inner) => is_concrete(&inner.elem),
        Type::Group(inner) => is_concrete(&inner.elem),
        _ => false,
    }
}
