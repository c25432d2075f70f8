use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Deserialize)]
enum Mode {
    Fast,
    Slow,
}

/// Run a job.
#[derive(Tool, Deserialize)]
struct Run {
    job: String,
    #[serde(flatten)]
    mode: Mode,
}

fn main() {}
