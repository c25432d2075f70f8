//! An [`McpServer`](super::McpServer) over HTTP as an OAuth 2.1 resource server, as the MCP
//! specification's authorization chapter says (2025-11-25 and 2026-07-28): its Protected
//! Resource Metadata (RFC 9728), the bearer token of each request validated, and the
//! challenges of RFC 6750 (401, 403 `insufficient_scope`, 400) when it is not enough.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Method, Response, StatusCode, Uri};
use http_body_util::{BodyExt, Full};
use serde_json::{Value, json};

use super::http::{ReplyBody, rpc_error};
use crate::run::principal::Principal;

/// The future of [`TokenValidator::validate`].
pub type ValidateFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Principal, TokenError>> + Send + 'a>>;

/// Checks an access token and says who it stands for: an MCP server's
/// [`ResourceServer`] asks it for each request. toolgen has `JwtValidator` (feature `oauth`:
/// JWT access tokens checked against the authorization server's keys); write your own for
/// opaque tokens, or to map scopes (a broader scope granting narrower ones, which the
/// specification asks a server to honour).
///
/// A validator must refuse a token issued for another resource (RFC 8707): its audience is
/// this server's canonical URI.
///
/// ```
/// use toolgen_runtime::{Principal, TokenError, TokenValidator, ValidateFuture};
///
/// /// Tokens from a table (a test's, or an internal tool's).
/// struct Table(Vec<(&'static str, Principal)>);
///
/// impl TokenValidator for Table {
///     fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
///         let found = self.0.iter().find(|(known, _)| *known == token);
///         let principal = found.map(|(_, principal)| principal.clone());
///         Box::pin(async move { principal.ok_or_else(|| TokenError::new("unknown token")) })
///     }
/// }
/// ```
pub trait TokenValidator: Send + Sync + 'static {
    /// The principal `token` stands for, or why it is refused (the client reads it in the
    /// `error_description` of a 401 `invalid_token`: say what is wrong, not what the token
    /// holds).
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a>;
}

/// Why a [`TokenValidator`] refused a token: answered with HTTP 401, `invalid_token`, and this
/// message as its `error_description`.
///
/// ```
/// let error = toolgen_runtime::TokenError::new("the token has expired");
/// assert_eq!(error.to_string(), "the token has expired");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenError {
    message: String,
}

impl TokenError {
    /// A refusal saying `message`.
    pub fn new(message: impl Into<String>) -> Self {
        TokenError {
            message: message.into(),
        }
    }
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TokenError {}

/// A resource URI that cannot be an MCP server's canonical URI (RFC 8707: absolute, with a
/// scheme and a host, no fragment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidResource(String);

impl fmt::Display for InvalidResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidResource {}

/// The authorization of an MCP server served over HTTP (give it to
/// [`HttpOptions::authorization`](crate::HttpOptions::authorization)): the server's canonical
/// URI, its authorization servers, the scopes it knows, and the [`TokenValidator`] of its
/// access tokens. With it, every request but the GET of the metadata document needs a valid
/// bearer token, and a `tools/call` needs the scopes of its tool (`#[tool(scope = "..")]`).
///
/// | request | answer |
/// |---|---|
/// | `GET /.well-known/oauth-protected-resource` (and `../oauth-protected-resource/<path>`) | 200, the metadata (RFC 9728), without a token |
/// | no `Authorization: Bearer` header | 401, `WWW-Authenticate: Bearer resource_metadata=".."` (with `scope` where known) |
/// | an `Authorization` header that is not `Bearer <token>`, or several | 400, `error="invalid_request"` |
/// | `access_token` in the query string | 400, `error="invalid_request"` (the specification forbids it) |
/// | a token the validator refuses (bad signature, expired, not yet valid, another issuer or audience, algorithm not allowed, unknown key) | 401, `error="invalid_token"` |
/// | a token without the scopes the request needs | 403, `error="insufficient_scope"`, `scope` the scopes needed |
/// | the `Mcp-Session-Id` of a session opened by another identity (another `sub` or `iss`; without `sub`, another client) | 404, as for a session the server does not hold |
///
/// Each refusal's body is a JSON-RPC error (`"id": null`); the tool does not run.
///
/// ```
/// use toolgen_runtime::{Principal, HttpOptions, ResourceServer, TokenError, TokenValidator, ValidateFuture};
///
/// struct Nobody;
/// impl TokenValidator for Nobody {
///     fn validate<'a>(&'a self, _: &'a str) -> ValidateFuture<'a> {
///         Box::pin(async { Err(TokenError::new("no token is valid here")) })
///     }
/// }
///
/// let auth = ResourceServer::new("https://mcp.example.com/mcp", Nobody)
///     .unwrap()
///     .authorization_servers(["https://auth.example.com"])
///     .scopes_supported(["notes:read", "notes:write"]);
/// assert_eq!(
///     auth.metadata_url(),
///     "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
/// );
/// let options = HttpOptions::default()
///     .allowed_hosts(["mcp.example.com"])
///     .authorization(auth);
/// # drop(options);
/// ```
#[derive(Clone)]
pub struct ResourceServer {
    resource: String,
    /// The path of the metadata document for `resource` (RFC 9728, section 3.1).
    metadata_path: String,
    metadata_url: String,
    authorization_servers: Vec<String>,
    scopes_supported: Vec<String>,
    required_scopes: Vec<String>,
    validator: Arc<dyn TokenValidator>,
}

impl fmt::Debug for ResourceServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceServer")
            .field("resource", &self.resource)
            .field("authorization_servers", &self.authorization_servers)
            .field("scopes_supported", &self.scopes_supported)
            .field("required_scopes", &self.required_scopes)
            .finish_non_exhaustive()
    }
}

