//! Streamable HTTP for an [`McpServer`](super::McpServer): rmcp's service behind a layer of ours that bounds what
//! clients can hold (sessions, request bytes, read times, connections) and answers malformed
//! requests as the MCP and JSON-RPC specifications say.

use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt::Display;
use std::hash::{BuildHasher, RandomState};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use futures_util::Stream;
use http::{HeaderValue, Method, Request, Response, StatusCode};
use http_body::{Body, Frame, SizeHint};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use rmcp::model::{ClientJsonRpcMessage, GetExtensions, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, ServerSseMessage, SessionId, SessionManager,
};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::auth::{Bearer, ResourceServer, bearer_token};
use super::head::{HEAD_BYTES, id_in_head, keep_head};
use super::json_reply::json_if_answer_first;
use super::{McpHandler, lock};
use crate::run::principal::Principal;

/// The limits and checks of an [`McpServer`](super::McpServer) served over streamable HTTP
/// ([`McpServer::serve_http_with`](super::McpServer::serve_http_with), [`McpServer::http_service`](super::McpServer::http_service)): which `Host` and `Origin`
/// headers it answers, and how much any client can hold. Every setting has a default sound for
/// a server on one machine; a public server lists its host names and browser origins.
///
/// | setting | default | when it is passed |
/// |---|---|---|
/// | [`allowed_hosts`](HttpOptions::allowed_hosts) | `localhost`, `127.0.0.1`, `::1` | HTTP 403 |
/// | [`allowed_origins`](HttpOptions::allowed_origins) | loopback origins (`http(s)://localhost`, `127.0.0.1`, `[::1]`, any port); no `Origin` is allowed | HTTP 403 |
/// | [`max_sessions`](HttpOptions::max_sessions) | 1,000 | the session used least recently, with no request open, is closed for the new one; if every session has one open, HTTP 503 |
/// | [`session_idle_timeout`](HttpOptions::session_idle_timeout) | 5 minutes | the session is closed (its next request gets HTTP 404, and the client starts a new one) |
/// | [`header_read_timeout`](HttpOptions::header_read_timeout) | 10 s, also between requests on a kept-alive connection | the connection is closed |
/// | [`body_read_timeout`](HttpOptions::body_read_timeout) | 30 s | HTTP 408 |
/// | [`max_connections`](HttpOptions::max_connections) | 512 | further connections wait to be accepted |
/// | [`max_body_bytes`](HttpOptions::max_body_bytes) | 4 MiB | HTTP 413 |
/// | [`max_bytes_in_flight`](HttpOptions::max_bytes_in_flight) | 32 MiB, over all requests being read or run | HTTP 503 with `Retry-After: 1` |
/// | [`json_reply_wait`](HttpOptions::json_reply_wait) | 10 s | the answer comes as an event stream, not one JSON body |
///
/// (The header timeout and the connection cap belong to the server that accepts connections:
/// [`McpServer::serve_http_with`](super::McpServer::serve_http_with) applies them; a service mounted in your own stack has that
/// stack's.)
///
/// ```
/// use std::time::Duration;
/// use toolgen_runtime::HttpOptions;
///
/// let options = HttpOptions::default()
///     .allowed_hosts(["mcp.example.com"])
///     .allowed_origins(["https://app.example.com"])
///     .max_sessions(10_000)
///     .session_idle_timeout(Duration::from_secs(600));
/// assert_eq!(options.get_max_sessions(), 10_000);
/// ```
#[derive(Clone, Debug)]
pub struct HttpOptions {
    allowed_hosts: Vec<String>,
    allowed_origins: Vec<String>,
    max_sessions: usize,
    session_idle_timeout: Duration,
    header_read_timeout: Duration,
    body_read_timeout: Duration,
    max_connections: usize,
    max_body_bytes: usize,
    max_bytes_in_flight: usize,
    json_reply_wait: Duration,
    authorization: Option<ResourceServer>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        let origins = ["localhost", "127.0.0.1", "[::1]"]
            .into_iter()
            .flat_map(|host| [format!("http://{host}:*"), format!("https://{host}:*")]);
        HttpOptions {
            allowed_hosts: vec!["localhost".into(), "127.0.0.1".into(), "::1".into()],
            allowed_origins: origins.collect(),
            max_sessions: 1000,
            session_idle_timeout: Duration::from_secs(300),
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            max_connections: 512,
            max_body_bytes: 4 << 20,
            max_bytes_in_flight: 32 << 20,
            json_reply_wait: Duration::from_secs(10),
            authorization: None,
        }
    }
}

