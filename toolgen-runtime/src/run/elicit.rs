//! Elicitation: a handler asking the person behind the client for what it lacks, as MCP's
//! `elicitation/create` does ([`Invocation::elicit`](crate::Invocation::elicit)): the form a type
//! is asked as (checked at compile time, written at run time), the answer parsed as arguments
//! are, and the [`Elicitor`] that carries a request to whoever answers it.

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::dialect::strict::Message;
use crate::parse::args::{ArgsError, parse_tool_value};
use crate::schema::ToolSchema;
use crate::schema::facts::{self, Facts, Parse, Via};

/// What a person answered to an elicitation: the value they gave, or that they said no
/// (`Declined`) or closed the question (`Cancelled`), as MCP's `accept`, `decline` and `cancel`.
///
/// ```
/// use toolgen::Elicited;
///
/// let answer: Elicited<u32> = Elicited::Accepted(3);
/// assert_eq!(answer.accepted(), Some(3));
/// assert_eq!(Elicited::<u32>::Declined.accepted(), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Elicited<T> {
    /// The person filled the form in (or, asked to visit a URL, agreed to).
    Accepted(T),
    /// The person said no.
    Declined,
    /// The person closed the question without a choice.
    Cancelled,
}

impl<T> Elicited<T> {
    /// The value, if the person gave one.
    pub fn accepted(self) -> Option<T> {
        match self {
            Elicited::Accepted(value) => Some(value),
            Elicited::Declined | Elicited::Cancelled => None,
        }
    }
}

/// Why an elicitation has no answer.
///
/// ```
/// use toolgen::ElicitError;
///
/// let error = ElicitError::unsupported("the client did not declare `elicitation`");
/// assert_eq!(
///     error.to_string(),
///     "elicitation is not possible here: the client did not declare `elicitation`"
/// );
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ElicitError {
    /// Nobody can be asked: the call was not made over MCP, or the client did not declare the
    /// `elicitation` capability (or not the mode asked for).
    Unsupported(String),
    /// The answer does not fit the type asked for (with its JSON path, as for arguments).
    Invalid(ArgsError),
    /// The request failed on its way (the connection closed, the client answered with an error).
    Failed(String),
}

impl ElicitError {
    /// Nobody can be asked, for `reason`.
    pub fn unsupported(reason: impl Into<String>) -> Self {
        ElicitError::Unsupported(reason.into())
    }

    /// The request failed, for `reason`.
    pub fn failed(reason: impl Into<String>) -> Self {
        ElicitError::Failed(reason.into())
    }
}

impl fmt::Display for ElicitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElicitError::Unsupported(reason) => {
                write!(f, "elicitation is not possible here: {reason}")
            }
            ElicitError::Invalid(error) => write!(f, "the answer does not fit: {error}"),
            ElicitError::Failed(reason) => write!(f, "the elicitation failed: {reason}"),
        }
    }
}

impl std::error::Error for ElicitError {}

/// A question for the person behind the client, as MCP's `elicitation/create` asks it.
///
/// ```
/// use toolgen::ElicitRequest;
///
/// let request = ElicitRequest::url("Sign in to your bank", "https://bank.example/auth", "e-1");
/// assert_eq!(request.message(), "Sign in to your bank");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ElicitRequest {
    /// A form: `requested_schema` is a flat object of strings, numbers, booleans and enums.
    Form {
        /// What is asked, and why.
        message: String,
        /// The form's fields, as MCP's `requestedSchema`.
        requested_schema: Value,
    },
    /// A page to visit out of band (a sign-in, a payment): nothing comes back but the choice.
    Url {
        /// Why the page must be visited.
        message: String,
        /// The page.
        url: String,
        /// The elicitation's id (`2025-11-25`'s `elicitationId`; `2026-07-28` has none).
        elicitation_id: String,
    },
}

impl ElicitRequest {
    /// A form asking `message`, of the fields `requested_schema`.
    pub fn form(message: impl Into<String>, requested_schema: Value) -> Self {
        ElicitRequest::Form {
            message: message.into(),
            requested_schema,
        }
    }

