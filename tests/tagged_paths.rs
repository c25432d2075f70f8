//! Error paths inside internally tagged enums (`#[serde(tag = "..")]`), whose content serde
//! buffers before it reads the variant, so that `serde_path_to_error` sees no further than the
//! enum's object: derived tools, a `Vec` of them, a flattened enum, a tagged enum in a tagged
//! enum's variant, a newtype variant holding a struct; `DynamicTool`s of the same schemas; and
//! structured answers.

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::{AnswerError, DynamicTool, Provider, Route, Structured, Tool, ToolSchema};

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[allow(dead_code)]
enum Timing {
    Fixed {
        minutes: u32,
    },
    Window {
        start: String,
        #[serde(default)]
        end: Option<String>,
    },
    /// A newtype variant holding a struct, whose fields sit beside the tag.
    Daily(Daily),
    /// A tagged enum in a tagged enum's variant.
    Recurring {
        every: Every,
        note: Option<String>,
    },
}

#[derive(ToolSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Daily {
    hour: u8,
    days: Vec<u8>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(tag = "unit", rename_all = "lowercase")]
#[allow(dead_code)]
enum Every {
    Days { count: u16 },
    Weeks { count: u16, weekday: String },
}

/// Plans something.
#[derive(Tool, Deserialize, Debug)]
#[allow(dead_code)]
struct Plan {
    title: String,
    timing: Timing,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Item {
    title: String,
    timing: Timing,
}

/// Plans many things.
#[derive(Tool, Deserialize, Debug)]
#[allow(dead_code)]
struct Plans {
    plans: Vec<Item>,
}

/// A step, its timing flattened in.
#[derive(ToolSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Step {
    name: String,
    #[serde(flatten)]
    timing: Timing,
}

/// Takes steps.
#[derive(Tool, Deserialize, Debug)]
#[allow(dead_code)]
struct Steps {
    steps: Vec<Step>,
}

/// The path and message of each way a tool `T`'s arguments `args` are read: as the tool, and
/// as a `DynamicTool` of its schema.
fn tool_paths<T: Tool + serde::de::DeserializeOwned + std::fmt::Debug>(
    args: &Value,
) -> [(String, String); 2] {
    let text = args.to_string();
    let derived = T::parse_args(&text).expect_err("invalid arguments");
    let schema: Value = serde_json::from_str(T::INPUT_SCHEMA).expect("JSON");
    let dynamic = DynamicTool::new(T::NAME, "", schema)
        .expect("a dynamic tool")
        .parse_args(&text)
        .expect_err("invalid arguments");
    [derived, dynamic].map(|e| (e.path().to_owned(), e.message().to_owned()))
}

/// The path and message of `args` read as a structured answer of type `T`.
fn answer_path<T: ToolSchema + serde::de::DeserializeOwned + std::fmt::Debug>(
    args: &Value,
) -> (String, String) {
    let response = json!({"choices": [{"index": 0, "finish_reason": "stop",
        "message": {"role": "assistant", "content": args.to_string(), "refusal": null}}]});
    match Structured::<T>::new(Route::Native).parse(Provider::OpenAiChat, &response) {
        Err(AnswerError::Invalid(error)) => (error.path().to_owned(), error.message().to_owned()),
        other => panic!("not an invalid answer: {other:?}"),
    }
}

fn paths<T: Tool + ToolSchema + serde::de::DeserializeOwned + std::fmt::Debug>(
    args: Value,
) -> [(String, String); 3] {
    let [derived, dynamic] = tool_paths::<T>(&args);
    [derived, dynamic, answer_path::<T>(&args)]
}

fn assert_tool_at<T: Tool + serde::de::DeserializeOwned + std::fmt::Debug>(
    args: &Value,
    path: &str,
    message: &str,
) {
    let [derived, dynamic] = tool_paths::<T>(args);
    assert_eq!(
        (derived.0.as_str(), derived.1.as_str()),
        (path, message),
        "derived: {args}"
    );
    assert_eq!(dynamic.0, path, "dynamic: {args}: {}", dynamic.1);
}

