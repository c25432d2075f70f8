//! Tokens: the `ToolSchema` impl (and, for `#[derive(Tool)]`, the `Tool` impl with the flattened
//! const schema), or, when the input has errors, those errors plus a stub impl.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::DeriveInput;

use crate::ast::{Container, Data, Derive, Field, Shape, Variant};
use crate::check;
use crate::doc::Desc;
use crate::fallback;
use crate::schema::types::{mentions_self, prelude_path, span_of};
use crate::schema::{Context, Node, delegate_type, json, object_parts, schema_for_container};

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

/// Every type the container's schema is made of (fields, flattened fields, variant contents).
fn field_types<'a>(container: &'a Container<'a>) -> Vec<&'a syn::Type> {
    types_by(container, input_type)
}

/// The types of the container's fields and variant contents, each field's picked by `pick`.
fn types_by<'a>(
    container: &'a Container<'a>,
    pick: impl Fn(&'a Field<'a>) -> &'a syn::Type + Copy,
) -> Vec<&'a syn::Type> {
    match &container.data {
        Data::Named(fields) => fields.iter().filter(|f| !f.skip).map(pick).collect(),
        Data::Tuple(fields) => fields.iter().map(|f| &f.ty).collect(),
        Data::Enum(variants) => variants
            .iter()
            .filter(|v| !v.skip)
            .flat_map(|v| match &v.shape {
                Shape::Unit => Vec::new(),
                Shape::Newtype(ty) => vec![*ty],
                Shape::Tuple(items) => items.clone(),
                Shape::Struct(fields) => fields.iter().filter(|f| !f.skip).map(pick).collect(),
            })
            .collect(),
        Data::Unit | Data::Union => Vec::new(),
    }
}

/// The type whose schema describes the field's input: `#[tool(schema = ..)]`'s, else its own.
/// (A field read `with` a function may have a type that has no schema at all.)
pub(crate) fn input_type<'f>(field: &'f Field<'_>) -> &'f syn::Type {
    field.tool.schema.as_ref().unwrap_or(field.ty)
}

/// The types of the fields marked `#[tool(recursive)]`: they lead back to a type that holds this
/// one, so what they need is not summed into this type's consts (a cycle); the type says it may
/// need checks instead, and its code looks at them.
fn cycle_types<'a>(container: &'a Container<'a>) -> Vec<&'a syn::Type> {
    crate::check::all_fields(container)
        .into_iter()
        .filter(|field| field.tool.recursive.is_present())
        .map(input_type)
        .collect()
}

/// The types the fields marked `#[tool(recursive)]` lead to, each once, in the order
/// [`crate::schema::types::cut_cycles`] meets them.
fn cycle_targets(container: &Container<'_>) -> Vec<syn::Type> {
    let mut targets = Vec::new();
    for ty in cycle_types(container) {
        crate::schema::types::cut_cycles(ty, &mut targets);
    }
    targets
}

