use serde::Deserialize;
use toolgen::Tool;

/// Look up orders.
#[derive(Tool, Deserialize)]
// Anthropic's cache lives 5 minutes or an hour.
#[tool(cache_control = "2h")]
// A flag takes no value.
#[tool(defer_loading = true)]
// An example is a whole input: an object.
#[tool(input_example = json!(["C-1"]))]
struct FindOrders {
    // The tool's own, not a field's.
    #[tool(eager_input_streaming)]
    customer: String,
}

fn main() {}
