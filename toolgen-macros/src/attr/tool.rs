//! Reading `#[tool(..)]` with darling's derives: darling owns the rules for unknown keys (with
//! "did you mean"), keys given twice and malformed attributes, and reports every problem of an
//! attribute at once. Each value type below says in its own words what its key takes. There is
//! one struct of keys per place a `#[tool(..)]` is written; a key one place does not read goes to
//! its [`Elsewhere`], which says where the key belongs, asking the other places' structs.

use std::marker::PhantomData;

use darling::ast::NestedMeta;
use darling::util::{Flag, SpannedValue};
use darling::{FromAttributes, FromMeta};
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, Lit, LitStr, Meta};

/// `#[tool(..)]` on the container of `#[derive(Tool)]` (`R`: what takes the keys it does not read,
/// see [`Elsewhere`]).
#[derive(Default, FromAttributes)]
#[darling(attributes(tool))]
pub struct ToolAttrs<R = Elsewhere<OnTool>> {
    /// `#[tool(name = "get_weather")]`
    #[darling(default, map = Text::lit)]
    pub name: Option<LitStr>,
    /// `#[tool(description = "...")]`
    #[darling(default, map = Text::lit)]
    pub description: Option<LitStr>,
    /// `#[tool(strict)]`, `#[tool(strict = "openai")]`, `#[tool(strict = "anthropic")]`.
    pub strict: Option<SpannedValue<Strict>>,
    /// `#[tool(output = Type)]` (`HashMap<String, u8>` as it is, or quoted): what the tool returns, for
    /// MCP's `outputSchema`.
    #[darling(default, map = TypeArg::ty)]
    pub output: Option<syn::Type>,
    /// `#[tool(gemini = "parameters")]` / `#[tool(gemini = "json_schema")]`.
    pub gemini: Option<SpannedValue<Gemini>>,
    /// `#[tool(cache_control)]` (`""`) or `#[tool(cache_control = "1h")]` (the TTL): Anthropic's
    /// prompt-cache breakpoint on the definition.
    #[darling(default, map = CacheTtl::text)]
    pub cache_control: Option<String>,
    /// `#[tool(defer_loading)]`: Anthropic's and OpenAI Responses' tool search loads it on demand.
    #[darling(default, map = Word::flag)]
    pub defer_loading: Flag,
    /// `#[tool(eager_input_streaming)]`: Anthropic streams the input without buffering it.
    #[darling(default, map = Word::flag)]
    pub eager_input_streaming: Flag,
    /// `#[tool(allowed_callers(direct, program))]`: who may call the tool, the model
    /// (`direct`) or code the model writes (`program`: programmatic tool calling); Anthropic's
    /// and OpenAI Responses' `allowed_callers`. Empty when not written.
    #[darling(default, map = AllowedCallers::kinds)]
    pub allowed_callers: Vec<SpannedValue<CallerKind>>,
    /// `#[tool(input_example = json!({..}))]`, once per example: Anthropic's `input_examples`.
    #[darling(multiple, rename = "input_example")]
    pub input_examples: Vec<InputExample>,
    /// `#[tool(timeout = "10s")]`, in milliseconds: how long the runner lets a call run.
    #[darling(default, map = Timeout::millis)]
    pub timeout: Option<u64>,
    /// `#[tool(needs_approval)]`: the runner holds each call for a person to approve or deny.
    #[darling(default, map = Word::flag)]
    pub needs_approval: Flag,
    /// `#[tool(form)]`: an MCP elicitation can ask for it (`Invocation::elicit`), checked where
    /// it is defined.
    #[darling(default, map = Word::flag)]
    pub form: Flag,
    /// `#[tool(scope = "notes:write")]`: the OAuth scopes a caller's token needs for the tool
    /// (an MCP server with authorization on refuses a call without them), space-separated.
    #[darling(default, map = Scope::words)]
    pub scope: Vec<String>,
    /// `#[tool(nullable)]`: every `Option` field of the type admits `null` in its schema (see
    /// [`FieldToolAttrs::nullable`]).
    #[darling(default, map = Word::flag)]
    pub nullable: Flag,
    /// `#[tool(skip_doc)]`, refused in words: a tool's doc is its description.
    #[darling(default, rename = "skip_doc")]
    _skip_doc: Option<ToolDoc>,
    /// What only MCP's definitions carry: `title`, the annotations' hints, `icon`s.
    #[darling(flatten)]
    pub mcp: McpAttrs<R>,
}

/// `skip_doc` on a tool: always an error (a tool's doc comment is its description).
struct ToolDoc;

impl FromMeta for ToolDoc {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        Err(darling::Error::custom(
            "`skip_doc` would leave the tool without its description, which the model reads to \
             decide when to call it; to give the model other words than the doc comment, write \
             `#[tool(description = \"..\")]`",
        )
        .with_span(item.path()))
    }
}

/// What `#[tool(..)]` gives only MCP's definition of a tool: a title for people, the
/// annotations' hints, icons; and the keys a tool does not read, for `R`.
#[derive(Default, FromMeta)]
pub struct McpAttrs<R = Elsewhere<OnTool>> {
    /// `#[tool(title = "Get the weather")]`
    #[darling(default, map = Title::text)]
    pub title: Option<String>,
    /// `#[tool(read_only)]` (each hint also `= false`)
    pub read_only: Option<Hint>,
    /// `#[tool(destructive)]`
    pub destructive: Option<Hint>,
    /// `#[tool(idempotent)]`
    pub idempotent: Option<Hint>,
    /// `#[tool(open_world)]`
    pub open_world: Option<Hint>,
    /// `#[tool(icon = "https://..")]` or `#[tool(icon(src = "..", mime_type = "..", sizes =
    /// "48x48 96x96", theme = "dark"))]`, once per icon.
    #[darling(multiple, rename = "icon")]
    pub icons: Vec<Icon>,
    /// The keys a tool does not read.
    #[darling(flatten)]
    rest: R,
}

/// The hints of [`McpAttrs`] with MCP's names for them, in MCP's order.
pub const HINTS: [(&str, &str); 4] = [
    ("read_only", "readOnlyHint"),
    ("destructive", "destructiveHint"),
    ("idempotent", "idempotentHint"),
    ("open_world", "openWorldHint"),
];

impl<R> McpAttrs<R> {
    /// The hints in the order of [`HINTS`], each with the span of its key.
    pub fn hints(&self) -> [Option<(bool, Span)>; 4] {
        [
            &self.read_only,
            &self.destructive,
            &self.idempotent,
            &self.open_world,
        ]
        .map(|hint| hint.as_ref().map(|hint| (hint.on, hint.span)))
    }
}

