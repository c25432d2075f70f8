//! JWT access tokens (RFC 9068) checked against the authorization server's keys, found from its
//! metadata (RFC 8414, or OpenID Connect Discovery) and cached (feature `oauth`).

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey, Validation, decode, decode_header};
use serde_json::{Map, Value};

use super::auth::{
    TokenError, TokenValidator, ValidateFuture, authorization_server_endpoint, fetch_json,
    oauth_http_client,
};
use crate::run::principal::Principal;

/// A [`TokenValidator`] for JWT access tokens: the signature checked with the authorization
/// server's keys (its JWKS, found from its metadata: RFC 8414's
/// `/.well-known/oauth-authorization-server`, else OpenID Connect's
/// `/.well-known/openid-configuration`; fetched once, and again for a key id it does not know,
/// at most once per [`refetch_interval`](JwtValidator::refetch_interval)), and the claims:
///
/// - `iss` the issuer given, `aud` the audience given (this server's canonical URI: a token for
///   another resource is refused, RFC 8707), `exp` present;
/// - `exp` and `nbf` against the clock, with a leeway of 30 s;
/// - the header's `alg` one of the allowed ones (RS256, RS384, RS512, PS256, PS384, PS512,
///   ES256, ES384, EdDSA unless set: never `none`, never an HMAC one, whose secret a public key
///   could stand in for), and the key's own algorithm and type the same.
///
/// ```no_run
/// use toolgen_runtime::{HttpOptions, JwtValidator, ResourceServer};
///
/// let resource = "https://mcp.example.com/mcp";
/// let validator = JwtValidator::new("https://auth.example.com", resource);
/// let auth = ResourceServer::new(resource, validator)
///     .unwrap()
///     .authorization_servers(["https://auth.example.com"]);
/// let options = HttpOptions::default().allowed_hosts(["mcp.example.com"]).authorization(auth);
/// # drop(options);
/// ```
///
/// The metadata and the keys are fetched with reqwest as `McpToolset` builds it: plain `http://`
/// unless rmcp's `reqwest` feature (rustls) is on in your build.
#[derive(Clone)]
pub struct JwtValidator {
    issuer: String,
    audience: String,
    algorithms: Vec<Algorithm>,
    leeway: Duration,
    refetch_interval: Duration,
    /// Given: the issuer's metadata is not asked.
    jwks_uri: Option<String>,
    /// (Shared by clones.)
    cache: Arc<Cache>,
}

/// What the validator learns from the authorization server.
struct Cache {
    /// Found in the issuer's metadata.
    jwks_uri: RwLock<Option<String>>,
    keys: RwLock<Keys>,
    /// Held while the keys are fetched: one fetch at a time.
    fetching: tokio::sync::Mutex<()>,
    http: Option<reqwest::Client>,
}

#[derive(Default)]
struct Keys {
    keys: Vec<Key>,
    /// When they were last fetched (or tried).
    fetched: Option<Instant>,
}

struct Key {
    id: Option<String>,
    algorithm: Option<Algorithm>,
    key: DecodingKey,
}

impl std::fmt::Debug for JwtValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtValidator")
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("algorithms", &self.algorithms)
            .finish_non_exhaustive()
    }
}

/// The algorithms allowed unless set: every asymmetric one jsonwebtoken has.
const ASYMMETRIC: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

impl JwtValidator {
    /// Tokens of the authorization server `issuer` (exactly as its metadata's `issuer`) for the
    /// resource `audience` (this server's canonical URI, as given to
    /// [`ResourceServer::new`](crate::ResourceServer::new)).
    pub fn new(issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        // jsonwebtoken panics at its first check where it has no provider: a build that also
        // turns on its `aws_lc_rs` has two, and none is picked for it.
        use jsonwebtoken::crypto::CryptoProvider;
        if CryptoProvider::try_get_default().is_none() {
            let _ = jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER.install_default();
        }
        let http = oauth_http_client();
        JwtValidator {
            issuer: issuer.into(),
            audience: audience.into(),
            algorithms: ASYMMETRIC.to_vec(),
            leeway: Duration::from_secs(30),
            refetch_interval: Duration::from_secs(30),
            jwks_uri: None,
            cache: Arc::new(Cache {
                jwks_uri: RwLock::new(None),
                keys: RwLock::new(Keys::default()),
                fetching: tokio::sync::Mutex::new(()),
                http,
            }),
        }
    }

