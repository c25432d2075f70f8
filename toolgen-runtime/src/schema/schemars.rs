//! `schemars::JsonSchema` for derived types (feature `schemars1`): schemars is given the schema
//! toolgen writes, and the entries of its `$defs` go into the generator's definitions, under the
//! names the generator gives them, so that its `$ref`s resolve in whatever root schemars writes.
//!
//! The derive writes the impl; its functions call these. A type's text is parsed once and kept;
//! each call copies it (schemars' `json_schema` returns a `Schema` it owns) and, where the type
//! holds recursive types, points its `$ref`s at the generator's definitions.

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::RwLock;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value};

use crate::kept::kept;
use crate::schema::ToolSchema;
use crate::schema::rope::{DefId, Defs, Rope, def_entries, schema_text};

/// `JsonSchema::schema_id` of a derived type: for a type written as a `$ref` to its entry (it
/// holds itself, or is on a cycle of types), its entry's (the same for the entry met inside
/// another type's schema, so schemars writes it once); else its Rust type's name.
pub fn schemars_id<T: ToolSchema + ?Sized>() -> Cow<'static, str> {
    match T::SCHEMA {
        Rope::Ref(id) => Cow::Owned(entry_id(id)),
        _ => Cow::Borrowed(std::any::type_name::<T>()),
    }
}

/// `JsonSchema::inline_schema` of a derived type: toolgen writes a type inline wherever it is
/// held, but for a type that holds itself or is on a cycle of types, which is a `$ref` to its
/// entry in the definitions.
pub fn schemars_inline<T: ToolSchema + ?Sized>() -> bool {
    !matches!(T::SCHEMA, Rope::Ref(_))
}

/// `JsonSchema::json_schema` of a derived type: toolgen's schema of it
/// ([`ToolSchema::json_schema`]), with the entries of its `$defs` put into the generator's
/// definitions. For a type written as a `$ref` to its entry, the entry (what the definition
/// of the type is).
pub fn schemars_schema<T: ToolSchema + ?Sized>(generator: &mut SchemaGenerator) -> Schema {
    schema_of(&T::SCHEMA, &T::DEFS, generator)
}

/// `JsonSchema::json_schema` of a root schema, `text` (a tool's input, whose `$defs` come from
/// `defs`): the entries of its `$defs` are put into the generator's definitions. A root is
/// inline, also where it holds itself (its references to itself are then to its entry, as in
/// the text).
pub(crate) fn schemars_root(
    text: &'static str,
    defs: &Defs,
    generator: &mut SchemaGenerator,
) -> Schema {
    let parsed = parsed(Cow::Borrowed(text), defs);
    finish(parsed.root.clone(), parsed, generator)
}

fn schema_of(rope: &Rope, defs: &Defs, generator: &mut SchemaGenerator) -> Schema {
    let parsed = parsed(Cow::Owned(schema_text(rope, defs)), defs);
    let own = parsed.own.and_then(|index| parsed.entries.get(index));
    let schema = own.map_or(&parsed.root, |entry| &entry.schema).clone();
    finish(schema, parsed, generator)
}

/// A type's schema as toolgen writes it, parsed once: what each call copies.
struct Parsed {
    /// The schema, without its `$defs`.
    root: Value,
    /// The entries of its `$defs`, in the order toolgen writes them.
    entries: Vec<Entry>,
    /// The entry whose `$ref` the schema is, for a type that is one.
    own: Option<usize>,
}

/// One entry of a schema's `$defs`.
struct Entry {
    /// Its key in toolgen's text (`Node`, `Node-2`), which the text's `$ref`s name; also its
    /// `JsonSchema::schema_name`, so that a generator that has no other type of that name
    /// writes toolgen's keys (schemars adds a number to a name it has given out: `Node-22`).
    key: String,
    /// Who it is (`JsonSchema::schema_id`): the same as its type's own.
    id: String,
    /// Its schema, whose `$ref`s are still toolgen's.
    schema: Value,
}

/// The schema `text` whose `$defs` are those of `defs`, parsed, kept by its text: the same text
/// is the same schema.
fn parsed(text: Cow<'static, str>, defs: &Defs) -> &'static Parsed {
    static PARSED: RwLock<BTreeMap<Cow<'static, str>, &'static Parsed>> =
        RwLock::new(BTreeMap::new());
    kept(&PARSED, text.clone(), || Parsed::new(&text, defs))
}

impl Parsed {
    // The text is the derive's own schema, built at compile time and parsed by the tests of
    // every golden; nothing from a model reaches here.
    #[allow(clippy::expect_used)]
    fn new(text: &str, defs: &Defs) -> Parsed {
        let mut root: Value = serde_json::from_str(text).expect("toolgen writes schemas as JSON");
        let mut written = match root.as_object_mut().and_then(|root| root.remove("$defs")) {
            Some(Value::Object(written)) => written,
            _ => Map::new(),
        };
        let entries: Vec<Entry> = def_entries(defs)
            .into_iter()
            .filter_map(|(id, number)| {
                let name = unescaped(id.name);
                let key = match number {
                    1 => name.clone(),
                    n => format!("{name}-{n}"),
                };
                let schema = written.remove(&key)?;
                Some(Entry {
                    key,
                    id: entry_id(id),
                    schema,
                })
            })
            .collect();
        let own = match root.as_object() {
            Some(object) if object.len() == 1 => object
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|reference| index_of(&entries, reference)),
            _ => None,
        };
        Parsed { root, entries, own }
    }
}

