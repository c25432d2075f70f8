//! Google Gemini `streamGenerateContent`.
//!
//! Each chunk is a whole `GenerateContentResponse` (<https://ai.google.dev/api/generate-content>),
//! whose `functionCall` parts are read as `ToolCall::parse` reads them, keeping each part's
//! `thoughtSignature` (<https://ai.google.dev/gemini-api/docs/thought-signatures>). A chunk may hold
//! only usage or a finish reason and no candidate.
//!
//! Gemini 3 can also stream a call's arguments (`streamFunctionCallArguments`; Vertex AI's
//! `FunctionCall.partialArgs` and `willContinue`, <https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content#FunctionCall>):
//! a part `{name, willContinue: true}` opens the call, parts `{partialArgs: [{jsonPath,
//! stringValue | numberValue | boolValue | nullValue, willContinue}], willContinue: true}` give its
//! values one by one (a string over several parts while its `willContinue` is true), and a part
//! without `willContinue: true`, often an empty `functionCall: {}`, ends it. Recorded streams
//! (tests/traffic) also end a call with its last `partialArgs` part, and have parts
//! `{willContinue: true}` with nothing in them.

use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny};
use serde_json::Value;

use super::{
    OpenCall, StreamError, ToolCallStream, failure, message_deeper_than_allowed, read, text,
    too_deep,
};

use crate::provider::Provider;
use crate::wire::call::{ToolCall, ToolCallError, next_made_up_id};
use crate::wire::gemini::call_failed;
use crate::wire::{Obj, Text};

/// The key the one Gemini call streaming at a time is open under.
const GEMINI_CALL: u64 = 0;

/// A `GenerateContentResponse` chunk.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiChunk<'a> {
    #[serde(default, borrow)]
    candidates: Vec<Obj<GeminiCandidate<'a>>>,
    #[serde(default, borrow)]
    prompt_feedback: Option<Obj<GeminiFeedback<'a>>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiFeedback<'a> {
    #[serde(default, borrow)]
    block_reason: Option<Text<'a>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiCandidate<'a> {
    #[serde(default, borrow)]
    content: Option<Obj<GeminiContent<'a>>>,
    #[serde(default, borrow)]
    finish_reason: Option<Text<'a>>,
}

#[derive(Deserialize)]
struct GeminiContent<'a> {
    #[serde(default, borrow)]
    parts: Vec<Obj<GeminiPart<'a>>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiPart<'a> {
    #[serde(default, borrow)]
    function_call: Option<Obj<StreamedCall<'a>>>,
    #[serde(default, borrow)]
    thought_signature: Option<Text<'a>>,
}

/// A `functionCall` part: a whole call (`name`, `args`), or a piece of a streamed one.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StreamedCall<'a> {
    #[serde(default, borrow)]
    id: Option<Text<'a>>,
    #[serde(default, borrow)]
    name: Option<Text<'a>>,
    #[serde(default)]
    args: Option<Value>,
    #[serde(default, borrow)]
    partial_args: Option<Vec<Obj<PartialArg<'a>>>>,
    #[serde(default)]
    will_continue: Option<bool>,
}

/// A value of a streamed call, at `jsonPath`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PartialArg<'a> {
    #[serde(borrow)]
    json_path: Text<'a>,
    #[serde(default, borrow)]
    string_value: Option<Text<'a>>,
    #[serde(default)]
    number_value: Option<serde_json::Number>,
    #[serde(default)]
    bool_value: Option<bool>,
    /// `nullValue` is there, whatever it holds (`null`, or the enum's `NULL_VALUE`).
    #[serde(default, deserialize_with = "is_there")]
    null_value: bool,
    #[serde(default)]
    will_continue: Option<bool>,
}

fn is_there<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    IgnoredAny::deserialize(deserializer).map(|_| true)
}

