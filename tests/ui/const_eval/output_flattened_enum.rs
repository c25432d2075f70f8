use serde::{Deserialize, Serialize};
use toolgen::{Tool, ToolSchema};

#[derive(ToolSchema, Serialize)]
#[serde(tag = "status")]
enum Outcome {
    Done { id: String },
    Failed { reason: String },
}

#[derive(ToolSchema, Serialize)]
struct Report {
    took_ms: u64,
    #[serde(flatten)]
    outcome: Outcome,
}

/// Run the job.
#[derive(Tool, Deserialize)]
#[tool(output = Report)]
struct Run {
    job: String,
}

fn main() {}
