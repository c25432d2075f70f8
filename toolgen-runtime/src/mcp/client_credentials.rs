//! OAuth client credentials (RFC 6749, section 4.4) as an [`McpToolset`](super::McpToolset)'s
//! token: asked of the authorization server's token endpoint, kept until near its expiry
//! (feature `oauth`).

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::auth::{
    TokenError, authorization_server_endpoint, basic_auth, fetch_json, oauth_http_client,
};
use super::credentials::{TokenFuture, TokenProvider};

/// A [`TokenProvider`] by OAuth client credentials: the toolset's own client id and secret
/// (HTTP Basic) at the far server's authorization server, whose token endpoint is found in its
/// metadata (RFC 8414, or OpenID Connect Discovery) or given. The token asked for names the far
/// server as its `resource` (RFC 8707, which the MCP specification asks of clients) and the
/// scopes set. It is kept until shortly before it expires (its `expires_in` less 30 s, or less
/// half of it for a token living under a minute), and asked for anew when the far server
/// refuses it (401): one fetch at a time, however many calls wait.
///
/// ```no_run
/// # async fn run() -> Result<(), toolgen_runtime::McpClientError> {
/// use toolgen_runtime::{ClientCredentials, McpToolset};
///
/// let url = "https://notes.example.com/mcp";
/// let credentials = ClientCredentials::new("https://auth.example.com", "gateway", std::env::var("GATEWAY_SECRET").unwrap_or_default())
///     .resource(url)
///     .scope("notes:read");
/// let notes = McpToolset::http_with_credentials(url, credentials).await?;
/// # drop(notes);
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct ClientCredentials {
    issuer: String,
    client_id: String,
    client_secret: String,
    resource: Option<String>,
    scope: Option<String>,
    token_endpoint: Option<String>,
    /// (Shared by clones.)
    state: Arc<State>,
}

struct State {
    /// Found in the issuer's metadata.
    token_endpoint: Mutex<Option<String>>,
    /// The token held, and when to ask for another; held while one is fetched.
    held: tokio::sync::Mutex<Option<(String, Option<Instant>)>>,
    http: Option<reqwest::Client>,
}

impl std::fmt::Debug for ClientCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientCredentials")
            .field("issuer", &self.issuer)
            .field("client_id", &self.client_id)
            .field("resource", &self.resource)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

impl ClientCredentials {
    /// The client `client_id` with `client_secret` at the authorization server `issuer`
    /// (exactly as its metadata's `issuer`).
    pub fn new(
        issuer: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Self {
        ClientCredentials {
            issuer: issuer.into(),
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            resource: None,
            scope: None,
            token_endpoint: None,
            state: Arc::new(State {
                token_endpoint: Mutex::new(None),
                held: tokio::sync::Mutex::new(None),
                http: oauth_http_client(),
            }),
        }
    }

    /// The far server's canonical URI, the token's `resource` (RFC 8707): its MCP endpoint's
    /// URL, as its Protected Resource Metadata's `resource` says.
    #[must_use]
    pub fn resource(mut self, resource: impl Into<String>) -> Self {
        self.resource = Some(resource.into());
        self
    }

    /// The scopes asked for, space-separated.
    #[must_use]
    pub fn scope(mut self, scope: impl Into<String>) -> Self {
        self.scope = Some(scope.into());
        self
    }

    /// The token endpoint, where the issuer's metadata should not be asked.
    ///
    /// ```
    /// let credentials = toolgen_runtime::ClientCredentials::new("https://auth.example.com", "gateway", "secret")
    ///     .token_endpoint("https://auth.example.com/token");
    /// # drop(credentials);
    /// ```
    #[must_use]
    pub fn token_endpoint(mut self, uri: impl Into<String>) -> Self {
        self.token_endpoint = Some(uri.into());
        self
    }
}

impl TokenProvider for ClientCredentials {
    fn token<'a>(&'a self, refused: Option<&'a str>) -> TokenFuture<'a> {
        Box::pin(self.held_or_fetched(refused))
    }
}

/// How long before its expiry a token is replaced: 30 s, or half its life if shorter.
fn margin(lifetime: Duration) -> Duration {
    Duration::from_secs(30).min(lifetime / 2)
}

impl ClientCredentials {
    async fn held_or_fetched(&self, refused: Option<&str>) -> Result<String, TokenError> {
        let mut held = self.state.held.lock().await;
        if let Some((token, renew_at)) = &*held {
            let current = renew_at.is_none_or(|at| Instant::now() < at);
            // (A token refused while another call waited for this lock is replaced already.)
            if current && refused != Some(token.as_str()) {
                return Ok(token.clone());
            }
        }
        let (token, lifetime) = self.fetch().await.map_err(|why| {
            TokenError::new(format!(
                "the authorization server `{}` gave no token: {why}",
                self.issuer
            ))
        })?;
        let renew_at = lifetime.map(|lifetime| Instant::now() + lifetime - margin(lifetime));
        *held = Some((token.clone(), renew_at));
        Ok(token)
    }

    /// A new token from the token endpoint, and how long it lives.
    async fn fetch(&self) -> Result<(String, Option<Duration>), String> {
        let http = (self.state.http.as_ref()).ok_or("no HTTP client could be built")?;
        let known = (self.token_endpoint.clone()).or_else(|| {
            (self.state.token_endpoint.lock())
                .unwrap_or_else(PoisonError::into_inner)
                .clone()
        });
        let endpoint = match known {
            Some(endpoint) => endpoint,
            None => {
                let found =
                    authorization_server_endpoint(http, &self.issuer, "token_endpoint").await?;
                *(self.state.token_endpoint.lock()).unwrap_or_else(PoisonError::into_inner) =
                    Some(found.clone());
                found
            }
        };
        let body = {
            let mut form = form_urlencoded::Serializer::new(String::new());
            form.append_pair("grant_type", "client_credentials");
            if let Some(resource) = &self.resource {
                form.append_pair("resource", resource);
            }
            if let Some(scope) = &self.scope {
                form.append_pair("scope", scope);
            }
            form.finish()
        };
        let request = http
            .post(&endpoint)
            .header(
                http::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .body(body);
        let answer = fetch_json(basic_auth(request, &self.client_id, &self.client_secret)).await?;
        let Some(token) = answer.get("access_token").and_then(Value::as_str) else {
            return Err(format!("{endpoint} answered no `access_token`"));
        };
        let bearer = (answer.get("token_type").and_then(Value::as_str))
            .is_some_and(|kind| kind.eq_ignore_ascii_case("bearer"));
        if !bearer {
            return Err(format!(
                "{endpoint} answered a token that is not a bearer token"
            ));
        }
        let lifetime = (answer.get("expires_in").and_then(Value::as_u64)).map(Duration::from_secs);
        Ok((token.to_owned(), lifetime))
    }
}
