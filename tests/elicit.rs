//! Elicitation (feature `mcp`): a handler asks the person behind the client with
//! `Invocation::elicit` (a form of a toolgen type) and `Invocation::elicit_url`. The form a type
//! is asked as, held against both versions' `requestedSchema`; the answer parsed as arguments
//! are (defaults, constraints, JSON paths); and a server answered by the official Python SDK's
//! client (`tests/elicit_client.py`) at `2025-11-25` (an `elicitation/create` request) and
//! `2026-07-28` (`InputRequiredResult` rounds), every message the server sends held against the
//! version's schema. `tests/ui/elicit` holds the types that cannot be asked for.

#![cfg(feature = "mcp")]

mod http_client;
mod python_sdk;
mod spec_folder;

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use toolgen::{
    Cancellation, ElicitAnswer, ElicitError, ElicitFuture, ElicitRequest, Elicited, Elicitor,
    Handler, HttpOptions, Invocation, McpServer, Principal, Provider, ResourceServer, Runner,
    TokenError, TokenValidator, Tool, ToolCall, ToolError, ToolSchema, ToolSet, ValidateFuture,
};

/// A room.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Room {
    Single,
    /// Two beds.
    Double,
}

/// Something more in the room.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Extra {
    Crib,
    Desk,
}

/// Where to book, and who for.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[tool(form)]
struct Contact {
    /// Your email address.
    #[tool(format = "email", length(max = 80))]
    email: String,
    /// How many nights.
    #[tool(range(min = 1, max = 30), default = 2)]
    nights: u32,
    room: Room,
    #[serde(default)]
    extras: Vec<Extra>,
    /// Anything to tell the hotel.
    note: Option<String>,
    #[serde(default)]
    newsletter: bool,
}

/// Yes or no.
#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
#[tool(form)]
struct Confirm {
    ok: bool,
}

/// Book a room: asks who for (the answer the Python client gives depends on `answer`, which the
/// question names), then, for `twice`, whether to confirm.
#[derive(Tool, Deserialize)]
struct Book {
    answer: String,
    #[serde(default)]
    twice: bool,
}

/// Sign in on the bank's page.
#[derive(Tool, Deserialize)]
struct SignIn {}

/// Link a bank account: it cannot go on until the person links it on the bank's page
/// (`bank_page`, which stands for the page's own server).
#[derive(Tool, Deserialize)]
struct LinkBank {
    account: String,
}

/// The bank's page, done: the account is linked.
#[derive(Tool, Deserialize)]
struct BankPage {
    account: String,
}

/// How many times a handler ran for `alice` (whose token only the authorized HTTP runs send).
static RUNS_FOR_ALICE: AtomicUsize = AtomicUsize::new(0);

/// Counts a handler's run for `alice`.
fn note(call: &Invocation<'_>) {
    if call.principal().and_then(Principal::subject) == Some("alice") {
        RUNS_FOR_ALICE.fetch_add(1, Ordering::SeqCst);
    }
}

/// The accounts linked, by `bank_page`.
static LINKED: Mutex<Vec<String>> = Mutex::new(Vec::new());

#[derive(ToolSet)]
enum Tools {
    Book(Book),
    SignIn(SignIn),
    LinkBank(LinkBank),
    BankPage(BankPage),
}

/// What an answer says, as a tool returns it.
fn said<T: std::fmt::Debug>(answer: &Elicited<T>) -> String {
    match answer {
        Elicited::Accepted(value) => format!("accepted {value:?}"),
        Elicited::Declined => "declined".to_owned(),
        Elicited::Cancelled => "cancelled".to_owned(),
    }
}

impl Handler<()> for Book {
    type Output = String;
    async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<String, ToolError> {
        note(call);
        let question = format!("Who is the room for? ({})", self.answer);
        let contact = call.elicit::<Contact>(question).await?;
        let mut text = said(&contact);
        if self.twice {
            let confirm = call.elicit::<Confirm>("Book it? (accept)").await?;
            text = format!("{text}; {}", said(&confirm));
        }
        Ok(text)
    }
}

impl Handler<()> for SignIn {
    type Output = String;
    async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<String, ToolError> {
        note(call);
        let url = "https://bank.example.com/sign-in?session=7";
        let answer = call
            .elicit_url("Sign in to your bank", url, "sign-in-7")
            .await?;
        call.elicitation_complete("sign-in-7").await;
        Ok(format!("sign-in {}", said(&answer)))
    }
}

