//! Toolsets: sources of tools that the runner lists at run time and that may change (an MCP
//! server's, a registry's), through one trait the runner knows them by.

use std::error::Error;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::run::handler::DynamicHandler;
use crate::tool::dynamic::DynamicTool;

/// What a toolset's [`refresh`](Toolset::refresh) returns: done, or why its tools could not be
/// listed.
pub type RefreshFuture<'a> =
    Pin<Box<dyn Future<Output = Result<(), Box<dyn Error + Send + Sync>>> + Send + 'a>>;

/// A source of tools a [`Runner`](crate::Runner) offers beside its set's
/// ([`Runner::with_toolset`](crate::Runner::with_toolset)): the tools it has now, each with the
/// handler that runs its calls, and whether they changed since. An MCP server's tools
/// (`McpToolset`, feature `mcp`) are one; tools fetched from a registry of your own can be
/// another.
///
/// Each tool is a [`DynamicTool`], with what the runner reads of it: its schema (the calls'
/// arguments are checked against it), whether its calls need a person's approval
/// ([`DynamicTool::require_approval`]), its MCP annotations and its OAuth scopes. Its
/// [`DynamicHandler`] gets each call's [`Invocation`](crate::Invocation): its progress sink,
/// its cancellation and who made it.
///
/// The runner lists the tools when the toolset is added, and again before each turn when
/// [`list_changed`](Toolset::list_changed) says so, after [`refresh`](Toolset::refresh).
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use serde_json::{Value, json};
/// use toolgen::{DynamicFuture, DynamicHandler, DynamicTool, Invocation, Provider, Runner};
/// use toolgen::{RefreshFuture, ToolCall, Toolset};
///
/// /// Tools kept in a registry: names that answer with a fixed text.
/// #[derive(Clone, Default)]
/// struct Registry { names: Arc<Mutex<Vec<String>>>, changed: Arc<AtomicBool> }
///
/// struct Answer(String);
/// impl DynamicHandler<()> for Answer {
///     fn handle<'a>(&'a self, _: &'a (), _: Value, _: &'a Invocation<'a>) -> DynamicFuture<'a> {
///         Box::pin(async move { Ok(json!(self.0)) })
///     }
/// }
///
/// impl Toolset<()> for Registry {
///     fn listed(&self) -> Vec<(DynamicTool, Arc<dyn DynamicHandler<()>>)> {
///         let names = self.names.lock().unwrap().clone();
///         (names.into_iter())
///             .filter_map(|name| {
///                 let tool = DynamicTool::new(&name, "Answer.", json!({"type": "object"})).ok()?;
///                 Some((tool, Arc::new(Answer(format!("{name} answers"))) as Arc<_>))
///             })
///             .collect()
///     }
///     fn list_changed(&self) -> bool {
///         self.changed.load(Ordering::SeqCst)
///     }
///     fn refresh(&self) -> RefreshFuture<'_> {
///         self.changed.store(false, Ordering::SeqCst);
///         Box::pin(async { Ok(()) })
///     }
/// }
///
/// let registry = Registry::default();
/// registry.names.lock().unwrap().push("ping".to_owned());
/// let mut runner = Runner::without_set(()).with_toolset(registry.clone());
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let turn = runner.run(Provider::Anthropic, &[ToolCall::new("ping", "{}")]).await;
/// assert_eq!(turn.results()[0].to_text(), "ping answers");
///
/// // The registry gets a tool: the next turn lists the tools again.
/// registry.names.lock().unwrap().push("pong".to_owned());
/// registry.changed.store(true, Ordering::SeqCst);
/// let turn = runner.run(Provider::Anthropic, &[ToolCall::new("pong", "{}")]).await;
/// assert_eq!(turn.results()[0].to_text(), "pong answers");
/// # });
/// assert_eq!(runner.definitions(Provider::Anthropic).as_array().unwrap().len(), 2);
/// ```
pub trait Toolset<Ctx: ?Sized>: Send + Sync {
    /// The tools it offers now, each with the handler that runs its calls, in the order to
    /// offer them.
    fn listed(&self) -> Vec<(DynamicTool, Arc<dyn DynamicHandler<Ctx>>)>;

    /// Whether its tools changed since they were last listed (the runner then calls
    /// [`refresh`](Toolset::refresh) and [`listed`](Toolset::listed) before its next turn).
    /// `false` unless implemented: tools that never change.
    fn list_changed(&self) -> bool {
        false
    }

    /// Lists the tools again, where they come from (a server, a registry), for
    /// [`listed`](Toolset::listed) to give. A toolset that cannot list them keeps its old ones
    /// and says why; it should still say [`list_changed`](Toolset::list_changed), for the
    /// next turn to try again. Nothing to do unless implemented.
    fn refresh(&self) -> RefreshFuture<'_> {
        Box::pin(std::future::ready(Ok(())))
    }

    /// A signal of its list changes, for those who wait on them (an `McpServer` over the
    /// runner, a gateway, lists again at each and tells its clients); `None` unless
    /// implemented: the runner still sees changes before each turn through
    /// [`list_changed`](Toolset::list_changed).
    fn changes(&self) -> Option<tokio::sync::watch::Receiver<u64>> {
        None
    }
}
