//! Issue 3, serde fidelity: the schema and serde agree on what they accept.
//!
//! Every test type of `serde_types` gets a list of JSON inputs: hand-written ones that serde and
//! the schema must all accept, hand-written ones they must all reject, and generated ones (every
//! key of a valid input removed, replaced by values of other JSON types, an unknown key added;
//! plus the same junk values at the top level) on which they only have to agree. Each input goes to the `jsonschema`
//! validator (2020-12, formats checked) on the type's schema, and to serde twice:
//! `serde_json::from_value::<T>`, and `serde_json::from_str::<T>` on the input's text, which is
//! what `parse_args` does with a model's arguments. The two serde paths agree except where listed.
//!
//! For a tool whose fields have `#[tool(default = ..)]`, both serde verdicts come from
//! `T::parse_args`, which fills those defaults in; plain serde does not know them
//! (`serde_attrs.rs` checks that difference).
//!
//! Where the verdicts are meant to differ, the input is listed as an [`Exception`] with its
//! reason; each listed exception must still be a disagreement of the stated kind, so the list
//! cannot go stale. The reasons are the `Reason` constants below.
//!
//! One tolerance is not listed input by input, as it is everywhere an `Option` field is: serde
//! reads a `null` for an `Option` as `None`, where the schema writes the optional field as its
//! inner type, left out of `required` (as published tools do; `#[tool(nullable)]` shows the
//! `null`). Where serde accepts an input and the schema accepts it once the `null` members of its
//! objects are left out, the schema's verdict is taken as "accepts" ([`OPTIONAL_NULL`]); such
//! inputs are counted, and must be found.

mod serde_types;

use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use serde_types::*;
use toolgen::{Tool, ToolSchema};

/// Why the verdicts on an input are meant to differ.
type Reason = &'static str;

const ALIAS: Reason = "serde also reads `#[serde(alias)]` names; the schema advertises only the \
     primary name (rejected there as a missing required property, or an unknown variant)";
const ALIAS_TWICE: Reason = "the primary name and an alias together: serde reports a duplicate \
     field, the schema sees an extra property it allows";
const SEQ_FORM: Reason = "serde also reads a struct from a JSON array of its fields in order; \
     the schema offers the object form, which is what models should send";
const SEQ_FORM_TEXT: Reason = "serde_json's text deserializer also reads an externally tagged \
     struct variant from an array of its fields; `from_value` and the schema do not";
const UNIT_MAP_FORM: Reason = "serde_json also reads an externally tagged unit variant written \
     as `{\"Name\": null}`; the schema offers only the string form";
const FLAT_UNIT_MAP: Reason = "a flattened externally tagged enum's unit variant: serde also \
     reads `{}` as its unit value; the schema offers `null`";
const INTEGRAL_FLOAT: Reason = "JSON Schema counts 5.0 as an integer; serde_json reads it as a \
     float, which an integer field rejects";
const SET_DUPLICATES: Reason = "a set's schema says `uniqueItems`; plain serde drops repeated \
     items (`parse_args` rejects them, with their path: tests/parse.rs)";
const TRY_FROM: Reason = "`#[serde(try_from)]`'s conversion checks more than its source type \
     (here: at most 100); the schema is the source type's";
const DOUBLE_ENCODED: Reason = "`parse_args` tolerates arguments encoded twice (a JSON string \
     holding the object), as some models send them; the schema describes the object";
const NULL_DEFAULT: Reason = "`parse_args` drops a `null` sent for a field with a default, so the \
     default applies (OpenAI strict mode makes every field required and nullable, and models send \
     `null` for what they would leave out: tests/nulls.rs); the standard schema has no `null` there";
const OPTIONAL_NULL: Reason = "serde reads a `null` for an `Option` as `None`; the schema writes \
     an optional field as its inner type, left out of `required` (a tolerance the README lists)";
const CONSTRAINT: Reason = "`range`, `length`, `pattern` and `format`: plain serde does not \
     check them (`parse_args` does, and agrees with the schema there)";

/// The verdicts on an input: serde's `from_value`, serde's `from_str`, and the schema's.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Verdicts {
    value: bool,
    text: bool,
    schema: bool,
}

impl std::fmt::Display for Verdicts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "from_value {}, from_str {}, schema {}",
            word(self.value),
            word(self.text),
            word(self.schema)
        )
    }
}

fn word(accepts: bool) -> &'static str {
    if accepts { "accepts" } else { "rejects" }
}

/// Which side alone accepts a listed input.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Gap {
    /// serde (both ways) accepts, the schema rejects.
    Serde,
    /// The schema accepts, serde (both ways) rejects.
    Schema,
    /// Only serde's `from_str` accepts.
    FromStr,
}

impl Gap {
    fn verdicts(self) -> Verdicts {
        let (value, text, schema) = match self {
            Gap::Serde => (true, true, false),
            Gap::Schema => (false, false, true),
            Gap::FromStr => (false, true, false),
        };
        Verdicts {
            value,
            text,
            schema,
        }
    }
}

/// An input on which the verdicts are meant to differ.
struct Exception {
    input: Value,
    gap: Gap,
    reason: Reason,
}

fn serde_only(input: Value, reason: Reason) -> Exception {
    Exception {
        input,
        gap: Gap::Serde,
        reason,
    }
}

fn schema_only(input: Value, reason: Reason) -> Exception {
    Exception {
        input,
        gap: Gap::Schema,
        reason,
    }
}

fn text_only(input: Value) -> Exception {
    Exception {
        input,
        gap: Gap::FromStr,
        reason: SEQ_FORM_TEXT,
    }
}

/// A type under test: its schema, and whether serde accepts a value (as a `Value`, as text).
struct Subject {
    name: &'static str,
    schema: Value,
    from_value: fn(&Value) -> bool,
    from_str: fn(&Value) -> bool,
}

fn from_value<T: ToolSchema + DeserializeOwned>(name: &'static str) -> Subject {
    let text = T::json_schema();
    Subject {
        name,
        schema: serde_json::from_str(&text).expect("the schema is JSON"),
        from_value: |value| serde_json::from_value::<T>(value.clone()).is_ok(),
        from_str: |value| serde_json::from_str::<T>(&value.to_string()).is_ok(),
    }
}

fn parse_args<T: Tool>(name: &'static str) -> Subject {
    Subject {
        name,
        schema: serde_json::from_str(T::INPUT_SCHEMA).expect("the schema is JSON"),
        from_value: |value| T::parse_args(&value.to_string()).is_ok(),
        from_str: |value| T::parse_args(&value.to_string()).is_ok(),
    }
}

/// The inputs for one subject.
#[derive(Default)]
struct Inputs {
    /// All must accept these.
    accept: Vec<Value>,
    /// All must reject these.
    reject: Vec<Value>,
    /// Valid inputs whose objects (at any depth) are mutated; the verdicts must agree.
    mutate: Vec<Value>,
    /// Meant disagreements.
    exceptions: Vec<Exception>,
}

