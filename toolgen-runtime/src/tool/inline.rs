//! `$ref`s written out in full, for the dialects that take no references (Anthropic strict mode,
//! Gemini `parameters`): a tool defined at run time whose schema names a `$defs` entry only to
//! share it (as pydantic, zod and most generators write nested models) is not a recursive type,
//! and the dialect can take it once each reference is replaced by what it names. A reference
//! that leads back to a schema it is inside stays, and the dialect refuses it as recursive.

use serde_json::{Map, Value};

/// How many schemas a schema with its references written out may hold: references to
/// references can double the size at each level.
pub(crate) const MAX_INLINED: usize = 10_000;

/// How deep the references are followed.
const MAX_DEPTH: usize = 128;

/// What [`inline_refs`] gives.
#[derive(Debug, PartialEq)]
pub(crate) enum Inlined {
    /// The schema has no `$ref`, or one that leads back (a recursive type): nothing to write out.
    Unchanged,
    /// The schema with every `$ref` written out and its `$defs` dropped.
    Written(Value),
    /// Written out, it would hold more than [`MAX_INLINED`] schemas or nest deeper than 128.
    TooLarge,
}

/// `root` with each `$ref` replaced by the schema it names, the keywords beside the `$ref` (a
/// `description`, say) kept over the named schema's own, and `$defs` dropped: where no `$ref`
/// leads back to a schema it is inside (or names nothing). See `tests/dynamic.rs`,
/// `shared_definitions_are_written_out_for_the_dialects_without_references`.
pub(crate) fn inline_refs(root: &Value) -> Inlined {
    let mut walk = Walk {
        root,
        stack: Vec::new(),
        budget: MAX_INLINED,
        written: false,
        kept: false,
    };
    walk.stack.push(root);
    let Some(mut out) = walk.schema(root, 0) else {
        return Inlined::TooLarge;
    };
    // A reference kept: the dialects that take none refuse the schema whatever else is written
    // out, and say so best at the reference as it was written.
    if !walk.written || walk.kept {
        return Inlined::Unchanged;
    }
    if let Value::Object(keywords) = &mut out {
        keywords.remove("$defs");
        keywords.remove("definitions");
    }
    Inlined::Written(out)
}

struct Walk<'r> {
    root: &'r Value,
    /// The schemas whose references are being written out, outermost first.
    stack: Vec<*const Value>,
    budget: usize,
    /// Whether a reference was written out.
    written: bool,
    /// Whether a reference was kept (it leads back, or names nothing).
    kept: bool,
}

impl<'r> Walk<'r> {
    /// The schema a reference names: the root (`#`) or a JSON pointer into it.
    fn target(&self, reference: &str) -> Option<&'r Value> {
        crate::schema::json_schema::target(self.root, reference)
    }

    /// `schema` with its references written out; `None` past the budget.
    fn schema(&mut self, schema: &'r Value, depth: usize) -> Option<Value> {
        self.budget = self.budget.checked_sub(1)?;
        if depth > MAX_DEPTH {
            return None;
        }
        let Value::Object(keywords) = schema else {
            return Some(schema.clone());
        };
        let reference = keywords.get("$ref").and_then(Value::as_str);
        if let Some(target) = reference.and_then(|r| self.target(r)) {
            let address: *const Value = target;
            if !self.stack.contains(&address) {
                self.stack.push(address);
                let named = self.schema(target, depth + 1);
                self.stack.pop();
                let mut named = named?;
                let beside = keywords.iter().filter(|(key, _)| *key != "$ref");
                match &mut named {
                    Value::Object(own) => {
                        self.written = true;
                        for (key, value) in beside {
                            let value = self.keyword(key, value, depth)?;
                            own.insert(key.clone(), value);
                        }
                        return Some(named);
                    }
                    // `true` or `false` named: written out only where nothing is beside it.
                    _ if keywords.len() == 1 => {
                        self.written = true;
                        return Some(named);
                    }
                    _ => {}
                }
            }
        }
        if reference.is_some() {
            self.kept = true;
        }
        let mut out = Map::new();
        for (key, value) in keywords {
            let value = self.keyword(key, value, depth)?;
            out.insert(key.clone(), value);
        }
        Some(Value::Object(out))
    }

    /// A keyword's value, its schemas (and only those: an `enum` or `default` is data) with
    /// their references written out.
    fn keyword(&mut self, key: &str, value: &'r Value, depth: usize) -> Option<Value> {
        match (key, value) {
            // The definitions are reached through the references that name them (the root's
            // are dropped; one that none names is not read).
            ("$defs" | "definitions", _) => Some(value.clone()),
            ("properties", Value::Object(schemas)) => {
                let mut out = Map::new();
                for (name, schema) in schemas {
                    out.insert(name.clone(), self.schema(schema, depth + 1)?);
                }
                Some(Value::Object(out))
            }
            ("items" | "additionalProperties" | "not", _) => self.schema(value, depth + 1),
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(schemas)) => schemas
                .iter()
                .map(|schema| self.schema(schema, depth + 1))
                .collect::<Option<Vec<_>>>()
                .map(Value::Array),
            _ => Some(value.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn shared_definitions_are_written_out_and_dropped() {
        let root = json!({"type": "object", "properties": {
            "from": {"$ref": "#/$defs/Point", "description": "Start."},
            "to": {"$ref": "#/$defs/Point"}
        }, "$defs": {
            "Point": {"type": "object", "properties": {"x": {"$ref": "#/$defs/N"}}, "description": "A point."},
            "N": {"type": "integer"}
        }});
        let point = |description: &str| json!({"type": "object", "properties": {"x": {"type": "integer"}}, "description": description});
        assert_eq!(
            inline_refs(&root),
            Inlined::Written(json!({"type": "object", "properties": {
                "from": point("Start."),
                "to": point("A point.")
            }}))
        );
    }

    #[test]
    fn a_reference_that_leads_back_leaves_the_schema_as_it_is() {
        let root = json!({"type": "object", "properties": {
            "tree": {"$ref": "#/$defs/Node"},
            "label": {"$ref": "#/$defs/Label"}
        }, "$defs": {
            "Node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}},
            "Label": {"type": "string"}
        }});
        assert_eq!(inline_refs(&root), Inlined::Unchanged);
        let recursive = json!({"type": "object", "properties": {"next": {"$ref": "#"}}});
        assert_eq!(inline_refs(&recursive), Inlined::Unchanged);
        let nowhere = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "other.json"}},
            "$defs": {"A": {"type": "string"}}});
        assert_eq!(inline_refs(&nowhere), Inlined::Unchanged);
    }

    #[test]
    fn data_is_not_read_as_schemas_and_size_is_bounded() {
        let root = json!({"type": "object", "properties": {"a": {"enum": [{"$ref": "#/x"}]}}});
        assert_eq!(inline_refs(&root), Inlined::Unchanged);
        // Each level names the one below twice: 2^20 schemas written out.
        let mut defs = Map::new();
        defs.insert("D0".to_owned(), json!({"type": "string"}));
        for level in 1..=20 {
            let below = format!("#/$defs/D{}", level - 1);
            defs.insert(
                format!("D{level}"),
                json!({"type": "object", "properties": {"a": {"$ref": below}, "b": {"$ref": below}}}),
            );
        }
        let root = json!({"type": "object", "properties": {"top": {"$ref": "#/$defs/D20"}}, "$defs": defs});
        assert_eq!(inline_refs(&root), Inlined::TooLarge);
    }
}
