//! Tools that run: a [`Handler`] per tool type, the call it answers ([`Invocation`]), its
//! failures ([`ToolError`]), and the dispatch of a [`ToolSet`]'s calls to their handlers
//! ([`run_call`]). Nothing here needs an async runtime; the [`Runner`](crate::Runner), which runs
//! a turn's calls concurrently with timeouts, is behind the `run` feature.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::provider::Provider;
use crate::run::elicit::{
    ElicitError, ElicitRequest, Elicited, Elicitor, Form, parse_answer, requested_schema,
};
use crate::run::principal::Principal;
use crate::schema::ToolSchema;
use crate::wire::call::ToolCall;
use crate::wire::result::ToolResult;
use crate::wire::set::{NoTools, ToolSet};

/// What a tool does when the model calls it: an async function of the parsed arguments (`self`),
/// the application's context (a database pool, an HTTP client, credentials) and the call.
///
/// `Output` is any `Serialize` type with a schema (`#[derive(ToolSchema)]`, or a std type): a
/// `String` (or anything that serializes to a JSON string) goes to the model as text, anything
/// else as JSON. When it is an object with named fields, its schema is the tool's MCP
/// `outputSchema` ([`Runner::definitions`](crate::Runner::definitions)); return a
/// `serde_json::Value` for output without a schema. An `Err` goes to the model as an error
/// result ([`ToolError`]; `?` converts any `std::error::Error`).
///
/// `#[derive(ToolSet)]` dispatches a set's calls to its tools' handlers when they all have one for
/// the same context type: see [`run_call`], and the [`Runner`](crate::Runner) for whole turns.
///
/// ```
/// use serde::Deserialize;
/// use toolgen::{Handler, Invocation, Tool, ToolError};
///
/// struct Db { cities: Vec<(&'static str, f64)> }
///
/// /// Get the current temperature in a city.
/// #[derive(Tool, Deserialize)]
/// struct GetWeather { city: String }
///
/// impl Handler<Db> for GetWeather {
///     type Output = f64;
///     async fn handle(self, db: &Db, _call: &Invocation<'_>) -> Result<f64, ToolError> {
///         db.cities
///             .iter()
///             .find(|(name, _)| *name == self.city)
///             .map(|(_, temp)| *temp)
///             .ok_or_else(|| ToolError::new(format!("no city named `{}`", self.city)))
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "the tool `{Self}` has no handler for the context `{Ctx}`",
    label = "no `impl Handler<{Ctx}> for {Self}`",
    note = "every tool of a set the runner runs needs `impl toolgen::Handler<{Ctx}> for {Self}`, with one context type for the whole set"
)]
pub trait Handler<Ctx: ?Sized>: Sized + Send {
    /// What the tool returns on success: a `Serialize` type with a schema, or a
    /// [`ToolResult`] (for images and files, [`ToolResult::with_image`]).
    type Output: ToolOutput;

    /// Runs the tool. The future must be `Send` (a runner may poll it from any thread); long
    /// work should watch [`Invocation::cancelled`].
    fn handle(
        self,
        ctx: &Ctx,
        call: &Invocation<'_>,
    ) -> impl Future<Output = Result<Self::Output, ToolError>> + Send;
}

/// The call a [`Handler`] answers: the model's [`ToolCall`] (id, name, arguments as sent), the
/// provider it came from, and a cancellation signal.
///
/// ```
/// use toolgen::{Cancellation, Invocation, Provider, ToolCall};
///
/// let call = ToolCall::new("get_weather", r#"{"city":"Riga"}"#).with_id("call_1");
/// let cancel = Cancellation::new();
/// let invocation = Invocation::new(&call, Provider::OpenAiChat, &cancel);
/// assert_eq!(invocation.id(), Some("call_1"));
/// assert_eq!(invocation.name(), "get_weather");
/// assert!(!invocation.is_cancelled());
/// cancel.cancel();
/// assert!(invocation.is_cancelled());
/// ```
#[derive(Clone, Copy)]
pub struct Invocation<'a> {
    call: &'a ToolCall,
    provider: Provider,
    cancellation: &'a Cancellation,
    progress: Option<&'a (dyn Fn(Progress) + Sync)>,
    principal: Option<&'a Principal>,
    elicitor: Option<&'a dyn Elicitor>,
}

impl std::fmt::Debug for Invocation<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Invocation")
            .field("call", self.call)
            .field("provider", &self.provider)
            .field("cancellation", self.cancellation)
            .field("progress", &self.progress.is_some())
            .field("principal", &self.principal)
            .field("elicitor", &self.elicitor.is_some())
            .finish()
    }
}

