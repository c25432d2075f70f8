//! Provider dialects of a tool's input schema: what OpenAI's and Anthropic's strict modes and
//! Gemini's `parameters` accept, rewritten from the standard JSON Schema.
//!
//! The derive builds the standard schema ([`Tool::INPUT_SCHEMA`](crate::Tool::INPUT_SCHEMA)) at
//! compile time; every dialect is a rewrite of it, done at run time, once per tool and dialect,
//! at first use ([`Tool::input_schema`](crate::Tool::input_schema)), by walking the schema as a
//! tree ([`crate::dialect::rewrite`]). Whether a strict tool's dialect can be written is known at
//! compile time, from the types' facts ([`crate::schema::facts`]). [`dialect_schema`] runs the same
//! rewrite on any schema text.
//!
//! The rules, from the providers' documentation (checked November 2026):
//! - OpenAI strict, <https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>:
//!   every object has `additionalProperties: false` and lists all its properties in `required`,
//!   so optional ones become nullable; supported keywords are, for strings `pattern` and `format`
//!   (`date-time`, `time`, `date`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`, `uuid`), for
//!   numbers `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, for arrays
//!   `minItems`, `maxItems`; `anyOf` (not `oneOf`), `enum`, `const`, `$defs`/`$ref` (recursion
//!   allowed); at most 5000 properties, 10 levels of nesting, 1000 enum values and 120,000
//!   characters of property names, definition names, enum and const values.
//! - Anthropic strict tool use,
//!   <https://docs.claude.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations>:
//!   `additionalProperties: false` on every object; no recursive schemas; no numerical
//!   (`minimum`, `maximum`, `multipleOf`, ..) or string-length constraints; `minItems` only 0 or
//!   1; formats `date-time`, `time`, `date`, `duration`, `email`, `hostname`, `uri`, `ipv4`,
//!   `ipv6`, `uuid`; regexes without backreferences, lookaround or word boundaries; `default`
//!   taken ("`default` property for all supported types", though Anthropic's Python SDK moves
//!   it into the description).
//! - Gemini `parameters`, <https://ai.google.dev/api/caching#Schema>: a subset of the OpenAPI 3.0
//!   schema object: one `type` plus `nullable: true`, string `enum`s only, no `const`, no
//!   `additionalProperties`, no `$ref`/`$defs`, `format` only `enum`/`date-time` for strings
//!   (`int32`/`int64`, `float`/`double` for numbers), `propertyOrdering` for the field order.
//!
//! What a dialect cannot state but the model should still know (`maxLength` under OpenAI strict,
//! `minimum` under Anthropic strict, a `default`, ..) is moved into the schema's `description`
//! in words ("At most 80 characters."). What it cannot express at all (a map, an arbitrary JSON
//! value, a tuple, and for Anthropic and Gemini recursion) is a [`DialectError`]: a strict tool with
//! one does not compile, and a tool that does not fit Gemini's `parameters` is sent with
//! `parametersJsonSchema`.

pub(crate) mod check;
pub(crate) mod json;
pub(crate) mod passes;
pub(crate) mod pattern;
pub(crate) mod rewrite;
pub(crate) mod rules;
use rules::Rules;
pub(crate) mod strict;

/// A provider's schema dialect.
///
/// ```
/// use toolgen::{Dialect, dialect_schema};
/// let standard = r#"{"type":"object","properties":{"city":{"type":"string","maxLength":80},"days":{"type":"integer"}},"required":["city"]}"#;
/// assert_eq!(
///     dialect_schema(standard, Dialect::OpenAiStrict).unwrap(),
///     r#"{"type":"object","properties":{"city":{"type":"string","description":"At most 80 characters."},"days":{"type":["integer","null"]}},"required":["city","days"],"additionalProperties":false}"#
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// JSON Schema 2020-12 as toolgen emits it: Anthropic and OpenAI without `strict`, MCP,
    /// Gemini's `parametersJsonSchema`.
    Standard,
    /// OpenAI strict mode (`"strict": true`, Chat Completions and Responses).
    OpenAiStrict,
    /// Anthropic strict tool use (`"strict": true` on the tool).
    AnthropicStrict,
    /// Gemini's `parameters` (an OpenAPI 3.0 subset).
    Gemini,
}

