//! Serving a tool set over MCP with rmcp (the official Rust SDK): `tools/list` from the
//! compile-time definitions, `tools/call` run by the [`Runner`]'s machinery, any rmcp transport.

use std::collections::{HashSet, VecDeque};
use std::future::poll_fn;
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock, Weak};
use std::task::Poll;

use futures_util::future::join;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, Implementation, InitializeRequestParams, InitializeResult,
    ListToolsResult, NumberOrString, PaginatedRequestParams, ProgressNotificationParam,
    ProgressToken, ProtocolVersion, ResourceContents, ResultType, ServerCapabilities, ServerConfig,
    ServerNotification, SubscriptionFilter, Tool, ToolListChangedNotification,
};
use rmcp::service::{
    NotificationContext, Peer, RequestContext, RunningService, ServerInitializeError,
    SubscriptionContext,
};
use rmcp::transport::IntoTransport;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use tokio::sync::watch;

use crate::parse::plan::OwnedPlan;
use crate::parse::walk::strip_value;
use crate::provider::Provider;
use crate::run::handler::{CallFuture, Cancellation, Dispatch, Progress};
use crate::run::principal::Principal;
use crate::run::progress::ProgressQueue;
use crate::run::runner::{Origin, Runner};
use crate::tool::dynamic::output_plan;
use crate::wire::call::ToolCall;
use crate::wire::result::{Output, ToolResult};
use crate::wire::set::NoTools;
use elicit::CallElicitor;
use erased::ErasedTransport;
use trace::McpSpan;

mod auth;
pub(crate) mod client;
#[cfg(feature = "oauth")]
mod client_credentials;
mod client_elicit;
mod credentials;
mod elicit;
mod erased;
mod head;
mod http;
#[cfg(feature = "oauth")]
mod introspection;
mod json_reply;
#[cfg(feature = "oauth")]
mod jwt;
mod probe;
mod router;
mod state;
mod stdio;
mod toolset_impl;
mod trace;

pub use auth::{InvalidResource, ResourceServer, TokenError, TokenValidator, ValidateFuture};
pub use client::{McpClientError, McpToolProblem, McpToolset, McpToolsetBuilder};
#[cfg(feature = "oauth")]
pub use client_credentials::ClientCredentials;
pub use client_elicit::McpElicitation;
pub use credentials::{TokenFuture, TokenProvider};
pub use http::{HttpOptions, HttpService};
#[cfg(feature = "oauth")]
pub use introspection::IntrospectionValidator;
#[cfg(feature = "oauth")]
pub use jwt::JwtValidator;
pub use router::Parameters;
pub use stdio::{McpStdio, mcp_stdio};

/// A tool set served over MCP: an rmcp [`ServerHandler`] whose `tools/list` answers with the
/// set's definitions (and those of tools added at run time, with `outputSchema` from the
/// handlers' outputs), and whose `tools/call` runs the call as the [`Runner`] does (arguments
/// checked with JSON-path errors, timeouts, panics caught, `notifications/cancelled` stopping
/// the handler, [`Invocation::progress`](crate::Invocation::progress) reports sent as
/// `notifications/progress`). An error of the tool is a result with `isError: true`, which the
/// model reads; an unknown tool is a protocol error (`-32602`), as the specification says.
///
/// It speaks MCP `2026-07-28` and `2025-11-25`, each by its rules: a non-object
/// `#[tool(output = ..)]` schema, and the `structuredContent` it describes, go only to clients
/// of `2026-07-28`. Tools can be switched off and on while it serves ([`ToolSwitch`]); clients
/// are told with `notifications/tools/list_changed`.
///
/// Serve it on any rmcp transport: toolgen's [`mcp_stdio`] (which answers every line that is
/// not a message, where rmcp's `stdio()` drops some), a `tokio::io::duplex` pair in tests, or
/// streamable HTTP ([`McpServer::serve_http`], with the limits of [`HttpOptions`]). Clones share everything: the runner, the tools and the switch.
///
/// ```
/// use serde::Deserialize;
/// use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
/// use toolgen_runtime::McpServer; // `toolgen::McpServer` with toolgen's feature `mcp`
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
/// let server = McpServer::new(Runner::<Tools, ()>::new(()), "calculator", "1.0.0");
/// assert_eq!(server.tools()[0].name, "add");
/// // In `main`: `server.serve(toolgen::mcp_stdio()).await?.waiting().await?;`
/// ```
///
/// Its set type is [`NoTools`] and its context `()` unless named: the type of a server of
/// run-time tools alone (a gateway to other MCP servers, over
/// [`Runner::without_set`]) is `McpServer`.
///
/// ```
/// use toolgen::Runner;
/// use toolgen_runtime::{McpServer, McpToolset};
///
/// fn gateway(notes: McpToolset) -> McpServer {
///     McpServer::new(Runner::without_set(()).with_mcp(notes.prefix("notes_")), "gateway", "1.0.0")
/// }
/// # drop(gateway);
/// ```
pub struct McpServer<S = NoTools, Ctx = ()> {
    /// What serves: the server with the set's types erased.
    handler: McpHandler,
    /// The runner the handler runs calls with, as its type.
    runner: Arc<Runner<S, Ctx>>,
}

/// An [`McpServer`] with its tool set's and context's types erased: the rmcp [`ServerHandler`]
/// that answers its requests, what [`McpServer::serve`] runs. Its code, and rmcp's service loop
/// built for it, are compiled once, in toolgen, not again in each crate that serves tools.
/// Clones share everything, as the server's do.
///
/// ```
/// use serde::Deserialize;
/// use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
/// use toolgen_runtime::{McpHandler, McpServer};
///
/// /// Say hello.
/// #[derive(Tool, Deserialize)]
/// struct Hello {}
///
/// impl Handler<()> for Hello {
///     type Output = &'static str;
///     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> {
///         Ok("hello")
///     }
/// }
///
/// #[derive(ToolSet)]
/// enum Tools { Hello(Hello) }
///
/// let server = McpServer::new(Runner::<Tools, ()>::new(()), "greeter", "1.0.0");
/// let handler: McpHandler = server.handler().clone();
/// assert_eq!(handler.tools()[0].name, "hello");
/// ```
#[derive(Clone)]
pub struct McpHandler {
    /// The runner, seen through what serving needs of it.
    runner: Arc<dyn Served>,
    /// The tools, as the runner has them now (its MCP servers' lists change).
    listing: Arc<RwLock<Arc<Listing>>>,
    /// Whether a task follows the list changes of the runner's MCP servers.
    following: Arc<AtomicBool>,
    info: Arc<(String, String)>,
    switch: ToolSwitch,
    page_size: usize,
    /// Whether request spans record arguments and results ([`McpServer::trace_values`]).
    trace_values: bool,
    /// The key of the `requestState`s it writes ([`McpServer::with_state_key`]).
    state_key: Arc<state::StateKey>,
}