    /// The URL of the keys (a JWKS), where the issuer's metadata should not be asked.
    ///
    /// ```
    /// let validator = toolgen_runtime::JwtValidator::new("https://auth.example.com", "https://mcp.example.com")
    ///     .jwks_uri("https://auth.example.com/jwks");
    /// # drop(validator);
    /// ```
    #[must_use]
    pub fn jwks_uri(mut self, uri: impl Into<String>) -> Self {
        self.jwks_uri = Some(uri.into());
        self
    }

    /// The algorithms allowed; HMAC ones (`HS256`, ..) are left out whatever is given: their
    /// keys are shared secrets, not an authorization server's public keys.
    ///
    /// ```
    /// use toolgen_runtime::jsonwebtoken::Algorithm;
    /// let validator = toolgen_runtime::JwtValidator::new("https://auth.example.com", "https://mcp.example.com")
    ///     .algorithms([Algorithm::ES256, Algorithm::HS256]);
    /// # drop(validator);
    /// ```
    #[must_use]
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        self.algorithms = algorithms
            .into_iter()
            .filter(|algorithm| ASYMMETRIC.contains(algorithm))
            .collect();
        self
    }

    /// How far `exp` and `nbf` may be off the clock (30 s unless set).
    ///
    /// ```
    /// # use std::time::Duration;
    /// let validator = toolgen_runtime::JwtValidator::new("https://auth.example.com", "https://mcp.example.com")
    ///     .leeway(Duration::from_secs(5));
    /// # drop(validator);
    /// ```
    #[must_use]
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// How often, at most, the keys are fetched again for a token whose key id is not among
    /// them (30 s unless set): a rotated key is found, and tokens with made-up key ids cannot
    /// make the server hammer the authorization server.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let validator = toolgen_runtime::JwtValidator::new("https://auth.example.com", "https://mcp.example.com")
    ///     .refetch_interval(Duration::from_secs(300));
    /// # drop(validator);
    /// ```
    #[must_use]
    pub fn refetch_interval(mut self, interval: Duration) -> Self {
        self.refetch_interval = interval;
        self
    }
}

fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl TokenValidator for JwtValidator {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        Box::pin(self.check(token))
    }
}

impl JwtValidator {
    async fn check(&self, token: &str) -> Result<Principal, TokenError> {
        // (`alg: none` and unknown algorithms fail here: jsonwebtoken has no such algorithm.)
        let header = decode_header(token).map_err(|_| {
            TokenError::new("the token is not a JWT with an algorithm this server accepts")
        })?;
        let algorithm = header.alg;
        if !self.algorithms.contains(&algorithm) {
            return Err(TokenError::new(format!(
                "the token's algorithm {algorithm:?} is not accepted"
            )));
        }
        let kid = header.kid.as_deref();
        let claims = match self.decode_with_known(token, kid, algorithm) {
            Some(decoded) => decoded?,
            None => {
                self.refetch().await?;
                self.decode_with_known(token, kid, algorithm)
                    .ok_or_else(|| match kid {
                        Some(_) => TokenError::new("the token's key id is not among the issuer's keys"),
                        None => TokenError::new(
                            "the token names no key id, and the issuer has no single key for its algorithm",
                        ),
                    })??
            }
        };
        Ok(Principal::from_claims(claims))
    }

