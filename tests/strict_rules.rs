//! A checker of the strict grammars' documented rules, written from the providers' documentation
//! and independent of the rewrite in `toolgen-runtime/src/dialect/`, run over every strict
//! schema toolgen emits: the strict consts of the strict tools, and the strict dialects of every
//! other example and test tool that has them. Each dialect is also a valid JSON Schema 2020-12.
//!
//! - OpenAI, <https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>:
//!   root is an object (not `anyOf`); every object has `additionalProperties: false` and lists
//!   all its properties in `required`; the keywords are the supported ones; `format` is one of
//!   the supported formats; limits of 5000 properties, 10 levels of nesting, 1000 enum values,
//!   120,000 characters of names and enum values.
//! - Anthropic, <https://docs.claude.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations>:
//!   `additionalProperties: false` on every object; no recursion (`$ref`); no numerical or
//!   string-length constraints; `minItems` 0 or 1 only; the supported formats; no backreferences,
//!   lookaround or word boundaries in patterns.

#[path = "../examples/seed_tools/mod.rs"]
mod seed_tools;

mod common;
mod dialect_check;

use serde_json::{Map, Value, json};
use toolgen::{Dialect, dialect_schema};

use seed_tools::SEEDS;

const OPENAI_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "enum",
    "const",
    "description",
    "title",
    "$ref",
    "$defs",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
];

const OPENAI_FORMATS: &[&str] = &[
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

const ANTHROPIC_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "allOf",
    "enum",
    "const",
    "description",
    "title",
    "default",
    "pattern",
    "format",
    "minItems",
];

const ANTHROPIC_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

const TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

/// What the walk counts for OpenAI's limits.
#[derive(Default)]
struct Totals {
    properties: usize,
    enum_values: usize,
    text: usize,
    depth: usize,
}

/// The rule violations of `schema` under `dialect`'s strict grammar, each with its path.
fn violations(schema: &Value, dialect: Dialect) -> Vec<String> {
    let mut found = Vec::new();
    let Some(root) = schema.as_object() else {
        return vec!["root: not an object schema".to_owned()];
    };
    if root.get("type") != Some(&json!("object")) {
        found.push("root: the root's type must be \"object\"".to_owned());
    }
    if root.contains_key("anyOf") {
        found.push("root: no `anyOf` at the root".to_owned());
    }
    let mut totals = Totals::default();
    walk(schema, dialect, "", 0, &mut totals, &mut found);
    if let Some(defs) = root.get("$defs").and_then(Value::as_object) {
        for (name, def) in defs {
            totals.text += name.len();
            walk(
                def,
                dialect,
                &format!("$defs.{name}"),
                0,
                &mut totals,
                &mut found,
            );
        }
    }
    if dialect == Dialect::OpenAiStrict {
        if totals.properties > 5000 {
            found.push(format!("{} properties, more than 5000", totals.properties));
        }
        if totals.depth > 10 {
            found.push(format!("{} levels of objects, more than 10", totals.depth));
        }
        if totals.enum_values > 1000 {
            found.push(format!(
                "{} enum values, more than 1000",
                totals.enum_values
            ));
        }
        if totals.text > 120_000 {
            found.push(format!("{} characters of names and enums", totals.text));
        }
    }
    found
}

