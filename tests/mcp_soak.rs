//! A bounded soak of the MCP server over HTTP (feature `mcp`), all on 127.0.0.1: sessions opened
//! and abandoned, clients that never finish their headers, and many large bodies at once, while
//! an ordinary client keeps calling. The process (server and clients: the clients share one
//! copy of the large body) must stay under a stated resident size, and the ordinary client must
//! be answered throughout. Bounded in count and time: about 10 s. Linux only (it reads
//! `/proc/self/status`).

#![cfg(feature = "mcp")]

mod http_client;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use http_client::send;
use serde::Deserialize;
use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use toolgen::{Handler, HttpOptions, Invocation, McpServer, Runner, Tool, ToolError, ToolSet};

/// Count the characters of a text.
#[derive(Tool, Deserialize)]
struct Count {
    text: String,
}

impl Handler<()> for Count {
    type Output = usize;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<usize, ToolError> {
        Ok(self.text.len())
    }
}

#[derive(ToolSet)]
enum Tools {
    Count(Count),
}

/// The most the process may grow by, in MiB, under the whole soak: the default limits hold
/// 32 MiB of request bytes at most (with their parsed copies, about three times that), and
/// 200 sessions here (about 60 KB each). Measured: +68 MiB (issue 32 measured, before the limits,
/// 28 -> 259 MB for 50 such calls alone, and 12 -> 318 MB for 5,000 sessions).
const MOST_GROWTH_MIB: u64 = 128;

/// The resident size of this process, in KiB.
fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

const JSON: (&str, &str) = ("content-type", "application/json");

/// A stateless 2026-07-28 `tools/call` of `count` with `text`.
fn call_body(text: &str) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "count", "arguments": {"text": text}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "soak", "version": "0"}}}})
    .to_string()
    .into_bytes()
}

const CALL_HEADERS: [(&str, &str); 4] = [
    JSON,
    ("mcp-protocol-version", "2026-07-28"),
    ("mcp-method", "tools/call"),
    ("mcp-name", "count"),
];

/// An ordinary call, retried on 503 (the server's answer while it holds its most request
/// bytes) until answered: how long that took.
async fn ordinary_call(address: SocketAddr) -> Duration {
    let start = Instant::now();
    loop {
        let reply = send(address, "POST", &CALL_HEADERS, &call_body("hello")).await;
        if reply.status == 503 {
            assert_eq!(reply.header("retry-after"), Some("1"));
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(reply.json()["result"]["content"][0]["text"], "5");
        return start.elapsed();
    }
}

#[tokio::test]
async fn memory_stays_bounded_under_abuse() {
    let Some(start_kib) = rss_kib() else {
        eprintln!("skipped: no /proc/self/status on this system");
        return;
    };
    let options = HttpOptions::default()
        .max_sessions(200)
        .header_read_timeout(Duration::from_secs(1))
        .body_read_timeout(Duration::from_secs(2));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let server = McpServer::new(Runner::<Tools, ()>::new(()), "soak", "0");
    tokio::spawn(async move { server.serve_http_with(listener, &options).await });
    ordinary_call(address).await;
    let before = rss_kib().unwrap_or(start_kib);

    // The ordinary client, and the peak size, throughout.
    let done = Arc::new(AtomicBool::new(false));
    let peak = Arc::new(AtomicU64::new(before));
    let watcher = {
        let (done, peak) = (Arc::clone(&done), Arc::clone(&peak));
        tokio::spawn(async move {
            let mut slowest = Duration::ZERO;
            let mut calls = 0_u32;
            while !done.load(Ordering::Relaxed) {
                slowest = slowest.max(ordinary_call(address).await);
                calls += 1;
                peak.fetch_max(rss_kib().unwrap_or(0), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            (calls, slowest)
        })
    };

    // 1. 1,000 sessions opened and left, 20 at a time (the server holds at most 200).
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                 "clientInfo": {"name": "abandoned", "version": "0"}}})
    .to_string();
    let init = Arc::new(init);
    for _ in 0..50 {
        let batch: Vec<_> = (0..20)
            .map(|_| {
                let init = Arc::clone(&init);
                tokio::spawn(async move {
                    let reply = send(address, "POST", &[JSON], init.as_bytes()).await;
                    assert_eq!(reply.status, 200, "{reply:?}");
                })
            })
            .collect();
        for opened in batch {
            opened.await.unwrap();
        }
        peak.fetch_max(rss_kib().unwrap_or(0), Ordering::Relaxed);
    }

    // 2. 300 clients that send half their headers and wait (cut off after 1 s).
    let mut stalled = Vec::new();
    for _ in 0..300 {
        let mut stream = TcpStream::connect(address).await.unwrap();
        stream
            .write_all(b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-")
            .await
            .unwrap();
        stalled.push(stream);
    }

    // 3. 50 calls of 3.9 MB each at once (the clients share one copy of the body).
    let large = Arc::new(call_body(&"x".repeat(3_900_000)));
    let uploads: Vec<_> = (0..50)
        .map(|_| {
            let large = Arc::clone(&large);
            tokio::spawn(async move {
                let reply = send(address, "POST", &CALL_HEADERS, &large).await;
                // Answered, or refused while the server holds its most bytes.
                assert!(matches!(reply.status, 200 | 503), "{}", reply.status);
                reply.status
            })
        })
        .collect();
    let mut answered = 0;
    for upload in uploads {
        answered += usize::from(upload.await.unwrap() == 200);
        peak.fetch_max(rss_kib().unwrap_or(0), Ordering::Relaxed);
    }
    assert!(answered > 0, "no large call was answered");

    // The stalled clients have been cut off by now, or are within a second of it.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    drop(stalled);
    done.store(true, Ordering::Relaxed);
    let (calls, slowest) = watcher.await.unwrap();
    let peak_kib = peak.load(Ordering::Relaxed).max(rss_kib().unwrap_or(0));
    let growth_mib = peak_kib.saturating_sub(before) / 1024;
    eprintln!(
        "soak: {} MiB before, peak {} MiB (+{growth_mib} MiB); {answered} of 50 large calls \
         answered; the ordinary client made {calls} calls, the slowest answered in {slowest:?}",
        before / 1024,
        peak_kib / 1024,
    );
    assert!(
        growth_mib <= MOST_GROWTH_MIB,
        "grew by {growth_mib} MiB, over {MOST_GROWTH_MIB} MiB"
    );
    assert!(calls > 0, "the ordinary client made no call");
    // Answered throughout: never kept waiting past the 10 s `send` allows (a 503 is retried).
    assert!(slowest < Duration::from_secs(10), "{slowest:?}");
}
