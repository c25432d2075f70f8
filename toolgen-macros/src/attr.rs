//! Reading `#[tool(..)]` into plain values. Nothing here stops at
//! the first problem: every error goes to the accumulator and reading goes on.

use darling::FromAttributes;
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, LitStr, Token};

/// `#[tool(..)]` on the container of `#[derive(Tool)]`.
///
/// Read by hand rather than derived (see [`ToolAttrs::read`]) so that one bad key does not lose
/// the good ones beside it.
#[derive(Default)]
pub struct ToolAttrs {
    /// `#[tool(name = "get_weather")]`
    pub name: Option<LitStr>,
    /// `#[tool(description = "...")]`
    pub description: Option<LitStr>,
    /// `#[tool(strict)]`, `#[tool(strict = "openai")]`, `#[tool(strict = "anthropic")]`, with the
    /// span of `strict`.
    pub strict: Option<(Strict, proc_macro2::Span)>,
    /// `#[tool(output = Type)]`: what the tool returns, for MCP's `outputSchema`.
    pub output: Option<syn::Type>,
    /// `#[tool(gemini = "parameters")]` / `#[tool(gemini = "json_schema")]`, with the span of
    /// the value.
    pub gemini: Option<(Gemini, proc_macro2::Span)>,
    /// `#[tool(cache_control)]` (`""`) or `#[tool(cache_control = "1h")]` (the TTL): Anthropic's
    /// prompt-cache breakpoint on the definition.
    pub cache_control: Option<String>,
    /// `#[tool(defer_loading)]`: Anthropic's and OpenAI Responses' tool search loads it on demand.
    pub defer_loading: bool,
    /// `#[tool(eager_input_streaming)]`: Anthropic streams the input without buffering it.
    pub eager_input_streaming: bool,
    /// `#[tool(input_example = json!({..}))]`, once per example: Anthropic's `input_examples`,
    /// each as JSON text.
    pub input_examples: Vec<String>,
    /// `#[tool(timeout = "10s")]`, in milliseconds: how long the runner lets a call run.
    pub timeout: Option<u64>,
    /// What only MCP's definitions carry: `title`, the annotations' hints, `icon`s.
    pub mcp: McpAttrs,
    /// Keys the user meant but that could not be read: a bad value, or a misspelling
    /// (`descripton`). Checks of a missing name or description stand down for these.
    pub unread: Vec<&'static str>,
}

/// What `#[tool(..)]` gives only MCP's definition of a tool: a title for people, the
/// annotations' hints, icons.
#[derive(Default)]
pub struct McpAttrs {
    /// `#[tool(title = "Get the weather")]`
    pub title: Option<String>,
    /// `read_only`, `destructive`, `idempotent`, `open_world` (each also `= false`), in that
    /// order, with the span of each key.
    pub hints: [Option<(bool, Span)>; 4],
    /// `#[tool(icon = "https://..")]` or `#[tool(icon(src = "..", mime_type = "..", sizes =
    /// "48x48 96x96", theme = "dark"))]`, once per icon.
    pub icons: Vec<Icon>,
}

/// The hint keys of [`McpAttrs::hints`], in order, with MCP's names for them.
pub const HINTS: [(&str, &str); 4] = [
    ("read_only", "readOnlyHint"),
    ("destructive", "destructiveHint"),
    ("idempotent", "idempotentHint"),
    ("open_world", "openWorldHint"),
];

/// One `#[tool(icon ..)]`: MCP's `Icon`.
pub struct Icon {
    pub src: String,
    pub mime_type: Option<String>,
    pub sizes: Vec<String>,
    pub theme: Option<String>,
}

/// `#[tool(..)]` on the container of `#[derive(ToolSchema)]`, on fields and on variants.
#[derive(Default)]
pub struct DescribedAttrs {
    /// `#[tool(description = "...")]`
    pub description: Option<LitStr>,
}

/// `#[tool(..)]` on a field. Read by hand (see [`FieldToolAttrs::read`]) like the container's, for
/// the same messages.
#[derive(Default)]
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
    pub example: Vec<LitExpr>,
    /// `#[tool(required)]`, with its span: listed in `required` although it has a default (or is
    /// an `Option`), as Zod writes a defaulted field; parsing still fills it in when missing.
    pub required: Option<proc_macro2::Span>,
}

