//! MCP's stdio transport (newline-delimited JSON-RPC) for an [`McpServer`](super::McpServer),
//! answering every line a client can wait on, the broken ones included.

use std::io;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use serde::Serialize;
use serde_json::{Map, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

use super::head::{HEAD_BYTES, id_in_head, keep_head};

/// The longest line read by default: 4 MiB, what rmcp's streamable HTTP server takes as a
/// request body, so a message that goes over HTTP goes over stdio too.
const DEFAULT_MAX_LINE_LENGTH: usize = 4 * 1024 * 1024;

/// JSON-RPC's codes for a line that is not JSON, and for JSON that is not a request.
const PARSE_ERROR: i32 = -32700;
const INVALID_REQUEST: i32 = -32600;
const INVALID_PARAMS: i32 = -32602;

/// The capacity kept by the output's buffer between messages: a large result's is given back.
const KEPT_OUTPUT_CAPACITY: usize = 64 * 1024;

/// MCP's stdio transport for an [`McpServer`](crate::McpServer): one JSON-RPC message a line,
/// read from `R` and written to `W`, as rmcp's own (`rmcp::transport::stdio()`) does, except
/// that every line a client may be waiting on is answered, as JSON-RPC 2.0 requires:
///
/// | line | reply |
/// |---|---|
/// | longer than [`max_line_length`](McpStdio::max_line_length) (4 MiB unless set) | `-32600`, with the message's `id` where its first 4 KiB hold it (a string or an integer), else `"id": null`; the line is skipped without being held in memory |
/// | not UTF-8, not JSON, or nested deeper than 128 levels | `-32700` (parse error), `"id": null` |
/// | JSON but not an object (`[]`, a batch, which MCP does not have; `null`; `123`) | `-32600`, `"id": null` |
/// | an object that is not an MCP message | `-32600`, with its `id` when that is a string or an integer, else `"id": null` |
/// | a notification (a `method` and no `id`) or a response (`result` or `error`) that is not an MCP message | none: JSON-RPC never answers either |
/// | blank | none |
///
/// A line may end with `\r\n`, and start with a UTF-8 byte order mark. Every other line goes to
/// rmcp, read once. The error replies go out through the same writer as rmcp's messages, each
/// line whole.
///
/// [`mcp_stdio`] serves on the process's stdin and stdout; [`McpStdio::new`] on any pair
/// (a child process's pipes, a socket, a `tokio::io::duplex` in tests).
///
/// ```no_run
/// # use serde::Deserialize;
/// # use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
/// # /// Say hello.
/// # #[derive(Tool, Deserialize)]
/// # struct Hello {}
/// # impl Handler<()> for Hello {
/// #     type Output = &'static str;
/// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> { Ok("hello") }
/// # }
/// # #[derive(ToolSet)]
/// # enum Tools { Hello(Hello) }
/// use toolgen_runtime::rmcp::ServiceExt;
/// use toolgen_runtime::{McpServer, mcp_stdio}; // `toolgen::..` with toolgen's feature `mcp`
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let server = McpServer::new(Runner::<Tools, ()>::new(()), "greeter", "1.0.0");
/// server.serve(mcp_stdio()).await?.waiting().await?;
/// # Ok(())
/// # }
/// ```
pub struct McpStdio<R, W> {
    read: BufReader<R>,
    /// The line being read, kept between calls of `receive` (which rmcp may drop part-way).
    line: Vec<u8>,
    max_line_length: usize,
    /// Set while the rest of a line too long is skipped, up to its newline.
    skipping: bool,
    /// The first bytes of the line too long being skipped, while they are too few to say
    /// whether its id is among them ([`HEAD_BYTES`] at most).
    head: Option<Vec<u8>>,
    /// An error reply not yet handed to the output.
    reply: Option<ErrorReply>,
    /// Whether the output holds an error reply not yet written out.
    unflushed: bool,
    output: Arc<Mutex<Output<W>>>,
}

/// The transport of an MCP server on the process's stdin and stdout (see [`McpStdio`]):
/// `server.serve(mcp_stdio())`.
///
/// ```no_run
/// # use serde::Deserialize;
/// # use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
/// # /// Say hello.
/// # #[derive(Tool, Deserialize)]
/// # struct Hello {}
/// # impl Handler<()> for Hello {
/// #     type Output = &'static str;
/// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> { Ok("hello") }
/// # }
/// # #[derive(ToolSet)]
/// # enum Tools { Hello(Hello) }
/// use toolgen_runtime::rmcp::ServiceExt;
/// use toolgen_runtime::{McpServer, mcp_stdio};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let server = McpServer::new(Runner::<Tools, ()>::new(()), "greeter", "1.0.0");
/// let transport = mcp_stdio().with_max_line_length(16 * 1024 * 1024);
/// server.serve(transport).await?.waiting().await?;
/// # Ok(())
/// # }
/// ```
pub fn mcp_stdio() -> McpStdio<tokio::io::Stdin, tokio::io::Stdout> {
    McpStdio::new(tokio::io::stdin(), tokio::io::stdout())
}

impl<R, W> McpStdio<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    /// The transport over `read` and `write`: messages are read from one, written to the other.
    ///
    /// ```
    /// # use serde::Deserialize;
    /// # use toolgen::{Handler, Invocation, Runner, Tool, ToolError, ToolSet};
    /// # /// Say hello.
    /// # #[derive(Tool, Deserialize)]
    /// # struct Hello {}
    /// # impl Handler<()> for Hello {
    /// #     type Output = &'static str;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> { Ok("hello") }
    /// # }
    /// # #[derive(ToolSet)]
    /// # enum Tools { Hello(Hello) }
    /// use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    /// use toolgen_runtime::rmcp::ServiceExt;
    /// use toolgen_runtime::{McpServer, McpStdio};
    ///
    /// # fn main() -> std::io::Result<()> {
    /// # tokio::runtime::Builder::new_current_thread().build()?.block_on(async {
    /// let (server_side, client_side) = tokio::io::duplex(1 << 16);
    /// let (read, write) = tokio::io::split(server_side);
    /// let server = McpServer::new(Runner::<Tools, ()>::new(()), "greeter", "1.0.0");
    /// tokio::spawn(async move {
    ///     if let Ok(running) = server.serve(McpStdio::new(read, write)).await {
    ///         let _ = running.waiting().await;
    ///     }
    /// });
    ///
    /// let (client_read, mut client_write) = tokio::io::split(client_side);
    /// client_write.write_all(b"not JSON\n").await?;
    /// let mut reply = String::new();
    /// BufReader::new(client_read).read_line(&mut reply).await?;
    /// assert!(reply.starts_with(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"#));
    /// # Ok(())
    /// # })
    /// # }
    /// ```
    pub fn new(read: R, write: W) -> Self {
        McpStdio {
            read: BufReader::with_capacity(64 * 1024, read),
            line: Vec::new(),
            max_line_length: DEFAULT_MAX_LINE_LENGTH,
            skipping: false,
            head: None,
            reply: None,
            unflushed: false,
            output: Arc::new(Mutex::new(Output {
                write: Some(write),
                pending: Vec::new(),
                written: 0,
            })),
        }
    }
}

