//! The derive input as toolgen sees it: the container, its fields and variants with their wire
//! names and descriptions, each keeping the `syn` node it came from for spans.

use darling::FromAttributes;
use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::{DeriveInput, Ident, LitStr, Type};

use crate::attr::{self, DescribedAttrs, FieldToolAttrs, SerdeContainer, ToolAttrs};
use crate::case::RenameRule;
use crate::case::pascal_to_snake;
use crate::doc::{self, Desc};

/// Which derive is running.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Derive {
    Tool,
    ToolSchema,
}

/// The type being derived.
pub struct Container<'a> {
    pub original: &'a DeriveInput,
    pub ident: &'a Ident,
    /// `#[tool(description)]`, else the doc comment.
    pub description: Option<Desc>,
    pub serde: SerdeContainer,
    pub data: Data<'a>,
    /// Only for `#[derive(Tool)]`.
    pub tool: Option<ToolInfo>,
}

/// What `#[derive(Tool)]` adds to the container.
pub struct ToolInfo {
    /// The tool name, and the span to blame if it is invalid.
    pub name: String,
    pub name_span: Span,
    /// Whether the name came from `#[tool(name)]` (else from the type's name).
    pub explicit_name: bool,
    /// `#[tool(strict)]` and the span of `strict`.
    pub strict: Option<(attr::Strict, Span)>,
    /// `#[tool(description = "")]`, kept to report an empty description there.
    pub description_attr: Option<LitStr>,
    /// `#[tool(output = Type)]`
    pub output: Option<syn::Type>,
    /// `#[tool(gemini = "..")]` and the span of its value.
    pub gemini: Option<(attr::Gemini, Span)>,
    /// `#[tool(cache_control)]`: `""`, or the TTL.
    pub cache_control: Option<String>,
    /// `#[tool(defer_loading)]`
    pub defer_loading: bool,
    /// `#[tool(eager_input_streaming)]`
    pub eager_input_streaming: bool,
    /// `#[tool(input_example = json!({..}))]`, each as JSON text.
    pub input_examples: Vec<String>,
    /// `#[tool(timeout = "10s")]`, in milliseconds.
    pub timeout: Option<u64>,
    /// `#[tool(title = "..")]`, the hints and the icons: MCP's alone.
    pub mcp: attr::McpAttrs,
    /// Keys that could not be read (misspelt or with a bad value): the checks of a missing name
    /// or description stand down for them.
    pub unread: Vec<&'static str>,
}

/// The shape of the type.
pub enum Data<'a> {
    /// `struct S { .. }`
    Named(Vec<Field<'a>>),
    /// `struct S(A, B);` (one field: a newtype, which serde reads as its content)
    Tuple(Vec<&'a syn::Field>),
    /// `struct S;`
    Unit,
    /// `enum E { .. }`
    Enum(Vec<Variant<'a>>),
    /// `union U { .. }`
    Union,
}

/// A named field.
pub struct Field<'a> {
    pub original: &'a syn::Field,
    pub ty: &'a Type,
    /// The property name serde reads.
    pub name: String,
    pub name_span: Span,
    pub description: Option<Desc>,
    /// `#[serde(default)]` on the field or the container.
    pub default: bool,
    /// `#[serde(default = "path")]`: a default only that function knows.
    pub default_path: bool,
    /// `#[serde(skip)]`/`skip_deserializing`: not part of the input.
    pub skip: bool,
    /// `#[serde(flatten)]`, with its span.
    pub flatten: Option<Span>,
    /// `#[serde(with)]`/`deserialize_with`, with its span.
    pub with: Option<Span>,
    /// `#[tool(..)]` on the field.
    pub tool: FieldToolAttrs,
}

/// An enum variant.
pub struct Variant<'a> {
    pub original: &'a syn::Variant,
    /// The string serde reads for it.
    pub name: String,
    pub description: Option<Desc>,
    pub skip: bool,
    /// `#[serde(other)]`, with its span.
    pub other: Option<Span>,
    /// `#[serde(untagged)]` on this variant.
    pub untagged: bool,
    pub shape: Shape<'a>,
}