impl Dialect {
    /// Every dialect, in a fixed order.
    pub const ALL: [Dialect; 4] = [
        Dialect::Standard,
        Dialect::OpenAiStrict,
        Dialect::AnthropicStrict,
        Dialect::Gemini,
    ];

    pub(crate) const fn provider(self) -> &'static str {
        match self {
            Dialect::Standard => "standard JSON Schema",
            Dialect::OpenAiStrict => "OpenAI strict mode",
            Dialect::AnthropicStrict => "Anthropic strict mode",
            Dialect::Gemini => "Gemini `parameters`",
        }
    }
}

/// What a dialect cannot express.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// A map (`additionalProperties` with a schema): strict modes need `false` on every object.
    /// (Gemini's `parameters` take it as a free-form object, without the values' schema.)
    Map,
    /// A schema that allows any JSON value (`serde_json::Value`): every schema needs a type.
    AnyValue,
    /// A tuple (`prefixItems`).
    Tuple,
    /// A recursive type (`$ref`): Anthropic strict mode and Gemini `parameters` have no references.
    Recursive,
    /// A regex with backreferences, lookaround or word boundaries (Anthropic strict mode).
    Pattern,
    /// A value of several types (`"type": ["string","integer"]`): Gemini allows one.
    MultipleTypes,
    /// An `enum` or `const` that is not a string (Gemini).
    NonStringEnum,
    /// More than 5000 properties in all (OpenAI strict mode).
    TooManyProperties,
    /// Objects nested more than 10 deep (OpenAI strict mode).
    TooDeep,
    /// More than 1000 enum values in all (OpenAI strict mode).
    TooManyEnumValues,
    /// More than 120,000 characters of property names, definition names, enum and const values
    /// (OpenAI strict mode).
    TooMuchText,
    /// The text is not a JSON Schema of the shapes toolgen writes ([`dialect_schema`] only).
    NotASchema,
}

impl Rule {
    /// What the rule forbids, and what to do instead, in words.
    pub(crate) const fn words(self, dialect: Dialect) -> (&'static str, &'static str) {
        if let (Some(fix), false) = (Rules::of(dialect).fix, matches!(self, Rule::NotASchema)) {
            let (what, _) = self.words(Dialect::Standard);
            return (what, fix);
        }
        match self {
            Rule::Map => (
                "cannot take a map (`HashMap`, `BTreeMap`, `serde_json::Map`, a flattened map): every object must have `additionalProperties: false`",
                "use a `Vec` of key/value structs, or drop `strict`",
            ),
            Rule::AnyValue => (
                "cannot take an arbitrary JSON value (`serde_json::Value`): every schema needs a type",
                "use a concrete type, or drop `strict`",
            ),
            Rule::Tuple => (
                "cannot take a tuple (`prefixItems`)",
                "use a struct with named fields",
            ),
            Rule::Recursive => (
                "cannot take a recursive type (`$ref`)",
                "use `#[tool(strict = \"openai\")]` (OpenAI strict mode allows recursion), or drop `strict`",
            ),
            Rule::Pattern => (
                "cannot take a `pattern` with backreferences, lookaround or word boundaries (`\\b`, `\\B`)",
                "rewrite the regex without them",
            ),
            Rule::MultipleTypes => ("cannot take a value of several types", ""),
            Rule::NonStringEnum => ("cannot take an `enum` or `const` that is not a string", ""),
            Rule::TooManyProperties => (
                "allows at most 5000 object properties in all",
                "split the tool, or drop `strict`",
            ),
            Rule::TooDeep => (
                "allows at most 10 levels of nested objects",
                "flatten the input, or drop `strict`",
            ),
            Rule::TooManyEnumValues => (
                "allows at most 1000 enum values in all",
                "use a `String` with a description, or drop `strict`",
            ),
            Rule::TooMuchText => (
                "allows at most 120,000 characters of property names, definition names, enum and const values in all",
                "shorten names or enums, or drop `strict`",
            ),
            Rule::NotASchema => (
                "cannot rewrite this text: it is not a JSON Schema of the shapes toolgen writes",
                "pass a schema toolgen emitted",
            ),
        }
    }
}

