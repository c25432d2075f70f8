//! `ToolSchema` for types of other crates that tool arguments often hold, each behind a cargo
//! feature named as schemars names it (the crate and its major version: `uuid1`, `chrono04`, ..).
//!
//! Each schema describes what that crate's own `Deserialize` reads from JSON (`tests/ecosystem.rs`
//! holds them against each other), with the JSON Schema `format` where there is one, which every
//! dialect then treats as it treats a `#[tool(format)]`.

// Used by whichever integrations are on (none by default).
#[allow(unused_imports)]
use crate::{
    schema::facts::{EnumRepr, Facts, Kid, Via},
    schema::rope::{Defs, Rope},
    schema::{Sealed, ToolSchema},
};
#[allow(unused_imports)]
use serde_json::Value;

/// A string schema: `{"type":"string"` and `tail`.
#[allow(unused_macros)]
macro_rules! string {
    ($($ty:ty => $tail:expr $(, default $default:literal)?;)*) => {$(
        impl Sealed for $ty {}
        impl ToolSchema for $ty {
            const SCHEMA: Rope = Rope::Typed("string", &Rope::Str($tail));
            $(const DEFAULT: Option<Rope> = Some(Rope::Str($default));)?
        }
    )*};
}

#[cfg(feature = "uuid1")]
string! {
    // uuid also reads the simple (32 hex digits), braced and URN forms; models are offered the
    // hyphenated one, which it writes.
    uuid::Uuid => r#","format":"uuid"}"#, default r#""00000000-0000-0000-0000-000000000000""#;
}

#[cfg(feature = "url2")]
string! {
    url::Url => r#","format":"uri"}"#;
}

#[cfg(feature = "semver1")]
string! {
    // Semantic Versioning 2.0.0, as semver reads it (no leading zeros, no `v`); the pattern is
    // the one semver.org gives, without named groups.
    semver::Version => r#","pattern":"^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-((0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(\\.(0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?(\\+([0-9a-zA-Z-]+(\\.[0-9a-zA-Z-]+)*))?$"}"#;
}

/// A decimal number in a string: the form the decimal crates write.
#[cfg(any(feature = "rust_decimal1", feature = "bigdecimal04"))]
const DECIMAL: &str = r#","pattern":"^-?[0-9]+(\\.[0-9]+)?$"}"#;

#[cfg(feature = "rust_decimal1")]
string! {
    // The form rust_decimal writes: a decimal number in a string, which keeps every digit (it
    // also reads a JSON number, and a few other spellings).
    rust_decimal::Decimal => DECIMAL, default r#""0""#;
}

#[cfg(feature = "bigdecimal04")]
string! {
    // The string bigdecimal writes, which keeps every digit; it also reads JSON numbers, and an
    // exponent (`1e3`).
    bigdecimal::BigDecimal => DECIMAL, default r#""0""#;
}

/// An ISO 8601 duration's tail, as jiff writes one.
#[cfg(feature = "jiff02")]
const DURATION: &str = r#","pattern":"^-?P([0-9]+Y)?([0-9]+M)?([0-9]+W)?([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+(\\.[0-9]+)?S)?)?$"}"#;

#[cfg(feature = "jiff02")]
string! {
    // RFC 3339 with an offset.
    jiff::Timestamp => r#","format":"date-time"}"#;
    // RFC 9557: RFC 3339 with the time zone's name in brackets, which `date-time` does not take.
    jiff::Zoned => r#","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?([Zz]|[+-][0-9]{2}:[0-9]{2})?\\[[^\\]]+\\]$"}"#;
    // `YYYY-MM-DD`.
    jiff::civil::Date => r#","format":"date"}"#;
    // No offset, so neither `date-time` nor `time`: the forms jiff writes.
    jiff::civil::DateTime =>
        r#","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?$"}"#;
    jiff::civil::Time => r#","pattern":"^[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?$"}"#;
    // ISO 8601 durations (`PT1H30M`), seconds with a fraction as jiff writes them (`PT0.5S`),
    // which JSON Schema's `duration` format does not take; jiff also reads its friendly form
    // (`1h 30m`). The pattern also matches a bare `P`, which jiff refuses.
    jiff::SignedDuration => DURATION;
    jiff::Span => DURATION;
}

#[cfg(feature = "smol_str02")]
string! {
    smol_str::SmolStr => "}", default r#""""#;
}

#[cfg(feature = "chrono04")]
string! {
    // RFC 3339 with an offset (chrono also reads a few looser spellings, such as a space for `T`).
    chrono::DateTime<chrono::Utc> => r#","format":"date-time"}"#;
    chrono::DateTime<chrono::FixedOffset> => r#","format":"date-time"}"#;
    // `YYYY-MM-DD`.
    chrono::NaiveDate => r#","format":"date"}"#;
    // No offset, so not a JSON Schema `date-time`/`time`: the form chrono writes.
    chrono::NaiveDateTime =>
        r#","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?$"}"#;
    chrono::NaiveTime => r#","pattern":"^[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?$"}"#;
}

/// The facts of a string `enum` of `values`: their count, and the characters of the `enum`
/// array's text (the quoted names, commas and brackets), which strict modes limit.
#[cfg(feature = "time03")]
const fn string_enum(values: &[&str]) -> Facts {
    let mut text = 1;
    let mut rest = values;
    while let [value, tail @ ..] = rest {
        text += value.len() as u32 + 3;
        rest = tail;
    }
    Facts::node(0, false, [0, values.len() as u32, text], &[])
}