/// `min = .., max = ..`, either optional.
#[derive(Default, Clone)]
pub struct Bounds {
    pub min: Option<LitExpr>,
    pub max: Option<LitExpr>,
}

/// An attribute value kept as written. (darling reads a string literal given for a `syn::Expr`
/// as the source of an expression; here `"word"` must stay the string `"word"`.)
#[derive(Clone)]
pub struct LitExpr(pub syn::Expr);

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

/// Consumes `= value` or `(..)` after a key nobody reads.
pub fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(())
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

/// Which field of Gemini's function declaration a tool's schema goes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gemini {
    /// `#[tool(gemini = "parameters")]`: the OpenAPI subset, and a build error if the schema
    /// does not fit it.
    Parameters,
    /// `#[tool(gemini = "json_schema")]`: `parametersJsonSchema`, the standard schema as it is.
    JsonSchema,
}

/// The keys `#[tool(..)]` takes on the container of `#[derive(Tool)]`.
const TOOL_KEYS: &[&str] = &[
    "name",
    "description",
    "strict",
    "output",
    "gemini",
    "cache_control",
    "defer_loading",
    "eager_input_streaming",
    "input_example",
    "timeout",
    "title",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "icon",
];

/// Whether `key` is one only the tool's own struct takes: all of [`TOOL_KEYS`] but `description`.
fn is_tool_only(key: &str) -> bool {
    key != "description" && TOOL_KEYS.contains(&key)
}

