//! toolgen under rmcp's own routers: an extractor that parses a tool's arguments with toolgen
//! ([`Parameters`]), and the tools of an [`McpServer`] as routes of an rmcp [`ToolRouter`].

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::CallToolRequestParams;
use serde_json::Value;

use super::{McpHandler, McpServer, listed};
use crate::run::handler::Dispatch;
use crate::tool::Tool;

/// What rmcp's `ToolRouter::call` looks for at the start of an extractor's invalid-params error
/// to answer it as the tool's error (`isError: true`, the message as its text), which the model
/// reads; any other error of an extractor is a JSON-RPC error, which the model never sees.
/// (rmcp 3.11, `handler/server/router/tool.rs`; `tests/rmcp_router.rs` holds it.)
const ARGUMENTS_ERROR: &str = "failed to deserialize parameters:";

/// The arguments of a tool of an rmcp `#[tool_router]` server, parsed by toolgen: the extractor
/// to use in place of rmcp's own `Parameters<T>`, for a `T` that derives [`Tool`].
///
/// rmcp's `Parameters<T>` parses with serde alone, so toolgen's checks do not run there: a
/// `#[tool(range(..))]`, `length`, `pattern` or `format` is not enforced, a `#[tool(default)]`
/// without `#[serde(default)]` is a missing field, a `null` for a field with a default (strict
/// mode's way of leaving it out) is a wrong type, and an error has no JSON path. This one parses
/// as [`Tool::parse_value`] does, and a failure is the tool's error
/// result (`isError: true`), its text toolgen's JSON-path error after rmcp's
/// `failed to deserialize parameters: ` (the mark rmcp answers that way on; any other error of
/// an extractor is a protocol error, which the model does not see).
///
/// Its name is rmcp's on purpose: `#[tool]` takes the input schema of the argument whose type
/// is named `Parameters`, and with the feature `schemars1` this one's is toolgen's schema of
/// `T` (as for rmcp's `Parameters<T>` of a toolgen type).
///
/// ```
/// # #[cfg(feature = "schemars1")] {
/// use toolgen::Tool;
/// use toolgen_runtime::Parameters; // `toolgen::Parameters`, features `mcp` and `schemars1`
/// use toolgen_runtime::rmcp::handler::server::common::schema_for_input;
///
/// /// Search the catalogue.
/// #[derive(Tool, serde::Deserialize)]
/// struct Search {
///     query: String,
///     #[tool(range(min = 1, max = 50), default = 10)]
///     limit: u32,
/// }
///
/// // In a `#[tool_router]` impl:
/// // #[tool]
/// // async fn search(&self, Parameters(search): Parameters<Search>) -> String { .. }
/// let schema = schema_for_input::<Parameters<Search>>().unwrap();
/// assert_eq!(schema["properties"]["limit"]["maximum"], 50);
/// # }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Parameters<T>(pub T);

// #[tool] async fn search(&self, Parameters(search): Parameters<Search>)
impl<S, T: Tool> FromContextPart<ToolCallContext<'_, S>> for Parameters<T> {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let arguments = Value::Object(context.arguments.take().unwrap_or_default());
        match T::parse_value(arguments) {
            Ok(arguments) => Ok(Parameters(arguments)),
            Err(error) => Err(ErrorData::invalid_params(
                format!("{ARGUMENTS_ERROR} {error}"),
                None,
            )),
        }
    }
}

// The schema is the one schemars has of `T`: toolgen's, with the feature `schemars1`.
#[cfg(feature = "schemars1")]
impl<T: schemars::JsonSchema> schemars::JsonSchema for Parameters<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }

    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

impl<S, Ctx> McpServer<S, Ctx>
where
    S: Dispatch<Ctx> + 'static,
    Ctx: Send + Sync + 'static,
{
    /// The server's tools as an rmcp [`ToolRouter`], to add to the router of a `#[tool_router]`
    /// impl (`Self::tool_router() + tools.tool_router()`), so that one rmcp `ServerHandler`
    /// serves toolgen's tools beside its own tools, prompts and resources. A call of one runs
    /// as `McpServer` runs it, on the same code: arguments checked with JSON-path errors,
    /// the runner's timeouts, concurrency and `McpToolset`s, progress reports sent to the
    /// request's peer, the request's cancellation reaching the handler.
    ///
    /// Each tool is listed as `2025-11-25` takes it (an `outputSchema` that does not describe an
    /// object is left out: rmcp's router lists the same tools to every client). The router lists
    /// what the server had when it was made; switch tools off and on with rmcp's
    /// `ToolRouter::disable_route` (the server's [`ToolSwitch`](super::ToolSwitch) still
    /// refuses the calls of the tools it switches off).
    ///
    /// ```
    /// use serde::Deserialize;
    /// use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
    /// use toolgen_runtime::McpServer;
    /// use toolgen_runtime::rmcp::handler::server::router::tool::ToolRouter;
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
    /// /// The rmcp server (its `#[tool_router]` impl and `#[tool_handler]` left out).
    /// #[derive(Clone)]
    /// struct Calculator { tools: ToolRouter<Calculator> }
    ///
    /// let server = McpServer::new(Runner::<Tools, ()>::new(()), "calculator", "1.0.0");
    /// // With `#[tool_router]`: `Self::tool_router() + server.tool_router()`.
    /// let calculator = Calculator { tools: server.tool_router() };
    /// assert!(calculator.tools.has_route("add"));
    /// ```
    pub fn tool_router<H: Send + Sync + 'static>(&self) -> ToolRouter<H> {
        self.handler().tool_router()
    }
}

impl McpHandler {
    /// The server's tools as an rmcp [`ToolRouter`], as [`McpServer::tool_router`] gives them
    /// (see there).
    pub fn tool_router<H: Send + Sync + 'static>(&self) -> ToolRouter<H> {
        let mut router = ToolRouter::new();
        for tool in &self.tools() {
            let server = Arc::new(self.clone());
            router.add_route(ToolRoute::new_dyn(
                listed(tool, None),
                move |context: ToolCallContext<'_, H>| {
                    let server = Arc::clone(&server);
                    let mut request = CallToolRequestParams::new(context.name);
                    request.arguments = context.arguments;
                    let context = context.request_context;
                    Box::pin(async move { server.call(request, context).await })
                },
            ));
        }
        router
    }
}
