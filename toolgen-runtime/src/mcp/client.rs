//! Using the tools of an MCP server: [`McpToolset`] connects to one with rmcp's client (a child
//! process over stdio, streamable HTTP, or any rmcp transport), lists its tools, and offers them
//! in a [`Runner`](crate::Runner) beside the set's own, each call forwarded to the server.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CancelledNotificationParam, ClientConfig, ClientRequest, GetExtensions,
    GetMeta, Implementation, JsonRpcMessage, ProgressToken, ProtocolVersion, Request, RequestId,
    RequestMetaObject, ServerNotification, ServerResult, SubscriptionFilter,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, NotificationContext, Peer, PeerRequestOptions,
    RunningService, RxJsonRpcMessage, TxJsonRpcMessage,
};
use rmcp::transport::Transport;
use rmcp::{ClientHandler, RoleClient};
use serde_json::Value;

use crate::mcp::client_elicit::{
    Answering, Asking, McpElicitation, Question, Registered, capability,
};
use crate::mcp::probe::Probed;
use crate::mcp::trace::{Connection, McpSpan};
use crate::run::elicit::{ElicitAnswer, ElicitMode};
use crate::run::handler::{CallFuture, DynamicFuture, DynamicHandler, Invocation, Progress};
use crate::run::progress::ProgressQueue;
use crate::tool::dynamic::{DynamicTool, DynamicToolError};
use crate::wire::result::ToolResult;

/// How long connecting (the handshake and the first listing) may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a forwarded call may run unless [`McpToolset::timeout`] says otherwise.
const CALL_TIMEOUT: Duration = Duration::from_secs(60);

/// The tools of one MCP server, to offer a model beside a tool set's own
/// ([`Runner::with_mcp`](crate::Runner::with_mcp)).
///
/// Connect with [`stdio`](McpToolset::stdio) (a child process), [`http`](McpToolset::http)
/// (streamable HTTP; plain `http://`: for `https://`, turn on rmcp's `reqwest` feature in your
/// own `Cargo.toml` and it is used here too) or [`connect`](McpToolset::connect) (any rmcp
/// client transport). Every page of `tools/list` is read. Each tool is offered as a
/// [`DynamicTool`]: its name, description, `inputSchema`, `outputSchema`, `title`,
/// `annotations` and `icons` carried over, its provider definitions by the dialect rules of
/// every run-time tool.
///
/// A call is checked against the tool's input schema first (bad arguments get the same
/// JSON-path errors as the set's tools, without a round trip), then sent as `tools/call`:
/// the server's progress reaches [`Invocation::progress`], the runner's timeout and
/// cancellation reach the server as `notifications/cancelled`, and the result comes back as a
/// [`ToolResult`] (text, `structuredContent` as JSON, images, audio and resources as
/// attachments, `isError`). A server that exits, hangs or answers with a protocol error gives
/// the model an error result saying so.
///
/// It speaks MCP `2026-07-28` with a server that does (`server/discover`, then a
/// `subscriptions/listen` stream for list changes; an `outputSchema` that is not an object's is
/// kept), else `2025-11-25`. The server's `notifications/tools/list_changed` marks the listing
/// stale; the runner lists again before its next turn
/// ([`Runner::refresh_toolsets`](crate::Runner::refresh_toolsets)), and again after a listing
/// that failed.
/// [`allow`](McpToolset::allow), [`deny`](McpToolset::deny) and
/// [`prefix`](McpToolset::prefix) choose the tools and rename them, for names that collide
/// with the set's or another server's.
///
/// A server that asks the person (MCP's elicitation, at either version) is answered by the
/// callback given to [`McpToolset::builder`]'s [`on_elicit`](McpToolsetBuilder::on_elicit), or,
/// for a call an [`McpServer`](super::McpServer) runs (a gateway's), by the client that made it;
/// without either the client declares no `elicitation` capability.
///
/// Clones share the connection. It closes when the last clone (and every runner holding its
/// tools) is dropped, or with [`close`](McpToolset::close); a child process is killed then.
///
/// With the feature `tracing01`, each forwarded call runs in a span of kind client,
/// `tools/call {tool}` with OpenTelemetry's MCP attributes (README, "Tracing"), a child of the
/// runner's `execute_tool` span; with the feature `opentelemetry033`, its trace context goes to
/// the server in the request's `params._meta`, for the server's span to continue.
///
/// ```no_run
/// use toolgen::{Provider, Runner, ToolSet};
/// use toolgen_runtime::McpToolset; // `toolgen::McpToolset` with toolgen's feature `mcp`
/// # use toolgen::{Handler, Invocation, Tool, ToolError};
/// # /// Say hello.
/// # #[derive(Tool, serde::Deserialize)]
/// # struct Hello {}
/// # impl Handler<()> for Hello {
/// #     type Output = &'static str;
/// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> { Ok("hello") }
/// # }
/// # #[derive(ToolSet)] enum Tools { Hello(Hello) }
///
/// # async fn run() -> Result<(), toolgen_runtime::McpClientError> {
/// let mut command = tokio::process::Command::new("npx");
/// command.args(["-y", "@modelcontextprotocol/server-everything"]);
/// let everything = McpToolset::stdio(command).await?.prefix("everything_").deny(&["sampleLLM"]);
/// let runner = Runner::<Tools, ()>::new(()).with_mcp(everything);
/// let definitions = runner.definitions(Provider::Anthropic); // the server's tools
/// # let _ = definitions; Ok(()) }
/// ```
#[derive(Clone)]
pub struct McpToolset {
    shared: Arc<Shared>,
    prefix: String,
    allow: Option<Vec<String>>,
    deny: Vec<String>,
    /// The tools whose calls a person must approve, by their names on the server.
    approval: Vec<String>,
    strict: bool,
    timeout: Duration,
}

/// What every clone of a toolset, and every call, shares.
struct Shared {
    peer: Peer<RoleClient>,
    /// Who answers the server's questions, and the calls they can belong to.
    asking: Arc<Asking>,
    /// The running client: dropped (with the last clone), it stops, and the child with it.
    service: Mutex<Option<RunningService<RoleClient, ClientSide>>>,
    events: Arc<Events>,
    /// The server's tools as last listed.
    listed: Mutex<Vec<rmcp::model::Tool>>,
    /// The server's name, for messages.
    name: String,
    /// The transport and version, for the calls' spans.
    connection: Connection,
    /// The child process, killed when dropped.
    _child: Option<tokio::process::Child>,
}