impl Handler<()> for LinkBank {
    type Output = String;
    async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<String, ToolError> {
        note(call);
        let account = self.account;
        if !LINKED.lock().unwrap().contains(&account) {
            let url = format!("https://bank.example.com/link?account={account}");
            let message = format!("Link your bank account ({account})");
            return Err(call.require_url(message, url, format!("link-{account}")));
        }
        Ok(format!("linked {account}"))
    }
}

impl Handler<()> for BankPage {
    type Output = String;
    async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<String, ToolError> {
        note(call);
        LINKED.lock().unwrap().push(self.account);
        Ok("done".to_owned())
    }
}

/// Answers as scripted, and keeps the questions.
struct Scripted {
    answers: Mutex<Vec<ElicitAnswer>>,
    asked: Mutex<Vec<ElicitRequest>>,
}

impl Scripted {
    fn new(answers: impl IntoIterator<Item = ElicitAnswer>) -> Self {
        let mut answers: Vec<ElicitAnswer> = answers.into_iter().collect();
        answers.reverse();
        Scripted {
            answers: Mutex::new(answers),
            asked: Mutex::new(Vec::new()),
        }
    }
}

impl Elicitor for Scripted {
    fn elicit(&self, request: ElicitRequest) -> ElicitFuture<'_> {
        self.asked.lock().unwrap().push(request);
        let answer = self.answers.lock().unwrap().pop();
        Box::pin(async move { answer.ok_or_else(|| ElicitError::failed("no more answers")) })
    }
}

/// `elicit::<T>` with `elicitor`, outside any server.
async fn elicit<T: toolgen::Form + serde::de::DeserializeOwned>(
    elicitor: &Scripted,
) -> Result<Elicited<T>, ElicitError> {
    let call = ToolCall::new("book", "{}");
    let cancel = Cancellation::new();
    let invocation = Invocation::new(&call, Provider::Mcp, &cancel).with_elicitor(elicitor);
    invocation.elicit::<T>("Who is the room for?").await
}

/// The form of `Contact`, as the client is asked it.
fn contact_form() -> Value {
    json!({
        "type": "object",
        "properties": {
            "email": {"type": "string", "format": "email", "maxLength": 80,
                      "description": "Your email address."},
            "nights": {"type": "integer", "minimum": 1, "maximum": 30, "default": 2,
                       "description": "How many nights."},
            "room": {"type": "string", "description": "A room.",
                     "oneOf": [{"const": "single", "title": "single"},
                               {"const": "double", "title": "Two beds."}]},
            "extras": {"type": "array", "items": {"type": "string", "enum": ["crib", "desk"]},
                       "default": []},
            "note": {"type": "string", "description": "Anything to tell the hotel."},
            "newsletter": {"type": "boolean", "default": false}
        },
        "required": ["email", "room"]
    })
}

#[tokio::test]
async fn a_form_is_the_type_as_mcp_asks_it_and_the_answer_is_read_as_arguments_are() {
    let scripted = Scripted::new([
        ElicitAnswer::accept(Some(json!({
            "email": "ada@example.com", "room": "double", "extras": ["crib"], "note": null
        }))),
        ElicitAnswer::accept(Some(
            json!({"email": "ada@example.com", "nights": 0, "room": "x"}),
        )),
        ElicitAnswer::decline(),
        ElicitAnswer::cancel(),
    ]);
    assert_eq!(
        elicit::<Contact>(&scripted).await.unwrap(),
        // The default of `nights` filled in, the `null` of a field that is not nullable dropped.
        Elicited::Accepted(Contact {
            email: "ada@example.com".to_owned(),
            nights: 2,
            room: Room::Double,
            extras: vec![Extra::Crib],
            note: None,
            newsletter: false,
        })
    );
    let Err(ElicitError::Invalid(error)) = elicit::<Contact>(&scripted).await else {
        panic!("a wrong answer is an error");
    };
    assert_eq!(error.path(), "room", "{error}");
    assert_eq!(elicit::<Contact>(&scripted).await, Ok(Elicited::Declined));
    assert_eq!(elicit::<Contact>(&scripted).await, Ok(Elicited::Cancelled));
    let asked = scripted.asked.lock().unwrap();
    let ElicitRequest::Form {
        requested_schema, ..
    } = &asked[0]
    else {
        panic!("a form: {:?}", asked[0]);
    };
    assert_eq!(*requested_schema, contact_form());
    for version in ["2025-11-25", "2026-07-28"] {
        let params = json!({
            "mode": "form", "message": "Who is the room for?", "requestedSchema": requested_schema
        });
        holds(version, "ElicitRequestFormParams", &params);
    }
}

