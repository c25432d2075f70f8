//! Elicitation on the client's side (feature `mcp`): a server written with the official Python
//! SDK (`tests/elicit_server.py`) asks, through `McpToolset`, a user callback
//! (`McpToolsetBuilder::on_elicit`): a form accepted with typed values, declined, cancelled, a
//! URL; at `2025-11-25` (an `elicitation/create` request while the call runs) and `2026-07-28`
//! (the call ends with an `InputRequiredResult`, and is made again with the answers). Without a
//! callback the capability is not declared and a question is the call's error. A gateway (an
//! `McpServer` over a runner with the toolset) passes the questions on to its own client,
//! written with the Python SDK too (`tests/elicit_gateway_client.py`), at each pair of versions.
//! Every line between the toolset and the far server (and between the gateway and its client)
//! is held against the version's `JSONRPCMessage` schema.

#![cfg(feature = "mcp")]

mod python_sdk;
mod spec_folder;

use std::sync::{Arc, Mutex};

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use toolgen::{
    ElicitAnswer, ElicitMode, ElicitRequest, Handler, Invocation, McpElicitation, McpServer,
    McpToolset, McpToolsetBuilder, Provider, Runner, Tool, ToolCall, ToolError, ToolSchema,
    ToolSet,
};

const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";

/// Say hello (the runner's own tool, beside the far server's).
#[derive(Tool, Deserialize)]
struct Hello {}

impl Handler<()> for Hello {
    type Output = &'static str;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<&'static str, ToolError> {
        Ok("hello")
    }
}

#[derive(ToolSet)]
enum Nothing {
    Hello(Hello),
}

/// The messages of a link, each as `>` (to the server) or `<` (from it) and its JSON.
type Seen = Arc<Mutex<Vec<(char, Value)>>>;

/// Relays lines from `from` to `to`, each held against `version`'s `JSONRPCMessage` schema and
/// kept in `seen` marked `arrow`.
fn relay(
    from: impl AsyncRead + Unpin + Send + 'static,
    mut to: impl AsyncWrite + Unpin + Send + 'static,
    version: &'static str,
    arrow: char,
    seen: Seen,
) {
    let validator = spec_folder::mcp_validator(version, "JSONRPCMessage");
    tokio::spawn(async move {
        let mut lines = BufReader::new(from).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let message: Value = serde_json::from_str(&line).unwrap();
            // (`server/discover`, which a client of `2026-07-28` starts with, and its refusal are
            // no messages of `2025-11-25`.)
            let discover = message["method"] == "server/discover"
                || message["error"]["code"] == -32601 && message["id"] == 0;
            if let Some(validator) = &validator
                && !discover
                && let Err(error) = validator.validate(&message)
            {
                panic!(
                    "{version} {arrow}: {error} at {}\n{message:#}",
                    error.instance_path()
                );
            }
            seen.lock().unwrap().push((arrow, message));
            if to.write_all(format!("{line}\n").as_bytes()).await.is_err() {
                break;
            }
        }
    });
}

/// `tests/elicit_server.py` as a child process (`legacy`: it speaks `2025-11-25` alone), its
/// lines checked both ways: the client's end of the pipe, and what passed.
fn far_server(
    python: &str,
    legacy: bool,
) -> (tokio::io::DuplexStream, Seen, tokio::process::Child) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/elicit_server.py");
    let args: &[&str] = if legacy {
        &[script, "--legacy"]
    } else {
        &[script]
    };
    let mut child = python_sdk::spawn_server(python, args);
    let version = if legacy { LEGACY } else { MODERN };
    let seen = Seen::default();
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(theirs);
    relay(
        child.stdout.take().unwrap(),
        write,
        version,
        '<',
        seen.clone(),
    );
    relay(
        read,
        child.stdin.take().unwrap(),
        version,
        '>',
        seen.clone(),
    );
    (ours, seen, child)
}

/// What the callback of [`answering`] was asked, and the completions it was told.
#[derive(Default)]
struct Asked {
    questions: Mutex<Vec<McpElicitation>>,
    completed: Mutex<Vec<String>>,
}

/// A toolset builder whose callback answers as the question says (`(accept)` with typed values,
/// `(decline)`, `(cancel)`; a URL accepted), keeping what it was asked in `asked`.
fn answering(asked: &Arc<Asked>) -> McpToolsetBuilder {
    let (questions, completions) = (Arc::clone(asked), Arc::clone(asked));
    McpToolset::builder()
        .on_elicit(move |question| {
            let answer = match question.request() {
                ElicitRequest::Url { .. } => ElicitAnswer::accept(None),
                request if request.message().contains("(decline)") => ElicitAnswer::decline(),
                request if request.message().contains("(cancel)") => ElicitAnswer::cancel(),
                _ => ElicitAnswer::accept(Some(
                    json!({"email": "ada@example.com", "nights": 3, "newsletter": true}),
                )),
            };
            questions.questions.lock().unwrap().push(question);
            async move { answer }
        })
        .on_elicitation_complete(move |id| {
            completions.completed.lock().unwrap().push(id.to_owned())
        })
}

