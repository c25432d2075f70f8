//! The text stripper: one pass over the argument text that drops the `"key": null` members
//! the plan says to drop, without building a `serde_json::Value`; it finds the errors, and reads
//! the rare keys the stripping parse leaves to it.

use std::borrow::Cow;

use super::lexer::{
    decode_into, literal, scan_number, scan_string, skip_container, skip_whitespace,
};
use super::plan;

// The text stripper reads the derived types' plans only ([`plan::plan_for`]).
type Plan = plan::Plan<'static>;
use super::sets::{
    Conflicts, MAX_DEPTH, MAX_STEPS, Stack, Tag, expand, has_tagged, item_set, lookup_set,
    resolve_tags, same_key, take_step,
};

/// Drops the members `"key": null` of `text` (JSON) whose key has a default where it is, as
/// `root` tells, fixing the commas around them.
///
/// `None` when nothing was dropped, and when the text is not JSON, nests deeper than serde_json
/// reads, or repeats a key next to a dropped one: the caller then parses `text` as it is, and
/// serde reports what is wrong with it. Objects and arrays with nothing to strip in them are
/// skipped rather than read (strings read, brackets counted): what is wrong in there is not
/// seen here, but is copied as it is, and serde rejects the stripped text; the caller then
/// parses the original for serde's own error. (Dropping well-formed members never makes text
/// that is not JSON into JSON: the parser meets what is wrong in the same state as before.)
///
/// A `null` that an untagged enum's variants disagree about is kept or dropped as `conflicts`
/// says, and the first one met is recorded there.
pub(crate) fn strip_text(
    text: &str,
    root: &'static Plan,
    conflicts: &mut Conflicts,
) -> Option<String> {
    if !may_strip(text.as_bytes(), root) {
        return None;
    }
    let mut stack = Vec::with_capacity(16);
    let mut steps = MAX_STEPS;
    expand(root, &mut stack, 0, &mut steps);
    let cuts = scan(text, &mut stack, conflicts)?;
    if cuts.is_empty() {
        return None;
    }
    let removed: usize = cuts.iter().map(|(start, end)| end - start).sum();
    let mut out = String::with_capacity(text.len().saturating_sub(removed));
    let mut at = 0;
    for &(start, end) in &cuts {
        out.push_str(text.get(at..start)?);
        at = end;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}

/// Whether `bytes` may have a member to drop: a `null` after `"key":`, where the key is the name
/// of a field with a default somewhere in the tree. A quick look before the full pass, which
/// arguments with no such member (only plain `Option`s sent as `null`) are then spared. It may
/// answer yes wrongly (text in a string that looks like a member, a name with a default in
/// another object), never no wrongly on JSON.
pub(crate) fn may_strip(bytes: &[u8], root: &'static Plan) -> bool {
    let mut names = None;
    let mut from = 0;
    while let Some(at) = find_null(bytes, from) {
        from = at + 1;
        let Some(key) = key_before(bytes, at) else {
            continue;
        };
        // A key with escapes is not compared here.
        if key.contains(&b'\\') {
            return true;
        }
        let names = names.get_or_insert_with(|| {
            let mut names = Vec::new();
            let mut seen = Vec::new();
            let mut steps = MAX_NAME_STEPS;
            default_names(root, &mut names, &mut seen, &mut steps).then_some(names)
        });
        match names {
            Some(names) => {
                if names.iter().any(|name| same_key(name.as_bytes(), key)) {
                    return true;
                }
            }
            // A tree too large to list: the full pass decides.
            None => return true,
        }
    }
    false
}

/// How many nodes [`default_names`] visits before it gives up.
pub(crate) const MAX_NAME_STEPS: usize = 4096;

/// Appends the names of the fields with a default in the tree to `names`; `false` if the tree
/// has more nodes than `steps`. `seen` holds the `Lazy` targets visited already.
pub(crate) fn default_names(
    node: &'static Plan,
    names: &mut Vec<&'static str>,
    seen: &mut Vec<*const Plan>,
    steps: &mut usize,
) -> bool {
    if !take_step(steps) {
        return false;
    }
    match node {
        Plan::None | Plan::Keep => true,
        Plan::Object(fields, flattened, _) => {
            fields.iter().all(|field| {
                if field.default && !names.contains(&field.name) {
                    names.push(field.name);
                }
                default_names(field.inner, names, seen, steps)
            }) && flattened
                .iter()
                .all(|node| default_names(node, names, seen, steps))
        }
        Plan::Items(inner) | Plan::Unique(inner) | Plan::Values(inner) => {
            default_names(inner, names, seen, steps)
        }
        Plan::Tuple(nodes) | Plan::Any(nodes) | Plan::Untagged(nodes) => nodes
            .iter()
            .all(|node| default_names(node, names, seen, steps)),
        Plan::Tagged(_, cases) => cases
            .iter()
            .all(|case| default_names(case.node, names, seen, steps)),
        Plan::Lazy(resolve) | Plan::Cycle(resolve) => {
            let target = resolve.plan();
            let pointer: *const Plan = target;
            if seen.contains(&pointer) {
                return true;
            }
            seen.push(pointer);
            default_names(target, names, seen, steps)
        }
    }
}

/// The text of the key before the `null` at `at`, if it stands after `"key":` (with any
/// whitespace), read backwards.
pub(crate) fn key_before(bytes: &[u8], at: usize) -> Option<&[u8]> {
    let before_whitespace = |mut end: usize| {
        while end > 0 && matches!(bytes.get(end - 1), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            end -= 1;
        }
        end
    };
    let colon = before_whitespace(at).checked_sub(1)?;
    if bytes.get(colon) != Some(&b':') {
        return None;
    }
    let quote = before_whitespace(colon).checked_sub(1)?;
    if bytes.get(quote) != Some(&b'"') {
        return None;
    }
    // The opening quote: the first `"` before, unless a backslash precedes it, in which case the
    // key has escapes and is returned from there (the caller does not compare those).
    let open = bytes.get(..quote)?.iter().rposition(|&b| b == b'"')?;
    match open.checked_sub(1) {
        Some(before) if bytes.get(before) == Some(&b'\\') => bytes.get(before..quote),
        _ => bytes.get(open + 1..quote),
    }
}

/// The index of the first `null` at or after `from`, eight bytes at a time: each `n` followed
/// by `u` is checked.
pub(crate) fn find_null(bytes: &[u8], mut from: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // The high bit of each byte of `word` that is zero, exactly (no borrow between bytes).
    let zeros = |word: u64| !(((word & LOW) + LOW) | word) & !LOW;
    let is_null = |at: usize| matches!(bytes.get(at..at + 4), Some([b'n', b'u', b'l', b'l']));
    while let Some(Ok(chunk)) = bytes.get(from..from + 8).map(<[u8; 8]>::try_from) {
        let word = u64::from_le_bytes(chunk);
        // `n` at byte i and `u` at byte i + 1, for i in 0..7.
        let mut pairs =
            zeros(word ^ (ONES * u64::from(b'n'))) & (zeros(word ^ (ONES * u64::from(b'u'))) >> 8);
        while pairs != 0 {
            let at = from + (pairs.trailing_zeros() / 8) as usize;
            if is_null(at) {
                return Some(at);
            }
            pairs &= pairs - 1;
        }
        // The last byte is checked again with the next seven.
        from += 7;
    }
    (from..bytes.len()).find(|&at| is_null(at))
}

/// An open object or array.
pub(crate) struct Frame {
    /// An object (else an array).
    object: bool,
    /// Whether a member before was kept: then a dropped member takes the comma before it,
    /// otherwise the one after it.
    kept: bool,
    /// Whether a member was dropped.
    dropped: bool,
    /// Its node set: `stack[set..end]`.
    set: usize,
    end: usize,
    /// Where the next dropped member's cut starts: after the `{`, or after the member before.
    last_end: usize,
    /// The index of the current item (arrays).
    index: usize,
    /// Where the object's keys start in the list of keys.
    keys: usize,
}

/// A key of an object that names a field with a default.
pub(crate) struct Key {
    /// The field's name.
    name: &'static str,
    /// Whether its member was dropped.
    dropped: bool,
}

/// What the scanner reads next.
#[derive(Clone, Copy)]
pub(crate) enum State {
    /// A value.
    Value,
    /// A `,` or the end of the object or array, after a value.
    AfterValue,
    /// A member of an object: its key, `:`, and then its value.
    Member,
}

/// Reads `bytes` (JSON) in one pass, following the node sets, the root's on `stack`: the byte
/// ranges to leave out, in order and not overlapping. `None` where [`strip_text`] gives up.
pub(crate) fn scan(
    text: &str,
    stack: &mut Stack<'static>,
    conflicts: &mut Conflicts,
) -> Option<Vec<(usize, usize)>> {
    let bytes = text.as_bytes();
    let mut frames: Vec<Frame> = Vec::with_capacity(16);
    let mut keys: Vec<Key> = Vec::with_capacity(16);
    let mut cuts = Vec::with_capacity(64);
    let mut decoded = String::new();
    let mut at = 0;
    let mut state = State::Value;
    loop {
        match state {
            State::Value => {
                at = skip_whitespace(bytes, at);
                // The value's node set is on top of the stack, after its object's or array's.
                let from = frames.last().map_or(0, |frame| frame.end);
                let byte = *bytes.get(at)?;
                if byte == b'{' || byte == b'[' {
                    if byte == b'{' && stack.get(from..).is_some_and(has_tagged) {
                        let members = at + 1;
                        resolve_tags(stack, from, |tag| tag_value(text, members, tag));
                    }
                    if from == stack.len() {
                        at = skip_container(bytes, at)?;
                        state = State::AfterValue;
                        continue;
                    }
                    if frames.len() >= MAX_DEPTH {
                        return None;
                    }
                    let object = byte == b'{';
                    at = skip_whitespace(bytes, at + 1);
                    frames.push(Frame {
                        object,
                        kept: false,
                        dropped: false,
                        set: from,
                        end: stack.len(),
                        last_end: at,
                        index: 0,
                        keys: keys.len(),
                    });
                    let close = if object { b'}' } else { b']' };
                    if bytes.get(at) == Some(&close) {
                        at += 1;
                        close_frame(&mut frames, &mut keys, stack)?;
                        state = State::AfterValue;
                    } else if object {
                        state = State::Member;
                    } else {
                        let end = stack.len();
                        item_set(stack, from, end, 0);
                    }
                    continue;
                }
                at = match byte {
                    b'"' => scan_string(bytes, at)?.0,
                    b't' => literal(bytes, at, b"true")?,
                    b'f' => literal(bytes, at, b"false")?,
                    b'n' => literal(bytes, at, b"null")?,
                    b'-' | b'0'..=b'9' => scan_number(bytes, at)?,
                    _ => return None,
                };
                stack.truncate(from);
                state = State::AfterValue;
            }
            State::AfterValue => {
                let Some(frame) = frames.last_mut() else {
                    return (skip_whitespace(bytes, at) == bytes.len()).then_some(cuts);
                };
                if frame.object {
                    frame.last_end = at;
                    frame.kept = true;
                }
                at = skip_whitespace(bytes, at);
                let byte = *bytes.get(at)?;
                at += 1;
                match (frame.object, byte) {
                    (true, b',') => state = State::Member,
                    (false, b',') => {
                        frame.index += 1;
                        let (set, end, index) = (frame.set, frame.end, frame.index);
                        if set < end {
                            item_set(stack, set, end, index);
                        }
                        state = State::Value;
                    }
                    (true, b'}') | (false, b']') => {
                        close_frame(&mut frames, &mut keys, stack)?;
                    }
                    _ => return None,
                }
            }
            State::Member => {
                at = skip_whitespace(bytes, at);
                if bytes.get(at) != Some(&b'"') {
                    return None;
                }
                let key_start = at + 1;
                let (after_key, escaped) = scan_string(bytes, at)?;
                at = skip_whitespace(bytes, after_key);
                if bytes.get(at) != Some(&b':') {
                    return None;
                }
                at = skip_whitespace(bytes, at + 1);
                state = State::Value;
                let frame = frames.last()?;
                let (set, end) = (frame.set, frame.end);
                let raw = bytes.get(key_start..after_key - 1)?;
                let key = if escaped {
                    decode_into(raw, &mut decoded)?;
                    decoded.as_bytes()
                } else {
                    raw
                };
                let null = matches!(bytes.get(at..at + 4), Some([b'n', b'u', b'l', b'l']));
                let Some(name) = lookup_set(stack, set, end, key).drops(null, conflicts) else {
                    continue;
                };
                keys.push(Key {
                    name,
                    dropped: false,
                });
                if !null {
                    continue;
                }
                // `"key": null` with a default: drop it, with one comma.
                let value_end = at + 4;
                stack.truncate(end);
                at = skip_whitespace(bytes, value_end);
                let separator = *bytes.get(at)?;
                let frame = frames.last_mut()?;
                let cut = match separator {
                    b',' if frame.kept => {
                        state = State::Member;
                        (frame.last_end, value_end)
                    }
                    b',' => {
                        state = State::Member;
                        (frame.last_end, at + 1)
                    }
                    b'}' => {
                        state = State::AfterValue;
                        (frame.last_end, value_end)
                    }
                    _ => return None,
                };
                cuts.push(cut);
                frame.last_end = cut.1;
                frame.dropped = true;
                if let Some(key) = keys.last_mut() {
                    key.dropped = true;
                }
                at += 1;
                if separator == b'}' {
                    close_frame(&mut frames, &mut keys, stack)?;
                }
            }
        }
    }
}

/// The value of the member `tag` of the object whose members start at `at` (after its `{`), when
/// it is a string or an index: the variant an internally or adjacently tagged enum is. serde
/// takes the first (a repeated tag is an error there).
pub(crate) fn tag_value<'b>(text: &'b str, mut at: usize, tag: &str) -> Option<Tag<'b>> {
    let bytes = text.as_bytes();
    let mut decoded = String::new();
    loop {
        at = skip_whitespace(bytes, at);
        if bytes.get(at) != Some(&b'"') {
            return None;
        }
        let (after_key, escaped) = scan_string(bytes, at)?;
        let raw = bytes.get(at + 1..after_key - 1)?;
        let is_tag = if escaped {
            decode_into(raw, &mut decoded)?;
            decoded == tag
        } else {
            same_key(raw, tag.as_bytes())
        };
        at = skip_whitespace(bytes, after_key);
        if bytes.get(at) != Some(&b':') {
            return None;
        }
        at = skip_whitespace(bytes, at + 1);
        let start = at;
        at = match *bytes.get(at)? {
            b'"' => {
                let (end, escaped) = scan_string(bytes, at)?;
                if is_tag {
                    let raw = bytes.get(start + 1..end - 1)?;
                    if escaped {
                        decode_into(raw, &mut decoded)?;
                        return Some(Tag::Name(Cow::Owned(decoded)));
                    }
                    // Between two quotes: on characters' bounds.
                    return text
                        .get(start + 1..end - 1)
                        .map(|name| Tag::Name(Cow::Borrowed(name)));
                }
                end
            }
            // A variant's index, or nothing serde reads a variant from.
            _ if is_tag => {
                let end = scan_number(bytes, at).unwrap_or(at);
                let digits = text.get(at..end)?;
                return digits.parse().ok().map(Tag::Index);
            }
            b'{' | b'[' => skip_container(bytes, at)?,
            b't' => literal(bytes, at, b"true")?,
            b'f' => literal(bytes, at, b"false")?,
            b'n' => literal(bytes, at, b"null")?,
            _ => scan_number(bytes, at)?,
        };
        at = skip_whitespace(bytes, at);
        match bytes.get(at)? {
            b',' => at += 1,
            _ => return None,
        }
    }
}

/// Closes the innermost object or array (its closing bracket read).
pub(crate) fn close_frame(
    frames: &mut Vec<Frame>,
    keys: &mut Vec<Key>,
    stack: &mut Stack<'static>,
) -> Option<()> {
    let frame = frames.pop()?;
    // A repeated key is an error for serde; dropping one copy would hide it. (Two keys that are
    // the same name the same field.)
    if frame.dropped && repeats_dropped_key(keys.get(frame.keys..).unwrap_or_default()) {
        return None;
    }
    keys.truncate(frame.keys);
    stack.truncate(frame.set);
    Some(())
}

/// Whether a dropped key of one object appears twice in it. (The same key finds the same field
/// in the same object's node set, so the names are the same `&'static str`.)
pub(crate) fn repeats_dropped_key(keys: &[Key]) -> bool {
    keys.iter().enumerate().any(|(at, key)| {
        key.dropped
            && keys
                .iter()
                .enumerate()
                .any(|(other_at, other)| other_at != at && std::ptr::eq(other.name, key.name))
    })
}
