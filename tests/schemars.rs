//! `schemars::JsonSchema` for derived types (issue 54, feature `schemars1`): schemars is given the
//! schema toolgen writes, and the entries of its `$defs` land in the generator's definitions, so
//! that a toolgen type holding recursive types resolves inside a schemars-derived type, under any
//! generator's settings.

use pretty_assertions::assert_eq;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::{JsonSchema, schema_for};
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::{Tool, ToolSchema};

mod schemars_types;

use schemars_types::*;

/// A schemars type of its own, named as toolgen's two `Node`s are.
#[derive(JsonSchema, Deserialize)]
#[schemars(rename = "Node")]
pub struct Clash {
    pub weight: u8,
    pub again: Option<Box<Clash>>,
}

/// A schemars type holding toolgen types (and one of its own with a clashing name).
#[derive(JsonSchema, Deserialize)]
pub struct Mixed {
    pub clash: Clash,
    pub outline: outline::Node,
    pub chain: chain::Node,
    pub inspect: Inspect,
    pub folder: Folder,
    pub numbers: Tree<u8>,
    pub words: Tree<String>,
    pub plan: PlanWork,
}

/// A root schemars wrote, without what it adds at the root (`$schema`, `title`).
fn bare(schema: schemars::Schema) -> Value {
    let mut value = schema.to_value();
    if let Some(root) = value.as_object_mut() {
        root.remove("$schema");
        root.remove("title");
    }
    value
}

