//! The checks of a JSON Schema value (a [`DynamicTool`](crate::DynamicTool)'s), compiled once
//! beside its parse plan ([`super::schema_plan`]): what a schema says that no serde type stands
//! behind (`type`, `enum`, `const`, `required`, `additionalProperties: false`, unions, `not`)
//! and its keywords ([`Keywords`], the checks derived tools' constraints use), with a union's
//! branch picked by the plan's own picker ([`Union`]) where the value fits none.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::args::{ArgsError, ArgsErrorKind, push_index, push_key};
use super::schema_plan::Union;
use crate::schema::facts::Keywords;
use crate::schema::json_schema::target;

/// How deep values are followed.
const MAX_DEPTH: usize = 128;

/// How many `$ref`s and union branches one check follows in a row without going into the value.
const MAX_HOPS: usize = 128;

/// How many schemas one parse checks values against, at most: a schema whose unions lead back
/// to themselves could otherwise take time exponential in its depth.
const MAX_STEPS: usize = 100_000;

/// The compiled checks of a schema: a node per schema inside it, each compiled once (a `$ref`'s
/// target too, so that one that leads back is a node that names itself).
#[derive(Debug, Default)]
pub(crate) struct SchemaChecks {
    nodes: Vec<Node>,
    /// The node of each schema compiled, by its address inside the root (which outlives the
    /// compilation), for [`SchemaChecks::takes_null`].
    by_address: HashMap<usize, usize>,
}

/// What one schema checks.
#[derive(Debug, Default)]
struct Node {
    /// `false`: no value is allowed.
    never: bool,
    /// The node of its `$ref`'s target, which applies beside its other keywords.
    reference: Option<usize>,
    /// Its `type`s, and the words of its error (`a string or null`).
    types: Option<(Vec<String>, String)>,
    /// Its `enum`, and the words of what it expected (`expected `a` or `b``).
    enumeration: Option<(Vec<Value>, String)>,
    /// Its `const`.
    constant: Option<Value>,
    required: Vec<String>,
    /// Its `properties`' nodes, and their names as an error lists them.
    properties: HashMap<String, usize>,
    known: String,
    additional: Additional,
    prefix: Option<Vec<usize>>,
    items: Option<usize>,
    /// Its keywords ([`Keywords`], without `pattern` and `format`, kept beside), if any.
    keywords: Option<Keywords<'static>>,
    pattern: Option<(Box<str>, Option<regex::Regex>)>,
    format: Option<Box<str>>,
    all_of: Vec<usize>,
    /// Its `anyOf` and `oneOf`, in that order.
    unions: Vec<UnionCheck>,
    not: Option<usize>,
}

/// What a schema says of the properties it does not name.
#[derive(Debug, Default)]
enum Additional {
    /// Anything goes.
    #[default]
    Open,
    /// `additionalProperties: false`.
    Closed,
    /// They follow a schema.
    Schema(usize),
}

/// An `anyOf` (`exactly_one` false) or `oneOf`.
#[derive(Debug)]
struct UnionCheck {
    branches: Vec<usize>,
    exactly_one: bool,
    /// Which branch a value picks out (the plan's picker).
    union: Union,
}

/// A value that breaks its schema: where, why, and what kind of error it is.
struct Failure {
    path: String,
    message: String,
    kind: ArgsErrorKind,
}

impl From<Failure> for ArgsError {
    fn from(failure: Failure) -> ArgsError {
        ArgsError::new(failure.path, failure.message, failure.kind)
    }
}

/// A step of the path to the value being checked.
enum Step<'v> {
    Key(&'v str),
    Index(usize),
}

impl SchemaChecks {
    /// The checks of `root`, a JSON Schema read by `read_schema` of `DynamicTool::new` (its
    /// `$ref`s lead inside it), with its `pattern`s compiled in `patterns`.
    pub(crate) fn compile(root: &Value, patterns: &HashMap<String, regex::Regex>) -> SchemaChecks {
        let mut checks = SchemaChecks::default();
        let mut compiler = Compiler {
            root,
            patterns,
            checks: &mut checks,
        };
        compiler.node(root);
        checks
    }

    /// Checks `value` against the root schema: the first failure, with its path.
    pub(crate) fn check(&self, value: &Value) -> Result<(), ArgsError> {
        let run = Run {
            checks: self,
            steps: std::cell::Cell::new(MAX_STEPS),
        };
        run.check(0, value, &mut Vec::new(), 0, 0)
            .map_err(ArgsError::from)
    }

    /// Whether `schema`, compiled here, accepts `null` (with a budget of its own); `false` for
    /// one not compiled here.
    pub(crate) fn takes_null(&self, schema: &Value) -> bool {
        let Some(&node) = self.by_address.get(&std::ptr::from_ref(schema).addr()) else {
            return false;
        };
        let run = Run {
            checks: self,
            steps: std::cell::Cell::new(MAX_STEPS),
        };
        run.check(node, &Value::Null, &mut Vec::new(), 0, 0).is_ok()
    }
}

