//! The tool set of the HTTP targets (`mcp_http`, `mcp_auth`): one tool, `add`.

use serde::Deserialize;
use toolgen::{Handler, Invocation, Tool, ToolError, ToolSet};

/// Add two numbers.
#[derive(Tool, Deserialize)]
pub struct Add {
    a: i64,
    b: i64,
}

impl Handler<()> for Add {
    type Output = i64;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<i64, ToolError> {
        Ok(self.a.wrapping_add(self.b))
    }
}

#[derive(ToolSet)]
pub enum Tools {
    Add(Add),
}
