//! Tools that run: handlers dispatched by a `ToolSet`, a turn's calls run concurrently with
//! timeouts, every failure as a result the model reads, the retry budget, and the messages that
//! carry the results back for each provider.
//!
//! Time is Tokio's paused clock: timeouts fire as soon as every task waits, so nothing here
//! depends on the machine's speed.

#![cfg(feature = "run")]

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use pretty_assertions::assert_eq;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolgen::{
    Cancellation, Handler, Invocation, Provider, Runner, Stop, Tool, ToolCall, ToolError,
    ToolResult, ToolSet, run_call,
};

/// What the handlers share: counters the tests read.
#[derive(Default)]
struct Ctx {
    running: AtomicUsize,
    most_at_once: AtomicUsize,
    finished: Mutex<Vec<String>>,
    saw_cancel: AtomicUsize,
    dropped: AtomicUsize,
    barrier: Option<tokio::sync::Barrier>,
}

/// Say something back.
#[derive(Tool, Deserialize)]
struct Echo {
    text: String,
}

impl Handler<Ctx> for Echo {
    type Output = String;
    async fn handle(self, _: &Ctx, _: &Invocation<'_>) -> Result<String, ToolError> {
        Ok(self.text)
    }
}

/// Wait, then answer with the label.
#[derive(Tool, Deserialize)]
struct Wait {
    /// Milliseconds.
    ms: u64,
    label: String,
}

/// How long a wait was.
#[derive(Serialize, toolgen::ToolSchema)]
struct Waited {
    label: String,
    ms: u64,
}

impl Handler<Ctx> for Wait {
    type Output = Waited;
    async fn handle(self, ctx: &Ctx, _: &Invocation<'_>) -> Result<Waited, ToolError> {
        let now = ctx.running.fetch_add(1, Ordering::SeqCst) + 1;
        ctx.most_at_once.fetch_max(now, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(self.ms)).await;
        ctx.running.fetch_sub(1, Ordering::SeqCst);
        ctx.finished.lock().unwrap().push(self.label.clone());
        Ok(Waited {
            label: self.label,
            ms: self.ms,
        })
    }
}

/// Fail in the way asked.
#[derive(Tool, Deserialize)]
struct Fail {
    /// `words`, `json`, `io` or `panic`.
    how: String,
}

impl Handler<Ctx> for Fail {
    type Output = ();
    async fn handle(self, _: &Ctx, _: &Invocation<'_>) -> Result<(), ToolError> {
        match self.how.as_str() {
            "words" => Err(ToolError::new("the profile store is offline")),
            // Seed 002's error return.
            "json" => Err(ToolError::json(json!({
                "success": false,
                "error": "profile_not_found",
                "message": "No profile named `ghost`.",
                "available_profiles": ["alice", "bob"],
            }))),
            "io" => {
                std::fs::read("/nonexistent/toolgen/profile.json")?;
                Ok(())
            }
            "panic" => panic!("index out of bounds: the len is 0 but the index is 3"),
            other => Err(ToolError::new(format!("no failure named `{other}`"))),
        }
    }
}

/// Search the web (slowly).
#[derive(Tool, Deserialize)]
#[tool(timeout = "10s")]
struct SearchWeb {
    query: String,
}

impl Handler<Ctx> for SearchWeb {
    type Output = Vec<String>;
    async fn handle(self, ctx: &Ctx, call: &Invocation<'_>) -> Result<Vec<String>, ToolError> {
        /// Counts the handler's future dropped, however it ends.
        struct Guard<'a>(&'a AtomicUsize);
        impl Drop for Guard<'_> {
            fn drop(&mut self) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let _guard = Guard(&ctx.dropped);
        // Watches its cancellation while it works, as long work should.
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(3600)) => Ok(vec![self.query]),
            () = call.cancelled() => {
                ctx.saw_cancel.fetch_add(1, Ordering::SeqCst);
                Err(ToolError::new("cancelled"))
            }
        }
    }
}

/// Meet the other calls of the turn.
#[derive(Tool, Deserialize)]
struct Meet {}

