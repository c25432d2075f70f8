//! The provider dialects of a schema, rewritten at run time: the standard schema text is read
//! into an order-preserving tree ([`Json`]), rewritten ([`rewrite`]) and written back.
//!
//! The rules are those of the const-evaluated rewrite it replaced, keyword for keyword, and so is
//! the output, byte for byte, and the first error, with its path: `tests/dialect_corpus.rs` holds
//! it against that rewrite's recorded output on 1,097 inputs (edge cases, generated schemas,
//! OpenAI's limits), and the goldens against every seed tool's.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;

use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::dialect::rules::Rules;
use crate::dialect::{Dialect, DialectError, Rule};

/// How many keywords one schema object may have.
const MAX_KEYWORDS: usize = 24;
/// How deep [`well_formed`] follows schemas.
const MAX_NESTING: usize = 128;
/// How much of a problem's path is kept.
const PATH_BYTES: usize = 200;
/// The key by which serde_json's `arbitrary_precision` feature hands a number to a visitor.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// A JSON value whose objects keep their members in document order, whatever serde_json's
/// `preserve_order` feature says. Reading text keeps the last of repeated keys, at the place of
/// the first, as `serde_json::Value` does.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// An object's members; none for anything else.
    fn members(&self) -> &[(String, Json)] {
        match self {
            Json::Object(members) => members,
            _ => &[],
        }
    }

    /// An array's items; none for anything else.
    fn items(&self) -> &[Json] {
        match self {
            Json::Array(items) => items,
            _ => &[],
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(text) => Some(text),
            _ => None,
        }
    }

    /// Whether this is the string `text`.
    fn is(&self, text: &str) -> bool {
        self.as_str() == Some(text)
    }

    /// The value's JSON text, as serde_json writes it (and the const rewrite copies it).
    fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

fn string(text: &str) -> Json {
    Json::String(text.to_owned())
}

fn null_schema() -> Json {
    Json::Object(vec![("type".to_owned(), string("null"))])
}

fn is_null_schema(json: &Json) -> bool {
    matches!(json.members(), [(key, value)] if key == "type" && value.is("null"))
}

