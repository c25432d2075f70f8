//! A field's validation and annotation keywords (`range`, `length`, `pattern`, `format`,
//! `custom_format`, `example`, `default`), decided once: taken from its `#[tool(..)]` into
//! [`Keywords`], their literals read once (a bound's number, a default's JSON text and value, a
//! pattern's regex), and checked here against each other and the field's type. The schema text,
//! the facts and the constraint checks read [`Keywords`], never the attribute.

use proc_macro2::{Literal, Span, TokenStream};
use quote::ToTokens;
use syn::spanned::Spanned;

use super::Field;
use crate::attr::tool::{self as attr, FieldToolAttrs};
use crate::json;

/// Every keyword of a field, as decided from its attribute.
#[derive(Default)]
pub struct Keywords {
    /// `#[tool(range(min = 1, max = 10))]`
    pub range: Option<Bounds>,
    /// `#[tool(multiple_of = 5)]`
    pub multiple_of: Option<Bound>,
    /// `#[tool(length(min = 1, max = 80))]`
    pub length: Option<Bounds>,
    /// `#[tool(pattern = "^[a-z]+$")]`
    pub pattern: Option<Pattern>,
    /// `#[tool(format = "date-time")]`
    pub format: Option<syn::LitStr>,
    /// `#[tool(custom_format = "int64")]`
    pub custom_format: Option<syn::LitStr>,
    /// `#[tool(example = ..)]`, each as written and as JSON text, or why it is not JSON.
    pub examples: Vec<(syn::Expr, syn::Result<String>)>,
    /// `#[tool(default = ..)]`
    pub default: Option<Default>,
}

/// `min = .., max = ..` of `range` or `length`, with the span of the key.
pub struct Bounds {
    pub min: Option<Bound>,
    pub max: Option<Bound>,
    pub span: Span,
}

/// One bound as written, and the number it stands for, if it is one.
pub struct Bound {
    pub expr: syn::Expr,
    pub number: Option<Number>,
}

/// A number literal, read once: its JSON text (as the schema writes it) and its value.
pub struct Number {
    /// As JSON: `5`, `-1`, `2.5`.
    pub text: String,
    pub value: f64,
    /// Written as a whole number, 0 or more (no `.`, sign or exponent): what a length takes.
    pub whole: bool,
    /// The value as a count, when it is a whole number that fits one.
    pub count: Option<usize>,
}

/// `pattern`'s literal, and what its regex is.
pub struct Pattern {
    pub lit: syn::LitStr,
    /// Whether the regex has what Anthropic's strict grammar cannot read (a word boundary:
    /// regex-syntax refuses backreferences and lookaround); or why it does not parse.
    pub unreadable: Result<bool, String>,
}

/// `#[tool(default = ..)]`: the literal, its JSON text, and its value as far as the checks read it.
pub struct Default {
    pub expr: syn::Expr,
    /// The JSON text the schema states and parsing fills in, or why it is not JSON.
    pub json: syn::Result<String>,
    /// The literal's string, when it is a string literal.
    pub string: Option<String>,
    /// The value as `range` and `length` read it.
    pub value: Option<DefaultValue>,
}

/// A default as far as `range` and `length` read it.
#[derive(Clone, Copy, PartialEq)]
pub enum DefaultValue {
    Number(f64),
    /// A length, and what it counts.
    Length(usize, &'static str),
}

impl Number {
    /// The JSON number an attribute value stands for, if it is one.
    fn of(expr: &syn::Expr) -> Option<Number> {
        let text = json::expr_to_json(expr).ok()?;
        let value = text.parse::<f64>().ok()?;
        Some(Number {
            whole: !text.contains(['.', '-', 'e', 'E']),
            count: text.parse::<usize>().ok(),
            text,
            value,
        })
    }
}

impl Bound {
    fn of(expr: attr::LitExpr) -> Bound {
        Bound {
            number: Number::of(&expr),
            expr: expr.0,
        }
    }
}

impl Bounds {
    fn of(bounds: attr::Bounds) -> Bounds {
        Bounds {
            min: bounds.min.map(Bound::of),
            max: bounds.max.map(Bound::of),
            span: bounds.span,
        }
    }