/// What the server tells the client between requests.
#[derive(Default)]
struct Events {
    /// Where each running call's progress goes, by its progress token (a bounded queue: a
    /// server that floods reports faster than the call takes them loses the oldest).
    progress: Mutex<HashMap<ProgressToken, Arc<ProgressQueue>>>,
    /// The server said its tools changed since the last listing.
    changed: AtomicBool,
    /// Counts the server's list changes, for those who wait on them (a gateway).
    signal: tokio::sync::watch::Sender<u64>,
}

impl Events {
    /// The server said its tools changed.
    fn tools_changed(&self) {
        self.changed.store(true, Ordering::SeqCst);
        self.signal
            .send_modify(|count| *count = count.wrapping_add(1));
    }
}

/// A call's progress sink, carried to the transport in its request's extensions (which are
/// never sent).
#[derive(Clone)]
struct ProgressSink(Arc<ProgressQueue>);

/// The client's transport, tapped for progress. rmcp hands each notification to a task of its
/// own, while a response goes straight to its caller: the server's last reports before its
/// answer could reach the caller after it, and be lost. Here a call's sink is registered as
/// its request goes out (before any report for it can come), and each report is put in its
/// call's sink as the transport reads it, in the order of the messages: every report the
/// server sent before its answer is in the sink when the answer comes.
///
/// A server's `notifications/elicitation/complete` goes to the call that asked for the URL the
/// same way, read in order before the call's answer.
struct Tapped<T> {
    inner: T,
    events: Arc<Events>,
    asking: Arc<Asking>,
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Tapped<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        mut message: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), T::Error>> + Send + 'static {
        if let JsonRpcMessage::Request(request) = &mut message
            && let Some(ProgressSink(sink)) = request.request.extensions_mut().remove()
            && let Some(token) = request.request.get_meta().get_progress_token()
        {
            let mut running = lock(&self.events.progress);
            // (A call given up on before its request went out has closed its sink.)
            if !sink.is_closed() {
                running.insert(token, sink);
            }
        }
        self.inner.send(message)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await?;
        if let JsonRpcMessage::Notification(notification) = &message
            && let ServerNotification::ProgressNotification(report) = &notification.notification
        {
            let params = &report.params;
            let mut step = Progress::new(params.progress);
            step.total = params.total;
            step.message = params.message.clone();
            let mut running = lock(&self.events.progress);
            if let Some(sink) = running.get(&params.progress_token)
                && !sink.push(step)
            {
                running.remove(&params.progress_token);
            }
        }
        if let JsonRpcMessage::Notification(notification) = &message
            && let ServerNotification::CustomNotification(custom) = &notification.notification
            && custom.method == "notifications/elicitation/complete"
        {
            self.asking.completed(custom.params.as_ref());
        }
        Some(message)
    }

    fn close(&mut self) -> impl Future<Output = Result<(), T::Error>> + Send {
        self.inner.close()
    }
}

/// rmcp's client handler: list changes, into [`Events`] (progress and elicitations' completions
/// are read by [`Tapped`]); a `2025-11-25` server's questions, to [`Asking`].
struct ClientSide {
    events: Arc<Events>,
    asking: Arc<Asking>,
}

impl ClientHandler for ClientSide {
    fn get_info(&self) -> ClientConfig {
        let mut config = ClientConfig::default();
        // `2025-11-25` where the server does not speak `2026-07-28` (see `start`).
        config.protocol_version = ProtocolVersion::V_2025_11_25;
        config.client_info = Implementation::new("toolgen", env!("CARGO_PKG_VERSION"));
        // Declared only where someone answers (`McpToolsetBuilder::on_elicit`).
        config.capabilities.elicitation = capability(&self.asking.answering.declared());
        config
    }

    async fn create_elicitation(
        &self,
        request: rmcp::model::ElicitRequestParams,
        _: rmcp::service::RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ElicitResult, rmcp::ErrorData> {
        self.asking.asked_by_server(request).await
    }

    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.events.tools_changed();
    }
}

impl Shared {
    /// Whether the server speaks `2026-07-28` (or later).
    fn modern(&self) -> bool {
        (self.peer.peer_info())
            .is_some_and(|info| info.protocol_version >= ProtocolVersion::V_2026_07_28)
    }
}

pub(crate) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Why a toolset could not connect, or list the server's tools.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use toolgen_runtime::{McpClientError, McpToolset}; // `toolgen::..` with toolgen's feature `mcp`
///
/// let missing = tokio::process::Command::new("/nonexistent/mcp-server");
/// let error = McpToolset::stdio(missing).await.unwrap_err();
/// assert!(matches!(error, McpClientError::Spawn(_)));
/// assert!(error.to_string().starts_with("the MCP server did not start"));
/// # });
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum McpClientError {
    /// The child process did not start.
    Spawn(std::io::Error),
    /// The handshake failed (the transport's or the server's error, in words).
    Connect(String),
    /// `tools/list` failed.
    List(String),
    /// The server did not answer within the time given.
    TimedOut(Duration),
}

impl std::fmt::Display for McpClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            McpClientError::Spawn(error) => write!(f, "the MCP server did not start: {error}"),
            McpClientError::Connect(why) => write!(f, "the MCP handshake failed: {why}"),
            McpClientError::List(why) => write!(f, "the MCP server's tools/list failed: {why}"),
            McpClientError::TimedOut(after) => {
                write!(f, "the MCP server did not answer within {after:?}")
            }
        }
    }
}

impl std::error::Error for McpClientError {}

/// A server's tool that is not offered as it is: left out, or offered non-strict.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct McpToolProblem {
    /// The tool's name on the server.
    pub tool: String,
    /// Whether it is offered all the same (non-strict, when strict was asked for).
    pub offered: bool,
    /// Why.
    pub reason: String,
}

