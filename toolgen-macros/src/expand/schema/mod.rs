//! From the checked model to schema pieces: a small tree ([`Node`]) that mirrors the runtime's
//! `Rope`. Whatever the macro can write out as text is folded into literal text here, so const
//! evaluation only has to join the pieces the macro cannot know (user types, generic parameters).

pub mod enums;
pub mod keywords;
pub mod types;

use proc_macro2::TokenStream;

use crate::attr::doc::Desc;
use crate::expand::facts::{self, ObjectFacts};
use crate::json;
use crate::shape::prop::PatchMisuse;
use crate::shape::{Container, Data, Field, delegate_type};

/// A schema, or a fragment of one, as the macro builds it.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// JSON text.
    Text(String),
    /// Pieces in order.
    Seq(Vec<Node>),
    /// `{"type":"<ty>"` + tail (see `Rope::Typed`: only null-extensible keywords in the tail).
    Typed(&'static str, Box<Node>),
    /// A typed schema's tail of keywords, `,"key":value..}`: each key and its JSON value, so a
    /// later step reads them as they are (`range` tightening a type's own bounds).
    Keywords(Vec<(String, String)>),
    /// The schema or `null`.
    Nullable(Box<Node>),
    /// The schema with a description (escaped JSON string content, or an expression).
    Described(Box<Node>, Desc),
    /// `<ty as ToolSchema>::SCHEMA`: a type only the compiler can resolve.
    Trait(Box<syn::Type>),
    /// `{"$ref":..}` to the container's own definition (a recursive type): `Rope::Ref` of
    /// `<ty as Recursive>::ID`, the container's type with its generics.
    SelfRef(Box<syn::Type>),
    /// `{"$ref":..}` to a type reached through a field marked `#[tool(recursive)]`: `Rope::Ref`
    /// of `<ty as Cyclic>::ID`.
    Cycle(Box<syn::Type>),
    /// Pieces separated by commas, empty ones left out.
    Join(Vec<Node>),
    /// Prefix, inner and suffix, or nothing when the inner text is empty.
    Keyword(String, Box<Node>, String),
    /// A schema with more keywords appended (the second node: comma-separated keywords).
    Extend(Box<Node>, Box<Node>),
    /// The properties of an object-shaped type (`Rope::PropertiesOf`).
    PropertiesOf(Box<syn::Type>),
    /// The required names of an object-shaped type (`Rope::RequiredOf`).
    RequiredOf(Box<syn::Type>),
    /// `"default":<json>` of the type's `Default`, when known (`Rope::DefaultOf`).
    DefaultOf(Box<syn::Type>),
    /// `"additionalProperties":..` of a flattened map type, or nothing (`Rope::AdditionalOf`).
    AdditionalOf(Box<syn::Type>),
    /// `"additionalProperties":false` of a type that denies unknown fields (`Rope::DenyOf`).
    DenyOf(Box<syn::Type>),
    /// Nothing, but const evaluation fails if the names (own, and those of the flattened types)
    /// repeat (`unique_names`).
    UniqueNames(Vec<String>, Vec<syn::Type>),
    /// An object schema, written once per alternative that its flattened types (an enum) bring,
    /// under `anyOf` (`Rope::Branches`).
    Branches(Vec<syn::Type>, Box<Node>),
    /// Nothing, but const evaluation fails if the `#[tool(default)]` literal (the string, when it
    /// is one) cannot be a value of the type (`check_default`), spanned at the value (the expression).
    CheckDefault(Box<syn::Type>, Option<String>, Box<syn::Expr>),
    /// Nothing, but const evaluation fails if the type is toolgen's `Patch`, held as the misuse
    /// says (`check_patch`).
    CheckPatch(Box<syn::Type>, PatchMisuse),
}

impl Node {
    pub fn text(text: impl Into<String>) -> Node {
        Node::Text(text.into())
    }

    pub fn typed(ty: &'static str, tail: Node) -> Node {
        Node::Typed(ty, Box::new(tail))
    }