impl<'a> Invocation<'a> {
    /// The invocation of `call`, from `provider`, cancelled by `cancellation`.
    pub fn new(call: &'a ToolCall, provider: Provider, cancellation: &'a Cancellation) -> Self {
        Invocation {
            call,
            provider,
            cancellation,
            progress: None,
            principal: None,
            elicitor: None,
        }
    }

    /// The same invocation, made by `principal` (an MCP server with authorization on gives the
    /// identity of each call's access token).
    ///
    /// ```
    /// use toolgen::{Principal, Cancellation, Invocation, Provider, ToolCall};
    ///
    /// let principal = Principal::new(Some("alice"), Some("cli"), ["notes:read"]);
    /// let call = ToolCall::new("read_note", "{}");
    /// let cancel = Cancellation::new();
    /// let invocation = Invocation::new(&call, Provider::Mcp, &cancel).with_principal(&principal);
    /// assert_eq!(invocation.principal().and_then(Principal::subject), Some("alice"));
    /// ```
    #[must_use]
    pub fn with_principal(mut self, principal: &'a Principal) -> Self {
        self.principal = Some(principal);
        self
    }

    /// Who made the call, where the transport knows: an [`McpServer`] served over HTTP with
    /// authorization on gives the subject, client, scopes and claims of the request's access
    /// token. `None` elsewhere.
    ///
    /// [`McpServer`]: https://docs.rs/toolgen-runtime/latest/toolgen_runtime/struct.McpServer.html
    ///
    /// ```
    /// use serde::Deserialize;
    /// use toolgen::{Handler, Invocation, Tool, ToolError};
    ///
    /// /// Read the principal's notes.
    /// #[derive(Tool, Deserialize)]
    /// struct ReadNotes {}
    ///
    /// impl Handler<()> for ReadNotes {
    ///     type Output = String;
    ///     async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<String, ToolError> {
    ///         let user = call.principal().and_then(|principal| principal.subject());
    ///         let user = user.ok_or_else(|| ToolError::new("who is asking?"))?;
    ///         Ok(format!("the notes of {user}"))
    ///     }
    /// }
    /// ```
    pub fn principal(&self) -> Option<&'a Principal> {
        self.principal
    }

    /// The same invocation, whose [`progress`](Invocation::progress) reports go to `sink`
    /// (an MCP server sends them to the client as `notifications/progress`).
    ///
    /// ```
    /// use std::sync::Mutex;
    /// use toolgen::{Cancellation, Invocation, Progress, Provider, ToolCall};
    ///
    /// let seen = Mutex::new(Vec::new());
    /// let sink = |step: Progress| seen.lock().unwrap().push(step.progress);
    /// let call = ToolCall::new("index", "{}");
    /// let cancel = Cancellation::new();
    /// let invocation = Invocation::new(&call, Provider::Mcp, &cancel).with_progress(&sink);
    /// invocation.progress(Progress::new(1.0).total(2.0));
    /// assert_eq!(*seen.lock().unwrap(), [1.0]);
    /// ```
    #[must_use]
    pub fn with_progress(mut self, sink: &'a (dyn Fn(Progress) + Sync)) -> Self {
        self.progress = Some(sink);
        self
    }

    /// Reports how far a long call has come. Where the caller listens (an MCP client that sent
    /// a `progressToken`), it gets the report; elsewhere nothing happens, so a handler can
    /// always report. Each report should say more is done than the one before.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use toolgen::{Handler, Invocation, Progress, Tool, ToolError};
    ///
    /// /// Index every file of a folder.
    /// #[derive(Tool, Deserialize)]
    /// struct IndexFolder { files: Vec<String> }
    ///
    /// impl Handler<()> for IndexFolder {
    ///     type Output = String;
    ///     async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<String, ToolError> {
    ///         let total = self.files.len() as f64;
    ///         for (done, file) in self.files.iter().enumerate() {
    ///             // .. index `file` ..
    ///             call.progress(Progress::new(done as f64 + 1.0).total(total).message(file.as_str()));
    ///         }
    ///         Ok(format!("indexed {} files", self.files.len()))
    ///     }
    /// }
    /// ```
    pub fn progress(&self, progress: Progress) {
        if let Some(sink) = self.progress {
            sink(progress);
        }
    }

    /// The same invocation, whose [`elicit`](Invocation::elicit) questions go to `elicitor`
    /// (an [`McpServer`] asks its client; give one of your own to test a handler).
    ///
    /// [`McpServer`]: https://docs.rs/toolgen-runtime/latest/toolgen_runtime/struct.McpServer.html
    ///
    /// ```
    /// use toolgen::{Cancellation, ElicitAnswer, ElicitFuture, ElicitRequest, Elicitor};
    /// use toolgen::{Invocation, Provider, ToolCall};
    ///
    /// struct Yes;
    /// impl Elicitor for Yes {
    ///     fn elicit(&self, _: ElicitRequest) -> ElicitFuture<'_> {
    ///         Box::pin(async { Ok(ElicitAnswer::accept(None)) })
    ///     }
    /// }
    ///
    /// let call = ToolCall::new("pay", "{}");
    /// let cancel = Cancellation::new();
    /// let invocation = Invocation::new(&call, Provider::Mcp, &cancel).with_elicitor(&Yes);
    /// # drop(invocation);
    /// ```
    #[must_use]
    pub fn with_elicitor(mut self, elicitor: &'a dyn Elicitor) -> Self {
        self.elicitor = Some(elicitor);
        self
    }

    /// Asks the person behind the client for a `T`, with `message` saying what and why (MCP's
    /// `elicitation/create` in form mode): the client shows a form of `T`'s fields, and the
    /// answer is read as arguments are (defaults filled in, constraints checked, errors with
    /// JSON paths). `T` is a struct marked `#[tool(form)]` ([`Form`]): its derive checks that
    /// each field is one a form can hold (strings, numbers, booleans, enums of strings, lists of
    /// those enums), and a field that is not stops the build, spanned at its type.
    ///
    /// Where nobody can be asked (the call did not come over MCP, or the client did not declare
    /// the `elicitation` capability), the error says so at once: nothing waits.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use toolgen::{Elicited, Handler, Invocation, Tool, ToolError, ToolSchema};
    ///
    /// /// Who to send the receipt to.
    /// #[derive(ToolSchema, Deserialize)]
    /// #[tool(form)]
    /// struct Contact {
    ///     /// Your email address.
    ///     #[tool(format = "email")]
    ///     email: String,
    ///     #[serde(default)]
    ///     newsletter: bool,
    /// }
    ///
    /// /// Book a table.
    /// #[derive(Tool, Deserialize)]
    /// struct Book { people: u32 }
    ///
    /// impl Handler<()> for Book {
    ///     type Output = String;
    ///     async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<String, ToolError> {
    ///         match call.elicit::<Contact>("Where should the receipt go?").await? {
    ///             Elicited::Accepted(contact) => Ok(format!("booked; receipt to {}", contact.email)),
    ///             Elicited::Declined | Elicited::Cancelled => Ok("booked, without a receipt".into()),
    ///         }
    ///     }
    /// }
    /// ```
    pub async fn elicit<T>(&self, message: impl Into<String>) -> Result<Elicited<T>, ElicitError>
    where
        T: Form + DeserializeOwned,
    {
        let elicitor = self.elicitor()?;
        let schema = requested_schema::<T>().map_err(|problem| {
            ElicitError::unsupported(format!("a form cannot ask for this type: {problem}"))
        })?;
        let answer = elicitor
            .elicit(ElicitRequest::form(message, schema))
            .await?;
        parse_answer(answer)
    }

    /// Asks the person behind the client to visit `url` (a sign-in, a payment: what must not
    /// pass through the client), with `message` saying why (MCP's URL mode). `Accepted` says
    /// the person agreed to go, not that they are done: the page's own server learns that, and
    /// [`elicitation_complete`](Invocation::elicitation_complete) can tell the client. The
    /// elicitation's id is `elicitation_id`, unique within the server.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use toolgen::{Elicited, Handler, Invocation, Tool, ToolError};
    ///
    /// /// Pay an invoice.
    /// #[derive(Tool, Deserialize)]
    /// struct Pay { invoice: String }
    ///
    /// impl Handler<()> for Pay {
    ///     type Output = &'static str;
    ///     async fn handle(self, _: &(), call: &Invocation<'_>) -> Result<&'static str, ToolError> {
    ///         let url = format!("https://pay.example.com/{}", self.invoice);
    ///         match call.elicit_url("Confirm the payment", &url, &self.invoice).await? {
    ///             Elicited::Accepted(()) => Ok("waiting for the payment"),
    ///             Elicited::Declined | Elicited::Cancelled => Ok("not paid"),
    ///         }
    ///     }
    /// }
    /// ```
    pub async fn elicit_url(
        &self,
        message: impl Into<String>,
        url: impl Into<String>,
        elicitation_id: impl Into<String>,
    ) -> Result<Elicited<()>, ElicitError> {
        let elicitor = self.elicitor()?;
        let request = ElicitRequest::url(message, url, elicitation_id);
        Ok(match elicitor.elicit(request).await?.into_choice() {
            Elicited::Accepted(_) => Elicited::Accepted(()),
            Elicited::Declined => Elicited::Declined,
            Elicited::Cancelled => Elicited::Cancelled,
        })
    }

    /// Ends the call until the person completes what a page asks (a sign-in to a third
    /// party, a payment): the error to return, `Err(call.require_url(..))`. Served over MCP to
    /// a client that declared URL elicitation, the call's answer is then the request to visit
    /// `url`, with `message` saying why, instead of a result: at `2025-11-25` the
    /// URL-elicitation-required error (`-32042`, its `data.elicitations` holding each page
    /// required in the call, `elicitation_id` its `elicitationId`), after which the client
    /// calls again once the person is done; at `2026-07-28` an input-required result asking
    /// for the page, after which the client calls again and the handler runs again (and asks
    /// again while the page's work is not done). Where nobody can be asked, or the person
    /// declined the page (`2026-07-28`), the call's result is this error, which the model
    /// reads: it gives `message`, not the URL.
    ///
    /// The handler learns that the page's work is done from the page's own server (a stored
    /// token, a paid invoice), not from the client; [`elicit_url`](Invocation::elicit_url)
    /// asks and waits instead, where the call can go on without the page.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use toolgen::{Handler, Invocation, Tool, ToolError};
    ///
    /// struct Bank { linked: std::sync::Mutex<Vec<String>> }
    ///
    /// /// Read the balance of the user's bank account.
    /// #[derive(Tool, Deserialize)]
    /// struct Balance { user: String }
    ///
    /// impl Handler<Bank> for Balance {
    ///     type Output = String;
    ///     async fn handle(self, bank: &Bank, call: &Invocation<'_>) -> Result<String, ToolError> {
    ///         if !bank.linked.lock().unwrap().contains(&self.user) {
    ///             let url = format!("https://bank.example.com/link?user={}", self.user);
    ///             let id = format!("link-{}", self.user);
    ///             return Err(call.require_url("Link your bank account first", url, id));
    ///         }
    ///         Ok("1,234.00 EUR".to_owned())
    ///     }
    /// }
    /// ```
    pub fn require_url(
        &self,
        message: impl Into<String>,
        url: impl Into<String>,
        elicitation_id: impl Into<String>,
    ) -> ToolError {
        let message = message.into();
        let error = ToolError::new(format!(
            "this call cannot go on until the user completes a step in their browser: {message}"
        ));
        if let Some(elicitor) = self.elicitor {
            elicitor.require(ElicitRequest::url(message, url, elicitation_id));
        }
        error
    }

    /// Tells the client that the URL elicitation `elicitation_id` is complete (MCP
    /// `2025-11-25`'s `notifications/elicitation/complete`, which a client may use to retry
    /// what waited for it). Nothing happens where nobody listens.
    pub async fn elicitation_complete(&self, elicitation_id: &str) {
        if let Some(elicitor) = self.elicitor {
            elicitor.complete(elicitation_id).await;
        }
    }

    /// Who this call's questions go to, if anyone (a gateway's `McpToolset` passes the questions
    /// of the server it forwards to on to it).
    #[cfg(feature = "mcp")]
    pub(crate) fn elicitor_if_any(&self) -> Option<&'a dyn Elicitor> {
        self.elicitor
    }

    /// The elicitor, or the error of a call where nobody can be asked.
    fn elicitor(&self) -> Result<&'a dyn Elicitor, ElicitError> {
        self.elicitor.ok_or_else(|| {
            ElicitError::unsupported(
                "the call did not come from an MCP client that can be asked (only a tool \
                 served by `McpServer` can elicit)",
            )
        })
    }

    /// The model's call.
    pub fn call(&self) -> &'a ToolCall {
        self.call
    }

    /// The call's id (see [`ToolCall::id`]).
    pub fn id(&self) -> Option<&'a str> {
        self.call.id.as_deref()
    }

    /// The tool's name, as the model wrote it.
    pub fn name(&self) -> &'a str {
        &self.call.name
    }

    /// The provider the call came from.
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The signal that the caller gave up on the call (a timeout, or the whole turn cancelled).
    pub fn cancellation(&self) -> &'a Cancellation {
        self.cancellation
    }

    /// Whether the call was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.cancellation.is_cancelled()
    }

    /// Completes when the call is cancelled: `select` on it in long work.
    pub fn cancelled(&self) -> Cancelled<'a> {
        self.cancellation.cancelled()
    }
}

