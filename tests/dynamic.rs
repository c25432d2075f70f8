//! Tools defined at run time: their definitions follow the same dialect rules as derived tools
//! (checked tool by tool against the seed tools' own), and their arguments are checked against
//! their schema with JSON-path errors.

#[path = "../examples/seed_tools/mod.rs"]
mod seed_tools;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use toolgen::{ArgsErrorKind, Dialect, DynamicTool, DynamicToolError, Provider};

const PROVIDERS: [Provider; 5] = [
    Provider::Anthropic,
    Provider::OpenAiChat,
    Provider::OpenAiResponses,
    Provider::Gemini,
    Provider::Mcp,
];

#[test]
fn a_seed_tool_rebuilt_at_run_time_has_the_same_definitions() {
    let mut compared = 0;
    for seed in &seed_tools::SEEDS {
        for tool in seed.tools {
            let description = (tool.definition)(Provider::Mcp)["description"]
                .as_str()
                .unwrap()
                .to_owned();
            let schema: Value = serde_json::from_str(tool.input_schema).unwrap();
            let mut dynamic = DynamicTool::new(tool.name, description, schema).unwrap();
            if (tool.dialect)(Dialect::OpenAiStrict).is_some() {
                dynamic = dynamic.strict().unwrap();
            }
            for dialect in [
                Dialect::Standard,
                Dialect::OpenAiStrict,
                Dialect::AnthropicStrict,
                Dialect::Gemini,
            ] {
                assert_eq!(
                    dynamic.input_schema(dialect),
                    (tool.dialect)(dialect),
                    "{} in {dialect:?}",
                    tool.name
                );
            }
            for provider in PROVIDERS {
                let expected = (tool.definition)(provider);
                // Definitions with provider extras (`#[tool(input_example)]`, ...) carry more.
                let mut derived = expected.clone();
                if let Some(object) = derived.as_object_mut() {
                    for extra in [
                        "input_examples",
                        "cache_control",
                        "defer_loading",
                        "outputSchema",
                    ] {
                        object.remove(extra);
                    }
                }
                assert_eq!(
                    dynamic.definition(provider),
                    derived,
                    "{} for {provider}",
                    tool.name
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 5 * 15, "{compared}");
}

fn config_tool() -> DynamicTool {
    DynamicTool::new(
        "move_node",
        "Move a node of the mind map under another.",
        json!({
            "type": "object",
            "properties": {
                "node_id": {"type": "string", "pattern": "^n[0-9]+$"},
                "parent_id": {"type": ["string", "null"]},
                "position": {"type": "integer", "minimum": 0, "maximum": 99},
                "mode": {"type": "string", "enum": ["first", "last"]},
                "tags": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 3, "uniqueItems": true},
                "note": {"$ref": "#/$defs/Note"},
                "when": {"type": "string", "format": "date"}
            },
            "required": ["node_id", "parent_id"],
            "additionalProperties": false,
            "$defs": {
                "Note": {
                    "type": "object",
                    "properties": {"text": {"type": "string", "maxLength": 10}},
                    "required": ["text"]
                }
            }
        }),
    )
    .unwrap()
}

#[test]
fn valid_arguments_come_back_as_values() {
    let tool = config_tool();
    let args = tool
        .parse_args(
            r#"{"node_id": "n7", "parent_id": null, "position": 3, "mode": "last",
                        "tags": ["a", "b"], "note": {"text": "hi"}, "when": "2026-11-26"}"#,
        )
        .unwrap();
    assert_eq!(args["position"], 3);
    assert_eq!(args["parent_id"], Value::Null);
    // Strict mode's nulls for what is not required (and takes no null) are dropped; a required
    // one that takes null stays.
    let args = tool
        .parse_args(r#"{"node_id": "n7", "parent_id": null, "position": null, "note": null}"#)
        .unwrap();
    assert_eq!(args, json!({"node_id": "n7", "parent_id": null}));
    // Encoded twice, and `5.0` for an integer.
    let args = tool
        .parse_value(json!(
            r#"{"node_id": "n1", "parent_id": "n0", "position": 5.0}"#
        ))
        .unwrap();
    assert_eq!(args["node_id"], "n1");
}

#[test]
fn each_broken_rule_is_an_error_at_its_path() {
    let tool = config_tool();
    let cases = [
        (
            r#"{"parent_id": null}"#,
            "",
            "missing field `node_id`",
            ArgsErrorKind::Data,
        ),
        (
            r#"{"node_id": 7, "parent_id": null}"#,
            "node_id",
            "invalid type: integer `7`, expected a string",
            ArgsErrorKind::Data,
        ),
        (
            r#"{"node_id": "x7", "parent_id": null}"#,
            "node_id",
            "must match the pattern `^n[0-9]+$`",
            ArgsErrorKind::Constraint,
        ),
        (
            r#"{"node_id": "n1", "parent_id": 3}"#,
            "parent_id",
            "invalid type: integer `3`, expected a string or null",
            ArgsErrorKind::Data,
        ),
        (
            r#"{"node_id": "n1", "parent_id": null, "position": 100}"#,
            "position",
            "must be at most 99, not 100",
            ArgsErrorKind::Constraint,
        ),
        (
            r#"{"node_id": "n1", "parent_id": null, "position": 1.5}"#,
            "position",
            "invalid type: floating point `1.5`, expected an integer",
            ArgsErrorKind::Data,
        ),
        (
            r#"{"node_id": "n1", "parent_id": null, "mode": "middle"}"#,
            "mode",
            "unknown variant `middle`, expected `first` or `last`",
            ArgsErrorKind::Data,
        ),
        (
            r#"{"node_id": "n1", "parent_id": null, "tags": ["a", ""]}"#,
            "tags[1]",
            "must have at least 1 character, not 0",
            ArgsErrorKind::Constraint,
        ),
        (
            r#"{"node_id": "n1", "parent_id": null, "tags": ["a", "b", "a"]}"#,
            "tags[2]",
            "repeats item 0: the items of this list must all differ",
            ArgsErrorKind::Constraint,
        ),
        (
            r#"{"node_id": "n1", "parent_id": null, "tags": ["a", "b", "c", "d"]}"#,
            "tags",
            "must have at most 3 items, not 4",
            ArgsErrorKind::Constraint,
        ),
        (
            r#"{"node_id": "n1", "parent_id": null, "note": {"text": "far too long"}}"#,
            "note.text",
            "must have at most 10 characters, not 12",
            ArgsErrorKind::Constraint,
        ),
        (
            r#"{"node_id": "n1", "parent_id": null, "when": "26.11.2026"}"#,
            "when",
            "expected a date in RFC 3339 form YYYY-MM-DD, like 2026-11-25",
            ArgsErrorKind::Constraint,
        ),
        (
            r#"{"node_id": "n1", "parent_id": null, "colour": "red"}"#,
            "",
            "unknown field `colour`, expected one of `node_id`, `parent_id`, `position`, `mode`, `tags`, `note`, `when`",
            ArgsErrorKind::Data,
        ),
        (
            r#"{"node_id": "#,
            "node_id",
            "EOF while parsing a value at line 1 column 12",
            ArgsErrorKind::Syntax,
        ),
    ];
    for (text, path, message, kind) in cases {
        let error = tool.parse_args(text).unwrap_err();
        assert_eq!(
            (error.path(), error.message(), error.kind()),
            (path, message, kind),
            "{text}"
        );
    }
}

/// A count keyword written as a whole float (`2.0`, the integer 2 to JSON Schema) is read as
/// that count, as every other bound is: it was not read at all.
#[test]
fn counts_written_as_whole_floats_are_bounds() {
    let tool = DynamicTool::new(
        "tag",
        "Tag it.",
        json!({"type": "object", "properties": {
            "name": {"type": "string", "minLength": 2.0, "maxLength": 4.0},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 1.0},
            "meta": {"type": "object", "minProperties": 1.0}
        }}),
    )
    .unwrap();
    let cases = [
        (
            r#"{"name": "a"}"#,
            "name",
            "must have at least 2 characters, not 1",
        ),
        (
            r#"{"name": "abcde"}"#,
            "name",
            "must have at most 4 characters, not 5",
        ),
        (
            r#"{"tags": ["a", "b"]}"#,
            "tags",
            "must have at most 1 item, not 2",
        ),
        (
            r#"{"meta": {}}"#,
            "meta",
            "must have at least 1 property, not 0",
        ),
    ];
    for (text, path, message) in cases {
        let error = tool.parse_args(text).unwrap_err();
        assert_eq!(
            (error.path(), error.message(), error.kind()),
            (path, message, ArgsErrorKind::Constraint),
            "{text}"
        );
    }
    // A fraction is no count: not read, as before.
    let fraction =
        json!({"type": "object", "properties": {"name": {"type": "string", "minLength": 2.5}}});
    let tool = DynamicTool::new("tag", "Tag it.", fraction).unwrap();
    assert!(tool.parse_args(r#"{"name": "a"}"#).is_ok());
}

#[test]
fn hostile_arguments_are_errors_not_crashes() {
    let tool = DynamicTool::new(
        "tree",
        "A tree.",
        json!({"type": "object", "properties": {"child": {"$ref": "#"}}}),
    )
    .unwrap();
    let mut deep = String::new();
    for _ in 0..100 {
        deep.push_str(r#"{"child":"#);
    }
    deep.push_str("{}");
    for _ in 0..100 {
        deep.push('}');
    }
    assert!(tool.parse_args(&deep).is_ok());
    // Deeper than serde_json reads: its own error.
    let too_deep = "[".repeat(200);
    assert_eq!(
        tool.parse_args(&too_deep).unwrap_err().kind(),
        ArgsErrorKind::Syntax
    );
    // A schema that refers to itself without end is refused as it is followed, not looped on.
    let looping = DynamicTool::new(
        "looping",
        "Loops.",
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
               "$defs": {"A": {"$ref": "#/$defs/A"}}}),
    )
    .unwrap();
    assert!(looping.parse_args(r#"{"a": 1}"#).is_err());
}

#[test]
fn bad_names_and_schemas_are_refused() {
    let object = json!({"type": "object", "properties": {}});
    assert_eq!(
        DynamicTool::new("get weather", "", object.clone()).unwrap_err(),
        DynamicToolError::Name("get weather".to_owned())
    );
    assert!(DynamicTool::new("a".repeat(65), "", object).is_err());
    let error = DynamicTool::new("t", "", json!({"type": "array"})).unwrap_err();
    assert!(
        error.to_string().contains("a tool's input is an object"),
        "{error}"
    );
    let error = DynamicTool::new(
        "t",
        "",
        json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "("}}}),
    )
    .unwrap_err();
    assert!(error.to_string().contains("the pattern `(`"), "{error}");
    let error = DynamicTool::new("t", "", json!({"type": "object", "properties": 3})).unwrap_err();
    assert!(
        error.to_string().contains("shape toolgen does not read"),
        "{error}"
    );
    // A map: Gemini's `parameters` say it in words, as for derived tools; strict mode cannot.
    let map = DynamicTool::new(
        "t",
        "Tags.",
        json!({"type": "object", "properties": {"tags": {"type": "object", "additionalProperties": {"type": "string"}}}}),
    )
    .unwrap();
    let gemini = map.definition(Provider::Gemini);
    assert_eq!(
        gemini["parameters"]["properties"]["tags"]["description"],
        r#"Any keys, each with a value of: {"type":"string"}."#
    );
    assert!(matches!(map.strict(), Err(DynamicToolError::Dialect(_))));
    // A schema Gemini's `parameters` cannot take goes as `parametersJsonSchema`.
    let tuple = DynamicTool::new(
        "t",
        "A pair.",
        json!({"type": "object", "properties": {"pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}}}),
    )
    .unwrap();
    let gemini = tuple.definition(Provider::Gemini);
    assert!(gemini.get("parametersJsonSchema").is_some(), "{gemini}");
}

#[test]
fn costly_or_unreadable_schemas_cannot_hang_or_mislead() {
    // Unions that lead back to the root, doubling at every level: checked within a budget.
    let doubling = DynamicTool::new(
        "doubling",
        "Doubles.",
        json!({"type": "object", "anyOf": [{"$ref": "#"}, {"$ref": "#"}]}),
    )
    .unwrap();
    let error = doubling.parse_args("{}").unwrap_err();
    assert_eq!(error.kind(), ArgsErrorKind::Data, "{error}");
    let mut chain = serde_json::Map::new();
    for i in 0..40 {
        chain.insert(
            format!("D{i}"),
            json!({"anyOf": [{"$ref": format!("#/$defs/D{}", i + 1)}, {"$ref": format!("#/$defs/D{}", i + 1)}]}),
        );
    }
    chain.insert("D40".to_owned(), json!({"type": "integer"}));
    let chained = DynamicTool::new(
        "chained",
        "Chains.",
        json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/D0"}}, "$defs": chain}),
    )
    .unwrap();
    // The first branch that passes is enough: a valid value is read at once.
    assert_eq!(chained.parse_args(r#"{"n": 3}"#).unwrap(), json!({"n": 3}));
    assert!(chained.parse_args(r#"{"n": "x"}"#).is_err());

    // Keywords the checker does not read are refused, not ignored; so is a `$ref` to nothing.
    for schema in [
        json!({"type": "object", "patternProperties": {"^x": {"type": "string"}}}),
        json!({"type": "object", "properties": {"a": {"if": {"type": "string"}}}}),
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}),
        json!({"type": "object", "properties": {"a": {"$ref": "other.json#/A"}}}),
    ] {
        let error = DynamicTool::new("t", "", schema.clone()).unwrap_err();
        assert!(
            matches!(error, DynamicToolError::Schema(_)),
            "{schema}: {error}"
        );
    }
    // A property named like a keyword is only a name.
    assert!(
        DynamicTool::new(
            "t",
            "",
            json!({"type": "object", "properties": {"if": {"type": "string"}}})
        )
        .is_ok()
    );

    // Keywords beside a `$ref` apply too.
    let capped = DynamicTool::new(
        "capped",
        "",
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/S", "maxLength": 3}},
               "$defs": {"S": {"type": "string"}}}),
    )
    .unwrap();
    assert_eq!(
        capped.parse_args(r#"{"a": "long"}"#).unwrap_err().message(),
        "must have at most 3 characters, not 4"
    );
    assert_eq!(
        capped.parse_args(r#"{"a": 4}"#).unwrap_err().message(),
        "invalid type: integer `4`, expected a string"
    );
}

#[test]
fn strict_nulls_inside_union_branches_are_dropped() {
    // OpenAI strict mode sends `null` for the optional fields of the branch it writes.
    let tool = DynamicTool::new(
        "shape",
        "A shape.",
        json!({"type": "object", "properties": {"shape": {"anyOf": [
            {"type": "object", "properties": {"radius": {"type": "number"}, "label": {"type": "string"}},
             "required": ["radius"], "additionalProperties": false},
            {"type": "object", "properties": {"side": {"type": "number"}, "label": {"type": "string"}},
             "required": ["side"], "additionalProperties": false}
        ]}}, "required": ["shape"]}),
    )
    .unwrap()
    .strict()
    .unwrap();
    let args = tool
        .parse_args(r#"{"shape": {"side": 2, "label": null}}"#)
        .unwrap();
    assert_eq!(args, json!({"shape": {"side": 2}}));
    // A required `null` stays, and is the error it is.
    assert!(tool.parse_args(r#"{"shape": {"side": null}}"#).is_err());
}

#[test]
fn defaults_are_filled_where_the_model_leaves_them_out() {
    let tool = DynamicTool::new(
        "plan",
        "Plan a trip.",
        json!({"type": "object", "properties": {
            "city": {"type": "string"},
            "days": {"type": "integer", "minimum": 1, "default": 3},
            "hotel": {"anyOf": [
                {"type": "object", "properties": {
                    "stars": {"type": "integer", "default": 4},
                    "near": {"type": "string"}
                }},
                {"type": "null"}
            ]},
            "legs": {"type": "array", "items": {"$ref": "#/$defs/Leg"}},
            "mode": {"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "car"}, "seats": {"type": "integer", "default": 5}}, "required": ["kind"]},
                {"type": "object", "properties": {"kind": {"const": "train"}, "class": {"type": "integer", "default": 2}}, "required": ["kind"]}
            ]},
            "either": {"anyOf": [
                {"type": "object", "properties": {"a": {"type": "integer", "default": 1}}},
                {"type": "object", "properties": {"b": {"type": "integer", "default": 2}}}
            ]}
        }, "required": ["city"], "$defs": {"Leg": {"type": "object", "properties": {
            "to": {"type": "string"},
            "by": {"type": "string", "enum": ["car", "train"], "default": "train"}
        }, "required": ["to"]}}}),
    )
    .unwrap();
    let args = tool
        .parse_args(
            r#"{"city": "Riga", "hotel": {}, "legs": [{"to": "Tartu"}, {"to": "Vilnius", "by": "car"}],
                "mode": {"kind": "train"}, "either": {}}"#,
        )
        .unwrap();
    assert_eq!(
        args,
        json!({
            "city": "Riga",
            "days": 3,
            // An `Option`'s object: the one branch an object can be.
            "hotel": {"stars": 4},
            "legs": [{"to": "Tartu", "by": "train"}, {"to": "Vilnius", "by": "car"}],
            // A tagged enum: the variant its tag names.
            "mode": {"kind": "train", "class": 2},
            // Branches the value does not tell apart: nothing is filled.
            "either": {}
        })
    );
    // A `null` for a property with a default is the default, required or not (strict mode sends
    // `null` for what the model leaves out).
    let args = tool
        .parse_args(r#"{"city": "Riga", "days": null, "hotel": null}"#)
        .unwrap();
    assert_eq!(args, json!({"city": "Riga", "days": 3, "hotel": null}));
    // A default is checked as the model's value would be: a wrong one in the schema shows.
    let broken = DynamicTool::new(
        "broken",
        "A wrong default.",
        json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 5, "default": 1}}}),
    )
    .unwrap();
    let error = broken.parse_args("{}").unwrap_err();
    assert_eq!(
        (error.path(), error.kind()),
        ("n", ArgsErrorKind::Constraint)
    );
}

#[test]
fn repeated_keys_are_refused_as_derived_tools_refuse_them() {
    let tool = config_tool();
    for (text, path) in [
        (r#"{"node_id": "a", "node_id": "b"}"#, ""),
        (
            r#"{"node_id": "a", "parent_id": null, "note": {"text": "x", "text": "y"}}"#,
            "note",
        ),
    ] {
        let error = tool.parse_args(text).unwrap_err();
        assert_eq!(
            (error.path(), error.kind()),
            (path, ArgsErrorKind::Data),
            "{text}"
        );
        assert!(error.message().starts_with("duplicate field `"), "{error}");
        // Encoded twice, a JSON string holding the object: the same error.
        let error = tool
            .parse_value(Value::String(text.to_owned()))
            .unwrap_err();
        assert!(error.message().starts_with("duplicate field `"), "{error}");
    }
}

/// A schema that names a `$defs` entry only to share it (as pydantic and zod write nested
/// models) is not a recursive type: the dialects that take no `$ref` (Anthropic strict mode,
/// Gemini `parameters`) get it with each reference written out. A reference that leads back is
/// still refused, by its name.
#[test]
fn shared_definitions_are_written_out_for_the_dialects_without_references() {
    let schema = json!({
        "type": "object",
        "properties": {
            "from": {"$ref": "#/$defs/Point", "description": "Where to start."},
            "to": {"$ref": "#/$defs/Point"}
        },
        "required": ["from", "to"],
        "$defs": {"Point": {
            "type": "object",
            "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
            "required": ["x", "y"],
            "description": "A point."
        }}
    });
    let tool = DynamicTool::new("draw_line", "Draws a line.", schema)
        .and_then(DynamicTool::strict)
        .expect("a strict tool: nothing in it is recursive");
    let point = |description: &str| {
        json!({
            "type": "object",
            "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
            "required": ["x", "y"],
            "description": description,
            "additionalProperties": false
        })
    };
    let anthropic: Value =
        serde_json::from_str(tool.input_schema(Dialect::AnthropicStrict).unwrap()).unwrap();
    assert_eq!(
        anthropic,
        json!({
            "type": "object",
            "properties": {"from": point("Where to start."), "to": point("A point.")},
            "required": ["from", "to"],
            "additionalProperties": false
        })
    );
    // Gemini gets `parameters` (an OpenAPI subset without references), not the JSON Schema.
    let gemini = tool.definition(Provider::Gemini);
    assert_eq!(
        gemini["parameters"]["properties"]["to"]["required"],
        json!(["x", "y"])
    );
    assert_eq!(gemini.get("parametersJsonSchema"), None);
    // OpenAI strict mode takes references: they stay.
    let openai = tool.input_schema(Dialect::OpenAiStrict).unwrap();
    assert!(openai.contains(r##""$ref":"#/$defs/Point""##), "{openai}");
    // Arguments are checked against the schema as written.
    let error = tool
        .parse_args(r#"{"from": {"x": 0, "y": 0}, "to": {"x": 1}}"#)
        .unwrap_err();
    assert_eq!(error.path(), "to");

    let tree = json!({
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "required": ["root"],
        "$defs": {"Node": {
            "type": "object",
            "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
            "required": ["kids"]
        }}
    });
    let error = DynamicTool::new("plant", "Plants a tree.", tree)
        .and_then(DynamicTool::strict)
        .unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("Anthropic strict mode cannot take a recursive type"),
        "{message}"
    );
}

/// `anyOf` and `oneOf` side by side: the dialects that write `oneOf` as `anyOf` cannot (they
/// wrote the key twice, which is not JSON a provider reads); the tool still is one, with the
/// standard schema.
#[test]
fn any_of_beside_one_of_has_no_strict_or_gemini_form() {
    let schema = json!({"type": "object", "properties": {
        "x": {"anyOf": [{"type": "string"}, {"type": "integer"}], "oneOf": [{"type": "string"}]}
    }});
    let tool = DynamicTool::new("pick", "Picks one.", schema.clone()).expect("a tool");
    assert_eq!(tool.input_schema(Dialect::Gemini), None);
    assert!(
        tool.definition(Provider::Gemini)
            .get("parametersJsonSchema")
            .is_some()
    );
    assert_eq!(tool.parse_args(r#"{"x": "a"}"#).unwrap(), json!({"x": "a"}));
    let error = tool.strict().unwrap_err().to_string();
    assert!(
        error.contains("not a JSON Schema of the shapes toolgen writes"),
        "{error}"
    );
}

/// The branch whose error a value that fits no branch of a union gets is the one the parse plan
/// reads it by (one picker, `Union` in `parse/schema_plan.rs`). The checker had a picker of its
/// own, which disagreed with the plan's in three ways; each gave "matches none" here.
#[test]
fn a_union_picks_the_branch_the_plan_reads() {
    let union = |branches: Value| {
        DynamicTool::new(
            "draw",
            "Draw a shape.",
            json!({"type": "object", "properties": {"shape": {"anyOf": branches}}}),
        )
        .unwrap()
    };
    let number = |name: &str| json!({"type": "object", "properties": {name: {"type": "number"}}, "required": [name]});
    // A tagged enum whose variants have another property of one value: the tag alone names the
    // variant (the checker's picker wanted every such property to match).
    let tagged = union(json!([
        {"type": "object", "properties": {"kind": {"const": "circle"}, "version": {"const": 1},
            "radius": {"type": "number"}}, "required": ["kind", "radius"]},
        {"type": "object", "properties": {"kind": {"const": "square"}, "version": {"const": 1},
            "side": {"type": "number"}}, "required": ["kind", "side"]}
    ]));
    // An externally tagged enum: its key names the variant (the checker's picker did not know it).
    let external = union(json!([
        {"type": "object", "properties": {"circle": number("radius")}, "required": ["circle"]},
        {"type": "object", "properties": {"square": number("side")}, "required": ["square"]}
    ]));
    // A branch of values (`enum`) beside an object: an object value can only mean the object
    // (the checker's picker read a branch without `type` as taking anything).
    let keyword = union(json!([
        {"enum": ["auto"]},
        {"type": "object", "properties": {"n": {"type": "integer"}}}
    ]));
    let cases = [
        (
            &tagged,
            r#"{"shape": {"kind": "circle", "version": 2, "radius": 1}}"#,
            "shape.version",
            "expected 1, not 2",
        ),
        (
            &external,
            r#"{"shape": {"circle": {"radius": "wide"}}}"#,
            "shape.circle.radius",
            r#"invalid type: string "wide", expected a number"#,
        ),
        (
            &keyword,
            r#"{"shape": {"n": "x"}}"#,
            "shape.n",
            r#"invalid type: string "x", expected an integer"#,
        ),
    ];
    for (tool, text, path, message) in cases {
        let error = tool.parse_args(text).unwrap_err();
        assert_eq!(
            (error.path(), error.message(), error.kind()),
            (path, message, ArgsErrorKind::Data),
            "{text}"
        );
    }
    // A value that names no branch still gets the union's own error.
    let error = tagged
        .parse_args(r#"{"shape": {"kind": "hexagon"}}"#)
        .unwrap_err();
    assert_eq!(
        (error.path(), error.message()),
        (
            "shape",
            "the value matches none of the schema's alternatives"
        )
    );
}

/// 10,000 nested arrays: as text, serde_json's own depth limit; as a value (which has none),
/// the checks' (the plan's walks stop at the same depth): an error, not an overflowed stack.
#[test]
fn ten_thousand_nested_arrays_are_an_error() {
    let tool = DynamicTool::new(
        "nest",
        "Nests.",
        json!({"type": "object", "properties": {"list": {"$ref": "#/$defs/List"}},
               "$defs": {"List": {"type": "array", "items": {"$ref": "#/$defs/List"}}}}),
    )
    .unwrap();
    let depth = 10_000;
    let text = format!(r#"{{"list": {}{}}}"#, "[".repeat(depth), "]".repeat(depth));
    assert_eq!(
        tool.parse_args(&text).unwrap_err().kind(),
        ArgsErrorKind::Syntax
    );
    let mut value = Value::Array(Vec::new());
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    // (Not `json!`, which would copy the value by recursion.)
    let mut arguments = serde_json::Map::new();
    arguments.insert("list".to_owned(), value);
    let error = tool.parse_value(Value::Object(arguments)).unwrap_err();
    assert_eq!(
        (error.message(), error.kind()),
        ("the value nests too deep", ArgsErrorKind::Data)
    );
    assert!(error.path().starts_with("list[0][0]"), "{}", error.path());
}
