//! A request's answer over streamable HTTP as one JSON body when nothing comes before it: rmcp
//! answers every POST of a request with an event stream (SSE); the transport specification lets
//! a server answer with either, and the client accepts both. The stream is read until its first
//! message: the answer itself (a response or an error) is sent as `application/json`; a
//! notification or a request of the server's (progress, an elicitation, a log) first, or no
//! message within the wait, and the stream goes on as it came, the bytes read sent first.

use std::convert::Infallible;
use std::ops::Range;
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
///
/// (On the way of every call, so the answer costs no more than the stream would: each byte is
/// looked at once, for line ends, and the answer is sent as the frame it came in, not copied;
/// whether a message is the answer is told by its first members, not by reading it whole.)
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
    // (One timer for the whole wait, not one for each frame.)
    let mut deadline = std::pin::pin!(tokio::time::sleep(wait));
    // The events looked at, without data (a priming event: an id and a retry time; a comment),
    // and the bytes read after them.
    let mut seen = Bytes::new();
    let mut pending = Bytes::new();
    loop {
        while let Some(event) = first_event(&pending) {
            let Some(data) = event.data else {
                seen = joined(seen, pending.split_to(event.length));
                continue;
            };
            let data = match data {
                Data::Line(line) => pending.slice(line),
                Data::Lines(lines) => Bytes::from(lines),
            };
            if !is_answer(&data) {
                return streamed(parts, [seen, pending], body);
            }
            parts.headers.insert(
                http::header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            // (The stream's: not to be cached, nor buffered by nginx.)
            parts.headers.remove(http::header::CACHE_CONTROL);
            parts.headers.remove(X_ACCEL_BUFFERING);
            return Response::from_parts(parts, Full::new(data).boxed());
        }
        // (The body first: a frame ready is read even past the wait.)
        let frame = std::future::poll_fn(|cx| match Pin::new(&mut body).poll_frame(cx) {
            Poll::Ready(frame) => Poll::Ready(frame),
            Poll::Pending => deadline.as_mut().poll(cx).map(|()| None),
        });
        match frame.await {
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    pending = joined(pending, data);
                }
            }
            Some(Err(never)) => match never {},
            // Still running past the wait (its stream's keep-alive holds the connection), or
            // ended without an answer: as it came.
            None => return streamed(parts, [seen, pending], body),
        }
    }
}

/// nginx's header that rmcp's streams have. (A `HeaderName` made once: looked up by a `&str`, a
/// name is parsed again on each lookup.)
const X_ACCEL_BUFFERING: http::HeaderName = http::HeaderName::from_static("x-accel-buffering");

/// `first`, then `then`: copied only where both have bytes.
fn joined(first: Bytes, then: Bytes) -> Bytes {
    if first.is_empty() {
        return then;
    }
    if then.is_empty() {
        return first;
    }
    let mut both = BytesMut::with_capacity(first.len() + then.len());
    both.extend_from_slice(&first);
    both.extend_from_slice(&then);
    both.freeze()
}

/// An event of a stream.
#[derive(Debug, PartialEq)]
struct Event {
    /// Its length, with the blank line that ends it.
    length: usize,
    /// Its data, if it has any that is not blank.
    data: Option<Data>,
}

/// An event's data.
#[derive(Debug, PartialEq)]
enum Data {
    /// Where the value of its one `data:` line is, in the bytes the event is in.
    Line(Range<usize>),
    /// The values of its `data:` lines, joined with `\n`.
    Lines(Vec<u8>),
}

/// The first event of `bytes`, if it is whole (events end with a blank line: `\n\n`,
/// `\r\n\r\n` or `\r\r`). Each byte is looked at once.
fn first_event(bytes: &[u8]) -> Option<Event> {
    let mut data: Option<Data> = None;
    let mut at = 0;
    loop {
        let line_end = at + memchr::memchr2(b'\n', b'\r', bytes.get(at..)?)?;
        let after = match (bytes.get(line_end), bytes.get(line_end + 1)) {
            (Some(b'\r'), Some(b'\n')) => line_end + 2,
            (Some(b'\r'), None) => return None,
            _ => line_end + 1,
        };
        if line_end == at {
            // A blank line: the event is what came before it.
            let blank = match &data {
                Some(Data::Line(line)) => bytes.get(line.clone())?.trim_ascii().is_empty(),
                Some(Data::Lines(lines)) => lines.trim_ascii().is_empty(),
                None => true,
            };
            return Some(Event {
                length: after,
                data: if blank { None } else { data },
            });
        }
        let line = at..line_end;
        at = after;
        let Some(value) = bytes.get(line.clone())?.strip_prefix(b"data:") else {
            continue;
        };
        let space = usize::from(value.first() == Some(&b' '));
        let value = line.end - value.len() + space..line.end;
        data = Some(match data {
            None => Data::Line(value),
            Some(Data::Line(first)) => {
                let mut lines = bytes.get(first)?.to_vec();
                lines.push(b'\n');
                lines.extend_from_slice(bytes.get(value)?);
                Data::Lines(lines)
            }
            Some(Data::Lines(mut lines)) => {
                lines.push(b'\n');
                lines.extend_from_slice(bytes.get(value)?);
                Data::Lines(lines)
            }
        });
    }
}

