//! The parse plan of a JSON Schema value (a [`DynamicTool`](crate::DynamicTool)'s): the same
//! [`Plan`] a derived type's facts give ([`plan_for`](super::plan::plan_for)), read from the
//! keywords instead, so that arguments are followed by the same walkers: the `null`s of
//! optional properties dropped, `default`s written in, sets' items compared.
//!
//! The plan is built once per schema, into an [`OwnedPlan`] that goes with it.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::plan::{FillValue, OwnedPlan, Plan, PlanField, Reach, Slot, Store, TagCase, set_slot};
use crate::schema::json_schema::{resolve, target};

/// How deep schemas are followed (through `$ref`s that lead on, not back): deeper ones have
/// nothing done below them.
const MAX_DEPTH: usize = 128;

/// The plan of `root`, a JSON Schema: `takes_null` tells whether a schema (inside `root`)
/// accepts `null`.
///
/// A property is read as a derived type's field: one with a `default` has it written in where
/// the key is missing, and its `null` dropped; one that is not `required` and does not take
/// `null` has its `null` dropped (OpenAI strict mode sends `null` for what the model left out);
/// one that takes `null` keeps it, also where a union's other branch would drop it. A union
/// (`anyOf`, `oneOf`) is read as the enum it stands for: branches that a value's JSON type tells
/// apart (an `Option`'s) each read their values; object branches that a `const` property tells
/// apart are a tagged enum, found by that tag; object branches of one required property each
/// are an externally tagged enum; any other union is untagged, below which nothing is written
/// in (which branch the model meant is not known). `allOf` branches all read the value.
pub(crate) fn plan_of_schema(root: &Value, takes_null: &dyn Fn(&Value) -> bool) -> OwnedPlan {
    build(root, takes_null, true)
}

/// The plan of `root` for a value written to match it (a tool's output, as MCP's
/// `structuredContent`), not read from a model: the `null`s of optional properties that do not
/// take `null` dropped ([`strip_value`](super::walk::strip_value)), as [`plan_of_schema`] drops
/// them. A property's `default` is not read: its `null` is kept or dropped as any other
/// property's (a parse drops it and writes the default in, which would leave a required
/// property out of a value written for the schema).
#[cfg(feature = "mcp")]
pub(crate) fn plan_of_output(root: &Value, takes_null: &dyn Fn(&Value) -> bool) -> OwnedPlan {
    build(root, takes_null, false)
}

/// [`plan_of_schema`], and with `defaults` false [`plan_of_output`].
fn build(root: &Value, takes_null: &dyn Fn(&Value) -> bool, defaults: bool) -> OwnedPlan {
    OwnedPlan::build(|store| {
        let mut builder = Builder {
            root,
            store,
            takes_null,
            defaults,
            refs: HashMap::new(),
        };
        builder.node(root, 0)
    })
}

