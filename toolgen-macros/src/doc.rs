//! Doc comments (`///`, `/** */`, `#[doc = "..."]`) into description text.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The description a doc comment gives: lines joined, common indentation removed, paragraphs
/// kept. Lines of a paragraph are joined with a space (Markdown's soft wrap), except list items
/// and fenced code, which keep their line breaks. `None` when there is no doc text.
///
/// `#[doc = include_str!(..)]` and other non-literal docs cannot be read by a derive; they are
/// passed over.
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
