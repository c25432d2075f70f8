//! The string `format`s of JSON Schema 2020-12 (validation vocabulary, section 7.3), checked after
//! parsing: the schema tells the model what `#[tool(format = "..")]` means, this enforces it.

use std::net::{Ipv4Addr, Ipv6Addr};
use std::str::Chars;

/// Checks `text` against the JSON Schema 2020-12 format called `format`.
///
/// `Err` carries a short reason written for the model to correct its next call. A format this
/// module does not know passes: the macro only emits the names in `FORMATS` of
/// `toolgen-macros/src/shape/check.rs`. Every check runs in time linear in `text` and never panics.
pub(crate) fn check_format(format: &str, text: &str) -> Result<(), &'static str> {
    match format {
        "date-time" => check_date_time(text),
        "date" => check_date(text.as_bytes(), DATE),
        "time" => check_time(text.as_bytes(), TIME),
        "duration" => check_duration(text),
        "email" => check_email(text, Charset::Ascii),
        "idn-email" => check_email(text, Charset::Unicode),
        "hostname" => check_hostname(text, Charset::Ascii),
        "idn-hostname" => check_hostname(text, Charset::Unicode),
        // std follows RFC 2673's dotted quad but rejects leading zeros, which `inet_aton` reads as
        // octal (CVE-2021-28918), as the JSON-Schema-Test-Suite does.
        "ipv4" => text.parse::<Ipv4Addr>().is_ok().then_some(()).ok_or(IPV4),
        // std follows RFC 4291 section 2.2: no brackets, prefix lengths or zone ids.
        "ipv6" => text.parse::<Ipv6Addr>().is_ok().then_some(()).ok_or(IPV6),
        "uri" => check_uri(text, Charset::Ascii, Form::Absolute),
        "uri-reference" => check_uri(text, Charset::Ascii, Form::Reference),
        "iri" => check_uri(text, Charset::Unicode, Form::Absolute),
        "iri-reference" => check_uri(text, Charset::Unicode, Form::Reference),
        "uuid" => is_uuid(text).then_some(()).ok_or(UUID),
        "uri-template" => check_uri_template(text),
        "json-pointer" => is_json_pointer(text).then_some(()).ok_or(JSON_POINTER),
        "relative-json-pointer" => is_relative_json_pointer(text)
            .then_some(())
            .ok_or(RELATIVE_JSON_POINTER),
        // The schema says ECMA-262; what Rust's `regex` compiles is the useful subset for a tool
        // that runs the pattern, so look-around and backreferences are refused.
        "regex" => regex_syntax::parse(text).map(drop).map_err(|_| REGEX),
        _ => Ok(()),
    }
}

/// Which characters a format admits beyond its ASCII grammar.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Charset {
    /// The ASCII grammar only (`email`, `hostname`, `uri`, `uri-reference`).
    Ascii,
    /// Also non-ASCII text (`idn-email`, `idn-hostname`, `iri`, `iri-reference`).
    Unicode,
}

/// Whether a URI or IRI must have a scheme.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `uri`, `iri`: a scheme, then the rest.
    Absolute,
    /// `uri-reference`, `iri-reference`: an absolute one or a relative reference.
    Reference,
}

// ---- date-time, date, time (RFC 3339 section 5.6) ----

const DATE_TIME: &str = "expected a date-time in RFC 3339 form, like 2026-11-25T14:30:00Z or \
                         2026-11-25T14:30:00.250+01:00";
const DATE: &str = "expected a date in RFC 3339 form YYYY-MM-DD, like 2026-11-25";
const TIME: &str = "expected a time of day with its UTC offset in RFC 3339 form, like 14:30:00Z or \
                    14:30:00.250+01:00";
const NO_SUCH_DATE: &str = "no such date: months run 01-12 and days 01 to the end of the month \
                            (February 29 only in leap years)";
const TIME_RANGE: &str = "a time field is out of range: hours run 00-23, minutes and seconds \
                          00-59, in the time and in its offset";
const LEAP_SECOND: &str = "second 60 is a leap second, which only exists at 23:59:60 UTC; use \
                           seconds 00-59";

/// `date-time`: `full-date "T" full-time`, with `T` and `Z` in either case (RFC 3339 section 5.6).
fn check_date_time(text: &str) -> Result<(), &'static str> {
    let (date, rest) = text.as_bytes().split_at_checked(10).ok_or(DATE_TIME)?;
    let [b'T' | b't', time @ ..] = rest else {
        return Err(DATE_TIME);
    };
    check_date(date, DATE_TIME)?;
    check_time(time, DATE_TIME)
}

/// `date`: `YYYY-MM-DD` naming a day of the proleptic Gregorian calendar (RFC 3339 section 5.7).
fn check_date(date: &[u8], shape: &'static str) -> Result<(), &'static str> {
    let &[y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1] = date else {
        return Err(shape);
    };
    let year = number(&[y0, y1, y2, y3]).ok_or(shape)?;
    let month = number(&[m0, m1]).ok_or(shape)?;
    let day = number(&[d0, d1]).ok_or(shape)?;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return Err(NO_SUCH_DATE),
    };
    (1..=days).contains(&day).then_some(()).ok_or(NO_SUCH_DATE)
}

/// `time`: `HH:MM:SS`, an optional `.` and fraction digits, then `Z` or `+HH:MM` / `-HH:MM`.
fn check_time(time: &[u8], shape: &'static str) -> Result<(), &'static str> {
    let &[h0, h1, b':', m0, m1, b':', s0, s1, ref rest @ ..] = time else {
        return Err(shape);
    };
    let hour = number(&[h0, h1]).ok_or(shape)?;
    let minute = number(&[m0, m1]).ok_or(shape)?;
    let second = number(&[s0, s1]).ok_or(shape)?;
    let offset = match rest {
        [b'.', fraction @ ..] => {
            let digits = fraction.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits == 0 {
                return Err(shape);
            }
            fraction.get(digits..).unwrap_or_default()
        }
        _ => rest,
    };
    // Minutes east of UTC.
    let east = match *offset {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h0, h1, b':', m0, m1] => {
            let hours = number(&[h0, h1]).ok_or(shape)?;
            let minutes = number(&[m0, m1]).ok_or(shape)?;
            if hours > 23 || minutes > 59 {
                return Err(TIME_RANGE);
            }
            let east = i32::from(hours) * 60 + i32::from(minutes);
            if sign == b'-' { -east } else { east }
        }
        _ => return Err(shape),
    };
    if hour > 23 || minute > 59 || second > 60 {
        return Err(TIME_RANGE);
    }
    // RFC 3339 section 5.7: a leap second ends the last minute of a UTC day, so 60 is only valid
    // where the local time, moved to UTC, is 23:59.
    let utc = (i32::from(hour) * 60 + i32::from(minute) - east).rem_euclid(24 * 60);
    if second == 60 && utc != 23 * 60 + 59 {
        return Err(LEAP_SECOND);
    }
    Ok(())
}

