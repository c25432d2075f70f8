//! Null-stripping of defaults (issue 4): a 20-card `emit_flashcards` call in OpenAI strict-mode
//! form, where every key is sent and the defaulted ones are `null`.
//!
//! Run with `cargo bench --bench nulls -- --warm-up-time 1 --measurement-time 3`, or count
//! instructions (exact, where timings move by tens of percent on a shared machine) with
//! `bash benches/parse_cost.sh`. All benchmarks are in one criterion group, so the numbers being
//! compared come from the same run:
//!
//! - `strict/toolgen_parse_args`: `EmitFlashcards::parse_args` of the strict arguments: the
//!   `null`s of defaulted fields dropped as serde reads the text, in one pass.
//! - `strict/toolgen_parse_args_tool_defaults`: the same call for the same cards with their
//!   defaults as `#[tool(default = ..)]` values: `null`s dropped and the defaults written in as
//!   serde reads the text, in one pass.
//! - `strict/serde_json_from_str_same_text`: the baseline on the same text, `serde_json::from_str`
//!   of the strict arguments into the same types with every defaulted field an `Option` (what a
//!   serde user writes to read strict-mode arguments without toolgen).
//! - `strict/serde_json_from_str_prestripped`: a stricter baseline, `serde_json::from_str` of the
//!   same arguments with those `null`s taken out beforehand (a shorter text).
//! - `strict/value_strip_deserialize`: the text read into a `serde_json::Value`, the same tree
//!   stripped there, then `EmitFlashcards::deserialize`.
//! - `strict/toolgen_parse_args_prestripped`: `parse_args` of the text without those `null`s
//!   (the `Option` fields' `null`s are still there): the stripping parse finds nothing to drop,
//!   so this is its cost alone on top of serde.
//! - `strict/toolgen_parse_args_set` and `strict/serde_json_from_str_same_text_set`: the strict
//!   call with a set of three tags on every card (`BTreeSet<String>`, whose items must all
//!   differ), against serde on the same text into the same types with the defaulted fields
//!   `Option`s (serde does not check the tags).
//! - `strict/toolgen_parse_args_flattened_enum` and
//!   `strict/serde_json_from_str_same_text_flattened_enum`: 20 mind-map operations, each an id
//!   and an internally tagged operation flattened in beside it (seed 004's shape), with
//!   `#[tool(default = ..)]` values sent as `null` or left out, against serde on the same text
//!   into the same shape with those fields `Option`s.
//! - `strict/toolgen_parse_args_no_nulls` and `strict/serde_json_from_str_no_nulls`: the
//!   arguments with no `null` at all (a model outside strict mode leaves the members out), which
//!   `parse_args` hands to serde_json alone after a look for `"null"`.
//! - `strict/toolgen_parse_args_constrained`: the arguments without any `null` read into cards
//!   with constraints (`length`, `range`) and nothing to strip or fill in: serde_json's parse,
//!   then the constraints checked; against `strict/serde_json_from_str_no_nulls` (the same cards
//!   without constraints, which serde does not check).
//! - `strict/rmcp_map`, `strict/rmcp_serde_from_value` and `strict/rmcp_toolgen_parse_value`:
//!   the strict text as rmcp 3.11 hands it to a `#[tool]` function's extractor, read into a
//!   `serde_json::Map` (`CallToolRequestParams.arguments`, rmcp `src/model.rs:4449`); then alone,
//!   read by rmcp's `Parameters<T>` (`serde_json::from_value`, rmcp
//!   `src/handler/server/tool.rs:242`) into the `Option` types, or by toolgen's `Parameters<T>`
//!   (`Tool::parse_value`, `toolgen-runtime/src/mcp/router.rs`).
//! - `strict/rig_toolgen_parse_args`: the strict text as rig 0.44's agent hands it to a tool of
//!   `RigTools`, each step of rig's simulated with serde_json (see [`rig_path`]), then parsed by
//!   toolgen as `RigTools` does: the value written back as text, `parse_args` of that text.
//!   `strict/rig_steps`: rig's steps alone; `strict/rig_toolgen_parse_value`: rig's steps, then
//!   `Tool::parse_value` of the value rig hands over (what `RigTools` could do instead).

