//! Calls held for a person: `#[tool(needs_approval)]`, `DynamicTool::require_approval` and the
//! runner's policy hold calls; a held turn is saved as JSON, read back by another runner,
//! decided and resumed; calls that ran do not run again; a resume whose tools changed is a
//! clear error; the runner's order, limits, timeouts and cancellation hold with held calls.
//!
//! Time is Tokio's paused clock, as in tests/run.rs.

#![cfg(feature = "run")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use pretty_assertions::assert_eq;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::{
    Allowed, Cancellation, Decision, DynamicFuture, DynamicHandler, DynamicTool, Handler,
    Invocation, Pending, Provider, ResumeError, Runner, Tool, ToolCall, ToolChoice, ToolError,
    ToolResult, ToolSet,
};

/// What the handlers share: how many times each ran.
#[derive(Default)]
struct Ctx {
    sent: AtomicUsize,
    looked_up: AtomicUsize,
    paid: AtomicUsize,
    running: AtomicUsize,
    most_at_once: AtomicUsize,
}

/// Send an email.
#[derive(Tool, Deserialize)]
#[tool(needs_approval, destructive = false, open_world)]
struct SendEmail {
    to: String,
    /// Milliseconds the sending takes.
    #[serde(default)]
    ms: u64,
}

impl Handler<Ctx> for SendEmail {
    type Output = String;
    async fn handle(self, ctx: &Ctx, _: &Invocation<'_>) -> Result<String, ToolError> {
        let now = ctx.running.fetch_add(1, Ordering::SeqCst) + 1;
        ctx.most_at_once.fetch_max(now, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(self.ms)).await;
        ctx.running.fetch_sub(1, Ordering::SeqCst);
        ctx.sent.fetch_add(1, Ordering::SeqCst);
        Ok(format!("sent to {}", self.to))
    }
}

/// Look a word up; fails for `"fail"`, waits an hour for `"slow"`.
#[derive(Tool, Deserialize)]
#[tool(timeout = "1s")]
struct Lookup {
    word: String,
}

impl Handler<Ctx> for Lookup {
    type Output = String;
    async fn handle(self, ctx: &Ctx, _: &Invocation<'_>) -> Result<String, ToolError> {
        ctx.looked_up.fetch_add(1, Ordering::SeqCst);
        match self.word.as_str() {
            "fail" => Err(ToolError::new("no such word")),
            "slow" => {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok("late".to_owned())
            }
            word => Ok(format!("{word}: found")),
        }
    }
}

/// Pay an amount, in cents.
#[derive(Tool, Deserialize)]
struct Pay {
    cents: u64,
}

impl Handler<Ctx> for Pay {
    type Output = String;
    async fn handle(self, ctx: &Ctx, _: &Invocation<'_>) -> Result<String, ToolError> {
        ctx.paid.fetch_add(1, Ordering::SeqCst);
        Ok(format!("paid {}", self.cents))
    }
}

#[derive(ToolSet)]
enum Tools {
    Send(SendEmail),
    Lookup(Lookup),
    Pay(Pay),
}

fn call(id: usize, name: &str, arguments: Value) -> ToolCall {
    ToolCall::new(name, arguments.to_string()).with_id(format!("call_{id}"))
}

fn texts(results: &[ToolResult]) -> Vec<(bool, String)> {
    results
        .iter()
        .map(|r| (r.is_error(), r.to_text().into_owned()))
        .collect()
}

/// The places of a turn's held calls.
fn places(turn: &toolgen::Turn) -> Vec<usize> {
    turn.held().iter().map(|held| held.index()).collect()
}

fn ok(text: &str) -> (bool, String) {
    (false, text.to_owned())
}

fn err(text: &str) -> (bool, String) {
    (true, text.to_owned())
}

