//! Issue 15: `ToolSchema` for other crates' types, behind cargo features named as schemars names
//! them. Each schema is held against the crate's own `Deserialize`: values the crate writes
//! validate (and parse back equal through a tool), inputs the schema refuses are refused by the
//! crate too, and the inputs only the crate reads are listed with the reason.
//!
//! Run with `cargo test --all-features --test ecosystem` (CI does); without the features there
//! is nothing to test here.
#![cfg(all(
    feature = "uuid1",
    feature = "chrono04",
    feature = "url2",
    feature = "indexmap2",
    feature = "smallvec1",
    feature = "arrayvec07",
    feature = "smol_str02",
    feature = "semver1",
    feature = "bytes1",
    feature = "rust_decimal1",
    feature = "bigdecimal04",
    feature = "jiff02",
    feature = "time03",
    feature = "either1"
))]

use std::fmt::Debug;

use pretty_assertions::assert_eq;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolgen::__private::ecosystem::{
    arrayvec, bigdecimal, bytes, chrono, either, indexmap, jiff, rust_decimal, semver, smallvec,
    smol_str, time, url, uuid,
};
use toolgen::{Dialect, Provider, Tool, ToolSchema};

/// The schema of `T`, parsed.
fn schema_of<T: ToolSchema>() -> Value {
    serde_json::from_str(&T::json_schema()).expect("the schema is JSON")
}

/// A validator for `T`'s schema that checks formats, as a strict reader of the schema would.
fn validator_of<T: ToolSchema>() -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema_of::<T>())
        .expect("the schema compiles")
}

/// `T`'s schema is `expected`; the crate's own values validate; `accept` are read by both the
/// crate and the schema, `reject` by neither, and `crate_only` by the crate alone (its looser
/// spellings, which the schema does not offer).
#[track_caller]
fn holds<T: ToolSchema + DeserializeOwned + Serialize + PartialEq + Debug>(
    expected: Value,
    values: &[T],
    accept: &[Value],
    reject: &[Value],
    crate_only: &[Value],
) {
    assert_eq!(schema_of::<T>(), expected);
    jsonschema::meta::validate(&expected).expect("a valid JSON Schema");
    let validator = validator_of::<T>();
    for value in values {
        let written = serde_json::to_value(value).expect("the crate writes it");
        assert!(
            validator.is_valid(&written),
            "{written} is what the crate writes"
        );
        let read: T = serde_json::from_value(written.clone()).expect("the crate reads it back");
        assert_eq!(&read, value);
    }
    for input in accept {
        assert!(validator.is_valid(input), "the schema refuses {input}");
        assert!(
            serde_json::from_value::<T>(input.clone()).is_ok(),
            "the crate refuses {input}"
        );
    }
    for input in reject {
        assert!(!validator.is_valid(input), "the schema accepts {input}");
        assert!(
            serde_json::from_value::<T>(input.clone()).is_err(),
            "the crate accepts {input}"
        );
    }
    for input in crate_only {
        assert!(!validator.is_valid(input), "the schema accepts {input}");
        assert!(
            serde_json::from_value::<T>(input.clone()).is_ok(),
            "the crate refuses {input}: not a looser spelling after all"
        );
    }
}

/// Values of other JSON types than a string: refused by every string schema here.
fn not_strings() -> Vec<Value> {
    vec![json!(null), json!(7), json!(true), json!([]), json!({})]
}

#[test]
fn uuid() {
    let id = uuid::Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8);
    let mut reject = not_strings();
    reject.extend([
        json!("67e55044-10b1-426f-9247-bb680e5fe0c"),
        json!("not a uuid"),
    ]);
    holds(
        json!({"type": "string", "format": "uuid"}),
        &[id, uuid::Uuid::nil()],
        &[
            json!("67e55044-10b1-426f-9247-bb680e5fe0c8"),
            json!("67E55044-10B1-426F-9247-BB680E5FE0C8"),
        ],
        &reject,
        &[
            json!("67e5504410b1426f9247bb680e5fe0c8"),
            json!("{67e55044-10b1-426f-9247-bb680e5fe0c8}"),
            json!("urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8"),
        ],
    );
}

