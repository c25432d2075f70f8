//! Running a turn: every call of one model response, concurrently up to a limit, each with a
//! timeout, results in call order; a retry budget across turns; the messages that carry the
//! results back, in each provider's shape.

use std::collections::HashMap;
use std::future::{Future, poll_fn};
use std::marker::PhantomData;
use std::pin::pin;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::task::Poll;
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::Value;

use crate::parse::args::{ArgsError, ArgsErrorKind};
use crate::provider::AllowedCaller;
use crate::provider::Provider;
use crate::provider::responses_output_schema;
use crate::run::approval::{self, Decision, HeldCall, Pending, ResumeError, Slot};
use crate::run::elicit::Elicitor;
use crate::run::handler::{
    CallFuture, Cancellation, CatchUnwind, Dispatch, DynamicHandler, Invocation, Progress,
    panicked, parse_caught,
};
use crate::run::principal::Principal;
use crate::run::toolset::Toolset;
use crate::run::trace::{self, Outcome};
use crate::tool::dynamic::DynamicTool;
use crate::wire::call::{ToolCall, ToolCallError};
use crate::wire::choice::ToolChoice;
use crate::wire::result::ToolResult;
use crate::wire::set::NoTools;

/// Runs the tool calls of a model's turns with their [`Handler`](crate::Handler)s, for a
/// [`ToolSet`](crate::ToolSet) `S` whose tools all have handlers for the context `Ctx`.
///
/// - The calls of one turn run concurrently, at most [`concurrency`](Runner::concurrency) at a
///   time (8 unless set), in one task: a handler that blocks the thread blocks the others, so
///   CPU-heavy work belongs in `tokio::task::spawn_blocking`. Results come in call order.
/// - Each call may run for its tool's `#[tool(timeout = "..")]`, or the runner's
///   [`timeout`](Runner::timeout), then gives up with an error result (the handler's
///   [`Invocation::cancelled`] fires, its future is polled once more to see it, and dropped;
///   should it succeed in that last poll, its result stands). Timeouts need a Tokio runtime
///   with its timer; outside one, a call that has a timeout gets an error result saying so.
/// - An unknown tool, bad arguments (with their JSON paths), a handler's error, a panic, a
///   timeout and a cancelled turn each give an error result the model can act on: nothing a
///   model sends stops the program.
/// - A retry budget: a tool's consecutive invalid-argument results are counted across turns;
///   past [`max_retries`](Runner::max_retries) (3 unless set), [`Turn::stop`] tells the caller
///   to end the loop.
/// - Calls a person must approve (`#[tool(needs_approval)]`,
///   [`DynamicTool::require_approval`], [`needs_approval`](Runner::needs_approval)) are held,
///   not run: the turn gives them in [`Turn::held`], beside the other calls' results, and
///   [`resume`](Runner::resume) runs the approved ones later, perhaps in another process.
///
/// ```
/// use serde::Deserialize;
/// use toolgen::{Handler, Invocation, Provider, Runner, Tool, ToolCall, ToolError, ToolSet};
///
/// /// Add two numbers.
/// #[derive(Tool, Deserialize)]
/// #[tool(timeout = "2s")]
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
/// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
/// let mut runner = Runner::<Tools, ()>::new(());
/// let calls = [
///     ToolCall::new("add", r#"{"a": 2, "b": 3}"#).with_id("call_1"),
///     ToolCall::new("add", r#"{"a": "two"}"#).with_id("call_2"),
/// ];
/// let turn = runner.run(Provider::OpenAiChat, &calls).await;
/// assert_eq!(turn.results()[0].to_text(), "5");
/// assert!(turn.results()[1].is_error());
/// assert_eq!(turn.messages()[0]["content"], "5");
/// # });
/// ```
pub struct Runner<S = NoTools, Ctx = ()> {
    ctx: Ctx,
    /// Tools defined at run time, beside the set's, in the order of their sources' additions
    /// (shadowed ones kept: their source may be the one to offer the name again). Swapped
    /// whole when a toolset's list changes ([`Runner::refresh_toolsets`]); a call holds the
    /// tools it found.
    dynamic: RwLock<Arc<Vec<Added<Ctx>>>>,
    /// How many sources of run-time tools were added: the next one's number.
    sources: usize,
    /// The names of the tools the model is offered, when not all ([`Runner::offer`]).
    offered: Option<Vec<String>>,
    concurrency: usize,
    timeout: Option<Duration>,
    max_retries: usize,
    /// Whether call spans record arguments and results ([`Runner::trace_values`]).
    #[cfg(feature = "tracing01")]
    record_values: bool,
    /// Consecutive invalid-argument results, by tool name (behind a lock: the tools of a
    /// shared runner count them too, as rig's do).
    failures: Mutex<HashMap<String, usize>>,
    /// Which calls a person must approve, beside the tools that always need it
    /// ([`Runner::needs_approval`]).
    policy: Option<Box<Policy>>,
    /// Where the progress reports of the calls of a turn go ([`Runner::on_progress`]).
    progress: Option<Box<ProgressSink>>,
    /// The toolsets whose tools were added (MCP servers'), each with its source's number.
    toolsets: Vec<(Box<dyn Toolset<Ctx>>, usize)>,
    set: PhantomData<fn() -> S>,
}

