//! Issue 3, serde fidelity: random values of the test types, serialized by serde, validate
//! against their schema and parse back (through `parse_args`, as a model's arguments would) to
//! the same value. Covers structs with options, vectors, sets and maps, `flatten`, and enums in
//! every serde representation.
//!
//! Issue 4 and 6: the same values against every provider dialect the schema has (OpenAI and
//! Anthropic strict, Gemini `parameters`); for OpenAI strict, with every optional property the
//! value leaves out sent as `null` instead, as a strict model must, which parses back to the same
//! value.

mod dialect_check;
mod serde_types;

use std::collections::BTreeMap;
use std::fmt::Debug;

use dialect_check::{validators, with_nulls, without_nulls};
use proptest::collection::{btree_map, btree_set, hash_map, vec};
use proptest::option;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_types::*;
use toolgen::{ArgsError, Dialect, Tool, ToolSchema};

/// Cases per property: enough to meet every variant many times, quick on two cores.
const CASES: u32 = 128;

/// Everything at once: enums of each representation inside vectors, options and maps, and a
/// flattened struct.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq, Clone)]
struct Mixed {
    external: Vec<External>,
    internal: Option<Internal>,
    adjacent: BTreeMap<String, Adjacent>,
    untagged: Vec<Untagged>,
    fallback: Option<VariantUntagged>,
    #[serde(flatten)]
    paging: Paging,
}

/// Short readable text, or any Unicode string (escapes, astral planes, controls).
fn text() -> impl Strategy<Value = String> {
    prop_oneof!["[a-zA-Z0-9 _-]{0,10}", any::<String>()]
}

/// Map keys.
fn key() -> impl Strategy<Value = String> {
    "[a-z]{1,6}"
}

/// Floats that survive a JSON round trip exactly.
fn quarter() -> impl Strategy<Value = f64> {
    (-4000i32..4000).prop_map(|n| f64::from(n) / 4.0)
}

fn point() -> impl Strategy<Value = Point> {
    (any::<i32>(), any::<i32>()).prop_map(|(x, y)| Point { x, y })
}

fn external() -> impl Strategy<Value = External> {
    prop_oneof![
        Just(External::Stop),
        Just(External::Pause),
        any::<u32>().prop_map(External::Wait),
        point().prop_map(External::Goto),
        (any::<u8>(), text()).prop_map(|(n, s)| External::Pair(n, s)),
        (any::<i32>(), option::of(any::<i32>())).prop_map(|(dx, dy)| External::Move { dx, dy }),
    ]
}

fn internal() -> impl Strategy<Value = Internal> {
    // A label named like the tag would be written twice.
    let labels = btree_map(
        key().prop_filter("the tag", |k| k != "kind"),
        any::<u32>(),
        0..4,
    );
    prop_oneof![
        Just(Internal::Stop),
        point().prop_map(Internal::Goto),
        labels.prop_map(Internal::Labels),
        (any::<i32>(), option::of(any::<i32>())).prop_map(|(dx, dy)| Internal::Move { dx, dy }),
    ]
}

fn adjacent() -> impl Strategy<Value = Adjacent> {
    prop_oneof![
        Just(Adjacent::Stop),
        any::<u32>().prop_map(Adjacent::Wait),
        option::of(text()).prop_map(Adjacent::Note),
        (any::<u8>(), text()).prop_map(|(n, s)| Adjacent::Pair(n, s)),
        (any::<i32>(), option::of(any::<i32>())).prop_map(|(dx, dy)| Adjacent::Move { dx, dy }),
    ]
}

fn untagged() -> impl Strategy<Value = Untagged> {
    prop_oneof![
        Just(Untagged::Nothing),
        text().prop_map(Untagged::Word),
        (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Untagged::Pair(a, b)),
        (text(), any::<u32>()).prop_map(|(name, count)| Untagged::Named { name, count }),
    ]
}

fn variant_untagged() -> impl Strategy<Value = VariantUntagged> {
    prop_oneof![
        Just(VariantUntagged::Auto),
        any::<u32>().prop_map(|value| VariantUntagged::Fixed { value }),
        // "Auto" is read as the tagged unit variant, which serde tries first.
        text()
            .prop_filter("a tagged variant's name", |s| s != "Auto")
            .prop_map(VariantUntagged::Raw),
    ]
}

fn paging() -> impl Strategy<Value = Paging> {
    (any::<u32>(), option::of(any::<u8>())).prop_map(|(page, per_page)| Paging { page, per_page })
}

fn mixed() -> impl Strategy<Value = Mixed> {
    (
        vec(external(), 0..4),
        option::of(internal()),
        btree_map(key(), adjacent(), 0..4),
        vec(untagged(), 0..4),
        option::of(variant_untagged()),
        paging(),
    )
        .prop_map(
            |(external, internal, adjacent, untagged, fallback, paging)| Mixed {
                external,
                internal,
                adjacent,
                untagged,
                fallback,
                paging,
            },
        )
}

