//! Tokens: the `ToolSchema` impl (and, for `#[derive(Tool)]`, the `Tool` impl with the flattened
//! const schema), or, when the input has errors, those errors plus a stub impl.
//!
//! `schema` turns the shape into schema pieces; `rope` writes them as tokens; `tool` the `Tool`
//! impl; `facts` and `edges` the consts of those names; `fallback` the stubs; `toolset` the
//! `ToolSet` derive.

mod edges;
pub mod facts;
pub mod fallback;
pub mod rope;
pub mod schema;
mod tool;
pub mod toolset;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::DeriveInput;
use syn::ext::IdentExt;

use crate::attr::doc::Desc;
use crate::expand::schema::{Context, Node, ObjectParts, schema_for_container};
use crate::json;
use crate::shape::check;
use crate::shape::delegate_type;
use crate::shape::repr::Repr;
use crate::shape::ty::{mentions_self, span_of};
use crate::shape::{Container, Data, Derive, Shape};
use rope::{Ropes, branches_of, rope};
use schema::types::prelude_path;
use tool::{answer_checks, expand_tool, flat_consts, form_checks};

/// Expands one derive.
pub fn derive(input: &DeriveInput, derive: Derive) -> TokenStream {
    let mut errors = darling::Error::accumulator();
    let container = Container::from_ast(input, derive, &mut errors);
    check::check(&container, &mut errors);
    match (errors.finish(), &container.serde_errors) {
        (Ok(()), None) => expand(&container),
        (ours, serde) => {
            let stub = fallback::stub(input, derive);
            let serde = serde.as_ref().map(syn::Error::to_compile_error);
            let ours = ours.err().map(darling::Error::write_errors);
            quote!(#serde #ours #stub)
        }
    }
}

/// The types of the fields marked `#[tool(recursive)]`: they lead back to a type that holds this
/// one, so what they need is not summed into this type's consts (a cycle); the type says it may
/// need checks instead, and its code looks at them.
pub(super) fn cycle_types<'a>(container: &'a Container<'a>) -> Vec<&'a syn::Type> {
    container
        .named_fields()
        .into_iter()
        .filter(|field| field.tool.recursive.is_present())
        .map(|field| field.input_ty())
        .collect()
}

/// The types the fields marked `#[tool(recursive)]` lead to, each once, in the order
/// [`crate::expand::schema::types::cut_cycles`] meets them.
fn cycle_targets(container: &Container<'_>) -> Vec<syn::Type> {
    let mut targets = Vec::new();
    for ty in cycle_types(container) {
        crate::expand::schema::types::cut_cycles(ty, &mut targets);
    }
    targets
}

/// For each type a `#[tool(recursive)]` field leads to, a `static` holding its facts, and the
/// marker type that names it (the field's facts point there: the type's own facts, which lead
/// back to this type's, cannot be part of them).
fn leads_to(targets: &[syn::Type]) -> TokenStream {
    let mut out = TokenStream::new();
    for (i, target) in targets.iter().enumerate() {
        let marker = crate::expand::schema::types::target_marker(i);
        let place = quote::format_ident!("__TOOLGEN_TARGET_{}", i);
        out.extend(quote_spanned! {span_of(target)=>
            static #place: ::toolgen::__private::Target = ::toolgen::__private::Target {
                id: &<#target as ::toolgen::__private::Cyclic>::ID,
                facts: <#target as ::toolgen::__private::ToolSchema>::FACTS,
            };
            struct #marker;
            impl ::toolgen::__private::LeadsTo for #marker {
                const TARGET: ::toolgen::__private::TargetAt =
                    ::toolgen::__private::TargetAt::of(&#place);
            }
        });
    }
    out
}