/// How far a long call has come, as a handler reports it with [`Invocation::progress`]:
/// MCP's `notifications/progress` (`progress`, `total`, `message`).
///
/// ```
/// use toolgen::Progress;
///
/// let step = Progress::new(3.0).total(10.0).message("read 3 of 10 files");
/// assert_eq!((step.progress, step.total), (3.0, Some(10.0)));
/// assert_eq!(step.message.as_deref(), Some("read 3 of 10 files"));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Progress {
    /// How much is done: more with each report, even when the total is unknown.
    pub progress: f64,
    /// How much there is in all, if known.
    pub total: Option<f64>,
    /// What is being done, for a person to read.
    pub message: Option<String>,
}

impl Progress {
    /// `progress` done, of an unknown total.
    pub fn new(progress: f64) -> Self {
        Progress {
            progress,
            total: None,
            message: None,
        }
    }

    /// The same, of `total` in all.
    #[must_use]
    pub fn total(mut self, total: f64) -> Self {
        self.total = Some(total);
        self
    }

    /// The same, saying what is being done.
    #[must_use]
    pub fn message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }
}

/// A cancellation signal shared by clones: [`cancel`](Cancellation::cancel) it once, and every
/// clone reports it and wakes every [`Cancelled`] future waiting on it.
///
/// ```
/// let cancel = toolgen::Cancellation::new();
/// let clone = cancel.clone();
/// clone.cancel();
/// assert!(cancel.is_cancelled());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Cancellation {
    inner: Arc<Signal>,
}

