//! An `McpServer`'s streamable HTTP service with authorization on (a `ResourceServer` with a
//! `JwtValidator`), called in process with a stateless 2026-07-28 `tools/call` whose
//! `Authorization` headers, token or query string come from the input: the header's reading
//! (`mcp/auth.rs`) and the JWT's header and claims (`mcp/jwt.rs`, through jsonwebtoken).
//!
//! The first byte picks what the rest is: `Authorization` header values, one a line (several
//! lines, several headers); a token `header JSON \n claims JSON \n signature`, each part
//! base64url-encoded, signed with the issuer's Ed25519 key unless the signature line is given;
//! or the request's query string, with a valid token.
//!
//! Every reply is 200 (the call ran) or a refusal: 400, 401 or 403 with a `WWW-Authenticate`
//! challenge naming the metadata and a short reason, and a JSON-RPC error with `"id": null`. A
//! token is taken only with the key's signature, and only where its claims say this issuer,
//! this resource and an `exp` to come; a query string with `access_token` is always refused.

#![no_main]

use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http::{HeaderValue, Request, StatusCode};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use toolgen::jsonwebtoken::jwk::{Jwk, JwkSet};
use toolgen::jsonwebtoken::{Algorithm, EncodingKey};
use toolgen::{HttpOptions, JwtValidator, McpServer, ResourceServer, Runner};
use tower_service::Service;

#[allow(dead_code)]
#[path = "common/mcp.rs"]
mod mcp;

#[path = "common/add.rs"]
mod add;

use add::Tools;

const ISSUER: &str = "http://issuer.test";
const RESOURCE: &str = "http://localhost/mcp";
const KID: &str = "fuzz";

/// The issuer's signing key (a test key, PKCS#8 DER made with `openssl genpkey -algorithm
/// ed25519`).
fn signing_key() -> EncodingKey {
    EncodingKey::from_ed_der(include_bytes!("../../tests/fixtures/oauth/ed25519.der"))
}

/// A `JwtValidator` that holds the issuer's key: fetched once, at the start, from a server on
/// 127.0.0.1 that serves the key set, and never again (its refetch interval is a day), so that
/// no input reaches the network.
fn validator() -> &'static JwtValidator {
    static VALIDATOR: OnceLock<JwtValidator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let mut public = Jwk::from_encoding_key(&signing_key(), Algorithm::EdDSA).expect("a JWK");
        public.common.key_id = Some(KID.to_owned());
        let keys = serde_json::to_string(&JwkSet { keys: vec![public] }).expect("JSON");
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
        let address = listener.local_addr().expect("an address");
        std::thread::spawn(move || serve_keys(&listener, &keys));
        let validator = JwtValidator::new(ISSUER, RESOURCE)
            .jwks_uri(format!("http://{address}/jwks"))
            .refetch_interval(Duration::from_secs(86_400));
        let token = sign(&json!({"alg": "EdDSA", "kid": KID}), &valid_claims());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let primed = runtime.block_on(toolgen::TokenValidator::validate(&validator, &token));
        assert!(
            primed.is_ok(),
            "the key set could not be fetched: {primed:?}"
        );
        validator
    })
}

/// Answers every request on `listener` with the key set `keys`.
fn serve_keys(listener: &std::net::TcpListener, keys: &str) {
    use std::io::{Read, Write};
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        let mut head = Vec::new();
        let mut byte = [0_u8; 1];
        while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).is_ok_and(|n| n == 1) {
            head.push(byte[0]);
        }
        let reply = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n{keys}",
            keys.len()
        );
        let _ = stream.write_all(reply.as_bytes());
    }
}

fn now() -> i64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    i64::try_from(since.as_secs()).unwrap_or(i64::MAX)
}

fn valid_claims() -> Value {
    json!({"iss": ISSUER, "aud": RESOURCE, "sub": "fuzz", "exp": now() + 3600, "scope": "mcp"})
}

fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0_u32, |n, (i, byte)| n | u32::from(*byte) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

/// `header.claims` (each part's bytes base64url-encoded) with the issuer's signature.
fn sign_parts(header: &[u8], claims: &[u8]) -> String {
    let message = format!("{}.{}", base64url(header), base64url(claims));
    let signature =
        toolgen::jsonwebtoken::crypto::sign(message.as_bytes(), &signing_key(), Algorithm::EdDSA)
            .expect("a signature");
    format!("{message}.{signature}")
}

fn sign(header: &Value, claims: &Value) -> String {
    sign_parts(header.to_string().as_bytes(), claims.to_string().as_bytes())
}

/// Whether claims the server took say what it must check: this issuer, this resource, an `exp`
/// to come (within the leeway of 30 s).
fn claims_are_valid(claims: &[u8]) -> bool {
    let Ok(claims) = serde_json::from_slice::<Value>(claims) else {
        return false;
    };
    let audience = match &claims["aud"] {
        Value::String(audience) => audience == RESOURCE,
        Value::Array(audiences) => audiences.iter().any(|audience| audience == RESOURCE),
        _ => false,
    };
    let expires = claims["exp"]
        .as_f64()
        .is_some_and(|exp| exp + 30.0 >= now() as f64);
    claims["iss"] == ISSUER && audience && expires
}

