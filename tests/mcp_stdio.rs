//! toolgen's stdio transport for the MCP server (feature `mcp`): every line a client may wait
//! on is answered, with JSON-RPC's error for it, and the server goes on. Driven with raw lines
//! over an in-process pipe, as a client writes them.

#![cfg(feature = "mcp")]

mod too_long;

use std::time::Duration;

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::time::timeout;
use toolgen::{Handler, Invocation, McpServer, McpStdio, Runner, Tool, ToolError, ToolSet};

/// Add two numbers.
#[derive(Tool, Deserialize)]
struct Add {
    a: i64,
    b: i64,
}

impl Handler<()> for Add {
    type Output = String;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<String, ToolError> {
        Ok((self.a + self.b).to_string())
    }
}

#[derive(ToolSet)]
enum Tools {
    Add(Add),
}

/// How long a reply may take; a test that waits longer fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(10);

/// The client's side of a server served on toolgen's stdio transport.
struct Client {
    reader: BufReader<ReadHalf<DuplexStream>>,
    writer: WriteHalf<DuplexStream>,
}

impl Client {
    /// Writes `bytes` as they are (lines end where they say).
    async fn write(&mut self, bytes: &[u8]) {
        timeout(PATIENCE, self.writer.write_all(bytes))
            .await
            .expect("the server does not read")
            .unwrap();
    }

    /// The next line the server writes, as JSON (each must be a whole message).
    async fn receive(&mut self) -> Value {
        let mut line = String::new();
        let read = timeout(PATIENCE, self.reader.read_line(&mut line))
            .await
            .expect("no reply in time")
            .unwrap();
        assert!(read > 0, "the server closed the connection");
        serde_json::from_str(&line).unwrap_or_else(|error| panic!("{error}: {line:?}"))
    }

    /// Sends `line` and a newline, and returns the reply.
    async fn reply_to(&mut self, line: &[u8]) -> Value {
        self.write(line).await;
        self.write(b"\n").await;
        self.receive().await
    }

    /// Calls `add` with `id` and 1, and checks that the next message is its answer: the server
    /// goes on, and said nothing in between.
    async fn add(&mut self, id: i64) {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                          "params": {"name": "add", "arguments": {"a": id, "b": 1}}});
        let reply = self.reply_to(call.to_string().as_bytes()).await;
        assert_eq!(
            reply,
            json!({"jsonrpc": "2.0", "id": id,
                   "result": {"content": [{"type": "text", "text": (id + 1).to_string()}]}})
        );
    }
}

/// A server on `transport`'s settings over a pipe, and its client, not yet initialized.
fn serve(
    configure: impl FnOnce(
        McpStdio<ReadHalf<DuplexStream>, WriteHalf<DuplexStream>>,
    ) -> McpStdio<ReadHalf<DuplexStream>, WriteHalf<DuplexStream>>,
) -> Client {
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_side);
    let transport = configure(McpStdio::new(read, write));
    let server = McpServer::new(Runner::<Tools, ()>::new(()), "adder", "1.0.0");
    tokio::spawn(async move {
        if let Ok(running) = server.serve(transport).await {
            let _ = running.waiting().await;
        }
    });
    let (reader, writer) = tokio::io::split(client_side);
    Client {
        reader: BufReader::new(reader),
        writer,
    }
}

/// An initialized client (`2025-11-25`) of a server with the default settings.
async fn connect() -> Client {
    let mut client = serve(|transport| transport);
    initialize(&mut client).await;
    client
}

async fn initialize(client: &mut Client) {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                      "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                 "clientInfo": {"name": "raw-test", "version": "0"}}});
    let reply = client.reply_to(init.to_string().as_bytes()).await;
    assert_eq!(reply["result"]["protocolVersion"], "2025-11-25", "{reply}");
    client
        .write(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .await;
}

/// JSON-RPC's error reply.
fn error(id: Value, code: i32, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

#[tokio::test]
async fn a_line_too_long_is_answered_and_skipped() {
    let mut client = serve(|transport| transport.with_max_line_length(1024));
    initialize(&mut client).await;
    // A request that would be fine but for its length: answered with its id.
    let padding = "x".repeat(2000);
    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                      "params": {"name": "add", "arguments": {"a": 1, "b": 2}, "pad": padding}});
    assert_eq!(
        client.reply_to(call.to_string().as_bytes()).await,
        error(
            json!(5),
            -32600,
            "Invalid Request: the line is longer than 1024 bytes, the most this server reads; \
             it was skipped"
        )
    );
    client.add(6).await;
}