/// A string's content as JSON text writes it: escaped, without the quotes.
fn escaped(text: &str) -> String {
    let quoted = string(text).text();
    let inner = quoted.strip_prefix('"').and_then(|t| t.strip_suffix('"'));
    inner.unwrap_or_default().to_owned()
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(value) => serializer.serialize_bool(*value),
            Json::Number(number) => number.serialize(serializer),
            Json::String(text) => serializer.serialize_str(text),
            Json::Array(items) => serializer.collect_seq(items),
            Json::Object(members) => serializer.collect_map(members.iter().map(|(k, v)| (k, v))),
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// Reads any JSON value into a [`Json`] (serde_json stops nesting deeper than 128).
struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Json, E> {
        Ok(Json::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Json, E> {
        Ok(Json::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Json, E> {
        Ok(Json::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Json, E> {
        Ok(serde_json::Number::from_f64(value).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Json, E> {
        Ok(string(value))
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members: Vec<(String, Json)> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        while let Some(key) = map.next_key::<String>()? {
            if index.is_empty() && key == NUMBER_TOKEN {
                let digits: String = map.next_value()?;
                return digits.parse().map(Json::Number).map_err(A::Error::custom);
            }
            let value = map.next_value()?;
            match index.entry(key) {
                Entry::Occupied(at) => {
                    if let Some(member) = members.get_mut(*at.get()) {
                        member.1 = value;
                    }
                }
                Entry::Vacant(at) => {
                    members.push((at.key().clone(), value));
                    at.insert(members.len() - 1);
                }
            }
        }
        Ok(Json::Object(members))
    }
}

/// A schema toolgen emitted, as text, in `dialect`: what `dialect_schema` returns, rewritten at
/// run time. Text that is not a schema of the shapes toolgen writes is [`Rule::NotASchema`].
pub fn rewrite_text(standard: &str, dialect: Dialect) -> Result<String, DialectError> {
    let not_a_schema = || DialectError::new(dialect, Rule::NotASchema, String::new());
    let json: Json = serde_json::from_str(standard).map_err(|_| not_a_schema())?;
    if !well_formed(&json) {
        return Err(not_a_schema());
    }
    Ok(rewrite(&json, dialect)?.text())
}

/// Whether `json` has the shapes [`rewrite`] reads: objects of at most 24 keywords whose
/// `properties` and `$defs` are objects of schemas, `items` a schema, `anyOf`, `oneOf`, `allOf`
/// and `prefixItems` lists of schemas, `required` and `enum` lists, `type` a string or a list of
/// strings, `description`, `format` and `pattern` strings.
pub(crate) fn well_formed(json: &Json) -> bool {
    formed(json, 0)
}

/// [`well_formed`] for a schema `depth` schemas deep.
fn formed(schema: &Json, depth: usize) -> bool {
    let Json::Object(keywords) = schema else {
        return matches!(schema, Json::Bool(_));
    };
    let well_formed_keyword = |(key, value): &(String, Json)| {
        let (object, array) = (
            matches!(value, Json::Object(_)),
            matches!(value, Json::Array(_)),
        );
        let strings = || array && value.items().iter().all(|v| v.as_str().is_some());
        let values = value.members().iter().map(|(_, v)| v).chain(value.items());
        let schemas = || values.clone().all(|v| formed(v, depth + 1));
        match key.as_str() {
            "properties" | "$defs" => object && schemas(),
            "items" | "additionalProperties" | "not" => formed(value, depth + 1),
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => array && schemas(),
            "required" => strings(),
            "enum" | "examples" => array,
            "type" => value.as_str().is_some() || strings(),
            "description" | "format" | "pattern" | "$ref" | "title" => value.as_str().is_some(),
            _ => true,
        }
    };
    keywords.len() <= MAX_KEYWORDS
        && depth <= MAX_NESTING
        && keywords.iter().all(well_formed_keyword)
}

/// `schema` (a [`well_formed`] schema toolgen emitted) in `dialect`; what the dialect cannot
/// express is an error, the first one in document order.
pub(crate) fn rewrite(schema: &Json, dialect: Dialect) -> Result<Json, DialectError> {
    if dialect == Dialect::Standard {
        return Ok(schema.clone());
    }
    let mut cx = Cx {
        dialect,
        path: String::new(),
        error: None,
        totals: [0; 3],
        objects: 0,
    };
    let rewritten = cx.schema(schema, Flags::default());
    match cx.error {
        Some((rule, path)) => Err(DialectError::new(dialect, rule, path)),
        None => Ok(rewritten),
    }
}

/// The totals a dialect's [`Limits`] limit, in the order they are checked: properties, enum
/// values, characters of names, enum and const values (as JSON text).
const PROPERTIES: usize = 0;
const ENUM_VALUES: usize = 1;
const TEXT: usize = 2;

/// The state of one rewrite.
struct Cx {
    dialect: Dialect,
    /// The JSON path of the schema being written (`cards[].unit`), keys as JSON text writes them.
    path: String,
    /// The first problem, and its path cut at `PATH_BYTES`.
    error: Option<(Rule, String)>,
    /// What the dialect's [`Limits`] limit, so far (`PROPERTIES`, `ENUM_VALUES`, `TEXT`).
    totals: [usize; 3],
    /// How many objects enclose the schema being written (OpenAI strict).
    objects: usize,
}

/// How a schema is written where it stands.
#[derive(Clone, Copy, Default)]
struct Flags<'a> {
    /// OpenAI strict: an optional property, which must admit `null`. Gemini: admits `null`.
    nullable: bool,
    /// A description that replaces the schema's own (Gemini, when `{"anyOf":[T,null]}` becomes
    /// `T` with `nullable`).
    description: Option<&'a str>,
    /// Leave `"null"` out of a `type` list: the schema is the first branch of an `anyOf` that
    /// has the `null` branch.
    drop_null: bool,
}

impl<'a> Flags<'a> {
    /// A schema that admits `null` if `nullable`, described by `description` if given.
    fn nullable(nullable: bool, description: Option<&'a str>) -> Flags<'a> {
        Flags {
            nullable,
            description,
            drop_null: false,
        }
    }
}

/// What a dialect does with a keyword.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Action {
    /// Written as it is.
    Copy,
    /// Rewritten by [`Cx::member`].
    Special,
    /// Left out; the description says it in words.
    Words,
    /// Left out without a word.
    Drop,
}

/// How OpenAI strict makes a schema admit `null`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Null {
    /// It need not, or does already.
    Keep,
    /// `"null"` added to its `type`.
    Widen,
    /// A `{"type":"null"}` branch added to its `anyOf`.
    Branch,
    /// The schema wrapped in an `anyOf` with a `null` branch.
    Wrap,
}

/// What the rewrite reads off a schema object.
struct Shape<'a> {
    keywords: &'a [(String, Json)],
    ty: Option<&'a Json>,
    props: Option<&'a Json>,
    required: Option<&'a Json>,
    additional: Option<&'a Json>,
    /// Its `anyOf`, or else its `oneOf`.
    any_of: Option<&'a Json>,
    /// It has `properties`, or the type `object`.
    is_object: bool,
}

impl<'a> Shape<'a> {
    fn of(keywords: &'a [(String, Json)]) -> Shape<'a> {
        let get = |key| find(keywords, key);
        let (ty, props) = (get("type"), get("properties"));
        Shape {
            keywords,
            ty,
            props,
            required: get("required"),
            additional: get("additionalProperties"),
            any_of: get("anyOf").or(get("oneOf")),
            is_object: props.is_some() || has_type(ty, "object"),
        }
    }

    fn get(&self, key: &str) -> Option<&'a Json> {
        find(self.keywords, key)
    }

    fn any_of_branches(&self) -> &'a [Json] {
        self.any_of.map(Json::items).unwrap_or_default()
    }

    /// Gemini: `T` of `{"anyOf":[T,{"type":"null"}]}` (a `description` beside it allowed).
    fn nullable_one(&self) -> Option<&'a Json> {
        let short = match self.keywords {
            [_] => true,
            [_, _] => self.get("description").is_some(),
            _ => false,
        };
        let branches = self.any_of_branches();
        let mut others = branches.iter().filter(|b| !is_null_schema(b));
        match (others.next(), others.next()) {
            (Some(only), None) if short && branches.iter().any(is_null_schema) => Some(only),
            _ => None,
        }
    }

    /// OpenAI strict: an optional property must admit `null`, by a widened type or an `anyOf`
    /// branch; objects (and enums, consts, references) are wrapped in an `anyOf` with `null`, and
    /// so are objects whose `type` has `"null"`.
    fn null(&self, flags: Flags<'_>) -> Null {
        let plain = self.get("enum").is_none() && self.get("const").is_none();
        let can_widen = self.ty.is_some() && !self.is_object && plain && self.any_of.is_none();
        let can_add_branch = self.any_of.is_some() && self.ty.is_none() && plain;
        let type_has_null = self
            .ty
            .is_some_and(|ty| ty.items().iter().any(|t| t.is("null")));
        let has_null = type_has_null || self.any_of_branches().iter().any(is_null_schema);
        let null_object = self.is_object && type_has_null && !flags.drop_null;
        match (flags.nullable && !has_null, can_widen, can_add_branch) {
            _ if null_object => Null::Wrap,
            (true, true, _) => Null::Widen,
            (true, false, true) => Null::Branch,
            (true, false, false) => Null::Wrap,
            (false, ..) => Null::Keep,
        }
    }
}

/// What [`Cx::schema`] decided about a schema object, for [`Cx::member`].
struct Plan<'a> {
    flags: Flags<'a>,
    null: Null,
    /// The left-out keywords in words, in keyword order.
    sentences: Vec<String>,
    wrote_description: bool,
    /// Gemini: write `nullable: true`.
    nullable: bool,
}

/// Whether `dialect` is OpenAI strict, Anthropic strict, Gemini.
fn dialect_is(dialect: Dialect) -> (bool, bool, bool) {
    use Dialect::{AnthropicStrict, Gemini, OpenAiStrict};
    (
        dialect == OpenAiStrict,
        dialect == AnthropicStrict,
        dialect == Gemini,
    )
}

/// The value of the member `key`.
fn find<'a>(members: &'a [(String, Json)], key: &str) -> Option<&'a Json> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Whether `ty` (a `type` keyword's value) names `name`.
fn has_type(ty: Option<&Json>, name: &str) -> bool {
    ty.is_some_and(|ty| ty.is(name) || ty.items().iter().any(|t| t.is(name)))
}