#[tokio::test]
async fn a_constraint_of_the_type_is_checked_on_the_answer() {
    let scripted = Scripted::new([ElicitAnswer::accept(Some(json!({
        "email": "ada@example.com", "nights": 31, "room": "single"
    })))]);
    let Err(ElicitError::Invalid(error)) = elicit::<Contact>(&scripted).await else {
        panic!("31 nights is too many");
    };
    assert_eq!(error.path(), "nights", "{error}");
}

#[tokio::test]
async fn where_nobody_can_be_asked_the_error_says_so_at_once() {
    let call = ToolCall::new("book", "{}");
    let cancel = Cancellation::new();
    let invocation = Invocation::new(&call, Provider::OpenAiChat, &cancel);
    let error = invocation.elicit::<Confirm>("Sure?").await.unwrap_err();
    assert!(matches!(error, ElicitError::Unsupported(_)), "{error}");
    let error = invocation
        .elicit_url("Sign in", "https://a.example", "1")
        .await;
    assert!(matches!(error, Err(ElicitError::Unsupported(_))));
}

/// Holds `value` against the definition `name` of the version's schema, where the specs are.
fn holds(version: &str, name: &str, value: &Value) {
    let Some(validator) = spec_folder::mcp_validator(version, name) else {
        return;
    };
    if let Err(error) = validator.validate(value) {
        panic!(
            "{version} {name}: {error} at {}\n{value:#}",
            error.instance_path()
        );
    }
}

/// Serves the tools to `tests/elicit_client.py` at `version` (`answers`: whether its client
/// answers elicitations at all) over its stdio, every line the server sends held against the
/// version's schema on the way; the methods and result types the server sent.
async fn python_client(python: &str, version: &str, answers: bool) -> Vec<String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/elicit_client.py");
    let mut args = vec![script, "--version", version];
    if !answers {
        args.push("--no-elicitation");
    }
    let mut child = python_sdk::spawn_client(python, &args);
    let mut to_client = child.stdin.take().unwrap();
    let mut from_client = child.stdout.take().unwrap();
    // A pipe each way, so that each closes when its writer is done: the client's lines go to
    // the server as they are; the server's are checked on the way to the client.
    let (mut into_server, server_reads) = tokio::io::duplex(1 << 16);
    let (server_writes, mut from_server) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let _ = tokio::io::copy(&mut from_client, &mut into_server).await;
    });
    let server = McpServer::new(Runner::<Tools, ()>::new(()), "hotel", "1.0.0");
    tokio::spawn(async move {
        if let Ok(running) = server.serve((server_reads, server_writes)).await {
            let _ = running.waiting().await;
        }
    });
    let validator = spec_folder::mcp_validator(version, "JSONRPCMessage");
    let version_owned = version.to_owned();
    let relay = tokio::spawn(async move {
        let mut seen = Vec::new();
        let mut lines = BufReader::new(&mut from_server).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let message: Value = serde_json::from_str(&line).unwrap();
            if let Some(validator) = &validator
                && let Err(error) = validator.validate(&message)
            {
                panic!(
                    "{version_owned}: {error} at {}\n{message:#}",
                    error.instance_path()
                );
            }
            let kind = message["method"]
                .as_str()
                .or(message["result"]["resultType"].as_str())
                .map(str::to_owned)
                .or_else(|| Some(format!("error {}", message["error"]["code"].as_i64()?)));
            if message["error"]["code"] == -32042 {
                holds(&version_owned, "URLElicitationRequiredError", &message);
            }
            seen.extend(kind);
            if to_client
                .write_all(format!("{line}\n").as_bytes())
                .await
                .is_err()
            {
                break;
            }
        }
        seen
    });
    let output = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("the Python client ends within a minute")
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "elicit_client.py {args:?}: {stderr}"
    );
    assert!(stderr.contains("all checks passed"), "{stderr}");
    tokio::time::timeout(Duration::from_secs(10), relay)
        .await
        .expect("the server ends when the client does")
        .unwrap()
}