/// Values of every JSON type, put where a valid input had something else.
fn junk() -> Vec<Value> {
    vec![
        json!(null),
        json!("text"),
        json!(7),
        json!(-1),
        json!(2.5),
        json!(true),
        json!([]),
        json!({}),
    ]
}

/// Every object in `value` (at any depth, through arrays too) with each key removed, each
/// value replaced by [`junk`], and an unknown key added.
fn mutations(value: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    mutate_at(value, &mut |v| v, &mut out);
    out
}

/// `rebuild` puts a changed `value` back in place in the whole input.
fn mutate_at(value: &Value, rebuild: &mut dyn FnMut(Value) -> Value, out: &mut Vec<Value>) {
    match value {
        Value::Object(map) => {
            for key in map.keys() {
                let mut removed = map.clone();
                removed.shift_remove(key);
                out.push(rebuild(Value::Object(removed)));
                for junk in junk() {
                    let mut replaced = map.clone();
                    replaced.insert(key.clone(), junk);
                    out.push(rebuild(Value::Object(replaced)));
                }
            }
            let mut added = map.clone();
            added.insert("zz_unknown".to_owned(), json!(1));
            out.push(rebuild(Value::Object(added)));
            for (key, inner) in map {
                let mut rebuild_inner = |changed: Value| {
                    let mut map = map.clone();
                    map.insert(key.clone(), changed);
                    rebuild(Value::Object(map))
                };
                mutate_at(inner, &mut rebuild_inner, out);
            }
        }
        Value::Array(items) => {
            for (i, inner) in items.iter().enumerate() {
                let mut rebuild_inner = |changed: Value| {
                    let mut items = items.clone();
                    items[i] = changed;
                    rebuild(Value::Array(items))
                };
                mutate_at(inner, &mut rebuild_inner, out);
            }
        }
        _ => {}
    }
}

/// The running tally, and every unexpected result.
#[derive(Default)]
struct Suite {
    total: usize,
    hand_written: usize,
    generated: usize,
    exceptions: usize,
    /// Inputs with a `null` for an optional field ([`OPTIONAL_NULL`]).
    optional_nulls: usize,
    failures: Vec<String>,
}

/// `value` without the `null` members of its objects, at any depth.
fn without_null_members(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, member)| !member.is_null())
                .map(|(key, member)| (key.clone(), without_null_members(member)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_null_members).collect()),
        other => other.clone(),
    }
}