impl<Ctx: Sync> Runner<NoTools, Ctx> {
    /// A runner with no tool set ([`NoTools`]), whose handlers get `ctx`: every tool it offers
    /// is added at run time, with [`with_tool`](Runner::with_tool) or from a toolset (an MCP
    /// server's, [`with_toolset`](Runner::with_toolset)). Until one is added, it offers no
    /// tools, and a call gets an error result saying so.
    ///
    /// ```
    /// use serde_json::{Value, json};
    /// use toolgen::{DynamicFuture, DynamicHandler, DynamicTool, Invocation, Provider, Runner, ToolCall};
    ///
    /// struct Echo;
    /// impl DynamicHandler<()> for Echo {
    ///     fn handle<'a>(&'a self, _: &'a (), args: Value, _: &'a Invocation<'a>) -> DynamicFuture<'a> {
    ///         Box::pin(async move { Ok(args["text"].clone()) })
    ///     }
    /// }
    ///
    /// let echo = DynamicTool::new("echo", "Say the text back.", json!({
    ///     "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]
    /// })).unwrap();
    /// let mut runner = Runner::without_set(()).with_tool(echo, Echo);
    /// assert_eq!(runner.definitions(Provider::Anthropic)[0]["name"], "echo");
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let calls = [
    ///     ToolCall::new("echo", r#"{"text": "hi"}"#).with_id("1"),
    ///     ToolCall::new("shout", "{}").with_id("2"),
    /// ];
    /// let turn = runner.run(Provider::Anthropic, &calls).await;
    /// assert_eq!(turn.results()[0].to_text(), "hi");
    /// assert_eq!(
    ///     turn.results()[1].to_text(),
    ///     "invalid arguments: unknown tool `shout`; the tools are `echo`"
    /// );
    /// # });
    /// ```
    pub fn without_set(ctx: Ctx) -> Self {
        Runner::new(ctx)
    }
}

impl<S, Ctx> Runner<S, Ctx>
where
    S: Dispatch<Ctx>,
    Ctx: Sync,
{
    /// A runner whose handlers get `ctx`.
    pub fn new(ctx: Ctx) -> Self {
        Runner {
            ctx,
            dynamic: RwLock::new(Arc::new(Vec::new())),
            sources: 0,
            offered: None,
            concurrency: 8,
            timeout: None,
            max_retries: 3,
            #[cfg(feature = "tracing01")]
            record_values: false,
            failures: Mutex::new(HashMap::new()),
            policy: None,
            progress: None,
            toolsets: Vec::new(),
            set: PhantomData,
        }
    }

    /// How many calls of one turn run at once (at least 1).
    #[must_use]
    pub fn concurrency(mut self, limit: usize) -> Self {
        self.concurrency = limit.max(1);
        self
    }

    /// How long a call of a tool without its own `#[tool(timeout)]` may run.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// How many invalid-argument results in a row one tool may get before [`Turn::stop`] says to
    /// end the loop.
    #[must_use]
    pub fn max_retries(mut self, retries: usize) -> Self {
        self.max_retries = retries;
        self
    }

    /// Holds for a person's approval every call for which `policy` is true, given the call and
    /// its parsed arguments (as [`HeldCall::arguments`] shows them), beside the calls of tools
    /// that always need it (`#[tool(needs_approval)]`, [`DynamicTool::require_approval`]),
    /// which the policy cannot release. Calls whose tool is unknown or whose arguments do not
    /// parse are never held: they get their error results at once. A policy that panics holds
    /// the call. With a policy, every call's arguments are parsed once more.
    ///
    /// ```
    /// # use serde::Deserialize;
    /// # use toolgen::{Handler, Invocation, Provider, Runner, Tool, ToolCall, ToolError, ToolSet};
    /// /// Pay an amount, in cents.
    /// #[derive(Tool, Deserialize)]
    /// struct Pay { cents: u64 }
    /// # impl Handler<()> for Pay {
    /// #     type Output = &'static str;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> { Ok("paid") }
    /// # }
    /// #[derive(ToolSet)]
    /// enum Tools { Pay(Pay) }
    ///
    /// let mut runner = Runner::<Tools, ()>::new(())
    ///     .needs_approval(|_call, args| args["cents"].as_u64().is_none_or(|cents| cents > 10_000));
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let calls = [
    ///     ToolCall::new("pay", r#"{"cents": 500}"#).with_id("1"),
    ///     ToolCall::new("pay", r#"{"cents": 50000}"#).with_id("2"),
    /// ];
    /// let turn = runner.run(Provider::Anthropic, &calls).await;
    /// assert_eq!(turn.results()[0].to_text(), "paid");
    /// assert_eq!(turn.held().len(), 1);
    /// assert_eq!(turn.held()[0].id(), Some("2"));
    /// # });
    /// ```
    #[must_use]
    pub fn needs_approval(
        mut self,
        policy: impl Fn(&ToolCall, &Value) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.policy = Some(Box::new(policy));
        self
    }

    /// Gives `sink` every progress report of the calls the runner runs in a turn
    /// ([`run`](Runner::run) and its variants, [`resume`](Runner::resume)), with the call it is
    /// about: a handler's [`Invocation::progress`], and an MCP server's
    /// `notifications/progress` for a call of its tool (an `McpToolset`'s, feature `mcp`),
    /// as each comes (before the call's result). Without a sink, reports go nowhere. The sink
    /// runs on the turn's task: keep it short (send the report on a channel, say).
    ///
    /// (An `McpServer` sends its calls' reports to its own client, not
    /// here.)
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use serde::Deserialize;
    /// use toolgen::{Handler, Invocation, Progress, Provider, Runner, Tool, ToolCall, ToolError, ToolSet};
    ///
    /// /// Index the documents.
    /// #[derive(Tool, Deserialize)]
    /// struct Index { documents: u32 }
    /// impl Handler<()> for Index {
    ///     type Output = &'static str;
    ///     async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<&'static str, ToolError> {
    ///         for done in 1..=self.documents {
    ///             call.progress(Progress::new(done.into()).total(self.documents.into()));
    ///         }
    ///         Ok("indexed")
    ///     }
    /// }
    /// #[derive(ToolSet)]
    /// enum Tools { Index(Index) }
    ///
    /// let seen = Arc::new(Mutex::new(Vec::new()));
    /// let sink = Arc::clone(&seen);
    /// let mut runner = Runner::<Tools, ()>::new(()).on_progress(move |call, step| {
    ///     sink.lock().unwrap().push((call.id.clone().unwrap_or_default(), step.progress));
    /// });
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let call = ToolCall::new("index", r#"{"documents": 2}"#).with_id("call_1");
    /// runner.run(Provider::Anthropic, &[call]).await;
    /// # });
    /// let call_1 = |progress| ("call_1".to_owned(), progress);
    /// assert_eq!(*seen.lock().unwrap(), [call_1(1.0), call_1(2.0)]);
    /// ```
    #[must_use]
    pub fn on_progress(
        mut self,
        sink: impl Fn(&ToolCall, Progress) + Send + Sync + 'static,
    ) -> Self {
        self.progress = Some(Box::new(sink));
        self
    }

    /// Whether the `tracing` spans of calls record their arguments
    /// (`gen_ai.tool.call.arguments`) and results (`gen_ai.tool.call.result`), and
    /// invalid-argument events the parser's message (which may quote a value). Off unless set:
    /// arguments and results may hold secrets.
    ///
    /// ```
    /// use toolgen::{Runner, ToolSet};
    /// # use serde::Deserialize;
    /// # use toolgen::{Handler, Invocation, Tool, ToolError};
    /// # /// Ping.
    /// # #[derive(Tool, Deserialize)]
    /// # struct Ping {}
    /// # impl Handler<()> for Ping {
    /// #     type Output = &'static str;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> { Ok("pong") }
    /// # }
    /// # #[derive(ToolSet)]
    /// # enum Tools { Ping(Ping) }
    /// let runner = Runner::<Tools, ()>::new(()).trace_values(true);
    /// # let _ = runner;
    /// ```
    #[cfg(feature = "tracing01")]
    #[cfg_attr(docsrs, doc(cfg(feature = "tracing01")))]
    #[must_use]
    pub fn trace_values(mut self, record: bool) -> Self {
        self.record_values = record;
        self
    }

    /// Whether traces get arguments, results and messages ([`Runner::trace_values`]).
    fn values_traced(&self) -> bool {
        #[cfg(feature = "tracing01")]
        return self.record_values;
        #[cfg(not(feature = "tracing01"))]
        false
    }

    /// The context the handlers get.
    pub fn context(&self) -> &Ctx {
        &self.ctx
    }

    /// Adds a tool defined at run time, run by `handler`, beside the set's tools: calls that
    /// name it are checked against its schema and run like the others (the runner's timeout
    /// applies).
    ///
    /// Where two tools share a name (the APIs refuse two tools of one name, so one is left
    /// out): a set's tool always keeps its calls and its place in the definitions; among the
    /// tools added at run time, here or by [`with_toolset`](Runner::with_toolset) (`with_mcp`,
    /// feature `mcp`), the one added last takes the name, and keeps it whatever the toolsets
    /// added before it list later ([`refresh_toolsets`](Runner::refresh_toolsets)).
    ///
    /// ```
    /// use serde::Deserialize;
    /// use serde_json::{Value, json};
    /// use toolgen::{DynamicFuture, DynamicHandler, DynamicTool, Handler, Invocation, Provider};
    /// use toolgen::{Runner, Tool, ToolCall, ToolError, ToolSet};
    ///
    /// /// Say hello.
    /// #[derive(Tool, Deserialize)]
    /// struct Hello {}
    /// impl Handler<()> for Hello {
    ///     type Output = &'static str;
    ///     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> {
    ///         Ok("hello")
    ///     }
    /// }
    /// #[derive(ToolSet)]
    /// enum Tools { Hello(Hello) }
    ///
    /// struct Shout;
    /// impl DynamicHandler<()> for Shout {
    ///     fn handle<'a>(&'a self, _: &'a (), args: Value, _: &'a Invocation<'a>) -> DynamicFuture<'a> {
    ///         Box::pin(async move { Ok(json!(args["text"].as_str().unwrap_or("").to_uppercase())) })
    ///     }
    /// }
    ///
    /// let shout = DynamicTool::new("shout", "Shout the text.", json!({
    ///     "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]
    /// })).unwrap();
    /// let mut runner = Runner::<Tools, ()>::new(()).with_tool(shout, Shout);
    /// assert_eq!(runner.definitions(Provider::Anthropic).as_array().unwrap().len(), 2);
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
    /// let calls = [
    ///     ToolCall::new("hello", "{}").with_id("1"),
    ///     ToolCall::new("shout", r#"{"text": "hi"}"#).with_id("2"),
    ///     ToolCall::new("shout", r#"{}"#).with_id("3"),
    /// ];
    /// let turn = runner.run(Provider::OpenAiChat, &calls).await;
    /// assert_eq!(turn.results()[0].to_text(), "hello");
    /// assert_eq!(turn.results()[1].to_text(), "HI");
    /// assert_eq!(turn.results()[2].to_text(), "invalid arguments: missing field `text`");
    /// # });
    /// ```
    #[must_use]
    pub fn with_tool(
        mut self,
        tool: DynamicTool,
        handler: impl DynamicHandler<Ctx> + 'static,
    ) -> Self {
        let source = self.next_source();
        let dynamic = self.dynamic_mut();
        // (A tool added before under this name can never take it back: dropped.)
        dynamic.retain(|added| added.tool.name() != tool.name());
        dynamic.push(Added {
            tool,
            handler: Arc::new(handler),
            source,
        });
        self
    }

    /// The number of the next source of run-time tools.
    fn next_source(&mut self) -> usize {
        self.sources += 1;
        self.sources
    }

    /// Adds the tools of a [`Toolset`] (an MCP server's: `with_mcp`, feature `mcp`) beside the
    /// set's, as [`with_tool`](Runner::with_tool) adds one. A name is taken as there: a set's
    /// tool keeps its name, and among run-time tools the one added last (a toolset's tool takes
    /// the name from a tool added before the toolset, not from one added after it). When the
    /// toolset says its tools changed, the runner lists them again before its next turn
    /// ([`refresh_toolsets`](Runner::refresh_toolsets)). See [`Toolset`] for an example.
    #[must_use]
    pub fn with_toolset(mut self, toolset: impl Toolset<Ctx> + 'static) -> Self {
        let source = self.next_source();
        add_toolset(self.dynamic_mut(), &toolset, source);
        self.toolsets.push((Box::new(toolset), source));
        self
    }

    /// The tools added at run time, to change while the runner is built (no call holds them).
    fn dynamic_mut(&mut self) -> &mut Vec<Added<Ctx>> {
        Arc::make_mut(
            self.dynamic
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }

    /// The toolsets' signals of list changes, one per toolset that has one (an
    /// [`McpServer`](crate::McpServer) over the runner follows them).
    #[cfg(feature = "mcp")]
    pub(crate) fn toolset_changes(&self) -> Vec<tokio::sync::watch::Receiver<u64>> {
        (self.toolsets.iter())
            .filter_map(|(toolset, _)| toolset.changes())
            .collect()
    }

    /// Lists again the tools of every toolset that said they changed
    /// ([`Toolset::list_changed`]; an MCP server's `notifications/tools/list_changed`), and
    /// offers them in place of the old ones. The runner does it before each turn; call it
    /// before taking [`definitions`](Runner::definitions) for the next request to show the
    /// model the new tools at once. A toolset that cannot list them keeps its old ones (their
    /// calls then say what is wrong); the first such error is returned.
    ///
    /// The toolset's tools keep its place among the runner's sources, and the names it shares
    /// go as before ([`with_tool`](Runner::with_tool)): a name a source added after it offers
    /// stays with that source, whether the new list has the name or not; a name it takes from
    /// a source added before it goes back to that source when the new list does not have it.
    pub async fn refresh_toolsets(&self) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let mut first_error = None;
        for (toolset, source) in &self.toolsets {
            if !toolset.list_changed() {
                continue;
            }
            match toolset.refresh().await {
                Ok(()) => {
                    let mut dynamic = self.dynamic.write().unwrap_or_else(PoisonError::into_inner);
                    let mut tools = Vec::clone(&dynamic);
                    tools.retain(|added| added.source != *source);
                    add_toolset(&mut tools, toolset.as_ref(), *source);
                    *dynamic = Arc::new(tools);
                }
                Err(error) => {
                    first_error.get_or_insert(error);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    /// Offers the model only the tools named in `names` from now on (by auth, by workflow
    /// state): [`definitions`](Runner::definitions) lists only them, and a call of any other
    /// tool, even one the runner has, is answered as a call of an unknown tool. Names the
    /// runner does not have are ignored.
    ///
    /// ```
    /// # use serde::Deserialize;
    /// # use toolgen::{Handler, Invocation, Provider, Runner, Tool, ToolCall, ToolError, ToolSet};
    /// /// Read a file.
    /// #[derive(Tool, Deserialize)]
    /// struct ReadFile { path: String }
    /// /// Delete a file.
    /// #[derive(Tool, Deserialize)]
    /// struct DeleteFile { path: String }
    /// # impl Handler<()> for ReadFile {
    /// #     type Output = String;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<String, ToolError> { Ok(self.path) }
    /// # }
    /// # impl Handler<()> for DeleteFile {
    /// #     type Output = String;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<String, ToolError> { Ok(self.path) }
    /// # }
    /// #[derive(ToolSet)]
    /// enum Files { Read(ReadFile), Delete(DeleteFile) }
    ///
    /// let mut runner = Runner::<Files, ()>::new(());
    /// runner.offer(&["read_file"]);
    /// assert_eq!(runner.definitions(Provider::Anthropic).as_array().unwrap().len(), 1);
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let call = ToolCall::new("delete_file", r#"{"path": "/"}"#).with_id("1");
    /// let turn = runner.run(Provider::Anthropic, &[call]).await;
    /// assert_eq!(
    ///     turn.results()[0].to_text(),
    ///     "invalid arguments: unknown tool `delete_file`; the tools are `read_file`"
    /// );
    /// # });
    /// ```
    pub fn offer(&mut self, names: &[&str]) {
        let offered = names
            .iter()
            .filter(|name| self.has(name))
            .map(|name| (*name).to_owned())
            .collect();
        self.offered = Some(offered);
    }

    /// Offers every tool again (the default).
    pub fn offer_all(&mut self) {
        self.offered = None;
    }

    /// Whether the runner has a tool named `name` (the set's, or one added at run time).
    fn has(&self, name: &str) -> bool {
        S::NAMES.contains(&name) || named(&self.dynamic(), name).is_some()
    }

    /// The OAuth scopes a call of the tool named `name` needs: the set's tool's
    /// `#[tool(scope = "..")]`, else the run-time tool's
    /// [`with_scopes`](DynamicTool::with_scopes); none for an unknown name.
    #[cfg(feature = "mcp")]
    pub(crate) fn scopes_of(&self, name: &str) -> Vec<std::borrow::Cow<'static, str>> {
        if S::NAMES.contains(&name) {
            return S::scopes(name)
                .iter()
                .map(|scope| (*scope).into())
                .collect();
        }
        named(&self.dynamic(), name).map_or_else(Vec::new, |added| {
            (added.tool.scopes().iter())
                .map(|scope| scope.clone().into())
                .collect()
        })
    }

    /// Whether the model is offered the tool named `name`.
    fn is_offered(&self, name: &str) -> bool {
        self.offered
            .as_ref()
            .is_none_or(|offered| offered.iter().any(|offered| offered == name))
    }

    /// The definitions of every tool the model is offered ([`offer`](Runner::offer)), for
    /// `provider`'s request: the set's, then those added with [`with_tool`](Runner::with_tool).
    /// For MCP (`2025-11-25`, as [`Provider::Mcp`] says), a set's tool whose handler returns an
    /// object type gets that type's schema as `outputSchema` (unless `#[tool(output = ..)]`
    /// gave one); an output schema that does not describe an object is left out, as that
    /// version requires.
    pub fn definitions(&self, provider: Provider) -> Value {
        self.definitions_at(provider, false)
    }

    /// [`definitions`](Runner::definitions); with `any_output`, MCP definitions carry every
    /// output schema, an object's or not, as MCP `2026-07-28` takes them.
    pub(crate) fn definitions_at(&self, provider: Provider, any_output: bool) -> Value {
        let mut all = match S::definitions(provider) {
            Value::Array(all) => all,
            other => vec![other],
        };
        if provider == Provider::OpenAiResponses {
            for (definition, name) in all.iter_mut().zip(S::NAMES) {
                add_responses_output_schema(definition, S::output_schema(name).as_deref());
            }
        }
        if provider == Provider::Mcp {
            for (definition, name) in all.iter_mut().zip(S::NAMES) {
                if let Some(object) = definition.as_object_mut()
                    && !object.contains_key("outputSchema")
                    && let Some(schema) = S::output_schema(name)
                    && (any_output || crate::provider::is_object_schema(&schema))
                    && let Ok(schema) = serde_json::from_str::<Value>(&schema)
                {
                    object.insert("outputSchema".to_owned(), schema);
                }
            }
        }
        let dynamic = self.dynamic();
        let added = Self::reached(&dynamic);
        all.extend(
            added
                .iter()
                .map(|tool| tool.definition_at(provider, any_output)),
        );
        let names = S::NAMES
            .iter()
            .copied()
            .chain(added.iter().map(|tool| tool.name()));
        Value::Array(
            all.into_iter()
                .zip(names)
                .filter(|(_, name)| self.is_offered(name))
                .map(|(definition, _)| definition)
                .collect(),
        )
    }

    /// Runs every call of one turn (the calls of one response, as [`ToolCall::parse`] gives
    /// them), from `provider`.
    pub async fn run(&mut self, provider: Provider, calls: &[ToolCall]) -> Turn {
        self.run_until(provider, calls, &Cancellation::new()).await
    }

    /// [`run`](Runner::run), given up when `cancellation` fires: the calls still running then
    /// get an error result saying the turn was cancelled (their handlers see
    /// [`Invocation::cancelled`]). Dropping the returned future also stops every call.
    pub async fn run_until(
        &mut self,
        provider: Provider,
        calls: &[ToolCall],
        cancellation: &Cancellation,
    ) -> Turn {
        self.run_turn(provider, calls, cancellation, None).await
    }

    /// [`run`](Runner::run) for a turn whose request had `choice`: a call of a tool the choice
    /// does not allow ([`ToolChoice::allows`]: outside [`ToolChoice::allowed`]'s names, another
    /// tool than [`ToolChoice::tool`]'s, any under [`ToolChoice::none`]) is not run; its result
    /// is an error naming the tools allowed, which the model reads. Such a call counts in the
    /// retry budget as a call of an unknown tool.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use toolgen::{Allowed, Handler, Invocation, Provider, Runner, Tool, ToolCall, ToolChoice, ToolError, ToolSet};
    ///
    /// /// Read a file.
    /// #[derive(Tool, Deserialize)]
    /// struct ReadFile { path: String }
    /// /// Delete a file.
    /// #[derive(Tool, Deserialize)]
    /// struct DeleteFile { path: String }
    ///
    /// impl Handler<()> for ReadFile {
    ///     type Output = String;
    ///     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<String, ToolError> {
    ///         Ok(format!("the text of {}", self.path))
    ///     }
    /// }
    /// impl Handler<()> for DeleteFile {
    ///     type Output = String;
    ///     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<String, ToolError> {
    ///         Ok(format!("deleted {}", self.path))
    ///     }
    /// }
    ///
    /// #[derive(ToolSet)]
    /// enum Files { Read(ReadFile), Delete(DeleteFile) }
    ///
    /// let mut runner = Runner::<Files, ()>::new(());
    /// let choice = ToolChoice::allowed(["read_file"], Allowed::Auto);
    /// // The request sends every definition, and the choice.
    /// assert_eq!(runner.definitions(Provider::OpenAiResponses).as_array().unwrap().len(), 2);
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let call = ToolCall::new("delete_file", r#"{"path": "/"}"#).with_id("1");
    /// let turn = runner.run_with_choice(Provider::OpenAiResponses, &[call], &choice).await;
    /// assert!(turn.results()[0].is_error());
    /// assert_eq!(
    ///     turn.results()[0].to_text(),
    ///     "tool `delete_file` is not allowed in this turn; the tools allowed are `read_file`"
    /// );
    /// # });
    /// ```
    pub async fn run_with_choice(
        &mut self,
        provider: Provider,
        calls: &[ToolCall],
        choice: &ToolChoice,
    ) -> Turn {
        self.run_turn(provider, calls, &Cancellation::new(), Some(choice))
            .await
    }

    /// The work of [`run_until`](Runner::run_until), refusing the calls `choice` does not allow.
    async fn run_turn(
        &mut self,
        provider: Provider,
        calls: &[ToolCall],
        cancellation: &Cancellation,
        choice: Option<&ToolChoice>,
    ) -> Turn {
        // (A toolset that cannot list its tools keeps its old ones: their calls say why.)
        if !self.toolsets.is_empty() {
            let _ = self.refresh_toolsets().await;
        }
        // A call the turn's choice does not allow is refused, never held.
        let held: Vec<HeldCall> = calls
            .iter()
            .enumerate()
            .filter(|(_, call)| choice.is_none_or(|choice| choice.allows(&call.name)))
            .filter_map(|(index, call)| self.hold(index, call))
            .collect();
        let mut is_held = vec![false; calls.len()];
        for held in &held {
            if let Some(slot) = is_held.get_mut(held.index()) {
                *slot = true;
            }
        }
        let to_run = calls
            .iter()
            .enumerate()
            .filter(|(index, _)| is_held.get(*index) != Some(&true));
        let mut outcomes = self
            .run_calls(provider, to_run, cancellation, choice)
            .await
            .into_iter();
        // Held calls count as valid ones: their arguments parsed.
        let mut verdicts = Vec::with_capacity(calls.len());
        let mut results = Vec::with_capacity(calls.len());
        for (call, held) in calls.iter().zip(is_held) {
            let (result, verdict) = match held {
                true => (approval::waiting(&call.name), Verdict::Ran),
                false => match outcomes.next() {
                    Some((_, outcome)) => outcome,
                    None => (cancelled(&call.name), Verdict::Ran),
                },
            };
            results.push(result);
            verdicts.push(verdict);
        }
        let stop = self.count_retries(calls, &verdicts);
        Turn {
            provider,
            calls: calls.to_vec(),
            results,
            held,
            stop,
            choice: choice.cloned(),
        }
    }

    /// Runs the approved calls of a turn that held some ([`Turn::pending`]), and gives the whole
    /// turn: every call's result in call order (those run before as they were, the denied ones
    /// an error result that gives the reason), and the [`messages`](Turn::messages) to send.
    /// Calls that ran before do not run again. The runner may be another than the one that held
    /// the calls, in another process, as long as it has their tools.
    ///
    /// Every held call needs a decision, and every approved one is checked before any runs: its
    /// tool must still be there and offered, and its arguments must parse to what the person
    /// approved ([`HeldCall::arguments`]). Otherwise nothing runs and the error says which call
    /// and why ([`ResumeError`]): deny that call (or decide it) and resume again.
    ///
    /// ```
    /// # use serde::Deserialize;
    /// # use toolgen::{Handler, Invocation, Provider, Runner, Tool, ToolCall, ToolError, ToolSet};
    /// /// Delete a file.
    /// #[derive(Tool, Deserialize)]
    /// #[tool(needs_approval)]
    /// struct DeleteFile { path: String }
    /// # impl Handler<()> for DeleteFile {
    /// #     type Output = String;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<String, ToolError> { Ok(format!("deleted {}", self.path)) }
    /// # }
    /// #[derive(ToolSet)]
    /// enum Tools { Delete(DeleteFile) }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut runner = Runner::<Tools, ()>::new(());
    /// let call = ToolCall::new("delete_file", r#"{"path": "old.log"}"#).with_id("1");
    /// let turn = runner.run(Provider::OpenAiChat, &[call]).await;
    /// let mut pending = turn.pending().unwrap();
    /// assert!(runner.resume(&pending).await.is_err()); // not decided yet
    /// pending.approve(turn.held()[0].index()).unwrap();
    /// let turn = runner.resume(&pending).await.unwrap();
    /// assert_eq!(turn.results()[0].to_text(), "deleted old.log");
    /// assert_eq!(turn.messages()[0]["content"], "deleted old.log");
    /// # });
    /// ```
    pub async fn resume(&mut self, pending: &Pending) -> Result<Turn, ResumeError> {
        self.resume_until(pending, &Cancellation::new()).await
    }

    /// [`resume`](Runner::resume), given up when `cancellation` fires, as
    /// [`run_until`](Runner::run_until) is.
    pub async fn resume_until(
        &mut self,
        pending: &Pending,
        cancellation: &Cancellation,
    ) -> Result<Turn, ResumeError> {
        if !self.toolsets.is_empty() {
            let _ = self.refresh_toolsets().await;
        }
        let mut approved = Vec::new();
        for (index, slot) in pending.slots().iter().enumerate() {
            let Slot::Held(held) = slot else { continue };
            let tool = || held.name().to_owned();
            match held.decision() {
                None => {
                    return Err(ResumeError::Undecided {
                        index,
                        tool: tool(),
                    });
                }
                Some(Decision::Denied { .. }) => {}
                Some(Decision::Approved) => {
                    let changed = |reason: String| ResumeError::Changed {
                        index,
                        tool: tool(),
                        reason,
                    };
                    // (A turn holds only the calls its choice allows: one that is not came
                    // from saved text edited since.)
                    if let Some(choice) = pending.choice()
                        && !choice.allows(held.name())
                    {
                        return Err(changed(not_allowed(held.name(), choice).to_text().into()));
                    }
                    let read = self.read(held.call()).map_err(changed)?;
                    if read.arguments != *held.arguments() {
                        return Err(changed(format!(
                            "its arguments now read as {}, where {} was approved",
                            read.arguments,
                            held.arguments()
                        )));
                    }
                    approved.push((index, held.call()));
                }
            }
        }
        let provider = pending.provider();
        let mut ran = self
            .run_calls(provider, approved.into_iter(), cancellation, None)
            .await
            .into_iter();
        let mut calls = Vec::with_capacity(pending.slots().len());
        let mut results = Vec::with_capacity(pending.slots().len());
        for slot in pending.slots() {
            let (call, result) = match slot {
                Slot::Done { call, result } => (call, result.clone()),
                Slot::Held(held) => match held.decision() {
                    Some(Decision::Denied { reason }) => {
                        (held.call(), approval::denied(held.name(), reason))
                    }
                    _ => match ran.next() {
                        Some((_, (result, _))) => (held.call(), result),
                        None => (held.call(), cancelled(held.name())),
                    },
                },
            };
            calls.push(call.clone());
            results.push(result);
        }
        Ok(Turn {
            provider,
            calls,
            results,
            held: Vec::new(),
            stop: None,
            choice: pending.choice().cloned(),
        })
    }

    /// Runs `calls` (each with its place in the turn) concurrently, up to the runner's limit,
    /// and gives their outcomes in call order.
    /// A call `choice` does not allow is not run: its result is an error naming the tools allowed.
    async fn run_calls<'c>(
        &self,
        provider: Provider,
        calls: impl Iterator<Item = (usize, &'c ToolCall)>,
        cancellation: &Cancellation,
        choice: Option<&ToolChoice>,
    ) -> Vec<(usize, (ToolResult, Verdict))> {
        // The futures are made first, then run: `buffer_unordered` starts the next call as soon
        // as any one ends (a slow first call holds no place in the queue), and the results are
        // put back in call order.
        let futures: Vec<_> = calls
            .map(|(index, call)| async move {
                let outcome = match choice.filter(|choice| !choice.allows(&call.name)) {
                    Some(choice) => (not_allowed(&call.name, choice), Verdict::Unknown),
                    None => {
                        let sink = (self.progress.as_deref())
                            .map(|sink| move |step: Progress| sink(call, step));
                        let sink = sink.as_ref().map(|sink| sink as &(dyn Fn(Progress) + Sync));
                        self.one(provider, call, cancellation, sink).await
                    }
                };
                (index, outcome)
            })
            .collect();
        let mut outcomes: Vec<(usize, (ToolResult, Verdict))> = futures_util::stream::iter(futures)
            .buffer_unordered(self.concurrency)
            .collect()
            .await;
        outcomes.sort_by_key(|(index, _)| *index);
        outcomes
    }

    /// The call at `index`, held for a person when its tool needs approval or the runner's
    /// policy says so; `None` when it runs now (a call that would not run, an unknown tool or
    /// bad arguments, is never held: its error result comes at once).
    fn hold(&self, index: usize, call: &ToolCall) -> Option<HeldCall> {
        let name = call.name.as_str();
        let flagged = if S::NAMES.contains(&name) {
            S::needs_approval(name)
        } else {
            named(&self.dynamic(), name).is_some_and(|added| added.tool.needs_approval())
        };
        if !flagged && self.policy.is_none() {
            return None;
        }
        let read = self.read(call).ok()?;
        // A policy that panics holds the call: the person decides what the program could not.
        let held = read.needs_approval
            || self.policy.as_ref().is_some_and(|policy| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    policy(call, &read.arguments)
                }))
                .unwrap_or(true)
            });
        held.then(|| HeldCall::new(index, call.clone(), read.arguments, read.annotations))
    }

    /// What the call would run, read without running it: its parsed arguments, whether its tool
    /// needs approval, and the tool's MCP annotations; or why it would not run.
    fn read(&self, call: &ToolCall) -> Result<Read, String> {
        let mut dynamic = None;
        match self.resolve(call, &mut dynamic) {
            Ok(Target::Set(_)) => {
                let name = call.name.as_str();
                let annotations =
                    (S::NAMES.iter().position(|known| *known == name)).and_then(|at| {
                        Some(
                            S::definitions(Provider::Mcp)
                                .get(at)?
                                .get("annotations")?
                                .clone(),
                        )
                    });
                Ok(Read {
                    arguments: approval::arguments_value(&call.arguments),
                    needs_approval: S::needs_approval(name),
                    annotations,
                })
            }
            Ok(Target::Dynamic(added, arguments)) => Ok(Read {
                arguments,
                needs_approval: added.tool.needs_approval(),
                annotations: added.tool.annotations().cloned(),
            }),
            Err(Refused::Unknown(error) | Refused::Invalid(error)) => Err(error.to_string()),
            Err(Refused::Panicked(result)) => Err(result.to_text().into_owned()),
        }
    }

    /// The tool a call names, with its parsed arguments, or why it would not run: a tool not
    /// offered, or unknown to the set and the run-time tools, or arguments it refuses. The
    /// run-time tools are taken into `dynamic` only for a call the set does not know (the set's
    /// calls never wait on their lock), and the target borrows them from there.
    fn resolve<'d>(
        &self,
        call: &ToolCall,
        dynamic: &'d mut Option<Arc<Vec<Added<Ctx>>>>,
    ) -> Result<Target<'d, S, Ctx>, Refused> {
        let name = call.name.as_str();
        if let Some(offered) = &self.offered
            && !offered.iter().any(|offered| offered == name)
        {
            let names: Vec<&str> = offered.iter().map(String::as_str).collect();
            return Err(Refused::Unknown(ArgsError::unknown_tool(name, &names)));
        }
        match parse_caught::<S>(call) {
            Ok(Ok(tool)) => Ok(Target::Set(tool)),
            Ok(Err(error)) if error.kind() == ArgsErrorKind::UnknownTool => {
                let dynamic = dynamic.insert(self.dynamic());
                match named(dynamic, name) {
                    Some(added) => match added.tool.parse_args(&call.arguments) {
                        Ok(arguments) => Ok(Target::Dynamic(added, arguments)),
                        Err(error) => Err(Refused::Invalid(error)),
                    },
                    None => Err(Refused::Unknown(self.unknown(name))),
                }
            }
            Ok(Err(error)) => Err(Refused::Invalid(error)),
            Err(panicked) => Err(Refused::Panicked(panicked)),
        }
    }

    /// Updates the retry budget with a turn's verdicts: a tool that got invalid arguments in
    /// the turn and no valid call counts one more turn in a row (however many calls it had);
    /// a valid call ends its count. Unknown tools count together, under one name.
    pub(crate) fn count_retries(&self, calls: &[ToolCall], verdicts: &[Verdict]) -> Option<Stop> {
        let mut invalid: Vec<&str> = Vec::new();
        let mut valid: Vec<&str> = Vec::new();
        for (call, verdict) in calls.iter().zip(verdicts) {
            let name = match verdict {
                Verdict::Ran => {
                    valid.push(&call.name);
                    continue;
                }
                Verdict::Invalid => call.name.as_str(),
                Verdict::Unknown => UNKNOWN_TOOLS,
            };
            if !invalid.contains(&name) {
                invalid.push(name);
            }
        }
        let mut failures = self.failures.lock().unwrap_or_else(PoisonError::into_inner);
        for name in &valid {
            failures.remove(*name);
        }
        let mut stop = None;
        for name in invalid {
            if valid.contains(&name) {
                continue;
            }
            let count = failures.entry(name.to_owned()).or_insert(0);
            *count += 1;
            trace::retry(name, *count, self.max_retries, *count > self.max_retries);
            if *count > self.max_retries && stop.is_none() {
                stop = Some(Stop::RetriesExhausted {
                    tool: name.to_owned(),
                    attempts: *count,
                });
            }
        }
        stop
    }

    /// Whether the retry budget is spent: the tool (by name) with the most invalid-argument
    /// results in a row past [`max_retries`](Runner::max_retries), if any, as
    /// [`count_retries`](Runner::count_retries) last said it.
    #[cfg(feature = "rig044")]
    pub(crate) fn spent(&self) -> Option<Stop> {
        let failures = self.failures.lock().unwrap_or_else(PoisonError::into_inner);
        failures
            .iter()
            .filter(|(_, count)| **count > self.max_retries)
            .max_by(|(a, a_count), (b, b_count)| a_count.cmp(b_count).then(b.cmp(a)))
            .map(|(tool, attempts)| Stop::RetriesExhausted {
                tool: tool.clone(),
                attempts: *attempts,
            })
    }

    /// One call's result, and what it says of the model's call; the handler's progress
    /// reports go to `progress`.
    pub(crate) async fn one(
        &self,
        provider: Provider,
        call: &ToolCall,
        turn: &Cancellation,
        progress: Option<&(dyn Fn(Progress) + Sync)>,
    ) -> (ToolResult, Verdict) {
        let (result, outcome) = self
            .one_with(provider, call, turn, false, progress, Origin::default())
            .await;
        (result, outcome.verdict())
    }

    /// [`one`](Runner::one); with `alone`, `turn` is this call's own (an MCP request's), and
    /// the handler is given it instead of a signal of its own. With the feature `tracing01`, the
    /// call runs in its span ([`trace`]). The result comes with how the call ended.
    pub(crate) async fn one_with(
        &self,
        provider: Provider,
        call: &ToolCall,
        turn: &Cancellation,
        alone: bool,
        progress: Option<&(dyn Fn(Progress) + Sync)>,
        origin: Origin<'_>,
    ) -> (ToolResult, Outcome) {
        #[cfg(feature = "tracing01")]
        let principal = origin.principal;
        let attempt = self.attempt(provider, call, turn, alone, progress, origin);
        #[cfg(feature = "tracing01")]
        let (result, outcome) = {
            use tracing::Instrument;
            let span = trace::call_span(provider, call, principal, self.values_traced());
            let (result, outcome) = attempt.instrument(span.clone()).await;
            trace::record(&span, outcome, &result, self.values_traced());
            (result, outcome)
        };
        #[cfg(not(feature = "tracing01"))]
        let (result, outcome) = attempt.await;
        (result, outcome)
    }

    /// [`one_with`](Runner::one_with)'s work: the call's result, and how it ended.
    async fn attempt(
        &self,
        provider: Provider,
        call: &ToolCall,
        turn: &Cancellation,
        alone: bool,
        progress: Option<&(dyn Fn(Progress) + Sync)>,
        origin: Origin<'_>,
    ) -> (ToolResult, Outcome) {
        let name = &call.name;
        let mut dynamic = None;
        let target = match self.resolve(call, &mut dynamic) {
            Ok(target) => target,
            Err(Refused::Unknown(error)) => {
                return (ToolResult::args_error(&error), Outcome::UnknownTool);
            }
            Err(Refused::Invalid(error)) => return self.invalid(&error),
            Err(Refused::Panicked(result)) => return (result, Outcome::Panicked),
        };
        // A call still waiting for its place when the turn was cancelled does not start.
        if turn.is_cancelled() {
            trace::cancelled(false);
            return (cancelled(name), Outcome::Cancelled);
        }
        let timeout = match &target {
            Target::Set(tool) => tool.timeout().or(self.timeout),
            Target::Dynamic(added, _) => match (added.handler.timeout(), self.timeout) {
                (Some(own), Some(runner)) => Some(own.min(runner)),
                (own, runner) => own.or(runner),
            },
        };
        let own;
        let cancellation = if alone {
            turn
        } else {
            own = Cancellation::new();
            &own
        };
        let mut invocation = Invocation::new(call, provider, cancellation);
        if let Some(sink) = progress {
            invocation = invocation.with_progress(sink);
        }
        if let Some(principal) = origin.principal {
            invocation = invocation.with_principal(principal);
        }
        if let Some(elicitor) = origin.elicitor {
            invocation = invocation.with_elicitor(elicitor);
        }
        let mut sleep = match timeout.map(timer) {
            Some(Ok(sleep)) => Some(Box::pin(sleep)),
            Some(Err(message)) => return (ToolResult::error(message), Outcome::NoTimer),
            None => None,
        };
        let ctx = &self.ctx;
        let invocation = &invocation;
        let future: CallFuture<'_> = match target {
            Target::Set(tool) => tool.dispatch(ctx, invocation),
            // Called inside the future, so that a panic in it is caught there too.
            Target::Dynamic(added, arguments) => {
                let handler = added.handler.as_ref();
                Box::pin(async move { handler.handle_result(ctx, arguments, invocation).await })
            }
        };
        let mut work = pin!(CatchUnwind(future));
        let mut given_up = pin!(turn.cancelled());
        let outcome = poll_fn(|cx| {
            if let Poll::Ready(done) = work.as_mut().poll(cx) {
                return Poll::Ready(Ok(done));
            }
            if let Some(sleep) = &mut sleep
                && sleep.as_mut().poll(cx).is_ready()
            {
                return Poll::Ready(Err(Ended::TimedOut));
            }
            if given_up.as_mut().poll(cx).is_ready() {
                return Poll::Ready(Err(Ended::Cancelled));
            }
            Poll::Pending
        })
        .await;
        match outcome {
            Ok(Ok(result)) => (result, Outcome::Ran),
            Ok(Err(panic)) => (panicked(name, &panic), Outcome::Panicked),
            Err(ended) => {
                // The handler is told, and polled once more so that one watching the signal
                // can stop its work. Should it succeed then, its result is what happened: the
                // model must not be told that it timed out, and try again. (An error it gives
                // on being stopped says less than the timeout does.)
                cancellation.cancel();
                let last = match poll_fn(|cx| Poll::Ready(work.as_mut().poll(cx))).await {
                    Poll::Ready(Ok(result)) if !result.is_error() => Some(result),
                    _ => None,
                };
                let stood = last.is_some();
                match ended {
                    Ended::TimedOut => trace::timed_out(timeout.unwrap_or_default(), stood),
                    Ended::Cancelled => trace::cancelled(true),
                }
                match (last, ended) {
                    (Some(result), _) => (result, Outcome::Ran),
                    (None, Ended::TimedOut) => (
                        ToolResult::error(format!(
                            "the tool `{name}` timed out after {}",
                            written(timeout.unwrap_or_default())
                        )),
                        Outcome::TimedOut,
                    ),
                    (None, Ended::Cancelled) => (cancelled(name), Outcome::Cancelled),
                }
            }
        }
    }

    /// The result of a call whose arguments `error` refused, told to the trace.
    fn invalid(&self, error: &ArgsError) -> (ToolResult, Outcome) {
        trace::invalid_arguments(error, self.values_traced());
        (ToolResult::args_error(error), Outcome::InvalidArguments)
    }
}

/// The result of a call the turn's cancellation ended.
fn cancelled(name: &str) -> ToolResult {
    ToolResult::error(format!("the tool `{name}` was cancelled"))
}

/// What a call's result says of the model's call, for the retry budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The tool ran (or was stopped): its arguments were valid.
    Ran,
    /// The arguments were invalid.
    Invalid,
    /// No such tool (or one not offered).
    Unknown,
}

