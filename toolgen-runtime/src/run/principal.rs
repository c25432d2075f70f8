//! Who called a tool: the identity an MCP server's authorization found in the call's access
//! token, handed to the handler on its [`Invocation`](crate::Invocation).

use serde_json::{Map, Value};

/// Who called a tool, as the access token of the request said (an [`McpServer`] served over
/// HTTP with authorization on: see `HttpOptions::authorization`): the subject, the OAuth client,
/// the scopes granted, and every validated claim. A handler reads it with
/// [`Invocation::principal`](crate::Invocation::principal); a call that came without authorization
/// (stdio, a runner's own turn, a server without it) has none.
///
/// [`McpServer`]: https://docs.rs/toolgen-runtime/latest/toolgen_runtime/struct.McpServer.html
///
/// ```
/// use serde_json::json;
/// use toolgen_runtime::Principal;
///
/// let claims = json!({"sub": "alice", "client_id": "cli", "scope": "notes:read notes:write"});
/// let principal = Principal::from_claims(claims.as_object().unwrap().clone());
/// assert_eq!(principal.subject(), Some("alice"));
/// assert_eq!(principal.client_id(), Some("cli"));
/// assert!(principal.has_scope("notes:write"));
/// assert_eq!(principal.claims()["sub"], "alice");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Principal {
    subject: Option<String>,
    client_id: Option<String>,
    scopes: Vec<String>,
    claims: Map<String, Value>,
}

impl Principal {
    /// The principal a validated token's claims describe (RFC 9068's names, and the common
    /// others): `sub`; `client_id`, else `azp`; the scopes of `scope` (a space-separated
    /// string), else of `scp` (a string or an array of strings).
    ///
    /// ```
    /// # use serde_json::json;
    /// # use toolgen_runtime::Principal;
    /// let claims = json!({"azp": "web", "scp": ["a", "b"]});
    /// let principal = Principal::from_claims(claims.as_object().unwrap().clone());
    /// assert_eq!((principal.subject(), principal.client_id()), (None, Some("web")));
    /// assert_eq!(principal.scopes(), ["a", "b"]);
    /// ```
    pub fn from_claims(claims: Map<String, Value>) -> Self {
        let text = |name: &str| claims.get(name).and_then(Value::as_str).map(str::to_owned);
        let scopes = match (claims.get("scope"), claims.get("scp")) {
            (Some(Value::String(scope)), _) | (None, Some(Value::String(scope))) => scope
                .split(' ')
                .filter(|word| !word.is_empty())
                .map(str::to_owned)
                .collect(),
            (None, Some(Value::Array(scopes))) => scopes
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        Principal {
            subject: text("sub"),
            client_id: text("client_id").or_else(|| text("azp")),
            scopes,
            claims,
        }
    }

    /// A principal with these parts, for a validator of your own (claims left empty).
    ///
    /// ```
    /// # use toolgen_runtime::Principal;
    /// let principal = Principal::new(Some("alice"), None, ["notes:read"]);
    /// assert!(principal.has_scope("notes:read") && !principal.has_scope("notes:write"));
    /// ```
    pub fn new(
        subject: Option<&str>,
        client_id: Option<&str>,
        scopes: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        Principal {
            subject: subject.map(str::to_owned),
            client_id: client_id.map(str::to_owned),
            scopes: scopes.into_iter().map(Into::into).collect(),
            claims: Map::new(),
        }
    }

    /// The same principal with `claims` as its validated claims.
    ///
    /// ```
    /// # use serde_json::json;
    /// # use toolgen_runtime::Principal;
    /// let claims = json!({"tenant": "acme"}).as_object().unwrap().clone();
    /// let principal = Principal::new(Some("alice"), None, ["a"]).with_claims(claims);
    /// assert_eq!(principal.claims()["tenant"], "acme");
    /// ```
    #[must_use]
    pub fn with_claims(mut self, claims: Map<String, Value>) -> Self {
        self.claims = claims;
        self
    }

    /// The subject (`sub`): the user, or the client acting for itself.
    pub fn subject(&self) -> Option<&str> {
        self.subject.as_deref()
    }

    /// The OAuth client the token was issued to (`client_id`, else `azp`).
    pub fn client_id(&self) -> Option<&str> {
        self.client_id.as_deref()
    }

    /// The scopes granted.
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Whether `scope` was granted.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|granted| granted == scope)
    }

    /// Every claim of the token, validated (empty for a validator that gives none).
    pub fn claims(&self) -> &Map<String, Value> {
        &self.claims
    }

    /// Those of `required` that were not granted, in their order.
    #[cfg(feature = "mcp")]
    pub(crate) fn missing<'a, S: AsRef<str>>(&self, required: &'a [S]) -> Vec<&'a str> {
        required
            .iter()
            .map(AsRef::as_ref)
            .filter(|scope| !self.has_scope(scope))
            .collect()
    }
}