/// A line too long is answered with its request's id where the line's first 4 KiB hold it
/// (the message's own `id`, after members that fit), else with `null`; written at once or in
/// pieces.
#[tokio::test]
async fn a_line_too_long_is_answered_with_its_id_where_its_head_holds_it() {
    let pad = "x".repeat(2000);
    let mut client = serve(|transport| transport.with_max_line_length(1024));
    initialize(&mut client).await;
    let mut next = 100;
    for (line, id) in &too_long::messages() {
        let reply = client.reply_to(line.as_bytes()).await;
        assert_eq!(reply["id"], *id, "{line}");
        assert_eq!(reply["error"]["code"], -32600, "{reply}");
        client.add(next).await;
        next += 1;
    }
    // In pieces of 300 bytes, the id after the limit (1,024) but within the head.
    let line = format!(
        r#"{{"jsonrpc":"2.0","method":"ping","params":{{"pad":"{}"}},"id":"late","pad":"{pad}"}}"#,
        "x".repeat(1500)
    );
    for piece in line.as_bytes().chunks(300) {
        client.write(piece).await;
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    client.write(b"\n").await;
    assert_eq!(client.receive().await["id"], "late");
    client.add(next).await;
    // A line that ends within the head, past the limit.
    let line = format!(r#"{{"jsonrpc":"2.0","method":"ping","pad":"{pad}","id":12}}"#);
    assert_eq!(client.reply_to(line.as_bytes()).await["id"], 12);
}

#[tokio::test]
async fn a_huge_line_is_read_through_in_chunks_and_answered() {
    let mut client = connect().await;
    // 20 MiB, five times the default limit, in 64 KiB writes with no newline until the end.
    let chunk = vec![b'7'; 64 * 1024];
    for _ in 0..320 {
        client.write(&chunk).await;
    }
    client.write(b"\n").await;
    assert_eq!(
        client.receive().await,
        error(
            Value::Null,
            -32600,
            "Invalid Request: the line is longer than 4194304 bytes, the most this server \
             reads; it was skipped"
        )
    );
    client.add(1).await;
}

#[tokio::test]
async fn a_line_not_utf8_is_a_parse_error() {
    let mut client = connect().await;
    let line = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"x\":\"\xff\"}";
    assert_eq!(
        client.reply_to(line).await,
        error(
            Value::Null,
            -32700,
            "Parse error: the line is not UTF-8 (invalid utf-8 sequence of 1 bytes from index 51)"
        )
    );
    client.add(2).await;
}

#[tokio::test]
async fn a_line_not_json_is_a_parse_error() {
    let mut client = connect().await;
    assert_eq!(
        client.reply_to(b"not json").await,
        error(
            Value::Null,
            -32700,
            "Parse error: expected ident at line 1 column 2"
        )
    );
    // A request cut short.
    assert_eq!(
        client
            .reply_to(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list""#)
            .await,
        error(
            Value::Null,
            -32700,
            "Parse error: EOF while parsing an object at line 1 column 45"
        )
    );
    client.add(3).await;
}

#[tokio::test]
async fn a_line_nested_too_deep_is_a_parse_error() {
    let mut client = connect().await;
    // Arguments nested 200 levels deep: serde_json reads 128.
    let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"add","arguments":{{"a":{deep},"b":1}}}}}}"#
    );
    assert_eq!(
        client.reply_to(line.as_bytes()).await,
        error(
            Value::Null,
            -32700,
            "Parse error: recursion limit exceeded at line 1 column 211"
        )
    );
    client.add(4).await;
}

