//! What the recipes of other crates' types share (`examples/async_openai.rs`, `examples/genai.rs`):
//! the tools the recordings of `tests/traffic/` call, their handlers, the `Runner`, and the
//! recordings themselves.

use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::{
    Handler, Invocation, Provider, Runner, Tool, ToolCall, ToolCallError, ToolError, ToolSet,
};

#[path = "../seed_tools/mod.rs"]
pub mod seed_tools;

// The tool the recordings of `tests/traffic/` were made with (their requests define it so).
/// Get the weather in a location
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "weather")]
pub struct Weather {
    /// The location to get the weather for
    pub location: String,
}

/// The recordings' tool beside seed 003's `get_weather`, which a recording calls too.
#[derive(ToolSet, Debug)]
pub enum Tools {
    Weather(Weather),
    GetWeather(seed_tools::function_calling::GetWeather),
}

/// What the handlers read: canned temperatures, so the turn runs offline.
pub struct Forecasts(pub Vec<(&'static str, f64)>);

impl Forecasts {
    fn of(&self, place: &str) -> Result<f64, ToolError> {
        self.0
            .iter()
            .find(|(name, _)| *name == place)
            .map(|(_, temperature)| *temperature)
            .ok_or_else(|| ToolError::json(json!({"error": "unknown_place", "place": place})))
    }
}

impl Handler<Forecasts> for Weather {
    type Output = f64;
    async fn handle(self, app: &Forecasts, _call: &Invocation<'_>) -> Result<f64, ToolError> {
        app.of(&self.location)
    }
}

impl Handler<Forecasts> for seed_tools::function_calling::GetWeather {
    type Output = f64;
    async fn handle(self, app: &Forecasts, _call: &Invocation<'_>) -> Result<f64, ToolError> {
        app.of(&self.city)
    }
}

/// The runner of the recipes' tools, with its forecasts.
pub fn runner() -> Runner<Tools, Forecasts> {
    Runner::new(Forecasts(vec![("San Francisco", 18.5), ("Paris", 12.0)]))
}

/// What one turn gives: the calls, and the next turn's messages as toolgen writes them (the
/// model's turn, then the results).
pub struct Turn {
    pub calls: Vec<ToolCall>,
    pub next: Vec<Value>,
}

/// Reads the calls of a whole provider response, runs them, and returns the next turn's messages.
pub async fn run_turn(provider: Provider, response: &Value) -> Result<Turn, ToolCallError> {
    let calls = ToolCall::parse(provider, response)?;
    let turn = runner().run(provider, &calls).await;
    let next = turn.next_messages(response)?;
    Ok(Turn { calls, next })
}

/// A recording of `tests/traffic/`, as JSON.
pub fn recording(path: &str) -> Value {
    let path = format!("{}/tests/traffic/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{path}: {error}"))
}
