//! Serving a tool set over MCP with rmcp (the official Rust SDK): `tools/list` from the
//! compile-time definitions, `tools/call` run by the [`Runner`]'s machinery, any rmcp transport.

use std::future::poll_fn;
use std::pin::pin;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ResultType, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use crate::call::ToolCall;
use crate::handler::{Cancellation, Dispatch};
use crate::provider::Provider;
use crate::runner::Runner;

/// A tool set served over MCP: an rmcp [`ServerHandler`] whose `tools/list` answers with the
/// set's definitions (and those of tools added at run time, with `outputSchema` from the
/// handlers' outputs), and whose `tools/call` runs the call as the [`Runner`] does (arguments
/// checked with JSON-path errors, timeouts, panics caught, `notifications/cancelled` stopping
/// the handler). An error of the tool is a result with `isError: true`, which the model reads;
/// an unknown tool is a protocol error (`-32602`), as the specification says.
///
/// Serve it on any rmcp transport: `rmcp::transport::stdio()` (feature `mcp` turns on rmcp's
/// `transport-io`), a `tokio::io::duplex` pair in tests, or rmcp's streamable HTTP server.
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
/// // In `main`: `rmcp::ServiceExt::serve(server, rmcp::transport::stdio()).await?.waiting().await?;`
/// ```
pub struct McpServer<S, Ctx> {
    runner: Runner<S, Ctx>,
    tools: Vec<Tool>,
    name: String,
    version: String,
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
        let tools = match runner.definitions(Provider::Mcp) {
            Value::Array(definitions) => definitions
                .into_iter()
                // toolgen's MCP definitions are MCP `Tool`s (the tests hold them against the
                // specification): none is left out in practice.
                .filter_map(|definition| serde_json::from_value(definition).ok())
                .collect(),
            _ => Vec::new(),
        };
        McpServer {
            runner,
            tools,
            name: name.into(),
            version: version.into(),
        }
    }

    /// The tools `tools/list` answers with.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// The runner, and through it the context.
    pub fn runner(&self) -> &Runner<S, Ctx> {
        &self.runner
    }
}

impl<S, Ctx> ServerHandler for McpServer<S, Ctx>
where
    S: Dispatch<Ctx> + 'static,
    Ctx: Send + Sync + 'static,
{
    fn get_info(&self) -> ServerConfig {
        let mut config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        config.server_info = Implementation::new(self.name.clone(), self.version.clone());
        config
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|tool| tool.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !self.tools.iter().any(|tool| tool.name == request.name) {
            let names: Vec<&str> = self.tools.iter().map(|tool| tool.name.as_ref()).collect();
            let error = crate::ArgsError::unknown_tool(&request.name, &names);
            return Err(ErrorData::invalid_params(error.message().to_owned(), None));
        }
        let arguments = request.arguments.map_or_else(
            || "{}".to_owned(),
            |arguments| Value::Object(arguments).to_string(),
        );
        let call = ToolCall::new(request.name.as_ref(), arguments).with_id(context.id.to_string());
        // `notifications/cancelled` cancels the call as a cancelled turn does.
        let turn = Cancellation::new();
        let mut work = pin!(self.runner.one(Provider::Mcp, &call, &turn));
        let mut cancelled = pin!(context.ct.cancelled());
        let mut told = false;
        let (result, _) = poll_fn(|cx| {
            if !told && cancelled.as_mut().poll(cx).is_ready() {
                told = true;
                turn.cancel();
            }
            work.as_mut().poll(cx)
        })
        .await;
        let rendered = result.render(Provider::Mcp, &call);
        let mut result = serde_json::from_value::<CallToolResult>(rendered).map_err(|error| {
            ErrorData::internal_error(format!("the result is not a CallToolResult: {error}"), None)
        })?;
        // 2026-07-28 requires `resultType`; rmcp clears it for peers of older versions.
        result.result_type = Some(ResultType::COMPLETE);
        Ok(CallToolResponse::from(result))
    }
}