impl Handler<Ctx> for Meet {
    type Output = &'static str;
    async fn handle(self, ctx: &Ctx, _: &Invocation<'_>) -> Result<&'static str, ToolError> {
        match &ctx.barrier {
            Some(barrier) => {
                barrier.wait().await;
                Ok("met")
            }
            None => Err(ToolError::new("no barrier")),
        }
    }
}

#[derive(ToolSet)]
enum Tools {
    Echo(Echo),
    Wait(Wait),
    Fail(Fail),
    Search(SearchWeb),
    Meet(Meet),
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

#[tokio::test(start_paused = true)]
async fn every_outcome_is_a_result_in_call_order() {
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    let calls = [
        call(0, "echo", json!({"text": "hello"})),
        call(1, "wait", json!({"ms": 5, "label": "a"})),
        call(2, "get_wether", json!({})),
        call(3, "wait", json!({"ms": "five", "label": "b"})),
        call(4, "fail", json!({"how": "words"})),
        call(5, "fail", json!({"how": "json"})),
        call(6, "fail", json!({"how": "io"})),
        call(7, "fail", json!({"how": "panic"})),
        call(8, "search_web", json!({"query": "rust"})),
    ];
    let turn = runner.run(Provider::Anthropic, &calls).await;
    assert_eq!(
        texts(turn.results()),
        vec![
            (false, "hello".to_owned()),
            (false, r#"{"label":"a","ms":5}"#.to_owned()),
            (
                true,
                "invalid arguments: unknown tool `get_wether`; the tools are `echo`, `wait`, \
                 `fail`, `search_web`, `meet`"
                    .to_owned()
            ),
            (
                true,
                "invalid arguments at `ms`: invalid type: string \"five\", expected u64".to_owned()
            ),
            (true, "the profile store is offline".to_owned()),
            (
                true,
                r#"{"success":false,"error":"profile_not_found","message":"No profile named `ghost`.","available_profiles":["alice","bob"]}"#
                    .to_owned()
            ),
            (true, "No such file or directory (os error 2)".to_owned()),
            (
                true,
                "the tool `fail` failed: it panicked: index out of bounds: the len is 0 but the \
                 index is 3"
                    .to_owned()
            ),
            (
                true,
                "the tool `search_web` timed out after 10s".to_owned()
            ),
        ]
    );
    // The timed-out handler was told before it was dropped.
    assert_eq!(runner.context().saw_cancel.load(Ordering::SeqCst), 1);
    assert_eq!(turn.stop(), None);
    // One user message, every result in call order, errors marked.
    let messages = turn.messages();
    assert_eq!(messages.len(), 1);
    let blocks = messages[0]["content"].as_array().unwrap();
    let ids: Vec<&str> = blocks
        .iter()
        .map(|b| b["tool_use_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, (0..9).map(|i| format!("call_{i}")).collect::<Vec<_>>());
    let errors: Vec<bool> = blocks.iter().map(|b| b["is_error"] == true).collect();
    assert_eq!(
        errors,
        [false, false, true, true, true, true, true, true, true]
    );

    // The same outcomes for every other provider: each answered by id, in order, and marked
    // as an error where the API has a mark (Gemini's `error`, MCP's `isError`).
    let expected_errors = [false, false, true, true, true, true, true, true, true];
    for provider in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Gemini,
        Provider::Mcp,
    ] {
        let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
        let turn = runner.run(provider, &calls).await;
        let items: Vec<Value> = match provider {
            Provider::Gemini => turn.messages()[0]["parts"].as_array().unwrap().clone(),
            _ => turn.messages(),
        };
        assert_eq!(items.len(), 9, "{provider}");
        for (i, (item, error)) in items.iter().zip(expected_errors).enumerate() {
            let id = format!("call_{i}");
            match provider {
                Provider::OpenAiChat => assert_eq!(item["tool_call_id"], id),
                Provider::OpenAiResponses => assert_eq!(item["call_id"], id),
                Provider::Gemini => {
                    assert_eq!(item["functionResponse"]["id"], id);
                    let key = if error { "error" } else { "output" };
                    assert!(
                        item["functionResponse"]["response"].get(key).is_some(),
                        "{item}"
                    );
                }
                _ => {
                    assert_eq!(item["id"], id);
                    assert_eq!(item["result"]["isError"] == true, error, "{item}");
                }
            }
        }
    }
}

#[tokio::test(start_paused = true)]
async fn messages_take_each_providers_shape() {
    let calls = [
        call(0, "echo", json!({"text": "hi"})),
        call(1, "fail", json!({"how": "json"})),
    ];
    let body = json!({
        "success": false,
        "error": "profile_not_found",
        "message": "No profile named `ghost`.",
        "available_profiles": ["alice", "bob"],
    });
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    let chat = runner.run(Provider::OpenAiChat, &calls).await.messages();
    assert_eq!(
        chat,
        vec![
            json!({"role": "tool", "tool_call_id": "call_0", "content": "hi"}),
            json!({"role": "tool", "tool_call_id": "call_1", "content": body.to_string()}),
        ]
    );
    let responses = runner
        .run(Provider::OpenAiResponses, &calls)
        .await
        .messages();
    assert_eq!(
        responses,
        vec![
            json!({"type": "function_call_output", "call_id": "call_0", "output": "hi"}),
            json!({"type": "function_call_output", "call_id": "call_1", "output": body.to_string()}),
        ]
    );
    let gemini = runner.run(Provider::Gemini, &calls).await.messages();
    assert_eq!(
        gemini,
        vec![json!({"role": "user", "parts": [
            {"functionResponse": {"name": "echo", "id": "call_0", "response": {"output": "hi"}}},
            {"functionResponse": {"name": "fail", "id": "call_1", "response": {"error": body}}},
        ]})]
    );
    let mcp_calls = [ToolCall::parse(
        Provider::Mcp,
        &json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                    "params": {"name": "fail", "arguments": {"how": "json"}}}),
    )
    .unwrap()
    .remove(0)];
    let mcp = runner.run(Provider::Mcp, &mcp_calls).await.messages();
    assert_eq!(
        mcp,
        vec![json!({"jsonrpc": "2.0", "id": 7, "result": {
            "content": [{"type": "text", "text": body.to_string()}],
            "structuredContent": body,
            "isError": true,
        }})]
    );
    assert!(
        runner
            .run(Provider::Anthropic, &[])
            .await
            .messages()
            .is_empty()
    );
}

#[tokio::test(start_paused = true)]
async fn calls_overlap_up_to_the_limit_and_keep_their_order() {
    // Three calls that each wait for the other two: they finish only if they run together.
    let ctx = Ctx {
        barrier: Some(tokio::sync::Barrier::new(3)),
        ..Ctx::default()
    };
    let mut runner = Runner::<Tools, Ctx>::new(ctx)
        .concurrency(3)
        .timeout(Duration::from_secs(5));
    let meet: Vec<ToolCall> = (0..3).map(|i| call(i, "meet", json!({}))).collect();
    let turn = runner.run(Provider::OpenAiChat, &meet).await;
    assert_eq!(
        texts(turn.results()),
        vec![(false, "met".to_owned()); 3],
        "the calls did not run at the same time"
    );

    // Two at a time: the first two never meet a third, and the runner's timeout ends them.
    let ctx = Ctx {
        barrier: Some(tokio::sync::Barrier::new(3)),
        ..Ctx::default()
    };
    let mut runner = Runner::<Tools, Ctx>::new(ctx)
        .concurrency(2)
        .timeout(Duration::from_secs(5));
    let turn = runner.run(Provider::OpenAiChat, &meet).await;
    assert_eq!(
        texts(&turn.results()[..2]),
        vec![(true, "the tool `meet` timed out after 5s".to_owned()); 2]
    );

    // Five calls, the later ones quicker: at most two at once, results in call order.
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default()).concurrency(2);
    let waits: Vec<ToolCall> = (0..5)
        .map(|i| {
            call(
                i,
                "wait",
                json!({"ms": ([50, 40, 30, 25, 10])[i], "label": i.to_string()}),
            )
        })
        .collect();
    let turn = runner.run(Provider::OpenAiChat, &waits).await;
    let labels: Vec<Value> = turn
        .results()
        .iter()
        .map(|r| r.as_json().unwrap()["label"].clone())
        .collect();
    assert_eq!(labels, vec!["0", "1", "2", "3", "4"]);
    assert_eq!(runner.context().most_at_once.load(Ordering::SeqCst), 2);
    // They did finish out of order, each next call starting as soon as any one ended.
    assert_eq!(
        *runner.context().finished.lock().unwrap(),
        vec!["1", "0", "2", "3", "4"]
    );

