//! Descriptions are JSON-escaped correctly for every character (issue 6): quotes, backslashes,
//! every control character U+0000..U+001F, U+007F, the line and paragraph separators, and
//! characters beyond the BMP, in doc comments and `#[tool(description = "..")]`, on the tool, its
//! fields, nested types and enum variants. Each schema must parse as JSON and give the text back
//! exactly.
//!
//! The texts are written as `#[doc = ".."]` with escapes (a derive reads only literal docs). A
//! doc comment's lines are joined with a space (`doc.rs`), so a `\n` in it reads as `" "`; a
//! `#[tool(description)]` is taken as written.

use serde::Deserialize;
use serde_json::Value;
use toolgen::{Provider, Tool, ToolSchema};

/// Every character class a description can hold, as written in the attributes below.
const TEXT: &str = "quote \" backslash \\ \\\" slash / c00:\u{0};c01:\u{1};c02:\u{2};c03:\u{3};c04:\u{4};c05:\u{5};c06:\u{6};c07:\u{7};c08:\u{8};c09:\u{9};c0a:\u{a};c0b:\u{b};c0c:\u{c};c0d:\u{d};c0e:\u{e};c0f:\u{f};c10:\u{10};c11:\u{11};c12:\u{12};c13:\u{13};c14:\u{14};c15:\u{15};c16:\u{16};c17:\u{17};c18:\u{18};c19:\u{19};c1a:\u{1a};c1b:\u{1b};c1c:\u{1c};c1d:\u{1d};c1e:\u{1e};c1f:\u{1f}; del \u{7f} ls \u{2028} ps \u{2029} bmp \u{fffd}\u{ffff} emoji 😀 max \u{10ffff} escape-text \\u0041 \\n </script> end";

#[doc = "quote \" backslash \\ \\\" slash / c00:\u{0};c01:\u{1};c02:\u{2};c03:\u{3};c04:\u{4};c05:\u{5};c06:\u{6};c07:\u{7};c08:\u{8};c09:\u{9};c0a:\u{a};c0b:\u{b};c0c:\u{c};c0d:\u{d};c0e:\u{e};c0f:\u{f};c10:\u{10};c11:\u{11};c12:\u{12};c13:\u{13};c14:\u{14};c15:\u{15};c16:\u{16};c17:\u{17};c18:\u{18};c19:\u{19};c1a:\u{1a};c1b:\u{1b};c1c:\u{1c};c1d:\u{1d};c1e:\u{1e};c1f:\u{1f}; del \u{7f} ls \u{2028} ps \u{2029} bmp \u{fffd}\u{ffff} emoji 😀 max \u{10ffff} escape-text \\u0041 \\n </script> end"]
#[derive(Tool, Deserialize, Debug)]
#[allow(dead_code)]
struct DocEscaped {
    #[doc = "quote \" backslash \\ \\\" slash / c00:\u{0};c01:\u{1};c02:\u{2};c03:\u{3};c04:\u{4};c05:\u{5};c06:\u{6};c07:\u{7};c08:\u{8};c09:\u{9};c0a:\u{a};c0b:\u{b};c0c:\u{c};c0d:\u{d};c0e:\u{e};c0f:\u{f};c10:\u{10};c11:\u{11};c12:\u{12};c13:\u{13};c14:\u{14};c15:\u{15};c16:\u{16};c17:\u{17};c18:\u{18};c19:\u{19};c1a:\u{1a};c1b:\u{1b};c1c:\u{1c};c1d:\u{1d};c1e:\u{1e};c1f:\u{1f}; del \u{7f} ls \u{2028} ps \u{2029} bmp \u{fffd}\u{ffff} emoji 😀 max \u{10ffff} escape-text \\u0041 \\n </script> end"]
    field: String,
    nested: Nested,
    choice: Choice,
    tagged: Tagged,
}