impl ToolAttrs {
    /// Reads every `#[tool(..)]`. Each key that can be read is kept, whatever else is wrong in the
    /// attribute; each problem goes to `errors`.
    pub fn read(attrs: &[Attribute], errors: &mut darling::error::Accumulator) -> Self {
        let mut out = ToolAttrs::default();
        each_tool_key(attrs, errors, |key, meta, errors| {
            match key {
                // #[tool(name = "get_weather")]
                "name" => {
                    let value = string_value(meta, key, "name = \"get_weather\"", errors)?;
                    if value.is_none() {
                        out.unread.push("name");
                    }
                    set_once(&mut out.name, value, meta, key, errors);
                }
                // #[tool(description = "...")]
                "description" => {
                    let value = string_value(meta, key, "description = \"...\"", errors)?;
                    if value.is_none() {
                        out.unread.push("description");
                    }
                    set_once(&mut out.description, value, meta, key, errors);
                }
                // #[tool(strict)], #[tool(strict = "openai")], #[tool(strict = "anthropic")]
                "strict" => {
                    let strict = strict_value(meta, errors)?;
                    if out.strict.is_some() {
                        errors.push(duplicate(meta, key));
                    } else if let Some(strict) = strict {
                        out.strict = Some((strict, meta.path.span()));
                    }
                }
                // #[tool(output = Forecast)] / #[tool(output = "Page<Item>")]
                "output" => {
                    let ty = type_value(meta)?;
                    if out.output.is_some() {
                        errors.push(duplicate(meta, key));
                    }
                    out.output = Some(ty);
                }
                // #[tool(gemini = "parameters")] / #[tool(gemini = "json_schema")]
                "gemini" => {
                    const HOW: &str = "gemini = \"parameters\"` or `gemini = \"json_schema\"";
                    if let Some(lit) = string_value(meta, key, HOW, errors)? {
                        let mode = match lit.value().as_str() {
                            "parameters" => Some(Gemini::Parameters),
                            "json_schema" => Some(Gemini::JsonSchema),
                            _ => {
                                errors.push(
                                    darling::Error::custom(format!(
                                        "tool attribute `gemini` is `parameters` (the OpenAPI \
                                         subset, checked at compile time) or `json_schema` \
                                         (`parametersJsonSchema`): write `{HOW}`"
                                    ))
                                    .with_span(&lit),
                                );
                                None
                            }
                        };
                        if out.gemini.is_some() {
                            errors.push(duplicate(meta, key));
                        } else if let Some(mode) = mode {
                            out.gemini = Some((mode, lit.span()));
                        }
                    }
                }
                // #[tool(cache_control)] / #[tool(cache_control = "1h")]
                "cache_control" => {
                    let ttl = if meta.input.peek(syn::Token![=]) {
                        let how = "cache_control = \"5m\"` or `cache_control = \"1h\"";
                        match string_value(meta, key, how, errors)? {
                            Some(lit) if matches!(lit.value().as_str(), "5m" | "1h") => {
                                Some(lit.value())
                            }
                            Some(lit) => {
                                errors.push(
                                    darling::Error::custom(format!(
                                        "Anthropic's cache lives `5m` (the default) or `1h`: \
                                         write `{how}`, or `cache_control` alone"
                                    ))
                                    .with_span(&lit),
                                );
                                None
                            }
                            None => None,
                        }
                    } else {
                        Some(String::new())
                    };
                    if out.cache_control.is_some() {
                        errors.push(duplicate(meta, key));
                    } else if ttl.is_some() {
                        out.cache_control = ttl;
                    }
                }
                // #[tool(defer_loading)], #[tool(eager_input_streaming)]
                "defer_loading" | "eager_input_streaming" => {
                    let slot = if key == "defer_loading" {
                        &mut out.defer_loading
                    } else {
                        &mut out.eager_input_streaming
                    };
                    if flag(meta, key, errors)? {
                        if *slot {
                            errors.push(duplicate(meta, key));
                        }
                        *slot = true;
                    }
                }
                // #[tool(timeout = "10s")], "1500ms", "2m", "1h", "0.5s"
                "timeout" => {
                    const HOW: &str = "timeout = \"10s\"";
                    let lit = string_value(meta, key, HOW, errors)?;
                    let millis = lit.as_ref().and_then(|lit| {
                        let millis = duration_millis(&lit.value());
                        if millis.is_none() {
                            errors.push(
                                darling::Error::custom(
                                    "a timeout is a number above zero and a unit, `ms`, `s`, `m` \
                                     or `h`: write `timeout = \"10s\"` or `timeout = \"1500ms\"`",
                                )
                                .with_span(lit),
                            );
                        }
                        millis
                    });
                    set_once(&mut out.timeout, millis, meta, key, errors);
                }
                // #[tool(input_example = json!({..}))], once per example
                "input_example" => {
                    let expr: syn::Expr = meta.value()?.parse()?;
                    match crate::schema::json::expr_to_json(&expr) {
                        Ok(text) if text.starts_with('{') => out.input_examples.push(text),
                        Ok(_) => errors.push(
                            darling::Error::custom(
                                "an input example is a whole input, an object: write \
                                 `input_example = json!({\"field\": ..})`",
                            )
                            .with_span(&expr),
                        ),
                        Err(error) => errors.push(error.into()),
                    }
                }
                // #[tool(title = "Get the weather")]
                "title" => {
                    let lit = string_value(meta, key, "title = \"Get the weather\"", errors)?;
                    let title = lit.and_then(|lit| {
                        if lit.value().trim().is_empty() {
                            errors.push(
                                darling::Error::custom(
                                    "a title is the tool's name for people, and cannot be \
                                     blank: write `title = \"Get the weather\"`",
                                )
                                .with_span(&lit),
                            );
                            return None;
                        }
                        Some(lit.value())
                    });
                    set_once(&mut out.mcp.title, title, meta, key, errors);
                }
                // #[tool(read_only)], #[tool(open_world = false)], ..
                "read_only" | "destructive" | "idempotent" | "open_world" => {
                    let at = HINTS.iter().position(|(hint, _)| *hint == key).unwrap_or(0);
                    let value = hint_value(meta, key, errors)?.map(|on| (on, meta.path.span()));
                    set_once(&mut out.mcp.hints[at], value, meta, key, errors);
                }
                // #[tool(icon = "https://..")], #[tool(icon(src = "..", ..))], once per icon
                "icon" => {
                    if let Some(icon) = icon_value(meta, errors)? {
                        out.mcp.icons.push(icon);
                    }
                }
                _ => {
                    let (error, guess) = unknown(meta, key, TOOL_KEYS);
                    errors.push(error);
                    out.unread.extend(guess);
                    skip_value(meta)?;
                }
            }
            Ok(())
        });
        out.mcp.check_hints(errors);
        out
    }
}

impl McpAttrs {
    /// MCP reads `destructiveHint` and `idempotentHint` only of a tool that is not read-only:
    /// either beside `read_only` says nothing, and is refused at its key.
    fn check_hints(&self, errors: &mut darling::error::Accumulator) {
        let [Some((true, _)), _, _, _] = self.hints else {
            return;
        };
        for (hint, (key, mcp)) in self.hints.iter().zip(HINTS).skip(1).take(2) {
            if let Some((_, span)) = hint {
                errors.push(
                    darling::Error::custom(format!(
                        "`{key}` says nothing of a `read_only` tool (MCP reads `{mcp}` only when \
                         `readOnlyHint` is false): remove `{key}`, or `read_only`"
                    ))
                    .with_span(span),
                );
            }
        }
    }
}

