//! `Patch<T>`: a field left out, sent as `null` and sent with a value, each read as its own
//! state. Its schema in every dialect (goldens in `tests/golden/patch`, blessed with
//! `TOOLGEN_BLESS=1`), its parse (the stripping parse, the value path, nested objects, arrays,
//! flattened and untagged types, OpenAI strict mode's shape), samples that serde and the schema
//! agree on, and a `DynamicTool` made from its schema.

mod dialect_check;

use std::path::PathBuf;

use pretty_assertions::assert_eq;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolgen::{Dialect, DynamicTool, Patch, Tool, ToolSchema, dialect_schema};

/// Update an issue: leave a field out to keep it as it is, send `null` to clear it.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
struct UpdateIssue {
    /// The issue's number.
    number: u64,
    /// The new title.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    title: Patch<String>,
    /// The milestone's number; `null` takes the issue out of its milestone.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    milestone: Patch<u32>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    state: Patch<State>,
    /// Who works on it; `null` for no one.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    assignee: Patch<Person>,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    labels: Patch<Vec<String>>,
    /// Whether to tell the watchers (a plain default: its `null` is dropped).
    #[serde(default)]
    notify: bool,
    /// Changes to the issue's tasks.
    #[serde(default)]
    tasks: Vec<TaskChange>,
}

/// An issue's state.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum State {
    Open,
    Closed,
}

/// A person.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
struct Person {
    login: String,
    /// Their team; `null` for none.
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    team: Patch<String>,
    /// A plain default inside a `Patch`'s value: its `null` is dropped.
    #[serde(default)]
    admin: bool,
}

/// A change to one task.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
struct TaskChange {
    id: u32,
    #[serde(default, skip_serializing_if = "Patch::is_absent")]
    note: Patch<String>,
    #[serde(default)]
    weight: u8,
}

fn issue(number: u64) -> UpdateIssue {
    UpdateIssue {
        number,
        title: Patch::Absent,
        milestone: Patch::Absent,
        state: Patch::Absent,
        assignee: Patch::Absent,
        labels: Patch::Absent,
        notify: false,
        tasks: Vec::new(),
    }
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/patch")
}

/// `actual` equals the golden `file`, as a value and in its keys' order.
fn check_golden(file: &str, actual: &Value) {
    let path = golden_dir().join(file);
    let pretty = |value: &Value| serde_json::to_string_pretty(value).expect("values serialize");
    if std::env::var_os("TOOLGEN_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(golden_dir()).expect("tests/golden/patch");
        std::fs::write(&path, pretty(actual) + "\n").expect("the golden is written");
        return;
    }
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (TOOLGEN_BLESS=1 writes it)", path.display()));
    let expected: Value = serde_json::from_str(&text).expect("goldens are JSON");
    assert_eq!(actual, &expected, "{file}");
    assert_eq!(pretty(actual), pretty(&expected), "{file}: key order");
}

#[test]
fn the_schema_in_every_dialect_is_its_golden() {
    for (dialect, suffix) in [
        (Dialect::Standard, "standard"),
        (Dialect::OpenAiStrict, "openai_strict"),
        (Dialect::AnthropicStrict, "anthropic_strict"),
        (Dialect::Gemini, "gemini"),
    ] {
        let text = dialect_schema(UpdateIssue::INPUT_SCHEMA, dialect)
            .unwrap_or_else(|e| panic!("{dialect:?}: {e}"));
        let schema: Value = serde_json::from_str(&text).expect("dialects are JSON");
        check_golden(&format!("update_issue.{suffix}.json"), &schema);
    }
}

#[test]
fn a_patch_field_is_nullable_and_not_required() {
    let schema: Value = serde_json::from_str(UpdateIssue::INPUT_SCHEMA).expect("JSON");
    assert_eq!(schema["required"], json!(["number"]));
    let properties = &schema["properties"];
    assert_eq!(properties["title"]["type"], json!(["string", "null"]));
    assert_eq!(properties["state"]["anyOf"][1], json!({"type": "null"}));
    // No `"default"`: a left-out key has no JSON value.
    assert_eq!(properties["title"].get("default"), None);
    assert_eq!(
        <Patch<u8>>::json_schema(),
        r#"{"type":["integer","null"],"minimum":0,"maximum":255}"#
    );
    // Gemini's `parameters` write `nullable`.
    let gemini: Value = serde_json::from_str(
        &dialect_schema(UpdateIssue::INPUT_SCHEMA, Dialect::Gemini).expect("it fits"),
    )
    .expect("JSON");
    assert_eq!(gemini["properties"]["title"]["nullable"], json!(true));
    // OpenAI strict: every key required, the `Patch` as nullable as before.
    let strict: Value = serde_json::from_str(
        &dialect_schema(UpdateIssue::INPUT_SCHEMA, Dialect::OpenAiStrict).expect("it fits"),
    )
    .expect("JSON");
    assert_eq!(
        strict["properties"]["title"]["type"],
        json!(["string", "null"])
    );
    assert!(
        strict["required"]
            .as_array()
            .expect("a list")
            .contains(&json!("title"))
    );
}

