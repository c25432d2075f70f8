//! The `tracing` spans and events of the runner's calls (feature `tracing01`), seen by a
//! capturing layer on tracing-subscriber's registry. Span and attribute names are those of
//! OpenTelemetry's GenAI semantic conventions, v1.38.0, "Execute tool span":
//! <https://github.com/open-telemetry/semantic-conventions/blob/v1.38.0/docs/gen-ai/gen-ai-spans.md#execute-tool-span>
//! (`otel.name` and `otel.kind` are what tracing-opentelemetry reads as the span's name and
//! kind).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Deserialize;
use serde_json::json;
use toolgen::ToolSet;
use toolgen::{Cancellation, Handler, Invocation, Provider, Runner, Tool, ToolCall, ToolError};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

/// Log in to the vault.
#[derive(Tool, Deserialize)]
struct Login {
    user: String,
    password: String,
}

impl Handler<()> for Login {
    type Output = String;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<String, ToolError> {
        if self.password.is_empty() {
            return Err(ToolError::new("no password"));
        }
        Ok(format!("token for {}", self.user))
    }
}

/// Wait a long time.
#[derive(Tool, Deserialize)]
#[tool(timeout = "1s")]
struct Wait {}

impl Handler<()> for Wait {
    type Output = &'static str;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> {
        tokio::time::sleep(Duration::from_secs(60)).await;
        Ok("waited")
    }
}

#[derive(ToolSet)]
enum Tools {
    Login(Login),
    Wait(Wait),
}

/// A span as the layer saw it: its name and every field recorded, at creation or later.
#[derive(Clone, Debug, Default)]
struct SeenSpan {
    name: &'static str,
    fields: BTreeMap<String, String>,
}

/// An event: its fields (`message` among them) and the name of the span it happened in.
#[derive(Clone, Debug)]
struct SeenEvent {
    fields: BTreeMap<String, String>,
    span: Option<u64>,
}

#[derive(Clone, Default)]
struct Seen {
    /// In the order they were made (the registry reuses ids of closed spans).
    spans: Arc<Mutex<Vec<(u64, SeenSpan)>>>,
    events: Arc<Mutex<Vec<SeenEvent>>>,
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Seen {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, _: Context<'_, S>) {
        let mut span = SeenSpan {
            name: attrs.metadata().name(),
            ..SeenSpan::default()
        };
        attrs.record(&mut Fields(&mut span.fields));
        self.spans.lock().unwrap().push((id.into_u64(), span));
    }
    fn on_record(&self, id: &Id, values: &Record<'_>, _: Context<'_, S>) {
        let mut spans = self.spans.lock().unwrap();
        if let Some((_, span)) = spans
            .iter_mut()
            .rev()
            .find(|(seen, _)| *seen == id.into_u64())
        {
            values.record(&mut Fields(&mut span.fields));
        }
    }
    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        let span = ctx.event_span(event).map(|span| span.id().into_u64());
        self.events.lock().unwrap().push(SeenEvent { fields, span });
    }
}

impl Seen {
    /// The `execute_tool` spans, in the order they were made.
    fn tool_spans(&self) -> Vec<(u64, SeenSpan)> {
        let spans = self.spans.lock().unwrap();
        spans
            .iter()
            .filter(|(_, span)| span.name == "execute_tool")
            .map(|(id, span)| (*id, span.clone()))
            .collect()
    }

    fn events(&self) -> Vec<SeenEvent> {
        self.events.lock().unwrap().clone()
    }
}

/// Runs `body` on a paused current-thread runtime, with `seen` as the subscriber's layer.
fn traced<F: Future>(seen: &Seen, body: impl FnOnce() -> F) -> F::Output {
    let subscriber = tracing_subscriber::registry().with(seen.clone());
    tracing::subscriber::with_default(subscriber, || {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap()
            .block_on(body())
    })
}

fn fields(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
        .collect()
}