/// One `#[tool(icon ..)]`: MCP's `Icon`.
pub struct Icon {
    pub src: String,
    pub mime_type: Option<String>,
    pub sizes: Vec<String>,
    pub theme: Option<String>,
}

/// `#[tool(icon(..))]`'s parts, each checked as it is read.
#[derive(FromMeta)]
struct IconParts {
    #[darling(default)]
    src: Option<IconSrc>,
    #[darling(default)]
    mime_type: Option<MimeType>,
    #[darling(default)]
    sizes: Option<Sizes>,
    #[darling(default)]
    theme: Option<Theme>,
}

impl FromMeta for Icon {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        const HOW: &str = "icon = \"https://example.com/icon.png\"` or `icon(src = \"..\", \
                           mime_type = \"image/png\", sizes = \"48x48\", theme = \"light\")";
        if let Meta::List(_) = item {
            let parts = IconParts::from_meta(item)?;
            let Some(src) = parts.src else {
                return Err(darling::Error::custom(format!(
                    "an icon needs its `src`: write `{HOW}`"
                ))
                .with_span(item.path()));
            };
            return Ok(Icon {
                src: src.0,
                mime_type: parts.mime_type.map(|m| m.0),
                sizes: parts.sizes.map(|s| s.0).unwrap_or_default(),
                theme: parts.theme.map(|t| t.0),
            });
        }
        let src = string(
            item,
            &format!("`icon` takes a URL, or the icon's parts: write `{HOW}`"),
        )?;
        Ok(Icon {
            src: IconSrc::check(&src)?.0,
            mime_type: None,
            sizes: Vec::new(),
            theme: None,
        })
    }
}

/// What `#[tool(..)]` on a `ToolSchema` type or a variant takes, each; `R` takes the keys it does
/// not read (see [`Elsewhere`]).
#[derive(Default, FromMeta)]
pub struct DescribedAttrs<R> {
    /// `#[tool(description = "...")]`
    #[darling(default, map = Text::lit)]
    pub description: Option<LitStr>,
    /// `#[tool(nullable)]`: every `Option` field of the type admits `null` in its schema (see
    /// [`FieldToolAttrs::nullable`]).
    #[darling(default, map = Word::flag)]
    pub nullable: Flag,
    /// `#[tool(skip_doc)]`: the doc comment stays out of the schema (it is for the Rust reader;
    /// a `description = ".."` is still written).
    #[darling(default, map = Word::flag)]
    pub skip_doc: Flag,
    /// The keys it does not read.
    #[darling(flatten)]
    rest: R,
}

/// `#[tool(..)]` on a variant.
#[derive(Default, FromAttributes)]
#[darling(attributes(tool))]
pub struct VariantAttrs<R = Elsewhere<OnVariant>> {
    #[darling(flatten)]
    pub described: DescribedAttrs<R>,
}

/// `#[tool(..)]` on the struct of `#[derive(ToolSchema)]`.
#[derive(Default, FromAttributes)]
#[darling(attributes(tool))]
pub struct StructAttrs<R = Elsewhere<OnStruct>> {
    /// `#[tool(answer)]`: it is a structured answer (`Structured<T>`), checked for the strict
    /// dialects of OpenAI and Anthropic where it is defined, as a strict tool is.
    #[darling(default, map = Word::flag)]
    pub answer: Flag,
    /// `#[tool(form)]`: an MCP elicitation can ask for it (`Invocation::elicit`), checked where
    /// it is defined.
    #[darling(default, map = Word::flag)]
    pub form: Flag,
    #[darling(flatten)]
    pub described: DescribedAttrs<R>,
}

/// `#[tool(..)]` on the enum of `#[derive(ToolSchema)]`.
#[derive(Default, FromAttributes)]
#[darling(attributes(tool))]
pub struct EnumAttrs<R = Elsewhere<OnEnum>> {
    /// `#[tool(one_of)]`: its alternatives under `oneOf` (exactly one matches), where toolgen
    /// writes `anyOf`.
    #[darling(default, map = Word::flag)]
    pub one_of: Flag,
    #[darling(flatten)]
    pub described: DescribedAttrs<R>,
}

/// `#[tool(..)]` on a field (a named one, or a newtype's).
#[derive(Default, FromAttributes)]
#[darling(attributes(tool))]
pub struct FieldToolAttrs<R = Elsewhere<OnField>> {
    /// `#[tool(description = "...")]`
    #[darling(default, map = Text::lit)]
    pub description: Option<LitStr>,
    /// `#[tool(schema = Type)]` (`HashMap<String, u8>` as it is, or quoted): describe the field
    /// as `Type`.
    #[darling(default, map = TypeArg::ty)]
    pub schema: Option<syn::Type>,
    /// `#[tool(default = 5)]`, `= "word"`, `= true`, `= []`: shown in the schema, filled in when
    /// the model leaves the field out.
    pub default: Option<LitExpr>,
    /// `#[tool(range(min = 1, max = 10))]`
    pub range: Option<Bounds>,
    /// `#[tool(multiple_of = 5)]`
    pub multiple_of: Option<LitExpr>,
    /// `#[tool(length(min = 1, max = 80))]`
    pub length: Option<Bounds>,
    /// `#[tool(pattern = "^[a-z]+$")]`
    #[darling(default, map = Text::lit)]
    pub pattern: Option<LitStr>,
    /// `#[tool(format = "date-time")]`
    #[darling(default, map = Text::lit)]
    pub format: Option<LitStr>,
    /// `#[tool(custom_format = "int64")]`: a format toolgen does not know, written as it is and
    /// not checked (an OpenAPI `int64`, a vendor's own); the dialects without it say it in words.
    #[darling(default, map = Text::lit)]
    pub custom_format: Option<LitStr>,
    /// `#[tool(example = "Riga")]`, once per example.
    #[darling(multiple)]
    pub example: Vec<LitExpr>,
    /// `#[tool(required)]`: listed in `required` although it has a default (or is an `Option`),
    /// as Zod writes a defaulted field; parsing still fills it in when missing.
    #[darling(default, map = Word::flag)]
    pub required: Flag,
    /// `#[tool(nullable)]`: an `Option` field's schema admits `null` (`"type": ["integer",
    /// "null"]`), where by default it is its inner type's, left out of `required`, as published
    /// tools write a field that may be left out.
    #[darling(default, map = Word::flag)]
    pub nullable: Flag,
    /// `#[tool(skip_doc)]`: the doc comment stays out of the schema (it is for the Rust reader;
    /// a `description = ".."` is still written).
    #[darling(default, map = Word::flag)]
    pub skip_doc: Flag,
    /// `#[tool(recursive)]`: the field leads back to a type that holds this one (`A` holds `B`
    /// holds `A`). The types it holds are written by `$ref`, their entries under `$defs`, which
    /// cuts the cycle.
    #[darling(default, map = Word::flag)]
    pub recursive: Flag,
    /// The keys it does not read.
    #[darling(flatten)]
    rest: R,
}