fn node_tree() -> impl Strategy<Value = NodeTree> {
    let leaf = (text(), option::of(text())).prop_map(|(title, note)| NodeTree {
        title,
        note,
        children: None,
    });
    leaf.prop_recursive(3, 12, 3, |inner| {
        (text(), option::of(text()), option::of(vec(inner, 0..3))).prop_map(
            |(title, note, children)| NodeTree {
                title,
                note,
                children,
            },
        )
    })
}

/// An operation's `id`, `targetNodeId` and `description`.
fn ids() -> impl Strategy<Value = (String, String, String)> {
    (text(), text(), text())
}

fn operation() -> impl Strategy<Value = Operation> {
    prop_oneof![
        (ids(), text()).prop_map(|((id, target_node_id, description), title)| {
            Operation::AddChild {
                id,
                target_node_id,
                description,
                title,
            }
        }),
        (ids(), vec(node_tree(), 0..3)).prop_map(
            |((id, target_node_id, description), children)| Operation::AddChildTrees {
                id,
                target_node_id,
                description,
                children,
            }
        ),
        (ids(), text()).prop_map(|((id, target_node_id, description), title)| {
            Operation::UpdateTitle {
                id,
                target_node_id,
                description,
                title,
            }
        }),
        (ids(), option::of(text())).prop_map(|((id, target_node_id, description), note)| {
            Operation::UpdateNote {
                id,
                target_node_id,
                description,
                note,
            }
        }),
        ids().prop_map(|(id, target_node_id, description)| {
            Operation::DeleteNode(DeleteTarget {
                id,
                target_node_id,
                description,
            })
        }),
    ]
}

fn field_defaults() -> impl Strategy<Value = FieldDefaults> {
    let speed = prop_oneof![Just(Speed::Slow), Just(Speed::Fast)];
    let margins = (any::<u8>(), any::<u8>()).prop_map(|(top, bottom)| Margins { top, bottom });
    (
        (any::<bool>(), any::<u32>(), any::<i64>(), quarter()),
        (text(), vec(text(), 0..3), btree_set(any::<u8>(), 0..4)),
        (hash_map(key(), any::<u8>(), 0..4), option::of(any::<u32>())),
        (speed, margins, any::<u32>()),
    )
        .prop_map(
            |(
                (flag, count, offset, ratio),
                (name, tags, unique),
                (scores, limit),
                (speed, margins, id),
            )| FieldDefaults {
                flag,
                count,
                offset,
                ratio,
                name,
                tags,
                unique,
                scores,
                limit,
                speed,
                margins,
                id,
            },
        )
}

fn flatten_map() -> impl Strategy<Value = FlattenMap> {
    // An extra property named like the struct's own field would be written twice.
    let extra = btree_map(key().prop_filter("the field", |k| k != "id"), text(), 0..4);
    (any::<u32>(), extra).prop_map(|(id, extra)| FlattenMap { id, extra })
}

/// A value, or (half the time) the `#[tool(default)]` value.
fn or_default<T: Clone + Debug + 'static>(
    default: T,
    other: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<T> {
    prop_oneof![Just(default), other].boxed()
}

fn place_order() -> impl Strategy<Value = PlaceOrder> {
    let style = (
        or_default("plain".to_owned(), text()),
        or_default(12, any::<u8>()),
    )
        .prop_map(|(font, size)| Style { font, size });
    let item =
        (text(), or_default(1, any::<u32>())).prop_map(|(name, quantity)| Item { name, quantity });
    let shipping = prop_oneof![
        Just(Shipping::Pickup),
        (
            or_default(false, any::<bool>()),
            or_default("front door".to_owned(), text())
        )
            .prop_map(|(express, drop_at)| Shipping::Courier { express, drop_at }),
    ];
    (
        (
            text(),
            or_default(true, any::<bool>()),
            or_default(2.5, quarter()),
        ),
        (
            or_default(Vec::new(), vec(text(), 1..3)),
            or_default(Speed::Slow, Just(Speed::Fast)),
        ),
        (style, vec(item, 0..3), shipping),
    )
        .prop_map(
            |((customer, notify, tip), (coupons, speed), (style, items, shipping))| PlaceOrder {
                customer,
                notify,
                tip,
                coupons,
                speed,
                style,
                items,
                shipping,
            },
        )
}

/// Removes the properties of `PlaceOrder` JSON that hold their `#[tool(default)]` value, as a
/// model may leave them out.
fn prune_defaults(order: &mut Value) {
    fn prune(object: &mut Value, defaults: &[(&str, Value)]) {
        if let Some(map) = object.as_object_mut() {
            for (key, default) in defaults {
                if map.get(*key) == Some(default) {
                    map.shift_remove(*key);
                }
            }
        }
    }
    use serde_json::json;
    prune(
        order,
        &[
            ("notify", json!(true)),
            ("tip", json!(2.5)),
            ("coupons", json!([])),
            ("speed", json!("Slow")),
        ],
    );
    prune(
        &mut order["style"],
        &[("font", json!("plain")), ("size", json!(12))],
    );
    if let Some(items) = order["items"].as_array_mut() {
        for item in items {
            prune(item, &[("quantity", json!(1))]);
        }
    }
    prune(
        &mut order["shipping"],
        &[("express", json!(false)), ("drop_at", json!("front door"))],
    );
}