impl McpToolset {
    /// A toolset with options set before it connects: who answers the server's questions
    /// ([`McpToolsetBuilder::on_elicit`]).
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), toolgen_runtime::McpClientError> {
    /// use toolgen::ElicitAnswer;
    /// use toolgen_runtime::McpToolset; // `toolgen::McpToolset` with toolgen's feature `mcp`
    ///
    /// let command = tokio::process::Command::new("mcp-server-git");
    /// let git = McpToolset::builder()
    ///     .on_elicit(|_| async { ElicitAnswer::decline() })
    ///     .stdio(command)
    ///     .await?;
    /// # drop(git); Ok(()) }
    /// ```
    pub fn builder() -> McpToolsetBuilder {
        McpToolsetBuilder::default()
    }

    /// Starts `command` as a child process and speaks MCP with it over its stdin and stdout
    /// (its stderr is left as `command` has it). The process is killed when the toolset closes.
    pub async fn stdio(command: tokio::process::Command) -> Result<Self, McpClientError> {
        McpToolset::builder().stdio(command).await
    }

    /// Connects to the streamable HTTP endpoint at `url` (as `http://127.0.0.1:8080/mcp`).
    pub async fn http(url: &str) -> Result<Self, McpClientError> {
        McpToolset::builder().http(url).await
    }

    /// Connects to the streamable HTTP endpoint at `url` with credentials of its own: `token`
    /// sent as `Authorization: Bearer` on every request. The toolset's own token, from the far
    /// server's authorization server: an [`McpServer`](super::McpServer) that uses a toolset never hands it the
    /// token its own clients sent (the MCP specification forbids passing a token through), so
    /// a gateway gives each toolset its own.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), toolgen_runtime::McpClientError> {
    /// let token = std::env::var("NOTES_MCP_TOKEN").unwrap_or_default();
    /// let notes = toolgen_runtime::McpToolset::http_with_token("https://notes.example.com/mcp", token).await?;
    /// # drop(notes);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn http_with_token(
        url: &str,
        token: impl Into<String>,
    ) -> Result<Self, McpClientError> {
        McpToolset::builder().http_with_token(url, token).await
    }

    /// Connects to the streamable HTTP endpoint at `url` with credentials of its own that
    /// change: each request carries the token `provider` gives (OAuth client credentials with
    /// `ClientCredentials`, feature `oauth`; or a callback), and after a 401 from the far server
    /// the provider is asked for a new one and the request sent once more (a second 401 is the
    /// error). Never the token of the toolset's own callers: see
    /// [`http_with_token`](McpToolset::http_with_token).
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), toolgen_runtime::McpClientError> {
    /// use toolgen_runtime::{McpToolset, TokenError};
    ///
    /// let from_env = |_refused: bool| async {
    ///     std::env::var("NOTES_MCP_TOKEN").map_err(|_| TokenError::new("NOTES_MCP_TOKEN is not set"))
    /// };
    /// let notes = McpToolset::http_with_credentials("https://notes.example.com/mcp", from_env).await?;
    /// # drop(notes);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn http_with_credentials(
        url: &str,
        provider: impl super::credentials::TokenProvider,
    ) -> Result<Self, McpClientError> {
        McpToolset::builder()
            .http_with_credentials(url, provider)
            .await
    }

    /// Speaks MCP over any rmcp client transport (a `tokio::io::duplex` half, an
    /// `(AsyncRead, AsyncWrite)` pair, a configured streamable HTTP transport).
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// use serde::Deserialize;
    /// use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
    /// use toolgen_runtime::{McpServer, McpToolset}; // `toolgen::..` with toolgen's feature `mcp`
    ///
    /// /// Add two numbers.
    /// #[derive(Tool, Deserialize)]
    /// struct Add { a: i64, b: i64 }
    /// impl Handler<()> for Add {
    ///     type Output = i64;
    ///     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<i64, ToolError> { Ok(self.a + self.b) }
    /// }
    /// #[derive(ToolSet)]
    /// enum Tools { Add(Add) }
    ///
    /// let (server_side, client_side) = tokio::io::duplex(1 << 16);
    /// let server = McpServer::new(Runner::<Tools, ()>::new(()), "calculator", "1.0.0");
    /// tokio::spawn(async move {
    ///     let running = toolgen_runtime::rmcp::ServiceExt::serve(server, server_side).await.unwrap();
    ///     running.waiting().await
    /// });
    /// let toolset = McpToolset::connect(client_side).await.unwrap().prefix("calc_");
    /// assert_eq!(toolset.tools()[0].name(), "calc_add");
    /// # });
    /// ```
    pub async fn connect<T, E, A>(transport: T) -> Result<Self, McpClientError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A> + Send + 'static,
        E: std::error::Error + Send + Sync + 'static,
    {
        McpToolset::builder().connect(transport).await
    }
}

/// How an [`McpToolset`] connects: what its client declares and who answers the server's
/// questions (MCP's elicitation), set before the handshake, which declares them. Start with
/// [`McpToolset::builder`], end with the transport ([`stdio`](McpToolsetBuilder::stdio),
/// [`http`](McpToolsetBuilder::http), [`connect`](McpToolsetBuilder::connect), ..), as
/// `McpToolset`'s own constructors (which connect with no options).
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use serde::Deserialize;
/// use toolgen::{ElicitAnswer, ElicitRequest, Elicited, Handler, Invocation, Provider, Runner};
/// use toolgen::{Tool, ToolCall, ToolError, ToolSchema, ToolSet};
/// use toolgen_runtime::{McpServer, McpToolset}; // `toolgen::..` with toolgen's feature `mcp`
///
/// /// Whether to go on.
/// #[derive(ToolSchema, Deserialize)]
/// #[tool(form)]
/// struct Confirm { ok: bool }
///
/// /// Delete everything, if the person agrees.
/// #[derive(Tool, Deserialize)]
/// struct Wipe {}
/// impl Handler<()> for Wipe {
///     type Output = &'static str;
///     async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<&'static str, ToolError> {
///         match call.elicit::<Confirm>("Delete everything?").await? {
///             Elicited::Accepted(Confirm { ok: true }) => Ok("deleted"),
///             _ => Ok("kept"),
///         }
///     }
/// }
/// #[derive(ToolSet)]
/// enum Tools { Wipe(Wipe) }
///
/// // A server whose tool asks, in a task; the toolset's callback answers for the person.
/// let (server_side, client_side) = tokio::io::duplex(1 << 16);
/// let server = McpServer::new(Runner::<Tools, ()>::new(()), "files", "1.0.0");
/// tokio::spawn(async move {
///     let running = toolgen_runtime::rmcp::ServiceExt::serve(server, server_side).await.unwrap();
///     running.waiting().await
/// });
/// let toolset = McpToolset::builder()
///     .on_elicit(|question| async move {
///         assert_eq!(question.request().message(), "Delete everything?");
///         assert_eq!(question.tool(), Some("remote_wipe"));
///         ElicitAnswer::accept(Some(serde_json::json!({"ok": true})))
///     })
///     .connect(client_side)
///     .await
///     .unwrap()
///     .prefix("remote_");
/// let mut runner = Runner::<Tools, ()>::new(()).with_mcp(toolset);
/// let turn = runner.run(Provider::Anthropic, &[ToolCall::new("remote_wipe", "{}")]).await;
/// assert_eq!(turn.results()[0].to_text(), "deleted");
/// # });
/// ```
#[derive(Clone, Default)]
#[must_use]
pub struct McpToolsetBuilder {
    answering: Answering,
}

impl std::fmt::Debug for McpToolsetBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpToolsetBuilder")
            .field("on_elicit", &self.answering.callback.is_some())
            .field("elicitation", &self.answering.declared())
            .finish_non_exhaustive()
    }
}

