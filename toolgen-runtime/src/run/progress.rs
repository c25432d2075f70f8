//! A call's progress reports on their way out (an MCP server's `notifications/progress` to its
//! client, an MCP server's reports to the call that forwarded them): a queue that holds at most
//! [`CAPACITY`] reports, the oldest dropped when a handler reports faster than they go out.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::run::handler::Progress;

/// How many reports wait at most. A report says how far the call is: when they come faster
/// than they go out, the newest say the most, and the oldest waiting is dropped (MCP asks both
/// sides to rate-limit progress, so as not to flood the other; a handler that reports in a
/// tight loop must not grow the memory of the process without bound).
pub(crate) const CAPACITY: usize = 64;

/// The reports of one call, from its handler (any number of senders) to the one task that
/// sends them on.
pub(crate) struct ProgressQueue {
    state: Mutex<State>,
    ready: tokio::sync::Notify,
}

struct State {
    reports: VecDeque<Progress>,
    /// No more reports come (the call ended), or none are wanted (its receiver gave up).
    closed: bool,
}

impl ProgressQueue {
    pub(crate) fn new() -> Self {
        ProgressQueue {
            state: Mutex::new(State {
                reports: VecDeque::new(),
                closed: false,
            }),
            ready: tokio::sync::Notify::new(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Puts `step` last, the oldest report dropped when [`CAPACITY`] wait already; `false`
    /// once closed (the report goes nowhere).
    pub(crate) fn push(&self, step: Progress) -> bool {
        {
            let mut state = self.state();
            if state.closed {
                return false;
            }
            if state.reports.len() >= CAPACITY {
                state.reports.pop_front();
            }
            state.reports.push_back(step);
        }
        self.ready.notify_one();
        true
    }

    /// No more reports: [`recv`](ProgressQueue::recv) gives those waiting, then `None`, and
    /// [`push`](ProgressQueue::push) takes none.
    pub(crate) fn close(&self) {
        self.state().closed = true;
        self.ready.notify_one();
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.state().closed
    }

    /// The oldest report waiting, if any.
    pub(crate) fn try_recv(&self) -> Option<Progress> {
        self.state().reports.pop_front()
    }

    /// The oldest report waiting, once there is one; `None` once closed and empty. (For one
    /// receiver: a report pushed while it does not wait leaves a permit, which its next wait
    /// takes.)
    pub(crate) async fn recv(&self) -> Option<Progress> {
        loop {
            {
                let mut state = self.state();
                if let Some(step) = state.reports.pop_front() {
                    return Some(step);
                }
                if state.closed {
                    return None;
                }
            }
            self.ready.notified().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_keeps_the_newest_reports_in_order() {
        let queue = ProgressQueue::new();
        for done in 1..=100_000 {
            assert!(queue.push(Progress::new(f64::from(done))));
        }
        queue.close();
        assert!(!queue.push(Progress::new(0.5)));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let got: Vec<f64> = runtime.block_on(async {
            let mut got = Vec::new();
            while let Some(step) = queue.recv().await {
                got.push(step.progress);
            }
            got
        });
        let newest: Vec<f64> = (100_000 - 63..=100_000).map(f64::from).collect();
        assert_eq!(got, newest);
    }

    #[test]
    fn below_capacity_every_report_waits_in_order() {
        let queue = ProgressQueue::new();
        for done in 1..=CAPACITY {
            queue.push(Progress::new(done as f64));
        }
        let got: Vec<f64> = std::iter::from_fn(|| queue.try_recv())
            .map(|step| step.progress)
            .collect();
        let every: Vec<f64> = (1..=CAPACITY).map(|done| done as f64).collect();
        assert_eq!(got, every);
    }
}