#[derive(Debug, Default)]
struct Signal {
    cancelled: AtomicBool,
    /// The wakers of the [`Cancelled`] futures waiting, by their ids; a future that is dropped
    /// takes its own out, so a signal kept for a long time does not gather them.
    wakers: Mutex<Vec<(u64, Waker)>>,
    next_id: std::sync::atomic::AtomicU64,
}

impl Cancellation {
    /// A signal not yet given.
    pub fn new() -> Self {
        Cancellation::default()
    }

    /// Gives the signal; later calls do nothing.
    pub fn cancel(&self) {
        if !self.inner.cancelled.swap(true, Ordering::SeqCst) {
            let wakers = std::mem::take(
                &mut *self
                    .inner
                    .wakers
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner),
            );
            for (_, waker) in wakers {
                waker.wake();
            }
        }
    }

    /// Whether the signal was given.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancelled.load(Ordering::SeqCst)
    }

    /// A future that completes when the signal is given.
    pub fn cancelled(&self) -> Cancelled<'_> {
        Cancelled {
            signal: &self.inner,
            id: None,
        }
    }
}

/// The future of [`Cancellation::cancelled`].
#[derive(Debug)]
#[must_use = "futures do nothing unless polled"]
pub struct Cancelled<'a> {
    signal: &'a Signal,
    /// Its place among the signal's wakers, once it has waited.
    id: Option<u64>,
}