    /// The bounds' values, where they are numbers.
    pub fn values(&self) -> (Option<f64>, Option<f64>) {
        let value = |bound: &Option<Bound>| {
            bound
                .as_ref()
                .and_then(|b| b.number.as_ref())
                .map(|n| n.value)
        };
        (value(&self.min), value(&self.max))
    }
}

impl Keywords {
    /// Takes the keywords out of a field's attribute (so that nothing reads them there again).
    pub fn take(tool: &mut FieldToolAttrs) -> Keywords {
        Keywords {
            range: tool.range.take().map(Bounds::of),
            multiple_of: tool.multiple_of.take().map(Bound::of),
            length: tool.length.take().map(Bounds::of),
            pattern: tool.pattern.take().map(|lit| Pattern {
                unreadable: regex_syntax::Parser::new()
                    .parse(&lit.value())
                    .map(|_| super::anthropic_pattern::unreadable_by_anthropic(&lit.value()))
                    .map_err(|err| err.to_string().trim_end().to_owned()),
                lit,
            }),
            format: tool.format.take(),
            custom_format: tool.custom_format.take(),
            examples: std::mem::take(&mut tool.example)
                .into_iter()
                .map(|example| {
                    let json = json::expr_to_json(&example);
                    (example.0, json)
                })
                .collect(),
            default: tool.default.take().map(|expr| Default {
                json: json::expr_to_json(&expr),
                string: match &expr.0 {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(text),
                        ..
                    }) => Some(text.value()),
                    _ => None,
                },
                value: default_value(&expr),
                expr: expr.0,
            }),
        }
    }

    /// Whether a value of the field must be checked once parsed: it has a keyword serde does not
    /// enforce (`range`, `length`, `pattern`, `format`).
    pub fn constrain(&self) -> bool {
        self.range.is_some()
            || self.multiple_of.is_some()
            || self.length.is_some()
            || self.pattern.is_some()
            || self.format.is_some()
    }

    /// The keywords the field's schema states, in the order it writes them, each with the
    /// runtime `Keywords` member that argument parsing checks it by: what the schema text
    /// (`expand/schema/keywords.rs`) and the facts (`expand/facts.rs`) read, so that a new
    /// keyword is stated here alone. `array`: the value is an array (a `length` counts items).
    pub fn stated(&self, array: bool) -> Vec<Stated> {
        fn number(bound: &Option<Bound>) -> Option<&Number> {
            bound.as_ref()?.number.as_ref()
        }
        let mut stated = Vec::new();
        if let Some(range) = &self.range {
            for (key, bound) in [("minimum", &range.min), ("maximum", &range.max)] {
                if let Some(n) = number(bound) {
                    let value = Literal::f64_unsuffixed(n.value).into_token_stream();
                    stated.push(Stated::number(key, &n.text, Some((key, value))));
                }
            }
        }
        if let Some(n) = number(&self.multiple_of) {
            let value = Literal::f64_unsuffixed(n.value).into_token_stream();
            let check = Some(("multiple_of", value));
            stated.push(Stated::number("multipleOf", &n.text, check));
        }
        if let Some(length) = &self.length {
            let keys = if array {
                [("minItems", "min_items"), ("maxItems", "max_items")]
            } else {
                [("minLength", "min_length"), ("maxLength", "max_length")]
            };
            for ((key, member), bound) in keys.into_iter().zip([&length.min, &length.max]) {
                if let Some(n) = number(bound) {
                    let check = n.count.map(|count| {
                        (
                            member,
                            Literal::u64_unsuffixed(count as u64).into_token_stream(),
                        )
                    });
                    stated.push(Stated::inner(key, n.text.clone(), check));
                }
            }
        }
        if let Some(pattern) = &self.pattern {
            let value = pattern.lit.to_token_stream();
            let text = json::string(&pattern.lit.value());
            stated.push(Stated::inner("pattern", text, Some(("pattern", value))));
        }
        // A known format is checked; a custom one is written as it is.
        let format = (self.format.as_ref().map(|f| (f, true)))
            .or_else(|| self.custom_format.as_ref().map(|f| (f, false)));
        if let Some((format, checked)) = format {
            let check = checked.then(|| ("format", format.to_token_stream()));
            stated.push(Stated::inner(
                "format",
                json::string(&format.value()),
                check,
            ));
        }
        stated
    }

    /// The `#[tool(default = ..)]` value's JSON text, when it is JSON.
    pub fn fill_text(&self) -> Option<&str> {
        self.default.as_ref()?.json.as_deref().ok()
    }

    /// Whether the `pattern` has a word boundary, which Anthropic's strict grammar cannot read.
    pub fn unreadable_pattern(&self) -> bool {
        self.pattern
            .as_ref()
            .is_some_and(|pattern| pattern.unreadable == Ok(true))
    }
}

