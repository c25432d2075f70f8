//! Tokens: the `ToolSchema` impl (and, for `#[derive(Tool)]`, the `Tool` impl with the flattened
//! const schema), or, when the input has errors, those errors plus a stub impl.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::DeriveInput;

use crate::ast::{Container, Data, Derive};
use crate::check;
use crate::fallback;
use crate::schema::types::{PRELUDE, mentions_self, span_of};
use crate::schema::{Context, Node, json, schema_for_container};

/// Expands one derive.
pub fn derive(input: &DeriveInput, derive: Derive) -> TokenStream {
    let mut errors = darling::Error::accumulator();
    let container = Container::from_ast(input, derive, &mut errors);
    check::check(&container, &mut errors);
    match errors.finish() {
        Ok(()) => expand(&container),
        Err(errors) => {
            let stub = fallback::stub(input, derive);
            let errors = errors.write_errors();
            quote!(#errors #stub)
        }
    }
}

fn is_recursive(container: &Container<'_>) -> bool {
    match &container.data {
        Data::Named(fields) => fields
            .iter()
            .any(|f| !f.skip && mentions_self(f.ty, container.ident)),
        Data::Tuple(fields) => fields.iter().any(|f| mentions_self(&f.ty, container.ident)),
        _ => false,
    }
}

fn expand(container: &Container<'_>) -> TokenStream {
    let recursive = is_recursive(container);
    let def_name = container.def_name();
    let cx = Context {
        container,
        self_ref: recursive
            .then(|| format!("{{\"$ref\":\"#/$defs/{}\"}}", json::escape(&def_name))),
        prelude_uses: Default::default(),
    };
    let body = schema_for_container(&cx);
    let body_rope = rope(&body);
    let description = container.description.as_deref().map(json::escape);
    let schema = match (&description, recursive) {
        (_, true) => rope(&Node::text(cx.self_ref.clone().unwrap_or_default())),
        (Some(text), false) => quote!(::toolgen::__private::Rope::Described(&#body_rope, #text)),
        (None, false) => body_rope.clone(),
    };
    let defs = defs(
        container,
        &body,
        recursive,
        &def_name,
        &description,
        &body_rope,
    );

    let ident = container.ident;
    let mut generics = container.original.generics.clone();
    let type_params: Vec<_> = generics.type_params().map(|p| p.ident.clone()).collect();
    let where_clause = generics.make_where_clause();
    for param in &type_params {
        where_clause
            .predicates
            .push(syn::parse_quote!(#param: ::toolgen::__private::ToolSchema));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let checks = prelude_checks(&cx);

    let tool = container.tool.as_ref().map(|tool| {
        let name = &tool.name;
        let tool_description = container.description.clone().unwrap_or_default();
        let strict = tool.strict;
        quote! {
            const __TOOLGEN_ROOT: ::toolgen::__private::Rope = #body_rope;
            const __TOOLGEN_DEFS: ::toolgen::__private::Defs =
                <#ident as ::toolgen::__private::ToolSchema>::DEFS;
            const __TOOLGEN_LEN: usize =
                ::toolgen::__private::root_len(&__TOOLGEN_ROOT, &__TOOLGEN_DEFS);
            const __TOOLGEN_TEXT: [u8; __TOOLGEN_LEN] =
                ::toolgen::__private::flatten_root::<__TOOLGEN_LEN>(&__TOOLGEN_ROOT, &__TOOLGEN_DEFS);

            #[automatically_derived]
            impl ::toolgen::__private::Tool for #ident {
                const NAME: &'static str = #name;
                const DESCRIPTION: &'static str = #tool_description;
                const STRICT: bool = #strict;
                const INPUT_SCHEMA: &'static str =
                    ::toolgen::__private::flattened_str(&__TOOLGEN_TEXT);
            }
        }
    });

    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            #checks

            #[automatically_derived]
            impl #impl_generics ::toolgen::__private::ToolSchema for #ident #ty_generics #where_clause {
                const SCHEMA: ::toolgen::__private::Rope = #schema;
                const DEFS: ::toolgen::__private::Defs = #defs;
            }

            #tool
        };
    }
}

/// The `$defs` the type needs: its own entry if it is recursive, and those of the types it uses
/// (except through fields that lead back to itself, which would be a const-evaluation cycle).
fn defs(
    container: &Container<'_>,
    body: &Node,
    recursive: bool,
    def_name: &str,
    description: &Option<String>,
    body_rope: &TokenStream,
) -> TokenStream {
    let mut leaves = Vec::new();
    body.trait_leaves(&mut leaves);
    let mut parts: Vec<TokenStream> = Vec::new();
    if recursive {
        let name = json::escape(def_name);
        let entry = match description {
            Some(text) => quote!(&::toolgen::__private::Rope::Described(&#body_rope, #text)),
            None => quote!(&#body_rope),
        };
        parts.push(quote!(::toolgen::__private::Defs::Def(#name, #entry)));
    }
    for leaf in leaves {
        if mentions_self(leaf, container.ident) {
            continue;
        }
        parts.push(quote!(<#leaf as ::toolgen::__private::ToolSchema>::DEFS));
    }
    match parts.len() {
        0 => quote!(::toolgen::__private::Defs::None),
        1 => parts.remove(0),
        _ => quote!(::toolgen::__private::Defs::Seq(&[#(#parts),*])),
    }
}

/// A `Rope` expression for a node, with all literal pieces folded.
fn rope(node: &Node) -> TokenStream {
    if let Some(text) = node.literal() {
        return quote!(::toolgen::__private::Rope::Str(#text));
    }
    match node {
        Node::Seq(pieces) => {
            let mut items = Vec::new();
            let mut text = String::new();
            flatten_seq(pieces, &mut items, &mut text);
            if !text.is_empty() {
                items.push(quote!(::toolgen::__private::Rope::Str(#text)));
            }
            quote!(::toolgen::__private::Rope::Seq(&[#(#items),*]))
        }
        Node::Typed(ty, tail) => {
            let tail = rope(tail);
            quote!(::toolgen::__private::Rope::Typed(#ty, &#tail))
        }
        Node::Nullable(inner) => {
            let inner = rope(inner);
            quote!(::toolgen::__private::Rope::Nullable(&#inner))
        }
        Node::Described(inner, description) => {
            let inner = rope(inner);
            quote!(::toolgen::__private::Rope::Described(&#inner, #description))
        }
        Node::Trait(ty) => {
            quote_spanned!(span_of(ty)=> <#ty as ::toolgen::__private::ToolSchema>::SCHEMA)
        }
        // Literal: handled above.
        Node::Text(text) => quote!(::toolgen::__private::Rope::Str(#text)),
    }
}

/// Appends the pieces of a sequence, joining neighbouring literal text into one piece.
fn flatten_seq(pieces: &[Node], items: &mut Vec<TokenStream>, text: &mut String) {
    for piece in pieces {
        if let Some(literal) = piece.literal() {
            text.push_str(&literal);
        } else if let Node::Seq(inner) = piece {
            flatten_seq(inner, items, text);
        } else {
            if !text.is_empty() {
                items.push(quote!(::toolgen::__private::Rope::Str(#text)));
                text.clear();
            }
            items.push(rope(piece));
        }
    }
}

/// For each bare prelude name the schema was written for (`String`, `Option`, `Vec`, `Box`), a
/// check that the name is the std type here, so that a type shadowing it fails to compile rather
/// than getting the std type's schema.
fn prelude_checks(cx: &Context<'_>) -> TokenStream {
    let uses = cx.prelude_uses.borrow();
    let mut seen = Vec::new();
    let mut checks = Vec::new();
    for (name, span) in uses.iter() {
        if seen.contains(name) {
            continue;
        }
        seen.push(*name);
        let Some((_, canonical)) = PRELUDE.iter().find(|(n, _)| n == name) else {
            continue;
        };
        let canonical: syn::Type = match syn::parse_str(canonical) {
            Ok(ty) => ty,
            Err(_) => continue,
        };
        let ident = format_ident!("{}", name, span = *span);
        let written = if *name == "String" {
            quote!(#ident)
        } else {
            quote_spanned!(*span=> #ident<()>)
        };
        checks.push(quote_spanned! {*span=>
            const _: fn(#written) -> #canonical = |__toolgen_value| __toolgen_value;
        });
    }
    quote!(#(#checks)*)
}
