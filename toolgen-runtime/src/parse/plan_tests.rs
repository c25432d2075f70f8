//! Tests of the parse plan and its walkers.
use super::lexer::string_stop;
use super::plan::{self, Reach};

type Plan = plan::Plan<'static>;
type PlanField = plan::PlanField<'static>;
type FillValue = plan::FillValue<'static>;
use super::sets::{Conflicts, Segment, with_nodes};
use super::text::{find_null, may_strip, strip_text};
use super::walk::{fill_value, strip_value, strip_value_with};
use serde_json::Value;

const NONE: Plan = Plan::None;

/// Each call, nested or not, gets an empty list of its own, and leaves it for the next.
#[test]
fn node_lists_are_lent_empty_and_apart() {
    const LEAF: Plan = Plan::None;
    let outer = with_nodes(|outer| {
        assert!(outer.is_empty());
        outer.push(&LEAF);
        let inner = with_nodes(|inner| {
            assert!(inner.is_empty(), "a nested call has a list of its own");
            inner.push(&LEAF);
            inner.push(&LEAF);
            inner.len()
        });
        assert_eq!(outer.len(), 1, "the inner call left the outer list alone");
        inner
    });
    assert_eq!(outer, 2);
    assert!(
        with_nodes(|again| again.is_empty()),
        "a list comes back emptied"
    );
}
/// `{ a (default), b (default), c, inner: { x (default) }, list: [{ x (default) }] }`
const INNER: Plan = Plan::object(
    &[PlanField {
        name: "x",
        default: true,
        fill: None,
        inner: &NONE,
    }],
    &[],
);
const ROOT: Plan = Plan::object(
    &[
        PlanField {
            name: "a",
            default: true,
            fill: None,
            inner: &NONE,
        },
        PlanField {
            name: "b",
            default: true,
            fill: None,
            inner: &NONE,
        },
        PlanField {
            name: "c",
            default: false,
            fill: None,
            inner: &NONE,
        },
        PlanField {
            name: "inner",
            default: false,
            fill: None,
            inner: &INNER,
        },
        PlanField {
            name: "list",
            default: false,
            fill: None,
            inner: &Plan::Items(&INNER),
        },
        PlanField {
            name: "map",
            default: false,
            fill: None,
            inner: &Plan::Values(&INNER),
        },
        PlanField {
            name: "pair",
            default: false,
            fill: None,
            inner: &Plan::Tuple(&[Plan::None, INNER]),
        },
    ],
    &[],
);

fn strip(text: &str) -> Option<String> {
    strip_text(text, &ROOT, &mut Conflicts::default())
}