use std::collections::BTreeSet;
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group};
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::{Dialect, DynamicTool, Provider, Route, Structured, Tool, ToolSchema};

/// The flashcards as the model's typed answer (OpenAI structured outputs).
static ANSWER: Structured<EmitFlashcards> = Structured::from_tool(Route::Native);

/// Returns the flashcards for the words and phrases of a text.
#[derive(Tool, Deserialize, Debug, PartialEq)]
#[tool(name = "emit_flashcards")]
#[allow(dead_code)]
struct EmitFlashcards {
    /// The flashcards, at least one.
    flashcards: Vec<Flashcard>,
}

/// One word or phrase to learn.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[allow(dead_code)]
struct Flashcard {
    /// The dictionary form (Latvian).
    base_form: String,
    /// Translation of the dictionary form (Russian).
    base_translation: Option<String>,
    /// Whether this is a single word or a phrase.
    unit: Unit,
    /// Inflected forms met in the text.
    #[serde(default)]
    forms: Vec<Form>,
    /// Sentences of the text in which the word occurs.
    contexts: Vec<Context>,
    /// Whether the card is shown to the learner.
    #[serde(default = "yes")]
    visible: bool,
    /// A note for the learner.
    #[serde(default)]
    note: String,
    /// How often to show the card, 1 to 5.
    #[serde(default = "three")]
    priority: u8,
}

fn yes() -> bool {
    true
}

fn three() -> u8 {
    3
}

/// `EmitFlashcards` whose cards state constraints: what the value is checked against once
/// parsed, with nothing to strip or fill in where no `null` is sent.
#[derive(Tool, Deserialize, Debug, PartialEq)]
#[tool(name = "emit_checked_flashcards")]
#[allow(dead_code)]
struct EmitCheckedFlashcards {
    /// The flashcards, at least one.
    #[tool(length(min = 1))]
    flashcards: Vec<CheckedFlashcard>,
}

/// [`Flashcard`] with constraints.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[allow(dead_code)]
struct CheckedFlashcard {
    /// The dictionary form (Latvian).
    #[tool(length(min = 1, max = 80))]
    base_form: String,
    /// Translation of the dictionary form (Russian).
    base_translation: Option<String>,
    /// Whether this is a single word or a phrase.
    unit: Unit,
    /// Inflected forms met in the text.
    #[serde(default)]
    forms: Vec<Form>,
    /// Sentences of the text in which the word occurs.
    #[tool(length(min = 1, max = 10))]
    contexts: Vec<Context>,
    /// Whether the card is shown to the learner.
    #[serde(default = "yes")]
    visible: bool,
    /// A note for the learner.
    #[serde(default)]
    #[tool(length(max = 200))]
    note: String,
    /// How often to show the card, 1 to 5.
    #[serde(default = "three")]
    #[tool(range(min = 1, max = 5))]
    priority: u8,
}

/// A single word or a multi-word phrase.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Word,
    Phrase,
}

/// An inflected form of the base form.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[allow(dead_code)]
struct Form {
    /// The form as it appears in the text.
    form: String,
    /// Its translation.
    translation: String,
    /// Grammatical description, e.g. "genitive singular".
    #[serde(rename = "type", default)]
    kind: String,
}

/// A sentence of the text and its translation.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[allow(dead_code)]
struct Context {
    /// The sentence in Latvian.
    lv: String,
    /// The sentence in Russian.
    ru: String,
    /// Sentence id in the source text.
    sid: Option<f64>,
    /// Sentence signature.
    sig: Option<String>,
}

