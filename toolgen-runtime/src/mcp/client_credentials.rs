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
///
/// [`discover`](ClientCredentials::discover) needs only the client's id and secret: the
/// authorization server, the resource and the scopes are read from the far server, as the MCP
/// authorization specification's client finds them.
#[derive(Clone)]
pub struct ClientCredentials {
    /// Empty with `discover` (found from the far server then).
    issuer: String,
    /// Whether the issuer, the resource and the scopes are found from the far server.
    discover: bool,
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
    /// With `discover`: what the far server said of its authorization, and at which URL.
    found: tokio::sync::Mutex<Option<Found>>,
    /// The token held, and when to ask for another; held while one is fetched.
    held: tokio::sync::Mutex<Option<(String, Option<Instant>)>>,
    http: Option<reqwest::Client>,
}

impl std::fmt::Debug for ClientCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientCredentials")
            .field("issuer", &self.issuer)
            .field("discover", &self.discover)
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
            discover: false,
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            resource: None,
            scope: None,
            token_endpoint: None,
            state: Arc::new(State {
                token_endpoint: Mutex::new(None),
                found: tokio::sync::Mutex::new(None),
                held: tokio::sync::Mutex::new(None),
                http: oauth_http_client(),
            }),
        }
    }

    /// The client `client_id` with `client_secret` at whichever authorization server the far
    /// server names, found as the MCP authorization specification's client finds it, when it is
    /// first asked for a token for the far server's URL:
    ///
    /// - the far server's 401 names its Protected Resource Metadata (RFC 9728) in its
    ///   `WWW-Authenticate` `resource_metadata`; without one, the metadata is asked for at the
    ///   well-known URL with the server's path, then at the one without;
    /// - the metadata's `resource` must be the far server's URL (RFC 9728, section 3.3; for the
    ///   document at the root, its origin may be named instead), else it is not used and no
    ///   token is asked for; it is sent as the token's `resource` (RFC 8707);
    /// - its first `authorization_servers` is the issuer, whose metadata (RFC 8414, else OpenID
    ///   Connect Discovery) must name that issuer and a `token_endpoint`;
    /// - the scopes are those set with [`scope`](ClientCredentials::scope), else the 401's
    ///   `scope`, else the metadata's `scopes_supported`, else none.
    ///
    /// Use it with
    /// [`McpToolset::http_with_credentials`](super::McpToolset::http_with_credentials), which
    /// gives it the far server's URL; its [`token`](TokenProvider::token), without a URL, is an
    /// error. What it found, and the token, are for that URL: give each far server its own
    /// (clones share them, and asked for another URL they find it again, the token held
    /// dropped).
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), toolgen_runtime::McpClientError> {
    /// use toolgen_runtime::{ClientCredentials, McpToolset};
    ///
    /// let secret = std::env::var("GATEWAY_SECRET").unwrap_or_default();
    /// let credentials = ClientCredentials::discover("gateway", secret);
    /// let notes = McpToolset::http_with_credentials("https://notes.example.com/mcp", credentials).await?;
    /// # drop(notes);
    /// # Ok(())
    /// # }
    /// ```
    pub fn discover(client_id: impl Into<String>, client_secret: impl Into<String>) -> Self {
        let mut credentials = ClientCredentials::new(String::new(), client_id, client_secret);
        credentials.discover = true;
        credentials
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
        Box::pin(async move {
            if self.discover {
                return Err(TokenError::new(
                    "ClientCredentials::discover finds its authorization server from the far \
                     server, whose URL it is not given here: use it with \
                     McpToolset::http_with_credentials",
                ));
            }
            let target = Target {
                issuer: &self.issuer,
                resource: self.resource.as_deref(),
                scope: self.scope.as_deref(),
                token_endpoint: None,
            };
            self.held_or_fetched(&target, refused).await
        })
    }

    fn token_for<'a>(&'a self, url: &'a str, refused: Option<&'a str>) -> TokenFuture<'a> {
        if !self.discover {
            return self.token(refused);
        }
        Box::pin(async move {
            let http = (self.state.http.as_ref())
                .ok_or_else(|| TokenError::new("no HTTP client could be built"))?;
            let mut found = self.state.found.lock().await;
            let known = match found.take() {
                Some(known) if known.url == url => known,
                _ => {
                    let discovered = discover(http, url).await.map_err(|why| {
                        TokenError::new(format!("the far server's authorization: {why}"))
                    })?;
                    // (Another far server: the token held was for the one before.)
                    *self.state.held.lock().await = None;
                    discovered
                }
            };
            let known = found.insert(known);
            let target = Target {
                issuer: &known.issuer,
                resource: Some(&known.resource),
                scope: self.scope.as_deref().or(known.scope.as_deref()),
                token_endpoint: Some(&known.token_endpoint),
            };
            self.held_or_fetched(&target, refused).await
        })
    }
}

/// Where a token is asked for, and what for.
struct Target<'a> {
    issuer: &'a str,
    resource: Option<&'a str>,
    scope: Option<&'a str>,
    /// Known already (found with the issuer's metadata).
    token_endpoint: Option<&'a str>,
}