impl<S, Ctx> Clone for McpServer<S, Ctx> {
    fn clone(&self) -> Self {
        McpServer {
            handler: self.handler.clone(),
            runner: Arc::clone(&self.runner),
        }
    }
}

/// The future of [`McpHandler::serve`].
type Serving = Pin<
    Box<
        dyn Future<Output = Result<RunningService<RoleServer, McpHandler>, ServerInitializeError>>
            + Send,
    >,
>;

/// The future of [`McpHandler::serve_http_erased`].
type ServingHttp<'a> = Pin<Box<dyn Future<Output = std::io::Result<()>> + Send + 'a>>;

/// A boxed future of a [`Served`] runner's.
type ServedFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What an [`McpHandler`] needs of its [`Runner`], whatever its set and context: the one
/// generic piece of a server, a vtable per runner type.
trait Served: Send + Sync {
    /// [`Runner::one_with`] of an MCP request's call, its result alone.
    fn run_one<'a>(
        &'a self,
        call: &'a ToolCall,
        turn: &'a Cancellation,
        progress: Option<&'a (dyn Fn(Progress) + Sync)>,
        origin: Origin<'a>,
    ) -> CallFuture<'a>;

    /// The runner's MCP definitions, every tool with any output schema.
    fn definitions(&self) -> Value;

    /// [`Runner::mcp_changes`]: a watch of each MCP server's list changes.
    fn mcp_changes(&self) -> Vec<watch::Receiver<u64>>;

    /// [`Runner::refresh_toolsets`].
    fn refresh_toolsets(
        &self,
    ) -> ServedFuture<'_, Result<(), Box<dyn std::error::Error + Send + Sync>>>;

    /// [`Runner::scopes_of`]: the scopes a call of the tool `name` needs.
    fn scopes_of(&self, name: &str) -> Vec<std::borrow::Cow<'static, str>>;
}

impl<S, Ctx> Served for Runner<S, Ctx>
where
    S: Dispatch<Ctx> + 'static,
    Ctx: Send + Sync + 'static,
{
    fn run_one<'a>(
        &'a self,
        call: &'a ToolCall,
        turn: &'a Cancellation,
        progress: Option<&'a (dyn Fn(Progress) + Sync)>,
        origin: Origin<'a>,
    ) -> CallFuture<'a> {
        Box::pin(async move {
            (self
                .one_with(Provider::Mcp, call, turn, true, progress, origin)
                .await)
                .0
        })
    }

    fn definitions(&self) -> Value {
        self.definitions_at(Provider::Mcp, true)
    }

    fn mcp_changes(&self) -> Vec<watch::Receiver<u64>> {
        Runner::mcp_changes(self)
    }

    fn refresh_toolsets(
        &self,
    ) -> ServedFuture<'_, Result<(), Box<dyn std::error::Error + Send + Sync>>> {
        Box::pin(Runner::refresh_toolsets(self))
    }

    fn scopes_of(&self, name: &str) -> Vec<std::borrow::Cow<'static, str>> {
        Runner::scopes_of(self, name)
    }
}