    pub fn described(self, description: Option<&Desc>) -> Node {
        match description {
            Some(Desc::Text(text)) => {
                Node::Described(Box::new(self), Desc::Text(json::escape(text)))
            }
            Some(expr @ Desc::Expr(_)) => Node::Described(Box::new(self), expr.clone()),
            None => self,
        }
    }

    /// Whether the piece writes some text wherever it is used, or is literally nothing (which a
    /// list leaves out): a list of such pieces needs no check at const evaluation for empty ones.
    pub fn never_empty_or_nothing(&self) -> bool {
        match self {
            Node::Text(_) | Node::Keywords(_) => true,
            Node::Seq(pieces) => {
                pieces.iter().any(Node::never_empty)
                    || pieces.iter().all(|piece| piece.literal().is_some())
            }
            _ => self.never_empty(),
        }
    }

    /// Whether the piece writes some text wherever it is used (a schema always does).
    fn never_empty(&self) -> bool {
        match self {
            Node::Text(text) => !text.is_empty(),
            Node::Keywords(_)
            | Node::Typed(..)
            | Node::Nullable(_)
            | Node::Described(..)
            | Node::Trait(_)
            | Node::SelfRef(_)
            | Node::Cycle(_)
            | Node::Extend(..)
            | Node::Branches(..) => true,
            Node::Seq(pieces) | Node::Join(pieces) => pieces.iter().any(Node::never_empty),
            Node::Keyword(..)
            | Node::PropertiesOf(_)
            | Node::RequiredOf(_)
            | Node::DefaultOf(_)
            | Node::AdditionalOf(_)
            | Node::DenyOf(_)
            | Node::UniqueNames(..)
            | Node::CheckDefault(..)
            | Node::CheckPatch(..) => false,
        }
    }

