//! `#[serde(flatten)]` of an enum into a struct (issue 11, item 5): the struct's schema is one
//! `anyOf` branch per variant with the struct's own properties merged in, so it accepts what
//! serde accepts (`differential.rs` checks that for every enum representation); here, a tool
//! holding such structs goes through every dialect, argument parsing (nulls, defaults,
//! constraints) and the build's strict-mode checks.

mod common;
mod dialect_check;

use std::collections::BTreeMap;

use pretty_assertions::assert_eq;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolgen::{Dialect, Provider, Tool, ToolSchema, dialect_schema};

/// What to do to the mind map.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(tag = "action", rename_all = "camelCase")]
pub enum Operation {
    /// Add a child under the target node.
    AddChild {
        /// The new node's title.
        title: String,
        #[serde(default)]
        note: String,
    },
    /// Rename the target node.
    UpdateTitle {
        #[tool(length(min = 1))]
        title: String,
    },
    /// Delete the target node.
    DeleteNode,
    /// Move the target node.
    MoveTo(Position),
}

/// Where a node goes.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "camelCase")]
pub struct Position {
    pub parent_id: String,
    #[tool(default = 0)]
    pub index: u32,
}

/// One suggested operation.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "camelCase")]
pub struct OperationWithId {
    pub id: String,
    /// The full UUID of the node the operation applies to.
    pub target_node_id: String,
    /// Why.
    pub description: String,
    #[serde(flatten)]
    pub op: Operation,
}

/// Suggest operations on the mind map.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
#[tool(strict)]
pub struct SuggestOperations {
    pub operations: Vec<OperationWithId>,
}

#[test]
fn the_tool_schema_has_one_branch_per_operation() {
    let schema: Value = serde_json::from_str(SuggestOperations::INPUT_SCHEMA).unwrap();
    jsonschema::meta::validate(&schema).unwrap();
    let common = json!({
        "id": {"type": "string"},
        "targetNodeId": {"type": "string", "description": "The full UUID of the node the operation applies to."},
        "description": {"type": "string", "description": "Why."},
    });
    let branch = |action: &str, extra: Value, required: &[&str], description: &str| {
        let mut properties = common.as_object().unwrap().clone();
        properties.insert("action".into(), json!({"type": "string", "const": action}));
        properties.extend(extra.as_object().unwrap().clone());
        let mut all = vec!["id", "targetNodeId", "description", "action"];
        all.extend(required);
        json!({
            "type": "object",
            "properties": properties,
            "required": all,
            "description": description,
        })
    };
    let expected = json!({
        "type": "object",
        "properties": {
            "operations": {
                "type": "array",
                "items": {
                    "anyOf": [
                        branch("addChild", json!({
                            "title": {"type": "string", "description": "The new node's title."},
                            "note": {"type": "string", "default": ""},
                        }), &["title"], "Add a child under the target node."),
                        branch("updateTitle", json!({
                            "title": {"type": "string", "minLength": 1},
                        }), &["title"], "Rename the target node."),
                        branch("deleteNode", json!({}), &[], "Delete the target node."),
                        branch("moveTo", json!({
                            "parentId": {"type": "string"},
                            "index": {"type": "integer", "minimum": 0, "maximum": 4294967295u32, "default": 0},
                        }), &["parentId"], "Move the target node."),
                    ],
                    "description": "One suggested operation.",
                },
            },
        },
        "required": ["operations"],
    });
    assert_eq!(schema, expected);
}

#[test]
fn every_dialect_and_definition_is_built() {
    for dialect in [
        Dialect::Standard,
        Dialect::OpenAiStrict,
        Dialect::AnthropicStrict,
        Dialect::Gemini,
    ] {
        let text = SuggestOperations::input_schema(dialect).expect("the dialect can say it");
        let schema: Value = serde_json::from_str(text).unwrap();
        jsonschema::meta::validate(&schema).unwrap();
    }
    for provider in Provider::ALL {
        let text = SuggestOperations::definition_json(provider);
        serde_json::from_str::<Value>(text).unwrap();
    }
    // OpenAI strict mode: every branch closed, every property required, defaults nullable.
    let strict: Value =
        serde_json::from_str(SuggestOperations::input_schema(Dialect::OpenAiStrict).unwrap())
            .unwrap();
    let add_child = &strict["properties"]["operations"]["items"]["anyOf"][0];
    assert_eq!(add_child["additionalProperties"], json!(false));
    assert_eq!(
        add_child["required"],
        json!([
            "id",
            "targetNodeId",
            "description",
            "action",
            "title",
            "note"
        ])
    );
    assert_eq!(
        add_child["properties"]["note"]["type"],
        json!(["string", "null"])
    );
}