/// The index of the entry a toolgen `$ref` names.
fn index_of(entries: &[Entry], reference: &str) -> Option<usize> {
    let key = reference.strip_prefix("#/$defs/")?;
    entries.iter().position(|entry| entry.key == key)
}

/// The `schema_id` of an entry: where its type is defined, its name, and its type arguments'
/// schemas (as toolgen tells two entries apart: `Tree<u8>` and `Tree<String>` are two). Marked
/// as toolgen's: schemars' derive names a type by its module and its (renamed) name, which a type
/// of the same module may share with a toolgen entry's.
fn entry_id(id: &DefId) -> String {
    let name = unescaped(id.name);
    if id.args.is_empty() {
        format!("toolgen:{}::{name}", id.path)
    } else {
        format!("toolgen:{}::{name}<{:?}>", id.path, id.args)
    }
}

/// A name as the derive writes it (JSON-escaped, without quotes), as text.
fn unescaped(name: &str) -> String {
    serde_json::from_str(&format!("\"{name}\"")).unwrap_or_else(|_| name.to_owned())
}

/// The schema, its `$ref`s pointed at the generator's definitions, as schemars takes it.
fn finish(mut schema: Value, parsed: &'static Parsed, generator: &mut SchemaGenerator) -> Schema {
    if !parsed.entries.is_empty() {
        rewrite(&mut schema, parsed, generator);
    }
    match schema {
        Value::Object(object) => Schema::from(object),
        Value::Bool(value) => Schema::from(value),
        // Toolgen writes every schema as an object.
        _ => Schema::default(),
    }
}

/// Points each toolgen `$ref` of `schema` at the generator's definitions, giving them the
/// entries: walks the keywords that hold schemas, and no others (a property named `$ref`, or a
/// `default` value that looks like one, is left as it is).
fn rewrite(schema: &mut Value, parsed: &'static Parsed, generator: &mut SchemaGenerator) {
    let Value::Object(object) = schema else {
        return;
    };
    let reference = object.get("$ref").and_then(Value::as_str);
    if let Some(index) = reference.and_then(|reference| index_of(&parsed.entries, reference)) {
        let found = register(generator, parsed, index).to_value();
        return refer(schema, found);
    }
    for (keyword, value) in object.iter_mut() {
        match keyword.as_str() {
            "properties" | "patternProperties" | "$defs" | "dependentSchemas" => {
                if let Value::Object(schemas) = value {
                    schemas
                        .values_mut()
                        .for_each(|schema| rewrite(schema, parsed, generator));
                }
            }
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                if let Value::Array(schemas) = value {
                    schemas
                        .iter_mut()
                        .for_each(|schema| rewrite(schema, parsed, generator));
                }
            }
            "items"
            | "additionalProperties"
            | "not"
            | "contains"
            | "propertyNames"
            | "if"
            | "then"
            | "else"
            | "unevaluatedItems"
            | "unevaluatedProperties" => {
                rewrite(value, parsed, generator);
            }
            _ => {}
        }
    }
}

/// Puts what the generator gave for a `$ref` in its place: the generator's own `$ref`, or, where
/// it inlines the entry (`inline_subschemas`), the entry, with the `$ref`'s siblings (a field's
/// `description`) over it.
fn refer(schema: &mut Value, found: Value) {
    let Value::Object(object) = schema else {
        return;
    };
    match found {
        Value::Object(mut found) => {
            if found.len() == 1
                && let Some(reference) = found.remove("$ref")
            {
                object.insert("$ref".to_owned(), reference);
                return;
            }
            object.remove("$ref");
            found.append(object);
            *object = found;
        }
        // An entry is an object; a generator hands back what it was given.
        found => *schema = found,
    }
}

thread_local! {
    /// The entry [`register`] is asking the generator about, for [`DefEntry`]'s functions: the
    /// generator calls them (for its name and id, and for its schema when it adds it) inside
    /// `subschema_for`, which takes a type, not a value.
    static ASKED: Cell<Option<(&'static Parsed, usize)>> = const { Cell::new(None) };
}

/// The generator's schema for entry `index` of `parsed`: a `$ref` to its definition, which the
/// generator adds (named by `schema_name`, made unique among its definitions) the first time it
/// meets the entry's `schema_id`.
fn register(generator: &mut SchemaGenerator, parsed: &'static Parsed, index: usize) -> Schema {
    let before = ASKED.replace(Some((parsed, index)));
    let schema = generator.subschema_for::<DefEntry>();
    ASKED.set(before);
    schema
}

/// The entry asked about, and the schema it belongs to.
fn asked() -> Option<(&'static Parsed, &'static Entry)> {
    let (parsed, index) = ASKED.get()?;
    Some((parsed, parsed.entries.get(index)?))
}

/// An entry of a toolgen schema's `$defs` as schemars sees it: the one [`register`] asks about.
struct DefEntry;

impl JsonSchema for DefEntry {
    fn inline_schema() -> bool {
        false
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed(asked().map_or("", |(_, entry)| entry.key.as_str()))
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed(asked().map_or("", |(_, entry)| entry.id.as_str()))
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        match asked() {
            Some((parsed, entry)) => finish(entry.schema.clone(), parsed, generator),
            None => Schema::default(),
        }
    }
}
