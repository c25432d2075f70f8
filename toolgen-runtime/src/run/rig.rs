//! A runner's tools as tools of a rig agent (feature `rig044`): each one a rig `DynamicTool`
//! whose calls go through the runner's own call path (parsing, timeouts, the retry budget).

use std::sync::Arc;

use rig_core::message::{ImageMediaType, MimeType, ToolName, ToolResultContent};
use rig_core::tool::{DynamicTool as RigTool, ToolErrorKind, ToolExecutionError, ToolOutput};
use serde_json::Value;

use crate::provider::Provider;
use crate::run::handler::{Cancellation, Dispatch};
use crate::run::runner::{Origin, Runner, Stop};
use crate::run::trace::Outcome;
use crate::wire::call::ToolCall;
use crate::wire::result::{Output, ToolResult};

/// The tools of a [`Runner`] as tools of a [rig](https://docs.rs/rig-core/0.44) agent
/// (feature `rig044`): [`tools`](RigTools::tools) gives one rig `DynamicTool` per tool the
/// runner offers (its set's, those added with [`with_tool`](Runner::with_tool), and those of
/// the MCP servers added with `with_mcp`), for `AgentBuilder::dynamic_tools`.
///
/// What is kept of toolgen's behaviour:
/// - The definitions: each tool's name, description and input schema (the standard JSON
///   Schema, MCP's `inputSchema`) as rig's `ToolDefinition`; rig's provider wire writes it
///   for the API it talks to.
/// - The call path: every call runs through the runner as a [`Runner::run`] call does, so its
///   arguments are checked and parsed by toolgen, and an unknown tool, bad arguments (with
///   their JSON paths), a handler's error, a panic and a timeout each give rig a failed tool
///   result (a `ToolExecutionError` of the matching kind: `invalid_args`, `not_found`,
///   `timeout`, `other`) whose text the model reads in its next request. A tool's
///   `#[tool(timeout)]` and the runner's [`timeout`](Runner::timeout) hold (they need a Tokio
///   runtime with its timer, as rig's agent runs on).
/// - The retry budget: rig's agent loop decides whether the model is asked again (its
///   `max_turns`); toolgen counts each tool's invalid-argument results in a row, as the
///   runner does (here each call counts: rig hands calls over one at a time, not by turn), and
///   [`stop`](RigTools::stop) says when one is past the runner's
///   [`max_retries`](Runner::max_retries), for the application (or a rig hook) to end the run.
///
/// Rig parses the arguments as JSON before a tool sees them; toolgen then reads that value (a
/// key sent twice, which toolgen refuses in a derived tool's arguments, is already one key by
/// then). The tools are the runner's when `tools` is called: an MCP server's later changes to
/// its list (`notifications/tools/list_changed`) are not followed; call `tools` again for a
/// new agent.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use serde::Deserialize;
/// use toolgen::{Handler, Invocation, Provider, Runner, Tool, ToolError, ToolSet};
/// use toolgen_runtime::RigTools; // `toolgen::RigTools` with toolgen's feature `rig044`
///
/// /// Add two numbers.
/// #[derive(Tool, Deserialize)]
/// struct Add { a: i64, b: i64 }
///
/// impl Handler<()> for Add {
///     type Output = i64;
///     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<i64, ToolError> {
///         Ok(self.a + self.b)
///     }
/// }
///
/// #[derive(ToolSet)]
/// enum Tools { Add(Add) }
///
/// let rig = RigTools::new(Runner::<Tools, ()>::new(()), Provider::OpenAiChat);
/// let tools = rig.tools(); // for rig_agent::AgentBuilder::dynamic_tools
/// assert_eq!(tools[0].definition().name, "add");
/// assert_eq!(tools[0].definition().parameters["required"], serde_json::json!(["a", "b"]));
///
/// let sum = tools[0].execute(serde_json::json!({"a": 2, "b": 3})).await.unwrap();
/// assert_eq!(sum.as_json(), Some(&serde_json::json!(5)));
///
/// let error = tools[0].execute(serde_json::json!({"a": 2, "b": "3"})).await.unwrap_err();
/// assert_eq!(
///     error.model_feedback(),
///     Some("invalid arguments at `b`: invalid type: string \"3\", expected i64")
/// );
/// # });
/// ```
pub struct RigTools<S, Ctx> {
    runner: Arc<Runner<S, Ctx>>,
    provider: Provider,
}