/// Where a `#[tool(..)]` is written, in words: a place's struct of keys is read with its place's
/// [`Elsewhere`].
pub trait Place {
    const WHERE: &'static str;
}

macro_rules! places {
    ($($(#[$doc:meta])* $place:ident: $where:literal,)*) => {$(
        $(#[$doc])*
        #[derive(Default)]
        pub struct $place;
        impl Place for $place {
            const WHERE: &'static str = $where;
        }
    )*};
}

places! {
    /// The struct of `#[derive(Tool)]`.
    OnTool: "the struct that derives `Tool`",
    /// The struct of `#[derive(ToolSchema)]`.
    OnStruct: "a struct that derives `ToolSchema`",
    /// The enum of `#[derive(ToolSchema)]`.
    OnEnum: "an enum that derives `ToolSchema`",
    /// An enum's variant.
    OnVariant: "a variant",
    /// A named field, or a newtype's.
    OnField: "a field",
}

/// Whether the struct of keys of each place reads `key` (a key it reads takes it, well or not;
/// one it does not goes to its [`Kept`]), in the order [`Elsewhere`] names them.
type Reads = fn(&syn::Attribute) -> bool;

const PLACES: [(&str, Reads); 5] = [
    (OnTool::WHERE, |attr| {
        reads::<ToolAttrs<Kept>>(attr, |tool| &tool.mcp.rest)
    }),
    (OnStruct::WHERE, |attr| {
        reads::<StructAttrs<Kept>>(attr, |read| &read.described.rest)
    }),
    (OnEnum::WHERE, |attr| {
        reads::<EnumAttrs<Kept>>(attr, |read| &read.described.rest)
    }),
    (OnVariant::WHERE, |attr| {
        reads::<VariantAttrs<Kept>>(attr, |read| &read.described.rest)
    }),
    (OnField::WHERE, |attr| {
        reads::<FieldToolAttrs<Kept>>(attr, |read| &read.rest)
    }),
];

/// Whether `P` reads the one key of `attr`: it takes it (well or not), where `rest` of what it
/// read is where it keeps the keys it does not read.
fn reads<P: FromAttributes>(attr: &syn::Attribute, rest: fn(&P) -> &Kept) -> bool {
    match P::from_attributes(std::slice::from_ref(attr)) {
        Ok(read) => rest(&read).0 == 0,
        Err(_) => true,
    }
}

/// How many keys a place did not read: what its struct of keys is read with to ask whether it
/// reads a key ([`PLACES`]).
#[derive(Default)]
pub struct Kept(usize);

impl FromMeta for Kept {
    fn from_list(items: &[NestedMeta]) -> darling::Result<Self> {
        Ok(Kept(items.len()))
    }
}

/// The keys the place `H` does not read, each an error: "`one_of` belongs on an enum that
/// derives `ToolSchema`, not on a field" where another place reads it, darling's "Unknown field"
/// (with its "did you mean", among the keys of `H`) where none does. The places' structs of
/// keys are the one list of what each reads.
pub struct Elsewhere<H>(PhantomData<H>);

impl<H> Default for Elsewhere<H> {
    fn default() -> Self {
        Elsewhere(PhantomData)
    }
}

impl<H: Place> FromMeta for Elsewhere<H> {
    fn from_list(items: &[NestedMeta]) -> darling::Result<Self> {
        let mut errors = darling::Error::accumulator();
        for item in items {
            let path = match item {
                NestedMeta::Meta(meta) => meta.path(),
                NestedMeta::NameValueInvalidExpr(pair) => &pair.path,
                NestedMeta::Lit(lit) => {
                    errors.push(darling::Error::unsupported_format("literal").with_span(lit));
                    continue;
                }
            };
            let alone: syn::Attribute = syn::parse_quote!(#[tool(#path)]);
            let places: Vec<&str> = PLACES
                .iter()
                .filter(|(place, reads)| *place != H::WHERE && reads(&alone))
                .map(|(place, _)| *place)
                .collect();
            errors.push(if places.is_empty() {
                darling::Error::unknown_field_path(path).with_span(path)
            } else {
                let key = darling::util::path_to_string(path);
                darling::Error::custom(format!(
                    "`{key}` belongs on {}, not on {}",
                    places.join(" or on "),
                    H::WHERE
                ))
                .with_span(path)
            });
        }
        errors.finish_with(Elsewhere(PhantomData))
    }
}

/// A key written alone (darling's `Flag`), saying so in words when it is given a value.
struct Word(Flag);

impl Word {
    fn flag(word: Word) -> Flag {
        word.0
    }
}

impl FromMeta for Word {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        Flag::from_meta(item).map(Word).map_err(|_| {
            let key = key_of(item);
            darling::Error::custom(format!("`{key}` takes no value: write `#[tool({key})]`"))
                .with_span(item.path())
        })
    }
}

/// `key = Type`, or `key = "Type<..>"`. (`Vec<u8>` is not an expression: darling hands it over
/// as tokens, which `Option<syn::Type>` would not take; a type with a comma inside is wrapped
/// before darling reads it, by [`read`].)
struct TypeArg(syn::Type);

impl TypeArg {
    fn ty(arg: TypeArg) -> Option<syn::Type> {
        Some(arg.0)
    }
}

/// The macro [`wrap_types`] wraps a type in, which only [`TypeArg`] reads.
const TYPE_WRAP: &str = "__toolgen_type";

impl TypeArg {
    /// `ty`, out of the macro call [`wrap_types`] wrapped it in.
    fn unwrapped(ty: syn::Type) -> darling::Result<TypeArg> {
        match ty {
            syn::Type::Macro(call) if call.mac.path.is_ident(TYPE_WRAP) => {
                Ok(TypeArg(syn::parse2(call.mac.tokens)?))
            }
            ty => Ok(TypeArg(ty)),
        }
    }
}

impl FromMeta for TypeArg {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        syn::Type::from_meta(item).and_then(TypeArg::unwrapped)
    }

    fn from_invalid_expr(value: &darling::ast::MetaNameValueInvalidExpr) -> darling::Result<Self> {
        syn::Type::from_invalid_expr(value).and_then(TypeArg::unwrapped)
    }
}

/// `min = .., max = ..`, either optional, with the span of the key (`range`, `length`).
#[derive(Clone)]
pub struct Bounds {
    pub min: Option<LitExpr>,
    pub max: Option<LitExpr>,
    pub span: Span,
}

#[derive(FromMeta)]
struct BoundParts {
    min: Option<LitExpr>,
    max: Option<LitExpr>,
}

impl FromMeta for Bounds {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        let key = key_of(item);
        let parts = match item {
            // `range()`: no bounds at all, which the checks report in words.
            Meta::List(list) if list.tokens.is_empty() => BoundParts {
                min: None,
                max: None,
            },
            Meta::List(_) => BoundParts::from_meta(item)?,
            _ => {
                return Err(darling::Error::custom(format!(
                    "`{key}` takes bounds: write `{key}(min = 1, max = 10)`"
                ))
                .with_span(item.path()));
            }
        };
        Ok(Bounds {
            min: parts.min,
            max: parts.max,
            span: item.path().span(),
        })
    }
}

