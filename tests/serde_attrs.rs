//! Issue 3, serde fidelity: the schema of one test type per serde attribute, enum representation
//! and `#[tool(..)]` keyword, compared as parsed JSON with its golden file in
//! `tests/golden/serde/<name>.json`; and parse tests for `#[tool(default = ..)]`.
//!
//! `TOOLGEN_BLESS=1 cargo test --test serde_attrs` rewrites the goldens. Each golden is a claim
//! about what serde accepts: review its diff against serde's documentation, and
//! `tests/differential.rs` checks the claim against serde itself.

mod serde_types;

use std::path::PathBuf;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use serde_types::*;
use toolgen::{Tool, ToolSchema};

/// The schema of `T` as the runtime builds it, parsed.
fn schema_of<T: ToolSchema + ?Sized>() -> Value {
    let text = T::json_schema();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("schema is not JSON ({e}): {text}"))
}

/// Compares `schema` with `tests/golden/serde/<name>.json`, or rewrites the file when
/// `TOOLGEN_BLESS` is set. Every schema must also be a valid JSON Schema 2020-12.
fn golden(name: &str, schema: Value) {
    if let Err(error) = jsonschema::meta::validate(&schema) {
        panic!("{name}: not a valid JSON Schema: {error}\n{schema:#}");
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/serde")
        .join(format!("{name}.json"));
    if std::env::var_os("TOOLGEN_BLESS").is_some() {
        let text = serde_json::to_string_pretty(&schema).expect("a Value serializes");
        std::fs::create_dir_all(path.parent().expect("the golden folder"))
            .expect("create tests/golden/serde");
        std::fs::write(&path, text + "\n").expect("write the golden file");
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run with TOOLGEN_BLESS=1 to create it",
            path.display()
        )
    });
    let expected: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    assert_eq!(
        schema, expected,
        "schema of `{name}` differs from its golden"
    );
}

/// One test per type: `name => Type` compares `Type`'s schema with `name.json`.
macro_rules! goldens {
    ($($name:ident => $ty:ty,)*) => {$(
        #[test]
        fn $name() {
            golden(stringify!($name), schema_of::<$ty>());
        }
    )*};
}

goldens! {
    // Container attributes.
    container_rename => ContainerRename,
    container_rename_recursive => RenamedTree,
    rename_all_fields_lowercase => FieldsLowercase,
    rename_all_fields_uppercase => FieldsUppercase,
    rename_all_fields_pascal_case => FieldsPascalCase,
    rename_all_fields_camel_case => FieldsCamelCase,
    rename_all_fields_snake_case => FieldsSnakeCase,
    rename_all_fields_screaming_snake_case => FieldsScreamingSnakeCase,
    rename_all_fields_kebab_case => FieldsKebabCase,
    rename_all_fields_screaming_kebab_case => FieldsScreamingKebabCase,
    rename_all_deserialize => FieldsRenameAllDeserialize,
    rename_all_variants_lowercase => VariantsLowercase,
    rename_all_variants_uppercase => VariantsUppercase,
    rename_all_variants_pascal_case => VariantsPascalCase,
    rename_all_variants_camel_case => VariantsCamelCase,
    rename_all_variants_snake_case => VariantsSnakeCase,
    rename_all_variants_screaming_snake_case => VariantsScreamingSnakeCase,
    rename_all_variants_kebab_case => VariantsKebabCase,
    rename_all_variants_screaming_kebab_case => VariantsScreamingKebabCase,
    rename_all_fields => RenameAllFields,
    container_default => ContainerDefault,
    deny_unknown_fields => DenyUnknownFields,
    transparent_newtype => Meters,
    transparent_named => TransparentNamed,
    from => Rgb,
    try_from => Percent,
    bound => Page<u8>,
    crate_path => CratePath,
    // Enum representations.
    tag_operations => Operation,
    externally_tagged => External,
    internally_tagged => Internal,
    externally_tagged_deny_unknown_fields => ExternalStrict,
    internally_tagged_deny_unknown_fields => InternalStrict,
    adjacently_tagged_deny_unknown_fields => AdjacentStrict,
    adjacently_tagged => Adjacent,
    untagged => Untagged,
    // Field attributes.
    field_rename => FieldRename,
    field_rename_deserialize => FieldRenameDeserialize,
    field_alias => FieldAlias,
    field_default => FieldDefaults,
    field_default_path => FieldDefaultPath,
    field_skip => FieldSkip,
    field_skip_serializing => FieldSkipSerializing,
    flatten_struct => FlattenStruct,
    flatten_map => FlattenMap,
    flatten_internally_tagged => FlattenInternal,
    flatten_externally_tagged => FlattenExternal,
    flatten_adjacently_tagged => FlattenAdjacent,
    flatten_untagged => FlattenUntagged,
    flatten_twice => FlattenTwice,
    field_with => FieldWith,
    // Variant attributes.
    variant_rename => VariantRename,
    variant_alias => VariantAlias,
    variant_skip => VariantSkip,
    variant_other_external => ExternalOther,
    variant_other_internal => InternalOther,
    variant_other_adjacent => AdjacentOther,
    variant_untagged => VariantUntagged,
    // `#[tool(..)]` keywords.
    tool_defaults => PlaceOrder,
    constraints => Constrained,
}