    /// The JSON text, when every piece is known to the macro. Must agree byte for byte with the
    /// runtime's `walk`; the integration tests compare both paths for every std type.
    pub fn literal(&self) -> Option<String> {
        match self {
            Node::Text(text) => Some(text.clone()),
            Node::Keywords(keywords) => Some(format!("{}}}", keywords_text(keywords))),
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
                Some(append(
                    inner.literal()?,
                    &format!("\"description\":\"{}\"", description.text()?),
                ))
            }
            Node::Join(pieces) => {
                let texts: Option<Vec<String>> = pieces.iter().map(Node::literal).collect();
                let texts: Vec<String> = texts?.into_iter().filter(|t| !t.is_empty()).collect();
                Some(texts.join(","))
            }
            Node::Keyword(prefix, inner, suffix) => {
                let inner = inner.literal()?;
                Some(if inner.is_empty() {
                    inner
                } else {
                    format!("{prefix}{inner}{suffix}")
                })
            }
            Node::Extend(inner, keywords) => {
                let (inner, keywords) = (inner.literal()?, keywords.literal()?);
                Some(if keywords.is_empty() {
                    inner
                } else {
                    append(inner, &keywords)
                })
            }
            Node::Trait(_)
            | Node::SelfRef(_)
            | Node::Cycle(_)
            | Node::PropertiesOf(_)
            | Node::RequiredOf(_)
            | Node::DefaultOf(_)
            | Node::AdditionalOf(_)
            | Node::DenyOf(_)
            | Node::UniqueNames(..)
            | Node::Branches(..)
            | Node::CheckDefault(..)
            | Node::CheckPatch(..) => None,
        }
    }

    /// The types whose `ToolSchema` impls this schema uses (`out`), and those it refers to
    /// through a field marked `#[tool(recursive)]` (`cycles`).
    pub fn trait_leaves<'n>(
        &'n self,
        out: &mut Vec<&'n syn::Type>,
        cycles: &mut Vec<&'n syn::Type>,
    ) {
        match self {
            Node::Text(_) | Node::Keywords(_) => {}
            Node::Seq(pieces) | Node::Join(pieces) => {
                pieces.iter().for_each(|p| p.trait_leaves(out, cycles))
            }
            Node::Typed(_, inner)
            | Node::Nullable(inner)
            | Node::Described(inner, _)
            | Node::Branches(_, inner)
            | Node::Keyword(_, inner, _) => inner.trait_leaves(out, cycles),
            Node::Extend(inner, keywords) => {
                inner.trait_leaves(out, cycles);
                keywords.trait_leaves(out, cycles);
            }
            Node::Trait(ty) | Node::PropertiesOf(ty) | Node::RequiredOf(ty) => out.push(ty),
            Node::Cycle(ty) => cycles.push(ty),
            // A self-reference leads back to the type being defined: not a leaf to take from.
            Node::DefaultOf(_)
            | Node::SelfRef(_)
            | Node::AdditionalOf(_)
            | Node::DenyOf(_)
            | Node::UniqueNames(..)
            | Node::CheckDefault(..)
            | Node::CheckPatch(..) => {}
        }
    }

    /// The node with `keywords` (each `"key":value` text, or a [`Node::DefaultOf`]) added to the
    /// innermost schema: inside `Option`'s null branch and under a description, and into a typed
    /// schema's tail where possible, so `Option` can still widen the type.
    pub fn with_keywords(self, keywords: Vec<Node>) -> Node {
        if keywords.is_empty() {
            return self;
        }
        match self {
            Node::Nullable(inner) => Node::Nullable(Box::new(inner.with_keywords(keywords))),
            Node::Described(inner, description) => {
                Node::Described(Box::new(inner.with_keywords(keywords)), description)
            }
            Node::Typed(ty, tail) => match strip_close(*tail) {
                Ok(open) => Node::typed(
                    ty,
                    Node::Seq(vec![
                        open,
                        Node::Keyword(",".into(), Box::new(Node::Join(keywords)), String::new()),
                        Node::text("}"),
                    ]),
                ),
                Err(tail) => Node::Extend(
                    Box::new(Node::Typed(ty, Box::new(tail))),
                    Box::new(Node::Join(keywords)),
                ),
            },
            other => Node::Extend(Box::new(other), Box::new(Node::Join(keywords))),
        }
    }

    /// The JSON type of the innermost schema (under `Option` and descriptions), when the macro
    /// knows it: `"string"`, `"integer"`, .., or `"enum"` for a string enum it wrote itself.
    pub fn json_type(&self) -> Option<&'static str> {
        match self {
            Node::Nullable(inner) | Node::Described(inner, _) => inner.json_type(),
            Node::Typed(ty, _) => Some(ty),
            _ => None,
        }
    }
}

/// Keywords appended to a schema's text (`{..}` -> `{..,keywords}`), as `Rope::Extend` does.
fn append(mut schema: String, keywords: &str) -> String {
    let empty = schema == "{}";
    schema.pop();
    if !empty {
        schema.push(',');
    }
    schema.push_str(keywords);
    schema.push('}');
    schema
}

/// `,"key":value` for each keyword.
fn keywords_text(keywords: &[(String, String)]) -> String {
    keywords
        .iter()
        .map(|(key, value)| format!(",{}:{value}", json::string(key)))
        .collect()
}

/// A typed schema's tail without its closing `}`, or the tail unchanged if it has none to take.
fn strip_close(tail: Node) -> Result<Node, Node> {
    match tail {
        Node::Keywords(keywords) => Ok(Node::Text(keywords_text(&keywords))),
        Node::Text(mut text) if text.ends_with('}') => {
            text.pop();
            Ok(Node::Text(text))
        }
        Node::Seq(mut pieces) => match pieces.pop() {
            Some(last) => match strip_close(last) {
                Ok(open) => {
                    pieces.push(open);
                    Ok(Node::Seq(pieces))
                }
                Err(last) => {
                    pieces.push(last);
                    Err(Node::Seq(pieces))
                }
            },
            None => Err(Node::Seq(pieces)),
        },
        other => Err(other),
    }
}