/// Writes `output`, a handler's output schema, into an OpenAI Responses `definition` as its
/// `output_schema`, where the definition has none and code may call the tool (its
/// `allowed_callers` holds `programmatic`): what `#[tool(output = ..)]` does at compile time.
fn add_responses_output_schema(definition: &mut Value, output: Option<&str>) {
    let program = AllowedCaller::Program.name_for(Provider::OpenAiResponses);
    if let Some(object) = definition.as_object_mut()
        && !object.contains_key("output_schema")
        && object
            .get("allowed_callers")
            .and_then(Value::as_array)
            .is_some_and(|callers| callers.iter().any(|caller| caller.as_str() == program))
        && let Some(output) = output
    {
        let strict = object.get("strict") == Some(&Value::Bool(true));
        if let Ok(schema) = serde_json::from_str::<Value>(&responses_output_schema(output, strict))
        {
            object.insert("output_schema".to_owned(), schema);
        }
    }
}

/// What the transport knows of where a call came from: who made it (an MCP request's access
/// token) and who can be asked for what the handler lacks (an MCP client, by elicitation).
#[derive(Clone, Copy, Default)]
pub(crate) struct Origin<'a> {
    pub(crate) principal: Option<&'a Principal>,
    pub(crate) elicitor: Option<&'a dyn Elicitor>,
}

