//! A served call's elicitations: each [`Invocation::elicit`](crate::Invocation::elicit) asks the
//! client that made the call, as its protocol version says. `2025-11-25`: an `elicitation/create`
//! request to the client while the call runs. `2026-07-28` forbids requests from the server: the
//! call ends with an `InputRequiredResult` holding the question, the client calls again with the
//! answer, and the handler runs again from the start, its earlier questions answered from the
//! answers it was given (kept in `requestState`, sealed: [`super::state`]).

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::model::{
    ClientResult, CustomNotification, ElicitRequest as RmcpElicitRequest, ElicitRequestParams,
    ElicitResult, ElicitationAction, ElicitationCapability, ElicitationSchema, ErrorCode,
    InputRequest, InputRequiredResult, ServerNotification, ServerRequest,
};
use rmcp::model::{GetExtensions, RequestId};
use rmcp::service::{OriginatingRequestId, Peer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::state::StateKey;

use crate::run::elicit::{
    ElicitAnswer, ElicitError, ElicitFuture, ElicitMode, ElicitRequest, Elicited, Elicitor,
};

/// The elicitor of one `tools/call`.
pub(crate) struct CallElicitor {
    peer: Peer<RoleServer>,
    /// The `tools/call` request's id: a question asked while it runs belongs to it.
    call_id: Option<RequestId>,
    /// What the client declared it can answer (for this request, from `2026-07-28` on).
    capability: Option<ElicitationCapability>,
    /// `2026-07-28`'s rounds; `None` before.
    rounds: Option<Rounds>,
    /// The pages the call cannot go on without ([`Elicitor::require`]), each with its key in
    /// `inputRequests` (`2026-07-28`).
    required: Mutex<Vec<(String, ElicitRequestParams)>>,
}

/// The rounds of a call at `2026-07-28`: the answers given so far, by key, and the question
/// that ends this round, if the handler asked one not yet answered; the key that seals the
/// state, and what it is bound to ([`super::state::binding`]).
struct Rounds {
    answered: BTreeMap<String, Value>,
    asked: AtomicUsize,
    needed: Mutex<Option<(String, InputRequest)>>,
    key: Arc<StateKey>,
    binding: Vec<u8>,
}

impl Rounds {
    /// The result that ends this round with `requests`: `requestState` holds the answers so
    /// far and the requests' keys, sealed for the call.
    fn end(&self, requests: BTreeMap<String, InputRequest>) -> InputRequiredResult {
        let state = State {
            answered: self.answered.clone(),
            asked: requests.keys().cloned().collect(),
        };
        // (A map of JSON values writes to a string without fail.)
        let state = serde_json::to_string(&state).unwrap_or_default();
        InputRequiredResult::new(Some(requests), Some(self.key.seal(&self.binding, &state)))
    }

    /// Whether the person declined or cancelled the question `key` (a page required again is
    /// not asked again then: the call ends with the handler's error).
    fn refused(&self, key: &str) -> bool {
        let answer = self.answered.get(key).cloned();
        let answer = answer.and_then(|answer| serde_json::from_value::<ElicitResult>(answer).ok());
        answer.is_some_and(|answer| !matches!(answer_of(answer).choice(), Elicited::Accepted(_)))
    }
}

/// MCP `2025-11-25`'s code of the URL-elicitation-required error.
const URL_ELICITATION_REQUIRED: ErrorCode = ErrorCode(-32042);

/// What a `requestState` holds (sealed): the answers so far, and the keys of the questions of
/// the round it ends, whose answers the retry's `inputResponses` give.
#[derive(Serialize, Deserialize, Default)]
struct State {
    answered: BTreeMap<String, Value>,
    asked: Vec<String>,
}

impl CallElicitor {
    /// The elicitor of the call `call_id` from a client of `2025-11-25` or older, over `peer`.
    pub(crate) fn asking(
        peer: Peer<RoleServer>,
        call_id: RequestId,
        capability: Option<ElicitationCapability>,
    ) -> Self {
        CallElicitor {
            peer,
            call_id: Some(call_id),
            capability,
            rounds: None,
            required: Mutex::new(Vec::new()),
        }
    }

    /// The elicitor of a call from a client of `2026-07-28`, with the answers of the rounds
    /// before: those of `requestState` (as [`CallElicitor::input_required`] sealed it with
    /// `key` for the call `binding`) and the `inputResponses` of this one to the questions the
    /// state says were asked (any other response is not taken). A state this server did not
    /// seal for this call, or that was changed, is an invalid-params error.
    pub(crate) fn in_rounds(
        peer: Peer<RoleServer>,
        capability: Option<ElicitationCapability>,
        (state, responses): (Option<&str>, Option<BTreeMap<String, Value>>),
        key: Arc<StateKey>,
        binding: Vec<u8>,
    ) -> Result<Self, ErrorData> {
        let state = match state {
            None => State::default(),
            Some(state) => key
                .open(&binding, state)
                .and_then(|payload| serde_json::from_str::<State>(payload).ok())
                .ok_or_else(|| {
                    ErrorData::invalid_params(
                        "`requestState` was not written by this server for this call, or was \
                         changed since: call the tool again without it",
                        None,
                    )
                })?,
        };
        let mut answered = state.answered;
        let mut responses = responses.unwrap_or_default();
        for key in state.asked {
            if let Some(response) = responses.remove(&key) {
                answered.insert(key, response);
            }
        }
        Ok(CallElicitor {
            peer,
            call_id: None,
            capability,
            rounds: Some(Rounds {
                answered,
                asked: AtomicUsize::new(0),
                needed: Mutex::new(None),
                key,
                binding,
            }),
            required: Mutex::new(Vec::new()),
        })
    }

    /// The result that ends the round, if the handler asked what is not answered yet: the
    /// question, and as `requestState` the answers so far and the question's key, sealed.
    pub(crate) fn input_required(&self) -> Option<InputRequiredResult> {
        let rounds = self.rounds.as_ref()?;
        let (key, request) = super::lock(&rounds.needed).take()?;
        Some(rounds.end(BTreeMap::from([(key, request)])))
    }

    /// How the call ends where its handler required pages ([`Elicitor::require`]): at
    /// `2026-07-28` an input-required result asking for them, before it the `-32042` error
    /// (`URLElicitationRequiredError`) listing them. `None` where it required none.
    pub(crate) fn required(&self) -> Option<Result<InputRequiredResult, ErrorData>> {
        let required = std::mem::take(&mut *super::lock(&self.required));
        if required.is_empty() {
            return None;
        }
        if let Some(rounds) = &self.rounds {
            let requests = required.into_iter().map(|(key, params)| {
                let request = InputRequest::Elicitation(RmcpElicitRequest::new(params));
                (key, request)
            });
            return Some(Ok(rounds.end(requests.collect())));
        }
        let message = match required.len() {
            1 => "URL elicitation required",
            _ => "URL elicitations required",
        };
        let elicitations: Vec<Value> = (required.into_iter())
            .filter_map(|(_, params)| serde_json::to_value(params).ok())
            .collect();
        let data = serde_json::json!({ "elicitations": elicitations });
        Some(Err(ErrorData::new(
            URL_ELICITATION_REQUIRED,
            message,
            Some(data),
        )))
    }

    /// Why the client cannot answer a question in `mode`, if it cannot.
    fn refusal(&self, mode: ElicitMode) -> Option<ElicitError> {
        let Some(capability) = &self.capability else {
            return Some(ElicitError::unsupported(
                "the client did not declare the `elicitation` capability",
            ));
        };
        // (A capability without modes is form mode alone, as `2025-06-18` declared it.)
        let form = capability.form.is_some() || capability.url.is_none();
        match mode {
            ElicitMode::Form if !form => Some(ElicitError::unsupported(
                "the client declared `elicitation` without `form`",
            )),
            ElicitMode::Url if capability.url.is_none() => Some(ElicitError::unsupported(
                "the client declared `elicitation` without `url`",
            )),
            _ => None,
        }
    }
}

/// rmcp's parameters of `request`.
fn params_of(request: ElicitRequest, rounds: bool) -> Result<ElicitRequestParams, ElicitError> {
    Ok(match request {
        ElicitRequest::Form {
            message,
            requested_schema,
        } => ElicitRequestParams::FormElicitationParams {
            meta: None,
            message,
            requested_schema: serde_json::from_value::<ElicitationSchema>(requested_schema)
                .map_err(|error| ElicitError::failed(format!("the form's schema: {error}")))?,
        },
        ElicitRequest::Url {
            message,
            url,
            elicitation_id,
        } => ElicitRequestParams::UrlElicitationParams {
            meta: None,
            message,
            url,
            // (`2026-07-28` has no ids: rmcp leaves an empty one out.)
            elicitation_id: if rounds {
                String::new()
            } else {
                elicitation_id
            },
        },
    })
}

/// toolgen's answer of rmcp's `result`.
fn answer_of(result: ElicitResult) -> ElicitAnswer {
    match result.action {
        ElicitationAction::Accept => ElicitAnswer::accept(result.content),
        ElicitationAction::Decline => ElicitAnswer::decline(),
        // (`cancel`, and any action a later version adds: no choice was made.)
        _ => ElicitAnswer::cancel(),
    }
}

impl Elicitor for CallElicitor {
    fn elicit(&self, request: ElicitRequest) -> ElicitFuture<'_> {
        Box::pin(async move {
            if let Some(refusal) = self.refusal(request.mode()) {
                return Err(refusal);
            }
            let params = params_of(request, self.rounds.is_some())?;
            let elicit = RmcpElicitRequest::new(params);
            let Some(rounds) = &self.rounds else {
                let mut request = ServerRequest::ElicitRequest(elicit);
                // Over streamable HTTP the question goes down the call's own SSE stream (a
                // client need not open the standalone one). rmcp marks a request sent from the
                // handler's task so; marked here, it holds from any task the handler uses.
                if let Some(id) = &self.call_id {
                    request
                        .extensions_mut()
                        .insert(OriginatingRequestId(id.clone()));
                }
                return match self.peer.send_request(request).await {
                    Ok(ClientResult::ElicitResult(result)) => Ok(answer_of(result)),
                    Ok(_) => Err(ElicitError::failed("the client answered something else")),
                    Err(error) => Err(ElicitError::failed(error.to_string())),
                };
            };
            // The handler asks in the same order each round: the n-th question has one key.
            let key = format!("elicit-{}", rounds.asked.fetch_add(1, Ordering::SeqCst));
            if let Some(answer) = rounds.answered.get(&key) {
                return serde_json::from_value::<ElicitResult>(answer.clone())
                    .map(answer_of)
                    .map_err(|error| ElicitError::failed(format!("the answer `{key}`: {error}")));
            }
            // Not answered yet: the round ends here (the server sees the question after
            // polling the call, and drops it), so this never completes.
            super::lock(&rounds.needed).get_or_insert((key, InputRequest::Elicitation(elicit)));
            std::future::pending().await
        })
    }

    fn can_ask(&self, mode: ElicitMode) -> bool {
        self.refusal(mode).is_none()
    }

    fn require(&self, request: ElicitRequest) -> bool {
        let ElicitRequest::Url { elicitation_id, .. } = &request else {
            return false;
        };
        let key = format!("url-{elicitation_id}");
        let refused = self
            .rounds
            .as_ref()
            .is_some_and(|rounds| rounds.refused(&key));
        if refused || self.refusal(request.mode()).is_some() {
            return false;
        }
        let Ok(params) = params_of(request, self.rounds.is_some()) else {
            return false;
        };
        super::lock(&self.required).push((key, params));
        true
    }

    fn complete(&self, elicitation_id: &str) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        let notification = CustomNotification::new(
            "notifications/elicitation/complete",
            Some(serde_json::json!({ "elicitationId": elicitation_id })),
        );
        Box::pin(async move {
            // (`2026-07-28` has no such notification.)
            if self.rounds.is_none() {
                let notification = ServerNotification::CustomNotification(notification);
                let _ = self.peer.send_notification(notification).await;
            }
        })
    }
}
