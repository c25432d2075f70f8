//! The schema of every Rust type toolgen maps, one test per row of the type mapping, and the
//! features around it: generic and recursive types, doc comments, escaping, const use.
//!
//! Each row's type is reached three ways (see `common::Row`): written out in a field (the macro
//! folds it into literal text), through a type alias in a field (the `ToolSchema` impls), and by
//! `schema_text` on the type itself. All three must give the same text, byte for byte.

mod common;
mod dialect_check;

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::{Tool, ToolSchema};

use common::{Row, rows};

const PREFIX: &str = r#"{"type":"object","properties":{"value":"#;

/// The `value` property's schema text in a row's struct schema, and whether it is required.
fn property(row: &str, schema: &str) -> (String, bool) {
    let body = schema
        .strip_prefix(PREFIX)
        .unwrap_or_else(|| panic!("{row}: unexpected schema start: {schema}"));
    if let Some(text) = body.strip_suffix(r#"},"required":["value"]}"#) {
        (text.to_owned(), true)
    } else if let Some(text) = body.strip_suffix("}}") {
        (text.to_owned(), false)
    } else {
        panic!("{row}: unexpected schema end: {schema}")
    }
}

/// The row's type has the schema `expected` by all three paths, and is a required field.
fn assert_row(row: Row, expected: &str) {
    let (folded, folded_required) = property(row.name, &row.folded);
    let (traited, traited_required) = property(row.name, &row.traited);
    assert_eq!(
        folded, expected,
        "{}: the type written in a field",
        row.name
    );
    assert_eq!(traited, expected, "{}: the type through an alias", row.name);
    assert_eq!(
        row.runtime, expected,
        "{}: schema_text of the type",
        row.name
    );
    assert_eq!(row.folded, row.traited, "{}: whole schemas", row.name);
    assert!(
        folded_required && traited_required,
        "{}: required",
        row.name
    );
}