    // A slow first call holds no place: the quick ones after it all run beside it.
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default()).concurrency(2);
    let waits: Vec<ToolCall> = [100, 10, 10, 10]
        .iter()
        .enumerate()
        .map(|(i, ms)| call(i, "wait", json!({"ms": ms, "label": i.to_string()})))
        .collect();
    runner.run(Provider::OpenAiChat, &waits).await;
    assert_eq!(
        *runner.context().finished.lock().unwrap(),
        vec!["1", "2", "3", "0"]
    );
}

/// A turn's future can be spawned: it is `Send` when the context is `Sync`.
#[test]
fn a_turn_can_be_spawned() {
    fn send<T: Send>(_: &T) {}
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    let calls = [call(0, "echo", json!({"text": "x"}))];
    let turn = runner.run(Provider::Anthropic, &calls);
    send(&turn);
    drop(turn);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let answered = runtime.block_on(async move {
        tokio::spawn(async move {
            let calls = [call(0, "echo", json!({"text": "spawned"}))];
            runner.run(Provider::Anthropic, &calls).await.results()[0]
                .to_text()
                .into_owned()
        })
        .await
        .unwrap()
    });
    assert_eq!(answered, "spawned");
}

#[tokio::test(start_paused = true)]
async fn a_turn_offers_only_the_tools_it_names() {
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    runner.offer(&["echo", "no_such_tool"]);
    let names: Vec<Value> = runner
        .definitions(Provider::Anthropic)
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].clone())
        .collect();
    assert_eq!(names, ["echo"]);
    let calls = [
        call(0, "echo", json!({"text": "offered"})),
        call(1, "fail", json!({"how": "words"})),
    ];
    let turn = runner.run(Provider::Anthropic, &calls).await;
    assert_eq!(
        texts(turn.results()),
        vec![
            (false, "offered".to_owned()),
            (
                true,
                "invalid arguments: unknown tool `fail`; the tools are `echo`".to_owned()
            ),
        ]
    );
    runner.offer_all();
    let turn = runner.run(Provider::Anthropic, &calls[1..]).await;
    assert_eq!(turn.results()[0].to_text(), "the profile store is offline");
}

