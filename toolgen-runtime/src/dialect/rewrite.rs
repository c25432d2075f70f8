//! The provider dialects of a schema, rewritten at run time: the standard schema text is read
//! into an order-preserving tree ([`Json`]), checked for what the dialect cannot express
//! ([`super::check`]), rewritten by the dialect's passes ([`super::passes`]) and written back.
//!
//! The rules are those of the const-evaluated rewrite it replaced, keyword for keyword, and so is
//! the output, byte for byte, and the first error, with its path: `tests/dialect_corpus.rs` holds
//! it against that rewrite's recorded output on 1,097 inputs (edge cases, generated schemas,
//! OpenAI's limits), and the goldens against every seed tool's.

use crate::dialect::json::Json;
use crate::dialect::rules::Rules;
use crate::dialect::{Dialect, DialectError, Rule, check, passes};

/// How many keywords one schema object may have.
const MAX_KEYWORDS: usize = 24;
/// How deep [`well_formed`] follows schemas.
const MAX_NESTING: usize = 128;

/// A schema toolgen emitted, as text, in `dialect`: what `dialect_schema` returns, rewritten at
/// run time. Text that is not a schema of the shapes toolgen writes is [`Rule::NotASchema`].
pub fn rewrite_text(standard: &str, dialect: Dialect) -> Result<String, DialectError> {
    let not_a_schema = || DialectError::new(dialect, Rule::NotASchema, String::new());
    let json: Json = serde_json::from_str(standard).map_err(|_| not_a_schema())?;
    if !well_formed(&json) {
        return Err(not_a_schema());
    }
    Ok(rewrite(&json, dialect)?.text())
}

/// Whether `text` is JSON of the shapes [`rewrite`] reads ([`well_formed`]).
pub(crate) fn readable(text: &str) -> bool {
    serde_json::from_str::<Json>(text).is_ok_and(|json| well_formed(&json))
}

/// Whether `json` has the shapes [`rewrite`] reads: objects of at most 24 keywords whose
/// `properties` and `$defs` are objects of schemas, `items` a schema, `anyOf`, `oneOf`, `allOf`
/// and `prefixItems` lists of schemas, `required` and `enum` lists, `type` a string or a list of
/// strings, `description`, `format` and `pattern` strings.
pub(crate) fn well_formed(json: &Json) -> bool {
    formed(json, 0)
}

/// [`well_formed`] for a schema `depth` schemas deep.
fn formed(schema: &Json, depth: usize) -> bool {
    let Json::Object(keywords) = schema else {
        return matches!(schema, Json::Bool(_));
    };
    let well_formed_keyword = |(key, value): &(String, Json)| {
        let (object, array) = (
            matches!(value, Json::Object(_)),
            matches!(value, Json::Array(_)),
        );
        let strings = || array && value.items().iter().all(|v| v.as_str().is_some());
        let values = value.members().iter().map(|(_, v)| v).chain(value.items());
        let schemas = || values.clone().all(|v| formed(v, depth + 1));
        match key.as_str() {
            "properties" | "$defs" => object && schemas(),
            "items" | "additionalProperties" | "not" => formed(value, depth + 1),
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => array && schemas(),
            "required" => strings(),
            "enum" | "examples" => array,
            "type" => value.as_str().is_some() || strings(),
            "description" | "format" | "pattern" | "$ref" | "title" => value.as_str().is_some(),
            _ => true,
        }
    };
    keywords.len() <= MAX_KEYWORDS
        && depth <= MAX_NESTING
        && keywords.iter().all(well_formed_keyword)
}