/// The text of each result of a turn of `calls` (a `str` the Python SDK returns as
/// `{"result": ..}`, unwrapped), and whether it is an error.
async fn texts(runner: &mut Runner<Nothing, ()>, calls: &[ToolCall]) -> Vec<(bool, String)> {
    let turn = runner.run(Provider::Anthropic, calls).await;
    (turn.results().iter())
        .map(|result| {
            let text = match result.as_json() {
                Some(Value::Object(object)) if object.contains_key("result") => {
                    object["result"].as_str().unwrap_or_default().to_owned()
                }
                _ => result.to_text().into_owned(),
            };
            (result.is_error(), text)
        })
        .collect()
}

/// The methods (and result types) that passed, in order, each with its arrow.
fn kinds(seen: &Seen) -> Vec<String> {
    (seen.lock().unwrap().iter())
        .filter_map(|(arrow, message)| {
            let kind = message["method"]
                .as_str()
                .or(message["result"]["resultType"].as_str())?;
            Some(format!("{arrow} {kind}"))
        })
        .collect()
}

/// The `elicitation` capability the client declared: in `initialize` at `2025-11-25`, in each
/// `tools/call`'s `_meta` at `2026-07-28`.
fn declared(seen: &Seen) -> Vec<Value> {
    (seen.lock().unwrap().iter())
        .filter(|(arrow, _)| *arrow == '>')
        .filter_map(|(_, message)| match message["method"].as_str()? {
            "initialize" => Some(message["params"]["capabilities"]["elicitation"].clone()),
            "tools/call" => {
                let meta = message["params"]["_meta"].as_object()?;
                let capabilities = meta.get("io.modelcontextprotocol/clientCapabilities")?;
                Some(capabilities["elicitation"].clone())
            }
            _ => None,
        })
        .collect()
}