fn action(dialect: Dialect, key: &str, value: &Json, ty: Option<&Json>) -> Action {
    let rules = Rules::of(dialect);
    let words_if = |words: bool| if words { Action::Words } else { Action::Copy };
    let gm = dialect == Dialect::Gemini;
    match key {
        "type"
        | "properties"
        | "required"
        | "items"
        | "anyOf"
        | "oneOf"
        | "allOf"
        | "$defs"
        | "description"
        | "const"
        | "enum"
        | "additionalProperties"
        | "pattern" => Action::Special,
        "$ref" | "prefixItems" if gm => Action::Drop,
        "$ref" | "prefixItems" | "title" => Action::Copy,
        "format" => words_if(!rules.takes_format(
            value.as_str().unwrap_or_default(),
            has_type(ty, "integer"),
            has_type(ty, "number"),
        )),
        "minItems" => words_if(rules.in_words(key, &value.text())),
        "default" | "minLength" | "maxLength" | "minimum" | "maximum" | "maxItems"
        | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" | "uniqueItems" | "examples" => {
            words_if(rules.in_words(key, ""))
        }
        // `not` (`#[serde(other)]`'s catch-all string: any string, which serde accepts there
        // anyway) and a hand-written schema's own keywords: strict grammars reject what they do
        // not know, and Gemini's schema object has no such field.
        _ => Action::Drop,
    }
}

