//! The parse plan followed through a `serde_json::Value`: `null`s dropped ([`strip_value`]),
//! `#[tool(default = ..)]` values written in ([`fill_value`]), and keywords and sets' items
//! checked ([`check_value`]), on the path that reads arguments into a value first.

use std::borrow::Cow;

use serde_json::Value;

use super::plan::{FillValue, Plan, TagCase};
use super::sets::{
    Conflict, Conflicts, Found, MAX_DEPTH, MAX_STEPS, Segment, Stack, Tag, expand, has_tagged,
    item_set, lookup_set, resolve_tags_with, take_step,
};
use crate::parse::constraints::Violation;

/// Checks what only the JSON shows, as `node` tells: the keywords serde does not enforce
/// ([`Plan::Check`]: a field's `range`, `length`, `pattern`, `format`), and that no set's items
/// repeat (serde merges repeats without a word, where the schema says `uniqueItems`), at any
/// depth, in the order of the plan's fields. The error says where, as a path. The walk follows
/// serde's reading as [`fill_value`] does: an internally or adjacently tagged enum's variant by
/// its tag; below [`Plan::Untagged`], whose variant serde picks by trying them, the keywords of
/// the alternative serde took ([`check_untagged`]; and no set, as nothing is filled in there).
pub(crate) fn check_value<'p>(value: &Value, node: &'p Plan<'p>) -> Result<(), Violation> {
    check_at(value, node, 0, false)
}

/// [`check_node`] of a value, with a budget of steps of its own (see [`fill_node`]).
pub(crate) fn check_at<'p>(
    value: &Value,
    node: &'p Plan<'p>,
    depth: usize,
    untagged: bool,
) -> Result<(), Violation> {
    let mut steps = MAX_STEPS;
    check_node(value, node, depth, untagged, &mut steps)
}

/// [`check_value`] at `depth`; `untagged`: below an untagged enum, where only keywords are
/// checked.
pub(crate) fn check_node<'p>(
    value: &Value,
    node: &'p Plan<'p>,
    depth: usize,
    untagged: bool,
    steps: &mut usize,
) -> Result<(), Violation> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    match node {
        Plan::None | Plan::Keep => {}
        Plan::Check(keywords, regex, inner) => {
            keywords.check_value(value, *regex)?;
            check_node(value, inner, depth, untagged, steps)?;
        }
        Plan::Object(fields, flattened, _) => {
            if let Value::Object(map) = value {
                for field in *fields {
                    if let Some(inner) = map.get(field.name) {
                        check_at(inner, field.inner, depth + 1, untagged)
                            .map_err(|v| v.within_field(field.name))?;
                    }
                }
            }
            for node in *flattened {
                if take_step(steps) {
                    check_node(value, node, depth, untagged, steps)?;
                }
            }
        }
        Plan::Items(inner) | Plan::Unique(inner) => {
            if let Value::Array(items) = value {
                if let Plan::Unique(_) = node
                    && !untagged
                    && let Some((earlier, later)) = crate::schema::first_repeat(items)
                {
                    return Err(Violation::repeated(earlier).within_index(later));
                }
                for (index, item) in items.iter().enumerate() {
                    check_at(item, inner, depth + 1, untagged)
                        .map_err(|v| v.within_index(index))?;
                }
            }
        }
        Plan::Tuple(nodes) => {
            if let Value::Array(items) = value {
                for (index, (item, node)) in items.iter().zip(*nodes).enumerate() {
                    check_at(item, node, depth + 1, untagged).map_err(|v| v.within_index(index))?;
                }
            }
        }
        Plan::Values(inner) => {
            if let Value::Object(map) = value {
                for (key, item) in map {
                    check_at(item, inner, depth + 1, untagged).map_err(|v| v.within_field(key))?;
                }
            }
        }
        Plan::Any(alternatives) => {
            if take_step(steps) {
                for alternative in *alternatives {
                    check_node(value, alternative, depth, untagged, steps)?;
                }
            }
        }
        Plan::Untagged(alternatives, pick) => {
            if take_step(steps) {
                check_untagged(value, alternatives, *pick, depth, steps)?;
            }
        }
        Plan::Tagged(tag, cases) => {
            if let Some(case) = tagged_case(value, tag, cases)
                && take_step(steps)
            {
                check_node(value, case.node, depth, untagged, steps)?;
            }
        }
        Plan::Lazy(resolve) | Plan::Cycle(resolve) => {
            if take_step(steps) {
                check_node(value, resolve.plan(), depth, untagged, steps)?;
            }
        }
    }
    Ok(())
}

