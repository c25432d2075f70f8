// `Invocation::elicit::<T>` asks for a `T` marked `#[tool(form)]`: a type that is not says so,
// and how to mark it.
use serde::Deserialize;
use toolgen::{Handler, Invocation, Tool, ToolError, ToolSchema};

/// Where to send the receipt.
#[derive(ToolSchema, Deserialize)]
struct Contact {
    email: String,
}

/// Book a table.
#[derive(Tool, Deserialize)]
struct Book {
    people: u32,
}

impl Handler<()> for Book {
    type Output = String;
    async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<String, ToolError> {
        let _ = call.elicit::<Contact>("Where to?").await?;
        Ok(self.people.to_string())
    }
}

fn main() {}
