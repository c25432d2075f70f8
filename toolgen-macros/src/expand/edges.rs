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
use syn::Type;

use crate::shape::Container;
use crate::shape::ty::span_of;

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
