//! A person in the loop, offline: the model asks to look up two contacts and to send two emails
//! (a tool marked `#[tool(needs_approval)]`). The runner runs the lookups and holds the emails;
//! the held turn is saved to a file, as it would wait in a database; a new runner (another
//! process, hours later) reads it back, a person approves one email and denies the other, and
//! the turn resumes: the approved email is sent, the model reads why the other was not, and the
//! lookups are not run again.
//!
//! The model's response is written in the shape of Anthropic's Messages API documentation
//! (<https://docs.anthropic.com/en/docs/build-with-claude/tool-use>); its ids are made up.
//!
//! Run: `cargo run --example approval`

use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Deserialize;
use serde_json::Value;
use toolgen::{
    Handler, HeldCall, Invocation, Pending, Provider, Runner, Tool, ToolCall, ToolError, ToolSet,
};

/// The model's response: text, then four `tool_use` blocks.
pub const RESPONSE: &str = r#"{
  "id": "msg_01Aq9w938a90dw8q",
  "type": "message",
  "role": "assistant",
  "model": "claude-sonnet-4-5",
  "content": [
    {"type": "text", "text": "I'll look up both contacts and send the invitations."},
    {"type": "tool_use", "id": "toolu_01", "name": "find_contact", "input": {"name": "Ana Ozola"}},
    {"type": "tool_use", "id": "toolu_02", "name": "find_contact", "input": {"name": "Press office"}},
    {"type": "tool_use", "id": "toolu_03", "name": "send_email",
     "input": {"to": "ana@example.com", "subject": "Launch", "body": "See you on Friday."}},
    {"type": "tool_use", "id": "toolu_04", "name": "send_email",
     "input": {"to": "press@news.example.org", "subject": "Launch", "body": "Embargoed until Friday."}}
  ],
  "stop_reason": "tool_use",
  "stop_sequence": null,
  "usage": {"input_tokens": 512, "output_tokens": 160}
}"#;

/// How many times each tool ran in this process.
#[derive(Default)]
pub struct Outbox {
    pub lookups: AtomicUsize,
    pub sent: AtomicUsize,
}

/// Find a contact's email address by name.
#[derive(Tool, Deserialize)]
#[tool(read_only)]
pub struct FindContact {
    name: String,
}

impl Handler<Outbox> for FindContact {
    type Output = String;
    async fn handle(self, outbox: &Outbox, _: &Invocation<'_>) -> Result<String, ToolError> {
        outbox.lookups.fetch_add(1, Ordering::SeqCst);
        Ok(format!("{}: found", self.name))
    }
}

/// Send an email.
#[derive(Tool, Deserialize)]
#[tool(needs_approval, destructive = false, open_world)]
pub struct SendEmail {
    to: String,
    subject: String,
    body: String,
}

impl Handler<Outbox> for SendEmail {
    type Output = String;
    async fn handle(self, outbox: &Outbox, _: &Invocation<'_>) -> Result<String, ToolError> {
        outbox.sent.fetch_add(1, Ordering::SeqCst);
        Ok(format!(
            "sent \"{}\" to {} ({} characters)",
            self.subject,
            self.to,
            self.body.len()
        ))
    }
}

#[derive(ToolSet)]
pub enum Tools {
    FindContact(FindContact),
    SendEmail(SendEmail),
}

/// The first process: runs the model's calls, and gives the held turn as JSON text to store,
/// with the runner (for its counts).
pub async fn hold(response: &Value) -> (String, Runner<Tools, Outbox>) {
    let mut runner = Runner::<Tools, Outbox>::new(Outbox::default());
    let calls = ToolCall::parse(Provider::Anthropic, response).expect("a valid response");
    let turn = runner.run(Provider::Anthropic, &calls).await;
    for held in turn.held() {
        println!(
            "held #{} {} {} (annotations {})",
            held.index(),
            held.name(),
            held.arguments(),
            held.annotations().cloned().unwrap_or_default()
        );
    }
    let pending = turn.pending().expect("the emails are held");
    let saved = serde_json::to_string(&pending).expect("a pending turn is JSON");
    (saved, runner)
}

/// What the person decides: emails within the company go; others are denied, with a reason the
/// model reads.
fn decide(held: &HeldCall) -> Result<(), String> {
    match held.arguments()["to"].as_str() {
        Some(to) if to.ends_with("@example.com") => Ok(()),
        _ => Err("the press list is not ready; do not write to the press yet".to_owned()),
    }
}

/// The second process: reads the stored turn, takes the person's decisions, resumes, and gives
/// the messages for the next request (the model's turn, then every result), with the runner.
pub async fn resume(saved: &str, response: &Value) -> (Vec<Value>, Runner<Tools, Outbox>) {
    let mut runner = Runner::<Tools, Outbox>::new(Outbox::default());
    let mut pending: Pending = serde_json::from_str(saved).expect("the stored turn reads back");
    let decisions: Vec<(usize, Result<(), String>)> = pending
        .held()
        .iter()
        .map(|held| (held.index(), decide(held)))
        .collect();
    for (index, decision) in decisions {
        let decided = match decision {
            Ok(()) => pending.approve(index),
            Err(reason) => pending.deny(index, reason),
        };
        decided.expect("the call is held");
    }
    let turn = runner
        .resume(&pending)
        .await
        .expect("the tools are the same");
    let messages = turn.next_messages(response).expect("a valid response");
    (messages, runner)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a Tokio runtime");
    let response: Value = serde_json::from_str(RESPONSE).expect("the response is JSON");
    let store = std::env::temp_dir().join("toolgen-approval-example.json");

    let (saved, first) = runtime.block_on(hold(&response));
    std::fs::write(&store, &saved).expect("the store is writable");
    println!(
        "saved to {} ({} bytes); ran {} lookups, sent {} emails",
        store.display(),
        saved.len(),
        first.context().lookups.load(Ordering::SeqCst),
        first.context().sent.load(Ordering::SeqCst)
    );
    drop(first);

    let saved = std::fs::read_to_string(&store).expect("the store is readable");
    let (messages, second) = runtime.block_on(resume(&saved, &response));
    println!(
        "resumed: ran {} lookups, sent {} emails",
        second.context().lookups.load(Ordering::SeqCst),
        second.context().sent.load(Ordering::SeqCst)
    );
    for message in messages {
        println!(
            "<- {}",
            serde_json::to_string_pretty(&message).unwrap_or_default()
        );
    }
    let _ = std::fs::remove_file(&store);
}