fn assert_at<T: Tool + ToolSchema + serde::de::DeserializeOwned + std::fmt::Debug>(
    args: Value,
    path: &str,
    message: &str,
) {
    assert_tool_at::<T>(&args, path, message);
    let answer = answer_path::<T>(&args);
    assert_eq!(
        (answer.0.as_str(), answer.1.as_str()),
        (path, message),
        "answer: {args}"
    );
}

#[test]
fn a_struct_variants_field() {
    assert_at::<Plan>(
        json!({"title": "a", "timing": {"kind": "fixed", "minutes": "x"}}),
        "timing.minutes",
        "invalid type: string \"x\", expected u32",
    );
    // The tag after the fields, a field with a default before the bad one.
    assert_at::<Plan>(
        json!({"title": "a", "timing": {"end": null, "start": 9, "kind": "window"}}),
        "timing.start",
        "invalid type: integer `9`, expected a string",
    );
}

#[test]
fn a_newtype_variants_struct() {
    assert_at::<Plan>(
        json!({"title": "a", "timing": {"kind": "daily", "hour": 300, "days": [1]}}),
        "timing.hour",
        "invalid value: integer `300`, expected u8",
    );
    assert_at::<Plan>(
        json!({"title": "a", "timing": {"kind": "daily", "hour": 3, "days": [1, 2, -1]}}),
        "timing.days[2]",
        "invalid value: integer `-1`, expected u8",
    );
}

#[test]
fn a_tagged_enum_in_a_tagged_variant() {
    assert_at::<Plan>(
        json!({"title": "a", "timing": {"kind": "recurring", "note": null,
            "every": {"unit": "weeks", "count": 2, "weekday": 5}}}),
        "timing.every.weekday",
        "invalid type: integer `5`, expected a string",
    );
}

#[test]
fn a_vec_of_them() {
    let good = json!({"title": "b", "timing": {"kind": "fixed", "minutes": 5}});
    assert_at::<Plans>(
        json!({"plans": [good, good, {"title": "c", "timing": {"kind": "fixed", "minutes": -5}}]}),
        "plans[2].timing.minutes",
        "invalid value: integer `-5`, expected u32",
    );
}

#[test]
fn a_flattened_one() {
    assert_at::<Steps>(
        json!({"steps": [{"name": "r", "kind": "fixed", "minutes": 1},
            {"kind": "fixed", "name": "s", "minutes": true}]}),
        "steps[1].minutes",
        "invalid type: boolean `true`, expected u32",
    );
}

/// What is wrong with the enum's object itself stays at the object: a missing field, an
/// unknown variant.
#[test]
fn the_objects_own_errors_stay_at_it() {
    let [derived, _, answer] = paths::<Plan>(json!({"title": "a", "timing": {"kind": "fixed"}}));
    assert_eq!(
        derived,
        ("timing".to_owned(), "missing field `minutes`".to_owned())
    );
    assert_eq!(answer, derived);
    let [derived, _, answer] =
        paths::<Plan>(json!({"title": "a", "timing": {"kind": "hourly", "minutes": "x"}}));
    assert_eq!(derived.0, "timing.kind");
    assert!(
        derived.1.starts_with("unknown variant `hourly`"),
        "{}",
        derived.1
    );
    assert_eq!(answer, derived);
}

/// Keys the variant does not know, before the bad one, do not take the blame.
#[test]
fn unknown_keys_before_the_bad_one() {
    assert_at::<Plan>(
        json!({"title": "a", "timing": {"kind": "fixed", "note": "x", "extra": [1],
            "minutes": "y"}}),
        "timing.minutes",
        "invalid type: string \"y\", expected u32",
    );
}

/// A long list whose last item is wrong: the path is found by reading the arguments again a
/// few times, not once per item.
#[test]
fn the_last_of_many() {
    let good = json!({"title": "b", "timing": {"kind": "fixed", "minutes": 5}});
    let mut plans = vec![good; 20_000];
    plans.push(json!({"title": "c", "timing": {"kind": "window", "start": "9", "end": 10}}));
    let started = std::time::Instant::now();
    let [derived, _] = tool_paths::<Plans>(&json!({"plans": plans}));
    assert_eq!(derived.0, "plans[20000].timing.end");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}