    /// The page `url` to visit, for `message`, as the elicitation `elicitation_id`.
    pub fn url(
        message: impl Into<String>,
        url: impl Into<String>,
        elicitation_id: impl Into<String>,
    ) -> Self {
        ElicitRequest::Url {
            message: message.into(),
            url: url.into(),
            elicitation_id: elicitation_id.into(),
        }
    }

    /// What is asked.
    pub fn message(&self) -> &str {
        match self {
            ElicitRequest::Form { message, .. } | ElicitRequest::Url { message, .. } => message,
        }
    }

    /// How it is asked: a form, or a URL.
    ///
    /// ```
    /// use toolgen::{ElicitMode, ElicitRequest};
    ///
    /// let request = ElicitRequest::url("Sign in", "https://bank.example/auth", "e-1");
    /// assert_eq!(request.mode(), ElicitMode::Url);
    /// ```
    pub fn mode(&self) -> ElicitMode {
        match self {
            ElicitRequest::Form { .. } => ElicitMode::Form,
            ElicitRequest::Url { .. } => ElicitMode::Url,
        }
    }
}

/// How an elicitation asks: MCP's two modes, which a client declares one by one in its
/// `elicitation` capability.
///
/// ```
/// use toolgen::{ElicitMode, ElicitRequest};
///
/// let form = ElicitRequest::form("Your email?", serde_json::json!({"type": "object"}));
/// assert_eq!(form.mode(), ElicitMode::Form);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElicitMode {
    /// A form of flat fields, whose answer comes back through the client.
    Form,
    /// A page to visit out of band; only the person's choice comes back.
    Url,
}

/// The answer to an [`ElicitRequest`], as MCP's `ElicitResult` holds it: the person's choice,
/// and for an accepted form, its content (not yet checked).
///
/// ```
/// use serde_json::json;
/// use toolgen::{ElicitAnswer, Elicited};
///
/// let answer = ElicitAnswer::accept(Some(json!({"email": "ada@example.com"})));
/// assert!(matches!(answer.choice(), Elicited::Accepted(Some(_))));
/// assert_eq!(ElicitAnswer::decline().choice(), Elicited::Declined);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ElicitAnswer {
    choice: Elicited<Option<Value>>,
}

impl ElicitAnswer {
    /// Accepted, with a form's `content`.
    pub fn accept(content: Option<Value>) -> Self {
        ElicitAnswer {
            choice: Elicited::Accepted(content),
        }
    }

    /// Declined.
    pub fn decline() -> Self {
        ElicitAnswer {
            choice: Elicited::Declined,
        }
    }

    /// Cancelled.
    pub fn cancel() -> Self {
        ElicitAnswer {
            choice: Elicited::Cancelled,
        }
    }

    /// The choice, with an accepted form's content.
    pub fn choice(&self) -> Elicited<Option<Value>> {
        self.choice.clone()
    }

    /// The choice, with an accepted form's content, taken.
    pub fn into_choice(self) -> Elicited<Option<Value>> {
        self.choice
    }
}

/// The future of [`Elicitor::elicit`].
pub type ElicitFuture<'a> =
    Pin<Box<dyn Future<Output = Result<ElicitAnswer, ElicitError>> + Send + 'a>>;

/// Who carries a handler's [`ElicitRequest`] to a person: an [`McpServer`] gives each call one
/// that asks its client. Give a handler one of your own with
/// [`Invocation::with_elicitor`](crate::Invocation::with_elicitor) (a test's scripted answers,
/// a terminal prompt).
///
/// [`McpServer`]: https://docs.rs/toolgen-runtime/latest/toolgen_runtime/struct.McpServer.html
///
/// ```
/// use toolgen::{ElicitAnswer, ElicitFuture, ElicitRequest, Elicitor};
///
/// /// Says no to everything.
/// struct No;
///
/// impl Elicitor for No {
///     fn elicit(&self, _: ElicitRequest) -> ElicitFuture<'_> {
///         Box::pin(async { Ok(ElicitAnswer::decline()) })
///     }
/// }
/// ```
pub trait Elicitor: Sync {
    /// Asks `request`; completes with the person's answer.
    fn elicit(&self, request: ElicitRequest) -> ElicitFuture<'_>;