/// One keyword a field's schema states ([`Keywords::stated`]).
pub struct Stated {
    /// The JSON Schema keyword: `"minLength"`.
    pub key: &'static str,
    /// Its value, as JSON text.
    pub json: String,
    /// Whether it sits on the number's schema, merged with the bounds the field's type has of
    /// its own (`minimum`, `maximum`); else on the field's innermost schema.
    pub on_number: bool,
    /// The member of the runtime's `Keywords` (`schema/facts.rs`) that argument parsing checks
    /// it by, and its value as tokens; `None`: not checked (serde or nothing enforces it).
    pub check: Option<(&'static str, TokenStream)>,
}

impl Stated {
    fn number(key: &'static str, json: &str, check: Option<(&'static str, TokenStream)>) -> Self {
        let json = json.to_owned();
        Stated {
            key,
            json,
            on_number: true,
            check,
        }
    }

    fn inner(key: &'static str, json: String, check: Option<(&'static str, TokenStream)>) -> Self {
        Stated {
            key,
            json,
            on_number: false,
            check,
        }
    }
}

/// A `#[tool(default = ..)]` literal as [`DefaultValue`]: a number, a string's characters, an
/// array's items.
fn default_value(expr: &syn::Expr) -> Option<DefaultValue> {
    match expr {
        syn::Expr::Lit(syn::ExprLit { lit, .. }) => match lit {
            syn::Lit::Str(text) => Some(DefaultValue::Length(
                text.value().chars().count(),
                "characters",
            )),
            syn::Lit::Int(int) => int.base10_parse::<f64>().ok().map(DefaultValue::Number),
            syn::Lit::Float(float) => float.base10_parse::<f64>().ok().map(DefaultValue::Number),
            _ => None,
        },
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => match default_value(expr)? {
            DefaultValue::Number(n) => Some(DefaultValue::Number(-n)),
            DefaultValue::Length(..) => None,
        },
        syn::Expr::Array(array) => Some(DefaultValue::Length(array.elems.len(), "items")),
        _ => None,
    }
}

/// The formats JSON Schema 2020-12 defines.
const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// A JSON type with its article, as a message names it.
pub(super) fn article(json: &str) -> String {
    match json {
        "array" | "integer" | "enum" => format!("an {json}"),
        "null" => "`null`".to_owned(),
        _ => format!("a {json}"),
    }
}

/// The JSON type the macro sees for a type written in a field, when it knows it.
pub(super) fn known_type(ty: &syn::Type) -> Option<&'static str> {
    crate::shape::ty::Ty::of(ty).json_type()
}