/// Whether a message is a response or an error (not a request or a notification of the
/// server's): a JSON object whose members include `result` or `error` before any `method`.
/// Read up to the first of them only (rmcp writes `jsonrpc` and `id` before it), not to the
/// end of a large result.
fn is_answer(message: &[u8]) -> bool {
    // As rmcp writes an answer with an integer id, told without a parser (a third of the JSON
    // reply's own cost on a small answer); any other message is read below.
    if let Some(rest) = message.strip_prefix(br#"{"jsonrpc":"2.0","id":"#) {
        let digits = rest.iter().take_while(|byte| byte.is_ascii_digit()).count();
        let after = rest.get(digits..).unwrap_or_default();
        if digits > 0 && (after.starts_with(br#","result":"#) || after.starts_with(br#","error":"#))
        {
            return true;
        }
    }
    use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};

    /// The members that tell a message's kind.
    #[derive(serde::Deserialize)]
    #[serde(field_identifier, rename_all = "lowercase")]
    enum Member {
        Method,
        Result,
        Error,
        #[serde(other)]
        Other,
    }

    /// Reads members up to the first that tells, notes what it tells, and stops there: the
    /// parse then fails where the map goes on (an error made without a message, cheaper than
    /// one of the visitor's own).
    struct Kind<'a>(&'a mut Option<bool>);

    impl<'de> Visitor<'de> for Kind<'_> {
        type Value = ();

        fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
            formatter.write_str("a JSON-RPC message")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<(), A::Error> {
            while let Some(member) = members.next_key::<Member>()? {
                let answer = match member {
                    Member::Method => false,
                    Member::Result | Member::Error => true,
                    Member::Other => {
                        members.next_value::<IgnoredAny>()?;
                        continue;
                    }
                };
                *self.0 = Some(answer);
                return Ok(());
            }
            Ok(())
        }
    }

    let mut told = None;
    let mut deserializer = serde_json::Deserializer::from_slice(message);
    let _ = deserializer.deserialize_map(Kind(&mut told));
    told == Some(true)
}

/// The stream as it came: the bytes read first, then the rest.
fn streamed(
    parts: http::response::Parts,
    read: [Bytes; 2],
    rest: ReplyBody,
) -> Response<ReplyBody> {
    let body = Prefixed { read, rest };
    Response::from_parts(parts, body.boxed())
}

/// A body of the bytes `read`, then `rest`.
struct Prefixed {
    read: [Bytes; 2],
    rest: ReplyBody,
}

impl Body for Prefixed {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if let Some(read) = self.read.iter_mut().find(|read| !read.is_empty()) {
            return Poll::Ready(Some(Ok(Frame::data(std::mem::take(read)))));
        }
        Pin::new(&mut self.rest).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.read.iter().all(Bytes::is_empty) && self.rest.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

#[cfg(test)]
mod tests {
    use super::{Data, Event, first_event, is_answer};

    #[test]
    fn events_end_with_a_blank_line() {
        let event = |length, data| Some(Event { length, data });
        assert_eq!(
            first_event(b"data: a\n\ndata: b"),
            event(9, Some(Data::Line(6..7)))
        );
        assert_eq!(
            first_event(b"id: 0\r\nretry: 3000\r\ndata:\r\n\r\nx"),
            event(29, None)
        );
        assert_eq!(first_event(b"data: a\n"), None);
        assert_eq!(first_event(b"data: a\r"), None);
        assert_eq!(first_event(b"\n"), event(1, None));
        assert_eq!(
            first_event(b"data:a\r\rx"),
            event(8, Some(Data::Line(5..6)))
        );
    }

    #[test]
    fn data_lines_are_joined_and_empty_data_is_none() {
        let data = |bytes: &[u8]| first_event(bytes).unwrap().data;
        assert_eq!(
            data(b"id: 1\ndata: {\"a\":\ndata:1}\n\n"),
            Some(Data::Lines(b"{\"a\":\n1}".to_vec()))
        );
        assert_eq!(data(b"id: 1\r\ndata: {}\r\n\r\n"), Some(Data::Line(13..15)));
        assert_eq!(data(b"id: 0\nretry: 3000\ndata:\n\n"), None);
        assert_eq!(data(b"data:  \ndata: \n\n"), None);
        assert_eq!(data(b": keep-alive\n\n"), None);
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
        assert!(is_answer(br#"{"jsonrpc":"2.0","id":"1","result":{}}"#));
        assert!(is_answer(br#"{"jsonrpc":"2.0","id":-1,"result":{}}"#));
        assert!(is_answer(br#"{"jsonrpc":"2.0","id":12,"error":{}}"#));
        assert!(!is_answer(br#"{"jsonrpc":"2.0","id":12,"method":"ping"}"#));
        assert!(!is_answer(br#"{"jsonrpc":"2.0","id":,"result":{}}"#));
        // Read up to the member that tells, not to the end.
        assert!(is_answer(
            br#"{"jsonrpc":"2.0","id":"a","result":{"content":["#
        ));
        assert!(!is_answer(br#"{"jsonrpc":"2.0","id":1}"#));
    }
}
