//! The first thing a dialect cannot express, with its path: what the dialect refuses in each
//! schema object (a map, an arbitrary value, a tuple, a reference, a regex it cannot read, several
//! types, an enum of other than strings) and the limits on the whole schema, from the dialect's
//! rule table ([`Rules`]). A read-only walk, in the order the rewrite meets each schema, so that
//! the first problem is the one a reader of the schema meets first.

use super::json::{Json, escaped, is_null_schema};
use super::passes::Shape;
use super::pattern::unreadable_by_anthropic;
use super::rules::Rules;
use super::{Dialect, Rule};

/// How much of a problem's path is kept.
const PATH_BYTES: usize = 200;

/// The totals a dialect's limits limit: properties, enum values, characters of names, enum and
/// const values (as JSON text).
const PROPERTIES: usize = 0;
const ENUM_VALUES: usize = 1;
const TEXT: usize = 2;

/// The first problem of `schema` in `dialect`, and where it is (cut at [`PATH_BYTES`]).
pub(crate) fn first_problem(schema: &Json, dialect: Dialect) -> Option<(Rule, String)> {
    let mut walk = Walk {
        rules: Rules::of(dialect),
        path: String::new(),
        error: None,
        totals: [0; 3],
        objects: 0,
    };
    walk.schema(schema);
    walk.error
}

/// The state of one walk.
struct Walk {
    rules: &'static Rules,
    /// The JSON path of the schema being read (`cards[].unit`), keys as JSON text writes them.
    path: String,
    /// The first problem, and its path.
    error: Option<(Rule, String)>,
    /// The totals the limits limit, so far (`PROPERTIES`, `ENUM_VALUES`, `TEXT`).
    totals: [usize; 3],
    /// How many objects enclose the schema being read.
    objects: usize,
}

impl Walk {
    /// Records `rule` as broken here, unless a problem came first.
    fn fail(&mut self, rule: Rule) {
        if self.error.is_none() {
            let mut end = self.path.len().min(PATH_BYTES);
            while !self.path.is_char_boundary(end) {
                end -= 1;
            }
            let path = self.path.get(..end).unwrap_or_default().to_owned();
            self.error = Some((rule, path));
        }
    }

    /// Reads `node` with `segment` added to the path: `.name` for a key, `[]` for `items`.
    fn within(&mut self, segment: Option<&str>, node: &Json) {
        let back = self.path.len();
        match segment {
            Some(key) if back > 0 => self.path.push_str(&format!(".{}", escaped(key))),
            Some(key) => self.path.push_str(&escaped(key)),
            None => self.path.push_str("[]"),
        }
        self.schema(node);
        self.path.truncate(back);
    }

    /// The schema `node`: its own problems first, then its members', then the limits.
    fn schema(&mut self, node: &Json) {
        let Json::Object(keywords) = node else {
            return;
        };
        let shape = Shape::of(keywords);
        self.refusals(&shape);
        // Gemini writes `{"anyOf":[T,{"type":"null"}]}` as `T`, nullable.
        if self.rules.nullable
            && let Some(only) = shape.nullable_one()
        {
            self.schema(only);
            return;
        }
        let limits = self.rules.limits;
        let counted = limits.is_some() && shape.is_object;
        if let Some(limits) = limits
            && counted
        {
            self.objects += 1;
            if self.objects > limits.depth as usize {
                self.fail(Rule::TooDeep);
            }
        }
        for (key, value) in keywords {
            self.member(key, value);
        }
        if counted {
            self.objects -= 1;
        }
        if let Some(limits) = limits {
            let checked = [
                (limits.properties, Rule::TooManyProperties),
                (limits.enum_values, Rule::TooManyEnumValues),
                (limits.text, Rule::TooMuchText),
            ];
            for (total, (limit, rule)) in self.totals.into_iter().zip(checked) {
                if total > limit as usize {
                    self.fail(rule);
                }
            }
        }
    }

    /// What the dialect refuses in the schema object itself.
    fn refusals(&mut self, shape: &Shape<'_>) {
        let typed = ["type", "anyOf", "oneOf", "enum", "const", "$ref", "allOf"];
        // A map. Gemini has no `additionalProperties`: there the map is its free-form object.
        let free_form = match shape.additional {
            Some(additional) => *additional != Json::Bool(false),
            None => shape.is_object && shape.props.is_none(),
        };
        let pattern = shape.get("pattern").and_then(Json::as_str);
        let bad_pattern = pattern.is_some_and(unreadable_by_anthropic);
        let untyped = !typed.iter().any(|key| shape.get(key).is_some());
        // `anyOf` and `oneOf` side by side: the dialects that write `oneOf` as `anyOf` would
        // write the key twice. (toolgen writes one or the other.)
        let both_unions = shape.get("oneOf").is_some()
            && shape.keywords.iter().any(|(key, _)| key == "anyOf")
            && self.rules.in_words("oneOf", "");
        if both_unions {
            self.fail(Rule::NotASchema);
        }
        let problems = [
            (untyped, Rule::AnyValue),
            (free_form, Rule::Map),
            (shape.get("prefixItems").is_some(), Rule::Tuple),
            (shape.get("$ref").is_some(), Rule::Recursive),
            (bad_pattern, Rule::Pattern),
        ];
        for (broken, rule) in problems {
            if broken && self.rules.refuses(rule) {
                self.fail(rule);
            }
        }
    }

    /// A member's problems: the schemas inside it, its types and values, its totals.
    fn member(&mut self, key: &str, value: &Json) {
        let rules = self.rules;
        match key {
            "type" if rules.refuses(Rule::MultipleTypes) => {
                let types = value.items();
                let others = types.iter().filter(|t| !t.is("null")).count();
                if matches!(value, Json::Array(_)) && others != 1 {
                    self.fail(Rule::MultipleTypes);
                }
            }
            "properties" => {
                for (key, schema) in value.members() {
                    self.totals[PROPERTIES] += 1;
                    self.totals[TEXT] += escaped(key).len();
                    self.within(Some(key), schema);
                }
            }
            "items" => self.within(None, value),
            "anyOf" | "oneOf" | "allOf" => {
                for branch in value.items() {
                    if !(rules.nullable && is_null_schema(branch)) {
                        self.schema(branch);
                    }
                }
            }
            // Gemini has no definitions (a `$ref` is refused already).
            "$defs" if !rules.drops(key) => {
                for (key, schema) in value.members() {
                    self.totals[TEXT] += escaped(key).len();
                    // Each definition counts its levels of objects afresh.
                    let saved = std::mem::take(&mut self.objects);
                    self.within(Some(key), schema);
                    self.objects = saved;
                }
            }
            "enum" => {
                self.totals[ENUM_VALUES] += value.items().len();
                self.totals[TEXT] += value.text().len();
                if rules.refuses(Rule::NonStringEnum)
                    && !value.items().iter().all(|v| v.as_str().is_some())
                {
                    self.fail(Rule::NonStringEnum);
                }
            }
            "const" => {
                self.totals[TEXT] += value.text().len();
                if rules.refuses(Rule::NonStringEnum) && value.as_str().is_none() {
                    self.fail(Rule::NonStringEnum);
                }
            }
            _ => {}
        }
    }
}