#[test]
fn the_attribute_and_the_set_say_which_tools_need_approval() {
    let needs = [SendEmail::NEEDS_APPROVAL, Lookup::NEEDS_APPROVAL];
    assert_eq!(needs, [true, false]);
    assert!(Tools::needs_approval("send_email"));
    assert!(!Tools::needs_approval("pay"));
    assert!(!Tools::needs_approval("no_such_tool"));
}

#[tokio::test(start_paused = true)]
async fn held_calls_come_back_with_the_other_results() {
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    let calls = [
        call(0, "lookup", json!({"word": "rope"})),
        call(1, "send_email", json!({"to": "ana@example.com"})),
        call(2, "send_email", json!({"to": 7})),
        call(3, "lookup", json!({"word": "fail"})),
    ];
    let turn = runner.run(Provider::Anthropic, &calls).await;
    assert_eq!(
        texts(turn.results()),
        vec![
            ok("rope: found"),
            err("this call of `send_email` waits for the user's approval"),
            // Arguments that do not parse are never held: the model can correct them at once.
            err("invalid arguments at `to`: invalid type: integer `7`, expected a string"),
            err("no such word"),
        ]
    );
    assert_eq!(turn.held().len(), 1);
    let held = &turn.held()[0];
    assert_eq!(held.index(), 1);
    assert_eq!(held.name(), "send_email");
    assert_eq!(held.id(), Some("call_1"));
    assert_eq!(held.arguments(), &json!({"to": "ana@example.com"}));
    assert_eq!(
        held.annotations(),
        Some(&json!({"destructiveHint": false, "openWorldHint": true}))
    );
    assert_eq!(held.decision(), None);
    assert_eq!(runner.context().sent.load(Ordering::SeqCst), 0);
    assert_eq!(runner.context().looked_up.load(Ordering::SeqCst), 2);
    assert!(turn.stop().is_none());

    // A turn without held calls has nothing pending.
    let turn = runner.run(Provider::Anthropic, &calls[..1]).await;
    assert!(turn.held().is_empty());
    assert!(turn.pending().is_none());
}

