//! Golden schemas of the seed tools (`examples/seed_tools`), compared as parsed JSON values.
//!
//! `000_emit_flashcards.json`, `001_get_weather.json`, `003_function_name.openai_chat.json` and
//! the OpenAI strict dialects of seed 003's `function_name` and `sum_numbers` are written by hand
//! from the design documents (seed 001's Anthropic example; seed 000 §6.2's `input_schema` as
//! the document writes it), and `TOOLGEN_BLESS` never rewrites them. The others are blessed from
//! our output with
//! `TOOLGEN_BLESS=1 cargo test --test golden`, then reviewed against the documents: review their
//! diffs like code.

#[path = "../examples/seed_tools/mod.rs"]
mod seed_tools;

use std::fs;
use std::path::PathBuf;

use pretty_assertions::assert_eq;
use serde_json::Value;
use toolgen::{Dialect, Provider, Tool, dialect_schema};

use seed_tools::{SEEDS, flashcards::EmitFlashcards, function_calling::FunctionName};

/// Goldens written by hand from the seed text.
const HAND_WRITTEN: &[&str] = &[
    "000_emit_flashcards.json",
    "001_get_weather.json",
    "003_function_name.openai_chat.json",
];

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn bless() -> bool {
    std::env::var_os("TOOLGEN_BLESS").is_some_and(|v| v == "1")
}

/// `actual` equals the golden `file`: as a value, and in the order of every object's keys.
fn check_golden(file: &str, actual: &Value) {
    let path = golden_dir().join(file);
    if bless() && !HAND_WRITTEN.contains(&file) && !HAND_WRITTEN_DIALECTS.contains(&file) {
        let text = serde_json::to_string_pretty(actual).expect("JSON values serialize");
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
        fs::write(&path, text + "\n").unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let text = fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (TOOLGEN_BLESS=1 writes blessed goldens)",
            path.display()
        )
    });
    let expected: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
    assert_eq!(actual, &expected, "{file}");
    // `Value` equality ignores key order; properties must come in declaration order, as the
    // models fill them in.
    let pretty = |value: &Value| serde_json::to_string_pretty(value).expect("values serialize");
    assert_eq!(pretty(actual), pretty(&expected), "{file}: key order");
}

fn schema(text: &str) -> Value {
    serde_json::from_str(text).expect("INPUT_SCHEMA is JSON")
}

#[test]
fn emit_flashcards_is_the_schema_of_seed_000() {
    check_golden(
        "000_emit_flashcards.json",
        &schema(EmitFlashcards::INPUT_SCHEMA),
    );
}

#[test]
fn get_weather_is_the_schema_of_seed_001() {
    check_golden(
        "001_get_weather.json",
        &schema(seed_tools::bridge::GetWeather::INPUT_SCHEMA),
    );
}

/// `000_emit_flashcards.json` for the schema of `emit_flashcards` in seed `000`.
fn golden_name(seed_id: &str, tool: &str) -> String {
    format!("{seed_id}_{tool}.json")
}

#[test]
fn every_seed_tool_matches_its_golden_schema() {
    for seed in &SEEDS {
        for tool in seed.tools {
            check_golden(&golden_name(seed.id, tool.name), &schema(tool.input_schema));
        }
    }
}

fn provider_slug(provider: Provider) -> &'static str {
    match provider {
        Provider::Anthropic => "anthropic",
        Provider::OpenAiChat => "openai_chat",
        Provider::OpenAiResponses => "openai_responses",
        Provider::Gemini => "gemini",
        Provider::Mcp => "mcp",
        other => panic!("{other}: add a golden definition for the new provider"),
    }
}

#[test]
fn emit_flashcards_definitions_for_every_provider() {
    for provider in Provider::ALL {
        let file = format!("000_emit_flashcards.{}.json", provider_slug(provider));
        check_golden(&file, &EmitFlashcards::definition(provider));
    }
}

/// Seed 004's one tool, whose operations are a tagged union flattened into the common fields, in
/// every provider's definition (Gemini's takes the standard schema: it cannot say recursion).
#[test]
fn suggest_operations_definitions_for_every_provider() {
    use seed_tools::mind_map::SuggestOperations;
    for provider in Provider::ALL {
        let file = format!("004_suggestOperations.{}.json", provider_slug(provider));
        check_golden(&file, &SuggestOperations::definition(provider));
    }
}