fn walk(
    schema: &Value,
    dialect: Dialect,
    path: &str,
    depth: usize,
    totals: &mut Totals,
    found: &mut Vec<String>,
) {
    let at = if path.is_empty() { "root" } else { path };
    let Some(object) = schema.as_object() else {
        found.push(format!("{at}: a schema must be an object"));
        return;
    };
    let (keywords, formats) = match dialect {
        Dialect::OpenAiStrict => (OPENAI_KEYWORDS, OPENAI_FORMATS),
        _ => (ANTHROPIC_KEYWORDS, ANTHROPIC_FORMATS),
    };
    for key in object.keys() {
        let root_defs = path.is_empty() && key == "$defs";
        if !root_defs && !keywords.contains(&key.as_str()) {
            found.push(format!("{at}: keyword `{key}` is not supported"));
        }
    }
    // Every schema says what it is.
    if !["type", "anyOf", "allOf", "enum", "const", "$ref"]
        .iter()
        .any(|k| object.contains_key(*k))
    {
        found.push(format!("{at}: no type"));
    }
    let types: Vec<&str> = match object.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        Some(_) => {
            found.push(format!("{at}: `type` is neither a string nor a list"));
            Vec::new()
        }
        None => Vec::new(),
    };
    for t in &types {
        if !TYPES.contains(t) {
            found.push(format!("{at}: unknown type `{t}`"));
        }
    }
    if let Some(format) = object.get("format").and_then(Value::as_str)
        && !formats.contains(&format)
    {
        found.push(format!("{at}: format `{format}` is not supported"));
    }
    if dialect == Dialect::AnthropicStrict {
        if object.contains_key("$ref") {
            found.push(format!("{at}: recursion (`$ref`) is not supported"));
        }
        if let Some(min) = object.get("minItems")
            && min != &json!(0)
            && min != &json!(1)
        {
            found.push(format!("{at}: minItems {min} (only 0 or 1)"));
        }
        if let Some(pattern) = object.get("pattern").and_then(Value::as_str) {
            for bad in ["\\b", "\\B", "(?=", "(?!", "(?<=", "(?<!", "\\k<"] {
                if pattern.replace("\\\\", "").contains(bad) {
                    found.push(format!("{at}: pattern uses `{bad}`"));
                }
            }
            if (1..=9).any(|n| pattern.replace("\\\\", "").contains(&format!("\\{n}"))) {
                found.push(format!("{at}: pattern has a backreference"));
            }
        }
    }
    if dialect == Dialect::OpenAiStrict && types.contains(&"object") && types.len() > 1 {
        found.push(format!(
            "{at}: a nullable object must be an `anyOf` with `null`, not a type list"
        ));
    }
    let is_object = types.contains(&"object") || object.contains_key("properties");
    let mut depth = depth;
    if is_object {
        depth += 1;
        totals.depth = totals.depth.max(depth);
        if object.get("additionalProperties") != Some(&json!(false)) {
            found.push(format!("{at}: objects need `additionalProperties: false`"));
        }
        let empty = Map::new();
        let properties = object
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        if dialect == Dialect::OpenAiStrict {
            let mut required: Vec<&str> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|list| list.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut keys: Vec<&str> = properties.keys().map(String::as_str).collect();
            required.sort_unstable();
            keys.sort_unstable();
            if required != keys {
                found.push(format!(
                    "{at}: `required` must list every property: {required:?} vs {keys:?}"
                ));
            }
        }
        for (name, property) in properties {
            totals.properties += 1;
            totals.text += name.len();
            let path = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}.{name}")
            };
            walk(property, dialect, &path, depth, totals, found);
        }
    }
    if let Some(values) = object.get("enum").and_then(Value::as_array) {
        totals.enum_values += values.len();
        totals.text += values.iter().map(|v| v.to_string().len()).sum::<usize>();
    }
    if let Some(items) = object.get("items") {
        walk(items, dialect, &format!("{path}[]"), depth, totals, found);
    }
    for key in ["anyOf", "allOf"] {
        if let Some(branches) = object.get(key).and_then(Value::as_array) {
            for branch in branches {
                walk(branch, dialect, path, depth, totals, found);
            }
        }
    }
}

