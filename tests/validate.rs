//! Every schema toolgen emits is a valid JSON Schema 2020-12 document, and says what serde
//! accepts: values serde writes validate against it and parse back equal, and some arguments
//! both the schema and serde reject.

#[path = "../examples/seed_tools/mod.rs"]
mod seed_tools;

mod common;
mod dialect_check;

use serde_json::{Value, json};
use toolgen::Tool;

use common::{check_rejected, check_round_trip, rows};
use seed_tools::{SEEDS, bridge, flashcards, function_calling, ghostpen, mind_map};

/// Every schema: the seed tools' and the test types'.
fn all_schemas() -> Vec<(String, String)> {
    let mut schemas: Vec<(String, String)> = SEEDS
        .iter()
        .flat_map(|seed| seed.tools.iter())
        .map(|tool| (tool.name.to_owned(), tool.input_schema.to_owned()))
        .collect();
    schemas.extend(common::schemas());
    schemas
}

#[test]
fn every_schema_passes_the_2020_12_meta_schema() {
    let schemas = all_schemas();
    assert!(
        schemas.len() > SEEDS.len(),
        "the list covers seeds and test types"
    );
    for (name, text) in schemas {
        // `parse_schema` also rejects repeated keys, which the meta-schema cannot see.
        let schema = common::parse_schema(&name, &text);
        if let Err(error) = jsonschema::draft202012::meta::validate(&schema) {
            panic!("{name}: not a valid 2020-12 schema: {error}\n{text}");
        }
    }
}

#[test]
fn the_meta_schema_check_rejects_a_broken_schema() {
    // The check above is only worth something if it can fail.
    let broken = json!({"type": "object", "properties": {"a": {"type": "strng"}}, "required": "a"});
    assert!(jsonschema::draft202012::meta::validate(&broken).is_err());
}

#[test]
fn type_mapping_rows_round_trip() {
    let mut checked = 0;
    for row in rows::all() {
        if let Some(round_trip) = row.round_trip {
            round_trip();
            checked += 1;
        }
    }
    assert_eq!(checked, 39);
}

#[test]
fn generic_recursive_and_documented_test_tools_round_trip() {
    check_round_trip(&common::Pages {
        numbers: common::Page {
            items: vec![1, 2],
            next: Some("cursor".to_owned()),
        },
        items: common::Page {
            items: vec![common::Item { id: 7 }],
            next: None,
        },
        maybe_page: None,
        maybe_item: Some(common::Item { id: 8 }),
    });
    let leaf = |name: &str| common::TreeNode {
        name: name.to_owned(),
        children: Vec::new(),
        more: Vec::new(),
        next: None,
    };
    check_round_trip(&common::Forest {
        first: common::TreeNode {
            name: "root".to_owned(),
            children: vec![leaf("a"), leaf("b")],
            more: vec![leaf("c")],
            next: Some(Box::new(leaf("d"))),
        },
        rest: vec![leaf("e")],
    });
    let described = |text: &str| common::Described {
        text: text.to_owned(),
    };
    check_round_trip(&common::Documented {
        overridden: described("a"),
        inherited: described("b"),
        maybe: Some(described("c")),
        escaped: 1,
    });
    check_round_trip(&common::AttributeDescribed { value: 0 });
    check_round_trip(&common::Optionals {
        meters: Some(common::Meters(2.5)),
        item: None,
        twice: Some(Some(described("d"))),
    });
}