impl McpToolsetBuilder {
    /// Answers the server's questions (MCP's elicitation, a form or a URL) with `callback`,
    /// which gets each [`McpElicitation`]: the question, the server, and the call it belongs
    /// to where that can be known; it answers [`ElicitAnswer::accept`] (with a form's
    /// content), [`decline`](ElicitAnswer::decline) or [`cancel`](ElicitAnswer::cancel). The
    /// client then declares the `elicitation` capability, both modes unless
    /// [`elicitation`](McpToolsetBuilder::elicitation) says which; without a callback it
    /// declares none, and a server does not ask.
    ///
    /// At `2025-11-25` the server asks with an `elicitation/create` request while the call
    /// runs; it belongs to a call when that call is the only one of the server's running (the
    /// protocol does not say which call asks). At `2026-07-28` the call ends with an
    /// `InputRequiredResult`: the callback answers each of its questions, and the call is made
    /// again with the answers and the server's `requestState` (10 rounds at most). The wait
    /// for the person counts in the call's [`timeout`](McpToolset::timeout).
    ///
    /// A call that an [`McpServer`](super::McpServer) runs (a gateway's) asks its own client
    /// first, where that client can answer the mode; the callback answers the rest.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), toolgen_runtime::McpClientError> {
    /// use toolgen::{ElicitAnswer, ElicitRequest};
    /// use toolgen_runtime::McpToolset; // `toolgen::McpToolset` with toolgen's feature `mcp`
    ///
    /// let command = tokio::process::Command::new("mcp-server-payments");
    /// let payments = McpToolset::builder()
    ///     .on_elicit(|question| async move {
    ///         match question.request() {
    ///             ElicitRequest::Url { url, .. } => {
    ///                 println!("{}: open {url}", question.request().message());
    ///                 ElicitAnswer::accept(None)
    ///             }
    ///             _ => ElicitAnswer::decline(),
    ///         }
    ///     })
    ///     .stdio(command)
    ///     .await?;
    /// # drop(payments); Ok(()) }
    /// ```
    pub fn on_elicit<F, Fut>(mut self, callback: F) -> Self
    where
        F: Fn(McpElicitation) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ElicitAnswer> + Send + 'static,
    {
        self.answering.callback = Some(Arc::new(move |question| Box::pin(callback(question))));
        self
    }

    /// The elicitation modes the client declares when it connects, and the callback answers:
    /// with [`on_elicit`](McpToolsetBuilder::on_elicit), both unless narrowed here. Without a
    /// callback, for a gateway whose server speaks `2025-11-25` (which reads the capability
    /// once, at `initialize`): the modes its callers' clients are asked in. (At `2026-07-28`
    /// each call declares what its caller's client and the callback can answer, and nothing
    /// more.)
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), toolgen_runtime::McpClientError> {
    /// use toolgen::ElicitMode;
    /// use toolgen_runtime::McpToolset; // `toolgen::McpToolset` with toolgen's feature `mcp`
    ///
    /// // A gateway's upstream: forms and URLs go on to the gateway's callers.
    /// let upstream = McpToolset::builder()
    ///     .elicitation(&[ElicitMode::Form, ElicitMode::Url])
    ///     .http("http://127.0.0.1:9000/mcp")
    ///     .await?;
    /// # drop(upstream); Ok(()) }
    /// ```
    pub fn elicitation(mut self, modes: &[ElicitMode]) -> Self {
        self.answering.modes = Some(modes.to_vec());
        self
    }

    /// Gives `callback` the id of each URL elicitation the server says is complete
    /// (`notifications/elicitation/complete`, `2025-11-25`; `2026-07-28` has none), unless the
    /// call that asked is a gateway's, whose own client is told.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), toolgen_runtime::McpClientError> {
    /// use toolgen::ElicitAnswer;
    /// use toolgen_runtime::McpToolset; // `toolgen::McpToolset` with toolgen's feature `mcp`
    ///
    /// let bank = McpToolset::builder()
    ///     .on_elicit(|_| async { ElicitAnswer::accept(None) })
    ///     .on_elicitation_complete(|id| println!("the sign-in {id} is done"))
    ///     .http("http://127.0.0.1:9000/mcp")
    ///     .await?;
    /// # drop(bank); Ok(()) }
    /// ```
    pub fn on_elicitation_complete(
        mut self,
        callback: impl Fn(&str) + Send + Sync + 'static,
    ) -> Self {
        self.answering.on_complete = Some(Arc::new(callback));
        self
    }
}

