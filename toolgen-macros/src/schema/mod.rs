//! From the checked model to schema pieces: a small tree ([`Node`]) that mirrors the runtime's
//! `Rope`. Whatever the macro can write out as text is folded into literal text here, so const
//! evaluation only has to join the pieces the macro cannot know (user types, generic parameters).

pub mod json;
pub mod types;

use crate::ast::{Container, Data, Field, Variant};

/// A schema, or a fragment of one, as the macro builds it.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// JSON text.
    Text(String),
    /// Pieces in order.
    Seq(Vec<Node>),
    /// `{"type":"<ty>"` + tail (see `Rope::Typed`: only null-extensible keywords in the tail).
    Typed(&'static str, Box<Node>),
    /// The schema or `null`.
    Nullable(Box<Node>),
    /// The schema with a description (escaped JSON string content).
    Described(Box<Node>, String),
    /// `<ty as ToolSchema>::SCHEMA`: a type only the compiler can resolve.
    Trait(Box<syn::Type>),
}

impl Node {
    pub fn text(text: impl Into<String>) -> Node {
        Node::Text(text.into())
    }

    pub fn typed(ty: &'static str, tail: Node) -> Node {
        Node::Typed(ty, Box::new(tail))
    }

    pub fn described(self, description: Option<&str>) -> Node {
        match description {
            Some(text) => Node::Described(Box::new(self), json::escape(text)),
            None => self,
        }
    }

    /// The JSON text, when every piece is known to the macro. Must agree byte for byte with the
    /// runtime's `walk`; the integration tests compare both paths for every std type.
    pub fn literal(&self) -> Option<String> {
        match self {
            Node::Text(text) => Some(text.clone()),
            Node::Seq(pieces) => pieces.iter().map(Node::literal).collect(),
            Node::Typed(ty, tail) => Some(format!("{{\"type\":\"{ty}\"{}", tail.literal()?)),
            Node::Nullable(inner) => match &**inner {
                Node::Typed(ty, tail) => {
                    Some(format!("{{\"type\":[\"{ty}\",\"null\"]{}", tail.literal()?))
                }
                Node::Nullable(_) => inner.literal(),
                Node::Described(schema, description) => Node::Described(
                    Box::new(Node::Nullable(schema.clone())),
                    description.clone(),
                )
                .literal(),
                _ => Some(format!(
                    "{{\"anyOf\":[{},{{\"type\":\"null\"}}]}}",
                    inner.literal()?
                )),
            },
            Node::Described(inner, description) => {
                let inner = match &**inner {
                    Node::Described(schema, _) => schema,
                    _ => inner,
                };
                let mut text = inner.literal()?;
                let empty = text == "{}";
                text.pop();
                if !empty {
                    text.push(',');
                }
                text.push_str(&format!("\"description\":\"{description}\"}}"));
                Some(text)
            }
            Node::Trait(_) => None,
        }
    }

    /// The types whose `ToolSchema` impls this schema uses.
    pub fn trait_leaves<'n>(&'n self, out: &mut Vec<&'n syn::Type>) {
        match self {
            Node::Text(_) => {}
            Node::Seq(pieces) => pieces.iter().for_each(|p| p.trait_leaves(out)),
            Node::Typed(_, inner) | Node::Nullable(inner) | Node::Described(inner, _) => {
                inner.trait_leaves(out)
            }
            Node::Trait(ty) => out.push(ty),
        }
    }
}

/// Where a schema is built: what a self-reference turns into.
pub struct Context<'a> {
    pub container: &'a Container<'a>,
    /// `Some(ref text)` when the container is recursive: its own type becomes this `$ref`.
    pub self_ref: Option<String>,
    /// Bare prelude names (`String`, `Vec`, ..) the schema relied on.
    pub prelude_uses: types::PreludeUses,
}