#[test]
fn url() {
    let mut reject = not_strings();
    reject.extend([json!("no scheme here"), json!("")]);
    holds(
        json!({"type": "string", "format": "uri"}),
        &[url::Url::parse("https://example.com/a?b=c#d").unwrap()],
        &[
            json!("https://example.com/"),
            json!("mailto:someone@example.com"),
        ],
        &reject,
        // The WHATWG URL parser mends what RFC 3986 refuses (a space, a backslash).
        &[
            json!("https://example.com/a b"),
            json!("https:\\\\example.com"),
        ],
    );
}

#[test]
fn chrono_date_times() {
    use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Utc};
    let mut reject = not_strings();
    reject.extend([json!("2024-13-01T00:00:00Z"), json!("yesterday")]);
    holds(
        json!({"type": "string", "format": "date-time"}),
        &[DateTime::<Utc>::from_timestamp(1_700_000_000, 5_000).unwrap()],
        &[
            json!("2024-02-29T12:30:00Z"),
            json!("2024-02-29T12:30:00.125+02:00"),
        ],
        &reject,
        &[
            json!("2024-02-29 12:30:00Z"),
            json!("2024-02-29T12:30:00+0200"),
        ],
    );
    holds(
        json!({"type": "string", "format": "date-time"}),
        &[DateTime::<FixedOffset>::parse_from_rfc3339("2024-02-29T12:30:00-05:00").unwrap()],
        &[json!("2024-02-29T12:30:00-05:00")],
        &[json!("2024-02-29"), json!(0)],
        &[],
    );
    holds(
        json!({"type": "string", "format": "date"}),
        &[NaiveDate::from_ymd_opt(2024, 2, 29).unwrap()],
        &[json!("2024-02-29")],
        &[json!("2024-02-30"), json!("2024-2-3x"), json!(20240229)],
        &[],
    );
    holds(
        json!({
            "type": "string",
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?$",
        }),
        &[NaiveDate::from_ymd_opt(2024, 2, 29)
            .unwrap()
            .and_hms_milli_opt(12, 30, 0, 250)
            .unwrap()],
        &[json!("2024-02-29T12:30:00"), json!("2024-02-29T12:30:00.5")],
        &[
            json!("2024-02-29T12:30:00Z"),
            json!("2024-02-29"),
            json!("2024-02-29T12:30"),
        ],
        &[],
    );
    holds(
        json!({"type": "string", "pattern": "^[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?$"}),
        &[NaiveTime::from_hms_opt(23, 59, 1).unwrap()],
        &[json!("23:59:01"), json!("00:00:00.000001")],
        &[json!("12:30:00Z"), json!("noon")],
        &[json!("23:59")],
    );
    // `NaiveDateTime` and `NaiveTime` have no offset: not JSON Schema `date-time` or `time`.
    let _: Option<NaiveDateTime> = None;
}

#[test]
fn semver() {
    let pattern = concat!(
        r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)",
        r"(-((0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?",
        r"(\+([0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*))?$",
    );
    let mut reject = not_strings();
    reject.extend([
        json!("1.2"),
        json!("v1.2.3"),
        json!("01.2.3"),
        json!("1.2.3-01"),
        json!("1.2.3+"),
        json!("1.2.3 "),
    ]);
    holds(
        json!({"type": "string", "pattern": pattern}),
        &[
            semver::Version::parse("1.2.3-alpha.1+build.5").unwrap(),
            semver::Version::new(0, 0, 0),
        ],
        &[
            json!("10.20.30"),
            json!("1.0.0-rc.1"),
            json!("1.0.0-0.3.7"),
            json!("1.0.0+20130313144700"),
            json!("1.0.0-x-y-z.--"),
        ],
        &reject,
        &[],
    );
}