impl McpToolsetBuilder {
    /// Connects as [`McpToolset::stdio`] does, with this builder's options.
    pub async fn stdio(
        self,
        mut command: tokio::process::Command,
    ) -> Result<McpToolset, McpClientError> {
        command
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true);
        let mut child = command.spawn().map_err(McpClientError::Spawn)?;
        let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
            return Err(McpClientError::Spawn(std::io::Error::other(
                "the child's stdin and stdout are not piped",
            )));
        };
        self.start((stdout, stdin), Some(child), Some("pipe")).await
    }

    /// Connects as [`McpToolset::http`] does, with this builder's options.
    pub async fn http(self, url: &str) -> Result<McpToolset, McpClientError> {
        let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(url.to_owned());
        self.start(transport, None, Some("tcp")).await
    }

    /// Connects as [`McpToolset::http_with_token`] does, with this builder's options.
    pub async fn http_with_token(
        self,
        url: &str,
        token: impl Into<String>,
    ) -> Result<McpToolset, McpClientError> {
        use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
        let config =
            StreamableHttpClientTransportConfig::with_uri(url.to_owned()).auth_header(token);
        let transport = rmcp::transport::StreamableHttpClientTransport::from_config(config);
        self.start(transport, None, Some("tcp")).await
    }

    /// Connects as [`McpToolset::http_with_credentials`] does, with this builder's options.
    pub async fn http_with_credentials(
        self,
        url: &str,
        provider: impl super::credentials::TokenProvider,
    ) -> Result<McpToolset, McpClientError> {
        use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
        // (As rmcp's own client: no idle connections kept, which a half-read body would stall.
        // No redirects: the token goes to `url` only.)
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|error| McpClientError::Connect(error.to_string()))?;
        let client = super::credentials::Authorized {
            http,
            provider: Arc::new(provider),
        };
        let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
        let transport = rmcp::transport::StreamableHttpClientTransport::with_client(client, config);
        self.start(transport, None, Some("tcp")).await
    }

    /// Connects as [`McpToolset::connect`] does, with this builder's options.
    pub async fn connect<T, E, A>(self, transport: T) -> Result<McpToolset, McpClientError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A> + Send + 'static,
        E: std::error::Error + Send + Sync + 'static,
    {
        self.start(transport, None, None).await
    }

    async fn start<T, E, A>(
        self,
        transport: T,
        child: Option<tokio::process::Child>,
        network_transport: Option<&'static str>,
    ) -> Result<McpToolset, McpClientError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A> + Send + 'static,
        E: std::error::Error + Send + Sync + 'static,
    {
        let events = Arc::new(Events::default());
        let asking = Arc::new(Asking::new(self.answering));
        let handler = ClientSide {
            events: Arc::clone(&events),
            asking: Arc::clone(&asking),
        };
        // (Over streamable HTTP, an older server answers the probe with an HTTP error.)
        let probing = network_transport != Some("tcp");
        let transport = Tapped {
            inner: Probed::new(transport.into_transport(), probing),
            events: Arc::clone(&events),
            asking: Arc::clone(&asking),
        };
        // `server/discover` first, as `2026-07-28` starts; a server of an older version
        // refuses it, or answers the ping that follows it but not the probe (then 1 s more; no
        // answer at all: rmcp's 10 s), and is met with `initialize` at `2025-11-25`.
        let lifecycle = ClientLifecycleMode::Auto {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            legacy_version: Some(ProtocolVersion::V_2025_11_25),
        };
        let started = handler.serve_with_lifecycle(transport, lifecycle);
        let service = tokio::time::timeout(CONNECT_TIMEOUT, started)
            .await
            .map_err(|_| McpClientError::TimedOut(CONNECT_TIMEOUT))?
            .map_err(|error| McpClientError::Connect(error.to_string()))?;
        let peer = service.peer().clone();
        let name = peer
            .peer_info()
            .and_then(|info| info.server_info.as_ref().map(|server| server.name.clone()))
            .unwrap_or_else(|| "MCP server".to_owned());
        let _ = asking.server.set(name.clone());
        let connection = Connection {
            transport: network_transport,
            protocol_version: (peer.peer_info())
                .map(|info| info.protocol_version.as_str().to_owned()),
        };
        let shared = Arc::new(Shared {
            peer,
            asking,
            service: Mutex::new(Some(service)),
            events,
            listed: Mutex::new(Vec::new()),
            name,
            connection,
            _child: child,
        });
        let toolset = McpToolset {
            shared,
            prefix: String::new(),
            allow: None,
            deny: Vec::new(),
            approval: Vec::new(),
            strict: false,
            timeout: CALL_TIMEOUT,
        };
        toolset.listen_for_changes().await;
        toolset.list(CONNECT_TIMEOUT).await?;
        Ok(toolset)
    }
}

impl McpToolset {
    /// At `2026-07-28`, opens the `subscriptions/listen` stream that `2026-07-28` sends
    /// `notifications/tools/list_changed` on (an older server sends them unasked, to
    /// [`ClientSide`]), and marks the listing stale at each, until the stream ends.
    async fn listen_for_changes(&self) {
        let modern = self.shared.modern();
        let offered = (self.shared.peer.peer_info()).is_some_and(|info| {
            (info.capabilities.tools.as_ref()).is_some_and(|tools| tools.list_changed == Some(true))
        });
        if !modern || !offered {
            return;
        }
        let filter = SubscriptionFilter::builder().tools_list_changed().build();
        let listening = self.shared.peer.listen(filter);
        // (A server that does not acknowledge: its changes are not seen, as before.)
        let Ok(Ok(mut subscription)) = tokio::time::timeout(CONNECT_TIMEOUT, listening).await
        else {
            return;
        };
        let events = Arc::clone(&self.shared.events);
        tokio::spawn(async move {
            while let Ok(Some(notification)) = subscription.next().await {
                if let ServerNotification::ToolListChangedNotification(_) = notification {
                    events.tools_changed();
                }
            }
        });
    }

    /// Lists every page of the server's tools, within `timeout`.
    async fn list(&self, timeout: Duration) -> Result<(), McpClientError> {
        // Cleared first: a change told while listing is listed again next time.
        let stale = self.shared.events.changed.swap(false, Ordering::SeqCst);
        let listed = tokio::time::timeout(timeout, self.shared.peer.list_all_tools())
            .await
            .map_err(|_| McpClientError::TimedOut(timeout))
            .and_then(|tools| tools.map_err(|error| McpClientError::List(error.to_string())));
        match listed {
            Ok(tools) => {
                *lock(&self.shared.listed) = tools;
                Ok(())
            }
            Err(error) => {
                // Still stale: the next turn tries again.
                if stale {
                    self.shared.events.changed.store(true, Ordering::SeqCst);
                }
                Err(error)
            }
        }
    }

    /// Offers the tools under `prefix` + their name (`github_` + `create_issue`), for names
    /// that collide with the set's tools or another server's. Calls reach the server under its
    /// own names.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// use serde::Deserialize;
    /// use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
    /// use toolgen_runtime::{McpServer, McpToolset}; // `toolgen::..` with toolgen's feature `mcp`
    ///
    /// /// Add two numbers.
    /// #[derive(Tool, Deserialize)]
    /// struct Add { a: i64, b: i64 }
    /// /// Subtract a number from another.
    /// #[derive(Tool, Deserialize)]
    /// struct Sub { a: i64, b: i64 }
    /// # impl Handler<()> for Add {
    /// #     type Output = i64;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<i64, ToolError> { Ok(self.a + self.b) }
    /// # }
    /// # impl Handler<()> for Sub {
    /// #     type Output = i64;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<i64, ToolError> { Ok(self.a - self.b) }
    /// # }
    /// #[derive(ToolSet)]
    /// enum Tools { Add(Add), Sub(Sub) }
    ///
    /// let (server_side, client_side) = tokio::io::duplex(1 << 16);
    /// let server = McpServer::new(Runner::<Tools, ()>::new(()), "calculator", "1.0.0");
    /// tokio::spawn(async move {
    ///     let running = toolgen_runtime::rmcp::ServiceExt::serve(server, server_side).await.unwrap();
    ///     running.waiting().await
    /// });
    /// let toolset = McpToolset::connect(client_side).await.unwrap();
    /// let names = |toolset: &McpToolset| -> Vec<String> {
    ///     toolset.tools().iter().map(|tool| tool.name().to_owned()).collect()
    /// };
    /// assert_eq!(names(&toolset.clone().prefix("calc_")), ["calc_add", "calc_sub"]);
    /// assert_eq!(names(&toolset.clone().deny(&["sub"])), ["add"]);
    /// assert_eq!(names(&toolset.clone().allow(&["sub"])), ["sub"]);
    /// let strict = toolset.clone().strict();
    /// assert!(strict.problems().is_empty()); // both fit the strict dialects
    /// assert!(!toolset.list_changed());
    /// toolset.refresh().await.unwrap(); // lists again, every page
    /// toolset.close().await;
    /// # });
    /// ```
    #[must_use]
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Offers only the tools named here (by their names on the server).
    #[must_use]
    pub fn allow(mut self, names: &[&str]) -> Self {
        self.allow = Some(names.iter().map(|name| (*name).to_owned()).collect());
        self
    }