/// What a `$ref`'s target is, while the plan is built.
enum Ref {
    /// Being built: a `$ref` met inside leads back, and follows the slot.
    Building(&'static Slot, bool),
    /// Built.
    Built(Plan<'static>),
}

/// Builds a plan from a schema ([`plan_of_schema`]).
struct Builder<'r, 's> {
    root: &'r Value,
    store: &'s mut Store,
    takes_null: &'s dyn Fn(&Value) -> bool,
    /// Whether a property's `default` is written in for its `null` or absence ([`plan_of_schema`]).
    defaults: bool,
    /// The targets of the `$ref`s met, by their address inside `root` (which outlives the
    /// build), each built once.
    refs: HashMap<usize, Ref>,
}

impl<'r> Builder<'r, '_> {
    /// The node of `schema`: its `$ref`'s, its own properties' or items', and its unions'.
    fn node(&mut self, schema: &Value, depth: usize) -> Plan<'static> {
        let Some(keywords) = schema.as_object() else {
            return Plan::None;
        };
        if depth > MAX_DEPTH {
            return Plan::None;
        }
        let mut parts = Vec::new();
        if let Some(reference) = keywords.get("$ref").and_then(Value::as_str)
            && let Some(target) = target(self.root, reference)
        {
            parts.push(self.reference(target, depth));
        }
        parts.push(self.object(keywords, depth));
        parts.push(self.array(keywords, depth));
        if let Some(Value::Array(all)) = keywords.get("allOf") {
            for branch in all {
                parts.push(self.node(branch, depth + 1));
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = keywords.get(key) {
                parts.push(self.union(branches, depth));
            }
        }
        self.any(parts)
    }

    /// One node for `parts`, all of which read the value: none, the one, or [`Plan::Any`].
    fn any(&mut self, mut parts: Vec<Plan<'static>>) -> Plan<'static> {
        parts.retain(|part| !matches!(part, Plan::None));
        match parts.as_slice() {
            [] => Plan::None,
            [one] => *one,
            _ => Plan::Any(self.store.nodes(&parts)),
        }
    }

    /// The node of `target`, a `$ref`'s, built once: where it leads back to itself, the
    /// references inside follow a [`Slot`] set once it is built.
    fn reference(&mut self, target: &Value, depth: usize) -> Plan<'static> {
        let address = std::ptr::from_ref(target).addr();
        match self.refs.get_mut(&address) {
            Some(Ref::Built(plan)) => return *plan,
            Some(Ref::Building(slot, led_back)) => {
                *led_back = true;
                return Plan::Lazy(Reach::Slot(slot));
            }
            None => {}
        }
        let slot = self.store.slot();
        self.refs.insert(address, Ref::Building(slot, false));
        let built = self.node(target, depth + 1);
        let led_back = matches!(self.refs.get(&address), Some(Ref::Building(_, true)));
        set_slot(slot, self.store.node(built));
        let plan = match led_back {
            true => Plan::Lazy(Reach::Slot(slot)),
            false => built,
        };
        self.refs.insert(address, Ref::Built(plan));
        plan
    }

    /// The node of an object schema's own `properties` and `additionalProperties`.
    fn object(&mut self, keywords: &Map<String, Value>, depth: usize) -> Plan<'static> {
        let required: Vec<&str> = match keywords.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let mut fields = Vec::new();
        if let Some(Value::Object(properties)) = keywords.get("properties") {
            for (name, property) in properties {
                if let Some(field) =
                    self.field(name, property, required.contains(&name.as_str()), depth)
                {
                    fields.push(field);
                }
            }
        }
        let values = match keywords.get("additionalProperties") {
            Some(schema @ Value::Object(_)) => self.node(schema, depth + 1),
            _ => Plan::None,
        };
        match (fields.is_empty(), values) {
            (true, Plan::None) => Plan::None,
            (true, values) => Plan::Values(self.store.node(values)),
            (false, Plan::None) => Plan::object(self.store.fields(&fields), &[]),
            (false, values) => {
                let values = Plan::Values(self.store.node(values));
                Plan::object(self.store.fields(&fields), self.store.nodes(&[values]))
            }
        }
    }

