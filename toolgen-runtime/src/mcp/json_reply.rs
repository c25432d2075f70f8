//! A request's answer over streamable HTTP as one JSON body when nothing comes before it: rmcp
//! answers every POST of a request with an event stream (SSE); the transport specification lets
//! a server answer with either, and the client accepts both. The stream is read until its first
//! message: the answer itself (a response or an error) is sent as `application/json`; a
//! notification or a request of the server's (progress, an elicitation, a log) first, or no
//! message within the wait, and the stream goes on as it came, the bytes read sent first.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http::{HeaderValue, Response, StatusCode};
use http_body::{Body, Frame, SizeHint};
use http_body_util::{BodyExt, Full};

use super::http::ReplyBody;

/// `reply` as one JSON body if its event stream's first message is the answer and comes within
/// `wait`; else the stream as it came.
pub(super) async fn json_if_answer_first(
    reply: Response<ReplyBody>,
    wait: Duration,
) -> Response<ReplyBody> {
    let is_stream = reply.status() == StatusCode::OK
        && reply
            .headers()
            .get(http::header::CONTENT_TYPE)
            .is_some_and(|value| value.as_bytes().starts_with(b"text/event-stream"));
    if !is_stream || wait.is_zero() {
        return reply;
    }
    let (mut parts, mut body) = reply.into_parts();
    let deadline = tokio::time::Instant::now() + wait;
    let mut read = BytesMut::new();
    // Where the events not yet looked at begin.
    let mut scanned = 0;
    loop {
        while let Some((length, next)) = read.get(scanned..).and_then(event_end) {
            let event = scanned..scanned + length;
            scanned += next;
            let Some(data) = read.get(event).and_then(data_of) else {
                // A priming event (an id and a retry time), a comment.
                continue;
            };
            if !is_answer(&data) {
                return streamed(parts, read.freeze(), body);
            }
            parts.headers.insert(
                http::header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            // (The stream's: not to be cached, nor buffered by nginx.)
            parts.headers.remove(http::header::CACHE_CONTROL);
            parts.headers.remove("x-accel-buffering");
            return Response::from_parts(parts, Full::new(data).boxed());
        }
        match tokio::time::timeout_at(deadline, body.frame()).await {
            Ok(Some(Ok(frame))) => {
                if let Ok(data) = frame.into_data() {
                    read.extend_from_slice(&data);
                }
            }
            // Still running past the wait (its stream's keep-alive holds the connection), or
            // ended without an answer: as it came.
            Ok(Some(Err(never))) => match never {},
            Ok(None) | Err(_) => return streamed(parts, read.freeze(), body),
        }
    }
}

/// The length of the first whole event of `bytes` and where the next begins (events end with a
/// blank line: `\n\n`, `\r\n\r\n` or `\r\r`), if one is whole.
fn event_end(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut at = 0;
    loop {
        let line = bytes.get(at..)?;
        let line_end = at + line.iter().position(|byte| matches!(byte, b'\n' | b'\r'))?;
        let after = match (bytes.get(line_end), bytes.get(line_end + 1)) {
            (Some(b'\r'), Some(b'\n')) => line_end + 2,
            (Some(b'\r'), None) => return None,
            _ => line_end + 1,
        };
        if line_end == at {
            // A blank line: the event is what came before it.
            return Some((at, after));
        }
        at = after;
    }
}

/// The data of an event (its `data:` lines joined with `\n`), if it has any.
fn data_of(event: &[u8]) -> Option<Bytes> {
    let mut data: Option<Vec<u8>> = None;
    for line in event.split(|byte| *byte == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Some(value) = line.strip_prefix(b"data:") else {
            continue;
        };
        let value = value.strip_prefix(b" ").unwrap_or(value);
        match &mut data {
            Some(data) => {
                data.push(b'\n');
                data.extend_from_slice(value);
            }
            None => data = Some(value.to_vec()),
        }
    }
    data.filter(|data| !data.trim_ascii().is_empty())
        .map(Bytes::from)
}

/// Whether a message is a response or an error (not a request or a notification of the
/// server's).
fn is_answer(message: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Members {
        method: Option<serde::de::IgnoredAny>,
        result: Option<serde::de::IgnoredAny>,
        error: Option<serde::de::IgnoredAny>,
    }
    serde_json::from_slice::<Members>(message).is_ok_and(|members| {
        members.method.is_none() && (members.result.is_some() || members.error.is_some())
    })
}

/// The stream as it came: the bytes read first, then the rest.
fn streamed(parts: http::response::Parts, read: Bytes, rest: ReplyBody) -> Response<ReplyBody> {
    let body = Prefixed {
        first: (!read.is_empty()).then_some(read),
        rest,
    };
    Response::from_parts(parts, body.boxed())
}

/// A body of `first`, then `rest`.
struct Prefixed {
    first: Option<Bytes>,
    rest: ReplyBody,
}

impl Body for Prefixed {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if let Some(first) = self.first.take() {
            return Poll::Ready(Some(Ok(Frame::data(first))));
        }
        Pin::new(&mut self.rest).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.first.is_none() && self.rest.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

#[cfg(test)]
mod tests {
    use super::{data_of, event_end, is_answer};

    #[test]
    fn events_end_with_a_blank_line() {
        assert_eq!(event_end(b"data: a\n\ndata: b"), Some((8, 9)));
        assert_eq!(
            event_end(b"id: 0\r\nretry: 3000\r\ndata:\r\n\r\nx"),
            Some((27, 29))
        );
        assert_eq!(event_end(b"data: a\n"), None);
        assert_eq!(event_end(b"data: a\r"), None);
        assert_eq!(event_end(b"\n"), Some((0, 1)));
    }

    #[test]
    fn data_lines_are_joined_and_empty_data_is_none() {
        assert_eq!(
            data_of(b"id: 1\ndata: {\"a\":\ndata:1}\n").unwrap(),
            &b"{\"a\":\n1}"[..]
        );
        assert_eq!(data_of(b"id: 0\nretry: 3000\ndata:\n"), None);
        assert_eq!(data_of(b": keep-alive\n"), None);
    }

    #[test]
    fn answers_are_responses_and_errors() {
        assert!(is_answer(
            br#"{"jsonrpc":"2.0","id":1,"result":{"method":"x"}}"#
        ));
        assert!(is_answer(
            br#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"m"}}"#
        ));
        assert!(!is_answer(
            br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#
        ));
        assert!(!is_answer(
            br#"{"jsonrpc":"2.0","id":0,"method":"elicitation/create"}"#
        ));
        assert!(!is_answer(b"not json"));
    }
}