#[test]
fn bool_is_boolean() {
    assert_row(rows::boolean::row(), r#"{"type":"boolean"}"#);
}

#[test]
fn signed_integers_up_to_32_bits_have_their_exact_bounds() {
    assert_row(
        rows::int8::row(),
        r#"{"type":"integer","minimum":-128,"maximum":127}"#,
    );
    assert_row(
        rows::int16::row(),
        r#"{"type":"integer","minimum":-32768,"maximum":32767}"#,
    );
    assert_row(
        rows::int32::row(),
        r#"{"type":"integer","minimum":-2147483648,"maximum":2147483647}"#,
    );
}

#[test]
fn wider_signed_integers_are_unbounded_integers() {
    assert_row(rows::int64::row(), r#"{"type":"integer"}"#);
    assert_row(rows::int128::row(), r#"{"type":"integer"}"#);
    assert_row(rows::isize_::row(), r#"{"type":"integer"}"#);
}

#[test]
fn unsigned_integers_up_to_32_bits_have_their_exact_bounds() {
    assert_row(
        rows::uint8::row(),
        r#"{"type":"integer","minimum":0,"maximum":255}"#,
    );
    assert_row(
        rows::uint16::row(),
        r#"{"type":"integer","minimum":0,"maximum":65535}"#,
    );
    assert_row(
        rows::uint32::row(),
        r#"{"type":"integer","minimum":0,"maximum":4294967295}"#,
    );
}

#[test]
fn wider_unsigned_integers_have_minimum_zero() {
    assert_row(rows::uint64::row(), r#"{"type":"integer","minimum":0}"#);
    assert_row(rows::uint128::row(), r#"{"type":"integer","minimum":0}"#);
    assert_row(rows::usize_::row(), r#"{"type":"integer","minimum":0}"#);
}

#[test]
fn floats_are_numbers() {
    assert_row(rows::float32::row(), r#"{"type":"number"}"#);
    assert_row(rows::float64::row(), r#"{"type":"number"}"#);
}

#[test]
fn char_is_a_one_character_string() {
    assert_row(
        rows::character::row(),
        r#"{"type":"string","minLength":1,"maxLength":1}"#,
    );
}

#[test]
fn string_types_are_strings() {
    for row in [
        rows::string::row(),
        rows::str_ref::row(),
        rows::boxed_str::row(),
        rows::cow_str::row(),
        rows::path_buf::row(),
    ] {
        assert_row(row, r#"{"type":"string"}"#);
    }
}

/// The `Option` row's three schemas: the field written as `Option<..>` is optional, its schema
/// the inner type's, `inner` (as published tools write a field that may be left out); the one
/// behind an alias is required and nullable, `nullable` (the macro cannot see that the alias is
/// an `Option`; see the crate docs), as is the type's own schema, which holds wherever a `null`
/// is a value (an array's items, a map's values).
fn assert_option_row(row: Row, nullable: &str, inner: &str) {
    let (folded, folded_required) = property(row.name, &row.folded);
    let (traited, traited_required) = property(row.name, &row.traited);
    assert_eq!(folded, inner, "{}: the type written in a field", row.name);
    assert_eq!(traited, nullable, "{}: the type through an alias", row.name);
    assert_eq!(
        row.runtime, nullable,
        "{}: schema_text of the type",
        row.name
    );
    assert!(
        !folded_required,
        "{}: a written Option is not required",
        row.name
    );
    assert!(
        traited_required,
        "{}: an aliased Option is required",
        row.name
    );
}

#[test]
fn option_of_a_typed_schema_widens_the_type_with_null() {
    assert_option_row(
        rows::option_string::row(),
        r#"{"type":["string","null"]}"#,
        r#"{"type":"string"}"#,
    );
    let bytes = r#""items":{"type":"integer","minimum":0,"maximum":255}"#;
    assert_option_row(
        rows::option_vec::row(),
        &format!(r#"{{"type":["array","null"],{bytes}}}"#),
        &format!(r#"{{"type":"array",{bytes}}}"#),
    );
}

#[test]
fn option_of_any_other_schema_is_any_of_it_and_null() {
    let plain = r#"{"type":"string","enum":["first-one","2nd","third-one"]}"#;
    assert_option_row(
        rows::option_enum::row(),
        &format!(r#"{{"anyOf":[{plain},{{"type":"null"}}]}}"#),
        plain,
    );
    assert_option_row(
        rows::option_value::row(),
        r#"{"anyOf":[{},{"type":"null"}]}"#,
        "{}",
    );
}

/// `#[tool(nullable)]` shows the `null` an optional field's `None` may be sent as, on the field
/// or for every field of its container (a struct, or an enum's struct variants).
#[test]
fn nullable_shows_the_null_of_an_optional_field() {
    /// Finds notes.
    #[derive(Tool, Deserialize)]
    #[allow(dead_code)]
    struct Find {
        #[tool(nullable)]
        limit: Option<u32>,
        tag: Option<String>,
    }
    /// Finds notes.
    #[derive(Tool, Deserialize)]
    #[tool(nullable)]
    #[allow(dead_code)]
    struct FindAll {
        limit: Option<u32>,
        tag: Option<String>,
        kind: Option<Kind>,
    }
    #[derive(ToolSchema, Deserialize)]
    #[allow(dead_code)]
    enum Kind {
        Short,
        #[tool(nullable)]
        Long {
            words: Option<u32>,
        },
        Other {
            words: Option<u32>,
        },
    }
    let limit = r#""limit":{"type":["integer","null"],"minimum":0,"maximum":4294967295}"#;
    assert_eq!(
        Find::INPUT_SCHEMA,
        format!(r#"{{"type":"object","properties":{{{limit},"tag":{{"type":"string"}}}}}}"#)
    );
    let kind: Value = serde_json::from_str(FindAll::INPUT_SCHEMA).unwrap();
    assert_eq!(
        kind["properties"]["tag"],
        json!({"type": ["string", "null"]})
    );
    assert_eq!(kind["required"], Value::Null);
    assert_eq!(
        kind["properties"]["kind"]["anyOf"][1],
        json!({"type": "null"})
    );
    let branches = &kind["properties"]["kind"]["anyOf"][0]["anyOf"];
    assert_eq!(
        branches[1]["properties"]["Long"]["properties"]["words"]["type"],
        json!(["integer", "null"])
    );
    assert_eq!(
        branches[2]["properties"]["Other"]["properties"]["words"]["type"],
        json!("integer")
    );
    // Parsing reads `null` and a missing key alike, either way.
    assert!(Find::parse_args(r#"{"limit": null, "tag": null}"#).is_ok());
    assert!(FindAll::parse_args("{}").is_ok());
}

#[test]
fn sequences_are_arrays() {
    assert_row(
        rows::vec::row(),
        r#"{"type":"array","items":{"type":"string"}}"#,
    );
    let bytes = r#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":255}}"#;
    assert_row(rows::vec_deque::row(), bytes);
    assert_row(rows::linked_list::row(), bytes);
    assert_row(rows::binary_heap::row(), bytes);
}

#[test]
fn fixed_size_arrays_have_min_and_max_items() {
    assert_row(
        rows::array::row(),
        r#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":255},"minItems":3,"maxItems":3}"#,
    );
}

#[test]
fn sets_are_arrays_of_unique_items() {
    assert_row(
        rows::hash_set::row(),
        r#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":255},"uniqueItems":true}"#,
    );
    assert_row(
        rows::btree_set::row(),
        r#"{"type":"array","items":{"type":"string"},"uniqueItems":true}"#,
    );
}

#[test]
fn maps_with_string_keys_are_objects_of_additional_properties() {
    let bytes =
        r#"{"type":"object","additionalProperties":{"type":"integer","minimum":0,"maximum":255}}"#;
    // `std::collections::HashMap` is folded; a bare `HashMap` (after `use`) goes through the impl.
    assert_row(rows::hash_map::row(), bytes);
    assert_row(rows::hash_map_bare::row(), bytes);
    assert_eq!(
        rows::hash_map::row().folded,
        rows::hash_map_bare::row().folded
    );
    assert_row(
        rows::btree_map::row(),
        r#"{"type":"object","additionalProperties":{"type":"array","items":{"type":"integer","minimum":0,"maximum":255}}}"#,
    );
}

#[test]
fn smart_pointers_are_their_content() {
    let byte = r#"{"type":"integer","minimum":0,"maximum":255}"#;
    assert_row(rows::boxed::row(), byte);
    assert_row(rows::rc::row(), byte);
    assert_row(rows::arc::row(), r#"{"type":"string"}"#);
}

#[test]
fn tuples_are_arrays_of_prefix_items() {
    assert_row(
        rows::tuple::row(),
        r#"{"type":"array","prefixItems":[{"type":"integer","minimum":0,"maximum":255},{"type":"string"},{"type":"boolean"}],"minItems":3,"maxItems":3}"#,
    );
}

#[test]
fn unit_is_null() {
    assert_row(rows::unit::row(), r#"{"type":"null"}"#);
}

#[test]
fn json_value_is_any_value() {
    assert_row(rows::json_value::row(), "{}");
}

#[test]
fn unit_enums_list_the_names_serde_reads() {
    // kebab-case, a renamed variant, a skipped one.
    assert_row(
        rows::plain_enum::row(),
        r#"{"type":"string","enum":["first-one","2nd","third-one"]}"#,
    );
}

#[test]
fn unit_enums_with_documented_variants_are_any_of_consts() {
    // SCREAMING_SNAKE_CASE, a renamed variant, a `skip_deserializing` one, one without docs.
    assert_row(
        rows::documented_enum::row(),
        r#"{"anyOf":[{"type":"string","const":"LOW","description":"Can wait."},{"type":"string","const":"urgent","description":"Do it now."},{"type":"string","const":"NORMAL"}]}"#,
    );
}

#[test]
fn every_row_is_tested_and_every_row_agrees_across_paths() {
    // The tests above pick rows by name; this catches a row added to `rows::all` without one.
    for row in rows::all() {
        let (folded, _) = property(row.name, &row.folded);
        let (traited, _) = property(row.name, &row.traited);
        // (A written `Option` is its inner type: `assert_option_row`.)
        if !row.name.starts_with("option_") {
            assert_eq!(folded, traited, "{}", row.name);
        }
        assert_eq!(traited, row.runtime, "{}", row.name);
    }
    assert_eq!(rows::all().len(), 43);
}

#[test]
fn generic_types_take_their_parameters_schemas() {
    let page_of_bytes = json!({
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}},
            "next": {"type": "string"}
        },
        "required": ["items"]
    });
    let item = json!({
        "type": "object",
        "properties": {"id": {"type": "integer", "minimum": 0, "maximum": 4294967295_u32}},
        "required": ["id"]
    });
    let page_of_items = json!({
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": item},
            "next": {"type": "string"}
        },
        "required": ["items"]
    });
    let expected = json!({
        "type": "object",
        "properties": {
            "numbers": page_of_bytes,
            "items": page_of_items,
            "maybe_page": page_of_bytes,
            "maybe_item": item
        },
        "required": ["numbers", "items"]
    });
    let schema = common::parse_schema("Pages", common::Pages::INPUT_SCHEMA);
    assert_eq!(schema, expected);
}

#[test]
fn a_recursive_type_is_defined_once_and_referred_to() {
    let node = json!({"$ref": "#/$defs/TreeNode"});
    let nodes = json!({"type": "array", "items": node});
    let expected = json!({
        "type": "object",
        "properties": {"first": node, "rest": nodes},
        "required": ["first", "rest"],
        "$defs": {
            "TreeNode": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "children": nodes,
                    "more": nodes,
                    "next": node
                },
                "required": ["name", "children", "more"],
                "description": "A node of a tree."
            }
        }
    });
    let text = common::Forest::INPUT_SCHEMA;
    assert_eq!(common::parse_schema("Forest", text), expected);
    // Used by two fields, written once (`parse_schema` also rejects a repeated key).
    assert_eq!(text.matches(r#""$defs""#).count(), 1);
    assert_eq!(text.matches(r#""TreeNode":{"#).count(), 1);
}

#[test]
fn doc_comments_keep_paragraphs_and_join_lines() {
    assert_eq!(
        common::Documented::DESCRIPTION,
        "Reads a \"quoted\" C:\\path.\n\nThen a second paragraph, over two lines: 🦀."
    );
    let schema = common::parse_schema("Documented", common::Documented::INPUT_SCHEMA);
    assert_eq!(
        schema["properties"]["overridden"]["description"],
        "The field's own words, joined."
    );
}

#[test]
fn descriptions_are_escaped_json_strings() {
    let schema = common::parse_schema("Documented", common::Documented::INPUT_SCHEMA);
    assert_eq!(
        schema["properties"]["escaped"]["description"],
        "tab:\t newline:\n quote:\" backslash:\\ bell:\u{7} nul:\0 del:\u{7f} emoji:🦀"
    );
    let text = common::Documented::INPUT_SCHEMA;
    assert!(text.contains(r#"tab:\t newline:\n quote:\" backslash:\\ bell:\u0007 nul:\u0000"#));
}

#[test]
fn a_field_doc_replaces_the_type_doc_and_an_undocumented_field_keeps_it() {
    let described = |description: &str| {
        json!({
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
            "description": description
        })
    };
    let schema = common::parse_schema("Documented", common::Documented::INPUT_SCHEMA);
    let properties = &schema["properties"];
    assert_eq!(
        properties["overridden"],
        described("The field's own words, joined.")
    );
    assert_eq!(
        properties["inherited"],
        described("What the type says about itself.")
    );
    assert_eq!(
        properties["maybe"],
        described("The field's words for an optional value.")
    );
}

#[test]
fn option_of_a_user_type_widens_its_type_like_option_of_a_std_type() {
    assert_eq!(
        common::Optionals::INPUT_SCHEMA,
        concat!(
            r#"{"type":"object","properties":{"#,
            r#""meters":{"type":["number","null"]},"#,
            r#""item":{"type":["object","null"],"properties":{"id":{"type":"integer","minimum":0,"maximum":4294967295}},"required":["id"]},"#,
            r#""twice":{"type":["object","null"],"properties":{"text":{"type":"string"}},"required":["text"],"description":"Twice optional, described here."}"#,
            r#"}}"#
        )
    );
}

#[test]
fn the_description_attribute_wins_over_doc_comments() {
    assert_eq!(
        common::AttributeDescribed::DESCRIPTION,
        "The attribute wins."
    );
    assert_eq!(
        common::AttributeDescribed::INPUT_SCHEMA,
        r#"{"type":"object","properties":{"value":{"type":"integer","minimum":0,"maximum":255,"description":"The field's attribute wins."}},"required":["value"]}"#
    );
}

// Built by const evaluation: usable where only constants are.
const FOREST_SCHEMA: &str = common::Forest::INPUT_SCHEMA;
const FOREST_SCHEMA_LEN: usize = FOREST_SCHEMA.len();
const _: () = assert!(matches!(FOREST_SCHEMA.as_bytes(), [b'{', .., b'}']));
static FOREST_SCHEMA_BYTES: [u8; FOREST_SCHEMA_LEN] = {
    let mut bytes = [0; FOREST_SCHEMA_LEN];
    bytes.copy_from_slice(FOREST_SCHEMA.as_bytes());
    bytes
};

#[test]
fn input_schema_is_a_const() {
    assert_eq!(
        FOREST_SCHEMA_BYTES.as_slice(),
        common::Forest::INPUT_SCHEMA.as_bytes()
    );
    assert!(FOREST_SCHEMA.starts_with(r#"{"type":"object","properties":{"first":"#));
}

/// A type's doc comment is its schema's `description`, wherever it is held (an array's items, an
/// `anyOf` branch; a field's own doc replaces it); `#[tool(skip_doc)]` keeps a doc comment (of a
/// type, a variant or a field) for the Rust reader alone.
#[test]
fn skip_doc_keeps_a_doc_comment_out_of_the_schema() {
    /// A card, as the Rust code sees it.
    #[derive(ToolSchema, Deserialize)]
    #[tool(skip_doc)]
    #[allow(dead_code)]
    struct Card {
        /// The front, trimmed by `Card::new`.
        #[tool(skip_doc)]
        front: String,
        /// The back.
        back: String,
    }
    /// A shape.
    #[derive(ToolSchema, Deserialize)]
    #[serde(untagged)]
    #[allow(dead_code)]
    enum Shape {
        /// Internal: the radius in millimetres.
        #[tool(skip_doc)]
        Circle { radius: u8 },
        /// A square.
        Square { side: u8 },
    }
    /// Files the cards.
    #[derive(Tool, Deserialize)]
    #[allow(dead_code)]
    struct FileCards {
        cards: Vec<Card>,
        shapes: Vec<Shape>,
        /// The one card on top.
        top: Card,
    }
    let schema: Value = serde_json::from_str(FileCards::INPUT_SCHEMA).unwrap();
    let card = &schema["properties"]["cards"]["items"];
    assert_eq!(
        *card,
        json!({
            "type": "object",
            "properties": {"front": {"type": "string"}, "back": {"type": "string", "description": "The back."}},
            "required": ["front", "back"]
        })
    );
    assert_eq!(
        schema["properties"]["top"]["description"],
        "The one card on top."
    );
    let shapes = &schema["properties"]["shapes"]["items"];
    assert_eq!(shapes["description"], "A shape.");
    assert_eq!(shapes["anyOf"][0].get("description"), None);
    assert_eq!(shapes["anyOf"][1]["description"], "A square.");
}

/// `#[tool(one_of)]` joins an enum's alternatives under `oneOf` ("exactly one kind of
/// parent"); the strict dialects and Gemini, which take only `anyOf`, write `anyOf` and say it in
/// the description.
#[test]
fn one_of_on_request() {
    /// Where the page goes.
    #[derive(ToolSchema, Deserialize)]
    #[serde(untagged)]
    #[tool(one_of)]
    #[allow(dead_code)]
    enum Parent {
        Page { page_id: String },
        Database { database_id: String },
    }
    /// Creates a page.
    #[derive(Tool, Deserialize)]
    #[tool(strict)]
    #[allow(dead_code)]
    struct CreatePage {
        parent: Parent,
    }
    let branch = |key: &str| json!({"type": "object", "properties": {key: {"type": "string"}}, "required": [key]});
    let standard: Value = serde_json::from_str(CreatePage::INPUT_SCHEMA).unwrap();
    assert_eq!(
        standard["properties"]["parent"],
        json!({"oneOf": [branch("page_id"), branch("database_id")], "description": "Where the page goes."})
    );
    for dialect in [
        toolgen::Dialect::OpenAiStrict,
        toolgen::Dialect::AnthropicStrict,
        toolgen::Dialect::Gemini,
    ] {
        let text = CreatePage::input_schema(dialect).unwrap();
        let schema: Value = serde_json::from_str(text).unwrap();
        let parent = &schema["properties"]["parent"];
        assert_eq!(parent.get("oneOf"), None, "{dialect:?}: {text}");
        assert_eq!(
            parent["anyOf"].as_array().map(Vec::len),
            Some(2),
            "{dialect:?}"
        );
        assert_eq!(
            parent["description"], "Where the page goes. Exactly one of these.",
            "{dialect:?}"
        );
    }
    // A value that fits both (or neither) is refused by the schema, as `oneOf` says.
    let validator = common::validator("CreatePage", CreatePage::INPUT_SCHEMA);
    assert!(validator.is_valid(&json!({"parent": {"page_id": "p"}})));
    assert!(!validator.is_valid(&json!({"parent": {"page_id": "p", "database_id": "d"}})));
}

/// GitHub's `perPage` and `page`, in dozens of its tools: optional, bounded, not nullable; the
/// bounds checked on a value the model sends, and nothing on one it leaves out.
#[test]
fn optional_bounded_fields_as_github_writes_them() {
    /// Lists issues in a repository.
    #[derive(Tool, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct ListIssues {
        /// Results per page for pagination (min 1, max 100)
        #[tool(range(min = 1, max = 100))]
        per_page: Option<u32>,
        /// Page number for pagination (min 1)
        #[tool(range(min = 1))]
        page: Option<u32>,
        /// Filter by labels
        #[tool(length(max = 20))]
        labels: Option<Vec<String>>,
    }
    let schema: Value = serde_json::from_str(ListIssues::INPUT_SCHEMA).unwrap();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {
                "perPage": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Results per page for pagination (min 1, max 100)"},
                "page": {"type": "integer", "minimum": 1, "maximum": 4294967295_u32, "description": "Page number for pagination (min 1)"},
                "labels": {"type": "array", "items": {"type": "string"}, "maxItems": 20, "description": "Filter by labels"}
            }
        })
    );
    assert_eq!(
        ListIssues::parse_args("{}").unwrap(),
        ListIssues {
            per_page: None,
            page: None,
            labels: None
        }
    );
    let error = ListIssues::parse_args(r#"{"perPage": 0}"#).unwrap_err();
    assert_eq!(
        (error.path(), error.message()),
        ("perPage", "must be at least 1, not 0")
    );
}
