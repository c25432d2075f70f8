//! A raw HTTP/1.1 client for the MCP server's tests: one request on a connection of its own, its
//! reply read to the end, on 127.0.0.1 only.

// Each test file uses a different part of this module.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// An HTTP reply: its status, headers (lower-case names) and body.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// The body as JSON, or the last JSON-RPC message of an event stream.
    pub fn json(&self) -> Value {
        if self.header("content-type") == Some("text/event-stream") {
            let last = self
                .body
                .lines()
                .rev()
                .filter_map(|line| line.strip_prefix("data:"))
                .find(|data| !data.trim().is_empty())
                .unwrap_or_else(|| panic!("no message in {}", self.body));
            return serde_json::from_str(last.trim()).unwrap();
        }
        serde_json::from_str(&self.body).unwrap_or_else(|_| panic!("not JSON: {self:?}"))
    }
}

/// Sends `method` with `headers` and `body` on a connection of its own, and reads the reply to
/// its end (the connection closes after it). Bounded: 10 s.
pub async fn send(
    address: SocketAddr,
    method: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    send_to(address, method, "/mcp", headers, body).await
}

/// A 2025-11-25 session opened with `initialize` and `notifications/initialized`, each sent with
/// `headers` more: its id.
pub async fn open_session(address: SocketAddr, headers: &[(&str, &str)]) -> String {
    let initialize = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "raw-http", "version": "0"}}});
    let mut all = vec![("content-type", "application/json")];
    all.extend_from_slice(headers);
    let reply = send(address, "POST", &all, initialize.to_string().as_bytes()).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let session = reply
        .header("mcp-session-id")
        .expect("a session")
        .to_owned();
    let initialized = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    all.push(("mcp-session-id", &session));
    let reply = send(address, "POST", &all, initialized.to_string().as_bytes()).await;
    assert_eq!(reply.status, 202, "{reply:?}");
    session
}

/// [`send`] to `path` (with its query, if any).
pub async fn send_to(
    address: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    tokio::time::timeout(Duration::from_secs(10), async {
        let mut stream = open(address, method, path, headers, body).await;
        read_reply(&mut stream).await
    })
    .await
    .expect("a reply within 10 s")
}

/// Sends `method` to `path` with `headers` and `body` on a connection of its own, which closes
/// after the reply: the connection, to read the reply from as it comes (an event stream).
pub async fn open(
    address: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> TcpStream {
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nhost: {address}\r\nconnection: close\r\n\
         accept: application/json, text/event-stream\r\ncontent-length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    // (The body is written from the caller's copy: many large calls at once share one.)
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    // A server may refuse a body before reading it all, and close.
    if stream.write_all(body).await.is_ok() {
        let _ = stream.flush().await;
    }
    stream
}

/// Reads a whole reply (until the server closes the connection).
pub async fn read_reply(stream: &mut TcpStream) -> Reply {
    let mut raw = Vec::new();
    // (A reset after the reply, from a server that did not read a refused body, keeps what was
    // read.)
    let _ = stream.read_to_end(&mut raw).await;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(name, value)| name == "transfer-encoding" && value == "chunked");
    let body = if chunked {
        unchunk(body)
    } else {
        body.to_owned()
    };
    Reply {
        status,
        headers,
        body,
    }
}

/// A chunked body's data.
fn unchunk(mut body: &str) -> String {
    let mut data = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        data.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    data
}

/// `bytes` in base64: RFC 4648's URL alphabet without padding (a JWT's parts) where `url`, else
/// its standard alphabet with padding (HTTP Basic credentials).
pub fn base64(bytes: &[u8], url: bool) -> String {
    const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let alphabet = if url { URL } else { STANDARD };
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n =
            chunk.iter().fold(0u32, |n, byte| n << 8 | u32::from(*byte)) << (8 * (3 - chunk.len()));
        for index in 0..=chunk.len() {
            out.push(char::from(alphabet[(n >> (18 - 6 * index) & 63) as usize]));
        }
        if !url {
            out.extend(std::iter::repeat_n('=', 3 - chunk.len()));
        }
    }
    out
}