/// The container's own schema (for a struct: its object schema, without its description).
pub fn schema_for_container(cx: &Context<'_>) -> Node {
    match &cx.container.data {
        Data::Named(fields) => schema_for_object(cx, fields),
        Data::Tuple(fields) if fields.len() == 1 => types::schema_for_type(cx, &fields[0].ty),
        Data::Tuple(fields) => {
            let items: Vec<Node> = fields
                .iter()
                .map(|f| types::schema_for_type(cx, &f.ty))
                .collect();
            types::tuple(items)
        }
        Data::Unit => Node::text(r#"{"type":"null"}"#),
        Data::Enum(variants) => schema_for_unit_enum(variants),
        // Reported by the checks; any schema will do for the fallback.
        Data::Union => Node::text("{}"),
    }
}

fn schema_for_object(cx: &Context<'_>, fields: &[Field<'_>]) -> Node {
    let mut tail = vec![Node::text(",\"properties\":{")];
    let mut required = Vec::new();
    for (i, field) in fields.iter().filter(|f| !f.skip).enumerate() {
        if i > 0 {
            tail.push(Node::text(","));
        }
        tail.push(Node::text(format!("{}:", json::string(&field.name))));
        tail.push(types::schema_for_type(cx, field.ty).described(field.description.as_deref()));
        if !field.default && !types::is_option(field.ty) {
            required.push(json::string(&field.name));
        }
    }
    tail.push(Node::text("}"));
    if !required.is_empty() {
        tail.push(Node::text(format!(
            ",\"required\":[{}]",
            required.join(",")
        )));
    }
    if cx.container.serde.deny_unknown_fields {
        tail.push(Node::text(",\"additionalProperties\":false"));
    }
    tail.push(Node::text("}"));
    Node::typed("object", Node::Seq(tail))
}

fn schema_for_unit_enum(variants: &[Variant<'_>]) -> Node {
    let variants: Vec<&Variant<'_>> = variants.iter().filter(|v| !v.skip).collect();
    if variants.is_empty() {
        // serde accepts no value at all for an enum without (readable) variants.
        return Node::text(r#"{"not":{}}"#);
    }
    if variants.iter().all(|v| v.description.is_none()) {
        let names: Vec<String> = variants.iter().map(|v| json::string(&v.name)).collect();
        return Node::text(format!(
            "{{\"type\":\"string\",\"enum\":[{}]}}",
            names.join(",")
        ));
    }
    // Documented variants: one `const` branch each, so every value keeps its description.
    let branches: Vec<String> = variants
        .iter()
        .map(|v| {
            let description = v
                .description
                .as_deref()
                .map(|d| format!(",\"description\":{}", json::string(d)))
                .unwrap_or_default();
            format!(
                "{{\"type\":\"string\",\"const\":{}{description}}}",
                json::string(&v.name)
            )
        })
        .collect();
    Node::text(format!("{{\"anyOf\":[{}]}}", branches.join(",")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_nullable_typed_into_a_type_array() {
        let node = Node::Nullable(Box::new(Node::typed("string", Node::text("}"))));
        assert_eq!(
            node.literal().as_deref(),
            Some(r#"{"type":["string","null"]}"#)
        );
    }

    #[test]
    fn folds_nullable_untyped_into_any_of() {
        let node = Node::Nullable(Box::new(Node::text(r#"{"enum":["a"]}"#)));
        assert_eq!(
            node.literal().as_deref(),
            Some(r#"{"anyOf":[{"enum":["a"]},{"type":"null"}]}"#)
        );
    }

    #[test]
    fn description_replaces_and_handles_empty_schema() {
        let inner = Node::text("{}").described(Some("old"));
        assert_eq!(
            inner.described(Some("new \"q\"")).literal().as_deref(),
            Some(r#"{"description":"new \"q\""}"#)
        );
        let nullable = Node::Nullable(Box::new(
            Node::typed("integer", Node::text(",\"minimum\":0}")).described(Some("n")),
        ));
        assert_eq!(
            nullable.literal().as_deref(),
            Some(r#"{"type":["integer","null"],"minimum":0,"description":"n"}"#)
        );
    }

    #[test]
    fn trait_nodes_are_not_literal() {
        let node = Node::Seq(vec![
            Node::text("a"),
            Node::Trait(Box::new(syn::parse_quote!(Foo))),
        ]);
        assert_eq!(node.literal(), None);
    }
}