/// The whole flow across processes: the held turn saved as a JSON string, the runner dropped,
/// another built, the turn read back, one call approved and one denied, resumed.
#[tokio::test(start_paused = true)]
async fn a_saved_turn_resumes_in_another_runner() {
    let calls = [
        call(0, "send_email", json!({"to": "ana@example.com"})),
        call(1, "lookup", json!({"word": "rope"})),
        call(2, "send_email", json!({"to": "bo@example.com"})),
        call(3, "pay", json!({"cents": 500})),
    ];
    let saved = {
        let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
        let turn = runner.run(Provider::OpenAiChat, &calls).await;
        assert_eq!(runner.context().looked_up.load(Ordering::SeqCst), 1);
        assert_eq!(runner.context().paid.load(Ordering::SeqCst), 1);
        assert_eq!(runner.context().sent.load(Ordering::SeqCst), 0);
        let held = places(&turn);
        assert_eq!(held, [0, 2]);
        serde_json::to_string(&turn.pending().unwrap()).unwrap()
    };

    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    let mut pending: Pending = serde_json::from_str(&saved).unwrap();
    assert_eq!(pending.provider(), Provider::OpenAiChat);
    let held: Vec<(usize, &str)> = pending
        .held()
        .iter()
        .map(|held| (held.index(), held.arguments()["to"].as_str().unwrap()))
        .collect();
    assert_eq!(held, [(0, "ana@example.com"), (2, "bo@example.com")]);
    pending.approve(2).unwrap();
    pending.deny(0, "not to Ana").unwrap();
    assert_eq!(
        pending.held()[0].decision(),
        Some(&Decision::Denied {
            reason: "not to Ana".to_owned()
        })
    );
    let turn = runner.resume(&pending).await.unwrap();
    assert_eq!(
        texts(turn.results()),
        vec![
            err("the user denied this call of `send_email`: not to Ana"),
            ok("rope: found"),
            ok("sent to bo@example.com"),
            ok("paid 500"),
        ]
    );
    assert_eq!(turn.calls(), &calls);
    assert!(turn.held().is_empty());
    // Only the approved call ran here: the others ran in the first runner, or not at all.
    assert_eq!(runner.context().sent.load(Ordering::SeqCst), 1);
    assert_eq!(runner.context().looked_up.load(Ordering::SeqCst), 0);
    assert_eq!(runner.context().paid.load(Ordering::SeqCst), 0);
    // The messages carry every call's result, in call order, by id.
    let messages = turn.messages();
    let ids: Vec<&str> = messages
        .iter()
        .map(|message| message["tool_call_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["call_0", "call_1", "call_2", "call_3"]);
    assert_eq!(messages[2]["content"], "sent to bo@example.com");

    // Saved again after the decisions, it reads back the same.
    let again: Pending = serde_json::from_str(&serde_json::to_string(&pending).unwrap()).unwrap();
    assert_eq!(again, pending);
}

#[tokio::test(start_paused = true)]
async fn the_saved_form_is_plain_json() {
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    let calls = [
        call(0, "lookup", json!({"word": "rope"})),
        call(1, "send_email", json!({"to": "ana@example.com"})),
    ];
    let turn = runner.run(Provider::Gemini, &calls).await;
    let mut pending = turn.pending().unwrap();
    pending.approve(1).unwrap();
    assert_eq!(
        serde_json::to_value(&pending).unwrap(),
        json!({
            "provider": "Gemini",
            "calls": [
                {"done": {
                    "call": {"id": "call_0", "name": "lookup", "arguments": r#"{"word":"rope"}"#},
                    "result": {"output": {"text": "rope: found"}, "is_error": false},
                }},
                {"held": {
                    "call": {"id": "call_1", "name": "send_email", "arguments": r#"{"to":"ana@example.com"}"#},
                    "arguments": {"to": "ana@example.com"},
                    "annotations": {"destructiveHint": false, "openWorldHint": true},
                    "decision": "approved",
                }},
            ],
        })
    );
}

/// A turn run with a tool choice keeps it through JSON: its resume, in another runner, runs
/// only the calls the choice allowed (a held call edited, in the saved text, into a call of a
/// tool the turn did not allow is refused, and nothing runs).
#[tokio::test(start_paused = true)]
async fn a_resume_keeps_the_tool_choice_of_its_turn() {
    let choice = ToolChoice::allowed(["send_email", "lookup"], Allowed::Auto);
    let calls = [
        call(0, "send_email", json!({"to": "ana@example.com"})),
        call(1, "pay", json!({"cents": 500})),
    ];
    let saved = {
        let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
        let turn = runner
            .run_with_choice(Provider::OpenAiResponses, &calls, &choice)
            .await;
        assert_eq!(places(&turn), [0]);
        assert_eq!(runner.context().paid.load(Ordering::SeqCst), 0);
        serde_json::to_value(turn.pending().unwrap()).unwrap()
    };
    assert_eq!(
        saved["choice"],
        json!({"type": "allowed", "tools": ["send_email", "lookup"], "mode": "auto"})
    );
    // Another process reads the text back: the choice with it.
    let text = saved.to_string();
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    let mut pending: Pending = serde_json::from_str(&text).unwrap();
    assert_eq!(pending.choice(), Some(&choice));
    pending.approve(0).unwrap();
    let turn = runner.resume(&pending).await.unwrap();
    assert_eq!(
        texts(turn.results()),
        vec![
            ok("sent to ana@example.com"),
            err(
                "tool `pay` is not allowed in this turn; the tools allowed are `send_email`, `lookup`"
            ),
        ]
    );

    // The held call edited into a call of `pay`, which the turn did not allow.
    let mut edited = saved.clone();
    let held = &mut edited["calls"][0]["held"];
    held["call"]["name"] = json!("pay");
    held["call"]["arguments"] = json!(r#"{"cents":99900}"#);
    held["arguments"] = json!({"cents": 99900});
    let mut pending: Pending = serde_json::from_str(&edited.to_string()).unwrap();
    pending.approve(0).unwrap();
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    assert_eq!(
        runner.resume(&pending).await.unwrap_err(),
        ResumeError::Changed {
            index: 0,
            tool: "pay".to_owned(),
            reason: "tool `pay` is not allowed in this turn; the tools allowed are `send_email`, \
                     `lookup`"
                .to_owned(),
        }
    );
    assert_eq!(runner.context().paid.load(Ordering::SeqCst), 0);
    // A turn run without a choice saves none.
    let turn = runner.run(Provider::OpenAiResponses, &calls).await;
    let saved = serde_json::to_value(turn.pending().unwrap()).unwrap();
    assert_eq!(saved.get("choice"), None);
}

#[tokio::test(start_paused = true)]
async fn decisions_are_checked() {
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    let calls = [
        call(0, "lookup", json!({"word": "rope"})),
        call(1, "send_email", json!({"to": "ana@example.com"})),
        call(2, "send_email", json!({"to": "bo@example.com"})),
    ];
    let turn = runner.run(Provider::Anthropic, &calls).await;
    let mut pending = turn.pending().unwrap();
    // Only held calls take a decision.
    assert_eq!(pending.approve(0), Err(ResumeError::NotHeld { index: 0 }));
    assert_eq!(
        pending.deny(9, "no").unwrap_err().to_string(),
        "no call is held at place 9"
    );
    // Every held call needs one before the resume, which then runs nothing.
    pending.approve(1).unwrap();
    let undecided = runner.resume(&pending).await.unwrap_err();
    assert_eq!(
        undecided,
        ResumeError::Undecided {
            index: 2,
            tool: "send_email".to_owned()
        }
    );
    assert_eq!(
        undecided.to_string(),
        "the call of `send_email` at place 2 is neither approved nor denied"
    );
    assert_eq!(runner.context().sent.load(Ordering::SeqCst), 0);
    // A decision can change until the resume.
    pending.deny(1, "").unwrap();
    pending.approve_all();
    let turn = runner.resume(&pending).await.unwrap();
    assert_eq!(
        texts(turn.results()),
        vec![
            ok("rope: found"),
            ok("sent to ana@example.com"),
            ok("sent to bo@example.com")
        ]
    );
    // An empty reason: the model reads that the user denied it.
    let mut pending = runner
        .run(Provider::Anthropic, &calls[1..2])
        .await
        .pending()
        .unwrap();
    pending.deny(0, "").unwrap();
    let turn = runner.resume(&pending).await.unwrap();
    assert_eq!(
        texts(turn.results()),
        vec![err("the user denied this call of `send_email`")]
    );
}

#[tokio::test(start_paused = true)]
async fn saved_text_that_does_not_read_is_an_error_not_a_panic() {
    for text in [
        "",
        "{}",
        "[]",
        r#"{"provider": "Gemini"}"#,
        r#"{"provider": "Nope", "calls": []}"#,
        r#"{"provider": "Gemini", "calls": [{"held": {"call": {"name": 7}}}]}"#,
        r#"{"provider": "Gemini", "calls": [{"done": {"call": {"name": "x", "arguments": "{}"}}}]}"#,
        r#"{"provider": "Gemini", "calls": [{"lost": {}}]}"#,
    ] {
        assert!(serde_json::from_str::<Pending>(text).is_err(), "{text}");
    }
    // Text that reads, but names tools this runner lacks: the resume says so.
    let text = r#"{"provider": "Anthropic", "calls": [
        {"held": {"call": {"name": "launch", "arguments": "{}"}, "arguments": {}, "decision": "approved"}}
    ]}"#;
    let pending: Pending = serde_json::from_str(text).unwrap();
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    let error = runner.resume(&pending).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the approved call of `launch` at place 0 cannot run as approved: invalid arguments: \
         unknown tool `launch`; the tools are `send_email`, `lookup`, `pay`"
    );
}

/// What the dynamic tools do: count their calls.
struct Counted(Arc<AtomicUsize>);

impl DynamicHandler<Ctx> for Counted {
    fn handle<'a>(&'a self, _: &'a Ctx, args: Value, _: &'a Invocation<'a>) -> DynamicFuture<'a> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move { Ok(json!({"deleted": args})) })
    }
}

