//! Tokens for `ToolSchema::PLAN`: where in the type's JSON a `null` stands for a missing field
//! with a default, which argument parsing drops so that the default applies (OpenAI strict mode
//! makes every field required, so models send `null` for what they would leave out), and where a
//! missing field's `#[tool(default = ..)]` value is written in, so that serde finds it. One tree,
//! walked at run time, serves both: no fill code is generated.

use proc_macro2::TokenStream;
use quote::quote;

use crate::expand::rope::option_tokens;
use crate::shape::delegate_type;
use crate::shape::repr::Repr;
use crate::shape::ty::is_plain;
use crate::shape::ty::mentions_self;
use crate::shape::{Container, Data, Field, Shape, Variant};

/// The value of the container's `PLAN` (a `Plan` expression), or `None` when no field can have
/// a default at any depth (only plain fields without one): the trait's `Plan::None` then says
/// the same.
///
/// The cases follow serde's reading of the type: a delegate (`transparent`, `from`, `try_from`) is its delegate's tree, a newtype its field's,
/// a struct an object of its fields, an enum the alternatives its representation allows.
pub fn expand_plan(container: &Container<'_>) -> Option<TokenStream> {
    let ident = container.ident;
    match delegate_type(container) {
        Some(ty) => Some(type_node(ty, ident)),
        None => match &container.data {
            Data::Named(fields) => object(fields, ident, false),
            Data::Tuple(fields) if fields.len() == 1 => {
                let ty = &fields[0].ty;
                (!is_plain(ty)).then(|| type_node(ty, ident))
            }
            Data::Tuple(fields) => tuple(fields.iter().map(|f| &f.ty), ident),
            Data::Enum(variants) => enum_node(container, variants, ident),
            Data::Unit | Data::Union => None,
        },
    }
}

