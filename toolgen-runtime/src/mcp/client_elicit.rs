//! [`McpToolset`](super::McpToolset)'s answers to a server that asks (elicitation): who answers
//! (the client of the call's caller, as a gateway's is; else the toolset's callback), the calls a
//! `2025-11-25` server's `elicitation/create` can belong to, and the answers of a `2026-07-28`
//! `InputRequiredResult`'s questions.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rmcp::ErrorData;
use rmcp::model::{
    ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction,
    ElicitationCapability, FormElicitationCapability, InputRequest, InputRequests, InputResponses,
    UrlElicitationCapability,
};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::client::lock;
use crate::run::elicit::{ElicitAnswer, ElicitError, ElicitMode, ElicitRequest, Elicited};
use crate::run::handler::Invocation;

/// A question an MCP server asked an [`McpToolset`](super::McpToolset)'s client, as its
/// [`on_elicit`](super::McpToolsetBuilder::on_elicit) callback gets it: the question (a form's
/// message and `requestedSchema`, or a URL's message, URL and id), the server, and the call it
/// belongs to (the tool's name as the model called it, and the call's id) where that can be known.
///
/// ```
/// use toolgen::{ElicitAnswer, ElicitRequest};
/// use toolgen_runtime::McpElicitation; // `toolgen::McpElicitation` with toolgen's feature `mcp`
///
/// fn answer(question: &McpElicitation) -> ElicitAnswer {
///     match question.request() {
///         ElicitRequest::Url { .. } => ElicitAnswer::decline(), // no browser here
///         _ if question.tool() == Some("delete_repo") => ElicitAnswer::cancel(),
///         _ => ElicitAnswer::accept(Some(serde_json::json!({"ok": true}))),
///     }
/// }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct McpElicitation {
    request: ElicitRequest,
    server: String,
    tool: Option<String>,
    call_id: Option<String>,
}

impl McpElicitation {
    /// The question.
    pub fn request(&self) -> &ElicitRequest {
        &self.request
    }

    /// The question, taken.
    pub fn into_request(self) -> ElicitRequest {
        self.request
    }

    /// The server's name, as it gave it.
    pub fn server(&self) -> &str {
        &self.server
    }

    /// The tool whose call the question belongs to, by its name as the model called it
    /// (prefixed, if the toolset prefixes); `None` where that cannot be known (at `2025-11-25`,
    /// a question that comes while several of the server's calls run).
    pub fn tool(&self) -> Option<&str> {
        self.tool.as_deref()
    }

    /// The id of the model's call the question belongs to, where it has one and it can be known.
    pub fn call_id(&self) -> Option<&str> {
        self.call_id.as_deref()
    }
}

/// The future of an [`on_elicit`](super::McpToolsetBuilder::on_elicit) callback.
type AnswerFuture = Pin<Box<dyn Future<Output = ElicitAnswer> + Send>>;

/// An [`on_elicit`](super::McpToolsetBuilder::on_elicit) callback.
pub(crate) type Callback = Arc<dyn Fn(McpElicitation) -> AnswerFuture + Send + Sync>;

/// An [`on_elicitation_complete`](super::McpToolsetBuilder::on_elicitation_complete) callback.
pub(crate) type OnComplete = Arc<dyn Fn(&str) + Send + Sync>;

/// Who answers the questions of a toolset's server, as set when it connects.
#[derive(Clone, Default)]
pub(crate) struct Answering {
    pub(crate) callback: Option<Callback>,
    pub(crate) on_complete: Option<OnComplete>,
    /// The modes declared when connecting (`None`: both with a callback, none without).
    pub(crate) modes: Option<Vec<ElicitMode>>,
}

impl Answering {
    /// The modes the client declares when it connects (the `elicitation` capability of
    /// `initialize`, and of every request at `2026-07-28` unless the call says otherwise).
    pub(crate) fn declared(&self) -> Vec<ElicitMode> {
        match (&self.modes, &self.callback) {
            (Some(modes), _) => modes.clone(),
            (None, Some(_)) => vec![ElicitMode::Form, ElicitMode::Url],
            (None, None) => Vec::new(),
        }
    }

    /// Whether the callback answers questions in `mode`.
    fn callback_takes(&self, mode: ElicitMode) -> bool {
        self.callback.is_some() && self.declared().contains(&mode)
    }
}

/// The `elicitation` capability of `modes`, none for no mode.
pub(crate) fn capability(modes: &[ElicitMode]) -> Option<ElicitationCapability> {
    let mut capability = ElicitationCapability::new();
    for mode in modes {
        capability = match mode {
            ElicitMode::Form => capability.with_form(FormElicitationCapability::new()),
            ElicitMode::Url => capability.with_url(UrlElicitationCapability::new()),
        };
    }
    (!modes.is_empty()).then_some(capability)
}

