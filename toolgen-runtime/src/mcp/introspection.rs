//! Opaque access tokens checked by asking the authorization server (token introspection, RFC
//! 7662), each answer kept for a short time (feature `oauth`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use super::auth::{
    TokenError, TokenValidator, ValidateFuture, authorization_server_endpoint, basic_auth,
    fetch_json, oauth_http_client,
};
use crate::run::principal::Principal;

/// A [`TokenValidator`] for opaque access tokens: each token is sent to the authorization
/// server's introspection endpoint (RFC 7662; found in its metadata as
/// `introspection_endpoint`, or given), with this server's own client credentials (HTTP Basic,
/// `client_secret_basic`), and taken only where the answer says
///
/// - `active: true`;
/// - `aud` this server's canonical URI (a string, or an array holding it): a token for another
///   resource is refused (RFC 8707), and so is a token whose answer names no audience;
/// - `iss`, where given, the issuer configured; `exp` and `nbf`, where given, around now.
///
/// The principal comes from the answer as from a JWT's claims (`sub`, `client_id`, `scope`).
/// A token taken is remembered for [`cache_for`](IntrospectionValidator::cache_for) (10 s unless
/// set, never past its `exp`; at most 1024 tokens): a revoked token is refused at the latest that
/// long after. A token refused, and every token while the endpoint cannot be reached, is asked
/// again each time (401, the tool never runs).
///
/// ```no_run
/// use toolgen_runtime::{HttpOptions, IntrospectionValidator, ResourceServer};
///
/// let resource = "https://mcp.example.com/mcp";
/// let validator = IntrospectionValidator::new("https://auth.example.com", resource)
///     .client("notes-server", std::env::var("NOTES_SERVER_SECRET").unwrap_or_default());
/// let auth = ResourceServer::new(resource, validator)
///     .unwrap()
///     .authorization_servers(["https://auth.example.com"]);
/// let options = HttpOptions::default().allowed_hosts(["mcp.example.com"]).authorization(auth);
/// # drop(options);
/// ```
#[derive(Clone)]
pub struct IntrospectionValidator {
    issuer: String,
    audience: String,
    client: Option<(String, String)>,
    endpoint: Option<String>,
    cache_for: Duration,
    /// (Shared by clones.)
    state: Arc<State>,
}

struct State {
    /// Found in the issuer's metadata.
    endpoint: Mutex<Option<String>>,
    /// Tokens taken, and until when they are.
    taken: Mutex<HashMap<String, (Principal, Instant)>>,
    http: Option<reqwest::Client>,
}

/// The most tokens remembered.
const MAX_CACHED: usize = 1024;

impl std::fmt::Debug for IntrospectionValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IntrospectionValidator")
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("endpoint", &self.endpoint)
            .field("cache_for", &self.cache_for)
            .finish_non_exhaustive()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl IntrospectionValidator {
    /// Tokens of the authorization server `issuer` (exactly as its metadata's `issuer`) for the
    /// resource `audience` (this server's canonical URI).
    pub fn new(issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        IntrospectionValidator {
            issuer: issuer.into(),
            audience: audience.into(),
            client: None,
            endpoint: None,
            cache_for: Duration::from_secs(10),
            state: Arc::new(State {
                endpoint: Mutex::new(None),
                taken: Mutex::new(HashMap::new()),
                http: oauth_http_client(),
            }),
        }
    }

    /// This server's own client credentials at the authorization server, sent with each
    /// introspection (most servers answer only their registered clients).
    ///
    /// ```
    /// let validator = toolgen_runtime::IntrospectionValidator::new("https://auth.example.com", "https://mcp.example.com")
    ///     .client("notes-server", "its secret");
    /// # drop(validator);
    /// ```
    #[must_use]
    pub fn client(
        mut self,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Self {
        self.client = Some((client_id.into(), client_secret.into()));
        self
    }

    /// The introspection endpoint, where the issuer's metadata should not be asked.
    ///
    /// ```
    /// let validator = toolgen_runtime::IntrospectionValidator::new("https://auth.example.com", "https://mcp.example.com")
    ///     .endpoint("https://auth.example.com/token/introspection");
    /// # drop(validator);
    /// ```
    #[must_use]
    pub fn endpoint(mut self, uri: impl Into<String>) -> Self {
        self.endpoint = Some(uri.into());
        self
    }

    /// How long a token taken is remembered before it is asked about again (10 s unless set;
    /// zero asks each time): the longest a revoked token may still be taken.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let validator = toolgen_runtime::IntrospectionValidator::new("https://auth.example.com", "https://mcp.example.com")
    ///     .cache_for(Duration::ZERO);
    /// # drop(validator);
    /// ```
    #[must_use]
    pub fn cache_for(mut self, duration: Duration) -> Self {
        self.cache_for = duration;
        self
    }
}

impl TokenValidator for IntrospectionValidator {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        Box::pin(self.check(token))
    }
}