/// Compiles a schema's nodes ([`SchemaChecks::compile`]).
struct Compiler<'r, 'c> {
    root: &'r Value,
    patterns: &'c HashMap<String, regex::Regex>,
    checks: &'c mut SchemaChecks,
}

impl Compiler<'_, '_> {
    /// The node of `schema`, compiled once.
    fn node(&mut self, schema: &Value) -> usize {
        let address = std::ptr::from_ref(schema).addr();
        if let Some(&node) = self.checks.by_address.get(&address) {
            return node;
        }
        let index = self.checks.nodes.len();
        self.checks.nodes.push(Node::default());
        self.checks.by_address.insert(address, index);
        let node = self.build(schema);
        if let Some(slot) = self.checks.nodes.get_mut(index) {
            *slot = node;
        }
        index
    }

    fn build(&mut self, schema: &Value) -> Node {
        let mut node = Node::default();
        let Some(keywords) = schema.as_object() else {
            // `true` takes everything, `false` nothing.
            node.never = *schema == Value::Bool(false);
            return node;
        };
        if let Some(reference) = keywords.get("$ref").and_then(Value::as_str)
            && let Some(target) = target(self.root, reference)
        {
            node.reference = Some(self.node(target));
        }
        node.types = match keywords.get("type") {
            Some(Value::String(name)) => types_of([name.as_str()].into_iter()),
            Some(Value::Array(names)) => types_of(names.iter().filter_map(Value::as_str)),
            _ => None,
        };
        if let Some(Value::Array(allowed)) = keywords.get("enum") {
            node.enumeration = Some((allowed.clone(), expected_variants(allowed)));
        }
        node.constant = keywords.get("const").cloned();
        if let Some(Value::Array(names)) = keywords.get("required") {
            node.required = names
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
        }
        if let Some(Value::Object(properties)) = keywords.get("properties") {
            node.known = properties
                .keys()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ");
            for (name, property) in properties {
                let property = self.node(property);
                node.properties.insert(name.clone(), property);
            }
        }
        node.additional = match keywords.get("additionalProperties") {
            Some(Value::Bool(false)) => Additional::Closed,
            Some(schema @ Value::Object(_)) => Additional::Schema(self.node(schema)),
            _ => Additional::Open,
        };
        if let Some(prefix) = keywords.get("prefixItems").and_then(Value::as_array) {
            node.prefix = Some(prefix.iter().map(|s| self.node(s)).collect());
        }
        node.items = keywords.get("items").map(|s| self.node(s));
        self.keywords(keywords, &mut node);
        if let Some(Value::Array(all)) = keywords.get("allOf") {
            node.all_of = all.iter().map(|s| self.node(s)).collect();
        }
        for (keyword, exactly_one) in [("anyOf", false), ("oneOf", true)] {
            if let Some(Value::Array(branches)) = keywords.get(keyword) {
                node.unions.push(UnionCheck {
                    branches: branches.iter().map(|s| self.node(s)).collect(),
                    exactly_one,
                    union: Union::of(self.root, branches),
                });
            }
        }
        node.not = keywords.get("not").map(|s| self.node(s));
        node
    }

    /// `node`'s [`Keywords`], its `pattern` compiled.
    fn keywords(&self, keywords: &Map<String, Value>, node: &mut Node) {
        let read = Keywords::of_schema(keywords);
        node.pattern = read
            .pattern
            .map(|p| (p.into(), self.patterns.get(p).cloned()));
        node.format = read.format.map(Box::from);
        let without_texts = Keywords {
            pattern: None,
            format: None,
            ..read
        };
        if without_texts != Keywords::default() || read.pattern.is_some() || read.format.is_some() {
            node.keywords = Some(without_texts);
        }
    }
}

/// The `type` names `names`, with the words of an error for them; `None` for none.
fn types_of<'a>(names: impl Iterator<Item = &'a str>) -> Option<(Vec<String>, String)> {
    let names: Vec<String> = names.map(str::to_owned).collect();
    if names.is_empty() {
        return None;
    }
    let expected = names
        .iter()
        .map(|name| article(name))
        .collect::<Vec<_>>()
        .join(" or ");
    Some((names, expected))
}

/// What an `enum` of `allowed` expected, as serde words it for a derived tool's enum (its
/// `OneOf`).
fn expected_variants(allowed: &[Value]) -> String {
    let names: Vec<String> = allowed
        .iter()
        .map(|v| {
            format!(
                "`{}`",
                v.as_str().map_or_else(|| v.to_string(), str::to_owned)
            )
        })
        .collect();
    match names.as_slice() {
        [] => "there are no variants".to_owned(),
        [one] => format!("expected {one}"),
        [a, b] => format!("expected {a} or {b}"),
        _ => format!("expected one of {}", names.join(", ")),
    }
}

