//! The derive input as toolgen sees it, decided once: the container, its fields and variants with
//! their wire names and descriptions, each keeping the `syn` node it came from for spans.

// The runtime's `dialect/pattern.rs`, through a link: one detector of Anthropic's pattern rule.
mod anthropic_pattern;
pub mod check;
pub mod cycles;
pub mod keywords;
pub mod prop;
pub mod repr;
pub mod ty;

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::{DeriveInput, Ident, LitStr, Type};

use serde_derive_internals::{ast as serde_ast, attr::RenameRule};

use crate::attr::doc::{self, Desc};
use crate::attr::serde::{self as serde_attr, SerdeContainer};
use crate::attr::tool::{
    self as attr, DescribedAttrs, EnumAttrs, FieldToolAttrs, StructAttrs, ToolAttrs, VariantAttrs,
};
use keywords::Keywords;
use prop::{Prop, SerdeDefault};
use repr::Repr;

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
    /// How serde reads the enum (`External` for a struct).
    pub repr: Repr,
    /// What serde's own checks found wrong (see [`serde_attr::Serde::errors`]).
    pub serde_errors: Option<syn::Error>,
    pub data: Data<'a>,
    /// The named fields of a struct that serde skips (`#[serde(skip)]`/`skip_deserializing`),
    /// left out of [`Data::Named`]; only a check of what is written reads them.
    pub skipped: Vec<Field<'a>>,
    /// Only for `#[derive(Tool)]`.
    pub tool: Option<ToolInfo>,
    /// `#[tool(one_of)]` on an enum: its alternatives under `oneOf`.
    pub one_of: bool,
    /// `#[tool(answer)]` on a `ToolSchema` type, with its span: checked as a structured answer.
    pub answer: Option<Span>,
    /// `#[tool(form)]` on a struct, with its span: checked as an MCP elicitation form.
    pub form: Option<Span>,
    /// A newtype struct's field with `#[tool(..)]` keywords (`struct Email(#[tool(format =
    /// "email")] String);`), read as a field for them: the newtype's schema is its content's with
    /// those keywords, checked as a field's are.
    pub newtype: Option<Field<'a>>,
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
    /// `#[tool(allowed_callers(direct, program))]`, each once; empty when not written.
    pub allowed_callers: Vec<attr::CallerKind>,
    /// `#[tool(input_example = json!({..}))]`, each as written and as JSON text.
    pub input_examples: Vec<attr::InputExample>,
    /// `#[tool(timeout = "10s")]`, in milliseconds.
    pub timeout: Option<u64>,
    /// `#[tool(needs_approval)]`
    pub needs_approval: bool,
    /// `#[tool(scope = "..")]`, each scope.
    pub scopes: Vec<String>,
    /// `#[tool(title = "..")]`, the hints and the icons: MCP's alone.
    pub mcp: attr::McpAttrs,
    /// The attribute could not be read (a misspelt key, a bad value): the checks of a missing
    /// or invalid name and of a missing description stand down.
    pub unread: bool,
}

/// The shape of the type.
pub enum Data<'a> {
    /// `struct S { .. }`: the fields serde reads (the skipped ones are left out here, once).
    Named(Vec<Field<'a>>),
    /// `struct S(A, B);` (one field: a newtype, which serde reads as its content)
    Tuple(Vec<&'a syn::Field>),
    /// `struct S;`
    Unit,
    /// `enum E { .. }`: the variants serde reads (skipped ones left out).
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
    /// `#[serde(flatten)]`, with its span.
    pub flatten: Option<Span>,
    /// `#[serde(with)]`/`deserialize_with`, with its span.
    pub with: Option<Span>,
    /// `#[tool(..)]` on the field, without its keywords (taken into `keywords`).
    pub tool: FieldToolAttrs,
    /// Its validation and annotation keywords, decided once.
    pub keywords: Keywords,
    /// What the walks read of it, derived once (required, default, ..).
    pub prop: Prop,
}

/// A value the container holds, as serde reads it: a named field's, or an unnamed one's (a tuple
/// struct's field, a newtype or tuple variant's content).
pub struct Member<'c> {
    /// The type whose schema describes it ([`Field::input_ty`] for a named field).
    pub input_ty: &'c Type,
    /// Whether it mentions the container itself.
    pub holds_self: bool,
    /// The named field it is, if it is one.
    pub field: Option<&'c Field<'c>>,
}