    /// Records that the call cannot go on until the person completes the URL elicitation
    /// `request` ([`Invocation::require_url`](crate::Invocation::require_url)), for the
    /// transport to end the call with it: an [`McpServer`] answers with MCP `2025-11-25`'s
    /// `-32042` error or `2026-07-28`'s input-required result. Whether it will; by default
    /// `false`, and the handler's error result stands.
    ///
    /// [`McpServer`]: https://docs.rs/toolgen-runtime/latest/toolgen_runtime/struct.McpServer.html
    fn require(&self, request: ElicitRequest) -> bool {
        let _ = request;
        false
    }

    /// Tells the client that the URL elicitation `elicitation_id` is complete (MCP's
    /// `notifications/elicitation/complete`, `2025-11-25`); nothing by default.
    fn complete(&self, elicitation_id: &str) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        let _ = elicitation_id;
        Box::pin(async {})
    }

    /// Whether a question in `mode` can be asked here (an MCP client that did not declare the
    /// mode cannot be asked in it); yes by default. A gateway declares to the servers it
    /// forwards to only the modes its caller's client can answer.
    fn can_ask(&self, mode: ElicitMode) -> bool {
        let _ = mode;
        true
    }
}

/// `T` read from an accepted form's `content`, as tool arguments are read: defaults filled in,
/// constraints checked, errors with JSON paths. A missing content reads as `{}`.
pub(crate) fn parse_answer<T: ToolSchema + DeserializeOwned>(
    answer: ElicitAnswer,
) -> Result<Elicited<T>, ElicitError> {
    match answer.into_choice() {
        Elicited::Accepted(content) => {
            let content = content.unwrap_or_else(|| Value::Object(Map::new()));
            parse_tool_value(content)
                .map(Elicited::Accepted)
                .map_err(ElicitError::Invalid)
        }
        Elicited::Declined => Ok(Elicited::Declined),
        Elicited::Cancelled => Ok(Elicited::Cancelled),
    }
}

/// A type an elicitation can ask for: a struct marked `#[tool(form)]`, whose derive checked at
/// compile time that MCP's `requestedSchema` can hold it (a flat object of strings, numbers,
/// integers, booleans, enums of strings, and lists of an enum of strings). Only the derive
/// implements it.
///
/// ```
/// use serde::Deserialize;
/// use toolgen::{Form, ToolSchema};
///
/// /// Where to send the receipt.
/// #[derive(ToolSchema, Deserialize)]
/// #[tool(form)]
/// struct Contact {
///     #[tool(format = "email")]
///     email: String,
/// }
///
/// fn askable<T: Form>() {}
/// askable::<Contact>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a form an elicitation can ask for",
    label = "not marked `#[tool(form)]`",
    note = "mark the struct `#[tool(form)]`: its derive then checks that each field is one an MCP elicitation form can hold (a string, number, integer, boolean, enum of strings, or list of an enum of strings)"
)]
pub trait Form: ToolSchema {}

/// The start of a form's build error: `toolgen: `name` cannot be an MCP elicitation form: `.
const fn form_message(name: &str) -> Message {
    let mut message = Message::new();
    message.put("toolgen: `");
    message.put(name);
    message.put("` cannot be an MCP elicitation form: ");
    message
}

/// What a form field can be, said after each refusal.
const FIELDS: &str = ". A form field is a string, a number, an integer, a boolean, an enum of \
                      strings, or a list of an enum of strings (a multi-select).";

/// Stops the build where the property `key` of the form `name`, whose type's facts are
/// `field`, cannot be a form field. (Its panics are build errors: it runs in const evaluation,
/// on the program's own types.)
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[allow(clippy::panic)]
pub const fn check_form_field(field: &Facts, key: &str, name: &str) {
    if let Some(reason) = field_refusal(field) {
        refuse(name, key, reason);
    }
}