/// An attribute value kept as written. (darling reads a string literal given for a `syn::Expr`
/// as the source of an expression; here `"word"` must stay the string `"word"`.)
#[derive(Clone)]
pub struct LitExpr(pub syn::Expr);

impl FromMeta for LitExpr {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        match item {
            Meta::NameValue(pair) => Ok(LitExpr(pair.value.clone())),
            _ => {
                let key = key_of(item);
                Err(
                    darling::Error::custom(format!("`{key}` takes a value: write `{key} = ..`"))
                        .with_span(item.path()),
                )
            }
        }
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

/// `key = "text"`'s literal, or an error at what was written instead, saying `takes`.
fn string(item: &Meta, takes: &str) -> darling::Result<LitStr> {
    match item {
        Meta::NameValue(pair) => match &pair.value {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Str(lit), ..
            }) => Ok(lit.clone()),
            other => Err(darling::Error::custom(takes).with_span(other)),
        },
        _ => Err(darling::Error::custom(takes).with_span(item.path())),
    }
}

/// The key of `item` as written (`a::b` for a path).
fn key_of(item: &Meta) -> String {
    let segments: Vec<String> = item
        .path()
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    segments.join("::")
}

/// `key = "text"`.
struct Text(LitStr);

impl Text {
    fn lit(text: Option<Text>) -> Option<LitStr> {
        text.map(|text| text.0)
    }
}

impl FromMeta for Text {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        let key = key_of(item);
        string(
            item,
            &format!("`{key}` takes a string: write `{key} = \"...\"`"),
        )
        .map(Text)
    }
}

/// A string that passes `good`, else the error `message` at it.
fn checked(item: &Meta, good: impl Fn(&str) -> bool, message: &str) -> darling::Result<String> {
    let key = key_of(item);
    let lit = string(item, &format!("`{key}` takes a string: {message}"))?;
    if good(&lit.value()) {
        Ok(lit.value())
    } else {
        Err(darling::Error::custom(message).with_span(&lit))
    }
}

/// Which providers' strict mode a tool asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strict {
    /// `#[tool(strict)]`: OpenAI's and Anthropic's.
    Both,
    /// `#[tool(strict = "openai")]`
    OpenAi,
    /// `#[tool(strict = "anthropic")]`
    Anthropic,
}

impl Strict {
    pub fn openai(self) -> bool {
        matches!(self, Strict::Both | Strict::OpenAi)
    }

    pub fn anthropic(self) -> bool {
        matches!(self, Strict::Both | Strict::Anthropic)
    }
}

impl FromMeta for Strict {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        const HOW: &str = "write `#[tool(strict)]` (OpenAI and Anthropic), `#[tool(strict = \
                           \"openai\")]` or `#[tool(strict = \"anthropic\")]`";
        let what =
            format!("`strict` takes no value, or the provider whose strict mode to use: {HOW}");
        match item {
            Meta::Path(_) => Ok(Strict::Both),
            Meta::List(_) => Err(
                darling::Error::custom(format!("`strict` takes no list: {HOW}"))
                    .with_span(item.path()),
            ),
            Meta::NameValue(_) => {
                let lit = string(item, &what)?;
                match lit.value().as_str() {
                    "openai" => Ok(Strict::OpenAi),
                    "anthropic" => Ok(Strict::Anthropic),
                    _ => Err(darling::Error::custom(what).with_span(&lit)),
                }
            }
        }
    }
}

/// One caller of `#[tool(allowed_callers(..))]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallerKind {
    /// `direct`: the model.
    Direct,
    /// `program`: code the model writes, run by the provider's code tool.
    Program,
}

/// `allowed_callers(..)`'s list: words, each once, at least one.
struct AllowedCallers(Vec<SpannedValue<CallerKind>>);

impl AllowedCallers {
    fn kinds(callers: Option<AllowedCallers>) -> Vec<SpannedValue<CallerKind>> {
        callers.map(|callers| callers.0).unwrap_or_default()
    }
}

const CALLERS_HOW: &str = "write `allowed_callers(direct)`, `allowed_callers(program)` or \
                           `allowed_callers(direct, program)`";

impl FromMeta for AllowedCallers {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        match item {
            // #[tool(allowed_callers(direct, program))]
            Meta::List(list) => {
                let items = NestedMeta::parse_meta_list(list.tokens.clone())?;
                if items.is_empty() {
                    return Err(darling::Error::custom(format!(
                        "`allowed_callers` names no caller; {CALLERS_HOW}"
                    ))
                    .with_span(list));
                }
                Self::from_list(&items)
            }
            _ => Err(darling::Error::custom(format!(
                "`allowed_callers` takes a list of callers; {CALLERS_HOW}"
            ))
            .with_span(item)),
        }
    }

    fn from_list(items: &[NestedMeta]) -> darling::Result<Self> {
        let mut errors = darling::Error::accumulator();
        let mut callers: Vec<SpannedValue<CallerKind>> = Vec::new();
        for item in items {
            let word = match item {
                NestedMeta::Meta(Meta::Path(path)) => path.get_ident(),
                _ => None,
            };
            let Some(word) = word else {
                errors.push(
                    darling::Error::custom(format!(
                        "a caller is a word, `direct` or `program`; {CALLERS_HOW}"
                    ))
                    .with_span(item),
                );
                continue;
            };
            let kind = match word.to_string().as_str() {
                "direct" => CallerKind::Direct,
                "program" => CallerKind::Program,
                // A provider's own name: `program` is written as each provider names it.
                name if name == "programmatic" || name.starts_with("code_execution") => {
                    let provider = match name {
                        "programmatic" => "OpenAI's",
                        _ => "Anthropic's",
                    };
                    errors.push(
                        darling::Error::custom(format!(
                            "`{name}` is {provider} name for a caller; write `program`, which \
                             toolgen writes as each provider names it (OpenAI `programmatic`, \
                             Anthropic `code_execution_20250825`)"
                        ))
                        .with_span(word),
                    );
                    continue;
                }
                name => {
                    errors.push(
                        darling::Error::custom(format!(
                            "unknown caller `{name}`; the callers are `direct` (the model) and \
                             `program` (code the model writes)"
                        ))
                        .with_span(word),
                    );
                    continue;
                }
            };
            if callers.iter().any(|caller| **caller == kind) {
                errors.push(
                    darling::Error::custom(format!("duplicate caller `{word}`")).with_span(word),
                );
                continue;
            }
            callers.push(SpannedValue::new(kind, word.span()));
        }
        errors.finish_with(AllowedCallers(callers))
    }
}

