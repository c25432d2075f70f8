//! What the schema states and serde does not enforce (ranges, lengths, item counts, patterns,
//! formats), checked on the parsed value, with the JSON path of the value that breaks it.
//!
//! One checker reads the keywords ([`Keywords`]), wherever they come from: a derived type's
//! `#[tool(range, length, pattern, format)]`, which the derive writes into its facts and the parse
//! plan carries ([`Plan::Check`](crate::parse::plan::Plan::Check)), and what a
//! [`DynamicTool`](crate::DynamicTool)'s JSON Schema states.

use std::collections::BTreeMap;
use std::sync::RwLock;

use serde_json::{Map, Value};

use crate::kept::kept;
use crate::parse::args::{ArgsError, ArgsErrorKind, push_index, push_key};
use crate::schema::facts::Keywords;

/// A keyword a value breaks, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Violation {
    /// From the value outwards.
    segments: Vec<Segment>,
    message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    Key(String),
    Index(usize),
}

impl Violation {
    fn new(message: String) -> Self {
        Violation {
            segments: Vec::new(),
            message,
        }
    }

    /// A set item that repeats the item at `earlier`.
    pub(crate) fn repeated(earlier: usize) -> Self {
        Violation::new(format!(
            "repeats item {earlier}: the items of this list must all differ"
        ))
    }

    /// The violation, as found inside the property `name`.
    pub(crate) fn within_field(mut self, name: &str) -> Self {
        self.segments.push(Segment::Key(name.to_owned()));
        self
    }

    /// The violation, as found inside the item `index`.
    pub(crate) fn within_index(mut self, index: usize) -> Self {
        self.segments.push(Segment::Index(index));
        self
    }

    /// The path the way serde_path_to_error writes it (`flashcards[2].unit`), a key cut as
    /// every path of an argument error is ([`push_key`]).
    fn path(&self) -> String {
        let mut path = String::new();
        self.push_path(&mut path);
        path
    }

    /// Appends the violation's path to `path`, the path of the value it was found in.
    pub(crate) fn push_path(&self, path: &mut String) {
        for segment in self.segments.iter().rev() {
            match segment {
                Segment::Key(key) => push_key(path, key),
                Segment::Index(index) => push_index(path, *index),
            }
        }
    }

    /// What is wrong.
    pub(crate) fn message(&self) -> &str {
        &self.message
    }
}

impl From<Violation> for ArgsError {
    fn from(violation: Violation) -> Self {
        ArgsError::new(
            violation.path(),
            violation.message,
            ArgsErrorKind::Constraint,
        )
    }
}

fn show(bound: f64) -> String {
    // Bounds come from literals; show `5`, not `5.0`, for whole numbers.
    if bound.fract() == 0.0 && bound.abs() < 1e15 {
        format!("{}", bound as i64)
    } else {
        format!("{bound}")
    }
}

/// What a value offers the keywords of [`Keywords`]: a number, a text, a count of items or of
/// properties.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Measure<'a> {
    /// A number (`minimum`, `maximum`, their exclusive forms, `multipleOf`).
    Number(f64),
    /// A text (`minLength`, `maxLength`, `pattern`, `format`).
    Text(&'a str),
    /// A count of items (`minItems`, `maxItems`).
    Items(usize),
    /// A count of properties (`minProperties`, `maxProperties`).
    Properties(usize),
}

