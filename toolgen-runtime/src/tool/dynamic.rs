//! Tools defined at run time: a name, a description and a JSON Schema value (tools read from a
//! configuration file, or proxied from an MCP server), rendered for every provider with the same
//! dialect rules as derived tools, their arguments checked against their schema.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::dialect::rewrite::rewrite_text;
use crate::dialect::rules::Rules;
use crate::dialect::{Dialect, DialectError, Rule};
use crate::parse::args::{ArgsError, ArgsErrorKind, decode_twice_encoded, read_arguments};
use crate::parse::plan::OwnedPlan;
use crate::parse::schema_plan::plan_of_schema;
use crate::parse::sets::Conflicts;
use crate::parse::walk::{fill_value, strip_value_with};
use crate::provider::{DefinitionParts, Provider, definition_text, takes_output_schema};
use crate::schema::facts::Keywords;
use crate::tool::inline::{Inlined, MAX_INLINED, inline_refs};
use crate::tool::json_schema::{resolve, target};
use crate::tool::{AllowedCaller, Extras};

/// A tool defined at run time from a name, a description and the JSON Schema of its input.
///
/// Its definitions take the same dialects as a derived tool's: [`strict`](DynamicTool::strict)
/// makes it strict for OpenAI and Anthropic (an error where a dialect cannot express the schema),
/// and Gemini gets `parameters` where the schema fits them, else `parametersJsonSchema`. Its
/// arguments are parsed into a `serde_json::Value` and checked against the schema
/// ([`parse_args`](DynamicTool::parse_args)), with JSON-path errors as for derived tools.
///
/// The schema may use the keywords toolgen writes and reads: `type`, `properties`, `required`,
/// `additionalProperties`, `items`, `prefixItems`, `enum`, `const`, `anyOf`, `oneOf`, `allOf`,
/// `$ref` into `$defs` (written out in full for the dialects that take no references, Anthropic
/// strict mode and Gemini `parameters`, where none leads back), the numeric and length bounds, `pattern`, `format`, `uniqueItems`,
/// `description`, `default` and the like. Parsing checks all of those; a schema of other shapes
/// is refused by [`new`](DynamicTool::new).
///
/// ```
/// use serde_json::json;
/// use toolgen::{DynamicTool, Provider};
///
/// // A tool read from a configuration file.
/// let tool = DynamicTool::new(
///     "create_node",
///     "Add a node to the mind map.",
///     json!({
///         "type": "object",
///         "properties": {
///             "title": {"type": "string", "maxLength": 80},
///             "parent": {"type": "string"}
///         },
///         "required": ["title"]
///     }),
/// )
/// .unwrap();
/// assert_eq!(tool.definition(Provider::Anthropic)["input_schema"]["required"][0], "title");
///
/// let args = tool.parse_args(r#"{"title": "Ideas"}"#).unwrap();
/// assert_eq!(args["title"], "Ideas");
/// let error = tool.parse_args(r#"{"title": 7}"#).unwrap_err();
/// assert_eq!(error.to_string(), "invalid arguments at `title`: invalid type: integer `7`, expected a string");
/// ```
#[derive(Clone, Debug)]
pub struct DynamicTool {
    name: String,
    description: String,
    schema: Value,
    standard: String,
    /// The schema for the dialects that take no `$ref` (Anthropic strict, Gemini `parameters`).
    unreferenced: Unreferenced,
    openai: Option<String>,
    anthropic: Option<String>,
    gemini: Option<String>,
    patterns: HashMap<String, regex::Regex>,
    /// The parse plan its arguments follow, built from the schema as a derived tool's is from
    /// its type (`null`s dropped, defaults filled in), shared by its clones and dropped with
    /// the last.
    plan: Arc<OwnedPlan>,
    /// What only MCP definitions carry: `title`, `annotations`, `icons` and `outputSchema`
    /// (which OpenAI Responses takes too, as `output_schema`, for a tool code may call).
    mcp: Option<Box<McpFields>>,
    /// Anthropic and OpenAI Responses `allowed_callers`.
    allowed_callers: &'static [AllowedCaller],
    /// Whether a person must approve each call ([`DynamicTool::require_approval`]).
    needs_approval: bool,
    /// The OAuth scopes a caller needs ([`with_scopes`](DynamicTool::with_scopes)).
    scopes: Vec<String>,
}

/// The members of a [`DynamicTool`]'s MCP definition beside its name, description and input
/// schema (a tool proxied from an MCP server keeps them).
#[derive(Clone, Debug, Default)]
struct McpFields {
    title: Option<String>,
    annotations: Option<Value>,
    icons: Option<Value>,
    output: Option<Value>,
    /// `output` as JSON text.
    output_text: Option<String>,
}

/// A [`DynamicTool`]'s schema for the dialects that take no `$ref`.
#[derive(Clone, Debug)]
enum Unreferenced {
    /// The standard schema: it has no `$ref`, or one that leads back (a recursive type).
    Same,
    /// The schema with its references written out.
    Written(String),
    /// Written out, the references would make the schema too large.
    TooLarge,
}

