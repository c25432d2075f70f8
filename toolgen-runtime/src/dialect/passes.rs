//! The dialect rewrite as small passes over the schema tree (schemars' transforms are the
//! model). [`write()`] walks the tree once, from the root down: at each schema object it runs the
//! dialect's passes in order, each doing one thing to that object, then goes into the schemas
//! inside it (properties, items, branches, definitions). What a pass adds goes after the
//! object's own members, in the order the passes run.
//!
//! | pass | dialects | what it does |
//! |---|---|---|
//! | [`collapse_nullable`] | Gemini | `{"anyOf":[T,{"type":"null"}]}` becomes `T`, nullable |
//! | [`wrap_null_object`] | OpenAI strict | an object whose `type` has `"null"` becomes `{"anyOf":[object,{"type":"null"}]}` |
//! | [`optional_nullable`] | OpenAI strict | each optional property admits `null` (a widened `type`, a `null` branch, or wrapped) |
//! | [`words`] | all | keywords the dialect has no grammar for are said in the description ([`Rules::in_words`]) or left out |
//! | [`strict_objects`] | OpenAI, Anthropic strict | `required` lists every property (OpenAI); `additionalProperties: false` |
//! | [`any_of_only`] | OpenAI, Anthropic strict, Gemini | `oneOf` is `anyOf` (and said in words) |
//! | [`gemini_types`] | Gemini | one `type` and `nullable`, `const` as a one-value `enum`, `propertyOrdering` |
//!
//! What a dialect cannot express at all is found before, by [`super::check`]: the passes write
//! only schemas the dialect can take.

use super::Dialect;
use super::json::{Json, find, has_type, is_null_schema, keys, null_schema, string};
use super::rules::Rules;

/// What the passes at one schema object tell each other.
#[derive(Default)]
pub(crate) struct Node {
    /// Gemini: a description that replaces the object's own (the one of the
    /// `{"anyOf":[T,{"type":"null"}]}` it was collapsed from).
    description: Option<String>,
    /// Gemini: write `nullable: true`.
    nullable: bool,
}

/// A pass: what it does to one schema object.
pub(crate) type Pass = fn(&mut Json, &mut Node, Dialect);

/// `schema` written in `dialect` (one the dialect can express: see [`super::check`]).
pub(crate) fn write(schema: &Json, dialect: Dialect) -> Json {
    let mut tree = schema.clone();
    walk(&mut tree, Rules::of(dialect).passes, dialect);
    tree
}

/// Runs `passes` on `node`, then on the schemas inside it.
fn walk(node: &mut Json, passes: &[Pass], dialect: Dialect) {
    if !matches!(node, Json::Object(_)) {
        return;
    }
    let mut state = Node::default();
    for pass in passes {
        pass(node, &mut state, dialect);
    }
    let Json::Object(members) = node else {
        return;
    };
    for (key, value) in members {
        match key.as_str() {
            "properties" | "$defs" => {
                if let Json::Object(schemas) = value {
                    for (_, schema) in schemas {
                        walk(schema, passes, dialect);
                    }
                }
            }
            "items" => walk(value, passes, dialect),
            "anyOf" | "oneOf" | "allOf" => {
                if let Json::Array(branches) = value {
                    for branch in branches {
                        walk(branch, passes, dialect);
                    }
                }
            }
            _ => {}
        }
    }
}

/// What the rewrite reads off a schema object.
pub(crate) struct Shape<'a> {
    pub(crate) keywords: &'a [(String, Json)],
    pub(crate) ty: Option<&'a Json>,
    pub(crate) props: Option<&'a Json>,
    pub(crate) required: Option<&'a Json>,
    pub(crate) additional: Option<&'a Json>,
    /// Its `anyOf`, or else its `oneOf`.
    pub(crate) any_of: Option<&'a Json>,
    /// It has `properties`, or the type `object`.
    pub(crate) is_object: bool,
}

impl<'a> Shape<'a> {
    pub(crate) fn of(keywords: &'a [(String, Json)]) -> Shape<'a> {
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

    pub(crate) fn get(&self, key: &str) -> Option<&'a Json> {
        find(self.keywords, key)
    }

    fn any_of_branches(&self) -> &'a [Json] {
        self.any_of.map(Json::items).unwrap_or_default()
    }

    /// Gemini: `T` of `{"anyOf":[T,{"type":"null"}]}` (a `description` beside it allowed).
    pub(crate) fn nullable_one(&self) -> Option<&'a Json> {
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