/// [`check_node`] of an untagged enum's `alternatives`: the one serde took, where `pick` says
/// which (none, where serde took a tagged variant); else (a generic enum, one without
/// `Deserialize`, a dynamic tool's `anyOf`) the value passes if it meets one alternative's
/// keywords, and the first alternative's violation is the error.
fn check_untagged<'p>(
    value: &Value,
    alternatives: &'p [Plan<'p>],
    pick: Option<crate::schema::facts::Pick>,
    depth: usize,
    steps: &mut usize,
) -> Result<(), Violation> {
    if let Some(picked) = pick.and_then(|pick| pick(value)) {
        return match alternatives.get(usize::from(picked)) {
            Some(alternative) => check_node(value, alternative, depth, true, steps),
            None => Ok(()),
        };
    }
    let mut first = None;
    for alternative in alternatives {
        match check_node(value, alternative, depth, true, steps) {
            Ok(()) => return Ok(()),
            Err(violation) => {
                first.get_or_insert(violation);
            }
        }
    }
    first.map_or(Ok(()), Err)
}

/// The variant of a tagged enum that the tag of `value` (an object) names: by its name, or by
/// its index, which serde reads where it has buffered the object (a flattened enum), as
/// [`resolve_tags`](super::sets::resolve_tags) finds it in the text.
pub(crate) fn tagged_case<'p>(
    value: &Value,
    tag: &str,
    cases: &'p [TagCase<'p>],
) -> Option<&'p TagCase<'p>> {
    match value.get(tag)? {
        Value::String(name) => cases.iter().find(|case| case.name == name),
        Value::Number(number) => cases.get(usize::try_from(number.as_u64()?).ok()?),
        _ => None,
    }
}

/// Writes the `#[tool(default = ..)]` values `node` has into `value` where their keys are
/// missing, at any depth, so that serde finds them: the value of a field, once written, is
/// filled in turn. Values of the wrong shape are left as they are (serde reports them); an
/// internally or adjacently tagged enum fills the variant its tag names; nothing is filled
/// below [`Plan::Untagged`].
pub(crate) fn fill_value<'p>(value: &mut Value, node: &'p Plan<'p>) {
    fill_at(value, node, 0);
}

/// [`fill_node`] of a value, with a budget of steps of its own.
pub(crate) fn fill_at<'p>(value: &mut Value, node: &'p Plan<'p>, depth: usize) {
    let mut steps = MAX_STEPS;
    fill_node(value, node, depth, &mut steps);
}

/// [`fill_value`] at `depth`; `steps` bounds the nodes passed through without going into the
/// value (`Any`, `Lazy`, flattened and tagged ones), which a type that flattens itself would
/// pass forever. Each value inside starts with a budget of its own.
pub(crate) fn fill_node<'p>(
    value: &mut Value,
    node: &'p Plan<'p>,
    depth: usize,
    steps: &mut usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    match node {
        Plan::None | Plan::Keep | Plan::Untagged(..) => {}
        Plan::Object(fields, flattened, _) => {
            if let Value::Object(map) = value {
                for field in *fields {
                    if let Some(FillValue { text, .. }) = field.fill
                        && !map.contains_key(field.name)
                        && let Ok(default) = serde_json::from_str(text)
                    {
                        map.insert(field.name.to_owned(), default);
                    }
                    if let Some(inner) = map.get_mut(field.name) {
                        fill_at(inner, field.inner, depth + 1);
                    }
                }
            }
            // A flattened type reads the same object.
            for node in *flattened {
                if take_step(steps) {
                    fill_node(value, node, depth, steps);
                }
            }
        }
        Plan::Items(inner) | Plan::Unique(inner) => {
            if let Value::Array(items) = value {
                for item in items {
                    fill_at(item, inner, depth + 1);
                }
            }
        }
        Plan::Tuple(nodes) => {
            if let Value::Array(items) = value {
                for (item, node) in items.iter_mut().zip(*nodes) {
                    fill_at(item, node, depth + 1);
                }
            }
        }
        Plan::Values(inner) => {
            if let Value::Object(map) = value {
                for item in map.values_mut() {
                    fill_at(item, inner, depth + 1);
                }
            }
        }
        Plan::Any(alternatives) => {
            if take_step(steps) {
                for alternative in *alternatives {
                    fill_node(value, alternative, depth, steps);
                }
            }
        }
        Plan::Tagged(tag, cases) => {
            if let Some(case) = tagged_case(value, tag, cases)
                && take_step(steps)
            {
                fill_node(value, case.node, depth, steps);
            }
        }
        Plan::Lazy(resolve) | Plan::Cycle(resolve) => {
            if take_step(steps) {
                fill_node(value, resolve.plan(), depth, steps);
            }
        }
        Plan::Check(_, _, inner) => fill_node(value, inner, depth, steps),
    }
}