/// A hint: `key` alone (true), or `key = true` / `key = false`; a bad value is reported (`None`).
fn hint_value(
    meta: &ParseNestedMeta<'_>,
    key: &str,
    errors: &mut darling::error::Accumulator,
) -> syn::Result<Option<bool>> {
    if !meta.input.peek(Token![=]) {
        return Ok(flag(meta, key, errors)?.then_some(true));
    }
    match meta.value()?.parse::<syn::Expr>()? {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Bool(on),
            ..
        }) => Ok(Some(on.value)),
        other => {
            errors.push(
                darling::Error::custom(format!(
                    "`{key}` is a hint, true or false: write `{key}` or `{key} = false`"
                ))
                .with_span(&other),
            );
            Ok(None)
        }
    }
}

/// The keys of `#[tool(icon(..))]`.
const ICON_KEYS: &[&str] = &["src", "mime_type", "sizes", "theme"];

/// `icon = "https://.."`, or `icon(src = "..", mime_type = "..", sizes = "48x48 96x96", theme =
/// "light")`, each part checked; `None` when any is bad (reported).
fn icon_value(
    meta: &ParseNestedMeta<'_>,
    errors: &mut darling::error::Accumulator,
) -> syn::Result<Option<Icon>> {
    const HOW: &str = "icon = \"https://example.com/icon.png\"` or `icon(src = \"..\", \
                       mime_type = \"image/png\", sizes = \"48x48\", theme = \"light\")";
    let mut icon = Icon {
        src: String::new(),
        mime_type: None,
        sizes: Vec::new(),
        theme: None,
    };
    // The problems of the parts, each at its value.
    let mut bad = Vec::new();
    let mut check = |lit: &LitStr, good: bool, message: &str| {
        if !good {
            bad.push(darling::Error::custom(message).with_span(lit));
        }
    };
    if !meta.input.peek(syn::token::Paren) {
        let Some(src) = string_value(meta, "icon", HOW, errors)? else {
            return Ok(None);
        };
        check(&src, is_icon_src(&src.value()), ICON_SRC);
        icon.src = src.value();
        let ok = bad.is_empty();
        errors.extend(bad);
        return Ok(ok.then_some(icon));
    }
    let mut src = None;
    let mut inner_errors = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    meta.parse_nested_meta(|inner| {
        let key = inner
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        if !ICON_KEYS.contains(&key.as_str()) {
            let hint = match did_you_mean(&key, ICON_KEYS) {
                Some(guess) => format!("did you mean `{guess}`?"),
                None => "an icon takes `src`, `mime_type`, `sizes` and `theme`".to_owned(),
            };
            inner_errors.push(
                darling::Error::custom(format!("unknown icon key `{key}`; {hint}"))
                    .with_span(&inner.path),
            );
            return skip_value(&inner);
        }
        if seen.contains(&key) {
            inner_errors.push(
                darling::Error::custom(format!("duplicate icon key `{key}`"))
                    .with_span(&inner.path),
            );
            return skip_value(&inner);
        }
        seen.push(key.clone());
        let value = if inner.input.peek(Token![=]) {
            Some(inner.value()?.parse::<syn::Expr>()?)
        } else {
            skip_value(&inner)?;
            None
        };
        let lit = match value {
            Some(syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(lit),
                ..
            })) => lit,
            other => {
                let error = darling::Error::custom(format!(
                    "icon key `{key}` takes a string: write `{key} = \"..\"`"
                ));
                inner_errors.push(match &other {
                    Some(expr) => error.with_span(expr),
                    None => error.with_span(&inner.path),
                });
                return Ok(());
            }
        };
        let value = lit.value();
        match key.as_str() {
            "src" => {
                check(&lit, is_icon_src(&value), ICON_SRC);
                src = Some(value);
            }
            "mime_type" => {
                check(
                    &lit,
                    value.starts_with("image/") && value.len() > "image/".len(),
                    "an icon's `mime_type` is an image type: write `mime_type = \"image/png\"` \
                     (or `image/svg+xml`, `image/webp`, ..)",
                );
                icon.mime_type = Some(value);
            }
            "sizes" => {
                let sizes: Vec<String> = value.split_whitespace().map(str::to_owned).collect();
                check(
                    &lit,
                    !sizes.is_empty() && sizes.iter().all(|size| is_icon_size(size)),
                    "an icon's `sizes` are `WxH` in pixels, or `any` for a scalable image, \
                     separated by spaces: write `sizes = \"48x48 96x96\"`",
                );
                icon.sizes = sizes;
            }
            _ => {
                check(
                    &lit,
                    matches!(value.as_str(), "light" | "dark"),
                    "an icon's `theme` is the background it is drawn for, `light` or `dark`: \
                     write `theme = \"light\"`",
                );
                icon.theme = Some(value);
            }
        }
        Ok(())
    })?;
    bad.extend(inner_errors);
    let ok = bad.is_empty();
    errors.extend(bad);
    let Some(src) = src else {
        if seen.iter().any(|key| key == "src") {
            // Its bad value is reported.
            return Ok(None);
        }
        errors.push(
            darling::Error::custom(format!("an icon needs its `src`: write `{HOW}`"))
                .with_span(&meta.path),
        );
        return Ok(None);
    };
    icon.src = src;
    Ok(ok.then_some(icon))
}

