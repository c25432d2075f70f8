//! `#[serde(..)]`, read by serde's own code (`serde_derive_internals`, as `schemars_derive` reads
//! it): names after `rename` and the `rename_all` rules, defaults, skips, the enum's
//! representation (`ast.attrs.tag()`, which `shape::repr` reads), and serde's own checks. Only the places the attributes are written (for the
//! spans of toolgen's messages) are looked up here.

use proc_macro2::{Ident, Span};
use serde_derive_internals::{Ctxt, Derive, ast, attr};
use syn::meta::ParseNestedMeta;
use syn::{Attribute, DeriveInput, Token};

/// What the container's `#[serde(..)]` attributes say, as the rest of the macro needs it.
pub struct SerdeContainer {
    /// The type's name as serde reads it (`#[serde(rename)]`, else the type's own).
    pub name: String,
    /// `#[serde(default)]` / `#[serde(default = "path")]`
    pub default: bool,
    /// `#[serde(deny_unknown_fields)]`
    pub deny_unknown_fields: bool,
    /// `#[serde(transparent)]`
    pub transparent: bool,
    /// `#[serde(from = "Type")]` / `#[serde(try_from = "Type")]`: serde reads that type.
    pub from: Option<syn::Type>,
}

impl SerdeContainer {
    /// A type with no serde attributes.
    fn plain(input: &DeriveInput) -> Self {
        SerdeContainer {
            name: syn::ext::IdentExt::unraw(&input.ident).to_string(),
            default: false,
            deny_unknown_fields: false,
            transparent: false,
            from: None,
        }
    }
}

/// serde's view of the input: its AST (absent for a union, which serde does not derive for) and
/// what its checks found wrong.
pub struct Serde<'a> {
    pub container: SerdeContainer,
    pub ast: Option<ast::Container<'a>>,
    /// serde's own errors, exactly as its derive reports them: rustc shows a diagnostic that two
    /// derives write alike once.
    pub errors: Option<syn::Error>,
}

/// serde attributes that change what serde accepts in ways toolgen cannot yet describe. They are
/// errors rather than silently wrong schemas.
const UNSUPPORTED_CONTAINER: &[&str] = &["remote", "variant_identifier", "field_identifier"];
const UNSUPPORTED_VARIANT: &[&str] = &["with", "deserialize_with"];

fn unsupported(span: Span, key: &str, on: &str) -> darling::Error {
    darling::Error::custom(format!(
        "toolgen cannot describe `#[serde({key})]` on {on} yet, so its schema would not match \
         what serde accepts; remove it, or describe the input with types toolgen supports"
    ))
    .with_span(&span)
}

/// Reads `input`'s serde attributes. The attributes toolgen cannot describe go to `errors`.
pub fn read<'a>(input: &'a DeriveInput, errors: &mut darling::error::Accumulator) -> Serde<'a> {
    // serde refuses unions; toolgen says so in its own words.
    if let syn::Data::Union(_) = input.data {
        return Serde {
            container: SerdeContainer::plain(input),
            ast: None,
            errors: None,
        };
    }
    let cx = Ctxt::new();
    let private = Ident::new("__private", Span::call_site());
    let ast = ast::Container::from_ast(&cx, input, Derive::Deserialize, &private);
    let serde_errors = cx.check().err();
    let container = match &ast {
        Some(ast) => container(ast, errors),
        None => SerdeContainer::plain(input),
    };
    if let Some(ast::Data::Enum(variants)) = ast.as_ref().map(|ast| &ast.data) {
        for variant in variants {
            if variant.attrs.deserialize_with().is_some()
                && let Some(found) = find(&variant.original.attrs, UNSUPPORTED_VARIANT)
            {
                errors.push(unsupported(found.key_span, found.key, "a variant"));
            }
        }
    }
    Serde {
        container,
        ast,
        errors: serde_errors,
    }
}

fn container(ast: &ast::Container<'_>, errors: &mut darling::error::Accumulator) -> SerdeContainer {
    let attrs = &ast.attrs;
    let unsupported_here =
        attrs.remote().is_some() || !matches!(attrs.identifier(), attr::Identifier::No);
    if unsupported_here && let Some(found) = find(&ast.original.attrs, UNSUPPORTED_CONTAINER) {
        errors.push(unsupported(found.key_span, found.key, "a type"));
    }
    SerdeContainer {
        name: attrs.name().deserialize_name().value.clone(),
        default: !attrs.default().is_none(),
        deny_unknown_fields: attrs.deny_unknown_fields(),
        transparent: attrs.transparent(),
        from: attrs.type_from().or(attrs.type_try_from()).cloned(),
    }
}

/// Where one of `keys` is first written in `attrs`' `#[serde(..)]`.
pub struct Found {
    pub key: &'static str,
    pub key_span: Span,
}

/// The first of `keys` written in `attrs`' `#[serde(..)]`, for the span of a message about it.
/// A malformed attribute is serde's to report.
pub fn find(attrs: &[Attribute], keys: &[&'static str]) -> Option<Found> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            if found.is_none()
                && let Some(key) = keys.iter().find(|key| meta.path.is_ident(key))
            {
                found = Some(Found {
                    key,
                    key_span: syn::spanned::Spanned::span(&meta.path),
                });
            }
            skip_value(&meta)
        });
    }
    found
}

/// The span of `key` in `attrs`' `#[serde(..)]`, if written there.
pub fn key_span(attrs: &[Attribute], key: &'static str) -> Option<Span> {
    find(attrs, &[key]).map(|found| found.key_span)
}

/// Consumes `= value` or `(..)` after a key nobody reads.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(())
}