/// Why a [`DynamicTool`] cannot be made: its name, or its schema.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DynamicToolError {
    /// Providers take names of 1 to 64 characters of `a-z`, `A-Z`, `0-9`, `_` and `-`.
    Name(String),
    /// The schema is not an object schema of the shapes toolgen reads; the message says why.
    Schema(String),
    /// A strict dialect cannot express the schema.
    Dialect(DialectError),
}

impl fmt::Display for DynamicToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DynamicToolError::Name(name) => write!(
                f,
                "the tool name `{name}` is not 1 to 64 characters of a-z, A-Z, 0-9, `_` and `-`"
            ),
            DynamicToolError::Schema(why) => write!(f, "the tool's schema cannot be used: {why}"),
            DynamicToolError::Dialect(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for DynamicToolError {}

impl DynamicTool {
    /// A tool named `name` that does what `description` says, whose input `schema` describes (a
    /// JSON Schema whose root is an object).
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        schema: Value,
    ) -> Result<Self, DynamicToolError> {
        let name = name.into();
        let valid_name = (1..=64).contains(&name.len())
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !valid_name {
            return Err(DynamicToolError::Name(name));
        }
        let Some(root) = schema.as_object() else {
            return Err(DynamicToolError::Schema(
                "it is not a JSON object".to_owned(),
            ));
        };
        if root.get("type").and_then(Value::as_str) != Some("object") {
            return Err(DynamicToolError::Schema(
                "its root is not `\"type\": \"object\"`: a tool's input is an object".to_owned(),
            ));
        }
        let standard = schema.to_string();
        // For the dialects that take no `$ref`, the references written out where none leads
        // back (a shared definition, not a recursive type).
        let unreferenced = match inline_refs(&schema) {
            Inlined::Unchanged => Unreferenced::Same,
            Inlined::Written(inlined) => Unreferenced::Written(inlined.to_string()),
            Inlined::TooLarge => Unreferenced::TooLarge,
        };
        // The rewrite reads exactly the shapes toolgen writes: what it cannot read is refused
        // here (what one dialect cannot express only goes without that dialect).
        if !crate::dialect::rewrite::readable(&standard) {
            return Err(DynamicToolError::Schema(
                "it holds a shape toolgen does not read (a keyword's value of the wrong JSON \
                 type, or more than 24 keywords in one schema)"
                    .to_owned(),
            ));
        }
        let mut patterns = HashMap::new();
        read_schema(&schema, &schema, &mut patterns, 0)?;
        let takes_null = |property: &Value| takes_null_in(&schema, &patterns, property);
        let plan = Arc::new(plan_of_schema(&schema, &takes_null));
        let mut tool = DynamicTool {
            name,
            description: description.into(),
            schema,
            plan,
            mcp: None,
            allowed_callers: &[],
            needs_approval: false,
            scopes: Vec::new(),
            standard,
            unreferenced,
            openai: None,
            anthropic: None,
            gemini: None,
            patterns,
        };
        tool.gemini = tool.rewritten(Dialect::Gemini).ok();
        Ok(tool)
    }

    /// The schema in `dialect`; for a dialect that takes no `$ref`, with its references written
    /// out where none leads back.
    fn rewritten(&self, dialect: Dialect) -> Result<String, DynamicToolError> {
        let refuses_refs = Rules::of(dialect).refuses(Rule::Recursive);
        match &self.unreferenced {
            Unreferenced::Written(text) if refuses_refs => rewrite_text(text, dialect),
            Unreferenced::TooLarge if refuses_refs => {
                return Err(DynamicToolError::Schema(format!(
                    "{dialect:?} takes no `$ref`, and its references written out would hold more \
                     than {MAX_INLINED} schemas"
                )));
            }
            _ => rewrite_text(&self.standard, dialect),
        }
        .map_err(DynamicToolError::Dialect)
    }

    /// The tool, strict for OpenAI and Anthropic (as `#[tool(strict)]`): its definitions carry
    /// each strict dialect and `"strict": true`. An error where a dialect cannot express the
    /// schema, naming the rule and the path.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgen::DynamicTool;
    ///
    /// let tags = json!({"type": "object", "properties": {
    ///     "tags": {"type": "object", "additionalProperties": {"type": "string"}}
    /// }});
    /// let error = DynamicTool::new("tag", "Tag it.", tags).unwrap().strict().unwrap_err();
    /// assert!(error.to_string().contains("cannot take a map"), "{error}");
    /// ```
    pub fn strict(mut self) -> Result<Self, DynamicToolError> {
        self.openai = Some(self.rewritten(Dialect::OpenAiStrict)?);
        self.anthropic = Some(self.rewritten(Dialect::AnthropicStrict)?);
        Ok(self)
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the tool does.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The input schema, as given.
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// The tool with a human-readable `title` in its MCP definition (as `#[tool(title)]`).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgen::{DynamicTool, Provider};
    ///
    /// let tool = DynamicTool::new("get_weather", "Get the weather.", json!({"type": "object"}))
    ///     .unwrap()
    ///     .with_title("Get the weather")
    ///     .with_annotations(json!({"readOnlyHint": true}))
    ///     .with_output_schema(json!({"type": "object", "properties": {"temp_c": {"type": "number"}}}));
    /// let mcp = tool.definition(Provider::Mcp);
    /// assert_eq!(mcp["title"], "Get the weather");
    /// assert_eq!(mcp["annotations"]["readOnlyHint"], true);
    /// assert_eq!(mcp["outputSchema"]["properties"]["temp_c"]["type"], "number");
    /// assert!(tool.definition(Provider::Anthropic).get("title").is_none());
    /// ```
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.mcp_fields().title = Some(title.into());
        self
    }

    /// The tool with MCP `annotations` (`readOnlyHint`, `destructiveHint`, `idempotentHint`,
    /// `openWorldHint`, ..: an object, as MCP's `ToolAnnotations`) in its MCP definition. See
    /// [`with_title`](DynamicTool::with_title).
    #[must_use]
    pub fn with_annotations(mut self, annotations: Value) -> Self {
        self.mcp_fields().annotations = Some(annotations);
        self
    }

    /// The tool needing the OAuth `scopes` of a caller, as a derived tool's
    /// `#[tool(scope = "..")]`: an MCP server with authorization on answers a call whose
    /// token lacks one with HTTP 403 `insufficient_scope` before the tool runs.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgen::DynamicTool;
    ///
    /// let tool = DynamicTool::new("purge", "Purge the cache.", json!({"type": "object"}))
    ///     .unwrap()
    ///     .with_scopes(["cache:admin"]);
    /// assert_eq!(tool.scopes(), ["cache:admin"]);
    /// ```
    #[must_use]
    pub fn with_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The OAuth scopes a caller needs (see [`with_scopes`](DynamicTool::with_scopes)).
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// The tool with MCP `icons` (an array of MCP `Icon` objects) in its MCP definition.
    #[must_use]
    pub fn with_icons(mut self, icons: Value) -> Self {
        self.mcp_fields().icons = Some(icons);
        self
    }

    /// The tool with the JSON Schema of its output, its MCP `outputSchema`: in the MCP
    /// definition when it describes an object (as MCP `2025-11-25` requires; an
    /// `McpServer` (feature `mcp`) gives any other to clients of `2026-07-28`). See
    /// [`with_title`](DynamicTool::with_title).
    #[must_use]
    pub fn with_output_schema(mut self, schema: Value) -> Self {
        let fields = self.mcp_fields();
        fields.output_text = Some(schema.to_string());
        fields.output = Some(schema);
        self
    }

    /// The tool with `allowed_callers` in its Anthropic and OpenAI Responses definitions (as
    /// `#[tool(allowed_callers(..))]`): who may call it, the model or code the model writes
    /// (programmatic tool calling; see [`AllowedCaller`]). A tool code may call also carries
    /// its output schema ([`with_output_schema`](DynamicTool::with_output_schema)) as OpenAI
    /// Responses' `output_schema`. Other providers' definitions leave both out.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgen::{AllowedCaller, DynamicTool, Provider};
    ///
    /// let tool = DynamicTool::new("get_demand", "Units asked for.", json!({"type": "object",
    ///     "properties": {"sku": {"type": "string"}}, "required": ["sku"]}))
    ///     .unwrap()
    ///     .with_allowed_callers(&[AllowedCaller::Direct, AllowedCaller::Program])
    ///     .with_output_schema(json!({"type": "object", "properties": {"units": {"type": "number"}}}));
    /// let openai = tool.definition(Provider::OpenAiResponses);
    /// assert_eq!(openai["allowed_callers"], json!(["direct", "programmatic"]));
    /// assert_eq!(openai["output_schema"]["properties"]["units"]["type"], "number");
    /// assert!(tool.definition(Provider::Anthropic).get("output_schema").is_none());
    /// ```
    #[must_use]
    pub fn with_allowed_callers(mut self, callers: &[AllowedCaller]) -> Self {
        self.allowed_callers = AllowedCaller::set(callers);
        self
    }

    /// Who may call the tool ([`with_allowed_callers`](DynamicTool::with_allowed_callers));
    /// empty unless set.
    pub fn allowed_callers(&self) -> &[AllowedCaller] {
        self.allowed_callers
    }

    /// The tool, whose calls a person must approve before they run (as
    /// `#[tool(needs_approval)]`): the [`Runner`](crate::Runner) holds them
    /// ([`Turn::held`](crate::Turn::held)).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgen::DynamicTool;
    ///
    /// let tool = DynamicTool::new("pay", "Pay an invoice.", json!({
    ///     "type": "object", "properties": {"invoice": {"type": "string"}}, "required": ["invoice"]
    /// }))
    /// .unwrap()
    /// .require_approval();
    /// assert!(tool.needs_approval());
    /// ```
    #[must_use]
    pub fn require_approval(mut self) -> Self {
        self.needs_approval = true;
        self
    }

    /// Whether a person must approve each call ([`require_approval`](DynamicTool::require_approval)).
    pub fn needs_approval(&self) -> bool {
        self.needs_approval
    }

    /// The MCP title, if it has one ([`with_title`](DynamicTool::with_title)).
    pub fn title(&self) -> Option<&str> {
        self.mcp.as_ref()?.title.as_deref()
    }

    /// The MCP annotations, if it has them ([`with_annotations`](DynamicTool::with_annotations)).
    pub fn annotations(&self) -> Option<&Value> {
        self.mcp.as_ref()?.annotations.as_ref()
    }

    /// The output schema, if it has one ([`with_output_schema`](DynamicTool::with_output_schema)).
    pub fn output_schema(&self) -> Option<&Value> {
        self.mcp.as_ref()?.output.as_ref()
    }

    fn mcp_fields(&mut self) -> &mut McpFields {
        self.mcp.get_or_insert_with(Box::default)
    }

    /// The input schema in `dialect`, as [`Tool::input_schema`](crate::Tool::input_schema) has
    /// it: `None` for a strict dialect of a tool that is not strict, and for Gemini's
    /// `parameters` when the schema does not fit them.
    pub fn input_schema(&self, dialect: Dialect) -> Option<&str> {
        match dialect {
            Dialect::Standard => Some(&self.standard),
            Dialect::OpenAiStrict => self.openai.as_deref(),
            Dialect::AnthropicStrict => self.anthropic.as_deref(),
            Dialect::Gemini => self.gemini.as_deref(),
        }
    }

    /// The definition object `provider`'s API expects, as JSON text: the same shape as a
    /// derived tool's [`Tool::definition_json`](crate::Tool::definition_json).
    pub fn definition_json(&self, provider: Provider) -> String {
        self.definition_text_at(provider, false)
    }

    /// [`definition_json`](DynamicTool::definition_json); with `any_output`, an MCP definition
    /// carries an output schema that does not describe an object too (MCP `2026-07-28`).
    pub(crate) fn definition_text_at(&self, provider: Provider, any_output: bool) -> String {
        let extras = Extras {
            allowed_callers: self.allowed_callers,
            ..Extras::NONE
        };
        let output = self
            .mcp
            .as_deref()
            .filter(|_| provider == Provider::Mcp || takes_output_schema(provider, &extras))
            .and_then(|fields| fields.output_text.as_deref());
        let mcp = self.mcp.as_deref().filter(|_| provider == Provider::Mcp);
        let mut text = definition_text(
            provider,
            &DefinitionParts {
                name: &self.name,
                description: &self.description,
                standard: &self.standard,
                openai: self.openai.as_deref(),
                anthropic: self.anthropic.as_deref(),
                gemini: self.gemini.as_deref(),
                output,
                extras,
            },
        );
        if let Some(fields) = mcp
            && text.ends_with('}')
        {
            // Inside the definition object, after everything else.
            text.pop();
            if let Some(title) = &fields.title {
                push_member(&mut text, "title", &Value::from(title.as_str()));
            }
            if let Some(annotations) = &fields.annotations {
                push_member(&mut text, "annotations", annotations);
            }
            if let Some(icons) = &fields.icons {
                push_member(&mut text, "icons", icons);
            }
            if any_output
                && let Some(output) = &fields.output
                && !crate::provider::is_object_schema(fields.output_text.as_deref().unwrap_or(""))
            {
                push_member(&mut text, "outputSchema", output);
            }
            text.push('}');
        }
        text
    }

    /// [`definition_json`](DynamicTool::definition_json) as a value.
    pub fn definition(&self, provider: Provider) -> Value {
        self.definition_at(provider, false)
    }

    /// [`definition_text_at`](DynamicTool::definition_text_at) as a value.
    pub(crate) fn definition_at(&self, provider: Provider, any_output: bool) -> Value {
        // Built from JSON texts toolgen wrote or re-wrote from a `Value`: always JSON.
        serde_json::from_str(&self.definition_text_at(provider, any_output)).unwrap_or(Value::Null)
    }

    /// The arguments a model sent (JSON text), checked against the schema.
    ///
    /// Read as a derived tool reads its arguments (`tests/dynamic_parity.rs` holds the two
    /// against each other on every seed tool): blank text is `{}`; arguments encoded twice (a
    /// JSON string holding the object) are read inside; a repeated key is an error at its
    /// object. Then the value follows the same parse plan a derived tool's does, built once from
    /// the schema when the tool is made (`tests/dynamic_plan.rs` holds the two against each
    /// other): a `null` for a property with a `default`, or one that is not `required` and does
    /// not take `null`, is dropped (OpenAI strict mode sends `null` for what it would leave
    /// out); then each property's `default` is written in where its key is missing, wherever
    /// serde would read it for a derived type (a union's branches told apart by their JSON
    /// type, a tagged enum's variant by its `const` tag, an externally tagged one by its key;
    /// not below a union whose branches the value does not tell apart, as not below an untagged
    /// enum); and the value is checked against the schema (types, bounds, `pattern`, `format`,
    /// a set's repeated items, ..) as the model's values are.
    ///
    /// ```
    /// # use serde_json::json;
    /// # use toolgen::DynamicTool;
    /// let tool = DynamicTool::new(
    ///     "search",
    ///     "Search the notes.",
    ///     json!({"type": "object", "properties": {
    ///         "query": {"type": "string"},
    ///         "limit": {"type": "integer", "default": 10}
    ///     }, "required": ["query"]}),
    /// )
    /// .unwrap();
    /// assert_eq!(tool.parse_args(r#"{"query": "rust", "limit": null}"#).unwrap(), json!({"query": "rust", "limit": 10}));
    /// let error = tool.parse_args(r#"{"query": "a", "query": "b"}"#).unwrap_err();
    /// assert_eq!(error.message(), "duplicate field `query`");
    /// ```
    pub fn parse_args(&self, arguments: &str) -> Result<Value, ArgsError> {
        let (value, _) = read_arguments(arguments)?;
        self.parse_value(value)
    }

    /// [`parse_args`](DynamicTool::parse_args) of arguments given as a value.
    pub fn parse_value(&self, mut value: Value) -> Result<Value, ArgsError> {
        // Arguments encoded twice: a JSON string holding the object (a repeated key inside is
        // the error; text that is not JSON stays a string), as derived tools read them.
        decode_twice_encoded(&mut value)?;
        let checker = Checker {
            root: &self.schema,
            patterns: &self.patterns,
            steps: std::cell::Cell::new(MAX_STEPS),
        };
        // As a derived tool's arguments on their way through a value: the `null`s its plan
        // drops (one the branches of a union disagree about is kept), then the defaults.
        let plan = self.plan.root();
        strip_value_with(&mut value, plan, &mut Conflicts::default());
        fill_value(&mut value, plan);
        let mut path = Vec::new();
        match checker.check(&self.schema, &value, &mut path, 0, 0) {
            Ok(()) => Ok(value),
            Err(Failure {
                path,
                message,
                kind,
            }) => Err(ArgsError::new(path, message, kind)),
        }
    }
}