#[test]
fn bytes() {
    holds(
        json!({"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}}),
        &[bytes::Bytes::from_static(b"\x00\xffabc")],
        &[json!([]), json!([0, 255])],
        &[json!([256]), json!([-1]), json!(null), json!(7)],
        &[json!("text")],
    );
}

#[test]
fn rust_decimal() {
    use std::str::FromStr;
    let mut reject = not_strings();
    reject.retain(|v| !v.is_number());
    reject.extend([json!("1.2.3"), json!("ten"), json!("")]);
    holds(
        json!({"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$", }),
        &[
            rust_decimal::Decimal::from_str("-12.500").unwrap(),
            rust_decimal::Decimal::from_str("0").unwrap(),
        ],
        &[json!("12.50"), json!("-0.001"), json!("7")],
        &reject,
        &[json!(12.5), json!(7), json!("1_000"), json!(".5")],
    );
}

/// jiff's durations: ISO 8601, seconds with a fraction.
const DURATION: &str =
    r"^-?P([0-9]+Y)?([0-9]+M)?([0-9]+W)?([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+(\.[0-9]+)?S)?)?$";

#[test]
fn bigdecimal() {
    use std::str::FromStr;
    let mut reject = not_strings();
    reject.retain(|v| !v.is_number());
    reject.extend([json!("1.2.3"), json!("ten"), json!("")]);
    holds(
        json!({"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"}),
        &[
            bigdecimal::BigDecimal::from_str("-12.500").unwrap(),
            bigdecimal::BigDecimal::from_str("123456789012345678901234567890.5").unwrap(),
        ],
        &[json!("12.50"), json!("-0.001"), json!("7")],
        &reject,
        &[json!(12.5), json!(7), json!("1e3")],
    );
}

#[test]
fn jiff_date_times() {
    use jiff::civil::{Date, DateTime, Time};
    use jiff::{SignedDuration, Span, Timestamp, Zoned};
    let mut reject = not_strings();
    reject.extend([json!("2024-13-01T00:00:00Z"), json!("yesterday")]);
    holds(
        json!({"type": "string", "format": "date-time"}),
        &[Timestamp::from_second(1_700_000_000).unwrap()],
        &[
            json!("2024-02-29T12:30:00Z"),
            json!("2024-02-29T12:30:00.125+02:00"),
        ],
        &reject,
        &[json!("2024-02-29 12:30:00Z")],
    );
    holds(
        json!({
            "type": "string",
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?([Zz]|[+-][0-9]{2}:[0-9]{2})?\\[[^\\]]+\\]$",
        }),
        // Zones that need no time zone database (this test builds jiff without one).
        &["2024-03-10T01:30:00+02:00[+02:00]"
            .parse::<Zoned>()
            .unwrap()],
        &[
            json!("2024-06-19T15:22:45+02:00[+02:00]"),
            json!("2024-06-19T15:22:45.5-03:00[-03:00]"),
        ],
        &[
            json!("2024-06-19T15:22:45+02:00"),
            json!("2024-06-19T15:22:45"),
            json!(0),
        ],
        &[],
    );
    holds(
        json!({"type": "string", "format": "date"}),
        &[Date::new(2024, 2, 29).unwrap()],
        &[json!("2024-02-29")],
        &[json!("2024-02-30"), json!(20240229)],
        &[],
    );
    holds(
        json!({
            "type": "string",
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?$",
        }),
        &[DateTime::new(2024, 2, 29, 12, 30, 0, 250_000_000).unwrap()],
        &[json!("2024-02-29T12:30:00"), json!("2024-02-29T12:30:00.5")],
        &[json!("2024-02-29T12:30:00Z"), json!(0)],
        &[json!("2024-02-29T12:30"), json!("2024-02-29")],
    );
    holds(
        json!({"type": "string", "pattern": "^[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?$"}),
        &[Time::new(23, 59, 1, 0).unwrap()],
        &[json!("23:59:01"), json!("00:00:00.000001")],
        &[json!("noon"), json!(0)],
        &[json!("23:59")],
    );
    let duration = json!({"type": "string", "pattern": DURATION});
    holds(
        duration.clone(),
        &[
            SignedDuration::from_secs(5400),
            SignedDuration::from_millis(-1500),
        ],
        &[json!("PT1H30M"), json!("PT0.5S")],
        &[json!("an hour"), json!(0)],
        &[json!("1h 30m")],
    );
    // `Span` has no `PartialEq` (two spans compare field by field): its round trip is checked
    // on what it writes.
    let written = serde_json::to_value(Span::new().days(2).hours(3)).unwrap();
    assert!(validator_of::<Span>().is_valid(&written), "{written}");
    let read: Span = serde_json::from_value(written.clone()).unwrap();
    assert_eq!(serde_json::to_value(read).unwrap(), written);
    assert_eq!(schema_of::<Span>(), duration);
    for input in [json!("P2DT3H"), json!("P1W")] {
        assert!(validator_of::<Span>().is_valid(&input));
        assert!(serde_json::from_value::<Span>(input).is_ok());
    }
    for input in [json!("two days"), json!(0)] {
        assert!(!validator_of::<Span>().is_valid(&input));
        assert!(serde_json::from_value::<Span>(input).is_err());
    }
    let friendly = json!("2 days 3 hours");
    assert!(!validator_of::<Span>().is_valid(&friendly));
    assert!(serde_json::from_value::<Span>(friendly).is_ok());
}

/// time's human-readable forms (`time03` turns them on): its own spellings, not RFC 3339, with
/// a fraction of a second always written. time also reads its arrays of numbers.
#[test]
fn time_dates_and_times() {
    use time::{Date, Duration, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};
    let date = Date::from_calendar_date(2024, Month::February, 29).unwrap();
    let at = Time::from_hms_nano(13, 5, 9, 500_000_000).unwrap();
    let plain = PrimitiveDateTime::new(date, at);
    let offset = UtcOffset::from_hms(1, 30, 0).unwrap();

    let mut reject = not_strings();
    reject.extend([json!("2024-13-01"), json!("2024-2-29"), json!("today")]);
    holds(
        json!({"type": "string", "format": "date"}),
        &[
            date,
            Date::from_calendar_date(1, Month::January, 1).unwrap(),
        ],
        &[json!("2024-01-05"), json!("9999-12-31")],
        &reject,
        // The array form: year and day of the year.
        &[json!([2024, 60])],
    );

    let mut reject = not_strings();
    reject.extend([
        json!("2024-02-29T13:05:09Z"),
        json!("2024-02-29 13:05:09 +01:00:00"),
        json!("2024-02-29 13:05:09.5 +01:00"),
    ]);
    holds(
        json!({
            "type": "string",
            "pattern": r"^-?[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{1,9} [+-][0-9]{2}:[0-9]{2}:[0-9]{2}$",
        }),
        &[plain.assume_offset(offset), OffsetDateTime::UNIX_EPOCH],
        &[
            json!("2024-02-29 13:05:09.0 +00:00:00"),
            json!("2024-02-29 13:05:09.123456789 -05:00:00"),
        ],
        &reject,
        &[json!([2024, 60, 13, 5, 9, 0, 1, 30, 0])],
    );

    let mut reject = not_strings();
    reject.extend([json!("2024-02-29T13:05:09.5"), json!("2024-02-29 13:05:09")]);
    holds(
        json!({
            "type": "string",
            "pattern": r"^-?[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{1,9}$",
        }),
        &[plain],
        &[json!("2024-02-29 00:00:00.0")],
        &reject,
        &[json!([2024, 60, 13, 5, 9, 0])],
    );

    let mut reject = not_strings();
    reject.extend([json!("13:05:09"), json!("13:05"), json!("13:05:09.5Z")]);
    holds(
        json!({
            "type": "string",
            "pattern": r"^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{1,9}$",
        }),
        &[at, Time::MIDNIGHT],
        &[json!("23:59:59.999999999")],
        &reject,
        &[json!([13, 5, 9, 0])],
    );

    let mut reject = not_strings();
    reject.extend([json!("+01:30"), json!("01:30:00"), json!("Z")]);
    holds(
        json!({"type": "string", "pattern": r"^[+-][0-9]{2}:[0-9]{2}:[0-9]{2}$"}),
        &[offset, UtcOffset::UTC],
        &[json!("-05:00:00")],
        &reject,
        &[json!([1, 30, 0])],
    );

    let mut reject = not_strings();
    reject.extend([
        json!("90"),
        json!("90."),
        json!("PT90S"),
        json!("1.5s"),
        json!("12345678901234567890.5"),
    ]);
    holds(
        json!({"type": "string", "pattern": r"^-?[0-9]{1,19}\.[0-9]+$"}),
        &[
            Duration::new(90, 500_000_000),
            Duration::seconds(-2),
            Duration::ZERO,
        ],
        &[json!("1.5"), json!("-0.000000001")],
        &reject,
        // A sign on the seconds, and the array form.
        &[json!("+1.5"), json!([90, 500_000_000])],
    );
    assert_eq!(
        <Duration as toolgen::ToolSchema>::DEFAULT
            .map(|d| toolgen::__private::schema_text(&d, &toolgen::__private::Defs::None)),
        Some(serde_json::to_string(&Duration::default()).unwrap())
    );
}

/// time's `Month` and `Weekday` are their English names (their numbers are read too).
#[test]
fn time_names() {
    use time::{Month, Weekday};
    let months = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let reject = vec![
        json!(null),
        json!(true),
        json!([]),
        json!({}),
        json!("march"),
        json!("Mar"),
    ];
    holds(
        json!({"type": "string", "enum": months}),
        &[Month::March, Month::December],
        &[json!("January")],
        &reject,
        &[json!(3)],
    );
    let days = [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ];
    holds(
        json!({"type": "string", "enum": days}),
        &[Weekday::Monday, Weekday::Sunday],
        &[json!("Friday")],
        &reject,
        &[json!(7)],
    );
    assert_eq!(
        <Month as toolgen::ToolSchema>::ENUM_VALUES,
        Some(&months[..])
    );
    assert_eq!(
        <Weekday as toolgen::ToolSchema>::ENUM_VALUES,
        Some(&days[..])
    );
}

/// `Either` as its serde derive reads it: `{"Left": ..}` or `{"Right": ..}`.
#[test]
fn either_is_externally_tagged() {
    use either::Either::{self, Left, Right};
    let reject = vec![
        json!({"Left": 256}),
        json!({"Right": 7}),
        json!({"Left": 1, "Right": "x"}),
        json!({}),
        json!("Left"),
        json!(null),
        json!(7),
    ];
    holds::<Either<u8, String>>(
        json!({
            "anyOf": [
                {
                    "type": "object",
                    "properties": {"Left": {"type": "integer", "minimum": 0, "maximum": 255}},
                    "required": ["Left"],
                    "additionalProperties": false,
                },
                {
                    "type": "object",
                    "properties": {"Right": {"type": "string"}},
                    "required": ["Right"],
                    "additionalProperties": false,
                },
            ],
        }),
        &[Left(3), Right("x".to_owned())],
        &[json!({"Left": 255}), json!({"Right": ""})],
        &reject,
        &[],
    );
}

#[test]
fn small_strings() {
    let mut reject = not_strings();
    reject.push(json!("four"));
    holds(
        json!({"type": "string", "maxLength": 3}),
        &[arrayvec::ArrayString::<3>::from("abc").unwrap()],
        &[json!(""), json!("ab")],
        &reject,
        &[],
    );
    holds(
        json!({"type": "string"}),
        &[smol_str::SmolStr::new(
            "a longer string than fits inline, on the heap",
        )],
        &[json!("short")],
        &not_strings(),
        &[],
    );
}

#[test]
fn collections_behave_as_their_std_counterparts() {
    let map: indexmap::IndexMap<String, u8> = [("b".into(), 1), ("a".into(), 2)].into();
    holds(
        json!({
            "type": "object",
            "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 255},
        }),
        &[map],
        &[json!({}), json!({"z": 0})],
        &[json!({"a": 300}), json!([]), json!(null)],
        &[],
    );
    let set: indexmap::IndexSet<u8> = [3, 1].into();
    holds(
        json!({
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": 255},
            "uniqueItems": true,
        }),
        &[set],
        &[json!([]), json!([1, 2])],
        &[json!([1, 300]), json!({})],
        // Plain serde drops a repeated item; `parse_args` refuses it (below).
        &[json!([1, 1])],
    );
    let small: smallvec::SmallVec<[bool; 2]> = smallvec::smallvec![true, false, true];
    holds(
        json!({"type": "array", "items": {"type": "boolean"}}),
        &[small],
        &[json!([]), json!([true])],
        &[json!([1]), json!(true)],
        &[],
    );
    let bounded: arrayvec::ArrayVec<u8, 2> = [1, 2].into();
    holds(
        json!({
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": 255},
            "maxItems": 2,
        }),
        &[bounded],
        &[json!([]), json!([7])],
        &[json!([1, 2, 3]), json!(["x"])],
        &[],
    );
}

/// A tool made of the integrations.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
#[tool(strict = "openai")]
struct Schedule {
    /// The meeting's id.
    id: uuid::Uuid,
    at: chrono::DateTime<chrono::Utc>,
    on: chrono::NaiveDate,
    link: url::Url,
    tags: indexmap::IndexSet<smol_str::SmolStr>,
    attendees: arrayvec::ArrayVec<String, 8>,
    #[serde(default)]
    notes: smallvec::SmallVec<[String; 2]>,
}

#[test]
fn a_tool_of_them_parses_and_has_every_dialect() {
    let args = json!({
        "id": "67e55044-10b1-426f-9247-bb680e5fe0c8",
        "at": "2024-02-29T12:30:00Z",
        "on": "2024-03-01",
        "link": "https://meet.example.com/abc",
        "tags": ["weekly", "team"],
        "attendees": ["ana", "bo"],
        "notes": null,
    });
    let parsed = Schedule::parse_args(&args.to_string()).unwrap();
    assert_eq!(parsed.tags.len(), 2);
    assert!(parsed.notes.is_empty());
    let again = serde_json::to_value(&parsed).unwrap();
    assert_eq!(Schedule::parse_args(&again.to_string()).unwrap(), parsed);

    // A set's repeated item and an over-full `ArrayVec`, refused with their paths.
    let mut repeated = args.clone();
    repeated["tags"] = json!(["a", "a"]);
    assert_eq!(
        Schedule::parse_args(&repeated.to_string())
            .unwrap_err()
            .path(),
        "tags[1]"
    );
    let mut crowded = args.clone();
    crowded["attendees"] = json!(["a", "b", "c", "d", "e", "f", "g", "h", "i"]);
    assert!(Schedule::parse_args(&crowded.to_string()).is_err());

    let strict: Value =
        serde_json::from_str(Schedule::input_schema(Dialect::OpenAiStrict).unwrap()).unwrap();
    assert_eq!(
        strict["properties"]["id"],
        json!({"type": "string", "format": "uuid", "description": "The meeting's id."})
    );
    for dialect in [Dialect::AnthropicStrict, Dialect::Gemini] {
        let text = toolgen::dialect_schema(Schedule::INPUT_SCHEMA, dialect)
            .unwrap_or_else(|e| panic!("{dialect:?}: {e}"));
        serde_json::from_str::<Value>(&text).unwrap();
    }
    for provider in Provider::ALL {
        serde_json::from_str::<Value>(Schedule::definition_json(provider)).unwrap();
    }
}

/// A map of the ecosystem is refused by OpenAI strict mode, as a `HashMap` is.
#[test]
fn an_index_map_is_a_map_to_the_strict_checks() {
    let facts = <indexmap::IndexMap<String, u8> as toolgen::ToolSchema>::FACTS;
    let std_facts = <std::collections::HashMap<String, u8> as toolgen::ToolSchema>::FACTS;
    assert_eq!(
        toolgen::__private::first_problem(facts, Dialect::OpenAiStrict),
        toolgen::__private::first_problem(std_facts, Dialect::OpenAiStrict),
    );
    assert!(toolgen::__private::first_problem(facts, Dialect::OpenAiStrict).is_some());
}

/// A place given by its number, or as a named room with a default.
#[derive(ToolSchema, Deserialize, Serialize, Debug, PartialEq)]
struct Room {
    name: String,
    #[tool(default = 10, range(max = 600))]
    minutes: u32,
}

/// A tool of time's types and an `Either` whose side holds defaults and constraints.
#[derive(Tool, Deserialize, Serialize, Debug, PartialEq)]
#[tool(strict)]
struct Booking {
    day: time::Date,
    month: time::Month,
    #[serde(default)]
    length: time::Duration,
    place: either::Either<u16, Room>,
}

#[test]
fn a_tool_of_time_and_either_parses_and_has_every_dialect() {
    let args = json!({
        "day": "2024-02-29",
        "month": "February",
        "length": null,
        "place": {"Right": {"name": "Blue"}},
    });
    let parsed = Booking::parse_args(&args.to_string()).unwrap();
    assert_eq!(parsed.length, time::Duration::ZERO);
    // `#[tool(default)]` is filled in inside `Either`'s side.
    let room = parsed.place.as_ref().right().unwrap();
    assert_eq!(room.minutes, 10);
    let again = serde_json::to_value(&parsed).unwrap();
    assert_eq!(Booking::parse_args(&again.to_string()).unwrap(), parsed);

    // A constraint inside `Either`'s side, refused with its path.
    let mut long = args.clone();
    long["place"] = json!({"Right": {"name": "Blue", "minutes": 601}});
    assert_eq!(
        Booking::parse_args(&long.to_string()).unwrap_err().path(),
        "place.Right.minutes"
    );
    let mut unknown = args.clone();
    unknown["month"] = json!("Febuary");
    assert_eq!(
        Booking::parse_args(&unknown.to_string())
            .unwrap_err()
            .path(),
        "month"
    );

    for dialect in [
        Dialect::OpenAiStrict,
        Dialect::AnthropicStrict,
        Dialect::Gemini,
    ] {
        let text = Booking::input_schema(dialect).unwrap_or_else(|| panic!("{dialect:?}"));
        serde_json::from_str::<Value>(text).unwrap();
    }
    for provider in Provider::ALL {
        serde_json::from_str::<Value>(Booking::definition_json(provider)).unwrap();
    }
}
