//! Enums, in each of serde's representations: externally tagged (the default), internally tagged
//! (`tag`), adjacently tagged (`tag` + `content`) and untagged, with variant-level `untagged` and
//! `other`. Branches are joined with `anyOf`, which every provider dialect accepts, or with
//! `oneOf` where the enum asks for it (`#[tool(one_of)]`; the dialects write it `anyOf`).

use super::{Built, Context, Node, json, object_parts, object_schema};
use crate::expand::facts::{self, Via};
use proc_macro2::TokenStream;
use quote::quote;

use crate::shape::repr::Repr;
use crate::shape::{Container, Data, Shape, Variant};

pub fn schema_for_enum(cx: &Context<'_>, variants: &[Variant<'_>]) -> Built {
    let repr = &cx.container.repr;
    let variants: Vec<&Variant<'_>> = variants.iter().collect();
    let (tagged, untagged) = repr.split_untagged(&variants);
    // Each branch's schema, and its kid in the enum's facts (a tagged variant's by its name).
    let branch = |built: Built| (built.node, facts::kid(Via::Branch, "", &built.facts));
    let named = |v: &Variant<'_>, built: Built| {
        (built.node, facts::kid(Via::Variant, &v.name, &built.facts))
    };
    let mut branches: Vec<(Node, _)> = match repr {
        Repr::External => external(cx, &tagged).into_iter().map(branch).collect(),
        Repr::Internal { tag } => tagged
            .iter()
            .map(|v| named(v, internal(cx, tag, v, &tagged)))
            .collect(),
        Repr::Adjacent { tag, content } => tagged
            .iter()
            .map(|v| named(v, adjacent(cx, tag, content, v, &tagged)))
            .collect(),
        Repr::Untagged => tagged
            .iter()
            .map(|v| branch(untagged_content(cx, v)))
            .collect(),
    };
    let untagged_from = if matches!(repr, Repr::Untagged) {
        0
    } else {
        branches.len() as u16
    };
    // Variant-level `#[serde(untagged)]`: tried after the tagged variants, as their content.
    branches.extend(untagged.iter().map(|v| branch(untagged_content(cx, v))));
    let picks = untagged_from < branches.len() as u16;
    let (nodes, kids): (Vec<Node>, Vec<_>) = branches.into_iter().unzip();
    Built {
        node: any_of(nodes, cx.container.one_of),
        facts: facts::enumeration(repr, untagged_from, &kids, picks),
    }
}

/// For an enum with untagged alternatives, the function its facts name (`picked_by`) that says
/// which of them serde takes for a JSON value, so that argument parsing checks only that one's
/// keywords: the enum read with serde where it implements `Deserialize` (else nothing known),
/// and its variant's position among the alternatives (`u16::MAX`: a tagged variant). In an
/// inherent impl with the type's own generics and bounds.
pub fn untagged_pick(container: &Container<'_>) -> Option<TokenStream> {
    let Data::Enum(variants) = &container.data else {
        return None;
    };
    let variants: Vec<&Variant<'_>> = variants.iter().collect();
    let (tagged, untagged) = container.repr.split_untagged(&variants);
    let alternatives = match container.repr {
        Repr::Untagged => tagged,
        _ => untagged,
    };
    if alternatives.is_empty() {
        return None;
    }
    let arms = alternatives.iter().enumerate().map(|(i, v)| {
        let ident = &v.original.ident;
        let i = i as u16;
        quote!(Self::#ident { .. } => #i,)
    });
    let ident = container.ident;
    let (impl_generics, ty_generics, where_clause) = container.original.generics.split_for_impl();
    Some(quote! {
        #[automatically_derived]
        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc(hidden)]
            #[allow(unreachable_patterns)]
            fn __toolgen_untagged(
                value: &::toolgen::__private::serde_json::Value,
            ) -> ::core::option::Option<u16> {
                #[allow(unused_imports)]
                use ::toolgen::__private::{PickBySerde as _, PickNone as _};
                (&&::toolgen::__private::UntaggedPick::<Self>::NEW).pick(value, |this: &Self| {
                    match this {
                        #(#arms)*
                        _ => u16::MAX,
                    }
                })
            }
        }
    })
}