    /// The field of the property `name` whose schema is `property`, if it has something to do.
    fn field(
        &mut self,
        name: &str,
        property: &Value,
        required: bool,
        depth: usize,
    ) -> Option<PlanField<'static>> {
        let inner = self.node(property, depth + 1);
        let default = resolve(self.root, property)
            .and_then(|p| p.get("default"))
            .filter(|_| self.defaults);
        let name = self.store.text(name);
        let inner_node = |store: &mut Store| match inner {
            Plan::None => &Plan::None,
            inner => store.node(inner),
        };
        // A property with a `default` has it for a `null`, required or not, as a derived
        // type's field with a default does.
        if let Some(default) = default {
            let text = self.store.text(&default.to_string());
            return Some(PlanField {
                name,
                default: true,
                fill: Some(FillValue::of(text)),
                inner: inner_node(self.store),
            });
        }
        let nullable = !required && (self.takes_null)(property);
        match (required || nullable, inner) {
            // A `null` read as a value, also where another branch would drop it.
            (_, Plan::None) if nullable => Some(PlanField {
                name,
                default: false,
                fill: None,
                inner: &Plan::Keep,
            }),
            (true, Plan::None) => None,
            (true, _) => Some(PlanField::nested(name, inner_node(self.store))),
            (false, _) => Some(PlanField {
                name,
                default: true,
                fill: None,
                inner: inner_node(self.store),
            }),
        }
    }

    /// The node of an array schema's `items` (`uniqueItems`: a set), or `prefixItems`.
    fn array(&mut self, keywords: &Map<String, Value>, depth: usize) -> Plan<'static> {
        if let Some(Value::Array(prefix)) = keywords.get("prefixItems") {
            let nodes: Vec<Plan<'static>> =
                prefix.iter().map(|s| self.node(s, depth + 1)).collect();
            if nodes.iter().all(|n| matches!(n, Plan::None)) {
                return Plan::None;
            }
            return Plan::Tuple(self.store.nodes(&nodes));
        }
        let items = match keywords.get("items") {
            Some(schema) => self.node(schema, depth + 1),
            None => Plan::None,
        };
        let unique = keywords.get("uniqueItems") == Some(&Value::Bool(true));
        match (unique, items) {
            (true, items) => Plan::Unique(self.store.node(items)),
            (false, Plan::None) => Plan::None,
            (false, items) => Plan::Items(self.store.node(items)),
        }
    }

    /// The node of an `anyOf` or `oneOf` of `branches`, read as its [`Union`] says: see
    /// [`plan_of_schema`].
    fn union(&mut self, branches: &[Value], depth: usize) -> Plan<'static> {
        let nodes: Vec<Plan<'static>> = branches.iter().map(|b| self.node(b, depth + 1)).collect();
        if nodes.iter().all(|n| matches!(n, Plan::None)) {
            return Plan::None;
        }
        let union = Union::of(self.root, branches);
        let objects_read = match &union.shape {
            Shape::ByKind => return self.any(nodes),
            Shape::Untagged => None,
            Shape::Tagged { tag, names } => Some(self.tagged(tag, names, &nodes)),
            Shape::External { keys } => Some(self.external(branches, keys, depth)),
        };
        let Some(objects_read) = objects_read else {
            let nodes: Vec<Plan<'static>> = nodes
                .into_iter()
                .filter(|n| !matches!(n, Plan::None))
                .collect();
            return Plan::Untagged(self.store.nodes(&nodes), None);
        };
        let mut parts = vec![objects_read];
        parts.extend(
            nodes
                .iter()
                .zip(&union.kinds)
                .filter(|(_, k)| !k.object)
                .map(|(n, _)| *n),
        );
        self.any(parts)
    }

    /// The union's object branches, named by their `tag`'s value: [`Plan::Tagged`].
    fn tagged(
        &mut self,
        tag: &str,
        names: &[Option<String>],
        nodes: &[Plan<'static>],
    ) -> Plan<'static> {
        let mut cases = Vec::new();
        for (name, node) in names.iter().zip(nodes) {
            let Some(name) = name else {
                continue;
            };
            let node = match node {
                Plan::None => &Plan::None,
                node => self.store.node(*node),
            };
            cases.push(TagCase {
                name: self.store.text(name),
                node,
            });
        }
        let tag = self.store.text(tag);
        Plan::Tagged(tag, self.store.cases(&cases))
    }

    /// The union's object branches as an externally tagged enum: one object whose fields are
    /// the variants' (each branch's one property, named in `keys`).
    fn external(
        &mut self,
        branches: &[Value],
        keys: &[Option<String>],
        depth: usize,
    ) -> Plan<'static> {
        let mut fields = Vec::new();
        for (branch, key) in branches.iter().zip(keys) {
            let Some(key) = key else {
                continue;
            };
            let Some(content) = resolve(self.root, branch)
                .and_then(|b| b.get("properties"))
                .and_then(|p| p.get(key))
            else {
                continue;
            };
            let inner = self.node(content, depth + 2);
            if !matches!(inner, Plan::None) {
                let inner = self.store.node(inner);
                fields.push(PlanField::nested(self.store.text(key), inner));
            }
        }
        Plan::object(self.store.fields(&fields), &[])
    }
}