#[tokio::test(start_paused = true)]
async fn a_cancelled_turn_ends_its_calls_with_results() {
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    let cancellation = Cancellation::new();
    let calls = [
        call(0, "echo", json!({"text": "done first"})),
        call(1, "search_web", json!({"query": "slow"})),
    ];
    let canceller = cancellation.clone();
    let (turn, ()) = tokio::join!(
        runner.run_until(Provider::Anthropic, &calls, &cancellation),
        async move {
            tokio::time::sleep(Duration::from_millis(10)).await;
            canceller.cancel();
        }
    );
    assert_eq!(
        texts(turn.results()),
        vec![
            (false, "done first".to_owned()),
            (true, "the tool `search_web` was cancelled".to_owned()),
        ]
    );
    assert_eq!(runner.context().saw_cancel.load(Ordering::SeqCst), 1);

    // Dropping the turn's future stops its calls too.
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    let dropped = tokio::time::timeout(
        Duration::from_millis(10),
        runner.run(Provider::Anthropic, &calls[1..]),
    )
    .await;
    assert!(dropped.is_err());
    // The handler's future was dropped with the turn's, without a signal.
    assert_eq!(runner.context().dropped.load(Ordering::SeqCst), 1);
    assert_eq!(runner.context().saw_cancel.load(Ordering::SeqCst), 0);
}

#[tokio::test(start_paused = true)]
async fn the_retry_budget_counts_turns_not_calls() {
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default()).max_retries(1);
    // Four bad calls in one turn are one turn with invalid arguments.
    let four_bad: Vec<ToolCall> = (0..4).map(|i| call(i, "echo", json!({}))).collect();
    assert_eq!(
        runner.run(Provider::OpenAiChat, &four_bad).await.stop(),
        None
    );
    // A bad and a good call of one tool in a turn, in either order: the tool works.
    let mixed = [
        call(0, "echo", json!({"text": "ok"})),
        call(1, "echo", json!({})),
    ];
    assert_eq!(runner.run(Provider::OpenAiChat, &mixed).await.stop(), None);
    assert_eq!(
        runner.run(Provider::OpenAiChat, &four_bad).await.stop(),
        None
    );
    // Unknown tools count together, however the model spells them.
    let made_up = |name: &str| [call(0, name, json!({}))];
    assert_eq!(
        runner.run(Provider::OpenAiChat, &made_up("a")).await.stop(),
        None
    );
    let turn = runner.run(Provider::OpenAiChat, &made_up("b")).await;
    assert_eq!(
        turn.stop(),
        Some(&Stop::RetriesExhausted {
            tool: "(unknown tools)".to_owned(),
            attempts: 2
        })
    );
}

#[tokio::test(start_paused = true)]
async fn the_retry_budget_counts_invalid_calls_in_a_row() {
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default()).max_retries(2);
    let bad = [call(0, "echo", json!({"txt": "typo"}))];
    let good = [call(0, "echo", json!({"text": "fixed"}))];
    assert_eq!(runner.run(Provider::OpenAiChat, &bad).await.stop(), None);
    assert_eq!(runner.run(Provider::OpenAiChat, &bad).await.stop(), None);
    // A valid call resets the count.
    assert_eq!(runner.run(Provider::OpenAiChat, &good).await.stop(), None);
    assert_eq!(runner.run(Provider::OpenAiChat, &bad).await.stop(), None);
    assert_eq!(runner.run(Provider::OpenAiChat, &bad).await.stop(), None);
    let turn = runner.run(Provider::OpenAiChat, &bad).await;
    let stop = turn.stop().unwrap();
    assert_eq!(
        stop,
        &Stop::RetriesExhausted {
            tool: "echo".to_owned(),
            attempts: 3
        }
    );
    assert_eq!(
        stop.to_string(),
        "the model sent invalid arguments to `echo` 3 times in a row"
    );
    // The turn still answers the call, so the conversation stays well formed.
    assert_eq!(turn.messages().len(), 1);
}