    /// Offers none of the tools named here (by their names on the server).
    #[must_use]
    pub fn deny(mut self, names: &[&str]) -> Self {
        self.deny
            .extend(names.iter().map(|name| (*name).to_owned()));
        self
    }

    /// Holds every call of the tools named here (by their names on the server) for a person to
    /// approve or deny, as [`DynamicTool::require_approval`] does: the
    /// [`Runner`](crate::Runner) returns them in [`Turn::held`](crate::Turn::held).
    ///
    /// ```no_run
    /// # async fn example() -> Result<(), toolgen_runtime::McpClientError> {
    /// use toolgen_runtime::McpToolset; // `toolgen::McpToolset` with toolgen's feature `mcp`
    ///
    /// let command = tokio::process::Command::new("mcp-server-filesystem");
    /// let files = McpToolset::stdio(command).await?.require_approval(&["write_file", "move_file"]);
    /// assert!(files.tools().iter().any(|tool| tool.needs_approval()));
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn require_approval(mut self, names: &[&str]) -> Self {
        self.approval
            .extend(names.iter().map(|name| (*name).to_owned()));
        self
    }

    /// Offers the tools strict for OpenAI and Anthropic ([`DynamicTool::strict`]) where their
    /// schemas allow; a tool whose schema a strict dialect cannot express is offered
    /// non-strict, and [`problems`](McpToolset::problems) says why.
    #[must_use]
    pub fn strict(mut self) -> Self {
        self.strict = true;
        self
    }

    /// How long a forwarded call may run (60 s unless set; a runner's shorter
    /// [`timeout`](crate::Runner::timeout) wins). Past it the server is sent
    /// `notifications/cancelled` and the model an error result.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The server's name, as it gave it.
    pub fn server_name(&self) -> &str {
        &self.shared.name
    }

    /// rmcp's client, to reach the server directly (resources, prompts, a call by hand).
    pub fn peer(&self) -> &Peer<RoleClient> {
        &self.shared.peer
    }

    /// Whether the server said its tools changed since they were last listed.
    pub fn list_changed(&self) -> bool {
        self.shared.events.changed.load(Ordering::SeqCst)
    }

    /// A watch of the server's list changes (a gateway waits on it).
    pub(crate) fn changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.shared.events.signal.subscribe()
    }

    /// Lists the server's tools again (every page), within the toolset's
    /// [`timeout`](McpToolset::timeout).
    pub async fn refresh(&self) -> Result<(), McpClientError> {
        self.list(self.timeout).await
    }

    /// Closes the connection (a child process is killed). Calls after it get error results.
    pub async fn close(&self) {
        let service = lock(&self.shared.service).take();
        if let Some(service) = service {
            let _ = service.cancel().await;
        }
    }

    /// The tools offered: the server's, chosen by [`allow`](McpToolset::allow) and
    /// [`deny`](McpToolset::deny), renamed by [`prefix`](McpToolset::prefix).
    pub fn tools(&self) -> Vec<DynamicTool> {
        self.offered().0.into_iter().map(|(tool, _)| tool).collect()
    }

    /// The server's tools that are left out (a name or a schema toolgen cannot offer) or
    /// offered non-strict though [`strict`](McpToolset::strict) was asked for, and why.
    pub fn problems(&self) -> Vec<McpToolProblem> {
        self.offered().1
    }

    /// Every tool offered, with the handler that forwards its calls; and the problems.
    pub(crate) fn offered(&self) -> (Vec<(DynamicTool, McpCall)>, Vec<McpToolProblem>) {
        let listed = lock(&self.shared.listed).clone();
        let mut offered = Vec::new();
        let mut problems = Vec::new();
        let mut names = HashSet::new();
        for tool in listed {
            let remote = tool.name.to_string();
            if self
                .allow
                .as_ref()
                .is_some_and(|allow| !allow.contains(&remote))
                || self.deny.contains(&remote)
            {
                continue;
            }
            let problem = |offered: bool, reason: String| McpToolProblem {
                tool: remote.clone(),
                offered,
                reason,
            };
            let name = offered_name(&self.prefix, &remote);
            if !names.insert(name.clone()) {
                let reason = format!("its name is offered as `{name}`, as another tool's is");
                problems.push(problem(false, reason));
                continue;
            }
            let made = match self.dynamic_tool(&tool, name) {
                Ok(made) => made,
                Err(error) => {
                    problems.push(problem(false, error.to_string()));
                    continue;
                }
            };
            let made = if self.strict {
                match made.clone().strict() {
                    Ok(strict) => strict,
                    Err(error) => {
                        problems.push(problem(true, error.to_string()));
                        made
                    }
                }
            } else {
                made
            };
            let made = if self.approval.contains(&remote) {
                made.require_approval()
            } else {
                made
            };
            let call = McpCall {
                shared: Arc::clone(&self.shared),
                remote,
                timeout: self.timeout,
            };
            offered.push((made, call));
        }
        (offered, problems)
    }

    /// The server's `tool` as a run-time tool named `name`.
    fn dynamic_tool(
        &self,
        tool: &rmcp::model::Tool,
        name: String,
    ) -> Result<DynamicTool, DynamicToolError> {
        let schema = Value::Object((*tool.input_schema).clone());
        let description = tool.description.as_deref().unwrap_or_default();
        let mut made = DynamicTool::new(name, description, schema)?;
        if let Some(title) = &tool.title {
            made = made.with_title(title.clone());
        }
        if let Some(annotations) = &tool.annotations
            && let Ok(annotations) = serde_json::to_value(annotations)
        {
            made = made.with_annotations(annotations);
        }
        if let Some(icons) = &tool.icons
            && let Ok(icons) = serde_json::to_value(icons)
        {
            made = made.with_icons(icons);
        }
        if let Some(output) = &tool.output_schema {
            made = made.with_output_schema(Value::Object((**output).clone()));
        }
        Ok(made)
    }
}

impl std::fmt::Debug for McpToolset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpToolset")
            .field("server", &self.shared.name)
            .field("prefix", &self.prefix)
            .field("allow", &self.allow)
            .field("deny", &self.deny)
            .field("approval", &self.approval)
            .field("strict", &self.strict)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// The name a server's tool `remote` is offered under: `prefix` + the name, each character
/// providers refuse (MCP names may hold `.` and `/`) as `_`, cut to 64 bytes.
fn offered_name(prefix: &str, remote: &str) -> String {
    let mut name: String = prefix
        .chars()
        .chain(remote.chars())
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    name.truncate(64);
    name
}