/// `text` parsed by `parse_args`, by the stripping parse alone, and by the value path (the same
/// arguments as a value, which is what `parse_value` reads), all three the same.
fn parse(text: &str) -> UpdateIssue {
    let parsed = UpdateIssue::parse_args(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let stripping: UpdateIssue = toolgen::__private::parse_stripping(text)
        .unwrap_or_else(|e| panic!("{text}: the stripping parse: {e}"));
    assert_eq!(stripping, parsed, "{text}: the stripping parse");
    let value: Value = serde_json::from_str(text).expect("JSON");
    let by_value = UpdateIssue::parse_value(value).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(by_value, parsed, "{text}: the value path");
    parsed
}

#[test]
fn absent_null_and_a_value_are_three_states() {
    assert_eq!(parse(r#"{"number": 1}"#), issue(1));
    assert_eq!(
        parse(r#"{"number": 1, "title": null, "milestone": 4, "state": "closed"}"#),
        UpdateIssue {
            title: Patch::Null,
            milestone: Patch::Value(4),
            state: Patch::Value(State::Closed),
            ..issue(1)
        }
    );
    assert_eq!(
        parse(r#"{"number": 1, "assignee": null, "labels": null}"#),
        UpdateIssue {
            assignee: Patch::Null,
            labels: Patch::Null,
            ..issue(1)
        }
    );
    assert_eq!(
        parse(r#"{"number": 1, "assignee": {"login": "ana", "team": null}, "labels": []}"#),
        UpdateIssue {
            assignee: Patch::Value(Person {
                login: "ana".into(),
                team: Patch::Null,
                admin: false,
            }),
            labels: Patch::Value(Vec::new()),
            ..issue(1)
        }
    );
}

#[test]
fn inside_objects_in_arrays_each_item_keeps_its_own_state() {
    let text = r#"{"number": 2, "tasks": [
        {"id": 1},
        {"id": 2, "note": null, "weight": null},
        {"id": 3, "note": "done", "weight": 3}
    ]}"#;
    assert_eq!(
        parse(text).tasks,
        [
            TaskChange {
                id: 1,
                note: Patch::Absent,
                weight: 0
            },
            TaskChange {
                id: 2,
                note: Patch::Null,
                weight: 0
            },
            TaskChange {
                id: 3,
                note: Patch::Value("done".into()),
                weight: 3
            },
        ]
    );
}

#[test]
fn under_openai_strict_mode_every_null_is_null() {
    // What an OpenAI strict model sends: every key, `null` for what it would leave out. The
    // plain defaults' `null`s go (their defaults apply); the `Patch`es' stay `Null`: under
    // OpenAI strict mode, `Absent` never arrives.
    let text = r#"{"number": 3, "title": null, "milestone": null, "state": null,
        "assignee": {"login": "ana", "team": null, "admin": null}, "labels": null, "notify": null,
        "tasks": [{"id": 1, "note": null, "weight": null}]}"#;
    assert_eq!(
        parse(text),
        UpdateIssue {
            title: Patch::Null,
            milestone: Patch::Null,
            state: Patch::Null,
            assignee: Patch::Value(Person {
                login: "ana".into(),
                team: Patch::Null,
                admin: false,
            }),
            labels: Patch::Null,
            notify: false,
            tasks: vec![TaskChange {
                id: 1,
                note: Patch::Null,
                weight: 0
            }],
            ..issue(3)
        }
    );
}

#[test]
fn a_key_written_with_escapes_keeps_its_null_on_the_value_path() {
    // The stripping parse leaves a key with escapes to the value path, which strips and fills
    // by walking the value: it keeps the `Patch`'s `null` too, and drops the default's.
    let text = r#"{"number": 4, "t\u0069tle": null, "n\u006ftify": null}"#;
    assert_eq!(
        UpdateIssue::parse_args(text).expect("it parses"),
        UpdateIssue {
            title: Patch::Null,
            ..issue(4)
        }
    );
}

/// A flattened struct with a `Patch`, and an untagged enum with one in a variant.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Rename {
    #[serde(flatten)]
    common: Common,
    target: Target,
}

/// Fields flattened in.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Common {
    #[serde(default)]
    note: Patch<String>,
}

/// What is renamed.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Target {
    File {
        path: String,
        #[serde(default)]
        mode: u32,
    },
    Label {
        label: String,
        #[serde(default)]
        color: Patch<String>,
    },
}

