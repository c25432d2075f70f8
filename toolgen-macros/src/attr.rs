//! Reading `#[tool(..)]`, `#[serde(..)]` and doc comments into plain values. Nothing here stops at
//! the first problem: every error goes to the accumulator and reading goes on.

use darling::FromAttributes;
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitStr, Token};

use crate::case::{RULES, RenameRule};

/// `#[tool(..)]` on the container of `#[derive(Tool)]`.
#[derive(FromAttributes, Default)]
#[darling(attributes(tool))]
pub struct ToolAttrs {
    /// `#[tool(name = "get_weather")]`
    pub name: Option<LitStr>,
    /// `#[tool(description = "...")]`
    pub description: Option<LitStr>,
    /// `#[tool(strict)]`
    pub strict: darling::util::Flag,
}

/// `#[tool(..)]` on the container of `#[derive(ToolSchema)]`, on fields and on variants.
#[derive(FromAttributes, Default)]
#[darling(attributes(tool))]
pub struct DescribedAttrs {
    /// `#[tool(description = "...")]`
    pub description: Option<LitStr>,
}

/// A name serde gives something, with the span of where it was set.
#[derive(Clone)]
pub struct Name {
    pub value: String,
    pub span: Span,
}

/// What the container's `#[serde(..)]` attributes say.
#[derive(Default)]
pub struct SerdeContainer {
    /// `#[serde(rename = "..")]` / `#[serde(rename(deserialize = ".."))]`
    pub rename: Option<Name>,
    /// `#[serde(rename_all = "..")]` / `#[serde(rename_all(deserialize = ".."))]`
    pub rename_all: Option<RenameRule>,
    /// `#[serde(default)]` / `#[serde(default = "path")]`
    pub default: bool,
    /// `#[serde(deny_unknown_fields)]`
    pub deny_unknown_fields: bool,
}

/// What a field's `#[serde(..)]` attributes say.
#[derive(Default)]
pub struct SerdeField {
    /// `#[serde(rename = "..")]` / `#[serde(rename(deserialize = ".."))]`
    pub rename: Option<Name>,
    /// `#[serde(default)]` / `#[serde(default = "path")]`
    pub default: bool,
    /// `#[serde(skip)]` / `#[serde(skip_deserializing)]`
    pub skip: bool,
}

/// What a variant's `#[serde(..)]` attributes say.
#[derive(Default)]
pub struct SerdeVariant {
    /// `#[serde(rename = "..")]` / `#[serde(rename(deserialize = ".."))]`
    pub rename: Option<Name>,
    /// `#[serde(skip)]` / `#[serde(skip_deserializing)]`
    pub skip: bool,
}

/// serde attributes that change what serde accepts in ways this version cannot yet describe.
/// They are errors rather than silently wrong schemas.
const UNSUPPORTED_CONTAINER: &[&str] = &[
    "tag",
    "content",
    "untagged",
    "transparent",
    "from",
    "try_from",
    "remote",
    "rename_all_fields",
    "variant_identifier",
    "field_identifier",
];
const UNSUPPORTED_FIELD: &[&str] = &["flatten", "with", "deserialize_with"];
const UNSUPPORTED_VARIANT: &[&str] = &["other", "untagged", "with", "deserialize_with"];

fn unsupported(meta: &ParseNestedMeta<'_>, key: &str, on: &str) -> darling::Error {
    darling::Error::custom(format!(
        "toolgen cannot describe `#[serde({key})]` on {on} yet, so its schema would not match \
         what serde accepts; remove it, or describe the input with types toolgen supports"
    ))
    .with_span(&meta.path)
}

/// Reads every `#[serde(..)]` attribute in `attrs` with `read` for each key. Keys `read` does not
/// take are skipped, value and all: serde knows more keys than the schema needs.
fn each_serde_key(
    attrs: &[Attribute],
    errors: &mut darling::error::Accumulator,
    mut read: impl FnMut(
        &str,
        &ParseNestedMeta<'_>,
        &mut darling::error::Accumulator,
    ) -> syn::Result<bool>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let result = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            if !read(&key, &meta, errors)? {
                skip_value(&meta)?;
            }
            Ok(())
        });
        if let Err(err) = result {
            errors.push(err.into());
        }
    }
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