impl<R, W> McpStdio<R, W> {
    /// Reads lines of at most `bytes` bytes, not counting the newline (4 MiB unless set): a
    /// longer one is answered with `-32600` (with its id where its first 4 KiB hold it) and
    /// skipped, read through without being held in memory. `usize::MAX` holds any line.
    ///
    /// ```
    /// let transport = toolgen_runtime::mcp_stdio().with_max_line_length(1 << 20);
    /// assert_eq!(transport.max_line_length(), 1 << 20);
    /// ```
    #[must_use]
    pub fn with_max_line_length(mut self, bytes: usize) -> Self {
        self.max_line_length = bytes;
        self
    }

    /// The longest line read, in bytes, not counting the newline.
    ///
    /// ```
    /// assert_eq!(toolgen_runtime::mcp_stdio().max_line_length(), 4 * 1024 * 1024);
    /// ```
    pub fn max_line_length(&self) -> usize {
        self.max_line_length
    }
}

impl<R, W> McpStdio<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin,
{
    /// Reads the next line into `self.line` (without its newline), or skips one too long, its
    /// id read from its first [`HEAD_BYTES`] (the rest is never held).
    /// Cancel-safe: what was read stays in `self.line`, `self.skipping` and `self.head` for the
    /// next call.
    async fn read_line(&mut self) -> io::Result<Line> {
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                if let Some(head) = self.head.take() {
                    self.skipping = false;
                    return Ok(Line::TooLong(id_in_head(&head)));
                }
                // A last line without its newline is read as a line.
                return Ok(if self.skipping || self.line.is_empty() {
                    self.skipping = false;
                    Line::End
                } else {
                    Line::Read
                });
            }
            let newline = available.iter().position(|&byte| byte == b'\n');
            let (content, used) = match newline {
                Some(at) => (available.get(..at).unwrap_or_default(), at + 1),
                None => (available, available.len()),
            };
            let ends = newline.is_some();
            if self.skipping {
                let mut found = None;
                if let Some(mut head) = self.head.take() {
                    keep_head(&mut head, content);
                    if head.len() < HEAD_BYTES && !ends {
                        self.head = Some(head);
                    } else {
                        found = Some(id_in_head(&head));
                    }
                }
                self.skipping = !ends;
                self.read.consume(used);
                match found {
                    Some(id) => return Ok(Line::TooLong(id)),
                    None => continue,
                }
            }
            if self.line.len().saturating_add(content.len()) > self.max_line_length {
                let mut head = Vec::new();
                keep_head(&mut head, &self.line);
                keep_head(&mut head, content);
                self.line.clear();
                self.skipping = !ends;
                self.read.consume(used);
                if head.len() < HEAD_BYTES && !ends {
                    self.head = Some(head);
                    continue;
                }
                return Ok(Line::TooLong(id_in_head(&head)));
            }
            self.line.extend_from_slice(content);
            self.read.consume(used);
            if ends {
                return Ok(Line::Read);
            }
        }
    }

    /// Hands the error reply waiting, if any, to the output, and writes the output out.
    /// Cancel-safe: a reply is either still in `self.reply` or in the output.
    async fn flush_reply(&mut self) -> io::Result<()> {
        let mut output = self.output.lock().await;
        if let Some(reply) = self.reply.take() {
            // (Cannot fail: a reply is strings and numbers.)
            let _ = output.push(&reply);
            self.unflushed = true;
        }
        output.write_out().await?;
        self.unflushed = false;
        Ok(())
    }
}

