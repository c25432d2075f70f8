//! Schema nodes as tokens: `Rope` expressions with their literal text folded, and the calls of
//! the runtime's list functions that name many types in one expression.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use super::schema::Node;
use crate::shape::prop::PatchMisuse;
use crate::shape::ty::span_of;

/// A `Rope` expression for a node, with all literal pieces folded.
pub(crate) fn rope(node: &Node) -> TokenStream {
    Ropes {
        named: None,
        branches: None,
    }
    .rope(node)
}

/// Writes `Rope` expressions; a node equal to `named`'s is written as the const named there
/// (a struct's properties, written once for its schema, its `OBJECT` and its tool's root).
pub(super) struct Ropes<'n> {
    pub(super) named: Option<(&'n Node, &'n syn::Ident)>,
    /// The container's flattened types, whose `Branches` are the const named here.
    pub(super) branches: Option<(&'n [syn::Type], &'n syn::Ident)>,
}

impl Ropes<'_> {
    pub(super) fn rope(&self, node: &Node) -> TokenStream {
        if let Some((named, ident)) = self.named
            && named == node
        {
            return quote!(#ident);
        }
        // A typed schema stays `Rope::Typed` even when all its text is known, so that `Option` of the
        // type widens its `type` with `null` (`Rope::Nullable`), as it does for generic types.
        if let Node::Typed(ty, tail) = node
            && let Some(tail) = tail.literal()
        {
            return quote!(::toolgen::__private::Rope::Typed(#ty, &::toolgen::__private::Rope::Str(#tail)));
        }
        if let Some(text) = node.literal() {
            return quote!(::toolgen::__private::Rope::Str(#text));
        }
        match node {
            Node::Seq(pieces) => self.seq(pieces, false),
            Node::Typed(ty, tail) => {
                let tail = self.rope(tail);
                quote!(::toolgen::__private::Rope::Typed(#ty, &#tail))
            }
            Node::Nullable(inner) => {
                let inner = self.rope(inner);
                quote!(::toolgen::__private::Rope::Nullable(&#inner))
            }
            Node::Described(inner, description) => {
                let inner = self.rope(inner);
                quote!(::toolgen::__private::Rope::Described(&#inner, #description))
            }
            Node::Trait(ty) => {
                quote_spanned!(span_of(ty)=> <#ty as ::toolgen::__private::ToolSchema>::SCHEMA)
            }
            Node::SelfRef(ty) => {
                quote!(::toolgen::__private::Rope::Ref(&<#ty as ::toolgen::__private::Recursive>::ID))
            }
            Node::Cycle(ty) => quote_spanned!(span_of(ty)=>
                ::toolgen::__private::Rope::Ref(&<#ty as ::toolgen::__private::Cyclic>::ID)),
            // A list none of whose pieces can turn out empty is a sequence with commas between:
            // its literal pieces then join the text around them.
            Node::Join(pieces) if pieces.iter().all(Node::never_empty_or_nothing) => {
                self.seq(pieces, true)
            }
            Node::Join(pieces) => self.join(pieces),
            Node::Keyword(prefix, inner, suffix) => {
                let inner = self.rope(inner);
                quote!(::toolgen::__private::Rope::Keyword(#prefix, &#inner, #suffix))
            }
            Node::Extend(inner, keywords) => {
                let (inner, keywords) = (self.rope(inner), self.rope(keywords));
                quote!(::toolgen::__private::Rope::Extend(&#inner, &#keywords))
            }
            // The object check runs first, where the type is written, so its error points there.
            Node::PropertiesOf(ty) => quote_spanned!(span_of(ty)=>
            ::toolgen::__private::Rope::Seq(&[
                ::toolgen::__private::Rope::Str(::toolgen::__private::require_object(
                    &<#ty as ::toolgen::__private::ToolSchema>::OBJECT)),
                ::toolgen::__private::Rope::PropertiesOf(&<#ty as ::toolgen::__private::ToolSchema>::OBJECT),
            ])),
            Node::RequiredOf(ty) => quote_spanned!(span_of(ty)=>
            ::toolgen::__private::Rope::RequiredOf(&<#ty as ::toolgen::__private::ToolSchema>::OBJECT)),
            Node::AdditionalOf(ty) => quote_spanned!(span_of(ty)=>
            ::toolgen::__private::Rope::AdditionalOf(&<#ty as ::toolgen::__private::ToolSchema>::OBJECT)),
            Node::UniqueNames(own, flattened) => unique_names(own, flattened),
            Node::Branches(flattened, template) => {
                let template = self.rope(template);
                let branches = match self.branches {
                    Some((named, ident)) if named == flattened.as_slice() => quote!(#ident),
                    _ => branches_of(flattened),
                };
                quote!(::toolgen::__private::Rope::Branches(&#branches, &#template))
            }
            Node::CheckDefault(ty, string, value) => {
                let string = option_tokens(string.as_ref());
                let span = syn::spanned::Spanned::span(&**value);
                quote_spanned!(span=> ::toolgen::__private::Rope::Str(
                ::toolgen::__private::check_default::<#ty>(#string)))
            }
            Node::CheckPatch(ty, misuse) => {
                let misuse = patch_misuse(*misuse);
                quote_spanned!(span_of(ty)=> ::toolgen::__private::Rope::Str(
                ::toolgen::__private::check_patch::<#ty>(#misuse)))
            }
            Node::DenyOf(ty) => quote_spanned!(span_of(ty)=>
            ::toolgen::__private::Rope::DenyOf(&<#ty as ::toolgen::__private::ToolSchema>::OBJECT)),
            Node::DefaultOf(ty) => quote_spanned!(span_of(ty)=>
            ::toolgen::__private::Rope::DefaultOf(&<#ty as ::toolgen::__private::ToolSchema>::DEFAULT)),
            // Literal: handled above.
            Node::Text(_) | Node::Keywords(_) => {
                let text = node.literal().unwrap_or_default();
                quote!(::toolgen::__private::Rope::Str(#text))
            }
        }
    }

    /// `Rope::Join` of `pieces`, some of which may turn out empty: neighbouring literal pieces
    /// are joined here already, empty ones dropped.
    fn join(&self, pieces: &[Node]) -> TokenStream {
        let mut items = Vec::new();
        let mut text: Vec<String> = Vec::new();
        for piece in pieces {
            match piece.literal() {
                Some(literal) if literal.is_empty() => {}
                Some(literal) => text.push(literal),
                None => {
                    if !text.is_empty() {
                        let joined = text.join(",");
                        items.push(quote!(::toolgen::__private::Rope::Str(#joined)));
                        text.clear();
                    }
                    items.push(self.rope(piece));
                }
            }
        }
        if !text.is_empty() {
            let joined = text.join(",");
            items.push(quote!(::toolgen::__private::Rope::Str(#joined)));
        }
        quote!(::toolgen::__private::Rope::Join(&[#(#items),*]))
    }

    /// `Rope::Seq` of `pieces` (with commas between, for a list's: `commas`), their literal
    /// text joined.
    fn seq(&self, pieces: &[Node], commas: bool) -> TokenStream {
        let mut items = Vec::new();
        let mut text = String::new();
        if commas {
            self.flatten_join(pieces, &mut items, &mut text);
        } else {
            self.flatten_seq(pieces, &mut items, &mut text);
        }
        if !text.is_empty() {
            items.push(Piece::Text(text));
        }
        // Text between the schemas of types (the common case: a struct's properties) is one
        // call of the runtime's `seqN`, with an empty text where two schemas meet.
        if items.iter().all(|item| !matches!(item, Piece::Expr(_))) {
            let mut texts = vec![String::new()];
            let mut types = Vec::new();
            for item in &items {
                match item {
                    Piece::Text(text) => {
                        texts.last_mut().into_iter().for_each(|t| t.push_str(text))
                    }
                    Piece::Schema(ty) => {
                        types.push(*ty);
                        texts.push(String::new());
                    }
                    Piece::Expr(_) => {}
                }
            }
            if let Some(call) = list_call("seq", &types, "SCHEMA", quote!([#(#texts),*])) {
                return quote!(::toolgen::__private::Rope::Seq(&#call));
            }
        }
        let items = items.iter().map(|item| match item {
            Piece::Text(text) => quote!(::toolgen::__private::Rope::Str(#text)),
            Piece::Schema(ty) => {
                quote_spanned!(span_of(ty)=> <#ty as ::toolgen::__private::ToolSchema>::SCHEMA)
            }
            Piece::Expr(expr) => expr.clone(),
        });
        quote!(::toolgen::__private::Rope::Seq(&[#(#items),*]))
    }

    /// Appends the pieces of a sequence, joining neighbouring literal text into one piece.
    ///
    /// A piece that is itself a sequence, a typed schema (its `{"type":..` is text), or a list
    /// that cannot be empty, is written out in place: only a piece standing alone is ever widened
    /// by `Rope::Nullable` or told apart by kind, never one inside a sequence.
    fn flatten_seq<'p>(&self, pieces: &'p [Node], items: &mut Vec<Piece<'p>>, text: &mut String) {
        for piece in pieces {
            self.flatten_piece(piece, items, text);
        }
    }

    /// [`Self::flatten_seq`] of a list's pieces with commas between, the empty ones left out.
    fn flatten_join<'p>(&self, pieces: &'p [Node], items: &mut Vec<Piece<'p>>, text: &mut String) {
        let mut first = true;
        for piece in pieces {
            let literal = piece.literal();
            if literal.as_deref() == Some("") {
                continue;
            }
            if !first {
                text.push(',');
            }
            first = false;
            self.flatten_known(piece, literal, items, text);
        }
    }

    fn flatten_piece<'p>(&self, piece: &'p Node, items: &mut Vec<Piece<'p>>, text: &mut String) {
        self.flatten_known(piece, piece.literal(), items, text);
    }

    /// [`Self::flatten_piece`], `literal` being the piece's text if the macro knows it all
    /// (worked out once: it is a walk of the piece).
    fn flatten_known<'p>(
        &self,
        piece: &'p Node,
        literal: Option<String>,
        items: &mut Vec<Piece<'p>>,
        text: &mut String,
    ) {
        if let Some(literal) = literal {
            text.push_str(&literal);
            return;
        }
        let named = self.named.is_some_and(|(named, _)| named == piece);
        match piece {
            Node::Seq(inner) if !named => self.flatten_seq(inner, items, text),
            Node::Join(inner) if !named && inner.iter().all(Node::never_empty_or_nothing) => {
                self.flatten_join(inner, items, text);
            }
            Node::Typed(ty, tail) if !named => {
                text.push_str(&format!("{{\"type\":\"{ty}\""));
                self.flatten_piece(tail, items, text);
            }
            _ => {
                if !text.is_empty() {
                    items.push(Piece::Text(std::mem::take(text)));
                }
                items.push(match piece {
                    Node::Trait(ty) if !named => Piece::Schema(ty),
                    _ => Piece::Expr(self.rope(piece)),
                });
            }
        }
    }
}

/// Nothing, but const evaluation fails if the names (`own`, and those of the `flattened` types)
/// repeat.
fn unique_names(own: &[String], flattened: &[syn::Type]) -> TokenStream {
    // Spanned at the first flattened type: that is where a repeated name comes from.
    let span = flattened.first().map_or_else(Span::call_site, span_of);
    let flattened = flattened.iter().map(|ty| {
        quote_spanned!(span_of(ty)=>
            ::toolgen::__private::Names::Of(&<#ty as ::toolgen::__private::ToolSchema>::OBJECT))
    });
    quote_spanned!(span=> ::toolgen::__private::Rope::Str(::toolgen::__private::unique_names(
        &::toolgen::__private::Names::Seq(&[
            ::toolgen::__private::Names::List(&[#(#own),*]),
            #(#flattened),*
        ])
    )))
}

/// A piece of a `Rope::Seq` being written: literal text, a type's schema, or another rope.
enum Piece<'p> {
    Text(String),
    Schema(&'p syn::Type),
    Expr(TokenStream),
}

/// `Branches` of the flattened types: the alternatives a flattened enum among them brings.
pub(super) fn branches_of(flattened: &[syn::Type]) -> TokenStream {
    if flattened.is_empty() {
        return quote!(::toolgen::__private::Branches::None);
    }
    // From the second on, each is checked against those before it: one enum at most.
    let each = flattened.iter().enumerate().map(|(i, ty)| {
        let object =
            quote_spanned!(span_of(ty)=> &<#ty as ::toolgen::__private::ToolSchema>::OBJECT);
        if i == 0 {
            return quote!(::toolgen::__private::Branches::Of(#object));
        }
        let earlier = flattened[..i].iter().map(
            |ty| quote_spanned!(span_of(ty)=> &<#ty as ::toolgen::__private::ToolSchema>::OBJECT),
        );
        quote_spanned!(span_of(ty)=> ::toolgen::__private::Branches::Of(
            ::toolgen::__private::flattened_after(#object, &[#(#earlier),*])))
    });
    quote!(::toolgen::__private::Branches::Seq(&[#(#each),*]))
}

/// `::core::option::Option::Some(value)` or `::core::option::Option::None`, as tokens.
pub(crate) fn option_tokens(value: Option<impl quote::ToTokens>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}

/// The longest list the runtime has a function for (`toolgen_runtime`'s `lists` module:
/// `seq1`..`seq12`, `kids1`..`kids12`).
const MAX_LIST: usize = 12;

/// A call of the runtime's list function `kind` for `types` (`kindN::<T1, .., TN>(args)`): the
/// list in one expression, which rustc checks once in the runtime, instead of an expression per
/// type in every const that lists them. `None` for no types, or more than the runtime has a
/// function for.
///
/// Each type's `konst` is named first, in the same block (`let _ = <T as ToolSchema>::FACTS;`):
/// a type without a schema is then reported there, as in every other const that names it, and
/// rustc leaves out the error of the call's bound at the same place. Without it, the type would
/// be reported once more per list function, with the bound as a note.
pub(crate) fn list_call(
    kind: &str,
    types: &[&syn::Type],
    konst: &str,
    args: TokenStream,
) -> Option<TokenStream> {
    if types.is_empty() || types.len() > MAX_LIST {
        return None;
    }
    let function = format_ident!("{}{}", kind, types.len());
    let konst = format_ident!("{}", konst);
    Some(quote! {{
        #(let _ = <#types as ::toolgen::__private::ToolSchema>::#konst;)*
        ::toolgen::__private::#function::<#(#types),*>(#args)
    }})
}

/// [`list_call`] of `kind` for named types: the names are its argument.
pub(crate) fn type_list(
    kind: &str,
    named: &[(String, syn::Type)],
    konst: &str,
) -> Option<TokenStream> {
    let names = named.iter().map(|(name, _)| name);
    let types: Vec<&syn::Type> = named.iter().map(|(_, ty)| ty).collect();
    list_call(kind, &types, konst, quote!([#(#names),*]))
}

/// The runtime's `PatchMisuse` value for `misuse`.
pub fn patch_misuse(misuse: PatchMisuse) -> TokenStream {
    let variant = match misuse {
        PatchMisuse::NoDefault => quote!(NoDefault),
        PatchMisuse::Filled => quote!(Filled),
        PatchMisuse::Held => quote!(Held),
    };
    quote!(::toolgen::__private::PatchMisuse::#variant)
}
