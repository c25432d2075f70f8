//! JSON string escaping, for names and descriptions written into schema text.

/// `text` as the inside of a JSON string (without the quotes).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// `text` as a JSON string, with the quotes.
pub fn string(text: &str) -> String {
    format!("\"{}\"", escape(text))
}

/// A literal expression from an attribute (`5`, `-1.5`, `"word"`, `true`, `None`, `[1, 2]`, or
/// any JSON value written as `json!({..})`, serde_json's macro) as JSON text.
pub fn expr_to_json(expr: &syn::Expr) -> syn::Result<String> {
    use syn::{Expr, Lit, UnOp};
    let unexpected = || {
        syn::Error::new_spanned(
            expr,
            "expected a literal: a string, number or bool, `None`, an array of them, or \
             `json!(..)` for any JSON value",
        )
    };
    match expr {
        Expr::Macro(mac)
            if mac
                .mac
                .path
                .segments
                .last()
                .is_some_and(|segment| segment.ident == "json") =>
        {
            let mut tokens = mac.mac.tokens.clone().into_iter().peekable();
            let value = json_value(&mut tokens, &mac.mac)?;
            match tokens.next() {
                None => Ok(value),
                Some(extra) => Err(syn::Error::new_spanned(
                    extra,
                    "expected one JSON value in `json!(..)`",
                )),
            }
        }
        Expr::Lit(lit) => match &lit.lit {
            Lit::Str(text) => Ok(string(&text.value())),
            Lit::Char(ch) => Ok(string(&ch.value().to_string())),
            Lit::Bool(b) => Ok(b.value.to_string()),
            Lit::Int(int) => Ok(int.base10_digits().to_owned()),
            Lit::Float(float) => match float.base10_parse::<f64>() {
                Ok(value) if value.is_finite() => Ok(format!("{value:?}")),
                _ => Err(syn::Error::new_spanned(float, "this number is not finite")),
            },
            _ => Err(unexpected()),
        },
        Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => {
            let inner = expr_to_json(&unary.expr)?;
            if inner.starts_with(|c: char| c.is_ascii_digit()) {
                Ok(format!("-{inner}"))
            } else {
                Err(unexpected())
            }
        }
        Expr::Array(array) => {
            let items: syn::Result<Vec<String>> = array.elems.iter().map(expr_to_json).collect();
            Ok(format!("[{}]", items?.join(",")))
        }
        Expr::Path(path) if path.path.is_ident("None") => Ok("null".to_owned()),
        Expr::Paren(inner) => expr_to_json(&inner.expr),
        Expr::Group(inner) => expr_to_json(&inner.expr),
        _ => Err(unexpected()),
    }
}

type Tokens = std::iter::Peekable<proc_macro2::token_stream::IntoIter>;

/// One JSON value from the tokens of `json!(..)`: literals, `true`/`false`/`null`, negative
/// numbers, `[..]` and `{"key": value, ..}`; no Rust expressions (the value must be known now).
fn json_value(tokens: &mut Tokens, whole: &dyn quote::ToTokens) -> syn::Result<String> {
    use proc_macro2::{Delimiter, TokenTree};
    let not_json = |span: &dyn quote::ToTokens| {
        syn::Error::new_spanned(
            span,
            "expected a JSON value: a string, number, `true`, `false`, `null`, `[..]` or `{..}` \
             (no Rust expressions: the schema is written at compile time)",
        )
    };
    let Some(token) = tokens.next() else {
        return Err(not_json(whole));
    };
    match &token {
        TokenTree::Literal(literal) => {
            let lit = syn::Lit::new(literal.clone());
            expr_to_json(&syn::Expr::Lit(syn::ExprLit {
                attrs: Vec::new(),
                lit,
            }))
        }
        TokenTree::Ident(ident) if ident == "true" || ident == "false" => Ok(ident.to_string()),
        TokenTree::Ident(ident) if ident == "null" => Ok("null".to_owned()),
        TokenTree::Punct(punct) if punct.as_char() == '-' => match tokens.next() {
            Some(TokenTree::Literal(literal)) => {
                let number = json_value(
                    &mut proc_macro2::TokenStream::from(TokenTree::Literal(literal.clone()))
                        .into_iter()
                        .peekable(),
                    whole,
                )?;
                if number.starts_with(|c: char| c.is_ascii_digit()) {
                    Ok(format!("-{number}"))
                } else {
                    Err(not_json(&literal))
                }
            }
            _ => Err(not_json(&token)),
        },
        TokenTree::Group(group) if group.delimiter() == Delimiter::Bracket => {
            let mut inner = group.stream().into_iter().peekable();
            let mut items = Vec::new();
            while inner.peek().is_some() {
                items.push(json_value(&mut inner, whole)?);
                comma(&mut inner)?;
            }
            Ok(format!("[{}]", items.join(",")))
        }
        TokenTree::Group(group) if group.delimiter() == Delimiter::Brace => {
            let members: Vec<String> = members(group, whole)?
                .into_iter()
                .map(|member| format!("{}:{}", string(&member.key), member.text))
                .collect();
            Ok(format!("{{{}}}", members.join(",")))
        }
        _ => Err(not_json(&token)),
    }
}