/// Where a schema is built: what a self-reference turns into.
pub struct Context<'a> {
    pub container: &'a Container<'a>,
    /// `Some(its type)` when the container is recursive: its own type becomes a `$ref` to it.
    pub self_ref: Option<syn::Type>,
    /// Bare prelude names (`String`, `Vec`, ..) the schema relied on.
    pub prelude_uses: crate::shape::ty::PreludeUses,
    /// The types the container's `#[tool(recursive)]` fields lead to, in the order
    /// [`types::cut_cycles`] meets them: what their facts point to.
    pub targets: Vec<syn::Type>,
}

/// A schema (or a part of one) and its facts, built together by one walk of the model: the
/// facts' kids mirror the schema's properties and branches.
pub struct Built {
    /// The schema's text, as pieces.
    pub node: Node,
    /// Its `Facts` expression ([`crate::expand::facts`]).
    pub facts: TokenStream,
}

impl Built {
    /// A schema the macro writes whole, about which the facts have nothing to say.
    pub fn text(text: impl Into<String>) -> Built {
        Built {
            node: Node::text(text),
            facts: facts::none(),
        }
    }

    /// A type's schema and facts.
    pub fn of_type(cx: &Context<'_>, ty: &syn::Type) -> Built {
        Built {
            node: types::schema_for_type(cx, ty),
            facts: facts::of_type(cx, ty),
        }
    }

    /// A tuple of the types `items`.
    pub fn tuple<'t>(
        cx: &Context<'_>,
        items: impl Iterator<Item = &'t syn::Type> + Clone,
    ) -> Built {
        Built {
            node: types::tuple(
                items
                    .clone()
                    .map(|ty| types::schema_for_type(cx, ty))
                    .collect(),
            ),
            facts: facts::tuple(&items.map(|ty| facts::of_type(cx, ty)).collect::<Vec<_>>()),
        }
    }

    /// The object with `parts` (see [`object_schema`]; `untagged` as [`ObjectFacts::facts`]).
    pub fn object(parts: &ObjectParts, deny_unknown_fields: bool, untagged: bool) -> Built {
        Built {
            node: object_schema(parts, deny_unknown_fields),
            facts: parts.facts.facts(&[], 0, untagged),
        }
    }

    /// The schema with a description.
    pub fn described(self, description: Option<&Desc>) -> Built {
        Built {
            node: self.node.described(description),
            facts: self.facts,
        }
    }
}