#[test]
fn without_a_tokio_runtime_a_timeout_is_an_error_result_not_a_panic() {
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());
    let calls = [
        call(0, "echo", json!({"text": "no timeout, no runtime needed"})),
        call(1, "search_web", json!({"query": "has a timeout"})),
    ];
    let turn = block_on(runner.run(Provider::OpenAiChat, &calls));
    assert_eq!(
        texts(turn.results()),
        vec![
            (false, "no timeout, no runtime needed".to_owned()),
            (
                true,
                "this tool has a timeout, which needs a Tokio runtime; none is running".to_owned()
            ),
        ]
    );
    // `run_call` runs one call with no timeout, on any executor.
    let cancel = Cancellation::new();
    let result = block_on(run_call::<Tools, Ctx>(
        &Ctx::default(),
        &call(2, "fail", json!({"how": "panic"})),
        Provider::Gemini,
        &cancel,
    ));
    assert!(result.is_error());
    assert!(
        result
            .to_text()
            .starts_with("the tool `fail` failed: it panicked")
    );
}

/// A minimal executor: polls until done, parking between wake-ups.
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    struct Unpark(std::thread::Thread);
    impl std::task::Wake for Unpark {
        fn wake(self: std::sync::Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = std::sync::Arc::new(Unpark(std::thread::current())).into();
    let mut cx = std::task::Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let std::task::Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        std::thread::park();
    }
}

#[test]
fn timeouts_are_read_from_the_attribute() {
    assert_eq!(SearchWeb::TIMEOUT, Some(Duration::from_secs(10)));
    assert_eq!(Echo::TIMEOUT, None);
    /// Quick.
    #[derive(Tool, Deserialize)]
    #[tool(timeout = "1500ms")]
    struct A {}
    /// Slow.
    #[derive(Tool, Deserialize)]
    #[tool(timeout = "0.5m")]
    struct B {}
    assert_eq!(A::TIMEOUT, Some(Duration::from_millis(1500)));
    assert_eq!(B::TIMEOUT, Some(Duration::from_secs(30)));
    assert_eq!(Tools::NAMES.len(), 5);
}

/// A recorded response of `tests/traffic`.
fn recorded(path: &str) -> Value {
    let text = std::fs::read_to_string(format!("tests/traffic/{path}")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[tokio::test(start_paused = true)]
async fn next_messages_echo_the_models_turn_then_the_results() {
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default());

    // Anthropic: the content as sent, server tool blocks included, then one user message of
    // results (these recorded tools are not in the set: unknown-tool results).
    let response = recorded("anthropic/anthropic-programmatic-tool-calling.1.json");
    let calls = ToolCall::parse(Provider::Anthropic, &response).unwrap();
    assert!(!calls.is_empty());
    let turn = runner.run(Provider::Anthropic, &calls).await;
    let messages = turn.next_messages(&response).unwrap();
    assert_eq!(messages.len(), 2);
    assert_eq!(
        messages[0],
        json!({"role": "assistant", "content": response["content"]})
    );
    assert!(messages[0].to_string().contains("server_tool_use"));
    assert_eq!(
        messages[1]["content"].as_array().unwrap().len(),
        calls.len()
    );
    assert_eq!(messages[1], turn.messages()[0]);

    // Gemini: the candidate's content, thought signatures kept.
    let response = recorded("gemini/google-tool-call-gemini3.json");
    let calls = ToolCall::parse(Provider::Gemini, &response).unwrap();
    let turn = runner.run(Provider::Gemini, &calls).await;
    let messages = turn.next_messages(&response).unwrap();
    assert_eq!(messages[0], response["candidates"][0]["content"]);
    assert!(messages[0].to_string().contains("thoughtSignature"));
    assert_eq!(messages[1]["role"], "user");
    assert_eq!(messages[1]["parts"].as_array().unwrap().len(), calls.len());

    // OpenAI Chat: the message, without what only responses carry (DeepSeek's reasoning text).
    let response = recorded("openai_chat/deepseek-tool-call.json");
    let calls = ToolCall::parse(Provider::OpenAiChat, &response).unwrap();
    let turn = runner.run(Provider::OpenAiChat, &calls).await;
    let messages = turn.next_messages(&response).unwrap();
    let message = &response["choices"][0]["message"];
    let sent = &message["tool_calls"][0];
    assert_eq!(sent["index"], 0);
    assert_eq!(
        messages[0],
        json!({"role": "assistant", "content": message["content"], "tool_calls": [
            // A stream's `index`, which DeepSeek also sends in a whole response, left out.
            {"id": sent["id"], "type": "function", "function": sent["function"]}
        ]})
    );
    assert_eq!(messages.len(), 1 + calls.len());
    assert_eq!(messages[1]["tool_call_id"], message["tool_calls"][0]["id"]);

    // OpenAI-compatible servers' calls, in the shape OpenAI's request types take: Mistral's
    // without `type`, OpenRouter's (Bedrock) without `arguments`, read as `{}`.
    for (path, id, name, arguments) in [
        ("openai_chat/mistral-tool-call.json", None, None, None),
        (
            "openai_chat/handmade-no-arguments.json",
            Some("toolu_bdrk_handmade01"),
            Some("list_available_components"),
            Some("{}"),
        ),
    ] {
        let response = recorded(path);
        let calls = ToolCall::parse(Provider::OpenAiChat, &response).unwrap();
        let turn = runner.run(Provider::OpenAiChat, &calls).await;
        let echoed = &turn.next_messages(&response).unwrap()[0]["tool_calls"];
        let sent = &response["choices"][0]["message"]["tool_calls"];
        assert_eq!(
            echoed.as_array().unwrap().len(),
            sent.as_array().unwrap().len()
        );
        for (echo, (sent, call)) in echoed
            .as_array()
            .unwrap()
            .iter()
            .zip(sent.as_array().unwrap().iter().zip(&calls))
        {
            let expected = json!({
                "id": id.unwrap_or(call.id.as_deref().unwrap()),
                "type": "function",
                "function": {
                    "name": name.unwrap_or(&call.name),
                    "arguments": arguments.map_or(sent["function"]["arguments"].clone(), Value::from),
                }
            });
            assert_eq!(*echo, expected, "{path}");
        }
    }

    // What else a call carries (Gemini's OpenAI-compatible `extra_content`, its thought
    // signature) is kept.
    let response = json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "c1", "function": {"name": "echo", "arguments": r#"{"text":"hi"}"#},
         "extra_content": {"google": {"thought_signature": "sig"}}}
    ]}}]});
    let calls = ToolCall::parse(Provider::OpenAiChat, &response).unwrap();
    let turn = runner.run(Provider::OpenAiChat, &calls).await;
    assert_eq!(
        turn.next_messages(&response).unwrap()[0],
        json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "echo", "arguments": r#"{"text":"hi"}"#},
             "extra_content": {"google": {"thought_signature": "sig"}}}
        ]})
    );

    // OpenAI Responses: every output item, then the outputs.
    let response = recorded("openai_responses/lmstudio-tool-call.1.json");
    let calls = ToolCall::parse(Provider::OpenAiResponses, &response).unwrap();
    let turn = runner.run(Provider::OpenAiResponses, &calls).await;
    let messages = turn.next_messages(&response).unwrap();
    let output = response["output"].as_array().unwrap();
    assert_eq!(&messages[..output.len()], output.as_slice());
    assert_eq!(messages[output.len()]["type"], "function_call_output");

    // What the API always sends, missing: an error, not a panic.
    let error = turn.next_messages(&json!({"id": "resp_1"})).unwrap_err();
    assert_eq!(
        error.to_string(),
        "malformed OpenAI Responses response at `output`: expected an array of output items"
    );
}