#[test]
fn flattened_and_untagged_patches_keep_their_null() {
    let parsed = Rename::parse_args(r#"{"note": null, "target": {"path": "a", "mode": null}}"#)
        .expect("it parses");
    assert_eq!(parsed.common.note, Patch::Null);
    assert_eq!(
        parsed.target,
        Target::File {
            path: "a".into(),
            mode: 0
        }
    );
    let parsed =
        Rename::parse_args(r#"{"target": {"label": "b", "color": null}}"#).expect("it parses");
    assert_eq!(parsed.common.note, Patch::Absent);
    assert_eq!(
        parsed.target,
        Target::Label {
            label: "b".into(),
            color: Patch::Null
        }
    );
    let parsed = Rename::parse_args(r#"{"target": {"label": "b"}}"#).expect("it parses");
    assert_eq!(
        parsed.target,
        Target::Label {
            label: "b".into(),
            color: Patch::Absent
        }
    );
}

/// An untagged enum whose variants disagree about a key's `null`: the first reads it as
/// `Patch::Null`, the second defaults the key.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Paint {
    target: Painted,
}

/// What is painted.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Painted {
    Label {
        label: String,
        #[serde(default)]
        color: Patch<String>,
    },
    File {
        path: String,
        #[serde(default)]
        color: u32,
    },
}

#[test]
fn where_untagged_variants_disagree_both_readings_are_tried() {
    let target = |text: &str| Paint::parse_args(text).expect("it parses").target;
    // As the first variant reads it: the `null` kept, `Null`.
    let label = Painted::Label {
        label: "b".into(),
        color: Patch::Null,
    };
    assert_eq!(
        target(r#"{"target": {"label": "b", "color": null}}"#),
        label
    );
    // The first reading fails (no `label`, and a `u32` takes no `null`): dropped, the default.
    let file = Painted::File {
        path: "a".into(),
        color: 0,
    };
    assert_eq!(target(r#"{"target": {"path": "a", "color": null}}"#), file);
}

/// `value`, written by serde (an `Absent` left out), validates against each dialect's schema and
/// parses back: equal, but for OpenAI strict mode, where the `null`s sent for what is left out
/// read as `Null`.
fn check_sample(value: &UpdateIssue) {
    let json = serde_json::to_value(value).expect("it serializes");
    let standard: Value = serde_json::from_str(UpdateIssue::INPUT_SCHEMA).expect("JSON");
    for (dialect, validator) in
        dialect_check::validators(UpdateIssue::NAME, UpdateIssue::INPUT_SCHEMA)
    {
        let mut sent = json.clone();
        if dialect == Dialect::OpenAiStrict {
            dialect_check::with_nulls(&mut sent, &standard, &standard);
        }
        if let Err(error) = validator.validate(&sent) {
            panic!("{dialect:?}: {sent} does not validate: {error}");
        }
        let back = UpdateIssue::parse_args(&sent.to_string())
            .unwrap_or_else(|e| panic!("{dialect:?}: {sent}: {e}"));
        if dialect == Dialect::OpenAiStrict {
            let absent_as_null = |patch: &Patch<String>| match patch {
                Patch::Absent => Patch::Null,
                other => other.clone(),
            };
            assert_eq!(back.title, absent_as_null(&value.title), "{sent}");
        } else {
            assert_eq!(&back, value, "{dialect:?}: {sent}");
        }
    }
}

#[test]
fn serde_and_the_schema_agree_on_samples() {
    check_sample(&issue(1));
    check_sample(&UpdateIssue {
        title: Patch::Value("New".into()),
        milestone: Patch::Null,
        state: Patch::Value(State::Open),
        assignee: Patch::Value(Person {
            login: "ana".into(),
            team: Patch::Value("core".into()),
            admin: true,
        }),
        labels: Patch::Value(vec!["bug".into()]),
        notify: true,
        tasks: vec![TaskChange {
            id: 9,
            note: Patch::Null,
            weight: 2,
        }],
        ..issue(2)
    });
    check_sample(&UpdateIssue {
        title: Patch::Null,
        state: Patch::Null,
        assignee: Patch::Null,
        labels: Patch::Null,
        ..issue(3)
    });
    // What the schema refuses, serde refuses too: a wrong type, a number out of range, a
    // value the enum does not have.
    let validator = dialect_check::validators(UpdateIssue::NAME, UpdateIssue::INPUT_SCHEMA)
        .into_iter()
        .find(|(dialect, _)| *dialect == Dialect::Standard)
        .map(|(_, validator)| validator)
        .expect("the standard dialect");
    for args in [
        json!({"number": 1, "title": 5}),
        json!({"number": 1, "milestone": -1}),
        json!({"number": 1, "state": "gone"}),
        json!({"number": 1, "assignee": {"team": null}}),
        json!({"number": 1, "labels": [null]}),
    ] {
        assert!(!validator.is_valid(&args), "the schema accepts {args}");
        assert!(
            UpdateIssue::parse_args(&args.to_string()).is_err(),
            "serde accepts {args}"
        );
    }
}

#[test]
fn a_dynamic_tool_made_from_the_schema_keeps_the_null() {
    let tool = DynamicTool::new(
        UpdateIssue::NAME,
        "Update an issue.",
        serde_json::from_str(UpdateIssue::INPUT_SCHEMA).expect("JSON"),
    )
    .expect("a valid schema");
    let parsed = tool
        .parse_args(r#"{"number": 1, "title": null, "notify": null, "tasks": [{"id": 1, "note": null, "weight": null}]}"#)
        .expect("it parses");
    // The `Patch`es' `null`s stay (no default stands for them); the defaults' go, and their
    // values (the schema's `"default"`) are written in.
    assert_eq!(
        parsed,
        json!({"number": 1, "title": null, "tasks": [{"id": 1, "note": null, "weight": 0}], "notify": false})
    );
}

#[test]
fn patch_and_double_option_are_the_same_three_states() {
    for (patch, option) in [
        (Patch::Absent, None),
        (Patch::Null, Some(None)),
        (Patch::Value(1), Some(Some(1))),
    ] {
        assert_eq!(Option::<Option<u8>>::from(patch), option);
        assert_eq!(Patch::from(option), patch);
    }
    // Written as `null`, unless skipped.
    assert_eq!(
        serde_json::to_string(&Patch::<u8>::Null).expect("JSON"),
        "null"
    );
    assert_eq!(serde_json::to_string(&Patch::Value(2)).expect("JSON"), "2");
    assert_eq!(
        serde_json::to_value(issue(5)).expect("JSON"),
        json!({"number": 5, "notify": false, "tasks": []})
    );
}

/// serde_with's `double_option`, as that crate writes it: the value read as an `Option`, and
/// wrapped in `Some` (a missing key is the field's `#[serde(default)]`, `None`).
mod double_option {
    use serde::{Deserialize, Deserializer};

    pub fn deserialize<'de, T, D>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
    where
        T: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        Option::<T>::deserialize(deserializer).map(Some)
    }
}

/// Set a reminder.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct SetReminder {
    #[serde(default, deserialize_with = "double_option::deserialize")]
    #[tool(schema = Patch<String>)]
    due: Option<Option<String>>,
    #[serde(default)]
    quiet: bool,
}

#[test]
fn a_double_option_described_as_a_patch_keeps_its_null() {
    let schema: Value = serde_json::from_str(SetReminder::INPUT_SCHEMA).expect("JSON");
    assert_eq!(
        schema["properties"]["due"],
        json!({"type": ["string", "null"]})
    );
    assert_eq!(schema.get("required"), None);
    for (text, due) in [
        (r#"{}"#, None),
        (r#"{"due": null, "quiet": null}"#, Some(None)),
        (r#"{"due": "9:00"}"#, Some(Some("9:00".to_owned()))),
    ] {
        let parsed = SetReminder::parse_args(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(parsed, SetReminder { due, quiet: false }, "{text}");
    }
}