impl Future for Cancelled<'_> {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.signal.cancelled.load(Ordering::SeqCst) {
            return Poll::Ready(());
        }
        let this = self.get_mut();
        let mut wakers = this
            .signal
            .wakers
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        // Checked again under the lock: `cancel` takes the wakers after setting the flag.
        if this.signal.cancelled.load(Ordering::SeqCst) {
            return Poll::Ready(());
        }
        let known = this
            .id
            .and_then(|id| wakers.iter_mut().find(|(other, _)| *other == id));
        match known {
            Some((_, waker)) => {
                if !waker.will_wake(cx.waker()) {
                    waker.clone_from(cx.waker());
                }
            }
            None => {
                let id = this.signal.next_id.fetch_add(1, Ordering::Relaxed);
                wakers.push((id, cx.waker().clone()));
                this.id = Some(id);
            }
        }
        Poll::Pending
    }
}

impl Drop for Cancelled<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id {
            let mut wakers = self
                .signal
                .wakers
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            wakers.retain(|(other, _)| *other != id);
        }
    }
}

/// Why a tool failed, for the model to read: a message, and optionally a JSON body (a structured
/// error return, as `{"success": false, "error": "profile_not_found", ...}`), which then is what
/// the model reads.
///
/// `?` in a handler converts any `std::error::Error` into one, with the error's message.
///
/// ```
/// use serde_json::json;
/// use toolgen::{ToolError, ToolResult};
///
/// let error = ToolError::new("no city named `Atlantis`");
/// assert_eq!(ToolResult::from(error).to_text(), "no city named `Atlantis`");
///
/// let error = ToolError::json(json!({"success": false, "error": "profile_not_found"}));
/// let result = ToolResult::from(error);
/// assert!(result.is_error());
/// assert_eq!(result.as_json().unwrap()["error"], "profile_not_found");
///
/// let parse = "x".parse::<u32>().map_err(ToolError::from);
/// assert_eq!(parse.unwrap_err().message(), "invalid digit found in string");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ToolError {
    message: String,
    body: Option<Value>,
}

impl ToolError {
    /// An error in words.
    pub fn new(message: impl Into<String>) -> Self {
        ToolError {
            message: message.into(),
            body: None,
        }
    }