/// The reply refusing a request.
pub(super) type Refusal = Box<Response<ReplyBody>>;

/// Where RFC 9728 puts a resource's metadata.
const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

impl ResourceServer {
    /// The authorization of the MCP server whose canonical URI is `resource` (what clients
    /// name in their token requests' `resource`, and what its tokens' audience must be:
    /// `https://mcp.example.com/mcp`), its tokens checked by `validator`.
    ///
    /// An error if `resource` is not an absolute URI with a scheme and a host, or has a query
    /// or a fragment.
    ///
    /// ```
    /// # use toolgen_runtime::{ResourceServer, TokenError, TokenValidator, ValidateFuture};
    /// # struct Nobody;
    /// # impl TokenValidator for Nobody {
    /// #     fn validate<'a>(&'a self, _: &'a str) -> ValidateFuture<'a> {
    /// #         Box::pin(async { Err(TokenError::new("no")) })
    /// #     }
    /// # }
    /// assert!(ResourceServer::new("mcp.example.com", Nobody).is_err());
    /// let auth = ResourceServer::new("http://127.0.0.1:8080", Nobody).unwrap();
    /// assert_eq!(auth.metadata_url(), "http://127.0.0.1:8080/.well-known/oauth-protected-resource");
    /// ```
    pub fn new(
        resource: impl Into<String>,
        validator: impl TokenValidator,
    ) -> Result<Self, InvalidResource> {
        let resource = resource.into();
        let invalid = |why: &str| InvalidResource(format!("invalid resource `{resource}`: {why}"));
        if resource.contains('#') {
            return Err(invalid("a resource URI has no fragment"));
        }
        let uri: Uri = resource
            .parse()
            .map_err(|_| invalid("not a URI; write `https://host/path`"))?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err(invalid(
                "an absolute URI with a scheme and a host, `https://host/path`",
            ));
        };
        if uri.query().is_some() {
            return Err(invalid("a resource URI has no query"));
        }
        let path = uri.path().trim_end_matches('/');
        let metadata_path = format!("{WELL_KNOWN}{path}");
        Ok(ResourceServer {
            metadata_url: format!("{scheme}://{authority}{metadata_path}"),
            metadata_path,
            resource,
            authorization_servers: Vec::new(),
            scopes_supported: Vec::new(),
            required_scopes: Vec::new(),
            validator: Arc::new(validator),
        })
    }

    /// The issuers of the authorization servers whose tokens are taken (the metadata's
    /// `authorization_servers`; clients need at least one).
    #[must_use]
    pub fn authorization_servers(
        mut self,
        issuers: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.authorization_servers = issuers.into_iter().map(Into::into).collect();
        self
    }

    /// The scopes a client asks for to begin with (the metadata's `scopes_supported`, and the
    /// `scope` of a 401 when no scope is required of every request): the least that basic use
    /// needs, others asked for when a tool's 403 names them.
    #[must_use]
    pub fn scopes_supported(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes_supported = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Scopes every request needs (none unless set): a token without them gets 403
    /// `insufficient_scope`, whatever the method.
    ///
    /// ```
    /// # use toolgen_runtime::{ResourceServer, TokenError, TokenValidator, ValidateFuture};
    /// # struct Nobody;
    /// # impl TokenValidator for Nobody {
    /// #     fn validate<'a>(&'a self, _: &'a str) -> ValidateFuture<'a> {
    /// #         Box::pin(async { Err(TokenError::new("no")) })
    /// #     }
    /// # }
    /// let auth = ResourceServer::new("https://mcp.example.com", Nobody).unwrap().required_scopes(["mcp"]);
    /// assert_eq!(auth.metadata()["scopes_supported"], serde_json::json!(["mcp"]));
    /// ```
    #[must_use]
    pub fn required_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.required_scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The canonical URI of the server, as given.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// The URL of the metadata document, as the 401's `resource_metadata` names it.
    pub fn metadata_url(&self) -> &str {
        &self.metadata_url
    }

    /// The Protected Resource Metadata document (RFC 9728): `resource`,
    /// `authorization_servers`, `scopes_supported` (those set, else the required ones; left
    /// out when there are none) and `bearer_methods_supported` (`header` only). Serve it
    /// yourself at [`metadata_url`](ResourceServer::metadata_url) when the service is mounted
    /// under a path of your own stack (the server answers it at both well-known paths).
    ///
    /// ```
    /// # use toolgen_runtime::{ResourceServer, TokenError, TokenValidator, ValidateFuture};
    /// # struct Nobody;
    /// # impl TokenValidator for Nobody {
    /// #     fn validate<'a>(&'a self, _: &'a str) -> ValidateFuture<'a> {
    /// #         Box::pin(async { Err(TokenError::new("no")) })
    /// #     }
    /// # }
    /// let auth = ResourceServer::new("https://mcp.example.com/mcp", Nobody)
    ///     .unwrap()
    ///     .authorization_servers(["https://auth.example.com"]);
    /// assert_eq!(auth.metadata(), serde_json::json!({
    ///     "resource": "https://mcp.example.com/mcp",
    ///     "authorization_servers": ["https://auth.example.com"],
    ///     "bearer_methods_supported": ["header"],
    /// }));
    /// ```
    pub fn metadata(&self) -> Value {
        let mut document = serde_json::Map::new();
        document.insert("resource".into(), json!(self.resource));
        document.insert(
            "authorization_servers".into(),
            json!(self.authorization_servers),
        );
        if let Some(scopes) = self.advertised_scopes() {
            document.insert("scopes_supported".into(), json!(scopes));
        }
        document.insert("bearer_methods_supported".into(), json!(["header"]));
        Value::Object(document)
    }

    /// The scopes a client is told to ask for first.
    fn advertised_scopes(&self) -> Option<&[String]> {
        [&self.scopes_supported, &self.required_scopes]
            .into_iter()
            .find(|scopes| !scopes.is_empty())
            .map(Vec::as_slice)
    }

    /// The metadata document, for a GET of one of its paths.
    pub(super) fn metadata_reply(
        &self,
        method: &Method,
        path: &str,
    ) -> Option<Response<ReplyBody>> {
        let path = path.trim_end_matches('/');
        if *method != Method::GET || (path != WELL_KNOWN && path != self.metadata_path) {
            return None;
        }
        let mut reply = Response::new(Full::new(Bytes::from(self.metadata().to_string())).boxed());
        let headers = reply.headers_mut();
        headers.insert(
            http::header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        // (Browser clients read it from another origin.)
        headers.insert(
            http::header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        Some(reply)
    }

    /// The principal of a request, or the refusal to answer it with.
    pub(super) async fn authorize(
        &self,
        headers: &HeaderMap,
        uri: &Uri,
    ) -> Result<Principal, Refusal> {
        if uri.query().is_some_and(has_query_token) {
            return Err(Box::new(self.malformed(
                "an access token in the query string is refused; send it in the Authorization \
                 header",
            )));
        }
        let token = match bearer_token(headers) {
            Bearer::Token(token) => token,
            Bearer::Missing => return Err(Box::new(self.unauthorized())),
            Bearer::Malformed(why) => return Err(Box::new(self.malformed(why))),
        };
        let principal = self
            .validator
            .validate(token)
            .await
            .map_err(|error| Box::new(self.invalid_token(&error)))?;
        self.check_scopes(&principal, &self.required_scopes)?;
        Ok(principal)
    }

    /// The 403 for `principal` where it lacks some of `required`; `required` whole in its `scope`
    /// (the scopes the operation needs, as the 2026-07-28 specification asks; the client adds
    /// those it holds).
    pub(super) fn check_scopes<S: AsRef<str>>(
        &self,
        principal: &Principal,
        required: &[S],
    ) -> Result<(), Refusal> {
        let missing = principal.missing(required);
        if missing.is_empty() {
            return Ok(());
        }
        let scope = required
            .iter()
            .map(AsRef::as_ref)
            .collect::<Vec<_>>()
            .join(" ");
        let description = format!("the token lacks the scope {}", missing.join(" "));
        Err(Box::new(self.challenge(
            StatusCode::FORBIDDEN,
            Some(("insufficient_scope", &description)),
            Some(&scope),
            "Forbidden",
        )))
    }

    /// The 401 to a request without a token.
    fn unauthorized(&self) -> Response<ReplyBody> {
        let scope = self.advertised_scopes().map(|scopes| scopes.join(" "));
        let mut reply = self.challenge(
            StatusCode::UNAUTHORIZED,
            None,
            scope.as_deref(),
            "Unauthorized",
        );
        *reply.body_mut() = rpc_body(
            "Unauthorized: this server needs an OAuth access token (Authorization: Bearer); \
             its WWW-Authenticate header names the metadata that says where to get one",
        );
        reply
    }

    fn invalid_token(&self, error: &TokenError) -> Response<ReplyBody> {
        self.challenge(
            StatusCode::UNAUTHORIZED,
            Some(("invalid_token", &error.message)),
            None,
            "Unauthorized",
        )
    }

    fn malformed(&self, why: &str) -> Response<ReplyBody> {
        self.challenge(
            StatusCode::BAD_REQUEST,
            Some(("invalid_request", why)),
            None,
            "Bad Request",
        )
    }

    /// A refusal with its `WWW-Authenticate` challenge (RFC 6750, section 3) and a JSON-RPC
    /// error saying the same.
    fn challenge(
        &self,
        status: StatusCode,
        error: Option<(&str, &str)>,
        scope: Option<&str>,
        reason: &str,
    ) -> Response<ReplyBody> {
        let mut challenge = String::from("Bearer ");
        let mut params = Vec::new();
        if let Some((code, description)) = error {
            params.push(("error", code));
            params.push(("error_description", description));
        }
        if let Some(scope) = scope {
            params.push(("scope", scope));
        }
        params.push(("resource_metadata", &self.metadata_url));
        let params: Vec<String> = params
            .into_iter()
            .map(|(name, value)| format!("{name}=\"{}\"", quoted(value)))
            .collect();
        challenge.push_str(&params.join(", "));
        let message = match error {
            Some((code, description)) => format!("{reason}: {code}: {description}"),
            None => reason.to_owned(),
        };
        let mut reply = rpc_error(status, INVALID_REQUEST, message);
        // (`quoted` leaves visible ASCII only: the value is always a header's.)
        if let Ok(value) = HeaderValue::from_str(&challenge) {
            reply
                .headers_mut()
                .insert(http::header::WWW_AUTHENTICATE, value);
        }
        reply
    }
}

/// The most bytes read of an authorization server's document (its metadata, its keys, an
/// introspection's answer).
#[cfg(feature = "oauth")]
const MAX_DOCUMENT_BYTES: usize = 1 << 20;

/// The JSON document `request` fetches: a success status, at most 1 MiB, JSON; else why not.
#[cfg(feature = "oauth")]
pub(super) async fn fetch_json(request: reqwest::RequestBuilder) -> Result<Value, String> {
    let mut response = request
        .header(http::header::ACCEPT, "application/json")
        .send()
        .await
        .map_err(|error| format!("the request failed ({error})"))?;
    let url = response.url().to_string();
    if !response.status().is_success() {
        return Err(format!(
            "{url} answered HTTP {}",
            response.status().as_u16()
        ));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|error| format!("{url} could not be read ({error})"))?
    {
        if body.len() + chunk.len() > MAX_DOCUMENT_BYTES {
            return Err(format!("{url} is over {MAX_DOCUMENT_BYTES} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    serde_json::from_slice(&body).map_err(|error| format!("{url} is not JSON ({error})"))
}

/// The HTTP client of the fetches from an authorization server: a 10 s timeout, no redirects
/// (a token, a secret or a key set is never sent on, or taken from, another place than the one
/// configured), and no idle connection kept (one the server has closed in the meantime failed
/// the next introspection with oidc-provider, whose Node server closes idle connections).
/// `None` where it cannot be built (without TLS it cannot fail; if it did, every fetch says so).
#[cfg(feature = "oauth")]
pub(super) fn oauth_http_client() -> Option<reqwest::Client> {
    reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(10))
        .pool_max_idle_per_host(0)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .ok()
}

/// The metadata of the authorization server `issuer`: RFC 8414's well-known path, else OpenID
/// Connect Discovery's (for an issuer with a path, with the well-known part put before it, then
/// after it, as the MCP specification's client tries them); its `issuer` must be the one asked
/// for (RFC 8414, section 3.3).
#[cfg(feature = "oauth")]
pub(super) async fn authorization_server_metadata(
    http: &reqwest::Client,
    issuer: &str,
) -> Result<Value, String> {
    let trimmed = issuer.trim_end_matches('/');
    let (origin, path) = match trimmed.find("://") {
        Some(scheme) => match trimmed[scheme + 3..].find('/') {
            Some(slash) => trimmed.split_at(scheme + 3 + slash),
            None => (trimmed, ""),
        },
        None => return Err(format!("the issuer `{issuer}` is not a URL")),
    };
    let mut candidates = vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}/.well-known/openid-configuration{path}"),
    ];
    if !path.is_empty() {
        candidates.push(format!("{trimmed}/.well-known/openid-configuration"));
    }
    let mut failures = Vec::new();
    for url in candidates {
        match fetch_json(http.get(&url)).await {
            Ok(metadata) if metadata.get("issuer").and_then(Value::as_str) == Some(issuer) => {
                return Ok(metadata);
            }
            Ok(_) => {
                return Err(format!(
                    "the metadata at {url} is not the issuer `{issuer}`'s"
                ));
            }
            Err(why) => failures.push(why),
        }
    }
    Err(failures.join("; "))
}

/// The endpoint `name` (`jwks_uri`, `token_endpoint`, ..) of the authorization server `issuer`,
/// from its metadata.
#[cfg(feature = "oauth")]
pub(super) async fn authorization_server_endpoint(
    http: &reqwest::Client,
    issuer: &str,
    name: &str,
) -> Result<String, String> {
    let metadata = authorization_server_metadata(http, issuer).await?;
    match metadata.get(name).and_then(Value::as_str) {
        Some(uri) => Ok(uri.to_owned()),
        None => Err(format!(
            "the metadata of the issuer `{issuer}` has no `{name}`"
        )),
    }
}

/// `request` with the client's credentials as HTTP Basic (RFC 6749, section 2.3.1: the id and
/// the secret form-encoded first).
#[cfg(feature = "oauth")]
pub(super) fn basic_auth(
    request: reqwest::RequestBuilder,
    client_id: &str,
    client_secret: &str,
) -> reqwest::RequestBuilder {
    let encode = |text: &str| form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>();
    request.basic_auth(encode(client_id), Some(encode(client_secret)))
}

/// JSON-RPC's code for a request that is not valid (the specification gives an authorization
/// refusal no code of its own).
const INVALID_REQUEST: i32 = -32600;

/// The body of a JSON-RPC error with `message` and `"id": null`.
fn rpc_body(message: &str) -> ReplyBody {
    let body = json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": INVALID_REQUEST, "message": message},
    });
    Full::new(Bytes::from(body.to_string())).boxed()
}

/// `value` as the inside of a quoted-string of a header: visible ASCII, with `"` and `\`
/// escaped (anything else becomes `?`).
fn quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

/// What a request's `Authorization` header holds.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Bearer<'a> {
    /// A bearer token (RFC 6750's `b64token`).
    Token(&'a str),
    /// No header, or another scheme's credentials: the request is not authorized.
    Missing,
    /// A `Bearer` header that is not `Bearer <token>`, or more than one `Authorization`.
    Malformed(&'static str),
}

/// The bearer token of `headers` (RFC 6750, section 2.1: `Bearer 1*SP b64token`, the scheme in
/// any case).
pub(crate) fn bearer_token(headers: &HeaderMap) -> Bearer<'_> {
    let mut values = headers.get_all(http::header::AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Bearer::Missing;
    };
    if values.next().is_some() {
        return Bearer::Malformed("a request has one Authorization header");
    }
    parse_bearer(value.as_bytes())
}

/// The bearer token of an `Authorization` header's value.
pub(crate) fn parse_bearer(value: &[u8]) -> Bearer<'_> {
    let space = value.iter().position(|byte| *byte == b' ');
    let (scheme, rest) = space
        .and_then(|space| value.split_at_checked(space))
        .unwrap_or((value, &[]));
    if !scheme.eq_ignore_ascii_case(b"bearer") {
        return Bearer::Missing;
    }
    let token = rest.trim_ascii_start();
    let is_token_char = |byte: &u8| byte.is_ascii_alphanumeric() || b"-._~+/".contains(byte);
    let body = token.iter().take_while(|byte| is_token_char(byte)).count();
    let valid = body > 0 && token.iter().skip(body).all(|byte| *byte == b'=');
    match std::str::from_utf8(token) {
        Ok(token) if valid => Bearer::Token(token),
        _ => Bearer::Malformed("the Authorization header is not `Bearer <token>`"),
    }
}