/// For each type a `#[tool(recursive)]` field leads to, a `static` holding its facts, and the
/// marker type that names it (the field's facts point there: the type's own facts, which lead
/// back to this type's, cannot be part of them).
fn leads_to(targets: &[syn::Type]) -> TokenStream {
    let mut out = TokenStream::new();
    for (i, target) in targets.iter().enumerate() {
        let marker = crate::schema::types::target_marker(i);
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

/// [`field_types`], but each field's own Rust type.
fn rust_field_types<'a>(container: &'a Container<'a>) -> Vec<&'a syn::Type> {
    types_by(container, |field| field.ty)
}

/// Whether `ty` is known to have no defaults inside and need no checks: a primitive, `String`, or
/// `Option`/`Vec`/`Box` of one, written with the bare names the schema also reads as the std
/// types (and the prelude checks pin). Their `NULLS` nodes and check code would be dead
/// (`Nulls::None`; `NEEDS_CHECK` is `false`) and cost compile time, so they are left out; the
/// `NEEDS_CHECK` const still names every field type, which keeps the errors for a type without a
/// schema as they are.
pub(crate) fn is_plain(ty: &syn::Type) -> bool {
    use crate::schema::types::Ty;
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

fn is_recursive(container: &Container<'_>) -> bool {
    field_types(container)
        .iter()
        .any(|ty| mentions_self(ty, container.ident))
}

fn expand(container: &Container<'_>) -> TokenStream {
    let recursive = is_recursive(container);
    let def_name = container.def_name();
    let ident = container.ident;
    let (_, self_generics, _) = container.original.generics.split_for_impl();
    let self_ty: syn::Type = syn::parse_quote!(#ident #self_generics);
    let held = crate::cycles::held_types(container);
    let cx = Context {
        container,
        self_ref: recursive.then(|| self_ty.clone()),
        prelude_uses: Default::default(),
    };
    let body = schema_for_container(&cx);
    // A concrete struct writes its properties and its body once, as consts beside the impls, and
    // names them where they are used (its schema, `OBJECT`, its definition, a tool's root): each
    // copy would be type-checked and evaluated again.
    let shared = container.original.generics.params.is_empty();
    let parts = match &container.data {
        Data::Named(fields) if shared && delegate_type(container).is_none() => {
            Some(object_parts(&cx, fields))
        }
        _ => None,
    };
    let properties = parts.as_ref().map(|parts| parts.properties_node());
    // Its flattened types' alternatives, likewise: also so that a check in them fails once.
    let flattened: Vec<syn::Type> = parts.map(|parts| parts.flattened).unwrap_or_default();
    let properties_ident = format_ident!("__TOOLGEN_PROPERTIES");
    let branches_ident = format_ident!("__TOOLGEN_BRANCHES");
    let body_ident = format_ident!("__TOOLGEN_BODY");
    let ropes = Ropes {
        named: properties.as_ref().map(|node| (node, &properties_ident)),
        branches: (!flattened.is_empty()).then_some((flattened.as_slice(), &branches_ident)),
    };
    let written_body = ropes.rope(&body);
    let mut shared_consts = TokenStream::new();
    if !flattened.is_empty() {
        let branches = branches_of(&flattened);
        shared_consts.extend(quote! {
            const __TOOLGEN_BRANCHES: ::toolgen::__private::Branches = #branches;
        });
    }
    if let Some(node) = &properties {
        let properties = rope(node);
        shared_consts.extend(quote! {
            const __TOOLGEN_PROPERTIES: ::toolgen::__private::Rope = #properties;
        });
    }
    let body_rope = if shared {
        // Written out once, here: a type used by many tools is walked once, not once per tool.
        // (A typed schema keeps its type apart, for `Option` to widen; a schema whose outer
        // keywords the walk rewrites, a description or `null`, stays a tree.)
        // The text of the rope the const `__TOOLGEN_TAIL` holds (by reference). The tree and
        // the text are both written from that one const: a rope written twice would be two
        // copies for rustc to check, each of everything it holds.
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
        let flat_body = match &body {
            // A tool's input is the root of its own schema, and is seldom held by another type:
            // its text is written once, for `INPUT_SCHEMA`. Flattening its body here as well
            // costs about 4 M instructions a tool to compile (benches/compile_time.sh).
            _ if recursive || container.tool.is_some() || body.literal().is_some() => None,
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
        };
        let body = match flat_body {
            // A body holding a recursive type keeps its tree: its `$ref` keys depend on the
            // root's `$defs` (two types with one name get two keys), known only there.
            Some((tail, tree, flat)) => {
                shared_consts.extend(quote! {
                    const __TOOLGEN_TAIL: &::toolgen::__private::Rope = &#tail;
                });
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
        shared_consts.extend(quote! {
            const __TOOLGEN_BODY: &::toolgen::__private::Rope = &#body;
        });
        quote!(*#body_ident)
    } else {
        written_body
    };
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
    // A recursive type's `$defs` entry: its body with its description.
    let entry = match &description {
        Some(text) => quote!(::toolgen::__private::Rope::Described(&#body_rope, #text)),
        None => body_rope.clone(),
    };
    let (defs, behind) = defs(container, &body, recursive, &self_ty, &entry);

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
    let object = object_const(&cx, properties.is_some(), !flattened.is_empty());
    let default = default_const(container);
    let (needs_check, checks_fn) = constraint_checks(container);
    let nulls = crate::nulls::expand_nulls(container);
    let targets = cycle_targets(container);
    let facts = crate::facts::container_facts(container, recursive, &targets);
    let (edges_static, edges) = crate::cycles::edges(container, &held);
    let leads_to = leads_to(&targets);

    let tool = container
        .tool
        .as_ref()
        .map(|tool| expand_tool(container, tool, &body_rope, recursive));
    // Who the type's `$defs` entry belongs to: its name, where it is defined, its type arguments.
    let def_id = {
        let name = json::escape(&def_name);
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
    };
    // What a `#[tool(recursive)]` field of another type that leads here refers to. Only a type
    // that holds a type other than itself and the standard ones can lead back to the field's
    // type, and a tool's input is a root: a cycle through it can be marked at a field that leads
    // elsewhere. The others are spared the impl (0.75 M instructions a type to compile).
    let may_lead_back = container.tool.is_none()
        && (!held.is_empty()
            || field_types(container).into_iter().any(|ty| {
                !mentions_self(ty, container.ident)
                    && !crate::schema::types::cycle_leaves(ty).is_empty()
            }));
    // A concrete type that may be on a cycle (it has a node in the graph) and does not hold
    // itself: on a cycle, its schema is a `$ref` to its `$defs` entry wherever it is held (also
    // by a type off the cycle, or a tool), so that the entry is written once. Its own schema,
    // definitions and facts are its `Cyclic` entry's, which its `Cut` is made of; `CutOf`
    // chooses, by a type, so that its `SCHEMA` names its entry only when that is what it is.
    let on_graph = !recursive && !edges_static.is_empty();
    let tool_schema = quote!(<Self as ::toolgen::__private::ToolSchema>);
    // Its `null` tree and whether it has checks to make are chosen the same way: on a cycle, the
    // tree is looked up when parsing needs it, and the checks are made.
    let (entry_schema, entry_defs, entry_facts, entry_nulls, entry_needs_check) = if on_graph {
        (
            schema.clone(),
            defs.clone(),
            facts.clone(),
            nulls
                .clone()
                .unwrap_or_else(|| quote!(::toolgen::__private::Nulls::None)),
            needs_check.clone().unwrap_or_else(|| quote!(false)),
        )
    } else {
        (
            quote!(#tool_schema::SCHEMA),
            quote!(#tool_schema::DEFS),
            quote!(#tool_schema::FACTS),
            quote!(#tool_schema::NULLS),
            quote!(#tool_schema::NEEDS_CHECK),
        )
    };
    let (schema, defs, facts, nulls, needs_check) = if on_graph {
        let choice = quote!(__ToolgenCutOf);
        (
            quote!(#choice::SCHEMA),
            quote!(#choice::DEFS),
            quote!(#choice::FACTS),
            Some(quote!(#choice::NULLS)),
            Some(quote!(#choice::NEEDS_CHECK)),
        )
    } else {
        (schema, defs, facts, nulls, needs_check)
    };
    let nulls = nulls.map(|nulls| quote!(const NULLS: ::toolgen::__private::Nulls = #nulls;));
    let needs_check = needs_check.map(|needs| quote!(const NEEDS_CHECK: bool = #needs;));
    let cyclic_impl = may_lead_back.then(|| {
        let id = if recursive {
            quote!(<Self as ::toolgen::__private::Recursive>::ID)
        } else {
            def_id.clone()
        };
        quote! {
            #[automatically_derived]
            impl #impl_generics ::toolgen::__private::Cyclic for #ident #ty_generics #where_clause {
                const ID: ::toolgen::__private::DefId = #id;
                const ENTRY: ::toolgen::__private::Rope = #entry_schema;
                const OWN_DEFS: ::toolgen::__private::Defs = #entry_defs;
                const OWN_FACTS: &'static ::toolgen::__private::Facts = #entry_facts;
                const OWN_NULLS: ::toolgen::__private::Nulls = #entry_nulls;
                const OWN_NEEDS_CHECK: bool = #entry_needs_check;
            }
        }
    });
    let recursive_impl = recursive.then(|| {
        quote! {
            #[automatically_derived]
            impl #impl_generics ::toolgen::__private::Recursive for #ident #ty_generics #where_clause {
                const ID: ::toolgen::__private::DefId = #def_id;
            }
        }
    });
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            #checks
            #shared_consts

            #[automatically_derived]
            impl #impl_generics ::toolgen::__private::ToolSchema for #ident #ty_generics #where_clause {
                const SCHEMA: ::toolgen::__private::Rope = #schema;
                const DEFS: ::toolgen::__private::Defs = #defs;
                const FACTS: &'static ::toolgen::__private::Facts = #facts;
                #object
                #default
                #nulls
                #needs_check
                #checks_fn
                #edges
            }
            #recursive_impl
            #cyclic_impl
            #behind
            #leads_to
            #edges_static

            #tool
        };
    }
}

/// The consts of a schema's text, `{prefix}ROOT`, `DEFS`, `FLAT`, `LEN` and `TEXT`: the root
/// and its definitions by reference (each is named twice: the text is written from them in one
/// walk, and again when it is longer than that walk's buffer, and each `&` of a const's value
/// would be a copy of its own for rustc to check), then [`flat_consts`].
fn text_consts(prefix: &str, root: &TokenStream, defs: &TokenStream, span: Span) -> TokenStream {
    let [r, d] = ["ROOT", "DEFS"].map(|name| format_ident!("{prefix}{name}", span = span));
    let flat = flat_consts(prefix, &quote!(#r), &quote!(#d), span);
    quote_spanned! {span=>
        const #r: &::toolgen::__private::Rope = &#root;
        const #d: &::toolgen::__private::Defs = &#defs;
        #flat
    }
}

/// The consts `{prefix}FLAT`, `LEN` and `TEXT` of the text of `root` (a `&Rope`) with the
/// definitions `defs` (a `&Defs`): the walk that writes it into a buffer and counts it, its
/// length, and the text (copied out of the buffer, or written again when it is longer).
fn flat_consts(prefix: &str, root: &TokenStream, defs: &TokenStream, span: Span) -> TokenStream {
    let [f, l, t] =
        ["FLAT", "LEN", "TEXT"].map(|name| format_ident!("{prefix}{name}", span = span));
    quote_spanned! {span=>
        const #f: &::toolgen::__private::Capped = &::toolgen::__private::flatten_capped(#root, #defs);
        const #l: usize = #f.len;
        const #t: ::toolgen::__private::Flat<#l> = ::toolgen::__private::flat_text(#f, #root, #defs);
    }
}

/// The `Tool` impl: the flattened input schema (a const), the dialects it insists on, the cache
/// where its dialects and definitions are built at first use, and for a strict tool the checks
/// that stop the build where a dialect cannot express a field.
fn expand_tool(
    container: &Container<'_>,
    tool: &crate::ast::ToolInfo,
    body_rope: &TokenStream,
    recursive: bool,
) -> TokenStream {
    let ident = container.ident;
    let name = &tool.name;
    let tool_description = match &container.description {
        Some(desc) => desc.raw_tokens(),
        None => quote!(""),
    };
    let strict = tool.strict.map(|(strict, _)| strict);
    let is_strict = strict.is_some();
    let output = tool.output.as_ref().map(|out| {
        text_consts(
            "__TOOLGEN_OUT_",
            &quote_spanned!(span_of(out)=> <#out as ::toolgen::__private::ToolSchema>::SCHEMA),
            &quote_spanned!(span_of(out)=> <#out as ::toolgen::__private::ToolSchema>::DEFS),
            span_of(out),
        )
    });
    let timeout = tool.timeout.map(|millis| {
        quote! {
            const TIMEOUT: ::core::option::Option<::core::time::Duration> =
                ::core::option::Option::Some(::core::time::Duration::from_millis(#millis));
        }
    });
    // Consts whose value is the trait's default are left to it: each const costs a tool
    // about 0.3 M instructions to compile, used or not.
    let output_schema = tool.output.as_ref().map(|_| {
        quote! {
            const OUTPUT_SCHEMA: ::core::option::Option<&'static str> =
                ::core::option::Option::Some(::toolgen::__private::Flat::as_str(&__TOOLGEN_OUT_TEXT));
        }
    });
    let strict_const = is_strict.then(|| {
        quote!(
            const STRICT: bool = true;
        )
    });

    // The dialects the tool insists on (its strict modes, Gemini `parameters`) or skips, as
    // bits; their texts are written at run time, at first use.
    let mut modes = Vec::new();
    if strict.is_some_and(|s| s.openai()) {
        modes.push(quote!(::toolgen::__private::facts::OPENAI));
    }
    if strict.is_some_and(|s| s.anthropic()) {
        modes.push(quote!(::toolgen::__private::facts::ANTHROPIC));
    }
    match tool.gemini.map(|(mode, _)| mode) {
        Some(crate::attr::Gemini::Parameters) => {
            modes.push(quote!(::toolgen::__private::facts::GEMINI))
        }
        Some(crate::attr::Gemini::JsonSchema) => {
            modes.push(quote!(::toolgen::__private::facts::GEMINI_SKIP))
        }
        None => {}
    }
    let modes_const = (!modes.is_empty()).then(|| {
        quote! {
            const __TOOLGEN_MODES: u8 = #(#modes)|*;
        }
    });
    let modes_item = (!modes.is_empty()).then(|| {
        quote!(
            const MODES: u8 = __TOOLGEN_MODES;
        )
    });

    // What only some providers' definitions take.
    let mcp = &tool.mcp;
    let extras = (tool.cache_control.is_some()
        || tool.defer_loading
        || tool.eager_input_streaming
        || !tool.input_examples.is_empty()
        || mcp.title.is_some()
        || mcp.hints().iter().any(Option::is_some)
        || !mcp.icons.is_empty())
    .then(|| {
        let cache_control = option_tokens(tool.cache_control.as_ref());
        let (defer, eager) = (tool.defer_loading, tool.eager_input_streaming);
        let examples = if tool.input_examples.is_empty() {
            String::new()
        } else {
            format!("[{}]", tool.input_examples.join(","))
        };
        let title = option_tokens(mcp.title.as_ref());
        let hints = mcp
            .hints()
            .into_iter()
            .map(|hint| option_tokens(hint.map(|(on, _)| on)));
        let icons = mcp.icons.iter().map(|icon| {
            let (src, sizes) = (&icon.src, &icon.sizes);
            let mime_type = option_tokens(icon.mime_type.as_ref());
            let theme = option_tokens(icon.theme.as_ref());
            quote!(::toolgen::__private::Icon {
                src: #src,
                mime_type: #mime_type,
                sizes: &[#(#sizes),*],
                theme: #theme,
            })
        });
        quote! {
            const EXTRAS: ::toolgen::__private::Extras = ::toolgen::__private::Extras {
                cache_control: #cache_control,
                defer_loading: #defer,
                eager_input_streaming: #eager,
                input_examples: #examples,
                title: #title,
                hints: [#(#hints),*],
                icons: &[#(#icons),*],
            };
        }
    });
    let input = text_consts(
        "__TOOLGEN_",
        body_rope,
        &quote!(<#ident as ::toolgen::__private::ToolSchema>::DEFS),
        Span::call_site(),
    );
    // A flattened enum would make the arguments one of several objects: refused, at its type.
    let mut checks = Vec::new();
    if let Data::Named(fields) = &container.data
        && delegate_type(container).is_none()
    {
        for ty in fields
            .iter()
            .filter(|f| f.flatten.is_some() && !f.skip)
            .map(|f| f.ty)
        {
            checks.push(quote_spanned! {span_of(ty)=>
                const _: () = ::toolgen::__private::flattened_at_root(
                    &<#ty as ::toolgen::__private::ToolSchema>::OBJECT);
            });
        }
    }
    // Whether those dialects can express the input is known now, from the types' facts: one
    // check per field, spanned at its type, and one for what no field holds (at `strict`).
    let insist_span = match (tool.strict, tool.gemini) {
        (Some((_, span)), _) => Some(span),
        (None, Some((crate::attr::Gemini::Parameters, span))) => Some(span),
        _ => None,
    };
    if let Some(rest_span) = insist_span {
        let facts = quote!(<#ident as ::toolgen::__private::ToolSchema>::FACTS);
        let per_field = match &container.data {
            Data::Named(fields) if !recursive && delegate_type(container).is_none() => {
                crate::facts::property_kids(fields)
            }
            _ => Vec::new(),
        };
        let fields_checked = !per_field.is_empty();
        for (field, index) in per_field {
            checks.push(quote_spanned! {span_of(field.ty)=>
                const _: () = ::toolgen::__private::check_field(#facts, #index, __TOOLGEN_MODES);
            });
        }
        checks.push(quote_spanned! {rest_span=>
            const _: () = ::toolgen::__private::check_rest(#facts, __TOOLGEN_MODES, #fields_checked);
        });
    }

    quote! {
        #output
        #input
        #modes_const
        #(#checks)*

        #[automatically_derived]
        impl ::toolgen::__private::Tool for #ident {
            const NAME: &'static str = #name;
            const DESCRIPTION: &'static str = #tool_description;
            #strict_const
            const INPUT_SCHEMA: &'static str = ::toolgen::__private::Flat::as_str(&__TOOLGEN_TEXT);
            #output_schema
            #modes_item
            #timeout
            #extras
            fn cache() -> &'static ::toolgen::__private::ToolCache {
                static CACHE: ::toolgen::__private::ToolCache = ::toolgen::__private::ToolCache::new();
                &CACHE
            }
        }
    }
}

/// The `$defs` the type needs (the `DEFS` expression, and the statics it points to): its own
/// entry if it is recursive, those of the types it uses (except through fields that lead back to
/// itself, which would be a const-evaluation cycle), and, behind a `static` for each type a
/// `#[tool(recursive)]` field leads to, that type's definitions and entry.
fn defs(
    container: &Container<'_>,
    body: &Node,
    recursive: bool,
    self_ty: &syn::Type,
    entry: &TokenStream,
) -> (TokenStream, TokenStream) {
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
        0 => quote!(::toolgen::__private::Defs::None),
        1 => parts.remove(0),
        _ => quote!(::toolgen::__private::Defs::Seq(&[#(#parts),*])),
    };
    (defs, statics)
}

/// A `Rope` expression for a node, with all literal pieces folded.
pub(crate) fn rope(node: &Node) -> TokenStream {
    Ropes {
        named: None,
        branches: None,
    }
    .rope(node)
}

/// Writes `Rope` expressions; a node equal to `named`'s is written as the const named there
/// (a struct's properties, written once for its schema, its `OBJECT` and its tool's root).
struct Ropes<'n> {
    named: Option<(&'n Node, &'n syn::Ident)>,
    /// The container's flattened types, whose `Branches` are the const named here.
    branches: Option<(&'n [syn::Type], &'n syn::Ident)>,
}

impl Ropes<'_> {
    fn rope(&self, node: &Node) -> TokenStream {
        if let Some((named, ident)) = self.named
            && named == node
        {
            return quote!(#ident);
        }
        // A typed schema stays `Rope::Typed` even when all its text is known, so that `Option` of the
        // type widens its `type` with `null` (`Rope::Nullable`), as it does for generic types.
        if let Node::Typed(ty, tail) = node
            && let Some(tail) = tail.literal()
        {
            return quote!(::toolgen::__private::Rope::Typed(#ty, &::toolgen::__private::Rope::Str(#tail)));
        }
        if let Some(text) = node.literal() {
            return quote!(::toolgen::__private::Rope::Str(#text));
        }
        match node {
            Node::Seq(pieces) => self.seq(pieces, false),
            Node::Typed(ty, tail) => {
                let tail = self.rope(tail);
                quote!(::toolgen::__private::Rope::Typed(#ty, &#tail))
            }
            Node::Nullable(inner) => {
                let inner = self.rope(inner);
                quote!(::toolgen::__private::Rope::Nullable(&#inner))
            }
            Node::Described(inner, description) => {
                let inner = self.rope(inner);
                quote!(::toolgen::__private::Rope::Described(&#inner, #description))
            }
            Node::Trait(ty) => {
                quote_spanned!(span_of(ty)=> <#ty as ::toolgen::__private::ToolSchema>::SCHEMA)
            }
            Node::SelfRef(ty) => {
                quote!(::toolgen::__private::Rope::Ref(&<#ty as ::toolgen::__private::Recursive>::ID))
            }
            Node::Cycle(ty) => quote_spanned!(span_of(ty)=>
                ::toolgen::__private::Rope::Ref(&<#ty as ::toolgen::__private::Cyclic>::ID)),
            // A list none of whose pieces can turn out empty is a sequence with commas between:
            // its literal pieces then join the text around them.
            Node::Join(pieces) if pieces.iter().all(Node::never_empty_or_nothing) => {
                self.seq(pieces, true)
            }
            Node::Join(pieces) => {
                // Neighbouring literal pieces are joined here already; empty ones dropped.
                let mut items = Vec::new();
                let mut text: Vec<String> = Vec::new();
                for piece in pieces {
                    match piece.literal() {
                        Some(literal) if literal.is_empty() => {}
                        Some(literal) => text.push(literal),
                        None => {
                            if !text.is_empty() {
                                let joined = text.join(",");
                                items.push(quote!(::toolgen::__private::Rope::Str(#joined)));
                                text.clear();
                            }
                            items.push(self.rope(piece));
                        }
                    }
                }
                if !text.is_empty() {
                    let joined = text.join(",");
                    items.push(quote!(::toolgen::__private::Rope::Str(#joined)));
                }
                quote!(::toolgen::__private::Rope::Join(&[#(#items),*]))
            }
            Node::Keyword(prefix, inner, suffix) => {
                let inner = self.rope(inner);
                quote!(::toolgen::__private::Rope::Keyword(#prefix, &#inner, #suffix))
            }
            Node::Extend(inner, keywords) => {
                let (inner, keywords) = (self.rope(inner), self.rope(keywords));
                quote!(::toolgen::__private::Rope::Extend(&#inner, &#keywords))
            }
            // The object check runs first, where the type is written, so its error points there.
            Node::PropertiesOf(ty) => quote_spanned!(span_of(ty)=>
            ::toolgen::__private::Rope::Seq(&[
                ::toolgen::__private::Rope::Str(::toolgen::__private::require_object(
                    &<#ty as ::toolgen::__private::ToolSchema>::OBJECT)),
                ::toolgen::__private::Rope::PropertiesOf(&<#ty as ::toolgen::__private::ToolSchema>::OBJECT),
            ])),
            Node::RequiredOf(ty) => quote_spanned!(span_of(ty)=>
            ::toolgen::__private::Rope::RequiredOf(&<#ty as ::toolgen::__private::ToolSchema>::OBJECT)),
            Node::AdditionalOf(ty) => quote_spanned!(span_of(ty)=>
            ::toolgen::__private::Rope::AdditionalOf(&<#ty as ::toolgen::__private::ToolSchema>::OBJECT)),
            Node::UniqueNames(own, flattened) => {
                // Spanned at the first flattened type: that is where a repeated name comes from.
                let span = flattened.first().map_or_else(Span::call_site, span_of);
                let flattened = flattened.iter().map(|ty| {
                    quote_spanned!(span_of(ty)=>
                ::toolgen::__private::Names::Of(&<#ty as ::toolgen::__private::ToolSchema>::OBJECT))
                });
                quote_spanned!(span=> ::toolgen::__private::Rope::Str(::toolgen::__private::unique_names(
                    &::toolgen::__private::Names::Seq(&[
                        ::toolgen::__private::Names::List(&[#(#own),*]),
                        #(#flattened),*
                    ])
                )))
            }
            Node::Branches(flattened, template) => {
                let template = self.rope(template);
                let branches = match self.branches {
                    Some((named, ident)) if named == flattened.as_slice() => quote!(#ident),
                    _ => branches_of(flattened),
                };
                quote!(::toolgen::__private::Rope::Branches(&#branches, &#template))
            }
            Node::CheckDefault(ty, string) => {
                let string = option_tokens(string.as_ref());
                quote_spanned!(span_of(ty)=> ::toolgen::__private::Rope::Str(
                ::toolgen::__private::check_default::<#ty>(#string)))
            }
            Node::DenyOf(ty) => quote_spanned!(span_of(ty)=>
            ::toolgen::__private::Rope::DenyOf(&<#ty as ::toolgen::__private::ToolSchema>::OBJECT)),
            Node::DefaultOf(ty) => quote_spanned!(span_of(ty)=>
            ::toolgen::__private::Rope::DefaultOf(&<#ty as ::toolgen::__private::ToolSchema>::DEFAULT)),
            // Literal: handled above.
            Node::Text(_) | Node::Keywords(_) => {
                let text = node.literal().unwrap_or_default();
                quote!(::toolgen::__private::Rope::Str(#text))
            }
        }
    }

    /// `Rope::Seq` of `pieces` (with commas between, for a list's: `commas`), their literal
    /// text joined.
    fn seq(&self, pieces: &[Node], commas: bool) -> TokenStream {
        let mut items = Vec::new();
        let mut text = String::new();
        if commas {
            self.flatten_join(pieces, &mut items, &mut text);
        } else {
            self.flatten_seq(pieces, &mut items, &mut text);
        }
        if !text.is_empty() {
            items.push(Piece::Text(text));
        }
        // Text between the schemas of types (the common case: a struct's properties) is one
        // call of the runtime's `seqN`, with an empty text where two schemas meet.
        if items.iter().all(|item| !matches!(item, Piece::Expr(_))) {
            let mut texts = vec![String::new()];
            let mut types = Vec::new();
            for item in &items {
                match item {
                    Piece::Text(text) => {
                        texts.last_mut().into_iter().for_each(|t| t.push_str(text))
                    }
                    Piece::Schema(ty) => {
                        types.push(*ty);
                        texts.push(String::new());
                    }
                    Piece::Expr(_) => {}
                }
            }
            if let Some(call) = list_call("seq", &types, "SCHEMA", quote!([#(#texts),*])) {
                return quote!(::toolgen::__private::Rope::Seq(&#call));
            }
        }
        let items = items.iter().map(|item| match item {
            Piece::Text(text) => quote!(::toolgen::__private::Rope::Str(#text)),
            Piece::Schema(ty) => {
                quote_spanned!(span_of(ty)=> <#ty as ::toolgen::__private::ToolSchema>::SCHEMA)
            }
            Piece::Expr(expr) => expr.clone(),
        });
        quote!(::toolgen::__private::Rope::Seq(&[#(#items),*]))
    }

    /// Appends the pieces of a sequence, joining neighbouring literal text into one piece.
    ///
    /// A piece that is itself a sequence, a typed schema (its `{"type":..` is text), or a list
    /// that cannot be empty, is written out in place: only a piece standing alone is ever widened
    /// by `Rope::Nullable` or told apart by kind, never one inside a sequence.
    fn flatten_seq<'p>(&self, pieces: &'p [Node], items: &mut Vec<Piece<'p>>, text: &mut String) {
        for piece in pieces {
            self.flatten_piece(piece, items, text);
        }
    }

    /// [`Self::flatten_seq`] of a list's pieces with commas between, the empty ones left out.
    fn flatten_join<'p>(&self, pieces: &'p [Node], items: &mut Vec<Piece<'p>>, text: &mut String) {
        let mut first = true;
        for piece in pieces {
            let literal = piece.literal();
            if literal.as_deref() == Some("") {
                continue;
            }
            if !first {
                text.push(',');
            }
            first = false;
            self.flatten_known(piece, literal, items, text);
        }
    }

    fn flatten_piece<'p>(&self, piece: &'p Node, items: &mut Vec<Piece<'p>>, text: &mut String) {
        self.flatten_known(piece, piece.literal(), items, text);
    }

    /// [`Self::flatten_piece`], `literal` being the piece's text if the macro knows it all
    /// (worked out once: it is a walk of the piece).
    fn flatten_known<'p>(
        &self,
        piece: &'p Node,
        literal: Option<String>,
        items: &mut Vec<Piece<'p>>,
        text: &mut String,
    ) {
        if let Some(literal) = literal {
            text.push_str(&literal);
            return;
        }
        let named = self.named.is_some_and(|(named, _)| named == piece);
        match piece {
            Node::Seq(inner) if !named => self.flatten_seq(inner, items, text),
            Node::Join(inner) if !named && inner.iter().all(Node::never_empty_or_nothing) => {
                self.flatten_join(inner, items, text);
            }
            Node::Typed(ty, tail) if !named => {
                text.push_str(&format!("{{\"type\":\"{ty}\""));
                self.flatten_piece(tail, items, text);
            }
            _ => {
                if !text.is_empty() {
                    items.push(Piece::Text(std::mem::take(text)));
                }
                items.push(match piece {
                    Node::Trait(ty) if !named => Piece::Schema(ty),
                    _ => Piece::Expr(self.rope(piece)),
                });
            }
        }
    }
}

/// A piece of a `Rope::Seq` being written: literal text, a type's schema, or another rope.
enum Piece<'p> {
    Text(String),
    Schema(&'p syn::Type),
    Expr(TokenStream),
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
    // One const for all of them: a const per name costs about 0.5 M instructions to compile.
    quote! {
        const _: (#(#expected,)*) = (#(#found,)*);
    }
}

/// `Branches` of the flattened types: the alternatives a flattened enum among them brings.
fn branches_of(flattened: &[syn::Type]) -> TokenStream {
    if flattened.is_empty() {
        return quote!(::toolgen::__private::Branches::None);
    }
    // From the second on, each is checked against those before it: one enum at most.
    let each = flattened.iter().enumerate().map(|(i, ty)| {
        let object =
            quote_spanned!(span_of(ty)=> &<#ty as ::toolgen::__private::ToolSchema>::OBJECT);
        if i == 0 {
            return quote!(::toolgen::__private::Branches::Of(#object));
        }
        let earlier = flattened[..i].iter().map(
            |ty| quote_spanned!(span_of(ty)=> &<#ty as ::toolgen::__private::ToolSchema>::OBJECT),
        );
        quote_spanned!(span_of(ty)=> ::toolgen::__private::Branches::Of(
            ::toolgen::__private::flattened_after(#object, &[#(#earlier),*])))
    });
    quote!(::toolgen::__private::Branches::Seq(&[#(#each),*]))
}

/// `OBJECT`: what `#[serde(flatten)]` of this type merges into the enclosing object.
/// `OBJECT`; `shared`: the properties are the const `__TOOLGEN_PROPERTIES`.
fn object_const(cx: &Context<'_>, shared: bool, shared_branches: bool) -> TokenStream {
    if let Some(ty) = delegate_type(cx.container) {
        return quote! {
            const OBJECT: ::core::option::Option<::toolgen::__private::Object> =
                <#ty as ::toolgen::__private::ToolSchema>::OBJECT;
        };
    }
    let fields = match &cx.container.data {
        Data::Named(fields) => fields,
        Data::Enum(variants) => return crate::schema::enums::object_const(cx, variants),
        _ => return TokenStream::new(),
    };
    let parts = object_parts(cx, fields);
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
    let externally_tagged = container.serde.tag.is_none() && !container.serde.untagged;
    let readable: Vec<&Variant<'_>> = variants.iter().filter(|v| !v.skip).collect();
    let string_enum = externally_tagged
        && readable
            .iter()
            .all(|v| matches!(v.shape, Shape::Unit) && !v.untagged && v.other.is_none());
    let values = string_enum.then(|| {
        let names = readable.iter().map(|v| v.name.as_str());
        quote! {
            const ENUM_VALUES: ::core::option::Option<&'static [&'static str]> =
                ::core::option::Option::Some(&[#(#names),*]);
        }
    });
    let default = variants.iter().find(|v| {
        !v.skip
            && matches!(v.shape, Shape::Unit)
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

/// Whether a field has constraints the parsed value must be checked against.
fn has_constraints(field: &Field<'_>) -> bool {
    let tool = &field.tool;
    tool.range.is_some() || tool.length.is_some() || tool.pattern.is_some() || tool.format.is_some()
}

/// The body of `check_constraints` for a struct whose fields have no constraints of their own:
/// one call checking the fields of types of yours in order (`check_fieldsN`). `None` when a
/// field has some, or is flattened, or there are none or too many to check.
fn nested_checks(fields: &[Field<'_>]) -> Option<TokenStream> {
    let mut members = Vec::new();
    let mut names = Vec::new();
    let mut types = Vec::new();
    for field in fields.iter().filter(|f| !f.skip) {
        if has_constraints(field) || field.flatten.is_some() {
            return None;
        }
        if field.tool.schema.is_some() || is_plain(field.ty) {
            continue;
        }
        members.push(field.original.ident.as_ref()?);
        names.push(field.name.as_str());
        types.push(field.ty);
    }
    let call = list_call(
        "check_fields",
        &types,
        "NEEDS_CHECK",
        quote!((#(&self.#members,)*), [#(#names),*]),
    )?;
    Some(quote! {
        if let ::core::result::Result::Err(__toolgen_violation) = #call {
            return ::core::result::Result::Err(__toolgen_violation);
        }
    })
}

/// The value of `NEEDS_CHECK` (`None`: the trait's `false`), and `check_constraints`: what the
/// schema states and serde does not enforce.
fn constraint_checks(container: &Container<'_>) -> (Option<TokenStream>, TokenStream) {
    if container.serde.from.is_some() {
        // serde builds the value from another type; that type's constraints were its own.
        return (None, TokenStream::new());
    }
    let cycles = cycle_types(container);
    let own = match &container.data {
        Data::Named(fields) => fields.iter().any(|f| !f.skip && has_constraints(f)),
        Data::Enum(variants) => variants.iter().any(|v| match &v.shape {
            Shape::Struct(fields) => fields.iter().any(|f| !f.skip && has_constraints(f)),
            _ => false,
        }),
        _ => false,
    };
    // The Rust values of fields read through `#[tool(schema)]` are not of the schema's type, so
    // only fields whose own type is their schema's are checked (the checks refuse constraints on
    // the others).
    let nested: Vec<&syn::Type> = field_types(container)
        .into_iter()
        .zip(rust_field_types(container))
        .filter(|(input, rust)| {
            input == rust
                && !mentions_self(rust, container.ident)
                && !is_plain(rust)
                && !cycles.contains(rust)
        })
        .map(|(_, rust)| rust)
        .collect();
    let cyclic = !cycles.is_empty();
    if !own && nested.is_empty() && !cyclic {
        return (None, TokenStream::new());
    }
    // A struct whose fields have no constraints of their own passes each field of a type of
    // yours to that type's checks: one call of the runtime's `check_fieldsN` (see `list_call`).
    let nested_only = match &container.data {
        Data::Named(fields) if !own => nested_checks(fields),
        _ => None,
    };
    let body = match (&container.data, nested_only) {
        (_, Some(body)) => body,
        (Data::Named(fields), None) => {
            let checks = fields.iter().filter(|f| !f.skip).map(|field| {
                let member = field
                    .original
                    .ident
                    .as_ref()
                    .map(|ident| quote!(&self.#ident));
                check_field(field, &quote!(#member), &[])
            });
            quote!(#(#checks)*)
        }
        (Data::Tuple(fields), None) => {
            let checks = fields.iter().enumerate().map(|(i, field)| {
                let index = syn::Index::from(i);
                let within = (fields.len() > 1 && !container.serde.transparent)
                    .then(|| quote!(.within_index(#i)));
                fail_within(
                    nested_check(&field.ty, &quote!(&self.#index)),
                    quote!(#within),
                )
            });
            quote!(#(#checks)*)
        }
        (Data::Enum(variants), None) => check_enum(container, variants),
        (_, None) => TokenStream::new(),
    };
    // Without a body (only plain fields), the trait's default does the same.
    let check_fn = (!body.is_empty()).then(|| {
        quote! {
            #[inline]
            fn check_constraints(
                &self,
            ) -> ::core::result::Result<(), ::toolgen::__private::Violation> {
                #body
                ::core::result::Result::Ok(())
            }
        }
    });
    // Each type once, and no `false ||`: every term is one more to type-check.
    let mut seen = std::collections::HashSet::new();
    let mut terms: Vec<TokenStream> = nested
        .iter()
        .filter(|ty| seen.insert(quote!(#ty).to_string()))
        .map(|ty| quote!(<#ty as ::toolgen::__private::ToolSchema>::NEEDS_CHECK))
        .collect();
    if own || cyclic {
        terms = vec![quote!(true)];
    }
    (Some(quote!(#(#terms)||*)), quote!(#check_fn))
}

/// The checks of one field, reached through `value` (a `&FieldType` expression); `outer` are the
/// path segments (innermost first) between the field and the container.
fn check_field(field: &Field<'_>, value: &TokenStream, outer: &[TokenStream]) -> TokenStream {
    if field.tool.schema.is_some() {
        return TokenStream::new();
    }
    let ty = field.ty;
    let name = &field.name;
    let within = if field.flatten.is_some() {
        quote!(#(#outer)*)
    } else {
        quote!(.within_field(#name) #(#outer)*)
    };
    let tool = &field.tool;
    let mut checks = Vec::new();
    let number = |bound: &Option<crate::attr::LitExpr>| {
        let n = bound
            .as_ref()
            .and_then(crate::schema::keywords::number)
            .and_then(|n| n.parse::<f64>().ok());
        option_tokens(n.map(proc_macro2::Literal::f64_unsuffixed))
    };
    let count = |bound: &Option<crate::attr::LitExpr>| {
        let n = bound
            .as_ref()
            .and_then(crate::schema::keywords::number)
            .and_then(|n| n.parse::<usize>().ok());
        option_tokens(n)
    };
    if let Some(range) = &tool.range {
        let (min, max) = (number(&range.min), number(&range.max));
        checks.push(quote! {
            ::toolgen::__private::check_range(
                ::toolgen::__private::Constrained::number(__toolgen_value), #min, #max)
        });
    }
    if let Some(length) = &tool.length {
        let (min, max) = (count(&length.min), count(&length.max));
        checks.push(quote! {
            ::toolgen::__private::check_length(__toolgen_value, #min, #max)
        });
    }
    if let Some(pattern) = &tool.pattern {
        checks.push(quote! {{
            static __TOOLGEN_REGEX: ::std::sync::OnceLock<
                ::core::option::Option<::toolgen::__private::Regex>,
            > = ::std::sync::OnceLock::new();
            ::toolgen::__private::check_pattern(
                ::toolgen::__private::Constrained::text(__toolgen_value),
                #pattern,
                &__TOOLGEN_REGEX,
            )
        }});
    }
    if let Some(format) = &tool.format {
        checks.push(quote! {
            ::toolgen::__private::check_format(
                ::toolgen::__private::Constrained::text(__toolgen_value), #format)
        });
    }
    if checks.is_empty() {
        // The common case, a field of a type of yours without constraints of its own: no `let`
        // (a binding and its type to check cost about 0.17 M instructions a field to compile,
        // benches/compile_time.sh).
        if is_plain(ty) {
            return TokenStream::new();
        }
        return fail_within(nested_check(ty, value), within);
    }
    let nested = (!is_plain(ty))
        .then(|| fail_within(nested_check(ty, &quote!(__toolgen_value)), within.clone()));
    let checks = checks
        .into_iter()
        .map(|check| fail_within(check, within.clone()));
    quote! {{
        let __toolgen_value: &#ty = #value;
        #(#checks)*
        #nested
    }}
}

/// The checks of `value` (a `&ty` expression), whose type may have its own
/// (`ToolSchema::check_nested`), as a `Result<(), Violation>` expression. Spanned at the type, so
/// that a type without a schema is reported there, once.
fn nested_check(ty: &syn::Type, value: &TokenStream) -> TokenStream {
    quote_spanned!(span_of(ty)=> <#ty as ::toolgen::__private::ToolSchema>::check_nested(#value))
}

/// Returns from `check_constraints` with the violation of `check` (a `Result<(), Violation>`
/// expression), its path extended by `within` (`.within_field(..)` calls, innermost first).
/// Written without a closure or `?`: each closure is one more body to type-check and borrow-check
/// per field, about 1.6 M instructions a tool to compile (benches/compile_time.sh).
fn fail_within(check: TokenStream, within: TokenStream) -> TokenStream {
    quote! {
        if let ::core::result::Result::Err(__toolgen_violation) = #check {
            return ::core::result::Result::Err(__toolgen_violation #within);
        }
    }
}

/// `match self` over the variants, checking each one's content with its JSON path.
fn check_enum(container: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let serde = &container.serde;
    let arms = variants.iter().filter(|v| !v.skip).map(|variant| {
        let ident = &variant.original.ident;
        // Where serde puts the content: under the variant's name (external), under the content
        // key (adjacent), or beside the tag / on its own (internal, untagged).
        let outer: Vec<TokenStream> = if variant.untagged || serde.untagged {
            Vec::new()
        } else {
            match (&serde.tag, &serde.content) {
                (Some(_), Some(content)) => {
                    let key = &content;
                    vec![quote!(.within_field(#key))]
                }
                (Some(_), None) => Vec::new(),
                _ => {
                    let key = &variant.name;
                    vec![quote!(.within_field(#key))]
                }
            }
        };
        match &variant.shape {
            Shape::Unit => quote!(Self::#ident => {}),
            Shape::Newtype(ty) => {
                let check = fail_within(
                    nested_check(ty, &quote!(__toolgen_inner)),
                    quote!(#(#outer)*),
                );
                quote!(Self::#ident(__toolgen_inner) => { #check })
            }
            Shape::Tuple(items) => {
                let bindings: Vec<syn::Ident> = (0..items.len())
                    .map(|i| format_ident!("__toolgen_{}", i))
                    .collect();
                let checks = items
                    .iter()
                    .zip(&bindings)
                    .enumerate()
                    .map(|(i, (ty, binding))| {
                        fail_within(
                            nested_check(ty, &quote!(#binding)),
                            quote!(.within_index(#i) #(#outer)*),
                        )
                    });
                quote!(Self::#ident(#(#bindings),*) => { #(#checks)* })
            }
            Shape::Struct(fields) => {
                let live: Vec<&Field<'_>> = fields.iter().filter(|f| !f.skip).collect();
                let bindings: Vec<syn::Ident> = (0..live.len())
                    .map(|i| format_ident!("__toolgen_{}", i))
                    .collect();
                let members = live.iter().map(|f| &f.original.ident);
                let checks = live
                    .iter()
                    .zip(&bindings)
                    .map(|(field, binding)| check_field(field, &quote!(#binding), &outer));
                quote!(Self::#ident { #(#members: #bindings,)* .. } => { #(#checks)* })
            }
        }
    });
    quote! {
        #[allow(unreachable_patterns)]
        match self {
            #(#arms)*
            _ => {}
        }
    }
}

/// `::core::option::Option::Some(value)` or `::core::option::Option::None`, as tokens.
pub(crate) fn option_tokens(value: Option<impl quote::ToTokens>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}

/// The longest list the runtime has a function for (`toolgen_runtime`'s `lists` module:
/// `seq1`..`seq12`, `null_fields1`.., `kids1`.., `check_fields1`..).
const MAX_LIST: usize = 12;

/// A call of the runtime's list function `kind` for `types` (`kindN::<T1, .., TN>(args)`): the
/// list in one expression, which rustc checks once in the runtime, instead of an expression per
/// type in every const that lists them. `None` for no types, or more than the runtime has a
/// function for.
///
/// Each type's `konst` is named first, in the same block (`let _ = <T as ToolSchema>::NULLS;`):
/// a type without a schema is then reported there, as in every other const that names it, and
/// rustc leaves out the error of the call's bound at the same place. Without it, the type would
/// be reported once more per list function, with the bound as a note.
pub(crate) fn list_call(
    kind: &str,
    types: &[&syn::Type],
    konst: &str,
    args: TokenStream,
) -> Option<TokenStream> {
    if types.is_empty() || types.len() > MAX_LIST {
        return None;
    }
    let function = format_ident!("{}{}", kind, types.len());
    let konst = format_ident!("{}", konst);
    Some(quote! {{
        #(let _ = <#types as ::toolgen::__private::ToolSchema>::#konst;)*
        ::toolgen::__private::#function::<#(#types),*>(#args)
    }})
}

/// [`list_call`] of `kind` for named types: the names are its argument.
pub(crate) fn type_list(
    kind: &str,
    named: &[(&str, syn::Type)],
    konst: &str,
) -> Option<TokenStream> {
    let names = named.iter().map(|(name, _)| *name);
    let types: Vec<&syn::Type> = named.iter().map(|(_, ty)| ty).collect();
    list_call(kind, &types, konst, quote!([#(#names),*]))
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
