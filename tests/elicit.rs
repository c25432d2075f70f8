//! Elicitation (feature `mcp`): a handler asks the person behind the client with
//! `Invocation::elicit` (a form of a toolgen type) and `Invocation::elicit_url`. The form a type
//! is asked as, held against both versions' `requestedSchema`; the answer parsed as arguments
//! are (defaults, constraints, JSON paths); and a server answered by the official Python SDK's
//! client (`tests/elicit_client.py`) at `2025-11-25` (an `elicitation/create` request) and
//! `2026-07-28` (`InputRequiredResult` rounds), every message the server sends held against the
//! version's schema. `tests/ui/elicit` holds the types that cannot be asked for.

#![cfg(feature = "mcp")]

mod python_sdk;
mod spec_folder;

use std::sync::Mutex;
use std::time::Duration;

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use toolgen::{
    Cancellation, ElicitAnswer, ElicitError, ElicitFuture, ElicitRequest, Elicited, Elicitor,
    Handler, Invocation, McpServer, Provider, Runner, Tool, ToolCall, ToolError, ToolSchema,
    ToolSet,
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

#[derive(ToolSet)]
enum Tools {
    Book(Book),
    SignIn(SignIn),
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
        let url = "https://bank.example.com/sign-in?session=7";
        let answer = call
            .elicit_url("Sign in to your bank", url, "sign-in-7")
            .await?;
        call.elicitation_complete("sign-in-7").await;
        Ok(format!("sign-in {}", said(&answer)))
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
                .or(message["result"]["resultType"].as_str());
            seen.extend(kind.map(str::to_owned));
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
/// wrong answer, two questions in one call, a URL; and a client without the capability is told
/// at once. At `2025-11-25` the server asks with `elicitation/create` requests (and says a URL
/// elicitation is complete); at `2026-07-28` each question ends a round with an
/// `InputRequiredResult`.
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
    let current = python_client(&python, "2026-07-28", true).await;
    let rounds = current.iter().filter(|m| *m == "input_required").count();
    assert_eq!(rounds, 7, "{current:?}");
    assert!(
        !current.iter().any(|m| m == "elicitation/create"),
        "{current:?}"
    );
    for version in ["2025-11-25", "2026-07-28"] {
        let sent = python_client(&python, version, false).await;
        assert!(
            !sent
                .iter()
                .any(|m| m == "elicitation/create" || m == "input_required")
        );
    }
}