impl<S, Ctx> McpServer<S, Ctx>
where
    S: Dispatch<Ctx> + 'static,
    Ctx: Send + Sync + 'static,
{
    /// Serves the tools `runner` runs (its set's, and those added with
    /// [`Runner::with_tool`]), with its timeout, as the server `name` at `version`.
    pub fn new(
        runner: Runner<S, Ctx>,
        name: impl Into<String>,
        version: impl Into<String>,
    ) -> Self {
        let listing = Listing::new(runner.definitions_at(Provider::Mcp, true));
        let runner = Arc::new(runner);
        let served: Arc<dyn Served> = runner.clone();
        McpServer {
            handler: McpHandler {
                runner: served,
                listing: Arc::new(RwLock::new(Arc::new(listing))),
                following: Arc::new(AtomicBool::new(false)),
                info: Arc::new((name.into(), version.into())),
                switch: ToolSwitch::new(),
                page_size: 100,
                trace_values: false,
                state_key: Arc::new(state::StateKey::random()),
            },
            runner,
        }
    }

    /// Switches tools off and on with `switch` (by default the server has its own, which
    /// [`switch`](McpServer::switch) gives): give the same switch to the handlers' context, and
    /// a tool can turn others on (after a login, say).
    ///
    /// ```
    /// # use serde::Deserialize;
    /// # use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
    /// use toolgen_runtime::{McpServer, ToolSwitch};
    ///
    /// /// Log in as an administrator.
    /// #[derive(Tool, Deserialize)]
    /// struct LogIn { password: String }
    /// /// Delete a user.
    /// #[derive(Tool, Deserialize)]
    /// struct DeleteUser { name: String }
    ///
    /// impl Handler<ToolSwitch> for LogIn {
    ///     type Output = &'static str;
    ///     async fn handle(self, switch: &ToolSwitch, _: &Invocation<'_>) -> Result<&'static str, ToolError> {
    ///         if self.password != "hunter2" {
    ///             return Err(ToolError::new("wrong password"));
    ///         }
    ///         switch.enable("delete_user");
    ///         Ok("logged in: `delete_user` is available")
    ///     }
    /// }
    /// # impl Handler<ToolSwitch> for DeleteUser {
    /// #     type Output = String;
    /// #     async fn handle(self, _: &ToolSwitch, _: &Invocation<'_>) -> Result<String, ToolError> { Ok(self.name) }
    /// # }
    /// #[derive(ToolSet)]
    /// enum Admin { LogIn(LogIn), DeleteUser(DeleteUser) }
    ///
    /// let switch = ToolSwitch::new();
    /// switch.disable("delete_user");
    /// let server = McpServer::new(Runner::<Admin, _>::new(switch.clone()), "admin", "1.0.0")
    ///     .with_switch(switch);
    /// assert!(!server.switch().is_enabled("delete_user"));
    /// ```
    #[must_use]
    pub fn with_switch(mut self, switch: ToolSwitch) -> Self {
        self.handler.switch = switch;
        self
    }

    /// How many tools one `tools/list` page holds (100 unless set; at least 1). A client asks
    /// for the next page with the `nextCursor` of the one before (a position in the list: a
    /// tool switched on or off between two pages may shift the rest by one).
    ///
    /// ```
    /// # use serde::Deserialize;
    /// # use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
    /// # use toolgen_runtime::McpServer;
    /// # /// Say hello.
    /// # #[derive(Tool, Deserialize)]
    /// # struct Hello {}
    /// # impl Handler<u32> for Hello {
    /// #     type Output = &'static str;
    /// #     async fn handle(self, _: &u32, _: &Invocation<'_>) -> Result<&'static str, ToolError> { Ok("hello") }
    /// # }
    /// # #[derive(ToolSet)]
    /// # enum Tools { Hello(Hello) }
    /// let server = McpServer::new(Runner::<Tools, u32>::new(7), "greeter", "1.0.0").page_size(20);
    /// assert_eq!(server.tools().len(), 1); // every tool; `tools/list` pages them
    /// assert_eq!(*server.runner().context(), 7);
    /// server.switch().disable("hello"); // off for every client, who is told
    /// ```
    #[must_use]
    pub fn page_size(mut self, tools: usize) -> Self {
        self.handler.page_size = tools.max(1);
        self
    }

    /// Records the arguments and results of `tools/call` on its request span
    /// (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`), which it never does unless
    /// asked: they may hold secrets. The runner's own spans, inside it, follow
    /// [`Runner::trace_values`].
    ///
    /// Each request the server answers runs in a span named and attributed as OpenTelemetry's
    /// MCP conventions say: `tools/call get_weather` or `tools/list`, kind server, with
    /// `mcp.method.name`, `jsonrpc.request.id`, `mcp.session.id` (streamable HTTP),
    /// `mcp.protocol.version`, `network.transport` (`tcp` for HTTP, `pipe` for
    /// [`mcp_stdio`]), `gen_ai.tool.name`, and `error.type` on failure (README, "Tracing").
    ///
    /// ```
    /// # use serde::Deserialize;
    /// # use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
    /// # use toolgen_runtime::McpServer;
    /// # /// Say hello.
    /// # #[derive(Tool, Deserialize)]
    /// # struct Hello {}
    /// # impl Handler<()> for Hello {
    /// #     type Output = &'static str;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> { Ok("hello") }
    /// # }
    /// # #[derive(ToolSet)]
    /// # enum Tools { Hello(Hello) }
    /// let runner = Runner::<Tools, ()>::new(()).trace_values(true);
    /// let server = McpServer::new(runner, "greeter", "1.0.0").trace_values(true);
    /// # drop(server);
    /// ```
    #[cfg(feature = "tracing01")]
    #[cfg_attr(docsrs, doc(cfg(feature = "tracing01")))]
    #[must_use]
    pub fn trace_values(mut self, record: bool) -> Self {
        self.handler.trace_values = record;
        self
    }

    /// Every tool the server has now, switched on or not, as `2026-07-28` lists them (see
    /// [`page_size`](McpServer::page_size) for an example). A gateway's change when its MCP
    /// servers' lists do.
    pub fn tools(&self) -> Vec<Tool> {
        self.handler.tools()
    }

    /// The switch of the server's tools (see [`with_switch`](McpServer::with_switch) and
    /// [`page_size`](McpServer::page_size) for examples).
    pub fn switch(&self) -> &ToolSwitch {
        &self.handler.switch
    }

    /// The runner, and through it the context (see [`page_size`](McpServer::page_size) for an
    /// example).
    pub fn runner(&self) -> &Runner<S, Ctx> {
        &self.runner
    }

    /// The server as a streamable HTTP endpoint, with the checks and limits of `options`: a
    /// tower service that answers MCP at whatever path it is mounted on, one session of this
    /// server (a clone) per client. Mount it in an axum router
    /// (`Router::new().nest_service("/mcp", service)`) or any tower stack, or let
    /// [`serve_http_with`](McpServer::serve_http_with) serve it. [`HttpOptions`] says which
    /// `Host` and `Origin` headers it answers (loopback ones by default: list your public names
    /// and browser origins) and what a client can hold.
    ///
    /// ```
    /// # use serde::Deserialize;
    /// # use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
    /// # use toolgen_runtime::McpServer;
    /// # /// Say hello.
    /// # #[derive(Tool, Deserialize)]
    /// # struct Hello {}
    /// # impl Handler<u32> for Hello {
    /// #     type Output = &'static str;
    /// #     async fn handle(self, _: &u32, _: &Invocation<'_>) -> Result<&'static str, ToolError> { Ok("hello") }
    /// # }
    /// # #[derive(ToolSet)]
    /// # enum Tools { Hello(Hello) }
    /// use toolgen_runtime::HttpOptions;
    ///
    /// let server = McpServer::new(Runner::<Tools, u32>::new(0), "greeter", "1.0.0");
    /// let options = HttpOptions::default()
    ///     .allowed_hosts(["greeter.example.com"])
    ///     .allowed_origins(["https://app.example.com"]);
    /// let service = server.http_service(&options); // axum: `.nest_service("/mcp", service)`
    /// # drop(service);
    /// ```
    pub fn http_service(&self, options: &HttpOptions) -> HttpService {
        HttpService::new(&self.handler, options)
    }

    /// Serves MCP's streamable HTTP on `listener`, at every path, with the default
    /// [`HttpOptions`] (requests to loopback hosts from no browser or a loopback one, as a
    /// local server wants): HTTP/1.1, each connection in its own task, for as long as the
    /// future is polled. For a public server, give your host names and origins to
    /// [`serve_http_with`](McpServer::serve_http_with).
    ///
    /// ```no_run
    /// # use serde::Deserialize;
    /// # use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
    /// # use toolgen_runtime::McpServer;
    /// # /// Say hello.
    /// # #[derive(Tool, Deserialize)]
    /// # struct Hello {}
    /// # impl Handler<()> for Hello {
    /// #     type Output = &'static str;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> { Ok("hello") }
    /// # }
    /// # #[derive(ToolSet)]
    /// # enum Tools { Hello(Hello) }
    /// # async fn run() -> std::io::Result<()> {
    /// let server = McpServer::new(Runner::<Tools, ()>::new(()), "greeter", "1.0.0");
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
    /// server.serve_http(listener).await // clients connect to http://127.0.0.1:8080/mcp
    /// # }
    /// ```
    pub async fn serve_http(self, listener: tokio::net::TcpListener) -> std::io::Result<()> {
        self.serve_http_with(listener, &HttpOptions::default())
            .await
    }

    /// Serves MCP's streamable HTTP on `listener`, at every path, with the checks and limits of
    /// `options` (the connection cap and the header read timeout among them), as
    /// [`serve_http`](McpServer::serve_http) does with the default ones.
    ///
    /// ```no_run
    /// # use serde::Deserialize;
    /// # use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
    /// # use toolgen_runtime::{HttpOptions, McpServer};
    /// # /// Say hello.
    /// # #[derive(Tool, Deserialize)]
    /// # struct Hello {}
    /// # impl Handler<()> for Hello {
    /// #     type Output = &'static str;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> { Ok("hello") }
    /// # }
    /// # #[derive(ToolSet)]
    /// # enum Tools { Hello(Hello) }
    /// # async fn run() -> std::io::Result<()> {
    /// let server = McpServer::new(Runner::<Tools, ()>::new(()), "greeter", "1.0.0");
    /// let options = HttpOptions::default()
    ///     .allowed_hosts(["greeter.example.com"])
    ///     .max_connections(2048);
    /// let listener = tokio::net::TcpListener::bind("0.0.0.0:8080").await?;
    /// server.serve_http_with(listener, &options).await
    /// # }
    /// ```
    pub async fn serve_http_with(
        self,
        listener: tokio::net::TcpListener,
        options: &HttpOptions,
    ) -> std::io::Result<()> {
        self.handler.serve_http_erased(listener, options).await
    }

    /// Serves MCP on `transport` (toolgen's [`mcp_stdio`], or any rmcp transport) until the
    /// client leaves: rmcp's `ServiceExt::serve`, run by the server's [`McpHandler`]. The
    /// transport is boxed, so that rmcp's service loop is compiled once, in toolgen, and not in
    /// each crate that serves tools; every message it carries then goes through one more
    /// boxed future.
    ///
    /// ```no_run
    /// # use serde::Deserialize;
    /// # use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
    /// # use toolgen_runtime::{McpServer, mcp_stdio};
    /// # /// Say hello.
    /// # #[derive(Tool, Deserialize)]
    /// # struct Hello {}
    /// # impl Handler<()> for Hello {
    /// #     type Output = &'static str;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> { Ok("hello") }
    /// # }
    /// # #[derive(ToolSet)]
    /// # enum Tools { Hello(Hello) }
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let server = McpServer::new(Runner::<Tools, ()>::new(()), "greeter", "1.0.0");
    /// server.serve(mcp_stdio()).await?.waiting().await?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn serve<T, E, A>(
        self,
        transport: T,
    ) -> impl Future<Output = Result<RunningService<RoleServer, McpHandler>, ServerInitializeError>> + Send
    where
        T: IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        self.handler.serve(transport)
    }

    /// The server's [`McpHandler`]: what serves, the set's types erased (see there).
    pub fn handler(&self) -> &McpHandler {
        &self.handler
    }
}