/// What the far server at `url` says of its authorization.
struct Found {
    url: String,
    issuer: String,
    resource: String,
    scope: Option<String>,
    token_endpoint: String,
}

/// The far server's authorization, as the MCP specification's client finds it (see
/// [`ClientCredentials::discover`]).
async fn discover(http: &reqwest::Client, url: &str) -> Result<Found, String> {
    let (origin, path) = origin_and_path(url)?;
    // A request without a token: its 401 names the metadata, and the scopes to ask for.
    let probe = http
        .get(url)
        .header(http::header::ACCEPT, "text/event-stream")
        .send()
        .await
        .map_err(|error| format!("{url} could not be asked ({error})"))?;
    let challenge = (probe.status() == reqwest::StatusCode::UNAUTHORIZED)
        .then(|| probe.headers().get(http::header::WWW_AUTHENTICATE))
        .flatten()
        .and_then(|value| value.to_str().ok())
        .map(bearer_params)
        .unwrap_or_default();
    drop(probe);
    let param = |name: &str| {
        (challenge.iter())
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    };
    // Each place the metadata may be, with the resources it may name (RFC 9728, section 3.3:
    // the URL requested; for the document at the root, the origin it was put after too).
    let root = format!("{origin}/.well-known/oauth-protected-resource");
    let candidates = match (param("resource_metadata"), path.is_empty()) {
        (Some(named), _) => vec![(named.to_owned(), vec![url])],
        (None, true) => vec![(root, vec![url, origin])],
        (None, false) => vec![
            (format!("{root}{path}"), vec![url]),
            (root, vec![url, origin]),
        ],
    };
    let mut failures = Vec::new();
    let mut fetched = None;
    for (at, resources) in candidates {
        match fetch_json(http.get(&at)).await {
            Ok(metadata) => {
                fetched = Some((at, resources, metadata));
                break;
            }
            Err(why) => failures.push(why),
        }
    }
    let Some((at, resources, metadata)) = fetched else {
        return Err(format!(
            "no Protected Resource Metadata: {}",
            failures.join("; ")
        ));
    };
    let resource = match metadata.get("resource").and_then(Value::as_str) {
        Some(resource) if resources.contains(&resource) => resource,
        named => {
            let named = named.map_or_else(|| "no resource".to_owned(), |r| format!("`{r}`"));
            return Err(format!(
                "the metadata at {at} names {named}, not {url}; it is not used (RFC 9728, \
                 section 3.3)"
            ));
        }
    };
    let issuer = (metadata.get("authorization_servers"))
        .and_then(|servers| servers.get(0))
        .and_then(Value::as_str)
        .ok_or_else(|| format!("the metadata at {at} names no authorization server"))?;
    let token_endpoint = authorization_server_endpoint(http, issuer, "token_endpoint").await?;
    let supported = (metadata.get("scopes_supported").and_then(Value::as_array)).map(|scopes| {
        let scopes: Vec<&str> = scopes.iter().filter_map(Value::as_str).collect();
        scopes.join(" ")
    });
    let scope = (param("scope").map(str::to_owned))
        .or(supported)
        .filter(|scope| !scope.is_empty());
    Ok(Found {
        url: url.to_owned(),
        issuer: issuer.to_owned(),
        resource: resource.to_owned(),
        scope,
        token_endpoint,
    })
}

/// The origin (`scheme://authority`) of the absolute URL `url`, and its path without its
/// trailing `/` (the well-known URLs are built from both: RFC 9728, section 3.1).
fn origin_and_path(url: &str) -> Result<(&str, &str), String> {
    let not_url = || format!("`{url}` is not an absolute http(s) URL");
    let (scheme, rest) = url.split_once("://").ok_or_else(not_url)?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return Err(not_url());
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let origin = url.get(..scheme.len() + 3 + end).ok_or_else(not_url)?;
    if end == 0 {
        return Err(not_url());
    }
    let after = url.get(origin.len()..).unwrap_or_default();
    let path = after.split(['?', '#']).next().unwrap_or_default();
    Ok((origin, path.trim_end_matches('/')))
}

/// The parameters of the `Bearer` challenge of a `WWW-Authenticate` value (RFC 9110, section
/// 11.6.1: `scheme name=value, name="quoted \" value"`, challenges of other schemes around it
/// skipped), each value as it reads (a quoted string's `\` escapes undone).
fn bearer_params(header: &str) -> Vec<(String, String)> {
    let is_token = |c: &char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(*c);
    let is_space = |c: &char| *c == ' ' || *c == '\t';
    let mut chars = header.chars().peekable();
    let mut params = Vec::new();
    let mut in_bearer = false;
    while let Some(&c) = chars.peek() {
        if is_space(&c) || c == ',' {
            chars.next();
            continue;
        }
        let name: String = std::iter::from_fn(|| chars.next_if(is_token)).collect();
        if name.is_empty() {
            // Not a token (a stray character): skipped.
            chars.next();
            continue;
        }
        while chars.next_if(is_space).is_some() {}
        if chars.next_if_eq(&'=').is_none() {
            // A scheme, which the parameters after it are of.
            in_bearer = name.eq_ignore_ascii_case("bearer");
            continue;
        }
        while chars.next_if(is_space).is_some() {}
        let mut value = String::new();
        if chars.next_if_eq(&'"').is_some() {
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => value.extend(chars.next()),
                    c => value.push(c),
                }
            }
        } else {
            let token68 = |c: &char| is_token(c) || *c == '/';
            value.extend(std::iter::from_fn(|| chars.next_if(token68)));
        }
        if in_bearer {
            params.push((name, value));
        }
    }
    params
}

