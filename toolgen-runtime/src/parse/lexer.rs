//! The JSON lexer the text paths share: whitespace, literals, strings, numbers and whole
//! containers skipped over bytes, and a string's escapes decoded. The byte-level rules
//! ([`is_whitespace`], [`simple_escape`], [`surrogate_pair`]) are also those of the incremental
//! lexer of partial JSON (`wire/partial.rs`), which resumes mid-token across stream deltas.
use super::sets::same_key;

/// JSON's whitespace (RFC 8259, section 2).
#[inline]
pub(crate) fn is_whitespace(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n' | b'\r' | b'\t')
}

#[inline]
pub(crate) fn skip_whitespace(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).copied().is_some_and(is_whitespace) {
        at += 1;
    }
    at
}

/// The character a one-letter escape (`\n`, `\"`, ..) stands for: `byte` is the letter after the
/// backslash. `None` for `u` (four hex digits follow) and for what is not an escape.
#[inline]
pub(crate) fn simple_escape(byte: u8) -> Option<char> {
    Some(match byte {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

/// Whether a `\uXXXX` code unit is the leading half of a surrogate pair.
#[inline]
pub(crate) fn is_high_surrogate(code: u32) -> bool {
    (0xD800..=0xDBFF).contains(&code)
}

/// The character of a surrogate pair; `None` where `low` is not a trailing half.
#[inline]
pub(crate) fn surrogate_pair(high: u32, low: u32) -> Option<char> {
    if !(0xDC00..=0xDFFF).contains(&low) {
        return None;
    }
    char::from_u32(0x10000 + ((high.checked_sub(0xD800)?) << 10) + (low - 0xDC00))
}

/// The end of `word` (`true`, `false`, `null`), which must be at `at`.
#[inline]
pub(crate) fn literal(bytes: &[u8], at: usize, word: &[u8]) -> Option<usize> {
    let end = at + word.len();
    same_key(bytes.get(at..end)?, word).then_some(end)
}

/// The end of the string whose opening quote is at `at`, and whether it has escapes.
#[inline(always)]
pub(crate) fn scan_string(bytes: &[u8], at: usize) -> Option<(usize, bool)> {
    let mut at = at + 1;
    let mut escaped = false;
    loop {
        at = string_stop(bytes, at);
        match *bytes.get(at)? {
            b'"' => return Some((at + 1, escaped)),
            b'\\' => {
                escaped = true;
                at = match bytes.get(at + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => at + 2,
                    b'u' => {
                        let digits = bytes.get(at + 2..at + 6)?;
                        if !digits.iter().all(u8::is_ascii_hexdigit) {
                            return None;
                        }
                        at + 6
                    }
                    _ => return None,
                };
            }
            // A control character: not allowed in a JSON string.
            0..0x20 => return None,
            _ => at += 1,
        }
    }
}

/// The end of the number that starts at `at`.
pub(crate) fn scan_number(bytes: &[u8], mut at: usize) -> Option<usize> {
    let digits = |mut at: usize| {
        let start = at;
        while bytes.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        (at > start).then_some(at)
    };
    if bytes.get(at) == Some(&b'-') {
        at += 1;
    }
    at = match bytes.get(at)? {
        b'0' => at + 1,
        b'1'..=b'9' => digits(at)?,
        _ => return None,
    };
    if bytes.get(at) == Some(&b'.') {
        at = digits(at + 1)?;
    }
    if let Some(b'e' | b'E') = bytes.get(at) {
        at += 1;
        if let Some(b'+' | b'-') = bytes.get(at) {
            at += 1;
        }
        at = digits(at)?;
    }
    Some(at)
}

/// The end of the object or array whose `{` or `[` is at `at` and which has nothing to strip:
/// strings are passed over, brackets counted, the rest not looked at.
pub(crate) fn skip_container(bytes: &[u8], mut at: usize) -> Option<usize> {
    let mut depth = 0usize;
    loop {
        let byte = *bytes.get(at)?;
        at += 1;
        if byte == b'"' {
            // Escapes are passed over; whether they are valid is serde's to say.
            loop {
                at = string_stop(bytes, at);
                match *bytes.get(at)? {
                    b'"' => break,
                    b'\\' => at += 2,
                    _ => at += 1,
                }
            }
            at += 1;
        } else if byte == b'{' || byte == b'[' {
            depth += 1;
        } else if byte == b'}' || byte == b']' {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(at);
            }
        }
    }
}

/// The index of the first `"`, `\\` or control character at or after `at` (or the length), eight
/// bytes at a time: a string's text runs up to there.
#[inline(always)]
pub(crate) fn string_stop(bytes: &[u8], at: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const QUOTES: u64 = ONES * b'"' as u64;
    const BACKSLASHES: u64 = ONES * b'\\' as u64;
    const SPACES: u64 = ONES * 0x20;
    let rest = bytes.get(at..).unwrap_or_default();
    let mut chunks = rest.chunks_exact(8);
    let mut offset = at;
    for chunk in chunks.by_ref() {
        let word = match <[u8; 8]>::try_from(chunk) {
            Ok(chunk) => u64::from_le_bytes(chunk),
            Err(_) => break,
        };
        let quote = word ^ QUOTES;
        let backslash = word ^ BACKSLASHES;
        // The high bit of each byte that is zero (after the xor) or below 0x20. Borrows run from
        // low bytes to high ones, so the lowest bit set is exact; the bytes above it may be
        // flagged wrongly, which does not matter.
        let found = (quote.wrapping_sub(ONES) & !quote
            | backslash.wrapping_sub(ONES) & !backslash
            | word.wrapping_sub(SPACES) & !word)
            & HIGH;
        if found != 0 {
            return offset + (found.trailing_zeros() / 8) as usize;
        }
        offset += 8;
    }
    for &byte in chunks.remainder() {
        if byte == b'"' || byte == b'\\' || byte < 0x20 {
            break;
        }
        offset += 1;
    }
    offset
}

/// Decodes the text of a JSON string (between the quotes, already checked) into `out`; `None`
/// for an escape that is not a character (a lone surrogate).
pub(crate) fn decode_into(raw: &[u8], out: &mut String) -> Option<()> {
    out.clear();
    let text = std::str::from_utf8(raw).ok()?;
    let mut rest = text;
    while let Some(at) = rest.find('\\') {
        out.push_str(rest.get(..at)?);
        let escape = rest.get(at + 1..)?;
        let letter = *escape.as_bytes().first()?;
        let (decoded, used) = match simple_escape(letter) {
            Some(decoded) => (decoded, 1),
            None if letter == b'u' => {
                let first = hex4(escape.get(1..5)?)?;
                if is_high_surrogate(first) {
                    let low = escape
                        .get(5..7)
                        .filter(|s| *s == "\\u")
                        .and_then(|_| escape.get(7..11))
                        .and_then(hex4)?;
                    (surrogate_pair(first, low)?, 11)
                } else {
                    (char::from_u32(first)?, 5)
                }
            }
            None => return None,
        };
        out.push(decoded);
        rest = escape.get(used..)?;
    }
    out.push_str(rest);
    Some(())
}

pub(crate) fn hex4(digits: &str) -> Option<u32> {
    if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}