/// Every tool of the examples and tests, by name, with its standard schema and its strict consts.
fn every_tool() -> Vec<(String, &'static str, [Option<&'static str>; 2])> {
    let mut tools: Vec<(String, &'static str, [Option<&'static str>; 2])> = SEEDS
        .iter()
        .flat_map(|seed| seed.tools.iter())
        .map(|tool| {
            (
                tool.name.to_owned(),
                tool.input_schema,
                [
                    (tool.dialect)(Dialect::OpenAiStrict),
                    (tool.dialect)(Dialect::AnthropicStrict),
                ],
            )
        })
        .collect();
    tools.extend(
        common::tools()
            .into_iter()
            .map(|tool| (tool.name.to_owned(), tool.input_schema, [None, None])),
    );
    tools
}

#[test]
fn every_strict_schema_follows_the_documented_rules() {
    let mut checked = [0usize; 2];
    let mut consts = 0;
    for (name, standard, strict) in every_tool() {
        for (i, dialect) in [Dialect::OpenAiStrict, Dialect::AnthropicStrict]
            .into_iter()
            .enumerate()
        {
            let text = match (strict[i], dialect_schema(standard, dialect)) {
                (Some(text), _) => {
                    consts += 1;
                    text.to_owned()
                }
                (None, Ok(text)) => text,
                // What the dialect cannot express is an error (tested with the goldens).
                (None, Err(_)) => continue,
            };
            let schema = common::parse_schema(&name, &text);
            if let Err(error) = jsonschema::draft202012::meta::validate(&schema) {
                panic!("{name} {dialect:?}: not a valid 2020-12 schema: {error}\n{text}");
            }
            let found = violations(&schema, dialect);
            assert!(
                found.is_empty(),
                "{name} {dialect:?} breaks the rules:\n  {}\n{text}",
                found.join("\n  ")
            );
            checked[i] += 1;
        }
    }
    // The seed tools' strict consts: `function_name` and `sum_numbers` for both providers.
    assert_eq!(consts, 4);
    assert!(
        checked[0] > 40 && checked[1] > 40,
        "checked {checked:?} strict schemas"
    );
}

#[test]
fn the_checker_finds_what_each_rule_forbids() {
    let cases = [
        (
            Dialect::OpenAiStrict,
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            "additionalProperties",
        ),
        (
            Dialect::OpenAiStrict,
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": [], "additionalProperties": false}),
            "`required` must list every property",
        ),
        (
            Dialect::OpenAiStrict,
            json!({"type": "object", "properties": {"a": {"type": "string", "maxLength": 3}}, "required": ["a"], "additionalProperties": false}),
            "keyword `maxLength`",
        ),
        (
            Dialect::OpenAiStrict,
            json!({"type": "object", "properties": {"a": {"type": "string", "default": "x"}}, "required": ["a"], "additionalProperties": false}),
            "keyword `default`",
        ),
        (
            Dialect::OpenAiStrict,
            json!({"type": "object", "properties": {"a": {"type": "string", "format": "uri"}}, "required": ["a"], "additionalProperties": false}),
            "format `uri`",
        ),
        (
            Dialect::OpenAiStrict,
            json!({"anyOf": [{"type": "object"}]}),
            "root",
        ),
        (
            Dialect::AnthropicStrict,
            json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 1}}, "additionalProperties": false}),
            "keyword `minimum`",
        ),
        (
            Dialect::AnthropicStrict,
            json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}, "minItems": 2}}, "additionalProperties": false}),
            "minItems 2",
        ),
        (
            Dialect::AnthropicStrict,
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "additionalProperties": false}),
            "recursion",
        ),
        (
            Dialect::AnthropicStrict,
            json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "\\bx"}}, "additionalProperties": false}),
            "pattern uses",
        ),
    ];
    for (dialect, schema, expected) in cases {
        let found = violations(&schema, dialect);
        assert!(
            found.iter().any(|v| v.contains(expected)),
            "{dialect:?} {schema}: expected a violation with {expected:?}, found {found:?}"
        );
    }
    let mut deep = json!({"type": "string"});
    for _ in 0..11 {
        deep = json!({"type": "object", "properties": {"x": deep}, "required": ["x"], "additionalProperties": false});
    }
    assert!(
        violations(&deep, Dialect::OpenAiStrict)
            .iter()
            .any(|v| v.contains("levels"))
    );
}