impl HttpOptions {
    /// The `Host` headers answered (names, or `name:port`); others get HTTP 403, which keeps
    /// DNS rebinding away from a local server. Replaces the loopback names.
    ///
    /// ```
    /// let options = toolgen_runtime::HttpOptions::default().allowed_hosts(["mcp.example.com"]);
    /// # drop(options);
    /// ```
    #[must_use]
    pub fn allowed_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_hosts = hosts.into_iter().map(Into::into).collect();
        self
    }

    /// The browser origins answered, each with its scheme (`https://app.example.com`, with `:*`
    /// for any port, or `null` for `Origin: null`); a request with another `Origin` gets HTTP
    /// 403, as the transport specification requires. A request without `Origin` (not from a
    /// browser) is always answered. Replaces the loopback origins; an empty list refuses every
    /// request that has an `Origin`.
    ///
    /// ```
    /// let options = toolgen_runtime::HttpOptions::default()
    ///     .allowed_origins(["https://app.example.com", "http://localhost:*"]);
    /// # drop(options);
    /// ```
    #[must_use]
    pub fn allowed_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_origins = origins.into_iter().map(Into::into).collect();
        self
    }

    /// The most sessions held at once (at least 1). A new session past it closes the one used
    /// least recently that has no request open; when every session has one, the new client
    /// gets HTTP 503. Each session costs about 60 KB.
    ///
    /// ```
    /// let options = toolgen_runtime::HttpOptions::default().max_sessions(100);
    /// assert_eq!(options.get_max_sessions(), 100);
    /// ```
    #[must_use]
    pub fn max_sessions(mut self, sessions: usize) -> Self {
        self.max_sessions = sessions.max(1);
        self
    }

    /// The most sessions held at once (see [`max_sessions`](HttpOptions::max_sessions)).
    pub fn get_max_sessions(&self) -> usize {
        self.max_sessions
    }

    /// How long a session lives without a request; then it is closed.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let options = toolgen_runtime::HttpOptions::default().session_idle_timeout(Duration::from_secs(60));
    /// # drop(options);
    /// ```
    #[must_use]
    pub fn session_idle_timeout(mut self, timeout: Duration) -> Self {
        self.session_idle_timeout = timeout;
        self
    }

    /// How long a client has to send a request's headers, counted from the request's first
    /// byte or, on a kept-alive connection, from the end of the reply before; then the
    /// connection is closed.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let options = toolgen_runtime::HttpOptions::default().header_read_timeout(Duration::from_secs(5));
    /// # drop(options);
    /// ```
    #[must_use]
    pub fn header_read_timeout(mut self, timeout: Duration) -> Self {
        self.header_read_timeout = timeout;
        self
    }

    /// How long a client has to send a request's body once its headers are in; then HTTP 408.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let options = toolgen_runtime::HttpOptions::default().body_read_timeout(Duration::from_secs(10));
    /// # drop(options);
    /// ```
    #[must_use]
    pub fn body_read_timeout(mut self, timeout: Duration) -> Self {
        self.body_read_timeout = timeout;
        self
    }

    /// The most connections open at once (at least 1); further ones wait to be accepted.
    ///
    /// ```
    /// let options = toolgen_runtime::HttpOptions::default().max_connections(64);
    /// # drop(options);
    /// ```
    #[must_use]
    pub fn max_connections(mut self, connections: usize) -> Self {
        self.max_connections = connections.max(1);
        self
    }

    /// The largest request body (at most 4 GiB); a larger one gets HTTP 413, with the
    /// JSON-RPC error's `id` the request's where the body's first 4 KiB hold it, else `null`.
    ///
    /// ```
    /// let options = toolgen_runtime::HttpOptions::default().max_body_bytes(1 << 20);
    /// # drop(options);
    /// ```
    #[must_use]
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes.min(u32::MAX as usize);
        self
    }

    /// The most request bytes held at once over all requests, from the first byte read until
    /// the reply is sent; a request that would pass it gets HTTP 503 with `Retry-After: 1`.
    /// At least [`max_body_bytes`](HttpOptions::max_body_bytes), so that one request of the
    /// largest size always fits. A request being run holds about three copies of its bytes
    /// (the body, rmcp's parsed message, the arguments parsed by the tool), so this bounds
    /// what requests hold to about three times it.
    ///
    /// ```
    /// let options = toolgen_runtime::HttpOptions::default().max_bytes_in_flight(16 << 20);
    /// # drop(options);
    /// ```
    #[must_use]
    pub fn max_bytes_in_flight(mut self, bytes: usize) -> Self {
        self.max_bytes_in_flight = bytes;
        self
    }

    /// How long a request's answer may take and still come as one `application/json` body
    /// (10 s unless set). The answer of a request that sends nothing before it (no progress, no
    /// elicitation) is JSON; a request that sends something first, or runs longer, is answered
    /// with an event stream (SSE), whose keep-alive comments (every 15 s) hold the connection
    /// open through proxies that close one silent for long. `Duration::ZERO`: always a stream.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let options = toolgen_runtime::HttpOptions::default().json_reply_wait(Duration::from_secs(5));
    /// # drop(options);
    /// ```
    #[must_use]
    pub fn json_reply_wait(mut self, wait: Duration) -> Self {
        self.json_reply_wait = wait;
        self
    }

    /// Makes the server an OAuth 2.1 resource server, as the MCP specification's authorization
    /// chapter says (off unless set): every request but the GET of its metadata document needs
    /// a valid bearer token, and a `tools/call` the scopes of its tool. [`ResourceServer`] lists
    /// every check and its answer; the handler reads who called with
    /// [`Invocation::principal`](crate::Invocation::principal).
    ///
    /// ```
    /// use toolgen_runtime::{HttpOptions, ResourceServer, TokenError, TokenValidator, ValidateFuture};
    /// # struct Nobody;
    /// # impl TokenValidator for Nobody {
    /// #     fn validate<'a>(&'a self, _: &'a str) -> ValidateFuture<'a> {
    /// #         Box::pin(async { Err(TokenError::new("no")) })
    /// #     }
    /// # }
    /// let auth = ResourceServer::new("http://127.0.0.1:8080/mcp", Nobody).unwrap();
    /// let options = HttpOptions::default().authorization(auth);
    /// assert!(options.get_authorization().is_some());
    /// ```
    #[must_use]
    pub fn authorization(mut self, server: ResourceServer) -> Self {
        self.authorization = Some(server);
        self
    }

    /// The authorization set with [`authorization`](HttpOptions::authorization), if any.
    pub fn get_authorization(&self) -> Option<&ResourceServer> {
        self.authorization.as_ref()
    }

    /// rmcp's configuration for these options.
    fn rmcp_config(&self) -> StreamableHttpServerConfig {
        StreamableHttpServerConfig::default()
            .with_allowed_hosts(self.allowed_hosts.iter().cloned())
            .with_allowed_origins(self.allowed_origins.iter().cloned())
            .enforce_origin_validation()
            .with_max_request_body_bytes(self.max_body_bytes)
    }
}