/// Appends `,"key":value` to a definition's text.
fn push_member(text: &mut String, key: &str, value: &Value) {
    text.push_str(",\"");
    text.push_str(key);
    text.push_str("\":");
    text.push_str(&value.to_string());
}

/// How deep schemas (through `$ref`s) and values are followed.
const MAX_DEPTH: usize = 128;

/// How many `$ref`s and union branches one check follows in a row without going into the value.
const MAX_HOPS: usize = 128;

/// How many schemas one parse checks values against, at most ([`Checker::steps`]).
const MAX_STEPS: usize = 100_000;

/// Whether `property`, a schema inside `root`, takes `null`, as the checker reads it: each
/// property asked about with a budget of its own, as a parse checks a value.
fn takes_null_in(root: &Value, patterns: &HashMap<String, regex::Regex>, property: &Value) -> bool {
    let checker = Checker {
        root,
        patterns,
        steps: std::cell::Cell::new(MAX_STEPS),
    };
    checker.takes_null(property, 0)
}

/// The plan of a tool's output schema `schema` (MCP's `outputSchema`: a derived output type's,
/// or another server's): what leaves the `null`s of its optional properties that do not take
/// `null` out of an output ([`plan_of_output`](crate::parse::schema_plan::plan_of_output)),
/// with the rules by which a [`DynamicTool`] reads its arguments. (Patterns, which a `null`
/// never meets, are not compiled.)
#[cfg(feature = "mcp")]
pub(crate) fn output_plan(schema: &Value) -> OwnedPlan {
    let patterns = HashMap::new();
    let takes_null = |property: &Value| takes_null_in(schema, &patterns, property);
    crate::parse::schema_plan::plan_of_output(schema, &takes_null)
}

