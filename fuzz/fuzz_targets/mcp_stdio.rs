//! `McpStdio`, the MCP stdio transport, reading arbitrary bytes as its input: its lines, lines
//! too long, bytes that are not UTF-8 or not JSON, in reads cut anywhere.
//!
//! The first byte sets the longest line and the size of the reads and writes; the rest is what
//! the client writes. The input is read three ways, which must agree on the messages handed to
//! rmcp and the bytes written back:
//! - whole, in one read, every `receive` run to its end;
//! - in small reads and writes, some of them not ready at first, with `receive` dropped part-way
//!   now and then (as rmcp's `select!` may drop it);
//! - one line at a time, each in a transport of its own.
//!
//! Each line alone must give a message (when rmcp reads it), one error reply or nothing; a reply
//! is a JSON-RPC error object with a code for what was wrong, and the line's `id` when it has a
//! readable one (a string or an integer); a line that is not JSON, or not a JSON object, or too
//! long, is answered.

#![no_main]

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use toolgen::McpStdio;
use toolgen::rmcp::RoleServer;
use toolgen::rmcp::model::ClientJsonRpcMessage;
use toolgen::rmcp::transport::Transport;

#[path = "common/mcp.rs"]
mod mcp;

/// Input given `chunk` bytes a read, each other read not ready at first.
struct Reads<'a> {
    rest: &'a [u8],
    chunk: usize,
    stall: bool,
    stalled: bool,
}

impl AsyncRead for Reads<'_> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.stall && !self.stalled {
            self.stalled = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        self.stalled = false;
        let take = self.chunk.min(buf.remaining()).min(self.rest.len());
        let (now, later) = self.rest.split_at(take);
        buf.put_slice(now);
        self.rest = later;
        Poll::Ready(Ok(()))
    }
}

/// Output kept in a shared buffer, `chunk` bytes a write, each other write not ready at first.
struct Writes {
    out: Arc<Mutex<Vec<u8>>>,
    chunk: usize,
    stall: bool,
    stalled: bool,
}

impl AsyncWrite for Writes {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.stall && !self.stalled {
            self.stalled = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        self.stalled = false;
        let take = self.chunk.min(data.len());
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        out.extend_from_slice(&data[..take]);
        Poll::Ready(Ok(take))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// How the input is read.
#[derive(Clone, Copy)]
struct Way {
    max_line: usize,
    read_chunk: usize,
    write_chunk: usize,
    /// Reads and writes not ready at first, and `receive` dropped part-way.
    rough: bool,
}

/// What a transport made of the input: the messages for rmcp (as JSON), and the bytes written.
#[derive(Debug, PartialEq)]
struct Seen {
    messages: Vec<String>,
    written: Vec<u8>,
}

async fn read_all(input: &[u8], way: Way) -> Seen {
    let out = Arc::new(Mutex::new(Vec::new()));
    let reads = Reads {
        rest: input,
        chunk: way.read_chunk,
        stall: way.rough,
        stalled: false,
    };
    let writes = Writes {
        out: Arc::clone(&out),
        chunk: way.write_chunk,
        stall: way.rough,
        stalled: false,
    };
    let mut transport = McpStdio::new(reads, writes).with_max_line_length(way.max_line);
    let mut messages = Vec::new();
    // Enough calls for every byte read and written one at a time: a stream that does not end
    // within them is a transport that stopped making progress.
    let mut budget = 4096 + 512 * input.len();
    loop {
        budget -= 1;
        assert!(budget > 0, "receive does not come to an end");
        let received = if way.rough {
            // Polled twice at most, then dropped, as rmcp's `select!` may drop it.
            tokio::select! {
                biased;
                message = Transport::<RoleServer>::receive(&mut transport) => Some(message),
                () = tokio::task::yield_now() => None,
            }
        } else {
            Some(Transport::<RoleServer>::receive(&mut transport).await)
        };
        match received {
            Some(Some(message)) => {
                messages.push(serde_json::to_string(&message).expect("a message writes out"))
            }
            Some(None) => break,
            None => {}
        }
    }
    let _ = Transport::<RoleServer>::close(&mut transport).await;
    drop(transport);
    let written = std::mem::take(&mut *out.lock().unwrap_or_else(|e| e.into_inner()));
    Seen { messages, written }
}

/// Checks what one line gave, alone.
fn check_line(line: &[u8], max_line: usize, seen: &Seen) {
    let shown = String::from_utf8_lossy(line);
    let replies: Vec<Value> = seen
        .written
        .split(|&byte| byte == b'\n')
        .filter(|reply| !reply.is_empty())
        .map(|reply| serde_json::from_slice(reply).expect("a reply is a line of JSON"))
        .collect();
    assert!(
        seen.written.is_empty() || seen.written.ends_with(b"\n"),
        "{shown}: a reply not ended by a newline"
    );
    assert!(
        seen.messages.len() + replies.len() <= 1,
        "{shown}: more than one message or reply for a line: {seen:?}"
    );
    let content = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let accepted =
        line.len() <= max_line && serde_json::from_slice::<ClientJsonRpcMessage>(content).is_ok();
    assert_eq!(
        seen.messages.len(),
        usize::from(accepted),
        "{shown}: rmcp reads it, so it must be handed to rmcp, and only then"
    );
    let Some(reply) = replies.first() else {
        // Not answered: handed to rmcp, blank, or a JSON object (a notification or a response).
        let json = serde_json::from_slice::<Value>(content).ok();
        assert!(
            accepted
                || line.len() <= max_line
                    && (content.iter().all(|b| b.is_ascii_whitespace())
                        || json.as_ref().is_some_and(Value::is_object)),
            "{shown}: a line a client may wait on is not answered"
        );
        return;
    };
    let code = reply["error"]["code"].as_i64();
    let id = if line.len() > max_line {
        mcp::long_message_id(&shown, line, reply)
    } else {
        mcp::readable_id(line)
    };
    mcp::check_error_reply(&shown, reply, &[-32700, -32600, -32602], &id);
    if line.len() > max_line {
        assert_eq!(code, Some(-32600), "{shown}: a line too long");
    } else if serde_json::from_slice::<Value>(content).is_err() {
        assert_eq!(code, Some(-32700), "{shown}: a line that is not JSON");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&setting, input)) = data.split_first() else {
        return;
    };
    let max_line = [4 * 1024 * 1024, 16, 64, 300][usize::from(setting & 3)];
    let read_chunk = 1 + usize::from(setting >> 2 & 7) * 9;
    let write_chunk = 1 + usize::from(setting >> 5) * 17;
    mcp::paused_runtime().block_on(async {
        let whole = Way {
            max_line,
            read_chunk: usize::MAX,
            write_chunk: usize::MAX,
            rough: false,
        };
        let seen = read_all(input, whole).await;
        let rough = Way {
            read_chunk,
            write_chunk,
            rough: true,
            ..whole
        };
        assert_eq!(
            read_all(input, rough).await,
            seen,
            "read in pieces, it reads otherwise"
        );
        let mut by_line = Seen {
            messages: Vec::new(),
            written: Vec::new(),
        };
        let mut lines: Vec<&[u8]> = input.split(|&byte| byte == b'\n').collect();
        if lines.last().is_some_and(|last| last.is_empty()) {
            lines.pop();
        }
        for line in lines {
            let mut alone = line.to_vec();
            alone.push(b'\n');
            let one = read_all(&alone, whole).await;
            check_line(line, max_line, &one);
            by_line.messages.extend(one.messages);
            by_line.written.extend(one.written);
        }
        assert_eq!(by_line, seen, "line by line, it reads otherwise");
    });
});
