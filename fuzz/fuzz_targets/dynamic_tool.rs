//! Tools defined at run time: `DynamicTool::new` of a schema from the input, its definitions for
//! every provider and its strict form, and `parse_args` of arguments from the input. Nothing may
//! panic; arguments that are accepted are accepted again as the value they came back as.
//!
//! Input: a schema, a NUL, the arguments. Without a NUL, the whole input is arguments for a
//! fixed schema that uses every keyword the checker reads.

#![no_main]

use libfuzzer_sys::fuzz_target;
use toolgen::{DynamicTool, Provider};

const FIXED: &str = r##"{"type":"object","properties":{
  "id":{"type":"string","pattern":"^n[0-9]+$","minLength":2,"maxLength":8},
  "parent":{"type":["string","null"]},
  "n":{"type":"integer","minimum":0,"exclusiveMaximum":100,"multipleOf":3},
  "x":{"type":"number","exclusiveMinimum":-1.5},
  "mode":{"enum":["a","b",1,null]},
  "k":{"const":{"z":[1,2]}},
  "tags":{"type":"array","items":{"type":"string"},"maxItems":4,"uniqueItems":true},
  "pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"boolean"}]},
  "when":{"type":"string","format":"date-time"},
  "node":{"$ref":"#/$defs/Node"},
  "one":{"oneOf":[{"type":"string"},{"type":"integer"}]},
  "any":{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"null"}]},
  "all":{"allOf":[{"type":"string"},{"maxLength":3}]},
  "not":{"not":{"type":"string"}},
  "map":{"type":"object","additionalProperties":{"type":"integer"},"maxProperties":3}
},"required":["id","parent"],"additionalProperties":false,
"$defs":{"Node":{"type":"object","properties":{"child":{"$ref":"#/$defs/Node"},"v":{"type":"string"}}}}}"##;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (schema, args) = match text.split_once('\0') {
        Some((schema, args)) => (schema, args),
        None => (FIXED, text),
    };
    let Ok(schema) = serde_json::from_str::<serde_json::Value>(schema) else {
        return;
    };
    let Ok(tool) = DynamicTool::new("fuzzed", "A fuzzed tool.", schema) else {
        return;
    };
    for provider in [
        Provider::Anthropic,
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Gemini,
        Provider::Mcp,
    ] {
        let definition = tool.definition(provider);
        assert!(definition.is_object(), "{provider}: {definition}");
    }
    if let Ok(strict) = tool.clone().strict() {
        let _ = strict.definition_json(Provider::OpenAiChat);
    }
    if let Ok(value) = tool.parse_args(args) {
        let again = tool.parse_value(value.clone());
        assert_eq!(again.as_ref().ok(), Some(&value), "accepted once, not twice");
    }
});
