//! Arguments parsed against a tool's schema: the parse paths and their errors (`args`), the plan
//! they follow through the JSON (`plan`: `null`s dropped, defaults filled, sets checked), and what
//! serde does not enforce (`constraints`, `formats`).

pub(crate) mod args;
pub(crate) mod constraints;
pub(crate) mod formats;
pub(crate) mod plan;