/// Stops the build with the refusal of the property `key` of the form `name`.
#[allow(clippy::panic)]
const fn refuse(name: &str, key: &str, reason: &str) {
    let mut message = form_message(name);
    if !key.is_empty() {
        message.put("`");
        message.put(key);
        message.put("` is ");
    }
    message.put(reason);
    message.put(FIELDS);
    panic!("{}", message.text());
}

/// Stops the build where the form `name` (whose facts are `form`) is not an object, has a
/// flattened field, or has a field that cannot be a form field (each field's kid checked here
/// unless `fields_checked`: [`check_form_field`] checked each field's type).
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[allow(clippy::indexing_slicing, clippy::panic)]
pub const fn check_form(form: &Facts, name: &str, fields_checked: bool) {
    if !form.object {
        let mut message = form_message(name);
        message.put(
            "a form is an object; ask for a struct with named fields (of strings, numbers, \
             booleans and enums of strings).",
        );
        panic!("{}", message.text());
    }
    let mut i = 0;
    while i < form.kids.len() {
        let kid = &form.kids[i];
        match kid.via {
            Via::Property if fields_checked => {}
            Via::Property => check_form_field(kid.facts, kid.name, name),
            _ => refuse(
                name,
                "",
                "a flattened field, whose fields a form cannot take as its own; write them in",
            ),
        }
        i += 1;
    }
}

/// Why a property whose facts are `node` cannot be a form field, if it cannot.
#[allow(clippy::indexing_slicing)]
const fn field_refusal(node: &Facts) -> Option<&'static str> {
    if node.all & facts::ANY != 0 {
        return Some("an arbitrary JSON value");
    }
    if node.all & facts::MAP != 0 {
        return Some("a map");
    }
    if node.all & facts::TUPLE != 0 {
        return Some("a tuple");
    }
    if node.all & (facts::RECURSIVE | facts::BEHIND) != 0 {
        return Some("recursive");
    }
    if node.depth > 0 {
        return Some("an object (a form is flat)");
    }
    match node.parse {
        Parse::Enum(..) => match is_string_enum(node) {
            true => None,
            false => Some("an enum that is not of strings alone"),
        },
        Parse::Values(_) => Some("a map"),
        Parse::Tuple(_) => Some("a tuple"),
        Parse::Reference(_) => Some("recursive"),
        Parse::Plain
        | Parse::Default(_)
        | Parse::Keywords(_)
        | Parse::Keep
        | Parse::NullValue
        | Parse::Whole
        | Parse::Set => {
            // A leaf, a wrapper (a default, an `Option`'s branch), or a list.
            let mut i = 0;
            while i < node.kids.len() {
                let kid = &node.kids[i];
                let reason = match kid.via {
                    Via::Items => match is_string_enum(kid.facts) {
                        true => None,
                        false => Some("a list of values that are not an enum of strings"),
                    },
                    Via::Branch => field_refusal(kid.facts),
                    _ => Some("an object (a form is flat)"),
                };
                if reason.is_some() {
                    return reason;
                }
                i += 1;
            }
            None
        }
    }
}

/// Whether `node` is an enum of strings alone (unit variants), through the wrappers of a field's
/// keywords.
#[allow(clippy::indexing_slicing)]
const fn is_string_enum(node: &Facts) -> bool {
    if node.all & facts::NON_STRING_ENUM != 0 || node.depth > 0 {
        return false;
    }
    match node.parse {
        Parse::Enum(_, untagged_from, _) => {
            // Tagged unit variants only: their branches are strings, with no kids.
            if (untagged_from as usize) < node.kids.len() {
                return false;
            }
            let mut i = 0;
            while i < node.kids.len() {
                if !node.kids[i].facts.kids.is_empty() {
                    return false;
                }
                i += 1;
            }
            node.enum_values > 0 || !node.kids.is_empty()
        }
        Parse::Plain | Parse::Default(_) | Parse::Keep | Parse::NullValue => {
            node.kids.len() == 1
                && matches!(node.kids[0].via, Via::Branch)
                && is_string_enum(node.kids[0].facts)
        }
        _ => false,
    }
}

