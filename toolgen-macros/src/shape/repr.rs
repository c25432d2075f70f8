//! How serde reads an enum: its representation, decided once from `#[serde(tag, content,
//! untagged)]` and read by every walk (schema, facts, nulls, checks).

use serde_derive_internals::attr::TagType;

use super::Variant;

/// An enum's representation, as serde_derive's `TagType` has it (for a struct: `External`,
/// which nothing reads).
pub enum Repr {
    /// The default: a unit variant is its name, any other `{"<name>": content}`.
    External,
    /// `#[serde(tag = "..")]`: the tag is a property beside the content's own.
    Internal { tag: String },
    /// `#[serde(tag = "..", content = "..")]`: `{"<tag>": name, "<content>": content}`.
    Adjacent { tag: String, content: String },
    /// `#[serde(untagged)]`: the content alone, each variant tried in turn.
    Untagged,
}

impl Repr {
    /// The representation serde's attributes give.
    pub fn from_serde(tag: &TagType) -> Repr {
        match tag {
            TagType::External => Repr::External,
            TagType::Internal { tag } => Repr::Internal { tag: tag.clone() },
            TagType::Adjacent { tag, content } => Repr::Adjacent {
                tag: tag.clone(),
                content: content.clone(),
            },
            TagType::None => Repr::Untagged,
        }
    }

    /// How serde reads `variant`: as the enum says, but `#[serde(untagged)]` on the variant makes
    /// it untagged (tried after the tagged ones).
    pub fn of_variant<'r>(&'r self, variant: &Variant<'_>) -> &'r Repr {
        if variant.untagged {
            &Repr::Untagged
        } else {
            self
        }
    }

    /// `variants` split into those the representation reads (all of them, for an untagged enum)
    /// and the `#[serde(untagged)]` ones of a tagged enum, which serde tries after them.
    pub fn split_untagged<'v, 'a>(
        &self,
        variants: &[&'v Variant<'a>],
    ) -> (Vec<&'v Variant<'a>>, Vec<&'v Variant<'a>>) {
        variants
            .iter()
            .partition(|v| !v.untagged || matches!(self, Repr::Untagged))
    }
}
