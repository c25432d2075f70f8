//! serde's `rename_all` rules, applied the way serde applies them to fields and variants.

/// A `#[serde(rename_all = "...")]` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

/// Every rule, by the name serde gives it.
pub const RULES: &[(&str, RenameRule)] = &[
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

impl RenameRule {
    pub fn from_name(name: &str) -> Option<Self> {
        RULES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, rule)| *rule)
    }

    /// A variant name (written in PascalCase) under this rule, as serde's `apply_to_variant`.
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => {
                let mut chars = variant.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            RenameRule::Snake => pascal_to_snake(variant),
            RenameRule::ScreamingSnake => pascal_to_snake(variant).to_ascii_uppercase(),
            RenameRule::Kebab => pascal_to_snake(variant).replace('_', "-"),
            RenameRule::ScreamingKebab => pascal_to_snake(variant)
                .to_ascii_uppercase()
                .replace('_', "-"),
        }
    }

    /// A field name (written in snake_case) under this rule, as serde's `apply_to_field`.
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            RenameRule::Camel => {
                let pascal = RenameRule::Pascal.apply_to_field(field);
                let mut chars = pascal.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

/// `GetWeather` -> `get_weather`, as serde's `snake_case` rule does for variants.
pub fn pascal_to_snake(name: &str) -> String {
    let mut snake = String::new();
    for (i, ch) in name.char_indices() {
        if i > 0 && ch.is_uppercase() {
            snake.push('_');
        }
        snake.push(ch.to_ascii_lowercase());
    }
    snake
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_follow_serde() {
        let cases = [
            (RenameRule::Lower, "veryfast"),
            (RenameRule::Upper, "VERYFAST"),
            (RenameRule::Pascal, "VeryFast"),
            (RenameRule::Camel, "veryFast"),
            (RenameRule::Snake, "very_fast"),
            (RenameRule::ScreamingSnake, "VERY_FAST"),
            (RenameRule::Kebab, "very-fast"),
            (RenameRule::ScreamingKebab, "VERY-FAST"),
        ];
        for (rule, expected) in cases {
            assert_eq!(rule.apply_to_variant("VeryFast"), expected, "{rule:?}");
        }
    }

    #[test]
    fn fields_follow_serde() {
        let cases = [
            (RenameRule::Lower, "very_fast"),
            (RenameRule::Upper, "VERY_FAST"),
            (RenameRule::Pascal, "VeryFast"),
            (RenameRule::Camel, "veryFast"),
            (RenameRule::Snake, "very_fast"),
            (RenameRule::ScreamingSnake, "VERY_FAST"),
            (RenameRule::Kebab, "very-fast"),
            (RenameRule::ScreamingKebab, "VERY-FAST"),
        ];
        for (rule, expected) in cases {
            assert_eq!(rule.apply_to_field("very_fast"), expected, "{rule:?}");
        }
    }

    #[test]
    fn tool_names_from_type_names() {
        assert_eq!(pascal_to_snake("GetWeather"), "get_weather");
        assert_eq!(pascal_to_snake("EmitFlashcards"), "emit_flashcards");
        assert_eq!(pascal_to_snake("A"), "a");
    }
}
