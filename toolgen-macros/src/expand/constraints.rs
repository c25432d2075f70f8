//! `ToolSchema::check_constraints`: what the schema states and serde does not
//! enforce (`range`, `length`, `pattern`, `format`), checked on the parsed value, field by field
//! and into the types of yours the fields hold.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::cycle_types;
use super::rope::{list_call, option_tokens};
use crate::shape::keywords::Bound;
use crate::shape::repr::Repr;
use crate::shape::ty::{is_plain, span_of};
use crate::shape::{Container, Data, Field, Shape, Variant};

/// Whether a field has constraints the parsed value must be checked against. A field described
/// as another type (`#[tool(schema = ..)]`) has none: its value is not of that type, and serde's
/// reading of its own type decides (the keywords are in its schema all the same).
fn has_constraints(field: &Field<'_>) -> bool {
    field.tool.schema.is_none() && field.keywords.constrain()
}

/// The body of `check_constraints` for a struct whose fields have no constraints of their own:
/// one call checking the fields of types of yours in order (`check_fieldsN`), whose result is
/// the function's. `None` when a field has some, or is flattened, or there are none or too many
/// to check.
fn nested_checks(fields: &[Field<'_>]) -> Option<TokenStream> {
    let mut members = Vec::new();
    let mut names = Vec::new();
    let mut types = Vec::new();
    for field in fields.iter() {
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
    list_call(
        "check_fields",
        &types,
        "FACTS",
        quote!((#(&self.#members,)*), [#(#names),*]),
    )
}

/// Whether the type has constraints of its own to check (a field's `range`, `length`, `pattern`
/// or `format`): its facts say so ([`CONSTRAIN`]), and the facts of the types holding it have it
/// from theirs. (serde builds a value of `#[serde(from)]` from another type, whose constraints
/// were its own.)
///
/// [`CONSTRAIN`]: ../../toolgen_runtime/facts/constant.CONSTRAIN.html
pub(super) fn has_own_constraints(container: &Container<'_>) -> bool {
    container.serde.from.is_none()
        && (container.named_fields().into_iter().any(has_constraints)
            || container.newtype.as_ref().is_some_and(has_constraints))
}

/// `check_constraints`: what the schema states and serde does not enforce. Empty where the
/// trait's default (nothing to check) does the same.
pub(super) fn constraint_checks(container: &Container<'_>) -> TokenStream {
    if container.serde.from.is_some() {
        // serde builds the value from another type; that type's constraints were its own.
        return TokenStream::new();
    }
    let cycles = cycle_types(container);
    let own = has_own_constraints(container);
    // The Rust values of fields read through `#[tool(schema)]` are not of the schema's type, so
    // only fields whose own type is their schema's are checked (the checks refuse constraints on
    // the others).
    let nested = container.members().into_iter().any(|member| {
        member.input_ty == member.ty
            && !member.holds_self
            && !is_plain(member.ty)
            && !cycles.contains(&member.ty)
    });
    if !own && !nested && cycles.is_empty() {
        return TokenStream::new();
    }
    let body = match &container.data {
        Data::Named(fields) => {
            // The fields after the last one with constraints of its own (or flattened) are
            // checked by one call, in order, as a struct without any is, whose result is the
            // function's (each check of its own is a branch more for rustc to check).
            let split = fields
                .iter()
                .rposition(|field| has_constraints(field) || field.flatten.is_some())
                .map_or(0, |last| last + 1);
            let (head, tail) = fields.split_at(split);
            let check = |field: &Field<'_>| {
                let member = field
                    .original
                    .ident
                    .as_ref()
                    .map(|ident| quote!(&self.#ident));
                check_field(field, &quote!(#member), &[])
            };
            let mut checks: Vec<TokenStream> = head.iter().filter_map(check).collect();
            match nested_checks(tail) {
                // A struct whose fields have no constraints of their own passes each field of a
                // type of yours to that type's checks: the call is the function's body.
                Some(call) if checks.is_empty() => return check_fn(call),
                Some(call) => checks.push(quote!(::toolgen::__private::Checked(#call))),
                None => checks.extend(tail.iter().filter_map(check)),
            }
            // One expression: the first violation, in the fields' order.
            let Some(all) = and_all(&checks) else {
                return TokenStream::new();
            };
            return check_fn(quote!((#all).result()));
        }
        Data::Tuple(fields) => match &container.newtype {
            Some(field) => check_field(field, &quote!(&self.0), &[])
                .map(fail_checked)
                .unwrap_or_default(),
            None => {
                let checks = fields.iter().enumerate().map(|(i, field)| {
                    let index = syn::Index::from(i);
                    let within = (fields.len() > 1 && !container.serde.transparent)
                        .then(|| quote!(.within_index(#i)));
                    fail_checked(checked(
                        nested_check(&field.ty, &quote!(&self.#index)),
                        &quote!(#within),
                    ))
                });
                quote!(#(#checks)*)
            }
        },
        Data::Enum(variants) => check_enum(container, variants),
        Data::Unit | Data::Union => TokenStream::new(),
    };
    // Without a body (only plain fields), the trait's default does the same.
    if body.is_empty() {
        return TokenStream::new();
    }
    check_fn(quote!(#body ::core::result::Result::Ok(())))
}

/// `check_constraints` with `body` (statements, then the result).
fn check_fn(body: TokenStream) -> TokenStream {
    quote! {
        #[inline]
        fn check_constraints(
            &self,
        ) -> ::core::result::Result<(), ::toolgen::__private::Violation> {
            #body
        }
    }
}

/// The checks of one field, reached through `value` (a `&FieldType` expression), as one
/// `Checked` expression (each check's violation with its path: `outer` are the path segments,
/// innermost first, between the field and the container); `None` where there is nothing to
/// check.
fn check_field(
    field: &Field<'_>,
    value: &TokenStream,
    outer: &[TokenStream],
) -> Option<TokenStream> {
    if field.tool.schema.is_some() {
        return None;
    }
    let ty = field.ty;
    let name = &field.name;
    // A flattened field's keys, and a newtype's content, are where the value is.
    let within = if field.flatten.is_some() || field.original.ident.is_none() {
        quote!(#(#outer)*)
    } else {
        quote!(.within_field(#name) #(#outer)*)
    };
    let keywords = &field.keywords;
    let mut checks = Vec::new();
    let number = |bound: &Option<Bound>| {
        let n = bound.as_ref().and_then(|b| b.number.as_ref());
        option_tokens(n.map(|n| proc_macro2::Literal::f64_unsuffixed(n.value)))
    };
    let count = |bound: &Option<Bound>| {
        let n = bound.as_ref().and_then(|b| b.number.as_ref());
        option_tokens(n.and_then(|n| n.count))
    };
    if let Some(range) = &keywords.range {
        let (min, max) = (number(&range.min), number(&range.max));
        checks.push(quote! {
            ::toolgen::__private::check_range(
                ::toolgen::__private::Constrained::number(__toolgen_value), #min, #max)
        });
    }
    if let Some(length) = &keywords.length {
        let (min, max) = (count(&length.min), count(&length.max));
        checks.push(quote! {
            ::toolgen::__private::check_length(__toolgen_value, #min, #max)
        });
    }
    if let Some(pattern) = &keywords.pattern {
        let pattern = &pattern.lit;
        checks.push(quote! {
            ::toolgen::__private::check_pattern(
                ::toolgen::__private::Constrained::text(__toolgen_value), #pattern)
        });
    }
    if let Some(format) = &keywords.format {
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
            return None;
        }
        return Some(checked(nested_check(ty, value), &within));
    }
    let nested =
        (!is_plain(ty)).then(|| checked(nested_check(ty, &quote!(__toolgen_value)), &within));
    let checks: Vec<TokenStream> = checks
        .into_iter()
        .map(|check| checked(check, &within))
        .chain(nested)
        .collect();
    let all = and_all(&checks)?;
    Some(quote! {{
        let __toolgen_value: &#ty = #value;
        #all
    }})
}

/// `check` (a `Result<(), Violation>` expression) as a `Checked`, its path extended by `within`
/// (`.within_field(..)` calls, innermost first). No closure in the derive's code (the runtime's
/// `Checked` maps the violation): each closure is one more body to type-check and borrow-check
/// per field, about 1.6 M instructions a tool to compile (benches/compile_time.sh).
fn checked(check: TokenStream, within: &TokenStream) -> TokenStream {
    quote!(::toolgen::__private::Checked(#check) #within)
}

/// `Checked` expressions in one, the first violation in order (`Checked::and`): no branch of the
/// derive's own for rustc to check. `None` for none.
fn and_all(checks: &[TokenStream]) -> Option<TokenStream> {
    let (first, rest) = checks.split_first()?;
    Some(quote!(#first #(.and(#rest))*))
}

/// Returns from `check_constraints` with the violation of `checked` (a `Checked` expression).
fn fail_checked(checked: TokenStream) -> TokenStream {
    quote! {
        if let ::core::result::Result::Err(__toolgen_violation) = #checked.result() {
            return ::core::result::Result::Err(__toolgen_violation);
        }
    }
}

/// The checks of `value` (a `&ty` expression), whose type may have its own
/// (`ToolSchema::check_nested`), as a `Result<(), Violation>` expression. Spanned at the type, so
/// that a type without a schema is reported there, once.
fn nested_check(ty: &syn::Type, value: &TokenStream) -> TokenStream {
    quote_spanned!(span_of(ty)=> <#ty as ::toolgen::__private::ToolSchema>::check_nested(#value))
}

/// `match self` over the variants, checking each one's content with its JSON path.
fn check_enum(container: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let arms = variants.iter().map(|variant| {
        let ident = &variant.original.ident;
        // Where serde puts the content: under the variant's name (external), under the content
        // key (adjacent), or beside the tag / on its own (internal, untagged).
        let outer: Vec<TokenStream> = match container.repr.of_variant(variant) {
            Repr::Untagged | Repr::Internal { .. } => Vec::new(),
            Repr::Adjacent { content, .. } => {
                let key = &content;
                vec![quote!(.within_field(#key))]
            }
            Repr::External => {
                let key = &variant.name;
                vec![quote!(.within_field(#key))]
            }
        };
        match &variant.shape {
            Shape::Unit => quote!(Self::#ident => {}),
            Shape::Newtype(ty) => {
                let check = fail_checked(checked(
                    nested_check(ty, &quote!(__toolgen_inner)),
                    &quote!(#(#outer)*),
                ));
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
                        fail_checked(checked(
                            nested_check(ty, &quote!(#binding)),
                            &quote!(.within_index(#i) #(#outer)*),
                        ))
                    });
                quote!(Self::#ident(#(#bindings),*) => { #(#checks)* })
            }
            Shape::Struct(fields) => {
                let bindings: Vec<syn::Ident> = (0..fields.len())
                    .map(|i| format_ident!("__toolgen_{}", i))
                    .collect();
                let members = fields.iter().map(|f| &f.original.ident);
                let checks = fields
                    .iter()
                    .zip(&bindings)
                    .filter_map(|(field, binding)| check_field(field, &quote!(#binding), &outer))
                    .map(fail_checked);
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
