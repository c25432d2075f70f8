//! `parse_args`, `parse_bytes` and `ToolSet::parse_call` on arbitrary bytes, for several seed tools
//! and a tool with every enum representation, defaults and constraints.
//!
//! The first byte picks the tool; the rest is the arguments. Besides "no panic", each input checks
//! that the text and bytes entry points agree.

#![no_main]

#[path = "../../examples/seed_tools/mod.rs"]
mod seed_tools;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;

use libfuzzer_sys::fuzz_target;
use serde::Deserialize;
use toolgen::{ArgsErrorKind, Tool, ToolCall, ToolSchema, ToolSet};

use seed_tools::{flashcards, function_calling, ghostpen, mind_map};

/// A tool that exercises every enum representation, defaults and each constraint keyword.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Everything {
    #[tool(length(min = 1, max = 8))]
    name: String,
    #[tool(range(min = -5, max = 5))]
    level: i8,
    #[tool(default = 3)]
    retries: u32,
    #[tool(default = "plain")]
    style: String,
    #[serde(default)]
    tags: Vec<String>,
    #[tool(pattern = "^[a-z]+$")]
    slug: Option<String>,
    #[tool(format = "date")]
    due: Option<String>,
    #[tool(range(min = 0.0, max = 1.0))]
    weight: Option<f64>,
    letter: Option<char>,
    pair: Option<(u8, String)>,
    fixed: Option<[u16; 2]>,
    counts: Option<BTreeMap<String, u64>>,
    external: Option<External>,
    internal: Option<Internal>,
    adjacent: Option<Adjacent>,
    untagged: Option<Untagged>,
    mixed: Option<Mixed>,
    other: Option<Other>,
    child: Option<Box<Child>>,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
enum External {
    Stop,
    Wait(u32),
    Pair(u8, u8),
    Move { dx: i32, dy: Option<i32> },
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Internal {
    Stop,
    Goto(Child),
    Labels(BTreeMap<String, u32>),
    Move {
        #[tool(range(min = -100, max = 100))]
        dx: i32,
        #[serde(default)]
        dy: i32,
    },
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Stop,
    Note(Option<String>),
    Pair(u8, String),
    Move {
        dx: i32,
        #[tool(default = 1)]
        dy: i32,
    },
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Untagged {
    Nothing,
    Number(i64),
    Word(String),
    Named { name: String, count: u32 },
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
enum Mixed {
    Auto,
    Fixed {
        value: u32,
    },
    #[serde(untagged)]
    Raw(String),
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "type")]
enum Other {
    Circle {
        radius: u32,
    },
    #[serde(other)]
    Unknown,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct Child {
    #[tool(default = 1)]
    x: i32,
    #[tool(length(max = 3))]
    items: Vec<u8>,
}

/// Tagged enums whose fields have `#[serde(default)]` only (no `#[tool(default)]`, which would
/// send parsing through a `Value`): their `null`s are stripped per variant on the fast path, by
/// and on the value path, which must agree.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct TaggedOps {
    internal: Option<Vec<Op>>,
    adjacent: Option<Vec<AdjacentOp>>,
    labeled: Option<Vec<LabeledOp>>,
    loose: Option<Vec<LooseOp>>,
}

/// Untagged variants that disagree about `note: null`: a value in one, defaulted in the other.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum LooseOp {
    Set {
        set: u8,
        note: serde_json::Value,
    },
    Rename {
        name: String,
        #[serde(default)]
        note: String,
        inner: Option<Inner>,
    },
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case")]
enum Op {
    Set {
        note: serde_json::Value,
        #[serde(default)]
        n: u8,
    },
    Rename {
        name: String,
        #[serde(default)]
        note: String,
    },
    Nested(Inner),
    Stop,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Inner {
    #[serde(default)]
    x: i32,
    tags: Option<Vec<String>>,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum AdjacentOp {
    A {
        #[serde(default)]
        a: u8,
        v: serde_json::Value,
    },
    B(Inner),
    C,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct LabeledOp {
    #[serde(default)]
    label: String,
    #[serde(flatten)]
    op: Op,
}

/// Tagged enums, a flattened one and sets whose fields have `#[tool(default = ..)]` values: the
/// stripping parse writes them in (and checks the sets) as it reads the text, the value path in
/// walks of its own; the two must agree.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct FilledOps {
    internal: Option<Vec<FilledOp>>,
    labeled: Option<Vec<FilledLabeled>>,
    adjacent: Option<Vec<Adjacent>>,
    external: Option<Vec<External>>,
    grid: Option<BTreeSet<BTreeSet<u8>>>,
    tags: Option<BTreeSet<FilledTag>>,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case")]
enum FilledOp {
    Set {
        #[tool(default = 2)]
        n: u8,
        #[serde(default)]
        note: String,
    },
    Nested(Child),
    Stop,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct FilledLabeled {
    #[tool(default = "x")]
    label: String,
    #[serde(flatten)]
    op: FilledOp,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct FilledTag {
    name: String,
    #[tool(default = 1)]
    weight: u8,
}

/// [`check`], and where the stripping fast path reads the text by itself (arguments `parse_args`
/// accepts: constraints checked, no repeated keys), that the value path reads it the same.
fn check_fast<T: Tool + Debug + PartialEq + serde::de::DeserializeOwned>(bytes: &[u8]) {
    check::<T>(bytes);
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let (Ok(parsed), Ok(fast)) = (
        T::parse_args(text),
        toolgen::__private::parse_stripping::<T>(text),
    ) else {
        return;
    };
    assert_eq!(parsed, fast, "parse_args and the fast path disagree");
    // Not a `Value` where serde skipped what `Value` refuses (a lone surrogate in an unknown
    // field's string).
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
        let by_value =
            T::parse_value(value).expect("the fast path read it, the value path does not");
        assert_eq!(by_value, fast, "fast path and value path disagree");
    }
}

/// Parses `bytes` as `T` through every entry point that takes text.
fn check<T: Tool + Debug + PartialEq>(bytes: &[u8]) {
    let from_bytes = T::parse_bytes(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            let from_text = T::parse_args(text);
            assert_eq!(from_text, from_bytes, "parse_args and parse_bytes disagree");
            if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
                // The value path must not panic either; it may differ (it never sees duplicates).
                let _ = T::parse_value(value);
            }
        }
        Err(_) => {
            let error = from_bytes.expect_err("invalid UTF-8 parsed");
            assert_eq!(error.kind(), ArgsErrorKind::Syntax);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, args)) = data.split_first() else {
        return;
    };
    match which % 10 {
        0 => check::<Everything>(args),
        1 => check::<flashcards::EmitFlashcards>(args),
        2 => check::<ghostpen::UpdateStyleProfile>(args),
        3 => check::<ghostpen::ReadPastPosts>(args),
        4 => check::<ghostpen::TrackFeedback>(args),
        5 => check::<function_calling::ConfigFunc>(args),
        6 => check_fast::<mind_map::SuggestOperations>(args),
        8 => check_fast::<TaggedOps>(args),
        // Defaults written in and sets checked, each way its own: the fast path and the value
        // path must agree.
        9 => {
            check_fast::<FilledOps>(args);
        }
        _ => {
            // A call of a named tool in a set: the name is the text up to the first NUL.
            let text = String::from_utf8_lossy(args);
            let (name, arguments) = text.split_once('\0').unwrap_or(("save_to_file", &text));
            let _ = ghostpen::Tools::parse_call(&ToolCall::new(name, arguments));
        }
    }
});