/// The result of a call of a tool that `choice` does not allow in this turn.
fn not_allowed(name: &str, choice: &ToolChoice) -> ToolResult {
    let names = choice.allowed_names().unwrap_or_default();
    let allowed = match names.as_slice() {
        [] => "no tool is allowed".to_owned(),
        names => format!("the tools allowed are `{}`", names.join("`, `")),
    };
    ToolResult::error(format!(
        "tool `{name}` is not allowed in this turn; {allowed}"
    ))
}

/// The name unknown tools count under in the retry budget.
const UNKNOWN_TOOLS: &str = "(unknown tools)";

/// What [`Runner::read`] finds of a call.
struct Read {
    arguments: Value,
    needs_approval: bool,
    annotations: Option<Value>,
}

/// A runner's approval policy ([`Runner::needs_approval`]).
type Policy = dyn Fn(&ToolCall, &Value) -> bool + Send + Sync;

/// Where a runner's progress reports go ([`Runner::on_progress`]).
type ProgressSink = dyn Fn(&ToolCall, Progress) + Send + Sync;

/// What a call runs: a set's tool, or a tool added at run time with its checked arguments
/// ([`Runner::resolve`]).
enum Target<'r, S, Ctx> {
    Set(S),
    Dynamic(&'r Added<Ctx>, Value),
}