/// MCP's `requestedSchema` for `T`: its schema with only what a form takes (see [`Form`] and
/// [`check_form`], which `Invocation::elicit` holds `T` to at compile time). A type that passes
/// the check converts; the error is for a schema that does not (from `#[tool(schema)]` text,
/// say).
pub(crate) fn requested_schema<T: ToolSchema>() -> Result<Value, String> {
    let schema: Value =
        serde_json::from_str(&T::json_schema()).map_err(|error| error.to_string())?;
    form_schema(&schema)
}

/// The form of an object `schema` (see [`requested_schema`]).
pub(crate) fn form_schema(schema: &Value) -> Result<Value, String> {
    let defs = schema.get("$defs");
    let root = resolve(schema, defs)?;
    if root.get("type").and_then(Value::as_str) != Some("object") {
        return Err("a form is an object".to_owned());
    }
    let mut properties = Map::new();
    if let Some(Value::Object(given)) = root.get("properties") {
        for (name, property) in given {
            let field = form_field(property, defs).map_err(|error| format!("`{name}`: {error}"))?;
            properties.insert(name.clone(), Value::Object(field));
        }
    }
    let mut form = Map::new();
    form.insert("type".to_owned(), Value::from("object"));
    form.insert("properties".to_owned(), Value::Object(properties));
    if let Some(Value::Array(required)) = root.get("required")
        && !required.is_empty()
    {
        form.insert("required".to_owned(), Value::Array(required.clone()));
    }
    Ok(Value::Object(form))
}

/// Where `schema` leads: itself, or the `$defs` entry its `$ref` names.
fn resolve<'a>(schema: &'a Value, defs: Option<&'a Value>) -> Result<&'a Value, String> {
    match schema.get("$ref").and_then(Value::as_str) {
        None => Ok(schema),
        Some(reference) => reference
            .strip_prefix("#/$defs/")
            .and_then(|name| defs?.get(name))
            .ok_or_else(|| format!("a reference that leads nowhere: `{reference}`")),
    }
}

/// The text keywords every form field may have.
const ANNOTATIONS: [&str; 2] = ["title", "description"];

/// The form field of a property's `schema`: one of MCP's `PrimitiveSchemaDefinition`s.
fn form_field(schema: &Value, defs: Option<&Value>) -> Result<Map<String, Value>, String> {
    let mut outer = Map::new();
    let node = unwrap_field(schema, defs, &mut outer)?;
    let mut field = match type_of(node) {
        Some("string") | None if choices(node, defs).is_some() => {
            let choices = choices(node, defs).unwrap_or_default();
            select(&choices)
        }
        Some("array") => {
            let items = node.get("items").ok_or("a list without items")?;
            let items = unwrap_field(items, defs, &mut Map::new())?;
            let choices = choices(items, defs).ok_or("a list of values that are not an enum")?;
            let mut field = Map::new();
            field.insert("type".to_owned(), Value::from("array"));
            let mut items = Map::new();
            match titled(&choices) {
                Some(options) => items.insert("anyOf".to_owned(), options),
                None => {
                    items.insert("type".to_owned(), Value::from("string"));
                    items.insert("enum".to_owned(), untitled(&choices))
                }
            };
            field.insert("items".to_owned(), Value::Object(items));
            copy(node, &mut field, &["minItems", "maxItems"], |v| v.is_u64());
            field
        }
        Some(kind @ "string") => {
            let mut field = typed(kind);
            copy(node, &mut field, &["minLength", "maxLength"], Value::is_u64);
            if let Some(format) = node.get("format").and_then(Value::as_str)
                && ["email", "uri", "date", "date-time"].contains(&format)
            {
                field.insert("format".to_owned(), Value::from(format));
            }
            field
        }
        Some(kind @ ("integer" | "number")) => {
            let mut field = typed(kind);
            copy(node, &mut field, &["minimum", "maximum"], Value::is_number);
            field
        }
        Some(kind @ "boolean") => typed(kind),
        Some(kind) => return Err(format!("a form field cannot be of type `{kind}`")),
        None => return Err("a form field needs a type".to_owned()),
    };
    // The field's annotations and default, the outermost first (a field's own over its type's).
    for source in [node, schema] {
        copy(source, &mut field, &ANNOTATIONS, Value::is_string);
    }
    for source in [&Value::Object(outer), schema, node] {
        if let Some(default) = source.get("default")
            && default_fits(&field, default)
            && !field.contains_key("default")
        {
            field.insert("default".to_owned(), default.clone());
        }
    }
    Ok(field)
}