fn delete_tool(schema: Value) -> DynamicTool {
    DynamicTool::new("delete_rows", "Delete rows.", schema)
        .unwrap()
        .with_annotations(json!({"destructiveHint": true}))
        .require_approval()
}

#[tokio::test(start_paused = true)]
async fn a_resume_whose_tools_changed_runs_nothing_and_says_why() {
    let schema = json!({
        "type": "object",
        "properties": {"table": {"type": "string"}, "limit": {"type": "integer", "default": 10}},
        "required": ["table"],
    });
    let ran = Arc::new(AtomicUsize::new(0));
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default())
        .with_tool(delete_tool(schema.clone()), Counted(ran.clone()));
    let calls = [
        call(0, "delete_rows", json!({"table": "users"})),
        call(1, "send_email", json!({"to": "ana@example.com"})),
    ];
    let turn = runner.run(Provider::Anthropic, &calls).await;
    let held = &turn.held()[0];
    // A run-time tool's arguments as it read them: its default filled in.
    assert_eq!(held.arguments(), &json!({"table": "users", "limit": 10}));
    assert_eq!(held.annotations(), Some(&json!({"destructiveHint": true})));
    let mut pending = turn.pending().unwrap();
    pending.approve_all();
    let saved = serde_json::to_string(&pending).unwrap();
    let read = |saved: &str| serde_json::from_str::<Pending>(saved).unwrap();

    // The tool is gone.
    let mut gone = Runner::<Tools, Ctx>::new(Ctx::default());
    let error = gone.resume(&read(&saved)).await.unwrap_err();
    let ResumeError::Changed { index, tool, .. } = &error else {
        panic!("{error:?}")
    };
    assert_eq!((*index, tool.as_str()), (0, "delete_rows"));
    // Nothing ran, not even the approved call whose tool is still there.
    assert_eq!(gone.context().sent.load(Ordering::SeqCst), 0);

    // The tool is there, but its schema no longer takes the arguments.
    let strict = json!({
        "type": "object",
        "properties": {"table": {"type": "integer"}},
        "required": ["table"],
    });
    let mut narrowed = Runner::<Tools, Ctx>::new(Ctx::default())
        .with_tool(delete_tool(strict), Counted(ran.clone()));
    let error = narrowed.resume(&read(&saved)).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the approved call of `delete_rows` at place 0 cannot run as approved: invalid \
         arguments at `table`: invalid type: string \"users\", expected an integer"
    );

    // The arguments parse, but to something else than what the person approved.
    let mut schema_changed = schema.clone();
    schema_changed["properties"]["limit"]["default"] = json!(1000);
    let mut changed = Runner::<Tools, Ctx>::new(Ctx::default())
        .with_tool(delete_tool(schema_changed), Counted(ran.clone()));
    let error = changed.resume(&read(&saved)).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the approved call of `delete_rows` at place 0 cannot run as approved: its arguments \
         now read as {\"table\":\"users\",\"limit\":1000}, where {\"table\":\"users\",\"limit\":10} \
         was approved"
    );

    // The tool is no longer offered.
    let mut hidden = Runner::<Tools, Ctx>::new(Ctx::default())
        .with_tool(delete_tool(schema.clone()), Counted(ran.clone()));
    hidden.offer(&["send_email"]);
    assert!(matches!(
        hidden.resume(&read(&saved)).await,
        Err(ResumeError::Changed { index: 0, .. })
    ));
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    assert_eq!(
        [&gone, &narrowed, &changed, &hidden].map(|r| r.context().sent.load(Ordering::SeqCst)),
        [0; 4]
    );

    // Denied, the changed call needs no tool: the rest resumes.
    let mut pending = read(&saved);
    pending.deny(0, "the table changed").unwrap();
    let turn = gone.resume(&pending).await.unwrap();
    assert_eq!(
        texts(turn.results()),
        vec![
            err("the user denied this call of `delete_rows`: the table changed"),
            ok("sent to ana@example.com"),
        ]
    );

    // The same runner, unchanged: the approved call runs, once.
    let turn = runner.resume(&read(&saved)).await.unwrap();
    assert_eq!(
        texts(turn.results())[0],
        ok(r#"{"deleted":{"table":"users","limit":10}}"#)
    );
    assert_eq!(ran.load(Ordering::SeqCst), 1);
}