/// What a server asks of a running call, sent to the call's own task.
pub(crate) enum Question {
    /// A `2025-11-25` `elicitation/create`, and where its answer goes.
    Ask(
        ElicitRequest,
        oneshot::Sender<Result<ElicitAnswer, ElicitError>>,
    ),
    /// A `notifications/elicitation/complete` for a URL the call asked for.
    Complete(String),
}

/// A call in flight: where its questions go, and the URL elicitations it was asked.
struct InFlight {
    questions: mpsc::UnboundedSender<Question>,
    urls: Vec<String>,
}

/// The questions of one toolset's server: who answers, and the calls they can belong to.
pub(crate) struct Asking {
    pub(crate) answering: Answering,
    /// The server's name, once connected.
    pub(crate) server: OnceLock<String>,
    calls: Mutex<HashMap<u64, InFlight>>,
    next: AtomicU64,
}

/// A call's place among the calls in flight; it leaves when dropped.
pub(crate) struct Registered<'s> {
    asking: &'s Asking,
    key: u64,
    /// The questions the server asks while the call runs (`2025-11-25`).
    pub(crate) questions: mpsc::UnboundedReceiver<Question>,
}

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        lock(&self.asking.calls).remove(&self.key);
    }
}

impl Asking {
    pub(crate) fn new(answering: Answering) -> Self {
        Asking {
            answering,
            server: OnceLock::new(),
            calls: Mutex::new(HashMap::new()),
            next: AtomicU64::new(0),
        }
    }

    fn server(&self) -> String {
        self.server
            .get()
            .cloned()
            .unwrap_or_else(|| "MCP server".to_owned())
    }