impl McpHandler {
    /// Serves MCP on `transport`, as [`McpServer::serve`] does (see there).
    pub fn serve<T, E, A>(
        self,
        transport: T,
    ) -> impl Future<Output = Result<RunningService<RoleServer, McpHandler>, ServerInitializeError>> + Send
    where
        T: IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        self.serve_erased(ErasedTransport::new(transport.into_transport()))
    }

    /// [`serve`](McpHandler::serve) on the boxed transport: rmcp's service loop, built here
    /// once. (Boxed: a future returned as it is would be polled, and so built, in the crate
    /// that awaits it.)
    fn serve_erased(self, transport: ErasedTransport) -> Serving {
        Box::pin(rmcp::serve_server(self, transport))
    }

    /// Streamable HTTP on `listener` with `options`, as [`McpServer::serve_http_with`] serves
    /// it: the listener loop, hyper's connections and the service's futures, boxed here so that
    /// they are built once, in toolgen. (An `async fn`'s body is compiled where it is polled:
    /// awaited as it is from the generic shim, the whole HTTP server was built again in each
    /// crate that serves over HTTP; README's "In detail" has the counts.)
    fn serve_http_erased<'a>(
        &self,
        listener: tokio::net::TcpListener,
        options: &'a HttpOptions,
    ) -> ServingHttp<'a> {
        Box::pin(http::serve(
            HttpService::new(self, options),
            listener,
            options,
        ))
    }

    /// Every tool the server has now, switched on or not, as `2026-07-28` lists them (see
    /// [`McpServer::tools`]).
    pub fn tools(&self) -> Vec<Tool> {
        self.listing().tools.clone()
    }

    /// The tools, as the runner has them now.
    fn listing(&self) -> Arc<Listing> {
        Arc::clone(&self.listing.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Starts following the runner's MCP servers (a gateway's), once: when one says its tools
    /// changed, the runner lists them again, the server lists what it has then, and its
    /// clients are told with `notifications/tools/list_changed`. (Started as the first client
    /// comes, when the server has its switch and a runtime.)
    fn follow_upstreams(&self) {
        let changes = self.runner.mcp_changes();
        if changes.is_empty() || self.following.swap(true, Ordering::SeqCst) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            self.following.store(false, Ordering::SeqCst);
            return;
        };
        let runner = Arc::downgrade(&self.runner);
        let listing = Arc::downgrade(&self.listing);
        runtime.spawn(follow(runner, listing, self.switch.clone(), changes));
    }
}

/// The tools an [`McpServer`] lists, as its runner has them at one time.
struct Listing {
    /// Every tool, in the form `2026-07-28` takes.
    tools: Vec<Tool>,
    /// The plan of each tool's output schema, in the order of `tools`, where it has one: what
    /// leaves the `null`s the schema does not take out of its structured content.
    outputs: Vec<Option<OwnedPlan>>,
}

impl Listing {
    /// The tools of a runner's MCP `definitions`.
    fn new(definitions: Value) -> Listing {
        let tools: Vec<Tool> = match definitions {
            Value::Array(definitions) => definitions
                .into_iter()
                // toolgen's MCP definitions are MCP `Tool`s (the tests hold them against the
                // specification): none is left out in practice.
                .filter_map(|definition| {
                    let tool = serde_json::from_value(definition);
                    debug_assert!(tool.is_ok(), "not an MCP Tool: {tool:?}");
                    tool.ok()
                })
                .collect(),
            _ => Vec::new(),
        };
        let outputs = tools
            .iter()
            .map(|tool| {
                let schema = tool.output_schema.as_ref()?;
                Some(output_plan(&Value::Object(schema.as_ref().clone())))
            })
            .collect();
        Listing { tools, outputs }
    }