/// Why a call does not run ([`Runner::resolve`]).
enum Refused {
    /// Its tool is unknown, or not offered.
    Unknown(ArgsError),
    /// Its arguments do not parse.
    Invalid(ArgsError),
    /// The set's parse panicked: the result that says so.
    Panicked(ToolResult),
}

impl<S, Ctx> Runner<S, Ctx> {
    /// The tools added at run time, as they are now.
    fn dynamic(&self) -> Arc<Vec<Added<Ctx>>> {
        Arc::clone(&self.dynamic.read().unwrap_or_else(PoisonError::into_inner))
    }
}

impl<S: crate::ToolSet, Ctx> Runner<S, Ctx> {
    /// The error for a call of a tool neither the set nor the runner has.
    fn unknown(&self, name: &str) -> ArgsError {
        let mut names: Vec<&str> = S::NAMES.to_vec();
        let dynamic = self.dynamic();
        names.extend(Self::reached(&dynamic).iter().map(|tool| tool.name()));
        ArgsError::unknown_tool(name, &names)
    }

    /// The tools of `dynamic` (the runner's, added at run time) that calls can reach, in the
    /// order of their sources: one named like a set's tool never is (the set's takes its
    /// calls), nor one whose name a tool added later took, so neither is listed nor named.
    fn reached(dynamic: &[Added<Ctx>]) -> Vec<&DynamicTool> {
        let mut taken: std::collections::HashSet<&str> = S::NAMES.iter().copied().collect();
        let mut reached: Vec<&DynamicTool> = dynamic
            .iter()
            .rev()
            .map(|added| &added.tool)
            .filter(|tool| taken.insert(tool.name()))
            .collect();
        reached.reverse();
        reached
    }
}

