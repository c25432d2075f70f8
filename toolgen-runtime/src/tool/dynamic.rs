//! Tools defined at run time: a name, a description and a JSON Schema value (tools read from a
//! configuration file, or proxied from an MCP server), rendered for every provider with the same
//! dialect rules as derived tools, their arguments checked against their schema.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::dialect::rewrite::rewrite_text;
use crate::dialect::rules::Rules;
use crate::dialect::strict::STRICT;
use crate::dialect::{Dialect, DialectError, PerDialect, Rule};
use crate::parse::args::{ArgsError, decode_twice_encoded, read_arguments};
use crate::parse::plan::OwnedPlan;
use crate::parse::schema_check::SchemaChecks;
use crate::parse::schema_plan::plan_of_schema;
use crate::parse::sets::Conflicts;
use crate::parse::walk::{fill_value, strip_value_with};
use crate::provider::{AllowedCaller, Extras};
use crate::provider::{DefinitionParts, Provider, definition_text, takes_output_schema};
use crate::schema::json_schema::target;
use crate::tool::inline::{Inlined, MAX_INLINED, inline_refs};

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
    /// The schema for the dialects that take no `$ref` (Anthropic strict, Gemini `parameters`).
    unreferenced: Unreferenced,
    /// The standard schema, and each dialect the tool has: the strict ones once it is made
    /// [`strict`](DynamicTool::strict), Gemini's `parameters` where the schema fits them.
    schemas: PerDialect<Option<String>>,
    /// The parse plan its arguments follow, built from the schema as a derived tool's is from
    /// its type (`null`s dropped, defaults filled in), and the schema's checks beside it, shared
    /// by its clones and dropped with the last.
    plan: Arc<SchemaPlan>,
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
        let checks = SchemaChecks::compile(&schema, &patterns);
        let takes_null = |property: &Value| checks.takes_null(property);
        let plan = plan_of_schema(&schema, &takes_null);
        let plan = Arc::new(SchemaPlan { plan, checks });
        let mut tool = DynamicTool {
            name,
            description: description.into(),
            schema,
            plan,
            mcp: None,
            allowed_callers: &[],
            needs_approval: false,
            scopes: Vec::new(),
            unreferenced,
            schemas: PerDialect::rewritten(standard, |_, _| None),
        };
        // The dialects every tool is offered in where its schema fits (Gemini's `parameters`).
        for dialect in Dialect::ALL {
            let rules = Rules::of(dialect);
            if !rules.is_identity() && rules.asked(0) {
                tool.schemas[dialect] = tool.rewritten(dialect).ok();
            }
        }
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
            _ => rewrite_text(self.schemas.standard(), dialect),
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
        for dialect in Dialect::ALL {
            if Rules::of(dialect).mode & STRICT != 0 {
                self.schemas[dialect] = Some(self.rewritten(dialect)?);
            }
        }
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
        self.schemas.schema(dialect)
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
                schemas: self.schemas.borrowed(),
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
        // As a derived tool's arguments on their way through a value: the `null`s its plan
        // drops (one the branches of a union disagree about is kept), then the defaults, then
        // the schema's checks.
        let plan = self.plan.plan.root();
        strip_value_with(&mut value, plan, &mut Conflicts::default());
        fill_value(&mut value, plan);
        self.plan.checks.check(&value)?;
        Ok(value)
    }
}

/// Appends `,"key":value` to a definition's text.
fn push_member(text: &mut String, key: &str, value: &Value) {
    text.push_str(",\"");
    text.push_str(key);
    text.push_str("\":");
    text.push_str(&value.to_string());
}

/// How deep schemas (through `$ref`s) are read.
const MAX_DEPTH: usize = 128;

/// The plan of a tool's output schema `schema` (MCP's `outputSchema`: a derived output type's,
/// or another server's): what leaves the `null`s of its optional properties that do not take
/// `null` out of an output ([`plan_of_output`](crate::parse::schema_plan::plan_of_output)),
/// with the rules by which a [`DynamicTool`] reads its arguments. (Patterns, which a `null`
/// never meets, are not compiled.)
#[cfg(feature = "mcp")]
pub(crate) fn output_plan(schema: &Value) -> OwnedPlan {
    let checks = SchemaChecks::compile(schema, &HashMap::new());
    let takes_null = |property: &Value| checks.takes_null(property);
    crate::parse::schema_plan::plan_of_output(schema, &takes_null)
}

/// A [`DynamicTool`]'s parse plan and the checks of its schema.
#[derive(Debug)]
struct SchemaPlan {
    plan: OwnedPlan,
    checks: SchemaChecks,
}

/// Keywords that change what a schema accepts but that its checks ([`SchemaChecks`]) do not
/// read: a schema with one is refused rather than half checked.
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

/// Reads the schema `schema` (inside `root`) as its checks will: compiles every `pattern`, and
/// refuses a keyword they do not read ([`UNREAD`]), a pattern that does not compile, and a
/// `$ref` that names nothing inside `root`.
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