/// An [`McpServer`](super::McpServer) as a streamable HTTP endpoint, with the checks and limits of its
/// [`HttpOptions`]: a tower service that answers MCP at whatever path it is mounted on (made by
/// [`McpServer::http_service`](super::McpServer::http_service)). Clones share the sessions and the limits.
///
/// Its type names no type of yours: its code, rmcp's HTTP service and service loop built for
/// it, are compiled once, in toolgen, not again in each crate that serves tools.
pub struct HttpService {
    /// (Shared: a clone per request costs a count, not rmcp's configuration.)
    shared: Arc<Shared>,
}

struct Shared {
    inner: StreamableHttpService<McpHandler, Sessions>,
    /// (For the scopes of its tools.)
    server: McpHandler,
    sessions: Arc<Sessions>,
    budget: Arc<Semaphore>,
    max_body_bytes: usize,
    body_read_timeout: Duration,
    json_reply_wait: Duration,
    auth: Option<ResourceServer>,
}

impl Clone for HttpService {
    fn clone(&self) -> Self {
        HttpService {
            shared: Arc::clone(&self.shared),
        }
    }
}

/// A reply's body.
pub(super) type ReplyBody = BoxBody<Bytes, Infallible>;

impl HttpService {
    pub(super) fn new(server: &McpHandler, options: &HttpOptions) -> Self {
        let mut local = LocalSessionManager::default();
        local.session_config.keep_alive = Some(options.session_idle_timeout);
        let sessions = Arc::new(Sessions {
            local,
            max: options.max_sessions,
            used: Arc::default(),
            keys: RandomState::new(),
        });
        let served = server.clone();
        HttpService {
            shared: Arc::new(Shared {
                server: server.clone(),
                inner: StreamableHttpService::new(
                    move || Ok(served.clone()),
                    Arc::clone(&sessions),
                    options.rmcp_config(),
                ),
                sessions,
                budget: Arc::new(Semaphore::new(
                    options
                        .max_bytes_in_flight
                        .max(options.max_body_bytes)
                        .min(Semaphore::MAX_PERMITS),
                )),
                max_body_bytes: options.max_body_bytes,
                body_read_timeout: options.body_read_timeout,
                json_reply_wait: options.json_reply_wait,
                auth: options.authorization.clone(),
            }),
        }
    }