/// A tool added at run time, with the number of its source (a [`Runner::with_tool`], or a
/// [`Runner::with_toolset`]), counted from 1 in the order of the additions.
struct Added<Ctx> {
    tool: DynamicTool,
    handler: Arc<dyn DynamicHandler<Ctx>>,
    /// (Read where toolsets' lists change: the only sources whose tools change.)
    source: usize,
}

impl<Ctx> Clone for Added<Ctx> {
    fn clone(&self) -> Self {
        Added {
            tool: self.tool.clone(),
            handler: Arc::clone(&self.handler),
            source: self.source,
        }
    }
}

/// The run-time tool of `dynamic` that takes the name `name`: the one added last.
fn named<'d, Ctx>(dynamic: &'d [Added<Ctx>], name: &str) -> Option<&'d Added<Ctx>> {
    dynamic.iter().rev().find(|added| added.tool.name() == name)
}

/// Adds to `dynamic` the tools `toolset` offers as the source numbered `source`, in its place
/// among the others.
fn add_toolset<Ctx>(dynamic: &mut Vec<Added<Ctx>>, toolset: &dyn Toolset<Ctx>, source: usize) {
    let at = dynamic.partition_point(|added| added.source <= source);
    let tools = (toolset.listed().into_iter()).map(|(tool, handler)| Added {
        tool,
        handler,
        source,
    });
    dynamic.splice(at..at, tools);
}

