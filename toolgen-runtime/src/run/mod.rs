//! Running calls: handlers and their dispatch (`handler`), and the `Runner` (feature `run`),
//! which runs a turn's calls concurrently with timeouts, holds those a person must approve
//! (`approval`), and
//! its `tracing` spans and events (`trace`, feature `tracing`).

#[cfg(feature = "run")]
pub(crate) mod approval;
pub(crate) mod handler;
#[cfg(feature = "run")]
pub(crate) mod runner;
#[cfg(feature = "run")]
pub(crate) mod trace;