/// The official Python SDK's client answers the server's questions: accept, decline, cancel, a
/// wrong answer, two questions in one call, a URL, a page required (`require_url`); and a
/// client without the capability is told at once. At `2025-11-25` the server asks with
/// `elicitation/create` requests (and says a URL elicitation is complete), and a required page
/// is the `-32042` error; at `2026-07-28` each question, and each page required, ends a round
/// with an `InputRequiredResult`.
#[tokio::test]
async fn the_python_sdk_client_answers_at_both_versions() {
    let Some(python) = python_sdk::python_with_mcp("elicitation client") else {
        return;
    };
    let legacy = python_client(&python, "2025-11-25", true).await;
    let asked = legacy.iter().filter(|m| *m == "elicitation/create").count();
    assert_eq!(asked, 7, "{legacy:?}");
    assert!(
        legacy
            .iter()
            .any(|m| m == "notifications/elicitation/complete")
    );
    assert!(!legacy.iter().any(|m| m == "input_required"), "{legacy:?}");
    // A page required: once, then the page's work done and the call made again.
    let required = legacy.iter().filter(|m| *m == "error -32042").count();
    assert_eq!(required, 1, "{legacy:?}");
    let current = python_client(&python, "2026-07-28", true).await;
    let rounds = current.iter().filter(|m| *m == "input_required").count();
    // Seven questions, and a page required twice (once done, once declined).
    assert_eq!(rounds, 9, "{current:?}");
    assert!(!current.iter().any(|m| m == "error -32042"), "{current:?}");
    assert!(
        !current.iter().any(|m| m == "elicitation/create"),
        "{current:?}"
    );
    for version in ["2025-11-25", "2026-07-28"] {
        let sent = python_client(&python, version, false).await;
        assert!(
            !sent
                .iter()
                .any(|m| m == "elicitation/create" || m == "input_required" || m == "error -32042"),
            "{sent:?}"
        );
    }
}

/// A client of `2026-07-28` that writes its messages by hand, to `server` over a pipe.
struct Raw {
    lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    writer: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    next_id: u64,
}

impl Raw {
    /// A client of a new hotel server (its own key).
    fn hotel() -> Self {
        Raw::new(McpServer::new(
            Runner::<Tools, ()>::new(()),
            "hotel",
            "1.0.0",
        ))
    }

    fn new(server: McpServer<Tools, ()>) -> Self {
        let (server_side, client_side) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            if let Ok(running) = server.serve(server_side).await {
                let _ = running.waiting().await;
            }
        });
        let (reader, writer) = tokio::io::split(client_side);
        Raw {
            lines: BufReader::new(reader).lines(),
            writer,
            next_id: 1,
        }
    }

    /// A `tools/call` of `name` with `arguments` and the rest of `params` (a retry's
    /// `inputResponses` and `requestState`); the server's reply.
    async fn call(&mut self, name: &str, arguments: Value, params: Value) -> Value {
        self.call_spelled(name, &arguments.to_string(), params)
            .await
    }

    /// [`Raw::call`] with `arguments` sent as this JSON text is spelled.
    async fn call_spelled(&mut self, name: &str, arguments: &str, params: Value) -> Value {
        let params = call_params(name, json!("\u{0}arguments"), params);
        let id = self.next_id;
        self.next_id += 1;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
        let line = format!("{request}\n").replace(r#""\u0000arguments""#, arguments);
        self.writer.write_all(line.as_bytes()).await.unwrap();
        loop {
            let line = tokio::time::timeout(Duration::from_secs(10), self.lines.next_line())
                .await
                .expect("an answer within 10 s")
                .unwrap()
                .expect("the server is there");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                holds("2026-07-28", "JSONRPCMessage", &message);
                return message;
            }
        }
    }
}

/// The params of a `2026-07-28` `tools/call` of `name` with `arguments`, from a client that
/// answers forms, with the rest of `params` (a retry's `inputResponses` and `requestState`).
fn call_params(name: &str, arguments: Value, mut params: Value) -> Value {
    params["name"] = json!(name);
    params["arguments"] = arguments;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
    });
    params
}

