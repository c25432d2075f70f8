//! Calls held for a person: what a held call shows ([`HeldCall`]), a turn's calls while some
//! wait ([`Pending`], saved and read back with serde), the person's decisions, and why a
//! resume can refuse ([`ResumeError`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::provider::Provider;
use crate::wire::call::ToolCall;
use crate::wire::choice::ToolChoice;
use crate::wire::result::ToolResult;

/// A call the [`Runner`](crate::Runner) held for a person to approve or deny: the tool's name,
/// the call's id, its parsed arguments and the tool's MCP annotations, to show them; and the
/// decision, once taken.
///
/// The arguments are those the tool read: a run-time tool's after its schema's defaults are
/// filled in and its `null`s dropped; a derived tool's as the model sent them (blank text read
/// as `{}`, an object sent as a JSON string read as the object).
///
/// ```
/// # use serde::Deserialize;
/// # use toolgen::{Handler, Invocation, Provider, Runner, Tool, ToolCall, ToolError, ToolSet};
/// /// Send an email.
/// #[derive(Tool, Deserialize)]
/// #[tool(needs_approval, destructive = false)]
/// struct SendEmail { to: String }
/// # impl Handler<()> for SendEmail {
/// #     type Output = String;
/// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<String, ToolError> { Ok("sent".into()) }
/// # }
/// #[derive(ToolSet)]
/// enum Tools { Send(SendEmail) }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut runner = Runner::<Tools, ()>::new(());
/// let call = ToolCall::new("send_email", r#"{"to": "ana@example.com"}"#).with_id("call_1");
/// let turn = runner.run(Provider::OpenAiChat, &[call]).await;
/// let held = &turn.held()[0];
/// assert_eq!((held.index(), held.name(), held.id()), (0, "send_email", Some("call_1")));
/// assert_eq!(held.arguments()["to"], "ana@example.com");
/// assert_eq!(held.annotations().unwrap()["destructiveHint"], false);
/// assert_eq!(held.decision(), None);
/// # });
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeldCall {
    /// Its place among the turn's calls: set from where it is, never read from saved text.
    #[serde(skip)]
    index: usize,
    call: ToolCall,
    arguments: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    annotations: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    decision: Option<Decision>,
}

impl HeldCall {
    /// A held call: the turn's call number `index`, `arguments` as the tool read them.
    pub(crate) fn new(
        index: usize,
        call: ToolCall,
        arguments: Value,
        annotations: Option<Value>,
    ) -> Self {
        HeldCall {
            index,
            call,
            arguments,
            annotations,
            decision: None,
        }
    }

    /// Its place among the turn's calls (from 0): what [`Pending::approve`] and
    /// [`Pending::deny`] take.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The model's call (its id, name and arguments as sent).
    pub fn call(&self) -> &ToolCall {
        &self.call
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.call.name
    }

    /// The call's id ([`ToolCall::id`]).
    pub fn id(&self) -> Option<&str> {
        self.call.id.as_deref()
    }

    /// The arguments, as the tool read them.
    pub fn arguments(&self) -> &Value {
        &self.arguments
    }

    /// The tool's MCP `annotations` (`readOnlyHint`, `destructiveHint`, `idempotentHint`,
    /// `openWorldHint`, `title`), if it has any: a derived tool's from its `#[tool(..)]` hints,
    /// a run-time tool's from [`DynamicTool::with_annotations`](crate::DynamicTool::with_annotations)
    /// (an MCP server's tool: as the server lists it).
    pub fn annotations(&self) -> Option<&Value> {
        self.annotations.as_ref()
    }

    /// The decision taken on it, if one was.
    pub fn decision(&self) -> Option<&Decision> {
        self.decision.as_ref()
    }
}

/// What a person decided for a [`HeldCall`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Run it.
    Approved,
    /// Do not run it; the model reads an error result that gives the reason.
    Denied {
        /// Why, for the model to read (may be empty).
        reason: String,
    },
}

