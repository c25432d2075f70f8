//! Argument parsing as production sees it: the tolerances for what real models send (each one,
//! and that none hides a real error), constraint checks with JSON paths, tool-set dispatch and
//! output schemas.

use pretty_assertions::assert_eq;
use serde::{Deserialize, Serialize};
use serde_json::json;
use toolgen::{ArgsErrorKind, Provider, Tool, ToolCall, ToolSchema, ToolSet};

/// Create a flashcard deck.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct MakeDeck {
    #[tool(length(min = 1, max = 40))]
    title: String,
    #[tool(range(min = 1, max = 50))]
    size: u32,
    #[tool(length(min = 1, max = 3))]
    cards: Vec<Card>,
    #[tool(format = "date")]
    due: Option<String>,
    #[tool(default = "lv")]
    language: String,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Card {
    #[tool(pattern = "^[a-zāčēģīķļņšūž ]+$")]
    front: String,
    #[tool(range(min = 0.0, max = 1.0))]
    weight: Option<f64>,
    kind: Kind,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Kind {
    Word,
    Phrase {
        #[tool(range(min = 2))]
        words: u8,
    },
}

fn deck(args: serde_json::Value) -> Result<MakeDeck, toolgen::ArgsError> {
    MakeDeck::parse_args(&args.to_string())
}

fn valid() -> serde_json::Value {
    json!({
        "title": "Latvian basics",
        "size": 2,
        "cards": [{"front": "māja", "kind": {"type": "word"}}],
    })
}

/// Two codes, each with a pattern of its own.
#[allow(dead_code)] // read by serde, checked by parse_args
#[derive(Tool, Deserialize, Debug)]
struct Codes {
    #[tool(pattern = "^[A-Z]{3}$")]
    airport: String,
    #[tool(pattern = "^[0-9]{3}$")]
    gate: String,
}

/// One code, with the same pattern as `Codes::airport` (written again, so perhaps another
/// literal in the binary).
#[allow(dead_code)] // read by serde, checked by parse_args
#[derive(Tool, Deserialize, Debug)]
struct Airport {
    #[tool(pattern = "^[A-Z]{3}$")]
    code: String,
}

#[test]
fn each_pattern_checks_its_own_field_from_every_thread() {
    // Each pattern is compiled once for all types and threads (one map of them): each field must
    // still be checked against its own, the first check of each from any of eight threads at once.
    let threads: Vec<_> = (0..8)
        .map(|i| {
            std::thread::spawn(move || {
                let codes = Codes::parse_args(r#"{"airport":"RIX","gate":"012"}"#);
                assert!(codes.is_ok(), "thread {i}: {codes:?}");
                let wrong = Codes::parse_args(r#"{"airport":"012","gate":"RIX"}"#).unwrap_err();
                assert_eq!(wrong.path(), "airport", "thread {i}");
                assert_eq!(
                    wrong.message(),
                    "must match the pattern `^[A-Z]{3}$`",
                    "thread {i}"
                );
                let gate = Codes::parse_args(r#"{"airport":"RIX","gate":"RIX"}"#).unwrap_err();
                assert_eq!(gate.path(), "gate", "thread {i}");
                assert!(
                    Airport::parse_args(r#"{"code":"RIX"}"#).is_ok(),
                    "thread {i}"
                );
                let airport = Airport::parse_args(r#"{"code":"rix"}"#).unwrap_err();
                assert_eq!(airport.path(), "code", "thread {i}");
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
}

#[test]
fn valid_arguments_parse_and_defaults_are_filled() {
    let parsed = deck(valid()).unwrap();
    assert_eq!(parsed.language, "lv");
    assert_eq!(parsed.cards[0].kind, Kind::Word);
    let text = valid().to_string();
    assert_eq!(MakeDeck::parse_bytes(text.as_bytes()).unwrap(), parsed);
    assert_eq!(MakeDeck::parse_value(valid()).unwrap(), parsed);
}

/// Each broken constraint, with the path and message the model sees.
#[test]
fn constraints_are_enforced_with_paths() {
    let cases = [
        (
            json!({"title": ""}),
            "title",
            "must have at least 1 character, not 0",
        ),
        (json!({"size": 51}), "size", "must be at most 50, not 51"),
        (
            json!({"cards": []}),
            "cards",
            "must have at least 1 item, not 0",
        ),
        (
            json!({"cards": [{"front": "a", "kind": {"type": "word"}}, {"front": "b", "kind": {"type": "word"}}, {"front": "c", "kind": {"type": "word"}}, {"front": "d", "kind": {"type": "word"}}]}),
            "cards",
            "must have at most 3 items, not 4",
        ),
        (
            json!({"cards": [{"front": "House", "kind": {"type": "word"}}]}),
            "cards[0].front",
            "must match the pattern `^[a-zāčēģīķļņšūž ]+$`",
        ),
        (
            json!({"cards": [{"front": "māja", "weight": 1.5, "kind": {"type": "word"}}]}),
            "cards[0].weight",
            "must be at most 1, not 1.5",
        ),
        (
            json!({"cards": [{"front": "māja", "kind": {"type": "phrase", "words": 1}}]}),
            "cards[0].kind.words",
            "must be at least 2, not 1",
        ),
        (json!({"due": "2026-02-30"}), "due", ""),
    ];
    for (patch, path, message) in cases {
        let mut args = valid();
        for (key, value) in patch.as_object().unwrap() {
            args[key] = value.clone();
        }
        let err = deck(args).unwrap_err();
        assert_eq!(err.kind(), ArgsErrorKind::Constraint, "{err}");
        assert_eq!(err.path(), path, "{err}");
        if !message.is_empty() {
            assert_eq!(err.message(), message);
        }
    }
}

/// The keywords are data in the type's facts, which its parse plan carries: the parse that reads
/// the text once (the fast path, `parse_stripping`) checks them as it reads, and refuses what
/// breaks one, leaving it to the way that says where; no check of the parsed value is generated.
#[test]
fn keywords_are_checked_as_the_text_is_read() {
    let stripping = |args: serde_json::Value| {
        toolgen::__private::parse_stripping::<MakeDeck>(&args.to_string())
    };
    assert!(stripping(valid()).is_ok());
    let broken = [
        ("title", json!("")),
        ("size", json!(51)),
        ("cards", json!([])),
        (
            "cards",
            json!([{"front": "House", "kind": {"type": "word"}}]),
        ),
        (
            "cards",
            json!([{"front": "māja", "kind": {"type": "phrase", "words": 1}}]),
        ),
        ("due", json!("2026-02-30")),
    ];
    for (key, value) in broken {
        let mut args = valid();
        args[key] = value.clone();
        assert!(stripping(args.clone()).is_err(), "{args}");
        assert_eq!(deck(args).unwrap_err().kind(), ArgsErrorKind::Constraint);
    }
}

#[test]
fn a_valid_format_passes() {
    let mut args = valid();
    args["due"] = json!("2026-02-28");
    assert_eq!(deck(args).unwrap().due.as_deref(), Some("2026-02-28"));
}

/// Set the whole numbers of `valid()` as floats: `2.0` for the size.
#[test]
fn whole_floats_are_read_as_integers() {
    let mut args = valid();
    args["size"] = json!(2.0);
    args["cards"][0]["kind"] = json!({"type": "phrase", "words": 3.0});
    let parsed = deck(args).unwrap();
    assert_eq!(parsed.size, 2);
    assert_eq!(parsed.cards[0].kind, Kind::Phrase { words: 3 });
}

#[test]
fn fractional_floats_stay_errors() {
    let mut args = valid();
    args["size"] = json!(2.5);
    let err = deck(args).unwrap_err();
    assert_eq!(err.path(), "size");
    assert_eq!(
        err.message(),
        "invalid type: floating point `2.5`, expected u32"
    );
}

#[test]
fn arguments_encoded_twice_are_unwrapped() {
    let twice = serde_json::to_string(&valid().to_string()).unwrap();
    assert!(twice.starts_with("\"{"));
    assert_eq!(
        MakeDeck::parse_args(&twice).unwrap(),
        deck(valid()).unwrap()
    );
    // A string that is not an object inside stays an error.
    assert!(MakeDeck::parse_args(r#""hello""#).is_err());
}

/// No parameters at all.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Ping {}

#[test]
fn empty_arguments_mean_no_arguments() {
    assert_eq!(Ping::parse_args("").unwrap(), Ping {});
    assert_eq!(Ping::parse_args("  \n").unwrap(), Ping {});
    // For a tool with required fields, the error names what is missing.
    assert_eq!(
        MakeDeck::parse_args("").unwrap_err().message(),
        "missing field `title`"
    );
}

#[test]
fn tolerances_do_not_hide_real_errors() {
    // Duplicate keys: a `Value` keeps the last one, but serde rejects the text, and so do we.
    let dup =
        r#"{"title":"a","title":"b","size":2,"cards":[{"front":"māja","kind":{"type":"word"}}]}"#;
    assert_eq!(
        MakeDeck::parse_args(dup).unwrap_err().message(),
        "duplicate field `title`"
    );
    // Wrong types are still wrong, with their path.
    let mut args = valid();
    args["cards"][0]["kind"] = json!({"type": "sentence"});
    let err = deck(args).unwrap_err();
    assert_eq!(err.path(), "cards[0].kind.type");
    assert!(
        err.message().starts_with("unknown variant `sentence`"),
        "{err}"
    );
    // Not JSON at all.
    assert_eq!(
        MakeDeck::parse_args("{\"title\": ").unwrap_err().kind(),
        ArgsErrorKind::Syntax
    );
    // Not UTF-8.
    let err = MakeDeck::parse_bytes(b"{\"title\": \"\xff\"}").unwrap_err();
    assert_eq!(err.kind(), ArgsErrorKind::Syntax);
}

/// Get the weather.
#[derive(Tool, Deserialize, Debug, PartialEq)]
#[tool(output = Weather)]
struct GetWeather {
    city: String,
}

#[derive(ToolSchema, Serialize)]
struct Weather {
    /// Degrees Celsius.
    celsius: f64,
}

#[derive(ToolSet, Debug, PartialEq)]
enum Tools {
    Deck(MakeDeck),
    Weather(GetWeather),
    Ping(Ping),
}

#[test]
fn tool_sets_define_and_dispatch() {
    assert_eq!(Tools::NAMES, ["make_deck", "get_weather", "ping"]);
    let definitions = Tools::definitions(Provider::Anthropic);
    let names: Vec<&str> = definitions
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["make_deck", "get_weather", "ping"]);

    let call = ToolCall::new("get_weather", r#"{"city":"Riga"}"#);
    assert_eq!(
        Tools::parse_call(&call).unwrap(),
        Tools::Weather(GetWeather {
            city: "Riga".into()
        })
    );
    let err = Tools::parse_call(&ToolCall::new("get_wether", "{}")).unwrap_err();
    assert_eq!(err.kind(), ArgsErrorKind::UnknownTool);
    assert_eq!(
        err.message(),
        "unknown tool `get_wether`; the tools are `make_deck`, `get_weather`, `ping`"
    );
    // Bad arguments are the tool's own error.
    let err = Tools::parse_call(&ToolCall::new("get_weather", r#"{"city":1}"#)).unwrap_err();
    assert_eq!(err.path(), "city");
}

#[test]
fn output_schemas_reach_mcp_only() {
    let expected = json!({
        "type": "object",
        "properties": {"celsius": {"type": "number", "description": "Degrees Celsius."}},
        "required": ["celsius"],
    });
    let text: serde_json::Value = serde_json::from_str(GetWeather::OUTPUT_SCHEMA.unwrap()).unwrap();
    assert_eq!(text, expected);
    assert_eq!(
        GetWeather::definition(Provider::Mcp)["outputSchema"],
        expected
    );
    assert!(
        GetWeather::definition(Provider::Anthropic)
            .get("outputSchema")
            .is_none()
    );
    assert_eq!(MakeDeck::OUTPUT_SCHEMA, None);
    assert!(
        MakeDeck::definition(Provider::Mcp)
            .get("outputSchema")
            .is_none()
    );
}

/// Tag a photo.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct TagPhoto {
    tags: std::collections::BTreeSet<String>,
    albums: Vec<Album>,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Album {
    name: String,
    people: std::collections::HashSet<String>,
}

#[test]
fn repeated_set_items_are_an_error_with_a_path() {
    let ok = TagPhoto::parse_args(r#"{"tags":["a","b"],"albums":[{"name":"x","people":["p"]}]}"#);
    assert_eq!(ok.unwrap().tags.len(), 2);

    let err = TagPhoto::parse_args(r#"{"tags":["a","b","a"],"albums":[]}"#).unwrap_err();
    assert_eq!(err.kind(), ArgsErrorKind::Constraint);
    assert_eq!(err.path(), "tags[2]");
    assert_eq!(
        err.message(),
        "repeats item 0: the items of this list must all differ"
    );

    let err = TagPhoto::parse_args(
        r#"{"tags":[],"albums":[{"name":"x","people":["p"]},{"name":"y","people":["q","q"]}]}"#,
    )
    .unwrap_err();
    assert_eq!(err.path(), "albums[1].people[1]");
    // A type error inside still comes first, as serde reports it.
    let err = TagPhoto::parse_args(r#"{"tags":[1,1],"albums":[]}"#).unwrap_err();
    assert_eq!(err.kind(), ArgsErrorKind::Data);
}

/// Sets of every kind of plain item, read borrowed from the text (no `Value` per item).
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Sets {
    #[serde(default)]
    words: std::collections::BTreeSet<String>,
    #[serde(default)]
    numbers: std::collections::BTreeSet<i64>,
    #[serde(default)]
    units: std::collections::BTreeSet<Unit>,
    #[serde(default)]
    labels: std::collections::BTreeSet<Label>,
    #[serde(default)]
    maybe: std::collections::BTreeSet<Option<u8>>,
    #[serde(default)]
    flags: std::collections::BTreeSet<bool>,
    #[serde(default)]
    ratios: Vec<std::collections::BTreeSet<u32>>,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Label(String);

#[test]
fn sets_of_plain_items_are_read_and_checked_as_values() {
    let sets = Sets::parse_args(
        r#"{"words":["a","\u00e9","é2"],"numbers":[-1,1,0],"units":["word","phrase"],
            "labels":["x","y"],"maybe":[null,1],"flags":[true,false],"ratios":[[1,2],[2]]}"#,
    )
    .unwrap();
    assert_eq!(sets.words.len(), 3);
    assert_eq!(sets.numbers.len(), 3);
    assert_eq!(sets.units.len(), 2);
    assert_eq!(sets.labels.len(), 2);
    assert_eq!(sets.maybe.len(), 2);
    assert_eq!(sets.flags.len(), 2);
    assert_eq!(sets.ratios.len(), 2);
    // Repeats as JSON values see them: an escaped string is the same string, a negative number
    // is not the positive one.
    for (text, path) in [
        (r#"{"words":["é","\u00e9"]}"#, "words[1]"),
        (r#"{"numbers":[5,-5,5]}"#, "numbers[2]"),
        (r#"{"units":["word","word"]}"#, "units[1]"),
        (r#"{"labels":["x","x"]}"#, "labels[1]"),
        (r#"{"maybe":[null,null]}"#, "maybe[1]"),
        (r#"{"flags":[true,true]}"#, "flags[1]"),
        (r#"{"ratios":[[1],[3,3]]}"#, "ratios[1][1]"),
    ] {
        let error = Sets::parse_args(text).unwrap_err();
        assert_eq!(
            (error.kind(), error.path()),
            (ArgsErrorKind::Constraint, path),
            "{text}"
        );
    }
    // `1.0` where an integer belongs is read as `1` (a model's habit, tolerated): a repeat.
    let error = Sets::parse_args(r#"{"numbers":[1,1.0]}"#).unwrap_err();
    assert_eq!(
        (error.kind(), error.path()),
        (ArgsErrorKind::Constraint, "numbers[1]")
    );
    assert_eq!(
        Sets::parse_args(r#"{"numbers":[1,2.0]}"#)
            .unwrap()
            .numbers
            .len(),
        2
    );
    // More items than are compared pair by pair: hashed.
    let many: Vec<String> = (0..40).map(|i| format!("\"w{i}\"")).collect();
    let text = format!(r#"{{"words":[{}]}}"#, many.join(","));
    assert_eq!(Sets::parse_args(&text).unwrap().words.len(), 40);
    let text = format!(r#"{{"words":[{},"w7"]}}"#, many.join(","));
    let error = Sets::parse_args(&text).unwrap_err();
    assert_eq!(
        (error.kind(), error.path()),
        (ArgsErrorKind::Constraint, "words[40]")
    );
}

#[derive(ToolSchema, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "lowercase")]
#[derive(PartialOrd, Ord, Eq)]
enum Unit {
    Word,
    Phrase,
}

/// Wrappers pass a string enum's values through, so a `#[tool(default)]` on a field of a wrapped
/// enum is checked at compile time like one on the enum itself.
#[test]
fn wrappers_keep_a_string_enums_values() {
    let values = Some(&["word", "phrase"][..]);
    assert_eq!(<Unit as toolgen::ToolSchema>::ENUM_VALUES, values);
    assert_eq!(<Box<Unit> as toolgen::ToolSchema>::ENUM_VALUES, values);
    assert_eq!(
        <std::borrow::Cow<'static, Unit> as toolgen::ToolSchema>::ENUM_VALUES,
        values
    );
}

/// A whole float is read as the integer it is in all of i64's and u64's range: JavaScript's
/// `Number.MAX_SAFE_INTEGER` (a bound published schemas write) as a model may send it, and
/// beyond (every whole f64 there is an integer exactly).
#[test]
fn large_whole_floats_are_read_as_integers() {
    /// Picks an entry.
    #[derive(toolgen::Tool, Deserialize, Debug, PartialEq)]
    struct Pick {
        index: i64,
        id: u64,
    }
    let pick = Pick::parse_args(r#"{"index": 9007199254740991.0, "id": 1.8e19}"#).unwrap();
    assert_eq!(
        pick,
        Pick {
            index: 9_007_199_254_740_991,
            id: 18_000_000_000_000_000_000
        }
    );
    let pick = Pick::parse_args(r#"{"index": -9.2e18, "id": 0.0}"#).unwrap();
    assert_eq!(pick.index, -9_200_000_000_000_000_000);
    let error = Pick::parse_args(r#"{"index": 1.0, "id": -1.0}"#).unwrap_err();
    assert_eq!(
        (error.path(), error.message()),
        ("id", "invalid value: integer `-1`, expected u64")
    );
}

/// A constraint is checked wherever its value sits: in an untagged enum's variant (its own
/// field, or a type it holds), a map's value, a tuple, a generic type's field, a flattened type,
/// a recursive type's child. (Whether a type has anything to check is its facts' to say, summed
/// from what it holds: an untagged enum passes it on, as it does not pass on defaults to fill.)
#[test]
fn constraints_are_checked_wherever_the_value_sits() {
    use std::collections::BTreeMap;

    #[allow(dead_code)]
    #[derive(ToolSchema, Deserialize, Debug)]
    struct Score {
        #[tool(range(min = 0, max = 10))]
        points: u8,
    }

    #[allow(dead_code)]
    #[derive(ToolSchema, Deserialize, Debug)]
    #[serde(untagged)]
    enum Answer {
        Scored { score: Score },
        Text(String),
    }

    #[allow(dead_code)]
    #[derive(ToolSchema, Deserialize, Debug)]
    #[serde(untagged)]
    enum Name {
        Short {
            #[tool(length(max = 3))]
            name: String,
        },
        Number(u32),
    }

    #[derive(ToolSchema, Deserialize, Debug)]
    #[allow(dead_code)]
    struct Labelled<T> {
        label: String,
        value: T,
    }

    #[allow(dead_code)]
    #[derive(ToolSchema, Deserialize, Debug)]
    struct Node {
        score: Option<Score>,
        #[serde(default)]
        children: Vec<Node>,
    }

    #[allow(dead_code)]
    #[derive(ToolSchema, Deserialize, Debug)]
    struct Extra {
        #[tool(range(max = 5))]
        level: u8,
    }

    /// Grade the answers.
    #[allow(dead_code)]
    #[derive(Tool, Deserialize, Debug)]
    struct Grade {
        answers: Vec<Answer>,
        names: Vec<Name>,
        by_student: BTreeMap<String, Score>,
        pair: (String, Score),
        labelled: Labelled<Score>,
        tree: Node,
        #[serde(flatten)]
        extra: Extra,
    }

    let valid = json!({
        "answers": [{"score": {"points": 3}}, "text"],
        "names": [7, {"name": "abc"}],
        "by_student": {"ann": {"points": 10}},
        "pair": ["p", {"points": 0}],
        "labelled": {"label": "l", "value": {"points": 1}},
        "tree": {"children": [{"score": {"points": 2}}]},
        "level": 5,
    });
    Grade::parse_value(valid.clone()).expect("valid arguments");
    let cases = [
        (
            "/answers/0/score/points",
            json!(11),
            "answers[0].score.points",
        ),
        ("/names/1/name", json!("abcd"), "names[1].name"),
        ("/by_student/ann/points", json!(12), "by_student.ann.points"),
        ("/pair/1/points", json!(13), "pair[1].points"),
        ("/labelled/value/points", json!(14), "labelled.value.points"),
        (
            "/tree/children/0/score/points",
            json!(15),
            "tree.children[0].score.points",
        ),
        ("/level", json!(6), "level"),
    ];
    for (pointer, bad, path) in cases {
        let mut args = valid.clone();
        *args.pointer_mut(pointer).unwrap() = bad;
        let err = Grade::parse_value(args).unwrap_err();
        assert_eq!(
            (err.kind(), err.path()),
            (ArgsErrorKind::Constraint, path),
            "{err}"
        );
    }
}

/// An untagged enum whose variants share a key with different ranges: serde takes the first
/// variant that reads the value, and only that variant's keywords apply.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum SharedKey {
    Small {
        #[tool(range(max = 5))]
        n: u32,
        small: bool,
    },
    Big {
        #[tool(range(min = 100))]
        n: u32,
    },
}

/// Holds a [`SharedKey`].
#[derive(Tool, Deserialize, Debug)]
struct SizeIt {
    size: SharedKey,
}

/// An enum with a tagged variant and an untagged one, whose keywords apply only when serde
/// takes it.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
enum Mixed {
    Count {
        #[tool(range(max = 5))]
        n: u32,
    },
    #[serde(untagged)]
    Bare {
        #[tool(range(min = 10))]
        n: u32,
    },
}

/// A generic untagged enum: the derive cannot read it with serde where its impl is written, so
/// a value passes if it meets one alternative's keywords (JSON Schema's `anyOf`).
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Either<T> {
    Low {
        #[tool(range(max = 5))]
        n: u32,
        tag: T,
    },
    High {
        #[tool(range(min = 100))]
        n: u32,
    },
}

/// An untagged enum where one variant alone has keywords.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum OneSided {
    Small {
        #[tool(range(max = 5))]
        n: u32,
        small: bool,
    },
    Big {
        n: u32,
    },
}

/// Holds a [`Mixed`], an [`Either`] and a [`OneSided`].
#[derive(Tool, Deserialize, Debug)]
struct Others {
    mixed: Option<Mixed>,
    either: Option<Either<bool>>,
    one_sided: Option<OneSided>,
}

#[test]
fn an_untagged_variant_serde_does_not_pick_is_not_checked() {
    let parsed = |text: &str| SizeIt::parse_args(text).map(|t| t.size);
    assert_eq!(
        parsed(r#"{"size": {"n": 200}}"#).ok(),
        Some(SharedKey::Big { n: 200 })
    );
    assert_eq!(
        parsed(r#"{"size": {"n": 3, "small": true}}"#).ok(),
        Some(SharedKey::Small { n: 3, small: true })
    );
    // serde takes `Small` (it reads the object): its maximum applies, though `Big`'s minimum
    // would pass.
    let error = parsed(r#"{"size": {"n": 200, "small": true}}"#).unwrap_err();
    assert_eq!(error.path(), "size.n", "{error}");
    // serde takes `Big`, whose minimum the value misses.
    let error = parsed(r#"{"size": {"n": 3}}"#).unwrap_err();
    assert_eq!(error.path(), "size.n", "{error}");

    let others = |text: &str| Others::parse_args(text);
    // The tagged variant's maximum, not the untagged one's minimum.
    assert!(others(r#"{"mixed": {"Count": {"n": 3}}}"#).is_ok());
    assert!(others(r#"{"mixed": {"Count": {"n": 30}}}"#).is_err());
    // The bare object is the untagged variant: its minimum alone.
    assert_eq!(
        others(r#"{"mixed": {"n": 30}}"#).ok().and_then(|o| o.mixed),
        Some(Mixed::Bare { n: 30 })
    );
    assert!(others(r#"{"mixed": {"n": 3}}"#).is_err());
    // Generic: one alternative's keywords met is enough; none met is the first's error.
    assert_eq!(
        others(r#"{"either": {"n": 200}}"#)
            .ok()
            .and_then(|o| o.either),
        Some(Either::High { n: 200 })
    );
    assert!(others(r#"{"either": {"n": 3, "tag": true}}"#).is_ok());
    let error = others(r#"{"either": {"n": 50}}"#).unwrap_err();
    assert_eq!(error.path(), "either.n", "{error}");
    // One alternative with keywords: not checked where serde takes the other, on any path.
    for text in [
        r#"{"one_sided": {"n": 200}}"#,
        r#"{"one_sided": {"n": 200}, "mixed": null}"#,
    ] {
        let read = others(text).map(|o| o.one_sided);
        assert_eq!(read.ok(), Some(Some(OneSided::Big { n: 200 })), "{text}");
    }
    assert!(others(r#"{"one_sided": {"n": 200, "small": false}}"#).is_err());
}

/// Order eggs by the half dozen.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct OrderEggs {
    #[tool(multiple_of = 6, range(min = 6))]
    eggs: u32,
    #[tool(multiple_of = 0.5)]
    kilos: Option<f64>,
}

#[test]
fn multiple_of_is_stated_and_checked() {
    let schema: serde_json::Value = serde_json::from_str(OrderEggs::INPUT_SCHEMA).unwrap();
    assert_eq!(
        schema["properties"]["eggs"],
        serde_json::json!({"type": "integer", "minimum": 6, "maximum": 4294967295u32, "multipleOf": 6})
    );
    assert_eq!(
        schema["properties"]["kilos"]["multipleOf"],
        serde_json::json!(0.5)
    );
    assert_eq!(
        OrderEggs::parse_args(r#"{"eggs": 12, "kilos": 1.5}"#).ok(),
        Some(OrderEggs {
            eggs: 12,
            kilos: Some(1.5)
        })
    );
    let error = OrderEggs::parse_args(r#"{"eggs": 7}"#).unwrap_err();
    assert_eq!(
        (error.path(), error.to_string().contains("multiple of 6")),
        ("eggs", true),
        "{error}"
    );
    let error = OrderEggs::parse_args(r#"{"eggs": 6, "kilos": 1.2}"#).unwrap_err();
    assert_eq!(error.path(), "kilos", "{error}");
}