/// Keywords that change what a schema accepts but that the checker does not read: a schema
/// with one is refused rather than half checked.
const UNREAD: &[&str] = &[
    "patternProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "if",
    "then",
    "else",
    "contains",
    "minContains",
    "maxContains",
    "additionalItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$dynamicRef",
    "$recursiveRef",
];

/// Reads the schema `schema` (inside `root`) as the checker will: compiles every `pattern`,
/// and refuses a keyword the checker does not read ([`UNREAD`]), a pattern that does not
/// compile, and a `$ref` that names nothing inside `root`.
fn read_schema(
    schema: &Value,
    root: &Value,
    patterns: &mut HashMap<String, regex::Regex>,
    depth: usize,
) -> Result<(), DynamicToolError> {
    if depth > MAX_DEPTH {
        return Err(DynamicToolError::Schema("it nests too deep".to_owned()));
    }
    let Some(keywords) = schema.as_object() else {
        return Ok(());
    };
    for (key, value) in keywords {
        if UNREAD.contains(&key.as_str()) {
            return Err(DynamicToolError::Schema(format!(
                "the keyword `{key}` is not one toolgen checks arguments against"
            )));
        }
        match key.as_str() {
            "pattern" => {
                if let Value::String(pattern) = value
                    && !patterns.contains_key(pattern)
                {
                    let regex = regex::Regex::new(pattern).map_err(|error| {
                        DynamicToolError::Schema(format!("the pattern `{pattern}`: {error}"))
                    })?;
                    patterns.insert(pattern.clone(), regex);
                }
            }
            "$ref" => {
                let target = value.as_str().and_then(|reference| target(root, reference));
                if target.is_none() {
                    return Err(DynamicToolError::Schema(format!(
                        "the `$ref` {value} names nothing inside the schema (toolgen reads \
                         references to `#` and into `$defs`, not to other documents)"
                    )));
                }
            }
            // Maps of names to schemas.
            "properties" | "$defs" | "definitions" => {
                if let Value::Object(schemas) = value {
                    for schema in schemas.values() {
                        read_schema(schema, root, patterns, depth + 1)?;
                    }
                }
            }
            // One schema.
            "items" | "additionalProperties" | "not" => {
                read_schema(value, root, patterns, depth + 1)?;
            }
            // Lists of schemas.
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                if let Value::Array(schemas) = value {
                    for schema in schemas {
                        read_schema(schema, root, patterns, depth + 1)?;
                    }
                }
            }
            // Everything else is data (`enum`, `default`, `description`, ..) or a number.
            _ => {}
        }
    }
    Ok(())
}