/// The container's own schema and facts (for a struct: its object schema, without its
/// description), and, for a struct, its object's parts, which `OBJECT` and the shared consts
/// write too.
pub fn schema_for_container(cx: &Context<'_>) -> (Built, Option<ObjectParts>) {
    if let Some(delegate) = delegate_type(cx.container) {
        return (Built::of_type(cx, delegate), None);
    }
    let body = match &cx.container.data {
        Data::Named(fields) => {
            let parts = object_parts(cx, fields, false);
            let body = Built::object(&parts, cx.container.serde.deny_unknown_fields, false);
            return (body, Some(parts));
        }
        Data::Tuple(fields) if fields.len() == 1 => match &cx.container.newtype {
            Some(field) => Built {
                node: schema_for_field(cx, field),
                facts: facts::field(cx, field, false),
            },
            None => Built::of_type(cx, &fields[0].ty),
        },
        Data::Tuple(fields) => Built::tuple(cx, fields.iter().map(|f| &f.ty)),
        Data::Unit => Built::text(r#"{"type":"null"}"#),
        Data::Enum(variants) => enums::schema_for_enum(cx, variants),
        // Reported by the checks; any schema will do for the fallback.
        Data::Union => Built::text("{}"),
    };
    (body, None)
}

/// An object's properties and required names, before they are written as a schema.
#[derive(Default)]
pub struct ObjectParts {
    /// `"name":schema` pieces, or `PropertiesOf` a flattened type.
    pub properties: Vec<Node>,
    /// `"name"` pieces, or `RequiredOf` a flattened type.
    pub required: Vec<Node>,
    /// `"additionalProperties":..` of flattened maps (`AdditionalOf`).
    pub additional: Vec<Node>,
    /// The object's own property names.
    pub names: Vec<String>,
    /// The types whose properties are merged in.
    pub flattened: Vec<syn::Type>,
    /// The object's facts, gathered field by field.
    pub facts: ObjectFacts,
}

impl ObjectParts {
    /// The object's properties as one comma-separated piece.
    pub fn properties_node(&self) -> Node {
        Node::Join(self.properties.clone())
    }

    /// The required names as one comma-separated piece.
    pub fn required_node(&self) -> Node {
        Node::Join(self.required.clone())
    }
}

/// The parts of an object with `fields` (a struct, or a struct variant), and its facts.
/// `untagged`: the object is an untagged variant's own (see [`ObjectFacts::facts`]).
pub fn object_parts(cx: &Context<'_>, fields: &[Field<'_>], untagged: bool) -> ObjectParts {
    let mut parts = ObjectParts::default();
    for field in fields.iter() {
        parts.facts.add(cx, field, untagged);
        if field.flatten.is_some() {
            parts.flattened.push(field.ty.clone());
            let ty = Box::new(field.ty.clone());
            parts.properties.push(Node::PropertiesOf(ty.clone()));
            parts.required.push(Node::RequiredOf(ty.clone()));
            parts.additional.push(Node::AdditionalOf(ty));
            continue;
        }
        parts.names.push(field.name.clone());
        let mut property = vec![Node::text(format!("{}:", json::string(&field.name)))];
        // A type the macro cannot see into (an enum of yours) checks the default in const
        // evaluation, through an `Option`: at the value, which the error names with the
        // enum's values. (`None` on an `Option` is checked by the shape.)
        if let Some(default) = &field.keywords.default
            && crate::shape::ty::Ty::of(field.ty).json_type().is_none()
        {
            let null = default.json.as_deref().ok() == Some("null");
            let ty = match crate::shape::ty::Ty::of(field.ty) {
                crate::shape::ty::Ty::Option(_) if null => None,
                crate::shape::ty::Ty::Option(inner) => Some(inner),
                _ => Some(field.ty),
            };
            if let Some(ty) = ty {
                let (string, value) = (default.string.clone(), default.expr.clone());
                property.push(Node::CheckDefault(
                    Box::new(ty.clone()),
                    string,
                    Box::new(value),
                ));
            }
        }
        // A concrete type checks each one in a const of its own (`patch_checks`), so that
        // every one is reported; a generic type's may name its parameters, known only here.
        if !cx.container.original.generics.params.is_empty() {
            for (ty, misuse) in field.patch_misuses() {
                property.push(Node::CheckPatch(Box::new(ty.clone()), misuse));
            }
        }
        property.push(schema_for_field(cx, field));
        parts.properties.push(Node::Seq(property));
        if field.prop.required {
            parts.required.push(Node::text(json::string(&field.name)));
        }
    }
    parts
}

/// `{"type":"object","properties":{..},"required":[..]}` from its parts.
pub fn object_schema(parts: &ObjectParts, deny_unknown_fields: bool) -> Node {
    let check = (!parts.flattened.is_empty())
        .then(|| Node::UniqueNames(parts.names.clone(), parts.flattened.clone()));
    let mut tail = vec![
        Node::text(",\"properties\":{"),
        parts.properties_node(),
        Node::text("}"),
        Node::Keyword(
            ",\"required\":[".into(),
            Box::new(parts.required_node()),
            "]".into(),
        ),
    ];
    if parts.additional.is_empty() {
        if deny_unknown_fields {
            tail.push(Node::text(",\"additionalProperties\":false"));
        }
    } else {
        tail.push(Node::Keyword(
            ",".into(),
            Box::new(Node::Join(parts.additional.clone())),
            String::new(),
        ));
    }
    tail.extend(check);
    tail.push(Node::text("}"));
    let object = Node::typed("object", Node::Seq(tail));
    if parts.flattened.is_empty() {
        object
    } else {
        // A flattened enum makes the object one of several: known only in const evaluation.
        Node::Branches(parts.flattened.clone(), Box::new(object))
    }
}