/// `range`, `multiple_of`, `length`, `pattern` and `format`: each on a type it applies to, with
/// sound values.
pub(super) fn check_constraints(field: &Field<'_>, errors: &mut darling::error::Accumulator) {
    let keywords = &field.keywords;
    // Only the value keywords read the type: most fields have none, and classifying a type
    // reads its names across the compiler's proc-macro bridge.
    let json = keywords
        .constrain()
        .then(|| crate::shape::ty::value_json_type(field.input_ty()))
        .flatten();
    let wrong_type = |what: &str, wanted: &str, span: &syn::Type| {
        darling::Error::custom(format!(
            "`{what}` applies to {wanted}, but this field is {}",
            json.map(article).unwrap_or_default()
        ))
        .with_span(span)
    };
    if let Some(range) = &keywords.range {
        if json.is_some_and(|j| !matches!(j, "integer" | "number")) {
            errors.push(wrong_type("range", "numbers", field.ty));
        }
        check_bounds("range", range, errors);
    }
    if let Some(step) = &keywords.multiple_of {
        if json.is_some_and(|j| !matches!(j, "integer" | "number")) {
            errors.push(wrong_type("multiple_of", "numbers", field.ty));
        }
        if !step.number.as_ref().is_some_and(|n| n.value > 0.0) {
            errors.push(
                darling::Error::custom(
                    "`multiple_of` takes a number above 0: write `multiple_of = 5`",
                )
                .with_span(&step.expr),
            );
        }
    }
    if let Some(length) = &keywords.length {
        if json.is_some_and(|j| !matches!(j, "string" | "array")) {
            errors.push(wrong_type("length", "strings and arrays", field.ty));
        } else if json.is_none() {
            errors.push(
                darling::Error::custom(
                    "`length` needs to know whether the field is a string or an array, and \
                     toolgen cannot see into this type; put `length` on a `String` or `Vec` \
                     field, or give the schema with #[tool(schema = ..)]",
                )
                .with_span(field.ty),
            );
        }
        check_bounds("length", length, errors);
        for bound in [&length.min, &length.max].into_iter().flatten() {
            if !bound.number.as_ref().is_some_and(|n| n.whole) {
                errors.push(
                    darling::Error::custom("a length is a whole number, 0 or more")
                        .with_span(&bound.expr),
                );
            }
        }
    }
    if let Some(pattern) = &keywords.pattern {
        if json.is_some_and(|j| j != "string") {
            errors.push(wrong_type("pattern", "strings", field.ty));
        }
        if let Err(err) = &pattern.unreadable {
            errors.push(
                darling::Error::custom(format!("invalid pattern: {err}")).with_span(&pattern.lit),
            );
        }
    }
    if let Some(format) = &keywords.format {
        if json.is_some_and(|j| j != "string") {
            errors.push(wrong_type("format", "strings", field.ty));
        }
        let value = format.value();
        if !FORMATS.contains(&value.as_str()) {
            let closest = FORMATS
                .iter()
                .map(|f| (strsim::jaro_winkler(f, &value), f))
                .filter(|(score, _)| *score > 0.8)
                .max_by(|a, b| a.0.total_cmp(&b.0));
            let hint = match closest {
                Some((_, f)) => format!("; did you mean `{f}`?"),
                None => format!(
                    "; known formats: {}; a format toolgen does not check is written with \
                     `custom_format = \"{value}\"`",
                    FORMATS.join(", ")
                ),
            };
            errors.push(
                darling::Error::custom(format!("unknown format `{value}`{hint}")).with_span(format),
            );
        }
    }
    if let Some(custom) = &keywords.custom_format {
        let value = custom.value();
        let problem = if keywords.format.is_some() {
            Some("a field has one format: keep `format` or `custom_format`".to_owned())
        } else if FORMATS.contains(&value.as_str()) {
            Some(format!(
                "`{value}` is a format toolgen knows and checks: write `format = \"{value}\"`"
            ))
        } else if value.trim().is_empty() {
            Some("`custom_format` takes the format's name".to_owned())
        } else {
            None
        };
        if let Some(problem) = problem {
            errors.push(darling::Error::custom(problem).with_span(custom));
        }
    }
    for (expr, example) in &keywords.examples {
        match example {
            Err(err) => errors.push(err.clone().into()),
            Ok(text) => {
                if let Some(problem) = value_problem(field, text) {
                    errors.push(
                        darling::Error::custom(format!(
                            "this example: {problem}; an example the schema refuses misleads \
                             the model"
                        ))
                        .with_span(expr),
                    );
                }
            }
        }
    }
}

