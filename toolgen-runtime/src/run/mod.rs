//! Running calls: handlers and their dispatch (`handler`), who called (`principal`), and the
//! `Runner` (feature `run`), which runs a turn's calls concurrently with timeouts, holds those a
//! person must approve (`approval`), takes tools from toolsets through a trait (`toolset`),
//! bounds the progress reports waiting to go out (`progress`, feature `mcp`), and its `tracing`
//! spans and events (`trace`, feature `tracing01`), and its tools as a rig agent's (`rig`,
//! feature `rig044`).

#[cfg(feature = "run")]
pub(crate) mod approval;
pub(crate) mod elicit;
pub(crate) mod handler;
pub(crate) mod principal;
#[cfg(feature = "mcp")]
pub(crate) mod progress;
#[cfg(feature = "rig044")]
pub(crate) mod rig;
#[cfg(feature = "run")]
pub(crate) mod runner;
#[cfg(feature = "run")]
pub(crate) mod toolset;
#[cfg(feature = "run")]
pub(crate) mod trace;