    /// Answers one HTTP request.
    pub(super) async fn handle<B>(&self, mut request: Request<B>) -> Response<ReplyBody>
    where
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: Display,
    {
        if let Some(auth) = &self.shared.auth {
            if let Some(reply) = auth.metadata_reply(request.method(), request.uri().path()) {
                return reply;
            }
            let principal = match auth.authorize(request.headers(), request.uri()).await {
                Ok(principal) => principal,
                Err(refusal) => return *refusal,
            };
            // A session answers only the identity that opened it; to another, it does not
            // exist (the security best practices' `<user_id>:<session_id>`).
            if let Some(id) = session_id(request.headers())
                && !self
                    .shared
                    .sessions
                    .admits(&id, &principal, request.headers())
            {
                return plain(StatusCode::NOT_FOUND, "Not Found: Session not found");
            }
            // (Shared: rmcp copies a request's parts for each message.)
            request.extensions_mut().insert(Arc::new(principal));
        }
        match *request.method() {
            Method::POST => self.post(request).await,
            Method::DELETE => {
                // rmcp answers 202 to the DELETE of a session it does not hold; the
                // specification says 404. (Checked before, so that rmcp's Host and Origin
                // checks still come first.)
                let known = match session_id(request.headers()) {
                    Some(id) => self
                        .shared
                        .sessions
                        .local
                        .has_session(&id)
                        .await
                        .unwrap_or(true),
                    None => true,
                };
                let mut reply = Box::pin(self.shared.inner.handle(request)).await;
                if reply.status() == StatusCode::ACCEPTED {
                    if !known {
                        return plain(StatusCode::NOT_FOUND, "Not Found: Session not found");
                    }
                    // A session closed: 200, as the official SDKs' servers (Python, TypeScript)
                    // answer, where rmcp answers 202; the Python SDK's client takes 200 or 204
                    // and logs any other status as a failure.
                    *reply.status_mut() = StatusCode::OK;
                }
                reply
            }
            _ => Box::pin(self.shared.inner.handle(request)).await,
        }
    }

    async fn post<B>(&self, request: Request<B>) -> Response<ReplyBody>
    where
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: Display,
    {
        let (parts, body) = request.into_parts();
        // A client that waits for `100 Continue` before it sends its body is not asked for it
        // when its stated length is over the limit (the id of its request is not read then).
        let waits = parts
            .headers
            .get(http::header::EXPECT)
            .is_some_and(|value| value.as_bytes().eq_ignore_ascii_case(b"100-continue"));
        let read = read_body(
            body,
            self.shared.max_body_bytes,
            &self.shared.budget,
            self.shared.body_read_timeout,
            !waits,
        );
        let (bytes, permit) = match read.await {
            Ok(read) => read,
            Err(reply) => return reply,
        };
        let is_json = parts
            .headers
            .get(http::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| {
                let essence = value.split_once(';').map_or(value, |(essence, _)| essence);
                essence.trim().eq_ignore_ascii_case("application/json")
            });
        // A `tools/call` needs the scopes of its tool (before rmcp runs it).
        if let Some(auth) = &self.shared.auth
            && let Some(principal) = parts.extensions.get::<Arc<Principal>>()
            && let Some(name) = called_tool(&bytes)
        {
            let required = self.shared.server.runner.scopes_of(&name);
            if let Err(refusal) = auth.check_scopes(principal, &required) {
                return *refusal;
            }
        }
        let new_session = !parts.headers.contains_key(SESSION_ID);
        // (rmcp's future is large: boxed on its own, this one stays small, and is not copied
        // whole when it is boxed in turn.)
        let request = Request::from_parts(parts, Full::new(bytes.clone()));
        let reply = Box::pin(self.shared.inner.handle(request)).await;
        // rmcp answers a body it cannot read as a message with HTTP 415 and plain text; a
        // JSON-RPC server answers a parse error (`-32700`) or an invalid request (`-32600`),
        // with HTTP 400 (the transport specification). Looked into only then: the body is
        // read once on the way that works.
        if reply.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE && is_json {
            return unreadable(&bytes);
        }
        if reply.status() == StatusCode::INTERNAL_SERVER_ERROR
            && new_session
            && self.shared.sessions.is_full()
        {
            let mut reply = rpc_error(
                StatusCode::SERVICE_UNAVAILABLE,
                INTERNAL_ERROR,
                format!(
                    "Service Unavailable: the server holds its most sessions ({}), each with a \
                     request open; try again shortly",
                    self.shared.sessions.max
                ),
            );
            reply
                .headers_mut()
                .insert(http::header::RETRY_AFTER, HeaderValue::from_static("1"));
            return reply;
        }
        let reply = json_if_answer_first(reply, self.shared.json_reply_wait).await;
        // The bytes stay counted until the reply has been sent.
        reply.map(|body| {
            BoxBody::new(Holding {
                body,
                _permit: permit,
            })
        })
    }
}