/// What the request carries, from the input.
struct Sent {
    /// `Authorization` headers (the values `HeaderValue` takes).
    authorization: Vec<HeaderValue>,
    query: Option<String>,
    /// Signed with the issuer's key, and these claims.
    signed_claims: Option<Vec<u8>>,
}

fn sent(mode: u8, rest: &[u8]) -> Sent {
    let mut lines = rest.split(|byte| *byte == b'\n');
    let header = |value: &[u8]| HeaderValue::from_bytes(value).ok();
    match mode % 3 {
        0 => Sent {
            authorization: lines.filter_map(header).take(4).collect(),
            query: None,
            signed_claims: None,
        },
        1 => {
            let token_header = lines.next().unwrap_or_default();
            let claims = lines.next().unwrap_or_default();
            let (token, signed_claims) = match lines.next() {
                Some(signature) => {
                    let token = format!(
                        "{}.{}.{}",
                        base64url(token_header),
                        base64url(claims),
                        String::from_utf8_lossy(signature)
                    );
                    (token, None)
                }
                None => (sign_parts(token_header, claims), Some(claims.to_vec())),
            };
            Sent {
                authorization: header(format!("Bearer {token}").as_bytes())
                    .into_iter()
                    .collect(),
                query: None,
                signed_claims,
            }
        }
        _ => {
            let token = sign(&json!({"alg": "EdDSA", "kid": KID}), &valid_claims());
            Sent {
                authorization: header(format!("Bearer {token}").as_bytes())
                    .into_iter()
                    .collect(),
                query: Some(String::from_utf8_lossy(rest).into_owned()),
                signed_claims: Some(valid_claims().to_string().into_bytes()),
            }
        }
    }
}

/// Whether a query string names `access_token` (RFC 6750, section 2.3) as written (the server
/// also refuses the name percent-encoded).
fn has_query_token(query: &str) -> bool {
    query
        .split('&')
        .any(|pair| pair.split('=').next() == Some("access_token"))
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let validator = validator().clone();
    let sent = sent(mode, rest);
    let path = match &sent.query {
        Some(query) => format!("/mcp?{query}"),
        None => "/mcp".to_owned(),
    };
    let mut request = Request::post(path.as_str())
        .header("host", "localhost")
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "add");
    for value in &sent.authorization {
        request = request.header("authorization", value.clone());
    }
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 2, "b": 3}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "fuzz", "version": "0"}}}});
    // (A query string that is not a URI's is not a request a server can get.)
    let Ok(request) = request.body(http_body_util::Full::new(Bytes::from(call.to_string()))) else {
        return;
    };
    // The query as the server gets it: the URI's parser drops a fragment (`#..`) from the path.
    let query = request.uri().query().map(str::to_owned);
    let shown = format!("{path} {:?}", sent.authorization);
    mcp::paused_runtime().block_on(async {
        let auth = ResourceServer::new(RESOURCE, validator)
            .expect("a resource")
            .authorization_servers([ISSUER]);
        let options = HttpOptions::default().authorization(auth);
        let server = McpServer::new(Runner::<Tools, ()>::new(()), "fuzz", "0");
        let mut service = server.http_service(&options);
        let reply = match service.call(request).await {
            Ok(reply) => reply,
            Err(never) => match never {},
        };
        let status = reply.status();
        let challenge = reply
            .headers()
            .get("www-authenticate")
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
        let body = tokio::time::timeout(Duration::from_secs(60), reply.into_body().collect())
            .await
            .ok()
            .and_then(Result::ok)
            .map(|body| body.to_bytes());
        if status == StatusCode::OK {
            let taken = sent.signed_claims.as_deref().is_some_and(claims_are_valid);
            assert!(
                taken,
                "{shown}: a token taken that the issuer did not sign as valid"
            );
            assert!(!query.as_deref().is_some_and(has_query_token), "{shown}");
            return;
        }
        assert!(
            [
                StatusCode::BAD_REQUEST,
                StatusCode::UNAUTHORIZED,
                StatusCode::FORBIDDEN
            ]
            .contains(&status),
            "{shown}: {status}"
        );
        let challenge =
            challenge.unwrap_or_else(|| panic!("{shown}: {status} without a challenge"));
        assert!(challenge.starts_with("Bearer "), "{shown}: {challenge}");
        let metadata =
            "resource_metadata=\"http://localhost/.well-known/oauth-protected-resource/mcp\"";
        assert!(challenge.contains(metadata), "{shown}: {challenge}");
        assert!(
            challenge.len() <= 400,
            "{shown}: a long challenge: {challenge}"
        );
        if status == StatusCode::BAD_REQUEST {
            assert!(
                challenge.contains("error=\"invalid_request\""),
                "{shown}: {challenge}"
            );
        }
        let body = body.unwrap_or_else(|| panic!("{shown}: no body"));
        let reply: Value = serde_json::from_slice(&body)
            .unwrap_or_else(|error| panic!("{shown}: a body that is not JSON ({error})"));
        assert_eq!(reply["id"], Value::Null, "{shown}: {reply}");
        assert_eq!(reply["error"]["code"], -32600, "{shown}: {reply}");
        let message = reply["error"]["message"].as_str().unwrap_or_default();
        assert!(
            !message.is_empty() && message.len() <= 300,
            "{shown}: {message}"
        );
    });
});
