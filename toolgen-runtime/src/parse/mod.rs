//! Arguments parsed against a tool's schema: the parse paths and their errors (`args`); the plan
//! they follow through the JSON (`plan`: `null`s dropped, defaults filled, sets checked; built
//! from a type's facts, or from a JSON Schema by `schema_plan`, beside that schema's compiled checks, `schema_check`), with its node sets (`sets`),
//! followed through serde's own parse (`fast`, with the one JSON lexer's helpers, `lexer`) and
//! through a value (`walk`); and what serde does not enforce (`constraints`, `formats`).

pub(crate) mod args;
pub(crate) mod constraints;
pub(crate) mod fast;
pub(crate) mod formats;
pub(crate) mod lexer;
pub(crate) mod plan;
#[cfg(test)]
mod plan_tests;
pub(crate) mod schema_check;
pub(crate) mod schema_plan;
pub(crate) mod sets;
pub(crate) mod walk;