/// The `ToolSchema` impl (with, as they apply, the `Recursive` and `Cyclic` impls and the `Tool`
/// impl) in one `const _: () = { .. };`.
fn expand(container: &Container<'_>) -> TokenStream {
    let recursive = container.is_recursive();
    let ident = container.ident;
    let (_, self_generics, _) = container.original.generics.split_for_impl();
    let self_ty: syn::Type = syn::parse_quote!(#ident #self_generics);
    let held = crate::shape::cycles::held_types(container);
    let cx = Context {
        container,
        self_ref: recursive.then(|| self_ty.clone()),
        prelude_uses: Default::default(),
        targets: cycle_targets(container),
    };
    let (body, parts) = schema_for_container(&cx);
    let shared = shared_consts(&cx, &body.node, recursive, parts.as_ref());
    let (schema, entry) = described_body(container, &shared.body_rope, recursive, &self_ty);
    let (defs, behind) = defs(container, &body.node, recursive, &self_ty, &entry);
    // No definitions: `ToolSchema`'s own `DEFS` (`Defs::None`), not an item for rustc to check.
    let no_defs = defs.is_none();
    let defs = defs.unwrap_or_else(|| quote!(::toolgen::__private::Defs::None));

    let (generics, type_params) = bounded_generics(container);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let checks = prelude_checks(&cx);
    let object = object_const(&cx, parts.as_ref(), shared.properties, shared.branches);
    let default = default_const(container);
    let facts = crate::expand::facts::container_facts(container, recursive, body.facts);
    let (edges_static, edges) = edges::edges(container, &held);
    let leads_to = leads_to(&cx.targets);
    let patch_checks = patch_checks(container);
    let untagged_pick = crate::expand::schema::enums::untagged_pick(container);

    let tool = container.tool.as_ref().map(|tool| {
        expand_tool(
            container,
            tool,
            &shared.body_rope,
            shared.body_ref.as_ref(),
            recursive,
        )
    });
    let answer = container
        .answer
        .map(|span| answer_checks(container, span, recursive));
    let form = container.form.map(|span| form_checks(container, span));
    // A struct's name, which `Structured::new`'s build errors name (only an object can be an
    // answer; other types are spared the const).
    let type_name = matches!(container.data, Data::Named(_)).then(|| {
        let name = container.ident.unraw().to_string();
        quote!(const TYPE_NAME: &'static str = #name;)
    });
    let def_id = def_id(container, &type_params);
    // A concrete type that may be on a cycle (it has a node in the graph) and does not hold
    // itself: on a cycle, its schema is a `$ref` to its `$defs` entry wherever it is held (also
    // by a type off the cycle, or a tool), so that the entry is written once. Its own schema,
    // definitions and facts are its `Cyclic` entry's, which its `Cut` is made of; `CutOf`
    // chooses, by a type, so that its `SCHEMA` names its entry only when that is what it is.
    let on_graph = !recursive && !edges_static.is_empty();
    let own = OwnConsts {
        schema,
        defs,
        facts,
    };
    let (own, entry) = own.cut_if(on_graph);
    let OwnConsts {
        schema,
        defs,
        facts,
    } = own;
    let defs =
        (on_graph || !no_defs).then(|| quote!(const DEFS: ::toolgen::__private::Defs = #defs;));
    let impl_parts = ImplParts {
        ident,
        impl_generics: quote!(#impl_generics),
        ty_generics: quote!(#ty_generics),
        where_clause: quote!(#where_clause),
    };
    let cyclic_impl = may_lead_back(container, &held)
        .then(|| cyclic_impl(&impl_parts, recursive, &def_id, &entry));
    let recursive_impl = recursive.then(|| recursive_impl(&impl_parts, &def_id));
    let schemars_impl = schemars_impl(&impl_parts, &container.def_name(), container.tool.is_some());
    let shared_consts = &shared.consts;
    // The prelude names' checks are statements in `SCHEMA`'s body, which every type has.
    let schema = if checks.is_empty() {
        schema
    } else {
        quote!({ #checks #schema })
    };
    let header = impl_parts.header(quote!(::toolgen::__private::ToolSchema));
    // The seal takes the type's own bounds only: a missing schema inside is reported once, by
    // `ToolSchema`, not again for the seal.
    let sealed = {
        let (impl_generics, ty_generics, where_clause) =
            container.original.generics.split_for_impl();
        quote!(impl #impl_generics ::toolgen::__private::Sealed for #ident #ty_generics #where_clause)
    };
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            #shared_consts

            #[automatically_derived]
            #sealed {}
            #[automatically_derived]
            #header {
                const SCHEMA: ::toolgen::__private::Rope = #schema;
                #defs
                const FACTS: &'static ::toolgen::__private::Facts = #facts;
                #type_name
                #object
                #default
                #edges
            }
            #recursive_impl
            #cyclic_impl
            #schemars_impl
            #behind
            #leads_to
            #edges_static
            #patch_checks
            #untagged_pick

            #tool
            #answer
            #form
        };
    }
}

/// What a concrete type writes once, as consts beside its impls, and how its body is named.
struct Shared {
    /// The consts: the flattened types' `__TOOLGEN_BRANCHES`, the struct's
    /// `__TOOLGEN_PROPERTIES`, and the body's `__TOOLGEN_TAIL` and `__TOOLGEN_BODY`.
    consts: TokenStream,
    /// The body, as the impls name it (`*__TOOLGEN_BODY`, or the rope itself for a generic type).
    body_rope: TokenStream,
    /// The const holding the body by reference (`__TOOLGEN_BODY`), for a concrete type.
    body_ref: Option<TokenStream>,
    /// Whether the properties are the const `__TOOLGEN_PROPERTIES`.
    properties: bool,
    /// Whether the flattened types' branches are the const `__TOOLGEN_BRANCHES`.
    branches: bool,
}

/// A concrete struct writes its properties and its body once, as consts beside the impls, and
/// names them where they are used (its schema, `OBJECT`, its definition, a tool's root): each
/// copy would be type-checked and evaluated again. Its flattened types' alternatives likewise,
/// also so that a check in them fails once.
fn shared_consts(
    cx: &Context<'_>,
    body: &Node,
    recursive: bool,
    parts: Option<&ObjectParts>,
) -> Shared {
    let container = cx.container;
    let shared = container.original.generics.params.is_empty();
    let parts = parts.filter(|_| shared);
    // Properties that are all text need no const: the body folds their text into its own, and
    // `OBJECT` holds it (a const would be one more item for rustc to check).
    let properties = parts
        .map(ObjectParts::properties_node)
        .filter(|node| node.literal().is_none());
    let flattened: Vec<syn::Type> = parts
        .map(|parts| parts.flattened.clone())
        .unwrap_or_default();
    let properties_ident = format_ident!("__TOOLGEN_PROPERTIES");
    let branches_ident = format_ident!("__TOOLGEN_BRANCHES");
    let body_ident = format_ident!("__TOOLGEN_BODY");
    let ropes = Ropes {
        named: properties.as_ref().map(|node| (node, &properties_ident)),
        branches: (!flattened.is_empty()).then_some((flattened.as_slice(), &branches_ident)),
    };
    let written_body = ropes.rope(body);
    let mut consts = TokenStream::new();
    if !flattened.is_empty() {
        let branches = branches_of(&flattened);
        consts.extend(quote! {
            const __TOOLGEN_BRANCHES: ::toolgen::__private::Branches = #branches;
        });
    }
    if let Some(node) = &properties {
        let properties = rope(node);
        consts.extend(quote! {
            const __TOOLGEN_PROPERTIES: ::toolgen::__private::Rope = #properties;
        });
    }
    let body_rope = if shared {
        // Written out once, here: a type used by many tools is walked once, not once per tool.
        let flat_body = (!recursive && container.tool.is_none())
            .then(|| flat_body(body, &ropes, &written_body))
            .flatten();
        let body = match flat_body {
            // A body holding a recursive type keeps its tree: its `$ref` keys depend on the
            // root's `$defs` (two types with one name get two keys), known only there.
            Some((tail, tree, flat)) => {
                consts.extend(quote! {
                    const __TOOLGEN_TAIL: &::toolgen::__private::Rope = &#tail;
                });
                let ident = container.ident;
                quote! {
                    if ::toolgen::__private::has_defs(&<#ident as ::toolgen::__private::ToolSchema>::DEFS)
                    {
                        #tree
                    } else {
                        #flat
                    }
                }
            }
            None => written_body,
        };
        // By reference: the schema, the `$defs` entry and a tool's root each name it, and each
        // `&` of a const's value would be a copy of the body for rustc to make and check.
        consts.extend(quote! {
            const __TOOLGEN_BODY: &::toolgen::__private::Rope = &#body;
        });
        quote!(*#body_ident)
    } else {
        written_body
    };
    Shared {
        consts,
        body_rope,
        body_ref: shared.then(|| quote!(#body_ident)),
        properties: properties.is_some(),
        branches: !flattened.is_empty(),
    }
}

/// A concrete type's body as its text, memoised, beside its tree: `(the rope the const
/// `__TOOLGEN_TAIL` holds, the tree of the body, its text)`. `None` for a body that is text
/// already, or whose outer keywords the walk rewrites (a description or `null`): it stays a
/// tree. (A typed schema keeps its type apart, for `Option` to widen.) Not for a tool's input,
/// the root of its own schema and seldom held by another type: its text is written once, for
/// `INPUT_SCHEMA`; flattening its body here as well costs about 4 M instructions a tool to
/// compile (benches/compile_time.sh). Nor for a recursive type.
fn flat_body(
    body: &Node,
    ropes: &Ropes<'_>,
    written_body: &TokenStream,
) -> Option<(TokenStream, TokenStream, TokenStream)> {
    // The text of the rope the const `__TOOLGEN_TAIL` holds (by reference). The tree and the
    // text are both written from that one const: a rope written twice would be two copies for
    // rustc to check, each of everything it holds.
    let flat = flat_consts(
        "",
        &quote!(__TOOLGEN_TAIL),
        &quote!(::toolgen::__private::NO_DEFS),
        Span::call_site(),
    );
    let memo = quote! {{
        #flat
        ::toolgen::__private::Flat::as_str(&TEXT)
    }};
    match body {
        _ if body.literal().is_some() => None,
        Node::Typed(ty, tail) if tail.literal().is_none() => {
            let tail = ropes.rope(tail);
            Some((
                tail,
                quote!(::toolgen::__private::Rope::Typed(#ty, __TOOLGEN_TAIL)),
                quote!(::toolgen::__private::Rope::Typed(#ty, &::toolgen::__private::Rope::Str(#memo))),
            ))
        }
        Node::Seq(_) | Node::Join(_) => Some((
            written_body.clone(),
            quote!(*__TOOLGEN_TAIL),
            quote!(::toolgen::__private::Rope::Str(#memo)),
        )),
        _ => None,
    }
}

/// The type's `SCHEMA` (its body with its description, or for a recursive type a `$ref` to its
/// entry) and its `$defs` entry (its body with its description).
fn described_body(
    container: &Container<'_>,
    body_rope: &TokenStream,
    recursive: bool,
    self_ty: &syn::Type,
) -> (TokenStream, TokenStream) {
    // The container's description, as a schema node takes it (escaped).
    let description = container.description.as_ref().map(|desc| match desc {
        Desc::Text(text) => Desc::Text(json::escape(text)),
        expr => expr.clone(),
    });
    let schema = match (&description, recursive) {
        (_, true) => rope(&Node::SelfRef(Box::new(self_ty.clone()))),
        (Some(text), false) => quote!(::toolgen::__private::Rope::Described(&#body_rope, #text)),
        (None, false) => body_rope.clone(),
    };
    let entry = match &description {
        Some(text) => quote!(::toolgen::__private::Rope::Described(&#body_rope, #text)),
        None => body_rope.clone(),
    };
    (schema, entry)
}

/// The container's generics with `T: ToolSchema` for each type parameter, and those parameters.
fn bounded_generics(container: &Container<'_>) -> (syn::Generics, Vec<syn::Ident>) {
    let mut generics = container.original.generics.clone();
    let type_params: Vec<_> = generics.type_params().map(|p| p.ident.clone()).collect();
    let where_clause = generics.make_where_clause();
    for param in &type_params {
        where_clause
            .predicates
            .push(syn::parse_quote!(#param: ::toolgen::__private::ToolSchema));
    }
    (generics, type_params)
}

/// Who the type's `$defs` entry belongs to: its name, where it is defined, its type arguments.
fn def_id(container: &Container<'_>, type_params: &[syn::Ident]) -> TokenStream {
    let name = json::escape(&container.def_name());
    let args = type_params
        .iter()
        .map(|param| quote!(<#param as ::toolgen::__private::ToolSchema>::SCHEMA));
    // A type without type arguments names the runtime's empty list: `&[]` here would be a
    // constant of its own for rustc to make and check.
    let args = if type_params.is_empty() {
        quote!(::toolgen::__private::NO_ARGS)
    } else {
        quote!(&[#(#args),*])
    };
    quote! {
        ::toolgen::__private::DefId {
            name: #name,
            path: ::core::module_path!(),
            args: #args,
        }
    }
}

/// Whether a `#[tool(recursive)]` field of another type may lead here (the type gets a `Cyclic`
/// impl for it to refer to). Only a type that holds a type other than itself and the standard
/// ones can lead back to the field's type, and a tool's input is a root: a cycle through it can
/// be marked at a field that leads elsewhere. The others are spared the impl (0.75 M
/// instructions a type to compile).
fn may_lead_back(container: &Container<'_>, held: &[syn::Type]) -> bool {
    container.tool.is_none()
        && (!held.is_empty()
            || container.members().iter().any(|member| {
                !member.holds_self && !crate::shape::ty::cycle_leaves(member.input_ty).is_empty()
            }))
}

/// The values of the type's own consts: `SCHEMA`, `DEFS` and `FACTS`.
struct OwnConsts {
    schema: TokenStream,
    defs: TokenStream,
    facts: TokenStream,
}

impl OwnConsts {
    /// The consts of the `ToolSchema` impl, and the values of the `Cyclic` entry's. For a type on
    /// the graph of cycles, the entry holds the type's own values and the impl names
    /// `__ToolgenCutOf`'s, which chooses between them (on a cycle, its facts say it has every
    /// kind of work, checks too). Else the entry names the impl's.
    fn cut_if(self, on_graph: bool) -> (OwnConsts, [TokenStream; 3]) {
        if on_graph {
            let entry = [self.schema, self.defs, self.facts];
            let choice = quote!(__ToolgenCutOf);
            let own = OwnConsts {
                schema: quote!(#choice::SCHEMA),
                defs: quote!(#choice::DEFS),
                facts: quote!(#choice::FACTS),
            };
            (own, entry)
        } else {
            let tool_schema = quote!(<Self as ::toolgen::__private::ToolSchema>);
            let entry = [
                quote!(#tool_schema::SCHEMA),
                quote!(#tool_schema::DEFS),
                quote!(#tool_schema::FACTS),
            ];
            (self, entry)
        }
    }
}

/// The pieces of an impl's header for the container.
pub(crate) struct ImplParts<'a> {
    ident: &'a syn::Ident,
    impl_generics: TokenStream,
    ty_generics: TokenStream,
    where_clause: TokenStream,
}

impl ImplParts<'_> {
    /// `impl<..> #trait_path for #ident<..> where ..`
    fn header(&self, trait_path: TokenStream) -> TokenStream {
        let ImplParts {
            ident,
            impl_generics,
            ty_generics,
            where_clause,
        } = self;
        quote!(impl #impl_generics #trait_path for #ident #ty_generics #where_clause)
    }
}

/// The `Cyclic` impl: what a `#[tool(recursive)]` field of another type that leads here refers
/// to (`entry`: its schema, definitions and facts).
fn cyclic_impl(
    parts: &ImplParts<'_>,
    recursive: bool,
    def_id: &TokenStream,
    entry: &[TokenStream; 3],
) -> TokenStream {
    let header = parts.header(quote!(::toolgen::__private::Cyclic));
    let id = if recursive {
        quote!(<Self as ::toolgen::__private::Recursive>::ID)
    } else {
        def_id.clone()
    };
    let [schema, defs, facts] = entry;
    quote! {
        #[automatically_derived]
        #header {
            const ID: ::toolgen::__private::DefId = #id;
            const ENTRY: ::toolgen::__private::Rope = #schema;
            const OWN_DEFS: ::toolgen::__private::Defs = #defs;
            const OWN_FACTS: &'static ::toolgen::__private::Facts = #facts;
        }
    }
}

/// With the `schemars1` feature, `schemars::JsonSchema`: the functions say what the type's
/// `ToolSchema` impl does (the runtime reads it), and the name is serde's, as schemars' derive
/// names a type. Without it, nothing.
pub(crate) fn schemars_impl(parts: &ImplParts<'_>, name: &str, tool: bool) -> Option<TokenStream> {
    if !cfg!(feature = "schemars1") {
        return None;
    }
    let header = parts.header(quote!(::toolgen::__private::schemars::JsonSchema));
    // A tool's input is a root: its schema is `INPUT_SCHEMA`, inline wherever it is held.
    let (id, inline, schema) = if tool {
        (
            quote!(::std::borrow::Cow::Borrowed(
                ::core::any::type_name::<Self>()
            )),
            quote!(true),
            quote!(::toolgen::__private::schemars_input::<Self>(__generator)),
        )
    } else {
        (
            quote!(::toolgen::__private::schemars_id::<Self>()),
            quote!(::toolgen::__private::schemars_inline::<Self>()),
            quote!(::toolgen::__private::schemars_schema::<Self>(__generator)),
        )
    };
    Some(quote! {
        #[automatically_derived]
        #header {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(#name)
            }
            fn schema_id() -> ::std::borrow::Cow<'static, str> {
                #id
            }
            fn inline_schema() -> bool {
                #inline
            }
            fn json_schema(
                __generator: &mut ::toolgen::__private::schemars::SchemaGenerator,
            ) -> ::toolgen::__private::schemars::Schema {
                #schema
            }
        }
    })
}

/// The `Recursive` impl of a type that holds itself: the id of its `$defs` entry.
fn recursive_impl(parts: &ImplParts<'_>, def_id: &TokenStream) -> TokenStream {
    let header = parts.header(quote!(::toolgen::__private::Recursive));
    quote! {
        #[automatically_derived]
        #header {
            const ID: ::toolgen::__private::DefId = #def_id;
        }
    }
}

/// The `$defs` the type needs (the `DEFS` expression, `None` for none, and the statics it points
/// to): its own entry if it is recursive, those of the types it uses (except through fields that
/// lead back to itself, which would be a const-evaluation cycle), and, behind a `static` for each
/// type a `#[tool(recursive)]` field leads to, that type's definitions and entry.
fn defs(
    container: &Container<'_>,
    body: &Node,
    recursive: bool,
    self_ty: &syn::Type,
    entry: &TokenStream,
) -> (Option<TokenStream>, TokenStream) {
    let (mut leaves, mut cycles) = (Vec::new(), Vec::new());
    body.trait_leaves(&mut leaves, &mut cycles);
    let mut parts: Vec<TokenStream> = Vec::new();
    if recursive {
        parts.push(quote!(::toolgen::__private::Defs::Def(
            &<#self_ty as ::toolgen::__private::Recursive>::ID,
            &#entry,
        )));
    }
    // Each type once (a second mention adds no entry, and would be type-checked again).
    let mut seen = std::collections::HashSet::new();
    for leaf in leaves {
        if mentions_self(leaf, container.ident) || !seen.insert(quote!(#leaf).to_string()) {
            continue;
        }
        parts.push(quote!(<#leaf as ::toolgen::__private::ToolSchema>::DEFS));
    }
    let mut statics = TokenStream::new();
    for (i, leaf) in cycles.into_iter().enumerate() {
        let name = quote::format_ident!("__TOOLGEN_BEHIND_{}", i);
        statics.extend(quote_spanned! {span_of(leaf)=>
            // The type's definitions, then its own entry: a recursive type's is among the former
            // (its schema is a `$ref`, and that second entry a repeat, not written).
            static #name: ::toolgen::__private::Defs = ::toolgen::__private::Defs::Seq(&[
                <#leaf as ::toolgen::__private::ToolSchema>::DEFS,
                ::toolgen::__private::Defs::Def(
                    &<#leaf as ::toolgen::__private::Cyclic>::ID,
                    &<#leaf as ::toolgen::__private::ToolSchema>::SCHEMA,
                ),
            ]);
        });
        parts.push(quote_spanned! {span_of(leaf)=>
            ::toolgen::__private::Defs::Behind(
                &<#leaf as ::toolgen::__private::Cyclic>::ID,
                ::toolgen::__private::DefsAt::of(&#name),
            )
        });
    }
    let defs = match parts.len() {
        0 => None,
        1 => Some(parts.remove(0)),
        _ => Some(quote!(::toolgen::__private::Defs::Seq(&[#(#parts),*]))),
    };
    (defs, statics)
}

/// For a concrete type, a const for each field's type written as a `Patch<T>` where its `Absent`
/// would never arrive ([`crate::shape::Field::patch_misuses`]), which stops the build if it is
/// toolgen's `Patch`: one each, so that every one is reported. (A generic type's are in its
/// schema: they may name its parameters.) Nothing for a type without such a field.
fn patch_checks(container: &Container<'_>) -> TokenStream {
    if !container.original.generics.params.is_empty() {
        return TokenStream::new();
    }
    let mut out = TokenStream::new();
    for field in container.named_fields() {
        for (ty, misuse) in field.patch_misuses() {
            let misuse = rope::patch_misuse(misuse);
            out.extend(quote_spanned! {span_of(ty)=>
                const _: &str = ::toolgen::__private::check_patch::<#ty>(#misuse);
            });
        }
    }
    out
}

/// For each bare prelude name the schema was written for (`String`, `Option`, `Vec`, `Box`), a
/// check that the name is the std type here, so that a type shadowing it fails to compile rather
/// than getting the std type's schema.
fn prelude_checks(cx: &Context<'_>) -> TokenStream {
    let uses = cx.prelude_uses.borrow();
    let mut seen = Vec::new();
    let mut expected = Vec::new();
    let mut found = Vec::new();
    for (name, span) in uses.iter() {
        if seen.contains(name) {
            continue;
        }
        seen.push(*name);
        let Some(canonical) = prelude_path(name) else {
            continue;
        };
        let ident = format_ident!("{}", name, span = *span);
        let written = if *name == "String" {
            quote!(#ident)
        } else {
            quote_spanned!(*span=> #ident<()>)
        };
        expected.push(quote!(::core::marker::PhantomData<#canonical>));
        found.push(quote_spanned!(*span=> ::core::marker::PhantomData::<#written>));
    }
    if found.is_empty() {
        return TokenStream::new();
    }
    // One statement for all of them, in the body of the type's `SCHEMA` (see `expand`): a
    // const of their own would be one more body for rustc to check (about 0.35 M instructions
    // a type to compile), one per name about 0.5 M each.
    quote! {
        let _: (#(#expected,)*) = (#(#found,)*);
    }
}

/// `OBJECT`: what `#[serde(flatten)]` of this type merges into the enclosing object. `parts`:
/// a struct's object; `shared`: its properties are the const `__TOOLGEN_PROPERTIES`.
fn object_const(
    cx: &Context<'_>,
    parts: Option<&ObjectParts>,
    shared: bool,
    shared_branches: bool,
) -> TokenStream {
    if let Some(ty) = delegate_type(cx.container) {
        return quote! {
            const OBJECT: ::core::option::Option<::toolgen::__private::Object> =
                <#ty as ::toolgen::__private::ToolSchema>::OBJECT;
        };
    }
    let parts = match (&cx.container.data, parts) {
        (Data::Named(_), Some(parts)) => parts,
        (Data::Enum(variants), _) => {
            return crate::expand::schema::enums::object_const(cx, variants);
        }
        _ => return TokenStream::new(),
    };
    let properties = if shared {
        quote!(__TOOLGEN_PROPERTIES)
    } else {
        rope(&parts.properties_node())
    };
    let required = rope(&parts.required_node());
    let own = &parts.names;
    let flattened = &parts.flattened;
    let deny = cx.container.serde.deny_unknown_fields;
    if flattened.is_empty() && !deny {
        return quote! {
            const OBJECT: ::core::option::Option<::toolgen::__private::Object> =
                ::toolgen::__private::Object::plain(#properties, #required, &[#(#own),*]);
        };
    }
    let branches = if shared_branches {
        quote!(__TOOLGEN_BRANCHES)
    } else {
        branches_of(flattened)
    };
    quote! {
        const OBJECT: ::core::option::Option<::toolgen::__private::Object> =
            ::core::option::Option::Some(::toolgen::__private::Object {
                properties: #properties,
                required: #required,
                additional: ::core::option::Option::None,
                deny_unknown: #deny,
                branches: #branches,
                names: ::toolgen::__private::Names::Seq(&[
                    ::toolgen::__private::Names::List(&[#(#own),*]),
                    #(::toolgen::__private::Names::Of(
                        &<#flattened as ::toolgen::__private::ToolSchema>::OBJECT)),*
                ]),
            });
    }
}

/// `DEFAULT`: for an enum with a `#[default]` unit variant, that variant's name; and
/// `ENUM_VALUES` for an enum serde reads from a string.
fn default_const(container: &Container<'_>) -> TokenStream {
    let Data::Enum(variants) = &container.data else {
        return TokenStream::new();
    };
    let externally_tagged = matches!(container.repr, Repr::External);
    let string_enum = externally_tagged
        && variants
            .iter()
            .all(|v| matches!(v.shape, Shape::Unit) && !v.untagged && v.other.is_none());
    let values = string_enum.then(|| {
        let names = variants.iter().map(|v| v.name.as_str());
        quote! {
            const ENUM_VALUES: ::core::option::Option<&'static [&'static str]> =
                ::core::option::Option::Some(&[#(#names),*]);
        }
    });
    let default = variants.iter().find(|v| {
        matches!(v.shape, Shape::Unit)
            && v.original
                .attrs
                .iter()
                .any(|a| a.path().is_ident("default"))
    });
    let default = match default {
        Some(variant) if externally_tagged => {
            let text = json::string(&variant.name);
            Some(quote! {
                const DEFAULT: ::core::option::Option<::toolgen::__private::Rope> =
                    ::core::option::Option::Some(::toolgen::__private::Rope::Str(#text));
            })
        }
        _ => None,
    };
    quote!(#values #default)
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    /// Expands `input` as the derive would, outside the proc-macro boundary: it must not panic,
    /// must report no error, and must give items that parse.
    fn expands(input: DeriveInput, derive: Derive) -> String {
        let tokens = super::derive(&input, derive);
        let text = tokens.to_string();
        assert!(!text.contains("compile_error"), "{}: {text}", input.ident);
        syn::parse2::<syn::File>(tokens).unwrap_or_else(|e| panic!("{}: {e}", input.ident));
        text
    }

    /// Odd but valid inputs: every one expands without an error (the trybuild `pass` cases
    /// compile the same kinds of input and check their schemas).
    #[test]
    fn odd_but_valid_inputs_expand() {
        let long = "Long. ".repeat(5000);
        let tools: Vec<DeriveInput> = vec![
            parse_quote! {
                /// Raw identifiers.
                struct r#Match { r#type: String, r#fn: Option<u8> }
            },
            parse_quote! {
                /// Keywords as names.
                #[serde(rename_all = "camelCase")]
                struct Keywords { #[serde(rename = "type")] kind: String, #[serde(rename = "self")] me: bool }
            },
            parse_quote! {
                /// Погода 🌦 «кавычки» "quotes" \ и управляющие символы.
                #[tool(name = "pogoda")]
                struct Погода { /// Город.
                    город: String }
            },
            parse_quote! {
                /// Empty.
                struct Empty {}
            },
            parse_quote! {
                #[doc = #long]
                struct LongDoc { #[doc = #long] field: String }
            },
            parse_quote! {
                #[doc = include_str!("forecast.md")]
                struct Included { #[doc = " Line."] #[doc = include_str!("city.md")] city: String }
            },
            parse_quote! {
                /// `cfg` and `cfg_attr` as the derive sees them when the compiler has not
                /// stripped them (in a real build it has).
                struct Configured {
                    #[cfg(feature = "x")]
                    gated: String,
                    #[cfg_attr(feature = "x", serde(rename = "y"))]
                    renamed: u8,
                }
            },
            parse_quote! {
                /// Strict, for both providers.
                #[tool(strict)]
                struct Strict { a: Option<u8>, #[serde(default)] b: Vec<String> }
            },
        ];
        for input in tools {
            expands(input, Derive::Tool);
        }
        let schemas: Vec<DeriveInput> = vec![
            parse_quote! { struct Borrowed<'a, 'b: 'a> { name: &'a str, note: std::borrow::Cow<'b, str> } },
            parse_quote! { struct Grid<const N: usize> { cells: Vec<u8> } },
            parse_quote! { struct Page<T, const N: usize> where T: Clone { items: Vec<T> } },
            parse_quote! { struct Node { children: Vec<Node>, next: Option<Box<Node>> } },
            parse_quote! {
                #[serde(tag = "kind")]
                enum Shape { Unit, Circle { r: f64 }, Named(Inner), #[serde(other)] Other }
            },
            parse_quote! { enum Mixed { A, B(u8, u8), C { x: i32 }, D(String) } },
            parse_quote! { struct Unit; },
            parse_quote! { struct Newtype(Vec<String>); },
        ];
        for input in schemas {
            expands(input, Derive::ToolSchema);
        }
    }

    /// `schemars::JsonSchema` is written with the `schemars1` feature only: without it, the
    /// derive writes nothing for schemars.
    #[test]
    fn json_schema_is_written_with_the_schemars1_feature_only() {
        let tool: DeriveInput = parse_quote! {
            /// A tool.
            struct Tool { node: Node }
        };
        let node: DeriveInput = parse_quote! { struct Node { children: Vec<Node> } };
        for text in [
            expands(tool, Derive::Tool),
            expands(node, Derive::ToolSchema),
        ] {
            assert_eq!(
                text.contains("JsonSchema"),
                cfg!(feature = "schemars1"),
                "{text}"
            );
        }
    }

    #[test]
    fn a_description_from_an_expression_is_escaped_in_const_evaluation() {
        let input: DeriveInput = parse_quote! {
            #[doc = include_str!("forecast.md")]
            struct Included { city: String }
        };
        let text = expands(input, Derive::Tool);
        assert!(text.contains("include_str"), "{text}");
        assert!(text.contains("escaped_len"), "{text}");
        assert!(text.contains("trim_doc"), "{text}");
    }
}