/// The schema inside a property's `schema`: through `$ref`, a one-branch `allOf`, and the
/// `null` branch of an `anyOf`/`oneOf` (a form leaves a field out where JSON would say `null`);
/// the keywords on the way (a default) go to `outer`.
fn unwrap_field<'a>(
    schema: &'a Value,
    defs: Option<&'a Value>,
    outer: &mut Map<String, Value>,
) -> Result<&'a Value, String> {
    let mut node = resolve(schema, defs)?;
    for _ in 0..8 {
        let branches = ["allOf", "anyOf", "oneOf"]
            .iter()
            .find_map(|key| node.get(*key).and_then(Value::as_array));
        let Some(branches) = branches else {
            return Ok(node);
        };
        let not_null: Vec<&Value> = branches
            .iter()
            .filter(|branch| branch.get("type").and_then(Value::as_str) != Some("null"))
            .collect();
        // A choice of constants is an enum, handled as one.
        if choices(node, defs).is_some() {
            return Ok(node);
        }
        let [only] = not_null.as_slice() else {
            return Err("a union of several types".to_owned());
        };
        if let Some(default) = node.get("default") {
            outer.insert("default".to_owned(), default.clone());
        }
        node = resolve(only, defs)?;
    }
    Err("too deep".to_owned())
}

/// The type of a schema node, without `null`.
fn type_of(node: &Value) -> Option<&str> {
    match node.get("type")? {
        Value::String(kind) => Some(kind),
        Value::Array(kinds) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|k| *k != "null"),
        _ => None,
    }
}

/// The values of a string enum (`enum`, or `oneOf`/`anyOf` of `const`s and `enum`s, each with
/// the title a documented variant has), `None` for any other schema.
fn choices(node: &Value, defs: Option<&Value>) -> Option<Vec<(String, Option<String>)>> {
    let mut found = Vec::new();
    if let Some(Value::Array(values)) = node.get("enum") {
        for value in values {
            match value {
                Value::String(value) => found.push((value.clone(), None)),
                Value::Null => {}
                _ => return None,
            }
        }
        return Some(found);
    }
    if let Some(Value::String(value)) = node.get("const") {
        let title = ["title", "description"]
            .iter()
            .find_map(|key| node.get(*key).and_then(Value::as_str))
            .map(str::to_owned);
        return Some(vec![(value.clone(), title)]);
    }
    let branches = ["oneOf", "anyOf"]
        .iter()
        .find_map(|key| node.get(*key).and_then(Value::as_array))?;
    for branch in branches {
        let branch = resolve(branch, defs).ok()?;
        if branch.get("type").and_then(Value::as_str) == Some("null") {
            continue;
        }
        found.extend(choices(branch, defs)?);
    }
    (!found.is_empty()).then_some(found)
}

/// A single-select field of `choices`: titled where any has a title.
fn select(choices: &[(String, Option<String>)]) -> Map<String, Value> {
    let mut field = typed("string");
    match titled(choices) {
        Some(options) => field.insert("oneOf".to_owned(), options),
        None => field.insert("enum".to_owned(), untitled(choices)),
    };
    field
}