impl<'c> Member<'c> {
    fn of_field(field: &'c Field<'c>) -> Member<'c> {
        Member {
            input_ty: field.input_ty(),
            holds_self: field.prop.holds_self,
            field: Some(field),
        }
    }
}

/// An enum variant.
pub struct Variant<'a> {
    pub original: &'a syn::Variant,
    /// The string serde reads for it.
    pub name: String,
    pub description: Option<Desc>,
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
    /// `A { x: T }`: the fields serde reads (skipped ones left out).
    Struct(Vec<Field<'a>>),
}

/// The doc comment's description, unless `skip` (`#[tool(skip_doc)]`).
fn doc_unless(skip: bool, attrs: &[syn::Attribute]) -> Option<Desc> {
    if skip { None } else { doc::doc_desc(attrs) }
}

/// What `#[tool(..)]` says of a `ToolSchema` container or a variant.
struct Described {
    description: Option<Desc>,
    /// `#[tool(nullable)]`: its `Option` fields admit `null`.
    nullable: bool,
}

/// What `read` says of the type or variant whose attributes are `attrs`.
fn described<R>(read: &DescribedAttrs<R>, attrs: &[syn::Attribute]) -> Described {
    let description = read
        .description
        .as_ref()
        .map(|lit| Desc::Text(lit.value()))
        .or_else(|| doc_unless(read.skip_doc.is_present(), attrs));
    Described {
        description,
        nullable: read.nullable.is_present(),
    }
}

/// `#[tool(..)]` read into `T`, and whether it had problems (reported to `errors`): then only
/// the keys that are fine on their own are read (see [`crate::attr::tool::read`]).
fn read_attrs<T: darling::FromAttributes + Default>(
    attrs: &[syn::Attribute],
    errors: &mut darling::error::Accumulator,
) -> (T, bool) {
    match attr::read(attrs) {
        Ok(read) => (read, false),
        Err((error, fine)) => {
            errors.push(error);
            (fine.unwrap_or_default(), true)
        }
    }
}