/// The tree of a value of type `ty` (a `Plan` expression). A type that leads back to the
/// container is looked up when parsing needs it: as a const it would be a cycle.
fn type_node(ty: &syn::Type, own: &syn::Ident) -> TokenStream {
    if is_plain(ty) {
        quote!(::toolgen::__private::Plan::None)
    } else if let Some(ty) = held(ty, own) {
        quote!(<#ty as ::toolgen::__private::ToolSchema>::PLAN)
    } else {
        quote!(::toolgen::__private::Plan::Lazy(::toolgen::__private::plan_of::<#ty>))
    }
}

/// The type whose `PLAN` is a value of `ty`'s tree, as [`type_node`] names it: `None` for a
/// plain type or one that holds the container itself. (A type on a cycle with the container
/// says so in its own `PLAN`.)
fn held<'t>(ty: &'t syn::Type, own: &syn::Ident) -> Option<&'t syn::Type> {
    (!is_plain(ty) && !mentions_self(ty, own)).then_some(ty)
}

/// An object with `fields`: the ones with a default, and those whose value may hold one. Plain
/// fields without a default are left out; `None` when that leaves nothing. (A field's default may
/// be the container's `#[serde(default)]` value's: see [`crate::shape::prop::Prop`].)
///
/// `untagged`: the object is an untagged variant's, one of the alternatives serde tries in
/// turn. Its fields that read `null` as a value are listed too (`Plan::Keep`), for where
/// another variant defaults the same key, and the object is kept whole: the enum's node is
/// pruned as one.
fn object(fields: &[Field<'_>], ident: &syn::Ident, untagged: bool) -> Option<TokenStream> {
    let mut entries = Vec::new();
    // The fields that only pass their type's tree on (no default, no `fill`), by name and type:
    // when all are, the list is one call (`null_fieldsN`).
    let mut nested: Vec<(&str, syn::Type)> = Vec::new();
    let mut flattened = Vec::new();
    for field in fields.iter() {
        let ty = field.input_ty();
        if field.flatten.is_some() {
            flattened.push(type_node(ty, ident));
            continue;
        }
        // An `Option` whose default is `None` reads `null` as `None` already: nothing to drop.
        let default = field.prop.defaults_to_value;
        let keep = untagged && !default && (field.with.is_some() || reads_null_as_value(ty));
        if !default && !keep && is_plain(ty) {
            continue;
        }
        let name = &field.name;
        let recursive = field.tool.recursive.is_present();
        // The type whose tree the value follows, where it is a held type's (worked out once).
        let held = (!keep && !recursive && !is_plain(ty) && !field.prop.holds_self).then_some(ty);
        let inner = if keep {
            quote!(::toolgen::__private::Plan::Keep)
        } else if recursive {
            // Leads back to a type that holds this one: found when parsing needs it.
            quote!(::toolgen::__private::Plan::Cycle(::toolgen::__private::plan_of::<#ty>))
        } else if let Some(held) = &held {
            quote!(<#held as ::toolgen::__private::ToolSchema>::PLAN)
        } else {
            type_node(ty, ident)
        };
        // The `#[tool(default = ..)]` value to write in where the key is missing; none in an
        // untagged variant, which serde may not be reading (see `Plan::Untagged`).
        let fill = field.prop.fill_text().filter(|_| !untagged);
        if let (false, None, Some(held)) = (default, &fill, held) {
            nested.push((name.as_str(), held.clone()));
        }
        entries.push(match (default, fill) {
            // A field without a default whose value may hold one: the common case, by the
            // runtime's constructor (fewer nodes for rustc to type-check than the struct).
            (false, None) => quote!(::toolgen::__private::PlanField::nested(#name, &#inner)),
            (default, fill) => {
                let fill = option_tokens(fill);
                quote! {
                    ::toolgen::__private::PlanField {
                        name: #name, default: #default, fill: #fill, inner: &#inner
                    }
                }
            }
        });
    }
    if entries.is_empty() && flattened.is_empty() {
        return None;
    }
    if !untagged
        && flattened.is_empty()
        && nested.len() == entries.len()
        && let Some(list) = crate::expand::rope::type_list("null_fields", &nested, "PLAN")
    {
        return Some(quote!(::toolgen::__private::Plan::fields(&#list)));
    }
    let object = quote!(::toolgen::__private::Plan::Object(&[#(#entries),*], &[#(#flattened),*]));
    Some(if untagged {
        object
    } else {
        quote!(#object.pruned())
    })
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

/// An array read position by position (a tuple struct or variant).
fn tuple<'a>(
    items: impl Iterator<Item = &'a syn::Type>,
    ident: &syn::Ident,
) -> Option<TokenStream> {
    let items: Vec<&syn::Type> = items.collect();
    if items.iter().all(|ty| is_plain(ty)) {
        return None;
    }
    let nodes = items.iter().map(|ty| type_node(ty, ident));
    Some(quote!(::toolgen::__private::Plan::Tuple(&[#(#nodes),*]).pruned()))
}

/// The tree of a variant's content, where serde reads it; `None` for a unit variant.
/// `untagged`: the variant is one serde tries in turn (see [`object`]).
fn content(variant: &Variant<'_>, ident: &syn::Ident, untagged: bool) -> Option<TokenStream> {
    match &variant.shape {
        Shape::Unit => None,
        Shape::Newtype(ty) => (!is_plain(ty)).then(|| type_node(ty, ident)),
        Shape::Tuple(items) => tuple(items.iter().copied(), ident),
        Shape::Struct(fields) => object(fields, ident, untagged),
    }
}

/// An enum: the alternatives its representation allows. Tagged variants are found under their
/// name (external), or by the tag's value, their fields beside the tag (internal `tag`) or under
/// the content key (adjacent `tag` + `content`); untagged ones (the whole enum, or
/// `#[serde(untagged)]` variants, which serde tries after the others) are the content itself,
/// any of which the JSON may be.
fn enum_node(
    container: &Container<'_>,
    variants: &[Variant<'_>],
    ident: &syn::Ident,
) -> Option<TokenStream> {
    let mut untagged_contents = Vec::new();
    let mut alternatives = Vec::new();
    let mut tagged = Vec::new();
    for variant in variants.iter() {
        let untagged = matches!(container.repr.of_variant(variant), Repr::Untagged);
        let content = content(variant, ident, untagged);
        if untagged {
            untagged_contents.extend(content);
        } else {
            tagged.push((variant.name.as_str(), content));
        }
    }
    if tagged.iter().any(|(_, content)| content.is_some()) {
        let field = |name: &str, inner: &TokenStream| quote!(::toolgen::__private::PlanField::nested(#name, &#inner));
        // A variant of a tagged enum, found by its tag: each variant's `null`s are stripped as
        // that variant reads them.
        let cases = |node: &dyn Fn(&TokenStream) -> TokenStream| {
            let cases = tagged.iter().map(|(name, content)| {
                let node = content
                    .as_ref()
                    .map_or_else(|| quote!(::toolgen::__private::Plan::None), node);
                quote!(::toolgen::__private::TagCase { name: #name, node: &#node })
            });
            quote!(&[#(#cases),*])
        };
        match &container.repr {
            // Internally tagged: the content's fields sit beside the tag.
            Repr::Internal { tag } => {
                let cases = cases(&|content| content.clone());
                alternatives.push(quote!(::toolgen::__private::Plan::Tagged(#tag, #cases)));
            }
            // Adjacently tagged: the content is under its key.
            Repr::Adjacent { tag, content: key } => {
                let cases = cases(&|content| {
                    let entry = field(key, content);
                    quote!(::toolgen::__private::Plan::Object(&[#entry], &[]))
                });
                alternatives.push(quote!(::toolgen::__private::Plan::Tagged(#tag, #cases)));
            }
            // Externally tagged: `{"Variant": content}`. (An untagged enum has no tagged
            // variants.)
            Repr::External | Repr::Untagged => {
                let entries = tagged
                    .iter()
                    .filter_map(|(name, content)| Some(field(name, content.as_ref()?)));
                alternatives.push(quote! {
                    ::toolgen::__private::Plan::Object(&[#(#entries),*], &[])
                });
            }
        }
    }
    // The untagged ones, which serde tries after the tagged ones: marked, so that no
    // `#[tool(default = ..)]` value is filled in where which variant serde reads is not known.
    if !untagged_contents.is_empty() {
        alternatives.push(quote! {
            ::toolgen::__private::Plan::Untagged(&[#(#untagged_contents),*])
        });
    }
    match alternatives.len() {
        0 => None,
        1 => alternatives
            .pop()
            .map(|node| quote!(::toolgen::__private::Plan::pruned(#node))),
        _ => Some(quote! {
            ::toolgen::__private::Plan::Any(&[#(#alternatives),*]).pruned()
        }),
    }
}

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    use super::expand_plan;
    use crate::shape::{Container, Derive};

    /// The `PLAN` const for `input` (as the derive writes it where the type is on no graph),
    /// as text without spaces.
    fn plan_tokens(input: syn::DeriveInput) -> String {
        let mut errors = darling::Error::accumulator();
        let container = Container::from_ast(&input, Derive::ToolSchema, &mut errors);
        assert!(errors.finish().is_ok());
        expand_plan(&container)
            .map(|node| format!("const PLAN: Plan = {node};"))
            .unwrap_or_default()
            .replace(' ', "")
            .replace("::toolgen::__private::", "")
            .replace("::core::option::Option::", "")
    }

    #[test]
    fn plain_fields_without_defaults_need_nothing() {
        let text = plan_tokens(parse_quote! {
            struct S { a: String, b: Option<u32>, c: Vec<bool>, #[serde(skip)] d: Thing }
        });
        assert_eq!(text, "");
    }

    #[test]
    fn defaults_and_nested_types_are_listed() {
        let text = plan_tokens(parse_quote! {
            struct S {
                #[serde(default)] a: u8,
                #[tool(default = 3)] b: u8,
                c: Inner,
                d: String,
                #[serde(flatten)] e: More,
            }
        });
        assert_eq!(
            text,
            concat!(
                "constPLAN:Plan=Plan::Object(&[",
                "PlanField{name:\"a\",default:true,fill:None,inner:&Plan::None},",
                // The `#[tool(default)]` value, written in where the key is missing.
                "PlanField{name:\"b\",default:true,fill:Some(\"3\"),inner:&Plan::None},",
                "PlanField::nested(\"c\",&<InnerasToolSchema>::PLAN)",
                "],&[<MoreasToolSchema>::PLAN]).pruned();"
            )
        );
    }

    #[test]
    fn container_default_covers_every_field() {
        let text = plan_tokens(parse_quote! {
            #[serde(default, rename_all = "camelCase")]
            struct S { first_name: String }
        });
        assert!(text.contains("name:\"firstName\",default:true"), "{text}");
    }

    #[test]
    fn fields_leading_back_to_the_type_are_lazy() {
        let text = plan_tokens(parse_quote! {
            struct Tree { #[serde(default)] label: String, children: Vec<Tree> }
        });
        assert!(
            text.contains("PlanField::nested(\"children\",&Plan::Lazy(plan_of::<Vec<Tree>>))"),
            "{text}"
        );
    }

    #[test]
    fn enums_follow_their_representation() {
        let external = plan_tokens(parse_quote! {
            enum E { A, B { #[serde(default)] x: u8 }, C(Inner), #[serde(untagged)] D(Other) }
        });
        assert_eq!(
            external,
            concat!(
                "constPLAN:Plan=Plan::Any(&[",
                "Plan::Object(&[",
                "PlanField::nested(\"B\",&Plan::Object(&[",
                "PlanField{name:\"x\",default:true,fill:None,inner:&Plan::None}],&[]).pruned()),",
                "PlanField::nested(\"C\",&<InnerasToolSchema>::PLAN)",
                "],&[]),",
                // The untagged variant, marked: nothing is filled in below it.
                "Plan::Untagged(&[<OtherasToolSchema>::PLAN])]).pruned();"
            )
        );
        let internal = plan_tokens(parse_quote! {
            #[serde(tag = "t")]
            enum E { A, B { #[serde(default)] x: u8 } }
        });
        // Found by the tag's value: each variant strips as it reads.
        assert_eq!(
            internal,
            concat!(
                "constPLAN:Plan=Plan::pruned(Plan::Tagged(\"t\",&[",
                "TagCase{name:\"A\",node:&Plan::None},",
                "TagCase{name:\"B\",node:&Plan::Object(&[",
                "PlanField{name:\"x\",default:true,fill:None,inner:&Plan::None}],&[]).pruned()}]));"
            )
        );
        let adjacent = plan_tokens(parse_quote! {
            #[serde(tag = "t", content = "c")]
            enum E { A(Inner), B(Other) }
        });
        assert_eq!(
            adjacent,
            concat!(
                "constPLAN:Plan=Plan::pruned(Plan::Tagged(\"t\",&[",
                "TagCase{name:\"A\",node:&Plan::Object(&[",
                "PlanField::nested(\"c\",&<InnerasToolSchema>::PLAN)],&[])},",
                "TagCase{name:\"B\",node:&Plan::Object(&[",
                "PlanField::nested(\"c\",&<OtherasToolSchema>::PLAN)],&[])}]));"
            )
        );
        let untagged = plan_tokens(parse_quote! {
            #[serde(untagged)]
            enum E { A(Inner), B(String, Other), C(u8) }
        });
        assert!(
            untagged.contains("Plan::Untagged(&[<InnerasToolSchema>::PLAN,Plan::Tuple(&[Plan::None,<OtherasToolSchema>::PLAN]).pruned()])"),
            "{untagged}"
        );
    }

    #[test]
    fn untagged_variants_list_the_fields_that_read_null_as_a_value() {
        let untagged = plan_tokens(parse_quote! {
            #[serde(untagged)]
            enum E {
                A { a: serde_json::Value, b: (), #[serde(with = "m")] c: u8, d: Option<Value>, e: u8 },
                B { #[serde(default)] a: String },
            }
        });
        // Kept whole (a variant alone has nothing to strip); the enum is pruned as one.
        assert_eq!(
            untagged,
            concat!(
                "constPLAN:Plan=Plan::pruned(Plan::Untagged(&[Plan::Object(&[",
                "PlanField::nested(\"a\",&Plan::Keep),",
                "PlanField::nested(\"b\",&Plan::Keep),",
                "PlanField::nested(\"c\",&Plan::Keep),",
                // An `Option` reads a missing key as it reads `null`: its own node.
                "PlanField::nested(\"d\",&<Option<Value>asToolSchema>::PLAN)",
                "],&[]),",
                "Plan::Object(&[PlanField{name:\"a\",default:true,fill:None,inner:&Plan::None}],&[])",
                "]));"
            )
        );
        // A `#[tool(default)]` value in an untagged variant is not written in.
        let filled = plan_tokens(parse_quote! {
            enum E { A { #[tool(default = 1)] x: u8 }, #[serde(untagged)] B { #[tool(default = 2)] y: u8 } }
        });
        assert!(
            filled.contains("name:\"x\",default:true,fill:Some(\"1\")"),
            "{filled}"
        );
        assert!(
            filled.contains("name:\"y\",default:true,fill:None"),
            "{filled}"
        );
        // Not in a struct, nor in a tagged variant: there no other variant reads the object.
        let tagged = plan_tokens(parse_quote! {
            enum E { A { a: Value, #[serde(default)] x: u8 } }
        });
        assert!(!tagged.contains("Keep"), "{tagged}");
        let plain = plan_tokens(parse_quote! { struct S { a: Value, #[serde(default)] x: u8 } });
        assert!(!plain.contains("Keep"), "{plain}");
    }

    #[test]
    fn delegates_and_newtypes_are_their_inner_type() {
        let transparent = plan_tokens(parse_quote! {
            #[serde(transparent)]
            struct S { inner: Inner }
        });
        assert_eq!(transparent, "constPLAN:Plan=<InnerasToolSchema>::PLAN;");
        let from = plan_tokens(parse_quote! {
            #[serde(from = "Raw")]
            struct S { a: u8 }
        });
        assert_eq!(from, "constPLAN:Plan=<RawasToolSchema>::PLAN;");
        let newtype = plan_tokens(parse_quote! { struct S(Vec<Inner>); });
        assert_eq!(newtype, "constPLAN:Plan=<Vec<Inner>asToolSchema>::PLAN;");
        assert_eq!(plan_tokens(parse_quote! { struct S(String); }), "");
    }
}