/// Bounds are numbers, and `min` is not above `max`.
fn check_bounds(what: &str, bounds: &Bounds, errors: &mut darling::error::Accumulator) {
    let mut values = Vec::new();
    for bound in [&bounds.min, &bounds.max].into_iter().flatten() {
        match &bound.number {
            Some(n) => values.push(n.value),
            None => errors.push(
                darling::Error::custom(format!("`{what}` bounds must be number literals"))
                    .with_span(&bound.expr),
            ),
        }
    }
    if bounds.min.is_none() && bounds.max.is_none() {
        errors.push(
            darling::Error::custom(format!(
                "`{what}` needs `min`, `max` or both, e.g. {what}(min = 1, max = 10)"
            ))
            .with_span(&bounds.span),
        );
    }
    if let ([min, max], Some(max_bound)) = (values.as_slice(), &bounds.max)
        && min > max
    {
        errors.push(
            darling::Error::custom(format!(
                "`{what}` has min {min} above max {max}: no value could satisfy it"
            ))
            .with_span(&max_bound.expr),
        );
    }
}

/// A `#[tool(default)]` literal must be a value serde reads for the field's type, and one its
/// schema takes: `None` only where the schema admits `null`.
pub(super) fn check_default(field: &Field<'_>, errors: &mut darling::error::Accumulator) {
    let Some(default) = &field.keywords.default else {
        return;
    };
    let text = match &default.json {
        Ok(text) => text,
        Err(err) => {
            errors.push(err.clone().into());
            return;
        }
    };
    let problem = if text == "null" && refuses_null(field) {
        Some(
            "`default = None` states `\"default\": null`, which this field's own schema refuses: \
             an `Option` field's schema is its inner type's (a field that may be left out is \
             left out, not sent as `null`); remove the default (a missing key is `None` \
             already), or mark the field `#[tool(nullable)]` so that its schema admits `null`"
                .to_owned(),
        )
    } else {
        misfit(field, text).map(|misfit| format!("default `{text}` {misfit}"))
    };
    if let Some(problem) = problem {
        errors.push(darling::Error::custom(problem).with_span(&default.expr));
    }
}

/// Whether the field's schema refuses `null` although serde reads it (as `None`): an `Option`
/// field written as its inner type, when that type does not take `null` itself.
fn refuses_null(field: &Field<'_>) -> bool {
    field.prop.optional_inner
        && match crate::shape::ty::Ty::of(field.input_ty()) {
            crate::shape::ty::Ty::Option(inner) => {
                !crate::shape::ty::reads_null_as_value(inner) && !crate::shape::ty::is_option(inner)
            }
            _ => false,
        }
}

/// "does not fit this field, which is ..", where the JSON value `text` is not one serde reads for
/// the field's type (as far as the macro sees the type).
fn misfit(field: &Field<'_>, text: &str) -> Option<String> {
    let literal = match text.as_bytes().first() {
        Some(b'"') => "string",
        Some(b'[') => "array",
        Some(b'{') => "object",
        Some(b't' | b'f') => "boolean",
        Some(b'n') => "null",
        _ if text.contains(['.', 'e', 'E']) => "number",
        _ => "integer",
    };
    let json = known_type(field.ty)?;
    let fits = match (json, literal) {
        (_, "null") => crate::shape::ty::is_option(field.ty),
        ("number", "integer") => true,
        ("integer", "integer") => integer_fits(field.ty, text),
        ("enum", "string") | ("string", "string") => true,
        (json, literal) => json == literal,
    };
    if fits {
        return None;
    }
    let within = match crate::shape::ty::Ty::of(field.ty).integer_bounds() {
        Some((Some(min), Some(max))) if literal == "integer" => format!(" from {min} to {max}"),
        Some((Some(min), None)) if literal == "integer" => format!(" of {min} or more"),
        _ => String::new(),
    };
    Some(format!(
        "does not fit this field, which is {}{within}",
        article(json)
    ))
}