/// The sentence that says a map's `additionalProperties` (Gemini): the schema of its values, or
/// of the values of the keys an object with a flattened map takes besides its properties. None
/// where there is nothing to say: `false`, a schema that is not an object's, and any value for
/// any key (Gemini's free-form object says as much).
fn map_sentence(shape: &Shape<'_>, additional: &Json) -> Option<String> {
    if !shape.is_object || *additional == Json::Bool(false) {
        return None;
    }
    let keys = match shape.props.map(Json::members) {
        Some([_, ..]) => "Other keys",
        _ => "Any keys",
    };
    let any = matches!(additional, Json::Bool(true))
        || matches!(additional, Json::Object(members) if members.is_empty());
    match (any, keys) {
        (true, "Any keys") => None,
        (true, _) => Some(format!("{keys}, each with any value.")),
        (false, _) => Some(format!(
            "{keys}, each with a value of: {}.",
            additional.text()
        )),
    }
}

/// The sentence that says a left-out keyword in words (`uniqueItems` is `true`).
fn sentence(key: &str, value: &Json) -> String {
    let (prefix, suffix) = match key {
        "minLength" => ("At least ", " characters."),
        "maxLength" => ("At most ", " characters."),
        "minimum" => ("At least ", "."),
        "maximum" => ("At most ", "."),
        "exclusiveMinimum" => ("Greater than ", "."),
        "exclusiveMaximum" => ("Less than ", "."),
        "multipleOf" => ("A multiple of ", "."),
        "minItems" => ("At least ", " items."),
        "maxItems" => ("At most ", " items."),
        "uniqueItems" => return "Items must be unique.".to_owned(),
        "format" => ("Format: ", "."),
        "default" => ("Default: ", "."),
        "examples" => ("Examples: ", "."),
        _ => return String::new(),
    };
    let said = match (key, value) {
        ("format", Json::String(format)) => format.clone(),
        _ => value.text(),
    };
    format!("{prefix}{said}{suffix}")
}

/// The description: the schema's own text, then the left-out keywords in words, except a default
/// the text states already (`"Максимальна кількість результатів. Default: 5"`).
fn describe(own: Option<&str>, sentences: &[String]) -> Json {
    let own = own.filter(|text| !text.is_empty());
    let says_default = own.is_some_and(|text| text.to_lowercase().contains("default:"));
    let parts: Vec<String> = own
        .map(str::to_owned)
        .into_iter()
        .chain(
            sentences
                .iter()
                .filter(|sentence| !(says_default && sentence.starts_with("Default: ")))
                .cloned(),
        )
        .collect();
    Json::String(parts.join(" "))
}

/// The keys of a `properties` object, as a list of strings.
fn keys(props: Option<&Json>) -> Json {
    let names = props.map(Json::members).unwrap_or_default();
    Json::Array(names.iter().map(|(key, _)| string(key)).collect())
}