/// Which field of Gemini's function declaration a tool's schema goes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gemini {
    /// `#[tool(gemini = "parameters")]`: the OpenAPI subset, and a build error if the schema
    /// does not fit it.
    Parameters,
    /// `#[tool(gemini = "json_schema")]`: `parametersJsonSchema`, the standard schema as it is.
    JsonSchema,
}

impl FromMeta for Gemini {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        let mode = checked(
            item,
            |mode| matches!(mode, "parameters" | "json_schema"),
            "`gemini` is `parameters` (the OpenAPI subset, checked at compile time) or \
             `json_schema` (`parametersJsonSchema`): write `gemini = \"parameters\"` or `gemini = \
             \"json_schema\"`",
        )?;
        Ok(if mode == "parameters" {
            Gemini::Parameters
        } else {
            Gemini::JsonSchema
        })
    }
}

/// `cache_control` alone (`""`), or its TTL.
struct CacheTtl(String);

impl CacheTtl {
    fn text(ttl: Option<CacheTtl>) -> Option<String> {
        ttl.map(|ttl| ttl.0)
    }
}

impl FromMeta for CacheTtl {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        if let Meta::Path(_) = item {
            return Ok(CacheTtl(String::new()));
        }
        checked(
            item,
            |ttl| matches!(ttl, "5m" | "1h"),
            "Anthropic's cache lives `5m` (the default) or `1h`: write `cache_control = \"5m\"` \
             or `cache_control = \"1h\"`, or `cache_control` alone",
        )
        .map(CacheTtl)
    }
}

/// `input_example = json!({..})`: as written, and as JSON text.
pub struct InputExample {
    pub expr: syn::Expr,
    pub text: String,
}

impl FromMeta for InputExample {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        const HOW: &str = "an input example is a whole input, an object: write `input_example = \
                           json!({\"field\": ..})`";
        let Meta::NameValue(pair) = item else {
            return Err(darling::Error::custom(HOW).with_span(item.path()));
        };
        match crate::json::expr_to_json(&pair.value) {
            Ok(text) if text.starts_with('{') => Ok(InputExample {
                expr: pair.value.clone(),
                text,
            }),
            Ok(_) => Err(darling::Error::custom(HOW).with_span(&pair.value)),
            Err(error) => Err(error.into()),
        }
    }
}

/// `timeout = "10s"`, in milliseconds.
struct Timeout(u64);

impl Timeout {
    fn millis(timeout: Option<Timeout>) -> Option<u64> {
        timeout.map(|timeout| timeout.0)
    }
}

impl FromMeta for Timeout {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        let text = checked(
            item,
            |text| duration_millis(text).is_some(),
            "a timeout is a number above zero and a unit, `ms`, `s`, `m` or `h`: write \
             `timeout = \"10s\"` or `timeout = \"1500ms\"`",
        )?;
        Ok(Timeout(duration_millis(&text).unwrap_or_default()))
    }
}

/// `scope = "a b"`: OAuth scope tokens (RFC 6749, section 3.3), space-separated.
struct Scope(Vec<String>);

impl Scope {
    fn words(scope: Option<Scope>) -> Vec<String> {
        scope.map(|scope| scope.0).unwrap_or_default()
    }

    /// Whether `text` is one or more scope tokens, each of visible ASCII but `"` and `\`.
    fn is_valid(text: &str) -> bool {
        let token = |word: &str| {
            word.bytes()
                .all(|byte| byte.is_ascii_graphic() && byte != b'"' && byte != b'\\')
        };
        text.split(' ').all(|word| !word.is_empty() && token(word))
    }
}

impl FromMeta for Scope {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        let text = checked(
            item,
            Scope::is_valid,
            "a scope is one or more OAuth scope tokens, separated by one space, each of visible \
             ASCII without `\"` or `\\`: write `scope = \"notes:write\"` or \
             `scope = \"notes:read notes:write\"`",
        )?;
        Ok(Scope(text.split(' ').map(str::to_owned).collect()))
    }
}

/// `title = ".."`, not blank.
struct Title(String);

impl Title {
    fn text(title: Option<Title>) -> Option<String> {
        title.map(|title| title.0)
    }
}

impl FromMeta for Title {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        checked(
            item,
            |title| !title.trim().is_empty(),
            "a title is the tool's name for people, and cannot be blank: write `title = \"Get \
             the weather\"`",
        )
        .map(Title)
    }
}

/// A hint: `key` alone (true), or `key = true` / `key = false`, with the span of the key.
pub struct Hint {
    pub on: bool,
    pub span: Span,
}

impl FromMeta for Hint {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        let key = key_of(item);
        let message = format!("`{key}` is a hint, true or false: write `{key}` or `{key} = false`");
        let span = item.path().span();
        match item {
            Meta::Path(_) => Ok(Hint { on: true, span }),
            Meta::NameValue(pair) => match &pair.value {
                Expr::Lit(syn::ExprLit {
                    lit: Lit::Bool(on), ..
                }) => Ok(Hint { on: on.value, span }),
                other => Err(darling::Error::custom(message).with_span(other)),
            },
            Meta::List(_) => Err(darling::Error::custom(message).with_span(item.path())),
        }
    }
}

/// What an icon's `src` may be, said when it is not.
const ICON_SRC: &str = "an icon's `src` is an absolute `https:` (or `http:`) URL, or a `data:` URI \
                        of the image: write `icon = \"https://example.com/icon.png\"`";

/// An icon's `src`, checked.
struct IconSrc(String);

impl IconSrc {
    fn check(src: &LitStr) -> darling::Result<Self> {
        if is_icon_src(&src.value()) {
            Ok(IconSrc(src.value()))
        } else {
            Err(darling::Error::custom(ICON_SRC).with_span(src))
        }
    }
}

impl FromMeta for IconSrc {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        checked(item, is_icon_src, ICON_SRC).map(IconSrc)
    }
}

/// An icon's `mime_type`, checked.
struct MimeType(String);

impl FromMeta for MimeType {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        checked(
            item,
            |mime| mime.starts_with("image/") && mime.len() > "image/".len(),
            "an icon's `mime_type` is an image type: write `mime_type = \"image/png\"` (or \
             `image/svg+xml`, `image/webp`, ..)",
        )
        .map(MimeType)
    }
}

/// An icon's `sizes`, checked and split.
struct Sizes(Vec<String>);