/// The Python SDK's server asks through the toolset, and the callback answers: a form accepted
/// (the server reads the typed values), declined and cancelled, and a URL, each question with
/// the call it belongs to; at `2025-11-25` and `2026-07-28`.
#[tokio::test]
async fn the_python_sdk_servers_questions_reach_the_callback_at_both_versions() {
    let Some(python) = python_sdk::python_with_mcp("elicitation server") else {
        return;
    };
    for legacy in [false, true] {
        let version = if legacy { LEGACY } else { MODERN };
        let (pipe, seen, _child) = far_server(&python, legacy);
        let asked = Arc::new(Asked::default());
        let toolset = answering(&asked).connect(pipe).await.unwrap();
        let spoken = toolset.peer().peer_info().unwrap().protocol_version.clone();
        assert_eq!(spoken.as_str(), version);
        let mut runner = Runner::<Nothing, ()>::new(()).with_mcp(toolset);
        let calls = [
            ToolCall::new("book", r#"{"answer":"accept"}"#).with_id("c1"),
            ToolCall::new("book", r#"{"answer":"decline"}"#).with_id("c2"),
            ToolCall::new("book", r#"{"answer":"cancel"}"#).with_id("c3"),
            ToolCall::new("sign_in", "{}").with_id("c4"),
        ];
        // One call at a time: at `2025-11-25` a question belongs to a call when it is the only
        // one running.
        let mut results = Vec::new();
        for call in &calls {
            results.extend(texts(&mut runner, std::slice::from_ref(call)).await);
        }
        let results: Vec<(bool, &str)> = results.iter().map(|(e, t)| (*e, t.as_str())).collect();
        assert_eq!(
            results,
            [
                (
                    false,
                    "booked for ada@example.com, 3 nights, newsletter True"
                ),
                (false, "not booked: decline"),
                (false, "not booked: cancel"),
                (false, "sign-in accept"),
            ],
            "{version}"
        );
        let questions = asked.questions.lock().unwrap().clone();
        let of_calls: Vec<(&str, Option<&str>, Option<&str>)> = (questions.iter())
            .map(|q| (q.request().message(), q.tool(), q.call_id()))
            .collect();
        assert_eq!(
            of_calls,
            [
                ("Who is the room for? (accept)", Some("book"), Some("c1")),
                ("Who is the room for? (decline)", Some("book"), Some("c2")),
                ("Who is the room for? (cancel)", Some("book"), Some("c3")),
                ("Sign in to your bank", Some("sign_in"), Some("c4")),
            ],
            "{version}"
        );
        assert_eq!(questions[0].server(), "python-asks");
        let ElicitRequest::Form {
            requested_schema, ..
        } = questions[0].request()
        else {
            panic!("a form: {:?}", questions[0]);
        };
        assert_eq!(requested_schema["required"], json!(["email"]), "{version}");
        assert_eq!(requested_schema["properties"]["nights"]["type"], "integer");
        let ElicitRequest::Url {
            url,
            elicitation_id,
            ..
        } = questions[3].request()
        else {
            panic!("a URL: {:?}", questions[3]);
        };
        assert_eq!(url, "https://bank.example.com/sign-in?session=7");
        let kinds = kinds(&seen);
        let count = |kind: &str| kinds.iter().filter(|k| *k == kind).count();
        if legacy {
            assert_eq!(elicitation_id, "sign-in-7");
            assert_eq!(*asked.completed.lock().unwrap(), ["sign-in-7"]);
            assert_eq!(count("< elicitation/create"), 4, "{kinds:?}");
            assert_eq!(count("< input_required"), 0, "{kinds:?}");
        } else {
            // (`2026-07-28` has no URL ids, nor completions.)
            assert_eq!(elicitation_id, "");
            assert_eq!(count("< input_required"), 4, "{kinds:?}");
            assert_eq!(count("< elicitation/create"), 0, "{kinds:?}");
            assert_eq!(
                count("> tools/call"),
                8,
                "each call made again with its answer"
            );
        }
        let both = json!({"form": {}, "url": {}});
        assert!(declared(&seen).iter().all(|d| *d == both), "{version}");
    }
}

/// Without a callback the client declares no `elicitation` capability, and a question the
/// server asks all the same is the call's error, at once: no wait, no loop.
#[tokio::test]
async fn without_a_callback_nothing_is_declared_and_a_question_is_an_error() {
    let Some(python) = python_sdk::python_with_mcp("elicitation server") else {
        return;
    };
    for legacy in [false, true] {
        let version = if legacy { LEGACY } else { MODERN };
        let (pipe, seen, _child) = far_server(&python, legacy);
        let toolset = McpToolset::connect(pipe).await.unwrap();
        let mut runner = Runner::<Nothing, ()>::new(()).with_mcp(toolset);
        let calls = [
            ToolCall::new("book", r#"{"answer":"accept"}"#),
            ToolCall::new("sign_in", "{}"),
        ];
        let started = std::time::Instant::now();
        let results = texts(&mut runner, &calls).await;
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert!(
            results.iter().all(|(error, _)| *error),
            "{version}: {results:?}"
        );
        let declared = declared(&seen);
        assert!(!declared.is_empty());
        assert!(
            declared.iter().all(Value::is_null),
            "{version}: {declared:?}"
        );
        if !legacy {
            // The SDK's own tool asks all the same (it does not check): the error says who
            // cannot answer, after one round.
            let (_, text) = &results[1];
            assert!(
                text.contains("asked for input to `sign_in` that cannot be given"),
                "{text}"
            );
            assert!(text.contains("no `on_elicit` callback takes it"), "{text}");
            let kinds = kinds(&seen);
            let calls = kinds.iter().filter(|k| *k == "> tools/call").count();
            assert_eq!(calls, 2, "{kinds:?}");
        }
    }
}

/// A gateway passes the far server's questions on to its own client and the answers back: the
/// Python SDK at both ends (`tests/elicit_gateway_client.py` → an `McpServer` over a runner with
/// the toolset → `tests/elicit_server.py`), at each pair of versions. The gateway declares
/// nothing of its own: at `2026-07-28` each forwarded call declares what its caller's client
/// can answer; a far server of `2025-11-25` reads the modes the toolset declared when it
/// connected (`McpToolsetBuilder::elicitation`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_passes_questions_on_at_each_pair_of_versions() {
    let Some(python) = python_sdk::python_with_mcp("elicitation gateway") else {
        return;
    };
    for (downstream, upstream) in [
        (MODERN, MODERN),
        (LEGACY, LEGACY),
        (LEGACY, MODERN),
        (MODERN, LEGACY),
    ] {
        let (pipe, seen, _child) = far_server(&python, upstream == LEGACY);
        let toolset = McpToolset::builder()
            .elicitation(&[ElicitMode::Form, ElicitMode::Url])
            .connect(pipe)
            .await
            .unwrap()
            .prefix("py_");
        let runner = Runner::<Nothing, ()>::new(()).with_mcp(toolset);
        let gateway = McpServer::new(runner, "gateway", "1.0.0");
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/elicit_gateway_client.py"
        );
        let args = [script, "--version", downstream, "--upstream", upstream];
        let mut child = python_sdk::spawn_client(&python, &args);
        let (into_gateway, gateway_reads) = tokio::io::duplex(1 << 16);
        let (gateway_writes, from_gateway) = tokio::io::duplex(1 << 16);
        let near = Seen::default();
        relay(
            child.stdout.take().unwrap(),
            into_gateway,
            downstream,
            '>',
            near.clone(),
        );
        relay(
            from_gateway,
            child.stdin.take().unwrap(),
            downstream,
            '<',
            near.clone(),
        );
        tokio::spawn(async move {
            if let Ok(running) = gateway.serve((gateway_reads, gateway_writes)).await {
                let _ = running.waiting().await;
            }
        });
        python_sdk::passes(child).await;
        let (near, far) = (kinds(&near), kinds(&seen));
        let asked_near = near.iter().filter(|k| *k == "< elicitation/create").count();
        let rounds_near = near.iter().filter(|k| *k == "< input_required").count();
        match downstream {
            LEGACY => assert_eq!((asked_near, rounds_near), (4, 0), "{near:?}"),
            _ => assert_eq!((asked_near, rounds_near), (0, 4), "{near:?}"),
        }
        let asked_far = far.iter().filter(|k| *k == "< elicitation/create").count();
        let rounds_far = far.iter().filter(|k| *k == "< input_required").count();
        let calls_far = far.iter().filter(|k| *k == "> tools/call").count();
        let cancelled_far = (far.iter())
            .filter(|k| *k == "> notifications/cancelled")
            .count();
        match (downstream, upstream) {
            // A question of the far server ends the near round: the far call is cancelled, and
            // made again when the client calls again, its question answered from the answer.
            (MODERN, LEGACY) => assert_eq!((calls_far, cancelled_far, asked_far), (8, 4, 8)),
            (LEGACY, LEGACY) => assert_eq!((calls_far, cancelled_far, asked_far), (4, 0, 4)),
            // The far rounds are made again at each near round: the far server asks twice.
            (MODERN, MODERN) => assert_eq!((calls_far, rounds_far), (12, 8), "{far:?}"),
            _ => assert_eq!((calls_far, rounds_far, asked_far), (8, 4, 0), "{far:?}"),
        }
        // What the gateway declared to the far server: its client's modes (both, as the Python
        // SDK declares them), per call at `2026-07-28`; at `2025-11-25`, what it connected with.
        let both = json!({"form": {}, "url": {}});
        assert!(
            declared(&seen).iter().all(|d| *d == both),
            "{downstream} {upstream}"
        );
    }
}

/// Asks one more question each round, 20 in all.
#[derive(Tool, Deserialize)]
struct Quiz {}

/// Yes or no.
#[derive(ToolSchema, Deserialize)]
#[tool(form)]
struct Confirm {
    ok: bool,
}

impl Handler<()> for Quiz {
    type Output = String;
    async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<String, ToolError> {
        let mut yes = 0;
        for _ in 0..20 {
            let answer = call.elicit::<Confirm>("Sure?").await?;
            yes += usize::from(answer.accepted().is_some_and(|confirm| confirm.ok));
        }
        Ok(format!("{yes} times yes"))
    }
}

#[derive(ToolSet)]
enum Quizzes {
    Quiz(Quiz),
}

/// A `2026-07-28` server (toolgen's, in process) that asks again and again: the toolset makes
/// the call 10 times at most, asking the callback only what it will send (9 answers), and the
/// call's result says why it stopped.
#[tokio::test]
async fn the_rounds_of_a_call_are_capped() {
    let (server_side, client_side) = tokio::io::duplex(1 << 16);
    let server = McpServer::new(Runner::<Quizzes, ()>::new(()), "quiz", "1.0.0");
    tokio::spawn(async move {
        let running = server.serve(server_side).await.unwrap();
        let _ = running.waiting().await;
    });
    let asked = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = Arc::clone(&asked);
    let toolset = McpToolset::builder()
        .on_elicit(move |_| {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            async { ElicitAnswer::accept(Some(json!({"ok": true}))) }
        })
        .connect(client_side)
        .await
        .unwrap();
    let mut runner = Runner::<Nothing, ()>::new(()).with_mcp(toolset);
    let results = texts(&mut runner, &[ToolCall::new("quiz", "{}")]).await;
    assert_eq!(
        results,
        [(
            true,
            "the MCP server `quiz` still asked for input to `quiz` after 10 rounds".to_owned()
        )]
    );
    assert_eq!(asked.load(std::sync::atomic::Ordering::SeqCst), 9);
}
