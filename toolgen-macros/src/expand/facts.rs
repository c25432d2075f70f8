//! A type's [`Facts`](../../toolgen_runtime/facts/struct.Facts.html), its shape beside its
//! schema text: what the provider dialects need to know of its schema, and how serde reads it
//! (which fields have a default, and which `#[tool(default = ..)]` value fills one in; the enum
//! representation; sets, maps, tuples), from which argument parsing builds its plan at first
//! use. Built as const data from the container's model (never from schema text). The shape
//! mirrors the schema the `schema` module writes: an object per struct (and per tagged variant),
//! its properties as kids, the branches of an enum, flattened types. Field types contribute their
//! own `ToolSchema::FACTS`; a recursive type's references to itself are `Recursion<Self>`'s,
//! which cuts the cycle.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Ident, Type};

use crate::expand::rope::option_tokens;
use crate::expand::schema::Context;
use crate::json;
use crate::shape::repr::Repr;
use crate::shape::ty::{PathArgs, inner_types_mut, mentions_self};
use crate::shape::{Container, Field, Variant};

/// The `Facts` expression of the container's schema, from `body`, the facts of its own schema
/// that the schema walk built beside its text ([`crate::expand::schema::schema_for_container`]):
/// for a recursive type the reference, with that body as its definition, the one kid.
pub fn container_facts(
    container: &Container<'_>,
    recursive: bool,
    body: TokenStream,
) -> TokenStream {
    if recursive {
        let name_len = json::escape(&container.def_name()).len() as u32;
        quote! {
            &::toolgen::__private::Facts::recursive(
                #name_len,
                &[::toolgen::__private::Kid::definition(#body)],
            )
        }
    } else {
        body
    }
}

/// The index of each tool field's kid in the container's object facts, for the per-field checks:
/// `(field, index)` for the named fields that are properties and have facts to check (a field
/// that is a kid only for its default has nothing a dialect could refuse).
pub fn property_kids<'f>(fields: &'f [Field<'f>]) -> Vec<(&'f Field<'f>, usize)> {
    fields
        .iter()
        .filter(|f| has_kid(f, false))
        .enumerate()
        .filter(|(_, f)| f.flatten.is_none() && has_facts(f))
        .map(|(i, f)| (f, i))
        .collect()
}

/// Whether a field is a kid of its object's facts: it has facts to say, or a default, or (in an
/// untagged variant) reads `null` as a value. A property of a plain type (a primitive, `String`,
/// or `Option`/`Vec`/`Box` of one) without those has nothing to say, and no dialect can refuse
/// it: it is counted in the object's totals, and left out of its kids (each kid is const data to
/// compile, and for a strict tool one more check).
fn has_kid(field: &Field<'_>, untagged: bool) -> bool {
    has_facts(field) || defaulted(field) || keeps_null(field, untagged) || checked(field)
}

/// Whether argument parsing checks keywords on the field's value (`range`, `length`, `pattern`,
/// `format`: what serde does not enforce). A field described as another type (`#[tool(schema =
/// ..)]`) has none checked: serde's reading of its own type decides (the keywords are in its
/// schema all the same).
fn checked(field: &Field<'_>) -> bool {
    field.tool.schema.is_none() && field.keywords.constrain()
}

/// Whether a property has a default (a flattened field's keys are its type's, and have their
/// own).
fn defaulted(field: &Field<'_>) -> bool {
    field.flatten.is_none() && field.prop.defaults_to_value
}

/// Whether a field's facts are more than a plain type's.
fn has_facts(field: &Field<'_>) -> bool {
    field.flatten.is_some()
        || field.tool.recursive.is_present()
        || !crate::shape::ty::is_plain(field.input_ty())
        || unreadable_pattern(field)
}

/// Whether a field of an untagged variant reads `null` as a value, where a missing key is not
/// the same (argument parsing keeps its `null` where another variant defaults the key).
fn keeps_null(field: &Field<'_>, untagged: bool) -> bool {
    untagged
        && field.flatten.is_none()
        && !field.prop.defaults_to_value
        && (field.with.is_some() || crate::shape::ty::reads_null_as_value(field.input_ty()))
}

/// A `pattern` Anthropic's grammar cannot read (a word boundary).
fn unreadable_pattern(field: &Field<'_>) -> bool {
    field.keywords.unreadable_pattern()
}

/// `<ty as ToolSchema>::FACTS`, with the container's own type replaced by `Recursion<Self>`.
pub fn of_type(cx: &Context<'_>, ty: &Type) -> TokenStream {
    let ty = facts_type(cx, ty);
    quote!(<#ty as ::toolgen::__private::ToolSchema>::FACTS)
}

/// The type whose `FACTS` [`of_type`] names for `ty`.
fn facts_type(cx: &Context<'_>, ty: &Type) -> Type {
    let ident = cx.container.ident;
    if mentions_self(ty, ident) {
        replace_self(ty, ident)
    } else {
        ty.clone()
    }
}

/// The type whose facts a field's are, where they are just its type's: `None` for a field
/// marked `#[tool(recursive)]`, of a plain type, with a default, that keeps its `null`, or
/// with a `pattern` Anthropic's grammar cannot read (see [`field`]).
fn own_type(cx: &Context<'_>, field: &Field<'_>, untagged: bool) -> Option<Type> {
    let ty = field.input_ty();
    (!field.tool.recursive.is_present()
        && !defaulted(field)
        && !keeps_null(field, untagged)
        && !checked(field)
        && !crate::shape::ty::is_plain(ty)
        && !unreadable_pattern(field))
    .then(|| facts_type(cx, ty))
}

/// A field's facts: its type's, with a problem of its own for a `pattern` Anthropic's
/// grammar cannot read, its keywords that argument parsing checks (`Facts::keywords`, not where
/// serde reads the container from another type, `#[serde(from)]`), and, around them, its default
/// (and the `#[tool(default = ..)]` value to fill in, but not in an untagged variant, which
/// serde may not be reading) or, in an untagged variant, that it reads `null` as a value.
pub fn field(cx: &Context<'_>, field: &Field<'_>, untagged: bool) -> TokenStream {
    let ty = field.input_ty();
    // A primitive, `String`, or `Option`/`Vec`/`Box` of one has nothing to say (and the
    // prelude checks pin those names).
    let inner = if field.tool.recursive.is_present() {
        // What the field leads to is not summed in here (a cycle): its facts point there.
        let ty = crate::expand::schema::types::cut_cycles(ty, &mut cx.targets.clone());
        quote!(<#ty as ::toolgen::__private::ToolSchema>::FACTS)
    } else if crate::shape::ty::is_plain(ty) {
        none()
    } else {
        of_type(cx, ty)
    };
    let inner = if unreadable_pattern(field) {
        let kid = kid(Via::Branch, "", &inner);
        node(
            quote!(::toolgen::__private::facts::PATTERN),
            false,
            [0; 3],
            &[kid],
        )
    } else {
        inner
    };
    let inner = if checked(field) && cx.container.serde.from.is_none() {
        let keywords = keywords(field);
        quote! {
            &::toolgen::__private::Facts::keywords(
                #keywords, &[::toolgen::__private::Kid::branch(#inner)]
            )
        }
    } else {
        inner
    };
    if defaulted(field) {
        let fill = option_tokens(field.keywords.fill_text().filter(|_| !untagged));
        quote! {
            &::toolgen::__private::Facts::defaulted(
                #fill, &[::toolgen::__private::Kid::branch(#inner)]
            )
        }
    } else if keeps_null(field, untagged) {
        quote!(&::toolgen::__private::Facts::keep(&[::toolgen::__private::Kid::branch(#inner)]))
    } else {
        inner
    }
}

/// The keywords of a field that argument parsing checks, as the runtime's `Keywords`: a
/// `range`'s bounds, a `length`'s (in characters of a string, else items of an array), the
/// `pattern` and the `format`.
fn keywords(field: &Field<'_>) -> TokenStream {
    let array = crate::shape::ty::value_json_type(field.input_ty()) == Some("array");
    let members = field
        .keywords
        .stated(array)
        .into_iter()
        .filter_map(|stated| stated.check)
        .map(|(member, value)| {
            let member = Ident::new(member, proc_macro2::Span::call_site());
            quote!(#member: ::core::option::Option::Some(#value))
        });
    quote!(&::toolgen::__private::Keywords { #(#members,)* ..::toolgen::__private::Keywords::NONE })
}

/// The facts of an object, gathered field by field as the schema walk writes its properties
/// ([`crate::expand::schema::object_parts`]).
#[derive(Default)]
pub struct ObjectFacts {
    kids: Vec<TokenStream>,
    /// The properties whose facts are their type's, by name and type: when all kids are, the
    /// list is one call (`kidsN`).
    typed: Vec<(String, Type)>,
    properties: u32,
    text: u32,
}

impl ObjectFacts {
    /// Adds a field: a property (counted), or a flattened type; a kid where it has something
    /// to say ([`has_kid`]). `untagged`: the object is an untagged variant's own.
    pub fn add(&mut self, cx: &Context<'_>, field: &Field<'_>, untagged: bool) {
        if field.flatten.is_none() {
            self.properties += 1;
            self.text += text_len(&field.name);
        }
        if !has_kid(field, untagged) {
            return;
        }
        let own_type = own_type(cx, field, untagged);
        let facts = match &own_type {
            Some(ty) => quote!(<#ty as ::toolgen::__private::ToolSchema>::FACTS),
            None => self::field(cx, field, untagged),
        };
        let kid = match &field.flatten {
            Some(_) => kid(Via::Flatten, "", &facts),
            None => {
                if let Some(ty) = own_type {
                    self.typed.push((field.name.clone(), ty));
                }
                kid(Via::Property, &field.name, &facts)
            }
        };
        self.kids.push(kid);
    }

    /// The object's facts, with `extra` properties before the fields (a tag: its name and
    /// value's characters) and `extra_text` more characters. `untagged`: the object is an
    /// untagged variant's own, which serde tries in turn with the others: kept whole by
    /// argument parsing (`Facts::whole`).
    pub fn facts(&self, extra: &[&str], extra_text: u32, untagged: bool) -> TokenStream {
        let properties = self.properties + extra.len() as u32;
        let text = self.text + extra_text + extra.iter().map(|n| text_len(n)).sum::<u32>();
        let whole = untagged.then(|| quote!(.whole()));
        if self.typed.len() == self.kids.len()
            && let Some(list) = crate::expand::rope::type_list("kids", &self.typed, "FACTS")
        {
            return quote! {
                &::toolgen::__private::Facts::node(0, true, [#properties, 0, #text], &#list)#whole
            };
        }
        let kids = &self.kids;
        quote! {
            &::toolgen::__private::Facts::node(0, true, [#properties, 0, #text], &[#(#kids),*])#whole
        }
    }
}

/// A tuple of `items` (their facts): a problem of its own for the dialects, and its items'
/// facts for argument parsing.
pub fn tuple(items: &[TokenStream]) -> TokenStream {
    quote! {
        &::toolgen::__private::Facts::node(
            ::toolgen::__private::facts::TUPLE, false, [0, 0, 0], &[]
        ).tuple(&[#(#items),*])
    }
}

/// An enum: its `branches` (kids), in serde's representation, as the schema writes them, those
/// from `untagged_from` on its untagged variants', and the representation, for argument
/// parsing.
/// `picks`: it has untagged alternatives, and its [`untagged_pick`](super::schema::enums::untagged_pick)
/// says which serde takes.
pub fn enumeration(
    repr: &Repr,
    untagged_from: u16,
    branches: &[TokenStream],
    picks: bool,
) -> TokenStream {
    // `{"not":{}}`: no type, so no dialect but the standard one takes it.
    let own = if branches.is_empty() {
        quote!(::toolgen::__private::facts::ANY)
    } else {
        quote!(0)
    };
    let repr = match repr {
        Repr::External => quote!(External),
        Repr::Internal { tag } => quote!(Internal(#tag)),
        Repr::Adjacent { tag, .. } => quote!(Adjacent(#tag)),
        Repr::Untagged => quote!(Untagged),
    };
    let pick = picks.then(|| quote!(.picked_by(Self::__toolgen_untagged)));
    quote! {
        &::toolgen::__private::Facts::enumeration(
            ::toolgen::__private::EnumRepr::#repr, #untagged_from, #own, [0, 0, 0],
            &[#(#branches),*]
        )#pick
    }
}

/// An externally tagged enum's string `enum` of `names` (its undocumented unit variants).
pub fn string_enum(names: &[&str]) -> TokenStream {
    // The `enum` array's text: the quoted names, commas and brackets.
    let text: u32 = names
        .iter()
        .map(|name| json::string(name).len() as u32 + 1)
        .sum::<u32>()
        + 1;
    node(quote!(0), false, [0, names.len() as u32, text], &[])
}

/// A documented unit variant's `const`, named `name`.
pub fn constant(name: &str) -> TokenStream {
    node(
        quote!(0),
        false,
        [0, 0, json::string(name).len() as u32],
        &[],
    )
}

/// `{"<name>": content}`: an externally tagged variant with content.
pub fn external_variant(name: &str, content: &TokenStream) -> TokenStream {
    let kids = [kid(Via::Property, name, content)];
    node(quote!(0), true, [1, 0, text_len(name)], &kids)
}

/// An internally tagged variant without fields of its own: the tag, and the content type
/// flattened in for a newtype variant (`content`).
pub fn internal_variant(
    tag: &str,
    variant: &Variant<'_>,
    content: Option<TokenStream>,
) -> TokenStream {
    let kids: Vec<TokenStream> = content.iter().map(|f| kid(Via::Flatten, "", f)).collect();
    node(
        quote!(0),
        true,
        [1, 0, text_len(tag) + tag_text(variant)],
        &kids,
    )
}

/// Adjacently tagged: `{"<tag>": name, "<content>": content}`.
pub fn adjacent_variant(
    tag: &str,
    content_key: &str,
    variant: &Variant<'_>,
    content: &TokenStream,
) -> TokenStream {
    let text = text_len(tag) + text_len(content_key) + tag_text(variant);
    let kids = [kid(Via::Property, content_key, content)];
    node(quote!(0), true, [2, 0, text], &kids)
}

/// The characters a tag's value adds: its `const` (a `#[serde(other)]` tag has none the strict
/// dialects keep).
pub fn tag_text(variant: &Variant<'_>) -> u32 {
    if variant.other.is_some() {
        0
    } else {
        json::string(&variant.name).len() as u32
    }
}

/// The characters a property name counts (as the schema text writes it).
fn text_len(name: &str) -> u32 {
    json::escape(name).len() as u32
}

pub fn none() -> TokenStream {
    quote!(::toolgen::__private::facts::NO_FACTS)
}

fn node(own: TokenStream, object: bool, counts: [u32; 3], kids: &[TokenStream]) -> TokenStream {
    let [properties, enum_values, text] = counts;
    quote! {
        &::toolgen::__private::Facts::node(
            #own, #object, [#properties, #enum_values, #text], &[#(#kids),*]
        )
    }
}

/// How a kid is reached from its node: the runtime's constructor of each (`Kid::property`, ..).
#[derive(Clone, Copy)]
pub enum Via {
    /// A property, by its name.
    Property,
    /// A type flattened into the object.
    Flatten,
    /// An enum's variant, by its name.
    Variant,
    /// One of an enum's branches.
    Branch,
}

/// A kid, by the runtime's constructor for `via` (`Property` and `Variant` take the name).
pub fn kid(via: Via, name: &str, facts: &TokenStream) -> TokenStream {
    match via {
        Via::Property => quote!(::toolgen::__private::Kid::property(#name, #facts)),
        Via::Flatten => quote!(::toolgen::__private::Kid::flatten(#facts)),
        Via::Variant => quote!(::toolgen::__private::Kid::variant(#name, #facts)),
        Via::Branch => quote!(::toolgen::__private::Kid::branch(#facts)),
    }
}

/// `ty` with every mention of the container (`Self` or its name) replaced by `Recursion<Self>`.
fn replace_self(ty: &Type, ident: &Ident) -> Type {
    let mut ty = ty.clone();
    replace_in(&mut ty, ident);
    ty
}

fn replace_in(ty: &mut Type, ident: &Ident) {
    if let Type::Path(path) = ty
        && path.qself.is_none()
        && crate::shape::ty::is_self_path(&path.path, ident)
    {
        *ty = syn::parse_quote!(::toolgen::__private::Recursion<Self>);
        return;
    }
    for inner in inner_types_mut(ty, PathArgs::EverySegment) {
        replace_in(inner, ident);
    }
}

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    use super::container_facts;
    use crate::expand::schema::with_body;

    /// The `FACTS` expression for `input` (as the derive writes it where the type is on no
    /// graph), as text without spaces.
    fn facts_tokens(input: syn::DeriveInput) -> String {
        with_body(&input, |container, body| {
            container_facts(container, false, body.facts).to_string()
        })
        .replace(' ', "")
        .replace("::toolgen::__private::", "")
        .replace("::core::option::Option::", "")
    }

    #[test]
    fn plain_fields_without_defaults_are_only_counted() {
        let text = facts_tokens(parse_quote! {
            struct S { a: String, b: Option<u32>, c: Vec<bool>, #[serde(skip)] d: Thing }
        });
        assert_eq!(text, "&Facts::node(0,true,[3u32,0,3u32],&[])");
    }

    #[test]
    fn defaults_are_kids_with_the_value_to_fill() {
        let text = facts_tokens(parse_quote! {
            struct S {
                #[serde(default)] a: u8,
                #[tool(default = 3)] b: u8,
                c: Inner,
                #[serde(flatten)] e: More,
            }
        });
        assert_eq!(
            text,
            concat!(
                "&Facts::node(0,true,[3u32,0,3u32],&[",
                "Kid::property(\"a\",&Facts::defaulted(None,&[Kid::branch(facts::NO_FACTS)])),",
                "Kid::property(\"b\",&Facts::defaulted(Some(\"3\"),&[Kid::branch(facts::NO_FACTS)])),",
                "Kid::property(\"c\",<InnerasToolSchema>::FACTS),",
                "Kid::flatten(<MoreasToolSchema>::FACTS)])"
            )
        );
    }

    #[test]
    fn enums_say_their_representation() {
        let internal = facts_tokens(parse_quote! {
            #[serde(tag = "t")]
            enum E { A, B { #[tool(default = 1)] x: u8 } }
        });
        assert!(
            internal.starts_with("&Facts::enumeration(EnumRepr::Internal(\"t\"),2u16,0,"),
            "{internal}"
        );
        assert!(
            internal.contains("Kid::variant(\"B\",&Facts::node(0,true,[2u32,0,"),
            "{internal}"
        );
        assert!(
            internal.contains("Facts::defaulted(Some(\"1\")"),
            "{internal}"
        );
        // The untagged variants come last, their own objects kept whole, nothing filled in.
        let mixed = facts_tokens(parse_quote! {
            enum E {
                A(Inner),
                #[serde(untagged)]
                B { #[tool(default = 2)] y: u8, v: serde_json::Value },
            }
        });
        assert!(
            mixed.starts_with("&Facts::enumeration(EnumRepr::External,1u16,0,"),
            "{mixed}"
        );
        assert!(mixed.contains("Facts::defaulted(None,"), "{mixed}");
        assert!(
            mixed.contains("Kid::property(\"v\",&Facts::keep("),
            "{mixed}"
        );
        // Its untagged alternative: which one serde took is the derive's pick's to say.
        assert!(
            mixed.ends_with(".whole())]).picked_by(Self::__toolgen_untagged)"),
            "{mixed}"
        );
    }

    #[test]
    fn a_type_holding_itself_refers_to_itself() {
        let text = facts_tokens(parse_quote! {
            struct Tree { #[serde(default)] label: String, children: Vec<Tree> }
        });
        assert!(
            text.contains("Kid::property(\"children\",<Vec<Recursion<Self>>asToolSchema>::FACTS)"),
            "{text}"
        );
    }
}