impl FromMeta for Sizes {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        let sizes = checked(
            item,
            |sizes| {
                sizes.split_whitespace().next().is_some()
                    && sizes.split_whitespace().all(is_icon_size)
            },
            "an icon's `sizes` are `WxH` in pixels, or `any` for a scalable image, separated by \
             spaces: write `sizes = \"48x48 96x96\"`",
        )?;
        Ok(Sizes(sizes.split_whitespace().map(str::to_owned).collect()))
    }
}

/// An icon's `theme`, checked.
struct Theme(String);

impl FromMeta for Theme {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        checked(
            item,
            |theme| matches!(theme, "light" | "dark"),
            "an icon's `theme` is the background it is drawn for, `light` or `dark`: write \
             `theme = \"light\"`",
        )
        .map(Theme)
    }
}

/// Whether `src` is what MCP takes as an icon's `src`: an HTTP(S) URL with a host, or a `data:`
/// URI of an image, without spaces.
fn is_icon_src(src: &str) -> bool {
    if src.chars().any(char::is_whitespace) {
        return false;
    }
    let lower = src.to_ascii_lowercase();
    let host = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"));
    match host {
        Some(rest) => !rest.is_empty() && !rest.starts_with('/'),
        None => lower.starts_with("data:image/") && src.contains(','),
    }
}

/// `48x48` or `any`.
fn is_icon_size(size: &str) -> bool {
    let whole = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    size == "any"
        || size
            .split_once('x')
            .is_some_and(|(w, h)| whole(w) && whole(h))
}