    /// The tools `switch` has on, each with the plan of its output schema, if it has one.
    fn enabled<'l>(
        &'l self,
        switch: &'l ToolSwitch,
    ) -> impl Iterator<Item = (&'l Tool, Option<&'l OwnedPlan>)> {
        (self.tools.iter().zip(self.outputs.iter()))
            .filter(|(tool, _)| switch.is_enabled(&tool.name))
            .map(|(tool, output)| (tool, output.as_ref()))
    }
}

/// Follows the list changes of a gateway's MCP servers (`changes`, one per toolset), for as
/// long as its runner lives: the runner lists the tools again, `listing` takes them, and the
/// clients are told through `switch`. A listing that fails is tried again a second later (the
/// toolset stays stale), three times at most, then at the next change.
async fn follow(
    runner: Weak<dyn Served>,
    listing: Weak<RwLock<Arc<Listing>>>,
    switch: ToolSwitch,
    mut changes: Vec<watch::Receiver<u64>>,
) {
    while !changes.is_empty() {
        let waits = changes.iter_mut().map(|change| Box::pin(change.changed()));
        let (changed, index, _) = futures_util::future::select_all(waits).await;
        if changed.is_err() {
            // (That toolset is gone.)
            changes.swap_remove(index);
            continue;
        }
        let (Some(runner), Some(listing)) = (runner.upgrade(), listing.upgrade()) else {
            return;
        };
        for _ in 0..3 {
            if runner.refresh_toolsets().await.is_ok() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
        let fresh = Arc::new(Listing::new(runner.definitions()));
        *listing.write().unwrap_or_else(PoisonError::into_inner) = fresh;
        switch.changed();
    }
}

/// Who made a request, where the HTTP layer's authorization found out (see
/// [`HttpOptions::authorization`]).
pub(super) fn principal_of(context: &RequestContext<RoleServer>) -> Option<&Principal> {
    let parts = context.extensions.get::<::http::request::Parts>()?;
    parts.extensions.get::<Arc<Principal>>().map(Arc::as_ref)
}

/// `tool` as a client of `version` lists it: before `2026-07-28`, an `outputSchema` describes
/// an object, and any other is left out.
fn listed(tool: &Tool, version: Option<&ProtocolVersion>) -> Tool {
    let mut tool = tool.clone();
    if is_legacy(version) && tool.output_schema.as_ref().is_some_and(|s| !is_object(s)) {
        tool.output_schema = None;
    }
    tool
}

/// Whether a client speaks a version before `2026-07-28` (no version: the oldest rules).
fn is_legacy(version: Option<&ProtocolVersion>) -> bool {
    version.is_none_or(|version| *version < ProtocolVersion::V_2026_07_28)
}

/// Whether an output schema says its value is an object, as `2025-11-25` requires.
fn is_object(schema: &serde_json::Map<String, Value>) -> bool {
    schema.get("type").is_some_and(|kind| kind == "object")
}

/// The message of an invalid-params error for a request of `method` whose `params` rmcp could
/// not read (over HTTP, stdio and any transport alike).
pub(crate) fn params_problem(method: &str, params: Option<&Value>) -> String {
    let problem = if method != "tools/call" {
        "they do not fit the method"
    } else if let Some(Value::Object(params)) = params {
        match (params.get("name"), params.get("arguments")) {
            (None, _) => "`name` is missing",
            (Some(name), _) if !name.is_string() => "`name` must be a string",
            (_, Some(arguments)) if !arguments.is_object() && !arguments.is_null() => {
                "`arguments` must be an object"
            }
            _ => "they do not fit `CallToolRequestParams`",
        }
    } else {
        "`params` must be an object with the tool's `name`"
    };
    format!("invalid params of `{method}`: {problem}")
}

/// The id of a message rmcp refused, where it can be read (a string or an integer, as MCP's
/// `RequestId`), else `null` (JSON-RPC's id for "unknown").
pub(crate) fn readable_id(id: Option<&Value>) -> Value {
    match id {
        Some(id) if id.is_string() || id.is_i64() || id.is_u64() => id.clone(),
        _ => Value::Null,
    }
}

/// For a message rmcp refused that is a request in form (`"jsonrpc": "2.0"`, a string
/// `method`, the readable `id`): the message of its invalid-params error, since what rmcp could
/// not take is then its parameters. Over HTTP and stdio alike.
pub(crate) fn invalid_params(
    message: &serde_json::Map<String, Value>,
    id: &Value,
) -> Option<String> {
    match (
        message.get("jsonrpc").and_then(Value::as_str),
        message.get("method").and_then(Value::as_str),
    ) {
        (Some("2.0"), Some(method)) if !id.is_null() => {
            Some(params_problem(method, message.get("params")))
        }
        _ => None,
    }
}

/// rmcp's `CallToolResult` of `result`, for a client of a version before `2026-07-28` or not.
fn call_tool_result(
    result: ToolResult,
    legacy: bool,
    output_plan: Option<&OwnedPlan>,
) -> CallToolResult {
    let (output, is_error, attachments) = result.into_parts();
    // A tool with an output schema gives structured content that matches it: any JSON value
    // from 2026-07-28 on (a string output goes out as text only before). An object is
    // structured content for every version.
    let any_structured = !legacy && output_plan.is_some() && !is_error;
    let (text, structured_content) = match output {
        Output::Json(mut value) => {
            // serde writes an `Option` field's `None` as `null`, where the schema has the field
            // optional and not nullable (as it is written by default): left out, the content
            // matches the schema that clients check it against.
            if let Some(plan) = output_plan.filter(|_| !is_error) {
                strip_value(&mut value, plan.root());
            }
            // (Written straight into a buffer: faster than `Display`'s formatter.)
            let text = serde_json::to_string(&value).unwrap_or_default();
            let structured = (any_structured || value.is_object()).then_some(value);
            (text, structured)
        }
        Output::Text(text) if any_structured => (text.clone(), Some(Value::String(text))),
        Output::Text(text) => (text, None),
    };
    let mut content = Vec::with_capacity(1 + attachments.len());
    content.push(ContentBlock::text(text));
    for (index, attachment) in attachments.iter().enumerate() {
        content.push(if attachment.is_image() {
            ContentBlock::image(attachment.data(), attachment.media_type())
        } else {
            let uri = crate::wire::mcp::attachment_uri(attachment, index);
            ContentBlock::resource(
                ResourceContents::blob(attachment.data(), uri)
                    .with_mime_type(attachment.media_type()),
            )
        });
    }
    let mut answer = CallToolResult::success(content);
    answer.structured_content = structured_content;
    // (Left out on success, as toolgen's `mcp_response` writes it.)
    answer.is_error = is_error.then_some(true);
    // 2026-07-28 requires `resultType`; rmcp clears it for peers of older versions.
    answer.result_type = Some(ResultType::COMPLETE);
    answer
}

impl McpHandler {
    /// Answers `tools/call`: the call of `request` run by the runner, with the progress
    /// reports and the cancellation of the request in `context`. `McpServer`'s own `call_tool`
    /// and each route of [`McpServer::tool_router`] answer with it.
    pub(crate) async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let span = McpSpan::server(
            "tools/call",
            Some(&request.name),
            &context,
            self.trace_values,
        );
        let listing = self.listing();
        let found = (listing.enabled(&self.switch)).find(|(tool, _)| tool.name == request.name);
        let Some((_, output)) = found else {
            let enabled = listing.enabled(&self.switch);
            let names: Vec<&str> = enabled.map(|(tool, _)| tool.name.as_ref()).collect();
            let error = crate::ArgsError::unknown_tool(&request.name, &names);
            let error = ErrorData::invalid_params(error.message().to_owned(), None);
            span.refused(&error);
            return Err(error);
        };
        // (A map writes to a string without fail.) The map is dropped at once: a large call
        // holds two copies of its arguments, not three.
        let arguments = match request.arguments {
            Some(arguments) => serde_json::to_string(&arguments).unwrap_or_default(),
            None => "{}".to_owned(),
        };
        span.arguments(&arguments);
        let mut call = ToolCall::new(request.name.into_owned(), arguments);
        call.id = Some(match &context.id {
            NumberOrString::Number(number) => number.to_string(),
            NumberOrString::String(id) => id.to_string(),
        });
        // One signal for the call: a `notifications/cancelled` gives it, and the handler sees it.
        let turn = Cancellation::new();
        let principal = principal_of(&context);
        let legacy = is_legacy(context.protocol_version().as_ref());
        let capability = context.client_capabilities().and_then(|c| c.elicitation);
        let elicitor = if legacy {
            CallElicitor::asking(context.peer.clone(), context.id.clone(), capability)
        } else {
            let subject = principal.and_then(Principal::subject);
            let binding = state::binding(&call.name, &call.arguments, subject);
            let rounds = (request.request_state.as_deref(), request.input_responses);
            let key = Arc::clone(&self.state_key);
            match CallElicitor::in_rounds(context.peer.clone(), capability, rounds, key, binding) {
                Ok(elicitor) => elicitor,
                Err(error) => {
                    span.refused(&error);
                    return Err(error);
                }
            }
        };
        let origin = Origin {
            principal,
            elicitor: Some(&elicitor),
        };
        let run = async {
            match context.meta.get_progress_token() {
                None => self.runner.run_one(&call, &turn, None, origin).await,
                // (Boxed: the call's future stays small on the common way.)
                Some(token) => {
                    let peer = &context.peer;
                    let run = self.run_reporting(&call, &turn, token, peer, origin);
                    Box::pin(run).await
                }
            }
        };
        // `notifications/cancelled` cancels the call as a cancelled turn does.
        let mut run = pin!(span.instrument(run));
        let mut cancelled = pin!(context.ct.cancelled());
        let mut told = false;
        let result = poll_fn(|cx| {
            if !told && cancelled.as_mut().poll(cx).is_ready() {
                told = true;
                turn.cancel();
            }
            match run.as_mut().poll(cx) {
                Poll::Ready(result) => Poll::Ready(Ok(result)),
                // At `2026-07-28`, a question not yet answered ends the round (the call, whose
                // handler waits for the answer, is dropped: it runs again with it).
                Poll::Pending => match elicitor.input_required() {
                    Some(needed) => Poll::Ready(Err(needed)),
                    None => Poll::Pending,
                },
            }
        })
        .await;
        // A handler that required a page ends the call asking for it.
        let ending = match result {
            Ok(result) => elicitor.required().map_or(Ok(result), Err),
            Err(needed) => Err(Ok(needed)),
        };
        let result = match ending {
            Ok(result) => result,
            Err(Ok(needed)) => {
                span.input_required(&needed);
                return Ok(CallToolResponse::InputRequired(needed));
            }
            Err(Err(error)) => {
                span.refused(&error);
                return Err(error);
            }
        };
        span.answered(&result);
        Ok(CallToolResponse::from(call_tool_result(
            result, legacy, output,
        )))
    }

    /// Runs `call` with its progress reports sent as `notifications/progress` with `token`.
    async fn run_reporting(
        &self,
        call: &ToolCall,
        turn: &Cancellation,
        token: ProgressToken,
        peer: &Peer<RoleServer>,
        origin: Origin<'_>,
    ) -> ToolResult {
        // Progress goes out in order and before the result, each report saying more than the
        // one before (as the specification requires; others are dropped, as are values that
        // are not finite). Those a handler makes faster than they go out wait, up to
        // `progress::CAPACITY` (a gateway's far end's reports before its answer are kept), the
        // oldest dropped past it: the newest say the most, and memory stays bounded.
        // Nothing goes out once cancelled.
        let reports = ProgressQueue::new();
        let work = async {
            let last = Mutex::new(f64::NEG_INFINITY);
            let sink = |step: Progress| {
                let mut last = lock(&last);
                let progress = step.progress;
                if progress.is_finite() && progress > *last && reports.push(step) {
                    *last = progress;
                }
            };
            let sink: &(dyn Fn(Progress) + Sync) = &sink;
            let result = self.runner.run_one(call, turn, Some(sink), origin).await;
            reports.close();
            result
        };
        let forward = async {
            // (Ends when the work does: it closes the queue.)
            while let Some(step) = reports.recv().await {
                if turn.is_cancelled() {
                    continue;
                }
                let mut param = ProgressNotificationParam::new(token.clone(), step.progress);
                param.total = step.total.filter(|total| total.is_finite());
                param.message = step.message;
                let _ = peer.notify_progress(param).await;
            }
        };
        join(work, forward).await.0
    }
}