    /// OpenAI strict: how a schema that must admit `null` (`nullable`: an optional property)
    /// does, by a widened type or an `anyOf` branch; objects (and enums, consts, references) are
    /// wrapped in an `anyOf` with `null`, and so are objects whose `type` has `"null"`, needed or
    /// not.
    fn null(&self, nullable: bool) -> Null {
        let plain = self.get("enum").is_none() && self.get("const").is_none();
        let can_widen = self.ty.is_some() && !self.is_object && plain && self.any_of.is_none();
        let can_add_branch = self.any_of.is_some() && self.ty.is_none() && plain;
        // `"type":"null"` admits `null` as much as a type array with it does.
        let type_has_null = has_type(self.ty, "null");
        let has_null = type_has_null || self.any_of_branches().iter().any(is_null_schema);
        let null_object = self.is_object && type_has_null;
        match (nullable && !has_null, can_widen, can_add_branch) {
            _ if null_object => Null::Wrap,
            (true, true, _) => Null::Widen,
            (true, false, true) => Null::Branch,
            (true, false, false) => Null::Wrap,
            (false, ..) => Null::Keep,
        }
    }
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

/// The members of a schema object (none for `true` and `false`).
fn members(node: &mut Json) -> Option<&mut Vec<(String, Json)>> {
    match node {
        Json::Object(members) => Some(members),
        _ => None,
    }
}

/// Gemini: `{"anyOf":[T,{"type":"null"}]}` (and a description) is `T`, nullable, described by
/// the description it was collapsed from, if any.
pub(crate) fn collapse_nullable(node: &mut Json, state: &mut Node, _: Dialect) {
    while let Json::Object(keywords) = node {
        let shape = Shape::of(keywords);
        let Some(only) = shape.nullable_one() else {
            return;
        };
        let own = shape.get("description").and_then(Json::as_str);
        state.description = own.map(str::to_owned).or(state.description.take());
        state.nullable = true;
        *node = only.clone();
    }
}

/// OpenAI strict: an object whose `type` has `"null"` is wrapped: `{"anyOf":[object,null]}`.
pub(crate) fn wrap_null_object(node: &mut Json, _: &mut Node, _: Dialect) {
    if let Json::Object(keywords) = node
        && Shape::of(keywords).null(false) == Null::Wrap
    {
        wrap(node);
    }
}

/// `{"anyOf":[node,{"type":"null"}]}`, `"null"` taken out of the node's `type`.
fn wrap(node: &mut Json) {
    let mut inner = std::mem::replace(node, Json::Null);
    if let Some(members) = members(&mut inner) {
        for (key, value) in members.iter_mut() {
            if key == "type"
                && let Json::Array(types) = value
            {
                let others: Vec<Json> = types.iter().filter(|t| !t.is("null")).cloned().collect();
                *value = match <[Json; 1]>::try_from(others) {
                    Ok([one]) => one,
                    Err(others) => Json::Array(others),
                };
            }
        }
    }
    *node = Json::Object(vec![(
        "anyOf".to_owned(),
        Json::Array(vec![inner, null_schema()]),
    )]);
}

/// OpenAI strict: every property is required, so an optional one must admit `null`.
pub(crate) fn optional_nullable(node: &mut Json, _: &mut Node, _: Dialect) {
    let Some(keywords) = members(node) else {
        return;
    };
    let required: Vec<String> = find(keywords, "required")
        .map(|list| {
            list.items()
                .iter()
                .filter_map(Json::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let all_optional = find(keywords, "required").is_none();
    for (key, value) in keywords.iter_mut() {
        if key != "properties" {
            continue;
        }
        let Json::Object(properties) = value else {
            continue;
        };
        for (name, schema) in properties {
            if all_optional || !required.contains(name) {
                admit_null(schema);
            }
        }
    }
}

/// Makes `schema` (an optional property's) admit `null` as [`Shape::null`] says.
fn admit_null(schema: &mut Json) {
    let Json::Object(keywords) = schema else {
        return;
    };
    match Shape::of(keywords).null(true) {
        Null::Keep => {}
        Null::Wrap => wrap(schema),
        Null::Widen => {
            for (key, value) in keywords.iter_mut() {
                if key == "type" {
                    *value = match std::mem::replace(value, Json::Null) {
                        Json::Array(mut types) => {
                            types.push(string("null"));
                            Json::Array(types)
                        }
                        one => Json::Array(vec![one, string("null")]),
                    };
                }
            }
        }
        Null::Branch => {
            for (key, value) in keywords.iter_mut() {
                if matches!(key.as_str(), "anyOf" | "oneOf" | "allOf")
                    && let Json::Array(branches) = value
                {
                    branches.push(null_schema());
                }
            }
        }
    }
}

/// What a dialect does with a keyword.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Action {
    /// Kept as it is.
    Copy,
    /// Kept for a pass to rewrite, or written as it is.
    Special,
    /// Left out; the description says it in words.
    Words,
    /// Left out without a word.
    Drop,
}

fn action(dialect: Dialect, key: &str, value: &Json, ty: Option<&Json>) -> Action {
    let rules = Rules::of(dialect);
    let words_if = |words: bool| if words { Action::Words } else { Action::Copy };
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
        "$ref" | "prefixItems" if rules.drops(key) => Action::Drop,
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

/// What the dialect has no grammar for is said in the description, in keyword order ("At most
/// 80 characters."), or left out; Gemini's map values too, and it has no
/// `additionalProperties` or `$defs`.
pub(crate) fn words(node: &mut Json, state: &mut Node, dialect: Dialect) {
    let Some(keywords) = members(node) else {
        return;
    };
    let rules = Rules::of(dialect);
    let shape = Shape::of(keywords);
    let acts: Vec<Action> = keywords
        .iter()
        .map(|(k, v)| action(dialect, k, v, shape.ty))
        .collect();
    // A dialect without `additionalProperties` (Gemini) says a map's values in words.
    let map_words = |key: &str, value: &Json| {
        key == "additionalProperties" && rules.drops(key) && map_sentence(&shape, value).is_some()
    };
    let sentences: Vec<String> = keywords
        .iter()
        .zip(&acts)
        .filter(|((key, value), act)| {
            (**act == Action::Words && (key != "uniqueItems" || *value == Json::Bool(true)))
                || map_words(key, value)
                || (key == "oneOf" && rules.in_words(key, ""))
        })
        .map(|((key, value), _)| match key.as_str() {
            "additionalProperties" => map_sentence(&shape, value).unwrap_or_default(),
            _ => sentence(key, value),
        })
        .collect();
    let own = state.description.take();
    let mut written = false;
    let kept: Vec<(String, Json)> = keywords
        .iter()
        .zip(&acts)
        .filter_map(|((key, value), act)| {
            let dropped = rules.drops(key);
            match act {
                Action::Copy => Some((key.clone(), value.clone())),
                Action::Special if key == "description" => {
                    written = true;
                    let text = own.as_deref().or(value.as_str());
                    Some((key.clone(), describe(text, &sentences)))
                }
                Action::Special if !dropped => Some((key.clone(), value.clone())),
                _ => None,
            }
        })
        .collect();
    *keywords = kept;
    if !written && (!sentences.is_empty() || own.is_some()) {
        keywords.push((
            "description".to_owned(),
            describe(own.as_deref(), &sentences),
        ));
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
        "oneOf" => return "Exactly one of these.".to_owned(),
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

/// The strict modes close every object: OpenAI lists every property in `required` (optional ones
/// admit `null` already), and both say `additionalProperties: false`.
pub(crate) fn strict_objects(node: &mut Json, _: &mut Node, dialect: Dialect) {
    let Some(keywords) = members(node) else {
        return;
    };
    let all_required = Rules::of(dialect).all_required;
    let shape = Shape::of(keywords);
    let (is_object, has_required) = (shape.is_object, shape.required.is_some());
    let has_additional = shape.additional.is_some();
    let all = keys(shape.props);
    if all_required {
        for (key, value) in keywords.iter_mut() {
            if key == "required" {
                *value = all.clone();
            }
        }
    }
    if all_required && is_object && !has_required {
        keywords.push(("required".to_owned(), all));
    }
    if is_object && !has_additional {
        keywords.push(("additionalProperties".to_owned(), Json::Bool(false)));
    }
}

/// The strict grammars and Gemini's have `anyOf` only: a `oneOf` (`#[tool(one_of)]`, or a
/// hand-written schema's) is written `anyOf`, and [`words`] says "Exactly one of these.".
pub(crate) fn any_of_only(node: &mut Json, _: &mut Node, _: Dialect) {
    if let Some(keywords) = members(node) {
        for (key, _) in keywords.iter_mut() {
            if key == "oneOf" {
                "anyOf".clone_into(key);
            }
        }
    }
}

/// Gemini's schema object: one `type`, with `nullable: true` for a `"null"` in it or a `null`
/// branch; no `const` (a one-value `enum`, of type `string`); `propertyOrdering` for the
/// properties' order.
pub(crate) fn gemini_types(node: &mut Json, state: &mut Node, _: Dialect) {
    let Some(keywords) = members(node) else {
        return;
    };
    let shape = Shape::of(keywords);
    let const_without_type = shape.get("const").is_some() && shape.ty.is_none();
    let ordering = shape.props.is_some().then(|| keys(shape.props));
    for (key, value) in keywords.iter_mut() {
        match key.as_str() {
            "type" => {
                if let Json::Array(types) = value {
                    let others: Vec<Json> =
                        types.iter().filter(|t| !t.is("null")).cloned().collect();
                    state.nullable |= others.len() < types.len();
                    *value = others.into_iter().next().unwrap_or(Json::Null);
                }
            }
            "anyOf" | "oneOf" | "allOf" => {
                if let Json::Array(branches) = value {
                    let before = branches.len();
                    branches.retain(|branch| !is_null_schema(branch));
                    state.nullable |= branches.len() < before;
                }
            }
            "const" => {
                "enum".clone_into(key);
                *value = Json::Array(vec![std::mem::replace(value, Json::Null)]);
            }
            _ => {}
        }
    }
    if const_without_type {
        keywords.push(("type".to_owned(), string("string")));
    }
    if state.nullable {
        keywords.push(("nullable".to_owned(), Json::Bool(true)));
    }
    if let Some(ordering) = ordering {
        keywords.push(("propertyOrdering".to_owned(), ordering));
    }
}