/// `schema` (a [`well_formed`] schema toolgen emitted) in `dialect`; what the dialect cannot
/// express is an error, the first one in document order.
pub(crate) fn rewrite(schema: &Json, dialect: Dialect) -> Result<Json, DialectError> {
    if Rules::of(dialect).is_identity() {
        return Ok(schema.clone());
    }
    match check::first_problem(schema, dialect) {
        Some((rule, path)) => Err(DialectError::new(dialect, rule, path)),
        None => Ok(passes::write(schema, dialect)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Dialect::{AnthropicStrict as An, Gemini as Gm, OpenAiStrict as Os};

    /// `standard` in `dialect`: the text, or the error's rule and path.
    fn rewritten(standard: &str, dialect: Dialect) -> Result<String, (Rule, String)> {
        rewrite_text(standard, dialect).map_err(|e| (e.rule(), e.path().to_owned()))
    }

    #[test]
    fn json_text_round_trips_in_document_order() {
        let texts = [
            r#"{"z":1,"a":[true,false,null],"m":{"y":-2,"b":1.5,"c":1e-7}}"#,
            "[\"tab:\\t nl:\\n quote:\\\" backslash:\\\\ bell:\\u0007 del:\u{7f} \u{2028}🦀\"]",
            "[18446744073709551615,-9223372036854775808,0.1,-0.0,1e+300]",
        ];
        for text in texts {
            assert_eq!(serde_json::from_str::<Json>(text).unwrap().text(), text);
        }
        // As `serde_json::Value` reads them: the last value of a key, at the first one's place.
        let json: Json = serde_json::from_str(r#"{ "a" : 1, "b":2, "a":[3] }"#).unwrap();
        assert_eq!(json.text(), r#"{"a":[3],"b":2}"#);
        assert_eq!(
            serde_json::from_str::<Json>("1.0E2").unwrap().text(),
            "100.0"
        );
    }

    const OPTIONAL: &str = r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer","minimum":0,"default":5},"c":{"type":"object","properties":{"x":{"type":"boolean"}},"required":["x"]},"d":{"type":"string","enum":["p","q"]},"e":{"anyOf":[{"type":"string"},{"type":"null"}]},"f":{"type":["object","null"],"properties":{}}},"required":["a"]}"#;
    const WORDS: &str = r#"{"type":"string","description":"A \"name\".","minLength":1,"maxLength":80,"format":"uri-reference","default":"x\\y"}"#;
    const GEMINI: &str = r#"{"type":"object","properties":{"a":{"anyOf":[{"type":"object","properties":{"k":{"const":"v","description":"K."}},"required":["k"],"description":"Inner."},{"type":"null"}],"description":"Outer."},"b":{"type":["integer","null"],"format":"int64"},"c":{"type":"string","format":"email"}},"required":[],"additionalProperties":false}"#;
    const MAP: &str = r#"{"type":"object","properties":{"cards":{"type":"array","items":{"type":"object","properties":{"meta":{"type":"object","additionalProperties":{"type":"string"}}},"required":["meta"]}}},"required":["cards"]}"#;
    const RECURSIVE: &str = r##"{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},"required":["n"],"$defs":{"N":{"type":"object","properties":{"c":{"type":"array","items":{"$ref":"#/$defs/N"}}},"required":["c"]}}}"##;

    /// The examples of `dialect.rs`'s tests and docs, with the same texts.
    #[rustfmt::skip]
    const REWRITES: &[(Dialect, &str, &str)] = &[
        (Os, OPTIONAL, r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["integer","null"],"minimum":0,"description":"Default: 5."},"c":{"anyOf":[{"type":"object","properties":{"x":{"type":"boolean"}},"required":["x"],"additionalProperties":false},{"type":"null"}]},"d":{"anyOf":[{"type":"string","enum":["p","q"]},{"type":"null"}]},"e":{"anyOf":[{"type":"string"},{"type":"null"}]},"f":{"anyOf":[{"type":"object","properties":{},"required":[],"additionalProperties":false},{"type":"null"}]}},"required":["a","b","c","d","e","f"],"additionalProperties":false}"#),
        (Os, r#"{"type":"object","properties":{"city":{"type":"string","maxLength":80},"days":{"type":"integer"}},"required":["city"]}"#, r#"{"type":"object","properties":{"city":{"type":"string","description":"At most 80 characters."},"days":{"type":["integer","null"]}},"required":["city","days"],"additionalProperties":false}"#),
        (Os, WORDS, r#"{"type":"string","description":"A \"name\". At least 1 characters. At most 80 characters. Format: uri-reference. Default: \"x\\\\y\"."}"#),
        (An, WORDS, r#"{"type":"string","description":"A \"name\". At least 1 characters. At most 80 characters. Format: uri-reference.","default":"x\\y"}"#),
        (Gm, WORDS, r#"{"type":"string","description":"A \"name\". Format: uri-reference.","minLength":1,"maxLength":80,"default":"x\\y"}"#),
        (An, r#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":255},"minItems":2,"uniqueItems":true}"#, r#"{"type":"array","items":{"type":"integer","description":"At least 0. At most 255."},"description":"At least 2 items. Items must be unique."}"#),
        (Gm, GEMINI, r#"{"type":"object","properties":{"a":{"type":"object","properties":{"k":{"enum":["v"],"description":"K.","type":"string"}},"required":["k"],"description":"Outer.","nullable":true,"propertyOrdering":["k"]},"b":{"type":"integer","format":"int64","nullable":true},"c":{"type":"string","description":"Format: email."}},"required":[],"propertyOrdering":["a","b","c"]}"#),
        (Gm, r#"{"type":["string","null"]}"#, r#"{"type":"string","nullable":true}"#),
        (Gm, "{ \"type\" : [ \"string\" , \"null\" ] }", r#"{"type":"string","nullable":true}"#),
        (Gm, MAP, r#"{"type":"object","properties":{"cards":{"type":"array","items":{"type":"object","properties":{"meta":{"type":"object","description":"Any keys, each with a value of: {\"type\":\"string\"}."}},"required":["meta"],"propertyOrdering":["meta"]}}},"required":["cards"],"propertyOrdering":["cards"]}"#),
        // A map's values, and the other keys of an object with a flattened map, in words; a
        // description of its own goes first.
        (Gm, r#"{"type":"object","description":"Tags.","additionalProperties":{"type":"integer","minimum":0}}"#, r#"{"type":"object","description":"Tags. Any keys, each with a value of: {\"type\":\"integer\",\"minimum\":0}."}"#),
        (Gm, r#"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{}}"#, r#"{"type":"object","properties":{"a":{"type":"string"}},"description":"Other keys, each with any value.","propertyOrdering":["a"]}"#),
        (Gm, r#"{"type":"object","properties":{},"additionalProperties":false}"#, r#"{"type":"object","properties":{},"propertyOrdering":[]}"#),
        (An, r#"{"type":"string","pattern":"^a\\\\b$"}"#, r#"{"type":"string","pattern":"^a\\\\b$"}"#),
        (Gm, "true", "true"),
        (Dialect::Standard, r#"{ "type":"object" }"#, r#"{"type":"object"}"#),
        // A default the description states already is not said twice.
        (Os, r#"{"type":"integer","description":"How many. Default: 5","default":5}"#, r#"{"type":"integer","description":"How many. Default: 5"}"#),
        (Os, r#"{"type":"integer","description":"How many.","default":5}"#, r#"{"type":"integer","description":"How many. Default: 5."}"#),
    ];

    #[test]
    fn dialects_of_the_const_rewrites_examples() {
        for &(dialect, standard, expected) in REWRITES {
            let rewritten = rewritten(standard, dialect);
            assert_eq!(
                rewritten,
                Ok(expected.to_owned()),
                "{dialect:?}: {standard}"
            );
        }
        assert!(rewritten(RECURSIVE, Os).is_ok());
        let any = r#"{"type":"object","properties":{"v":{"description":"Anything."}}}"#;
        assert_eq!(
            rewrite_text(any, Os).unwrap_err().to_string(),
            "OpenAI strict mode cannot take an arbitrary JSON value (`serde_json::Value`): every schema needs a type, at `v`; use a concrete type, or drop `strict`"
        );
    }

    #[test]
    fn what_a_dialect_cannot_express_is_an_error_with_a_path() {
        let values: Vec<String> = (0..1001).map(|i| format!("\"v{i}\"")).collect();
        let many = format!(r#"{{"type":"string","enum":[{}]}}"#, values.join(","));
        assert!(rewritten(&many, An).is_ok());
        let mut deep = String::from(r#"{"type":"string"}"#);
        for _ in 0..11 {
            deep = format!(r#"{{"type":"object","properties":{{"x":{deep}}},"required":["x"]}}"#);
        }
        // Paths are cut at 200 bytes, between characters.
        let key = "é".repeat(60);
        let object = r#""type":"object","properties""#;
        let long = format!(r#"{{{object}:{{"{key}":{{{object}:{{"{key}":{{}}}}}}}}}}"#);
        let cut = format!("{key}.{}", "é".repeat(39));
        #[rustfmt::skip]
        let errors = [
            (Os, MAP, Rule::Map, "cards[].meta"),
            (An, MAP, Rule::Map, "cards[].meta"),
            (An, RECURSIVE, Rule::Recursive, "n"),
            (An, r#"{"type":"string","pattern":"^\\bword\\b$"}"#, Rule::Pattern, ""),
            (An, r#"{"type":"string","pattern":"(?=a)"}"#, Rule::Pattern, ""),
            (Os, &deep, Rule::TooDeep, "x.x.x.x.x.x.x.x.x.x"),
            (Os, &many, Rule::TooManyEnumValues, ""),
            (Os, &long, Rule::AnyValue, &cut),
        ];
        for (dialect, standard, rule, path) in errors {
            let error = Err((rule, path.to_owned()));
            assert_eq!(
                rewritten(standard, dialect),
                error,
                "{dialect:?}: {standard}"
            );
        }
    }

    #[test]
    fn text_that_is_not_a_schema_is_an_error_not_a_panic() {
        let many: Vec<String> = (0..50).map(|i| format!("\"k{i}\":1")).collect();
        #[rustfmt::skip]
        let cases = [
            String::new(), "{".to_owned(), "[1,2]".to_owned(), r#"{"properties":5}"#.to_owned(),
            r#"{"type":"object","properties":{"a":7}}"#.to_owned(),
            r#"{"anyOf":{"type":"null"}}"#.to_owned(), r#"{"required":"a"}"#.to_owned(),
            r#"{"type":5}"#.to_owned(), format!("{{{}}}", many.join(",")), "[".repeat(10_000),
            format!("{}{}", r#"{"items":"#.repeat(200), "}".repeat(200)),
            format!("{}{}", r#"{"items":"#.repeat(100_000), "}".repeat(100_000)),
        ];
        for case in cases {
            for dialect in Dialect::ALL {
                let not_a_schema = Err((Rule::NotASchema, String::new()));
                assert_eq!(rewritten(&case, dialect), not_a_schema, "{case}");
            }
        }
    }
}
