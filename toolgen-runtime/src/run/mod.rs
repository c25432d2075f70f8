//! Running calls: handlers and their dispatch (`handler`), and the `Runner` (feature `run`),
//! which runs a turn's calls concurrently with timeouts.

pub(crate) mod handler;
#[cfg(feature = "run")]
pub(crate) mod runner;