/// Seconds since the epoch.
fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_secs()).unwrap_or(i64::MAX)
        })
}

impl IntrospectionValidator {
    async fn check(&self, token: &str) -> Result<Principal, TokenError> {
        if let Some(principal) = self.remembered(token) {
            return Ok(principal);
        }
        let answer = self
            .introspect(token)
            .await
            .map_err(|why| TokenError::new(format!("the token could not be checked: {why}")))?;
        let claims = self.check_answer(answer)?;
        let exp = claims.get("exp").and_then(Value::as_i64);
        let principal = Principal::from_claims(claims);
        self.remember(token, &principal, exp);
        Ok(principal)
    }

    fn remembered(&self, token: &str) -> Option<Principal> {
        let taken = lock(&self.state.taken);
        let (principal, until) = taken.get(token)?;
        (Instant::now() < *until).then(|| principal.clone())
    }

    fn remember(&self, token: &str, principal: &Principal, exp: Option<i64>) {
        let mut lasts = self.cache_for;
        if let Some(exp) = exp {
            let left = u64::try_from(exp.saturating_sub(now())).unwrap_or(0);
            lasts = lasts.min(Duration::from_secs(left));
        }
        if lasts.is_zero() {
            return;
        }
        let mut taken = lock(&self.state.taken);
        if taken.len() >= MAX_CACHED {
            let now = Instant::now();
            taken.retain(|_, (_, until)| *until > now);
            if taken.len() >= MAX_CACHED {
                taken.clear();
            }
        }
        taken.insert(
            token.to_owned(),
            (principal.clone(), Instant::now() + lasts),
        );
    }

    /// The introspection endpoint's answer about `token`.
    async fn introspect(&self, token: &str) -> Result<Value, String> {
        let http = (self.state.http.as_ref()).ok_or("no HTTP client could be built")?;
        let known = (self.endpoint.clone()).or_else(|| lock(&self.state.endpoint).clone());
        let endpoint = match known {
            Some(endpoint) => endpoint,
            None => {
                let found =
                    authorization_server_endpoint(http, &self.issuer, "introspection_endpoint")
                        .await?;
                *lock(&self.state.endpoint) = Some(found.clone());
                found
            }
        };
        let body = form_urlencoded::Serializer::new(String::new())
            .append_pair("token", token)
            .append_pair("token_type_hint", "access_token")
            .finish();
        let mut request = http
            .post(&endpoint)
            .header(
                http::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .body(body);
        if let Some((id, secret)) = &self.client {
            request = basic_auth(request, id, secret);
        }
        fetch_json(request).await
    }

    /// The claims of an introspection's answer, where it says the token is for this server now.
    fn check_answer(&self, answer: Value) -> Result<Map<String, Value>, TokenError> {
        let Value::Object(claims) = answer else {
            return Err(TokenError::new(
                "the introspection's answer is not a JSON object",
            ));
        };
        if claims.get("active") != Some(&Value::Bool(true)) {
            return Err(TokenError::new("the token is not active"));
        }
        let for_us = match claims.get("aud") {
            Some(Value::String(audience)) => *audience == self.audience,
            Some(Value::Array(audiences)) => audiences
                .iter()
                .any(|audience| audience.as_str() == Some(self.audience.as_str())),
            _ => false,
        };
        if !for_us {
            return Err(TokenError::new(
                "the token is for another resource (its audience is not this server)",
            ));
        }
        if claims
            .get("iss")
            .is_some_and(|issuer| issuer.as_str() != Some(&self.issuer))
        {
            return Err(TokenError::new("the token is from another issuer"));
        }
        let time = |name: &str| claims.get(name).and_then(Value::as_i64);
        if time("exp").is_some_and(|exp| exp <= now()) {
            return Err(TokenError::new("the token has expired"));
        }
        if time("nbf").is_some_and(|nbf| nbf > now()) {
            return Err(TokenError::new("the token is not valid yet (nbf)"));
        }
        Ok(claims)
    }
}
