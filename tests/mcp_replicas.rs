//! An MCP server as several processes behind a real load balancer (feature `mcp`): replicas of
//! `examples/mcp_replica.rs` (this test binary run again, once per replica) behind HAProxy with
//! `examples/replicas/haproxy.cfg`, all on 127.0.0.1. Stateless 2026-07-28 calls spread over the
//! replicas, each 2025-11-25 session stays on the replica that created it, and a replica killed
//! mid-run costs only the calls it was running and its sessions.
//!
//! HAProxy comes from Debian's package (`.ci/run` installs it); where it is absent the tests
//! say they are skipped, but under `CI=true` they fail.

#![cfg(feature = "mcp")]

mod http_client;
#[allow(dead_code)]
#[path = "../examples/mcp_replica.rs"]
mod mcp_replica;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use http_client::{Reply, send};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// Set in a process run as a replica: its id.
const REPLICA: &str = "TOOLGEN_MCP_REPLICA";

/// Not a test of its own: in a process the tests start, one replica on a free port of
/// 127.0.0.1, which it prints.
#[test]
fn replica_process() {
    let Some(id) = std::env::var_os(REPLICA) else {
        return;
    };
    mcp_replica::serve(&id.to_string_lossy(), "127.0.0.1:0").unwrap();
}

/// HAProxy's executable: `TOOLGEN_HAPROXY`, else `haproxy` on the `PATH` or in `/usr/sbin`;
/// `None` (the test is skipped) where there is none, but under `CI=true`.
fn haproxy() -> Option<PathBuf> {
    let found = std::env::var_os("TOOLGEN_HAPROXY")
        .map(PathBuf::from)
        .or_else(|| {
            let path = std::env::var_os("PATH").unwrap_or_default();
            std::env::split_paths(&path)
                .chain([PathBuf::from("/usr/sbin")])
                .map(|dir| dir.join("haproxy"))
                .find(|candidate| candidate.is_file())
        });
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "HAProxy is needed under CI=true (.ci/run installs Debian's haproxy)"
        );
        eprintln!("skipped: no haproxy (apt-get install haproxy, or set TOOLGEN_HAPROXY)");
    }
    found
}

/// Replicas behind HAProxy; each process is killed when this is dropped.
struct Cluster {
    /// The load balancer's address.
    address: SocketAddr,
    /// Each replica's id and process.
    replicas: Vec<(String, Child)>,
    _balancer: Child,
    _config: TempDir,
}

/// A folder removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A replica `id` in a process of its own: the process, and the address it serves.
async fn start_replica(id: &str) -> (Child, SocketAddr) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "replica_process", "--nocapture", "--quiet"])
        .env(REPLICA, id)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    // The harness's own lines come first; the replica's is its address.
    let address = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let line = lines
                .next_line()
                .await
                .unwrap()
                .expect("the replica's address");
            if let Ok(address) = line.trim().parse::<SocketAddr>() {
                return address;
            }
        }
    })
    .await
    .expect("a replica up within 10 s");
    // (The rest of its output is read, so that it never blocks on a full pipe.)
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, address)
}

/// A free port of 127.0.0.1 (taken by binding port 0, then let go).
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// `n` replicas, `r1` to `rN`, behind HAProxy with `examples/replicas/haproxy.cfg`, once
/// HAProxy answers through each; `None` where there is no HAProxy.
async fn cluster(n: usize) -> Option<Cluster> {
    let haproxy = haproxy()?;
    let mut replicas = Vec::new();
    let mut config = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/replicas/haproxy.cfg"
    ))
    .unwrap();
    for i in 1..=n {
        let id = format!("r{i}");
        let (child, address) = start_replica(&id).await;
        config.push_str(&format!("    server {id} {address} check\n"));
        replicas.push((id, child));
    }
    let dir = std::env::temp_dir().join(format!("toolgen-replicas-{}", std::process::id()));
    let dir = TempDir(dir.join(free_port().to_string()));
    std::fs::create_dir_all(&dir.0).unwrap();
    let file = dir.0.join("haproxy.cfg");
    std::fs::write(&file, config).unwrap();
    let address: SocketAddr = ([127, 0, 0, 1], free_port()).into();
    let balancer = Command::new(haproxy)
        .arg("-db")
        .arg("-f")
        .arg(&file)
        .env("MCP_LISTEN", address.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    // Up once it answers a call; then round robin reaches every replica within n calls.
    let start = Instant::now();
    loop {
        if tokio::net::TcpStream::connect(address).await.is_ok() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "HAProxy did not start"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Some(Cluster {
        address,
        replicas,
        _balancer: balancer,
        _config: dir,
    })
}

const JSON: (&str, &str) = ("content-type", "application/json");

/// A stateless 2026-07-28 `tools/call`.
async fn stateless_call(address: SocketAddr, tool: &str, arguments: Value) -> Reply {
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "replicas", "version": "0"}}}});
    let headers = [
        JSON,
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", tool),
    ];
    send(address, "POST", &headers, call.to_string().as_bytes()).await
}