/// A value that breaks its schema: where, why, and what kind of error it is.
struct Failure {
    path: String,
    message: String,
    kind: ArgsErrorKind,
}

/// A step of the path to the value being checked.
enum Step<'v> {
    Key(&'v str),
    Index(usize),
}

/// Checks values against a tool's schema.
struct Checker<'s> {
    root: &'s Value,
    patterns: &'s HashMap<String, regex::Regex>,
    /// How many more schemas one parse may check a value against: a schema whose unions lead
    /// back to themselves could otherwise take time exponential in its depth.
    steps: std::cell::Cell<usize>,
}

impl<'s> Checker<'s> {
    /// The schema a `$ref` names (`#`, `#/$defs/..`, any JSON pointer into the root), followed
    /// through `$ref`s to `$ref`s; `None` for a chain that does not end. A `$ref` that names
    /// nothing is left as it is (it takes any value).
    fn resolve(&self, schema: &'s Value) -> Option<&'s Value> {
        resolve(self.root, schema)
    }

    /// The one of `branches` that `value` picks out: the only one that can take its JSON type
    /// (an `Option`'s value), or else the one whose `const` properties its members match (a
    /// tagged enum's variant, named by its tag). `None` where the value does not tell them apart.
    fn picked(&self, branches: &'s [Value], value: &Value) -> Option<usize> {
        let typed: Vec<usize> = (0..branches.len())
            .filter(|&i| {
                branches
                    .get(i)
                    .is_some_and(|b| self.may_take_type(b, value))
            })
            .collect();
        if let [only] = typed.as_slice() {
            return Some(*only);
        }
        let mut named = typed
            .into_iter()
            .filter(|&i| branches.get(i).is_some_and(|b| self.names(b, value)));
        match (named.next(), named.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        }
    }

    /// Whether `schema`'s `type` (through its `$ref`) may take `value`'s JSON type: `true`
    /// where it says none.
    fn may_take_type(&self, schema: &'s Value, value: &Value) -> bool {
        match self.resolve(schema).and_then(|s| s.get("type")) {
            Some(Value::String(name)) => is_type(value, name),
            Some(Value::Array(names)) => names
                .iter()
                .any(|name| name.as_str().is_some_and(|name| is_type(value, name))),
            _ => true,
        }
    }

    /// Whether `schema` (through its `$ref`) has properties of one value (`const`, or an `enum`
    /// of one) and `value` holds each of them: the tag of a tagged enum's variant.
    fn names(&self, schema: &'s Value, value: &Value) -> bool {
        let Some(properties) = self
            .resolve(schema)
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object)
        else {
            return false;
        };
        let mut tags = 0;
        for (key, property) in properties {
            let Some(property) = self.resolve(property) else {
                continue;
            };
            let only = match (property.get("const"), property.get("enum")) {
                (Some(only), _) => only,
                (None, Some(Value::Array(values))) => match values.as_slice() {
                    [only] => only,
                    _ => continue,
                },
                _ => continue,
            };
            if value.get(key) != Some(only) {
                return false;
            }
            tags += 1;
        }
        tags > 0
    }