impl<B> tower_service::Service<Request<B>> for HttpService
where
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Display,
{
    type Response = Response<ReplyBody>;
    type Error = Infallible;
    type Future =
        Pin<Box<dyn Future<Output = Result<Response<ReplyBody>, Infallible>> + Send + 'static>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let service = self.clone();
        Box::pin(async move { Ok(service.handle(request).await) })
    }
}

/// The tool a `tools/call` request's body names (`None` for any other body: rmcp reads and
/// answers it).
fn called_tool(body: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Call<'a> {
        #[serde(borrow)]
        method: std::borrow::Cow<'a, str>,
        params: Option<Params<'a>>,
    }
    #[derive(serde::Deserialize)]
    struct Params<'a> {
        #[serde(borrow)]
        name: std::borrow::Cow<'a, str>,
    }
    let call: Call<'_> = serde_json::from_slice(body).ok()?;
    match (call.method.as_ref(), call.params) {
        ("tools/call", Some(params)) => Some(params.name.into_owned()),
        _ => None,
    }
}

/// The header of a session's id. (A `HeaderName` made once: looked up by a `&str`, a name is
/// parsed again on each lookup.)
const SESSION_ID: http::HeaderName = http::HeaderName::from_static("mcp-session-id");

/// The `Mcp-Session-Id` of a request.
fn session_id(headers: &http::HeaderMap) -> Option<SessionId> {
    let id = headers.get(SESSION_ID)?.to_str().ok()?;
    Some(id.into())
}