fn parsed(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn a_tool_gives_schemars_its_input_schema() {
    assert_eq!(bare(schema_for!(Inspect)), parsed(Inspect::INPUT_SCHEMA));
    assert_eq!(bare(schema_for!(PlanWork)), parsed(PlanWork::INPUT_SCHEMA));
    // A tool that holds itself too: its references are to its entry, as in `INPUT_SCHEMA`.
    assert_eq!(bare(schema_for!(Query)), parsed(Query::INPUT_SCHEMA));
    let root = schema_for!(Query).to_value();
    assert_eq!(
        root["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(root["title"], "Query");
}

#[test]
fn a_type_gives_schemars_its_schema() {
    assert_eq!(
        bare(schema_for!(Level)),
        parsed(&<Level as ToolSchema>::json_schema())
    );
    assert_eq!(
        bare(schema_for!(Page<Level>)),
        parsed(&<Page<Level> as ToolSchema>::json_schema())
    );
    // A type that holds itself is its entry, referring to itself as schemars' own do at a
    // root (`#`); the entry is toolgen's.
    let toolgen = parsed(&<chain::Node as ToolSchema>::json_schema());
    let mut entry = toolgen["$defs"]["Node"].clone();
    entry["properties"]["next"]["$ref"] = json!("#");
    assert_eq!(bare(schema_for!(chain::Node)), entry);
}

#[test]
fn names_are_the_types_and_ids_tell_every_entry_apart() {
    assert_eq!(<outline::Node as JsonSchema>::schema_name(), "Node");
    assert_eq!(<chain::Node as JsonSchema>::schema_name(), "Node");
    assert_eq!(<Tree<u8> as JsonSchema>::schema_name(), "Tree");
    let ids = [
        <outline::Node as JsonSchema>::schema_id(),
        <chain::Node as JsonSchema>::schema_id(),
        <Tree<u8> as JsonSchema>::schema_id(),
        <Tree<String> as JsonSchema>::schema_id(),
        <Folder as JsonSchema>::schema_id(),
        <File as JsonSchema>::schema_id(),
        <Clash as JsonSchema>::schema_id(),
        <Level as JsonSchema>::schema_id(),
        <Page<u8> as JsonSchema>::schema_id(),
        <Page<String> as JsonSchema>::schema_id(),
    ];
    for (i, id) in ids.iter().enumerate() {
        assert!(!ids[..i].contains(id), "{id} twice");
    }
    // Stable: the same every time it is asked.
    assert_eq!(<Tree<u8> as JsonSchema>::schema_id(), ids[2]);
    // Recursive types are definitions; the others are inline, as toolgen writes them.
    assert!(!<outline::Node as JsonSchema>::inline_schema());
    assert!(!<Folder as JsonSchema>::inline_schema());
    assert!(<Level as JsonSchema>::inline_schema());
    assert!(<Inspect as JsonSchema>::inline_schema());
}

/// Every `$ref` of `root` is a JSON pointer into it that finds a schema.
fn assert_refs_resolve(root: &Value, node: &Value) {
    match node {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get("$ref") {
                let pointer = reference.strip_prefix('#').unwrap();
                assert!(
                    root.pointer(pointer).is_some_and(Value::is_object),
                    "{reference} does not resolve in {root:#}"
                );
            }
            object.values().for_each(|v| assert_refs_resolve(root, v));
        }
        Value::Array(items) => items.iter().for_each(|v| assert_refs_resolve(root, v)),
        _ => {}
    }
}

fn mixed_value() -> Value {
    json!({
        "clash": {"weight": 3, "again": {"weight": 4}},
        "outline": {"heading": "A", "children": [{"heading": "B", "children": []}]},
        "chain": {"step": 1, "next": {"step": 2}},
        "inspect": {
            "file": {"name": "a.txt", "parent": {"name": "docs", "files": [{"name": "b.txt"}]}},
            "chain": {"step": 3},
            "outline": [{"heading": "C", "children": []}],
        },
        "folder": {"name": "home", "files": []},
        "numbers": {"value": 7, "kids": [{"value": 8, "kids": []}]},
        "words": {"value": "w", "kids": [{"value": "x", "kids": []}]},
        "plan": {"title": "Ship", "pages": {"items": ["one"]}},
    })
}

#[test]
fn a_schemars_type_holding_toolgen_types_resolves_every_ref() {
    let root = schema_for!(Mixed).to_value();
    assert_refs_resolve(&root, &root);
    let defs = root["$defs"].as_object().unwrap();
    let mut names: Vec<&str> = defs.keys().map(String::as_str).collect();
    names.sort_unstable();
    // schemars' `Node` first, then toolgen's two, each once (`Inspect` holds both again).
    assert_eq!(
        names,
        ["File", "Folder", "Node", "Node2", "Node3", "Tree", "Tree2"]
    );
    assert_eq!(root["properties"]["clash"]["$ref"], "#/$defs/Node");
    assert_eq!(root["properties"]["outline"]["$ref"], "#/$defs/Node2");
    assert_eq!(root["properties"]["chain"]["$ref"], "#/$defs/Node3");
    assert_eq!(
        root["properties"]["inspect"]["properties"]["chain"]["$ref"],
        "#/$defs/Node3"
    );
    // Each toolgen entry is toolgen's, its `$ref`s renamed as the generator names them.
    let toolgen = parsed(Inspect::INPUT_SCHEMA);
    let mut chain = toolgen["$defs"]["Node"].clone();
    chain["properties"]["next"]["$ref"] = json!("#/$defs/Node3");
    assert_eq!(defs["Node3"], chain);
    assert_eq!(defs["Folder"], toolgen["$defs"]["Folder"]);

    let validator = jsonschema::validator_for(&root).unwrap();
    let good = mixed_value();
    assert!(validator.is_valid(&good), "{good:#}");
    let bad = [
        ("/chain/next/step", json!(-1)),
        ("/inspect/file/parent/name", json!("")),
        ("/inspect/file/parent/files/0/name", json!(5)),
        ("/inspect/outline/0", json!({"heading": 1, "children": []})),
        ("/numbers/kids/0/value", json!(300)),
        ("/words/kids/0", json!({"value": 1, "kids": []})),
        ("/plan/title", json!("")),
        ("/clash/again/weight", json!("heavy")),
    ];
    for (pointer, value) in bad {
        let mut wrong = good.clone();
        *wrong.pointer_mut(pointer).expect(pointer) = value;
        assert!(!validator.is_valid(&wrong), "{pointer}: {wrong:#}");
    }
}

#[test]
fn the_generators_settings_place_and_name_the_definitions() {
    // Draft 7: `definitions`, and `prefixItems` and `$ref` siblings rewritten by its transforms.
    let root = SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<Mixed>()
        .to_value();
    assert!(root.get("$defs").is_none());
    assert_eq!(
        root["properties"]["inspect"]["properties"]["file"],
        json!({"allOf": [{"$ref": "#/definitions/File"}], "description": "The file."})
    );
    assert_refs_resolve(&root, &root);
    assert_eq!(root["$schema"], "http://json-schema.org/draft-07/schema#");
    let validator = jsonschema::validator_for(&root).unwrap();
    assert!(validator.is_valid(&mixed_value()));

    // OpenAPI 3.0: under `components/schemas`.
    let root = SchemaSettings::openapi3()
        .into_generator()
        .into_root_schema_for::<Inspect>()
        .to_value();
    assert_eq!(
        root["properties"]["chain"]["$ref"],
        "#/components/schemas/Node"
    );
    assert!(root["components"]["schemas"]["Folder"].is_object());

    // Inline: definitions only where recursion needs one.
    let root = SchemaSettings::draft2020_12()
        .with(|settings| settings.inline_subschemas = true)
        .into_generator()
        .into_root_schema_for::<Inspect>()
        .to_value();
    assert_refs_resolve(&root, &root);
    assert_eq!(
        root["properties"]["file"]["properties"]["name"]["type"],
        "string"
    );
    let validator = jsonschema::validator_for(&root).unwrap();
    assert!(validator.is_valid(&mixed_value()["inspect"]));
    assert!(
        !validator.is_valid(&json!({"file": {"name": 1}, "chain": {"step": 1}, "outline": []}))
    );
}

#[test]
fn definitions_land_in_a_generator_shared_by_several_roots() {
    let mut generator = SchemaGenerator::default();
    let inspect = generator.subschema_for::<Inspect>().to_value();
    let folder = generator.subschema_for::<Folder>().to_value();
    // `Folder` was defined by `Inspect`'s schema already: the same definition, once.
    assert_eq!(folder, json!({"$ref": "#/$defs/Folder"}));
    let definitions = generator.take_definitions(false);
    let mut names: Vec<&str> = definitions.keys().map(String::as_str).collect();
    names.sort_unstable();
    // Toolgen's keys, where the generator has no other type of the name.
    assert_eq!(names, ["File", "Folder", "Node", "Node-2"]);
    let mut root = inspect;
    root["$defs"] = Value::Object(definitions);
    assert_refs_resolve(&root, &root);
}