/// A default the field's own `range` or `length` refuses would make every call that leaves the
/// field out fail ("must be at least 1, not 0"): an error at the default. The default is the
/// `#[tool(default = ..)]` value, or the type's `Default` under a plain `#[serde(default)]`
/// (0, `""`, `[]`), and, for text, the field's `pattern`.
pub(super) fn check_default_rules(field: &Field<'_>, errors: &mut darling::error::Accumulator) {
    let keywords = &field.keywords;
    let (value, what, span) = match (&keywords.default, field.prop.states_type_default) {
        (Some(default), _) => match default.value {
            Some(value) => (value, "the default".to_owned(), default.expr.span()),
            None => return,
        },
        (None, true) => {
            let value = match known_type(field.ty) {
                Some("integer" | "number") => DefaultValue::Number(0.0),
                Some("string") => DefaultValue::Length(0, "characters"),
                Some("array") => DefaultValue::Length(0, "items"),
                _ => return,
            };
            let span = crate::attr::serde::key_span(&field.original.attrs, "default")
                .unwrap_or_else(|| field.ty.span());
            (
                value,
                "`#[serde(default)]`'s value (the type's `Default`)".to_owned(),
                span,
            )
        }
        (None, false) => return,
    };
    let text = match &keywords.default {
        Some(default) => default.string.clone(),
        None if matches!(value, DefaultValue::Length(0, "characters")) => Some(String::new()),
        None => None,
    };
    let broken = broken_rule(keywords, value, text.as_deref());
    if let Some(broken) = broken {
        errors.push(
            darling::Error::custom(format!(
                "{what} {broken}: every call that leaves the field out would be refused; give a \
                 default the field's rules take"
            ))
            .with_span(&span),
        );
    }
}

/// Which of the field's `range`, `multiple_of`, `length` and `pattern` refuses a value (`text`: the value's
/// text, when it is a string), in words; `None` when they all take it.
fn broken_rule(keywords: &Keywords, value: DefaultValue, text: Option<&str>) -> Option<String> {
    let broken = match (&value, &keywords.range, &keywords.length) {
        (DefaultValue::Number(n), Some(range), _) => match range.values() {
            (Some(min), _) if *n < min => Some(format!("is {n}, below the range's min {min}")),
            (_, Some(max)) if *n > max => Some(format!("is {n}, above the range's max {max}")),
            _ => multiple_broken(keywords, *n),
        },
        (DefaultValue::Number(n), None, _) => multiple_broken(keywords, *n),
        (DefaultValue::Length(len, unit), _, Some(length)) => {
            let len = *len as f64;
            match length.values() {
                (Some(min), _) if len < min => Some(format!(
                    "has {len} {unit}, fewer than the length's min {min}"
                )),
                (_, Some(max)) if len > max => Some(format!(
                    "has {len} {unit}, more than the length's max {max}"
                )),
                _ => None,
            }
        }
        _ => None,
    };
    // A pattern, where the value is ASCII text (where the small engine here and the one
    // argument parsing uses agree on every class).
    broken.or_else(|| {
        let pattern = keywords.pattern.as_ref()?;
        let text = text?;
        let regex = regex_lite::Regex::new(&pattern.lit.value()).ok()?;
        (text.is_ascii() && !regex.is_match(text)).then(|| {
            format!(
                "{text:?} does not match the pattern `{}`",
                pattern.lit.value()
            )
        })
    })
}