#[tokio::test]
async fn json_that_is_not_an_object_is_an_invalid_request() {
    let mut client = connect().await;
    let batch = "Invalid Request: a batch (a JSON array) is not supported by MCP; send one message \
                 per line";
    for (line, message) in [
        ("[]", batch),
        (r#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]"#, batch),
        (
            "null",
            "Invalid Request: a message is a JSON object, not null",
        ),
        (
            "123",
            "Invalid Request: a message is a JSON object, not a number",
        ),
        (
            r#""x""#,
            "Invalid Request: a message is a JSON object, not a string",
        ),
        (
            "true",
            "Invalid Request: a message is a JSON object, not a boolean",
        ),
    ] {
        assert_eq!(
            client.reply_to(line.as_bytes()).await,
            error(Value::Null, -32600, message),
            "{line}"
        );
    }
    client.add(5).await;
}

#[tokio::test]
async fn an_object_refused_is_answered_with_its_id_when_it_has_one() {
    let mut client = connect().await;
    for (line, id, message) in [
        (
            r#"{"id":7,"method":"tools/list"}"#,
            json!(7),
            r#"Invalid Request: `jsonrpc` is not "2.0""#,
        ),
        (
            r#"{"jsonrpc":"1.0","id":"seven","method":"tools/list"}"#,
            json!("seven"),
            r#"Invalid Request: `jsonrpc` is not "2.0""#,
        ),
        (
            r#"{"jsonrpc":"2.0","id":8}"#,
            json!(8),
            "Invalid Request: `method` is missing",
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":["tools/list"]}"#,
            json!(9),
            "Invalid Request: `method` is not a string",
        ),
        (
            r#"{"jsonrpc":"2.0","id":10,"method":"tools/list","result":{}}"#,
            json!(10),
            "Invalid Request: a request has no `result` or `error`",
        ),
        // An id that is not a string or an integer cannot be given back.
        (
            r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#,
            Value::Null,
            "Invalid Request: `id` is not a string or an integer",
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#,
            Value::Null,
            "Invalid Request: `id` is not a string or an integer",
        ),
        (
            r#"{"jsonrpc":"2.0","id":{"n":1},"method":"tools/list"}"#,
            Value::Null,
            "Invalid Request: `id` is not a string or an integer",
        ),
        // No id and no method: neither a request nor a notification (JSON-RPC 2.0's example).
        (
            r#"{"jsonrpc":"2.0","method":1,"params":"bar"}"#,
            Value::Null,
            "Invalid Request: `method` is not a string",
        ),
        (
            r#"{"foo":"bar"}"#,
            Value::Null,
            r#"Invalid Request: `jsonrpc` is not "2.0""#,
        ),
    ] {
        assert_eq!(
            client.reply_to(line.as_bytes()).await,
            error(id, -32600, message),
            "{line}"
        );
    }
    client.add(6).await;
}

/// A `tools/call` whose `name` or `arguments` has the wrong type: invalid params (`-32602`),
/// with its id, as over HTTP.
#[tokio::test]
async fn bad_call_params_are_invalid_params() {
    let mut client = connect().await;
    for (line, message) in [
        (
            r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":5}}"#,
            "invalid params of `tools/call`: `name` must be a string",
        ),
        (
            r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"add","arguments":[1,2]}}"#,
            "invalid params of `tools/call`: `arguments` must be an object",
        ),
    ] {
        assert_eq!(
            client.reply_to(line.as_bytes()).await,
            error(json!(11), -32602, message),
            "{line}"
        );
    }
    client.add(6).await;
}

#[tokio::test]
async fn a_notification_or_a_response_refused_gets_no_reply() {
    let mut client = connect().await;
    for line in [
        // Notifications: a `method` and no `id`.
        r#"{"method":"notifications/cancelled","params":{"requestId":1}}"#,
        r#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized","result":{}}"#,
        // Responses: their id is one of the server's requests'.
        r#"{"jsonrpc":"2.0","id":3,"error":"boom"}"#,
        r#"{"jsonrpc":"1.0","id":4,"result":{}}"#,
    ] {
        client.write(line.as_bytes()).await;
        client.write(b"\n").await;
        // The next message is the call's answer: nothing came for the line.
        client.add(7).await;
    }
}