/// Why a schema has no form in a dialect, and where: what [`dialect_schema`] returns, and what a
/// strict tool's build stops with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DialectError {
    dialect: Dialect,
    rule: Rule,
    path: String,
}

/// A schema toolgen emitted (such as [`Tool::INPUT_SCHEMA`](crate::Tool::INPUT_SCHEMA)), in
/// another provider's dialect; what the dialect cannot express is an error.
///
/// Tools have their dialects already ([`Tool::input_schema`](crate::Tool::input_schema), built
/// once each); this is the same rewrite, for a look at any schema text in any dialect. Text that
/// is not a schema of the shapes toolgen writes is an error ([`Rule::NotASchema`]), never a panic.
///
/// ```
/// use toolgen::{Dialect, dialect_schema};
/// let standard = r#"{"type":"object","properties":{"tags":{"type":"object","additionalProperties":{"type":"string"}}},"required":["tags"]}"#;
/// let error = dialect_schema(standard, Dialect::AnthropicStrict).unwrap_err();
/// assert!(error.to_string().starts_with("Anthropic strict mode cannot take a map"));
/// assert_eq!(error.path(), "tags");
/// let gemini = dialect_schema(r#"{"type":["string","null"]}"#, Dialect::Gemini).unwrap();
/// assert_eq!(gemini, r#"{"type":"string","nullable":true}"#);
/// ```
pub fn dialect_schema(standard: &str, dialect: Dialect) -> Result<String, DialectError> {
    crate::dialect::rewrite::rewrite_text(standard, dialect)
}

impl DialectError {
    /// The error for `rule` broken at `path` in `dialect` (for the run-time rewrite).
    pub(crate) fn new(dialect: Dialect, rule: Rule, path: String) -> DialectError {
        DialectError {
            dialect,
            rule,
            path,
        }
    }

    /// The dialect that cannot express the schema.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The rule the schema breaks.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The JSON path of the property the dialect cannot express (`cards[].meta`; in a recursive
    /// type's definition `$defs.Name..`), empty for the root.
    pub fn path(&self) -> &str {
        &self.path
    }
}

impl std::fmt::Display for DialectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (what, fix) = self.rule.words(self.dialect);
        let path = self.path();
        let provider = self.dialect.provider();
        if path.is_empty() {
            write!(f, "{provider} {what}; {fix}")
        } else {
            write!(f, "{provider} {what}, at `{path}`; {fix}")
        }
    }
}

impl std::error::Error for DialectError {}

/// A value for each dialect, indexed by [`Dialect`]: what a tool's cache, a dynamic tool, a
/// structured answer and a definition's parts hold of the standard schema and its three
/// rewrites, in one place (a dialect added to [`Dialect`] is a compile error here, and has a
/// place everywhere at once).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PerDialect<T> {
    standard: T,
    openai: T,
    anthropic: T,
    gemini: T,
}

impl<T> PerDialect<T> {
    /// The values of the standard schema, OpenAI strict mode, Anthropic strict mode and Gemini's
    /// `parameters`, in [`Dialect::ALL`]'s order.
    pub(crate) const fn new(standard: T, openai: T, anthropic: T, gemini: T) -> PerDialect<T> {
        PerDialect {
            standard,
            openai,
            anthropic,
            gemini,
        }
    }