/// What an icon's `src` may be, said when it is not.
const ICON_SRC: &str = "an icon's `src` is an absolute `https:` (or `http:`) URL, or a `data:` URI \
                        of the image: write `icon = \"https://example.com/icon.png\"`";

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

impl FromAttributes for DescribedAttrs {
    fn from_attributes(attrs: &[Attribute]) -> darling::Result<Self> {
        let mut errors = darling::Error::accumulator();
        let mut out = DescribedAttrs::default();
        each_tool_key(attrs, &mut errors, |key, meta, errors| {
            match key {
                // #[tool(description = "...")]
                "description" => {
                    let value = string_value(meta, key, "description = \"...\"", errors)?;
                    set_once(&mut out.description, value, meta, key, errors);
                }
                // #[tool(name = "..")], #[tool(strict)], #[tool(output = ..)]: only for the tool
                // itself.
                _ if is_tool_only(key) => {
                    errors.push(
                        darling::Error::custom(format!(
                            "tool attribute `{key}` belongs on the struct that derives `Tool`; \
                             here #[tool] takes only `description`"
                        ))
                        .with_span(&meta.path),
                    );
                    skip_value(meta)?;
                }
                _ => {
                    errors.push(unknown(meta, key, &["description"]).0);
                    skip_value(meta)?;
                }
            }
            Ok(())
        });
        errors.finish_with(out)
    }
}

/// Where `key` is first written in the `#[tool(..)]` attributes: for an error about its value as a
/// whole, when the value keeps no span.
/// The keys `#[tool(..)]` takes on a field.
const FIELD_KEYS: &[&str] = &[
    "description",
    "default",
    "required",
    "range",
    "length",
    "pattern",
    "format",
    "example",
    "schema",
];

