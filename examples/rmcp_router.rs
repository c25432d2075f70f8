//! An rmcp server written with rmcp's own `#[tool_router]`, `#[prompt_router]` and handler macros
//! that serves toolgen's tools beside its own tool and prompt: its `#[tool]` takes its arguments
//! through `toolgen::Parameters` (parsed and checked by toolgen), and the tools of a toolgen
//! `Runner` come in as a `ToolRouter` (`McpServer::tool_router`), added to its own with `+`.
//!
//! ```text
//! cargo run --example rmcp_router --features schemars1,__rmcp_macros
//! ```
//!
//! It then waits for an MCP client on stdin. (In your own crate: toolgen's features `mcp` and
//! `schemars1`, and rmcp with its `macros` feature; `__rmcp_macros` turns that on here.)

use serde::Deserialize;
use toolgen::rmcp::handler::server::router::tool::ToolRouter;
use toolgen::rmcp::model::{PromptMessage, Role};
use toolgen::rmcp::{
    self, ServerHandler, ServiceExt, prompt, prompt_handler, prompt_router, tool, tool_handler,
    tool_router,
};
use toolgen::{
    Handler, Invocation, McpServer, Parameters, Progress, Runner, Tool, ToolError, ToolSet,
};

/// Look up books by title.
#[derive(Tool, Deserialize)]
struct FindBooks {
    /// Words of the title.
    #[tool(length(min = 1, max = 200))]
    title: String,
    /// How many books to give at most.
    #[tool(range(min = 1, max = 50), default = 10)]
    limit: u32,
}

/// Count the words of a text, reporting progress line by line.
#[derive(Tool, Deserialize)]
struct CountWords {
    text: String,
}

impl Handler<()> for CountWords {
    type Output = usize;
    async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<usize, ToolError> {
        let lines: Vec<&str> = self.text.lines().collect();
        let mut words = 0;
        for (done, line) in lines.iter().enumerate() {
            if call.is_cancelled() {
                return Err(ToolError::new("cancelled"));
            }
            words += line.split_whitespace().count();
            call.progress(Progress::new((done + 1) as f64).total(lines.len() as f64));
        }
        Ok(words)
    }
}

/// The toolgen tools, with handlers: run by a `Runner` (timeouts, concurrency).
#[derive(ToolSet)]
enum TextTools {
    CountWords(CountWords),
}

/// The rmcp server.
#[derive(Clone)]
struct Library {
    tools: ToolRouter<Library>,
}

#[tool_router]
impl Library {
    fn new() -> Self {
        let text = McpServer::new(Runner::<TextTools, ()>::new(()), "text", "1.0.0");
        Library {
            // Its own tools, and toolgen's.
            tools: Self::tool_router() + text.tool_router(),
        }
    }

    /// Look up books by title.
    #[tool]
    async fn find_books(&self, Parameters(find): Parameters<FindBooks>) -> String {
        // A `limit` of 0 or 999, or an empty title, never gets here: the model gets toolgen's
        // error (`isError: true`) and tries again.
        format!("up to {} books titled like {:?}", find.limit, find.title)
    }
}

#[prompt_router]
impl Library {
    /// Ask for a reading list.
    #[prompt]
    async fn reading_list(&self) -> Vec<PromptMessage> {
        let ask = "Suggest five books for a long train journey.";
        vec![PromptMessage::new_text(Role::User, ask)]
    }
}

#[tool_handler(router = self.tools)]
#[prompt_handler]
impl ServerHandler for Library {}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let running = Library::new().serve(toolgen::mcp_stdio()).await?;
        running.waiting().await?;
        Ok(())
    })
}