/// One check of a value, with its budget of steps.
struct Run<'c> {
    checks: &'c SchemaChecks,
    /// How many more schemas this check may check a value against.
    steps: std::cell::Cell<usize>,
}

impl Run<'_> {
    /// Checks `value` against the node `index`; the first failure, with its path.
    fn check<'v>(
        &self,
        index: usize,
        value: &'v Value,
        path: &mut Vec<Step<'v>>,
        depth: usize,
        hops: usize,
    ) -> Result<(), Failure> {
        if depth > MAX_DEPTH {
            return Err(fail(path, "the value nests too deep", ArgsErrorKind::Data));
        }
        // `$ref`s and unions followed without going into the value: a schema that leads back
        // to itself there would never end.
        if hops > MAX_HOPS {
            return Err(fail(
                path,
                "the tool's schema refers to itself without end here",
                ArgsErrorKind::Data,
            ));
        }
        match self.steps.get().checked_sub(1) {
            Some(left) => self.steps.set(left),
            None => {
                return Err(fail(
                    path,
                    "the tool's schema takes too long to check this value against",
                    ArgsErrorKind::Data,
                ));
            }
        }
        let Some(node) = self.checks.nodes.get(index) else {
            return Ok(());
        };
        if let Some(target) = node.reference {
            self.check(target, value, path, depth, hops + 1)?;
        }
        if node.never {
            return Err(fail(path, "no value is allowed here", ArgsErrorKind::Data));
        }
        if let Some((names, expected)) = &node.types
            && !names.iter().any(|name| is_type(value, name))
        {
            let message = format!("invalid type: {}, expected {expected}", unexpected(value));
            return Err(fail(path, &message, ArgsErrorKind::Data));
        }
        if let Some((allowed, expected)) = &node.enumeration
            && !allowed.contains(value)
        {
            // The model's string quoted as serde quotes it (and cut as every argument error's
            // quote is, by `ArgsError::new`).
            let message = match value {
                Value::String(text) => format!("unknown variant `{text}`, {expected}"),
                _ => format!("unknown variant {}, {expected}", shown(value)),
            };
            return Err(fail(path, &message, ArgsErrorKind::Data));
        }
        if let Some(expected) = &node.constant
            && expected != value
        {
            let message = format!("expected {expected}, not {}", shown(value));
            return Err(fail(path, &message, ArgsErrorKind::Data));
        }
        match value {
            Value::Object(map) => self.check_object(node, map, path, depth)?,
            Value::Array(items) => self.check_array(node, items, path, depth)?,
            _ => {}
        }
        if let Some(keywords) = node.keywords {
            check_keywords(node, keywords, value, path)?;
        }
        for &branch in &node.all_of {
            self.check(branch, value, path, depth, hops + 1)?;
        }
        for union in &node.unions {
            self.check_union(union, value, path, depth, hops)?;
        }
        if let Some(not) = node.not
            && self.check(not, value, path, depth, hops + 1).is_ok()
        {
            return Err(fail(
                path,
                "the value is one the schema excludes",
                ArgsErrorKind::Data,
            ));
        }
        Ok(())
    }

    fn check_union<'v>(
        &self,
        union: &UnionCheck,
        value: &'v Value,
        path: &mut Vec<Step<'v>>,
        depth: usize,
        hops: usize,
    ) -> Result<(), Failure> {
        let mut failures = Vec::new();
        let mut passed = 0;
        for (index, &branch) in union.branches.iter().enumerate() {
            match self.check(branch, value, path, depth, hops + 1) {
                Ok(()) => passed += 1,
                Err(failure) => failures.push((index, failure)),
            }
            // Enough to know: one for `anyOf`, two for `oneOf`.
            if passed > usize::from(union.exactly_one) {
                break;
            }
        }
        if passed == 0 {
            // The branch the value picks out (by its JSON type, or by a tag), or the only one:
            // its own error says more, as serde gives the error inside an `Option`'s value or
            // inside the variant a tag names. Looked for only on failure.
            let own = match union.union.pick(value) {
                Some(picked) if union.branches.len() > 1 => {
                    failures.into_iter().find(|(index, _)| *index == picked)
                }
                _ if union.branches.len() == 1 => failures.into_iter().next(),
                _ => None,
            };
            return Err(match own {
                Some((_, failure)) => failure,
                None => fail(
                    path,
                    "the value matches none of the schema's alternatives",
                    ArgsErrorKind::Data,
                ),
            });
        }
        if union.exactly_one && passed > 1 {
            return Err(fail(
                path,
                "the value matches more than one of the schema's alternatives",
                ArgsErrorKind::Data,
            ));
        }
        Ok(())
    }

    fn check_object<'v>(
        &self,
        node: &Node,
        map: &'v Map<String, Value>,
        path: &mut Vec<Step<'v>>,
        depth: usize,
    ) -> Result<(), Failure> {
        for name in &node.required {
            if !map.contains_key(name) {
                let message = format!("missing field `{name}`");
                return Err(fail(path, &message, ArgsErrorKind::Data));
            }
        }
        for (key, member) in map {
            let schema = match node.properties.get(key) {
                Some(&property) => property,
                None => match node.additional {
                    Additional::Closed => {
                        let message =
                            format!("unknown field `{key}`, expected one of {}", node.known);
                        return Err(fail(path, &message, ArgsErrorKind::Data));
                    }
                    Additional::Schema(schema) => schema,
                    Additional::Open => continue,
                },
            };
            path.push(Step::Key(key));
            let result = self.check(schema, member, path, depth + 1, 0);
            path.pop();
            result?;
        }
        Ok(())
    }

    fn check_array<'v>(
        &self,
        node: &Node,
        items: &'v [Value],
        path: &mut Vec<Step<'v>>,
        depth: usize,
    ) -> Result<(), Failure> {
        for (index, item) in items.iter().enumerate() {
            let schema = match node.prefix.as_ref().and_then(|p| p.get(index)) {
                Some(&schema) => Some(schema),
                None => node.items,
            };
            if let Some(schema) = schema {
                path.push(Step::Index(index));
                let result = self.check(schema, item, path, depth + 1, 0);
                path.pop();
                result?;
            }
        }
        Ok(())
    }
}