/// The field's `multiple_of`, where `n` is not a multiple of it, in words (as the runtime's
/// check compares them).
fn multiple_broken(keywords: &Keywords, n: f64) -> Option<String> {
    let step = keywords.multiple_of.as_ref()?.number.as_ref()?;
    let ratio = n / step.value;
    ((ratio - ratio.round()).abs() > 1e-9).then(|| {
        format!(
            "is {n}, not a multiple of the field's multiple_of {}",
            step.text
        )
    })
}

/// Each `#[tool(input_example = json!({..}))]` of a tool checked against the rules of the fields
/// it gives (Anthropic validates `input_examples` against `input_schema`): a value the field's
/// type, `null` rules or keywords refuse is reported at the value; a required field left out,
/// at the example.
pub(super) fn check_input_examples(
    container: &crate::shape::Container<'_>,
    errors: &mut darling::error::Accumulator,
) {
    let Some(tool) = &container.tool else { return };
    let fields = container.named_fields();
    for example in &tool.input_examples {
        let Some(members) = json::object_members(&example.expr) else {
            continue;
        };
        for field in &fields {
            if field.flatten.is_some() {
                continue;
            }
            let name = &field.name;
            let Some(member) = members.iter().find(|member| member.key == *name) else {
                if field.prop.required {
                    errors.push(
                        darling::Error::custom(format!(
                            "this input example leaves out `{name}`, which the tool's schema \
                             requires; give it a value"
                        ))
                        .with_span(&example.expr),
                    );
                }
                continue;
            };
            if let Some(problem) = value_problem(field, &member.text) {
                errors.push(
                    darling::Error::custom(format!(
                        "input example, `{name}`: {problem}; Anthropic checks examples \
                         against the schema"
                    ))
                    .with_span(&member.span),
                );
            }
        }
    }
}

/// What the field's rules refuse in the JSON value `text` (an example's), in words: `null` where
/// its schema refuses it, a value its type does not take, one its `range`, `length` or `pattern`
/// refuses.
fn value_problem(field: &Field<'_>, text: &str) -> Option<String> {
    if text == "null" && refuses_null(field) {
        return Some(
            "`null` is refused by the field's schema, an `Option` field's being its inner type's \
             (a field that may be left out is left out, not sent as `null`): leave it out, or \
             mark the field `#[tool(nullable)]`"
                .to_owned(),
        );
    }
    if let Some(misfit) = misfit(field, text) {
        return Some(format!("`{text}` {misfit}"));
    }
    let (value, string) = example_value(text)?;
    broken_rule(&field.keywords, value, string.as_deref())
        .map(|broken| format!("the value {broken}"))
}

/// A JSON value's text as `range`, `length` and `pattern` read it: a number, or a string (without
/// escapes) with its characters.
fn example_value(text: &str) -> Option<(DefaultValue, Option<String>)> {
    if let Some(inner) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        if inner.contains('\\') {
            return None;
        }
        return Some((
            DefaultValue::Length(inner.chars().count(), "characters"),
            Some(inner.to_owned()),
        ));
    }
    text.parse::<f64>()
        .ok()
        .map(|n| (DefaultValue::Number(n), None))
}

