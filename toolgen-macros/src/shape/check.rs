//! Rules that span several attributes or the whole input, one function each. Each reports to the
//! accumulator and returns, so one build shows every problem.

use std::collections::HashMap;

use syn::Type;

use crate::attr::doc::Desc;
use crate::attr::tool as attr;
use crate::shape::keywords::{self, article, known_type};
use crate::shape::repr::Repr;
use crate::shape::ty::{inner_types, mentions_self};
use crate::shape::{Container, Data, Field, Shape};

/// Runs every check that applies to `container`.
pub fn check(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    if container.tool.is_some() {
        let unread = container.tool.as_ref().is_some_and(|tool| tool.unread);
        check_tool_shape(container, errors);
        check_tool_name(container, unread, errors);
        check_tool_description(container, unread, errors);
        check_hints(container, errors);
        check_tool_generics(container, errors);
        check_strict_patterns(container, errors);
        keywords::check_input_examples(container, errors);
    }
    check_answer_generics(container, errors);
    check_form_flatten(container, errors);
    check_union(container, errors);
    check_enum_variants(container, errors);
    check_duplicate_names(container, errors);
    check_recursive_generics(container, errors);
    for field in container
        .named_fields()
        .into_iter()
        .chain(&container.newtype)
    {
        check_flatten(field, errors);
        check_with(field, errors);
        keywords::check_constraints(field, errors);
        keywords::check_default(field, errors);
        keywords::check_default_rules(field, errors);
        check_required(field, errors);
        check_nullable(field, errors);
        check_recursive_field(container, field, errors);
    }
}