#[tokio::test(start_paused = true)]
async fn a_policy_sees_the_parsed_arguments() {
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default()).needs_approval(|call, args| {
        call.name == "pay" && args["cents"].as_u64().is_some_and(|cents| cents > 10_000)
    });
    let calls = [
        call(0, "pay", json!({"cents": 500})),
        call(1, "pay", json!({"cents": 50_000})),
        // A tool that needs approval is held whatever the policy says.
        call(2, "send_email", json!({"to": "ana@example.com"})),
        call(3, "pay", json!({"cents": -1})),
        call(4, "lookup", json!({"word": "rope"})),
    ];
    let turn = runner.run(Provider::Anthropic, &calls).await;
    let held = places(&turn);
    assert_eq!(held, [1, 2]);
    assert_eq!(turn.held()[0].arguments(), &json!({"cents": 50_000}));
    assert_eq!(turn.held()[0].annotations(), None);
    assert_eq!(
        texts(turn.results())[3],
        err("invalid arguments at `cents`: invalid value: integer `-1`, expected u64")
    );
    assert_eq!(runner.context().paid.load(Ordering::SeqCst), 1);
    let mut pending = turn.pending().unwrap();
    pending.approve_all();
    let turn = runner.resume(&pending).await.unwrap();
    assert_eq!(
        texts(turn.results()),
        vec![
            ok("paid 500"),
            ok("paid 50000"),
            ok("sent to ana@example.com"),
            err("invalid arguments at `cents`: invalid value: integer `-1`, expected u64"),
            ok("rope: found"),
        ]
    );
    assert_eq!(runner.context().paid.load(Ordering::SeqCst), 2);
}