/// The handler of a server's tool: forwards its calls.
pub(crate) struct McpCall {
    shared: Arc<Shared>,
    /// The tool's name on the server.
    remote: String,
    timeout: Duration,
}

/// Sends `notifications/cancelled` for a request when dropped armed (the runner gave up on
/// the call: a timeout, a cancelled turn, or its future dropped), and forgets the call's
/// progress sink.
struct Abandoned<'a> {
    shared: &'a Shared,
    /// The call's span, told that the caller gave up.
    span: &'a McpSpan,
    id: Option<RequestId>,
    token: ProgressToken,
    /// The call's progress reports.
    progress: Arc<ProgressQueue>,
}

impl Drop for Abandoned<'_> {
    fn drop(&mut self) {
        // Closed first: a request not yet gone out then registers nothing.
        self.progress.close();
        lock(&self.shared.events.progress).remove(&self.token);
        if self.id.is_some() {
            self.span.failed("cancelled", None);
        }
        if let Some(id) = self.id.take()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            let peer = self.shared.peer.clone();
            let reason = "the caller gave up on the call (a timeout, or a cancelled turn)";
            let param = CancelledNotificationParam::new(Some(id), Some(reason.to_owned()));
            runtime.spawn(async move {
                let _ = peer.notify_cancelled(param).await;
            });
        }
    }
}

/// What a `tools/call` request comes back with: the server's result or error, or nothing (the
/// connection closed).
type Answer =
    Result<Result<ServerResult, rmcp::ServiceError>, tokio::sync::oneshot::error::RecvError>;

/// How many `2026-07-28` rounds of questions a call may take (rmcp's own client's limit).
const MAX_ROUNDS: usize = 10;

impl McpCall {
    async fn forward(&self, arguments: Value, call: &Invocation<'_>) -> ToolResult {
        let server = &self.shared.name;
        let tool = &self.remote;
        let span = McpSpan::client(tool, &self.shared.connection);
        let mut params = CallToolRequestParams::new(tool.clone());
        if let Value::Object(arguments) = arguments {
            params = params.with_arguments(arguments);
        }
        // The questions a `2025-11-25` server asks while the call runs come here.
        let mut registered = self.shared.asking.register();
        let mut waits = 0;
        for round in 1..=MAX_ROUNDS {
            let answer = match self
                .round(params.clone(), call, &span, &mut registered)
                .await
            {
                Ok(Ok(Ok(ServerResult::InputRequiredResult(needed)))) => needed,
                Ok(answer) => return self.result_of(answer, &span),
                Err(failed) => return failed,
            };
            // (No question is asked whose answer would not be sent.)
            if round == MAX_ROUNDS {
                break;
            }
            // `2026-07-28`: the call ends with questions; it is made again with the answers.
            let requests = answer.input_requests.unwrap_or_default();
            if requests.is_empty() {
                // (Only a state: the server sheds load. A short wait before calling again.)
                let wait = Duration::from_millis(50 << waits.min(2));
                tokio::time::sleep(wait).await;
                waits += 1;
            }
            let asking = &self.shared.asking;
            match asking.answer_inputs(requests, call.name(), call).await {
                Ok(responses) => {
                    params.input_responses = (!responses.is_empty()).then_some(responses);
                    params.request_state = answer.request_state;
                }
                Err(why) => {
                    span.failed("_OTHER", None);
                    return ToolResult::error(format!(
                        "the MCP server `{server}` asked for input to `{tool}` that cannot be \
                         given: {why}"
                    ));
                }
            }
        }
        span.failed("_OTHER", None);
        ToolResult::error(format!(
            "the MCP server `{server}` still asked for input to `{tool}` after {MAX_ROUNDS} rounds"
        ))
    }

    /// One `tools/call` of `params`: the server's progress goes to `call`, and the questions
    /// it asks meanwhile (`2025-11-25`) are answered, until its answer (or the error result
    /// of a request that could not be sent).
    async fn round(
        &self,
        params: CallToolRequestParams,
        call: &Invocation<'_>,
        span: &McpSpan,
        registered: &mut Registered<'_>,
    ) -> Result<Answer, ToolResult> {
        let progress = Arc::new(ProgressQueue::new());
        let mut request = ClientRequest::CallToolRequest(Request::new(params));
        request
            .extensions_mut()
            .insert(ProgressSink(Arc::clone(&progress)));
        span.carry(&mut request);
        // At `2026-07-28` each request declares what can be answered for this call.
        let mut options = PeerRequestOptions::no_options();
        if self.shared.modern() {
            let mut meta = RequestMetaObject::new();
            meta.set_client_capabilities(self.shared.asking.capabilities_for(call));
            options = options.with_meta(meta);
        }
        let sent = self.shared.peer.send_request_with_option(request, options);
        let mut handle = match sent.await {
            Ok(handle) => handle,
            Err(error) => {
                span.failed("_OTHER", None);
                let (server, tool) = (&self.shared.name, &self.remote);
                return Err(ToolResult::error(format!(
                    "the tool `{tool}` of the MCP server `{server}` could not be called: {error}"
                )));
            }
        };
        span.sent(&handle.id);
        let mut abandoned = Abandoned {
            shared: &self.shared,
            span,
            id: Some(handle.id.clone()),
            token: handle.progress_token.clone(),
            progress,
        };
        let asking = &self.shared.asking;
        // The question being answered (one at a time: a person answers one after another).
        let mut answering = None;
        let answer = loop {
            tokio::select! {
                biased;
                Some(step) = abandoned.progress.recv() => call.progress(step),
                answer = &mut handle.rx => break answer,
                () = async {
                    if let Some(question) = answering.as_mut() {
                        question.await;
                    }
                }, if answering.is_some() => answering = None,
                Some(question) = registered.questions.recv(), if answering.is_none() => {
                    answering = Some(Box::pin(asking.answer(question, call.name(), call)));
                }
            }
        };
        // Every report the server sent before its answer is in the sink by now (see `Tapped`),
        // and every completion of a URL it asked for.
        while let Some(step) = abandoned.progress.try_recv() {
            call.progress(step);
        }
        abandoned.id = None;
        while let Ok(question) = registered.questions.try_recv() {
            if let Question::Complete(_) = question {
                asking.answer(question, call.name(), call).await;
            }
        }
        Ok(answer)
    }

