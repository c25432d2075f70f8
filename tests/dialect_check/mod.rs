//! The dialects of a schema as validators, and what an OpenAI strict model sends: shared by the
//! round trips of `validate.rs` (through `common`) and `proptest_roundtrip.rs`.

// Each test file uses a different part of this module.
#![allow(dead_code)]

use serde_json::{Value, json};
use toolgen::{Dialect, dialect_schema};

/// Gemini's `parameters` as JSON Schema, to validate against: `nullable: true` admits `null`, and
/// `propertyOrdering` (an annotation) goes.
pub fn gemini_as_json_schema(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    object.remove("propertyOrdering");
    if object.remove("nullable") == Some(Value::Bool(true)) {
        if let Some(Value::String(ty)) = object.get("type").cloned() {
            object.insert("type".into(), json!([ty, "null"]));
        }
        if let Some(Value::Array(values)) = object.get_mut("enum") {
            values.push(Value::Null);
        }
        if let Some(Value::Array(branches)) = object.get_mut("anyOf") {
            branches.push(json!({"type": "null"}));
        }
    }
    for value in object.values_mut() {
        match value {
            Value::Object(_) => gemini_as_json_schema(value),
            Value::Array(items) => items.iter_mut().for_each(gemini_as_json_schema),
            _ => {}
        }
    }
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        for property in properties.values_mut() {
            gemini_as_json_schema(property);
        }
    }
}

/// The schema `$ref` points to (`#/$defs/Name`), else the schema itself.
fn resolve<'a>(mut schema: &'a Value, root: &'a Value) -> &'a Value {
    // A reference to a reference (a newtype's definition) is followed too.
    for _ in 0..16 {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(pointer) => match root.pointer(pointer.trim_start_matches('#')) {
                Some(target) => schema = target,
                None => return schema,
            },
            None => return schema,
        }
    }
    schema
}

/// The object branch of an `anyOf` that `json` is written in: the one whose properties hold all
/// its keys, with every required key present and every `const` matching.
fn branch_of<'a>(branches: &'a [Value], json: &Value, root: &'a Value) -> Option<&'a Value> {
    let object = json.as_object()?;
    branches.iter().map(|b| resolve(b, root)).find(|branch| {
        let Some(properties) = branch.get("properties").and_then(Value::as_object) else {
            return false;
        };
        let required = branch.get("required").and_then(Value::as_array);
        object.keys().all(|k| properties.contains_key(k))
            && required.is_none_or(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .all(|k| object.contains_key(k))
            })
            && properties.iter().all(|(k, p)| match p.get("const") {
                Some(c) => object.get(k) == Some(c),
                None => true,
            })
    })
}

/// What an OpenAI strict model sends for `json`: `null` for every optional property it leaves
/// out, at every depth the standard `schema` describes.
pub fn with_nulls(json: &mut Value, schema: &Value, root: &Value) {
    let schema = resolve(schema, root);
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
        if let Some(branch) = branch_of(branches, json, root) {
            with_nulls(json, branch, root);
        }
        return;
    }
    match json {
        Value::Object(object) => {
            let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
                return;
            };
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for (key, property) in properties {
                match object.get_mut(key) {
                    Some(value) => with_nulls(value, property, root),
                    None if !required.contains(&key.as_str()) => {
                        object.insert(key.clone(), Value::Null);
                    }
                    None => {}
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items") {
                for value in items {
                    with_nulls(value, item, root);
                }
            }
        }
        _ => {}
    }
}

/// What a model sends for `json` under the standard `schema`: every optional property whose
/// schema does not take `null` left out where serde wrote `None` as `null` (an `Option` field is
/// written as its inner type, left out of `required`), at every depth.
pub fn without_nulls(json: &mut Value, schema: &Value, root: &Value) {
    let schema = resolve(schema, root);
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
        if let Some(branch) = branch_of(branches, json, root) {
            without_nulls(json, branch, root);
        }
        return;
    }
    match json {
        Value::Object(object) => {
            let empty = serde_json::Map::new();
            let properties = schema
                .get("properties")
                .and_then(Value::as_object)
                .unwrap_or(&empty);
            // A map's values.
            if let Some(values @ Value::Object(_)) = schema.get("additionalProperties") {
                for (key, value) in object.iter_mut() {
                    if !properties.contains_key(key) {
                        without_nulls(value, values, root);
                    }
                }
            }
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for (key, property) in properties {
                match object.get_mut(key) {
                    Some(Value::Null)
                        if !required.contains(&key.as_str()) && !takes_null(property, root) =>
                    {
                        object.remove(key);
                    }
                    Some(value) => without_nulls(value, property, root),
                    None => {}
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items") {
                for value in items {
                    without_nulls(value, item, root);
                }
            }
        }
        _ => {}
    }
}

/// Whether `schema` takes `null`: a `null` type, a branch that does, or no `type` at all.
fn takes_null(schema: &Value, root: &Value) -> bool {
    let schema = resolve(schema, root);
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
        return branches.iter().any(|branch| takes_null(branch, root));
    }
    match schema.get("type") {
        Some(Value::String(ty)) => ty == "null",
        Some(Value::Array(types)) => types.iter().any(|ty| ty == "null"),
        None => schema.get("enum").is_none() && schema.get("const").is_none(),
        _ => false,
    }
}

/// The schema in every dialect it has, as a validator; Gemini's as JSON Schema.
pub fn validators(name: &str, standard: &str) -> Vec<(Dialect, jsonschema::Validator)> {
    Dialect::ALL
        .into_iter()
        .filter_map(|dialect| {
            let text = dialect_schema(standard, dialect).ok()?;
            let mut schema: Value = serde_json::from_str(&text).expect("a dialect is JSON");
            if dialect == Dialect::Gemini {
                gemini_as_json_schema(&mut schema);
            }
            let validator = jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .build(&schema)
                .unwrap_or_else(|e| panic!("{name} {dialect:?}: does not compile: {e}"));
            Some((dialect, validator))
        })
        .collect()
}