#[tokio::test(start_paused = true)]
async fn a_policy_that_panics_holds_the_call() {
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default()).needs_approval(|_, args| {
        assert_ne!(args["cents"], 13, "unlucky");
        false
    });
    let calls = [
        call(0, "pay", json!({"cents": 13})),
        call(1, "pay", json!({"cents": 14})),
    ];
    let turn = runner.run(Provider::Anthropic, &calls).await;
    let held = places(&turn);
    assert_eq!(held, [0]);
    assert_eq!(texts(turn.results())[1], ok("paid 14"));
    assert_eq!(runner.context().paid.load(Ordering::SeqCst), 1);
}

#[tokio::test(start_paused = true)]
async fn held_calls_take_no_place_and_resumed_ones_keep_the_limits() {
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default())
        .concurrency(2)
        .timeout(Duration::from_secs(5));
    let calls: Vec<ToolCall> = (0..6)
        .map(|id| {
            call(
                id,
                "send_email",
                json!({"to": format!("{id}@example.com"), "ms": 100}),
            )
        })
        .chain([call(6, "lookup", json!({"word": "slow"}))])
        .collect();
    let started = tokio::time::Instant::now();
    let turn = runner.run(Provider::OpenAiResponses, &calls).await;
    // The held calls did not wait; the slow lookup ran out of its own time.
    assert_eq!(started.elapsed(), Duration::from_secs(1));
    assert_eq!(
        texts(turn.results())[6],
        err("the tool `lookup` timed out after 1s")
    );
    let mut pending = turn.pending().unwrap();
    pending.approve_all();
    let started = tokio::time::Instant::now();
    let turn = runner.resume(&pending).await.unwrap();
    // Six calls of 100 ms, two at a time.
    assert_eq!(started.elapsed(), Duration::from_millis(300));
    assert_eq!(runner.context().most_at_once.load(Ordering::SeqCst), 2);
    let expected: Vec<(bool, String)> = (0..6)
        .map(|id| ok(&format!("sent to {id}@example.com")))
        .chain([err("the tool `lookup` timed out after 1s")])
        .collect();
    assert_eq!(texts(turn.results()), expected);

    // A resumed call runs out of the runner's time as any call does.
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default()).timeout(Duration::from_millis(50));
    let mut pending = runner
        .run(Provider::Anthropic, &calls[..1])
        .await
        .pending()
        .unwrap();
    pending.approve_all();
    let turn = runner.resume(&pending).await.unwrap();
    assert_eq!(
        texts(turn.results()),
        vec![err("the tool `send_email` timed out after 50ms")]
    );

    // A cancelled resume ends its calls with results.
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    let cancellation = Cancellation::new();
    let canceller = cancellation.clone();
    let (turn, ()) = tokio::join!(runner.resume_until(&pending, &cancellation), async move {
        tokio::time::sleep(Duration::from_millis(10)).await;
        canceller.cancel();
    });
    assert_eq!(
        texts(turn.unwrap().results()),
        vec![err("the tool `send_email` was cancelled")]
    );
    assert_eq!(runner.context().sent.load(Ordering::SeqCst), 0);
}