/// How long before its expiry a token is replaced: 30 s, or half its life if shorter.
fn margin(lifetime: Duration) -> Duration {
    Duration::from_secs(30).min(lifetime / 2)
}

impl ClientCredentials {
    async fn held_or_fetched(
        &self,
        target: &Target<'_>,
        refused: Option<&str>,
    ) -> Result<String, TokenError> {
        let mut held = self.state.held.lock().await;
        if let Some((token, renew_at)) = &*held {
            let current = renew_at.is_none_or(|at| Instant::now() < at);
            // (A token refused while another call waited for this lock is replaced already.)
            if current && refused != Some(token.as_str()) {
                return Ok(token.clone());
            }
        }
        let (token, lifetime) = self.fetch(target).await.map_err(|why| {
            TokenError::new(format!(
                "the authorization server `{}` gave no token: {why}",
                target.issuer
            ))
        })?;
        let renew_at = lifetime.map(|lifetime| Instant::now() + lifetime - margin(lifetime));
        *held = Some((token.clone(), renew_at));
        Ok(token)
    }

    /// A new token from the token endpoint, and how long it lives.
    async fn fetch(&self, target: &Target<'_>) -> Result<(String, Option<Duration>), String> {
        let http = (self.state.http.as_ref()).ok_or("no HTTP client could be built")?;
        let known = (target.token_endpoint.map(str::to_owned))
            .or_else(|| self.token_endpoint.clone())
            .or_else(|| {
                (self.state.token_endpoint.lock())
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone()
            });
        let endpoint = match known {
            Some(endpoint) => endpoint,
            None => {
                let found =
                    authorization_server_endpoint(http, target.issuer, "token_endpoint").await?;
                *(self.state.token_endpoint.lock()).unwrap_or_else(PoisonError::into_inner) =
                    Some(found.clone());
                found
            }
        };
        let body = {
            let mut form = form_urlencoded::Serializer::new(String::new());
            form.append_pair("grant_type", "client_credentials");
            if let Some(resource) = target.resource {
                form.append_pair("resource", resource);
            }
            if let Some(scope) = target.scope {
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

#[cfg(test)]
mod tests {
    use super::{bearer_params, origin_and_path};

    fn param(header: &str, name: &str) -> Option<String> {
        let params = bearer_params(header);
        params
            .into_iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value)
    }

    #[test]
    fn the_bearer_challenges_parameters_are_read() {
        let header = r#"Bearer error="invalid_token", scope="a b", resource_metadata="http://h/.well-known/oauth-protected-resource/mcp""#;
        assert_eq!(
            param(header, "resource_metadata").as_deref(),
            Some("http://h/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(param(header, "scope").as_deref(), Some("a b"));
        // A name inside another's quoted value, a longer name ending in it, a token value.
        let header = r#"Bearer error_description="no scope=x here", x_scope="no", scope=s"#;
        assert_eq!(param(header, "scope").as_deref(), Some("s"));
        assert_eq!(
            param(r#"Bearer scope="a\"b""#, "scope").as_deref(),
            Some("a\"b")
        );
        // Another scheme's parameters are not the Bearer challenge's.
        let header = r#"Basic realm="x", scope="basic", Bearer scope="bearer""#;
        assert_eq!(param(header, "scope").as_deref(), Some("bearer"));
        assert_eq!(param(r#"DPoP scope="dpop""#, "scope"), None);
        // Cut short, empty, or odd: no panic, nothing made up.
        assert_eq!(
            param(r#"Bearer scope="open"#, "scope").as_deref(),
            Some("open")
        );
        assert_eq!(param("Bearer", "scope"), None);
        assert_eq!(param("Bearer scope", "scope"), None);
        assert_eq!(param("Bearer scope=", "scope").as_deref(), Some(""));
        assert_eq!(
            param("Bearer \u{e9}\u{e9} scope=\"\\", "scope").as_deref(),
            Some("")
        );
        assert_eq!(bearer_params(""), []);
    }

    #[test]
    fn a_url_is_its_origin_and_its_path() {
        assert_eq!(
            origin_and_path("http://h:1/mcp/"),
            Ok(("http://h:1", "/mcp"))
        );
        assert_eq!(
            origin_and_path("https://h/a/b?x=1"),
            Ok(("https://h", "/a/b"))
        );
        assert_eq!(origin_and_path("http://h"), Ok(("http://h", "")));
        assert_eq!(origin_and_path("http://h/"), Ok(("http://h", "")));
        assert!(origin_and_path("/mcp").is_err());
        assert!(origin_and_path("http:///mcp").is_err());
        assert!(origin_and_path("ftp://h/mcp").is_err());
    }
}