impl<S, Ctx> RigTools<S, Ctx>
where
    S: Dispatch<Ctx> + 'static,
    Ctx: Send + Sync + 'static,
{
    /// The tools of `runner`, whose calls come from a model of `provider` (the API rig's model
    /// speaks): handlers read it in [`Invocation::provider`](crate::Invocation::provider),
    /// and the runner's traces name it.
    pub fn new(runner: Runner<S, Ctx>, provider: Provider) -> Self {
        RigTools {
            runner: Arc::new(runner),
            provider,
        }
    }

    /// One rig tool per tool the runner offers, in the order of its
    /// [`definitions`](Runner::definitions), each running its calls through the runner (which
    /// they share with this value).
    pub fn tools(&self) -> Vec<RigTool> {
        let Value::Array(definitions) = self.runner.definitions(Provider::Mcp) else {
            return Vec::new();
        };
        definitions
            .iter()
            .filter_map(|definition| {
                let name = definition.get("name")?.as_str()?;
                // (Every toolgen name is one rig takes: not empty.)
                let tool_name = ToolName::new(name).ok()?;
                let description = definition
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let schema = definition.get("inputSchema")?.clone();
                Some(RigTool::new(
                    tool_name,
                    description,
                    schema,
                    self.callback(name),
                ))
            })
            .collect()
    }

    /// What the rig tool named `name` runs: the runner's call, and the retry budget's count.
    fn callback(
        &self,
        name: &str,
    ) -> impl Fn(
        Value,
    ) -> rig_core::wasm_compat::WasmBoxedFuture<
        'static,
        Result<ToolOutput, ToolExecutionError>,
    > + Send
    + Sync
    + 'static {
        let runner = Arc::clone(&self.runner);
        let provider = self.provider;
        let name = name.to_owned();
        move |arguments: Value| {
            let runner = Arc::clone(&runner);
            let call = ToolCall::new(name.as_str(), arguments.to_string());
            Box::pin(async move {
                // Alone: rig drops the future to cancel the call, which drops the handler's.
                let (result, outcome) = runner
                    .one_with(
                        provider,
                        &call,
                        &Cancellation::new(),
                        false,
                        None,
                        Origin::default(),
                    )
                    .await;
                runner.count_retries(std::slice::from_ref(&call), &[outcome.verdict()]);
                rig_outcome(result, outcome)
            })
        }
    }

    /// Why the application should end the agent's run: a tool got invalid arguments more
    /// times in a row than the runner's [`max_retries`](Runner::max_retries) allows (its count
    /// ends at its next valid call).
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// # use serde::Deserialize;
    /// # use toolgen::{Handler, Invocation, Provider, Runner, Stop, Tool, ToolError, ToolSet};
    /// # use toolgen_runtime::RigTools;
    /// /// Add two numbers.
    /// #[derive(Tool, Deserialize)]
    /// struct Add { a: i64, b: i64 }
    /// # impl Handler<()> for Add {
    /// #     type Output = i64;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<i64, ToolError> { Ok(self.a + self.b) }
    /// # }
    /// # #[derive(ToolSet)]
    /// # enum Tools { Add(Add) }
    ///
    /// let rig = RigTools::new(Runner::<Tools, ()>::new(()).max_retries(1), Provider::Anthropic);
    /// let add = &rig.tools()[0];
    /// for _ in 0..2 {
    ///     assert!(add.execute(serde_json::json!({"a": 1})).await.is_err());
    /// }
    /// assert_eq!(rig.stop(), Some(Stop::RetriesExhausted { tool: "add".into(), attempts: 2 }));
    /// add.execute(serde_json::json!({"a": 1, "b": 2})).await.unwrap();
    /// assert_eq!(rig.stop(), None);
    /// # });
    /// ```
    pub fn stop(&self) -> Option<Stop> {
        self.runner.spent()
    }

    /// The runner the tools run through.
    pub fn runner(&self) -> &Runner<S, Ctx> {
        &self.runner
    }
}

impl<S, Ctx> Clone for RigTools<S, Ctx> {
    fn clone(&self) -> Self {
        RigTools {
            runner: Arc::clone(&self.runner),
            provider: self.provider,
        }
    }
}

impl<S, Ctx> std::fmt::Debug for RigTools<S, Ctx> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RigTools")
            .field("provider", &self.provider)
            .finish_non_exhaustive()
    }
}

/// A call's result as rig takes a tool's: its output, or for an error result a
/// `ToolExecutionError` of the kind that says how the call ended, whose model-visible output is
/// the result's (the JSON-path message of bad arguments, a handler's JSON error body).
fn rig_outcome(result: ToolResult, outcome: Outcome) -> Result<ToolOutput, ToolExecutionError> {
    if !result.is_error() {
        return Ok(rig_output(&result));
    }
    let kind = match outcome {
        Outcome::InvalidArguments => ToolErrorKind::InvalidArgs,
        Outcome::UnknownTool => ToolErrorKind::NotFound,
        Outcome::TimedOut => ToolErrorKind::Timeout,
        Outcome::Cancelled => ToolErrorKind::Cancelled,
        Outcome::Ran | Outcome::Panicked | Outcome::NoTimer => ToolErrorKind::Other,
    };
    Err(ToolExecutionError::new(kind, result.to_text()).with_model_output(rig_output(&result)))
}

/// A result's content as rig's: its text or JSON, then its images (a file, or an image of a
/// type rig does not name, as a note in words: rig's tool results carry images only).
fn rig_output(result: &ToolResult) -> ToolOutput {
    if result.attachments().is_empty() {
        return ToolOutput::one(rig_first(result));
    }
    let mut content = vec![rig_first(result)];
    content.extend(result.attachments().iter().map(
        |attachment| match ImageMediaType::from_mime_type(attachment.media_type()) {
            Some(media_type) if attachment.is_image() => {
                ToolResultContent::image_base64(attachment.data(), Some(media_type), None)
            }
            _ => ToolResultContent::text(attachment.note("rig")),
        },
    ));
    // (Never empty: it holds the text or JSON.)
    ToolOutput::content(content).unwrap_or_else(|_| ToolOutput::one(rig_first(result)))
}

/// The text or JSON of `result`, as rig's content.
fn rig_first(result: &ToolResult) -> ToolResultContent {
    match result.output() {
        Output::Text(text) => ToolResultContent::text(text.as_str()),
        Output::Json(value) => ToolResultContent::json(value.clone()),
    }
}
