//! Tests of the parse plan and its walkers.
use super::lexer::string_stop;
use super::plan::{self, Reach};

type Plan = plan::Plan<'static>;
type PlanField = plan::PlanField<'static>;
type FillValue = plan::FillValue<'static>;
use super::sets::{Conflicts, Segment, with_nodes};
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

/// `text` read as a value and stripped by the `Value` walk, as compact JSON: `None` where
/// nothing was dropped.
fn strip(text: &str) -> Option<String> {
    let mut value: Value = serde_json::from_str(text).ok()?;
    let before = value.clone();
    strip_value(&mut value, &ROOT);
    (value != before).then(|| value.to_string())
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
    const UNTAGGED: Plan = Plan::Untagged(&[FILLED], None);
    let mut value = serde_json::json!({});
    fill_value(&mut value, &UNTAGGED);
    assert_eq!(value, serde_json::json!({}));
}

#[test]
fn strips_values() {
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
    use crate::schema::facts::{EnumRepr, Facts, Keywords, Kid, Via};
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
    // Keywords to check pass up through everything: an untagged enum, a kept field, a map's
    // values; what leads back counts as having some. The plan carries them.
    const RANGE: &Keywords = &Keywords {
        maximum: Some(5.0),
        ..Keywords::NONE
    };
    const CHECKED: &Facts = &Facts::keywords(RANGE, &[Kid::branch(&Facts::NONE)]);
    const IN_UNTAGGED: &Facts =
        &Facts::enumeration(EnumRepr::Untagged, 0, 0, [0; 3], &[Kid::branch(CHECKED)]);
    const KEPT: &Facts = &Facts::keep(&[Kid::branch(CHECKED)]);
    const IN_MAP: &Facts = &Facts::NONE.values(KEPT);
    const {
        assert!(CHECKED.constrains() && IN_UNTAGGED.constrains() && KEPT.constrains());
        assert!(IN_MAP.constrains() && !UNTAGGED.constrains() && !Facts::NONE.constrains());
        assert!(!KEPT.strips() && !IN_MAP.strips());
    };
    let Plan::Values(Plan::Check(keywords, None, Plan::None)) =
        crate::parse::plan::plan_for(IN_MAP)
    else {
        panic!("a map's values with keywords");
    };
    assert_eq!(keywords.maximum, Some(5.0));

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
        Plan::Untagged([Plan::Object([_], [], _)], None)
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
    assert!(conflicts.met);
    // Without a dispute, nothing is recorded.
    let mut value = serde_json::json!({"list": [{"note": 2}]});
    let mut conflicts = Conflicts::default();
    strip_value_with(&mut value, &LIST, &mut conflicts);
    assert!(!conflicts.met);
}