/// Types whose schemas each dialect may refuse, in the places the build has to find them.
#[allow(dead_code)] // read by the derives, never by the test
mod refused {
    use std::collections::{BTreeMap, HashMap};

    use serde::Deserialize;
    use toolgen::{Tool, ToolSchema};

    #[derive(ToolSchema, Deserialize)]
    pub struct Node {
        pub title: String,
        pub children: Vec<Node>,
    }

    #[derive(ToolSchema, Deserialize)]
    pub struct Card {
        pub front: String,
        pub meta: BTreeMap<String, u32>,
    }

    #[derive(ToolSchema, Deserialize)]
    pub struct Word {
        #[tool(pattern = r"\bword\b")]
        pub word: String,
    }

    /// Word boundaries as the regex crate also writes them (`\<`, `\>`): the derive and the
    /// rewrite read a pattern with one detector, so both refuse these (the rewrite let them
    /// through while the derive had a detector of its own).
    #[derive(ToolSchema, Deserialize)]
    pub struct WordEdges {
        #[tool(pattern = r"^\\b\<word\>$")]
        pub word: String,
    }

    #[derive(ToolSchema, Deserialize)]
    pub struct Inner {
        pub x: f64,
    }

    #[derive(ToolSchema, Deserialize)]
    #[serde(tag = "kind")]
    pub enum Op {
        Add { value: u8 },
        Wrap(Inner),
        Tag { meta: HashMap<String, String> },
    }