#[tokio::test(start_paused = true)]
async fn held_calls_do_not_count_against_the_retry_budget() {
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default()).max_retries(1);
    let bad = call(0, "send_email", json!({}));
    let good = call(1, "send_email", json!({"to": "ana@example.com"}));
    assert!(
        runner
            .run(Provider::Anthropic, std::slice::from_ref(&bad))
            .await
            .stop()
            .is_none()
    );
    // A held call is a valid one: it ends the tool's count of invalid calls in a row.
    let turn = runner.run(Provider::Anthropic, &[good]).await;
    assert_eq!(turn.held().len(), 1);
    assert!(
        runner
            .run(Provider::Anthropic, std::slice::from_ref(&bad))
            .await
            .stop()
            .is_none()
    );
    assert!(
        runner
            .run(Provider::Anthropic, &[bad])
            .await
            .stop()
            .is_some()
    );
}

/// What one generated call is: held then approved, held then denied, run at once and
/// succeeding, failing, or timing out.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Approved,
    Denied,
    Succeeds,
    Fails,
    TimesOut,
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        Just(Kind::Approved),
        Just(Kind::Denied),
        Just(Kind::Succeeds),
        Just(Kind::Fails),
        Just(Kind::TimesOut),
    ]
}

/// One turn of `kinds`, held, saved, read back, decided and resumed by another runner: every
/// result in call order, each handler run once or never.
fn check_turn(kinds: &[Kind], concurrency: usize) -> Result<(), TestCaseError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    runtime.block_on(async {
        let calls: Vec<ToolCall> = kinds
            .iter()
            .enumerate()
            .map(|(id, kind)| match kind {
                Kind::Approved | Kind::Denied => {
                    call(id, "send_email", json!({"to": format!("{id}@x"), "ms": id}))
                }
                Kind::Succeeds => call(id, "lookup", json!({"word": format!("w{id}")})),
                Kind::Fails => call(id, "lookup", json!({"word": "fail"})),
                Kind::TimesOut => call(id, "lookup", json!({"word": "slow"})),
            })
            .collect();
        let mut first = Runner::<Tools, Ctx>::new(Ctx::default()).concurrency(concurrency);
        let turn = first.run(Provider::Anthropic, &calls).await;
        let held = places(&turn);
        let expected_held: Vec<usize> = kinds
            .iter()
            .enumerate()
            .filter(|(_, kind)| matches!(kind, Kind::Approved | Kind::Denied))
            .map(|(index, _)| index)
            .collect();
        prop_assert_eq!(&held, &expected_held);
        let run_now = kinds.len() - held.len();
        prop_assert_eq!(first.context().looked_up.load(Ordering::SeqCst), run_now);
        prop_assert_eq!(first.context().sent.load(Ordering::SeqCst), 0);
        let saved = turn.pending().map(|p| serde_json::to_string(&p).unwrap());
        drop(first);

        let mut second = Runner::<Tools, Ctx>::new(Ctx::default()).concurrency(concurrency);
        let turn = match saved {
            None => turn,
            Some(saved) => {
                let mut pending: Pending = serde_json::from_str(&saved).unwrap();
                for (index, kind) in kinds.iter().enumerate() {
                    match kind {
                        Kind::Approved => pending.approve(index).unwrap(),
                        Kind::Denied => pending.deny(index, format!("no {index}")).unwrap(),
                        _ => {}
                    }
                }
                second.resume(&pending).await.unwrap()
            }
        };
        let expected: Vec<(bool, String)> = kinds
            .iter()
            .enumerate()
            .map(|(id, kind)| match kind {
                Kind::Approved => ok(&format!("sent to {id}@x")),
                Kind::Denied => err(&format!(
                    "the user denied this call of `send_email`: no {id}"
                )),
                Kind::Succeeds => ok(&format!("w{id}: found")),
                Kind::Fails => err("no such word"),
                Kind::TimesOut => err("the tool `lookup` timed out after 1s"),
            })
            .collect();
        prop_assert_eq!(texts(turn.results()), expected);
        prop_assert_eq!(turn.calls(), &calls[..]);
        let approved = kinds
            .iter()
            .filter(|kind| matches!(kind, Kind::Approved))
            .count();
        prop_assert_eq!(second.context().sent.load(Ordering::SeqCst), approved);
        prop_assert_eq!(second.context().looked_up.load(Ordering::SeqCst), 0);
        prop_assert!(second.context().most_at_once.load(Ordering::SeqCst) <= concurrency);
        Ok(())
    })
}