/// What [`McpStdio::read_line`] read.
enum Line {
    Read,
    /// A line too long, skipped: its id, where its head holds it, else `null`.
    TooLong(Value),
    End,
}

impl<R, W> Transport<RoleServer> for McpStdio<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let output = Arc::clone(&self.output);
        async move {
            let mut output = output.lock().await;
            output.push(&item)?;
            output.write_out().await
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            if (self.reply.is_some() || self.unflushed) && self.flush_reply().await.is_err() {
                return None;
            }
            match self.read_line().await {
                Ok(Line::Read) => {}
                Ok(Line::TooLong(id)) => {
                    self.reply = Some(ErrorReply::new(
                        id,
                        INVALID_REQUEST,
                        format!(
                            "Invalid Request: the line is longer than {} bytes, the most this \
                             server reads; it was skipped",
                            self.max_line_length
                        ),
                    ));
                    continue;
                }
                Ok(Line::End) | Err(_) => return None,
            }
            let read = read_message(&self.line);
            self.line.clear();
            match read {
                Ok(message) => return Some(super::trace::read_over(message, "pipe")),
                Err(reply) => self.reply = reply,
            }
        }
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        // As rmcp's transports do: the writer is dropped, and the client sees the end.
        self.output.lock().await.write = None;
        Ok(())
    }
}

/// The writer, shared by rmcp's sends and the transport's error replies, with the bytes not
/// yet written: a write cut short (its future dropped) is finished by the next one, so lines
/// go out whole and in order.
struct Output<W> {
    /// `None` once closed.
    write: Option<W>,
    pending: Vec<u8>,
    /// How much of `pending` is written.
    written: usize,
}

impl<W: AsyncWrite + Unpin> Output<W> {
    /// Adds `message`'s line to the bytes to write.
    fn push(&mut self, message: &impl Serialize) -> io::Result<()> {
        let start = self.pending.len();
        if let Err(error) = serde_json::to_writer(&mut self.pending, message) {
            self.pending.truncate(start);
            return Err(io::Error::new(io::ErrorKind::InvalidData, error));
        }
        self.pending.push(b'\n');
        Ok(())
    }

    /// Writes out every pending byte, and flushes.
    async fn write_out(&mut self) -> io::Result<()> {
        let Some(write) = self.write.as_mut() else {
            return Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "the transport is closed",
            ));
        };
        while let Some(rest) = self.pending.get(self.written..).filter(|r| !r.is_empty()) {
            let written = write.write(rest).await?;
            if written == 0 {
                return Err(io::ErrorKind::WriteZero.into());
            }
            self.written += written;
        }
        self.pending.clear();
        self.pending.shrink_to(KEPT_OUTPUT_CAPACITY);
        self.written = 0;
        write.flush().await
    }
}

/// A JSON-RPC error reply.
#[derive(Serialize)]
struct ErrorReply {
    jsonrpc: &'static str,
    /// The request's, or `null` when it cannot be read (JSON-RPC 2.0, section 5).
    id: Value,
    error: ErrorObject,
}

#[derive(Serialize)]
struct ErrorObject {
    code: i32,
    message: String,
}