/// The value of `digits` if it is one to four ASCII digits.
fn number(digits: &[u8]) -> Option<u16> {
    if digits.is_empty() || digits.len() > 4 {
        return None;
    }
    digits.iter().try_fold(0, |value: u16, &b| {
        b.is_ascii_digit().then(|| value * 10 + u16::from(b - b'0'))
    })
}

// ---- duration (RFC 3339 appendix A) ----

const DURATION: &str = "expected an ISO 8601 duration as in RFC 3339 appendix A, like P3D, PT1H30M, \
                        P1Y2M10DT2H or P2W: whole numbers, units Y M D then T and H M S in that \
                        order, none skipped between two that are given (P1Y0M2D, not P1Y2D); \
                        weeks only alone";

/// `duration`: `P` then `nW` alone, or date units and/or `T` and time units, each unit followed
/// only by the next one (`dur-year = 1*DIGIT "Y" [dur-month]`, and so on).
fn check_duration(text: &str) -> Result<(), &'static str> {
    let body = text.strip_prefix('P').ok_or(DURATION)?;
    if let Some(weeks) = body.strip_suffix('W') {
        let valid = !weeks.is_empty() && weeks.bytes().all(|b| b.is_ascii_digit());
        return valid.then_some(()).ok_or(DURATION);
    }
    let (date, time) = match body.split_once('T') {
        Some((date, time)) => (date, Some(time)),
        None => (body, None),
    };
    let valid = !(date.is_empty() && time.is_none())
        && is_duration_run(date, *b"YMD")
        && time.is_none_or(|time| !time.is_empty() && is_duration_run(time, *b"HMS"));
    valid.then_some(()).ok_or(DURATION)
}

/// Whether `part` is `<digits><unit>` pairs whose units are consecutive in `units`: `1Y2M` and
/// `2M3D` are, `1Y3D` and `3D1Y` are not. The empty string is a run of none.
fn is_duration_run(part: &str, units: [u8; 3]) -> bool {
    let mut rest = part.as_bytes();
    let mut next: Option<usize> = None;
    while !rest.is_empty() {
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let Some((unit, tail)) = rest.get(digits..).and_then(<[u8]>::split_first) else {
            return false;
        };
        let Some(index) = units.iter().position(|u| u == unit) else {
            return false;
        };
        if digits == 0 || next.is_some_and(|next| next != index) {
            return false;
        }
        next = Some(index + 1);
        rest = tail;
    }
    true
}

// ---- email, idn-email (RFC 5321 section 4.1.2, RFC 6531 section 3.3) ----

const EMAIL: &str = "expected an email address like name@example.com: ASCII only, a local part of \
                     letters, digits and !#$%&'*+-/=?^_`{|}~ with single dots inside (or a quoted \
                     string), then @ and a hostname or a bracketed IP address";
const IDN_EMAIL: &str = "expected an email address like name@example.com or 用户@例子.广告: a \
                         local part without spaces, with single dots inside (or a quoted string), \
                         then @ and a hostname or a bracketed IP address";
const EMAIL_TOO_LONG: &str = "the email address is too long: at most 64 bytes before the @ and 254 \
                              in all";

/// `email` is RFC 5321's `Mailbox`: a `Dot-string` or `Quoted-string` local part, `@`, then a
/// `Domain` (checked as a hostname) or an IPv4 / `IPv6:` address literal. Not accepted: RFC 5322
/// comments and folding whitespace (not part of `Mailbox`) and `General-address-literal` (no tag
/// but `IPv6` is registered). `idn-email` adds RFC 6531's non-ASCII text in the local part and an
/// internationalized hostname. Limits are RFC 5321 section 4.5.3.1's, in UTF-8 bytes.
fn check_email(text: &str, charset: Charset) -> Result<(), &'static str> {
    let shape = match charset {
        Charset::Ascii => EMAIL,
        Charset::Unicode => IDN_EMAIL,
    };
    let (local, domain) = split_mailbox(text, charset).ok_or(shape)?;
    let domain_valid = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => match literal.split_at_checked(5) {
            Some((tag, address)) if tag.eq_ignore_ascii_case("IPv6:") => {
                address.parse::<Ipv6Addr>().is_ok()
            }
            _ => literal.parse::<Ipv4Addr>().is_ok(),
        },
        None => check_hostname(domain, charset).is_ok(),
    };
    if !domain_valid {
        return Err(shape);
    }
    // The path limit of 256 octets includes the angle brackets around the mailbox.
    if local.len() > 64 || text.len() > 254 {
        return Err(EMAIL_TOO_LONG);
    }
    Ok(())
}

/// The local part and domain of a mailbox, once the local part is a valid `Dot-string` or
/// `Quoted-string`.
fn split_mailbox(text: &str, charset: Charset) -> Option<(&str, &str)> {
    let Some(quoted) = text.strip_prefix('"') else {
        let (local, domain) = text.split_once('@')?;
        let atoms_valid = local.split('.').all(|atom| {
            !atom.is_empty()
                && atom
                    .chars()
                    .all(|c| is_atext(c) || charset.allows_non_ascii(c))
        });
        return atoms_valid.then_some((local, domain));
    };
    let mut chars = quoted.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                let (local, rest) = text.split_at_checked(i + 2)?;
                return Some((local, rest.strip_prefix('@')?));
            }
            // quoted-pairSMTP = "\" followed by printable ASCII or a space
            '\\' => {
                let (_, escaped) = chars.next()?;
                if !(' '..='~').contains(&escaped) {
                    return None;
                }
            }
            // qtextSMTP: printable ASCII and space, but for the two handled above
            ' '..='~' => {}
            c if charset.allows_non_ascii(c) => {}
            _ => return None,
        }
    }
    None
}

/// RFC 5321 `atext`: the ASCII an unquoted local part may hold besides dots.
fn is_atext(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c)
}

impl Charset {
    /// Whether `c` is non-ASCII text this charset admits: with `Unicode`, any non-ASCII character
    /// but controls and whitespace.
    fn allows_non_ascii(self, c: char) -> bool {
        self == Charset::Unicode && !c.is_ascii() && !c.is_control() && !c.is_whitespace()
    }
}

// ---- hostname (RFC 1123 section 2.1), idn-hostname (RFC 5890 section 2.3.2.3) ----

const HOSTNAME: &str = "expected a hostname like api.example.com: dot-separated labels of ASCII \
                        letters, digits and hyphens, each 1 to 63 characters, not starting or \
                        ending with a hyphen, and no trailing dot";
const IDN_HOSTNAME: &str = "expected a hostname like bücher.example or api.example.com: \
                            dot-separated labels of letters (any script), digits and hyphens, \
                            each 1 to 63 characters, not starting or ending with a hyphen, and no \
                            trailing dot";