#[test]
fn arguments_parse_into_each_variant() {
    let args = json!({"operations": [
        {"id": "op-1", "action": "addChild", "targetNodeId": "n1", "title": "New", "description": "d"},
        {"id": "op-2", "action": "updateTitle", "targetNodeId": "n1", "title": "T", "description": "d"},
        {"id": "op-3", "action": "deleteNode", "targetNodeId": "n2", "description": "d"},
        {"id": "op-4", "action": "moveTo", "targetNodeId": "n3", "parentId": "p", "description": "d"},
    ]});
    let parsed = SuggestOperations::parse_args(&args.to_string()).unwrap();
    let ops: Vec<&Operation> = parsed.operations.iter().map(|o| &o.op).collect();
    assert_eq!(
        ops,
        [
            &Operation::AddChild {
                title: "New".into(),
                note: String::new()
            },
            &Operation::UpdateTitle { title: "T".into() },
            &Operation::DeleteNode,
            // `#[tool(default = 0)]` inside the flattened variant's type is filled in.
            &Operation::MoveTo(Position {
                parent_id: "p".into(),
                index: 0
            }),
        ]
    );
    let validator = common::validator("SuggestOperations", SuggestOperations::INPUT_SCHEMA);
    assert!(validator.is_valid(&args));
    // Round trip: what serde writes parses back, and the schema accepts it.
    let written = serde_json::to_value(&parsed).unwrap();
    assert!(validator.is_valid(&written), "{written:#}");
    assert_eq!(
        SuggestOperations::parse_args(&written.to_string()).unwrap(),
        parsed
    );
}

#[test]
fn strict_mode_nulls_for_defaulted_fields_inside_a_variant_are_dropped() {
    let args = json!({"operations": [
        {"id": "a", "targetNodeId": "n", "description": "d", "action": "addChild", "title": "x", "note": null},
        {"id": "b", "targetNodeId": "n", "description": "d", "action": "moveTo", "parentId": "p", "index": null},
    ]});
    let parsed = SuggestOperations::parse_args(&args.to_string()).unwrap();
    assert_eq!(
        parsed.operations[0].op,
        Operation::AddChild {
            title: "x".into(),
            note: String::new()
        }
    );
    assert_eq!(
        parsed.operations[1].op,
        Operation::MoveTo(Position {
            parent_id: "p".into(),
            index: 0
        })
    );
}