/// A 2025-11-25 session opened through the balancer: its id.
async fn open_session(address: SocketAddr) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "replicas", "version": "0"}}});
    let reply = send(address, "POST", &[JSON], initialize.to_string().as_bytes()).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let session = reply
        .header("mcp-session-id")
        .expect("a session")
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let headers = [JSON, ("mcp-session-id", &session)];
    let reply = send(
        address,
        "POST",
        &headers,
        initialized.to_string().as_bytes(),
    )
    .await;
    assert_eq!(reply.status, 202, "{reply:?}");
    session
}

/// `add` in `session`.
async fn add_in(address: SocketAddr, session: &str) -> Reply {
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "add", "arguments": {"a": 2, "b": 3}}});
    let headers = [
        JSON,
        ("mcp-session-id", session),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    send(address, "POST", &headers, call.to_string().as_bytes()).await
}

/// The replica that answered a successful call.
fn replica_of(reply: &Reply) -> String {
    assert_eq!(reply.status, 200, "{reply:?}");
    let result = &reply.json()["result"];
    assert_ne!(result["isError"], true, "{reply:?}");
    result["structuredContent"]["replica"]
        .as_str()
        .unwrap_or_else(|| panic!("no replica in {reply:?}"))
        .to_owned()
}

/// Stateless calls are spread over every replica, round robin; each session's calls all reach
/// the replica that created it (which alone holds it: another would answer 404), and the
/// sessions are spread too.
#[tokio::test]
async fn stateless_calls_spread_and_sessions_stay_on_their_replica() {
    let Some(cluster) = cluster(3).await else {
        return;
    };
    let address = cluster.address;
    let mut answered = BTreeMap::<String, usize>::new();
    for _ in 0..12 {
        let reply = stateless_call(address, "add", json!({"a": 2, "b": 3})).await;
        assert_eq!(reply.json()["result"]["structuredContent"]["value"], 5);
        *answered.entry(replica_of(&reply)).or_default() += 1;
    }
    let even: BTreeMap<String, usize> = [("r1", 4), ("r2", 4), ("r3", 4)]
        .map(|(id, calls)| (id.to_owned(), calls))
        .into();
    assert_eq!(answered, even);

    let mut homes = BTreeMap::<String, usize>::new();
    for _ in 0..6 {
        let session = open_session(address).await;
        let home = replica_of(&add_in(address, &session).await);
        for _ in 0..4 {
            assert_eq!(replica_of(&add_in(address, &session).await), home);
        }
        *homes.entry(home).or_default() += 1;
    }
    assert!(homes.len() >= 2, "every session on one replica: {homes:?}");
}

/// A replica killed while it runs calls: those calls get a 502 with a JSON-RPC error at once
/// (not after their time), the calls on the other replicas end as they would have, new calls
/// go to the replicas left, and so do the sessions of those replicas; a session of the killed
/// replica gets 404, and the client's new session works. No request waits past 5 s.
#[tokio::test]
async fn a_replica_killed_mid_run_costs_only_its_calls() {
    let Some(mut cluster) = cluster(3).await else {
        return;
    };
    let address = cluster.address;
    let mut sessions = Vec::new();
    for _ in 0..3 {
        let session = open_session(address).await;
        let home = replica_of(&add_in(address, &session).await);
        sessions.push((session, home));
    }
    // Nine calls of 1.5 s at once: three on each replica.
    let started = Instant::now();
    let slow: Vec<_> = (0..9)
        .map(|_| {
            tokio::spawn(async move {
                let reply = stateless_call(address, "wait", json!({"ms": 1500})).await;
                (reply, started.elapsed())
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (killed, child) = &mut cluster.replicas[0];
    let killed = killed.clone();
    child.kill().await.unwrap();
    let killed_at = started.elapsed();

    // New calls, meanwhile: each answered, by a replica left.
    for _ in 0..10 {
        let sent = Instant::now();
        let reply = stateless_call(address, "add", json!({"a": 1, "b": 1})).await;
        assert_ne!(replica_of(&reply), killed);
        assert!(
            sent.elapsed() < Duration::from_secs(5),
            "{:?}",
            sent.elapsed()
        );
    }

    let (mut lost, mut done) = (0, 0);
    for call in slow {
        let (reply, took) = call.await.unwrap();
        assert!(took < Duration::from_secs(5), "a call waited {took:?}");
        if reply.status == 502 {
            lost += 1;
            // Answered when its replica went, not when the call would have ended.
            assert!(took < killed_at + Duration::from_millis(700), "{took:?}");
            assert_eq!(reply.json()["error"]["code"], -32603, "{reply:?}");
        } else {
            done += 1;
            assert_ne!(replica_of(&reply), killed);
            assert_eq!(reply.json()["result"]["structuredContent"]["value"], 1500);
        }
    }
    assert_eq!(
        (lost, done),
        (3, 6),
        "the killed replica's calls alone are lost"
    );

    for (session, home) in sessions {
        let reply = add_in(address, &session).await;
        if home == killed {
            assert_eq!(reply.status, 404, "{reply:?}");
            let again = open_session(address).await;
            assert_ne!(replica_of(&add_in(address, &again).await), killed);
        } else {
            assert_eq!(replica_of(&reply), home);
        }
    }
}