const HOSTNAME_TOO_LONG: &str = "the hostname is too long: at most 253 characters";

/// The full stops RFC 3490 section 3.1 reads as label separators besides `.`.
const IDEOGRAPHIC_FULL_STOPS: [char; 3] = ['\u{3002}', '\u{FF0E}', '\u{FF61}'];

/// `hostname`: RFC 1123 labels (letters, digits, inner hyphens; a leading digit allowed), 1 to 63
/// characters each, 253 in all. `idn-hostname` applies the same structure to Unicode labels,
/// counted in characters, and also splits at ideographic full stops. It does not apply the IDNA2008
/// code point tables, contextual or bidi rules, nor decode `xn--` Punycode.
fn check_hostname(text: &str, charset: Charset) -> Result<(), &'static str> {
    let shape = match charset {
        Charset::Ascii => HOSTNAME,
        Charset::Unicode => IDN_HOSTNAME,
    };
    let is_separator =
        |c: char| c == '.' || charset == Charset::Unicode && IDEOGRAPHIC_FULL_STOPS.contains(&c);
    let mut length = 0;
    for label in text.split(is_separator) {
        let label_length = label.chars().count();
        let valid = (1..=63).contains(&label_length)
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || charset.allows_non_ascii(c));
        if !valid {
            return Err(shape);
        }
        // The label and the separator before it.
        length += label_length + 1;
    }
    (length <= 253 + 1).then_some(()).ok_or(HOSTNAME_TOO_LONG)
}

// ---- ipv4, ipv6, uuid ----

const IPV4: &str = "expected an IPv4 address: four decimal numbers 0-255 separated by dots, \
                    without leading zeros, like 192.168.0.1";
const IPV6: &str = "expected an IPv6 address like 2001:db8::1 or ::ffff:192.0.2.1, without \
                    brackets, prefix length or zone";
const UUID: &str = "expected a UUID: 32 hex digits grouped 8-4-4-4-12 by hyphens, like \
                    123e4567-e89b-12d3-a456-426614174000";

/// `uuid`: RFC 4122's string form, hex digits in either case, any version and variant.
fn is_uuid(text: &str) -> bool {
    text.len() == 36
        && text.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

// ---- uri, uri-reference (RFC 3986), iri, iri-reference (RFC 3987) ----

const URI: &str = "expected an absolute URI with a scheme, like https://example.com/a?b=c#d or \
                   urn:isbn:0451450523; percent-encode spaces, non-ASCII and other characters RFC \
                   3986 does not allow";
const URI_REFERENCE: &str = "expected a URI reference, like https://example.com/a, /a/b?c=d, ../a \
                             or #section; percent-encode spaces, non-ASCII and other characters \
                             RFC 3986 does not allow";
const IRI: &str = "expected an absolute IRI with a scheme, like https://example.com/café?q=ü; \
                   percent-encode spaces and the ASCII characters RFC 3987 does not allow";
const IRI_REFERENCE: &str = "expected an IRI reference, like https://example.com/café, /café?q=ü \
                             or #größe; percent-encode spaces and the ASCII characters RFC 3987 \
                             does not allow";

fn check_uri(text: &str, charset: Charset, form: Form) -> Result<(), &'static str> {
    let shape = match (charset, form) {
        (Charset::Ascii, Form::Absolute) => URI,
        (Charset::Ascii, Form::Reference) => URI_REFERENCE,
        (Charset::Unicode, Form::Absolute) => IRI,
        (Charset::Unicode, Form::Reference) => IRI_REFERENCE,
    };
    is_uri(text, charset, form).then_some(()).ok_or(shape)
}

/// RFC 3986's `URI` or `URI-reference` (with `Unicode`, RFC 3987's `IRI` or `IRI-reference`):
/// split into parts as in RFC 3986 appendix B, then each part checked against its ABNF.
fn is_uri(text: &str, charset: Charset, form: Form) -> bool {
    let (rest, fragment) = match text.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (text, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (rest, None),
    };
    // A colon before any slash ends a scheme: a relative reference cannot have one in its first
    // segment (`path-noscheme`, RFC 3986 section 4.2).
    let hier = match rest.split_once(':') {
        Some((scheme, hier)) if !scheme.contains('/') => {
            if !is_scheme(scheme) {
                return false;
            }
            hier
        }
        _ if form == Form::Absolute => return false,
        _ => rest,
    };
    let path = match hier.strip_prefix("//") {
        Some(after) => {
            let (authority, path) = after
                .find('/')
                .and_then(|i| after.split_at_checked(i))
                .unwrap_or((after, ""));
            if !is_authority(authority, charset) {
                return false;
            }
            path
        }
        None => hier,
    };
    is_uri_part(path, charset, b":@/", false)
        && query.is_none_or(|query| is_uri_part(query, charset, b":@/?", true))
        && fragment.is_none_or(|fragment| is_uri_part(fragment, charset, b":@/?", false))
}

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`
fn is_scheme(scheme: &str) -> bool {
    let mut bytes = scheme.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
}

/// `authority = [ userinfo "@" ] host [ ":" port ]`, where the host is a bracketed IPv6 or
/// IPvFuture literal or a `reg-name` (which covers dotted IPv4 too).
fn is_authority(authority: &str, charset: Charset) -> bool {
    let (userinfo, host_port) = match authority.split_once('@') {
        Some((userinfo, host_port)) => (Some(userinfo), host_port),
        None => (None, authority),
    };
    if userinfo.is_some_and(|userinfo| !is_uri_part(userinfo, charset, b":", false)) {
        return false;
    }
    let (host_valid, port) = match host_port.strip_prefix('[') {
        Some(literal) => {
            let Some((literal, after)) = literal.split_once(']') else {
                return false;
            };
            let port = match after.strip_prefix(':') {
                Some(port) => port,
                None if after.is_empty() => "",
                None => return false,
            };
            (is_ip_literal(literal), port)
        }
        None => {
            let (host, port) = host_port.split_once(':').unwrap_or((host_port, ""));
            (is_uri_part(host, charset, b"", false), port)
        }
    };
    host_valid && port.bytes().all(|b| b.is_ascii_digit())
}

/// The inside of `IP-literal`: an IPv6 address or `"v" 1*HEXDIG "." 1*( unreserved / sub-delims
/// / ":" )`. There is no zone id (that is RFC 6874, not RFC 3986).
fn is_ip_literal(literal: &str) -> bool {
    if literal.parse::<Ipv6Addr>().is_ok() {
        return true;
    }
    let Some((version, address)) = literal
        .strip_prefix(['v', 'V'])
        .and_then(|future| future.split_once('.'))
    else {
        return false;
    };
    !version.is_empty()
        && version.bytes().all(|b| b.is_ascii_hexdigit())
        && !address.is_empty()
        && address
            .bytes()
            .all(|b| is_unreserved(b) || is_sub_delim(b) || b == b':')
}

/// Whether `part` is only `unreserved`, `sub-delims`, `pct-encoded` and the ASCII in `extra`; with
/// `Unicode` also RFC 3987's `ucschar`, and its `iprivate` where `private` (the query).
fn is_uri_part(part: &str, charset: Charset, extra: &[u8], private: bool) -> bool {
    let mut chars = part.chars();
    while let Some(c) = chars.next() {
        let valid = match u8::try_from(c) {
            Ok(b'%') => take_pct_encoded(&mut chars),
            Ok(b) if b.is_ascii() => is_unreserved(b) || is_sub_delim(b) || extra.contains(&b),
            _ => charset == Charset::Unicode && (is_ucschar(c) || private && is_iprivate(c)),
        };
        if !valid {
            return false;
        }
    }
    true
}

/// Consumes the two hex digits that must follow a `%`.
fn take_pct_encoded(chars: &mut Chars<'_>) -> bool {
    chars.next().is_some_and(|c| c.is_ascii_hexdigit())
        && chars.next().is_some_and(|c| c.is_ascii_hexdigit())
}

/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`
fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~".contains(&b)
}

/// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="`
fn is_sub_delim(b: u8) -> bool {
    b"!$&'()*+,;=".contains(&b)
}

/// RFC 3987 `ucschar`: the non-ASCII characters an IRI may hold without percent-encoding.
fn is_ucschar(c: char) -> bool {
    let c = u32::from(c);
    matches!(c, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF)
        || (0x1_0000..=0xE_FFFD).contains(&c)
            && c & 0xFFFF <= 0xFFFD
            && !(0xE_0000..=0xE_0FFF).contains(&c)
}

/// RFC 3987 `iprivate`: private-use characters, allowed unencoded in an IRI's query only.
fn is_iprivate(c: char) -> bool {
    let c = u32::from(c);
    (0xE000..=0xF8FF).contains(&c) || c >= 0xF_0000 && c & 0xFFFF <= 0xFFFD
}

// ---- uri-template (RFC 6570 section 2) ----

const URI_TEMPLATE: &str = "expected a URI template (RFC 6570) like \
                            https://example.com/users/{id}{?fields,page}: each {...} holds an \
                            optional operator (+ # . / ; ? &) and comma-separated variable names \
                            (letters, digits, _ and inner dots), each optionally followed by * or \
                            :N with N from 1 to 9999; outside braces no spaces, \", <, >, \\, ^, \
                            `, | or stray braces";

/// `uri-template`: literals and `{...}` expressions, braces balanced and not nested.
fn check_uri_template(text: &str) -> Result<(), &'static str> {
    let mut pieces = text.split('{');
    let leading = pieces.next().unwrap_or_default();
    let valid = is_template_literal(leading)
        && pieces.all(|piece| {
            piece.split_once('}').is_some_and(|(expression, literal)| {
                is_template_expression(expression) && is_template_literal(literal)
            })
        });
    valid.then_some(()).ok_or(URI_TEMPLATE)
}