/// Reads a body of at most `max` bytes, each byte counted in `budget` as it comes, within
/// `timeout`. A body over `max` is answered with the id of its request where its first
/// [`HEAD_BYTES`] hold it: those of a body stated too long are read for it (with `read_head`,
/// and within `timeout`), those of a body that grows too long are those read.
async fn read_body<B>(
    body: B,
    max: usize,
    budget: &Arc<Semaphore>,
    timeout: Duration,
    read_head: bool,
) -> Result<(Bytes, Option<OwnedSemaphorePermit>), Response<ReplyBody>>
where
    B: Body + Send + 'static,
    B::Error: Display,
{
    let deadline = tokio::time::Instant::now() + timeout;
    let too_large = |head: &[u8]| {
        rpc_error_with_id(
            StatusCode::PAYLOAD_TOO_LARGE,
            id_in_head(head),
            INVALID_REQUEST,
            format!("Payload Too Large: the request body is over {max} bytes"),
        )
    };
    let timed_out = || {
        rpc_error(
            StatusCode::REQUEST_TIMEOUT,
            INVALID_REQUEST,
            format!(
                "Request Timeout: the body was not received within {} s",
                timeout.as_secs_f64()
            ),
        )
    };
    let busy = || {
        let mut reply = rpc_error(
            StatusCode::SERVICE_UNAVAILABLE,
            INTERNAL_ERROR,
            "Service Unavailable: the server is reading too many request bytes at once; try \
             again shortly"
                .to_owned(),
        );
        reply
            .headers_mut()
            .insert(http::header::RETRY_AFTER, HeaderValue::from_static("1"));
        reply
    };
    let take = |bytes: usize, permit: &mut Option<OwnedSemaphorePermit>| {
        let Ok(count) = u32::try_from(bytes) else {
            return false;
        };
        if count == 0 {
            return true;
        }
        match Arc::clone(budget).try_acquire_many_owned(count) {
            Ok(more) => {
                match permit {
                    Some(permit) => permit.merge(more),
                    None => *permit = Some(more),
                }
                true
            }
            Err(_) => false,
        }
    };
    let mut permit = None;
    let length = body.size_hint().exact();
    let mut body = std::pin::pin!(body);
    if let Some(length) = length {
        if length > max as u64 {
            let mut head = Vec::new();
            // (Whatever stops it, a head cut short or none, the answer is the same.)
            while read_head && head.len() < HEAD_BYTES {
                let Ok(Some(Ok(frame))) = tokio::time::timeout_at(deadline, body.frame()).await
                else {
                    break;
                };
                if let Ok(mut data) = frame.into_data() {
                    use bytes::Buf;
                    while data.has_remaining() && head.len() < HEAD_BYTES {
                        let chunk = data.chunk();
                        keep_head(&mut head, chunk);
                        let read = chunk.len();
                        data.advance(read);
                    }
                }
            }
            return Err(too_large(&head));
        }
        if !take(length as usize, &mut permit) {
            return Err(busy());
        }
    }
    // (Made when a second frame comes: a body of one frame is kept as it came.)
    let mut collected = BytesMut::new();
    loop {
        let frame = match tokio::time::timeout_at(deadline, body.frame()).await {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(_) => return Err(timed_out()),
        };
        let frame = frame.map_err(|error| {
            plain(
                StatusCode::BAD_REQUEST,
                &format!("Bad Request: the body could not be read: {error}"),
            )
        })?;
        let Ok(mut data) = frame.into_data() else {
            continue;
        };
        use bytes::Buf;
        let size = data.remaining();
        if size > max.saturating_sub(collected.len()) {
            let mut head = Vec::new();
            keep_head(&mut head, &collected);
            keep_head(&mut head, data.chunk());
            return Err(too_large(&head));
        }
        // (A body of a stated length was counted whole before it was read.)
        if length.is_none() && !take(size, &mut permit) {
            return Err(busy());
        }
        // A body in one frame (a small request's, as hyper reads it) is kept as it came, not
        // copied.
        if collected.is_empty() && length == Some(size as u64) {
            return Ok((data.copy_to_bytes(size), permit));
        }
        if collected.is_empty() {
            collected.reserve(length.map_or(size, |length| length as usize));
        }
        while data.has_remaining() {
            let chunk = data.chunk();
            collected.extend_from_slice(chunk);
            let read = chunk.len();
            data.advance(read);
        }
    }
    Ok((collected.freeze(), permit))
}

/// JSON-RPC's codes for a body that is not JSON, and for JSON that is not a request.
const PARSE_ERROR: i32 = -32700;
const INVALID_REQUEST: i32 = -32600;
const INVALID_PARAMS: i32 = -32602;
const INTERNAL_ERROR: i32 = -32603;

/// The reply to a body that rmcp could not read as a JSON-RPC message.
fn unreadable(body: &[u8]) -> Response<ReplyBody> {
    let value = match std::str::from_utf8(body) {
        Err(error) => {
            return rpc_error(
                StatusCode::BAD_REQUEST,
                PARSE_ERROR,
                format!("Parse error: the body is not UTF-8 ({error})"),
            );
        }
        Ok(text) => match serde_json::from_str::<Value>(text) {
            Err(error) => {
                return rpc_error(
                    StatusCode::BAD_REQUEST,
                    PARSE_ERROR,
                    format!("Parse error: {error}"),
                );
            }
            Ok(value) => value,
        },
    };
    let message = match &value {
        Value::Array(_) => {
            "Invalid Request: a batch (a JSON array) is not supported; send one message per \
             request"
                .to_owned()
        }
        Value::Object(_) => {
            let why = serde_json::from_value::<ClientJsonRpcMessage>(value.clone())
                .err()
                .map_or_else(String::new, |error| format!(": {error}"));
            format!("Invalid Request: not a JSON-RPC request, notification or response{why}")
        }
        _ => "Invalid Request: a message is a JSON object".to_owned(),
    };
    let id = super::readable_id(value.get("id"));
    // Invalid params: answered as the method's reply is.
    if let Value::Object(object) = &value
        && let Some(message) = super::invalid_params(object, &id)
    {
        return rpc_error_with_id(StatusCode::OK, id, INVALID_PARAMS, message);
    }
    rpc_error_with_id(StatusCode::BAD_REQUEST, id, INVALID_REQUEST, message)
}

