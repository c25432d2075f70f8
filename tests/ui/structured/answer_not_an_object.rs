// `#[tool(answer)]` on a type that is not an object: the error is at `answer`, naming the type.
use serde::Deserialize;
use toolgen::ToolSchema;

/// How sure the model is: an enum, not an object.
#[derive(ToolSchema, Deserialize)]
#[tool(answer)]
enum Confidence {
    Low,
    High,
}

/// A newtype: its schema is a string's.
#[derive(ToolSchema, Deserialize)]
#[tool(answer)]
struct Verdict(String);

/// On a variant, `answer` has nothing to mark.
#[derive(ToolSchema, Deserialize)]
enum Outcome {
    #[tool(answer)]
    Done { summary: String },
    Failed { reason: String },
}

fn main() {}