/// A tool from a configuration file: answers with its arguments.
struct Configured;

impl toolgen::DynamicHandler<Ctx> for Configured {
    fn handle<'a>(
        &'a self,
        ctx: &'a Ctx,
        arguments: Value,
        call: &'a Invocation<'a>,
    ) -> toolgen::DynamicFuture<'a> {
        Box::pin(async move {
            ctx.running.fetch_add(1, Ordering::SeqCst);
            Ok(json!({"tool": call.name(), "arguments": arguments}))
        })
    }
}

#[tokio::test(start_paused = true)]
async fn tools_defined_at_run_time_run_beside_the_sets() {
    let tool = toolgen::DynamicTool::new(
        "rename_node",
        "Rename a node.",
        json!({"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}),
    )
    .unwrap();
    let shadow =
        toolgen::DynamicTool::new("echo", "Not the set's echo.", json!({"type": "object"}))
            .unwrap();
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default())
        .with_tool(tool.clone(), Configured)
        // Added twice: the second replaces the first.
        .with_tool(tool, Configured)
        // Named like a set's tool: the set's keeps its calls, and is listed once.
        .with_tool(shadow, Configured)
        .timeout(Duration::from_secs(1));
    let names: Vec<Value> = runner
        .definitions(Provider::OpenAiChat)
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["function"]["name"].clone())
        .collect();
    assert_eq!(
        names,
        ["echo", "wait", "fail", "search_web", "meet", "rename_node"]
    );
    let calls = [
        call(0, "rename_node", json!({"title": "Ideas"})),
        call(1, "rename_node", json!({"title": 3})),
        call(2, "echo", json!({"text": "set tools still run"})),
        call(3, "rename", json!({})),
    ];
    let turn = runner.run(Provider::Gemini, &calls).await;
    assert_eq!(
        texts(turn.results()),
        vec![
            (
                false,
                r#"{"tool":"rename_node","arguments":{"title":"Ideas"}}"#.to_owned()
            ),
            (
                true,
                "invalid arguments at `title`: invalid type: integer `3`, expected a string"
                    .to_owned()
            ),
            (false, "set tools still run".to_owned()),
            (
                true,
                "invalid arguments: unknown tool `rename`; the tools are `echo`, `wait`, `fail`, \
                 `search_web`, `meet`, `rename_node`"
                    .to_owned()
            ),
        ]
    );
    assert_eq!(runner.context().running.load(Ordering::SeqCst), 1);
}