#[doc = "quote \" backslash \\ \\\" slash / c00:\u{0};c01:\u{1};c02:\u{2};c03:\u{3};c04:\u{4};c05:\u{5};c06:\u{6};c07:\u{7};c08:\u{8};c09:\u{9};c0a:\u{a};c0b:\u{b};c0c:\u{c};c0d:\u{d};c0e:\u{e};c0f:\u{f};c10:\u{10};c11:\u{11};c12:\u{12};c13:\u{13};c14:\u{14};c15:\u{15};c16:\u{16};c17:\u{17};c18:\u{18};c19:\u{19};c1a:\u{1a};c1b:\u{1b};c1c:\u{1c};c1d:\u{1d};c1e:\u{1e};c1f:\u{1f}; del \u{7f} ls \u{2028} ps \u{2029} bmp \u{fffd}\u{ffff} emoji 😀 max \u{10ffff} escape-text \\u0041 \\n </script> end"]
#[derive(ToolSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Nested {
    #[doc = "quote \" backslash \\ \\\" slash / c00:\u{0};c01:\u{1};c02:\u{2};c03:\u{3};c04:\u{4};c05:\u{5};c06:\u{6};c07:\u{7};c08:\u{8};c09:\u{9};c0a:\u{a};c0b:\u{b};c0c:\u{c};c0d:\u{d};c0e:\u{e};c0f:\u{f};c10:\u{10};c11:\u{11};c12:\u{12};c13:\u{13};c14:\u{14};c15:\u{15};c16:\u{16};c17:\u{17};c18:\u{18};c19:\u{19};c1a:\u{1a};c1b:\u{1b};c1c:\u{1c};c1d:\u{1d};c1e:\u{1e};c1f:\u{1f}; del \u{7f} ls \u{2028} ps \u{2029} bmp \u{fffd}\u{ffff} emoji 😀 max \u{10ffff} escape-text \\u0041 \\n </script> end"]
    x: u8,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[allow(dead_code)]
enum Choice {
    #[doc = "quote \" backslash \\ \\\" slash / c00:\u{0};c01:\u{1};c02:\u{2};c03:\u{3};c04:\u{4};c05:\u{5};c06:\u{6};c07:\u{7};c08:\u{8};c09:\u{9};c0a:\u{a};c0b:\u{b};c0c:\u{c};c0d:\u{d};c0e:\u{e};c0f:\u{f};c10:\u{10};c11:\u{11};c12:\u{12};c13:\u{13};c14:\u{14};c15:\u{15};c16:\u{16};c17:\u{17};c18:\u{18};c19:\u{19};c1a:\u{1a};c1b:\u{1b};c1c:\u{1c};c1d:\u{1d};c1e:\u{1e};c1f:\u{1f}; del \u{7f} ls \u{2028} ps \u{2029} bmp \u{fffd}\u{ffff} emoji 😀 max \u{10ffff} escape-text \\u0041 \\n </script> end"]
    First,
    #[doc = "quote \" backslash \\ \\\" slash / c00:\u{0};c01:\u{1};c02:\u{2};c03:\u{3};c04:\u{4};c05:\u{5};c06:\u{6};c07:\u{7};c08:\u{8};c09:\u{9};c0a:\u{a};c0b:\u{b};c0c:\u{c};c0d:\u{d};c0e:\u{e};c0f:\u{f};c10:\u{10};c11:\u{11};c12:\u{12};c13:\u{13};c14:\u{14};c15:\u{15};c16:\u{16};c17:\u{17};c18:\u{18};c19:\u{19};c1a:\u{1a};c1b:\u{1b};c1c:\u{1c};c1d:\u{1d};c1e:\u{1e};c1f:\u{1f}; del \u{7f} ls \u{2028} ps \u{2029} bmp \u{fffd}\u{ffff} emoji 😀 max \u{10ffff} escape-text \\u0041 \\n </script> end"]
    Second,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(tag = "kind")]