/// One branch as it is, several under `anyOf`, none as a schema nothing matches.
fn any_of(mut branches: Vec<Node>, one_of: bool) -> Node {
    match branches.len() {
        // serde accepts no value at all for an enum without (readable) variants.
        0 => Node::text(r#"{"not":{}}"#),
        1 => branches.remove(0),
        _ => {
            let keyword = if one_of {
                "{\"oneOf\":["
            } else {
                "{\"anyOf\":["
            };
            let mut pieces = vec![Node::text(keyword)];
            for (i, branch) in branches.into_iter().enumerate() {
                if i > 0 {
                    pieces.push(Node::text(","));
                }
                pieces.push(branch);
            }
            pieces.push(Node::text("]}"));
            Node::Seq(pieces)
        }
    }
}

/// An untagged variant's branch: its content, described, which serde tries in turn with the
/// others (its own object kept whole by argument parsing).
fn untagged_content(cx: &Context<'_>, variant: &Variant<'_>) -> Built {
    content(cx, variant, true).described(variant.description.as_ref())
}

/// What a variant holds, as serde reads it without the tag. `untagged`: the variant is one
/// serde tries in turn with the others.
fn content(cx: &Context<'_>, variant: &Variant<'_>, untagged: bool) -> Built {
    match &variant.shape {
        Shape::Unit => Built::text(r#"{"type":"null"}"#),
        Shape::Newtype(ty) => Built::of_type(cx, ty),
        Shape::Tuple(items) => Built::tuple(cx, items.iter().copied()),
        Shape::Struct(fields) => Built::object(
            &object_parts(cx, fields, untagged),
            cx.container.serde.deny_unknown_fields,
            untagged,
        ),
    }
}

/// `{"type":"string","const":"name"}`, the one value a tag may have.
fn tag_const(name: &str) -> String {
    format!("{{\"type\":\"string\",\"const\":{}}}", json::string(name))
}

/// The `#[serde(other)]` variant's tag: any string but the other variants' names.
fn tag_other(variants: &[&Variant<'_>]) -> String {
    let names: Vec<String> = variants
        .iter()
        .filter(|v| v.other.is_none())
        .map(|v| json::string(&v.name))
        .collect();
    format!(
        "{{\"type\":\"string\",\"not\":{{\"enum\":[{}]}}}}",
        names.join(",")
    )
}

fn tag_schema(variant: &Variant<'_>, all: &[&Variant<'_>]) -> String {
    if variant.other.is_some() {
        tag_other(all)
    } else {
        tag_const(&variant.name)
    }
}

/// Externally tagged: a unit variant is its name; any other is `{"<name>": content}`.
fn external(cx: &Context<'_>, variants: &[&Variant<'_>]) -> Vec<Built> {
    let units: Vec<&&Variant<'_>> = variants
        .iter()
        .filter(|v| matches!(v.shape, Shape::Unit))
        .collect();
    let mut branches = Vec::new();
    // `#[serde(other)]`: any string that names no other variant (the unit variant's own name too).
    let (other, units): (Vec<&&Variant<'_>>, Vec<&&Variant<'_>>) =
        units.into_iter().partition(|v| v.other.is_some());
    if units.iter().all(|v| v.description.is_none()) {
        if !units.is_empty() {
            let names: Vec<&str> = units.iter().map(|v| v.name.as_str()).collect();
            let quoted: Vec<String> = names.iter().map(|name| json::string(name)).collect();
            branches.push(Built {
                node: Node::text(format!(
                    "{{\"type\":\"string\",\"enum\":[{}]}}",
                    quoted.join(",")
                )),
                facts: facts::string_enum(&names),
            });
        }
    } else {
        // Documented values: one `const` branch each, so every value keeps its description.
        branches.extend(units.iter().map(|v| Built {
            node: Node::text(tag_const(&v.name)).described(v.description.as_ref()),
            facts: facts::constant(&v.name),
        }));
    }
    branches.extend(
        other
            .iter()
            .map(|v| Built::text(tag_other(variants)).described(v.description.as_ref())),
    );
    for variant in variants.iter().filter(|v| !matches!(v.shape, Shape::Unit)) {
        let name = json::string(&variant.name);
        let content = content(cx, variant, false);
        branches.push(Built {
            node: Node::typed(
                "object",
                Node::Seq(vec![
                    Node::text(format!(",\"properties\":{{{name}:")),
                    content.node,
                    Node::text(format!(
                        "}},\"required\":[{name}],\"additionalProperties\":false}}"
                    )),
                ]),
            )
            .described(variant.description.as_ref()),
            facts: facts::external_variant(&variant.name, &content.facts),
        });
    }
    branches
}

/// Internally tagged: the tag is a property beside the variant's own fields.
fn internal(cx: &Context<'_>, tag: &str, variant: &Variant<'_>, all: &[&Variant<'_>]) -> Built {
    let tag_property = Node::text(format!(
        "{}:{}",
        json::string(tag),
        tag_schema(variant, all)
    ));
    let tag_name = Node::text(json::string(tag));
    let (mut parts, facts) = match &variant.shape {
        Shape::Struct(fields) => {
            let parts = object_parts(cx, fields, false);
            let facts = parts.facts.facts(&[tag], facts::tag_text(variant), false);
            (parts, facts)
        }
        Shape::Newtype(ty) => {
            let parts = super::ObjectParts {
                properties: vec![Node::PropertiesOf(Box::new((*ty).clone()))],
                required: vec![Node::RequiredOf(Box::new((*ty).clone()))],
                // Read on its own (not flattened), the content type denies what it denies.
                additional: vec![
                    Node::AdditionalOf(Box::new((*ty).clone())),
                    Node::DenyOf(Box::new((*ty).clone())),
                ],
                flattened: vec![(*ty).clone()],
                ..Default::default()
            };
            let facts = facts::internal_variant(tag, variant, Some(facts::of_type(cx, ty)));
            (parts, facts)
        }
        // Unit; tuple variants are refused by serde itself (and by the checks).
        _ => (
            super::ObjectParts::default(),
            facts::internal_variant(tag, variant, None),
        ),
    };
    parts.names.insert(0, tag.to_owned());
    parts.properties.insert(0, tag_property);
    parts.required.insert(0, tag_name);
    // serde denies unknown fields only in struct variants: a unit variant skips whatever follows
    // its tag, and a newtype variant's content type decides for itself.
    let deny = cx.container.serde.deny_unknown_fields && matches!(variant.shape, Shape::Struct(_));
    Built {
        node: object_schema(&parts, deny).described(variant.description.as_ref()),
        facts,
    }
}

/// Whether serde lets an adjacently tagged variant's content be missing: for a unit variant
/// (else it must be `null`) and a newtype variant of an `Option` (read as `None`).
fn content_optional(variant: &Variant<'_>) -> bool {
    match &variant.shape {
        Shape::Unit => true,
        Shape::Newtype(ty) => crate::shape::ty::is_option(ty),
        _ => false,
    }
}

/// Adjacently tagged: `{"<tag>": name, "<content>": content}`; a unit variant has no content.
fn adjacent(
    cx: &Context<'_>,
    tag: &str,
    content_key: &str,
    variant: &Variant<'_>,
    all: &[&Variant<'_>],
) -> Built {
    let content = content(cx, variant, false);
    let facts = facts::adjacent_variant(tag, content_key, variant, &content.facts);
    let (tag, content_key) = (json::string(tag), json::string(content_key));
    let mut tail = vec![Node::text(format!(
        ",\"properties\":{{{tag}:{}",
        tag_schema(variant, all)
    ))];
    tail.push(Node::text(format!(",{content_key}:")));
    tail.push(content.node);
    let required = if content_optional(variant) {
        format!("[{tag}]")
    } else {
        format!("[{tag},{content_key}]")
    };
    tail.push(Node::text(format!("}},\"required\":{required}")));
    if cx.container.serde.deny_unknown_fields {
        tail.push(Node::text(",\"additionalProperties\":false"));
    }
    tail.push(Node::text("}"));
    Built {
        node: Node::typed("object", Node::Seq(tail)).described(variant.description.as_ref()),
        facts,
    }
}

/// `OBJECT` of an enum: when serde can read every variant from the keys of an enclosing object
/// (`#[serde(flatten)]`), one alternative per variant, which the enclosing object's schema writes
/// under `anyOf`. Nothing (no `OBJECT`) when a variant cannot be read that way.
pub fn object_const(cx: &Context<'_>, variants: &[Variant<'_>]) -> proc_macro2::TokenStream {
    use quote::quote;
    let repr = &cx.container.repr;
    let variants: Vec<&Variant<'_>> = variants.iter().collect();
    // A string enum has no object form worth offering (`{"Name": null}` among the other keys).
    if matches!(repr, Repr::External) && variants.iter().all(|v| matches!(v.shape, Shape::Unit)) {
        return proc_macro2::TokenStream::new();
    }
    let mut branches = Vec::new();
    // Newtype variants are readable from the object only if their type is.
    let mut needs = Vec::new();
    for variant in &variants {
        let repr = repr.of_variant(variant);
        let Some(parts) = flattened_parts(cx, repr, variant, &variants) else {
            return proc_macro2::TokenStream::new();
        };
        if let (Repr::Untagged | Repr::Internal { .. }, Shape::Newtype(ty)) = (repr, &variant.shape)
        {
            needs.push(quote_spanned_of(
                ty,
                quote!(<#ty as ::toolgen::__private::ToolSchema>::OBJECT.is_some()),
            ));
        }
        // A flattened enum inside a variant would multiply the alternatives.
        for ty in &parts.flattened {
            needs.push(quote_spanned_of(
                ty,
                quote!(::toolgen::__private::has_no_branches(
                    &<#ty as ::toolgen::__private::ToolSchema>::OBJECT
                )),
            ));
        }
        let properties = crate::expand::rope::rope(&parts.properties_node());
        let required = crate::expand::rope::rope(&parts.required_node());
        let own = &parts.names;
        let flattened = parts.flattened.iter().map(|ty| {
            quote_spanned_of(
                ty,
                quote!(::toolgen::__private::Names::Of(
                &<#ty as ::toolgen::__private::ToolSchema>::OBJECT)),
            )
        });
        let description = match &variant.description {
            Some(crate::attr::doc::Desc::Text(text)) => {
                let text = json::escape(text);
                quote!(#text)
            }
            Some(expr) => quote!(#expr),
            None => quote!(""),
        };
        branches.push(quote! {
            ::toolgen::__private::Branch {
                properties: #properties,
                required: #required,
                names: ::toolgen::__private::Names::Seq(&[
                    ::toolgen::__private::Names::List(&[#(#own),*]),
                    #(#flattened),*
                ]),
                description: #description,
            }
        });
    }
    quote! {
        const OBJECT: ::core::option::Option<::toolgen::__private::Object> =
            if true #(&& #needs)* {
                ::core::option::Option::Some(::toolgen::__private::Object {
                    properties: ::toolgen::__private::Rope::Str(""),
                    required: ::toolgen::__private::Rope::Str(""),
                    additional: ::core::option::Option::None,
                    deny_unknown: false,
                    names: ::toolgen::__private::Names::None,
                    branches: ::toolgen::__private::Branches::List(&[#(#branches),*]),
                })
            } else {
                ::core::option::Option::None
            };
    }
}

fn quote_spanned_of(ty: &syn::Type, tokens: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    quote::quote_spanned!(crate::shape::ty::span_of(ty)=> #tokens)
}

/// The properties one variant adds to an enclosing object when the enum is flattened into it,
/// as serde reads it there; `None` when serde cannot read the variant from an object's keys.
fn flattened_parts(
    cx: &Context<'_>,
    repr: &Repr,
    variant: &Variant<'_>,
    all: &[&Variant<'_>],
) -> Option<super::ObjectParts> {
    let empty = super::ObjectParts::default;
    let newtype = |ty: &syn::Type| super::ObjectParts {
        properties: vec![Node::PropertiesOf(Box::new(ty.clone()))],
        required: vec![Node::RequiredOf(Box::new(ty.clone()))],
        flattened: vec![ty.clone()],
        ..Default::default()
    };
    let mut parts = match (repr, &variant.shape) {
        (_, Shape::Struct(fields)) if !matches!(repr, Repr::External | Repr::Adjacent { .. }) => {
            object_parts(cx, fields, false)
        }
        (Repr::Untagged | Repr::Internal { .. }, Shape::Newtype(ty)) => newtype(ty),
        (Repr::Internal { .. }, Shape::Unit) => empty(),
        // An untagged unit variant wants a unit, not the object's other keys; a tuple variant
        // wants an array.
        (Repr::Untagged | Repr::Internal { .. }, _) => return None,
        // `{"<name>": content}` among the other keys; `#[serde(other)]` has no key of its own.
        (Repr::External, _) if variant.other.is_some() => return None,
        (Repr::External, _) => {
            let mut parts = empty();
            parts.names.push(variant.name.clone());
            parts.properties.push(Node::Seq(vec![
                Node::text(format!("{}:", json::string(&variant.name))),
                content(cx, variant, false).node,
            ]));
            parts.required.push(Node::text(json::string(&variant.name)));
            parts
        }
        (
            Repr::Adjacent {
                tag,
                content: content_key,
            },
            _,
        ) => {
            let mut parts = empty();
            parts.names.push((*tag).to_owned());
            parts.names.push((*content_key).to_owned());
            parts.properties.push(Node::text(format!(
                "{}:{}",
                json::string(tag),
                tag_schema(variant, all)
            )));
            parts.properties.push(Node::Seq(vec![
                Node::text(format!("{}:", json::string(content_key))),
                content(cx, variant, false).node,
            ]));
            parts.required.push(Node::text(json::string(tag)));
            if !content_optional(variant) {
                parts.required.push(Node::text(json::string(content_key)));
            }
            parts
        }
    };
    if let Repr::Internal { tag } = repr {
        parts.names.insert(0, (*tag).to_owned());
        parts.properties.insert(
            0,
            Node::text(format!(
                "{}:{}",
                json::string(tag),
                tag_schema(variant, all)
            )),
        );
        parts.required.insert(0, Node::text(json::string(tag)));
    }
    Some(parts)
}

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    use super::super::with_body;

    /// The schema text the macro writes for `input`, which must be all literal.
    fn schema(input: syn::DeriveInput) -> String {
        with_body(&input, |_, body| body.node.literal().expect("literal text"))
    }

    #[test]
    fn adjacent_content_may_be_missing_for_unit_and_option_variants() {
        let schema = schema(parse_quote! {
            #[serde(tag = "t", content = "c")]
            enum E { Unit, Maybe(Option<bool>), Sure(bool) }
        });
        assert_eq!(
            schema,
            concat!(
                r#"{"anyOf":["#,
                r#"{"type":"object","properties":{"t":{"type":"string","const":"Unit"},"c":{"type":"null"}},"required":["t"]},"#,
                r#"{"type":"object","properties":{"t":{"type":"string","const":"Maybe"},"c":{"type":["boolean","null"]}},"required":["t"]},"#,
                r#"{"type":"object","properties":{"t":{"type":"string","const":"Sure"},"c":{"type":"boolean"}},"required":["t","c"]}"#,
                "]}"
            )
        );
    }

    #[test]
    fn external_other_takes_any_other_string() {
        let schema = schema(parse_quote! {
            enum E { A, B(bool), #[serde(other)] Rest }
        });
        assert_eq!(
            schema,
            concat!(
                r#"{"anyOf":[{"type":"string","enum":["A"]},"#,
                r#"{"type":"string","not":{"enum":["A","B"]}},"#,
                r#"{"type":"object","properties":{"B":{"type":"boolean"}},"required":["B"],"additionalProperties":false}"#,
                "]}"
            )
        );
    }

    #[test]
    fn internal_deny_unknown_fields_binds_struct_variants_only() {
        let schema = schema(parse_quote! {
            #[serde(tag = "k", deny_unknown_fields)]
            enum E { Unit, Fields { x: bool } }
        });
        assert_eq!(
            schema,
            concat!(
                r#"{"anyOf":["#,
                r#"{"type":"object","properties":{"k":{"type":"string","const":"Unit"}},"required":["k"]},"#,
                r#"{"type":"object","properties":{"k":{"type":"string","const":"Fields"},"x":{"type":"boolean"}},"required":["k","x"],"additionalProperties":false}"#,
                "]}"
            )
        );
    }
}