    /// The token's claims checked with the key it names among those known; `None` when no key
    /// known fits.
    fn decode_with_known(
        &self,
        token: &str,
        kid: Option<&str>,
        algorithm: Algorithm,
    ) -> Option<Result<Map<String, Value>, TokenError>> {
        let keys = read(&self.cache.keys);
        let fits = |key: &&Key| {
            key.algorithm.is_none_or(|own| own == algorithm)
                && key.key.family() == algorithm.family()
                && (kid.is_none() || key.id.as_deref() == kid)
        };
        let mut candidates = keys.keys.iter().filter(fits);
        let key = candidates.next()?;
        // A token without a key id is taken only where one key fits.
        if kid.is_none() && candidates.next().is_some() {
            return None;
        }
        let mut validation = Validation::new(algorithm);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        validation.validate_nbf = true;
        validation.leeway = self.leeway.as_secs();
        Some(
            decode::<Map<String, Value>>(token, &key.key, &validation)
                .map(|data| data.claims)
                .map_err(|error| describe(error.kind())),
        )
    }

    /// Fetches the keys again, unless they were fetched within the refetch interval.
    async fn refetch(&self) -> Result<(), TokenError> {
        let _one = self.cache.fetching.lock().await;
        let recent = read(&self.cache.keys)
            .fetched
            .is_some_and(|at| at.elapsed() < self.refetch_interval);
        if recent {
            return Ok(());
        }
        let fetched = self.fetch_keys().await;
        let mut keys = write(&self.cache.keys);
        keys.fetched = Some(Instant::now());
        match fetched {
            Ok(fetched) => {
                keys.keys = fetched;
                Ok(())
            }
            Err(why) => Err(TokenError::new(format!(
                "the issuer's keys could not be fetched: {why}"
            ))),
        }
    }

    async fn fetch_keys(&self) -> Result<Vec<Key>, String> {
        let http = self
            .cache
            .http
            .as_ref()
            .ok_or("no HTTP client could be built")?;
        let known = (self.jwks_uri.clone()).or_else(|| read(&self.cache.jwks_uri).clone());
        let uri = match known {
            Some(uri) => uri,
            None => {
                let uri = authorization_server_endpoint(http, &self.issuer, "jwks_uri").await?;
                *write(&self.cache.jwks_uri) = Some(uri.clone());
                uri
            }
        };
        let set = fetch_json(http.get(&uri)).await?;
        let Some(Value::Array(keys)) = set.get("keys") else {
            return Err(format!("{uri} is not a JWK set (no `keys` array)"));
        };
        // Keys this crate cannot use, and encryption keys, are passed over.
        Ok(keys
            .iter()
            .filter_map(|key| {
                let jwk = serde_json::from_value::<Jwk>(key.clone()).ok()?;
                if matches!(jwk.common.public_key_use, Some(PublicKeyUse::Encryption)) {
                    return None;
                }
                // (A key of an algorithm jsonwebtoken does not have is passed over.)
                let algorithm = match key.get("alg").and_then(Value::as_str) {
                    Some(name) => Some(name.parse::<Algorithm>().ok()?),
                    None => None,
                };
                Some(Key {
                    key: DecodingKey::from_jwk(&jwk).ok()?,
                    id: jwk.common.key_id,
                    algorithm,
                })
            })
            .collect())
    }
}

/// What a token's refusal says, by jsonwebtoken's reason.
fn describe(kind: &jsonwebtoken::errors::ErrorKind) -> TokenError {
    use jsonwebtoken::errors::ErrorKind;
    TokenError::new(match kind {
        ErrorKind::ExpiredSignature => "the token has expired".to_owned(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (nbf)".to_owned(),
        ErrorKind::InvalidIssuer => "the token is from another issuer".to_owned(),
        ErrorKind::InvalidAudience => {
            "the token is for another resource (its audience is not this server)".to_owned()
        }
        ErrorKind::InvalidSignature => "the token's signature is not valid".to_owned(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}` claim"),
        ErrorKind::InvalidAlgorithm | ErrorKind::MissingAlgorithm => {
            "the token's algorithm does not fit its key".to_owned()
        }
        _ => "the token could not be read as a JWT".to_owned(),
    })
}