#[test]
fn the_anthropic_definition_is_seed_000s_tool_definition() {
    // Seed 000 §6.2 abridges the description; §3.3 gives it whole.
    let description = "Возвращает строго структурированный JSON с набором флэшкарт (словарных \
        карточек) для изучения латышского языка. Каждая карточка содержит базовую форму \
        слова/фразы, переводы, грамматические формы и контексты использования. Все поля должны \
        строго соответствовать схеме. Никакого текста вне определенных полей.";
    let definition = EmitFlashcards::definition(Provider::Anthropic);
    assert_eq!(definition["name"], "emit_flashcards");
    assert_eq!(definition["description"], description);
    let path = golden_dir().join("000_emit_flashcards.json");
    let hand_written: Value =
        serde_json::from_str(&fs::read_to_string(path).expect("hand-written golden")).unwrap();
    assert_eq!(definition["input_schema"], hand_written);
}

#[test]
fn every_golden_file_belongs_to_a_test() {
    let mut expected: Vec<String> = SEEDS
        .iter()
        .flat_map(|seed| {
            seed.tools
                .iter()
                .map(|tool| golden_name(seed.id, tool.name))
        })
        .collect();
    expected.extend(
        Provider::ALL
            .iter()
            .map(|&p| format!("000_emit_flashcards.{}.json", provider_slug(p))),
    );
    expected.extend(
        Provider::ALL
            .iter()
            .map(|&p| format!("004_suggestOperations.{}.json", provider_slug(p))),
    );
    expected.push("003_function_name.openai_chat.json".to_owned());
    expected.sort();
    // Only the JSON files directly in `tests/golden`: subfolders belong to other test files.
    let mut found: Vec<String> = fs::read_dir(golden_dir())
        .expect("tests/golden")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.is_file() && path.extension().is_some_and(|e| e == "json"))
        .map(|path| {
            path.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    found.sort();
    let stale: Vec<&String> = found.iter().filter(|f| !expected.contains(f)).collect();
    assert!(stale.is_empty(), "goldens no test reads: {stale:?}");
    // While blessing, the other tests may not have written theirs yet.
    if !bless() {
        assert_eq!(found, expected, "missing goldens in tests/golden");
    }
}

/// The dialects every seed tool is checked in, with their golden file suffixes.
const DIALECTS: [(Dialect, &str); 3] = [
    (Dialect::OpenAiStrict, "openai_strict"),
    (Dialect::AnthropicStrict, "anthropic_strict"),
    (Dialect::Gemini, "gemini"),
];

/// Goldens of the dialects written by hand from seed 003's OpenAI strict-mode examples.
const HAND_WRITTEN_DIALECTS: &[&str] = &[
    "dialects/003_function_name.openai_strict.json",
    "dialects/003_sum_numbers.openai_strict.json",
];

/// `dialects/000_emit_flashcards.gemini.json`
fn dialect_golden(seed_id: &str, tool: &str, suffix: &str) -> String {
    format!("dialects/{seed_id}_{tool}.{suffix}.json")
}

/// Every seed tool in every dialect: the schema, or the error that says why the dialect cannot
/// express it (the message a strict tool's build stops with).
#[test]
fn every_seed_tool_in_every_dialect_matches_its_golden() {
    for seed in &SEEDS {
        for tool in seed.tools {
            for (dialect, suffix) in DIALECTS {
                let actual = match dialect_schema(tool.input_schema, dialect) {
                    Ok(text) => schema(&text),
                    Err(error) => serde_json::json!({ "error": error.to_string() }),
                };
                check_golden(&dialect_golden(seed.id, tool.name, suffix), &actual);
            }
        }
    }
}

/// A tool's dialect consts are the run-time rewrite of its schema: the strict ones for the
/// providers it is strict for (and only those), Gemini's where the schema fits.
#[test]
fn dialect_consts_are_the_rewrite_of_the_input_schema() {
    let mut strict = 0;
    for tool in SEEDS.iter().flat_map(|seed| seed.tools.iter()) {
        let gemini = dialect_schema(tool.input_schema, Dialect::Gemini).ok();
        assert_eq!(
            (tool.dialect)(Dialect::Gemini),
            gemini.as_deref(),
            "{}",
            tool.name
        );
        assert_eq!(
            (tool.dialect)(Dialect::Standard),
            Some(tool.input_schema),
            "{}",
            tool.name
        );
        for dialect in [Dialect::OpenAiStrict, Dialect::AnthropicStrict] {
            if let Some(text) = (tool.dialect)(dialect) {
                strict += 1;
                assert_eq!(
                    Some(text.to_owned()),
                    dialect_schema(tool.input_schema, dialect).ok(),
                    "{} {dialect:?}",
                    tool.name
                );
            }
        }
    }
    // `function_name` and `sum_numbers`, each for OpenAI and Anthropic.
    assert_eq!(strict, 4);
}

/// Seed 003's strict-mode template, as the document writes it for Chat Completions (keys in
/// toolgen's order: `strict` after `parameters`).
#[test]
fn function_name_is_seed_003s_strict_template() {
    check_golden(
        "003_function_name.openai_chat.json",
        &FunctionName::definition(Provider::OpenAiChat),
    );
}

#[test]
fn every_dialect_golden_belongs_to_a_test() {
    let mut expected: Vec<String> = SEEDS
        .iter()
        .flat_map(|seed| {
            seed.tools.iter().flat_map(move |tool| {
                DIALECTS
                    .iter()
                    .map(move |(_, suffix)| dialect_golden(seed.id, tool.name, suffix))
            })
        })
        .collect();
    expected.sort();
    let mut found: Vec<String> = fs::read_dir(golden_dir().join("dialects"))
        .expect("tests/golden/dialects")
        .map(|entry| {
            format!(
                "dialects/{}",
                entry
                    .expect("directory entry")
                    .file_name()
                    .to_string_lossy()
            )
        })
        .collect();
    found.sort();
    if !bless() {
        assert_eq!(found, expected, "tests/golden/dialects");
    }
}

/// Gemini's API rejects `parameters` of type OBJECT with empty `properties`: a tool without
/// arguments leaves `parameters` out of its function declaration, as the API allows. Other
/// providers, and a tool that sends `parametersJsonSchema`, keep their schema.
#[test]
fn a_gemini_tool_without_arguments_has_no_parameters() {
    /// Take no arguments.
    #[derive(toolgen::Tool, serde::Deserialize)]
    struct NoArgs {}
    /// Take no arguments, as JSON Schema.
    #[derive(toolgen::Tool, serde::Deserialize)]
    #[tool(gemini = "json_schema")]
    struct NoArgsJsonSchema {}

    let expected = serde_json::json!({"name": "no_args", "description": "Take no arguments."});
    assert_eq!(NoArgs::definition(Provider::Gemini), expected);
    assert_eq!(
        serde_json::from_str::<Value>(NoArgs::definition_json(Provider::Gemini)).unwrap(),
        expected
    );
    assert_eq!(
        NoArgsJsonSchema::definition(Provider::Gemini)["parametersJsonSchema"],
        serde_json::json!({"type": "object", "properties": {}})
    );
    assert_eq!(
        NoArgs::definition(Provider::Anthropic)["input_schema"],
        serde_json::json!({"type": "object", "properties": {}})
    );
    // The seed tool without arguments.
    let list_profiles = SEEDS
        .iter()
        .flat_map(|seed| seed.tools.iter())
        .find(|tool| tool.name == "list_profiles")
        .expect("seed 002's list_profiles");
    let definition = (list_profiles.definition)(Provider::Gemini);
    assert_eq!(definition.get("parameters"), None, "{definition}");
}

/// Where `T`'s definitions and dialects are, one address each (`0` for a dialect it has none of).
fn addresses<T: Tool>() -> Vec<usize> {
    let definitions = Provider::ALL.map(|provider| T::definition_json(provider).as_ptr() as usize);
    let dialects =
        Dialect::ALL.map(|dialect| T::input_schema(dialect).map_or(0, |s| s.as_ptr() as usize));
    definitions.into_iter().chain(dialects).collect()
}

/// Each tool builds its definitions and dialects once, whichever thread asks first, and every
/// caller gets that text: two tools, eight threads asking at once.
#[test]
fn definitions_are_built_once_for_every_thread() {
    let barrier = std::sync::Barrier::new(8);
    let seen: Vec<(Vec<usize>, Vec<usize>)> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let barrier = &barrier;
                scope.spawn(move || {
                    barrier.wait();
                    if i % 2 == 0 {
                        let flashcards = addresses::<EmitFlashcards>();
                        (flashcards, addresses::<FunctionName>())
                    } else {
                        let function_name = addresses::<FunctionName>();
                        (addresses::<EmitFlashcards>(), function_name)
                    }
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|thread| thread.join().unwrap())
            .collect()
    });
    let first = &seen[0];
    for other in &seen {
        assert_eq!(other, first);
    }
    // The two tools' texts are their own.
    assert!(first.0.iter().zip(&first.1).all(|(a, b)| a != b || *a == 0));
}