impl FieldToolAttrs {
    /// Reads every `#[tool(..)]` on a field; each problem goes to `errors`.
    pub fn read(attrs: &[Attribute], errors: &mut darling::error::Accumulator) -> Self {
        let mut out = FieldToolAttrs::default();
        each_tool_key(attrs, errors, |key, meta, errors| {
            match key {
                // #[tool(description = "...")]
                "description" => {
                    let value = string_value(meta, key, "description = \"...\"", errors)?;
                    set_once(&mut out.description, value, meta, key, errors);
                }
                // #[tool(pattern = "^[a-z]+$")]
                "pattern" => {
                    let value = string_value(meta, key, "pattern = \"^[a-z]+$\"", errors)?;
                    set_once(&mut out.pattern, value, meta, key, errors);
                }
                // #[tool(format = "date-time")]
                "format" => {
                    let value = string_value(meta, key, "format = \"date-time\"", errors)?;
                    set_once(&mut out.format, value, meta, key, errors);
                }
                // #[tool(default = 5)]
                "default" => {
                    let value = LitExpr(meta.value()?.parse()?);
                    if out.default.is_some() {
                        errors.push(duplicate(meta, key));
                    } else {
                        out.default = Some(value);
                    }
                }
                // #[tool(example = "Riga")], once per example
                "example" => out.example.push(LitExpr(meta.value()?.parse()?)),
                // #[tool(required)]
                "required" => {
                    if flag(meta, key, errors)? {
                        if out.required.is_some() {
                            errors.push(duplicate(meta, key));
                        } else {
                            out.required = Some(meta.path.span());
                        }
                    }
                }
                // #[tool(schema = Type)] / #[tool(schema = "Type<..>")]
                "schema" => {
                    let ty = type_value(meta)?;
                    if out.schema.is_some() {
                        errors.push(duplicate(meta, key));
                    } else {
                        out.schema = Some(ty);
                    }
                }
                // #[tool(range(min = 1, max = 10))] / #[tool(length(min = 1, max = 80))]
                "range" | "length" => {
                    let bounds = read_bounds(meta, key, errors)?;
                    let slot = if key == "range" {
                        &mut out.range
                    } else {
                        &mut out.length
                    };
                    if slot.is_some() {
                        errors.push(duplicate(meta, key));
                    } else {
                        *slot = Some(bounds);
                    }
                }
                // #[tool(name = "..")], #[tool(strict)], #[tool(output = ..)]: the tool's own.
                _ if is_tool_only(key) => {
                    errors.push(
                        darling::Error::custom(format!(
                            "tool attribute `{key}` belongs on the struct that derives `Tool`, \
                             not on a field"
                        ))
                        .with_span(&meta.path),
                    );
                    skip_value(meta)?;
                }
                _ => {
                    errors.push(unknown(meta, key, FIELD_KEYS).0);
                    skip_value(meta)?;
                }
            }
            Ok(())
        });
        out
    }
}

/// `key = Type` or `key = "Type<..>"` (a string, for types that do not parse as an expression).
fn type_value(meta: &ParseNestedMeta<'_>) -> syn::Result<syn::Type> {
    let value = meta.value()?;
    if value.peek(LitStr) {
        value.parse::<LitStr>()?.parse()
    } else {
        value.parse()
    }
}

/// `range(min = .., max = ..)`: the bounds as written (the checks judge them).
fn read_bounds(
    meta: &ParseNestedMeta<'_>,
    key: &str,
    errors: &mut darling::error::Accumulator,
) -> syn::Result<Bounds> {
    let mut bounds = Bounds::default();
    if !meta.input.peek(syn::token::Paren) {
        errors.push(
            darling::Error::custom(format!(
                "tool attribute `{key}` takes bounds: write `{key}(min = 1, max = 10)`"
            ))
            .with_span(&meta.path),
        );
        skip_value(meta)?;
        return Ok(bounds);
    }
    // `range()`: no bounds at all, which the checks report in words.
    let group: proc_macro2::Group = meta.input.parse()?;
    if group.stream().is_empty() {
        return Ok(bounds);
    }
    let parser = syn::meta::parser(|inner| {
        let bound = if inner.path.is_ident("min") {
            &mut bounds.min
        } else if inner.path.is_ident("max") {
            &mut bounds.max
        } else {
            errors.push(
                darling::Error::custom(format!("unknown `{key}` bound; expected `min` or `max`"))
                    .with_span(&inner.path),
            );
            return skip_value(&inner);
        };
        let value = LitExpr(inner.value()?.parse()?);
        if bound.is_some() {
            errors.push(
                darling::Error::custom(format!("duplicate `{key}` bound")).with_span(&inner.path),
            );
        } else {
            *bound = Some(value);
        }
        Ok(())
    });
    syn::parse::Parser::parse2(parser, group.stream())?;
    Ok(bounds)
}

pub fn tool_key_span(attrs: &[Attribute], key: &str) -> Option<Span> {
    let mut found = None;
    let mut ignored = darling::Error::accumulator();
    each_tool_key(attrs, &mut ignored, |k, meta, _| {
        if k == key && found.is_none() {
            found = Some(meta.path.span());
        }
        skip_value(meta)
    });
    // Problems in the attribute are reported where it is read.
    drop(ignored.into_inner());
    found
}

/// Reads every `#[tool(..)]` in `attrs` with `read` for each key. A malformed attribute is
/// reported, and the other attributes are still read.
fn each_tool_key(
    attrs: &[Attribute],
    errors: &mut darling::error::Accumulator,
    mut read: impl FnMut(
        &str,
        &ParseNestedMeta<'_>,
        &mut darling::error::Accumulator,
    ) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("tool")) {
        let result = attr.parse_nested_meta(|meta| {
            // A path key (`a::b`) is never valid; it is named as written.
            let segments: Vec<String> = meta
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            read(&segments.join("::"), &meta, errors)
        });
        if let Err(err) = result {
            errors.push(err.into());
        }
    }
}