/// Whether a query string carries an access token (`access_token=`, RFC 6750 section 2.3),
/// its name read as a form decoder reads it (`access%5Ftoken` is the same name).
fn has_query_token(query: &str) -> bool {
    query
        .split('&')
        .any(|pair| decodes_to(pair.split('=').next().unwrap_or(""), b"access_token"))
}

/// Whether `encoded`, percent-decoded with `+` for a space (`application/x-www-form-urlencoded`),
/// is `name`.
fn decodes_to(encoded: &str, name: &[u8]) -> bool {
    let hex = |b: u8| (b as char).to_digit(16);
    let mut bytes = encoded.bytes();
    let mut wanted = name.iter();
    loop {
        let byte = match bytes.next() {
            None => return wanted.next().is_none(),
            Some(b'+') => b' ',
            Some(b'%') => {
                let mut ahead = bytes.clone();
                match (ahead.next().and_then(hex), ahead.next().and_then(hex)) {
                    (Some(high), Some(low)) => {
                        bytes = ahead;
                        // Two hex digits: at most 255.
                        (high * 16 + low) as u8
                    }
                    _ => b'%',
                }
            }
            Some(b) => b,
        };
        if wanted.next() != Some(&byte) {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Bearer, has_query_token, parse_bearer, quoted};

    #[test]
    fn bearer_headers_are_read_as_rfc_6750_writes_them() {
        assert_eq!(
            parse_bearer(b"Bearer abc.DEF-_~+/=="),
            Bearer::Token("abc.DEF-_~+/==")
        );
        assert_eq!(parse_bearer(b"bearer   a"), Bearer::Token("a"));
        assert_eq!(parse_bearer(b"Basic dXNlcjpwYXNz"), Bearer::Missing);
        assert_eq!(parse_bearer(b""), Bearer::Missing);
        for malformed in [
            &b"Bearer"[..],
            b"Bearer ",
            b"Bearer a b",
            b"Bearer a=b",
            b"Bearer =",
            b"Bearer \xff",
        ] {
            assert!(
                matches!(parse_bearer(malformed), Bearer::Malformed(_)),
                "{:?}",
                String::from_utf8_lossy(malformed)
            );
        }
    }

    #[test]
    fn query_tokens_are_found() {
        assert!(has_query_token("access_token=x"));
        assert!(has_query_token("a=1&access_token"));
        assert!(!has_query_token("my_access_token=x"));
        // The name as a form decoder reads it.
        assert!(has_query_token("access%5Ftoken=x"));
        assert!(has_query_token("a=1&%61ccess%5ftoken=x"));
        assert!(!has_query_token("access%5Ftokens=x"));
        assert!(!has_query_token("access%5=x&%=y&%zz"));
        assert!(!has_query_token("access+token=x"));
    }

    #[test]
    fn quoted_strings_stay_in_a_header() {
        assert_eq!(quoted("a \"b\" \\ é\n"), "a \\\"b\\\" \\\\ ??");
    }
}
