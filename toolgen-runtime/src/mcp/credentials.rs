//! An [`McpToolset`](super::McpToolset)'s own credentials for a far server over streamable
//! HTTP: a bearer token from a [`TokenProvider`] (a callback, or OAuth client credentials),
//! sent on every request and asked for anew when the far server answers 401, once.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use futures_util::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use sse_stream::Sse;

use super::auth::TokenError;

/// The future of [`TokenProvider::token`].
pub type TokenFuture<'a> = Pin<Box<dyn Future<Output = Result<String, TokenError>> + Send + 'a>>;

/// Where an [`McpToolset`](super::McpToolset) connected with
/// [`http_with_credentials`](super::McpToolset::http_with_credentials) gets the bearer token of
/// its requests: its own credentials at the far server's authorization server, never a token
/// its own clients sent (the MCP specification forbids passing one through).
///
/// It is asked before each request; when the far server answers 401, it is asked again with
/// the token refused, and the request sent once more with the new token (unless it is the same
/// one); a second 401 is the call's error. toolgen has `ClientCredentials` (feature `oauth`);
/// a closure `Fn(bool) -> impl Future<Output = Result<String, TokenError>>` is a provider too,
/// told `true` when its last token was refused.
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use toolgen_runtime::{TokenError, TokenProvider};
///
/// /// A token from a vault, fetched again when the far server refuses it.
/// fn from_vault() -> impl TokenProvider {
///     let fetched = Arc::new(AtomicUsize::new(0));
///     move |refused: bool| {
///         let fetched = Arc::clone(&fetched);
///         async move {
///             let n = if refused { fetched.fetch_add(1, Ordering::SeqCst) + 1 } else { fetched.load(Ordering::SeqCst) };
///             Ok::<_, TokenError>(format!("token-{n}"))
///         }
///     }
/// }
/// # drop(from_vault());
/// ```
pub trait TokenProvider: Send + Sync + 'static {
    /// The token to send; `refused` is the one the far server has just answered 401 to (give
    /// another, or the same to give up).
    fn token<'a>(&'a self, refused: Option<&'a str>) -> TokenFuture<'a>;

    /// The token for a request to the far server at `url` (the toolset's endpoint); unless
    /// overridden, [`token`](TokenProvider::token)'s. The toolset asks this one: a provider
    /// that finds its authorization server from the far server itself
    /// (`ClientCredentials::discover`, feature `oauth`) reads `url`.
    ///
    /// ```
    /// use toolgen_runtime::{TokenError, TokenFuture, TokenProvider};
    ///
    /// /// One token per far server, from the environment.
    /// struct PerServer;
    /// impl TokenProvider for PerServer {
    ///     fn token<'a>(&'a self, _: Option<&'a str>) -> TokenFuture<'a> {
    ///         Box::pin(async { Err(TokenError::new("which far server?")) })
    ///     }
    ///     fn token_for<'a>(&'a self, url: &'a str, _: Option<&'a str>) -> TokenFuture<'a> {
    ///         let name = if url.contains("notes") { "NOTES_TOKEN" } else { "OTHER_TOKEN" };
    ///         Box::pin(async move { std::env::var(name).map_err(|_| TokenError::new(format!("no {name}"))) })
    ///     }
    /// }
    /// # drop(PerServer);
    /// ```
    fn token_for<'a>(&'a self, url: &'a str, refused: Option<&'a str>) -> TokenFuture<'a> {
        let _ = url;
        self.token(refused)
    }
}

impl<F, Fut> TokenProvider for F
where
    F: Fn(bool) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<String, TokenError>> + Send + 'static,
{
    fn token<'a>(&'a self, refused: Option<&'a str>) -> TokenFuture<'a> {
        Box::pin(self(refused.is_some()))
    }
}

/// rmcp's reqwest client, each request with the provider's token, and sent again once with a
/// new one after a 401.
#[derive(Clone)]
pub(super) struct Authorized {
    pub(super) http: reqwest::Client,
    pub(super) provider: Arc<dyn TokenProvider>,
}

type Failure = StreamableHttpError<reqwest::Error>;

/// A provider's refusal to give a token, as the transport's error.
fn no_token(error: &TokenError) -> Failure {
    StreamableHttpError::Io(std::io::Error::other(format!(
        "no token for the far server: {error}"
    )))
}

impl Authorized {
    /// `call` with the provider's token; after a 401, once more with a new one.
    async fn with_token<T, F, Fut>(&self, uri: &str, call: F) -> Result<T, Failure>
    where
        F: Fn(Option<String>) -> Fut,
        Fut: Future<Output = Result<T, Failure>>,
    {
        let provider = &self.provider;
        let token = (provider.token_for(uri, None).await).map_err(|e| no_token(&e))?;
        match call(Some(token.clone())).await {
            Err(StreamableHttpError::AuthRequired(challenge)) => {
                let fresh =
                    (provider.token_for(uri, Some(&token)).await).map_err(|e| no_token(&e))?;
                if fresh == token {
                    return Err(StreamableHttpError::AuthRequired(challenge));
                }
                call(Some(fresh)).await
            }
            result => result,
        }
    }
}

// Two requests carry a token on the wire (a POST with its limits, a GET of a stream with its
// event size); the others are those with the transport's defaults.
impl StreamableHttpClient for Authorized {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        let limits = StreamableHttpResponseLimits::default();
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            token,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        let mut limits = StreamableHttpResponseLimits::default();
        limits.max_sse_event_size = max_sse_event_size;
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            token,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        self.with_token(&uri, |token| {
            let (uri, message) = (uri.clone(), message.clone());
            let (session_id, headers) = (session_id.clone(), custom_headers.clone());
            self.http
                .post_message_with_response_limits(uri, message, session_id, token, headers, limits)
        })
        .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        _: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Failure> {
        self.with_token(&uri, |token| {
            let (uri, session_id, headers) =
                (uri.clone(), session_id.clone(), custom_headers.clone());
            self.http.delete_session(uri, session_id, token, headers)
        })
        .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, Failure> {
        let size = StreamableHttpResponseLimits::default().max_sse_event_size;
        self.get_stream_with_max_sse_event_size(
            uri,
            session_id,
            last_event_id,
            token,
            custom_headers,
            size,
        )
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        _: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, Failure> {
        self.with_token(&uri, |token| {
            let (uri, session_id) = (uri.clone(), session_id.clone());
            let (last_event_id, headers) = (last_event_id.clone(), custom_headers.clone());
            self.http.get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                token,
                headers,
                max_sse_event_size,
            )
        })
        .await
    }
}