/// Whether a regex uses what Anthropic's strict grammar rejects: backreferences (`\1`,
/// `\k<name>`), lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) or word boundaries (`\b`, `\B`).
fn pattern_unsupported(regex: &str) -> bool {
    let bytes = regex.as_bytes();
    let at = |i: usize| bytes.get(i).copied();
    let mut i = 0;
    while let Some(byte) = at(i) {
        match (byte, at(i + 1), at(i + 2), at(i + 3)) {
            (b'\\', Some(b'b' | b'B' | b'k' | b'1'..=b'9'), ..) => return true,
            (b'\\', ..) => i += 1,
            (b'(', Some(b'?'), Some(b'=' | b'!'), _) => return true,
            (b'(', Some(b'?'), Some(b'<'), Some(b'=' | b'!')) => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

impl Cx {
    /// Whether the dialect is OpenAI strict, Anthropic strict, Gemini.
    fn dialects(&self) -> (bool, bool, bool) {
        dialect_is(self.dialect)
    }

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

    /// Writes `node` with `segment` added to the path: `.name` for a key, `[]` for `items`.
    fn within<'a>(&mut self, segment: Option<&str>, node: &'a Json, flags: Flags<'a>) -> Json {
        let back = self.path.len();
        match segment {
            Some(key) if back > 0 => self.path.push_str(&format!(".{}", escaped(key))),
            Some(key) => self.path.push_str(&escaped(key)),
            None => self.path.push_str("[]"),
        }
        let written = self.schema(node, flags);
        self.path.truncate(back);
        written
    }

    /// The schema `node` in the dialect: its own problems first, then its members'.
    fn schema<'a>(&mut self, node: &'a Json, flags: Flags<'a>) -> Json {
        let Json::Object(keywords) = node else {
            return node.clone();
        };
        let (os, _, gm) = self.dialects();
        let shape = Shape::of(keywords);
        self.check(&shape);
        if gm && let Some(only) = shape.nullable_one() {
            let own = shape.get("description").and_then(Json::as_str);
            return self.schema(only, Flags::nullable(true, own.or(flags.description)));
        }
        let null = if os { shape.null(flags) } else { Null::Keep };
        if null == Null::Wrap {
            let mut inner = flags;
            (inner.nullable, inner.drop_null) = (false, true);
            let branches = vec![self.schema(node, inner), null_schema()];
            return Json::Object(vec![("anyOf".to_owned(), Json::Array(branches))]);
        }
        let limits = Rules::of(self.dialect).limits;
        let counted = limits.is_some() && shape.is_object;
        if let Some(limits) = limits
            && counted
        {
            self.objects += 1;
            if self.objects > limits.depth as usize {
                self.fail(Rule::TooDeep);
            }
        }
        let written = self.write(&shape, flags, null);
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
        written
    }

    /// Records what the dialect cannot express in the schema object itself.
    fn check(&mut self, shape: &Shape<'_>) {
        let typed = ["type", "anyOf", "oneOf", "enum", "const", "$ref", "allOf"];
        // A map. Gemini has no `additionalProperties`: there the map is its free-form object.
        let free_form = match shape.additional {
            Some(additional) => *additional != Json::Bool(false),
            None => shape.is_object && shape.props.is_none(),
        };
        let pattern = shape.get("pattern").and_then(Json::as_str);
        let bad_pattern = pattern.is_some_and(pattern_unsupported);
        let untyped = !typed.iter().any(|key| shape.get(key).is_some());
        let problems = [
            (untyped, Rule::AnyValue),
            (free_form, Rule::Map),
            (shape.get("prefixItems").is_some(), Rule::Tuple),
            (shape.get("$ref").is_some(), Rule::Recursive),
            (bad_pattern, Rule::Pattern),
        ];
        let rules = Rules::of(self.dialect);
        for (broken, rule) in problems {
            if broken && rules.refuses(rule) {
                self.fail(rule);
            }
        }
    }

    /// The schema object's members in the dialect, then what the dialect adds.
    fn write<'a>(&mut self, shape: &Shape<'a>, flags: Flags<'a>, null: Null) -> Json {
        let (_, _, gm) = self.dialects();
        let (keywords, ty) = (shape.keywords, shape.ty);
        let acts: Vec<Action> = keywords
            .iter()
            .map(|(k, v)| action(self.dialect, k, v, ty))
            .collect();
        // Gemini has no `additionalProperties`: a map's values are said in words.
        let map_words = |key: &str, value: &Json| {
            gm && key == "additionalProperties" && map_sentence(shape, value).is_some()
        };
        let says = |((key, value), act): &(&(String, Json), &Action)| {
            (**act == Action::Words && (key != "uniqueItems" || *value == Json::Bool(true)))
                || map_words(key, value)
        };
        let words = keywords.iter().zip(&acts).filter(says);
        let mut plan = Plan {
            flags,
            null,
            sentences: words
                .map(|((key, value), _)| match key.as_str() {
                    "additionalProperties" => map_sentence(shape, value).unwrap_or_default(),
                    _ => sentence(key, value),
                })
                .collect(),
            wrote_description: false,
            nullable: gm && flags.nullable,
        };
        let mut out = Vec::new();
        for ((key, value), act) in shape.keywords.iter().zip(&acts) {
            let gemini_drops = gm && matches!(key.as_str(), "additionalProperties" | "$defs");
            match act {
                Action::Copy => out.push((key.clone(), value.clone())),
                Action::Special if !gemini_drops => {
                    out.push(self.member(shape, &mut plan, key, value))
                }
                _ => {}
            }
        }
        out.extend(self.additions(shape, &plan));
        Json::Object(out)
    }

    /// What the dialect adds after the schema's own members.
    fn additions(&self, shape: &Shape<'_>, plan: &Plan<'_>) -> Vec<(String, Json)> {
        let (os, _, gm) = self.dialects();
        let own = plan.flags.description;
        let mut added = Vec::new();
        let mut add = |key: &str, value: Json| added.push((key.to_owned(), value));
        if !plan.wrote_description && (!plan.sentences.is_empty() || own.is_some()) {
            add("description", describe(own, &plan.sentences));
        }
        if gm && shape.get("const").is_some() && shape.ty.is_none() {
            add("type", string("string"));
        }
        if os && shape.is_object && shape.required.is_none() {
            add("required", keys(shape.props));
        }
        if !gm && shape.is_object && shape.additional.is_none() {
            add("additionalProperties", Json::Bool(false));
        }
        if plan.nullable {
            add("nullable", Json::Bool(true));
        }
        if gm && shape.props.is_some() {
            add("propertyOrdering", keys(shape.props));
        }
        added
    }

    /// A keyword the dialect rewrites, as a member of the written schema.
    fn member<'a>(
        &mut self,
        shape: &Shape<'a>,
        plan: &mut Plan<'a>,
        key: &str,
        value: &'a Json,
    ) -> (String, Json) {
        let (os, _, gm) = self.dialects();
        let written = match key {
            "type" => self.types(plan, value),
            "properties" => self.properties(value, shape.required),
            "required" if os => keys(shape.props),
            "items" => self.within(None, value, Flags::default()),
            "anyOf" | "oneOf" | "allOf" => self.branches(plan, value),
            "$defs" => self.defs(value),
            "description" => {
                plan.wrote_description = true;
                describe(plan.flags.description.or(value.as_str()), &plan.sentences)
            }
            "enum" => {
                self.totals[ENUM_VALUES] += value.items().len();
                self.totals[TEXT] += value.text().len();
                if gm && !value.items().iter().all(|v| v.as_str().is_some()) {
                    self.fail(Rule::NonStringEnum);
                }
                value.clone()
            }
            "const" => {
                self.totals[TEXT] += value.text().len();
                if gm && value.as_str().is_none() {
                    self.fail(Rule::NonStringEnum);
                }
                // Gemini has no `const`: a one-value `enum`.
                let one = Json::Array(vec![value.clone()]);
                if gm { one } else { value.clone() }
            }
            // `required`, `additionalProperties: false`, `pattern` (checked already): as they are.
            _ => value.clone(),
        };
        let key = match key {
            // The strict grammars have `anyOf` only; the branches of a `oneOf` toolgen writes
            // never overlap, so `anyOf` means the same.
            "oneOf" if !gm => "anyOf",
            "const" if gm => "enum",
            _ => key,
        };
        (key.to_owned(), written)
    }

    /// A `type`: widened with `"null"`, without it, or (Gemini) one type and `nullable`.
    fn types(&mut self, plan: &mut Plan<'_>, value: &Json) -> Json {
        let widen = plan.null == Null::Widen;
        let Json::Array(types) = value else {
            let widened = Json::Array(vec![value.clone(), string("null")]);
            return if widen { widened } else { value.clone() };
        };
        let others: Vec<Json> = types.iter().filter(|t| !t.is("null")).cloned().collect();
        if self.dialect == Dialect::Gemini {
            plan.nullable |= others.len() < types.len();
            if others.len() != 1 {
                self.fail(Rule::MultipleTypes);
            }
            others.into_iter().next().unwrap_or(Json::Null)
        } else if widen {
            Json::Array(types.iter().cloned().chain([string("null")]).collect())
        } else if plan.flags.drop_null {
            match <[Json; 1]>::try_from(others) {
                Ok([one]) => one,
                Err(others) => Json::Array(others),
            }
        } else {
            value.clone()
        }
    }

    /// The property schemas, optional ones nullable under OpenAI strict.
    fn properties(&mut self, value: &Json, required: Option<&Json>) -> Json {
        let (os, _, _) = self.dialects();
        let mut out = Vec::new();
        for (key, schema) in value.members() {
            self.totals[PROPERTIES] += 1;
            self.totals[TEXT] += escaped(key).len();
            let optional = required.is_none_or(|list| !list.items().iter().any(|k| k.is(key)));
            let flags = Flags::nullable(os && optional, None);
            out.push((key.clone(), self.within(Some(key), schema, flags)));
        }
        Json::Object(out)
    }

    /// The branches of an `anyOf`, `oneOf` or `allOf` (Gemini's `null` one as `nullable`).
    fn branches<'a>(&mut self, plan: &mut Plan<'a>, value: &'a Json) -> Json {
        let mut out = Vec::new();
        for branch in value.items() {
            if self.dialect == Dialect::Gemini && is_null_schema(branch) {
                plan.nullable = true;
            } else {
                out.push(self.schema(branch, Flags::default()));
            }
        }
        if plan.null == Null::Branch {
            out.push(null_schema());
        }
        Json::Array(out)
    }

    /// The definitions, each counting its levels of objects afresh.
    fn defs(&mut self, value: &Json) -> Json {
        let mut out = Vec::new();
        for (key, schema) in value.members() {
            self.totals[TEXT] += escaped(key).len();
            let saved = std::mem::take(&mut self.objects);
            let written = self.within(Some(key), schema, Flags::default());
            out.push((key.clone(), written));
            self.objects = saved;
        }
        Json::Object(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Dialect::{AnthropicStrict as An, Gemini as Gm, OpenAiStrict as Os};

    /// `standard` in `dialect`: the text, or the error's rule and path.
    fn rewritten(standard: &str, dialect: Dialect) -> Result<String, (Rule, String)> {
        rewrite_text(standard, dialect).map_err(|e| (e.rule(), e.path().to_owned()))
    }

    #[test]
    fn json_text_round_trips_in_document_order() {
        let texts = [
            r#"{"z":1,"a":[true,false,null],"m":{"y":-2,"b":1.5,"c":1e-7}}"#,
            "[\"tab:\\t nl:\\n quote:\\\" backslash:\\\\ bell:\\u0007 del:\u{7f} \u{2028}🦀\"]",
            "[18446744073709551615,-9223372036854775808,0.1,-0.0,1e+300]",
        ];
        for text in texts {
            assert_eq!(serde_json::from_str::<Json>(text).unwrap().text(), text);
        }
        // As `serde_json::Value` reads them: the last value of a key, at the first one's place.
        let json: Json = serde_json::from_str(r#"{ "a" : 1, "b":2, "a":[3] }"#).unwrap();
        assert_eq!(json.text(), r#"{"a":[3],"b":2}"#);
        assert_eq!(
            serde_json::from_str::<Json>("1.0E2").unwrap().text(),
            "100.0"
        );
    }

    const OPTIONAL: &str = r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer","minimum":0,"default":5},"c":{"type":"object","properties":{"x":{"type":"boolean"}},"required":["x"]},"d":{"type":"string","enum":["p","q"]},"e":{"anyOf":[{"type":"string"},{"type":"null"}]},"f":{"type":["object","null"],"properties":{}}},"required":["a"]}"#;
    const WORDS: &str = r#"{"type":"string","description":"A \"name\".","minLength":1,"maxLength":80,"format":"uri-reference","default":"x\\y"}"#;
    const GEMINI: &str = r#"{"type":"object","properties":{"a":{"anyOf":[{"type":"object","properties":{"k":{"const":"v","description":"K."}},"required":["k"],"description":"Inner."},{"type":"null"}],"description":"Outer."},"b":{"type":["integer","null"],"format":"int64"},"c":{"type":"string","format":"email"}},"required":[],"additionalProperties":false}"#;
    const MAP: &str = r#"{"type":"object","properties":{"cards":{"type":"array","items":{"type":"object","properties":{"meta":{"type":"object","additionalProperties":{"type":"string"}}},"required":["meta"]}}},"required":["cards"]}"#;
    const RECURSIVE: &str = r##"{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},"required":["n"],"$defs":{"N":{"type":"object","properties":{"c":{"type":"array","items":{"$ref":"#/$defs/N"}}},"required":["c"]}}}"##;

    /// The examples of `dialect.rs`'s tests and docs, with the same texts.
    #[rustfmt::skip]
    const REWRITES: &[(Dialect, &str, &str)] = &[
        (Os, OPTIONAL, r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["integer","null"],"minimum":0,"description":"Default: 5."},"c":{"anyOf":[{"type":"object","properties":{"x":{"type":"boolean"}},"required":["x"],"additionalProperties":false},{"type":"null"}]},"d":{"anyOf":[{"type":"string","enum":["p","q"]},{"type":"null"}]},"e":{"anyOf":[{"type":"string"},{"type":"null"}]},"f":{"anyOf":[{"type":"object","properties":{},"required":[],"additionalProperties":false},{"type":"null"}]}},"required":["a","b","c","d","e","f"],"additionalProperties":false}"#),
        (Os, r#"{"type":"object","properties":{"city":{"type":"string","maxLength":80},"days":{"type":"integer"}},"required":["city"]}"#, r#"{"type":"object","properties":{"city":{"type":"string","description":"At most 80 characters."},"days":{"type":["integer","null"]}},"required":["city","days"],"additionalProperties":false}"#),
        (Os, WORDS, r#"{"type":"string","description":"A \"name\". At least 1 characters. At most 80 characters. Format: uri-reference. Default: \"x\\\\y\"."}"#),
        (An, WORDS, r#"{"type":"string","description":"A \"name\". At least 1 characters. At most 80 characters. Format: uri-reference.","default":"x\\y"}"#),
        (Gm, WORDS, r#"{"type":"string","description":"A \"name\". Format: uri-reference.","minLength":1,"maxLength":80,"default":"x\\y"}"#),
        (An, r#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":255},"minItems":2,"uniqueItems":true}"#, r#"{"type":"array","items":{"type":"integer","description":"At least 0. At most 255."},"description":"At least 2 items. Items must be unique."}"#),
        (Gm, GEMINI, r#"{"type":"object","properties":{"a":{"type":"object","properties":{"k":{"enum":["v"],"description":"K.","type":"string"}},"required":["k"],"description":"Outer.","nullable":true,"propertyOrdering":["k"]},"b":{"type":"integer","format":"int64","nullable":true},"c":{"type":"string","description":"Format: email."}},"required":[],"propertyOrdering":["a","b","c"]}"#),
        (Gm, r#"{"type":["string","null"]}"#, r#"{"type":"string","nullable":true}"#),
        (Gm, "{ \"type\" : [ \"string\" , \"null\" ] }", r#"{"type":"string","nullable":true}"#),
        (Gm, MAP, r#"{"type":"object","properties":{"cards":{"type":"array","items":{"type":"object","properties":{"meta":{"type":"object","description":"Any keys, each with a value of: {\"type\":\"string\"}."}},"required":["meta"],"propertyOrdering":["meta"]}}},"required":["cards"],"propertyOrdering":["cards"]}"#),
        // A map's values, and the other keys of an object with a flattened map, in words; a
        // description of its own goes first.
        (Gm, r#"{"type":"object","description":"Tags.","additionalProperties":{"type":"integer","minimum":0}}"#, r#"{"type":"object","description":"Tags. Any keys, each with a value of: {\"type\":\"integer\",\"minimum\":0}."}"#),
        (Gm, r#"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{}}"#, r#"{"type":"object","properties":{"a":{"type":"string"}},"description":"Other keys, each with any value.","propertyOrdering":["a"]}"#),
        (Gm, r#"{"type":"object","properties":{},"additionalProperties":false}"#, r#"{"type":"object","properties":{},"propertyOrdering":[]}"#),
        (An, r#"{"type":"string","pattern":"^a\\\\b$"}"#, r#"{"type":"string","pattern":"^a\\\\b$"}"#),
        (Gm, "true", "true"),
        (Dialect::Standard, r#"{ "type":"object" }"#, r#"{"type":"object"}"#),
        // A default the description states already is not said twice.
        (Os, r#"{"type":"integer","description":"How many. Default: 5","default":5}"#, r#"{"type":"integer","description":"How many. Default: 5"}"#),
        (Os, r#"{"type":"integer","description":"How many.","default":5}"#, r#"{"type":"integer","description":"How many. Default: 5."}"#),
    ];

    #[test]
    fn dialects_of_the_const_rewrites_examples() {
        for &(dialect, standard, expected) in REWRITES {
            let rewritten = rewritten(standard, dialect);
            assert_eq!(
                rewritten,
                Ok(expected.to_owned()),
                "{dialect:?}: {standard}"
            );
        }
        assert!(rewritten(RECURSIVE, Os).is_ok());
        let any = r#"{"type":"object","properties":{"v":{"description":"Anything."}}}"#;
        assert_eq!(
            rewrite_text(any, Os).unwrap_err().to_string(),
            "OpenAI strict mode cannot take an arbitrary JSON value (`serde_json::Value`): every schema needs a type, at `v`; use a concrete type, or drop `strict`"
        );
    }

    #[test]
    fn what_a_dialect_cannot_express_is_an_error_with_a_path() {
        let values: Vec<String> = (0..1001).map(|i| format!("\"v{i}\"")).collect();
        let many = format!(r#"{{"type":"string","enum":[{}]}}"#, values.join(","));
        assert!(rewritten(&many, An).is_ok());
        let mut deep = String::from(r#"{"type":"string"}"#);
        for _ in 0..11 {
            deep = format!(r#"{{"type":"object","properties":{{"x":{deep}}},"required":["x"]}}"#);
        }
        // Paths are cut at 200 bytes, between characters.
        let key = "é".repeat(60);
        let object = r#""type":"object","properties""#;
        let long = format!(r#"{{{object}:{{"{key}":{{{object}:{{"{key}":{{}}}}}}}}}}"#);
        let cut = format!("{key}.{}", "é".repeat(39));
        #[rustfmt::skip]
        let errors = [
            (Os, MAP, Rule::Map, "cards[].meta"),
            (An, MAP, Rule::Map, "cards[].meta"),
            (An, RECURSIVE, Rule::Recursive, "n"),
            (An, r#"{"type":"string","pattern":"^\\bword\\b$"}"#, Rule::Pattern, ""),
            (An, r#"{"type":"string","pattern":"(?=a)"}"#, Rule::Pattern, ""),
            (Os, &deep, Rule::TooDeep, "x.x.x.x.x.x.x.x.x.x"),
            (Os, &many, Rule::TooManyEnumValues, ""),
            (Os, &long, Rule::AnyValue, &cut),
        ];
        for (dialect, standard, rule, path) in errors {
            let error = Err((rule, path.to_owned()));
            assert_eq!(
                rewritten(standard, dialect),
                error,
                "{dialect:?}: {standard}"
            );
        }
    }

    #[test]
    fn text_that_is_not_a_schema_is_an_error_not_a_panic() {
        let many: Vec<String> = (0..50).map(|i| format!("\"k{i}\":1")).collect();
        #[rustfmt::skip]
        let cases = [
            String::new(), "{".to_owned(), "[1,2]".to_owned(), r#"{"properties":5}"#.to_owned(),
            r#"{"type":"object","properties":{"a":7}}"#.to_owned(),
            r#"{"anyOf":{"type":"null"}}"#.to_owned(), r#"{"required":"a"}"#.to_owned(),
            r#"{"type":5}"#.to_owned(), format!("{{{}}}", many.join(",")), "[".repeat(10_000),
            format!("{}{}", r#"{"items":"#.repeat(200), "}".repeat(200)),
            format!("{}{}", r#"{"items":"#.repeat(100_000), "}".repeat(100_000)),
        ];
        for case in cases {
            for dialect in Dialect::ALL {
                let not_a_schema = Err((Rule::NotASchema, String::new()));
                assert_eq!(rewritten(&case, dialect), not_a_schema, "{case}");
            }
        }
    }
}