    /// The value `make` gives for each dialect, made in [`Dialect::ALL`]'s order.
    pub(crate) fn from_fn(mut make: impl FnMut(Dialect) -> T) -> PerDialect<T> {
        PerDialect {
            standard: make(Dialect::Standard),
            openai: make(Dialect::OpenAiStrict),
            anthropic: make(Dialect::AnthropicStrict),
            gemini: make(Dialect::Gemini),
        }
    }
}

impl<T> std::ops::Index<Dialect> for PerDialect<T> {
    type Output = T;
    fn index(&self, dialect: Dialect) -> &T {
        match dialect {
            Dialect::Standard => &self.standard,
            Dialect::OpenAiStrict => &self.openai,
            Dialect::AnthropicStrict => &self.anthropic,
            Dialect::Gemini => &self.gemini,
        }
    }
}

impl<T> std::ops::IndexMut<Dialect> for PerDialect<T> {
    fn index_mut(&mut self, dialect: Dialect) -> &mut T {
        match dialect {
            Dialect::Standard => &mut self.standard,
            Dialect::OpenAiStrict => &mut self.openai,
            Dialect::AnthropicStrict => &mut self.anthropic,
            Dialect::Gemini => &mut self.gemini,
        }
    }
}

impl<S: AsRef<str>> PerDialect<Option<S>> {
    /// The schema in `dialect`, where there is one.
    pub(crate) fn schema(&self, dialect: Dialect) -> Option<&str> {
        self[dialect].as_ref().map(AsRef::as_ref)
    }

    /// The standard schema, which every holder has.
    pub(crate) fn standard(&self) -> &str {
        self.schema(Dialect::Standard).unwrap_or_default()
    }

    /// The schemas, borrowed.
    pub(crate) fn borrowed(&self) -> PerDialect<Option<&str>> {
        PerDialect::from_fn(|dialect| self.schema(dialect))
    }
}

impl<T> PerDialect<Option<T>> {
    /// `standard` as the standard schema, and what `rewrite` makes of it in each other dialect.
    pub(crate) fn rewritten(
        standard: T,
        mut rewrite: impl FnMut(&T, Dialect) -> Option<T>,
    ) -> Self {
        PerDialect {
            openai: rewrite(&standard, Dialect::OpenAiStrict),
            anthropic: rewrite(&standard, Dialect::AnthropicStrict),
            gemini: rewrite(&standard, Dialect::Gemini),
            standard: Some(standard),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Dialect, PerDialect};

    #[test]
    fn each_dialect_has_its_own_place() {
        let mut names = PerDialect::from_fn(|dialect| Some(dialect.provider()));
        for dialect in Dialect::ALL {
            assert_eq!(names[dialect], Some(dialect.provider()));
        }
        names[Dialect::Gemini] = None;
        assert_eq!(names.schema(Dialect::Gemini), None);
        assert_eq!(names.standard(), Dialect::Standard.provider());
        assert_eq!(
            names.borrowed().schema(Dialect::OpenAiStrict),
            Some(Dialect::OpenAiStrict.provider())
        );
    }

    #[test]
    fn the_standard_schema_is_kept_as_given() {
        let given = r#"{ "type": "object" }"#.to_owned();
        let schemas = PerDialect::rewritten(given.clone(), |standard, dialect| {
            assert_ne!(
                dialect,
                Dialect::Standard,
                "the standard schema is not rewritten"
            );
            super::rewrite::rewrite_text(standard, dialect).ok()
        });
        assert_eq!(schemas.standard(), given);
        let anthropic = super::rewrite::rewrite_text(&given, Dialect::AnthropicStrict).ok();
        assert_eq!(
            schemas.schema(Dialect::AnthropicStrict),
            anthropic.as_deref()
        );
        assert_ne!(schemas.schema(Dialect::Gemini), Some(given.as_str()));
    }
}