/// The variant whose defaults are filled in is the one the tag names, however the tag is written:
/// first and plain (read where it is in the text), with spaces or escapes, or after the
/// variant's own keys. A name that only begins like a variant's names none.
#[test]
fn the_tag_names_the_variant_however_it_is_written() {
    let expected = Operation::MoveTo(Position {
        parent_id: "p".into(),
        index: 0,
    });
    let rest = r#""parentId":"p","index":null,"id":"a","targetNodeId":"n","description":"d""#;
    for tag in [
        r#""action":"moveTo","#,
        r#""action" : "moveTo" ,"#,
        r#""action":"move\u0054o","#,
        r#""action":"move\to","#,
    ] {
        let text = format!(r#"{{"operations":[{{{tag}{rest}}}]}}"#);
        let parsed = SuggestOperations::parse_args(&text);
        if tag.contains("\\t") {
            assert!(parsed.is_err(), "{text}");
            continue;
        }
        assert_eq!(parsed.unwrap().operations[0].op, expected, "{text}");
        assert_eq!(
            toolgen::__private::parse_stripping::<SuggestOperations>(&text).unwrap(),
            SuggestOperations::parse_args(&text).unwrap(),
            "{text}"
        );
    }
    let after = r#"{"operations":[{"parentId":"p","index":null,"action":"moveTo","id":"a","targetNodeId":"n","description":"d"}]}"#;
    assert_eq!(
        SuggestOperations::parse_args(after).unwrap().operations[0].op,
        expected
    );
    for name in ["moveT", "moveToo", "addChildmoveTo"] {
        let text = format!(r#"{{"operations":[{{"action":"{name}",{rest}}}]}}"#);
        assert!(SuggestOperations::parse_args(&text).is_err(), "{text}");
    }
}

#[test]
fn errors_name_the_path_and_constraints_hold_inside_a_variant() {
    let bad_title = json!({"operations": [
        {"id": "a", "targetNodeId": "n", "description": "d", "action": "updateTitle", "title": ""},
    ]});
    let error = SuggestOperations::parse_args(&bad_title.to_string()).unwrap_err();
    assert_eq!(error.kind(), toolgen::ArgsErrorKind::Constraint);
    assert_eq!(error.path(), "operations[0].title");

    let unknown = json!({"operations": [
        {"id": "a", "targetNodeId": "n", "description": "d", "action": "explode"},
    ]});
    let error = SuggestOperations::parse_args(&unknown.to_string()).unwrap_err();
    assert_eq!(error.path(), "operations[0]");
    assert!(error.message().contains("explode"), "{error}");
}

/// The strict-mode rules see through the flattened enum: a map in one variant is refused by
/// the build's facts and by the run-time rewrite alike, at the same path.
#[allow(dead_code)]
mod refused {
    use super::*;

    #[derive(ToolSchema, Deserialize)]
    #[serde(tag = "kind")]
    pub enum Change {
        Rename { name: String },
        Retag { tags: BTreeMap<String, String> },
    }

    #[derive(ToolSchema, Deserialize)]
    pub struct Step {
        pub id: u32,
        #[serde(flatten)]
        pub change: Change,
    }

    /// Not strict, so that it builds: its facts are checked below.
    #[derive(Tool, Deserialize)]
    pub struct Plan {
        pub steps: Vec<Step>,
    }
}

#[test]
fn the_build_checks_agree_with_the_rewrite_through_a_flattened_enum() {
    for (name, facts, schema) in [
        (
            "SuggestOperations",
            <SuggestOperations as toolgen::ToolSchema>::FACTS,
            SuggestOperations::INPUT_SCHEMA,
        ),
        (
            "Plan",
            <refused::Plan as toolgen::ToolSchema>::FACTS,
            refused::Plan::INPUT_SCHEMA,
        ),
    ] {
        for dialect in [
            Dialect::OpenAiStrict,
            Dialect::AnthropicStrict,
            Dialect::Gemini,
        ] {
            let build = toolgen::__private::first_problem(facts, dialect);
            let rewrite = dialect_schema(schema, dialect)
                .err()
                .map(|e| (e.rule(), e.path().to_owned()));
            assert_eq!(build, rewrite, "{name} in {dialect:?}");
        }
    }
    let refused = toolgen::__private::first_problem(
        <refused::Plan as toolgen::ToolSchema>::FACTS,
        Dialect::OpenAiStrict,
    );
    assert!(refused.is_some(), "a map inside a variant is refused");
}

/// An enum whose variant flattens another enum is fine where it is not flattened itself: the
/// variant is an `anyOf` of its own.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Target {
    Node { node_id: String },
    Root,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "action", rename_all = "lowercase")]
pub enum Step {
    Add {
        title: String,
        #[serde(flatten)]
        target: Target,
    },
    Clear,
}

/// Apply steps.
#[derive(Tool, Deserialize, Debug, PartialEq)]
pub struct Apply {
    pub step: Step,
}

#[test]
fn a_variant_can_flatten_an_enum() {
    let schema: Value = serde_json::from_str(Apply::INPUT_SCHEMA).unwrap();
    let expected = json!({
        "type": "object",
        "properties": {
            "step": {"anyOf": [
                {"anyOf": [
                    {
                        "type": "object",
                        "properties": {
                            "action": {"type": "string", "const": "add"},
                            "title": {"type": "string"},
                            "kind": {"type": "string", "const": "node"},
                            "node_id": {"type": "string"},
                        },
                        "required": ["action", "title", "kind", "node_id"],
                    },
                    {
                        "type": "object",
                        "properties": {
                            "action": {"type": "string", "const": "add"},
                            "title": {"type": "string"},
                            "kind": {"type": "string", "const": "root"},
                        },
                        "required": ["action", "title", "kind"],
                    },
                ]},
                {
                    "type": "object",
                    "properties": {"action": {"type": "string", "const": "clear"}},
                    "required": ["action"],
                },
            ]},
        },
        "required": ["step"],
    });
    assert_eq!(schema, expected);
    let validator = common::validator("Apply", Apply::INPUT_SCHEMA);
    for (args, step) in [
        (
            json!({"step": {"action": "add", "title": "t", "kind": "root"}}),
            Step::Add {
                title: "t".into(),
                target: Target::Root,
            },
        ),
        (
            json!({"step": {"action": "add", "title": "t", "kind": "node", "node_id": "n"}}),
            Step::Add {
                title: "t".into(),
                target: Target::Node {
                    node_id: "n".into(),
                },
            },
        ),
    ] {
        assert!(validator.is_valid(&args));
        assert_eq!(Apply::parse_args(&args.to_string()).unwrap().step, step);
    }
    let missing = json!({"step": {"action": "add", "title": "t"}});
    assert!(!validator.is_valid(&missing));
    assert!(Apply::parse_args(&missing.to_string()).is_err());
}
