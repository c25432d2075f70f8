//! One table of rules per dialect: what each provider's schema grammar refuses, its limits, the
//! formats it takes and the keywords it moves into words. The compile-time facts
//! ([`crate::dialect::strict`], which refuses a strict tool at build time) and the run-time rewrite
//! ([`crate::dialect::rewrite`], which writes the dialect) both read it, so a rule changes here
//! and nowhere else. The sources are listed in [`crate::dialect`].

use super::passes::{
    Pass, any_of_only, collapse_nullable, gemini_types, optional_nullable, strict_objects, words,
    wrap_null_object,
};
use super::strict::{self, ANTHROPIC, GEMINI_SKIP, OPENAI};
use super::{Dialect, Rule};
use crate::schema::facts::{ANY, MAP, MULTIPLE_TYPES, NON_STRING_ENUM, PATTERN, RECURSIVE, TUPLE};

/// What one dialect allows.
pub(crate) struct Rules {
    /// What it cannot express at all, with the [`Facts`](crate::schema::facts::Facts) bit that
    /// marks it, in the order problems are reported.
    pub(crate) refused: &'static [(Rule, u16)],
    /// Limits on totals over the whole schema, if any.
    pub(crate) limits: Option<Limits>,
    /// The `format`s it takes on strings (`*` for any), in lists.
    pub(crate) string_formats: &'static [&'static [&'static str]],
    /// The `format`s it takes on integers and on numbers.
    pub(crate) integer_formats: &'static [&'static str],
    pub(crate) number_formats: &'static [&'static str],
    /// Keywords it has no grammar for, which the rewrite moves into the description in words
    /// ("At most 80 characters.").
    pub(crate) in_words: &'static [&'static str],
    /// The values of `minItems` it takes (`None`: any).
    pub(crate) min_items: Option<&'static [&'static str]>,
    /// Keywords it has no field for, left out without a word (a map's values, in
    /// `additionalProperties`, are said in words).
    pub(crate) dropped: &'static [&'static str],
    /// Whether it says "may be null" with `nullable: true` on the schema itself, where JSON
    /// Schema writes `{"anyOf":[T,{"type":"null"}]}`.
    pub(crate) nullable: bool,
    /// Whether every property of an object is listed in `required` (an optional one admits
    /// `null`).
    pub(crate) all_required: bool,
    /// Whether it takes `$ref`s, to recursive types too: its build-time check follows each one
    /// to what it names.
    pub(crate) follows_refs: bool,
    /// The passes that write a schema in it, in order ([`super::passes`]).
    pub(crate) passes: &'static [Pass],
    /// The attribute that asks for it, as a build error names it.
    pub(crate) attribute: &'static str,
    /// The bit of a tool's modes (`Tool::MODES`) that the attribute sets, 0 for none: a tool
    /// with it is checked against the table at build time, and is written in the dialect.
    pub(crate) mode: u8,
    /// Whether a tool that does not ask for it is written in it too, where its schema fits:
    /// unless its modes have this bit (`Some(0)`: always). `None`: only tools that ask.
    pub(crate) offered: Option<u8>,
    /// What to do when it cannot express a schema, where that is not the rule's own fix.
    pub(crate) fix: Option<&'static str>,
}

/// Limits on a whole schema (OpenAI strict mode).
#[derive(Clone, Copy)]
pub(crate) struct Limits {
    /// Object properties in all.
    pub(crate) properties: u32,
    /// Levels of nested objects.
    pub(crate) depth: u32,
    /// `enum` values in all.
    pub(crate) enum_values: u32,
    /// Characters of property names, definition names, enum and const values (as JSON text).
    pub(crate) text: u32,
}

/// The formats both strict modes take on strings (Anthropic's also `uri`).
const STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// JSON Schema as toolgen writes it: everything.
const STANDARD: Rules = Rules {
    refused: &[],
    limits: None,
    string_formats: &[&["*"]],
    integer_formats: &["*"],
    number_formats: &["*"],
    in_words: &[],
    min_items: None,
    dropped: &[],
    nullable: false,
    all_required: false,
    follows_refs: true,
    passes: &[],
    attribute: "",
    mode: 0,
    offered: Some(0),
    fix: None,
};

/// OpenAI strict mode.
const OPENAI_STRICT: Rules = Rules {
    refused: &[
        (Rule::AnyValue, ANY),
        (Rule::Map, MAP),
        (Rule::Tuple, TUPLE),
    ],
    limits: Some(Limits {
        properties: 5000,
        depth: 10,
        enum_values: 1000,
        text: 120_000,
    }),
    string_formats: &[STRICT_FORMATS],
    integer_formats: &[],
    number_formats: &[],
    in_words: &[
        "default",
        "minLength",
        "maxLength",
        "uniqueItems",
        "examples",
        "oneOf",
    ],
    min_items: None,
    dropped: &[],
    nullable: false,
    all_required: true,
    follows_refs: true,
    passes: &[
        wrap_null_object,
        optional_nullable,
        words,
        strict_objects,
        any_of_only,
    ],
    attribute: "`#[tool(strict)]`",
    mode: OPENAI,
    offered: None,
    fix: None,
};