/// `EmitFlashcards` with its defaults as `#[tool(default = ..)]` values, which the schema shows
/// and argument parsing writes in where they are missing (after their `null`s are dropped).
#[derive(Tool, Deserialize, Debug, PartialEq)]
#[tool(name = "emit_flashcards")]
#[allow(dead_code)]
struct EmitFilledFlashcards {
    /// The flashcards, at least one.
    flashcards: Vec<FilledFlashcard>,
}

/// One word or phrase to learn.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[allow(dead_code)]
struct FilledFlashcard {
    /// The dictionary form (Latvian).
    base_form: String,
    /// Translation of the dictionary form (Russian).
    base_translation: Option<String>,
    /// Whether this is a single word or a phrase.
    unit: Unit,
    /// Inflected forms met in the text.
    #[tool(default = [])]
    forms: Vec<FilledForm>,
    /// Sentences of the text in which the word occurs.
    contexts: Vec<Context>,
    /// Whether the card is shown to the learner.
    #[tool(default = true)]
    visible: bool,
    /// A note for the learner.
    #[tool(default = "")]
    note: String,
    /// How often to show the card, 1 to 5.
    #[tool(default = 3)]
    priority: u8,
}

/// An inflected form of the base form.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[allow(dead_code)]
struct FilledForm {
    /// The form as it appears in the text.
    form: String,
    /// Its translation.
    translation: String,
    /// Grammatical description, e.g. "genitive singular".
    #[serde(rename = "type")]
    #[tool(default = "")]
    kind: String,
}