impl Suite {
    fn run(&mut self, subject: Subject, inputs: Inputs) {
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build(&subject.schema)
            .unwrap_or_else(|e| panic!("{}: the schema does not compile: {e}", subject.name));
        let name = subject.name;
        let raw = |input: &Value| Verdicts {
            value: (subject.from_value)(input),
            text: (subject.from_str)(input),
            schema: validator.is_valid(input),
        };
        let mut optional_nulls = 0;
        let mut verdicts = |input: &Value| {
            let mut got = raw(input);
            if got == Gap::Serde.verdicts() && validator.is_valid(&without_null_members(input)) {
                optional_nulls += 1;
                got.schema = true;
            }
            got
        };
        let all = |accepts: bool| Verdicts {
            value: accepts,
            text: accepts,
            schema: accepts,
        };

        for (expected, list) in [(true, &inputs.accept), (false, &inputs.reject)] {
            for input in list {
                self.total += 1;
                self.hand_written += 1;
                let got = verdicts(input);
                if got != all(expected) {
                    self.failures.push(format!(
                        "{name}: {input}: expected all to {}, but {got}",
                        word(expected)
                    ));
                }
            }
        }
        let mut generated: Vec<Value> = inputs.mutate.iter().flat_map(mutations).collect();
        generated.extend(junk());
        generated.extend([json!(1.0), json!([1, 2]), json!({"a": 1}), json!("")]);
        // Each generated input once, and none that is listed by hand.
        let mut seen: std::collections::HashSet<String> = (inputs.accept.iter())
            .chain(&inputs.reject)
            .chain(inputs.exceptions.iter().map(|e| &e.input))
            .map(Value::to_string)
            .collect();
        generated.retain(|input| seen.insert(input.to_string()));
        for input in &generated {
            self.total += 1;
            self.generated += 1;
            let got = verdicts(input);
            if got != all(got.schema) {
                self.failures
                    .push(format!("{name}: {input} (generated): {got}"));
            }
        }
        self.optional_nulls += optional_nulls;
        for exception in &inputs.exceptions {
            self.total += 1;
            self.exceptions += 1;
            let got = raw(&exception.input);
            if got != exception.gap.verdicts() {
                self.failures.push(format!(
                    "{name}: {}: listed as accepted by {:?} alone ({}), but {got}",
                    exception.input, exception.gap, exception.reason
                ));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The inputs, type by type
// ---------------------------------------------------------------------------------------------

fn container(suite: &mut Suite) {
    suite.run(
        from_value::<ContainerRename>("ContainerRename"),
        Inputs {
            accept: vec![json!({"count": 0}), json!({"count": 5, "other": true})],
            reject: vec![
                json!({}),
                json!({"count": -1}),
                json!({"count": "5"}),
                json!({"count": 4_294_967_296_u64}),
                json!({"Renamed": {"count": 1}}),
            ],
            mutate: vec![json!({"count": 3})],
            exceptions: vec![
                serde_only(json!([3]), SEQ_FORM),
                schema_only(json!({"count": 5.0}), INTEGRAL_FLOAT),
            ],
        },
    );
    suite.run(
        from_value::<RenamedTree>("RenamedTree"),
        Inputs {
            accept: vec![
                json!({"label": "root", "children": []}),
                json!({"label": "a", "children": [
                    {"label": "b", "children": []},
                    {"label": "c", "children": [{"label": "d", "children": []}]},
                ]}),
            ],
            reject: vec![
                json!({"label": "a"}),
                json!({"label": "a", "children": [{"label": "b"}]}),
                json!({"label": "a", "children": [null]}),
                json!({"label": "a", "children": {"label": "b", "children": []}}),
            ],
            mutate: vec![json!({"label": "a", "children": [{"label": "b", "children": []}]})],
            exceptions: vec![serde_only(
                json!({"label": "a", "children": [["b", []]]}),
                SEQ_FORM,
            )],
        },
    );
    rename_all(suite);
    suite.run(
        from_value::<RenameAllFields>("RenameAllFields"),
        Inputs {
            accept: vec![
                json!({"circle": {"radiusMm": 3}}),
                json!({"rect": {"widthMm": 1, "heightMm": 2}}),
                json!({"text_label": {"TEXT_VALUE": "x"}}),
            ],
            reject: vec![
                json!({"circle": {"radius_mm": 3}}),
                json!({"Circle": {"radiusMm": 3}}),
                json!({"rect": {"widthMm": 1}}),
                json!({"text_label": {"textValue": "x"}}),
                json!({"textLabel": {"TEXT_VALUE": "x"}}),
                json!("circle"),
            ],
            mutate: vec![
                json!({"rect": {"widthMm": 1, "heightMm": 2}}),
                json!({"text_label": {"TEXT_VALUE": "x"}}),
            ],
            exceptions: vec![text_only(json!({"rect": [1, 2]}))],
        },
    );
    suite.run(
        from_value::<ContainerDefault>("ContainerDefault"),
        Inputs {
            accept: vec![
                json!({}),
                json!({"retries": 1}),
                json!({"label": "x", "verbose": true, "retries": 0}),
                json!({"other": [1]}),
            ],
            reject: vec![
                json!({"retries": -1}),
                json!({"label": null}),
                json!({"verbose": "yes"}),
                json!(null),
            ],
            mutate: vec![json!({"retries": 1, "label": "a", "verbose": false})],
            exceptions: vec![
                serde_only(json!([]), SEQ_FORM),
                serde_only(json!([2, "b"]), SEQ_FORM),
            ],
        },
    );
    suite.run(
        from_value::<DenyUnknownFields>("DenyUnknownFields"),
        Inputs {
            accept: vec![
                json!({"name": "a"}),
                json!({"name": "a", "limit": null}),
                json!({"name": "a", "limit": 3}),
            ],
            reject: vec![
                json!({"name": "a", "extra": 1}),
                json!({"limit": 3}),
                json!({"name": "a", "limit": 256}),
                json!({"Name": "a"}),
            ],
            mutate: vec![json!({"name": "a", "limit": 3})],
            exceptions: vec![serde_only(json!(["a", 3]), SEQ_FORM)],
        },
    );
    suite.run(
        from_value::<Meters>("Meters"),
        Inputs {
            accept: vec![json!(1.5), json!(0), json!(-3), json!(1e300)],
            reject: vec![json!("1"), json!(null), json!([1.5]), json!({"0": 1.5})],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<TransparentNamed>("TransparentNamed"),
        Inputs {
            accept: vec![json!([]), json!(["a", "b"])],
            reject: vec![json!(["a", 1]), json!({"tags": []}), json!("a")],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<Rgb>("Rgb"),
        Inputs {
            accept: vec![json!({"r": 1, "g": 2, "b": 3})],
            reject: vec![json!({"r": 256, "g": 0, "b": 0}), json!({"r": 1, "g": 2})],
            mutate: vec![json!({"r": 1, "g": 2, "b": 3})],
            exceptions: vec![serde_only(json!([1, 2, 3]), SEQ_FORM)],
        },
    );
    suite.run(
        from_value::<Percent>("Percent"),
        Inputs {
            accept: vec![json!(0), json!(100)],
            reject: vec![json!(-1), json!(256), json!("5")],
            exceptions: vec![
                schema_only(json!(1.0), INTEGRAL_FLOAT),
                schema_only(json!(101), TRY_FROM),
                schema_only(json!(255), TRY_FROM),
            ],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<Page<u8>>("Page<u8>"),
        Inputs {
            accept: vec![
                json!({"items": [1, 2]}),
                json!({"items": [], "next": "x"}),
                json!({"items": [], "next": null}),
            ],
            reject: vec![json!({"items": [256]}), json!({"next": "x"})],
            mutate: vec![json!({"items": [1], "next": "p2"})],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<CratePath>("CratePath"),
        Inputs {
            accept: vec![json!({"enabled": true})],
            reject: vec![json!({"enabled": 1})],
            mutate: vec![json!({"enabled": false})],
            ..Inputs::default()
        },
    );
}

/// For each rule: the three field names serde reads, then the three variant names.
fn rename_all(suite: &mut Suite) {
    let fields: [(Subject, [&str; 3]); 8] = [
        (
            from_value::<FieldsLowercase>("FieldsLowercase"),
            ["first_name", "http_status", "x"],
        ),
        (
            from_value::<FieldsUppercase>("FieldsUppercase"),
            ["FIRST_NAME", "HTTP_STATUS", "X"],
        ),
        (
            from_value::<FieldsPascalCase>("FieldsPascalCase"),
            ["FirstName", "HttpStatus", "X"],
        ),
        (
            from_value::<FieldsCamelCase>("FieldsCamelCase"),
            ["firstName", "httpStatus", "x"],
        ),
        (
            from_value::<FieldsSnakeCase>("FieldsSnakeCase"),
            ["first_name", "http_status", "x"],
        ),
        (
            from_value::<FieldsScreamingSnakeCase>("FieldsScreamingSnakeCase"),
            ["FIRST_NAME", "HTTP_STATUS", "X"],
        ),
        (
            from_value::<FieldsKebabCase>("FieldsKebabCase"),
            ["first-name", "http-status", "x"],
        ),
        (
            from_value::<FieldsScreamingKebabCase>("FieldsScreamingKebabCase"),
            ["FIRST-NAME", "HTTP-STATUS", "X"],
        ),
    ];
    let all_field_names: Vec<[&str; 3]> = fields.iter().map(|(_, names)| *names).collect();
    for (subject, [first, http, x]) in fields {
        let valid = json!({first: "Ada", http: 200, x: true});
        // The same values under every other rule's names.
        let reject = all_field_names
            .iter()
            .filter(|names| names[0] != first)
            .map(|[a, b, c]| json!({*a: "Ada", *b: 200, *c: true}))
            .collect();
        suite.run(
            subject,
            Inputs {
                accept: vec![valid.clone()],
                reject,
                mutate: vec![valid],
                exceptions: vec![serde_only(json!(["Ada", 200, true]), SEQ_FORM)],
            },
        );
    }

    let variants: [(Subject, [&str; 3]); 8] = [
        (
            from_value::<VariantsLowercase>("VariantsLowercase"),
            ["alpha", "firstvalue", "httpstatus"],
        ),
        (
            from_value::<VariantsUppercase>("VariantsUppercase"),
            ["ALPHA", "FIRSTVALUE", "HTTPSTATUS"],
        ),
        (
            from_value::<VariantsPascalCase>("VariantsPascalCase"),
            ["Alpha", "FirstValue", "HttpStatus"],
        ),
        (
            from_value::<VariantsCamelCase>("VariantsCamelCase"),
            ["alpha", "firstValue", "httpStatus"],
        ),
        (
            from_value::<VariantsSnakeCase>("VariantsSnakeCase"),
            ["alpha", "first_value", "http_status"],
        ),
        (
            from_value::<VariantsScreamingSnakeCase>("VariantsScreamingSnakeCase"),
            ["ALPHA", "FIRST_VALUE", "HTTP_STATUS"],
        ),
        (
            from_value::<VariantsKebabCase>("VariantsKebabCase"),
            ["alpha", "first-value", "http-status"],
        ),
        (
            from_value::<VariantsScreamingKebabCase>("VariantsScreamingKebabCase"),
            ["ALPHA", "FIRST-VALUE", "HTTP-STATUS"],
        ),
    ];
    let mut all_variant_names: Vec<&str> = variants.iter().flat_map(|(_, names)| *names).collect();
    all_variant_names.sort_unstable();
    all_variant_names.dedup();
    for (subject, names) in variants {
        let accept = names.iter().map(|name| json!(name)).collect();
        let reject = all_variant_names
            .iter()
            .filter(|name| !names.contains(name))
            .map(|name| json!(name))
            .collect();
        let exceptions = names
            .iter()
            .map(|name| serde_only(json!({*name: null}), UNIT_MAP_FORM))
            .collect();
        suite.run(
            subject,
            Inputs {
                accept,
                reject,
                exceptions,
                ..Inputs::default()
            },
        );
    }
    suite.run(
        from_value::<FieldsRenameAllDeserialize>("FieldsRenameAllDeserialize"),
        Inputs {
            accept: vec![json!({"first-name": "Ada", "http-status": 200})],
            reject: vec![
                json!({"FIRST_NAME": "Ada", "HTTP_STATUS": 200}),
                json!({"first_name": "Ada", "http_status": 200}),
            ],
            mutate: vec![json!({"first-name": "Ada", "http-status": 200})],
            exceptions: vec![serde_only(json!(["Ada", 200]), SEQ_FORM)],
        },
    );
}

fn operations(suite: &mut Suite) {
    let add_child = json!({
        "action": "addChild", "id": "op-1", "targetNodeId": "6f1c", "description": "Add a child",
        "title": "New node",
    });
    let add_trees = json!({
        "action": "addChildTrees", "id": "op-2", "targetNodeId": "6f1c", "description": "Trees",
        "children": [
            {"title": "a"},
            {"title": "b", "note": "n", "children": [{"title": "c", "children": []}]},
        ],
    });
    let update_title = json!({
        "action": "updateTitle", "id": "op-3", "targetNodeId": "6f1c", "description": "Rename",
        "title": "Better",
    });
    let update_note = json!({
        "action": "updateNote", "id": "op-4", "targetNodeId": "6f1c", "description": "Note",
        "note": "text",
    });
    let delete = json!({
        "action": "deleteNode", "id": "op-5", "targetNodeId": "6f1c", "description": "Remove",
    });
    suite.run(
        from_value::<Operation>("Operation"),
        Inputs {
            accept: vec![
                add_child.clone(),
                add_trees.clone(),
                update_title.clone(),
                update_note.clone(),
                delete.clone(),
                json!({"action": "updateNote", "id": "a", "targetNodeId": "b", "description": "c"}),
                json!({"action": "updateNote", "id": "a", "targetNodeId": "b", "description": "c",
                    "note": null}),
                json!({"description": "c", "targetNodeId": "b", "id": "a", "action": "deleteNode"}),
                json!({"action": "deleteNode", "id": "a", "targetNodeId": "b", "description": "c",
                    "title": "ignored"}),
            ],
            reject: vec![
                json!({"action": "addChild", "id": "a", "targetNodeId": "b", "description": "c"}),
                json!({"action": "AddChild", "id": "a", "targetNodeId": "b", "description": "c",
                    "title": "t"}),
                json!({"action": "add_child", "id": "a", "targetNodeId": "b", "description": "c",
                    "title": "t"}),
                json!({"action": "addChild", "id": "a", "target_node_id": "b", "description": "c",
                    "title": "t"}),
                json!({"action": "deleteNode", "id": "a", "targetNodeId": "b"}),
                json!({"id": "a", "targetNodeId": "b", "description": "c", "title": "t"}),
                json!({"addChild": {"id": "a", "targetNodeId": "b", "description": "c",
                    "title": "t"}}),
                json!({"action": "addChildTrees", "id": "a", "targetNodeId": "b",
                    "description": "c", "children": [{"note": "no title"}]}),
                json!({"action": null, "id": "a", "targetNodeId": "b", "description": "c"}),
                // serde_json reads a tag only as a string, never as the variant's index.
                json!({"action": 0, "id": "a", "targetNodeId": "b", "description": "c",
                    "title": "t"}),
                json!({"action": 4, "id": "a", "targetNodeId": "b", "description": "c"}),
            ],
            mutate: vec![
                add_child.clone(),
                add_trees.clone(),
                update_note,
                delete.clone(),
            ],
            ..Inputs::default()
        },
    );
    suite.run(
        parse_args::<SuggestOperations>("SuggestOperations"),
        Inputs {
            accept: vec![
                json!({"operations": []}),
                json!({"operations": [add_child.clone(), add_trees, update_title, delete]}),
            ],
            reject: vec![
                json!({}),
                json!({"operations": add_child.clone()}),
                json!({"operations": [add_child.clone(), {"action": "moveNode"}]}),
            ],
            mutate: vec![json!({"operations": [add_child]})],
            ..Inputs::default()
        },
    );
}

fn representations(suite: &mut Suite) {
    suite.run(
        from_value::<External>("External"),
        Inputs {
            accept: vec![
                json!("Stop"),
                json!("Pause"),
                json!({"Wait": 1}),
                json!({"Goto": {"x": 1, "y": -2}}),
                json!({"Pair": [1, "a"]}),
                json!({"Move": {"dx": 1}}),
                json!({"Move": {"dx": 1, "dy": null}}),
                json!({"Move": {"dx": 1, "dy": 2, "dz": 3}}),
            ],
            reject: vec![
                json!("Wait"),
                json!("stop"),
                json!({"Stop": 1}),
                json!({"Wait": 1, "Pause": null}),
                json!({}),
                json!({"Pair": [1]}),
                json!({"Pair": [1, "a", 2]}),
                json!({"Move": {}}),
                json!({"Wait": -1}),
                json!({"Goto": {"x": 1}}),
            ],
            mutate: vec![
                json!({"Wait": 1}),
                json!({"Goto": {"x": 1, "y": 2}}),
                json!({"Pair": [1, "a"]}),
                json!({"Move": {"dx": 1, "dy": 2}}),
            ],
            exceptions: vec![
                serde_only(json!({"Stop": null}), UNIT_MAP_FORM),
                serde_only(json!({"Goto": [1, 2]}), SEQ_FORM),
                text_only(json!({"Move": [1, null]})),
                schema_only(json!({"Wait": 1.0}), INTEGRAL_FLOAT),
            ],
        },
    );
    suite.run(
        from_value::<Internal>("Internal"),
        Inputs {
            accept: vec![
                json!({"kind": "Stop"}),
                json!({"kind": "Stop", "x": 1}),
                json!({"kind": "Goto", "x": 1, "y": 2}),
                json!({"y": 2, "kind": "Goto", "x": 1}),
                json!({"kind": "Labels"}),
                json!({"kind": "Labels", "a": 1, "b": 2}),
                json!({"kind": "Move", "dx": 1}),
                json!({"kind": "Move", "dx": 1, "dy": null, "other": "x"}),
            ],
            reject: vec![
                json!({"kind": "Labels", "a": "x"}),
                json!({"kind": "Labels", "a": -1}),
                json!({"kind": "Goto", "x": 1}),
                json!({"kind": "Pair"}),
                json!({"x": 1, "y": 2}),
                json!("Stop"),
                json!({"Stop": null}),
                json!({"kind": "stop"}),
                json!({"kind": 0}),
                json!({"kind": 3, "dx": 1}),
            ],
            mutate: vec![
                json!({"kind": "Stop"}),
                json!({"kind": "Goto", "x": 1, "y": 2}),
                json!({"kind": "Labels", "a": 1}),
                json!({"kind": "Move", "dx": 1, "dy": 2}),
            ],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<InternalStrict>("InternalStrict"),
        Inputs {
            accept: vec![
                json!({"kind": "Stop"}),
                json!({"kind": "Stop", "extra": 1}),
                json!({"kind": "Goto", "x": 1, "y": 2}),
                json!({"kind": "Goto", "x": 1, "y": 2, "extra": 1}),
                json!({"kind": "Move", "dx": 1}),
            ],
            reject: vec![
                json!({"kind": "Move", "dx": 1, "extra": 1}),
                json!({"kind": "Move"}),
                json!({"kind": 2, "dx": 1}),
            ],
            mutate: vec![
                json!({"kind": "Stop"}),
                json!({"kind": "Goto", "x": 1, "y": 2}),
                json!({"kind": "Move", "dx": 1}),
            ],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<ExternalStrict>("ExternalStrict"),
        Inputs {
            accept: vec![
                json!("Stop"),
                json!({"Goto": {"x": 1, "y": 2}}),
                json!({"Goto": {"x": 1, "y": 2, "z": 3}}),
                json!({"Move": {"dx": 1}}),
            ],
            reject: vec![json!({"Move": {"dx": 1, "dy": 2}}), json!({"Move": {}})],
            mutate: vec![
                json!({"Goto": {"x": 1, "y": 2}}),
                json!({"Move": {"dx": 1}}),
            ],
            exceptions: vec![
                serde_only(json!({"Stop": null}), UNIT_MAP_FORM),
                serde_only(json!({"Goto": [1, 2]}), SEQ_FORM),
                text_only(json!({"Move": [1]})),
            ],
        },
    );
    suite.run(
        from_value::<InternalStrictContent>("InternalStrictContent"),
        Inputs {
            accept: vec![json!({"kind": "Goto", "x": 1, "y": 2})],
            reject: vec![
                json!({"kind": "Goto", "x": 1}),
                json!({"kind": "Goto", "x": 1, "y": 2, "z": 3}),
                json!({"kind": "Goto", "x": 1, "y": 2, "zz_unknown": 1}),
            ],
            mutate: vec![json!({"kind": "Goto", "x": 1, "y": 2})],
            exceptions: vec![],
        },
    );
    suite.run(
        from_value::<AdjacentStrict>("AdjacentStrict"),
        Inputs {
            accept: vec![
                json!({"t": "Stop"}),
                json!({"t": "Stop", "c": null}),
                json!({"t": "Goto", "c": {"x": 1, "y": 2}}),
                json!({"t": "Goto", "c": {"x": 1, "y": 2, "z": 3}}),
                json!({"t": "Move", "c": {"dx": 1}}),
            ],
            reject: vec![
                json!({"t": "Stop", "other": 1}),
                json!({"t": "Move", "c": {"dx": 1}, "other": 1}),
                json!({"t": "Move", "c": {"dx": 1, "dy": 2}}),
            ],
            mutate: vec![
                json!({"t": "Stop"}),
                json!({"t": "Goto", "c": {"x": 1, "y": 2}}),
                json!({"t": "Move", "c": {"dx": 1}}),
            ],
            exceptions: vec![serde_only(json!({"t": "Goto", "c": [1, 2]}), SEQ_FORM)],
        },
    );
    suite.run(
        from_value::<Adjacent>("Adjacent"),
        Inputs {
            accept: vec![
                json!({"t": "Stop"}),
                json!({"t": "Stop", "c": null}),
                json!({"t": "Wait", "c": 1}),
                json!({"c": 1, "t": "Wait"}),
                json!({"t": "Note", "c": "x"}),
                json!({"t": "Note", "c": null}),
                json!({"t": "Note"}),
                json!({"t": "Pair", "c": [1, "a"]}),
                json!({"t": "Move", "c": {"dx": 1}}),
                json!({"t": "Wait", "c": 1, "z": 0}),
            ],
            reject: vec![
                json!({"t": "Wait"}),
                json!({"c": 1}),
                json!({"t": "Stop", "c": 1}),
                json!({"t": "Move", "c": {}}),
                json!({"t": "Pair", "c": [1]}),
                json!({"t": "Pair"}),
                json!({"Wait": 1}),
                json!({"t": "Wait", "c": "1"}),
                json!({"t": 1, "c": 5}),
                json!({"t": "Move", "c": [1, null]}),
            ],
            mutate: vec![
                json!({"t": "Stop"}),
                json!({"t": "Wait", "c": 1}),
                json!({"t": "Note", "c": "x"}),
                json!({"t": "Pair", "c": [1, "a"]}),
                json!({"t": "Move", "c": {"dx": 1, "dy": 2}}),
            ],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<Untagged>("Untagged"),
        Inputs {
            accept: vec![
                json!(null),
                json!("x"),
                json!(""),
                json!([1, 2]),
                json!({"name": "a", "count": 1}),
                json!({"name": "a", "count": 1, "more": true}),
            ],
            reject: vec![
                json!(true),
                json!(1),
                json!([1]),
                json!([1, 2, 3]),
                json!([256, 1]),
                json!({"name": "a"}),
                json!({"Word": "x"}),
                // Not the struct variant in its array form either: serde tries that only for
                // a struct, not for an untagged struct variant.
                json!(["a", 1]),
            ],
            mutate: vec![json!({"name": "a", "count": 1})],
            ..Inputs::default()
        },
    );
}

fn fields(suite: &mut Suite) {
    suite.run(
        from_value::<FieldRename>("FieldRename"),
        Inputs {
            accept: vec![json!({"type": "a", "size": 1})],
            reject: vec![json!({"kind": "a", "size": 1}), json!({"size": 1})],
            mutate: vec![json!({"type": "a", "size": 1})],
            exceptions: vec![serde_only(json!(["a", 1]), SEQ_FORM)],
        },
    );
    suite.run(
        from_value::<FieldRenameDeserialize>("FieldRenameDeserialize"),
        Inputs {
            accept: vec![json!({"in_value": 1})],
            reject: vec![json!({"out_value": 1}), json!({"value": 1})],
            mutate: vec![json!({"in_value": 1})],
            exceptions: vec![serde_only(json!([1]), SEQ_FORM)],
        },
    );
    suite.run(
        from_value::<FieldAlias>("FieldAlias"),
        Inputs {
            accept: vec![json!({"color": "red"})],
            reject: vec![json!({"Color": "red"}), json!({})],
            mutate: vec![json!({"color": "red"})],
            exceptions: vec![
                serde_only(json!({"colour": "red"}), ALIAS),
                serde_only(json!({"hue": "red"}), ALIAS),
                schema_only(json!({"color": "red", "colour": "blue"}), ALIAS_TWICE),
                serde_only(json!(["red"]), SEQ_FORM),
            ],
        },
    );
    let all_defaults = json!({
        "flag": true, "count": 1, "offset": -5, "ratio": 0.5, "name": "n", "tags": ["t"],
        "unique": [1, 2], "scores": {"a": 1}, "limit": 9, "speed": "Slow",
        "margins": {"top": 1, "bottom": 2}, "id": 7,
    });
    suite.run(
        from_value::<FieldDefaults>("FieldDefaults"),
        Inputs {
            accept: vec![
                json!({"id": 1}),
                all_defaults.clone(),
                json!({"id": 1, "speed": "Fast"}),
                json!({"id": 1, "limit": null}),
                json!({"id": 1, "scores": {}}),
            ],
            reject: vec![
                json!({}),
                json!({"id": 1, "speed": "Medium"}),
                json!({"id": 1, "flag": null}),
                json!({"id": 1, "margins": {}}),
                json!({"id": 1, "unique": [256]}),
                json!({"id": 1, "scores": {"a": -1}}),
            ],
            mutate: vec![all_defaults],
            exceptions: vec![serde_only(
                json!({"id": 1, "unique": [1, 1]}),
                SET_DUPLICATES,
            )],
        },
    );
    suite.run(
        from_value::<FieldDefaultPath>("FieldDefaultPath"),
        Inputs {
            accept: vec![json!({"host": "h"}), json!({"host": "h", "port": 1})],
            reject: vec![json!({"port": 1}), json!({"host": "h", "port": 70000})],
            mutate: vec![json!({"host": "h", "port": 1})],
            exceptions: vec![serde_only(json!(["h"]), SEQ_FORM)],
        },
    );
    suite.run(
        from_value::<FieldSkip>("FieldSkip"),
        Inputs {
            accept: vec![
                json!({"query": "q"}),
                // Skipped fields are not read: their names are unknown keys, which serde ignores.
                json!({"query": "q", "cache": "anything", "hits": "x"}),
            ],
            reject: vec![json!({}), json!({"cache": [1]})],
            mutate: vec![json!({"query": "q"})],
            exceptions: vec![serde_only(json!(["q"]), SEQ_FORM)],
        },
    );
    suite.run(
        from_value::<FieldSkipSerializing>("FieldSkipSerializing"),
        Inputs {
            accept: vec![
                json!({"secret": "s", "items": []}),
                json!({"secret": "s", "note": "n", "items": [1]}),
            ],
            reject: vec![json!({"secret": "s"}), json!({"items": []})],
            mutate: vec![json!({"secret": "s", "note": "n", "items": [1]})],
            exceptions: vec![serde_only(json!(["s", null, []]), SEQ_FORM)],
        },
    );
    suite.run(
        from_value::<FlattenStruct>("FlattenStruct"),
        Inputs {
            accept: vec![
                json!({"query": "q", "page": 1}),
                json!({"page": 1, "query": "q", "per_page": null}),
                json!({"query": "q", "page": 1, "per_page": 20, "extra": {}}),
            ],
            reject: vec![
                json!({"query": "q"}),
                json!({"query": "q", "paging": {"page": 1}}),
                json!({"query": "q", "page": 1, "per_page": 300}),
                json!(["q", 1]),
            ],
            mutate: vec![json!({"query": "q", "page": 1, "per_page": 20})],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<FlattenMap>("FlattenMap"),
        Inputs {
            accept: vec![json!({"id": 1}), json!({"id": 1, "a": "x", "b": ""})],
            reject: vec![
                json!({"id": 1, "a": 1}),
                json!({"a": "x"}),
                json!({"id": "1"}),
                json!({"id": 1, "extra": {"a": "x"}}),
            ],
            mutate: vec![json!({"id": 1, "a": "x"})],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<FlattenInternal>("FlattenInternal"),
        Inputs {
            accept: vec![
                json!({"id": "op-1", "targetNodeId": "n", "action": "addChild", "title": "t"}),
                json!({"id": "op-1", "targetNodeId": "n", "action": "deleteNode", "description": null}),
                json!({"action": "moveTo", "id": "o", "targetNodeId": "n", "page": 2, "per_page": 5}),
                json!({"id": "o", "targetNodeId": "n", "action": "deleteNode", "title": 7}),
            ],
            reject: vec![
                json!({"id": "o", "targetNodeId": "n"}),
                json!({"id": "o", "targetNodeId": "n", "action": "addChild"}),
                json!({"id": "o", "targetNodeId": "n", "action": "rename", "title": "t"}),
                json!({"id": "o", "action": "deleteNode"}),
                json!({"id": "o", "targetNodeId": "n", "action": "moveTo", "page": -1}),
                json!({"id": "o", "targetNodeId": "n", "op": {"action": "deleteNode"}}),
            ],
            mutate: vec![
                json!({"id": "o", "targetNodeId": "n", "action": "addChild", "title": "t", "note": "x", "description": "d"}),
                json!({"id": "o", "targetNodeId": "n", "action": "moveTo", "page": 1, "per_page": 2}),
            ],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<FlattenExternal>("FlattenExternal"),
        Inputs {
            accept: vec![
                json!({"id": 1, "text": "a"}),
                json!({"id": 1, "point": {"x": 1, "y": 2}}),
                json!({"id": 1, "nothing": null}),
            ],
            reject: vec![
                json!({"id": 1}),
                json!({"id": 1, "text": 5}),
                json!({"id": 1, "value": {"text": "a"}}),
                json!({"id": 1, "point": {"x": 1}}),
            ],
            mutate: vec![
                json!({"id": 1, "point": {"x": 1, "y": 2}}),
                json!({"id": 1, "text": "a"}),
            ],
            exceptions: vec![serde_only(json!({"id": 1, "nothing": {}}), FLAT_UNIT_MAP)],
        },
    );
    suite.run(
        from_value::<FlattenAdjacent>("FlattenAdjacent"),
        Inputs {
            accept: vec![
                json!({"id": 1, "t": "Count", "c": 3}),
                json!({"id": 1, "t": "Maybe"}),
                json!({"id": 1, "t": "Maybe", "c": true}),
                json!({"id": 1, "t": "Empty", "c": null}),
                json!({"id": 1, "t": "Empty"}),
            ],
            reject: vec![
                json!({"id": 1, "t": "Count"}),
                json!({"id": 1, "t": "Count", "c": 300}),
                json!({"id": 1, "t": "Empty", "c": 5}),
                json!({"id": 1, "t": "Other"}),
                json!({"id": 1}),
            ],
            mutate: vec![
                json!({"id": 1, "t": "Count", "c": 3}),
                json!({"id": 1, "t": "Maybe", "c": false}),
            ],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<FlattenUntagged>("FlattenUntagged"),
        Inputs {
            accept: vec![
                json!({"id": 1, "name": "x"}),
                json!({"id": 1, "page": 2}),
                json!({"id": 1, "page": 2, "per_page": null}),
            ],
            reject: vec![
                json!({"id": 1}),
                json!({"id": 1, "name": 5}),
                json!({"id": 1, "page": "2"}),
                json!({"name": "x"}),
            ],
            mutate: vec![
                json!({"id": 1, "name": "x"}),
                json!({"id": 1, "page": 2, "per_page": 3}),
            ],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<FlattenTwice>("FlattenTwice"),
        Inputs {
            accept: vec![
                json!({"batch": 1, "id": "o", "targetNodeId": "n", "action": "deleteNode"}),
                json!({"batch": 1, "id": "o", "targetNodeId": "n", "action": "addChild", "title": "t"}),
            ],
            reject: vec![
                json!({"id": "o", "targetNodeId": "n", "action": "deleteNode"}),
                json!({"batch": 1, "id": "o", "targetNodeId": "n"}),
            ],
            mutate: vec![json!({"batch": 1, "id": "o", "targetNodeId": "n", "action": "addChild", "title": "t", "note": null})],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<FieldWith>("FieldWith"),
        Inputs {
            accept: vec![
                json!({"timeout": 1, "delay": null}),
                json!({"timeout": 1, "delay": 5, "grace": 3}),
                json!({"timeout": 0, "delay": 5, "grace": null}),
            ],
            reject: vec![
                json!({"timeout": 1}),
                json!({"timeout": -1, "delay": null}),
                json!({"delay": null}),
                json!({"timeout": "1s", "delay": null}),
            ],
            mutate: vec![json!({"timeout": 1, "delay": 5, "grace": 3})],
            exceptions: vec![
                serde_only(json!([1, null]), SEQ_FORM),
                serde_only(json!([1, 2]), SEQ_FORM),
            ],
        },
    );
}

fn variants(suite: &mut Suite) {
    suite.run(
        from_value::<VariantRename>("VariantRename"),
        Inputs {
            accept: vec![json!("lo"), json!("hi"), json!({"custom": 1})],
            reject: vec![
                json!("Low"),
                json!("HIGH"),
                json!("High"),
                json!({"Custom": 1}),
                json!("custom"),
            ],
            mutate: vec![json!({"custom": 1})],
            exceptions: vec![serde_only(json!({"lo": null}), UNIT_MAP_FORM)],
        },
    );
    suite.run(
        from_value::<VariantAlias>("VariantAlias"),
        Inputs {
            accept: vec![
                json!("Small"),
                json!("Medium"),
                json!({"Large": {"extra": 1}}),
            ],
            reject: vec![json!("Large"), json!("big"), json!({"XL": {"extra": 1}})],
            mutate: vec![json!({"Large": {"extra": 1}})],
            exceptions: vec![
                serde_only(json!("mid"), ALIAS),
                serde_only(json!("middle"), ALIAS),
                serde_only(json!({"xl": {"extra": 1}}), ALIAS),
            ],
        },
    );
    suite.run(
        from_value::<VariantSkip>("VariantSkip"),
        Inputs {
            accept: vec![json!("Kept"), json!({"Other": {"value": 1}})],
            reject: vec![
                json!("Hidden"),
                json!({"OutputOnly": 1}),
                json!("OutputOnly"),
            ],
            mutate: vec![json!({"Other": {"value": 1}})],
            exceptions: vec![serde_only(json!({"Kept": null}), UNIT_MAP_FORM)],
        },
    );
    suite.run(
        from_value::<ExternalOther>("ExternalOther"),
        Inputs {
            accept: vec![
                json!("Red"),
                json!("Green"),
                json!("Unknown"),
                json!("Purple"),
                json!(""),
                json!({"Custom": "x"}),
            ],
            reject: vec![json!("Custom"), json!({"Custom": 1}), json!(1)],
            mutate: vec![json!({"Custom": "x"})],
            exceptions: vec![
                serde_only(json!({"Red": null}), UNIT_MAP_FORM),
                serde_only(json!({"Purple": null}), UNIT_MAP_FORM),
            ],
        },
    );
    suite.run(
        from_value::<InternalOther>("InternalOther"),
        Inputs {
            accept: vec![
                json!({"type": "Circle", "radius": 1}),
                json!({"type": "Triangle"}),
                json!({"type": "Unknown"}),
                json!({"type": "Triangle", "sides": 3}),
            ],
            reject: vec![
                json!({"type": "Circle"}),
                json!({"radius": 1}),
                json!({"type": null}),
                json!({"type": "Square", "side": "1"}),
                json!({"type": 1, "side": 2}),
            ],
            mutate: vec![
                json!({"type": "Circle", "radius": 1}),
                json!({"type": "Triangle"}),
            ],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<AdjacentOther>("AdjacentOther"),
        Inputs {
            accept: vec![
                json!({"op": "Add", "args": [1, 2]}),
                json!({"op": "Neg", "args": 3}),
                json!({"op": "Mul"}),
                json!({"op": "Mul", "args": null}),
            ],
            reject: vec![
                json!({"op": "Add", "args": [1]}),
                json!({"op": "Neg"}),
                json!({"op": "Mul", "args": [1, 2]}),
                json!({"args": 3}),
                json!({"op": 1, "args": 3}),
            ],
            mutate: vec![json!({"op": "Add", "args": [1, 2]}), json!({"op": "Mul"})],
            ..Inputs::default()
        },
    );
    suite.run(
        from_value::<VariantUntagged>("VariantUntagged"),
        Inputs {
            accept: vec![
                json!("Auto"),
                json!({"Fixed": {"value": 1}}),
                json!("anything"),
                json!("Fixed"),
            ],
            reject: vec![
                json!(1),
                json!({"Fixed": {}}),
                json!({"Other": 1}),
                json!(null),
            ],
            mutate: vec![json!({"Fixed": {"value": 1}})],
            exceptions: vec![serde_only(json!({"Auto": null}), UNIT_MAP_FORM)],
        },
    );
}

fn tool_keywords(suite: &mut Suite) {
    let full = json!({
        "customer": "Ada", "notify": false, "tip": 1, "coupons": ["A"], "speed": "Fast",
        "style": {"font": "serif", "size": 10},
        "items": [{"name": "tea", "quantity": 2}],
        "shipping": {"kind": "courier", "express": true, "drop_at": "garage"},
    });
    suite.run(
        parse_args::<PlaceOrder>("PlaceOrder"),
        Inputs {
            accept: vec![
                full.clone(),
                json!({"customer": "Ada", "style": {}, "items": [], "shipping": {"kind": "pickup"}}),
                json!({"customer": "Ada", "style": {}, "items": [{"name": "x"}],
                    "shipping": {"kind": "courier"}}),
                // `parse_args` reads a whole float as the integer it is, as the schema does.
                json!({"customer": "Ada", "style": {"size": 12.0}, "items": [{"name": "x",
                    "quantity": 3.0}], "shipping": {"kind": "pickup"}}),
            ],
            reject: vec![
                json!({"style": {}, "items": [], "shipping": {"kind": "pickup"}}),
                json!({"customer": "Ada", "items": [], "shipping": {"kind": "pickup"}}),
                json!({"customer": "Ada", "style": {}, "items": [{}], "shipping": {"kind": "pickup"}}),
                json!({"customer": "Ada", "style": {}, "items": [], "shipping": {"kind": "drone"}}),
                json!({"customer": "Ada", "style": {"size": 300}, "items": [],
                    "shipping": {"kind": "pickup"}}),
                json!({"customer": "Ada", "speed": "Medium", "style": {}, "items": [],
                    "shipping": {"kind": "pickup"}}),
                json!({"customer": "Ada", "style": {"size": 12.5}, "items": [],
                    "shipping": {"kind": "pickup"}}),
            ],
            mutate: vec![full.clone()],
            exceptions: [
                "/notify",
                "/tip",
                "/coupons",
                "/speed",
                "/style/font",
                "/style/size",
                "/items/0/quantity",
                "/shipping/express",
                "/shipping/drop_at",
            ]
            .into_iter()
            .map(|pointer| {
                let mut input = full.clone();
                *input.pointer_mut(pointer).unwrap() = Value::Null;
                serde_only(input, NULL_DEFAULT)
            })
            .chain([
                serde_only(json!(full.to_string()), DOUBLE_ENCODED),
                serde_only(
                    json!({"customer": "Ada", "notify": null, "style": {}, "items": [],
                        "shipping": {"kind": "pickup"}}),
                    NULL_DEFAULT,
                ),
            ])
            .collect(),
        },
    );
    let valid = json!({
        "rating": 5, "balance": 0.5, "offset": 3, "code": "abc", "tags": ["a"],
        "slug": "abc-12", "due": "2024-02-29", "email": "ada@example.com", "answer": -7,
    });
    let with = |key: &str, value: Value| {
        let mut input = valid.clone();
        input[key] = value;
        input
    };
    let accept = vec![
        valid.clone(),
        with("offset", json!(null)),
        with("email", json!(null)),
        with("rating", json!(1)),
        with("rating", json!(10)),
        with("balance", json!(-1.5)),
        with("code", json!("ab")),
        with("code", json!("abcde")),
        with("code", json!("ąčęė")),
        with("tags", json!([])),
        with("tags", json!(["a", "b", "c"])),
        with("slug", json!("x-0")),
        with("due", json!("2000-12-31")),
        with("email", json!("first.last+tag@example.co.uk")),
        with("answer", json!(42)),
    ];
    let reject = vec![
        with("rating", json!(256)),
        with("rating", json!("5")),
        with("offset", json!(-2_147_483_649_i64)),
        with("code", json!(5)),
        with("tags", json!("a")),
        with("slug", json!(null)),
        with("due", json!(20240229)),
        with("email", json!(5)),
        with("answer", json!(1.5)),
    ];
    // What the constraints forbid and the types allow.
    let violations = vec![
        with("rating", json!(0)),
        with("rating", json!(11)),
        with("balance", json!(1.6)),
        with("balance", json!(-2)),
        with("offset", json!(-1)),
        with("code", json!("a")),
        with("code", json!("abcdef")),
        with("code", json!("ąčęėįš")),
        with("tags", json!(["a", "b", "c", "d"])),
        with("slug", json!("ABC-12")),
        with("slug", json!("abc")),
        with("slug", json!("abc-12\n")),
        with("due", json!("2023-02-29")),
        with("due", json!("tomorrow")),
        with("due", json!("2024-1-01")),
        with("due", json!("2024-01-01T00:00:00Z")),
        with("email", json!("not an email")),
        with("email", json!("@example.com")),
    ];
    // Plain serde does not know the constraints.
    let mut exceptions: Vec<Exception> = violations
        .iter()
        .map(|input| serde_only(input.clone(), CONSTRAINT))
        .collect();
    exceptions.push(schema_only(with("answer", json!(1.0)), INTEGRAL_FLOAT));
    suite.run(
        from_value::<Constrained>("Constrained (serde)"),
        Inputs {
            accept: accept.clone(),
            reject: reject.clone(),
            exceptions,
            ..Inputs::default()
        },
    );
    // `parse_args` checks them, and reads a whole `1.0` as the integer it is.
    let mut accept = accept;
    accept.push(with("answer", json!(1.0)));
    accept.push(with("rating", json!(10.0)));
    let mut reject = reject;
    reject.extend(violations);
    suite.run(
        parse_args::<Constrained>("Constrained (parse_args)"),
        Inputs {
            accept,
            reject,
            mutate: vec![valid],
            ..Inputs::default()
        },
    );
}

#[test]
fn schema_and_serde_agree() {
    let mut suite = Suite::default();
    container(&mut suite);
    operations(&mut suite);
    representations(&mut suite);
    fields(&mut suite);
    variants(&mut suite);
    tool_keywords(&mut suite);
    println!(
        "differential: {} inputs ({} hand-written, {} generated, {} listed exceptions, {} with \
         a `null` for an optional field)",
        suite.total, suite.hand_written, suite.generated, suite.exceptions, suite.optional_nulls
    );
    assert!(
        suite.failures.is_empty(),
        "{} disagreements:\n{}",
        suite.failures.len(),
        suite.failures.join("\n")
    );
    assert!(suite.total >= 300, "only {} inputs", suite.total);
    assert!(
        suite.optional_nulls >= 10,
        "{} inputs with a `null` for an optional field ({OPTIONAL_NULL})",
        suite.optional_nulls
    );
}
