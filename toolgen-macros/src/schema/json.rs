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

/// A literal expression from an attribute (`5`, `-1.5`, `"word"`, `true`, `None`, `[1, 2]`) as
/// JSON text.
pub fn expr_to_json(expr: &syn::Expr) -> syn::Result<String> {
    use syn::{Expr, Lit, UnOp};
    let unexpected = || {
        syn::Error::new_spanned(
            expr,
            "expected a literal: a string, number or bool, `None`, or an array of them",
        )
    };
    match expr {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_json_requires() {
        assert_eq!(string("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(string("line\nnext\ttab"), r#""line\nnext\ttab""#);
        assert_eq!(string("\u{1}\u{7f}é🦀"), "\"\\u0001\u{7f}é🦀\"");
    }
}