/// An accepted answer with `content`, as `inputResponses` carries it.
fn accepted(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

/// At `2026-07-28` the answers so far travel in `requestState`, which the client echoes: the
/// server seals it, and refuses one it did not write for this call, or one that was changed
/// (an earlier answer rewritten), with an invalid-params error; a response to a question it
/// did not ask is not taken.
#[tokio::test]
async fn a_request_state_that_was_changed_is_refused() {
    let mut client = Raw::hotel();
    let book = json!({"answer": "accept", "twice": true});
    let first = client.call("book", book.clone(), json!({})).await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    assert!(first["result"]["inputRequests"]["elicit-0"].is_object());
    let contact = json!({"email": "ada@example.com", "room": "double"});
    // The second question answered too, before it was asked: not taken.
    let responses =
        json!({"elicit-0": accepted(contact), "elicit-1": accepted(json!({"ok": false}))});
    let retry =
        json!({"inputResponses": responses, "requestState": first["result"]["requestState"]});
    let second = client.call("book", book.clone(), retry).await;
    assert_eq!(second["result"]["resultType"], "input_required", "{second}");
    assert!(second["result"]["inputRequests"]["elicit-1"].is_object());
    let state = second["result"]["requestState"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(state.contains("ada@example.com"), "{state}");

    let last = |state: &str| json!({"inputResponses": {"elicit-1": accepted(json!({"ok": true}))}, "requestState": state});
    let refused = |reply: &Value| {
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        assert_eq!(
            reply["error"]["message"],
            "`requestState` was not written by this server for this call, or was changed \
             since: call the tool again without it"
        );
    };
    // The first answer rewritten.
    let changed = state.replace("ada@example.com", "eve@example.com");
    refused(&client.call("book", book.clone(), last(&changed)).await);
    // Sent with another call (other arguments, another tool).
    let other = json!({"answer": "decline", "twice": true});
    refused(&client.call("book", other, last(&state)).await);
    refused(&client.call("sign_in", json!({}), last(&state)).await);
    // Another server's (its own key: a server makes one at random unless given a secret).
    let mut elsewhere = Raw::hotel();
    refused(&elsewhere.call("book", book.clone(), last(&state)).await);
    // As the server wrote it.
    let done = client.call("book", book, last(&state)).await;
    assert_eq!(
        done["result"]["content"][0]["text"],
        "accepted Contact { email: \"ada@example.com\", nights: 2, room: Double, extras: [], \
         note: None, newsletter: false }; accepted Confirm { ok: true }",
        "{done}"
    );
}

/// A client's retry may spell the call's arguments otherwise (keys in another order, other
/// whitespace, `1.0` for `1`): a state is bound to what they say, not to how they are written.
#[tokio::test]
async fn a_request_state_goes_with_its_arguments_however_they_are_spelled() {
    let mut client = Raw::hotel();
    let first =
        (client.call_spelled("book", r#"{"answer":"accept","twice":true}"#, json!({}))).await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let contact = json!({"email": "ada@example.com", "room": "double"});
    let retry = json!({
        "inputResponses": {"elicit-0": accepted(contact)},
        "requestState": first["result"]["requestState"],
    });
    let respelled = r#"{ "twice" : true,  "answer" : "\u0061ccept" }"#;
    let second = client.call_spelled("book", respelled, retry).await;
    assert_eq!(second["result"]["resultType"], "input_required", "{second}");
    assert!(second["result"]["inputRequests"]["elicit-1"].is_object());
    // What they say changed: refused.
    let retry = json!({
        "inputResponses": {"elicit-1": accepted(json!({"ok": true}))},
        "requestState": second["result"]["requestState"],
    });
    let other = r#"{"twice":true,"answer":"accepT"}"#;
    let refused = client.call_spelled("book", other, retry.clone()).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let done = client.call_spelled("book", respelled, retry).await;
    assert!(
        done["result"]["content"][0]["text"]
            .as_str()
            .is_some_and(|text| text.ends_with("accepted Confirm { ok: true }")),
        "{done}"
    );
}

/// Servers given the same secret read each other's states (replicas behind a load balancer).
#[tokio::test]
async fn servers_with_one_secret_read_each_others_states() {
    let server =
        || McpServer::new(Runner::<Tools, ()>::new(()), "hotel", "1.0.0").with_state_key([7; 32]);
    let mut one = Raw::new(server());
    let mut two = Raw::new(server());
    let book = json!({"answer": "accept"});
    let first = one.call("book", book.clone(), json!({})).await;
    let contact = json!({"email": "ada@example.com", "room": "single"});
    let retry = json!({
        "inputResponses": {"elicit-0": accepted(contact)},
        "requestState": first["result"]["requestState"],
    });
    let done = two.call("book", book, retry).await;
    assert_eq!(done["result"]["isError"], Value::Null, "{done}");
    assert!(
        done["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("accepted Contact { email: \"ada@example.com\""),
        "{done}"
    );
}

/// Takes `alice-token` (for `alice`) and `bob-token` (for `bob`).
struct Tokens;

impl TokenValidator for Tokens {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        let subject = match token {
            "alice-token" => Some("alice"),
            "bob-token" => Some("bob"),
            _ => None,
        };
        Box::pin(async move {
            let subject = subject.ok_or_else(|| TokenError::new("unknown token"))?;
            Ok(Principal::new(Some(subject), Some("hotel-app"), ["hotel"]))
        })
    }
}

/// The hotel's server on streamable HTTP, on a port of its own, with authorization on where
/// `authorized` (taking [`Tokens`]); its URL.
async fn serve_http(authorized: bool) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let mut options = HttpOptions::default();
    if authorized {
        let auth = ResourceServer::new(&url, Tokens)
            .unwrap()
            .authorization_servers(["http://127.0.0.1:9/"]);
        options = options.authorization(auth);
    }
    let server = McpServer::new(Runner::<Tools, ()>::new(()), "hotel", "1.0.0");
    tokio::spawn(async move { server.serve_http_with(listener, &options).await });
    url
}

/// The address of the server at `url` (`http://{address}/mcp`).
fn address_of(url: &str) -> std::net::SocketAddr {
    let address = url
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix("/mcp"));
    address.and_then(|address| address.parse().ok()).unwrap()
}

/// `tests/elicit_client.py` at `version` over streamable HTTP (`answers`: whether it answers
/// elicitations), with `alice`'s token on every request where `authorized`: all its checks
/// must pass.
async fn python_http_client(python: &str, version: &str, answers: bool, authorized: bool) {
    let url = serve_http(authorized).await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/elicit_client.py");
    let mut args = vec![script, "--version", version, "--http", &url];
    if !answers {
        args.push("--no-elicitation");
    }
    if authorized {
        args.extend(["--token", "alice-token"]);
    }
    python_sdk::passes(python_sdk::spawn_client(python, &args)).await;
}

/// Over streamable HTTP, the official Python SDK's client answers as over stdio: at
/// `2025-11-25` the `elicitation/create` requests come down the call's SSE stream (and the
/// `-32042` error as its answer), at `2026-07-28` each round is a request of its own. With
/// authorization on, every retry carries the token: the handlers run for `alice` each time.
#[tokio::test]
async fn the_python_sdk_client_answers_over_streamable_http() {
    let Some(python) = python_sdk::python_with_mcp("elicitation over HTTP") else {
        return;
    };
    for version in ["2025-11-25", "2026-07-28"] {
        python_http_client(&python, version, true, false).await;
        python_http_client(&python, version, false, false).await;
    }
    // Handler runs at 2025-11-25: five of `book` and one of `sign_in` (each asks while it
    // runs); `link_bank` refused, `bank_page`, `link_bank` again.
    let before = RUNS_FOR_ALICE.load(Ordering::SeqCst);
    python_http_client(&python, "2025-11-25", true, true).await;
    assert_eq!(RUNS_FOR_ALICE.load(Ordering::SeqCst) - before, 9);
    // At 2026-07-28 each question's answer comes in a retry, which runs the handler again:
    // `book` four times two runs, and three for two questions; `sign_in` two; `link_bank`
    // two for the page done (and `bank_page` between), two for the page declined.
    let before = RUNS_FOR_ALICE.load(Ordering::SeqCst);
    python_http_client(&python, "2026-07-28", true, true).await;
    assert_eq!(RUNS_FOR_ALICE.load(Ordering::SeqCst) - before, 18);
}

/// A stateless `2026-07-28` `tools/call` of `name` over HTTP to `url` with the bearer `token`
/// and the rest of `params`; the JSON-RPC answer.
async fn http_call(url: &str, token: &str, name: &str, arguments: Value, params: Value) -> Value {
    let params = call_params(name, arguments, params);
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let bearer = format!("Bearer {token}");
    let headers = [
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", name),
        ("authorization", &bearer),
    ];
    let body = body.to_string();
    let reply = http_client::send(address_of(url), "POST", &headers, body.as_bytes()).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    reply.json()
}

/// Over HTTP with authorization on, a `requestState` is the caller's: `bob` cannot go on with
/// the rounds of `alice`'s call, and `alice` can.
#[tokio::test]
async fn a_request_state_is_the_callers_over_http() {
    let url = serve_http(true).await;
    let book = json!({"answer": "accept"});
    let first = http_call(&url, "alice-token", "book", book.clone(), json!({})).await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let contact = json!({"email": "ada@example.com", "room": "single"});
    let retry = json!({
        "inputResponses": {"elicit-0": accepted(contact)},
        "requestState": first["result"]["requestState"],
    });
    let bob = http_call(&url, "bob-token", "book", book.clone(), retry.clone()).await;
    assert_eq!(bob["error"]["code"], -32602, "{bob}");
    let alice = http_call(&url, "alice-token", "book", book, retry).await;
    let text = alice["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.starts_with("accepted Contact"), "{alice}");
}

/// At `2025-11-25` over streamable HTTP, a handler's `elicitation/create` goes down the SSE
/// stream of the call that asks (a client need not open the standalone GET stream, and does
/// not here), and the call's result follows it there once answered.
#[tokio::test]
async fn at_2025_11_25_the_question_goes_down_the_calls_stream() {
    let address = address_of(&serve_http(false).await);
    let json = ("content-type", "application/json");
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {"form": {}}},
                   "clientInfo": {"name": "raw-http", "version": "0"}}});
    let reply =
        http_client::send(address, "POST", &[json], initialize.to_string().as_bytes()).await;
    let session = reply
        .header("mcp-session-id")
        .expect("a session")
        .to_owned();
    let in_session = [
        json,
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let post = |message: Value| async move {
        let body = message.to_string();
        let reply = http_client::send(address, "POST", &in_session, body.as_bytes()).await;
        assert_eq!(reply.status, 202, "{reply:?}");
    };
    post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;

    // The call, its response read as it comes.
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "book", "arguments": {"answer": "accept"}}});
    let body = call.to_string();
    let mut stream = http_client::open(address, "POST", "/mcp", &in_session, body.as_bytes()).await;
    let mut seen = String::new();
    let question = next_event(&mut stream, &mut seen, "elicitation/create", |message| {
        message["method"] == "elicitation/create"
    })
    .await;
    holds("2025-11-25", "ElicitRequest", &question);

    // Answered in a POST of its own; the call's result comes down the same stream.
    post(json!({"jsonrpc": "2.0", "id": question["id"],
        "result": {"action": "accept", "content": {"email": "ada@example.com", "room": "double"}}}))
    .await;
    let result = next_event(&mut stream, &mut seen, "the call's result", |message| {
        message["id"] == 2
    })
    .await;
    let text = result["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.starts_with("accepted Contact"), "{result}");
}

/// The first message of the event stream on `stream` (what came so far in `seen`) that is
/// `what`: it must come within 5 s.
async fn next_event(
    stream: &mut tokio::net::TcpStream,
    seen: &mut String,
    what: &str,
    is: impl Fn(&Value) -> bool,
) -> Value {
    use tokio::io::AsyncReadExt;
    let read = async {
        loop {
            let data = seen.lines().filter_map(|line| line.strip_prefix("data:"));
            let mut messages = data.filter_map(|data| serde_json::from_str(data.trim()).ok());
            if let Some(message) = messages.find(&is) {
                return message;
            }
            let mut buffer = [0_u8; 4096];
            let read = stream.read(&mut buffer).await.unwrap();
            assert!(read > 0, "the stream ended without {what}: {seen}");
            seen.push_str(&String::from_utf8_lossy(&buffer[..read]));
        }
    };
    tokio::time::timeout(Duration::from_secs(5), read)
        .await
        .unwrap_or_else(|_| panic!("no {what} on the call's stream within 5 s"))
}