/// How a union (`anyOf`, `oneOf`) of JSON Schemas is read, decided once from its branches: the
/// one picker of a dynamic tool's unions, which the parse plan follows (`null`s dropped and
/// defaults written in the branch a value picks out) and whose branch's error a value that fits
/// none of them gets.
///
/// Branches that a value's JSON type tells apart (an `Option`'s: at most one object and one
/// array branch) are picked by it; object branches that a property of one string value each
/// (`const`, or an `enum` of one) tells apart are a tagged enum, picked by that tag; object
/// branches of one required property each, none named as another's, are an externally tagged
/// enum, picked by the key; any other union is untagged: no branch is picked where more than one
/// may take the value's JSON type.
#[derive(Debug)]
pub(crate) struct Union {
    /// Which JSON types each branch may take.
    kinds: Vec<Kinds>,
    shape: Shape,
}

/// How a [`Union`]'s object branches are told apart.
#[derive(Debug)]
enum Shape {
    /// By the value's JSON type alone.
    ByKind,
    /// By the string value of the property `tag`: each branch's, `None` for one that is not an
    /// object.
    Tagged {
        tag: String,
        names: Vec<Option<String>>,
    },
    /// By the key of the one property: each branch's, `None` for one that is not an object.
    External { keys: Vec<Option<String>> },
    /// Not told apart.
    Untagged,
}

/// Which JSON types a schema may take: objects and arrays by its `type`, or where it has none,
/// by its keywords (`properties`, `items`; a schema that says nothing of either may be
/// anything); the others by its `type` alone (`None`: any).
#[derive(Clone, Debug)]
struct Kinds {
    object: bool,
    array: bool,
    types: Option<Vec<String>>,
}

impl Kinds {
    /// The kinds of `schema` (through its `$ref`), inside `root`.
    fn of(root: &Value, schema: &Value) -> Kinds {
        let Some(schema) = resolve(root, schema) else {
            return Kinds {
                object: true,
                array: true,
                types: None,
            };
        };
        let types: Option<Vec<String>> = match schema.get("type") {
            Some(Value::String(ty)) => Some(vec![ty.clone()]),
            Some(Value::Array(types)) => Some(
                types
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
            ),
            _ => None,
        };
        let has = |name: &str| {
            types
                .as_ref()
                .map(|types| types.iter().any(|ty| ty == name))
        };
        let said = |keys: &[&str]| keys.iter().any(|key| schema.get(*key).is_some());
        let object_keys = ["properties", "additionalProperties", "required"];
        let array_keys = ["items", "prefixItems", "uniqueItems"];
        let other = ["const", "enum"];
        let unions = ["anyOf", "oneOf", "allOf", "$ref"];
        let anything = !said(&object_keys) && !said(&array_keys) && !said(&other);
        let open = said(&unions) || anything;
        Kinds {
            object: has("object").unwrap_or(open || said(&object_keys)),
            array: has("array").unwrap_or(open || said(&array_keys)),
            types,
        }
    }

    /// Whether a schema of these kinds may take `value`'s JSON type.
    fn may_take(&self, value: &Value) -> bool {
        match value {
            Value::Object(_) => self.object,
            Value::Array(_) => self.array,
            _ => self.types.as_ref().is_none_or(|types| {
                types
                    .iter()
                    .any(|ty| crate::parse::schema_check::is_type(value, ty))
            }),
        }
    }
}

