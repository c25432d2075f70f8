//! Doc comments (`///`, `/** */`, `#[doc = "..."]`) into description text.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// A description: text the macro reads, or an expression only the compiler can read
/// (`#[doc = include_str!("..")]`), a `&'static str`.
///
/// In the model (`shape`) the text is the description itself; in schema nodes it is escaped as
/// JSON string content.
#[derive(Clone, Debug)]
pub enum Desc {
    Text(String),
    Expr(TokenStream),
}

impl PartialEq for Desc {
    fn eq(&self, other: &Desc) -> bool {
        match (self, other) {
            (Desc::Text(a), Desc::Text(b)) => a == b,
            (Desc::Expr(a), Desc::Expr(b)) => a.to_string() == b.to_string(),
            _ => false,
        }
    }
}

impl Desc {
    /// The text, when the macro can read it.
    pub fn text(&self) -> Option<&str> {
        match self {
            Desc::Text(text) => Some(text),
            Desc::Expr(_) => None,
        }
    }

    /// The description as a `&'static str` expression, white space around it trimmed.
    pub fn raw_tokens(&self) -> TokenStream {
        match self {
            Desc::Text(text) => text.to_token_stream(),
            Desc::Expr(expr) => quote!(::toolgen::__private::trim_doc(#expr)),
        }
    }
}

/// Tokens of the escaped JSON string content (for a schema node's `Desc`): a literal, or a const
/// block that escapes the expression's text in const evaluation.
impl ToTokens for Desc {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Desc::Text(escaped) => escaped.to_tokens(tokens),
            Desc::Expr(expr) => tokens.extend(quote! {{
                const __TOOLGEN_DOC: &str = ::toolgen::__private::trim_doc(#expr);
                const __TOOLGEN_DOC_JSON: [u8; ::toolgen::__private::escaped_len(__TOOLGEN_DOC)] =
                    ::toolgen::__private::escaped::<
                        { ::toolgen::__private::escaped_len(__TOOLGEN_DOC) },
                    >(__TOOLGEN_DOC);
                ::toolgen::__private::flattened_str(&__TOOLGEN_DOC_JSON)
            }}),
        }
    }
}

/// The doc comment as a [`Desc`]: [`description`]'s text when every `#[doc]` is a literal;
/// when one is an expression (`#[doc = include_str!("..")]`), all of them joined with line
/// breaks by `concat!`, for the compiler to read (trimmed, without the joining of lines that
/// text docs get).
pub fn doc_desc(attrs: &[Attribute]) -> Option<Desc> {
    let values: Vec<&Expr> = attrs
        .iter()
        .filter(|attr| attr.path().is_ident("doc"))
        .filter_map(|attr| match &attr.meta {
            Meta::NameValue(nv) => Some(&nv.value),
            _ => None,
        })
        .collect();
    if values.iter().all(|v| matches!(v, Expr::Lit(_))) {
        return description(attrs).map(Desc::Text);
    }
    let mut pieces = Vec::new();
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            pieces.push(quote!("\n"));
        }
        pieces.push(value.to_token_stream());
    }
    Some(Desc::Expr(quote!(::core::concat!(#(#pieces),*))))
}

/// The description a doc comment gives: lines joined, common indentation removed, paragraphs
/// kept. Lines of a paragraph are joined with a space (Markdown's soft wrap), except list items
/// and fenced code, which keep their line breaks. `None` when there is no doc text.
///
/// Non-literal docs (`#[doc = include_str!(..)]`) are passed over here; [`doc_desc`] keeps them.
pub fn description(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }) = &nv.value
        {
            // `split`, not `lines`: an empty `///` line is a paragraph break and must stay a line.
            let value = text.value();
            lines.extend(
                value
                    .split('\n')
                    .map(|l| l.trim_end_matches('\r').to_owned()),
            );
        }
    }
    join(&lines)
}

fn join(lines: &[String]) -> Option<String> {
    let indent = lines
        .iter()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()?;
    let mut out = String::new();
    let mut in_fence = false;
    let mut blank_run = false;
    // Inside a list: numbered items after the first one start lines too.
    let mut in_list = false;
    for line in lines {
        if line.trim().is_empty() {
            blank_run = !out.is_empty();
            if in_fence {
                out.push('\n');
            }
            continue;
        }
        let text = line.get(indent..).unwrap_or(line.trim_start()).trim_end();
        let fence = text.trim_start().starts_with("```");
        let item = is_list_item(text, in_list);
        if item {
            in_list = true;
        } else if blank_run {
            in_list = false;
        }
        if out.is_empty() {
        } else if blank_run && !in_fence {
            out.push_str("\n\n");
        } else if in_fence || fence || item {
            out.push('\n');
        } else {
            out.push(' ');
            out.push_str(text.trim_start());
            blank_run = false;
            continue;
        }
        blank_run = false;
        out.push_str(text);
        if fence {
            in_fence = !in_fence;
        }
    }
    Some(out)
}

/// Whether a line starts a Markdown list item. As in CommonMark, an ordered item interrupts a
/// paragraph only when it is numbered 1 (a wrapped line may well start with `100) `), unless it
/// follows another item.
fn is_list_item(line: &str, in_list: bool) -> bool {
    let line = line.trim_start();
    if line.starts_with("- ") || line.starts_with("* ") || line.starts_with("+ ") {
        return true;
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let ordered =
        digits > 0 && (line[digits..].starts_with(". ") || line[digits..].starts_with(") "));
    ordered && (in_list || &line[..digits] == "1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    fn doc(attrs: Vec<Attribute>) -> Option<String> {
        description(&attrs)
    }

    #[test]
    fn joins_lines_and_keeps_paragraphs() {
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[doc = " Get the weather"]),
            parse_quote!(#[doc = " for a city."]),
            parse_quote!(#[doc = ""]),
            parse_quote!(#[doc = " Second paragraph."]),
        ];
        assert_eq!(
            doc(attrs).as_deref(),
            Some("Get the weather for a city.\n\nSecond paragraph.")
        );
    }

    #[test]
    fn removes_common_indentation_of_block_comments() {
        let attrs: Vec<Attribute> =
            vec![parse_quote!(#[doc = "\n    First line\n      indented\n    last\n"])];
        assert_eq!(doc(attrs).as_deref(), Some("First line indented last"));
    }

    #[test]
    fn keeps_list_items_and_code_on_their_lines() {
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[doc = " Units:"]),
            parse_quote!(#[doc = " - celsius"]),
            parse_quote!(#[doc = " - fahrenheit"]),
            parse_quote!(#[doc = " ```"]),
            parse_quote!(#[doc = " a"]),
            parse_quote!(#[doc = " b"]),
            parse_quote!(#[doc = " ```"]),
        ];
        assert_eq!(
            doc(attrs).as_deref(),
            Some("Units:\n- celsius\n- fahrenheit\n```\na\nb\n```")
        );
    }

    #[test]
    fn numbers_wrapped_into_a_paragraph_are_text() {
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[doc = " At most"]),
            parse_quote!(#[doc = " 100) results. Steps:"]),
            parse_quote!(#[doc = " 1. search"]),
            parse_quote!(#[doc = " 2. read"]),
        ];
        assert_eq!(
            doc(attrs).as_deref(),
            Some("At most 100) results. Steps:\n1. search\n2. read")
        );
    }

    #[test]
    fn no_doc_is_none() {
        assert_eq!(doc(vec![parse_quote!(#[doc = "   "])]), None);
        assert_eq!(doc(vec![parse_quote!(#[allow(dead_code)])]), None);
    }
}