impl<'k> Keywords<'k> {
    /// The keywords of a JSON Schema node (its members). A count given as a whole float (`2.0`,
    /// which JSON Schema reads as the integer 2) counts as that integer; a keyword of another
    /// JSON type than its own is not read.
    pub(crate) fn of_schema(schema: &'k Map<String, Value>) -> Keywords<'k> {
        let number = |key: &str| schema.get(key).and_then(Value::as_f64);
        let count = |key: &str| {
            let value = schema.get(key)?;
            value.as_u64().or_else(|| {
                let float = value.as_f64()?;
                // Saturates far past any count a value can have.
                (float.fract() == 0.0 && float >= 0.0).then_some(float as u64)
            })
        };
        let text = |key: &str| schema.get(key).and_then(Value::as_str);
        Keywords {
            minimum: number("minimum"),
            maximum: number("maximum"),
            exclusive_minimum: number("exclusiveMinimum"),
            exclusive_maximum: number("exclusiveMaximum"),
            multiple_of: number("multipleOf").filter(|step| *step > 0.0),
            min_length: count("minLength"),
            max_length: count("maxLength"),
            min_items: count("minItems"),
            max_items: count("maxItems"),
            min_properties: count("minProperties"),
            max_properties: count("maxProperties"),
            unique_items: schema.get("uniqueItems") == Some(&Value::Bool(true)),
            pattern: text("pattern"),
            format: text("format"),
        }
    }

    /// Checks `value` (a JSON value) against the keywords: its number, its text, or its items'
    /// or properties' count, and that an array's items all differ (`uniqueItems`). `regex` is the
    /// compiled [`Keywords::pattern`] (`None`: not checked).
    pub(crate) fn check_value(
        &self,
        value: &Value,
        regex: Option<&regex::Regex>,
    ) -> Result<(), Violation> {
        match value {
            Value::Number(number) => match number.as_f64() {
                Some(number) => self.check(Measure::Number(number), regex),
                None => Ok(()),
            },
            Value::String(text) => self.check(Measure::Text(text), regex),
            Value::Array(items) => {
                self.check(Measure::Items(items.len()), regex)?;
                match crate::schema::first_repeat(items).filter(|_| self.unique_items) {
                    Some((earlier, later)) => Err(Violation::repeated(earlier).within_index(later)),
                    None => Ok(()),
                }
            }
            Value::Object(members) => self.check(Measure::Properties(members.len()), regex),
            Value::Null | Value::Bool(_) => Ok(()),
        }
    }

    /// Checks `measure` against the keywords about it, in the order a schema lists them: the
    /// bounds, then `pattern`, then `format`. The first one broken is the violation.
    pub(crate) fn check(
        &self,
        measure: Measure<'_>,
        regex: Option<&regex::Regex>,
    ) -> Result<(), Violation> {
        match measure {
            Measure::Number(value) => self.check_number(value),
            Measure::Items(count) => {
                check_count(count, self.min_items, self.max_items, "item", "items")
            }
            Measure::Properties(count) => check_count(
                count,
                self.min_properties,
                self.max_properties,
                "property",
                "properties",
            ),
            Measure::Text(text) => {
                let count = text.chars().count();
                check_count(
                    count,
                    self.min_length,
                    self.max_length,
                    "character",
                    "characters",
                )?;
                if let Some(pattern) = self.pattern {
                    check_match(text, pattern, regex)?;
                }
                match self.format {
                    Some(format) => check_text_format(text, format),
                    None => Ok(()),
                }
            }
        }
    }

    fn check_number(&self, value: f64) -> Result<(), Violation> {
        check_bounds(value, self.minimum, self.maximum)?;
        let broken = if let Some(min) = self.exclusive_minimum.filter(|min| value <= *min) {
            format!("must be more than {}, not {value}", show(min))
        } else if let Some(max) = self.exclusive_maximum.filter(|max| value >= *max) {
            format!("must be less than {}, not {value}", show(max))
        } else if let Some(step) = self.multiple_of.filter(|step| {
            let ratio = value / step;
            (ratio - ratio.round()).abs() > 1e-9
        }) {
            format!("must be a multiple of {}, not {value}", show(step))
        } else {
            return Ok(());
        };
        Err(Violation::new(broken))
    }
}

// The rules, one function each, which `Keywords::check` calls.

/// `minimum` and `maximum`.
#[inline]
fn check_bounds(value: f64, min: Option<f64>, max: Option<f64>) -> Result<(), Violation> {
    if let Some(min) = min
        && value < min
    {
        return Err(Violation::new(format!(
            "must be at least {}, not {value}",
            show(min)
        )));
    }
    if let Some(max) = max
        && value > max
    {
        return Err(Violation::new(format!(
            "must be at most {}, not {value}",
            show(max)
        )));
    }
    Ok(())
}

/// A count of `one`s (characters, items, properties) against `min` and `max`.
#[inline]
fn check_count(
    count: usize,
    min: Option<u64>,
    max: Option<u64>,
    one: &str,
    many: &str,
) -> Result<(), Violation> {
    let units = |n: u64| if n == 1 { one } else { many };
    let count = count as u64;
    if let Some(min) = min
        && count < min
    {
        return Err(Violation::new(format!(
            "must have at least {min} {}, not {count}",
            units(min)
        )));
    }
    if let Some(max) = max
        && count > max
    {
        return Err(Violation::new(format!(
            "must have at most {max} {}, not {count}",
            units(max)
        )));
    }
    Ok(())
}

/// `pattern`: the text must contain a match of `regex`, the compiled `pattern` (`None`: not
/// checked).
fn check_match(text: &str, pattern: &str, regex: Option<&regex::Regex>) -> Result<(), Violation> {
    match regex {
        Some(regex) if !regex.is_match(text) => Err(Violation::new(format!(
            "must match the pattern `{pattern}`"
        ))),
        _ => Ok(()),
    }
}

/// `format`.
fn check_text_format(text: &str, format: &str) -> Result<(), Violation> {
    crate::parse::formats::check_format(format, text)
        .map_err(|reason| Violation::new(reason.to_owned()))
}

/// The regex of a derived type's `#[tool(pattern)]`, compiled at its first use and kept for
/// the life of the program: one map for every pattern of every type (they are the program's
/// own literals, so it holds a few), where each pattern field kept a `static` of its own, which
/// cost its crate a codegen item to build. `None` for a pattern the `regex` crate refuses
/// (the macro's check makes that unlikely; such a pattern checks nothing, as before).
pub(crate) fn compiled(pattern: &'static str) -> Option<&'static regex::Regex> {
    static COMPILED: RwLock<BTreeMap<&'static str, &'static Option<regex::Regex>>> =
        RwLock::new(BTreeMap::new());
    kept(&COMPILED, pattern, || regex::Regex::new(pattern).ok()).as_ref()
}