#[allow(dead_code)]
enum Tagged {
    #[doc = "quote \" backslash \\ \\\" slash / c00:\u{0};c01:\u{1};c02:\u{2};c03:\u{3};c04:\u{4};c05:\u{5};c06:\u{6};c07:\u{7};c08:\u{8};c09:\u{9};c0a:\u{a};c0b:\u{b};c0c:\u{c};c0d:\u{d};c0e:\u{e};c0f:\u{f};c10:\u{10};c11:\u{11};c12:\u{12};c13:\u{13};c14:\u{14};c15:\u{15};c16:\u{16};c17:\u{17};c18:\u{18};c19:\u{19};c1a:\u{1a};c1b:\u{1b};c1c:\u{1c};c1d:\u{1d};c1e:\u{1e};c1f:\u{1f}; del \u{7f} ls \u{2028} ps \u{2029} bmp \u{fffd}\u{ffff} emoji 😀 max \u{10ffff} escape-text \\u0041 \\n </script> end"]
    Move {
        #[doc = "quote \" backslash \\ \\\" slash / c00:\u{0};c01:\u{1};c02:\u{2};c03:\u{3};c04:\u{4};c05:\u{5};c06:\u{6};c07:\u{7};c08:\u{8};c09:\u{9};c0a:\u{a};c0b:\u{b};c0c:\u{c};c0d:\u{d};c0e:\u{e};c0f:\u{f};c10:\u{10};c11:\u{11};c12:\u{12};c13:\u{13};c14:\u{14};c15:\u{15};c16:\u{16};c17:\u{17};c18:\u{18};c19:\u{19};c1a:\u{1a};c1b:\u{1b};c1c:\u{1c};c1d:\u{1d};c1e:\u{1e};c1f:\u{1f}; del \u{7f} ls \u{2028} ps \u{2029} bmp \u{fffd}\u{ffff} emoji 😀 max \u{10ffff} escape-text \\u0041 \\n </script> end"]
        dx: i32,
    },
    Stop,
}

/// Not this: the attribute's description wins.
#[derive(Tool, Deserialize, Debug)]
#[tool(
    description = "quote \" backslash \\ \\\" slash / c00:\u{0};c01:\u{1};c02:\u{2};c03:\u{3};c04:\u{4};c05:\u{5};c06:\u{6};c07:\u{7};c08:\u{8};c09:\u{9};c0a:\u{a};c0b:\u{b};c0c:\u{c};c0d:\u{d};c0e:\u{e};c0f:\u{f};c10:\u{10};c11:\u{11};c12:\u{12};c13:\u{13};c14:\u{14};c15:\u{15};c16:\u{16};c17:\u{17};c18:\u{18};c19:\u{19};c1a:\u{1a};c1b:\u{1b};c1c:\u{1c};c1d:\u{1d};c1e:\u{1e};c1f:\u{1f}; del \u{7f} ls \u{2028} ps \u{2029} bmp \u{fffd}\u{ffff} emoji 😀 max \u{10ffff} escape-text \\u0041 \\n </script> end"
)]
#[allow(dead_code)]
struct AttrEscaped {
    /// Not this either.
    #[tool(
        description = "quote \" backslash \\ \\\" slash / c00:\u{0};c01:\u{1};c02:\u{2};c03:\u{3};c04:\u{4};c05:\u{5};c06:\u{6};c07:\u{7};c08:\u{8};c09:\u{9};c0a:\u{a};c0b:\u{b};c0c:\u{c};c0d:\u{d};c0e:\u{e};c0f:\u{f};c10:\u{10};c11:\u{11};c12:\u{12};c13:\u{13};c14:\u{14};c15:\u{15};c16:\u{16};c17:\u{17};c18:\u{18};c19:\u{19};c1a:\u{1a};c1b:\u{1b};c1c:\u{1c};c1d:\u{1d};c1e:\u{1e};c1f:\u{1f}; del \u{7f} ls \u{2028} ps \u{2029} bmp \u{fffd}\u{ffff} emoji 😀 max \u{10ffff} escape-text \\u0041 \\n </script> end"
    )]
    field: String,
    nested: AttrNested,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[tool(
    description = "quote \" backslash \\ \\\" slash / c00:\u{0};c01:\u{1};c02:\u{2};c03:\u{3};c04:\u{4};c05:\u{5};c06:\u{6};c07:\u{7};c08:\u{8};c09:\u{9};c0a:\u{a};c0b:\u{b};c0c:\u{c};c0d:\u{d};c0e:\u{e};c0f:\u{f};c10:\u{10};c11:\u{11};c12:\u{12};c13:\u{13};c14:\u{14};c15:\u{15};c16:\u{16};c17:\u{17};c18:\u{18};c19:\u{19};c1a:\u{1a};c1b:\u{1b};c1c:\u{1c};c1d:\u{1d};c1e:\u{1e};c1f:\u{1f}; del \u{7f} ls \u{2028} ps \u{2029} bmp \u{fffd}\u{ffff} emoji 😀 max \u{10ffff} escape-text \\u0041 \\n </script> end"
)]
#[allow(dead_code)]
struct AttrNested {
    #[tool(
        description = "quote \" backslash \\ \\\" slash / c00:\u{0};c01:\u{1};c02:\u{2};c03:\u{3};c04:\u{4};c05:\u{5};c06:\u{6};c07:\u{7};c08:\u{8};c09:\u{9};c0a:\u{a};c0b:\u{b};c0c:\u{c};c0d:\u{d};c0e:\u{e};c0f:\u{f};c10:\u{10};c11:\u{11};c12:\u{12};c13:\u{13};c14:\u{14};c15:\u{15};c16:\u{16};c17:\u{17};c18:\u{18};c19:\u{19};c1a:\u{1a};c1b:\u{1b};c1c:\u{1c};c1d:\u{1d};c1e:\u{1e};c1f:\u{1f}; del \u{7f} ls \u{2028} ps \u{2029} bmp \u{fffd}\u{ffff} emoji 😀 max \u{10ffff} escape-text \\u0041 \\n </script> end"
    )]
    x: u8,
}