/// Removes the members `key: null` of a value whose key has a default where it is, as `root`
/// says. Values nested deeper than serde_json reads text are left as they are.
///
/// Not public API (it is reached through `toolgen::__private`, for the benchmark that compares
/// it with the stripping parse).
#[doc(hidden)]
pub fn strip_value<'p>(value: &mut Value, root: &'p Plan<'p>) {
    strip_value_with(value, root, &mut Conflicts::default());
}

/// [`strip_value`], which keeps the `null`s an untagged enum's variants disagree about, and
/// records them in `conflicts`.
pub(crate) fn strip_value_with<'p>(
    value: &mut Value,
    root: &'p Plan<'p>,
    conflicts: &mut Conflicts,
) {
    let mut stack = Vec::with_capacity(16);
    let mut steps = MAX_STEPS;
    expand(root, &mut stack, 0, &mut steps);
    let mut walker = Walker {
        stack,
        conflicts,
        path: Vec::new(),
    };
    walker.walk(value, 0, 0);
}

/// What [`strip_value_with`] carries down the value.
pub(crate) struct Walker<'c, 'p> {
    stack: Stack<'p>,
    conflicts: &'c mut Conflicts,
    /// Where the walk is, kept only while conflicts are recorded.
    path: Vec<Segment>,
}

impl<'p> Walker<'_, 'p> {
    /// Strips `value`, whose node set is `stack[set..]`.
    fn walk(&mut self, value: &mut Value, set: usize, depth: usize) {
        let end = self.stack.len();
        if set == end || depth >= MAX_DEPTH {
            return;
        }
        match value {
            Value::Object(map) => {
                let mut end = end;
                if self.stack.get(set..end).is_some_and(has_tagged) {
                    let tag_of = |tag: &str| match map.get(tag)? {
                        Value::String(name) => Some(Tag::Name(Cow::Borrowed(name))),
                        number => number.as_u64().map(Tag::Index),
                    };
                    let (mut found, mut resolved) = (Vec::new(), Vec::new());
                    resolve_tags_with(&mut self.stack, set, tag_of, &mut found, &mut resolved);
                    end = self.stack.len();
                    if set == end {
                        return;
                    }
                }
                let mut drop = false;
                for (key, member) in map.iter_mut() {
                    let found = lookup_set(&mut self.stack, set, end, key.as_bytes());
                    if member.is_null() {
                        if found.conflict() {
                            self.conflict(key, found);
                        } else {
                            drop |= found.strips_null();
                        }
                    } else if self.conflicts.found.is_some() {
                        self.path.push(Segment::Key(key.clone()));
                        self.walk(member, end, depth + 1);
                        self.path.pop();
                    } else {
                        self.walk(member, end, depth + 1);
                    }
                    self.stack.truncate(end);
                }
                if drop {
                    // `retain` keeps the order of the others (`remove` would not, with
                    // `preserve_order`).
                    let stack = &mut self.stack;
                    map.retain(|key, member| {
                        let found = lookup_set(stack, set, end, key.as_bytes());
                        stack.truncate(end);
                        !(member.is_null() && found.strips_null())
                    });
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter_mut().enumerate() {
                    item_set(&mut self.stack, set, end, index);
                    if self.conflicts.found.is_some() {
                        self.path.push(Segment::Index(index));
                        self.walk(item, end, depth + 1);
                        self.path.pop();
                    } else {
                        self.walk(item, end, depth + 1);
                    }
                    self.stack.truncate(end);
                }
            }
            _ => {}
        }
    }

    /// Records the `null` of `key` that the variants disagree about, in the object at the path.
    #[cold]
    fn conflict(&mut self, key: &str, found: Found) {
        self.conflicts.met = true;
        if let Some(list) = &mut self.conflicts.found {
            list.push(Conflict {
                path: self.path.clone(),
                key: key.to_owned(),
                default_first: found.default_first,
            });
        }
    }
}