/// `key = "text"`. Any other value is reported and skipped, so that the keys after it are read.
fn string_value(
    meta: &ParseNestedMeta<'_>,
    key: &str,
    example: &str,
    errors: &mut darling::error::Accumulator,
) -> syn::Result<Option<LitStr>> {
    let message = format!("tool attribute `{key}` takes a string: write `{example}`");
    if !meta.input.peek(Token![=]) {
        errors.push(darling::Error::custom(message).with_span(&meta.path));
        skip_value(meta)?;
        return Ok(None);
    }
    match meta.value()?.parse::<syn::Expr>()? {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(lit),
            ..
        }) => Ok(Some(lit)),
        other => {
            errors.push(darling::Error::custom(message).with_span(&other));
            Ok(None)
        }
    }
}

/// `strict` alone, or `strict = "openai"` / `"anthropic"`; a bad value is reported (`None`).
fn strict_value(
    meta: &ParseNestedMeta<'_>,
    errors: &mut darling::error::Accumulator,
) -> syn::Result<Option<Strict>> {
    const HOW: &str = "write `#[tool(strict)]` (OpenAI and Anthropic), `#[tool(strict = \"openai\")]` or `#[tool(strict = \"anthropic\")]`";
    if meta.input.peek(syn::token::Paren) {
        errors.push(
            darling::Error::custom(format!("tool attribute `strict` takes no list: {HOW}"))
                .with_span(&meta.path),
        );
        skip_value(meta)?;
        return Ok(None);
    }
    if !meta.input.peek(Token![=]) {
        return Ok(Some(Strict::Both));
    }
    let value = meta.value()?.parse::<syn::Expr>()?;
    let text = match &value {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(lit),
            ..
        }) => lit.value(),
        _ => String::new(),
    };
    match text.as_str() {
        "openai" => Ok(Some(Strict::OpenAi)),
        "anthropic" => Ok(Some(Strict::Anthropic)),
        _ => {
            errors.push(
                darling::Error::custom(format!(
                    "tool attribute `strict` takes no value, or the provider whose strict mode to use: {HOW}"
                ))
                .with_span(&value),
            );
            Ok(None)
        }
    }
}

/// Stores a key's value (`None`: a bad value, already reported), reporting a second occurrence.
fn set_once<T>(
    slot: &mut Option<T>,
    value: Option<T>,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    errors: &mut darling::error::Accumulator,
) {
    if slot.is_some() {
        errors.push(duplicate(meta, key));
    } else if value.is_some() {
        *slot = value;
    }
}

/// Whether `key` stands alone, as a flag (`#[tool(required)]`); a value after it is reported and
/// skipped.
fn flag(
    meta: &ParseNestedMeta<'_>,
    key: &str,
    errors: &mut darling::error::Accumulator,
) -> syn::Result<bool> {
    if meta.input.is_empty() || meta.input.peek(syn::Token![,]) {
        return Ok(true);
    }
    errors.push(
        darling::Error::custom(format!("`{key}` takes no value: write `#[tool({key})]`"))
            .with_span(&meta.path),
    );
    skip_value(meta)?;
    Ok(false)
}

fn duplicate(meta: &ParseNestedMeta<'_>, key: &str) -> darling::Error {
    darling::Error::custom(format!("duplicate tool attribute `{key}`")).with_span(&meta.path)
}