/// Checks `value` against what `node` states beyond its shape (bounds, `pattern`, `format`,
/// `uniqueItems`: [`Keywords`]), with the checker derived tools' constraints use.
fn check_keywords(
    node: &Node,
    keywords: Keywords<'static>,
    value: &Value,
    path: &[Step<'_>],
) -> Result<(), Failure> {
    let (pattern, regex) = match &node.pattern {
        Some((pattern, regex)) => (Some(&**pattern), regex.as_ref()),
        None => (None, None),
    };
    let keywords = Keywords {
        pattern,
        format: node.format.as_deref(),
        ..keywords
    };
    keywords.check_value(value, regex).map_err(|violation| {
        let mut text = path_text(path);
        violation.push_path(&mut text);
        Failure {
            path: text,
            message: violation.message().to_owned(),
            kind: ArgsErrorKind::Constraint,
        }
    })
}

/// Whether `value` is of the JSON Schema type `name`.
pub(crate) fn is_type(value: &Value, name: &str) -> bool {
    match (name, value) {
        ("object", Value::Object(_))
        | ("array", Value::Array(_))
        | ("string", Value::String(_))
        | ("number", Value::Number(_))
        | ("boolean", Value::Bool(_))
        | ("null", Value::Null) => true,
        ("integer", Value::Number(number)) => {
            number.is_i64() || number.is_u64() || number.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// A type's name as serde writes what it expected: `a string`, `an integer`.
fn article(name: &str) -> String {
    match name {
        "object" => "an object".to_owned(),
        "array" => "a list".to_owned(),
        "integer" => "an integer".to_owned(),
        "null" => "null".to_owned(),
        "boolean" => "a boolean".to_owned(),
        other => format!("a {other}"),
    }
}

/// How long a quoted value may be in a message.
const MAX_SHOWN: usize = 64;

/// A value as serde describes an unexpected one: `integer \`7\``, `string "x"`.
pub(crate) fn unexpected(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) if n.is_f64() => format!("floating point `{n}`"),
        Value::Number(n) => format!("integer `{n}`"),
        Value::String(_) => format!("string {}", shown(value)),
        Value::Array(_) => "sequence".to_owned(),
        Value::Object(_) => "map".to_owned(),
    }
}

/// A value quoted for a message, cut at [`MAX_SHOWN`] characters.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(MAX_SHOWN) {
        Some((end, _)) => format!(
            "{}… ({} characters)",
            text.get(..end).unwrap_or_default(),
            text.chars().count()
        ),
        None => text,
    }
}

/// A failure at `path`.
fn fail(path: &[Step<'_>], message: &str, kind: ArgsErrorKind) -> Failure {
    Failure {
        path: path_text(path),
        message: message.to_owned(),
        kind,
    }
}

/// `path` as an argument error writes it.
fn path_text(path: &[Step<'_>]) -> String {
    let mut text = String::new();
    for step in path {
        match step {
            Step::Key(key) => push_key(&mut text, key),
            Step::Index(index) => push_index(&mut text, *index),
        }
    }
    text
}
