//! What the walks read of a named field, derived once from its attributes: whether it is
//! required, its default and the default's JSON text, the type its schema is written from, and
//! whether it mentions the container's own type. Every walk (schema, nulls, facts, checks) reads
//! these, never the attributes they come from.

use syn::{Ident, Type};

use super::Field;
use super::keywords::Keywords;
use super::ty::{is_option, mentions_self, names_patch};
use crate::attr::tool::FieldToolAttrs;

/// A named field's derived values.
pub struct Prop {
    /// Whether serde needs the field to be present: no default (its own, the container's, or
    /// `#[tool(default)]`'s), and not an `Option` serde reads as `None` when missing.
    pub serde_requires: bool,
    /// Whether the schema lists the field in `required`: serde needs it, or `#[tool(required)]`.
    pub required: bool,
    /// Whether a missing key (or a `null` dropped for one) is read as a value other than `None`:
    /// a default, but for an `Option`'s plain `#[serde(default)]`, which reads `None` as `null`
    /// does.
    pub defaults_to_value: bool,
    /// Whether the schema states the type's own `Default`: a plain `#[serde(default)]` on the
    /// field (not a function's, nor the container's value's), without `#[tool(default)]`, nor
    /// `#[tool(schema = Patch<..>)]`.
    pub states_type_default: bool,
    /// Whether the field's input type mentions the container itself (a recursive field).
    pub holds_self: bool,
    /// Whether the schema is the field's `Option`'s inner type's, as published tools write a
    /// field that may be left out: the input type is an `Option`, the field is not listed in
    /// `required`, and `#[tool(nullable)]` (on it or its container) does not ask for `null` to
    /// be shown. (Parsing reads a `null` as `None` all the same.)
    pub optional_inner: bool,
}

impl Prop {
    /// The values of a field of type `ty` with `tool` attributes; `default`: it has serde's
    /// (its own or `container_default`), `default_path` by a function, `with`: serde reads it
    /// with a function; `nullable`: `#[tool(nullable)]` on it or its container; `own`: the
    /// container's name.
    pub fn derive(
        ty: &Type,
        tool: &FieldToolAttrs,
        keywords: &Keywords,
        serde_default: SerdeDefault,
        with: bool,
        nullable: bool,
        own: &Ident,
    ) -> Prop {
        let SerdeDefault {
            default,
            default_path,
            container_default,
        } = serde_default;
        // serde reads a missing `Option` as `None`, but not when a `deserialize_with` function
        // reads the field: then only `default` makes it optional.
        let optional = is_option(ty) && !with;
        let serde_requires = !default && keywords.default.is_none() && !optional;
        let input_ty = tool.schema.as_ref().unwrap_or(ty);
        let has_default = default || keywords.default.is_some();
        let none_by_default = is_option(input_ty)
            && !with
            && !default_path
            && keywords.default.is_none()
            && !container_default;
        let required = tool.required.is_present() || serde_requires;
        Prop {
            serde_requires,
            required,
            defaults_to_value: has_default && !none_by_default,
            // A field described as a `Patch` (serde_with's `double_option`, say): its own type's
            // `Default` (`None`) is a missing key, not the `null` it would be written as.
            states_type_default: keywords.default.is_none()
                && default
                && !default_path
                && !container_default
                && !tool.schema.as_ref().is_some_and(names_patch),
            holds_self: mentions_self(input_ty, own),
            optional_inner: is_option(input_ty) && !required && !nullable,
        }
    }
}

/// What serde says of a field's default.
pub struct SerdeDefault {
    /// `#[serde(default)]` on the field or the container.
    pub default: bool,
    /// `#[serde(default = "path")]` on the field: a default only that function knows.
    pub default_path: bool,
    /// `#[serde(default)]` on the container.
    pub container_default: bool,
}