/// Whether an integer literal is within the field type's bounds (`u8`: 0..=255, ..).
fn integer_fits(ty: &syn::Type, text: &str) -> bool {
    let Ok(value) = text.parse::<i128>() else {
        return true;
    };
    match crate::shape::ty::Ty::of(ty).integer_bounds() {
        Some((min, max)) => min.is_none_or(|m| value >= m) && max.is_none_or(|m| value <= m),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    use crate::shape::{Container, Derive};

    /// Every error the shape's checks report for `input` under `derive`, in order.
    fn errors_of(input: syn::DeriveInput, derive: Derive) -> Vec<String> {
        let mut errors = darling::Error::accumulator();
        let container = Container::from_ast(&input, derive, &mut errors);
        crate::shape::check::check(&container, &mut errors);
        match errors.finish() {
            Ok(()) => Vec::new(),
            Err(errors) => errors.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    fn errors(input: syn::DeriveInput) -> Vec<String> {
        errors_of(input, Derive::ToolSchema)
    }

    #[test]
    fn a_default_on_an_option_is_checked_against_its_inner_type() {
        let found = errors(parse_quote! {
            struct S {
                #[tool(default = 300)] a: Option<u8>,
                #[tool(range(min = 1, max = 5), default = 9)] b: Option<u8>,
                #[tool(default = "x")] c: Option<u8>,
                #[tool(default = 3)] fine: Option<u8>,
            }
        });
        assert_eq!(
            found,
            [
                "default `300` does not fit this field, which is an integer from 0 to 255",
                "the default is 9, above the range's max 5: every call that leaves the field out \
                 would be refused; give a default the field's rules take",
                "default `\"x\"` does not fit this field, which is an integer",
            ]
        );
    }

    #[test]
    fn default_none_only_where_the_schema_admits_null() {
        let found = errors(parse_quote! {
            struct S {
                #[tool(default = None)] refused: Option<u8>,
                #[tool(default = None, nullable)] nullable: Option<u8>,
                #[tool(default = None, required)] required: Option<u8>,
                #[tool(default = None)] value: Option<serde_json::Value>,
            }
        });
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("`default = None` states `\"default\": null`"));
        // The container's `nullable` admits it too.
        let found = errors(parse_quote! {
            #[tool(nullable)]
            struct S { #[tool(default = None)] a: Option<String> }
        });
        assert_eq!(found, Vec::<String>::new());
    }

    #[test]
    fn input_examples_are_checked_against_the_fields_rules() {
        let found = errors_of(
            parse_quote! {
                /// A tool.
                #[tool(input_example = json!({"city": "Riga", "days": null}))]
                #[tool(input_example = json!({"city": "R", "days": 300, "unit": "c"}))]
                #[tool(input_example = json!({"days": 2, "unit": "C", "note": null}))]
                struct Forecast {
                    #[tool(length(min = 2))]
                    city: String,
                    days: Option<u8>,
                    #[tool(pattern = "^[CF]$")]
                    unit: Option<String>,
                    #[tool(nullable)]
                    note: Option<String>,
                }
            },
            Derive::Tool,
        );
        assert_eq!(
            found,
            [
                "input example, `days`: `null` is refused by the field's schema, an `Option` \
                 field's being its inner type's (a field that may be left out is left out, not \
                 sent as `null`): leave it out, or mark the field `#[tool(nullable)]`; Anthropic \
                 checks examples against the schema",
                "input example, `city`: the value has 1 characters, fewer than the length's min \
                 2; Anthropic checks examples against the schema",
                "input example, `days`: `300` does not fit this field, which is an integer from 0 \
                 to 255; Anthropic checks examples against the schema",
                "input example, `unit`: the value \"c\" does not match the pattern `^[CF]$`; \
                 Anthropic checks examples against the schema",
                "this input example leaves out `city`, which the tool's schema requires; give it \
                 a value",
            ]
        );
        // A field's own examples, by the same rules.
        let found = errors(parse_quote! {
            struct S {
                #[tool(range(max = 9), example = 12, example = 3)] a: u8,
                #[tool(example = None)] b: Option<String>,
                #[tool(example = "x")] c: bool,
            }
        });
        assert_eq!(
            found,
            [
                "this example: the value is 12, above the range's max 9; an example the schema \
                 refuses misleads the model",
                "this example: `null` is refused by the field's schema, an `Option` field's being \
                 its inner type's (a field that may be left out is left out, not sent as `null`): \
                 leave it out, or mark the field `#[tool(nullable)]`; an example the schema \
                 refuses misleads the model",
                "this example: `\"x\"` does not fit this field, which is a boolean; an example the \
                 schema refuses misleads the model",
            ]
        );
    }
}