impl<'a> Container<'a> {
    /// Reads the whole input; problems go to `errors`, and what could be read is returned anyway.
    pub fn from_ast(
        input: &'a DeriveInput,
        derive: Derive,
        errors: &mut darling::error::Accumulator,
    ) -> Self {
        let serde = serde_attr::read(input, errors);
        let mut one_of = false;
        let mut answer = None;
        let mut form = None;
        let (description, tool, nullable) = match derive {
            Derive::Tool => {
                // An attribute with a problem is reported whole; its keys that are fine are
                // read, and the checks of what may be missing (a description) stand down.
                let (attrs, unread) = read_attrs::<ToolAttrs>(&input.attrs, errors);
                let nullable = attrs.nullable.is_present();
                form = attrs.form.is_present().then(|| attrs.form.span());
                let description = attrs
                    .description
                    .as_ref()
                    .map(|lit| Desc::Text(lit.value()))
                    .or_else(|| doc::doc_desc(&input.attrs));
                let (name, name_span, explicit_name) = match &attrs.name {
                    Some(lit) => (lit.value(), lit.span(), true),
                    None => (
                        RenameRule::SnakeCase.apply_to_variant(&input.ident.unraw().to_string()),
                        input.ident.span(),
                        false,
                    ),
                };
                let tool = ToolInfo {
                    name,
                    name_span,
                    explicit_name,
                    strict: attrs.strict.map(|strict| (*strict, strict.span())),
                    description_attr: attrs.description,
                    output: attrs.output,
                    gemini: attrs.gemini.map(|gemini| (*gemini, gemini.span())),
                    cache_control: attrs.cache_control,
                    defer_loading: attrs.defer_loading.is_present(),
                    eager_input_streaming: attrs.eager_input_streaming.is_present(),
                    allowed_callers: attrs
                        .allowed_callers
                        .iter()
                        .map(|caller| **caller)
                        .collect(),
                    input_examples: attrs.input_examples,
                    timeout: attrs.timeout,
                    needs_approval: attrs.needs_approval.is_present(),
                    scopes: attrs.scope,
                    mcp: attrs.mcp,
                    unread,
                };
                (description, Some(tool), nullable)
            }
            Derive::ToolSchema => {
                let read = if let syn::Data::Enum(_) = input.data {
                    let (read, _) = read_attrs::<EnumAttrs>(&input.attrs, errors);
                    one_of = read.one_of.is_present();
                    described(&read.described, &input.attrs)
                } else {
                    let (read, _) = read_attrs::<StructAttrs>(&input.attrs, errors);
                    answer = read.answer.is_present().then(|| read.answer.span());
                    form = read.form.is_present().then(|| read.form.span());
                    described(&read.described, &input.attrs)
                };
                (read.description, None, read.nullable)
            }
        };
        let container_default = serde.container.default;
        let repr = serde
            .ast
            .as_ref()
            .map_or(Repr::External, |ast| Repr::from_serde(ast.attrs.tag()));
        let mut skipped = Vec::new();
        let mut newtype = None;
        let data = match &serde.ast {
            None => Data::Union,
            Some(ast) => match &ast.data {
                serde_ast::Data::Struct(serde_ast::Style::Struct, fields) => {
                    let (read, skips) =
                        read_fields(fields, container_default, nullable, &input.ident, errors);
                    skipped = skips;
                    Data::Named(read)
                }
                serde_ast::Data::Struct(serde_ast::Style::Unit, _) => Data::Unit,
                serde_ast::Data::Struct(style, fields) => {
                    match (style, fields.as_slice()) {
                        (serde_ast::Style::Newtype, [field]) if has_tool_attr(field.original) => {
                            newtype = Some(newtype_field(field, &input.ident, errors));
                        }
                        _ => unnamed_fields(fields, errors),
                    }
                    Data::Tuple(fields.iter().map(|field| field.original).collect())
                }
                // Each variant is read (its attributes' errors reported) before a skipped one is
                // left out.
                serde_ast::Data::Enum(variants) => Data::Enum(
                    variants
                        .iter()
                        .map(|variant| {
                            let read = Variant::from_ast(variant, &input.ident, nullable, errors);
                            (variant, read)
                        })
                        .filter(|(variant, _)| !variant.attrs.skip_deserializing())
                        .map(|(_, read)| read)
                        .collect(),
                ),
            },
        };
        Container {
            original: input,
            ident: &input.ident,
            description,
            serde: serde.container,
            repr,
            serde_errors: serde.errors,
            data,
            skipped,
            tool,
            one_of,
            answer,
            form,
            newtype,
        }
    }