impl Union {
    /// How the union of `branches` (inside `root`) is read.
    pub(crate) fn of(root: &Value, branches: &[Value]) -> Union {
        let kinds: Vec<Kinds> = branches.iter().map(|b| Kinds::of(root, b)).collect();
        let objects = kinds.iter().filter(|k| k.object).count();
        let arrays = kinds.iter().filter(|k| k.array).count();
        let shape = if objects <= 1 && arrays <= 1 {
            Shape::ByKind
        } else if arrays <= 1 {
            tagged_shape(root, branches, &kinds)
                .or_else(|| external_shape(root, branches, &kinds))
                .unwrap_or(Shape::Untagged)
        } else {
            Shape::Untagged
        };
        Union { kinds, shape }
    }

    /// The branch `value` picks out: the only one that may take its JSON type, or else the
    /// object branch its tag or its key names. `None` where the value does not tell them apart.
    pub(crate) fn pick(&self, value: &Value) -> Option<usize> {
        let mut typed =
            (0..self.kinds.len()).filter(|&i| self.kinds.get(i).is_some_and(|k| k.may_take(value)));
        if let (Some(only), None) = (typed.next(), typed.next()) {
            return Some(only);
        }
        let Value::Object(map) = value else {
            return None;
        };
        match &self.shape {
            Shape::Tagged { tag, names } => {
                let name = map.get(tag)?.as_str()?;
                names.iter().position(|n| n.as_deref() == Some(name))
            }
            Shape::External { keys } => map
                .keys()
                .find_map(|key| keys.iter().position(|k| k.as_deref() == Some(key))),
            Shape::ByKind | Shape::Untagged => None,
        }
    }
}

/// The union's object branches as a tagged enum, where a property that each has, of one string
/// value (`const`, or an `enum` of one), names each apart.
fn tagged_shape(root: &Value, branches: &[Value], kinds: &[Kinds]) -> Option<Shape> {
    let objects: Vec<&Value> = branches
        .iter()
        .zip(kinds)
        .filter(|(_, k)| k.object)
        .map(|(b, _)| resolve(root, b))
        .collect::<Option<_>>()?;
    let first = objects.first()?;
    let properties = first.get("properties")?.as_object()?;
    let tag = properties.keys().find(|key| {
        let mut names: Vec<&str> = Vec::new();
        objects
            .iter()
            .all(|branch| match tag_value(root, branch, key) {
                Some(name) if !names.contains(&name) => {
                    names.push(name);
                    true
                }
                _ => false,
            })
    })?;
    let names = branches
        .iter()
        .zip(kinds)
        .map(|(branch, kind)| {
            let branch = resolve(root, branch).filter(|_| kind.object)?;
            tag_value(root, branch, tag).map(str::to_owned)
        })
        .collect();
    Some(Shape::Tagged {
        tag: tag.clone(),
        names,
    })
}

/// The one string value the property `key` of `branch` (an object schema) takes.
fn tag_value<'v>(root: &'v Value, branch: &'v Value, key: &str) -> Option<&'v str> {
    let property = branch.get("properties")?.get(key)?;
    let property = resolve(root, property)?;
    match (property.get("const"), property.get("enum")) {
        (Some(Value::String(name)), _) => Some(name),
        (None, Some(Value::Array(values))) => match values.as_slice() {
            [Value::String(name)] => Some(name),
            _ => None,
        },
        _ => None,
    }
}