/// The baseline on the same text: `EmitFlashcards` as a serde user would write it to read
/// strict-mode arguments without toolgen, every defaulted field an `Option` (`null` is `None`),
/// the defaults applied after reading. `serde_json::from_str` reads the strict text into it as
/// it is.
#[derive(Deserialize)]
#[allow(dead_code)]
struct NullableFlashcards {
    flashcards: Vec<NullableFlashcard>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct NullableFlashcard {
    base_form: String,
    base_translation: Option<String>,
    unit: Unit,
    #[serde(default)]
    forms: Option<Vec<NullableForm>>,
    contexts: Vec<Context>,
    #[serde(default)]
    visible: Option<bool>,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    priority: Option<u8>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct NullableForm {
    form: String,
    translation: String,
    #[serde(rename = "type", default)]
    kind: Option<String>,
}

/// `EmitFlashcards` with a set on every card: the same defaults, and tags that must all differ
/// (`uniqueItems`), which serde would merge without a word.
#[derive(Tool, Deserialize, Debug, PartialEq)]
#[tool(name = "emit_flashcards")]
#[allow(dead_code)]
struct EmitTaggedFlashcards {
    /// The flashcards, at least one.
    flashcards: Vec<TaggedFlashcard>,
}

/// One word or phrase to learn, and its tags.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[allow(dead_code)]
struct TaggedFlashcard {
    /// The dictionary form (Latvian).
    base_form: String,
    /// Translation of the dictionary form (Russian).
    base_translation: Option<String>,
    /// Whether this is a single word or a phrase.
    unit: Unit,
    /// Inflected forms met in the text.
    #[serde(default)]
    forms: Vec<Form>,
    /// Sentences of the text in which the word occurs.
    contexts: Vec<Context>,
    /// Whether the card is shown to the learner.
    #[serde(default = "yes")]
    visible: bool,
    /// A note for the learner.
    #[serde(default)]
    note: String,
    /// How often to show the card, 1 to 5.
    #[serde(default = "three")]
    priority: u8,
    /// Tags for sorting the cards, each once.
    tags: BTreeSet<String>,
}

/// The baseline for `EmitTaggedFlashcards`, as [`NullableFlashcards`] is for `EmitFlashcards`.
#[derive(Deserialize)]
#[allow(dead_code)]
struct NullableTaggedFlashcards {
    flashcards: Vec<NullableTaggedFlashcard>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct NullableTaggedFlashcard {
    base_form: String,
    base_translation: Option<String>,
    unit: Unit,
    #[serde(default)]
    forms: Option<Vec<NullableForm>>,
    contexts: Vec<Context>,
    #[serde(default)]
    visible: Option<bool>,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    priority: Option<u8>,
    tags: BTreeSet<String>,
}

/// Operations on a mind map, each an id and an operation flattened in beside it (seed 004's
/// shape, an internally tagged enum), with `#[tool(default = ..)]` values in the operations:
/// written in as serde reads the text, through serde's buffering of the flattened object.
#[derive(Tool, Deserialize, Debug, PartialEq)]
#[tool(name = "suggest_operations")]
#[allow(dead_code)]
struct SuggestOperations {
    /// The operations, in order.
    operations: Vec<OperationWithId>,
}

/// An operation and the fields every operation has.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[allow(dead_code)]
struct OperationWithId {
    /// The operation's id.
    id: String,
    /// The node it applies to.
    target_node_id: String,
    /// What it does, in words.
    #[tool(default = "")]
    description: String,
    #[serde(flatten)]
    operation: Operation,
}

/// What to do.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code)]
enum Operation {
    /// Adds a child node.
    AddChild {
        /// Its title.
        title: String,
        /// Where among the children, 0 first.
        #[tool(default = 0)]
        position: u32,
        /// Whether it starts collapsed.
        #[tool(default = false)]
        collapsed: bool,
    },
    /// Renames the node.
    UpdateTitle {
        /// The new title.
        title: String,
    },
    /// Deletes the node.
    DeleteNode,
}

/// The baseline for `SuggestOperations`: the same shape with the defaulted fields `Option`s.
#[derive(Deserialize)]
#[allow(dead_code)]
struct NullableOperations {
    operations: Vec<NullableOperationWithId>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct NullableOperationWithId {
    id: String,
    target_node_id: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(flatten)]
    operation: NullableOperation,
}

#[derive(Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code)]
enum NullableOperation {
    AddChild {
        title: String,
        #[serde(default)]
        position: Option<u32>,
        #[serde(default)]
        collapsed: Option<bool>,
    },
    UpdateTitle {
        title: String,
    },
    DeleteNode,
}

/// The strict-mode arguments of `count` operations: every key sent, the defaulted ones often
/// `null`.
fn operations_call(count: usize) -> Value {
    let operations: Vec<Value> = (0..count)
        .map(|i| {
            let common = json!({
                "id": format!("op-{i}"),
                "target_node_id": format!("node-{}", i / 2),
                "description": if i % 2 == 0 { Value::Null } else { json!(format!("step {i}")) },
            });
            let mut operation = match i % 3 {
                0 => json!({"action": "add_child", "title": format!("Idea {i}"), "position": null, "collapsed": null}),
                1 => json!({"action": "add_child", "title": format!("Idea {i}"), "position": i, "collapsed": null}),
                _ => json!({"action": "update_title", "title": format!("Title {i}")}),
            };
            for (key, value) in common.as_object().unwrap() {
                operation[key] = value.clone();
            }
            operation
        })
        .collect();
    json!({ "operations": operations })
}

/// The strict-mode arguments of a call with `cards` flashcards: every key present, defaulted and
/// optional ones often `null`.
fn strict_call(cards: usize) -> Value {
    let cards: Vec<Value> = (0..cards)
        .map(|i| {
            let forms = if i % 2 == 0 {
                json!([
                    {"form": format!("vārda {i}"), "translation": format!("слова {i}"), "type": "genitive singular"},
                    {"form": format!("vārdus {i}"), "translation": format!("слова {i}"), "type": null},
                ])
            } else {
                Value::Null
            };
            json!({
                "base_form": format!("vārds {i}"),
                "base_translation": if i % 3 == 0 { Value::Null } else { json!(format!("слово {i}")) },
                "unit": if i % 3 == 0 { "phrase" } else { "word" },
                "forms": forms,
                "contexts": [
                    {"lv": format!("Šis ir teikums numur {i}."), "ru": format!("Это предложение номер {i}."), "sid": i as f64, "sig": null},
                    {"lv": "Vēl viens teikums.", "ru": "Ещё одно предложение.", "sid": null, "sig": null},
                ],
                "visible": null,
                "note": if i % 4 == 0 { json!("irregular") } else { Value::Null },
                "priority": null,
            })
        })
        .collect();
    json!({ "flashcards": cards })
}

/// `value` with the `null`s of defaulted fields taken out, by hand.
fn prestripped(value: &Value) -> Value {
    let mut value = value.clone();
    for card in value["flashcards"].as_array_mut().unwrap() {
        let card = card.as_object_mut().unwrap();
        for form in card
            .get_mut("forms")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            form.as_object_mut()
                .unwrap()
                .retain(|key, v| !(key == "type" && v.is_null()));
        }
        card.retain(|key, v| {
            !(v.is_null() && matches!(key.as_str(), "forms" | "visible" | "note" | "priority"))
        });
    }
    value
}

/// `value` without any member that is `null`: the arguments as a model sends them outside strict
/// mode, leaving out what it has no value for.
fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

/// `value` with three different tags on every card.
fn tagged(value: &Value) -> Value {
    let mut value = value.clone();
    for (i, card) in value["flashcards"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        card["tags"] = json!(["noun", format!("lesson {}", i / 5), format!("card {i}")]);
    }
    value
}

/// The `Value` approach: read, strip with the same tree, deserialize.
fn value_strip_deserialize(text: &str) -> Result<EmitFlashcards, serde_json::Error> {
    let mut value: Value = serde_json::from_str(text)?;
    toolgen::__private::strip_value(
        &mut value,
        toolgen::__private::plan_for(<EmitFlashcards as toolgen::ToolSchema>::FACTS),
    );
    EmitFlashcards::deserialize(&value)
}

/// rmcp 3.11's step, the same for its `Parameters<T>` and toolgen's: the arguments of a
/// `tools/call` read into a `serde_json::Map` (`CallToolRequestParams.arguments: Option<JsonObject>`,
/// rmcp `src/model.rs:4449`; rmcp reads the whole request, this is its arguments' part).
fn rmcp_map(text: &str) -> Option<serde_json::Map<String, Value>> {
    serde_json::from_str(text).ok()
}

/// The arguments as rig 0.44's agent hands them to a `DynamicTool` (a tool of `RigTools`), each
/// step as rig's code does it.
fn rig_value(text: &str) -> Option<Value> {
    // rig-core `src/completion/message.rs:534` (`ToolFunction::parse`, through
    // `json_utils::parse_tool_arguments`, `src/json_utils.rs:148`): the model's text read into a
    // `Value`, its object kept as `ToolFunction.arguments`.
    let Ok(Value::Object(arguments)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    // rig-agent `src/agent/engine.rs:1556`: `arguments_value()` (a clone of the map,
    // rig-core `src/completion/message.rs:558`) written as text.
    let args = Value::Object(arguments.clone()).to_string();
    // rig-agent `src/agent/engine.rs:1578`: the text cloned into the dispatch, and
    // `src/agent/engine.rs:2070`: cloned again as the effective arguments.
    let dispatched = args.clone();
    let effective = black_box(dispatched.clone());
    // rig-core `src/tool/contextual.rs:177` (`parse_tool_args`, line 151): the text read into a
    // `Value` again, which `DynamicTool`'s callback receives.
    let value = serde_json::from_str(&dispatched).ok();
    drop((arguments, args, effective));
    value
}

/// rig's steps ([`rig_value`]), then toolgen's parse as `RigTools` does it
/// (toolgen-runtime `src/run/rig.rs`, `RigTools::callback`): the value written as text, which
/// the runner parses with `parse_args`.
fn rig_path(text: &str) -> Option<EmitFlashcards> {
    EmitFlashcards::parse_args(&rig_value(text)?.to_string()).ok()
}

/// The argument texts the cases read.
struct Texts {
    /// Strict-mode arguments: every key, defaulted and optional ones often `null`.
    strict: String,
    /// `strict` without the `null`s of defaulted fields.
    stripped: String,
    /// `strict` without any `null` member.
    no_nulls: String,
    /// `strict` with three tags on every card.
    tagged: String,
    /// 20 mind-map operations in strict-mode form.
    operations: String,
    /// An OpenAI Chat completion whose answer (`message.content`) is `strict`.
    chat: Value,
    /// [`EmitCheckedFlashcards`] as a tool defined at run time from its JSON Schema (as one
    /// read from a configuration file, or proxied from an MCP server).
    dynamic: DynamicTool,
}

/// The answer of a Chat completion read by hand: its `message.content`, parsed by serde_json.
fn serde_json_answer(chat: &Value) -> Option<NullableFlashcards> {
    let text = chat["choices"][0]["message"]["content"].as_str()?;
    serde_json::from_str(text).ok()
}

impl Texts {
    fn new() -> Texts {
        let call = strict_call(20);
        Texts {
            strict: call.to_string(),
            stripped: prestripped(&call).to_string(),
            no_nulls: without_nulls(&call).to_string(),
            tagged: tagged(&call).to_string(),
            operations: operations_call(20).to_string(),
            chat: json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 1,
                "model": "gpt-4.1", "choices": [{"index": 0, "finish_reason": "stop",
                    "logprobs": null, "message": {"role": "assistant",
                        "content": call.to_string(), "refusal": null, "annotations": []}}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}),
            dynamic: dynamic_flashcards(),
        }
    }
}

/// [`EmitCheckedFlashcards`] as a [`DynamicTool`] of its standard input schema.
fn dynamic_flashcards() -> DynamicTool {
    let schema = EmitCheckedFlashcards::input_schema(Dialect::Standard).expect("standard schema");
    let schema = serde_json::from_str(schema).expect("a schema is JSON");
    DynamicTool::new("emit_checked_flashcards", "Flashcards.", schema).expect("a dynamic tool")
}

/// A case: its name and one parse, `true` when it read the arguments.
type Case = (&'static str, fn(&Texts) -> bool);

/// Every case, in the order criterion runs them; `benches/parse_cost.sh` counts each one's
/// instructions.
const CASES: &[Case] = &[
    ("toolgen_parse_args", |t| {
        EmitFlashcards::parse_args(black_box(&t.strict)).is_ok()
    }),
    ("toolgen_parse_args_tool_defaults", |t| {
        EmitFilledFlashcards::parse_args(black_box(&t.strict)).is_ok()
    }),
    ("serde_json_from_str_same_text", |t| {
        serde_json::from_str::<NullableFlashcards>(black_box(&t.strict)).is_ok()
    }),
    ("serde_json_from_str_prestripped", |t| {
        serde_json::from_str::<EmitFlashcards>(black_box(&t.stripped)).is_ok()
    }),
    ("value_strip_deserialize", |t| {
        value_strip_deserialize(black_box(&t.strict)).is_ok()
    }),
    ("toolgen_parse_args_prestripped", |t| {
        EmitFlashcards::parse_args(black_box(&t.stripped)).is_ok()
    }),
    ("toolgen_parse_args_set", |t| {
        EmitTaggedFlashcards::parse_args(black_box(&t.tagged)).is_ok()
    }),
    ("serde_json_from_str_same_text_set", |t| {
        serde_json::from_str::<NullableTaggedFlashcards>(black_box(&t.tagged)).is_ok()
    }),
    ("toolgen_parse_args_flattened_enum", |t| {
        SuggestOperations::parse_args(black_box(&t.operations)).is_ok()
    }),
    ("serde_json_from_str_same_text_flattened_enum", |t| {
        serde_json::from_str::<NullableOperations>(black_box(&t.operations)).is_ok()
    }),
    ("toolgen_parse_args_no_nulls", |t| {
        EmitFlashcards::parse_args(black_box(&t.no_nulls)).is_ok()
    }),
    ("serde_json_from_str_no_nulls", |t| {
        serde_json::from_str::<EmitFlashcards>(black_box(&t.no_nulls)).is_ok()
    }),
    ("toolgen_parse_args_constrained", |t| {
        EmitCheckedFlashcards::parse_args(black_box(&t.no_nulls)).is_ok()
    }),
    ("toolgen_dynamic_parse_args", |t| {
        t.dynamic.parse_args(black_box(&t.strict)).is_ok()
    }),
    ("rmcp_map", |t| rmcp_map(black_box(&t.strict)).is_some()),
    ("rmcp_serde_from_value", |t| {
        rmcp_map(black_box(&t.strict)).is_some_and(|map| {
            serde_json::from_value::<NullableFlashcards>(Value::Object(map)).is_ok()
        })
    }),
    ("rmcp_toolgen_parse_value", |t| {
        rmcp_map(black_box(&t.strict))
            .is_some_and(|map| EmitFlashcards::parse_value(Value::Object(map)).is_ok())
    }),
    ("rig_steps", |t| rig_value(black_box(&t.strict)).is_some()),
    ("rig_toolgen_parse_args", |t| {
        rig_path(black_box(&t.strict)).is_some()
    }),
    ("rig_toolgen_parse_value", |t| {
        rig_value(black_box(&t.strict))
            .is_some_and(|value| EmitFlashcards::parse_value(value).is_ok())
    }),
    ("toolgen_structured_answer", |t| {
        ANSWER
            .parse(Provider::OpenAiChat, black_box(&t.chat))
            .is_ok()
    }),
    ("serde_json_answer", |t| {
        serde_json_answer(black_box(&t.chat)).is_some()
    }),
];

/// Checks that every way reads the same flashcards (and that each case parses).
fn check(texts: &Texts) {
    let Texts {
        strict,
        stripped,
        no_nulls,
        tagged,
        operations,
        chat,
        dynamic,
    } = texts;
    let expected: EmitFlashcards = serde_json::from_str(stripped).unwrap();
    assert_eq!(EmitFlashcards::parse_args(strict).unwrap(), expected);
    assert_eq!(
        toolgen::__private::parse_stripping::<EmitFlashcards>(strict).unwrap(),
        expected
    );
    assert_eq!(value_strip_deserialize(strict).unwrap(), expected);
    assert_eq!(EmitFlashcards::parse_args(stripped).unwrap(), expected);
    assert!(!no_nulls.contains("null"));
    assert_eq!(EmitFlashcards::parse_args(no_nulls).unwrap(), expected);
    assert!(serde_json::from_str::<EmitFlashcards>(strict).is_err());
    assert_eq!(expected.flashcards[1].priority, 3);
    // The same cards, with the defaults written in by toolgen.
    let filled = EmitFilledFlashcards::parse_args(strict).unwrap();
    assert_eq!(filled.flashcards.len(), expected.flashcards.len());
    for (filled, card) in filled.flashcards.iter().zip(&expected.flashcards) {
        assert_eq!(
            (
                filled.visible,
                &filled.note,
                filled.priority,
                filled.forms.len()
            ),
            (card.visible, &card.note, card.priority, card.forms.len())
        );
    }
    // The same cards with constraints: they hold, and a broken one is refused.
    let checked = EmitCheckedFlashcards::parse_args(no_nulls).unwrap();
    assert_eq!(checked.flashcards.len(), expected.flashcards.len());
    let broken = no_nulls.replacen(r#""base_form":"vārds 0""#, r#""base_form":"""#, 1);
    assert_ne!(&broken, no_nulls);
    let error = EmitCheckedFlashcards::parse_args(&broken).unwrap_err();
    assert_eq!(error.path(), "flashcards[0].base_form", "{error}");
    // The same cards with their tags; a repeated tag is refused.
    let with_tags = EmitTaggedFlashcards::parse_args(tagged).unwrap();
    assert_eq!(with_tags.flashcards.len(), expected.flashcards.len());
    assert!(with_tags.flashcards.iter().all(|card| card.tags.len() == 3));
    let repeated = tagged.replacen(r#""noun","lesson 0""#, r#""noun","noun""#, 1);
    assert_ne!(&repeated, tagged);
    let error = EmitTaggedFlashcards::parse_args(&repeated).unwrap_err();
    assert_eq!(error.path(), "flashcards[0].tags[1]", "{error}");
    // The operations, with their defaults written in, in one pass.
    let parsed = SuggestOperations::parse_args(operations).unwrap();
    assert_eq!(
        toolgen::__private::parse_stripping::<SuggestOperations>(operations).unwrap(),
        parsed
    );
    assert_eq!(parsed.operations.len(), 20);
    assert_eq!(parsed.operations[0].description, "");
    assert_eq!(
        parsed.operations[0].operation,
        Operation::AddChild {
            title: "Idea 0".to_owned(),
            position: 0,
            collapsed: false
        }
    );
    // The dynamic tool: the same cards, `null`s dropped and checked; a broken one refused.
    let parsed = dynamic.parse_args(strict).unwrap();
    assert_eq!(
        parsed["flashcards"].as_array().map(Vec::len),
        Some(expected.flashcards.len())
    );
    assert!(parsed["flashcards"][0].get("visible").is_none());
    let broken = strict.replacen(r#""base_form":"vārds 0""#, r#""base_form":"""#, 1);
    assert_ne!(&broken, strict);
    let error = dynamic.parse_args(&broken).unwrap_err();
    assert_eq!(error.path(), "flashcards[0].base_form", "{error}");
    // Through rmcp's map and through rig's steps: the same flashcards.
    let map = rmcp_map(strict).unwrap();
    assert_eq!(
        EmitFlashcards::parse_value(Value::Object(map)).unwrap(),
        expected
    );
    assert_eq!(rig_path(strict).unwrap(), expected);
    assert_eq!(
        EmitFlashcards::parse_value(rig_value(strict).unwrap()).unwrap(),
        expected
    );
    // The answer of a Chat completion: the same flashcards.
    assert_eq!(ANSWER.parse(Provider::OpenAiChat, chat).unwrap(), expected);
    for (name, case) in CASES {
        assert!(case(texts), "{name} did not parse");
    }
}

fn nulls(c: &mut Criterion) {
    let texts = Texts::new();
    check(&texts);
    eprintln!(
        "strict arguments {} bytes, {} nulls; prestripped {} bytes",
        texts.strict.len(),
        texts.strict.matches("null").count(),
        texts.stripped.len()
    );
    let mut group = c.benchmark_group("strict");
    for (name, case) in CASES {
        group.bench_function(*name, |b| b.iter(|| case(&texts)));
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
}

criterion_group! {
    name = benches;
    config = config();
    targets = nulls
}
/// `criterion_main!`, unless `NULLS_CASE` names a case: then that case alone runs
/// `NULLS_RUNS` times (default 200) and nothing is printed, for an instruction counter
/// (`benches/parse_cost.sh` runs this under callgrind). `NULLS_CASE=none` builds the texts and
/// parses nothing: the count to subtract.
fn main() {
    let Ok(wanted) = std::env::var("NULLS_CASE") else {
        benches();
        Criterion::default().configure_from_args().final_summary();
        return;
    };
    let runs: usize = std::env::var("NULLS_RUNS").map_or(200, |n| n.parse().expect("NULLS_RUNS"));
    let texts = Texts::new();
    if wanted == "none" {
        return;
    }
    let Some((_, case)) = CASES.iter().find(|(name, _)| *name == wanted) else {
        panic!("no case named {wanted}");
    };
    for _ in 0..runs {
        assert!(case(black_box(&texts)));
    }
}