    /// The struct's named fields in the order they are written, those serde skips too.
    pub fn written_fields(&self) -> Vec<&Field<'a>> {
        let (Data::Named(read), syn::Data::Struct(written)) = (&self.data, &self.original.data)
        else {
            return Vec::new();
        };
        written
            .fields
            .iter()
            .filter_map(|written| {
                read.iter()
                    .chain(&self.skipped)
                    .find(|field| std::ptr::eq(field.original, written))
            })
            .collect()
    }

    /// What the container holds, as serde reads it, in order: each named field, tuple field and
    /// newtype or tuple variant's content.
    pub fn members<'c>(&'c self) -> Vec<Member<'c>> {
        let unnamed = |ty: &'c Type| Member {
            input_ty: ty,
            holds_self: ty::mentions_self(ty, self.ident),
            field: None,
        };
        let named = |fields: &'c [Field<'a>]| fields.iter().map(Member::of_field);
        match &self.data {
            Data::Named(fields) => named(fields).collect(),
            Data::Tuple(fields) => match &self.newtype {
                Some(field) => vec![Member::of_field(field)],
                None => fields.iter().map(|f| unnamed(&f.ty)).collect(),
            },
            Data::Enum(variants) => variants
                .iter()
                .flat_map(|v| match &v.shape {
                    Shape::Unit => Vec::new(),
                    Shape::Newtype(ty) => vec![unnamed(ty)],
                    Shape::Tuple(items) => items.iter().map(|ty| unnamed(ty)).collect(),
                    Shape::Struct(fields) => named(fields).collect(),
                })
                .collect(),
            Data::Unit | Data::Union => Vec::new(),
        }
    }

    /// Every named field serde reads, in the struct and in its struct variants.
    pub fn named_fields(&self) -> Vec<&Field<'a>> {
        match &self.data {
            Data::Named(fields) => fields.iter().collect(),
            Data::Enum(variants) => variants
                .iter()
                .flat_map(|v| match &v.shape {
                    Shape::Struct(fields) => fields.iter().collect(),
                    _ => Vec::new(),
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Whether the container holds itself (a recursive type, written under `$defs`).
    pub fn is_recursive(&self) -> bool {
        self.members().iter().any(|member| member.holds_self)
    }

    /// The type's name as it appears under `$defs` when it is recursive.
    pub fn def_name(&self) -> String {
        self.serde.name.clone()
    }
}

/// The type serde really reads, for `#[serde(from/try_from)]` and `#[serde(transparent)]`.
pub fn delegate_type<'a>(container: &'a Container<'a>) -> Option<&'a syn::Type> {
    if let Some(from) = &container.serde.from {
        return Some(from);
    }
    if !container.serde.transparent {
        return None;
    }
    match &container.data {
        Data::Named(fields) => fields.first().map(|f| f.ty),
        Data::Tuple(fields) => fields.first().map(|f| &f.ty),
        _ => None,
    }
}

impl<'a> Field<'a> {
    /// A named field as serde reads it; `container_default`: the struct is `#[serde(default)]`;
    /// `nullable`: its container says `#[tool(nullable)]`; `own`: the container's name.
    fn from_ast(
        field: &serde_ast::Field<'a>,
        container_default: bool,
        nullable: bool,
        own: &Ident,
        errors: &mut darling::error::Accumulator,
    ) -> Self {
        let attrs = &field.original.attrs;
        let (mut tool, _) = read_attrs::<FieldToolAttrs>(attrs, errors);
        let keywords = Keywords::take(&mut tool);
        let description = tool
            .description
            .as_ref()
            .map(|lit| Desc::Text(lit.value()))
            .or_else(|| doc_unless(tool.skip_doc.is_present(), attrs));
        let name = field.attrs.name().deserialize_name();
        let default = field.attrs.default();
        // serde reads a borrowed `Cow` with a function of its own, which needs no schema of its own.
        let with = field
            .attrs
            .deserialize_with()
            .and_then(|_| serde_attr::find(attrs, &["with", "deserialize_with"]))
            .map(|found| found.key_span);
        let serde_default = SerdeDefault {
            default: !default.is_none() || container_default,
            default_path: matches!(default, serde_derive_internals::attr::Default::Path(_)),
            container_default,
        };
        let nullable = nullable || tool.nullable.is_present();
        let prop = Prop::derive(
            field.ty,
            &tool,
            &keywords,
            serde_default,
            with.is_some(),
            nullable,
            own,
        );
        Field {
            original: field.original,
            ty: field.ty,
            name: name.value.clone(),
            name_span: name.span,
            description,
            flatten: field
                .attrs
                .flatten()
                .then(|| serde_attr::key_span(attrs, "flatten").unwrap_or_else(Span::call_site)),
            with,
            tool,
            keywords,
            prop,
        }
    }
}

/// Named fields as serde reads them, each read (its attributes' errors reported) in order: those
/// serde reads, and those it skips (`#[serde(skip)]`/`skip_deserializing`).
/// The named fields, those serde reads and those it skips; `nullable`: the container (or the
/// variant) says `#[tool(nullable)]`.
fn read_fields<'a>(
    fields: &[serde_ast::Field<'a>],
    container_default: bool,
    nullable: bool,
    own: &Ident,
    errors: &mut darling::error::Accumulator,
) -> (Vec<Field<'a>>, Vec<Field<'a>>) {
    let (mut read, mut skipped) = (Vec::new(), Vec::new());
    for field in fields {
        let parsed = Field::from_ast(field, container_default, nullable, own, errors);
        if field.attrs.skip_deserializing() {
            skipped.push(parsed);
        } else {
            read.push(parsed);
        }
    }
    (read, skipped)
}

/// Whether a field has a `#[tool(..)]` attribute.
fn has_tool_attr(field: &syn::Field) -> bool {
    field.attrs.iter().any(|a| a.path().is_ident("tool"))
}

/// A newtype struct's field, read for its keywords: the keys that describe a value (`length`,
/// `range`, `pattern`, `format`, `custom_format`, `example`, `schema`) are read; those of a
/// property (its description, default, whether it is required or nullable, `recursive`) are
/// refused in words, at the key.
fn newtype_field<'a>(
    field: &serde_ast::Field<'a>,
    own: &Ident,
    errors: &mut darling::error::Accumulator,
) -> Field<'a> {
    let mut read = Field::from_ast(field, false, false, own, errors);
    let attr_span = field
        .original
        .attrs
        .iter()
        .find(|a| a.path().is_ident("tool"))
        .map_or_else(Span::call_site, |a| syn::spanned::Spanned::span(&a.meta));
    // Each refused key is reported once, here, and taken out, so the field's checks do not see
    // it again.
    let mut refuse = |span: Option<Span>, key: &str| {
        errors.push(
            darling::Error::custom(format!(
                "`#[tool({key})]` is not read on a newtype's field: the newtype is a value, not a \
                 property. Its field takes the keywords that describe the value (`length`, \
                 `range`, `pattern`, `format`, `custom_format`, `example`, `schema`); describe \
                 the newtype with a doc comment on it, and write `{key}` at the field that holds it"
            ))
            .with_span(&span.unwrap_or(attr_span)),
        );
    };
    let tool = &mut read.tool;
    if let Some(description) = tool.description.take() {
        refuse(Some(description.span()), "description");
    }
    if let Some(default) = read.keywords.default.take() {
        refuse(Some(syn::spanned::Spanned::span(&default.expr)), "default");
    }
    for (flag, key) in [
        (&mut tool.required, "required"),
        (&mut tool.nullable, "nullable"),
        (&mut tool.skip_doc, "skip_doc"),
        (&mut tool.recursive, "recursive"),
    ] {
        if flag.is_present() {
            refuse(Some(flag.span()), key);
            *flag = darling::util::Flag::default();
        }
    }
    // The newtype's doc comment describes it; the field's is for the Rust reader.
    read.description = None;
    read
}