/// `#[tool(recursive)]` marks a field that leads to a type of the user's which leads back: each
/// type it holds is written by `$ref`, its entry kept behind a `static`, which cannot be
/// generic.
fn check_recursive_field(
    container: &Container<'_>,
    field: &Field<'_>,
    errors: &mut darling::error::Accumulator,
) {
    if !field.tool.recursive.is_present() {
        return;
    }
    let span = field.tool.recursive.span();
    let mut fail = |message: String| errors.push(darling::Error::custom(message).with_span(&span));
    let ty = field.input_ty();
    let ident = container.ident;
    if field.flatten.is_some() {
        fail(
            "a flattened field cannot be `#[tool(recursive)]`: its properties are merged into \
             this type's, so it cannot be a `$ref`; remove `flatten`, or `recursive`"
                .to_owned(),
        );
        return;
    }
    if field.prop.holds_self {
        fail(format!(
            "a field that holds `{ident}` itself needs no `#[tool(recursive)]`: a type that \
             holds itself is written under `$defs` already; remove `recursive`"
        ));
        return;
    }
    let leaves = crate::shape::ty::cycle_leaves(ty);
    if leaves.is_empty() {
        fail(format!(
            "`#[tool(recursive)]` marks a field that leads back to a type holding `{ident}`, but \
             `{}` holds no type of yours (only standard ones); remove `recursive`",
            type_text(quote::quote!(#ty))
        ));
        return;
    }
    for param in container.original.generics.type_params() {
        if let Some(leaf) = leaves.iter().find(|leaf| mentions_self(leaf, &param.ident)) {
            fail(format!(
                "a `#[tool(recursive)]` field cannot lead to `{}`, which uses `{}`, a type \
                 parameter of `{ident}`: what it leads to is kept in a `static`, which cannot be \
                 generic; make the field's type concrete, or remove `recursive`",
                type_text(quote::quote!(#leaf)),
                param.ident
            ));
            return;
        }
    }
}

/// `#[tool(required)]` is for a field serde lets be missing (a default, an `Option`).
fn check_required(field: &Field<'_>, errors: &mut darling::error::Accumulator) {
    if field.tool.required.is_present() && field.prop.serde_requires {
        let span = field.tool.required.span();
        errors.push(
            darling::Error::custom(
                "`#[tool(required)]` is for a field serde lets be left out (one with a default, \
                 or an `Option`), but this field is required already; remove it",
            )
            .with_span(&span),
        );
    }
}

/// `#[tool(nullable)]` shows the `null` of an `Option` field's `None`: on a field of another
/// type it would say nothing (a type that reads `null`, such as `serde_json::Value`, shows it
/// already).
fn check_nullable(field: &Field<'_>, errors: &mut darling::error::Accumulator) {
    if field.tool.nullable.is_present() && !crate::shape::ty::is_option(field.input_ty()) {
        let span = field.tool.nullable.span();
        errors.push(
            darling::Error::custom(
                "`#[tool(nullable)]` is for an `Option` field, whose schema then admits `null`; \
                 this field is not an `Option` (written as such: an alias is not seen through): \
                 remove it, or make the field an `Option`",
            )
            .with_span(&span),
        );
    }
}

/// serde can flatten only types it reads from a JSON object (structs, maps).
fn check_flatten(field: &Field<'_>, errors: &mut darling::error::Accumulator) {
    if field.flatten.is_none() {
        return;
    }
    if let Some(json) = known_type(field.ty).filter(|t| *t != "object") {
        errors.push(
            darling::Error::custom(format!(
                "`#[serde(flatten)]` needs a struct or a map, but this field is {}: its value has \
                 no properties to merge into the enclosing object; remove `flatten` or wrap the \
                 value in a struct",
                article(json)
            ))
            .with_span(field.ty),
        );
    }
}

/// `with`/`deserialize_with` hand the field to a function toolgen cannot read: the user must say
/// what it accepts.
fn check_with(field: &Field<'_>, errors: &mut darling::error::Accumulator) {
    if let Some(span) = field.with
        && field.tool.schema.is_none()
    {
        errors.push(
            darling::Error::custom(
                "serde reads this field with a function toolgen cannot see, so the schema cannot \
                 say what it accepts; add #[tool(schema = SomeType)] naming a type whose schema \
                 describes that input",
            )
            .with_span(&span),
        );
    }
}

/// A tool's input is a JSON object: only a struct with named fields maps to one.
fn check_tool_shape(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    if container.serde.transparent || container.serde.from.is_some() {
        errors.push(
            darling::Error::custom(
                "#[derive(Tool)] cannot use `#[serde(transparent)]`, `from` or `try_from`: a tool's \
                 input must be a struct whose fields are the JSON object's properties",
            )
            .with_span(container.ident),
        );
        return;
    }
    let ident = container.ident;
    let (what, fix) = match &container.data {
        Data::Named(_) | Data::Union => return,
        Data::Tuple(_) => (
            "a tuple struct",
            format!("wrap the value in a named field, e.g. `struct {ident} {{ value: .. }}`"),
        ),
        Data::Unit => (
            "a unit struct",
            format!("for a tool that takes no arguments, write `struct {ident} {{}}`"),
        ),
        Data::Enum(_) => (
            "an enum",
            format!(
                "derive `ToolSchema` for `{ident}` and wrap it in a field, e.g. \
                 `struct {ident}Input {{ {}: {ident} }}`",
                serde_derive_internals::attr::RenameRule::SnakeCase
                    .apply_to_variant(&ident.to_string())
            ),
        ),
    };
    errors.push(
        darling::Error::custom(format!(
            "#[derive(Tool)] needs a struct with named fields, not {what}: a tool's input is a \
             JSON object; {fix}"
        ))
        .with_span(ident),
    );
}

/// OpenAI and Anthropic both require tool names to match `^[a-zA-Z0-9_-]{1,64}$`.
///
/// The type's name is not checked when the tool's attribute could not be read whole: the `name`
/// the user meant may be among its keys (`nmae = ".."`), and the type's name was only the
/// fallback. A `name` that was read is checked, beside the attribute's other problems.
fn check_tool_name(
    container: &Container<'_>,
    unread: bool,
    errors: &mut darling::error::Accumulator,
) {
    let Some(tool) = &container.tool else { return };
    if unread && !tool.explicit_name {
        return;
    }
    let name = &tool.name;
    let bad_char = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'));
    // Characters are counted only once they are known to be ASCII, so bytes are characters.
    let problem = if name.is_empty() {
        "it is empty".to_owned()
    } else if let Some(c) = bad_char {
        format!("it contains {}", describe_char(c))
    } else if name.len() > 64 {
        format!("it is {} characters long", name.len())
    } else {
        return;
    };
    let rule = "tool names may use only ASCII letters, digits, `_` and `-`, at most 64 \
                characters (^[a-zA-Z0-9_-]{1,64}$)";
    let message = match (tool.explicit_name, name.is_empty()) {
        (true, true) => format!("invalid tool name: {problem}; {rule}"),
        (true, false) => format!("invalid tool name `{name}`: {problem}; {rule}"),
        (false, _) => format!(
            "invalid tool name `{name}`, made from the type's name: {problem}; {rule}; set one \
             with #[tool(name = \"...\")]"
        ),
    };
    errors.push(darling::Error::custom(message).with_span(&tool.name_span));
}

/// A character as a message names it: invisible ones by name or escape.
fn describe_char(c: char) -> String {
    match c {
        ' ' => "a space".to_owned(),
        c if c.is_whitespace() || c.is_control() => format!("`{}`", c.escape_default()),
        c => format!("`{c}`"),
    }
}

/// MCP reads `destructiveHint` and `idempotentHint` only of a tool that is not read-only: either
/// beside `read_only` says nothing, and is refused at its key.
fn check_hints(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    let Some(tool) = &container.tool else { return };
    let hints = tool.mcp.hints();
    let [Some((true, _)), _, _, _] = hints else {
        return;
    };
    for (hint, (key, mcp)) in hints.iter().zip(attr::HINTS).skip(1).take(2) {
        if let Some((_, span)) = hint {
            errors.push(
                darling::Error::custom(format!(
                    "`{key}` says nothing of a `read_only` tool (MCP reads `{mcp}` only when \
                     `readOnlyHint` is false): remove `{key}`, or `read_only`"
                ))
                .with_span(span),
            );
        }
    }
}

/// The description is how the model decides when to call the tool; a tool without one is a bug.
///
/// A missing one is not reported when the user meant to give one but it could not be read (a
/// misspelt `descripton`, say): the error about that key says what to do.
fn check_tool_description(
    container: &Container<'_>,
    unread: bool,
    errors: &mut darling::error::Accumulator,
) {
    let Some(tool) = &container.tool else { return };
    match (&container.description, &tool.description_attr) {
        (Some(Desc::Text(text)), Some(lit)) if text.trim().is_empty() => errors.push(
            darling::Error::custom(
                "tool description is empty; say what the tool does and when to use it",
            )
            .with_span(lit),
        ),
        (Some(_), _) => {}
        (None, _) if unread => {}
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

/// A tool's schema is flattened into one `&'static str`, which needs a concrete type; and its
/// input is parsed as an owned value (`DeserializeOwned`), which cannot borrow.
fn check_tool_generics(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    let generics = &container.original.generics;
    if generics.params.is_empty() {
        return;
    }
    let message = if generics.lifetimes().count() == generics.params.len() {
        "#[derive(Tool)] needs a type without lifetime parameters: a tool's input is parsed into \
         an owned value (`DeserializeOwned`), so it cannot borrow; use owned types such as \
         `String` instead of `&str`"
    } else {
        "#[derive(Tool)] needs a concrete type, without generic parameters: its schema is one \
         const string; put the generic type in a field of a concrete tool struct, e.g. \
         `value: Store<String>`"
    };
    errors.push(darling::Error::custom(message).with_span(&generics.params));
}

/// A structured answer's and a form's checks are consts beside the type, which cannot name a
/// generic type's parameters; `Structured::<T>::new` checks each use of an answer.
fn check_answer_generics(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    if container.original.generics.type_params().next().is_none() {
        return;
    }
    if let Some(span) = container.answer {
        errors.push(
            darling::Error::custom(
                "`answer` checks a type where it is defined, and a generic type is not one type: \
                 drop `answer` (`Structured::<T>::new` checks each `T` where it is built), or put \
                 it on a struct that holds the generic type, e.g. `page: Page<String>`",
            )
            .with_span(&span),
        );
    }
    if let Some(span) = container.form {
        errors.push(
            darling::Error::custom(
                "`form` checks a type where it is defined, and a generic type is not one type: \
                 put `form` on a struct without type parameters",
            )
            .with_span(&span),
        );
    }
}

/// A form's fields are its properties: a flattened field's fields, which MCP's flat
/// `requestedSchema` could hold, are not written as the struct's own.
fn check_form_flatten(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    let Data::Named(fields) = &container.data else {
        return;
    };
    if container.form.is_none() {
        return;
    }
    for field in fields {
        if let Some(span) = field.flatten {
            errors.push(
                darling::Error::custom(format!(
                    "`form`: an elicitation form cannot take the fields of `{}` flattened in; \
                     write them in the struct",
                    field.name
                ))
                .with_span(&span),
            );
        }
    }
}

fn check_union(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    if let Data::Union = container.data {
        errors.push(
            darling::Error::custom("unions have no JSON form; use a struct or an enum")
                .with_span(container.ident),
        );
    }
}

/// An internally tagged enum puts its tag beside the variant's properties: a variant whose content
/// is not an object has nowhere to put it, and serde fails on it at run time.
fn check_enum_variants(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    let Data::Enum(variants) = &container.data else {
        return;
    };
    let Repr::Internal { tag } = &container.repr else {
        return;
    };
    for variant in variants.iter().filter(|v| !v.untagged) {
        let what = match &variant.shape {
            Shape::Tuple(_) => Some("a tuple".to_owned()),
            Shape::Newtype(ty) => known_type(ty).filter(|j| *j != "object").map(article),
            _ => None,
        };
        if let Some(what) = what {
            errors.push(
                darling::Error::custom(format!(
                    "variant `{}` holds {what}, which cannot carry the tag `{}`: \
                     #[serde(tag = ..)] needs struct variants, unit variants, or newtype variants \
                     of structs and maps; make it a struct variant (`{} {{ value: .. }}`) or use \
                     #[serde(tag = .., content = ..)]",
                    variant.original.ident, tag, variant.original.ident
                ))
                .with_span(&variant.original.fields),
            );
        }
    }
}

/// Two fields (or variants) with one wire name make a schema with a duplicate key; so do two
/// fields of one struct variant.
fn check_duplicate_names(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    match &container.data {
        Data::Named(fields) => report_duplicates("field", field_names(fields), errors),
        Data::Enum(variants) => {
            let names = variants
                .iter()
                .map(|v| {
                    let ident = &v.original.ident;
                    (v.name.as_str(), ident.to_string(), ident.span())
                })
                .collect();
            report_duplicates("variant", names, errors);
            for variant in variants {
                if let Shape::Struct(fields) = &variant.shape {
                    report_duplicates("field", field_names(fields), errors);
                }
            }
        }
        _ => {}
    }
}

/// (wire name, Rust name, where the wire name is set) of each field serde reads.
fn field_names<'f>(fields: &'f [Field<'_>]) -> Vec<(&'f str, String, proc_macro2::Span)> {
    fields
        .iter()
        .map(|f| {
            let ident = f.original.ident.as_ref().map(ToString::to_string);
            (f.name.as_str(), ident.unwrap_or_default(), f.name_span)
        })
        .collect()
}

fn report_duplicates(
    what: &str,
    names: Vec<(&str, String, proc_macro2::Span)>,
    errors: &mut darling::error::Accumulator,
) {
    let mut seen: HashMap<&str, String> = HashMap::new();
    for (name, ident, span) in names {
        match seen.get(name) {
            Some(first) => errors.push(
                darling::Error::custom(format!(
                    "{what} `{ident}` is read as `{name}`, like {what} `{first}`: serde cannot \
                     tell them apart; rename one with #[serde(rename = \"...\")]"
                ))
                .with_span(&span),
            ),
            None => {
                seen.insert(name, ident);
            }
        }
    }
}

/// A generic type may contain itself (`Tree<T>` in `Tree<T>`): each `Tree<..>` gets its own
/// `$defs` entry. Not with other type arguments (`Tree<Vec<T>>` in `Tree<T>`): that is a new
/// type at every level, which no finite `$defs` can hold.
fn check_recursive_generics(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    let generics = &container.original.generics;
    if generics.type_params().next().is_none() {
        return;
    }
    let ident = container.ident;
    let (_, own, _) = generics.split_for_impl();
    let own = type_text(quote::quote!(#ident #own));
    for ty in content_types(container) {
        let mut mentions = Vec::new();
        self_mentions(ty, ident, &mut mentions);
        for mention in mentions {
            let written = type_text(quote::quote!(#mention));
            if written != own {
                errors.push(
                    darling::Error::custom(format!(
                        "`{ident}` contains itself with other type arguments (`{written}` inside \
                         `{own}`): each level would be a new type, which no schema can name; \
                         use `Self` or `{own}` here"
                    ))
                    .with_span(mention),
                );
            }
        }
    }
}

/// A type's tokens as a person writes them: `Tree<Vec<T>>`, not `Tree < Vec < T > >`.
fn type_text(tokens: proc_macro2::TokenStream) -> String {
    tokens
        .to_string()
        .replace(" <", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
}

/// Every path in `ty` that names the container other than `Self` (`Tree<Vec<T>>`).
fn self_mentions<'t>(ty: &'t Type, ident: &syn::Ident, out: &mut Vec<&'t syn::TypePath>) {
    if !mentions_self(ty, ident) {
        return;
    }
    if let Type::Path(path) = ty
        && path.qself.is_none()
        && path.path.leading_colon.is_none()
        && path.path.segments.len() == 1
        && path.path.segments[0].ident == *ident
    {
        out.push(path);
    }
    for inner in inner_types(ty) {
        self_mentions(inner, ident, out);
    }
}

/// Every type the input holds: fields of structs and of struct variants, tuple fields, and the
/// contents of tuple and newtype variants.
fn content_types<'c>(container: &'c Container<'_>) -> Vec<&'c Type> {
    let mut types: Vec<&Type> = container.named_fields().iter().map(|f| f.ty).collect();
    match &container.data {
        Data::Tuple(fields) => types.extend(fields.iter().map(|f| &f.ty)),
        Data::Enum(variants) => {
            for variant in variants.iter() {
                match &variant.shape {
                    Shape::Newtype(ty) => types.push(ty),
                    Shape::Tuple(items) => types.extend(items.iter().copied()),
                    Shape::Unit | Shape::Struct(_) => {}
                }
            }
        }
        Data::Named(_) | Data::Unit | Data::Union => {}
    }
    types
}

/// Anthropic's strict grammar takes no word boundaries (`\b`, `\B`) in a `pattern`
/// (backreferences and lookaround are refused for every tool, as `regex-syntax` does not parse
/// them). Found here for the tool's own fields, with the span on the pattern; the const check of
/// the strict dialect finds them in nested types.
///
/// <https://docs.claude.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations>
fn check_strict_patterns(container: &Container<'_>, errors: &mut darling::error::Accumulator) {
    let Some(tool) = &container.tool else { return };
    if !tool.strict.is_some_and(|(strict, _)| strict.anthropic()) {
        return;
    }
    // Every field as written, those serde skips too.
    for field in container.written_fields() {
        let Some(pattern) = &field.keywords.pattern else {
            continue;
        };
        if field.keywords.unreadable_pattern() {
            errors.push(
                darling::Error::custom(
                    "Anthropic strict mode does not take word boundaries (`\\b`, `\\B`) in a \
                     `pattern`; rewrite the regex without them, or use \
                     `#[tool(strict = \"openai\")]`",
                )
                .with_span(&pattern.lit),
            );
        }
    }
}