/// A field's schema: its type's (or `#[tool(schema)]`'s), its keywords and description.
pub fn schema_for_field(cx: &Context<'_>, field: &Field<'_>) -> Node {
    // An optional field is written as its `Option`'s inner type (the name `Option` is still
    // checked to be the prelude's).
    let ty = match field.prop.optional_inner {
        true => match crate::shape::ty::Ty::of_tracked(field.input_ty(), &cx.prelude_uses) {
            crate::shape::ty::Ty::Option(inner) => inner,
            _ => field.input_ty(),
        },
        false => field.input_ty(),
    };
    let node = if field.tool.recursive.is_present() {
        types::cycle_schema(cx, ty)
    } else {
        types::schema_for_type(cx, ty)
    };
    let node = keywords::apply_range(node, field);
    let mut keywords = keywords::constraints(field, &node);
    if let Some(text) = field.keywords.fill_text() {
        keywords.push(Node::text(format!("\"default\":{text}")));
    } else if field.prop.states_type_default && !field.prop.optional_inner {
        // (An optional field's `None` is its absence, not a `null` the schema shows.)
        keywords.push(types::default_of(field.ty));
    }
    let examples: Vec<&str> = field
        .keywords
        .examples
        .iter()
        .filter_map(|(_, json)| json.as_deref().ok())
        .collect();
    if !examples.is_empty() {
        keywords.push(Node::text(format!("\"examples\":[{}]", examples.join(","))));
    }
    node.with_keywords(keywords)
        .described(field.description.as_ref())
}

/// For the macro's unit tests: the container's body, as the derive builds it for `input`
/// (which must have no errors), handed to `f` with the container.
#[cfg(test)]
pub(crate) fn with_body<R>(
    input: &syn::DeriveInput,
    f: impl FnOnce(&Container<'_>, Built) -> R,
) -> R {
    let mut errors = darling::Error::accumulator();
    let container = Container::from_ast(input, crate::shape::Derive::ToolSchema, &mut errors);
    assert!(errors.finish().is_ok());
    let cx = Context {
        container: &container,
        self_ref: None,
        prelude_uses: Default::default(),
        targets: Vec::new(),
    };
    let (body, _) = schema_for_container(&cx);
    f(&container, body)
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
        let inner = Node::text("{}").described(Some(&Desc::Text("old".into())));
        assert_eq!(
            inner
                .described(Some(&Desc::Text("new \"q\"".into())))
                .literal()
                .as_deref(),
            Some(r#"{"description":"new \"q\""}"#)
        );
        let nullable = Node::Nullable(Box::new(
            Node::typed("integer", Node::text(",\"minimum\":0}"))
                .described(Some(&Desc::Text("n".into()))),
        ));
        assert_eq!(
            nullable.literal().as_deref(),
            Some(r#"{"type":["integer","null"],"minimum":0,"description":"n"}"#)
        );
    }

    #[test]
    fn deserialize_with_option_is_required() {
        let input: syn::DeriveInput = syn::parse_quote! {
            struct S {
                #[serde(deserialize_with = "f")]
                a: Option<u8>,
                #[serde(deserialize_with = "f", default)]
                b: Option<u8>,
                c: Option<u8>,
            }
        };
        let mut errors = darling::Error::accumulator();
        let container = Container::from_ast(&input, crate::shape::Derive::ToolSchema, &mut errors);
        assert!(errors.finish().is_ok());
        let Data::Named(fields) = &container.data else {
            panic!("named fields")
        };
        let required: Vec<bool> = fields.iter().map(|f| f.prop.required).collect();
        assert_eq!(required, [true, false, false]);
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