    /// An error whose JSON `body` the model reads; its message is the body's `"message"` when
    /// that is a string, else the body's JSON text.
    pub fn json(body: impl Into<Value>) -> Self {
        let body = body.into();
        let message = match body.get("message") {
            Some(Value::String(message)) => message.clone(),
            _ => body.to_string(),
        };
        ToolError {
            message,
            body: Some(body),
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The JSON body, if it has one.
    pub fn body(&self) -> Option<&Value> {
        self.body.as_ref()
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl<E: std::error::Error> From<E> for ToolError {
    fn from(error: E) -> Self {
        ToolError::new(error.to_string())
    }
}

impl From<ToolError> for ToolResult {
    fn from(error: ToolError) -> Self {
        match error.body {
            Some(body) => ToolResult::error_json(body),
            None => ToolResult::error(error.message),
        }
    }
}

/// What a [`Handler`] may return: any `Serialize` type with a schema (`#[derive(ToolSchema)]`,
/// or a std type; `serde_json::Value` for output without one), which goes to the model as JSON
/// (a JSON string as text), or a [`ToolResult`] made by hand (with attachments, say).
///
/// ```
/// use toolgen::{ToolOutput, ToolResult};
/// assert_eq!(42_u8.into_result().to_text(), "42");
/// assert_eq!(String::from("done").into_result().to_text(), "done");
/// let image = ToolResult::text("chart").with_image("iVBORw0KGgo=", "image/png");
/// assert_eq!(image.clone().into_result(), image);
/// ```
pub trait ToolOutput {
    /// The output as the result the model reads.
    fn into_result(self) -> ToolResult;

    /// Its JSON Schema when it is an object with named fields (MCP's `outputSchema`).
    fn output_schema() -> Option<String>;
}

impl<T: Serialize + ToolSchema> ToolOutput for T {
    fn into_result(self) -> ToolResult {
        output_result(&self)
    }

    fn output_schema() -> Option<String> {
        output_schema_of::<T>()
    }
}

impl ToolOutput for ToolResult {
    fn into_result(self) -> ToolResult {
        self
    }

    fn output_schema() -> Option<String> {
        None
    }
}

/// A [`Handler`]'s output as a result: a JSON string as text, anything else as JSON. A value
/// that does not serialize (a map with non-string keys) is an error result saying so.
pub(crate) fn output_result<T: Serialize>(output: &T) -> ToolResult {
    match serde_json::to_value(output) {
        Ok(Value::String(text)) => ToolResult::text(text),
        Ok(value) => ToolResult::json(value),
        Err(error) => ToolResult::error(format!(
            "the tool's output could not be written as JSON: {error}"
        )),
    }
}

/// What a [`DynamicTool`](crate::DynamicTool) does when the model calls it, with the context
/// `Ctx`: the [`Handler`] of a tool defined at run time, given its checked arguments as a
/// `serde_json::Value`. Add it to a [`Runner`](crate::Runner) with
/// [`with_tool`](crate::Runner::with_tool).
///
/// ```
/// use serde_json::{Value, json};
/// use toolgen::{DynamicFuture, DynamicHandler, Invocation};
///
/// /// Answers with what it was given (a tool from a configuration file).
/// struct EchoConfig;
///
/// impl DynamicHandler<()> for EchoConfig {
///     fn handle<'a>(&'a self, _: &'a (), arguments: Value, _: &'a Invocation<'a>) -> DynamicFuture<'a> {
///         Box::pin(async move { Ok(json!({"received": arguments})) })
///     }
/// }
/// ```
pub trait DynamicHandler<Ctx: ?Sized>: Send + Sync {
    /// Runs the tool on `arguments`, already checked against its schema.
    fn handle<'a>(
        &'a self,
        ctx: &'a Ctx,
        arguments: Value,
        call: &'a Invocation<'a>,
    ) -> DynamicFuture<'a>;

    /// Runs the tool as [`handle`](DynamicHandler::handle) does, its outcome as the result the
    /// model reads: what the [`Runner`](crate::Runner) calls. By default `handle`'s output as
    /// JSON (a JSON string as text) or its error; a handler whose results carry more (images,
    /// files: a tool of an MCP server) gives its [`ToolResult`] here, and may give the runner
    /// a [`timeout`](DynamicHandler::timeout) of its own.
    ///
    /// ```
    /// use std::time::Duration;
    /// use serde_json::{Value, json};
    /// use toolgen::{CallFuture, DynamicFuture, DynamicHandler, Invocation, ToolError, ToolResult};
    ///
    /// /// Draws a chart: an image, which a JSON output cannot carry.
    /// struct Chart;
    ///
    /// impl DynamicHandler<()> for Chart {
    ///     fn handle<'a>(&'a self, _: &'a (), _: Value, _: &'a Invocation<'a>) -> DynamicFuture<'a> {
    ///         Box::pin(async { Err(ToolError::new("call handle_result")) })
    ///     }
    ///
    ///     fn handle_result<'a>(&'a self, _: &'a (), args: Value, _: &'a Invocation<'a>) -> CallFuture<'a> {
    ///         Box::pin(async move {
    ///             ToolResult::text(format!("a chart of {}", args["series"]))
    ///                 .with_image("iVBORw0KGgo=", "image/png")
    ///         })
    ///     }
    ///
    ///     fn timeout(&self) -> Option<Duration> {
    ///         Some(Duration::from_secs(5))
    ///     }
    /// }
    /// # let _ = json!({});
    /// ```
    fn handle_result<'a>(
        &'a self,
        ctx: &'a Ctx,
        arguments: Value,
        call: &'a Invocation<'a>,
    ) -> CallFuture<'a> {
        let future = self.handle(ctx, arguments, call);
        Box::pin(async move {
            match future.await {
                Ok(value) => output_result(&value),
                Err(error) => error.into(),
            }
        })
    }

    /// How long a call may run (a tool's own timeout, as `#[tool(timeout)]`): the
    /// [`Runner`](crate::Runner) gives up on it then, or at its own timeout if that is
    /// shorter. `None` (the default): the runner's timeout alone.
    fn timeout(&self) -> Option<std::time::Duration> {
        None
    }
}

/// The future a [`DynamicHandler`] returns: a JSON output (a JSON string goes to the model as
/// text), or an error.
pub type DynamicFuture<'a> = Pin<Box<dyn Future<Output = Result<Value, ToolError>> + Send + 'a>>;

/// The future of a set's call, as [`Dispatch::dispatch`] returns it.
pub type CallFuture<'a> = Pin<Box<dyn Future<Output = ToolResult> + Send + 'a>>;

/// A [`ToolSet`] whose tools all have a [`Handler`] for the context `Ctx`: `#[derive(ToolSet)]`
/// implements it for every such `Ctx`. Use it through [`run_call`] or the
/// [`Runner`](crate::Runner).
pub trait Dispatch<Ctx: ?Sized>: ToolSet + Send {
    /// Runs the handler of the tool this value holds.
    fn dispatch<'a>(self, ctx: &'a Ctx, call: &'a Invocation<'a>) -> CallFuture<'a>
    where
        Self: 'a;