    /// Whether `schema` accepts `null`.
    fn takes_null(&self, schema: &'s Value, depth: usize) -> bool {
        self.check(schema, &Value::Null, &mut Vec::new(), depth, 0)
            .is_ok()
    }

    /// Checks `value` against `schema`; the first failure, with its path.
    fn check<'v>(
        &self,
        schema: &'s Value,
        value: &'v Value,
        path: &mut Vec<Step<'v>>,
        depth: usize,
        hops: usize,
    ) -> Result<(), Failure> {
        if depth > MAX_DEPTH {
            return Err(fail(path, "the value nests too deep", ArgsErrorKind::Data));
        }
        // `$ref`s and unions followed without going into the value: a schema that leads back
        // to itself there would never end.
        if hops > MAX_HOPS {
            return Err(fail(
                path,
                "the tool's schema refers to itself without end here",
                ArgsErrorKind::Data,
            ));
        }
        match self.steps.get().checked_sub(1) {
            Some(left) => self.steps.set(left),
            None => {
                return Err(fail(
                    path,
                    "the tool's schema takes too long to check this value against",
                    ArgsErrorKind::Data,
                ));
            }
        }
        // A `$ref` applies beside the schema's other keywords.
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str)
            && let Some(target) = target(self.root, reference)
        {
            self.check(target, value, path, depth, hops + 1)?;
        }
        let Some(keywords) = schema.as_object() else {
            // `true` takes everything, `false` nothing.
            return match schema {
                Value::Bool(false) => {
                    Err(fail(path, "no value is allowed here", ArgsErrorKind::Data))
                }
                _ => Ok(()),
            };
        };
        if let Some(types) = keywords.get("type") {
            let names: Vec<&str> = match types {
                Value::String(name) => vec![name.as_str()],
                Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if !names.is_empty() && !names.iter().any(|name| is_type(value, name)) {
                let expected = names
                    .iter()
                    .map(|name| article(name))
                    .collect::<Vec<_>>()
                    .join(" or ");
                let message = format!("invalid type: {}, expected {expected}", unexpected(value));
                return Err(fail(path, &message, ArgsErrorKind::Data));
            }
        }
        if let Some(Value::Array(allowed)) = keywords.get("enum")
            && !allowed.contains(value)
        {
            let names: Vec<String> = allowed
                .iter()
                .map(|v| {
                    format!(
                        "`{}`",
                        v.as_str().map_or_else(|| v.to_string(), str::to_owned)
                    )
                })
                .collect();
            // As serde words it for a derived tool's enum (its `OneOf`), the model's string
            // quoted as serde quotes it (and cut as every argument error's quote is, by
            // `ArgsError::new`).
            let expected = match names.as_slice() {
                [] => "there are no variants".to_owned(),
                [one] => format!("expected {one}"),
                [a, b] => format!("expected {a} or {b}"),
                _ => format!("expected one of {}", names.join(", ")),
            };
            let message = match value {
                Value::String(text) => format!("unknown variant `{text}`, {expected}"),
                _ => format!("unknown variant {}, {expected}", shown(value)),
            };
            return Err(fail(path, &message, ArgsErrorKind::Data));
        }
        if let Some(expected) = keywords.get("const")
            && expected != value
        {
            let message = format!("expected {expected}, not {}", shown(value));
            return Err(fail(path, &message, ArgsErrorKind::Data));
        }
        match value {
            Value::Object(map) => self.check_object(keywords, map, path, depth)?,
            Value::Array(items) => self.check_array(keywords, items, path, depth)?,
            _ => {}
        }
        self.check_keywords(keywords, value, path)?;
        if let Some(Value::Array(all)) = keywords.get("allOf") {
            for schema in all {
                self.check(schema, value, path, depth, hops + 1)?;
            }
        }
        for (keyword, exactly_one) in [("anyOf", false), ("oneOf", true)] {
            if let Some(Value::Array(branches)) = keywords.get(keyword) {
                let mut failures = Vec::new();
                let mut passed = 0;
                for (index, branch) in branches.iter().enumerate() {
                    match self.check(branch, value, path, depth, hops + 1) {
                        Ok(()) => passed += 1,
                        Err(failure) => failures.push((index, failure)),
                    }
                    // Enough to know: one for `anyOf`, two for `oneOf`.
                    if passed > usize::from(exactly_one) {
                        break;
                    }
                }
                if passed == 0 {
                    // The branch the value picks out (by its JSON type, or by a tag), or the only
                    // one: its own error says more, as serde gives the error inside an `Option`'s
                    // value or inside the variant a tag names. Looked for only on failure.
                    let own = match self.picked(branches, value) {
                        Some(picked) if branches.len() > 1 => {
                            failures.into_iter().find(|(index, _)| *index == picked)
                        }
                        _ if branches.len() == 1 => failures.into_iter().next(),
                        _ => None,
                    };
                    return Err(match own {
                        Some((_, failure)) => failure,
                        None => fail(
                            path,
                            "the value matches none of the schema's alternatives",
                            ArgsErrorKind::Data,
                        ),
                    });
                }
                if exactly_one && passed > 1 {
                    return Err(fail(
                        path,
                        "the value matches more than one of the schema's alternatives",
                        ArgsErrorKind::Data,
                    ));
                }
            }
        }
        if let Some(not) = keywords.get("not")
            && self.check(not, value, path, depth, hops + 1).is_ok()
        {
            return Err(fail(
                path,
                "the value is one the schema excludes",
                ArgsErrorKind::Data,
            ));
        }
        Ok(())
    }

    fn check_object<'v>(
        &self,
        keywords: &'s Map<String, Value>,
        map: &'v Map<String, Value>,
        path: &mut Vec<Step<'v>>,
        depth: usize,
    ) -> Result<(), Failure> {
        let properties = keywords.get("properties").and_then(Value::as_object);
        for name in required_of_map(keywords) {
            if !map.contains_key(name) {
                let message = format!("missing field `{name}`");
                return Err(fail(path, &message, ArgsErrorKind::Data));
            }
        }
        let additional = keywords.get("additionalProperties");
        for (key, member) in map {
            path.push(Step::Key(key));
            let result = match properties.and_then(|p| p.get(key)) {
                Some(property) => self.check(property, member, path, depth + 1, 0),
                None => match additional {
                    Some(Value::Bool(false)) => {
                        path.pop();
                        let known = properties
                            .map(|p| {
                                p.keys()
                                    .map(|k| format!("`{k}`"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            })
                            .unwrap_or_default();
                        let message = format!("unknown field `{key}`, expected one of {known}");
                        return Err(fail(path, &message, ArgsErrorKind::Data));
                    }
                    Some(schema @ Value::Object(_)) => {
                        self.check(schema, member, path, depth + 1, 0)
                    }
                    _ => Ok(()),
                },
            };
            path.pop();
            result?;
        }
        Ok(())
    }

    fn check_array<'v>(
        &self,
        keywords: &'s Map<String, Value>,
        items: &'v [Value],
        path: &mut Vec<Step<'v>>,
        depth: usize,
    ) -> Result<(), Failure> {
        let prefix = keywords.get("prefixItems").and_then(Value::as_array);
        let item_schema = keywords.get("items");
        for (index, item) in items.iter().enumerate() {
            let schema = match prefix.and_then(|p| p.get(index)) {
                Some(schema) => Some(schema),
                None => item_schema,
            };
            if let Some(schema) = schema {
                path.push(Step::Index(index));
                let result = self.check(schema, item, path, depth + 1, 0);
                path.pop();
                result?;
            }
        }
        Ok(())
    }

    /// Checks `value` against what its schema states beyond its shape (bounds, `pattern`,
    /// `format`, `uniqueItems`: [`Keywords`]), with the checker derived tools' constraints use.
    fn check_keywords(
        &self,
        keywords: &'s Map<String, Value>,
        value: &Value,
        path: &[Step<'_>],
    ) -> Result<(), Failure> {
        let keywords = Keywords::of_schema(keywords);
        let regex = keywords
            .pattern
            .and_then(|pattern| self.patterns.get(pattern));
        keywords.check_value(value, regex).map_err(|violation| {
            let mut text = path_text(path);
            violation.push_path(&mut text);
            Failure {
                path: text,
                message: violation.message().to_owned(),
                kind: ArgsErrorKind::Constraint,
            }
        })
    }
}

/// The names in a schema's `required`.
fn required_of_map(keywords: &Map<String, Value>) -> Vec<&str> {
    keywords
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Whether `value` is of the JSON Schema type `name`.
fn is_type(value: &Value, name: &str) -> bool {
    match (name, value) {
        ("object", Value::Object(_))
        | ("array", Value::Array(_))
        | ("string", Value::String(_))
        | ("number", Value::Number(_))
        | ("boolean", Value::Bool(_))
        | ("null", Value::Null) => true,
        ("integer", Value::Number(number)) => {
            number.is_i64() || number.is_u64() || number.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// A type's name as serde writes what it expected: `a string`, `an integer`.
fn article(name: &str) -> String {
    match name {
        "object" => "an object".to_owned(),
        "array" => "a list".to_owned(),
        "integer" => "an integer".to_owned(),
        "null" => "null".to_owned(),
        "boolean" => "a boolean".to_owned(),
        other => format!("a {other}"),
    }
}

/// How long a quoted value may be in a message.
const MAX_SHOWN: usize = 64;

/// A value as serde describes an unexpected one: `integer \`7\``, `string "x"`.
pub(crate) fn unexpected(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) if n.is_f64() => format!("floating point `{n}`"),
        Value::Number(n) => format!("integer `{n}`"),
        Value::String(_) => format!("string {}", shown(value)),
        Value::Array(_) => "sequence".to_owned(),
        Value::Object(_) => "map".to_owned(),
    }
}

/// A value quoted for a message, cut at [`MAX_SHOWN`] characters.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(MAX_SHOWN) {
        Some((end, _)) => format!(
            "{}… ({} characters)",
            text.get(..end).unwrap_or_default(),
            text.chars().count()
        ),
        None => text,
    }
}

/// A failure at `path`.
fn fail(path: &[Step<'_>], message: &str, kind: ArgsErrorKind) -> Failure {
    Failure {
        path: path_text(path),
        message: message.to_owned(),
        kind,
    }
}

/// `path` as an argument error writes it.
fn path_text(path: &[Step<'_>]) -> String {
    let mut text = String::new();
    for step in path {
        match step {
            Step::Key(key) => crate::parse::args::push_key(&mut text, key),
            Step::Index(index) => crate::parse::args::push_index(&mut text, *index),
        }
    }
    text
}