/// A turn whose calls wait, some of them, for a person: the results of the calls that ran, and
/// the calls held ([`Turn::pending`](crate::Turn::pending)). Approve or deny each held call,
/// then [`Runner::resume`](crate::Runner::resume) runs the approved ones and gives the whole
/// turn's results.
///
/// It is `Serialize` and `Deserialize`: it can wait in a database, and be resumed by another
/// process with a runner of the same tools.
///
/// ```
/// use toolgen::Pending;
/// # use serde::Deserialize;
/// # use toolgen::{Handler, Invocation, Provider, Runner, Tool, ToolCall, ToolError, ToolSet};
/// # /// Delete a file.
/// # #[derive(Tool, Deserialize)]
/// # #[tool(needs_approval)]
/// # struct DeleteFile { path: String }
/// # impl Handler<()> for DeleteFile {
/// #     type Output = String;
/// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<String, ToolError> { Ok(format!("deleted {}", self.path)) }
/// # }
/// # #[derive(ToolSet)]
/// # enum Tools { Delete(DeleteFile) }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let mut runner = Runner::<Tools, ()>::new(());
/// let calls = [
///     ToolCall::new("delete_file", r#"{"path": "a.txt"}"#).with_id("1"),
///     ToolCall::new("delete_file", r#"{"path": "b.txt"}"#).with_id("2"),
/// ];
/// let turn = runner.run(Provider::Anthropic, &calls).await;
/// let saved = serde_json::to_string(&turn.pending().unwrap()).unwrap();
///
/// // Later, perhaps in another process:
/// let mut pending: Pending = serde_json::from_str(&saved).unwrap();
/// pending.approve(0).unwrap();
/// pending.deny(1, "keep b.txt").unwrap();
/// let turn = runner.resume(&pending).await.unwrap();
/// assert_eq!(turn.results()[0].to_text(), "deleted a.txt");
/// assert_eq!(turn.results()[1].to_text(), "the user denied this call of `delete_file`: keep b.txt");
/// # });
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "Saved", into = "Saved")]
pub struct Pending {
    provider: Provider,
    slots: Vec<Slot>,
    choice: Option<ToolChoice>,
}

/// [`Pending`] as it is written: the same, the held calls' places left to their order.
#[derive(Serialize, Deserialize)]
struct Saved {
    provider: Provider,
    calls: Vec<Slot>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    choice: Option<ToolChoice>,
}

impl From<Saved> for Pending {
    fn from(saved: Saved) -> Self {
        let mut slots = saved.calls;
        for (index, slot) in slots.iter_mut().enumerate() {
            if let Slot::Held(held) = slot {
                held.index = index;
            }
        }
        Pending {
            provider: saved.provider,
            slots,
            choice: saved.choice,
        }
    }
}

impl From<Pending> for Saved {
    fn from(pending: Pending) -> Self {
        Saved {
            provider: pending.provider,
            calls: pending.slots,
            choice: pending.choice,
        }
    }
}

/// One call of a [`Pending`] turn: run, with its result, or held.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Slot {
    Done { call: ToolCall, result: ToolResult },
    Held(HeldCall),
}

impl Pending {
    /// The pending turn of `provider`'s calls, each run or held, made under `choice` (where
    /// [`Runner::run_with_choice`](crate::Runner::run_with_choice) ran it).
    pub(crate) fn new(provider: Provider, slots: Vec<Slot>, choice: Option<ToolChoice>) -> Self {
        Pending {
            provider,
            slots,
            choice,
        }
    }

    /// The provider the calls came from.
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The tool choice of the turn's request, where the turn ran with one
    /// ([`Runner::run_with_choice`](crate::Runner::run_with_choice)): a resume runs only the
    /// calls it allows, as the turn did.
    ///
    /// ```
    /// # use serde::Deserialize;
    /// # use toolgen::{Allowed, Handler, Invocation, Pending, Provider, Runner, Tool, ToolCall, ToolChoice, ToolError, ToolSet};
    /// # /// Delete a file.
    /// # #[derive(Tool, Deserialize)]
    /// # #[tool(needs_approval)]
    /// # struct DeleteFile { path: String }
    /// # impl Handler<()> for DeleteFile {
    /// #     type Output = String;
    /// #     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<String, ToolError> { Ok(format!("deleted {}", self.path)) }
    /// # }
    /// # #[derive(ToolSet)]
    /// # enum Tools { Delete(DeleteFile) }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let choice = ToolChoice::allowed(["delete_file"], Allowed::Required);
    /// let call = ToolCall::new("delete_file", r#"{"path": "a.txt"}"#).with_id("1");
    /// let turn = Runner::<Tools, ()>::new(()).run_with_choice(Provider::OpenAiChat, &[call], &choice).await;
    /// let saved = serde_json::to_string(&turn.pending().unwrap()).unwrap();
    /// let pending: Pending = serde_json::from_str(&saved).unwrap();
    /// assert_eq!(pending.choice(), Some(&choice));
    /// # });
    /// ```
    pub fn choice(&self) -> Option<&ToolChoice> {
        self.choice.as_ref()
    }