/// A JSON-RPC error reply with `"id": null` (the request's id could not be read).
pub(super) fn rpc_error(status: StatusCode, code: i32, message: String) -> Response<ReplyBody> {
    rpc_error_with_id(status, Value::Null, code, message)
}

fn rpc_error_with_id(
    status: StatusCode,
    id: Value,
    code: i32,
    message: String,
) -> Response<ReplyBody> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    });
    let mut reply = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *reply.status_mut() = status;
    reply.headers_mut().insert(
        http::header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    reply
}

/// A plain-text reply, as rmcp gives for HTTP-level errors.
fn plain(status: StatusCode, text: &str) -> Response<ReplyBody> {
    let mut reply = Response::new(Full::new(Bytes::from(text.to_owned())).boxed());
    *reply.status_mut() = status;
    reply.headers_mut().insert(
        http::header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    reply
}

/// A reply's body that keeps its request's bytes counted until it is sent.
struct Holding {
    body: ReplyBody,
    _permit: Option<OwnedSemaphorePermit>,
}

impl Body for Holding {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// rmcp's sessions in memory, at most `max` of them: a new one past it closes the one used
/// least recently with no stream open. With authorization on, each is bound to the identity
/// that opened it.
pub(super) struct Sessions {
    local: LocalSessionManager,
    max: usize,
    /// When each session was last used, how many of its streams are open, and whose it is.
    used: Arc<Mutex<HashMap<SessionId, Use>>>,
    /// The key of the hashes of tokens that name no one ([`Owner::Token`]).
    keys: RandomState,
}

struct Use {
    last: Instant,
    open: usize,
    /// Who opened it (with authorization on; `None` until its `initialize` is answered).
    owner: Option<Owner>,
}

/// Who opened a session, as the access token of its `initialize` said: the user, as the MCP
/// security best practices ask a session to be bound to ("information unique to the authorized
/// user", not anything the client sends beside the token).
#[derive(Debug, PartialEq, Eq)]
enum Owner {
    /// The token's subject (`sub`), at its issuer (`iss`, where the claims have one).
    Subject {
        issuer: Option<String>,
        subject: String,
    },
    /// The client (`client_id`, else `azp`) of a token without a subject (client credentials).
    Client {
        issuer: Option<String>,
        client: String,
    },
    /// A token that names no one (a validator of your own that gives neither): the token
    /// itself, hashed with the table's key; a new token is then a new user.
    Token(u64),
}

impl Owner {
    /// The owner `principal` is, its token in `headers`' `Authorization`.
    fn of(principal: &Principal, headers: &http::HeaderMap, keys: &RandomState) -> Owner {
        let issuer = || {
            (principal.claims().get("iss"))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        if let Some(subject) = principal.subject() {
            return Owner::Subject {
                issuer: issuer(),
                subject: subject.to_owned(),
            };
        }
        if let Some(client) = principal.client_id() {
            return Owner::Client {
                issuer: issuer(),
                client: client.to_owned(),
            };
        }
        let token = match bearer_token(headers) {
            Bearer::Token(token) => token,
            // (Not reached: a principal comes from a token.)
            Bearer::Missing | Bearer::Malformed(_) => "",
        };
        Owner::Token(keys.hash_one(token))
    }
}

/// An error of [`Sessions`].
#[derive(Debug)]
pub(super) enum SessionsError {
    Local(LocalSessionManagerError),
    /// Every session has a stream open.
    Full(usize),
}

impl Display for SessionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionsError::Local(error) => error.fmt(f),
            SessionsError::Full(max) => write!(
                f,
                "the server holds its most sessions ({max}), each with a request open"
            ),
        }
    }
}

impl std::error::Error for SessionsError {}

impl From<LocalSessionManagerError> for SessionsError {
    fn from(error: LocalSessionManagerError) -> Self {
        SessionsError::Local(error)
    }
}

impl Sessions {
    /// Notes a use of the session `id`; with `open`, a stream of it opened.
    fn touch(&self, id: &SessionId, open: bool) {
        let mut used = lock(&self.used);
        if let Some(session) = used.get_mut(id) {
            session.last = Instant::now();
            session.open += usize::from(open);
        }
    }