impl ErrorReply {
    fn new(id: Value, code: i32, message: String) -> Self {
        ErrorReply {
            jsonrpc: "2.0",
            id,
            error: ErrorObject { code, message },
        }
    }
}

/// The message on `line`, or the reply to a line that is not one (`None`: no reply).
fn read_message(line: &[u8]) -> Result<ClientJsonRpcMessage, Option<ErrorReply>> {
    // RFC 8259 lets a reader skip a byte order mark; some Windows tools write one.
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(|byte| matches!(byte, b' ' | b'\t' | b'\r')) {
        return Err(None);
    }
    // (serde_json takes the `\r` of a `\r\n` as whitespace.)
    let refused = match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(message) => return Ok(message),
        Err(error) => error,
    };
    // Only a line rmcp refuses is read again, to say why.
    let text = std::str::from_utf8(line).map_err(|error| {
        let message = format!("Parse error: the line is not UTF-8 ({error})");
        Some(ErrorReply::new(Value::Null, PARSE_ERROR, message))
    })?;
    let value = serde_json::from_str::<Value>(text).map_err(|error| {
        // Not JSON, or JSON nested deeper than serde_json's 128 levels.
        let message = format!("Parse error: {error}");
        Some(ErrorReply::new(Value::Null, PARSE_ERROR, message))
    })?;
    let object = match value {
        Value::Object(object) => object,
        Value::Array(_) => {
            return Err(Some(invalid(
                Value::Null,
                "a batch (a JSON array) is not supported by MCP; send one message per line",
            )));
        }
        other => {
            let kind = match other {
                Value::Null => "null",
                Value::Bool(_) => "a boolean",
                Value::Number(_) => "a number",
                _ => "a string",
            };
            let why = format!("a message is a JSON object, not {kind}");
            return Err(Some(invalid(Value::Null, &why)));
        }
    };
    let has_method = object.contains_key("method");
    // A notification is never answered (JSON-RPC 2.0, section 4.1), nor a response: its `id`
    // is one of the server's requests', and an error with it would answer a client's request
    // of the same id.
    let is_notification =
        !object.contains_key("id") && object.get("method").is_some_and(Value::is_string);
    let is_response =
        !has_method && (object.contains_key("result") || object.contains_key("error"));
    if is_notification || is_response {
        return Err(None);
    }
    let id = super::readable_id(object.get("id"));
    // (A request has no `result` or `error`: one with them is told so below.)
    if !object.contains_key("result")
        && !object.contains_key("error")
        && let Some(message) = super::invalid_params(&object, &id)
    {
        return Err(Some(ErrorReply::new(id, INVALID_PARAMS, message)));
    }
    Err(Some(invalid(id, &why_refused(&object, &refused))))
}

/// `-32600` with `why`.
fn invalid(id: Value, why: &str) -> ErrorReply {
    ErrorReply::new(id, INVALID_REQUEST, format!("Invalid Request: {why}"))
}

/// Why rmcp refused `object`, a JSON object that is neither a notification nor a response.
fn why_refused(object: &Map<String, Value>, refused: &serde_json::Error) -> String {
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return r#"`jsonrpc` is not "2.0""#.to_owned();
    }
    if object.contains_key("id") && super::readable_id(object.get("id")).is_null() {
        return "`id` is not a string or an integer".to_owned();
    }
    match object.get("method") {
        None => "`method` is missing".to_owned(),
        Some(method) if !method.is_string() => "`method` is not a string".to_owned(),
        Some(_) if object.contains_key("result") || object.contains_key("error") => {
            "a request has no `result` or `error`".to_owned()
        }
        Some(_) => format!("not an MCP request ({refused})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of 20 MiB is read through, answered with its id, and never held: the line's
    /// buffer stays within the limit, and only its head is kept to find the id.
    #[tokio::test]
    async fn a_line_too_long_is_not_held() {
        let mut input = b"{\"id\":3,\"pad\":\"".to_vec();
        input.resize(20 * 1024 * 1024, b'x');
        input.extend_from_slice(b"\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
        let (write, mut peer) = tokio::io::duplex(1 << 16);
        let mut transport = McpStdio::new(&input[..], write).with_max_line_length(1024);
        let message = transport
            .receive()
            .await
            .expect("the ping after the long line");
        assert!(matches!(message, ClientJsonRpcMessage::Request(_)));
        assert!(transport.line.capacity() <= 64 * 1024);
        assert!(transport.head.is_none());
        drop(transport);
        let mut reply = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut peer, &mut reply)
            .await
            .unwrap();
        let reply: Value = serde_json::from_str(&reply).unwrap();
        assert_eq!(reply["error"]["code"], INVALID_REQUEST);
        assert_eq!(reply["id"], 3);
    }
}