/// `[{"const", "title"}, ..]` where any choice has a title (the others titled by their value).
fn titled(choices: &[(String, Option<String>)]) -> Option<Value> {
    choices.iter().any(|(_, title)| title.is_some()).then(|| {
        let options = choices.iter().map(|(value, title)| {
            let title = title.as_deref().unwrap_or(value);
            serde_json::json!({"const": value, "title": title})
        });
        Value::Array(options.collect())
    })
}

/// The choices' values.
fn untitled(choices: &[(String, Option<String>)]) -> Value {
    Value::Array(
        choices
            .iter()
            .map(|(v, _)| Value::from(v.as_str()))
            .collect(),
    )
}

/// `{"type": kind}`.
fn typed(kind: &str) -> Map<String, Value> {
    let mut field = Map::new();
    field.insert("type".to_owned(), Value::from(kind));
    field
}

/// Copies the `keys` of `from` that pass `keep` into `to`, where `to` has none.
fn copy(from: &Value, to: &mut Map<String, Value>, keys: &[&str], keep: fn(&Value) -> bool) {
    for key in keys {
        if let Some(value) = from.get(*key)
            && keep(value)
            && !to.contains_key(*key)
        {
            to.insert((*key).to_owned(), value.clone());
        }
    }
}

/// Whether `default` is a default MCP allows for `field` (a string for a string or a
/// single-select, a number, a boolean, a list of strings for a multi-select).
fn default_fits(field: &Map<String, Value>, default: &Value) -> bool {
    match field.get("type").and_then(Value::as_str) {
        Some("string") => default.is_string(),
        Some("integer") => default.is_i64() || default.is_u64(),
        Some("number") => default.is_number(),
        Some("boolean") => default.is_boolean(),
        Some("array") => default
            .as_array()
            .is_some_and(|items| items.iter().all(Value::is_string)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::form_schema;

    #[test]
    fn a_form_keeps_what_mcp_takes_and_drops_the_rest() {
        let schema = json!({
            "type": "object",
            "description": "A booking.",
            "additionalProperties": false,
            "properties": {
                "email": {"type": "string", "format": "email", "description": "Yours."},
                "code": {"type": "string", "format": "uuid", "pattern": "^a", "maxLength": 9},
                "nights": {"type": "integer", "minimum": 1, "exclusiveMaximum": 30, "default": 2},
                "note": {"type": ["string", "null"]},
                "room": {"$ref": "#/$defs/Room"},
                "extras": {"type": "array", "items": {"enum": ["bed", "crib"]}, "uniqueItems": true},
                "pay": {"oneOf": [{"const": "card", "description": "By card."}, {"enum": ["cash"]}]},
                "late": {"anyOf": [{"type": "boolean"}, {"type": "null"}], "default": null}
            },
            "required": ["email", "room"],
            "$defs": {"Room": {"type": "string", "enum": ["single", "double"]}}
        });
        assert_eq!(
            form_schema(&schema).unwrap(),
            json!({
                "type": "object",
                "properties": {
                    "email": {"type": "string", "format": "email", "description": "Yours."},
                    "code": {"type": "string", "maxLength": 9},
                    "nights": {"type": "integer", "minimum": 1, "default": 2},
                    "note": {"type": "string"},
                    "room": {"type": "string", "enum": ["single", "double"]},
                    "extras": {"type": "array", "items": {"type": "string", "enum": ["bed", "crib"]}},
                    "pay": {"type": "string", "oneOf": [
                        {"const": "card", "title": "By card."}, {"const": "cash", "title": "cash"}
                    ]},
                    "late": {"type": "boolean"}
                },
                "required": ["email", "room"]
            })
        );
    }

    #[test]
    fn a_schema_a_form_cannot_hold_is_an_error() {
        let nested = json!({"type": "object", "properties": {"a": {"type": "object"}}});
        assert!(form_schema(&nested).unwrap_err().starts_with("`a`:"));
        let union = json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}});
        assert_eq!(
            form_schema(&union).unwrap_err(),
            "`a`: a union of several types"
        );
        assert!(form_schema(&json!({"type": "string"})).is_err());
        assert!(form_schema(&json!({"$ref": "#/$defs/Nowhere"})).is_err());
    }
}
