//! Recursive types under the root's `$defs` (issue 11, item 4): keys that never let two different
//! types share an entry (the same name from two modules, `Tree<u8>` and `Tree<String>`), the
//! same type reached twice written once, and recursive generic types of every shape.

mod common;
mod dialect_check;

use pretty_assertions::assert_eq;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolgen::{Dialect, Provider, Tool, ToolSchema};

mod outline {
    use super::*;

    /// A heading and the headings under it.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Node {
        pub heading: String,
        pub children: Vec<Node>,
    }
}

mod chain {
    use super::*;

    /// A step and the one after it.
    #[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Node {
        pub step: u32,
        pub next: Option<Box<Node>>,
    }
}

/// Two different types named `Node`, one of them twice.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Plan {
    pub outline: outline::Node,
    pub chain: chain::Node,
    pub appendix: Vec<outline::Node>,
}

#[test]
fn two_types_with_one_name_get_two_keys_and_one_type_one_entry() {
    let schema: Value = serde_json::from_str(Plan::INPUT_SCHEMA).unwrap();
    let expected = json!({
        "type": "object",
        "properties": {
            "outline": {"$ref": "#/$defs/Node"},
            "chain": {"$ref": "#/$defs/Node-2"},
            "appendix": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
        },
        "required": ["outline", "chain", "appendix"],
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {
                    "heading": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                },
                "required": ["heading", "children"],
                "description": "A heading and the headings under it.",
            },
            "Node-2": {
                "type": "object",
                "properties": {
                    "step": {"type": "integer", "minimum": 0, "maximum": 4294967295u32},
                    "next": {"$ref": "#/$defs/Node-2"},
                },
                "required": ["step"],
                "description": "A step and the one after it.",
            },
        },
    });
    assert_eq!(schema, expected);

    let validator = common::validator("Plan", Plan::INPUT_SCHEMA);
    let good = json!({
        "outline": {"heading": "a", "children": [{"heading": "b", "children": []}]},
        "chain": {"step": 1, "next": {"step": 2}},
        "appendix": [],
    });
    assert!(validator.is_valid(&good));
    assert!(Plan::parse_args(&good.to_string()).is_ok());
    // Each key holds its own type: a chain where an outline belongs is refused by both.
    let swapped = json!({
        "outline": {"step": 1},
        "chain": {"step": 1},
        "appendix": [],
    });
    assert!(!validator.is_valid(&swapped));
    assert!(Plan::parse_args(&swapped.to_string()).is_err());
}

/// A tree of any value.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Tree<T> {
    pub value: T,
    pub kids: Vec<Tree<T>>,
}

/// A generic enum that holds itself through `Self`.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub enum Expr<T> {
    Leaf(T),
    Sum { terms: Vec<Self> },
}

/// A generic tuple struct that holds itself.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
pub struct Chain<T>(pub T, pub Option<Box<Chain<T>>>);

/// Trees of two kinds, and the other recursive generic shapes.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
pub struct Forests {
    pub numbers: Tree<u8>,
    pub words: Tree<String>,
    pub more_numbers: Option<Tree<u8>>,
    pub expr: Expr<i32>,
    pub chain: Chain<bool>,
}

#[test]
fn recursive_generic_types_get_an_entry_per_type_argument() {
    let schema: Value = serde_json::from_str(Forests::INPUT_SCHEMA).unwrap();
    jsonschema::meta::validate(&schema).unwrap();
    assert_eq!(
        schema["properties"],
        json!({
            "numbers": {"$ref": "#/$defs/Tree"},
            "words": {"$ref": "#/$defs/Tree-2"},
            "more_numbers": {"$ref": "#/$defs/Tree"},
            "expr": {"$ref": "#/$defs/Expr"},
            "chain": {"$ref": "#/$defs/Chain"},
        })
    );
    let defs = &schema["$defs"];
    let keys: Vec<&String> = defs.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["Tree", "Tree-2", "Expr", "Chain"]);
    assert_eq!(
        defs["Tree"]["properties"]["value"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    assert_eq!(
        defs["Tree"]["properties"]["kids"]["items"],
        json!({"$ref": "#/$defs/Tree"})
    );
    assert_eq!(
        defs["Tree-2"]["properties"]["value"],
        json!({"type": "string"})
    );
    assert_eq!(
        defs["Tree-2"]["properties"]["kids"]["items"],
        json!({"$ref": "#/$defs/Tree-2"})
    );
    assert_eq!(
        defs["Chain"],
        json!({
            "type": "array",
            "prefixItems": [
                {"type": "boolean"},
                {"anyOf": [{"$ref": "#/$defs/Chain"}, {"type": "null"}]},
            ],
            "minItems": 2,
            "maxItems": 2,
            "description": "A generic tuple struct that holds itself.",
        })
    );

    let value = Forests {
        numbers: Tree {
            value: 1,
            kids: vec![Tree {
                value: 2,
                kids: vec![],
            }],
        },
        words: Tree {
            value: "a".into(),
            kids: vec![],
        },
        more_numbers: None,
        expr: Expr::Sum {
            terms: vec![Expr::Leaf(3), Expr::Sum { terms: vec![] }],
        },
        chain: Chain(true, Some(Box::new(Chain(false, None)))),
    };
    let mut written = serde_json::to_value(&value).unwrap();
    // `None`, written by serde as `null`, is left out by a model.
    written.as_object_mut().unwrap().remove("more_numbers");
    let validator = common::validator("Forests", Forests::INPUT_SCHEMA);
    assert!(validator.is_valid(&written), "{written:#}");
    assert_eq!(Forests::parse_args(&written.to_string()).unwrap(), value);
    // The words tree is a tree of strings, not numbers: its key's entry says so.
    let mut wrong = written.clone();
    wrong["words"]["value"] = json!(5);
    assert!(!validator.is_valid(&wrong));
    assert!(Forests::parse_args(&wrong.to_string()).is_err());
}

/// Trees in OpenAI strict mode, which takes recursion.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
#[tool(strict = "openai")]
pub struct StrictForests {
    pub numbers: Tree<u8>,
    pub words: Tree<String>,
}

#[test]
fn keyed_definitions_go_through_every_dialect() {
    let strict: Value =
        serde_json::from_str(StrictForests::input_schema(Dialect::OpenAiStrict).unwrap()).unwrap();
    jsonschema::meta::validate(&strict).unwrap();
    assert_eq!(
        strict["$defs"]["Tree-2"]["properties"]["kids"]["items"],
        json!({"$ref": "#/$defs/Tree-2"})
    );
    for provider in Provider::ALL {
        serde_json::from_str::<Value>(Plan::definition_json(provider)).unwrap();
        serde_json::from_str::<Value>(Forests::definition_json(provider)).unwrap();
        serde_json::from_str::<Value>(StrictForests::definition_json(provider)).unwrap();
    }
}

#[test]
fn a_type_on_its_own_names_its_entry_by_its_name() {
    let text = <Tree<u8> as ToolSchema>::json_schema();
    let schema: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(schema["$ref"], json!("#/$defs/Tree"));
    assert_eq!(
        schema["$defs"]["Tree"]["properties"]["kids"]["items"]["$ref"],
        json!("#/$defs/Tree")
    );
}
