//! `McpToolset` as a [`Toolset`] of the [`Runner`], and the runner's MCP-named methods
//! (`with_mcp`, and the deprecated `refresh_mcp`), written over the runner's toolset interface: the runner itself
//! names nothing of MCP.

use std::sync::Arc;

use crate::mcp::client::{McpClientError, McpToolset};
use crate::run::handler::{Dispatch, DynamicHandler};
use crate::run::runner::Runner;
use crate::run::toolset::{RefreshFuture, Toolset};
use crate::tool::dynamic::DynamicTool;

impl<Ctx: ?Sized> Toolset<Ctx> for McpToolset {
    fn listed(&self) -> Vec<(DynamicTool, Arc<dyn DynamicHandler<Ctx>>)> {
        (self.offered().0.into_iter())
            .map(|(tool, call)| (tool, Arc::new(call) as Arc<dyn DynamicHandler<Ctx>>))
            .collect()
    }

    fn list_changed(&self) -> bool {
        McpToolset::list_changed(self)
    }

    fn refresh(&self) -> RefreshFuture<'_> {
        Box::pin(async move { McpToolset::refresh(self).await.map_err(Into::into) })
    }

    fn changes(&self) -> Option<tokio::sync::watch::Receiver<u64>> {
        Some(McpToolset::changes(self))
    }
}

impl<S, Ctx> Runner<S, Ctx>
where
    S: Dispatch<Ctx>,
    Ctx: Sync,
{
    /// Adds the tools of an MCP server ([`McpToolset`]) beside the set's,
    /// each call forwarded to the server, as [`with_tool`](Runner::with_tool) adds one. A name
    /// is taken as there: a set's tool keeps its name, and among run-time tools the one added
    /// last (a server's tool takes the name from a tool added before the toolset, not from
    /// one added after it); give the toolset a [`prefix`](crate::McpToolset::prefix) to offer
    /// both. When the server says its tools changed, the runner lists them again before its
    /// next turn ([`refresh_toolsets`](Runner::refresh_toolsets));
    /// [`with_toolset`](Runner::with_toolset)
    /// does the same for any [`Toolset`].
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// use serde::Deserialize;
    /// use toolgen::{Handler, Invocation, Provider, Runner, Tool, ToolCall, ToolError, ToolSet};
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
    /// // A server (here in process; `McpToolset::stdio` starts one as a child process).
    /// let (server_side, client_side) = tokio::io::duplex(1 << 16);
    /// let server = McpServer::new(Runner::<Tools, ()>::new(()), "calculator", "1.0.0");
    /// tokio::spawn(async move {
    ///     let running = toolgen_runtime::rmcp::ServiceExt::serve(server, server_side).await.unwrap();
    ///     running.waiting().await
    /// });
    ///
    /// let remote = McpToolset::connect(client_side).await.unwrap().prefix("remote_");
    /// let mut runner = Runner::<Tools, ()>::new(()).with_mcp(remote);
    /// assert_eq!(runner.definitions(Provider::Anthropic).as_array().unwrap().len(), 2);
    /// let calls = [
    ///     ToolCall::new("remote_add", r#"{"a": 2, "b": 3}"#).with_id("1"),
    ///     ToolCall::new("remote_add", r#"{"a": "two", "b": 3}"#).with_id("2"),
    /// ];
    /// let turn = runner.run(Provider::OpenAiChat, &calls).await;
    /// assert_eq!(turn.results()[0].to_text(), "5");
    /// assert_eq!(
    ///     turn.results()[1].to_text(),
    ///     "invalid arguments at `a`: invalid type: string \"two\", expected an integer"
    /// );
    /// # });
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
    #[must_use]
    pub fn with_mcp(self, toolset: McpToolset) -> Self {
        self.with_toolset(toolset)
    }

    /// Lists again the tools of every MCP server (and every other toolset) that said they
    /// changed, as [`refresh_toolsets`](Runner::refresh_toolsets) does; the first error, as an
    /// MCP client's (a toolset of your own's error in words, as [`McpClientError::List`]).
    ///
    /// Deprecated: it is `refresh_toolsets` under another name; an MCP server's error is an
    /// [`McpClientError`] there too (`error.downcast::<McpClientError>()`).
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
    #[deprecated(note = "use `Runner::refresh_toolsets`, which this only wraps")]
    pub async fn refresh_mcp(&self) -> Result<(), McpClientError> {
        self.refresh_toolsets()
            .await
            .map_err(|error| match error.downcast::<McpClientError>() {
                Ok(error) => *error,
                Err(other) => McpClientError::List(other.to_string()),
            })
    }

    /// The MCP servers' signals of list changes, one per toolset (an [`McpServer`] over the
    /// runner follows them).
    ///
    /// [`McpServer`]: crate::McpServer
    pub(crate) fn mcp_changes(&self) -> Vec<tokio::sync::watch::Receiver<u64>> {
        self.toolset_changes()
    }
}