/// A tool's const `INPUT_SCHEMA` is the text `schema_text` builds at run time, without the
/// description (a tool's description goes beside its schema, not in it).
#[test]
fn tool_input_schemas_match_their_run_time_text() {
    fn input_schema<T: Tool>() -> Value {
        serde_json::from_str(T::INPUT_SCHEMA).expect("INPUT_SCHEMA is JSON")
    }
    fn without_description(mut schema: Value) -> Value {
        schema
            .as_object_mut()
            .expect("an object schema")
            .shift_remove("description");
        schema
    }
    assert_eq!(
        input_schema::<SuggestOperations>(),
        without_description(schema_of::<SuggestOperations>())
    );
    assert_eq!(
        input_schema::<PlaceOrder>(),
        without_description(schema_of::<PlaceOrder>())
    );
}

/// The mind-map tool's input: `operations` items are the internally tagged `Operation`, with the
/// recursive `NodeTree` hoisted to the root's `$defs`.
#[test]
fn tag_operations_tool() {
    let schema: Value = serde_json::from_str(SuggestOperations::INPUT_SCHEMA).expect("JSON");
    golden("tag_operations_tool", schema);
}

/// Every branch of the operations union: `action` is a one-value `const` and is required.
#[test]
fn operations_tag_is_a_required_const_in_every_branch() {
    let schema = schema_of::<Operation>();
    assert!(
        schema.get("oneOf").is_none(),
        "branches are joined with anyOf"
    );
    let branches = schema["anyOf"].as_array().expect("anyOf");
    let actions: Vec<&str> = branches
        .iter()
        .map(|branch| {
            assert_eq!(branch["properties"]["action"]["type"], "string");
            assert!(
                branch["required"]
                    .as_array()
                    .expect("required")
                    .contains(&json!("action")),
                "`action` is required in {branch}"
            );
            branch["properties"]["action"]["const"]
                .as_str()
                .expect("a const tag")
        })
        .collect();
    assert_eq!(
        actions,
        [
            "addChild",
            "addChildTrees",
            "updateTitle",
            "updateNote",
            "deleteNode"
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// `#[tool(default = ..)]` filling, by `T::parse_args`
// ---------------------------------------------------------------------------------------------

fn courier() -> Value {
    json!({"kind": "courier"})
}

#[test]
fn tool_default_fills_top_level_fields() {
    let args = json!({
        "customer": "Ada",
        "style": {"font": "serif", "size": 10},
        "items": [],
        "shipping": {"kind": "pickup"},
    });
    let order = PlaceOrder::parse_args(&args.to_string()).expect("defaults fill the gaps");
    assert_eq!(
        order,
        PlaceOrder {
            customer: "Ada".to_owned(),
            notify: true,
            tip: 2.5,
            coupons: Vec::new(),
            speed: Speed::Slow,
            style: Style {
                font: "serif".to_owned(),
                size: 10,
            },
            items: Vec::new(),
            shipping: Shipping::Pickup,
        }
    );
    // serde alone does not know the defaults.
    assert!(serde_json::from_value::<PlaceOrder>(args).is_err());
}

#[test]
fn tool_default_keeps_values_that_are_given() {
    let args = json!({
        "customer": "Ada",
        "notify": false,
        "tip": 0,
        "coupons": ["SPRING"],
        "speed": "Fast",
        "style": {"font": "mono", "size": 9},
        "items": [{"name": "tea", "quantity": 3}],
        "shipping": {"kind": "courier", "express": true, "drop_at": "garage"},
    });
    let order = PlaceOrder::parse_args(&args.to_string()).expect("valid");
    assert!(!order.notify);
    assert_eq!(order.tip, 0.0);
    assert_eq!(order.coupons, ["SPRING"]);
    assert_eq!(order.speed, Speed::Fast);
    assert_eq!(order.items[0].quantity, 3);
    assert_eq!(
        order.shipping,
        Shipping::Courier {
            express: true,
            drop_at: "garage".to_owned(),
        }
    );
    // With nothing missing, plain serde agrees.
    assert_eq!(
        serde_json::from_value::<PlaceOrder>(args).expect("valid"),
        order
    );
}

#[test]
fn tool_default_fills_a_nested_struct() {
    let args = json!({
        "customer": "Ada",
        "style": {},
        "items": [],
        "shipping": {"kind": "pickup"},
    });
    let order = PlaceOrder::parse_args(&args.to_string()).expect("valid");
    assert_eq!(
        order.style,
        Style {
            font: "plain".to_owned(),
            size: 12,
        }
    );
}

#[test]
fn tool_default_fills_every_vec_item() {
    let args = json!({
        "customer": "Ada",
        "style": {"size": 14},
        "items": [{"name": "tea"}, {"name": "cake", "quantity": 2}, {"name": "jam"}],
        "shipping": {"kind": "pickup"},
    });
    let order = PlaceOrder::parse_args(&args.to_string()).expect("valid");
    let quantities: Vec<(&str, u32)> = order
        .items
        .iter()
        .map(|item| (item.name.as_str(), item.quantity))
        .collect();
    assert_eq!(quantities, [("tea", 1), ("cake", 2), ("jam", 1)]);
    assert_eq!(order.style.font, "plain");
    assert_eq!(order.style.size, 14);
}

#[test]
fn tool_default_fills_an_internally_tagged_variant() {
    let args = json!({
        "customer": "Ada",
        "style": {},
        "items": [],
        "shipping": courier(),
    });
    let order = PlaceOrder::parse_args(&args.to_string()).expect("valid");
    assert_eq!(
        order.shipping,
        Shipping::Courier {
            express: false,
            drop_at: "front door".to_owned(),
        }
    );
}

#[test]
fn tool_default_does_not_hide_errors() {
    // A default fills a missing field, never a wrong one; a required field stays required.
    let wrong = json!({
        "customer": "Ada",
        "notify": "yes",
        "style": {},
        "items": [],
        "shipping": {"kind": "pickup"},
    });
    let err = PlaceOrder::parse_args(&wrong.to_string()).unwrap_err();
    assert_eq!(err.path(), "notify");
    let missing = json!({"style": {}, "items": [], "shipping": {"kind": "pickup"}});
    let err = PlaceOrder::parse_args(&missing.to_string()).unwrap_err();
    assert!(err.message().contains("customer"), "{err}");
    let item = json!({
        "customer": "Ada",
        "style": {},
        "items": [{"quantity": 2}],
        "shipping": {"kind": "pickup"},
    });
    let err = PlaceOrder::parse_args(&item.to_string()).unwrap_err();
    assert_eq!(err.path(), "items[0]");
}

/// `#[tool(schema = ..)]` and `#[tool(output = ..)]` take a type with generic arguments as it is
/// written, commas and all (`HashMap<String, Value>`), or quoted: the same schema.
#[test]
fn a_type_value_may_hold_commas_unquoted() {
    use std::collections::HashMap;
    #[derive(ToolSchema, serde::Deserialize)]
    #[allow(dead_code)]
    struct Meta {}
    #[derive(ToolSchema, serde::Deserialize)]
    #[allow(dead_code)]
    struct Unquoted {
        #[tool(schema = HashMap<String, Value>, description = "Anything.")]
        meta: Meta,
        #[tool(schema = (Vec<(u8, u16)>, HashMap<String, u16>))]
        odd: Meta,
    }
    #[derive(ToolSchema, serde::Deserialize)]
    #[allow(dead_code)]
    struct Quoted {
        #[tool(schema = "HashMap<String, Value>", description = "Anything.")]
        meta: Meta,
        #[tool(schema = "(Vec<(u8, u16)>, HashMap<String, u16>)")]
        odd: Meta,
    }
    assert_eq!(
        schema_of::<Unquoted>()["properties"]["meta"],
        json!({"type": "object", "additionalProperties": {}, "description": "Anything."})
    );
    assert_eq!(schema_of::<Unquoted>(), schema_of::<Quoted>());
}

/// Keywords beside `#[tool(schema = ..)]` are written into the field's schema (the README's way
/// to describe another crate's type as the JSON it is read from); `custom_format` writes a
/// format toolgen does not know, unchecked, which the dialects without it say in words.
#[test]
fn keywords_beside_a_schema_and_custom_formats() {
    /// A moment, read from RFC 3339 text by its own `Deserialize`.
    #[derive(Debug, PartialEq)]
    struct Moment(String);
    fn moment<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Moment, D::Error> {
        let text = <String as serde::Deserialize>::deserialize(de)?;
        match text.len() {
            20.. => Ok(Moment(text)),
            _ => Err(serde::de::Error::custom("not a moment")),
        }
    }
    /// Books a slot.
    #[derive(Tool, serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Book {
        #[serde(deserialize_with = "moment")]
        #[tool(schema = String, format = "date-time", length(min = 20))]
        at: Moment,
        #[tool(custom_format = "int64")]
        id: i64,
        #[tool(schema = String, custom_format = "json")]
        payload: Value,
    }
    assert_eq!(
        serde_json::from_str::<Value>(Book::INPUT_SCHEMA).unwrap(),
        json!({
            "type": "object",
            "properties": {
                "at": {"type": "string", "minLength": 20, "format": "date-time"},
                "id": {"type": "integer", "format": "int64"},
                "payload": {"type": "string", "format": "json"}
            },
            "required": ["at", "id", "payload"]
        })
    );
    let gemini: Value =
        serde_json::from_str(Book::input_schema(toolgen::Dialect::Gemini).unwrap()).unwrap();
    assert_eq!(
        gemini["properties"]["id"],
        json!({"type": "integer", "format": "int64"})
    );
    assert_eq!(
        gemini["properties"]["payload"],
        json!({"type": "string", "description": "Format: json."})
    );
    let strict =
        toolgen::dialect_schema(Book::INPUT_SCHEMA, toolgen::Dialect::OpenAiStrict).unwrap();
    let strict: Value = serde_json::from_str(&strict).unwrap();
    assert_eq!(
        strict["properties"]["id"],
        json!({"type": "integer", "description": "Format: int64."})
    );
    // The field's own reading decides what it takes; a custom format is not checked.
    let book = Book::parse_args(r#"{"at": "2026-11-28T10:00:00Z", "id": 1, "payload": "{"}"#);
    assert_eq!(book.unwrap().at, Moment("2026-11-28T10:00:00Z".to_owned()));
    assert!(Book::parse_args(r#"{"at": "soon", "id": 1, "payload": ""}"#).is_err());
}