/// Anthropic strict tool use.
const ANTHROPIC_STRICT: Rules = Rules {
    refused: &[
        (Rule::AnyValue, ANY),
        (Rule::Map, MAP),
        (Rule::Tuple, TUPLE),
        (Rule::Recursive, RECURSIVE),
        (Rule::Pattern, PATTERN),
    ],
    limits: None,
    string_formats: &[STRICT_FORMATS, &["uri"]],
    integer_formats: &[],
    number_formats: &[],
    in_words: &[
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "maxItems",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "uniqueItems",
        "examples",
        "oneOf",
    ],
    min_items: Some(&["0", "1"]),
    dropped: &[],
    nullable: false,
    all_required: false,
    follows_refs: false,
    passes: &[words, strict_objects, any_of_only],
    attribute: "`#[tool(strict)]`",
    mode: ANTHROPIC,
    offered: None,
    fix: None,
};

/// Gemini's `parameters`.
const GEMINI: Rules = Rules {
    refused: &[
        (Rule::AnyValue, ANY),
        (Rule::Tuple, TUPLE),
        (Rule::Recursive, RECURSIVE),
        (Rule::MultipleTypes, MULTIPLE_TYPES),
        (Rule::NonStringEnum, NON_STRING_ENUM),
    ],
    limits: None,
    string_formats: &[&["date-time", "enum"]],
    integer_formats: &["int32", "int64"],
    number_formats: &["float", "double"],
    in_words: &[
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "uniqueItems",
        "examples",
        "oneOf",
    ],
    min_items: None,
    dropped: &["$ref", "prefixItems", "additionalProperties", "$defs"],
    nullable: true,
    all_required: false,
    follows_refs: false,
    passes: &[collapse_nullable, words, any_of_only, gemini_types],
    attribute: "`#[tool(gemini = \"parameters\")]`",
    mode: strict::GEMINI,
    // Every tool's definition for Gemini takes `parameters` where the schema fits them, unless
    // `#[tool(gemini = "json_schema")]`.
    offered: Some(GEMINI_SKIP),
    fix: Some(
        "leave `gemini` out (or write `#[tool(gemini = \"json_schema\")]`), and Gemini gets the standard schema as `parametersJsonSchema`",
    ),
};

impl Rules {
    /// The table of `dialect`.
    pub(crate) const fn of(dialect: Dialect) -> &'static Rules {
        match dialect {
            Dialect::Standard => &STANDARD,
            Dialect::OpenAiStrict => &OPENAI_STRICT,
            Dialect::AnthropicStrict => &ANTHROPIC_STRICT,
            Dialect::Gemini => &GEMINI,
        }
    }

    /// Whether the dialect changes nothing: no rule, no limit, no pass.
    pub(crate) fn is_identity(&self) -> bool {
        self.refused.is_empty() && self.limits.is_none() && self.passes.is_empty()
    }

    /// Whether a tool whose modes are `modes` is written in the dialect: it asks for it, or
    /// the dialect is offered to every tool that does not say otherwise.
    pub(crate) const fn asked(&self, modes: u8) -> bool {
        modes & self.mode != 0 || matches!(self.offered, Some(unless) if modes & unless == 0)
    }

    /// Whether the dialect leaves `keyword` out without a word.
    pub(crate) fn drops(&self, keyword: &str) -> bool {
        self.dropped.contains(&keyword)
    }

    /// Whether the dialect cannot express what `rule` names.
    pub(crate) fn refuses(&self, rule: Rule) -> bool {
        self.refused.iter().any(|(refused, _)| *refused == rule)
    }

    /// Whether the dialect takes `format` on a value of the type `ty` names (`integer`,
    /// `number`, or any other for strings).
    pub(crate) fn takes_format(&self, format: &str, integer: bool, number: bool) -> bool {
        let listed = |formats: &[&str]| formats.iter().any(|f| *f == "*" || *f == format);
        self.string_formats.iter().any(|formats| listed(formats))
            || (integer && listed(self.integer_formats))
            || (number && listed(self.number_formats))
    }

    /// Whether the dialect moves `keyword` into words, its value being `value` (JSON text).
    pub(crate) fn in_words(&self, keyword: &str, value: &str) -> bool {
        match (keyword, self.min_items) {
            ("minItems", Some(taken)) => !taken.contains(&value),
            _ => self.in_words.contains(&keyword),
        }
    }
}