/// `literals`: any character but controls, space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`,
/// `}` and a `%` that does not start a `pct-encoded`. The apostrophe is allowed, as verified
/// erratum 6937 corrects the ABNF.
fn is_template_literal(literal: &str) -> bool {
    let mut chars = literal.chars();
    while let Some(c) = chars.next() {
        let valid = match c {
            '%' => take_pct_encoded(&mut chars),
            '!'..='~' => !"\"<>\\^`{|}".contains(c),
            c => is_ucschar(c) || is_iprivate(c),
        };
        if !valid {
            return false;
        }
    }
    true
}

/// The inside of an expression: `[ operator ] varspec *( "," varspec )`, where
/// `varspec = varname [ "*" / ":" max-length ]`.
fn is_template_expression(expression: &str) -> bool {
    // RFC 6570 section 2.2 reserves `= , ! @ |` for future extensions, but its ABNF admits them.
    let variables = expression
        .strip_prefix(['+', '#', '.', '/', ';', '?', '&', '=', ',', '!', '@', '|'])
        .unwrap_or(expression);
    variables.split(',').all(|varspec| {
        let (name, max_length) = match varspec.strip_suffix('*') {
            Some(name) => (name, None),
            None => match varspec.split_once(':') {
                Some((name, max_length)) => (name, Some(max_length)),
                None => (varspec, None),
            },
        };
        // max-length = %x31-39 0*3DIGIT
        let max_length_valid = max_length.is_none_or(|max_length| {
            matches!(
                max_length.as_bytes(),
                [b'1'..=b'9', rest @ ..] if rest.len() <= 3 && rest.iter().all(u8::is_ascii_digit)
            )
        });
        max_length_valid && name.split('.').all(is_varchars)
    })
}

/// One or more `varchar = ALPHA / DIGIT / "_" / pct-encoded`.
fn is_varchars(part: &str) -> bool {
    let mut chars = part.chars();
    let mut any = false;
    while let Some(c) = chars.next() {
        let valid = match c {
            '%' => take_pct_encoded(&mut chars),
            c => c.is_ascii_alphanumeric() || c == '_',
        };
        if !valid {
            return false;
        }
        any = true;
    }
    any
}

// ---- json-pointer (RFC 6901), relative-json-pointer (draft-bhutton-relative-json-pointer-00) ----

const JSON_POINTER: &str = "expected a JSON Pointer (RFC 6901): empty, or /-prefixed reference \
                            tokens like /items/0/name, with ~ written as ~0 and / inside a token \
                            as ~1";
const RELATIVE_JSON_POINTER: &str = "expected a relative JSON Pointer like 0/name, 1/items/0 or \
                                     2#: a non-negative integer without leading zeros, optionally \
                                     +N or -N, then # or a JSON Pointer";

/// `json-pointer`: empty, or `/` then tokens where every `~` starts `~0` or `~1`.
fn is_json_pointer(text: &str) -> bool {
    if text.is_empty() {
        return true;
    }
    let mut bytes = text.bytes();
    if bytes.next() != Some(b'/') {
        return false;
    }
    while let Some(b) = bytes.next() {
        if b == b'~' && !matches!(bytes.next(), Some(b'0' | b'1')) {
            return false;
        }
    }
    true
}

/// `relative-json-pointer`: a non-negative integer, an optional index manipulation (`+N`, `-N`),
/// then `#` or a JSON Pointer.
fn is_relative_json_pointer(text: &str) -> bool {
    let Some(rest) = strip_non_negative_integer(text) else {
        return false;
    };
    let rest = match rest.strip_prefix(['+', '-']) {
        Some(manipulation) => match strip_non_negative_integer(manipulation) {
            Some(rest) => rest,
            None => return false,
        },
        None => rest,
    };
    rest == "#" || is_json_pointer(rest)
}

/// What follows a leading `non-negative-integer = "0" / %x31-39 *DIGIT`.
fn strip_non_negative_integer(text: &str) -> Option<&str> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 1 && text.starts_with('0') {
        return None;
    }
    text.get(digits..)
}