#[tokio::test]
async fn blank_lines_crlf_and_a_byte_order_mark_are_read() {
    let mut client = connect().await;
    client.write(b"\n\r\n   \t \r\n").await;
    client
        .write(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n")
        .await;
    assert_eq!(
        client.receive().await,
        json!({"jsonrpc": "2.0", "id": 1, "result": {}})
    );
    client
        .write(b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n")
        .await;
    assert_eq!(
        client.receive().await,
        json!({"jsonrpc": "2.0", "id": 2, "result": {}})
    );
    client.add(8).await;
}

/// Every bad line in turn, before and after the handshake, each followed by a call that is
/// answered; then all of them in one write, with calls between, and every reply comes whole.
#[tokio::test]
async fn the_server_goes_on_after_each_bad_line() {
    let mut too_long = b"{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\",\"pad\":\"".to_vec();
    too_long.extend(std::iter::repeat_n(b'x', 2048));
    too_long.extend_from_slice(b"\"}");
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let bad: Vec<(Vec<u8>, Option<i32>)> = vec![
        (too_long, Some(-32600)),
        (b"\xff\xfe".to_vec(), Some(-32700)),
        (b"{".to_vec(), Some(-32700)),
        (deep.into_bytes(), Some(-32700)),
        (b"[]".to_vec(), Some(-32600)),
        (b"null".to_vec(), Some(-32600)),
        (b"123".to_vec(), Some(-32600)),
        (br#"{"id":1,"method":"ping"}"#.to_vec(), Some(-32600)),
        (br#"{"method":"notifications/x"}"#.to_vec(), None),
        (br#"{"jsonrpc":"2.0","id":2,"error":1}"#.to_vec(), None),
        (b"".to_vec(), None),
    ];

    let mut client = serve(|transport| transport.with_max_line_length(1024));
    // Before `initialize`: the transport answers, rmcp never sees the line.
    for (line, code) in &bad {
        client.write(line).await;
        client.write(b"\n").await;
        if let Some(code) = code {
            let reply = client.receive().await;
            assert_eq!(reply["error"]["code"], *code, "{reply}");
        }
    }
    initialize(&mut client).await;
    let mut id = 100;
    for (line, code) in &bad {
        client.write(line).await;
        client.write(b"\n").await;
        if let Some(code) = code {
            let reply = client.receive().await;
            assert_eq!(reply["error"]["code"], *code, "{reply}");
        }
        client.add(id).await;
        id += 1;
    }

    // All at once: the replies come in some order, each a whole line.
    let mut burst = Vec::new();
    let mut calls = Vec::new();
    let mut errors = Vec::new();
    for (line, code) in &bad {
        burst.extend_from_slice(line);
        burst.push(b'\n');
        errors.extend(*code);
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                          "params": {"name": "add", "arguments": {"a": id, "b": 1}}});
        burst.extend_from_slice(call.to_string().as_bytes());
        burst.push(b'\n');
        calls.push(id);
        id += 1;
    }
    client.write(&burst).await;
    let (mut answered, mut refused) = (Vec::new(), Vec::new());
    for _ in 0..calls.len() + errors.len() {
        let reply = client.receive().await;
        match reply["error"]["code"].as_i64() {
            Some(code) => refused.push(i32::try_from(code).unwrap()),
            None => answered.push(reply["id"].as_i64().unwrap()),
        }
    }
    answered.sort_unstable();
    assert_eq!(answered, calls);
    assert_eq!(refused, errors);
    client.add(id).await;
}

#[tokio::test]
async fn a_last_line_without_its_newline_is_answered() {
    let mut client = connect().await;
    client.write(b"[]").await;
    client.writer.shutdown().await.unwrap();
    assert_eq!(
        client.receive().await,
        error(
            Value::Null,
            -32600,
            "Invalid Request: a batch (a JSON array) is not supported by MCP; send one message \
             per line"
        )
    );
}