impl ServerHandler for McpHandler {
    fn get_info(&self) -> ServerConfig {
        // (Asked at each handshake, `initialize` or `server/discover`.)
        self.follow_upstreams();
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        let mut config = ServerConfig::new(capabilities);
        config.server_info = Implementation::new(self.info.0.clone(), self.info.1.clone());
        config
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        // rmcp's own `initialize`, in the request's span.
        let span = McpSpan::server("initialize", None, &context, false);
        context.peer.set_peer_info(request.clone());
        let answer = self.negotiate_initialize(&request);
        if let Err(error) = &answer {
            span.refused(error);
        }
        answer
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let span = McpSpan::server("tools/list", None, &context, false);
        let listing = self.listing();
        let tools: Vec<&Tool> = listing
            .enabled(&self.switch)
            .map(|(tool, _)| tool)
            .collect();
        let start = match request.and_then(|request| request.cursor) {
            None => 0,
            Some(cursor) => match cursor.parse::<usize>() {
                // (Past the end, after tools were switched off: an empty last page.)
                Ok(start) if start > 0 => start.min(tools.len()),
                _ => {
                    let error = ErrorData::invalid_params(
                        format!("invalid cursor `{cursor}`: use the `nextCursor` of a page"),
                        None,
                    );
                    span.refused(&error);
                    return Err(error);
                }
            },
        };
        let end = start.saturating_add(self.page_size).min(tools.len());
        let version = context.protocol_version();
        let page = tools.get(start..end).unwrap_or_default();
        let page = page.iter().map(|tool| listed(tool, version.as_ref()));
        let mut page = ListToolsResult::with_all_items(page.collect());
        if end < tools.len() {
            page.next_cursor = Some(end.to_string());
        }
        Ok(page)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let listing = self.listing();
        let mut enabled = listing.enabled(&self.switch);
        enabled
            .find(|(tool, _)| tool.name == name)
            .map(|(tool, _)| tool.clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call(request, context).await
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        // rmcp reads a known method whose parameters it cannot read as a method of its own,
        // which would be answered "method not found" (`-32601`); JSON-RPC says invalid params.
        Err(match request.method.as_str() {
            // (Only the tools methods: any other, `initialize` among them, stays "not found",
            // as at a version that does not have it.)
            "tools/call" | "tools/list" => ErrorData::invalid_params(
                params_problem(&request.method, request.params.as_ref()),
                None,
            ),
            // (rmcp's own answer: the method's name.)
            method => ErrorData::new(ErrorCode::METHOD_NOT_FOUND, method.to_owned(), None),
        })
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        // A client of 2025-11-25 (which says `initialized`) is told of changes directly.
        self.switch.listen_legacy(context.peer);
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::new();
        accepted.tools_list_changed = requested.tools_list_changed;
        // rmcp acknowledges the subscription next, then calls `listen`: a change in between
        // must not be missed, so the watch starts here.
        self.switch.watch_from_now();
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        // A client of 2026-07-28 is told of changes on the `subscriptions/listen` stream it
        // opened.
        let mut changes = self.switch.watched();
        if context.accepted().tools_list_changed != Some(true) {
            // Nothing this server sends was asked for: the stream stays open, quiet.
            context.cancelled().await;
            return Ok(());
        }
        loop {
            tokio::select! {
                () = context.cancelled() => return Ok(()),
                changed = changes.changed() => {
                    if changed.is_err() {
                        return Ok(());
                    }
                    let notification = ServerNotification::ToolListChangedNotification(
                        ToolListChangedNotification::default(),
                    );
                    if context.sink().send(notification).await.is_err() {
                        return Ok(());
                    }
                }
            }
        }
    }
}

// (For `rmcp::ServiceExt::serve(server, ..)` and any rmcp code that takes a `ServerHandler`:
// `McpServer::serve` serves its handler instead, so that rmcp's service loop is not built again
// for every set.)
impl<S, Ctx> ServerHandler for McpServer<S, Ctx>
where
    S: Dispatch<Ctx> + 'static,
    Ctx: Send + Sync + 'static,
{
    fn get_info(&self) -> ServerConfig {
        self.handler.get_info()
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        self.handler.initialize(request, context).await
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.handler.list_tools(request, context).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.handler.get_tool(name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.handler.call(request, context).await
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        self.handler.on_custom_request(request, context).await
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.handler.on_initialized(context).await;
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.handler.accepted_subscription_filter(requested)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        self.handler.listen(context).await
    }
}

/// Which tools of an [`McpServer`] are switched on, changed while it serves (by auth, by the
/// state of a workflow): every client is told with `notifications/tools/list_changed` (a
/// client of `2025-11-25` directly, one of `2026-07-28` on its `subscriptions/listen`
/// stream), and a call of a tool switched off is answered as a call of an unknown tool.
/// Every tool is on until switched off. Clones share one state.
///
/// ```
/// let switch = toolgen_runtime::ToolSwitch::new();
/// assert!(switch.is_enabled("delete_post"));
/// assert!(switch.disable("delete_post"));
/// assert!(!switch.disable("delete_post")); // no change: no notification
/// assert!(!switch.clone().is_enabled("delete_post"));
/// switch.enable("delete_post");
/// assert!(switch.is_enabled("delete_post"));
/// ```
#[derive(Clone, Debug)]
pub struct ToolSwitch {
    inner: Arc<SwitchState>,
}

#[derive(Debug)]
struct SwitchState {
    disabled: Mutex<HashSet<String>>,
    /// Counts the changes; a clients' listener waits on it.
    changes: watch::Sender<u64>,
    /// The clients of `2025-11-25`, told of changes directly.
    legacy: Mutex<Vec<(Peer<RoleServer>, tokio::runtime::Handle)>>,
    /// Watches of the changes started for subscriptions about to listen, oldest first.
    watches: Mutex<VecDeque<watch::Receiver<u64>>>,
}

/// `mutex`'s guard, poisoned or not (nothing here is left half-done by a panic).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Default for ToolSwitch {
    fn default() -> Self {
        ToolSwitch::new()
    }
}

impl ToolSwitch {
    /// A switch with every tool on (the example of [`ToolSwitch`] shows its methods).
    pub fn new() -> Self {
        ToolSwitch {
            inner: Arc::new(SwitchState {
                disabled: Mutex::new(HashSet::new()),
                changes: watch::Sender::new(0),
                legacy: Mutex::new(Vec::new()),
                watches: Mutex::new(VecDeque::new()),
            }),
        }
    }