#[test]
fn seed_tools_round_trip() {
    check_round_trip(&flashcards::EmitFlashcards {
        flashcards: seed_tools::NonEmpty(vec![
            flashcards::Flashcard {
                base_form: "māja".to_owned(),
                base_translation: "дом".to_owned(),
                unit: flashcards::Unit::Word,
                forms: vec![flashcards::Form {
                    form: "mājā".to_owned(),
                    translation: "в доме".to_owned(),
                    r#type: "lokatīvs".to_owned(),
                }],
                contexts: vec![flashcards::Context {
                    lv: "Es esmu mājā.".to_owned(),
                    ru: "Я дома.".to_owned(),
                    sid: 3.0,
                    sig: "a1".to_owned(),
                }],
                visible: true,
            },
            flashcards::Flashcard {
                base_form: "labdien".to_owned(),
                base_translation: String::new(),
                unit: flashcards::Unit::Phrase,
                forms: Vec::new(),
                contexts: Vec::new(),
                visible: false,
            },
        ]),
    });
    check_round_trip(&bridge::GetWeather {
        location: "Riga".to_owned(),
        units: bridge::Units::Fahrenheit,
    });
    check_round_trip(&ghostpen::ReadStyleProfile {
        profile_name: "competitor-alex".to_owned(),
    });
    check_round_trip(&ghostpen::UpdateStyleProfile {
        profile_name: "default".to_owned(),
        changes: json!({
            "voice.formality": "casual але експертний",
            "voice.signature_phrases": ["ось у чому штука", "спойлер:"]
        })
        .as_object()
        .cloned()
        .unwrap_or_default(),
        reason: "3x фідбек: too_formal".to_owned(),
    });
    check_round_trip(&ghostpen::ListProfiles {});
    check_round_trip(&ghostpen::ReadPastPosts {
        keywords: vec!["вигорання".to_owned(), "burnout".to_owned()],
        platform: ghostpen::PlatformFilter::Linkedin,
        limit: 5,
    });
    check_round_trip(&ghostpen::SaveToFile {
        content: "Текст поста".to_owned(),
        platform: ghostpen::Platform::X,
        topic: "burnout".to_owned(),
        profile_used: "mix:default+competitor-alex".to_owned(),
    });
    check_round_trip(&ghostpen::SearchWeb {
        query: "burnout statistics 2025".to_owned(),
    });
    check_round_trip(&ghostpen::ReadNotionPage {
        page_id: "https://notion.so/page-name-abc123".to_owned(),
    });
    check_round_trip(&ghostpen::WriteToNotion {
        content: "Текст".to_owned(),
        title: "Мої думки про AI в маркетингу".to_owned(),
        platform: ghostpen::Platform::Instagram,
        topic: "AI".to_owned(),
        profile_used: "default".to_owned(),
    });
    check_round_trip(&ghostpen::TrackFeedback {
        category: ghostpen::FeedbackCategory::CtaTooPushy,
        raw_feedback: "занадто офіційно звучить".to_owned(),
    });
    check_round_trip(&function_calling::GetWeather {
        city: "Москва".to_owned(),
        days: Some(3),
    });
    check_round_trip(&function_calling::SumNumbers {
        base: -1,
        numbers: vec![2, 3],
    });
    check_round_trip(&function_calling::ConfigFunc {
        name: "x".to_owned(),
        options: json!({"verbose": true})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    });
    let leaf = |title: &str| mind_map::NodeTree {
        title: title.to_owned(),
        note: None,
        children: Vec::new(),
    };
    let operation = |id: &str, operation| mind_map::OperationWithId {
        id: id.to_owned(),
        target_node_id: "6f1c2a8e-0000-4000-8000-000000000000".to_owned(),
        description: "操作描述".to_owned(),
        operation,
    };
    check_round_trip(&mind_map::SuggestOperations {
        operations: vec![
            operation(
                "op-1",
                mind_map::Operation::AddChild {
                    title: "新节点".to_owned(),
                },
            ),
            operation(
                "op-2",
                mind_map::Operation::AddChildTrees {
                    trees: vec![mind_map::NodeTree {
                        title: "新节点".to_owned(),
                        note: Some("笔记".to_owned()),
                        children: vec![leaf("子节点 1"), leaf("子节点 2")],
                    }],
                },
            ),
            operation(
                "op-3",
                mind_map::Operation::UpdateTitle {
                    title: "标题".to_owned(),
                },
            ),
            operation(
                "op-4",
                mind_map::Operation::UpdateNote {
                    note: "笔记".to_owned(),
                },
            ),
            operation("op-5", mind_map::Operation::DeleteNode),
        ],
    });
}

/// `args` validates against `T`'s schema and parses into `expected`.
fn check_accepted<T: Tool + PartialEq + std::fmt::Debug>(args: Value, expected: &T) {
    let validator = common::validator(T::NAME, T::INPUT_SCHEMA);
    assert!(
        validator.is_valid(&args),
        "{}: schema rejects {args}",
        T::NAME
    );
    let parsed = T::parse_args(&args.to_string())
        .unwrap_or_else(|e| panic!("{}: serde rejects {args}: {e}", T::NAME));
    pretty_assertions::assert_eq!(&parsed, expected, "{args}");
}

/// `args` does not validate against `T`'s schema (which does not offer it), but parses into
/// `expected` all the same: a tolerance.
fn check_tolerated<T: Tool + PartialEq + std::fmt::Debug>(args: Value, expected: &T) {
    let validator = common::validator(T::NAME, T::INPUT_SCHEMA);
    assert!(
        !validator.is_valid(&args),
        "{}: schema accepts {args}",
        T::NAME
    );
    let parsed = T::parse_args(&args.to_string())
        .unwrap_or_else(|e| panic!("{}: serde rejects {args}: {e}", T::NAME));
    pretty_assertions::assert_eq!(&parsed, expected, "{args}");
}