    /// The tool's `#[tool(timeout = "..")]`, if it has one.
    fn timeout(&self) -> Option<std::time::Duration>;

    /// The output schema of the tool named `name` ([`tool_output_schema`]).
    fn output_schema(name: &str) -> Option<String>;
}

impl<Ctx: ?Sized> Dispatch<Ctx> for NoTools {
    fn dispatch<'a>(self, _: &'a Ctx, _: &'a Invocation<'a>) -> CallFuture<'a>
    where
        Self: 'a,
    {
        match self {}
    }

    fn timeout(&self) -> Option<std::time::Duration> {
        match *self {}
    }

    fn output_schema(_: &str) -> Option<String> {
        None
    }
}

/// The output schema of the tool `T` run with `Ctx`: `#[tool(output = ..)]`'s (of any type),
/// else its handler's `Output` when that is an object with named fields (what MCP's
/// `outputSchema` takes at every version), else `None`.
///
/// Not public API (the derive's dispatch calls it).
#[doc(hidden)]
pub fn tool_output_schema<T: Handler<Ctx> + crate::Tool, Ctx: ?Sized>() -> Option<String> {
    match T::OUTPUT_SCHEMA {
        Some(schema) => Some(schema.to_owned()),
        None => <T::Output as ToolOutput>::output_schema(),
    }
}

/// The output schema `T` gives a handler's tool: its schema text when serde reads it from an
/// object with named fields.
///
/// Not public API (the derive's dispatch calls it).
#[doc(hidden)]
pub fn output_schema_of<T: ToolSchema + ?Sized>() -> Option<String> {
    T::OBJECT
        .is_some()
        .then(|| crate::schema::rope::schema_text(&T::SCHEMA, &T::DEFS))
}

/// The handler of `tool` run for `call`, its outcome as a result.
///
/// Not public API (the derive's dispatch calls it).
#[doc(hidden)]
pub async fn handle<T: Handler<Ctx>, Ctx: ?Sized>(
    tool: T,
    ctx: &Ctx,
    call: &Invocation<'_>,
) -> ToolResult {
    match tool.handle(ctx, call).await {
        Ok(output) => output.into_result(),
        Err(error) => error.into(),
    }
}