/// The union's object branches as an externally tagged enum, where each has one property,
/// required, none named as another's.
fn external_shape(root: &Value, branches: &[Value], kinds: &[Kinds]) -> Option<Shape> {
    let mut keys: Vec<Option<String>> = Vec::new();
    for (branch, kind) in branches.iter().zip(kinds) {
        if !kind.object {
            keys.push(None);
            continue;
        }
        let branch = resolve(root, branch)?;
        let properties = branch.get("properties")?.as_object()?;
        let required = branch.get("required")?.as_array()?;
        let [(name, _)] = properties.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        if required.as_slice() != [Value::String(name.clone())]
            || keys.iter().any(|seen| seen.as_ref() == Some(name))
        {
            return None;
        }
        keys.push(Some(name.clone()));
    }
    Some(Shape::External { keys })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::plan_of_schema;
    use crate::parse::plan::{OwnedPlan, Plan};
    use crate::parse::sets::Conflicts;
    use crate::parse::walk::{check_value, fill_value, strip_value_with};

    /// Whether `schema` says `type: "null"` or lists it (enough for these schemas).
    fn takes_null(schema: &Value) -> bool {
        match schema.get("type") {
            Some(Value::String(ty)) => ty == "null",
            Some(Value::Array(types)) => types.contains(&json!("null")),
            _ => schema
                .get("anyOf")
                .and_then(Value::as_array)
                .is_some_and(|branches| branches.iter().any(takes_null)),
        }
    }

    /// A tree of nodes whose kids lead back, with a tagged union, a set and a map in it.
    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {"root": {"$ref": "#/$defs/Node"}},
            "required": ["root"],
            "$defs": {"Node": {
                "type": "object",
                "properties": {
                    "label": {"type": "string", "default": "?"},
                    "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                    "hidden": {"type": "boolean"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                    "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
                    "extra": {"type": "object", "additionalProperties": {"$ref": "#/$defs/Node"}},
                    "shape": {"oneOf": [
                        {"type": "object", "properties": {
                            "kind": {"const": "circle"},
                            "radius": {"type": "integer", "default": 2}
                        }, "required": ["kind"]},
                        {"type": "object", "properties": {
                            "kind": {"const": "square"},
                            "side": {"type": "integer", "default": 3}
                        }, "required": ["kind"]}
                    ]}
                }
            }}
        })
    }

    /// `value` as a dynamic tool reads it: `null`s dropped, defaults written in; then its sets
    /// checked.
    fn read(plan: &OwnedPlan, mut value: Value) -> Result<Value, String> {
        strip_value_with(&mut value, plan.root(), &mut Conflicts::default());
        fill_value(&mut value, plan.root());
        check_value(&value, plan.root()).map_err(|v| crate::ArgsError::from(v).to_string())?;
        Ok(value)
    }

    #[test]
    fn a_plan_of_a_recursive_schema_is_followed_moved_and_dropped() {
        let schema = schema();
        let plan = plan_of_schema(&schema, &takes_null);
        assert!(matches!(plan.root(), Plan::Object(..)), "{:?}", plan.root());
        // Moved (its nodes stay where they are), then read with.
        let plans = vec![plan];
        let plan = plans.into_iter().next().unwrap();
        let value = json!({"root": {
            "label": null, "note": null, "hidden": null,
            "kids": [{"shape": {"kind": "square"}, "kids": [{"extra": {"x": {}}}]}],
            "shape": {"kind": "circle", "radius": null}
        }});
        assert_eq!(
            read(&plan, value),
            Ok(json!({"root": {
                "label": "?", "note": null,
                "kids": [{"label": "?", "shape": {"kind": "square", "side": 3}, "kids": [
                    {"label": "?", "extra": {"x": {"label": "?"}}}
                ]}],
                "shape": {"kind": "circle", "radius": 2}
            }}))
        );
        let repeated = json!({"root": {"kids": [{"tags": ["a", "b", "a"]}]}});
        assert_eq!(
            read(&plan, repeated),
            Err(
                "invalid arguments at `root.kids[0].tags[2]`: repeats item 0: the items of this \
                 list must all differ"
                    .to_owned()
            )
        );
        drop(plan);
    }

    #[test]
    fn a_union_whose_objects_are_not_told_apart_fills_nothing() {
        let schema = json!({"type": "object", "properties": {"either": {"anyOf": [
            {"type": "object", "properties": {"size": {"type": "integer", "default": 5}}},
            {"type": "object", "properties": {"name": {"type": "string"}}}
        ]}}});
        let plan = plan_of_schema(&schema, &takes_null);
        let value = json!({"either": {"name": "a", "size": null}});
        // The `null` of a key a branch defaults is dropped; nothing is written in.
        assert_eq!(read(&plan, value), Ok(json!({"either": {"name": "a"}})));
    }
}