/// A string `enum` of the names serde reads (and writes), which need no JSON escapes.
#[allow(unused_macros)]
macro_rules! string_enum {
    ($($ty:ty => [$first:literal $(, $value:literal)*];)*) => {$(
        impl Sealed for $ty {}
        impl ToolSchema for $ty {
            const SCHEMA: Rope = Rope::Str(concat!(
                r#"{"type":"string","enum":[""#, $first, $(r#"",""#, $value,)* r#""]}"#
            ));
            const FACTS: &'static Facts = &string_enum(&[$first $(, $value)*]);
            const ENUM_VALUES: Option<&'static [&'static str]> = Some(&[$first $(, $value)*]);
        }
    )*};
}

// time writes JSON in its own human-readable forms only with its `serde-human-readable`
// feature, which `time03` turns on (without it they are arrays of numbers, such as a date's
// `[year, day of the year]`, which no model should be asked to write). That is a cargo feature,
// so it holds for every crate of the build (their own JSON output too). Fractions of a second
// are always written (`.0`, at most 9 digits). time also reads the arrays; the schemas offer the
// strings it writes. Years are -9999 to 9999: time's `large-dates`, should a crate of the build
// turn it on, writes years beyond those with a sign and more digits, which no schema here offers.
#[cfg(feature = "time03")]
string! {
    // `YYYY-MM-DD` (time also writes years before 1, `-0001-..`, which `date` leaves out).
    time::Date => r#","format":"date"}"#;
    // Not RFC 3339 (a space for `T`, and seconds in the offset), so a `pattern`.
    time::OffsetDateTime => r#","pattern":"^-?[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{1,9} [+-][0-9]{2}:[0-9]{2}:[0-9]{2}$"}"#;
    // Without an offset: neither `date-time` nor `time`.
    time::PrimitiveDateTime => r#","pattern":"^-?[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{1,9}$"}"#;
    time::Time => r#","pattern":"^[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{1,9}$"}"#;
    time::UtcOffset => r#","pattern":"^[+-][0-9]{2}:[0-9]{2}:[0-9]{2}$"}"#;
    // Seconds (an `i64`) with a fraction: time writes nine digits (`90.500000000`), reads one or
    // more.
    time::Duration => r#","pattern":"^-?[0-9]{1,19}\\.[0-9]+$"}"#, default r#""0.000000000""#;
}

#[cfg(feature = "time03")]
string_enum! {
    time::Month => [
        "January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December"
    ];
    time::Weekday => ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
}

/// `Either` derives serde's externally tagged form: `{"Left": <L>}` or `{"Right": <R>}`.
#[cfg(feature = "either1")]
impl<L, R> Sealed for either::Either<L, R> {}
#[cfg(feature = "either1")]
impl<L: ToolSchema, R: ToolSchema> ToolSchema for either::Either<L, R> {
    const SCHEMA: Rope = Rope::Seq(&[
        Rope::Str(r#"{"anyOf":[{"type":"object","properties":{"Left":"#),
        L::SCHEMA,
        Rope::Str(
            r#"},"required":["Left"],"additionalProperties":false},{"type":"object","properties":{"Right":"#,
        ),
        R::SCHEMA,
        Rope::Str(r#"},"required":["Right"],"additionalProperties":false}]}"#),
    ]);
    const DEFS: Defs = Defs::Seq(&[L::DEFS, R::DEFS]);
    const EDGES: Option<crate::schema::cycles::EdgesAt> = Some(crate::schema::cycles::EdgesAt::of(
        &crate::schema::cycles::Edges::of("", &[L::EDGES, R::EDGES]),
    ));
    const FACTS: &'static Facts = &Facts::enumeration(
        EnumRepr::External,
        2,
        0,
        [0; 3],
        &[
            Kid::via(
                Via::Branch,
                &Facts::node(0, true, [1, 0, 4], &[Kid::property("Left", L::FACTS)]),
            ),
            Kid::via(
                Via::Branch,
                &Facts::node(0, true, [1, 0, 5], &[Kid::property("Right", R::FACTS)]),
            ),
        ],
    );
}

/// An `ArrayString` holds at most its capacity in bytes, so at most as many characters.
#[cfg(feature = "arrayvec07")]
impl<const CAP: usize> Sealed for arrayvec::ArrayString<CAP> {}
#[cfg(feature = "arrayvec07")]
impl<const CAP: usize> ToolSchema for arrayvec::ArrayString<CAP> {
    const SCHEMA: Rope = Rope::Typed(
        "string",
        &Rope::Seq(&[
            Rope::Str(r#","maxLength":"#),
            Rope::Uint(CAP as u64),
            Rope::Str("}"),
        ]),
    );
    const DEFAULT: Option<Rope> = Some(Rope::Str(r#""""#));
}

/// `Bytes` are written as an array of byte values (serde_json's form of bytes); the crate also
/// reads a string (its UTF-8 bytes), which the schema does not offer.
#[cfg(feature = "bytes1")]
impl Sealed for bytes::Bytes {}
#[cfg(feature = "bytes1")]
impl ToolSchema for bytes::Bytes {
    const SCHEMA: Rope = <Vec<u8> as ToolSchema>::SCHEMA;
    const DEFAULT: Option<Rope> = Some(Rope::Str("[]"));
}