    /// The calls held, in call order.
    pub fn held(&self) -> Vec<&HeldCall> {
        self.slots
            .iter()
            .filter_map(|slot| match slot {
                Slot::Held(held) => Some(held),
                Slot::Done { .. } => None,
            })
            .collect()
    }

    /// Approves the held call at `index` among the turn's calls ([`HeldCall::index`]); an
    /// error when no call there is held. A decision can be changed until the resume.
    pub fn approve(&mut self, index: usize) -> Result<(), ResumeError> {
        self.decide(index, Decision::Approved)
    }

    /// Denies the held call at `index` ([`HeldCall::index`]): it does not run, and the model
    /// reads an error result that gives `reason`. An error when no call there is held.
    pub fn deny(&mut self, index: usize, reason: impl Into<String>) -> Result<(), ResumeError> {
        self.decide(
            index,
            Decision::Denied {
                reason: reason.into(),
            },
        )
    }

    /// Approves every held call.
    pub fn approve_all(&mut self) {
        for slot in &mut self.slots {
            if let Slot::Held(held) = slot {
                held.decision = Some(Decision::Approved);
            }
        }
    }

    fn decide(&mut self, index: usize, decision: Decision) -> Result<(), ResumeError> {
        match self.slots.get_mut(index) {
            Some(Slot::Held(held)) => {
                held.decision = Some(decision);
                Ok(())
            }
            _ => Err(ResumeError::NotHeld { index }),
        }
    }

    /// The calls, each run or held, in call order.
    pub(crate) fn slots(&self) -> &[Slot] {
        &self.slots
    }
}

/// The error result of a call the person denied, which the model reads.
pub(crate) fn denied(name: &str, reason: &str) -> ToolResult {
    if reason.is_empty() {
        ToolResult::error(format!("the user denied this call of `{name}`"))
    } else {
        ToolResult::error(format!("the user denied this call of `{name}`: {reason}"))
    }
}

/// The result a held call has in its [`Turn`](crate::Turn) until it is decided.
pub(crate) fn waiting(name: &str) -> ToolResult {
    ToolResult::error(format!(
        "this call of `{name}` waits for the user's approval"
    ))
}

/// Why a [`Pending`] turn cannot be decided or resumed as asked. A resume that fails runs
/// nothing: deny the call it names (or wait for what it needs) and resume again.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResumeError {
    /// No call is held at this place among the turn's calls.
    NotHeld {
        /// The place asked for.
        index: usize,
    },
    /// A held call has no decision yet.
    Undecided {
        /// Its place among the turn's calls.
        index: usize,
        /// Its tool.
        tool: String,
    },
    /// An approved call cannot run as it was approved: its tool is gone (or no longer offered),
    /// the tool choice of its turn does not allow it, its arguments no longer parse, or they
    /// now read otherwise than the person saw them (the tool's schema changed).
    Changed {
        /// Its place among the turn's calls.
        index: usize,
        /// Its tool.
        tool: String,
        /// What changed.
        reason: String,
    },
}

impl std::fmt::Display for ResumeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResumeError::NotHeld { index } => write!(f, "no call is held at place {index}"),
            ResumeError::Undecided { index, tool } => write!(
                f,
                "the call of `{tool}` at place {index} is neither approved nor denied"
            ),
            ResumeError::Changed {
                index,
                tool,
                reason,
            } => write!(
                f,
                "the approved call of `{tool}` at place {index} cannot run as approved: {reason}"
            ),
        }
    }
}

impl std::error::Error for ResumeError {}

/// A call's arguments as JSON, as a derived tool read them: blank text as `{}`, an object sent
/// as a JSON string as the object (the parser's tolerances).
pub(crate) fn arguments_value(text: &str) -> Value {
    if text.trim().is_empty() {
        return Value::Object(serde_json::Map::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::String(inner)) => match serde_json::from_str::<Value>(&inner) {
            Ok(object @ Value::Object(_)) => object,
            _ => Value::String(inner),
        },
        Ok(value) => value,
        Err(_) => Value::String(text.to_owned()),
    }
}
