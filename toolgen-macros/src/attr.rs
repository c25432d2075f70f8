//! Reading `#[tool(..)]`, `#[serde(..)]` and doc comments into plain values. Nothing here stops at
//! the first problem: every error goes to the accumulator and reading goes on.

use darling::FromAttributes;
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
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

/// `#[tool(..)]` on a field.
#[derive(FromAttributes, Default)]
#[darling(attributes(tool))]
pub struct FieldToolAttrs {
    /// `#[tool(description = "...")]`
    pub description: Option<LitStr>,
    /// `#[tool(schema = Type)]` or `#[tool(schema = "Type<..>")]`: describe the field as `Type`.
    pub schema: Option<syn::Type>,
    /// `#[tool(default = 5)]`, `= "word"`, `= true`, `= []`: shown in the schema, filled in when
    /// the model leaves the field out.
    pub default: Option<LitExpr>,
    /// `#[tool(range(min = 1, max = 10))]`
    pub range: Option<Bounds>,
    /// `#[tool(length(min = 1, max = 80))]`
    pub length: Option<Bounds>,
    /// `#[tool(pattern = "^[a-z]+$")]`
    pub pattern: Option<LitStr>,
    /// `#[tool(format = "date-time")]`
    pub format: Option<LitStr>,
    /// `#[tool(example = "Riga")]`, once per example.
    #[darling(multiple)]
    pub example: Vec<LitExpr>,
}

/// `min = .., max = ..`, either optional.
#[derive(darling::FromMeta, Default, Clone)]
pub struct Bounds {
    pub min: Option<LitExpr>,
    pub max: Option<LitExpr>,
}

/// An attribute value kept as written. (darling reads a string literal given for a `syn::Expr`
/// as the source of an expression; here `"word"` must stay the string `"word"`.)
#[derive(Clone)]
pub struct LitExpr(pub syn::Expr);

impl darling::FromMeta for LitExpr {
    fn from_expr(expr: &syn::Expr) -> darling::Result<Self> {
        Ok(LitExpr(expr.clone()))
    }
}

impl std::ops::Deref for LitExpr {
    type Target = syn::Expr;
    fn deref(&self) -> &syn::Expr {
        &self.0
    }
}

impl quote::ToTokens for LitExpr {
    fn to_tokens(&self, tokens: &mut proc_macro2::TokenStream) {
        self.0.to_tokens(tokens);
    }
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
    /// `#[serde(rename_all_fields = "..")]`: the rule for the fields of every struct variant.
    pub rename_all_fields: Option<RenameRule>,
    /// `#[serde(tag = "..")]`
    pub tag: Option<Name>,
    /// `#[serde(content = "..")]`
    pub content: Option<Name>,
    /// `#[serde(untagged)]`
    pub untagged: Option<Span>,
    /// `#[serde(transparent)]`
    pub transparent: bool,
    /// `#[serde(from = "Type")]` / `#[serde(try_from = "Type")]`: serde reads that type.
    pub from: Option<syn::Type>,
}

/// What a field's `#[serde(..)]` attributes say.
#[derive(Default)]
pub struct SerdeField {
    /// `#[serde(rename = "..")]` / `#[serde(rename(deserialize = ".."))]`
    pub rename: Option<Name>,
    /// `#[serde(default)]` / `#[serde(default = "path")]`
    pub default: bool,
    /// `#[serde(default = "path")]`: the default comes from a function.
    pub default_path: bool,
    /// `#[serde(skip)]` / `#[serde(skip_deserializing)]`
    pub skip: bool,
    /// `#[serde(flatten)]`
    pub flatten: Option<Span>,
    /// `#[serde(with = "..")]` / `#[serde(deserialize_with = "..")]`: serde reads something
    /// only that function knows.
    pub with: Option<Span>,
}

/// What a variant's `#[serde(..)]` attributes say.
#[derive(Default)]
pub struct SerdeVariant {
    /// `#[serde(rename = "..")]` / `#[serde(rename(deserialize = ".."))]`
    pub rename: Option<Name>,
    /// `#[serde(skip)]` / `#[serde(skip_deserializing)]`
    pub skip: bool,
    /// `#[serde(other)]`
    pub other: Option<Span>,
    /// `#[serde(untagged)]` on the variant
    pub untagged: bool,
    /// `#[serde(rename_all = "..")]` on a struct variant: the rule for its fields.
    pub rename_all: Option<RenameRule>,
}

/// serde attributes that change what serde accepts in ways this version cannot yet describe.
/// They are errors rather than silently wrong schemas.
const UNSUPPORTED_CONTAINER: &[&str] = &["remote", "variant_identifier", "field_identifier"];
const UNSUPPORTED_FIELD: &[&str] = &[];
const UNSUPPORTED_VARIANT: &[&str] = &["with", "deserialize_with"];

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

/// `default` or `default = "path"`; whether there was a path.
fn read_default(meta: &ParseNestedMeta<'_>) -> syn::Result<bool> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<LitStr>()?;
        return Ok(true);
    }
    Ok(false)
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
            // #[serde(rename_all_fields = "camelCase")]
            "rename_all_fields" => {
                if let Some(lit) = name_for_deserialize(meta)? {
                    out.rename_all_fields = errors.handle(rename_rule(lit));
                }
            }
            // #[serde(tag = "type")]
            "tag" => {
                let lit: LitStr = meta.value()?.parse()?;
                out.tag = Some(Name {
                    value: lit.value(),
                    span: lit.span(),
                });
            }
            // #[serde(content = "data")]
            "content" => {
                let lit: LitStr = meta.value()?.parse()?;
                out.content = Some(Name {
                    value: lit.value(),
                    span: lit.span(),
                });
            }
            // #[serde(untagged)]
            "untagged" => out.untagged = Some(meta.path.span()),
            // #[serde(transparent)]
            "transparent" => out.transparent = true,
            // #[serde(from = "Type")] / #[serde(try_from = "Type")]
            "from" | "try_from" => {
                let lit: LitStr = meta.value()?.parse()?;
                out.from = errors.handle(lit.parse::<syn::Type>().map_err(Into::into));
            }
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
                out.default_path = read_default(meta)?;
                out.default = true;
            }
            // #[serde(skip)] / #[serde(skip_deserializing)]
            "skip" | "skip_deserializing" => out.skip = true,
            // #[serde(flatten)]
            "flatten" => out.flatten = Some(meta.path.span()),
            // #[serde(with = "module")] / #[serde(deserialize_with = "path")]
            "with" | "deserialize_with" => {
                skip_value(meta)?;
                out.with = Some(meta.path.span());
            }
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
            // #[serde(other)]
            "other" => out.other = Some(meta.path.span()),
            // #[serde(untagged)]
            "untagged" => out.untagged = true,
            // #[serde(rename_all = "camelCase")] (the fields of a struct variant)
            "rename_all" => {
                if let Some(lit) = name_for_deserialize(meta)? {
                    out.rename_all = errors.handle(rename_rule(lit));
                }
            }
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