const REGEX: &str = "expected a valid regular expression like ^[a-z]+(-[a-z]+)*$: balanced \
                     brackets and parentheses, something before each quantifier, ranges in order; \
                     look-around and backreferences are not supported";

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that `format` accepts each of `valid` and rejects each of `invalid`.
    fn assert_format(format: &str, valid: &[&str], invalid: &[&str]) {
        for text in valid {
            assert_eq!(
                check_format(format, text),
                Ok(()),
                "{format} rejected {text:?}"
            );
        }
        for text in invalid {
            assert!(
                check_format(format, text).is_err(),
                "{format} accepted {text:?}"
            );
        }
    }

    const FORMATS: [&str; 19] = [
        "date-time",
        "date",
        "time",
        "duration",
        "email",
        "idn-email",
        "hostname",
        "idn-hostname",
        "ipv4",
        "ipv6",
        "uri",
        "uri-reference",
        "iri",
        "iri-reference",
        "uuid",
        "uri-template",
        "json-pointer",
        "relative-json-pointer",
        "regex",
    ];

    #[test]
    fn date_time() {
        assert_format(
            "date-time",
            &[
                "2026-11-25T14:30:00Z",
                "1963-06-19T08:30:06.283185Z",
                "1937-01-01T12:00:27.87+00:20",
                "1990-12-31T15:59:50.123-08:00",
                "1963-06-19t08:30:06.283185z",
                "1998-12-31T23:59:60Z",
                "1998-12-31T15:59:60.123-08:00",
                "1985-04-12T00:59:59.999999999999999Z",
                "2024-02-29T00:00:00-00:00",
                "0000-01-01T00:00:00Z",
            ],
            &[
                "",
                "2026-11-25",
                "2026-11-25 14:30:00Z",
                "2026-11-25T14:30:00",
                "2026-11-25T14:30Z",
                "1998-12-31T23:59:61Z",
                "1998-12-31T23:58:60Z",
                "1998-12-31T22:59:60Z",
                "1990-02-31T15:59:59.123-08:00",
                "1990-12-31T15:59:59-24:00",
                "1990-12-31T10:00:00+10:60",
                "1963-06-19T08:30:06.28123+01:00Z",
                "1990-12-31T24:00:00Z",
                "1990-12-31T15:60:00Z",
                "06/19/1963 08:30:06 PST",
                "2013-350T01:01:01",
                "1963-6-19T08:30:06.283185Z",
                "1963-06-1\u{9ea}T00:00:00Z",
                "1963-06-11T0\u{9ea}:00:00Z",
                "+11963-06-19T08:30:06.283185Z",
                "2026-11-25T14:30:00.Z",
                "2026-11-25T14:30:00Z\n",
            ],
        );
    }

    #[test]
    fn date() {
        assert_format(
            "date",
            &[
                "1963-06-19",
                "2020-01-31",
                "2020-02-29",
                "2000-02-29",
                "0400-02-29",
                "2021-02-28",
                "2020-04-30",
                "2020-12-31",
                "0001-01-01",
            ],
            &[
                "",
                "2020-01-32",
                "2021-02-29",
                "2100-02-29",
                "0100-02-29",
                "2020-04-31",
                "2020-11-31",
                "1998-13-01",
                "2024-00-15",
                "2024-01-00",
                "06/19/1963",
                "2013-350",
                "1998-1-20",
                "1998-01-1",
                "20230328",
                "2023-W13-2",
                "2020-11-28T23:55:45Z",
                " 2024-01-15",
                "2024-01-15 ",
                "12020-01-01",
                "+2020-01-01",
                "2020-0\u{9ea}-01",
                "2020/01/01",
            ],
        );
    }

    #[test]
    fn time() {
        assert_format(
            "time",
            &[
                "08:30:06Z",
                "08:30:06z",
                "23:20:50.52Z",
                "08:30:06.283185Z",
                "08:30:06+00:20",
                "08:30:06-08:00",
                "12:34:56-00:00",
                "23:59:60Z",
                "23:59:60+00:00",
                "01:29:60+01:30",
                "23:29:60+23:30",
                "15:59:60-08:00",
                "00:29:60-23:30",
                "00:00:00+23:59",
            ],
            &[
                "",
                "12:00:00",
                "12:00:00.52",
                "008:030:006Z",
                "8:3:6Z",
                "22:59:60Z",
                "23:58:60Z",
                "23:59:60+01:00",
                "23:59:60-00:30",
                "24:00:00Z",
                "00:60:00Z",
                "00:00:61Z",
                "01:02:03+24:00",
                "01:02:03+00:60",
                "01:02:03Z+00:30",
                "08:30:06 PST",
                "01:01:01,1111",
                "08:30:06+0130",
                "08:30:06+01",
                "08:30:06-8:000",
                "08:30:06#00:20",
                "08:30:06Z\n",
                "1\u{9e8}:00:00Z",
                "2020-11-28T23:55:45Z",
            ],
        );
    }

    #[test]
    fn duration() {
        assert_format(
            "duration",
            &[
                "P4DT12H30M5S",
                "P4Y",
                "PT0S",
                "P0D",
                "P1M",
                "PT1M",
                "PT36H",
                "P1DT12H",
                "P2W",
                "P1Y2M3DT4H5M6S",
                "P1Y2M",
                "P1M2D",
                "PT1M2S",
                "P01D",
                "P999999999999999999999999999999D",
            ],
            &[
                "",
                "P",
                "PT",
                "P1YT",
                "PT1D",
                "4DT12H30M5S",
                "P2D1Y",
                "P1D2H",
                "P2S",
                "P1Y2W",
                "P1WT1H",
                "P0Y1W",
                "W",
                "PW",
                "P1",
                "P1Y2D",
                "PT1H2S",
                "PT0.5S",
                "PT0,5S",
                "-P1D",
                "P-1D",
                "P1e2D",
                "P1D2T3H",
                "P\u{9e8}Y",
                " P1D",
                "P1D\n",
                "p1d",
            ],
        );
    }

    #[test]
    fn email() {
        assert_format(
            "email",
            &[
                "joe.bloggs@example.com",
                "te~st@example.com",
                "~test@example.com",
                "te.s.t@example.com",
                "a+tag@sub.example.co.uk",
                "\"joe bloggs\"@example.com",
                "\"joe..bloggs\"@example.com",
                "\"joe@bloggs\"@example.com",
                "\"\"@iana.org",
                "\"\\\"\"@iana.org",
                "joe.bloggs@[127.0.0.1]",
                "joe.bloggs@[IPv6:::1]",
                "a@[ipv6:2001:db8::1]",
                "test@255.255.255.255",
                "test@c--n.com",
                "test@io",
            ],
            &[
                "",
                "2962",
                "@example.com",
                "joe.bloggs@",
                ".test@example.com",
                "test.@example.com",
                "te..st@example.com",
                "joe bloggs@example.com",
                "joe.bloggs@invalid=domain.com",
                "joe.bloggs@[127.0.0.300]",
                "a@[1.2.3]",
                "a@[]",
                "test@[RFC-5322-domain-literal]",
                "test@a[255.255.255.255]",
                "test@[1.2.3.4",
                "user1@oceania.org, user2@oceania.org",
                "\"Winston Smith\" <winston.smith@recdep.minitrue> (Records Department)",
                "a\u{e9}@iana.org",
                "a@\u{e9}.org",
                "a\u{ff20}iana.org",
                "\"test\\\u{a9}\"@iana.org",
                "test@iana.org\n",
                "a\tb@iana.org",
                "\u{7f}@iana.org",
                "test\"@iana.org",
                "\"test\"test@iana.org",
                "\"test@iana.org",
                "a@b@c.org",
                "test\\@test@iana.org",
                "[1.2.3.4]@iana.org",
                "test@-iana.org",
                "test@iana-.com",
                "test@iana.org.",
                "test@iana..com",
                "a,b@iana.org",
                "test(comment)@iana.org",
            ],
        );
    }

    #[test]
    fn email_lengths() {
        let local = "a".repeat(64);
        let domain = format!(
            "{}.{}.{}.com",
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(61)
        );
        assert_eq!(
            check_format("email", &format!("{local}@example.com")),
            Ok(())
        );
        assert_eq!(
            check_format("email", &format!("a{local}@example.com")),
            Err(EMAIL_TOO_LONG)
        );
        assert_eq!(check_format("email", &format!("a@{domain}")), Ok(()));
        assert_eq!(
            check_format("email", &format!("{local}@{domain}")),
            Err(EMAIL_TOO_LONG)
        );
    }

    #[test]
    fn idn_email() {
        assert_format(
            "idn-email",
            &[
                "실례@실례.테스트",
                "joe.bloggs@example.com",
                "用户@例子.广告",
                "δοκιμή@παράδειγμα.δοκιμή",
                "\"j\u{f6}e bloggs\"@example.com",
                "m\u{fc}ller@b\u{fc}cher.example",
                "a@[IPv6:::1]",
                "\"\"@example.com",
            ],
            &[
                "",
                "2962",
                "실례@",
                "@실례.테스트",
                ".실례@실례.테스트",
                "실..례@실례.테스트",
                "실 례@실례.테스트",
                "a\u{a0}b@example.com",
                "a\u{85}b@example.com",
                "a@b\u{a0}c.com",
                "a@-b.com",
                "a@b@c.com",
                "\"unclosed@example.com",
            ],
        );
    }

    #[test]
    fn hostname() {
        let label = "a".repeat(63);
        let longest = format!("{label}.{label}.{label}.{}", "a".repeat(61));
        let longer = format!("{longest}a");
        assert_format(
            "hostname",
            &[
                "www.example.com",
                "xn--4gbwdl.xn--wgbh1c",
                "localhost",
                "1host",
                "123.com",
                "a-b-c.example",
                "EXAMPLE.COM",
                "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk.com",
                &longest,
            ],
            &[
                "",
                ".",
                "-a-host-name-that-starts-with--",
                "not_a_valid_host_name",
                "a-vvvvvvvvvvvvvvvveeeeeeeeeeeeeeeerrrrrrrrrrrrrrrryyyyyyyyyyyyyyyy-long-host-name-component",
                "-hostname",
                "hostname-",
                "_hostname",
                "host_name",
                "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl.com",
                "example.com.",
                ".example.com",
                "example..com",
                "ex ample.com",
                "bücher.example",
                "a\u{3002}b",
                "example.com:80",
                &longer,
            ],
        );
        assert_eq!(check_format("hostname", &longer), Err(HOSTNAME_TOO_LONG));
    }

    #[test]
    fn idn_hostname() {
        let greek = "παράδειγμα";
        assert_format(
            "idn-hostname",
            &[
                "실례.테스트",
                "xn--ihqwcrb4cv8a8dqg056pqjye",
                "bücher.example",
                "hostname",
                "host-name",
                "h0stn4me",
                "a\u{3002}b",
                "a\u{ff0e}b",
                "a\u{ff61}b",
                "\u{5d0}\u{5f3}\u{5d1}",
                "\u{915}\u{94d}\u{200d}\u{937}",
                &format!("{}.com", greek.repeat(6)),
            ],
            &[
                "",
                ".",
                "\u{3002}",
                ".example",
                "\u{3002}example",
                "example.",
                "example\u{ff61}",
                "a..b",
                "-hello",
                "hello-",
                "-> $1.00 <--",
                "host_name",
                "a b.example",
                "a\u{3000}b.example",
                "a\u{7f}b.example",
                &format!("{}.com", greek.repeat(7)),
                &format!("{}\u{3002}com", greek.repeat(7)),
            ],
        );
    }

    #[test]
    fn ipv4() {
        assert_format(
            "ipv4",
            &[
                "192.168.0.1",
                "0.0.0.0",
                "255.255.255.255",
                "10.0.0.10",
                "127.0.0.1",
                "1.2.3.4",
            ],
            &[
                "",
                "127.0.0.0.1",
                "256.256.256.256",
                "192.168.0.256",
                "127.0",
                "127.1",
                "127.0.1",
                "0x7f000001",
                "2130706433",
                "0x7f.0.0.1",
                "087.10.0.1",
                "01.2.3.4",
                "1.2.3.04",
                "1\u{9e8}7.0.0.1",
                "192.168.1.0/24",
                " 192.168.0.1",
                "192.168.0.1\n",
                "192.168..1",
                ".192.168.0.1",
                "192.168.0.1.",
                "+1.2.3.4",
                "1e2.0.0.1",
                "192.168.0.1:80",
                "::1",
            ],
        );
    }

    #[test]
    fn ipv6() {
        assert_format(
            "ipv6",
            &[
                "::1",
                "::",
                "::abef",
                "::42:ff:1",
                "d6::",
                "1:d6::42",
                "1::d6:192.168.0.1",
                "1:2::192.168.0.1",
                "::ffff:192.168.0.1",
                "1:2:3:4:5:6:7:8",
                "1000:1000:1000:1000:1000:1000:255.255.255.255",
                "2001:DB8:0:0:8:800:200C:417A",
                "0001:2:3:4:5:6:7:8",
            ],
            &[
                "",
                "12345::",
                "::abcef",
                "1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1",
                "::laptop",
                ":2:3:4:5:6:7:8",
                "1:2:3:4:5:6:7:",
                ":2:3:4::8",
                "1::d6::42",
                "1::2:192.168.256.1",
                "1::2:192.168.ff.1",
                "::ffff:192.168.0.01",
                "1:2:3:4:5:::8",
                "1:2:3:4:5:6:7",
                "1",
                "127.0.0.1",
                "1:2:3:4:1.2.3",
                "  ::1",
                "::1  ",
                "fe80::/64",
                "fe80::a%eth1",
                "[::1]",
                "100:100:100:100:100:100:100:255.255.255.255",
                "1:2:3:4:5:6:7:\u{9ea}",
            ],
        );
    }

    #[test]
    fn uri() {
        assert_format(
            "uri",
            &[
                "http://foo.bar/?baz=qux#quux",
                "http://foo.com/blah_(wikipedia)_blah#cite-1",
                "http://foo.bar/?q=Test%20URL-encoded%20stuff",
                "http://xn--nw2a.xn--j6w193g/",
                "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
                "http://223.255.255.254",
                "ldap://[2001:db8::7]/c=GB?objectClass?one",
                "mailto:John.Doe@example.com",
                "news:comp.infosystems.www.servers.unix",
                "tel:+1-816-555-1212",
                "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
                "http://087.10.0.1/",
                "http://a.com:",
                "http://a.com:999999999",
                "http://:80",
                "http://@a.com",
                "http://user@",
                "http://example.com.",
                "http://under_score.com/",
                "file:///etc/hosts",
                "http://[v1.fe:x]/",
                "h+t-t.p:x",
            ],
            &[
                "",
                "//foo.bar/?baz=qux#quux",
                "/abc",
                "abc",
                "\\\\WINDOWS\\fileshare",
                "http:// shouldfail.com",
                ":// should fail",
                "bar,baz:foo",
                "https://[@example.org/test.txt",
                "https://example.org/foobar®.txt",
                "https://example.org/foobar\\.txt",
                "https://example.org/foobar\".txt",
                "https://example.org/foobar<>.txt",
                "https://example.org/foobar{}.txt",
                "https://example.org/foobar^.txt",
                "https://example.org/foobar`.txt",
                "https://example.org/foo bar.txt",
                "https://example.org/foobar|.txt",
                "http://example.com/%6G",
                "http://example.com/%A",
                "http://example.com/%",
                "1http://example.com",
                "ht_tp://example.com",
                "http://example.com:abc/path",
                "http://a.com:8:0",
                "http://a.com::",
                "http://2001:db8::1/",
                "http://[::ffff:192.168.0.01]/",
                "http://[fe80::1%25eth0]/",
                "http://[::1]x/",
                "http://a#b#c",
                "http://a/b\n",
            ],
        );
    }

    #[test]
    fn uri_reference() {
        assert_format(
            "uri-reference",
            &[
                "http://foo.bar/?baz=qux#quux",
                "//foo.bar/?baz=qux#quux",
                "/abc",
                "abc",
                "#fragment",
                "",
                "?query=1",
                "//",
                "./this:that",
                "a/b:c",
                "../a/./b",
                "//[V1.fe]/p",
                "http://999.999.999.999/",
            ],
            &[
                "\\\\WINDOWS\\fileshare",
                "#frag\\ment",
                "/foobar®.txt",
                "https://example.org/foobar\\.txt",
                "/%zz",
                "/a\"b",
                "/[::1]",
                "//example.com:abc/p",
                "//a@b@example.com/",
                "//[::ffff:192.168.0.01]/p",
                "1:b",
                ":b",
                "/p\n",
                "a b",
                "//[v.x]/",
                "//[vg.x]/",
            ],
        );
    }

    #[test]
    fn iri() {
        assert_format(
            "iri",
            &[
                "http://ƒøø.ßår/?∂éœ=πîx#πîüx",
                "http://ƒøø.com/blah_(wîkïpédiå)_blah#ßité-1",
                "http://ƒøø.ßår/?q=Test%20URL-encoded%20stuff",
                "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
                "http://[2001:0db8:85a3:0000:0000:8a2e:0370:7334]",
                "http://[2001:db8::1]",
                "http://192.168.0.1/p",
                "urn:example:resource",
                "file:/etc/hosts",
                "http://ƒøø.ßår/\u{10300}",
                "http://ƒøø.ßår/?q=\u{f0000}",
                "https://example.com/café?q=ü",
            ],
            &[
                "",
                "http://2001:0db8:85a3:0000:0000:8a2e:0370:7334",
                "/abc",
                "\\\\WINDOWS\\filëßåré",
                "âππ",
                "http://[::ffff:192.168.0.01]",
                "http://ƒøø.ßår/\n",
                "http://ƒøø.ßår/\u{f0000}",
                "http://example.com/\u{e000}",
                "http://example.com/a\u{85}b",
                "http://example.com/a\u{fffe}b",
                "http://example.com/a b",
                "ƒtp://example.com",
            ],
        );
    }

    #[test]
    fn iri_reference() {
        assert_format(
            "iri-reference",
            &[
                "http://ƒøø.ßår/?∂éœ=πîx#πîüx",
                "//ƒøø.ßår/?∂éœ=πîx#πîüx",
                "/âππ",
                "âππ",
                "#ƒrägmênt",
                "//[V1.fe]/p",
                "",
                "?q=\u{f0000}",
            ],
            &[
                "\\\\WINDOWS\\filëßåré",
                "#ƒräg\\mênt",
                "/a b",
                "/a\u{e000}",
                "#\u{f0000}",
                "1:âππ",
                "//a@b@ƒøø/",
                "/a{b}",
            ],
        );
    }

    #[test]
    fn uuid() {
        assert_format(
            "uuid",
            &[
                "2EB8AA08-AA98-11EA-B4AA-73B441D16380",
                "2eb8aa08-aa98-11ea-b4aa-73b441d16380",
                "2eb8aa08-AA98-11ea-B4Aa-73B441D16380",
                "00000000-0000-0000-0000-000000000000",
                "98d80576-482e-427f-8434-7f86890ab222",
                "99c17cbb-656f-f64a-940f-1a4568f03487",
            ],
            &[
                "",
                "2eb8aa08-aa98-11ea-b4aa-73b441d1638",
                "2eb8aa08-aa98-11ea-73b441d16380",
                "2eb8aa08-aa98-11ea-b4ga-73b441d16380",
                "2eb8aa08aa9811eab4aa73b441d16380",
                "2eb8aa08aa98-11ea-b4aa73b441d16380",
                "2eb8-aa08-aa98-11ea-b4aa73b44-1d16380",
                "2eb8aa08aa9811eab4aa73b441d16380----",
                "2eb8aa0-8aa98-11e-ab4aa7-3b441d16380",
                "urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380",
                "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}",
                "2eb8aa08-aa98-11ea-b4aa-73b441d1638\u{e9}",
            ],
        );
    }

    #[test]
    fn uri_template() {
        assert_format(
            "uri-template",
            &[
                "http://example.com/dictionary/{term:1}/{term}",
                "http://example.com/dictionary",
                "dictionary/{term:1}/{term}",
                "",
                "a%41b",
                "a\u{1f600}b",
                "a\u{e000}b",
                "a\u{f0000}b",
                "{+var}",
                "{#var}",
                "{.var}",
                "{/var}",
                "{;var}",
                "{?var}",
                "{&var}",
                "{var*}",
                "{x,y}",
                "{a.b}",
                "{%41}",
                "{v:1000}",
                "a'b",
                "{?a,b*,c:3}{&d}",
            ],
            &[
                "http://example.com/dictionary/{term:1}/{term",
                "{}",
                "{a,,b}",
                "{v:0}",
                "{v:10000}",
                "foo}bar",
                "a%",
                "a%4",
                "a%GG",
                "{a..b}",
                "{a}}",
                "{a.}",
                "{%}",
                "{%4}",
                "{%GG}",
                "{v:01}",
                "a b",
                "a\u{7f}b",
                "{a,}",
                "{var=def}",
                "{,+var}",
                "{a{b}}",
                "{a-b}",
                "{a:1*}",
                "a\"b",
                "a|b",
            ],
        );
    }

    #[test]
    fn json_pointer() {
        assert_format(
            "json-pointer",
            &[
                "",
                "/",
                "/foo",
                "/foo/0",
                "/foo/bar~0/baz~1/%a",
                "/foo//bar",
                "/foo/bar/",
                "/a~1b",
                "/c%d",
                "/e^f",
                "/i\\j",
                "/k\"l",
                "/ ",
                "/m~0n",
                "/foo/-",
                "/~1~0~0~1~1",
                "/~0.1",
                "/foo/bar/😎",
                "/01",
                "/\u{7f}",
                "/foo\u{0}bar\n\tbaz",
            ],
            &[
                "/foo/bar~",
                "#",
                "#/",
                "#a",
                "#/foo",
                "/~0~",
                "/~0/~",
                "/~2",
                "/~-1",
                "/~~",
                "a",
                "0",
                "a/a",
                "/foo\u{0}~",
                "/~\u{ff10}",
            ],
        );
    }

    #[test]
    fn relative_json_pointer() {
        assert_format(
            "relative-json-pointer",
            &[
                "1",
                "0",
                "0/foo/bar",
                "2/0/baz/1/zip",
                "0#",
                "0+1",
                "0+1/foo",
                "1-2/bar",
                "0-0",
                "0-1#",
                "120/foo/bar",
                "100",
                "0//",
                "0/",
            ],
            &[
                "",
                "/foo/bar",
                "1foo",
                "-1/foo/bar",
                "+1/foo/bar",
                "0+",
                "0-01",
                "0++1",
                "0+1not-a-pointer",
                "\u{661}/foo",
                "0##",
                "01/a",
                "01#",
                "0/~2",
                "0/foo/bar~",
                "1#/foo/bar",
                "1\n",
                "#",
            ],
        );
    }

    #[test]
    fn regex() {
        assert_format(
            "regex",
            &[
                "",
                "([abc])+\\s+$",
                "a|b",
                "a{2,3}",
                "[^a-z]",
                "a+?",
                "^[a-z]+(-[a-z]+)*$",
                "(?i)hello",
                "\\p{L}+",
                "(?<year>\\d{4})-(?<month>\\d{2})",
            ],
            &[
                "^(abc]",
                "*a",
                "[z-a]",
                "\\",
                "a)",
                "[abc",
                "(abc",
                "a{3,2}",
                "(?=a)",
                "(a)\\1",
                "\\p{NoSuchClass}",
            ],
        );
    }

    #[test]
    fn reasons_say_what_to_fix() {
        assert_eq!(check_format("date", "2021-02-29"), Err(NO_SUCH_DATE));
        assert_eq!(check_format("date", "2021-13-01"), Err(NO_SUCH_DATE));
        assert_eq!(check_format("date", "2021-2-1"), Err(DATE));
        assert_eq!(
            check_format("date-time", "2021-04-31T00:00:00Z"),
            Err(NO_SUCH_DATE)
        );
        assert_eq!(
            check_format("date-time", "2021-04-30T24:00:00Z"),
            Err(TIME_RANGE)
        );
        assert_eq!(
            check_format("date-time", "2021-04-30T12:00:60Z"),
            Err(LEAP_SECOND)
        );
        assert_eq!(check_format("date-time", "2021-04-30"), Err(DATE_TIME));
        assert_eq!(check_format("time", "12:00:00+24:00"), Err(TIME_RANGE));
        assert_eq!(check_format("time", "12:00"), Err(TIME));
        assert_eq!(check_format("idn-hostname", "-a"), Err(IDN_HOSTNAME));
        assert_eq!(check_format("idn-email", "a"), Err(IDN_EMAIL));
        assert_eq!(check_format("iri", "/a"), Err(IRI));
        assert_eq!(check_format("iri-reference", "a b"), Err(IRI_REFERENCE));
        assert_eq!(check_format("uri-reference", "a b"), Err(URI_REFERENCE));
        for format in FORMATS {
            let reason = check_format(format, "\u{0}(").unwrap_err();
            assert!(reason.starts_with("expected "), "{format}: {reason}");
        }
    }

    #[test]
    fn unknown_formats_pass() {
        assert_eq!(check_format("int64", "not a number"), Ok(()));
        assert_eq!(check_format("", ""), Ok(()));
        assert_eq!(check_format("Date", "nope"), Ok(()));
    }

    #[test]
    fn no_panic_on_any_cut_of_tricky_text() {
        let samples = [
            "2026-11-25T14:30:00.5+01:00",
            "P1Y2M3DT4H5M6S",
            "\"a\\\u{e9}\"@[IPv6:::1]",
            "实例@실례.테스트\u{3002}",
            "http://user@[v1.a]:80/p?q#f%4",
            "{+a.b,c:99,d*}%e9\u{f0000}",
            "0+1/~0~1~",
            "(?<n>[\\p{L}--a]{2,}?)|\\",
            "2eb8aa08-aa98-11ea-b4aa-73b441d1638\u{e9}",
            "::ffff:255.255.255.25\u{9ea}",
        ];
        for format in FORMATS {
            for sample in samples {
                for (i, _) in sample.char_indices() {
                    let (head, tail) = sample.split_at(i);
                    let _ = check_format(format, head);
                    let _ = check_format(format, tail);
                }
            }
        }
    }

    #[test]
    fn long_inputs_are_handled() {
        let long = "a".repeat(100_000);
        for format in FORMATS {
            let _ = check_format(format, &long);
            let _ = check_format(format, &format!("/{long}"));
            let _ = check_format(format, &"{".repeat(10_000));
            let _ = check_format(format, &"(".repeat(10_000));
        }
        assert!(check_format("regex", &"(".repeat(10_000)).is_err());
        assert_eq!(check_format("json-pointer", &format!("/{long}")), Ok(()));
    }
}
