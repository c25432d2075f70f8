//! The `Tool` impl of `#[derive(Tool)]`: the input schema flattened into a const, the dialects
//! the tool insists on, what only some providers take, and the checks that stop the build where a
//! dialect cannot express a field.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;

use super::rope::option_tokens;
use crate::shape::delegate_type;
use crate::shape::ty::span_of;
use crate::shape::{Container, Data, ToolInfo};

/// The consts of a schema's text: `{prefix}ROOT`, the root by reference (it is named twice: the
/// text is written from it in one walk, and again when it is longer than that walk's buffer, and
/// each `&` of a const's value would be a copy of its own for rustc to check), unless it is in a
/// const by reference already (`by_reference`, the const's name: one of its own would be one
/// more body to check), then [`flat_consts`]. The definitions are named where they are used (a
/// const of their own for the two uses cost more to compile than it saved).
fn text_consts(
    prefix: &str,
    root: &TokenStream,
    by_reference: Option<&TokenStream>,
    defs: &TokenStream,
    span: Span,
) -> TokenStream {
    // The consts' names are the derive's, not the type's: where a name of the type is
    // misspelt, rustc suggests a generic parameter of the item named there.
    let r = format_ident!("{prefix}ROOT");
    let (root_const, root_ref) = match by_reference {
        Some(name) => (None, name.clone()),
        None => (
            Some(quote_spanned!(span=> const #r: &::toolgen::__private::Rope = &#root;)),
            quote!(#r),
        ),
    };
    let flat = flat_consts(prefix, &root_ref, &quote!(&#defs), span);
    quote_spanned! {span=>
        #root_const
        #flat
    }
}

/// The consts `{prefix}FLAT` and `TEXT` of the text of `root` (a `&Rope`) with the definitions
/// `defs` (a `&Defs`): the walk that writes it into a buffer and counts it, and the text (copied
/// out of the buffer, or written again when it is longer), whose type holds its length (an
/// anonymous const: a named one beside it would be one more body for rustc to check).
pub(super) fn flat_consts(
    prefix: &str,
    root: &TokenStream,
    defs: &TokenStream,
    span: Span,
) -> TokenStream {
    let [f, t] = ["FLAT", "TEXT"].map(|name| format_ident!("{prefix}{name}"));
    quote_spanned! {span=>
        const #f: &::toolgen::__private::Capped = &::toolgen::__private::flatten_capped(#root, #defs);
        const #t: ::toolgen::__private::Flat<{ #f.len }> = ::toolgen::__private::flat_text(#f, #root, #defs);
    }
}

/// The `Tool` impl: the flattened input schema (a const), the dialects it insists on, the cache
/// where its dialects and definitions are built at first use, and for a strict tool the checks
/// that stop the build where a dialect cannot express a field.
pub(super) fn expand_tool(
    container: &Container<'_>,
    tool: &ToolInfo,
    body_rope: &TokenStream,
    body_ref: Option<&TokenStream>,
    recursive: bool,
) -> TokenStream {
    let ident = container.ident;
    let name = &tool.name;
    let tool_description = match &container.description {
        Some(desc) => desc.raw_tokens(),
        None => quote!(""),
    };
    let output = tool.output.as_ref().map(|out| {
        text_consts(
            "__TOOLGEN_OUT_",
            &quote_spanned!(span_of(out)=> <#out as ::toolgen::__private::ToolSchema>::SCHEMA),
            None,
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
    let needs_approval = tool.needs_approval.then(|| {
        quote!(
            const NEEDS_APPROVAL: bool = true;
        )
    });
    let scopes = (!tool.scopes.is_empty()).then(|| {
        let scopes = &tool.scopes;
        quote! {
            const SCOPES: &'static [&'static str] = &[#(#scopes),*];
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
    let strict_const = tool.strict.is_some().then(|| {
        quote!(
            const STRICT: bool = true;
        )
    });

    let modes = modes(tool);
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
    let extras = extras_const(tool);
    let input = text_consts(
        "__TOOLGEN_",
        body_rope,
        body_ref,
        &quote!(<#ident as ::toolgen::__private::ToolSchema>::DEFS),
        Span::call_site(),
    );
    let checks = tool_checks(container, tool, recursive);
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
            #needs_approval
            #scopes
            #extras
        }
    }
}

/// The dialects the tool insists on (its strict modes, Gemini `parameters`) or skips, as bits;
/// their texts are written at run time, at first use.
fn modes(tool: &ToolInfo) -> Vec<TokenStream> {
    let strict = tool.strict.map(|(strict, _)| strict);
    let mut modes = Vec::new();
    if strict.is_some_and(|s| s.openai()) {
        modes.push(quote!(::toolgen::__private::facts::OPENAI));
    }
    if strict.is_some_and(|s| s.anthropic()) {
        modes.push(quote!(::toolgen::__private::facts::ANTHROPIC));
    }
    match tool.gemini.map(|(mode, _)| mode) {
        Some(crate::attr::tool::Gemini::Parameters) => {
            modes.push(quote!(::toolgen::__private::facts::GEMINI))
        }
        Some(crate::attr::tool::Gemini::JsonSchema) => {
            modes.push(quote!(::toolgen::__private::facts::GEMINI_SKIP))
        }
        None => {}
    }
    modes
}

/// `EXTRAS`: what only some providers' definitions take (cache control, deferred loading, input
/// examples, MCP's title, hints and icons); `None` when the tool sets none of it.
fn extras_const(tool: &ToolInfo) -> Option<TokenStream> {
    let mcp = &tool.mcp;
    (tool.cache_control.is_some()
        || tool.defer_loading
        || tool.eager_input_streaming
        || !tool.allowed_callers.is_empty()
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
            let texts: Vec<&str> = tool
                .input_examples
                .iter()
                .map(|e| e.text.as_str())
                .collect();
            format!("[{}]", texts.join(","))
        };
        let title = option_tokens(mcp.title.as_ref());
        let hints = mcp
            .hints()
            .into_iter()
            .map(|hint| option_tokens(hint.map(|(on, _)| on)));
        let callers = tool.allowed_callers.iter().map(|caller| match caller {
            crate::attr::tool::CallerKind::Direct => {
                quote!(::toolgen::__private::AllowedCaller::Direct)
            }
            crate::attr::tool::CallerKind::Program => {
                quote!(::toolgen::__private::AllowedCaller::Program)
            }
        });
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
                allowed_callers: &[#(#callers),*],
            };
        }
    })
}

/// The consts that stop the build: a flattened enum at the root, and where the dialects the
/// tool insists on cannot express the input.
fn tool_checks(container: &Container<'_>, tool: &ToolInfo, recursive: bool) -> Vec<TokenStream> {
    let ident = container.ident;
    // A flattened enum would make the arguments one of several objects: refused, at its type.
    let mut checks = Vec::new();
    if let Data::Named(fields) = &container.data
        && delegate_type(container).is_none()
    {
        for ty in fields.iter().filter(|f| f.flatten.is_some()).map(|f| f.ty) {
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
        (None, Some((crate::attr::tool::Gemini::Parameters, span))) => Some(span),
        _ => None,
    };
    if let Some(rest_span) = insist_span {
        let facts = quote!(<#ident as ::toolgen::__private::ToolSchema>::FACTS);
        let per_field = match &container.data {
            Data::Named(fields) if !recursive && delegate_type(container).is_none() => {
                crate::expand::facts::property_kids(fields)
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
    checks
}

/// The consts that stop the build where a `#[tool(answer)]` type cannot be a structured answer:
/// the checks `#[tool(strict)]` makes, for both strict dialects, one per field spanned at its
/// type, and one for the rest (and for an answer that is not an object) at `answer`, or at the
/// first field that holds the type itself where it is recursive. They are free consts, so `cargo
/// check` evaluates them; `Structured::<T>::new` checks the type again only where it is built.
pub(super) fn answer_checks(
    container: &Container<'_>,
    answer: Span,
    recursive: bool,
) -> TokenStream {
    let ident = container.ident;
    let name = ident.unraw().to_string();
    let facts = quote!(<#ident as ::toolgen::__private::ToolSchema>::FACTS);
    let (per_field, rest_span) = match &container.data {
        Data::Named(fields) if delegate_type(container).is_none() => {
            if recursive {
                let own = fields.iter().find(|f| f.prop.holds_self);
                (Vec::new(), own.map_or(answer, |f| span_of(f.ty)))
            } else {
                (crate::expand::facts::property_kids(fields), answer)
            }
        }
        _ => (Vec::new(), answer),
    };
    let fields_checked = !per_field.is_empty();
    let rest = quote_spanned! {rest_span=>
        const _: () = ::toolgen::__private::check_answer(#facts, #name, #fields_checked);
    };
    let fields = per_field.into_iter().map(|(field, index)| {
        quote_spanned! {span_of(field.ty)=>
            const _: () = ::toolgen::__private::check_answer_field(#facts, #index, #name);
        }
    });
    quote! {
        #(#fields)*
        #rest
    }
}

/// The consts that stop the build where a `#[tool(form)]` struct cannot be an MCP elicitation
/// form: one per named field, spanned at its type, on the type's own facts (a field of a plain
/// type has no kid in the struct's facts: a `Vec<String>` must be refused too), and one for the
/// rest (an object, no flattened fields) at `form`; and the impl of `Form`, which
/// `Invocation::elicit` asks for. Free consts, so `cargo check` evaluates them.
pub(super) fn form_checks(container: &Container<'_>, form: Span) -> TokenStream {
    let ident = container.ident;
    let name = ident.unraw().to_string();
    let facts = quote!(<#ident as ::toolgen::__private::ToolSchema>::FACTS);
    let fields: &[crate::shape::Field<'_>] = match &container.data {
        Data::Named(fields) if delegate_type(container).is_none() => fields,
        _ => &[],
    };
    let fields_checked = !fields.is_empty();
    let per_field = fields.iter().filter(|f| f.flatten.is_none()).map(|field| {
        let ty = field.input_ty();
        let key = &field.name;
        // (The call's span is the error's: the path is spanned at the type.)
        let check = syn::Ident::new("check_form_field", span_of(ty));
        quote_spanned! {span_of(ty)=>
            const _: () = ::toolgen::__private::#check(
                <#ty as ::toolgen::__private::ToolSchema>::FACTS, #key, #name
            );
        }
    });
    let rest = quote_spanned! {form=>
        const _: () = ::toolgen::__private::check_form(#facts, #name, #fields_checked);
    };
    quote! {
        #(#per_field)*
        #rest
        #[automatically_derived]
        impl ::toolgen::__private::Form for #ident {}
    }
}