/// How a field holds a type written as a `Patch<T>` so that its `Absent` never arrives: what
/// the derive has const evaluation check, where the type is, in case it is toolgen's `Patch`
/// (`::toolgen::__private::PatchMisuse`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchMisuse {
    /// The field's own type, without a default: serde reads a missing key as `null`.
    NoDefault,
    /// The field's own type, with `#[tool(default = ..)]`: written in where the key is missing.
    Filled,
    /// Inside an item, a map's value, a tuple or an `Option`: never left out.
    Held,
}

impl Field<'_> {
    /// The types written as a `Patch<T>` in the field's input type that are held so that their
    /// `Absent` never arrives, and how ([`PatchMisuse`]). Empty for every other field.
    pub fn patch_misuses(&self) -> Vec<(&Type, PatchMisuse)> {
        let ty = self.input_ty();
        let (own, held) = super::ty::patches(ty);
        let mut out: Vec<(&Type, PatchMisuse)> = held
            .into_iter()
            .map(|held| (held, PatchMisuse::Held))
            .collect();
        // (Through a pointer too: serde reads a `Box<Patch<T>>` as the `Patch` inside.)
        if own && self.flatten.is_none() {
            if self.keywords.default.is_some() {
                out.push((ty, PatchMisuse::Filled));
            } else if self.prop.serde_requires {
                out.push((ty, PatchMisuse::NoDefault));
            }
        }
        out
    }
}

impl Field<'_> {
    /// The type whose schema describes the field's input: `#[tool(schema = ..)]`'s, else its own.
    /// (A field read `with` a function may have a type that has no schema at all.)
    pub fn input_ty(&self) -> &Type {
        self.tool.schema.as_ref().unwrap_or(self.ty)
    }
}

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    use super::PatchMisuse;
    use crate::shape::{Container, Derive};

    /// Each field's `Patch` misuses, as `(field, type, misuse)` text.
    fn misuses(input: syn::DeriveInput) -> Vec<(String, String, PatchMisuse)> {
        let mut errors = darling::Error::accumulator();
        let container = Container::from_ast(&input, Derive::ToolSchema, &mut errors);
        assert!(errors.finish().is_ok());
        container
            .named_fields()
            .into_iter()
            .flat_map(|field| {
                field
                    .patch_misuses()
                    .into_iter()
                    .map(|(ty, misuse)| {
                        let ty = quote::quote!(#ty).to_string().replace(' ', "");
                        (field.name.clone(), ty, misuse)
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    #[test]
    fn a_patch_held_where_absence_never_arrives_is_a_misuse() {
        let found = misuses(parse_quote! {
            struct S {
                #[serde(default)] fine: Patch<u8>,
                #[serde(default)] boxed: Box<toolgen::Patch<u8>>,
                bare: toolgen::Patch<u8>,
                unboxed: Box<Patch<u8>>,
                #[serde(default)] #[tool(default = 1)] filled: Patch<u8>,
                items: Vec<Patch<u8>>,
                #[serde(default)] nested: Option<(u8, Patch<String>)>,
                other: Wrapper<Patch<u8>>,
                plain: Option<u8>,
            }
        });
        let expected = [
            ("bare", "toolgen::Patch<u8>", PatchMisuse::NoDefault),
            ("unboxed", "Box<Patch<u8>>", PatchMisuse::NoDefault),
            ("filled", "Patch<u8>", PatchMisuse::Filled),
            ("items", "Patch<u8>", PatchMisuse::Held),
            ("nested", "Patch<String>", PatchMisuse::Held),
        ];
        let expected: Vec<_> = expected
            .iter()
            .map(|(field, ty, misuse)| ((*field).to_owned(), (*ty).to_owned(), *misuse))
            .collect();
        assert_eq!(found, expected);
        // A struct default lets every field be left out.
        let found = misuses(parse_quote! {
            #[serde(default)]
            struct S { patch: Patch<u8> }
        });
        assert_eq!(found, []);
    }
}