    /// The result the model reads of the server's `answer`.
    fn result_of(&self, answer: Answer, span: &McpSpan) -> ToolResult {
        let (server, tool) = (&self.shared.name, &self.remote);
        match answer {
            Ok(Ok(ServerResult::CallToolResult(result))) => match serde_json::to_value(&result) {
                Ok(result) => {
                    let result = call_result(&result);
                    span.answered(&result);
                    result
                }
                Err(error) => {
                    span.failed("_OTHER", None);
                    ToolResult::error(format!(
                        "the tool `{tool}` of the MCP server `{server}` answered with a result \
                         toolgen cannot read: {error}"
                    ))
                }
            },
            Ok(Ok(ServerResult::EmptyResult(_))) => ToolResult::text(""),
            Ok(Ok(_)) => {
                span.failed("_OTHER", None);
                ToolResult::error(format!(
                    "the tool `{tool}` of the MCP server `{server}` answered with something \
                     other than a tool's result"
                ))
            }
            Ok(Err(rmcp::ServiceError::McpError(error))) => {
                span.refused(&error);
                ToolResult::error(format!(
                    "the MCP server `{server}` refused the call of `{tool}`: {} ({})",
                    error.message, error.code.0
                ))
            }
            Ok(Err(error)) => {
                span.failed("_OTHER", None);
                ToolResult::error(format!(
                    "the call of `{tool}` on the MCP server `{server}` failed: {error}"
                ))
            }
            Err(_) => {
                span.failed("connection_closed", None);
                ToolResult::error(format!(
                    "the MCP server `{server}` closed the connection while `{tool}` ran"
                ))
            }
        }
    }
}

impl<Ctx: ?Sized> DynamicHandler<Ctx> for McpCall {
    fn handle<'a>(
        &'a self,
        _: &'a Ctx,
        arguments: Value,
        call: &'a Invocation<'a>,
    ) -> DynamicFuture<'a> {
        Box::pin(async move {
            let result = self.forward(arguments, call).await;
            match (result.as_json(), result.is_error()) {
                (Some(value), false) => Ok(value.clone()),
                (None, false) => Ok(Value::String(result.to_text().into_owned())),
                (Some(value), true) => Err(crate::ToolError::json(value.clone())),
                (None, true) => Err(crate::ToolError::new(result.to_text())),
            }
        })
    }

    fn handle_result<'a>(
        &'a self,
        _: &'a Ctx,
        arguments: Value,
        call: &'a Invocation<'a>,
    ) -> CallFuture<'a> {
        Box::pin(self.forward(arguments, call))
    }

    fn timeout(&self) -> Option<Duration> {
        Some(self.timeout)
    }
}

/// An MCP `CallToolResult` (as JSON) as the result the model reads:
/// - `structuredContent`, when there is any, is the result's JSON (the text content beside it
///   is, as the specification asks, the same JSON written out); else the text blocks, joined
///   by blank lines;
/// - images are attached as images, audio and embedded binary resources as files; an embedded
///   text resource's text and a resource link's name and URI are written into the text;
/// - `isError: true` makes it an error result.
pub(crate) fn call_result(result: &Value) -> ToolResult {
    let is_error = result.get("isError").and_then(Value::as_bool) == Some(true);
    let mut texts: Vec<String> = Vec::new();
    let mut images: Vec<(String, String)> = Vec::new();
    let mut files: Vec<(String, String, Option<String>)> = Vec::new();
    let blocks = result.get("content").and_then(Value::as_array);
    for block in blocks.into_iter().flatten() {
        let text_of = |key: &str| block.get(key).and_then(Value::as_str).unwrap_or_default();
        match text_of("type") {
            "text" => texts.push(text_of("text").to_owned()),
            "image" => images.push((text_of("data").to_owned(), text_of("mimeType").to_owned())),
            "audio" => files.push((
                text_of("data").to_owned(),
                text_of("mimeType").to_owned(),
                None,
            )),
            "resource" => {
                let resource = block.get("resource");
                let field = |key: &str| {
                    resource
                        .and_then(|resource| resource.get(key))
                        .and_then(Value::as_str)
                };
                let uri = field("uri").unwrap_or_default();
                if let Some(text) = field("text") {
                    texts.push(format!("[resource {uri}]\n{text}"));
                } else if let Some(blob) = field("blob") {
                    let media_type = field("mimeType").unwrap_or("application/octet-stream");
                    let name = uri.rsplit('/').next().filter(|name| !name.is_empty());
                    files.push((
                        blob.to_owned(),
                        media_type.to_owned(),
                        name.map(str::to_owned),
                    ));
                }
            }
            "resource_link" => {
                let name = text_of("name");
                let uri = text_of("uri");
                texts.push(format!("[resource link: {name} <{uri}>]"));
            }
            _ => {}
        }
    }
    let structured = result
        .get("structuredContent")
        .filter(|structured| !structured.is_null());
    let mut answer = match (structured, is_error) {
        (Some(value), false) => ToolResult::json(value.clone()),
        (Some(value), true) => ToolResult::error_json(value.clone()),
        (None, false) => ToolResult::text(texts.join("\n\n")),
        (None, true) => ToolResult::error(texts.join("\n\n")),
    };
    for (data, media_type) in images {
        answer = answer.with_image(data, media_type);
    }
    for (data, media_type, name) in files {
        answer = answer.with_file(data, media_type, name.as_deref());
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_content_kind_is_mapped() {
        let result = call_result(&json!({"content": [
            {"type": "text", "text": "one"},
            {"type": "image", "data": "iVBO", "mimeType": "image/png"},
            {"type": "audio", "data": "UklG", "mimeType": "audio/wav"},
            {"type": "resource", "resource": {"uri": "file:///a.txt", "text": "inside"}},
            {"type": "resource", "resource": {"uri": "file:///r.pdf", "blob": "JVBE", "mimeType": "application/pdf"}},
            {"type": "resource_link", "uri": "file:///b", "name": "b"},
            {"type": "unknown"}
        ]}));
        assert!(!result.is_error());
        assert_eq!(
            result.to_text(),
            "one\n\n[resource file:///a.txt]\ninside\n\n[resource link: b <file:///b>]"
        );
        let kinds: Vec<_> = result
            .attachments()
            .iter()
            .map(|a| (a.is_image(), a.media_type(), a.name()))
            .collect();
        assert_eq!(
            kinds,
            [
                (true, "image/png", None),
                (false, "audio/wav", None),
                (false, "application/pdf", Some("r.pdf"))
            ]
        );
        let structured = call_result(&json!({"content": [{"type": "text", "text": "{\"a\":1}"}],
            "structuredContent": {"a": 1}, "isError": true}));
        assert!(structured.is_error());
        assert_eq!(structured.as_json(), Some(&json!({"a": 1})));
        assert_eq!(call_result(&json!({})).to_text(), "");
    }

    #[test]
    fn names_are_made_fit_for_providers() {
        assert_eq!(
            offered_name("gh_", "repo.create/issue"),
            "gh_repo_create_issue"
        );
        assert_eq!(offered_name("", &"x".repeat(80)).len(), 64);
    }
}