/// One member of a `json!({..})` object: its key, where its value is written, the value's JSON
/// text.
pub struct Member {
    pub key: String,
    pub span: proc_macro2::Span,
    pub text: String,
}

/// The members of the object `json!({..})` writes, in order; `None` for any other expression or
/// one that is not JSON (reported where it is read).
pub fn object_members(expr: &syn::Expr) -> Option<Vec<Member>> {
    let syn::Expr::Macro(mac) = expr else {
        return None;
    };
    let mut tokens = mac.mac.tokens.clone().into_iter();
    match (tokens.next(), tokens.next()) {
        (Some(proc_macro2::TokenTree::Group(group)), None)
            if group.delimiter() == proc_macro2::Delimiter::Brace =>
        {
            members(&group, &mac.mac).ok()
        }
        _ => None,
    }
}

/// The members of an object's `{..}` group.
fn members(group: &proc_macro2::Group, whole: &dyn quote::ToTokens) -> syn::Result<Vec<Member>> {
    use proc_macro2::TokenTree;
    let mut inner = group.stream().into_iter().peekable();
    let mut members = Vec::new();
    while let Some(key) = inner.next() {
        let not_a_key = || {
            syn::Error::new_spanned(
                &key,
                "a key in `json!({..})` is a string literal: write `\"key\": value`",
            )
        };
        let name = match &key {
            TokenTree::Literal(literal) => match syn::Lit::new(literal.clone()) {
                syn::Lit::Str(text) => text.value(),
                _ => return Err(not_a_key()),
            },
            _ => return Err(not_a_key()),
        };
        match inner.next() {
            Some(TokenTree::Punct(colon)) if colon.as_char() == ':' => {}
            _ => {
                return Err(syn::Error::new_spanned(&key, "expected `:` after the key"));
            }
        }
        let span = inner.peek().map_or_else(|| key.span(), TokenTree::span);
        let text = json_value(&mut inner, whole)?;
        members.push(Member {
            key: name,
            span,
            text,
        });
        comma(&mut inner)?;
    }
    Ok(members)
}

/// The comma after an item, unless the list ends here.
fn comma(tokens: &mut Tokens) -> syn::Result<()> {
    use proc_macro2::TokenTree;
    match tokens.next() {
        None => Ok(()),
        Some(TokenTree::Punct(punct)) if punct.as_char() == ',' => Ok(()),
        Some(other) => Err(syn::Error::new_spanned(other, "expected `,`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_macro_values_are_written_as_json() {
        let expr: syn::Expr = syn::parse_quote!(json!({
            "voice.formality": "casual",
            "n": [-1, 2.5, true, null, {"deep": "x\"y"}],
        }));
        assert_eq!(
            expr_to_json(&expr).unwrap(),
            r#"{"voice.formality":"casual","n":[-1,2.5,true,null,{"deep":"x\"y"}]}"#
        );
        for bad in [
            syn::parse_quote!(json!({"a": some_var})),
            syn::parse_quote!(json!({a: 1})),
            syn::parse_quote!(json!([1 2])),
            syn::parse_quote!(json!(1, 2)),
        ] {
            let bad: syn::Expr = bad;
            assert!(expr_to_json(&bad).is_err(), "{}", quote::quote!(#bad));
        }
    }

    #[test]
    fn escapes_what_json_requires() {
        assert_eq!(string("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(string("line\nnext\ttab"), r#""line\nnext\ttab""#);
        assert_eq!(string("\u{1}\u{7f}é🦀"), "\"\\u0001\u{7f}é🦀\"");
    }
}