    /// Switches the tool `name` on; whether that changed anything (clients are told if so).
    pub fn enable(&self, name: &str) -> bool {
        let changed = self.disabled().remove(name);
        if changed {
            self.changed();
        }
        changed
    }

    /// Switches the tool `name` off; whether that changed anything (clients are told if so).
    pub fn disable(&self, name: &str) -> bool {
        let changed = self.disabled().insert(name.to_owned());
        if changed {
            self.changed();
        }
        changed
    }

    /// Whether the tool `name` is on.
    pub fn is_enabled(&self, name: &str) -> bool {
        !self.disabled().contains(name)
    }

    fn disabled(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        lock(&self.inner.disabled)
    }

    /// Starts a watch of the changes for the `listen` to come (see
    /// [`McpServer::accepted_subscription_filter`]).
    fn watch_from_now(&self) {
        let mut watches = lock(&self.inner.watches);
        // (Only a subscription that failed between the two leaves its watch here.)
        if watches.len() >= 64 {
            watches.pop_front();
        }
        watches.push_back(self.inner.changes.subscribe());
    }

    /// A watch at least as old as the subscription that takes it, started before it was
    /// acknowledged: the oldest one. Subscriptions of several clients may interleave, so the
    /// oldest stays for those still to come and the newest goes (one per subscription). An
    /// older watch at most tells of a change the client has seen, which is harmless.
    fn watched(&self) -> watch::Receiver<u64> {
        let mut watches = lock(&self.inner.watches);
        let oldest = watches.front().cloned();
        watches.pop_back();
        oldest.unwrap_or_else(|| self.inner.changes.subscribe())
    }

