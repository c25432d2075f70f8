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
use crate::json;
use crate::shape::delegate_type;
use crate::shape::repr::Repr;
use crate::shape::ty::{PathArgs, inner_types_mut, mentions_self};
use crate::shape::{Container, Data, Field, Shape, Variant};

/// The `Facts` expression of the container's schema (for a recursive type: the reference, with
/// its definition as the one kid).
/// `targets` are the types the container's `#[tool(recursive)]` fields lead to
/// ([`crate::expand::schema::types::cut_cycles`]).
pub fn container_facts(
    container: &Container<'_>,
    recursive: bool,
    targets: &[syn::Type],
) -> TokenStream {
    let body = body_facts(container, targets);
    let body = if crate::expand::constraints::has_own_constraints(container) {
        quote!(&(*#body).constrained())
    } else {
        body
    };
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

/// The facts of the container's own schema (for a recursive type: its definition).
fn body_facts(container: &Container<'_>, targets: &[syn::Type]) -> TokenStream {
    let cx = Cx { container, targets };
    if let Some(delegate) = delegate_type(container) {
        return cx.of_type(delegate);
    }
    match &container.data {
        Data::Named(fields) => cx.object(fields, &[], 0, false),
        Data::Tuple(fields) if fields.len() == 1 => match &container.newtype {
            Some(field) => cx.field(field, false),
            None => cx.of_type(&fields[0].ty),
        },
        Data::Tuple(fields) => cx.tuple(fields.iter().map(|f| &f.ty)),
        Data::Unit | Data::Union => none(),
        Data::Enum(variants) => cx.enumeration(variants),
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
    has_facts(field) || defaulted(field) || keeps_null(field, untagged)
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
        && (field.with.is_some() || reads_null_as_value(field.input_ty()))
}

/// Whether a value of `ty` reads `null` as itself, while a missing key is an error: a
/// `serde_json::Value` (`Null`) and `()`. (An `Option` reads both as `None`.) A bare `Value` is
/// taken for `serde_json`'s too: it is what that name means in nearly every crate, and taking it
/// wrongly only keeps a `null` that serde then reports.
fn reads_null_as_value(ty: &syn::Type) -> bool {
    use crate::shape::ty::Ty;
    let bare_value =
        matches!(ty, syn::Type::Path(path) if path.qself.is_none() && path.path.is_ident("Value"));
    bare_value || matches!(Ty::of(ty), Ty::Value | Ty::Unit)
}

/// A `pattern` Anthropic's grammar cannot read (a word boundary).
fn unreadable_pattern(field: &Field<'_>) -> bool {
    field.tool.pattern.as_ref().is_some_and(|pattern| {
        // Backreferences and lookaround do not parse (and are refused for every tool).
        regex_syntax::Parser::new()
            .parse(&pattern.value())
            .is_ok_and(|hir| crate::shape::check::has_word_boundary(&hir))
    })
}

struct Cx<'c> {
    container: &'c Container<'c>,
    /// The types the `#[tool(recursive)]` fields lead to: all of them are here already, as the
    /// derive found them before, in the same order.
    targets: &'c [syn::Type],
}

impl Cx<'_> {
    /// `<ty as ToolSchema>::FACTS`, with the container's own type replaced by `Recursion<Self>`.
    fn of_type(&self, ty: &Type) -> TokenStream {
        let ty = self.facts_type(ty);
        quote!(<#ty as ::toolgen::__private::ToolSchema>::FACTS)
    }

    /// The type whose `FACTS` [`Self::of_type`] names for `ty`.
    fn facts_type(&self, ty: &Type) -> Type {
        let ident = self.container.ident;
        if mentions_self(ty, ident) {
            replace_self(ty, ident)
        } else {
            ty.clone()
        }
    }

    /// The type whose facts a field's are, where they are just its type's: `None` for a field
    /// marked `#[tool(recursive)]`, of a plain type, with a default, that keeps its `null`, or
    /// with a `pattern` Anthropic's grammar cannot read (see [`Self::field`]).
    fn own_type(&self, field: &Field<'_>, untagged: bool) -> Option<Type> {
        let ty = field.input_ty();
        (!field.tool.recursive.is_present()
            && !defaulted(field)
            && !keeps_null(field, untagged)
            && !crate::shape::ty::is_plain(ty)
            && !unreadable_pattern(field))
        .then(|| self.facts_type(ty))
    }

    /// A field's facts: its type's, with a problem of its own for a `pattern` Anthropic's
    /// grammar cannot read, and, around them, its default (and the `#[tool(default = ..)]` value
    /// to fill in, but not in an untagged variant, which serde may not be reading) or, in an
    /// untagged variant, that it reads `null` as a value.
    fn field(&self, field: &Field<'_>, untagged: bool) -> TokenStream {
        let ty = field.input_ty();
        // A primitive, `String`, or `Option`/`Vec`/`Box` of one has nothing to say (and the
        // prelude checks pin those names).
        let inner = if field.tool.recursive.is_present() {
            // What the field leads to is not summed in here (a cycle): its facts point there.
            let ty = crate::expand::schema::types::cut_cycles(ty, &mut self.targets.to_vec());
            quote!(<#ty as ::toolgen::__private::ToolSchema>::FACTS)
        } else if crate::shape::ty::is_plain(ty) {
            none()
        } else {
            self.of_type(ty)
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
        if defaulted(field) {
            let fill = option_tokens(field.prop.fill_text().filter(|_| !untagged));
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

    /// An object with `fields` as properties (flattened ones merged), `extra` properties before
    /// them (a tag: its name and value's characters), and `extra_text` more characters.
    /// `untagged`: the object is an untagged variant's own, which serde tries in turn with the
    /// others: kept whole by argument parsing (`Facts::whole`).
    fn object(
        &self,
        fields: &[Field<'_>],
        extra: &[&str],
        extra_text: u32,
        untagged: bool,
    ) -> TokenStream {
        let mut kids = Vec::new();
        // The properties whose facts are their type's, by name and type: when all kids are,
        // the list is one call (`kidsN`).
        let mut typed: Vec<(&str, Type)> = Vec::new();
        let mut properties = extra.len() as u32;
        let mut text = extra_text + extra.iter().map(|n| text_len(n)).sum::<u32>();
        for field in fields.iter() {
            if field.flatten.is_none() {
                properties += 1;
                text += text_len(&field.name);
            }
            if !has_kid(field, untagged) {
                continue;
            }
            let own_type = self.own_type(field, untagged);
            let facts = match &own_type {
                Some(ty) => quote!(<#ty as ::toolgen::__private::ToolSchema>::FACTS),
                None => self.field(field, untagged),
            };
            if let (None, Some(ty)) = (&field.flatten, own_type) {
                typed.push((field.name.as_str(), ty));
            }
            let via = if field.flatten.is_some() {
                Via::Flatten
            } else {
                Via::Property
            };
            let name = if field.flatten.is_some() {
                ""
            } else {
                field.name.as_str()
            };
            kids.push(kid(via, name, &facts));
        }
        let whole = untagged.then(|| quote!(.whole()));
        if typed.len() == kids.len()
            && let Some(list) = crate::expand::rope::type_list("kids", &typed, "FACTS")
        {
            return quote! {
                &::toolgen::__private::Facts::node(0, true, [#properties, 0, #text], &#list)#whole
            };
        }
        quote! {
            &::toolgen::__private::Facts::node(0, true, [#properties, 0, #text], &[#(#kids),*])#whole
        }
    }

    /// A tuple of `items`: a problem of its own for the dialects, and its items' facts for
    /// argument parsing.
    fn tuple<'t>(&self, items: impl Iterator<Item = &'t Type>) -> TokenStream {
        let items = items.map(|ty| self.of_type(ty));
        quote! {
            &::toolgen::__private::Facts::node(
                ::toolgen::__private::facts::TUPLE, false, [0, 0, 0], &[]
            ).tuple(&[#(#items),*])
        }
    }

    /// An enum: its branches, in serde's representation, as the schema writes them, the
    /// untagged variants' last, and the representation, for argument parsing.
    fn enumeration(&self, variants: &[Variant<'_>]) -> TokenStream {
        let repr = &self.container.repr;
        let variants: Vec<&Variant<'_>> = variants.iter().collect();
        let (tagged, untagged) = repr.split_untagged(&variants);
        let mut branches = match repr {
            Repr::Untagged => tagged
                .iter()
                .map(|v| kid(Via::Branch, "", &self.content(v, true)))
                .collect(),
            Repr::Adjacent { tag, content } => tagged
                .iter()
                .map(|v| kid(Via::Variant, &v.name, &self.adjacent(tag, content, v)))
                .collect(),
            Repr::Internal { tag } => tagged
                .iter()
                .map(|v| kid(Via::Variant, &v.name, &self.internal(tag, v)))
                .collect(),
            Repr::External => self
                .external(&tagged)
                .iter()
                .map(|b| kid(Via::Branch, "", b))
                .collect::<Vec<_>>(),
        };
        let untagged_from = if matches!(repr, Repr::Untagged) {
            0
        } else {
            branches.len() as u16
        };
        branches.extend(
            untagged
                .iter()
                .map(|v| kid(Via::Branch, "", &self.content(v, true))),
        );
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
        quote! {
            &::toolgen::__private::Facts::enumeration(
                ::toolgen::__private::EnumRepr::#repr, #untagged_from, #own, [0, 0, 0],
                &[#(#branches),*]
            )
        }
    }

    /// What a variant holds, without the tag. `untagged`: the variant is one serde tries in
    /// turn (see [`Self::object`]).
    fn content(&self, variant: &Variant<'_>, untagged: bool) -> TokenStream {
        match &variant.shape {
            Shape::Unit => none(),
            Shape::Newtype(ty) => self.of_type(ty),
            Shape::Tuple(items) => self.tuple(items.iter().copied()),
            Shape::Struct(fields) => self.object(fields, &[], 0, untagged),
        }
    }

    /// Externally tagged: unit variants as a string `enum` (or one `const` each when documented),
    /// `#[serde(other)]` as a string, any other variant as `{"<name>": content}`.
    fn external(&self, variants: &[&Variant<'_>]) -> Vec<TokenStream> {
        let units: Vec<&&Variant<'_>> = variants
            .iter()
            .filter(|v| matches!(v.shape, Shape::Unit) && v.other.is_none())
            .collect();
        let mut branches = Vec::new();
        if units.iter().all(|v| v.description.is_none()) {
            if !units.is_empty() {
                // The `enum` array's text: the quoted names, commas and brackets.
                let text: u32 = units
                    .iter()
                    .map(|v| json::string(&v.name).len() as u32 + 1)
                    .sum::<u32>()
                    + 1;
                branches.push(node(quote!(0), false, [0, units.len() as u32, text], &[]));
            }
        } else {
            branches.extend(units.iter().map(|v| {
                let text = json::string(&v.name).len() as u32;
                node(quote!(0), false, [0, 0, text], &[])
            }));
        }
        let others = variants.iter().filter(|v| v.other.is_some()).count();
        branches.extend((0..others).map(|_| none()));
        for variant in variants.iter().filter(|v| !matches!(v.shape, Shape::Unit)) {
            let content = self.content(variant, false);
            let kids = [kid(Via::Property, &variant.name, &content)];
            branches.push(node(
                quote!(0),
                true,
                [1, 0, text_len(&variant.name)],
                &kids,
            ));
        }
        branches
    }

    /// Internally tagged: the tag is a property beside the variant's own fields.
    fn internal(&self, tag: &str, variant: &Variant<'_>) -> TokenStream {
        let tag_value = tag_text(variant);
        match &variant.shape {
            Shape::Struct(fields) => self.object(fields, &[tag], tag_value, false),
            Shape::Newtype(ty) => {
                let kids = [kid(Via::Flatten, "", &self.of_type(ty))];
                node(quote!(0), true, [1, 0, text_len(tag) + tag_value], &kids)
            }
            _ => node(quote!(0), true, [1, 0, text_len(tag) + tag_value], &[]),
        }
    }

    /// Adjacently tagged: `{"<tag>": name, "<content>": content}`.
    fn adjacent(&self, tag: &str, content: &str, variant: &Variant<'_>) -> TokenStream {
        let text = text_len(tag) + text_len(content) + tag_text(variant);
        let kids = [kid(Via::Property, content, &self.content(variant, false))];
        node(quote!(0), true, [2, 0, text], &kids)
    }
}

/// The characters a tag's value adds: its `const` (a `#[serde(other)]` tag has none the strict
/// dialects keep).
fn tag_text(variant: &Variant<'_>) -> u32 {
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

fn none() -> TokenStream {
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
enum Via {
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
fn kid(via: Via, name: &str, facts: &TokenStream) -> TokenStream {
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
    use crate::shape::{Container, Derive};

    /// The `FACTS` expression for `input` (as the derive writes it where the type is on no
    /// graph), as text without spaces.
    fn facts_tokens(input: syn::DeriveInput) -> String {
        let mut errors = darling::Error::accumulator();
        let container = Container::from_ast(&input, Derive::ToolSchema, &mut errors);
        assert!(errors.finish().is_ok());
        container_facts(&container, false, &[])
            .to_string()
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
        assert!(mixed.ends_with(".whole())])"), "{mixed}");
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