#[test]
fn drops_first_middle_last_and_all() {
    assert_eq!(strip(r#"{"a":null}"#).as_deref(), Some("{}"));
    assert_eq!(strip(r#"{"a":null,"c":1}"#).as_deref(), Some(r#"{"c":1}"#));
    assert_eq!(strip(r#"{"c":1,"a":null}"#).as_deref(), Some(r#"{"c":1}"#));
    assert_eq!(
        strip(r#"{"c":1,"a":null,"d":2}"#).as_deref(),
        Some(r#"{"c":1,"d":2}"#)
    );
    assert_eq!(strip(r#"{"a":null,"b":null}"#).as_deref(), Some("{}"));
    assert_eq!(
        strip(r#"{"a":null,"c":1,"b":null}"#).as_deref(),
        Some(r#"{"c":1}"#)
    );
    assert_eq!(
        strip(r#"{"c":1,"a":null,"b":null,"d":2}"#).as_deref(),
        Some(r#"{"c":1,"d":2}"#)
    );
}

#[test]
fn keeps_what_has_no_default() {
    assert_eq!(strip(r#"{"c":null}"#), None);
    assert_eq!(strip(r#"{"z":null}"#), None);
    assert_eq!(strip(r#"{"a":1,"b":"null"}"#), None);
    assert_eq!(strip(r#"{"c":{"a":null}}"#), None);
    assert_eq!(strip(r#"{"inner":{"a":null}}"#), None);
    assert_eq!(strip(r#"[{"a":null}]"#), None);
    assert_eq!(strip(r#""{\"a\":null}""#), None);
}

#[test]
fn whitespace_around_separators() {
    assert_eq!(
        strip(" { \"a\" : null , \"c\" : 1 } ").as_deref(),
        Some(" {  \"c\" : 1 } ")
    );
    assert_eq!(
        strip("{\n  \"c\": 1,\n  \"a\": null\n}").as_deref(),
        Some("{\n  \"c\": 1\n}")
    );
    assert_eq!(strip("{\"a\"\t:\tnull\r\n}").as_deref(), Some("{\r\n}"));
}

#[test]
fn nested_arrays_maps_tuples() {
    assert_eq!(
        strip(r#"{"inner":{"x":null,"y":1}}"#).as_deref(),
        Some(r#"{"inner":{"y":1}}"#)
    );
    assert_eq!(
        strip(r#"{"list":[{"x":null},{"x":1},{"y":[null],"x":null}]}"#).as_deref(),
        Some(r#"{"list":[{},{"x":1},{"y":[null]}]}"#)
    );
    assert_eq!(
        strip(r#"{"map":{"k":{"x":null},"x":null}}"#).as_deref(),
        Some(r#"{"map":{"k":{},"x":null}}"#)
    );
    assert_eq!(
        strip(r#"{"pair":[{"x":null},{"x":null}]}"#).as_deref(),
        Some(r#"{"pair":[{"x":null},{}]}"#)
    );
}

#[test]
fn escaped_keys_compare_decoded() {
    assert_eq!(strip(r#"{"\u0061":null}"#).as_deref(), Some("{}"));
    assert_eq!(strip(r#"{"\"a":null}"#), None);
    assert_eq!(
        strip(r#"{"c":"\"}\\","a":null}"#).as_deref(),
        Some(r#"{"c":"\"}\\"}"#)
    );
}

#[test]
fn repeated_keys_are_left_to_serde() {
    assert_eq!(strip(r#"{"a":null,"a":1}"#), None);
    assert_eq!(strip(r#"{"a":1,"a":null}"#), None);
    assert_eq!(strip(r#"{"a":null,"\u0061":null}"#), None);
    assert_eq!(
        strip(r#"{"a":null,"b":null,"c":1}"#).as_deref(),
        Some(r#"{"c":1}"#)
    );
}

#[test]
fn never_makes_malformed_text_json() {
    for text in [
        r#"{"a":null"#,
        r#"{"a":null,"#,
        r#"{"a":null,}"#,
        r#"{"a":null "c":1}"#,
        r#"{"c":1 "a":null}"#,
        r#"{"a" null}"#,
        r#"{"a":nul}"#,
        r#"{"a":nullx}"#,
        r#"{"a":null}x"#,
        r#"{"a":null}}"#,
        r#"{"a":null,"c":[1,}"#,
        r#"{"a":null,"c":01}"#,
        r#"{"a":null,"c":1.}"#,
        r#"{"a":null,"c":"\x"}"#,
        "{\"a\":null,\"c\":\"\u{1}\"}",
        r#"{"a":null,"c":"\ud8"}"#,
        r#"{"\ud800":null}"#,
        r#"{"a":null,"c":]}"#,
        r#"{"a":null,"c":[1]]}"#,
        r#"{"a":null,"c":{"x":1]}"#,
        "",
        "   ",
    ] {
        // Given up on, or (where a skipped part is wrong) still not JSON.
        if let Some(stripped) = strip(text) {
            assert!(
                serde_json::from_str::<Value>(&stripped).is_err(),
                "{text} -> {stripped}"
            );
        }
    }
    // Where the stripper reads, it gives up.
    for text in [
        r#"{"a":null"#,
        r#"{"a":null,}"#,
        r#"{"c":1 "a":null}"#,
        r#"{"a":null}x"#,
    ] {
        assert_eq!(strip(text), None, "{text}");
    }
}

#[test]
fn depth_is_bounded() {
    fn tree() -> &'static Plan {
        &TREE
    }
    const TREE: Plan = Plan::object(
        &[
            PlanField {
                name: "a",
                default: true,
                fill: None,
                inner: &NONE,
            },
            PlanField {
                name: "kids",
                default: false,
                fill: None,
                inner: &Plan::Items(&Plan::Lazy(Reach::Plan(tree))),
            },
        ],
        &[],
    );
    let nested = |depth: usize| {
        format!(
            r#"{}{{"a":null}}{}"#,
            r#"{"a":null,"kids":["#.repeat(depth),
            "]}".repeat(depth)
        )
    };
    let stripped = strip_text(&nested(60), &TREE, &mut Conflicts::default()).unwrap();
    assert_eq!(stripped.matches("null").count(), 0);
    assert_eq!(
        strip_text(&nested(64), &TREE, &mut Conflicts::default()),
        None
    );
    assert_eq!(
        strip_text(&nested(100_000), &TREE, &mut Conflicts::default()),
        None
    );
    // Skipped parts have no depth limit of their own: serde_json has one.
    let deep = format!(
        r#"{{"a":null,"c":{}{}}}"#,
        "[".repeat(1000),
        "]".repeat(1000)
    );
    assert!(strip(&deep).is_some());
}

#[test]
fn a_quick_look_spares_text_without_members_to_drop() {
    assert!(may_strip(br#"{"a":null}"#, &ROOT));
    assert!(may_strip(br#"{"c":1, "inner" : { "x" :  null }}"#, &ROOT));
    assert!(!may_strip(br#"{"c":null,"z":null,"list":[null]}"#, &ROOT));
    assert!(!may_strip(br#"{"c":"a: null","d":"b : null"}"#, &ROOT));
    assert!(!may_strip(br#"{"c":1}"#, &ROOT));
    // Keys with escapes, and text that looks like a member, go to the full pass.
    assert!(may_strip(br#"{"\u0061":null}"#, &ROOT));
    assert!(may_strip(br#"{"c":"\"a\": null"}"#, &ROOT));
    assert!(may_strip(br#"{"c":"x \"a\": null"}"#, &ROOT));
    assert_eq!(strip(r#"{"c":null,"z":null}"#), None);
    // Malformed text around the `null`: no member, nothing to drop.
    assert!(!may_strip(b"null", &ROOT));
    assert!(!may_strip(br#"[:null]"#, &ROOT));
    assert!(!may_strip(br#"a":null"#, &ROOT));
}

/// The word-at-a-time search finds what a byte-at-a-time one finds.
#[test]
fn find_null_finds_every_null() {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..5_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let len = (seed % 48) as usize;
        let mut bytes: Vec<u8> = (0..len)
            .map(|i| b"nulx"[((seed >> (i % 61)) as usize ^ i) % 4])
            .collect();
        if len > 4 && seed.is_multiple_of(3) {
            let at = (seed >> 20) as usize % (len - 3);
            bytes[at..at + 4].copy_from_slice(b"null");
        }
        let mut found = Vec::new();
        let mut from = 0;
        while let Some(at) = find_null(&bytes, from) {
            found.push(at);
            from = at + 1;
        }
        let naive: Vec<usize> = (0..len.saturating_sub(3))
            .filter(|&i| &bytes[i..i + 4] == b"null")
            .collect();
        assert_eq!(found, naive, "{:?}", String::from_utf8_lossy(&bytes));
    }
}

/// The word-at-a-time search stops where a byte-at-a-time one does.
#[test]
fn string_stop_finds_the_first_special_byte() {
    let alphabet = [
        b'a', b'"', b'\\', 0x1f, 0x20, 0x7f, 0x80, 0xff, 0x00, 0x21, 0x5c, 0x22,
    ];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..20_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let len = (seed % 40) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|i| {
                let pick = (seed >> (i % 60)) as usize ^ i;
                if pick.is_multiple_of(5) {
                    alphabet[pick / 5 % alphabet.len()]
                } else {
                    b'a' + (pick % 26) as u8
                }
            })
            .collect();
        for start in 0..=len {
            let naive = (start..len)
                .find(|&i| matches!(bytes[i], b'"' | b'\\' | 0..0x20))
                .unwrap_or(len);
            assert_eq!(string_stop(&bytes, start), naive, "{bytes:?} from {start}");
        }
    }
}

#[test]
fn self_referencing_trees_end() {
    fn root() -> &'static Plan {
        &LOOP
    }
    const LOOP: Plan = Plan::Any(&[
        Plan::Lazy(Reach::Plan(root)),
        Plan::Lazy(Reach::Plan(root)),
        Plan::object(
            &[],
            &[Plan::Lazy(Reach::Plan(root)), Plan::Lazy(Reach::Plan(root))],
        ),
    ]);
    assert_eq!(
        strip_text(r#"{"a":null}"#, &LOOP, &mut Conflicts::default()),
        None
    );
    let mut value = serde_json::json!({"a": null});
    strip_value(&mut value, &LOOP);
    assert_eq!(value, serde_json::json!({"a": null}));
    fill_value(&mut value, &LOOP);
    assert_eq!(value, serde_json::json!({"a": null}));
}

#[test]
fn filling_a_self_referencing_tree_ends() {
    fn root() -> &'static Plan {
        &FILLED
    }
    const FILLED: Plan = Plan::object(
        &[PlanField {
            name: "a",
            default: true,
            fill: Some(FillValue::of("[1]")),
            inner: &Plan::Items(&Plan::Lazy(Reach::Plan(root))),
        }],
        &[
            Plan::Lazy(Reach::Plan(root)),
            Plan::Any(&[Plan::Lazy(Reach::Plan(root))]),
        ],
    );
    // Each object gets its `a`; the array written in is filled in turn (its item is no
    // object), and the flattened loop ends.
    let mut value = serde_json::json!({"b": [{}]});
    fill_value(&mut value, &FILLED);
    assert_eq!(value, serde_json::json!({"b": [{}], "a": [1]}));
    let mut value = serde_json::json!({"a": [{}, {"a": []}]});
    fill_value(&mut value, &FILLED);
    assert_eq!(value, serde_json::json!({"a": [{"a": [1]}, {"a": []}]}));
    // Nothing below an untagged enum's alternatives.
    const UNTAGGED: Plan = Plan::Untagged(&[FILLED]);
    let mut value = serde_json::json!({});
    fill_value(&mut value, &UNTAGGED);
    assert_eq!(value, serde_json::json!({}));
}

#[test]
fn strips_values_like_text() {
    let mut value = serde_json::json!({
        "c": 1, "a": null, "b": 2, "inner": {"x": null},
        "list": [{"x": null}, {"x": 1}], "map": {"k": {"x": null}, "x": null},
        "pair": [{"x": null}, {"x": null}]
    });
    strip_value(&mut value, &ROOT);
    assert_eq!(
        value,
        serde_json::json!({
            "c": 1, "b": 2, "inner": {}, "list": [{}, {"x": 1}],
            "map": {"k": {}, "x": null}, "pair": [{"x": null}, {}]
        })
    );
}

/// What a type's facts say parsing has to do, and the plan built from them.
#[test]
fn facts_say_what_parsing_has_to_do() {
    use crate::schema::facts::{EnumRepr, Facts, Kid, Via};
    const DEFAULTED: &Facts = &Facts::defaulted(Some("1"), &[Kid::branch(&Facts::NONE)]);
    const OBJECT: &Facts = &Facts::node(0, true, [2, 0, 2], &[Kid::property("a", DEFAULTED)]);
    const ITEMS: &Facts = &Facts::node(0, false, [0; 3], &[Kid::via(Via::Items, OBJECT)]);
    const SET: &Facts = &Facts::node(0, false, [0; 3], &[Kid::via(Via::Items, &Facts::NONE)]).set();
    const UNTAGGED: &Facts =
        &Facts::enumeration(EnumRepr::Untagged, 0, 0, [0; 3], &[Kid::branch(OBJECT)]);
    const { assert!(OBJECT.strips() && OBJECT.fills() && OBJECT.fills_as_read()) };
    const { assert!(ITEMS.strips() && ITEMS.fills() && !ITEMS.checks()) };
    const { assert!(SET.checks() && !SET.strips()) };
    // Below an untagged enum's alternatives, `null`s are dropped, and nothing is filled in.
    const { assert!(UNTAGGED.strips() && !UNTAGGED.fills() && UNTAGGED.fills_anywhere()) };
    const { assert!(!UNTAGGED.fills_as_read()) };
    const { assert!(!Facts::NONE.strips() && !Facts::NONE.checks()) };
    // Constraints to check pass up through everything: an untagged enum, a kept field, a map's
    // values; what leads back counts as having some. They are no work for the plan.
    const CHECKED: &Facts = &Facts::NONE.constrained();
    const IN_UNTAGGED: &Facts =
        &Facts::enumeration(EnumRepr::Untagged, 0, 0, [0; 3], &[Kid::branch(CHECKED)]);
    const KEPT: &Facts = &Facts::keep(&[Kid::branch(CHECKED)]);
    const IN_MAP: &Facts = &Facts::NONE.values(KEPT);
    const {
        assert!(CHECKED.constrains() && IN_UNTAGGED.constrains() && KEPT.constrains());
        assert!(IN_MAP.constrains() && !UNTAGGED.constrains() && !Facts::NONE.constrains());
        assert!(!KEPT.strips() && !IN_MAP.strips());
    };
    assert!(matches!(crate::parse::plan::plan_for(IN_MAP), Plan::None));

    assert!(matches!(
        crate::parse::plan::plan_for(&Facts::NONE),
        Plan::None
    ));
    let Plan::Items(Plan::Object([field], [], _)) = crate::parse::plan::plan_for(ITEMS) else {
        panic!("an array of objects");
    };
    assert_eq!(
        (field.name, field.default, field.fill.map(|fill| fill.text)),
        ("a", true, Some("1"))
    );
    assert!(matches!(field.inner, Plan::None));
    assert!(matches!(
        crate::parse::plan::plan_for(SET),
        Plan::Unique(Plan::None)
    ));
    assert!(matches!(
        crate::parse::plan::plan_for(UNTAGGED),
        Plan::Untagged([Plan::Object([_], [], _)])
    ));
    // Built once: the same node each time.
    assert!(std::ptr::eq(
        crate::parse::plan::plan_for(ITEMS),
        crate::parse::plan::plan_for(ITEMS)
    ));
}

/// Objects of every ordered choice of up to 4 distinct members, with two kinds of spacing
/// (also for the wrapper's tests in `de.rs`).
pub(super) fn member_choices(pieces: &[&str]) -> Vec<String> {
    let mut texts = Vec::new();
    for mask in 1u32..(1 << pieces.len()) {
        if mask.count_ones() > 4 {
            continue;
        }
        let chosen: Vec<&str> = pieces
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, p)| *p)
            .collect();
        for spacing in [",", " ,\n "] {
            texts.push(format!("{{{}}}", chosen.join(spacing)));
        }
    }
    texts
}

/// Every text the stripper changes is JSON, and means the input without the members.
#[test]
fn disputed_nulls_are_kept_and_recorded() {
    const KEEP: Plan = Plan::object(
        &[PlanField {
            name: "note",
            default: false,
            fill: None,
            inner: &Plan::Keep,
        }],
        &[],
    );
    const DEFAULT: Plan = Plan::object(
        &[
            PlanField {
                name: "note",
                default: true,
                fill: None,
                inner: &NONE,
            },
            PlanField {
                name: "x",
                default: true,
                fill: None,
                inner: &NONE,
            },
        ],
        &[],
    );
    const EITHER: Plan = Plan::Any(&[KEEP, DEFAULT]);
    const LIST: Plan = Plan::object(
        &[PlanField {
            name: "list",
            default: false,
            fill: None,
            inner: &Plan::Items(&EITHER),
        }],
        &[],
    );
    // `x` is not disputed: it goes. `note` stays, and is recorded.
    let text = r#"{"list":[{"note":1,"x":null},{"x":null,"note":null}]}"#;
    let mut conflicts = Conflicts::default();
    assert_eq!(
        strip_text(text, &LIST, &mut conflicts).as_deref(),
        Some(r#"{"list":[{"note":1},{"note":null}]}"#)
    );
    assert!(conflicts.met);
    let mut value: Value = serde_json::from_str(text).unwrap();
    let mut conflicts = Conflicts {
        met: false,
        found: Some(Vec::new()),
    };
    strip_value_with(&mut value, &LIST, &mut conflicts);
    assert_eq!(
        value,
        serde_json::json!({"list": [{"note": 1}, {"note": null}]})
    );
    let found = conflicts.found.unwrap_or_default();
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].path,
        [Segment::Key("list".to_owned()), Segment::Index(1)]
    );
    assert_eq!(found[0].key, "note");
    // `KEEP` is the first alternative: keeping the `null` is the first choice.
    assert!(!found[0].default_first);
    // Without a dispute, nothing is recorded.
    let mut conflicts = Conflicts::default();
    strip_text(r#"{"list":[{"note":2}]}"#, &LIST, &mut conflicts);
    assert!(!conflicts.met);
}

#[test]
fn stripped_text_is_json() {
    let pieces = [
        r#""a":null"#,
        r#""b" : null"#,
        r#""c":null"#,
        r#""c":1"#,
        r#""inner":{"x":null}"#,
        r#""list":[{"x":null},{}]"#,
        r#""z":[null]"#,
    ];
    let mut count = 0;
    for text in member_choices(&pieces) {
        let Some(stripped) = strip(&text) else {
            continue;
        };
        count += 1;
        let parsed: Value =
            serde_json::from_str(&stripped).unwrap_or_else(|e| panic!("{text} -> {stripped}: {e}"));
        let mut expected: Value = serde_json::from_str(&text).unwrap();
        strip_value(&mut expected, &ROOT);
        assert_eq!(parsed, expected, "{text} -> {stripped}");
    }
    assert!(count > 100, "{count}");
}