#[test]
fn a_handlers_object_output_is_the_mcp_output_schema() {
    let runner = Runner::<Tools, Ctx>::new(Ctx::default());
    let definitions = runner.definitions(Provider::Mcp);
    let by_name = |name: &str| {
        definitions
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(
        by_name("wait")["outputSchema"],
        json!({"type": "object", "properties": {
            "label": {"type": "string"},
            "ms": {"type": "integer", "minimum": 0},
        }, "required": ["label", "ms"], "description": "How long a wait was."})
    );
    // Text, a list, nothing: no object, no output schema.
    for name in ["echo", "search_web", "fail", "meet"] {
        assert!(by_name(name).get("outputSchema").is_none(), "{name}");
    }
    // Other providers' definitions are the set's own.
    assert_eq!(
        runner.definitions(Provider::Anthropic),
        Tools::definitions(Provider::Anthropic)
    );
}

/// Issue 50: a turn's choice reaches the runner, which refuses a call of a tool the choice does
/// not allow with a result the model reads, runs the others, and counts the refusal in the
/// retry budget as an unknown tool.
#[tokio::test(start_paused = true)]
async fn a_turns_choice_refuses_calls_outside_it() {
    use toolgen::{Allowed, ToolChoice};

    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default()).max_retries(1);
    let choice = ToolChoice::allowed(["echo", "wait"], Allowed::Auto);
    let calls = [
        call(0, "echo", json!({"text": "hello"})),
        call(1, "fail", json!({})),
    ];
    let turn = runner
        .run_with_choice(Provider::OpenAiResponses, &calls, &choice)
        .await;
    assert_eq!(
        texts(turn.results()),
        [
            (false, "hello".to_owned()),
            (
                true,
                "tool `fail` is not allowed in this turn; the tools allowed are `echo`, `wait`"
                    .to_owned()
            ),
        ]
    );
    assert_eq!(turn.messages()[1]["call_id"], "call_1");
    // The definitions are all still offered: the choice narrows the turn, not the list.
    assert_eq!(
        runner
            .definitions(Provider::OpenAiResponses)
            .as_array()
            .unwrap()
            .len(),
        5
    );

    let turn = runner
        .run_with_choice(
            Provider::Gemini,
            &[call(2, "echo", json!({"text": "x"}))],
            &ToolChoice::none(),
        )
        .await;
    assert_eq!(
        texts(turn.results()),
        [(
            true,
            "tool `echo` is not allowed in this turn; no tool is allowed".to_owned()
        )]
    );
    assert_eq!(
        turn.stop(),
        Some(&Stop::RetriesExhausted {
            tool: "(unknown tools)".to_owned(),
            attempts: 2
        })
    );

    // Without a choice, or with `auto`, the same call runs.
    let turn = runner
        .run_with_choice(
            Provider::Gemini,
            &[call(3, "echo", json!({"text": "y"}))],
            &ToolChoice::auto(),
        )
        .await;
    assert_eq!(texts(turn.results()), [(false, "y".to_owned())]);
}

/// A runner without a tool set of its own: no tool at first (a call is an unknown tool's, the
/// definitions are empty), then the tools added at run time alone, with the runner's context.
#[tokio::test(start_paused = true)]
async fn a_runner_of_run_time_tools_alone() {
    let mut empty = Runner::without_set(());
    assert_eq!(empty.definitions(Provider::OpenAiChat), json!([]));
    let turn = empty
        .run(Provider::OpenAiChat, &[call(1, "echo", json!({}))])
        .await;
    assert_eq!(
        texts(turn.results()),
        [(
            true,
            "invalid arguments: unknown tool `echo`; there are no tools".to_owned()
        )]
    );

    let schema = json!({"type": "object", "properties": {"text": {"type": "string"}},
                        "required": ["text"]});
    let tool = toolgen::DynamicTool::new("word_count", "Count the words.", schema).unwrap();
    let mut runner = Runner::without_set(Ctx::default()).with_tool(tool, Configured);
    let names: Vec<Value> = (runner.definitions(Provider::Anthropic).as_array().unwrap())
        .iter()
        .map(|definition| definition["name"].clone())
        .collect();
    assert_eq!(names, [json!("word_count")]);
    let calls = [
        call(1, "word_count", json!({"text": "one two three"})),
        call(2, "word_count", json!({})),
        call(3, "echo", json!({"text": "x"})),
    ];
    let turn = runner.run(Provider::Anthropic, &calls).await;
    assert_eq!(
        texts(turn.results()),
        [
            (
                false,
                r#"{"tool":"word_count","arguments":{"text":"one two three"}}"#.to_owned()
            ),
            (true, "invalid arguments: missing field `text`".to_owned()),
            (
                true,
                "invalid arguments: unknown tool `echo`; the tools are `word_count`".to_owned()
            ),
        ]
    );
    assert_eq!(runner.context().running.load(Ordering::SeqCst), 1);
}