#[test]
fn held_denied_timed_out_and_failed_calls_keep_their_order_and_counts() {
    let mut runner = TestRunner::new(Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(
            &(proptest::collection::vec(kind(), 0..12), 1..4_usize),
            |(kinds, concurrency)| check_turn(&kinds, concurrency),
        )
        .unwrap();
}

#[allow(dead_code)]
#[path = "../examples/approval.rs"]
mod example;

/// `examples/approval.rs`: held, saved, read back by another runner, decided, resumed; the
/// next request's messages carry the model's turn, then every result in call order.
#[tokio::test(start_paused = true)]
async fn the_example_holds_saves_and_resumes() {
    let response: Value = serde_json::from_str(example::RESPONSE).unwrap();
    let (saved, first) = example::hold(&response).await;
    assert_eq!(first.context().lookups.load(Ordering::SeqCst), 2);
    assert_eq!(first.context().sent.load(Ordering::SeqCst), 0);
    drop(first);
    let (messages, second) = example::resume(&saved, &response).await;
    assert_eq!(second.context().lookups.load(Ordering::SeqCst), 0);
    assert_eq!(second.context().sent.load(Ordering::SeqCst), 1);
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["role"], "assistant");
    assert_eq!(
        messages[1],
        json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01", "content": "Ana Ozola: found"},
            {"type": "tool_result", "tool_use_id": "toolu_02", "content": "Press office: found"},
            {"type": "tool_result", "tool_use_id": "toolu_03",
             "content": "sent \"Launch\" to ana@example.com (18 characters)"},
            {"type": "tool_result", "tool_use_id": "toolu_04", "is_error": true,
             "content": "the user denied this call of `send_email`: the press list is not ready; \
                         do not write to the press yet"},
        ]})
    );
}
