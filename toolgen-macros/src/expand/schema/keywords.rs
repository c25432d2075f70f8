//! A field's validation and annotation keywords (`range`, `length`, `pattern`, `format`) as
//! schema text, from its decided [`Keywords`](crate::shape::keywords::Keywords). The checks
//! (`shape::keywords`) have already refused what does not fit the field's type.

use super::{Node, json};
use crate::shape::Field;
use crate::shape::keywords::Bound;

/// A bound's JSON number text, if it is a number.
fn number(bound: &Option<Bound>) -> Option<String> {
    Some(bound.as_ref()?.number.as_ref()?.text.clone())
}

/// `"minimum"`/`"maximum"` from `range`, merged with the bounds an integer type already has.
pub fn apply_range(node: Node, field: &Field<'_>) -> Node {
    let Some(range) = &field.keywords.range else {
        return node;
    };
    let min = number(&range.min);
    let max = number(&range.max);
    match node {
        Node::Nullable(inner) => Node::Nullable(Box::new(apply_range(*inner, field))),
        Node::Described(inner, description) => {
            Node::Described(Box::new(apply_range(*inner, field)), description)
        }
        Node::Typed(ty, tail) if matches!(ty, "integer" | "number") => {
            let mut keywords = match *tail {
                Node::Keywords(keywords) => keywords,
                _ => Vec::new(),
            };
            let own = |keywords: &[(String, String)], key: &str| {
                keywords
                    .iter()
                    .find(|(k, _)| k == key)
                    .map(|(_, value)| value.clone())
            };
            let min = tighter(own(&keywords, "minimum"), min, true);
            let max = tighter(own(&keywords, "maximum"), max, false);
            keywords.retain(|(key, _)| key != "minimum" && key != "maximum");
            keywords.extend(min.map(|min| ("minimum".to_owned(), min)));
            keywords.extend(max.map(|max| ("maximum".to_owned(), max)));
            Node::typed(ty, Node::Keywords(keywords))
        }
        other => {
            let mut keywords = Vec::new();
            if let Some(min) = min {
                keywords.push(Node::text(format!("\"minimum\":{min}")));
            }
            if let Some(max) = max {
                keywords.push(Node::text(format!("\"maximum\":{max}")));
            }
            other.with_keywords(keywords)
        }
    }
}

/// Of the type's own bound and the attribute's, the tighter one.
fn tighter(own: Option<String>, given: Option<String>, lower: bool) -> Option<String> {
    match (own, given) {
        (Some(own), Some(given)) => {
            let (a, b) = (own.parse::<f64>().ok(), given.parse::<f64>().ok());
            match (a, b) {
                (Some(a), Some(b)) if (lower && b > a) || (!lower && b < a) => Some(given),
                _ => Some(own),
            }
        }
        (own, given) => given.or(own),
    }
}

/// `length`, `pattern` and `format` as keywords for the field's (innermost) schema.
pub fn constraints(field: &Field<'_>, node: &Node) -> Vec<Node> {
    let mut keywords = Vec::new();
    if let Some(length) = &field.keywords.length {
        let json = node
            .json_type()
            .or_else(|| crate::shape::ty::value_json_type(field.input_ty()));
        let (min_key, max_key) = match json {
            Some("array") => ("minItems", "maxItems"),
            _ => ("minLength", "maxLength"),
        };
        if let Some(min) = number(&length.min) {
            keywords.push(Node::text(format!("\"{min_key}\":{min}")));
        }
        if let Some(max) = number(&length.max) {
            keywords.push(Node::text(format!("\"{max_key}\":{max}")));
        }
    }
    if let Some(pattern) = &field.keywords.pattern {
        keywords.push(Node::text(format!(
            "\"pattern\":{}",
            json::string(&pattern.lit.value())
        )));
    }
    if let Some(format) = field
        .keywords
        .format
        .as_ref()
        .or(field.keywords.custom_format.as_ref())
    {
        keywords.push(Node::text(format!(
            "\"format\":{}",
            json::string(&format.value())
        )));
    }
    keywords
}
