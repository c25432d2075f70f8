//! An [`McpToolset`](super::McpToolset)'s `server/discover` probe, ended early against a server
//! that ignores it: a `ping` follows the probe, and a server that answers the ping but not the
//! probe is taken for one of an earlier version at once, not after rmcp's 10 s.
//!
//! The `2026-07-28` specification (stdio, "Backward Compatibility") has a client fall back to
//! `initialize` on "any other error, or no response within a reasonable timeout": servers of
//! earlier versions answer an unknown request before `initialize` with an error of their own, or
//! not at all. A fixed short timeout would take a modern server that is slow to start (`npx`
//! fetching a package) for an old one; a `ping`, which every version answers at any time (the
//! earlier versions allow it before `initialize`), says when the server is reading its input.
//! Once it has answered the later ping, the probe gets [`GRACE`] more, for a server that answers
//! requests concurrently, and is then answered here with an error, which rmcp's client takes for
//! an earlier version's, falling back to `initialize`. A server that answers neither still meets
//! rmcp's own 10 s.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use rmcp::RoleClient;
use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, ErrorCode, ErrorData, JsonRpcMessage, PingRequest,
    RequestId,
};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::time::Instant;

/// How long the probe is waited for after the server answered the ping sent after it.
pub(super) const GRACE: Duration = Duration::from_secs(1);

/// The id of the probe's ping (a string: rmcp's own ids are numbers).
const PING_ID: &str = "toolgen-discover-ping";

/// A client transport whose `server/discover` is followed by a `ping` (see the module).
pub(super) struct Probed<T> {
    inner: T,
    /// Whether to probe (not over streamable HTTP, where an earlier version's server answers
    /// the probe with an HTTP error, and silence is an outage).
    probing: bool,
    /// The probe sent and not yet answered.
    discover: Option<RequestId>,
    /// Whether the ping has been sent, and answered.
    ping_sent: bool,
    ping_answered: bool,
    /// When the unanswered probe is given up (once the ping is answered).
    deadline: Option<Instant>,
    /// Probes answered here, whose late answers are dropped.
    given_up: Vec<RequestId>,
}

impl<T> Probed<T> {
    pub(super) fn new(inner: T, probing: bool) -> Self {
        Probed {
            inner,
            probing,
            discover: None,
            ping_sent: false,
            ping_answered: false,
            deadline: None,
            given_up: Vec::new(),
        }
    }
}

/// The id a response or error answers.
fn answered_id(message: &RxJsonRpcMessage<RoleClient>) -> Option<&RequestId> {
    match message {
        JsonRpcMessage::Response(response) => Some(&response.id),
        JsonRpcMessage::Error(error) => error.id.as_ref(),
        JsonRpcMessage::Request(_) | JsonRpcMessage::Notification(_) => None,
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Probed<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        message: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), T::Error>> + Send + 'static {
        if let JsonRpcMessage::Request(request) = &message
            && self.probing
            && matches!(request.request, ClientRequest::DiscoverRequest(_))
        {
            self.discover = Some(request.id.clone());
            // (A probe sent again, at another version, after the ping was answered.)
            self.deadline = self.ping_answered.then(|| Instant::now() + GRACE);
        }
        self.inner.send(message)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        // The ping goes out as the client starts waiting for the probe's answer, right after
        // the probe (rmcp's client sends, then receives: a transport does one at a time).
        if self.discover.is_some() && !self.ping_sent {
            self.ping_sent = true;
            let id = RequestId::String(Arc::from(PING_ID));
            let ping = ClientRequest::PingRequest(PingRequest::default());
            // (Not sent: the server is not reading, and the probe meets rmcp's 10 s.)
            let _ = self
                .inner
                .send(ClientJsonRpcMessage::request(ping, id))
                .await;
        }
        loop {
            let message = match (&self.discover, self.deadline) {
                (Some(_), Some(deadline)) => {
                    tokio::select! {
                        message = self.inner.receive() => message?,
                        () = tokio::time::sleep_until(deadline) => {
                            let id = self.discover.take()?;
                            self.deadline = None;
                            self.given_up.push(id.clone());
                            let error = ErrorData::new(
                                ErrorCode::METHOD_NOT_FOUND,
                                "server/discover was not answered, and a ping sent after it \
                                 was: a server of an earlier version",
                                None,
                            );
                            return Some(JsonRpcMessage::error(error, Some(id)));
                        }
                    }
                }
                _ => self.inner.receive().await?,
            };
            let Some(id) = answered_id(&message) else {
                return Some(message);
            };
            if self.ping_sent && !self.ping_answered && *id == RequestId::String(PING_ID.into()) {
                self.ping_answered = true;
                if self.discover.is_some() {
                    self.deadline = Some(Instant::now() + GRACE);
                }
                continue;
            }
            if let Some(at) = self.given_up.iter().position(|given| given == id) {
                self.given_up.swap_remove(at);
                continue;
            }
            if self.discover.as_ref() == Some(id) {
                self.discover = None;
                self.deadline = None;
            }
            return Some(message);
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), T::Error>> + Send {
        self.inner.close()
    }
}
