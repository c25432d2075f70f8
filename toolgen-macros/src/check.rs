//! Rules that span several attributes or the whole input, one function each. Each reports to the
//! accumulator and returns, so one build shows every problem.

use std::collections::HashMap;

use crate::ast::{Container, Data};
use crate::schema::types::mentions_self;

/// Runs every check that applies to `container`.
pub fn check(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    if container.tool.is_some() {
        check_tool_shape(container, errors);
        check_tool_name(container, errors);
        check_tool_description(container, errors);
        check_tool_generics(container, errors);
    }
    check_union(container, errors);
    check_enum_variants(container, errors);
    check_duplicate_names(container, errors);
    check_recursive_generics(container, errors);
}

/// A tool's input is a JSON object: only a struct with named fields maps to one.
fn check_tool_shape(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    let what = match &container.data {
        Data::Named(_) | Data::Union => return,
        Data::Tuple(_) => "a tuple struct",
        Data::Unit => "a unit struct",
        Data::Enum(_) => "an enum",
    };
    errors.push(
        darling::Error::custom(format!(
            "#[derive(Tool)] needs a struct with named fields, not {what}: a tool's input is a \
             JSON object; wrap the value in a field, e.g. `struct {}Input {{ value: .. }}`",
            container.ident
        ))
        .with_span(container.ident),
    );
}

/// OpenAI and Anthropic both require tool names to match `^[a-zA-Z0-9_-]{1,64}$`.
fn check_tool_name(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    let Some(tool) = &container.tool else { return };
    let name = &tool.name;
    let bad_char = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'));
    let problem = if name.is_empty() {
        "is empty".to_owned()
    } else if name.len() > 64 {
        format!("is {} characters long, more than 64", name.len())
    } else if let Some(c) = bad_char {
        format!("contains `{c}`")
    } else {
        return;
    };
    let fix = if tool.explicit_name {
        "use only ASCII letters, digits, `_` and `-`, at most 64 characters"
    } else {
        "name the tool with #[tool(name = \"...\")] using only ASCII letters, digits, `_` and `-`, at most 64 characters"
    };
    errors.push(
        darling::Error::custom(format!(
            "invalid tool name `{name}`: it {problem}; tool names must match ^[a-zA-Z0-9_-]{{1,64}}$; {fix}"
        ))
        .with_span(&tool.name_span),
    );
}

/// The description is how the model decides when to call the tool; a tool without one is a bug.
fn check_tool_description(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    let Some(tool) = &container.tool else { return };
    match (&container.description, &tool.description_attr) {
        (Some(text), Some(lit)) if text.trim().is_empty() => errors.push(
            darling::Error::custom(
                "tool description is empty; say what the tool does and when to use it",
            )
            .with_span(lit),
        ),
        (Some(_), _) => {}
        (None, _) => errors.push(
            darling::Error::custom(format!(
                "tool `{}` has no description; add a doc comment (`/// What the tool does.`) or \
                 #[tool(description = \"...\")]: the model reads it to decide when to call the tool",
                tool.name
            ))
            .with_span(container.ident),
        ),
    }
}

/// A tool's schema is flattened into one `&'static str`, which needs a concrete type.
fn check_tool_generics(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    let generics = &container.original.generics;
    if generics.params.is_empty() {
        return;
    }
    errors.push(
        darling::Error::custom(
            "#[derive(Tool)] needs a concrete type, without generic parameters: its schema is one \
             const string; put the generic type in a field of a concrete tool struct",
        )
        .with_span(&generics.params),
    );
}

fn check_union(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    if let Data::Union = container.data {
        errors.push(
            darling::Error::custom("unions have no JSON form; use a struct or an enum")
                .with_span(container.ident),
        );
    }
}

/// Enums whose variants carry data have several serde representations; this version describes
/// unit variants only.
fn check_enum_variants(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    let Data::Enum(variants) = &container.data else {
        return;
    };
    for variant in variants.iter().filter(|v| !v.skip) {
        if !matches!(variant.original.fields, syn::Fields::Unit) {
            errors.push(
                darling::Error::custom(format!(
                    "toolgen describes enums of unit variants only for now; variant `{}` carries \
                     data: make it a unit variant, or use a struct with an enum field for its kind",
                    variant.original.ident
                ))
                .with_span(&variant.original.fields),
            );
        }
    }
}

/// Two fields (or variants) with one wire name make a schema with a duplicate key.
fn check_duplicate_names(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    let names: Vec<(&str, proc_macro2::Span)> = match &container.data {
        Data::Named(fields) => fields
            .iter()
            .filter(|f| !f.skip)
            .map(|f| (f.name.as_str(), f.name_span))
            .collect(),
        Data::Enum(variants) => variants
            .iter()
            .filter(|v| !v.skip)
            .map(|v| (v.name.as_str(), v.original.ident.span()))
            .collect(),
        _ => return,
    };
    let mut seen = HashMap::new();
    for (name, span) in names {
        if seen.insert(name, span).is_some() {
            errors.push(
                darling::Error::custom(format!(
                    "duplicate name `{name}`: another field or variant is also read as `{name}`; \
                     rename one with #[serde(rename = \"...\")]"
                ))
                .with_span(&span),
            );
        }
    }
}

/// A recursive type's `$defs` entry is keyed by its name, which cannot tell `Tree<A>` from
/// `Tree<B>` apart; refuse rather than merge two schemas.
fn check_recursive_generics(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    let Data::Named(fields) = &container.data else {
        return;
    };
    let has_type_params = container.original.generics.type_params().next().is_some();
    if !has_type_params {
        return;
    }
    for field in fields.iter().filter(|f| !f.skip) {
        if mentions_self(field.ty, container.ident) {
            errors.push(
                darling::Error::custom(
                    "toolgen cannot describe a recursive generic type yet (its `$defs` entry \
                     would be shared by every instantiation); make the recursive type concrete",
                )
                .with_span(&field.original.ty),
            );
        }
    }
}