/// `TEXT` as a doc comment reads it: its lines joined with a space.
fn as_doc(text: &str) -> String {
    text.replace('\n', " ")
}

/// The schema text, parsed; it must be JSON.
fn parsed(schema: &str) -> Value {
    serde_json::from_str(schema).unwrap_or_else(|e| panic!("not JSON: {e}\n{schema}"))
}

/// Each description in `schema` found at these JSON pointers.
#[track_caller]
fn assert_descriptions(schema: &Value, pointers: &[&str], expected: &str) {
    for pointer in pointers {
        let found = schema.pointer(pointer).and_then(Value::as_str);
        assert_eq!(found, Some(expected), "{pointer} in {schema}");
    }
}

#[test]
fn the_test_text_has_every_control_character() {
    for code in 0..0x20 {
        let c = char::from_u32(code).unwrap();
        assert!(TEXT.contains(c), "U+{code:04X}");
    }
    for c in [
        '"',
        '\\',
        '\u{7f}',
        '\u{2028}',
        '\u{2029}',
        '\u{1F600}',
        '\u{10FFFF}',
    ] {
        assert!(TEXT.contains(c), "{c:?}");
    }
}

#[test]
fn doc_comments_round_trip() {
    let expected = as_doc(TEXT);
    assert_eq!(DocEscaped::DESCRIPTION, expected);
    let schema = parsed(DocEscaped::INPUT_SCHEMA);
    assert_descriptions(
        &schema,
        &[
            "/properties/field/description",
            "/properties/nested/description",
            "/properties/nested/properties/x/description",
            "/properties/choice/anyOf/0/description",
            "/properties/choice/anyOf/1/description",
            "/properties/tagged/anyOf/0/description",
            "/properties/tagged/anyOf/0/properties/dx/description",
        ],
        &expected,
    );
    // The definitions carry the tool's description as it is, for every provider.
    for provider in Provider::ALL {
        let definition = DocEscaped::definition(provider).to_string();
        assert!(
            parsed(&definition)
                .to_string()
                .contains(&Value::from(expected.as_str()).to_string()),
            "{provider}"
        );
    }
}

#[test]
fn attribute_descriptions_round_trip() {
    assert_eq!(AttrEscaped::DESCRIPTION, TEXT);
    let schema = parsed(AttrEscaped::INPUT_SCHEMA);
    assert_descriptions(
        &schema,
        &[
            "/properties/field/description",
            "/properties/nested/description",
            "/properties/nested/properties/x/description",
        ],
        TEXT,
    );
}

/// The schema text escapes what JSON requires and nothing is lost: no raw control character.
#[test]
fn schema_text_has_no_raw_control_characters() {
    for schema in [DocEscaped::INPUT_SCHEMA, AttrEscaped::INPUT_SCHEMA] {
        assert!(!schema.chars().any(|c| c < ' '), "{schema}");
    }
}