    #[derive(ToolSchema, Deserialize)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        Pair((u8, u8)),
        Plain(String),
    }

    #[derive(ToolSchema, Deserialize)]
    pub enum External {
        Any(serde_json::Value),
        Unit,
    }

    macro_rules! deep {
        ($($name:ident => $next:ty;)*) => {$(
            #[derive(ToolSchema, Deserialize)]
            pub struct $name { pub next: $next }
        )*};
    }
    deep! {
        L1 => L2; L2 => L3; L3 => L4; L4 => L5; L5 => L6; L6 => L7; L7 => L8; L8 => L9;
        L9 => L10; L10 => Inner;
    }

    macro_rules! tools {
        ($($name:ident { $($field:tt)* })*) => {$(
            /// A tool.
            #[derive(Tool, Deserialize)]
            pub struct $name { $($field)* }
        )*};
    }
    tools! {
        Tree { tree: Node }
        Cards { cards: Vec<Card> }
        Words { words: Option<Vec<Word>> }
        Edges { edges: Vec<WordEdges> }
        Ops { ops: Vec<Op> }
        Adjacents { a: Adjacent }
        Externals { e: External }
        Deep { first: L1 }
        NotDeep { first: L2 }
        Pair { pair: (u8, String), n: u8 }
        Flattened { name: String, #[serde(flatten)] rest: HashMap<String, String> }
        FlatOp { id: String, #[serde(flatten)] inner: Inner }
        Value { v: Option<serde_json::Value> }
        Obj { m: serde_json::Map<String, serde_json::Value> }
    }

    pub fn tools() -> Vec<crate::common::TestTool> {
        use crate::common::test_tool;
        vec![
            test_tool::<Tree>("Tree"),
            test_tool::<Cards>("Cards"),
            test_tool::<Words>("Words"),
            test_tool::<Edges>("Edges"),
            test_tool::<Ops>("Ops"),
            test_tool::<Adjacents>("Adjacents"),
            test_tool::<Externals>("Externals"),
            test_tool::<Deep>("Deep"),
            test_tool::<NotDeep>("NotDeep"),
            test_tool::<Pair>("Pair"),
            test_tool::<Flattened>("Flattened"),
            test_tool::<FlatOp>("FlatOp"),
            test_tool::<Value>("Value"),
            test_tool::<Obj>("Obj"),
        ]
    }
}

/// What the build decides from the types' facts (whether a strict tool compiles, whether a
/// tool gets Gemini `parameters`) agrees with what the run-time rewrite of the schema text
/// finds, rule and path, for every test tool and for each way a dialect can refuse one.
#[test]
fn the_build_checks_agree_with_the_rewrite() {
    let mut refusals = 0;
    for tool in common::tools().into_iter().chain(refused::tools()) {
        for dialect in [
            Dialect::OpenAiStrict,
            Dialect::AnthropicStrict,
            Dialect::Gemini,
        ] {
            let build = toolgen::__private::first_problem(tool.facts, dialect);
            let rewrite = dialect_schema(tool.input_schema, dialect)
                .err()
                .map(|e| (e.rule(), e.path().to_owned()));
            let name = tool.name;
            match (&build, &rewrite) {
                (None, None) => {}
                (Some((rule, path)), Some((rewritten, at))) => {
                    refusals += 1;
                    assert_eq!(rule, rewritten, "{name} in {dialect:?}: {path} / {at}");
                    // The rewrite names a recursive type's inside by `$defs`; the build by the
                    // field that holds it.
                    if !at.starts_with("$defs") {
                        assert_eq!(path, at, "{name} in {dialect:?}: {rule:?}");
                    }
                }
                _ => panic!(
                    "{name} in {dialect:?}: the build finds {build:?}, the rewrite {rewrite:?}"
                ),
            }
        }
    }
    assert!(refusals >= 20, "only {refusals} refusals checked");
}

/// An adjacently tagged enum's unit variant has no content: its schema's content property is
/// `{"type":"null"}`, optional. OpenAI strict mode makes every property required and an optional
/// one nullable; a schema that is `null` already stays as it is (it was written
/// `"type":["null","null"]`, which is not a JSON Schema: a `type` array's items must differ).
#[test]
fn an_adjacently_tagged_unit_variant_stays_valid_in_strict_mode() {
    #[derive(toolgen::ToolSchema, serde::Deserialize)]
    #[serde(tag = "t", content = "c")]
    #[allow(dead_code)]
    enum Step {
        Stop,
        Move { dx: i32 },
    }
    /// Takes a step.
    #[derive(toolgen::Tool, serde::Deserialize)]
    #[tool(strict)]
    #[allow(dead_code)]
    struct TakeStep {
        step: Step,
    }
    use toolgen::Tool;
    let strict = TakeStep::input_schema(Dialect::OpenAiStrict).expect("a strict schema");
    let schema: Value = serde_json::from_str(strict).expect("JSON");
    if let Err(error) = jsonschema::draft202012::meta::validate(&schema) {
        panic!("not a valid 2020-12 schema: {error}\n{strict}");
    }
    assert_eq!(
        violations(&schema, Dialect::OpenAiStrict),
        Vec::<String>::new()
    );
    let stop = &schema["properties"]["step"]["anyOf"][0];
    pretty_assertions::assert_eq!(
        *stop,
        json!({
            "type": "object",
            "properties": {"t": {"type": "string", "const": "Stop"}, "c": {"type": "null"}},
            "required": ["t", "c"],
            "additionalProperties": false
        })
    );
    // The rewrite of the standard text, and a tool defined at run time from it, agree.
    let standard = TakeStep::input_schema(Dialect::Standard).expect("the standard schema");
    assert_eq!(
        dialect_schema(standard, Dialect::OpenAiStrict).as_deref(),
        Ok(strict)
    );
    let dynamic = toolgen::DynamicTool::new(
        "take_step",
        "Takes a step.",
        serde_json::from_str(standard).expect("JSON"),
    )
    .and_then(toolgen::DynamicTool::strict)
    .expect("a strict tool");
    assert_eq!(dynamic.input_schema(Dialect::OpenAiStrict), Some(strict));
}

/// A structured answer's strict schemas (`Structured<T>`) follow the same documented rules: a
/// tool's input (seed 000's flashcards, seed 001's weather, the content agent's tools), and a
/// nested type whose doc comment is its schema's root `description`. (Seed 004's mind-map
/// operations are recursive, which Anthropic's strict grammar refuses: such a type does not
/// compile as an answer, `tests/ui/structured`.)
#[test]
fn structured_answers_follow_the_documented_rules() {
    use seed_tools::{bridge, flashcards, ghostpen};
    use toolgen::{Route, Structured};

    fn schemas<T: toolgen::ToolSchema + serde::de::DeserializeOwned>(
        answer: &Structured<T>,
    ) -> [(Dialect, String); 2] {
        [Dialect::OpenAiStrict, Dialect::AnthropicStrict].map(|dialect| {
            let text = answer.schema(dialect).expect("a strict answer has both");
            (dialect, text.to_owned())
        })
    }

    let answers = [
        (
            "emit_flashcards",
            schemas(&Structured::<flashcards::EmitFlashcards>::from_tool(
                Route::Native,
            )),
        ),
        (
            "flashcard",
            schemas(&Structured::<flashcards::Flashcard>::new(Route::Native)),
        ),
        (
            "get_weather",
            schemas(&Structured::<bridge::GetWeather>::from_tool(Route::Tool)),
        ),
        (
            "save_to_file",
            schemas(&Structured::<ghostpen::SaveToFile>::from_tool(
                Route::Native,
            )),
        ),
        (
            "track_feedback",
            schemas(&Structured::<ghostpen::TrackFeedback>::from_tool(
                Route::Native,
            )),
        ),
    ];
    for (name, dialects) in answers {
        for (dialect, text) in dialects {
            let schema = common::parse_schema(name, &text);
            jsonschema::draft202012::meta::validate(&schema)
                .unwrap_or_else(|e| panic!("{name} {dialect:?}: not a valid schema: {e}"));
            let found = violations(&schema, dialect);
            assert!(
                found.is_empty(),
                "{name} {dialect:?} breaks the rules:\n  {}\n{text}",
                found.join("\n  ")
            );
        }
    }
}

/// Anthropic's strict dialect, keyword by keyword, against the list Anthropic documents for
/// strict tool use and JSON outputs alike
/// (<https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations>),
/// which reads, under "Supported features":
///
/// - All basic types: object, array, string, integer, number, boolean, null
/// - `enum` (strings, numbers, bools, or nulls only - no complex types)
/// - `const`
/// - `anyOf` and `allOf` (with limitations - `allOf` with `$ref` not supported)
/// - `$ref`, `$def`, and `definitions` (external `$ref` not supported)
/// - `default` property for all supported types
/// - `required` and `additionalProperties` (must be set to `false` for objects)
/// - String formats: `date-time`, `time`, `date`, `duration`, `email`, `hostname`, `uri`,
///   `ipv4`, `ipv6`, `uuid`
/// - Array `minItems` (only values 0 and 1 are supported)
///
/// and under "Not supported": recursive schemas, complex types within enums, external `$ref`,
/// numerical constraints (`minimum`, `maximum`, `multipleOf`, etc.), string constraints
/// (`minLength`, `maxLength`), array constraints beyond `minItems` of 0 or 1,
/// `additionalProperties` set to anything other than `false`.
///
/// `pattern` is taken with the regex subset the same page lists (recursion, maps and
/// unsupported regexes stop the build: `the_build_checks_agree_with_the_rewrite`). The Python
/// SDK's `transform_schema` (anthropic 2.14.0) is stricter than the list: it also moves
/// `default` (and `pattern`, `examples`) into the description; the API takes `default`, so the
/// dialect keeps it, as the list says. A structured answer's Anthropic schema
/// (`output_config.format`) is the same dialect.
#[test]
fn anthropic_strict_keeps_what_anthropic_documents_and_says_the_rest() {
    use toolgen::{Route, Structured, ToolSchema};

    // Each property holds one keyword the standard schema can have, beside its `type`.
    let standard = json!({"type": "object", "properties": {
        "enum": {"type": "string", "enum": ["a", "b"]},
        "const": {"const": "x"},
        "any_of": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "all_of": {"allOf": [{"type": "string"}]},
        "default": {"type": "integer", "default": 5},
        "format": {"type": "string", "format": "duration"},
        "min_items_1": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "nested": {"type": "object", "properties": {"a": {"type": "boolean"}},
            "required": ["a"], "additionalProperties": false},
        "minimum": {"type": "integer", "minimum": 1},
        "maximum": {"type": "integer", "maximum": 9},
        "exclusive_minimum": {"type": "number", "exclusiveMinimum": 0},
        "exclusive_maximum": {"type": "number", "exclusiveMaximum": 1},
        "multiple_of": {"type": "integer", "multipleOf": 2},
        "min_length": {"type": "string", "minLength": 2},
        "max_length": {"type": "string", "maxLength": 80},
        "min_items_2": {"type": "array", "items": {"type": "string"}, "minItems": 2},
        "max_items": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
        "unique_items": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
        "format_unlisted": {"type": "string", "format": "uri-reference"},
        "one_of": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        "examples": {"type": "string", "examples": ["x"]}
    }, "required": ["enum"], "additionalProperties": false});
    let written = dialect_schema(&standard.to_string(), Dialect::AnthropicStrict)
        .expect("Anthropic strict takes it");
    let written: Value = serde_json::from_str(&written).expect("JSON");
    let property = |name: &str| written["properties"][name].clone();

    // Supported: kept as it is.
    for name in [
        "enum",
        "const",
        "any_of",
        "all_of",
        "default",
        "format",
        "min_items_1",
        "nested",
    ] {
        assert_eq!(property(name), standard["properties"][name], "{name}");
    }
    assert_eq!(written["required"], json!(["enum"]));
    assert_eq!(written["additionalProperties"], json!(false));
    // Not supported: left out, and said in the description.
    for (name, keyword, words) in [
        ("minimum", "minimum", "At least 1."),
        ("maximum", "maximum", "At most 9."),
        ("exclusive_minimum", "exclusiveMinimum", "Greater than 0."),
        ("exclusive_maximum", "exclusiveMaximum", "Less than 1."),
        ("multiple_of", "multipleOf", "A multiple of 2."),
        ("min_length", "minLength", "At least 2 characters."),
        ("max_length", "maxLength", "At most 80 characters."),
        ("min_items_2", "minItems", "At least 2 items."),
        ("max_items", "maxItems", "At most 3 items."),
        ("unique_items", "uniqueItems", "Items must be unique."),
        ("format_unlisted", "format", "Format: uri-reference."),
        ("examples", "examples", "Examples: [\"x\"]."),
    ] {
        let schema = property(name);
        assert!(schema.get(keyword).is_none(), "{name}: {schema}");
        assert_eq!(schema["description"], json!(words), "{name}");
    }
    // `oneOf` is not listed: `anyOf`, with the rule in words.
    assert_eq!(
        property("one_of"),
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}],
            "description": "Exactly one of these."})
    );

    // A structured answer's Anthropic schema is the same dialect of the type's schema, `default`
    // kept.
    /// A step.
    #[derive(ToolSchema, serde::Deserialize)]
    #[allow(dead_code)]
    struct Step {
        #[tool(default = 3)]
        tries: u8,
    }
    let answer = Structured::<Step>::new(Route::Native);
    let schema = answer
        .schema(Dialect::AnthropicStrict)
        .expect("a strict answer");
    assert_eq!(
        Ok(schema),
        dialect_schema(&Step::json_schema(), Dialect::AnthropicStrict).as_deref()
    );
    let schema: Value = serde_json::from_str(schema).expect("JSON");
    assert_eq!(schema["properties"]["tries"]["default"], json!(3));
}
