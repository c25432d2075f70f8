//! The one detector of Anthropic's pattern rule (`Rule::Pattern`): what
//! in a regex its strict grammar cannot read. The run-time check of a schema calls it, and the
//! derive compiles this same file (`toolgen-macros/src/shape/anthropic_pattern.rs` is a link to
//! it) to refuse such a `pattern` at a strict tool's field and to mark it in the field's facts;
//! so it uses nothing but `core`.
//!
//! <https://docs.claude.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations>

/// Whether `regex` has a backreference (`\1`, `\k<name>`), lookaround (`(?=`, `(?!`, `(?<=`,
/// `(?<!`) or a word boundary (`\b`, `\B`, and `\<`, `\>` as the regex crate reads them), which
/// Anthropic's strict grammar does not take. An escaped backslash (`\\b`) is no boundary.
pub(crate) fn unreadable_by_anthropic(regex: &str) -> bool {
    let bytes = regex.as_bytes();
    let at = |i: usize| bytes.get(i).copied();
    let mut i = 0;
    while let Some(byte) = at(i) {
        match (byte, at(i + 1), at(i + 2), at(i + 3)) {
            (b'\\', Some(b'b' | b'B' | b'<' | b'>' | b'k' | b'1'..=b'9'), ..) => return true,
            (b'\\', ..) => i += 1,
            (b'(', Some(b'?'), Some(b'=' | b'!'), _) => return true,
            (b'(', Some(b'?'), Some(b'<'), Some(b'=' | b'!')) => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::unreadable_by_anthropic;

    #[test]
    fn boundaries_backreferences_and_lookaround_are_unreadable() {
        for regex in [
            r"\bword\b",
            r"\Bing",
            r"\<word\>",
            r"\b{start}w",
            r"(\w)\1",
            r"\k<n>",
            r"(?=a)",
            r"(?!z)",
            r"(?<=x)",
            r"(?<!x)y",
        ] {
            assert!(unreadable_by_anthropic(regex), "{regex}");
        }
        for regex in [
            r"^[a-z]+$",
            r"\\b",
            r"\A\w+\z",
            r"(?<name>a)",
            r"(?:a)",
            r"a\.b",
            r"\",
        ] {
            assert!(!unreadable_by_anthropic(regex), "{regex}");
        }
    }
}