/// What a variant holds.
pub enum Shape<'a> {
    /// `A`
    Unit,
    /// `A(T)`
    Newtype(&'a Type),
    /// `A(T, U)`
    Tuple(Vec<&'a Type>),
    /// `A { x: T }`
    Struct(Vec<Field<'a>>),
}

fn described(attrs: &[syn::Attribute], errors: &mut darling::error::Accumulator) -> Option<Desc> {
    let tool = errors
        .handle(DescribedAttrs::from_attributes(attrs))
        .unwrap_or_default();
    tool.description
        .map(|lit| Desc::Text(lit.value()))
        .or_else(|| doc::doc_desc(attrs))
}

impl<'a> Container<'a> {
    /// Reads the whole input; problems go to `errors`, and what could be read is returned anyway.
    pub fn from_ast(
        input: &'a DeriveInput,
        derive: Derive,
        errors: &mut darling::error::Accumulator,
    ) -> Self {
        let serde = attr::serde_container(&input.attrs, errors);
        let (description, tool) = match derive {
            Derive::Tool => {
                let attrs = ToolAttrs::read(&input.attrs, errors);
                let description = attrs
                    .description
                    .as_ref()
                    .map(|lit| Desc::Text(lit.value()))
                    .or_else(|| doc::doc_desc(&input.attrs));
                let (name, name_span, explicit_name) = match &attrs.name {
                    Some(lit) => (lit.value(), lit.span(), true),
                    None => (
                        pascal_to_snake(&input.ident.unraw().to_string()),
                        input.ident.span(),
                        false,
                    ),
                };
                let tool = ToolInfo {
                    name,
                    name_span,
                    explicit_name,
                    strict: attrs.strict,
                    description_attr: attrs.description,
                    output: attrs.output,
                    gemini: attrs.gemini,
                    cache_control: attrs.cache_control,
                    defer_loading: attrs.defer_loading,
                    eager_input_streaming: attrs.eager_input_streaming,
                    input_examples: attrs.input_examples,
                    timeout: attrs.timeout,
                    mcp: attrs.mcp,
                    unread: attrs.unread,
                };
                (description, Some(tool))
            }
            Derive::ToolSchema => (described(&input.attrs, errors), None),
        };
        let data = match &input.data {
            syn::Data::Struct(data) => match &data.fields {
                syn::Fields::Named(fields) => Data::Named(
                    fields
                        .named
                        .iter()
                        .map(|field| {
                            Field::from_ast(field, serde.rename_all, serde.default, errors)
                        })
                        .collect(),
                ),
                syn::Fields::Unnamed(fields) => Data::Tuple(fields.unnamed.iter().collect()),
                syn::Fields::Unit => Data::Unit,
            },
            syn::Data::Enum(data) => Data::Enum(
                data.variants
                    .iter()
                    .map(|variant| Variant::from_ast(variant, &serde, errors))
                    .collect(),
            ),
            syn::Data::Union(_) => Data::Union,
        };
        Container {
            original: input,
            ident: &input.ident,
            description,
            serde,
            data,
            tool,
        }
    }

    /// The type's name as it appears under `$defs` when it is recursive.
    pub fn def_name(&self) -> String {
        self.serde
            .rename
            .as_ref()
            .map(|name| name.value.clone())
            .unwrap_or_else(|| self.ident.unraw().to_string())
    }
}

impl<'a> Field<'a> {
    fn from_ast(
        field: &'a syn::Field,
        rename_all: Option<RenameRule>,
        container_default: bool,
        errors: &mut darling::error::Accumulator,
    ) -> Self {
        let serde = attr::serde_field(&field.attrs, errors);
        let tool = FieldToolAttrs::read(&field.attrs, errors);
        let description = tool
            .description
            .as_ref()
            .map(|lit| Desc::Text(lit.value()))
            .or_else(|| doc::doc_desc(&field.attrs));
        // Named fields always have an ident; the fallback only keeps this total.
        let ident = field
            .ident
            .as_ref()
            .map(|ident| ident.unraw().to_string())
            .unwrap_or_default();
        let (name, name_span) = match serde.rename {
            Some(rename) => (rename.value, rename.span),
            None => (
                rename_all.map_or_else(|| ident.clone(), |rule| rule.apply_to_field(&ident)),
                field
                    .ident
                    .as_ref()
                    .map_or_else(Span::call_site, Ident::span),
            ),
        };
        Field {
            original: field,
            ty: &field.ty,
            name,
            name_span,
            description,
            default: serde.default || container_default,
            default_path: serde.default_path,
            skip: serde.skip,
            flatten: serde.flatten,
            with: serde.with,
            tool,
        }
    }
}

impl<'a> Variant<'a> {
    fn from_ast(
        variant: &'a syn::Variant,
        container: &SerdeContainer,
        errors: &mut darling::error::Accumulator,
    ) -> Self {
        let serde = attr::serde_variant(&variant.attrs, errors);
        let description = described(&variant.attrs, errors);
        let ident = variant.ident.unraw().to_string();
        let name = match serde.rename {
            Some(rename) => rename.value,
            None => container
                .rename_all
                .map_or_else(|| ident.clone(), |rule| rule.apply_to_variant(&ident)),
        };
        let fields_rule = serde.rename_all.or(container.rename_all_fields);
        let shape = match &variant.fields {
            syn::Fields::Unit => Shape::Unit,
            syn::Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                Shape::Newtype(&fields.unnamed[0].ty)
            }
            syn::Fields::Unnamed(fields) => {
                Shape::Tuple(fields.unnamed.iter().map(|f| &f.ty).collect())
            }
            syn::Fields::Named(fields) => Shape::Struct(
                fields
                    .named
                    .iter()
                    .map(|field| Field::from_ast(field, fields_rule, false, errors))
                    .collect(),
            ),
        };
        Variant {
            original: variant,
            name,
            description,
            skip: serde.skip,
            other: serde.other,
            untagged: serde.untagged,
            shape,
        }
    }
}
