//! What the walks read of a named field, derived once from its attributes: whether it is
//! required, its default and the default's JSON text, the type its schema is written from, and
//! whether it mentions the container's own type. Every walk (schema, nulls, facts, checks) reads
//! these, never the attributes they come from.

use syn::{Ident, Type};

use super::Field;
use super::ty::{is_option, mentions_self};
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
    /// field (not a function's, nor the container's value's), without `#[tool(default)]`.
    pub states_type_default: bool,
    /// `#[tool(default = ..)]` as JSON text (stated in the schema, and filled in where the key is
    /// missing), or why it is not JSON.
    pub fill: Option<syn::Result<String>>,
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
        let serde_requires = !default && tool.default.is_none() && !optional;
        let input_ty = tool.schema.as_ref().unwrap_or(ty);
        let has_default = default || tool.default.is_some();
        let none_by_default = is_option(input_ty)
            && !with
            && !default_path
            && tool.default.is_none()
            && !container_default;
        let required = tool.required.is_present() || serde_requires;
        Prop {
            serde_requires,
            required,
            defaults_to_value: has_default && !none_by_default,
            states_type_default: tool.default.is_none()
                && default
                && !default_path
                && !container_default,
            fill: tool
                .default
                .as_ref()
                .map(|value| crate::json::expr_to_json(value)),
            holds_self: mentions_self(input_ty, own),
            optional_inner: is_option(input_ty) && !required && !nullable,
        }
    }

    /// The `#[tool(default = ..)]` value's JSON text, when it is JSON.
    pub fn fill_text(&self) -> Option<&str> {
        self.fill.as_ref()?.as_deref().ok()
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

impl Field<'_> {
    /// The type whose schema describes the field's input: `#[tool(schema = ..)]`'s, else its own.
    /// (A field read `with` a function may have a type that has no schema at all.)
    pub fn input_ty(&self) -> &Type {
        self.tool.schema.as_ref().unwrap_or(self.ty)
    }
}