impl PartialArg<'_> {
    /// The value to set, if the part gives one.
    fn value(&self) -> Option<Value> {
        if let Some(Text(text)) = self.string_value {
            Some(Value::String(text.to_owned()))
        } else if let Some(number) = &self.number_value {
            Some(Value::Number(number.clone()))
        } else if let Some(flag) = self.bool_value {
            Some(Value::Bool(flag))
        } else {
            self.null_value.then_some(Value::Null)
        }
    }
}

/// A step of a `jsonPath`.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

/// The steps of a JSON path such as `$.a.b[0]` or `$['a']`; `None` if it is not one, or is
/// deeper than `ToolCall::parse` allows.
fn json_path(path: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    let mut rest = path.strip_prefix('$')?;
    while !rest.is_empty() {
        if steps.len() >= ToolCallError::MAX_DEPTH {
            return None;
        }
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            let (key, next) = after.split_at(end);
            if key.is_empty() {
                return None;
            }
            steps.push(Step::Key(key.to_owned()));
            rest = next;
        } else {
            let after = rest.strip_prefix('[')?;
            let quote = after.chars().next().filter(|c| *c == '\'' || *c == '"');
            if let Some(quote) = quote {
                let inner = &after[1..];
                let end = inner.find(quote)?;
                steps.push(Step::Key(inner[..end].to_owned()));
                rest = inner[end + 1..].strip_prefix(']')?;
            } else {
                let end = after.find(']')?;
                steps.push(Step::Index(after[..end].parse().ok()?));
                rest = &after[end + 1..];
            }
        }
    }
    Some(steps)
}

/// The arguments of a Gemini call streamed as values by path.
#[derive(Clone, Debug)]
pub(super) struct Assembled {
    pub(super) value: Value,
    /// The path of the string a `willContinue` said goes on in the next value.
    pub(super) continued: Option<String>,
    /// Whether `value` changed since `arguments` was written from it.
    pub(super) changed: bool,
}

impl Assembled {
    fn new(value: Value) -> Self {
        Assembled {
            value,
            continued: None,
            changed: true,
        }
    }

    /// Sets the value of `arg` at its path (`steps`), or goes on with the string there.
    fn set(&mut self, steps: &[Step], arg: &PartialArg) {
        let path = arg.json_path.0;
        if let Some(value) = arg.value()
            && let Some(at) = slot(&mut self.value, steps)
        {
            match (&mut *at, &value) {
                (Value::String(so_far), Value::String(more))
                    if self.continued.as_deref() == Some(path) =>
                {
                    so_far.push_str(more);
                }
                _ => *at = value,
            }
            self.changed = true;
        }
        let goes_on = arg.string_value.is_some() && arg.will_continue == Some(true);
        self.continued = goes_on.then(|| path.to_owned());
    }
}

/// The place at `steps` in `value`, made where missing: an object or array replaces what is in
/// the way, and an index past the end of an array appends.
fn slot<'v>(value: &'v mut Value, steps: &[Step]) -> Option<&'v mut Value> {
    steps.iter().try_fold(value, |value, step| match step {
        Step::Key(key) => {
            if !value.is_object() {
                *value = Value::Object(serde_json::Map::new());
            }
            match value {
                Value::Object(map) => Some(map.entry(key.clone()).or_insert(Value::Null)),
                _ => None,
            }
        }
        Step::Index(index) => {
            if !value.is_array() {
                *value = Value::Array(Vec::new());
            }
            match value {
                Value::Array(items) => {
                    if *index >= items.len() {
                        items.push(Value::Null);
                    }
                    let at = (*index).min(items.len().saturating_sub(1));
                    items.get_mut(at)
                }
                _ => None,
            }
        }
    })
}