    /// Puts a call among the calls in flight.
    pub(crate) fn register(&self) -> Registered<'_> {
        let (sender, questions) = mpsc::unbounded_channel();
        let key = self.next.fetch_add(1, Ordering::Relaxed);
        let entry = InFlight {
            questions: sender,
            urls: Vec::new(),
        };
        lock(&self.calls).insert(key, entry);
        Registered {
            asking: self,
            key,
            questions,
        }
    }

    /// The client capabilities of a `2026-07-28` request of `call`: the `elicitation` modes that
    /// someone can answer for it (its caller's client, as a gateway's; the callback).
    pub(crate) fn capabilities_for(&self, call: &Invocation<'_>) -> ClientCapabilities {
        let modes: Vec<ElicitMode> = [ElicitMode::Form, ElicitMode::Url]
            .into_iter()
            .filter(|mode| {
                let caller = call.elicitor_if_any();
                caller.is_some_and(|elicitor| elicitor.can_ask(*mode))
                    || self.answering.callback_takes(*mode)
            })
            .collect();
        // (The client's other capabilities as it declares them when it connects.)
        let mut capabilities = ClientConfig::default().capabilities;
        capabilities.elicitation = capability(&modes);
        capabilities
    }

    /// Answers a `2025-11-25` server's `elicitation/create`: in the call it belongs to (the only
    /// one in flight), else by the callback without a call.
    pub(crate) async fn asked_by_server(
        &self,
        params: ElicitRequestParams,
    ) -> Result<ElicitResult, ErrorData> {
        let request = request_of(params).map_err(|error| ErrorData::invalid_params(error, None))?;
        let mode = request.mode();
        let owner = {
            let mut calls = lock(&self.calls);
            let only = (calls.len() == 1)
                .then(|| calls.values_mut().next())
                .flatten();
            only.map(|call| {
                if let ElicitRequest::Url { elicitation_id, .. } = &request {
                    call.urls.push(elicitation_id.clone());
                }
                call.questions.clone()
            })
        };
        let answer = match owner {
            Some(owner) => {
                let (reply, answer) = oneshot::channel();
                let _ = owner.send(Question::Ask(request, reply));
                answer.await.unwrap_or_else(|_| {
                    Err(ElicitError::failed(
                        "the call the question belongs to ended before it was answered",
                    ))
                })
            }
            None => self.ask(request, None).await,
        };
        answer
            .map(|answer| result_of(answer, mode))
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))
    }

    /// Passes a server's `notifications/elicitation/complete` on: to the call that asked for
    /// the URL, else to the completion callback.
    pub(crate) fn completed(&self, params: Option<&Value>) {
        let Some(id) = params
            .and_then(|params| params.get("elicitationId"))
            .and_then(Value::as_str)
        else {
            return;
        };
        let owner = lock(&self.calls)
            .values()
            .find(|call| call.urls.iter().any(|url| url == id))
            .map(|call| call.questions.clone());
        let sent = owner.is_some_and(|owner| owner.send(Question::Complete(id.to_owned())).is_ok());
        if !sent && let Some(on_complete) = &self.answering.on_complete {
            on_complete(id);
        }
    }

    /// Answers `question`, asked in the call of `tool` that `call` is.
    pub(crate) async fn answer(&self, question: Question, tool: &str, call: &Invocation<'_>) {
        match question {
            Question::Ask(request, reply) => {
                let answer = self.ask(request, Some((tool, call))).await;
                let _ = reply.send(answer);
            }
            Question::Complete(id) => match call.elicitor_if_any() {
                Some(caller) => caller.complete(&id).await,
                None => {
                    if let Some(on_complete) = &self.answering.on_complete {
                        on_complete(&id);
                    }
                }
            },
        }
    }

    /// The answers to a `2026-07-28` `InputRequiredResult`'s questions, asked one after another
    /// in the order of their keys (so that each round asks in the same order).
    pub(crate) async fn answer_inputs(
        &self,
        requests: InputRequests,
        tool: &str,
        call: &Invocation<'_>,
    ) -> Result<InputResponses, String> {
        let mut responses = InputResponses::new();
        for (key, request) in requests {
            let InputRequest::Elicitation(elicit) = request else {
                return Err(format!(
                    "asked for `{key}`, a request other than an elicitation (sampling, roots), \
                     which toolgen's client does not answer"
                ));
            };
            let request = request_of(elicit.params)?;
            let mode = request.mode();
            let answer = self
                .ask(request, Some((tool, call)))
                .await
                .map_err(|error| error.to_string())?;
            let answer =
                serde_json::to_value(result_of(answer, mode)).map_err(|error| error.to_string())?;
            responses.insert(key, answer);
        }
        Ok(responses)
    }

    /// Asks `request`, of the call of `tool` that `call` is where it is known: the call's caller
    /// (a gateway's client) where it can be asked in the mode, else the callback where it takes
    /// the mode; else nobody can answer.
    async fn ask(
        &self,
        mut request: ElicitRequest,
        call: Option<(&str, &Invocation<'_>)>,
    ) -> Result<ElicitAnswer, ElicitError> {
        let mode = request.mode();
        let caller = call.and_then(|(_, call)| call.elicitor_if_any());
        if let Some(caller) = caller.filter(|caller| caller.can_ask(mode)) {
            // (`2026-07-28` has no URL ids; a caller of `2025-11-25` needs one.)
            if let ElicitRequest::Url { elicitation_id, .. } = &mut request
                && elicitation_id.is_empty()
            {
                let n = self.next.fetch_add(1, Ordering::Relaxed);
                *elicitation_id = format!("toolgen-{n}");
            }
            return caller.elicit(request).await;
        }
        let Some(callback) = self
            .answering
            .callback
            .as_ref()
            .filter(|_| self.answering.callback_takes(mode))
        else {
            let what = match mode {
                ElicitMode::Form => "a form",
                ElicitMode::Url => "a URL",
            };
            return Err(ElicitError::unsupported(format!(
                "nobody here can answer {what}: no `on_elicit` callback takes it, and the call \
                 did not come from a client that declared it"
            )));
        };
        let question = McpElicitation {
            request,
            server: self.server(),
            tool: call.map(|(tool, _)| tool.to_owned()),
            call_id: call.and_then(|(_, call)| call.id()).map(str::to_owned),
        };
        Ok(callback(question).await)
    }
}

/// toolgen's question of rmcp's parameters.
fn request_of(params: ElicitRequestParams) -> Result<ElicitRequest, String> {
    match params {
        ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } => {
            let schema = serde_json::to_value(requested_schema)
                .map_err(|error| format!("the form's schema: {error}"))?;
            Ok(ElicitRequest::form(message, schema))
        }
        ElicitRequestParams::UrlElicitationParams {
            message,
            url,
            elicitation_id,
            ..
        } => Ok(ElicitRequest::url(message, url, elicitation_id)),
        _ => Err("an elicitation of a mode toolgen does not know".to_owned()),
    }
}

/// rmcp's result of an answer to a question in `mode` (a URL's has no content).
fn result_of(answer: ElicitAnswer, mode: ElicitMode) -> ElicitResult {
    match answer.into_choice() {
        Elicited::Accepted(content) => {
            let result = ElicitResult::new(ElicitationAction::Accept);
            match (content, mode) {
                (Some(content), ElicitMode::Form) => result.with_content(content),
                _ => result,
            }
        }
        Elicited::Declined => ElicitResult::new(ElicitationAction::Decline),
        Elicited::Cancelled => ElicitResult::new(ElicitationAction::Cancel),
    }
}
