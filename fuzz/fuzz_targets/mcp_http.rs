//! An `McpServer`'s streamable HTTP service (`McpServer::http_service`), called in process as
//! a tower service with a POST of arbitrary bytes: what the layer in front of rmcp does with a
//! body before and after rmcp reads it.
//!
//! The first byte picks the headers (`application/json`, with a parameter, `text/plain`, or in
//! a session opened first by `initialize`), whether the body comes in small frames of unknown
//! length, and whether the largest body is 256 bytes; the rest is the body.
//!
//! Every reply sent as `application/json` is JSON. A JSON body rmcp cannot read as a message
//! is answered as JSON-RPC says: a JSON-RPC error object with `-32700` (not JSON), `-32600` or
//! `-32602` (invalid params), with the body's `id` when it is a string or an integer, else
//! `null`; a body too large gets 413 with `-32600`; another media type stays HTTP 415.

#![no_main]

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body::{Body, Frame};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use toolgen::rmcp::model::ClientJsonRpcMessage;
use toolgen::{HttpOptions, HttpService, McpServer, Runner};
use tower_service::Service;

#[path = "common/mcp.rs"]
mod mcp;

#[path = "common/add.rs"]
mod add;

use add::Tools;

/// A body given `chunk` bytes a frame, its length not told.
struct Frames {
    rest: Bytes,
    chunk: usize,
}

impl Body for Frames {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if self.rest.is_empty() {
            return Poll::Ready(None);
        }
        let take = self.chunk.min(self.rest.len());
        let frame = self.rest.split_to(take);
        Poll::Ready(Some(Ok(Frame::data(frame))))
    }
}

type Reply = Response<http_body_util::combinators::BoxBody<Bytes, Infallible>>;

/// A POST of `body` with `headers` (and the host and accept headers every client sends).
async fn post<B>(service: &mut HttpService, headers: &[(&str, &str)], body: B) -> Reply
where
    B: Body<Data = Bytes, Error = Infallible> + Send + 'static,
{
    let mut request = Request::post("/mcp")
        .header("host", "localhost")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(body).expect("a request");
    match service.call(request).await {
        Ok(reply) => reply,
        Err(never) => match never {},
    }
}

/// The reply's body, if it comes within a minute (of the paused clock: at once, unless a task
/// is at work), and its media type.
async fn read(reply: Reply) -> (StatusCode, String, Option<Bytes>) {
    let status = reply.status();
    let media = reply
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let body = tokio::time::timeout(Duration::from_secs(60), reply.into_body().collect()).await;
    (
        status,
        media,
        body.ok().and_then(Result::ok).map(|b| b.to_bytes()),
    )
}

/// A session at 2025-11-25, initialized: its id.
async fn open_session(service: &mut HttpService) -> String {
    let json = [("content-type", "application/json")];
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "fuzz", "version": "0"}}});
    let reply = post(service, &json, body_of(initialize)).await;
    assert_eq!(reply.status(), StatusCode::OK);
    let session = reply
        .headers()
        .get("mcp-session-id")
        .and_then(|value| value.to_str().ok())
        .expect("a session")
        .to_owned();
    let _ = read(reply).await;
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let headers = [json[0], ("mcp-session-id", session.as_str())];
    let reply = post(service, &headers, body_of(initialized)).await;
    assert_eq!(reply.status(), StatusCode::ACCEPTED);
    session
}

fn body_of(value: Value) -> http_body_util::Full<Bytes> {
    http_body_util::Full::new(Bytes::from(value.to_string()))
}

const MAX_SMALL_BODY: usize = 256;

fuzz_target!(|data: &[u8]| {
    let Some((&setting, body)) = data.split_first() else {
        return;
    };
    let headers = setting & 3;
    let in_frames = setting & 4 != 0;
    let small = setting & 8 != 0;
    let chunk = 1 + usize::from(setting >> 4) * 7;
    mcp::paused_runtime().block_on(async {
        let server = McpServer::new(Runner::<Tools, ()>::new(()), "fuzz", "0");
        let mut options = HttpOptions::default();
        if small {
            options = options.max_body_bytes(MAX_SMALL_BODY);
        }
        let max_body = if small { MAX_SMALL_BODY } else { 4 << 20 };
        let mut service = server.http_service(&options);
        let session = match headers {
            3 => Some(open_session(&mut service).await),
            _ => None,
        };
        let content_type = match headers {
            1 => "application/json; charset=utf-8",
            2 => "text/plain",
            _ => "application/json",
        };
        let mut sent = vec![("content-type", content_type)];
        if let Some(session) = &session {
            sent.push(("mcp-session-id", session));
            sent.push(("mcp-protocol-version", "2025-11-25"));
        }
        let bytes = Bytes::copy_from_slice(body);
        let reply = if in_frames {
            let frames = Frames { rest: bytes, chunk };
            post(&mut service, &sent, frames).await
        } else {
            post(&mut service, &sent, http_body_util::Full::new(bytes)).await
        };
        let (status, media, answer) = read(reply).await;
        let shown = String::from_utf8_lossy(body);
        let json = media == "application/json";
        let answer_json = match (&answer, json) {
            (Some(answer), true) => Some(
                serde_json::from_slice::<Value>(answer)
                    .unwrap_or_else(|e| panic!("{shown}: a JSON reply that is not JSON ({e})")),
            ),
            _ => None,
        };
        if body.len() > max_body {
            assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{shown}");
            let reply = answer_json.expect("a JSON-RPC error");
            let id = mcp::long_message_id(&shown, body, &reply);
            mcp::check_error_reply(&shown, &reply, &[-32600], &id);
            return;
        }
        if headers == 2 {
            assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{shown}");
            assert!(!json, "{shown}: another media type is answered as JSON");
            return;
        }
        if serde_json::from_slice::<ClientJsonRpcMessage>(body).is_ok() {
            // rmcp's to answer; where it answers with JSON, a JSON-RPC error is well formed.
            if let Some(reply) = answer_json.filter(|reply| reply.get("error").is_some()) {
                assert_eq!(reply["jsonrpc"], "2.0", "{shown}: {reply}");
                assert!(reply["error"]["code"].is_i64(), "{shown}: {reply}");
            }
            return;
        }
        let reply = answer_json
            .unwrap_or_else(|| panic!("{shown}: {status} {media}: not a JSON-RPC error"));
        if serde_json::from_slice::<Value>(body).is_err() {
            assert_eq!(status, StatusCode::BAD_REQUEST, "{shown}");
            mcp::check_error_reply(&shown, &reply, &[-32700], &Value::Null);
        } else {
            let invalid_params = reply["error"]["code"] == -32602;
            let expected = if invalid_params {
                StatusCode::OK
            } else {
                StatusCode::BAD_REQUEST
            };
            assert_eq!(status, expected, "{shown}: {reply}");
            let id = mcp::readable_id(body);
            mcp::check_error_reply(&shown, &reply, &[-32600, -32602], &id);
        }
    });
});