/// `#[tool(..)]` on a field without a name (a tuple struct's, a tuple or newtype variant's) is
/// refused in words: its value has no property of its own to describe or constrain, and
/// toolgen does not read it there.
fn unnamed_fields(fields: &[serde_ast::Field<'_>], errors: &mut darling::error::Accumulator) {
    for field in fields {
        for attr in field
            .original
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("tool"))
        {
            errors.push(
                darling::Error::custom(
                    "`#[tool(..)]` is not read on a field without a name: it has no property of \
                     its own. Describe the type it holds instead, or give the field a name; a \
                     cycle of types is marked `#[tool(recursive)]` at a named field of it",
                )
                .with_span(&attr.meta),
            );
        }
    }
}

impl<'a> Variant<'a> {
    fn from_ast(
        variant: &serde_ast::Variant<'a>,
        own: &Ident,
        nullable: bool,
        errors: &mut darling::error::Accumulator,
    ) -> Self {
        let attrs = &variant.original.attrs;
        let (read, _) = read_attrs::<VariantAttrs>(attrs, errors);
        let read = described(&read.described, attrs);
        let (description, nullable) = (read.description, nullable || read.nullable);
        if matches!(
            variant.style,
            serde_ast::Style::Newtype | serde_ast::Style::Tuple
        ) {
            unnamed_fields(&variant.fields, errors);
        }
        let shape = match (variant.style, variant.fields.as_slice()) {
            (serde_ast::Style::Newtype, [only]) => Shape::Newtype(only.ty),
            (serde_ast::Style::Tuple, fields) => {
                Shape::Tuple(fields.iter().map(|f| f.ty).collect())
            }
            (serde_ast::Style::Struct, fields) => {
                Shape::Struct(read_fields(fields, false, nullable, own, errors).0)
            }
            _ => Shape::Unit,
        };
        Variant {
            original: variant.original,
            name: variant.attrs.name().deserialize_name().value.clone(),
            description,
            other: variant
                .attrs
                .other()
                .then(|| serde_attr::key_span(attrs, "other").unwrap_or_else(Span::call_site)),
            untagged: variant.attrs.untagged(),
            shape,
        }
    }
}