/// An unknown key, with the known key it most likely misspells (also returned), or else the
/// known keys.
fn unknown(
    meta: &ParseNestedMeta<'_>,
    key: &str,
    known: &[&'static str],
) -> (darling::Error, Option<&'static str>) {
    let guess = did_you_mean(key, known);
    let hint = match guess {
        Some(guess) => format!("did you mean `{guess}`?"),
        None => {
            let known: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            match known.as_slice() {
                [only] => format!("expected {only}"),
                _ => format!("expected one of {}", known.join(", ")),
            }
        }
    };
    let error = darling::Error::custom(format!("unknown tool attribute `{key}`; {hint}"))
        .with_span(&meta.path);
    (error, guess)
}

/// The key in `known` that `key` most likely misspells, by the measure (and threshold) darling
/// uses for its own suggestions.
fn did_you_mean<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    known
        .iter()
        .map(|k| (strsim::jaro_winkler(key, k), *k))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    fn messages(result: darling::Result<impl Sized>) -> Vec<String> {
        match result {
            Ok(_) => Vec::new(),
            Err(errors) => errors.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn keeps_good_keys_beside_bad_ones() {
        let attrs: Vec<Attribute> = vec![parse_quote!(
            #[tool(name = "has space", descripton = "x", strict = true, description = 5)]
        )];
        let mut errors = darling::Error::accumulator();
        let tool = ToolAttrs::read(&attrs, &mut errors);
        assert_eq!(tool.name.map(|n| n.value()).as_deref(), Some("has space"));
        assert!(tool.strict.is_none());
        assert!(tool.description.is_none());
        assert_eq!(tool.unread, ["description", "description"]);
        let errors: Vec<String> = errors
            .into_inner()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            errors,
            [
                "unknown tool attribute `descripton`; did you mean `description`?",
                "tool attribute `strict` takes no value, or the provider whose strict mode to use: \
                 write `#[tool(strict)]` (OpenAI and Anthropic), `#[tool(strict = \"openai\")]` or \
                 `#[tool(strict = \"anthropic\")]`",
                "tool attribute `description` takes a string: write `description = \"...\"`",
            ]
        );
    }

    #[test]
    fn reports_duplicates_across_attributes() {
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[tool(strict, name = "a")]),
            parse_quote!(#[tool(name = "b", strict)]),
        ];
        let mut errors = darling::Error::accumulator();
        let tool = ToolAttrs::read(&attrs, &mut errors);
        assert_eq!(tool.name.map(|n| n.value()).as_deref(), Some("a"));
        let errors: Vec<String> = errors
            .into_inner()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            errors,
            [
                "duplicate tool attribute `name`",
                "duplicate tool attribute `strict`"
            ]
        );
    }

    #[test]
    fn described_attrs_take_only_a_description() {
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool(name = "x", desc = "y")])];
        assert_eq!(
            messages(DescribedAttrs::from_attributes(&attrs)),
            [
                "tool attribute `name` belongs on the struct that derives `Tool`; here #[tool] \
                 takes only `description`",
                "unknown tool attribute `desc`; did you mean `description`?",
            ]
        );
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool(description = "y")])];
        assert!(DescribedAttrs::from_attributes(&attrs).is_ok());
    }

    #[test]
    fn malformed_attributes_are_errors_not_panics() {
        let cases: Vec<Attribute> = vec![
            parse_quote!(#[tool]),
            parse_quote!(#[tool = "x"]),
            parse_quote!(#[tool(name)]),
            parse_quote!(#[tool(name("x"))]),
            parse_quote!(#[tool(description = concat!("a", "b"))]),
            parse_quote!(#[tool(a::b = 1)]),
            parse_quote!(#[tool(strict(yes))]),
            parse_quote!(#[tool(gemini)]),
            parse_quote!(#[tool(gemini = 5)]),
            parse_quote!(#[tool(gemini = "both")]),
        ];
        for attr in cases {
            let mut errors = darling::Error::accumulator();
            let _ = ToolAttrs::read(std::slice::from_ref(&attr), &mut errors);
            assert_eq!(errors.into_inner().len(), 1, "{}", quote::quote!(#attr));
            assert!(DescribedAttrs::from_attributes(std::slice::from_ref(&attr)).is_err());
        }
        let empty: Vec<Attribute> = vec![parse_quote!(#[tool()])];
        assert!(DescribedAttrs::from_attributes(&empty).is_ok());
    }

    #[test]
    fn finds_where_a_key_is_written() {
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[doc = " Docs."]),
            parse_quote!(#[tool(description = "x", range())]),
        ];
        assert!(tool_key_span(&attrs, "range").is_some());
        assert!(tool_key_span(&attrs, "length").is_none());
    }

    #[test]
    fn suggests_only_likely_keys() {
        assert_eq!(did_you_mean("nmae", TOOL_KEYS), Some("name"));
        assert_eq!(did_you_mean("strcit", TOOL_KEYS), Some("strict"));
        assert_eq!(did_you_mean("desc", TOOL_KEYS), Some("description"));
        assert_eq!(did_you_mean("version", TOOL_KEYS), None);
        assert_eq!(did_you_mean("schema", TOOL_KEYS), None);
        assert_eq!(did_you_mean("x", TOOL_KEYS), None);
    }
}