/// Why a call ended before its handler did.
enum Ended {
    TimedOut,
    Cancelled,
}

/// A Tokio sleep of `timeout`, or why there is none: no Tokio runtime, or one without its timer
/// (Tokio panics then; the panic is caught here).
fn timer(timeout: Duration) -> Result<tokio::time::Sleep, &'static str> {
    if tokio::runtime::Handle::try_current().is_err() {
        return Err("this tool has a timeout, which needs a Tokio runtime; none is running");
    }
    std::panic::catch_unwind(|| tokio::time::sleep(timeout)).map_err(
        |_| "this tool has a timeout, which needs the Tokio runtime's timer (`enable_time`)",
    )
}

/// `timeout` as a person writes it: `10s`, `1500ms`.
fn written(timeout: Duration) -> String {
    let millis = timeout.as_millis();
    if millis.is_multiple_of(1000) {
        format!("{}s", millis / 1000)
    } else {
        format!("{millis}ms")
    }
}

/// Why the caller should stop calling the model with these tools.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stop {
    /// One tool got invalid arguments more times in a row than
    /// [`Runner::max_retries`] allows.
    RetriesExhausted {
        /// The tool's name, as the model wrote it.
        tool: String,
        /// How many invalid calls in a row it got.
        attempts: usize,
    },
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::RetriesExhausted { tool, attempts } => write!(
                f,
                "the model sent invalid arguments to `{tool}` {attempts} times in a row"
            ),
        }
    }
}

/// The outcome of one turn's calls ([`Runner::run`]): a result per call, in call order, and the
/// messages that carry them back to the model.
#[derive(Clone, Debug)]
pub struct Turn {
    provider: Provider,
    calls: Vec<ToolCall>,
    results: Vec<ToolResult>,
    /// The calls held for a person, in call order.
    held: Vec<HeldCall>,
    stop: Option<Stop>,
    /// The tool choice the turn ran with, kept for its resume.
    choice: Option<ToolChoice>,
}

impl Turn {
    /// The calls, as given.
    pub fn calls(&self) -> &[ToolCall] {
        &self.calls
    }