/// Runs one call of a set: parses it (an unknown tool or bad arguments is an error result that
/// names the problem, with its JSON path), runs the tool's handler, and gives its outcome as a
/// result. A handler that panics gives an error result too: nothing a model sends stops the
/// program. No timeout here; the [`Runner`](crate::Runner) adds them.
///
/// ```
/// use serde::Deserialize;
/// use toolgen::{Cancellation, Handler, Invocation, Provider, Tool, ToolCall, ToolError, ToolSet, run_call};
///
/// /// Add two numbers.
/// #[derive(Tool, Deserialize)]
/// struct Add { a: i64, b: i64 }
///
/// impl Handler<()> for Add {
///     type Output = i64;
///     async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<i64, ToolError> {
///         self.a.checked_add(self.b).ok_or_else(|| ToolError::new("the sum overflows"))
///     }
/// }
///
/// #[derive(ToolSet)]
/// enum Tools { Add(Add) }
///
/// # futures_lite_block_on(async {
/// let cancel = Cancellation::new();
/// let call = ToolCall::new("add", r#"{"a": 2, "b": 3}"#).with_id("call_1");
/// let result = run_call::<Tools, ()>(&(), &call, Provider::OpenAiChat, &cancel).await;
/// assert_eq!(result.to_text(), "5");
///
/// let bad = ToolCall::new("add", r#"{"a": 2}"#).with_id("call_2");
/// let result = run_call::<Tools, ()>(&(), &bad, Provider::OpenAiChat, &cancel).await;
/// assert!(result.is_error());
/// assert_eq!(result.to_text(), "invalid arguments: missing field `b`");
/// # });
/// # fn futures_lite_block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let waker = std::task::Waker::noop();
/// #     let mut cx = std::task::Context::from_waker(&waker);
/// #     let mut f = std::pin::pin!(f);
/// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
/// # }
/// ```
pub async fn run_call<S, Ctx>(
    ctx: &Ctx,
    call: &ToolCall,
    provider: Provider,
    cancellation: &Cancellation,
) -> ToolResult
where
    S: Dispatch<Ctx>,
    Ctx: ?Sized + Sync,
{
    let tool = match parse_caught::<S>(call) {
        Ok(Ok(tool)) => tool,
        Ok(Err(error)) => return ToolResult::args_error(&error),
        Err(panicked) => return panicked,
    };
    let invocation = Invocation::new(call, provider, cancellation);
    CatchUnwind(tool.dispatch(ctx, &invocation))
        .await
        .unwrap_or_else(|panic| panicked(&call.name, &panic))
}

/// [`ToolSet::parse_call`], which runs the program's own serde code (`deserialize_with`,
/// `try_from`): a panic there is caught like a handler's, as the error result for it.
pub(crate) fn parse_caught<S: ToolSet>(
    call: &ToolCall,
) -> Result<Result<S, crate::ArgsError>, ToolResult> {
    std::panic::catch_unwind(AssertUnwindSafe(|| S::parse_call(call))).map_err(|payload| {
        ToolResult::error(format!(
            "the tool `{}` failed while reading its arguments: {}",
            call.name,
            panic_message(payload.as_ref())
        ))
    })
}

/// The error result of a handler of the tool `name` that panicked with `panic`
/// ([`panic_message`]).
pub(crate) fn panicked(name: &str, panic: &str) -> ToolResult {
    ToolResult::error(format!("the tool `{name}` failed: {panic}"))
}

/// A future whose panic becomes an `Err` with the panic's message.
pub(crate) struct CatchUnwind<F>(pub(crate) F);

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = Result<F::Output, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.0;
        match std::panic::catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(panic_message(payload.as_ref()))),
        }
    }
}

/// How long a panic's message may be in a result.
const MAX_PANIC_MESSAGE: usize = 200;

/// What a panic said, cut short.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
    match text {
        Some(text) => {
            let cut = text
                .char_indices()
                .nth(MAX_PANIC_MESSAGE)
                .map_or(text, |(end, _)| text.get(..end).unwrap_or(text));
            let more = if cut.len() < text.len() { "…" } else { "" };
            format!("it panicked: {cut}{more}")
        }
        None => "it panicked".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_wait_leaves_no_waker_behind() {
        let cancellation = Cancellation::new();
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        for _ in 0..100 {
            let mut waiting = std::pin::pin!(cancellation.cancelled());
            assert!(waiting.as_mut().poll(&mut cx).is_pending());
            // Polled again: the same place, not a second one.
            assert!(waiting.as_mut().poll(&mut cx).is_pending());
            assert_eq!(cancellation.inner.wakers.lock().unwrap().len(), 1);
        }
        assert_eq!(cancellation.inner.wakers.lock().unwrap().len(), 0);
        let mut waiting = std::pin::pin!(cancellation.cancelled());
        assert!(waiting.as_mut().poll(&mut cx).is_pending());
        cancellation.cancel();
        assert!(waiting.as_mut().poll(&mut cx).is_ready());
    }
}