#[test]
fn each_call_has_an_execute_tool_span_with_the_gen_ai_attributes() {
    let seen = Seen::default();
    let calls = [
        ToolCall::new(
            "login",
            json!({"user": "ada", "password": "hunter2"}).to_string(),
        )
        .with_id("toolu_1"),
        ToolCall::new("login", json!({"user": "ada", "password": ""}).to_string())
            .with_id("toolu_2"),
        ToolCall::new("login", json!({"user": "ada", "password": 7}).to_string())
            .with_id("toolu_3"),
        ToolCall::new("logout", "{}").with_id("toolu_4"),
        ToolCall::new("wait", "{}").with_id("toolu_5"),
    ];
    let turn = traced(&seen, || async {
        let mut runner = Runner::<Tools, ()>::new(());
        runner.run(Provider::Anthropic, &calls).await
    });
    assert_eq!(turn.results()[0].to_text(), "token for ada");

    let common = |id: &str, tool: &str| {
        fields(&[
            ("otel.name", &format!("execute_tool {tool}")),
            ("otel.kind", "internal"),
            ("gen_ai.operation.name", "execute_tool"),
            ("gen_ai.tool.name", tool),
            ("gen_ai.tool.type", "function"),
            ("gen_ai.tool.call.id", id),
            ("gen_ai.provider.name", "anthropic"),
        ])
    };
    let failed = |id: &str, tool: &str, error: &str| {
        let mut fields = common(id, tool);
        fields.insert("error.type".to_owned(), error.to_owned());
        fields.insert("otel.status_code".to_owned(), "ERROR".to_owned());
        fields
    };
    let spans: Vec<BTreeMap<String, String>> = seen
        .tool_spans()
        .into_iter()
        .map(|(_, span)| span.fields)
        .collect();
    pretty_assertions::assert_eq!(
        spans,
        vec![
            common("toolu_1", "login"),
            failed("toolu_2", "login", "tool_error"),
            failed("toolu_3", "login", "invalid_arguments"),
            failed("toolu_4", "logout", "unknown_tool"),
            failed("toolu_5", "wait", "timeout"),
        ]
    );

    // The events, each in its call's span; no argument value in any of them.
    let ids: Vec<u64> = seen.tool_spans().into_iter().map(|(id, _)| id).collect();
    let events: Vec<(Option<u64>, BTreeMap<String, String>)> = seen
        .events()
        .into_iter()
        .map(|event| (event.span, event.fields))
        .collect();
    pretty_assertions::assert_eq!(
        events,
        vec![
            (
                Some(ids[2]),
                fields(&[
                    ("message", "invalid tool arguments"),
                    ("path", "password"),
                    ("kind", "Data"),
                ])
            ),
            (
                Some(ids[4]),
                fields(&[
                    ("message", "tool call timed out"),
                    ("timeout_ms", "1000"),
                    ("result_stands", "false"),
                ])
            ),
            // The retry budget (login had a valid call: only the unknown tool counts).
            (
                None,
                fields(&[
                    ("message", "invalid arguments again"),
                    ("gen_ai.tool.name", "(unknown tools)"),
                    ("attempts", "1"),
                    ("max_retries", "3"),
                ])
            ),
        ]
    );
    let everything = format!("{:?}{:?}", seen.spans.lock().unwrap(), seen.events());
    assert!(!everything.contains("hunter2"), "{everything}");
}

#[test]
fn values_are_traced_only_when_the_runner_opts_in() {
    let calls = [
        ToolCall::new(
            "login",
            json!({"user": "ada", "password": "hunter2"}).to_string(),
        )
        .with_id("call_1"),
        ToolCall::new("login", json!({"user": "ada", "password": 7}).to_string()).with_id("call_2"),
    ];
    let seen = Seen::default();
    traced(&seen, || async {
        let mut runner = Runner::<Tools, ()>::new(()).trace_values(true);
        runner.run(Provider::OpenAiChat, &calls).await
    });
    let spans = seen.tool_spans();
    assert_eq!(
        spans[0]
            .1
            .fields
            .get("gen_ai.tool.call.arguments")
            .map(String::as_str),
        Some(calls[0].arguments.as_str())
    );
    assert_eq!(
        spans[0]
            .1
            .fields
            .get("gen_ai.tool.call.result")
            .map(String::as_str),
        Some("token for ada")
    );
    assert_eq!(
        spans[0]
            .1
            .fields
            .get("gen_ai.provider.name")
            .map(String::as_str),
        Some("openai")
    );
    // The invalid-argument event, with the parser's message (it quotes the value).
    assert_eq!(
        seen.events()[0].fields.get("reason").map(String::as_str),
        Some(r#"invalid type: integer `7`, expected a string"#)
    );

    // Without the opt-in: neither attribute, and the parser's message (which quotes values)
    // left out.
    let seen = Seen::default();
    traced(&seen, || async {
        let mut runner = Runner::<Tools, ()>::new(());
        runner.run(Provider::OpenAiChat, &calls).await
    });
    let spans = seen.tool_spans();
    assert!(!spans[0].1.fields.contains_key("gen_ai.tool.call.arguments"));
    assert!(!spans[0].1.fields.contains_key("gen_ai.tool.call.result"));
    assert_eq!(seen.events()[0].fields.get("reason"), None);
}

#[test]
fn cancellations_and_spent_retry_budgets_are_events() {
    let seen = Seen::default();
    let stop = traced(&seen, || async {
        let mut runner = Runner::<Tools, ()>::new(()).max_retries(1);
        let cancellation = Cancellation::new();
        let canceller = cancellation.clone();
        let wait = [ToolCall::new("wait", "{}").with_id("w")];
        let (turn, ()) = tokio::join!(
            runner.run_until(Provider::Gemini, &wait, &cancellation),
            async move {
                tokio::time::sleep(Duration::from_millis(10)).await;
                canceller.cancel();
            }
        );
        assert_eq!(turn.results()[0].to_text(), "the tool `wait` was cancelled");
        let bad = [ToolCall::new("login", "{}").with_id("b")];
        runner.run(Provider::Gemini, &bad).await;
        runner.run(Provider::Gemini, &bad).await.stop().cloned()
    });
    assert!(stop.is_some());
    let spans = seen.tool_spans();
    assert_eq!(spans[0].1.fields["error.type"], "cancelled");
    assert_eq!(spans[0].1.fields["gen_ai.provider.name"], "gcp.gemini");
    let messages: Vec<(String, Option<String>)> = seen
        .events()
        .iter()
        .map(|event| {
            (
                event.fields["message"].clone(),
                event.fields.get("attempts").cloned(),
            )
        })
        .collect();
    pretty_assertions::assert_eq!(
        messages,
        vec![
            ("tool call cancelled".to_owned(), None),
            ("invalid tool arguments".to_owned(), None),
            ("invalid arguments again".to_owned(), Some("1".to_owned())),
            ("invalid tool arguments".to_owned(), None),
            ("retry budget spent".to_owned(), Some("2".to_owned())),
        ]
    );
}
