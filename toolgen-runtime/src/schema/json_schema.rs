//! Helpers on JSON Schema values that several readers share: what a `$ref` names inside the
//! root schema, followed through chains of references.

use serde_json::Value;

/// How many `$ref`s in a row [`resolve`] follows before it takes the chain to go round.
pub(crate) const MAX_REFS: usize = 32;

/// The schema `reference` (a `$ref`'s value) names inside `root`: `#` is the root, `#/..` a JSON
/// pointer into it (`#/$defs/Node`); `None` for anything else (another document) or a pointer
/// to nothing.
pub(crate) fn target<'s>(root: &'s Value, reference: &str) -> Option<&'s Value> {
    match reference {
        "#" => Some(root),
        _ => reference
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer)),
    }
}

/// `schema` (inside `root`) followed through its `$ref`, and the `$ref` of what that names, and
/// so on: the schema at the end of the chain. A `$ref` that names nothing ends the chain where it
/// is (the schema holding it). `None` for a chain longer than [`MAX_REFS`] (one that goes round).
pub(crate) fn resolve<'s>(root: &'s Value, mut schema: &'s Value) -> Option<&'s Value> {
    for _ in 0..MAX_REFS {
        let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
            return Some(schema);
        };
        match target(root, reference) {
            Some(next) => schema = next,
            None => return Some(schema),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{resolve, target};

    #[test]
    fn references_are_followed_to_the_end_of_their_chain() {
        let root = json!({
            "$defs": {
                "A": {"$ref": "#/$defs/B"},
                "B": {"type": "string"},
                "Loop": {"$ref": "#/$defs/Loop"},
                "Lost": {"$ref": "other.json"}
            },
            "type": "object"
        });
        assert_eq!(target(&root, "#"), Some(&root));
        assert_eq!(target(&root, "other.json#/x"), None);
        assert_eq!(target(&root, "#/$defs/None"), None);
        let a = json!({"$ref": "#/$defs/A"});
        assert_eq!(resolve(&root, &a), Some(&json!({"type": "string"})));
        assert_eq!(resolve(&root, &json!({"$ref": "#/$defs/Loop"})), None);
        let lost = json!({"$ref": "#/$defs/Lost"});
        assert_eq!(resolve(&root, &lost), Some(&json!({"$ref": "other.json"})));
    }
}