/// Runs `CASES` random values through: serialize, validate against `schema` and each of its
/// dialects, `parse` the text back, compare. `prepare` may change the JSON first (e.g. leave out
/// defaults). For OpenAI strict the JSON sends `null` for what it leaves out. Returns how many
/// cases ran.
fn round_trip<T, S>(
    name: &str,
    schema: &str,
    strategy: S,
    prepare: fn(&mut Value),
    parse: fn(&str) -> Result<T, ArgsError>,
) -> u32
where
    T: Serialize + PartialEq + Debug,
    S: Strategy<Value = T>,
{
    let standard: Value = serde_json::from_str(schema).expect("the schema is JSON");
    let validators = validators(name, schema);
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let count = std::cell::Cell::new(0);
    let result = runner.run(&strategy, |value| {
        count.set(count.get() + 1);
        let mut json =
            serde_json::to_value(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prepare(&mut json);
        // serde writes `None` as `null`; a model leaves an optional field out.
        without_nulls(&mut json, &standard, &standard);
        for (dialect, validator) in &validators {
            let mut sent = json.clone();
            if *dialect == Dialect::OpenAiStrict {
                with_nulls(&mut sent, &standard, &standard);
            }
            let errors: Vec<String> = validator
                .iter_errors(&sent)
                .map(|e| format!("{} at `{}`", e, e.instance_path()))
                .collect();
            prop_assert!(
                errors.is_empty(),
                "{dialect:?}: {sent} does not validate: {errors:?}"
            );
            let back = parse(&sent.to_string()).map_err(|e| {
                TestCaseError::fail(format!("{dialect:?}: {sent} does not parse: {e}"))
            })?;
            prop_assert_eq!(&back, &value, "{:?}", dialect);
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{name}: {failure}");
    }
    let dialects: Vec<Dialect> = validators.iter().map(|(d, _)| *d).collect();
    println!("{name}: {} cases, each in {dialects:?}", count.get());
    DIALECT_CASES.fetch_add(
        count.get() * dialects.len() as u32,
        std::sync::atomic::Ordering::Relaxed,
    );
    count.get()
}

/// Cases run, counted once per dialect.
static DIALECT_CASES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

fn schema_of<T: ToolSchema>() -> String {
    T::json_schema()
}

fn unchanged(_: &mut Value) {}

#[test]
fn enums_of_every_representation() {
    let cases = round_trip(
        "Mixed",
        Mixed::INPUT_SCHEMA,
        mixed(),
        unchanged,
        Mixed::parse_args,
    );
    assert!(cases >= CASES);
}

#[test]
fn each_representation_on_its_own() {
    let cases = round_trip(
        "External",
        &schema_of::<External>(),
        external(),
        unchanged,
        toolgen::parse_args,
    ) + round_trip(
        "Internal",
        &schema_of::<Internal>(),
        internal(),
        unchanged,
        toolgen::parse_args,
    ) + round_trip(
        "Adjacent",
        &schema_of::<Adjacent>(),
        adjacent(),
        unchanged,
        toolgen::parse_args,
    ) + round_trip(
        "Untagged",
        &schema_of::<Untagged>(),
        untagged(),
        unchanged,
        toolgen::parse_args,
    ) + round_trip(
        "VariantUntagged",
        &schema_of::<VariantUntagged>(),
        variant_untagged(),
        unchanged,
        toolgen::parse_args,
    );
    assert!(cases >= 5 * CASES);
}

#[test]
fn mind_map_operations() {
    let strategy = vec(operation(), 0..4).prop_map(|operations| SuggestOperations { operations });
    let cases = round_trip(
        "SuggestOperations",
        SuggestOperations::INPUT_SCHEMA,
        strategy,
        unchanged,
        SuggestOperations::parse_args,
    );
    assert!(cases >= CASES);
}

#[test]
fn field_defaults_and_flattened_maps() {
    let cases = round_trip(
        "FieldDefaults",
        &schema_of::<FieldDefaults>(),
        field_defaults(),
        unchanged,
        toolgen::parse_args,
    ) + round_trip(
        "FlattenMap",
        &schema_of::<FlattenMap>(),
        flatten_map(),
        unchanged,
        toolgen::parse_args,
    );
    assert!(cases >= 2 * CASES);
}

#[test]
fn tool_defaults_left_out() {
    let cases = round_trip(
        "PlaceOrder (complete)",
        PlaceOrder::INPUT_SCHEMA,
        place_order(),
        unchanged,
        PlaceOrder::parse_args,
    ) + round_trip(
        "PlaceOrder (defaults left out)",
        PlaceOrder::INPUT_SCHEMA,
        place_order(),
        prune_defaults,
        PlaceOrder::parse_args,
    );
    assert!(cases >= 2 * CASES);
}
