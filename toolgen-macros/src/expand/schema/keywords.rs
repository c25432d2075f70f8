//! A field's validation and annotation keywords as schema text, placed where they go: the list
//! its decided [`Keywords`](crate::shape::keywords::Keywords) states (`stated`), whose checks
//! (`shape::keywords`) have already refused what does not fit the field's type.

use super::Node;
use crate::shape::Field;

/// The bounds an integer type has of its own, which a stated one of the same key tightens.
const OWN_BOUNDS: [&str; 2] = ["minimum", "maximum"];

/// The keywords stated on the number's schema (`range`'s `minimum`, `maximum`), merged with the
/// bounds an integer type already has ([`Keywords::stated`](crate::shape::keywords::Keywords::stated)).
pub fn apply_range(node: Node, field: &Field<'_>) -> Node {
    let stated: Vec<(&str, String)> = field
        .keywords
        .stated(false)
        .into_iter()
        .filter(|s| s.on_number)
        .map(|s| (s.key, s.json))
        .collect();
    if stated.is_empty() {
        return node;
    }
    on_number(node, &stated)
}

fn on_number(node: Node, stated: &[(&str, String)]) -> Node {
    let given = |key: &str| {
        stated
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, json)| json.clone())
    };
    match node {
        Node::Nullable(inner) => Node::Nullable(Box::new(on_number(*inner, stated))),
        Node::Described(inner, description) => {
            Node::Described(Box::new(on_number(*inner, stated)), description)
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
            let bounds = OWN_BOUNDS.map(|key| {
                let lower = key == "minimum";
                (key, tighter(own(&keywords, key), given(key), lower))
            });
            keywords.retain(|(key, _)| !OWN_BOUNDS.contains(&key.as_str()) && given(key).is_none());
            for (key, value) in bounds {
                keywords.extend(value.map(|value| (key.to_owned(), value)));
            }
            for (key, json) in stated {
                if !OWN_BOUNDS.contains(key) {
                    keywords.push(((*key).to_owned(), json.clone()));
                }
            }
            Node::typed(ty, Node::Keywords(keywords))
        }
        other => other.with_keywords(
            stated
                .iter()
                .map(|(key, json)| Node::text(format!("\"{key}\":{json}")))
                .collect(),
        ),
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

/// The keywords stated on the field's (innermost) schema: `length`, `pattern`, `format`
/// ([`Keywords::stated`](crate::shape::keywords::Keywords::stated)).
pub fn constraints(field: &Field<'_>, node: &Node) -> Vec<Node> {
    let json = node
        .json_type()
        .or_else(|| crate::shape::ty::value_json_type(field.input_ty()));
    field
        .keywords
        .stated(json == Some("array"))
        .into_iter()
        .filter(|s| !s.on_number)
        .map(|s| Node::text(format!("\"{}\":{}", s.key, s.json)))
        .collect()
}