impl ToolCallStream {
    pub(super) fn push_gemini(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        let provider = Provider::Gemini;
        if let Some(error) = event.get("error").filter(|error| !error.is_null()) {
            return Err(failure(provider, error, "status"));
        }
        // Typed deserialization of `args` recurses; refuse values deep enough to threaten the
        // stack first, as `ToolCall::parse` does.
        if message_deeper_than_allowed(event) {
            return Err(too_deep(provider));
        }
        let chunk: GeminiChunk = read(provider, event, "")?;
        let Some(Obj(candidate)) = chunk.candidates.first() else {
            return match chunk
                .prompt_feedback
                .and_then(|Obj(f)| text(f.block_reason))
            {
                Some(reason) => Err(StreamError::from_parse(ToolCallError::NoCandidates {
                    provider,
                    block_reason: Some(reason.to_owned()),
                })),
                None => Ok(Vec::new()),
            };
        };
        if let Some(error) = call_failed(text(candidate.finish_reason)) {
            return Err(StreamError::from_parse(error));
        }
        let parts: &[Obj<GeminiPart>] = match &candidate.content {
            Some(Obj(content)) => &content.parts,
            None => &[],
        };
        let paths = self.check_gemini_parts(parts)?;
        let mut calls = Vec::new();
        for (Obj(part), paths) in parts.iter().zip(paths) {
            let Some(Obj(call)) = &part.function_call else {
                continue;
            };
            if let Some(Text(name)) = call.name {
                let id = match text(call.id) {
                    Some(id) => id.to_owned(),
                    None => next_made_up_id(&mut self.made_up_ids),
                };
                let mut open = OpenCall::new(Some(&id), name);
                open.thought_signature = text(part.thought_signature).map(str::to_owned);
                let args = call
                    .args
                    .clone()
                    .unwrap_or_else(|| Value::Object(Default::default()));
                open.assembled = Some(Box::new(Assembled::new(args)));
                calls.extend(self.open_call(GEMINI_CALL, open));
            }
            if let Some(assembled) = self
                .open
                .get_mut(&GEMINI_CALL)
                .and_then(|open| open.assembled.as_mut())
            {
                for (Obj(arg), steps) in call.partial_args.iter().flatten().zip(&paths) {
                    assembled.set(steps, arg);
                }
            }
            if call.will_continue != Some(true) {
                calls.extend(self.close(GEMINI_CALL));
            }
        }
        Ok(calls)
    }

    /// Checks a chunk's parts before any is taken, and reads the paths of their values.
    fn check_gemini_parts(
        &self,
        parts: &[Obj<GeminiPart>],
    ) -> Result<Vec<Vec<Vec<Step>>>, StreamError> {
        let malformed = |path: String, message: &str| StreamError::Malformed {
            provider: Provider::Gemini,
            path,
            message: message.to_owned(),
        };
        let mut streaming = self.open.contains_key(&GEMINI_CALL);
        let mut paths = Vec::with_capacity(parts.len());
        for (index, Obj(part)) in parts.iter().enumerate() {
            let at = format!("candidates[0].content.parts[{index}].functionCall");
            let Some(Obj(call)) = &part.function_call else {
                paths.push(Vec::new());
                continue;
            };
            if call.name.is_none() && call.args.is_some() {
                return Err(malformed(at, "missing field `name`"));
            }
            streaming |= call.name.is_some();
            let args = call.partial_args.as_deref().unwrap_or_default();
            if !args.is_empty() && !streaming {
                return Err(malformed(at, "arguments for no call: no call is streaming"));
            }
            let mut steps = Vec::with_capacity(args.len());
            for (arg_index, Obj(arg)) in args.iter().enumerate() {
                let path = arg.json_path.0;
                steps.push(json_path(path).ok_or_else(|| {
                    malformed(
                        format!("{at}.partialArgs[{arg_index}].jsonPath"),
                        &format!("`{path}` is not a JSON path such as `$.a.b[0]`"),
                    )
                })?);
            }
            paths.push(steps);
            if call.will_continue != Some(true) {
                streaming = false;
            }
        }
        Ok(paths)
    }
}
