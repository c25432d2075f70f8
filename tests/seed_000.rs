//! Seed 000 §5.1: the unit tests the design document writes for `buildEmitFlashcardsTool()`, one
//! test per `it(..)`, on the Anthropic definition toolgen writes for `EmitFlashcards` (the
//! document's tool is Anthropic's `{name, description, input_schema}`).

#[path = "../examples/seed_tools/mod.rs"]
mod seed_tools;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use toolgen::{Provider, Tool};

use seed_tools::flashcards::EmitFlashcards;

/// `buildEmitFlashcardsTool()`.
fn tool() -> Value {
    EmitFlashcards::definition(Provider::Anthropic)
}

fn schema() -> Value {
    tool()["input_schema"].clone()
}

fn item_schema() -> Value {
    schema()["properties"]["flashcards"]["items"].clone()
}

// 5.1.1 Базовая генерация

#[test]
fn returns_an_object_with_name_description_input_schema() {
    let tool = tool();
    for key in ["name", "description", "input_schema"] {
        assert!(tool.get(key).is_some(), "no {key}");
    }
}

#[test]
fn name_is_emit_flashcards() {
    assert_eq!(tool()["name"], "emit_flashcards");
}

#[test]
fn description_is_a_non_empty_russian_string() {
    let description = tool()["description"].as_str().unwrap().to_owned();
    assert!(!description.is_empty());
    // `description.length` in JavaScript counts UTF-16 units; these are all in the BMP.
    assert!(description.encode_utf16().count() > 50);
    assert!(
        description
            .chars()
            .any(|c| matches!(c, 'а'..='я' | 'А'..='Я'))
    );
}

// 5.1.2 Структура JSON Schema

#[test]
fn schema_has_type_object() {
    assert_eq!(schema()["type"], "object");
}

#[test]
fn schema_has_properties_flashcards() {
    assert!(schema()["properties"].get("flashcards").is_some());
}

#[test]
fn flashcards_is_an_array() {
    assert_eq!(schema()["properties"]["flashcards"]["type"], "array");
}

#[test]
fn flashcards_has_min_items_1() {
    assert_eq!(schema()["properties"]["flashcards"]["minItems"], 1);
}

#[test]
fn required_is_flashcards() {
    assert_eq!(schema()["required"], json!(["flashcards"]));
}

#[test]
fn schema_has_no_dollar_schema() {
    assert!(schema().get("$schema").is_none());
}

// 5.1.3 Вложенная структура Flashcard

#[test]
fn item_is_an_object() {
    assert_eq!(item_schema()["type"], "object");
}

#[test]
fn item_has_base_form_of_type_string() {
    let item = item_schema();
    assert!(item["properties"].get("base_form").is_some());
    assert_eq!(item["properties"]["base_form"]["type"], "string");
}

#[test]
fn unit_has_enum_word_phrase() {
    assert_eq!(
        item_schema()["properties"]["unit"]["enum"],
        json!(["word", "phrase"])
    );
}

#[test]
fn base_translation_is_optional() {
    let required = item_schema()["required"].clone();
    assert!(
        !required
            .as_array()
            .unwrap()
            .contains(&json!("base_translation"))
    );
}

#[test]
fn contexts_is_a_required_array() {
    let item = item_schema();
    assert!(
        item["required"]
            .as_array()
            .unwrap()
            .contains(&json!("contexts"))
    );
    assert_eq!(item["properties"]["contexts"]["type"], "array");
}

#[test]
fn visible_has_default_true() {
    assert_eq!(item_schema()["properties"]["visible"]["default"], true);
}

// 5.1.4 Совместимость с Claude API

#[test]
fn schema_has_no_ref() {
    let text = serde_json::to_string(&schema()).unwrap();
    assert!(!text.contains("$ref"));
}

#[test]
fn schema_serialises_as_json() {
    assert!(serde_json::to_string(&schema()).is_ok());
}

#[test]
fn schema_is_a_valid_json_schema() {
    // The document checks `type` and `properties` and suggests a validator: both.
    let schema = schema();
    assert!(schema.get("type").is_some());
    assert!(schema.get("properties").is_some());
    jsonschema::meta::validate(&schema).unwrap();
}

// 5.1.5 Идемпотентность

#[test]
fn repeated_calls_give_equal_objects() {
    assert_eq!(tool(), tool());
    // And the same text, built once.
    assert!(std::ptr::eq(
        EmitFlashcards::definition_json(Provider::Anthropic),
        EmitFlashcards::definition_json(Provider::Anthropic)
    ));
}

/// §6.2's defaulted fields are required and show their default; a model that leaves one out
/// still gets it.
#[test]
fn a_defaulted_required_field_left_out_gets_its_default() {
    let parsed = EmitFlashcards::parse_args(
        r#"{"flashcards": [{"base_form": "jā", "contexts": [{"lv": "Jā.", "ru": "Да."}]}]}"#,
    )
    .unwrap();
    let card = &parsed.flashcards.0[0];
    assert_eq!(card.unit, seed_tools::flashcards::Unit::Word);
    assert!(card.visible);
    assert!(card.forms.is_empty());
}