    /// A result per call, in call order. A held call's ([`held`](Turn::held)) is an error
    /// result saying that it waits for the user's approval, until
    /// [`Runner::resume`] gives the turn again with its real one.
    pub fn results(&self) -> &[ToolResult] {
        &self.results
    }

    /// The calls held for a person to approve or deny, in call order: empty unless a tool
    /// needs approval or the runner's policy said so ([`Runner::needs_approval`]). To go on,
    /// take the [`pending`](Turn::pending) turn, decide each, and
    /// [`resume`](Runner::resume) it.
    pub fn held(&self) -> &[HeldCall] {
        &self.held
    }

    /// The turn as it waits for the person, to decide and resume ([`Pending`]; it can be
    /// saved with serde); `None` when no call is held.
    pub fn pending(&self) -> Option<Pending> {
        if self.held.is_empty() {
            return None;
        }
        let mut held = self.held.iter().peekable();
        let slots = self
            .calls
            .iter()
            .zip(&self.results)
            .enumerate()
            .map(
                |(index, (call, result))| match held.next_if(|held| held.index() == index) {
                    Some(held) => Slot::Held(held.clone()),
                    None => Slot::Done {
                        call: call.clone(),
                        result: result.clone(),
                    },
                },
            )
            .collect();
        Some(Pending::new(self.provider, slots, self.choice.clone()))
    }

    /// Whether the caller should end the loop rather than call the model again (the retry
    /// budget is spent).
    pub fn stop(&self) -> Option<&Stop> {
        self.stop.as_ref()
    }

    /// What to append to the conversation after the model's turn, in the provider's shape:
    ///
    /// | provider | messages |
    /// |---|---|
    /// | Anthropic | one user message, every `tool_result` block in call order |
    /// | OpenAI Chat | a `{"role":"tool"}` message per call, in call order |
    /// | OpenAI Responses | a `function_call_output` input item per call |
    /// | Gemini | one `{"role":"user","parts":[..]}` content of `functionResponse` parts |
    /// | MCP | the JSON-RPC response to each `tools/call` request |
    ///
    /// Empty when the turn had no calls. While calls are [`held`](Turn::held), their results
    /// here say that they wait for the user's approval: send these messages only to go on
    /// without them (the calls then never run); to run them, [`resume`](Runner::resume) first
    /// and send the resumed turn's messages.
    ///
    /// To continue the conversation, the model's own turn goes first:
    /// [`next_messages`](Turn::next_messages) gives both.
    pub fn messages(&self) -> Vec<Value> {
        if self.calls.is_empty() {
            return Vec::new();
        }
        let pairs = self.calls.iter().zip(&self.results);
        match self.provider {
            Provider::Anthropic => vec![crate::wire::result::anthropic_user_message(pairs, None)],
            Provider::OpenAiChat | Provider::OpenAiResponses => pairs
                .map(|(call, result)| result.render(self.provider, call))
                .collect(),
            Provider::Gemini => {
                let parts: Vec<Value> = pairs
                    .map(|(call, result)| result.render(Provider::Gemini, call))
                    .collect();
                vec![serde_json::json!({"role": "user", "parts": parts})]
            }
            Provider::Mcp => pairs
                .map(|(call, result)| crate::wire::result::mcp_response(call, result))
                .collect(),
        }
    }

    /// Everything to append to the conversation for the next request: the model's turn from
    /// `response` (the whole response the calls came from) as the API wants it sent back, then
    /// the results ([`messages`](Turn::messages)).
    ///
    /// | provider | the model's turn |
    /// |---|---|
    /// | Anthropic | `{"role":"assistant","content":..}`, every block as sent (thinking blocks and their signatures included) |
    /// | OpenAI Chat | the first choice's message: `role`, `content`, `tool_calls`, and `refusal`/`name` when set (fields only responses have, such as `annotations` or a reasoning text, are left out); each call in OpenAI's request shape (what compatible servers add or leave out normalised: `index` dropped, `type` and `arguments` written in) |
    /// | OpenAI Responses | every `output` item, as input items (reasoning items included) |
    /// | Gemini | the first candidate's `content`, its parts as sent (`thoughtSignature`s kept) |
    /// | MCP | nothing: the results are JSON-RPC responses |
    ///
    /// An error when `response` lacks what its API always sends there.
    pub fn next_messages(&self, response: &Value) -> Result<Vec<Value>, ToolCallError> {
        let provider = self.provider;
        let malformed = |path: &str, message: &str| ToolCallError::Malformed {
            provider,
            path: path.to_owned(),
            message: message.to_owned(),
        };
        let mut messages = match provider {
            Provider::Anthropic => match response.get("content") {
                Some(content @ Value::Array(_)) => {
                    vec![serde_json::json!({"role": "assistant", "content": content})]
                }
                _ => return Err(malformed("content", "expected an array of content blocks")),
            },
            Provider::OpenAiChat => {
                let Some(choices) = response.get("choices").and_then(Value::as_array) else {
                    return Err(malformed("choices", "expected an array"));
                };
                let Some(choice) = choices.first() else {
                    return Err(ToolCallError::NoCandidates {
                        provider,
                        block_reason: None,
                    });
                };
                let Some(message) = choice.get("message").and_then(Value::as_object) else {
                    return Err(malformed("choices[0].message", "expected an object"));
                };
                let mut echo = serde_json::Map::new();
                echo.insert("role".to_owned(), Value::from("assistant"));
                for key in ["content", "tool_calls", "refusal", "name"] {
                    match message.get(key) {
                        // Some compatible servers send `tool_calls: []`, which requests refuse.
                        Some(Value::Array(calls)) if key == "tool_calls" && calls.is_empty() => {}
                        Some(Value::Array(calls)) if key == "tool_calls" => {
                            let calls = calls.iter().map(request_tool_call).collect();
                            echo.insert(key.to_owned(), Value::Array(calls));
                        }
                        Some(Value::Null) | None if key != "content" => {}
                        Some(value) => {
                            echo.insert(key.to_owned(), value.clone());
                        }
                        None => {
                            echo.insert(key.to_owned(), Value::Null);
                        }
                    }
                }
                vec![Value::Object(echo)]
            }
            Provider::OpenAiResponses => match response.get("output") {
                Some(Value::Array(items)) => items.clone(),
                _ => return Err(malformed("output", "expected an array of output items")),
            },
            Provider::Gemini => {
                let Some(candidates) = response.get("candidates").and_then(Value::as_array) else {
                    return Err(ToolCallError::NoCandidates {
                        provider,
                        block_reason: response
                            .pointer("/promptFeedback/blockReason")
                            .and_then(Value::as_str)
                            .map(str::to_owned),
                    });
                };
                match candidates.first().and_then(|c| c.get("content")) {
                    Some(content @ Value::Object(_)) => vec![content.clone()],
                    Some(_) => {
                        return Err(malformed("candidates[0].content", "expected an object"));
                    }
                    None => {
                        return Err(ToolCallError::NoCandidates {
                            provider,
                            block_reason: None,
                        });
                    }
                }
            }
            Provider::Mcp => Vec::new(),
        };
        messages.extend(self.messages());
        Ok(messages)
    }
}

/// A tool call of an OpenAI Chat response as a request's assistant message takes it back: what
/// OpenAI-compatible servers send beside OpenAI's own shape normalised (a stream's `index`
/// dropped, a missing `type` written as `"function"`, missing `arguments` as `"{}"`, as they
/// were read); anything else kept as sent (Gemini's `extra_content` with its thought signature
/// must come back).
fn request_tool_call(call: &Value) -> Value {
    let Value::Object(call) = call else {
        return call.clone();
    };
    let mut call = call.clone();
    call.remove("index");
    if let Some(Value::Object(function)) = call.get_mut("function") {
        if matches!(function.get("arguments"), None | Some(Value::Null)) {
            function.insert("arguments".to_owned(), Value::from("{}"));
        }
        if !call.contains_key("type") {
            call.insert("type".to_owned(), Value::from("function"));
        }
    }
    Value::Object(call)
}