/// A toolset of the test's own: tools kept in a registry, listed again when it changes, and a
/// listing that can fail.
#[derive(Clone, Default)]
struct Registry {
    /// Each tool's name and whether a person must approve its calls.
    tools: std::sync::Arc<Mutex<Vec<(&'static str, bool)>>>,
    changed: std::sync::Arc<std::sync::atomic::AtomicBool>,
    broken: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// A registry tool's handler: says its name and reports one step.
struct Named(&'static str);

impl toolgen::DynamicHandler<Ctx> for Named {
    fn handle<'a>(
        &'a self,
        _: &'a Ctx,
        _: Value,
        call: &'a Invocation<'a>,
    ) -> toolgen::DynamicFuture<'a> {
        Box::pin(async move {
            call.progress(toolgen::Progress::new(1.0));
            Ok(json!(format!("{} ran", self.0)))
        })
    }
}

impl toolgen::Toolset<Ctx> for Registry {
    fn listed(
        &self,
    ) -> Vec<(
        toolgen::DynamicTool,
        std::sync::Arc<dyn toolgen::DynamicHandler<Ctx>>,
    )> {
        let tools = self.tools.lock().unwrap().clone();
        tools
            .into_iter()
            .map(|(name, approval)| {
                let mut tool =
                    toolgen::DynamicTool::new(name, "A registry tool.", json!({"type": "object"}))
                        .unwrap();
                if approval {
                    tool = tool.require_approval();
                }
                let handler: std::sync::Arc<dyn toolgen::DynamicHandler<Ctx>> =
                    std::sync::Arc::new(Named(name));
                (tool, handler)
            })
            .collect()
    }

    fn list_changed(&self) -> bool {
        self.changed.load(Ordering::SeqCst)
    }

    fn refresh(&self) -> toolgen::RefreshFuture<'_> {
        Box::pin(async move {
            if self.broken.load(Ordering::SeqCst) {
                return Err("the registry is down".into());
            }
            self.changed.store(false, Ordering::SeqCst);
            Ok(())
        })
    }
}

/// A toolset of one's own plugged into a runner: its tools offered beside the set's, run with
/// the runner's progress sink, held for approval where they say so, listed again when it
/// changes; a listing that fails keeps the old tools and is tried again next turn.
#[tokio::test(start_paused = true)]
async fn a_toolset_of_ones_own_is_plugged_in() {
    let registry = Registry::default();
    registry.tools.lock().unwrap().push(("lookup", false));
    let progress = std::sync::Arc::new(AtomicUsize::new(0));
    let reports = std::sync::Arc::clone(&progress);
    let mut runner = Runner::<Tools, Ctx>::new(Ctx::default())
        .with_toolset(registry.clone())
        .on_progress(move |_, _| {
            reports.fetch_add(1, Ordering::SeqCst);
        });
    let names = |runner: &Runner<Tools, Ctx>| -> Vec<String> {
        (runner.definitions(Provider::Anthropic).as_array().unwrap())
            .iter()
            .map(|definition| definition["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let set: Vec<String> = Tools::NAMES.iter().map(|name| (*name).to_owned()).collect();
    assert_eq!(
        names(&runner),
        [set.clone(), vec!["lookup".to_owned()]].concat()
    );
    let turn = runner
        .run(Provider::Anthropic, &[call(1, "lookup", json!({}))])
        .await;
    assert_eq!(texts(turn.results()), [(false, "lookup ran".to_owned())]);
    assert_eq!(progress.load(Ordering::SeqCst), 1);

    // The registry gets a tool that needs approval, but cannot be listed: the old tools stay.
    registry.tools.lock().unwrap().push(("purge", true));
    registry.changed.store(true, Ordering::SeqCst);
    registry.broken.store(true, Ordering::SeqCst);
    let error = runner.refresh_toolsets().await.unwrap_err();
    assert_eq!(error.to_string(), "the registry is down");
    let turn = runner
        .run(Provider::Anthropic, &[call(2, "purge", json!({}))])
        .await;
    assert!(
        turn.results()[0]
            .to_text()
            .starts_with("invalid arguments: unknown tool `purge`")
    );

    // Listed again at the next turn: the new tool is offered, and its call held.
    registry.broken.store(false, Ordering::SeqCst);
    let turn = runner
        .run(Provider::Anthropic, &[call(3, "purge", json!({}))])
        .await;
    assert_eq!(turn.held().len(), 1);
    assert!(!registry.changed.load(Ordering::SeqCst));
    assert_eq!(
        names(&runner),
        [set, vec!["lookup".to_owned(), "purge".to_owned()]].concat()
    );
}