    /// Whether the session `id` may be used by `principal` (its token in `headers`): a
    /// session the table does not hold is left to rmcp (which answers 404); one it holds, only
    /// by its owner (one whose owner is not yet known, by no one).
    fn admits(&self, id: &SessionId, principal: &Principal, headers: &http::HeaderMap) -> bool {
        let caller = Owner::of(principal, headers, &self.keys);
        let used = lock(&self.used);
        used.get(id)
            .is_none_or(|session| session.owner.as_ref() == Some(&caller))
    }

    /// Whether a new session would be refused now.
    fn is_full(&self) -> bool {
        let used = lock(&self.used);
        used.len() >= self.max && used.values().all(|session| session.open > 0)
    }

    /// A stream of the session `id` that counts as open until dropped.
    fn tracked<St>(&self, id: &SessionId, stream: St) -> Tracked<St> {
        self.touch(id, true);
        Tracked {
            stream,
            used: Arc::clone(&self.used),
            id: id.clone(),
        }
    }
}

/// A session's stream, counted as open while it lives.
pub(super) struct Tracked<St> {
    stream: St,
    used: Arc<Mutex<HashMap<SessionId, Use>>>,
    id: SessionId,
}

impl<St: Stream + Unpin> Stream for Tracked<St> {
    type Item = St::Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<St::Item>> {
        Pin::new(&mut self.stream).poll_next(cx)
    }
}

impl<St> Drop for Tracked<St> {
    fn drop(&mut self) {
        let mut used = lock(&self.used);
        if let Some(session) = used.get_mut(&self.id) {
            session.open = session.open.saturating_sub(1);
            session.last = Instant::now();
        }
    }
}

impl SessionManager for Sessions {
    type Error = SessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), SessionsError> {
        let evicted = {
            let mut used = lock(&self.used);
            if used.len() < self.max {
                None
            } else {
                let idle = used
                    .iter()
                    .filter(|(_, session)| session.open == 0)
                    .min_by_key(|(_, session)| session.last)
                    .map(|(id, _)| id.clone());
                let Some(id) = idle else {
                    return Err(SessionsError::Full(self.max));
                };
                used.remove(&id);
                Some(id)
            }
        };
        if let Some(id) = evicted {
            self.local.close_session(&id).await?;
        }
        let (id, transport) = self.local.create_session().await?;
        lock(&self.used).insert(
            id.clone(),
            Use {
                last: Instant::now(),
                open: 0,
                owner: None,
            },
        );
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, SessionsError> {
        // The owner: the principal of the `initialize` (with authorization on; rmcp gives its
        // request's parts to the message).
        let parts = match &message {
            ClientJsonRpcMessage::Request(request) => {
                request.request.extensions().get::<http::request::Parts>()
            }
            _ => None,
        };
        let owner = parts.and_then(|parts| {
            let principal = parts.extensions.get::<Arc<Principal>>()?;
            Some(Owner::of(principal, &parts.headers, &self.keys))
        });
        if let Some(session) = lock(&self.used).get_mut(id) {
            session.owner = owner;
        }
        self.touch(id, false);
        Ok(self.local.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, SessionsError> {
        Ok(self.local.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), SessionsError> {
        lock(&self.used).remove(id);
        Ok(self.local.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        let stream = self.local.create_stream(id, message).await?;
        Ok(self.tracked(id, stream))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), SessionsError> {
        self.touch(id, false);
        Ok(self.local.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        let stream = self.local.create_standalone_stream(id).await?;
        Ok(self.tracked(id, stream))
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        let stream = self.local.resume(id, last_event_id).await?;
        Ok(self.tracked(id, stream))
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.local.event_store()
    }
}

/// Serves `service` on `listener` with the connection limits of `options`.
pub(super) async fn serve(
    service: HttpService,
    listener: tokio::net::TcpListener,
    options: &HttpOptions,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(
        options.max_connections.min(Semaphore::MAX_PERMITS),
    ));
    let header_read_timeout = options.header_read_timeout;
    loop {
        // Past the cap, connections wait in the listen queue until one ends.
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            return Ok(());
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors, a connection reset before it was accepted: the
            // server waits a moment and goes on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Small requests and replies: Nagle's algorithm would hold each reply back until
        // the client's delayed acknowledgement (about 40 ms a call).
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            // A connection that fails ends alone; the server goes on.
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(header_read_timeout)
                .serve_connection(io, service)
                .await;
            drop(slot);
        });
    }
}