/// `text` (`"10s"`, `"1500ms"`, `"0.5s"`, `"2m"`, `"1h"`) in whole milliseconds; `None` for
/// anything else, for zero, for a fraction of a millisecond, and for more than a year. Computed
/// in integers: `"1.001s"` is 1001 ms exactly.
fn duration_millis(text: &str) -> Option<u64> {
    let split = text.find(|c: char| !c.is_ascii_digit() && c != '.')?;
    let (number, unit) = text.split_at(split);
    let scale: u64 = match unit {
        "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        _ => return None,
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() || fraction.contains('.') || (number.contains('.') && fraction.is_empty()) {
        return None;
    }
    let mut millis = whole.parse::<u64>().ok()?.checked_mul(scale)?;
    // Each digit of the fraction is a tenth of the one before: whole milliseconds only.
    let mut unit_part = scale;
    for digit in fraction.bytes() {
        let digit = u64::from(digit.checked_sub(b'0')?);
        if !unit_part.is_multiple_of(10) {
            if digit != 0 {
                return None;
            }
            continue;
        }
        unit_part /= 10;
        millis = millis.checked_add(digit.checked_mul(unit_part)?)?;
    }
    (1..=31_536_000_000).contains(&millis).then_some(millis)
}

#[cfg(test)]
mod duration_tests {
    use super::duration_millis;

    #[test]
    fn durations_are_read_in_whole_milliseconds() {
        assert_eq!(duration_millis("10s"), Some(10_000));
        assert_eq!(duration_millis("1500ms"), Some(1_500));
        assert_eq!(duration_millis("1.001s"), Some(1_001));
        assert_eq!(duration_millis("4.1m"), Some(246_000));
        assert_eq!(duration_millis("0.5s"), Some(500));
        assert_eq!(duration_millis("1h"), Some(3_600_000));
        for bad in [
            "10", "0s", "fast", "0.5ms", "1.0001s", ".5s", "5.s", "1.2.3s", "s", "9000000h",
        ] {
            assert_eq!(duration_millis(bad), None, "{bad}");
        }
    }
}

/// Reads `#[tool(..)]` into `T`, as darling does, but for two things:
///
/// - A type with generic arguments may be written without quotes (`schema = HashMap<String,
///   Value>`): darling takes a value up to the first comma, so the type is wrapped first (see
///   [`wrap_types`]).
/// - Where the attribute has problems, darling's errors are all reported, and the keys that are
///   fine on their own are still read (`Err` holds them): the checks of their values (a tool's
///   name, say) report alongside, as if the others were not there.
pub fn read<T: FromAttributes>(attrs: &[syn::Attribute]) -> Result<T, (darling::Error, Option<T>)> {
    let attrs: Vec<syn::Attribute> = attrs.iter().map(wrap_types).collect();
    let errors = match T::from_attributes(&attrs) {
        Ok(read) => return Ok(read),
        Err(errors) => errors,
    };
    // Each key on its own, then those that read alone, together.
    let mut fine = Vec::new();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("tool")) {
        let Ok(metas) = attr
            .parse_args_with(syn::punctuated::Punctuated::<Meta, syn::Token![,]>::parse_terminated)
        else {
            continue;
        };
        for meta in metas {
            let alone: syn::Attribute = syn::parse_quote!(#[tool(#meta)]);
            if T::from_attributes(std::slice::from_ref(&alone)).is_ok() {
                fine.push(meta);
            }
        }
    }
    let together: syn::Attribute = syn::parse_quote!(#[tool(#(#fine),*)]);
    Err((errors, T::from_attributes(&[together]).ok()))
}

/// Whether `token` is a group (a tuple, an array type) with generic arguments inside.
fn holds_angle(token: &proc_macro2::TokenTree) -> bool {
    use proc_macro2::TokenTree;
    match token {
        TokenTree::Group(group) => group.stream().into_iter().any(|token| match &token {
            TokenTree::Punct(punct) => punct.as_char() == '<',
            other => holds_angle(other),
        }),
        _ => false,
    }
}

/// The keys whose value is a type.
const TYPE_KEYS: [&str; 2] = ["schema", "output"];

/// `attr` with each type value that has generic arguments (`schema = HashMap<String, Value>`)
/// wrapped as the call of a macro of no crate (`schema = __toolgen_type!(HashMap<String,
/// Value>)`): an expression whose tokens syn keeps as they are, which darling takes whole, commas
/// and all, and [`TypeArg`] reads as the type. Each token keeps its span, so an error in the type
/// (a misspelt `Valu`) is at that token, and rustc's suggestions replace it alone. (A string of
/// the type has one span for all of it; an invisible group is parsed as an expression, which
/// leaves its commas unread: an error.)
fn wrap_types(attr: &syn::Attribute) -> syn::Attribute {
    use proc_macro2::{TokenStream, TokenTree};
    let syn::Meta::List(list) = &attr.meta else {
        return attr.clone();
    };
    if !attr.path().is_ident("tool") {
        return attr.clone();
    }
    let tokens: Vec<TokenTree> = list.tokens.clone().into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while let Some(token) = tokens.get(i) {
        let typed_key = matches!(token, TokenTree::Ident(key) if TYPE_KEYS.iter().any(|k| key == k))
            && matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '=')
            && (i == 0
                || matches!(tokens.get(i - 1), Some(TokenTree::Punct(p)) if p.as_char() == ','));
        if !typed_key {
            out.push(token.clone());
            i += 1;
            continue;
        }
        out.extend(tokens.get(i..i + 2).unwrap_or_default().iter().cloned());
        // The value: up to a comma outside angle brackets (`->` is not one).
        let start = i + 2;
        let mut end = start;
        let mut depth = 0usize;
        let mut generic = false;
        while let Some(token) = tokens.get(end) {
            if let TokenTree::Punct(punct) = token {
                let arrow = punct.as_char() == '>'
                    && matches!(tokens.get(end.wrapping_sub(1)), Some(TokenTree::Punct(p)) if p.as_char() == '-');
                match punct.as_char() {
                    ',' if depth == 0 => break,
                    '<' => {
                        depth += 1;
                        generic = true;
                    }
                    '>' if !arrow => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            end += 1;
        }
        let value = tokens.get(start..end).unwrap_or_default();
        if let Some(first) = value.first()
            && (generic || value.iter().any(holds_angle))
        {
            let tokens: TokenStream = value.iter().cloned().collect();
            let wrap = proc_macro2::Ident::new(TYPE_WRAP, first.span());
            out.extend(quote::quote_spanned!(first.span()=> #wrap!(#tokens)));
        } else {
            out.extend(value.iter().cloned());
        }
        i = end;
    }
    let mut attr = attr.clone();
    if let syn::Meta::List(list) = &mut attr.meta {
        list.tokens = out.into_iter().collect();
    }
    attr
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::{Attribute, parse_quote};

    fn messages(result: darling::Result<impl Sized>) -> Vec<String> {
        match result {
            Ok(_) => Vec::new(),
            Err(errors) => errors.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn reports_every_problem_of_an_attribute() {
        let attrs: Vec<Attribute> = vec![parse_quote!(
            #[tool(name = "has space", descripton = "x", strict = true, description = 5)]
        )];
        assert_eq!(
            messages(<ToolAttrs>::from_attributes(&attrs)),
            [
                "`strict` takes no value, or the provider whose strict mode to use: write \
                 `#[tool(strict)]` (OpenAI and Anthropic), `#[tool(strict = \"openai\")]` or \
                 `#[tool(strict = \"anthropic\")]` at strict",
                "`description` takes a string: write `description = \"...\"` at description",
                "Unknown field: `descripton`. Did you mean `description`?",
            ]
        );
    }

    #[test]
    fn reports_duplicates_across_attributes() {
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[tool(strict, name = "a")]),
            parse_quote!(#[tool(name = "b", strict)]),
        ];
        assert_eq!(
            messages(<ToolAttrs>::from_attributes(&attrs)),
            ["Duplicate field `name`", "Duplicate field `strict`"]
        );
    }

    #[test]
    fn says_where_a_misplaced_key_belongs() {
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool(name = "x", desc = "y")])];
        assert_eq!(
            messages(<VariantAttrs>::from_attributes(&attrs)),
            [
                "`name` belongs on the struct that derives `Tool`, not on a variant",
                "Unknown field: `desc`. Did you mean `description`?",
            ]
        );
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool(required, strict, one_of)])];
        assert_eq!(
            messages(<FieldToolAttrs>::from_attributes(&attrs)),
            [
                "`strict` belongs on the struct that derives `Tool`, not on a field",
                "`one_of` belongs on an enum that derives `ToolSchema`, not on a field",
            ]
        );
        let attrs: Vec<Attribute> =
            vec![parse_quote!(#[tool(length(max = 3), one_of, answer, titel = "T")])];
        assert_eq!(
            messages(<ToolAttrs>::from_attributes(&attrs)),
            [
                "`length` belongs on a field, not on the struct that derives `Tool`",
                "`one_of` belongs on an enum that derives `ToolSchema`, not on the struct that \
                 derives `Tool`",
                "`answer` belongs on a struct that derives `ToolSchema`, not on the struct that \
                 derives `Tool`",
                "Unknown field: `titel`. Did you mean `title`?",
            ]
        );
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool(one_of, recursive)])];
        assert_eq!(
            messages(<StructAttrs>::from_attributes(&attrs)),
            [
                "`one_of` belongs on an enum that derives `ToolSchema`, not on a struct that \
                 derives `ToolSchema`",
                "`recursive` belongs on a field, not on a struct that derives `ToolSchema`",
            ]
        );
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool(answer, default = 1)])];
        assert_eq!(
            messages(<EnumAttrs>::from_attributes(&attrs)),
            [
                "`answer` belongs on a struct that derives `ToolSchema`, not on an enum that \
                 derives `ToolSchema`",
                "`default` belongs on a field, not on an enum that derives `ToolSchema`",
            ]
        );
        // What each place reads is fine there.
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool(description = "y", nullable)])];
        assert!(<VariantAttrs>::from_attributes(&attrs).is_ok());
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool(one_of, skip_doc)])];
        assert!(<EnumAttrs>::from_attributes(&attrs).is_ok());
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool(answer, description = "d")])];
        assert!(<StructAttrs>::from_attributes(&attrs).is_ok());
    }

    #[test]
    fn reads_every_key() {
        let attrs: Vec<Attribute> = vec![parse_quote!(
            #[tool(name = "a", description = "b", strict = "openai", output = Vec<u8>,
                gemini = "json_schema", cache_control = "1h", defer_loading,
                eager_input_streaming, input_example = json!({"x": 1}), timeout = "1.5s",
                needs_approval, scope = "notes:read notes:write", title = "A", read_only,
                open_world = false,
                icon = "https://example.com/a.png",
                icon(src = "https://example.com/b.svg", mime_type = "image/svg+xml",
                    sizes = "48x48 any", theme = "dark"))]
        )];
        let Ok(tool) = <ToolAttrs>::from_attributes(&attrs) else {
            panic!("{:?}", messages(<ToolAttrs>::from_attributes(&attrs)));
        };
        assert_eq!(tool.name.map(|n| n.value()).as_deref(), Some("a"));
        assert_eq!(tool.strict.map(|s| *s), Some(Strict::OpenAi));
        assert!(tool.output.is_some());
        assert_eq!(tool.gemini.map(|g| *g), Some(Gemini::JsonSchema));
        assert_eq!(tool.cache_control.as_deref(), Some("1h"));
        assert!(tool.defer_loading.is_present() && tool.eager_input_streaming.is_present());
        let examples: Vec<&str> = tool
            .input_examples
            .iter()
            .map(|e| e.text.as_str())
            .collect();
        assert_eq!(examples, [r#"{"x":1}"#]);
        assert_eq!(tool.timeout, Some(1_500));
        assert!(tool.needs_approval.is_present());
        assert_eq!(tool.scope, ["notes:read", "notes:write"]);
        assert_eq!(tool.mcp.title.as_deref(), Some("A"));
        let hints = tool.mcp.hints().map(|hint| hint.map(|(on, _)| on));
        assert_eq!(hints, [Some(true), None, None, Some(false)]);
        assert_eq!(tool.mcp.icons.len(), 2);
        assert_eq!(tool.mcp.icons[1].sizes, ["48x48", "any"]);
        assert_eq!(tool.mcp.icons[1].theme.as_deref(), Some("dark"));
    }

    #[test]
    fn reads_allowed_callers_each_once() {
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool(allowed_callers(program, direct))])];
        let Ok(tool) = <ToolAttrs>::from_attributes(&attrs) else {
            panic!("{:?}", messages(<ToolAttrs>::from_attributes(&attrs)));
        };
        let callers: Vec<CallerKind> = tool.allowed_callers.iter().map(|c| **c).collect();
        assert_eq!(callers, [CallerKind::Program, CallerKind::Direct]);
        let none = <ToolAttrs>::from_attributes(&[]).map(|tool| tool.allowed_callers.len());
        assert_eq!(none.ok(), Some(0));
        // Every bad caller of one list, each once.
        let attrs: Vec<Attribute> =
            vec![parse_quote!(#[tool(allowed_callers(me, program, program, programmatic))])];
        assert_eq!(
            messages(<ToolAttrs>::from_attributes(&attrs)).len(),
            3,
            "{:?}",
            messages(<ToolAttrs>::from_attributes(&attrs))
        );
    }

    #[test]
    fn malformed_attributes_are_errors_not_panics() {
        let cases: Vec<Attribute> = vec![
            parse_quote!(#[tool = "x"]),
            parse_quote!(#[tool(name)]),
            parse_quote!(#[tool(name("x"))]),
            parse_quote!(#[tool(description = concat!("a", "b"))]),
            parse_quote!(#[tool(a::b = 1)]),
            parse_quote!(#[tool(strict(yes))]),
            parse_quote!(#[tool(gemini)]),
            parse_quote!(#[tool(gemini = 5)]),
            parse_quote!(#[tool(gemini = "both")]),
            parse_quote!(#[tool(icon(src = 5))]),
            parse_quote!(#[tool(icon(mime_type = "image/png"))]),
        ];
        for attr in cases {
            let attrs = std::slice::from_ref(&attr);
            assert_eq!(
                messages(<ToolAttrs>::from_attributes(attrs)).len(),
                1,
                "{}",
                quote::quote!(#attr)
            );
            assert!(<VariantAttrs>::from_attributes(attrs).is_err());
        }
        let empty: Vec<Attribute> = vec![parse_quote!(#[tool()])];
        assert!(<VariantAttrs>::from_attributes(&empty).is_ok());
    }

    #[test]
    fn type_values_with_generics_are_wrapped() {
        // Each value as written, and whether it was wrapped.
        let values = |attr: Attribute| {
            let attr = super::wrap_types(&attr);
            let metas = attr
                .parse_args_with(
                    syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
                )
                .expect("keys");
            metas
                .into_iter()
                .filter_map(|meta| match meta {
                    syn::Meta::NameValue(pair) => Some(match pair.value {
                        syn::Expr::Macro(call) if call.mac.path.is_ident(super::TYPE_WRAP) => {
                            (true, call.mac.tokens.to_string())
                        }
                        other => (false, quote::quote!(#other).to_string()),
                    }),
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            values(
                parse_quote!(#[tool(schema = HashMap<String, Vec<Vec<u8>>>, description = "d")])
            ),
            [
                (true, "HashMap < String , Vec < Vec < u8 >> >".to_owned()),
                (false, r#""d""#.to_owned())
            ]
        );
        assert_eq!(
            values(parse_quote!(#[tool(output = Box<dyn Fn(u8) -> u8>, strict)])),
            [(true, "Box < dyn Fn (u8) -> u8 >".to_owned())]
        );
        assert_eq!(
            values(parse_quote!(#[tool(schema = [Option<u8>; 2])])),
            [(true, "[Option < u8 > ; 2]".to_owned())]
        );
        // Left as written: no generic arguments, a string already, another key's value.
        for attr in [
            quote::quote!(#[tool(schema = u64, default = 5)]),
            quote::quote!(#[tool(schema = "Vec<u8>")]),
            quote::quote!(#[tool(description = "a<b, c>d", pattern = "x")]),
            quote::quote!(#[serde(with = "a")]),
        ] {
            let attr: Attribute = parse_quote!(#attr);
            let wrapped = super::wrap_types(&attr);
            assert_eq!(
                quote::quote!(#wrapped).to_string(),
                quote::quote!(#attr).to_string()
            );
        }
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool(schema = HashMap<String, u8>)])];
        let read = match super::read::<FieldToolAttrs>(&attrs) {
            Ok(read) => read,
            Err((e, _)) => panic!("read: {e}"),
        };
        let ty = read.schema.expect("a type");
        assert!(matches!(ty, syn::Type::Path(_)), "read out of its wrapping");
        assert_eq!(quote::quote!(#ty).to_string(), "HashMap < String , u8 >");
        // Beside another key's problem, the type is still read.
        let attrs: Vec<Attribute> =
            vec![parse_quote!(#[tool(schema = HashMap<String, u8>, descripton = "d")])];
        let Err((_, Some(fine))) = super::read::<FieldToolAttrs>(&attrs) else {
            panic!("an error, and the keys that are fine");
        };
        assert!(fine.schema.is_some());
    }

    #[test]
    fn the_keys_that_are_fine_are_read_beside_the_others_problems() {
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[tool(name = "bad name", descripton = "x", strict = 5)]),
            parse_quote!(#[tool(read_only, timeout = "1s")]),
        ];
        let Err((errors, Some(fine))) = super::read::<ToolAttrs>(&attrs) else {
            panic!("an error, and the keys that are fine");
        };
        assert_eq!(errors.len(), 2);
        assert_eq!(fine.name.map(|n| n.value()).as_deref(), Some("bad name"));
        assert!(fine.strict.is_none() && fine.description.is_none());
        assert_eq!(fine.timeout, Some(1_000));
        assert!(fine.mcp.hints()[0].is_some());
        // An attribute that is not a list of keys: nothing read from it.
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[tool = "x"]),
            parse_quote!(#[tool(name = "n")]),
        ];
        let Err((_, Some(fine))) = super::read::<ToolAttrs>(&attrs) else {
            panic!("an error, and the keys that are fine");
        };
        assert_eq!(fine.name.map(|n| n.value()).as_deref(), Some("n"));
    }
}