    /// Tells every client of a change.
    fn changed(&self) {
        self.inner
            .changes
            .send_modify(|count| *count = count.wrapping_add(1));
        let mut legacy = lock(&self.inner.legacy);
        legacy.retain(|(peer, _)| !peer.is_transport_closed());
        for (peer, runtime) in legacy.iter() {
            let peer = peer.clone();
            runtime.spawn(async move {
                let _ = peer.notify_tool_list_changed().await;
            });
        }
    }

    /// Tells `peer` (a client of `2025-11-25`) of every change from now on, while it is
    /// connected.
    fn listen_legacy(&self, peer: Peer<RoleServer>) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let mut legacy = lock(&self.inner.legacy);
        legacy.retain(|(peer, _)| !peer.is_transport_closed());
        legacy.push((peer, runtime));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::call_tool_result;
    use crate::tool::dynamic::output_plan;
    use crate::wire::result::ToolResult;

    /// An output schema with optional properties that do not take `null` at every depth it
    /// describes: properties, items, map values, `$ref`s (one leading back to the root), an
    /// `Option`'s `anyOf`, a described `$ref` in an `allOf` (as schemars writes one), beside properties that take `null`, are required or have a default.
    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "note": {"type": "string"},
                "maybe": {"type": ["string", "null"]},
                "must": {"type": "string"},
                "level": {"type": ["integer", "null"], "default": 3},
                "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
                "by_name": {"type": "object", "additionalProperties": {"$ref": "#/$defs/Item"}},
                "picked": {"anyOf": [{"$ref": "#/$defs/Item"}, {"type": "null"}]},
                "described": {"allOf": [{"$ref": "#/$defs/Item"}], "description": "Its item."},
                "next": {"$ref": "#"}
            },
            "required": ["must", "items"],
            "$defs": {
                "Item": {
                    "type": "object",
                    "properties": {"label": {"type": "string"}, "size": {"type": "integer"}},
                    "required": ["size"]
                }
            }
        })
    }

    fn structured(output: Value, error: bool) -> Option<Value> {
        let plan = output_plan(&schema());
        let result = match error {
            false => ToolResult::json(output),
            true => ToolResult::error_json(output),
        };
        call_tool_result(result, false, Some(&plan)).structured_content
    }

    #[test]
    fn the_nulls_an_output_schema_does_not_take_are_left_out_at_every_depth() {
        let item = json!({"label": null, "size": null});
        let output = json!({
            "note": null, "maybe": null, "must": null, "level": null,
            "items": [item, {"label": "a", "size": 1}],
            "by_name": {"x": item},
            "picked": item,
            "described": item,
            "next": {"note": null, "must": "deep", "items": [item], "next": null, "described": null}
        });
        let kept = json!({"size": null});
        assert_eq!(
            structured(output.clone(), false),
            Some(json!({
                "maybe": null, "must": null, "level": null,
                "items": [kept, {"label": "a", "size": 1}],
                "by_name": {"x": kept},
                "picked": kept,
                "described": kept,
                "next": {"must": "deep", "items": [kept]}
            }))
        );
        // An error's content is not the output the schema describes: left as it is.
        assert_eq!(structured(output.clone(), true), Some(output));
    }

    /// The size of what `make` returns, without calling it.
    fn size_of_output<A, F>(_: impl FnOnce(A) -> F) -> usize {
        std::mem::size_of::<F>()
    }

    #[test]
    fn serve_http_awaits_a_boxed_server() {
        use super::{HttpOptions, McpServer};
        use crate::wire::set::NoTools;
        use tokio::net::TcpListener;
        type Server = McpServer<NoTools, ()>;
        // The generic shims' futures hold what they were given (at most twice: as arguments,
        // and moved into the call they make), the default options, and a box. The HTTP
        // server's own state (the listener loop's waits, hyper's connections) is in the box,
        // built here once: held as it is, it was compiled again in every crate that polls a
        // shim, an `async fn`'s body being compiled where it is polled (592 bytes then, for
        // `serve_http_with`; 224 now).
        let held = 2 * (size_of::<Server>() + size_of::<TcpListener>()) + 64;
        let serve_http_with = size_of_output(
            |(server, listener, options): (Server, TcpListener, &HttpOptions)| {
                server.serve_http_with(listener, options)
            },
        );
        let serve_http =
            size_of_output(|(server, listener): (Server, TcpListener)| server.serve_http(listener));
        assert!(
            serve_http_with <= held,
            "serve_http_with's future: {serve_http_with} bytes, more than {held}"
        );
        let most = held + size_of::<HttpOptions>() + serve_http_with;
        assert!(
            serve_http <= most,
            "serve_http's future: {serve_http} bytes, more than {most}"
        );
    }
}
