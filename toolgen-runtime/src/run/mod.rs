//! Running calls: handlers and their dispatch (`handler`), who called (`principal`), and the
//! `Runner` (feature `run`),
//! which runs a turn's calls concurrently with timeouts, and
//! its `tracing` spans and events (`trace`, feature `tracing`).

pub(crate) mod handler;
pub(crate) mod principal;
#[cfg(feature = "run")]
pub(crate) mod runner;
#[cfg(feature = "run")]
pub(crate) mod trace;