/// `rename = ".."` or `rename(serialize = "..", deserialize = "..")`: the name serde reads.
fn name_for_deserialize(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<LitStr>> {
    if meta.input.peek(Token![=]) {
        return Ok(Some(meta.value()?.parse()?));
    }
    let mut de = None;
    meta.parse_nested_meta(|inner| {
        let value: LitStr = inner.value()?.parse()?;
        if inner.path.is_ident("deserialize") {
            de = Some(value);
        }
        Ok(())
    })?;
    Ok(de)
}

fn rename_rule(lit: LitStr) -> Result<RenameRule, darling::Error> {
    RenameRule::from_name(&lit.value()).ok_or_else(|| {
        let names: Vec<_> = RULES.iter().map(|(n, _)| format!("\"{n}\"")).collect();
        darling::Error::custom(format!(
            "unknown rename rule `{}`; expected one of {}",
            lit.value(),
            names.join(", ")
        ))
        .with_span(&lit)
    })
}

/// `default` or `default = "path"`.
fn read_default(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<LitStr>()?;
    }
    Ok(())
}

pub fn serde_container(
    attrs: &[Attribute],
    errors: &mut darling::error::Accumulator,
) -> SerdeContainer {
    let mut out = SerdeContainer::default();
    each_serde_key(attrs, errors, |key, meta, errors| {
        match key {
            // #[serde(rename = "name")]
            "rename" => {
                if let Some(lit) = name_for_deserialize(meta)? {
                    out.rename = Some(Name {
                        value: lit.value(),
                        span: lit.span(),
                    });
                }
            }
            // #[serde(rename_all = "camelCase")]
            "rename_all" => {
                if let Some(lit) = name_for_deserialize(meta)? {
                    out.rename_all = errors.handle(rename_rule(lit));
                }
            }
            // #[serde(default)] / #[serde(default = "path")]
            "default" => {
                read_default(meta)?;
                out.default = true;
            }
            // #[serde(deny_unknown_fields)]
            "deny_unknown_fields" => out.deny_unknown_fields = true,
            _ if UNSUPPORTED_CONTAINER.contains(&key) => {
                errors.push(unsupported(meta, key, "a type"));
                return Ok(false);
            }
            _ => return Ok(false),
        }
        Ok(true)
    });
    out
}

pub fn serde_field(attrs: &[Attribute], errors: &mut darling::error::Accumulator) -> SerdeField {
    let mut out = SerdeField::default();
    each_serde_key(attrs, errors, |key, meta, errors| {
        match key {
            // #[serde(rename = "name")]
            "rename" => {
                if let Some(lit) = name_for_deserialize(meta)? {
                    out.rename = Some(Name {
                        value: lit.value(),
                        span: lit.span(),
                    });
                }
            }
            // #[serde(default)] / #[serde(default = "path")]
            "default" => {
                read_default(meta)?;
                out.default = true;
            }
            // #[serde(skip)] / #[serde(skip_deserializing)]
            "skip" | "skip_deserializing" => out.skip = true,
            _ if UNSUPPORTED_FIELD.contains(&key) => {
                errors.push(unsupported(meta, key, "a field"));
                return Ok(false);
            }
            _ => return Ok(false),
        }
        Ok(true)
    });
    out
}

pub fn serde_variant(
    attrs: &[Attribute],
    errors: &mut darling::error::Accumulator,
) -> SerdeVariant {
    let mut out = SerdeVariant::default();
    each_serde_key(attrs, errors, |key, meta, errors| {
        match key {
            // #[serde(rename = "name")]
            "rename" => {
                if let Some(lit) = name_for_deserialize(meta)? {
                    out.rename = Some(Name {
                        value: lit.value(),
                        span: lit.span(),
                    });
                }
            }
            // #[serde(skip)] / #[serde(skip_deserializing)]
            "skip" | "skip_deserializing" => out.skip = true,
            _ if UNSUPPORTED_VARIANT.contains(&key) => {
                errors.push(unsupported(meta, key, "a variant"));
                return Ok(false);
            }
            _ => return Ok(false),
        }
        Ok(true)
    });
    out
}