#[test]
fn optional_and_default_fields_may_be_left_out() {
    check_accepted(json!({}), &rows::option_string::Folded { value: None });
    // An optional field's schema is its inner type's: a `null` is not offered, but read as
    // `None` when a model sends one.
    check_tolerated(
        json!({"value": null}),
        &rows::option_string::Folded { value: None },
    );
    check_tolerated(
        json!({"value": null}),
        &rows::option_enum::Folded { value: None },
    );
    check_accepted(
        json!({}),
        &ghostpen::ReadStyleProfile {
            profile_name: "default".to_owned(),
        },
    );
    check_accepted(
        json!({"keywords": []}),
        &ghostpen::ReadPastPosts {
            keywords: Vec::new(),
            platform: ghostpen::PlatformFilter::All,
            limit: 5,
        },
    );
    check_accepted(
        json!({"flashcards": [{"base_form": "jā", "unit": "word", "contexts": [{"lv": "jā", "ru": "да"}], "visible": true}]}),
        &flashcards::EmitFlashcards {
            flashcards: seed_tools::NonEmpty(vec![flashcards::Flashcard {
                base_form: "jā".to_owned(),
                base_translation: String::new(),
                unit: flashcards::Unit::Word,
                forms: Vec::new(),
                contexts: vec![flashcards::Context {
                    lv: "jā".to_owned(),
                    ru: "да".to_owned(),
                    sid: 0.0,
                    sig: String::new(),
                }],
                visible: true,
            }]),
        },
    );
}

#[test]
fn out_of_range_and_mistyped_values_are_rejected_by_both() {
    check_rejected::<rows::uint8::Folded>(json!({"value": 256}));
    check_rejected::<rows::uint8::Traited>(json!({"value": -1}));
    check_rejected::<rows::int8::Folded>(json!({"value": 128}));
    check_rejected::<rows::uint64::Folded>(json!({"value": -1}));
    check_rejected::<rows::boolean::Folded>(json!({"value": "true"}));
    check_rejected::<rows::boolean::Folded>(json!({}));
    check_rejected::<rows::character::Folded>(json!({"value": "ab"}));
    check_rejected::<rows::character::Folded>(json!({"value": ""}));
    check_rejected::<rows::array::Folded>(json!({"value": [1, 2]}));
    check_rejected::<rows::array::Folded>(json!({"value": [1, 2, 3, 4]}));
    check_rejected::<rows::tuple::Folded>(json!({"value": [1, "a"]}));
    check_rejected::<rows::unit::Folded>(json!({"value": 0}));
    check_rejected::<rows::hash_map::Folded>(json!({"value": {"a": "x"}}));
    check_rejected::<rows::string::Folded>(json!({"value": null}));
}

#[test]
fn enum_values_serde_does_not_read_are_rejected_by_both() {
    // Skipped, renamed away, and not renamed by `rename_all`.
    check_rejected::<rows::plain_enum::Folded>(json!({"value": "hidden"}));
    check_rejected::<rows::plain_enum::Folded>(json!({"value": "second"}));
    check_rejected::<rows::plain_enum::Folded>(json!({"value": "FirstOne"}));
    check_rejected::<rows::documented_enum::Folded>(json!({"value": "INTERNAL"}));
    check_rejected::<rows::documented_enum::Folded>(json!({"value": "HIGH"}));
}

#[test]
fn invalid_seed_tool_arguments_are_rejected_by_both() {
    check_rejected::<flashcards::EmitFlashcards>(json!({"flashcards": []}));
    check_rejected::<flashcards::EmitFlashcards>(json!({
        "flashcards": [{"base_form": "jā", "unit": "sentence", "contexts": [], "visible": true}]
    }));
    // `contexts` left out is refused by the schema only: it shows a default and stays
    // `required` (`#[tool(required)]`), and parsing fills the default in (tests/seed_000.rs).
    check_rejected::<flashcards::EmitFlashcards>(json!({
        "flashcards": [{"unit": "word", "contexts": [], "visible": true}]
    }));
    check_rejected::<bridge::GetWeather>(json!({"location": "Riga", "units": "kelvin"}));
    check_rejected::<ghostpen::TrackFeedback>(json!({"category": "rude", "raw_feedback": "x"}));
    check_rejected::<ghostpen::UpdateStyleProfile>(json!({"changes": [], "reason": "x"}));
    check_rejected::<function_calling::GetWeather>(json!({"city": "Riga", "days": 2.5}));
    // `deny_unknown_fields` is `additionalProperties: false`.
    check_rejected::<function_calling::SumNumbers>(json!({"base": 1, "numbers": [], "extra": 1}));
    check_rejected::<mind_map::SuggestOperations>(json!({"operations": [{
        "id": "op-1", "targetNodeId": "n", "description": "d", "action": "addChildTrees",
        "trees": [{"title": "a", "children": [{"note": "no title"}]}]
    }]}));
    // The document's example operation, and one whose `action` is none of the five.
    check_accepted(
        json!({"operations": [{"id": "op-1", "action": "addChild", "targetNodeId": "uuid...",
            "title": "新节点", "description": "..."}]}),
        &mind_map::SuggestOperations {
            operations: vec![mind_map::OperationWithId {
                id: "op-1".to_owned(),
                target_node_id: "uuid...".to_owned(),
                description: "...".to_owned(),
                operation: mind_map::Operation::AddChild {
                    title: "新节点".to_owned(),
                },
            }],
        },
    );
    check_rejected::<mind_map::SuggestOperations>(json!({"operations": [{
        "id": "op-1", "targetNodeId": "n", "description": "d", "action": "moveNode"
    }]}));
}
