//! Node sets: the concrete plan nodes a JSON value follows (several where an enum's
//! alternatives meet), looked up key by key and item by item, with tagged enums resolved by
//! their tag. Shared by the value walkers and the stripping parse.

use super::plan::{Plan, PlanField};
use std::borrow::Cow;
use std::cell::RefCell;

/// serde_json's nesting limit: deeper text is an error there, so the walks leave it as it is.
pub(crate) const MAX_DEPTH: usize = 128;

/// How many `Any`, `Lazy` and flattened nodes one look-up may pass through. The trees come from
/// the program's types, not from the input, but a type that flattens itself, or an untagged enum
/// whose variants lead back to it, would go round forever.
pub(crate) const MAX_STEPS: usize = 256;

/// A set of concrete nodes (`Object`, `Items`, `Tuple`, `Values`) that a JSON value follows:
/// several when an enum's alternatives meet. Sets live one after another in a `Vec`, a stack.
pub(crate) type Stack<'p> = Vec<&'p Plan<'p>>;

thread_local! {
    /// Emptied lists of nodes, for [`with_nodes`] to hand out again.
    static SPARE_NODES: RefCell<Vec<Stack<'static>>> = const { RefCell::new(Vec::new()) };
}

/// Most spare lists [`with_nodes`] keeps.
pub(crate) const MAX_SPARE: usize = 8;

/// `f` with an empty list of nodes to fill, reused from call to call. The stripping parse works
/// out a set for every key of an object whose nodes meet (a flattened enum's, a map's) and
/// resolves its tagged enums, each in a list of its own: allocating, growing and freeing a new
/// one each time cost 20 operations with a tagged enum flattened in about 12 k of their 244 k
/// instructions (`benches/parse_cost.sh`). Calls may nest; each gets a list of its own.
///
/// Where the pool is out of reach (a parse run by another thread-local's destructor, as its
/// thread ends), a new list is made and dropped, as before the pool.
pub(crate) fn with_nodes<R>(f: impl FnOnce(&mut Stack<'static>) -> R) -> R {
    let mut nodes = SPARE_NODES
        .try_with(|spare| {
            spare
                .try_borrow_mut()
                .ok()
                .and_then(|mut spare| spare.pop())
        })
        .ok()
        .flatten()
        .unwrap_or_default();
    let result = f(&mut nodes);
    nodes.clear();
    // One that grew past what a set needs goes (the steps bound them).
    if nodes.capacity() <= 256 {
        let _ = SPARE_NODES.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut()
                && spare.len() < MAX_SPARE
            {
                spare.push(nodes);
            }
        });
    }
    result
}

/// Appends to `stack` the concrete nodes `node` stands for, leaving out those already in the set
/// that starts at `from`.
pub(crate) fn expand<'p>(
    node: &'p Plan<'p>,
    stack: &mut Stack<'p>,
    from: usize,
    steps: &mut usize,
) {
    match node {
        Plan::None | Plan::Keep => {}
        Plan::Any(alternatives) | Plan::Untagged(alternatives, _) => {
            if take_step(steps) {
                for alternative in *alternatives {
                    expand(alternative, stack, from, steps);
                }
            }
        }
        Plan::Lazy(resolve) | Plan::Cycle(resolve) => {
            if take_step(steps) {
                expand(resolve.plan(), stack, from, steps);
            }
        }
        _ => {
            let known = stack
                .get(from..)
                .is_some_and(|set| set.iter().any(|n| std::ptr::eq(*n, node)));
            if !known {
                stack.push(node);
            }
        }
    }
}

pub(crate) fn take_step(steps: &mut usize) -> bool {
    match steps.checked_sub(1) {
        Some(left) => {
            *steps = left;
            true
        }
        None => false,
    }
}

/// What a key names in an object's node set: the field with a default, if any, and whether a
/// variant in the set reads the key's `null` as a value ([`Plan::Keep`]).
#[derive(Clone, Copy, Default)]
pub(crate) struct Found<'p> {
    default: Option<&'p str>,
    keep: bool,
    /// Whether the default comes before the keep, in the order serde tries the variants.
    pub(crate) default_first: bool,
}

impl<'p> Found<'p> {
    /// What `field` says about its key.
    #[inline]
    pub(crate) fn field(field: &'p PlanField<'p>) -> Found<'p> {
        Found {
            default: field.default.then_some(field.name),
            keep: !field.default && matches!(field.inner, Plan::Keep),
            default_first: field.default,
        }
    }

    /// Both, `self` met first.
    pub(crate) fn or(self, later: Found<'p>) -> Found<'p> {
        let decided = self.default.is_some() || self.keep;
        Found {
            default: self.default.or(later.default),
            keep: self.keep || later.keep,
            default_first: if decided {
                self.default_first
            } else {
                later.default_first
            },
        }
    }

    /// The field with a default the key names, if any, whatever its value.
    pub(crate) fn defaulted(self) -> Option<&'p str> {
        self.default
    }

    /// Whether the variants disagree about the key's `null`: one defaults it, another reads it.
    pub(crate) fn conflict(self) -> bool {
        self.default.is_some() && self.keep
    }

    /// Whether a `null` for the key is dropped whatever else is read: a field with a default
    /// names it, and no variant reads the `null` as a value.
    pub(crate) fn strips_null(self) -> bool {
        self.default.is_some() && !self.keep
    }
}

/// The `null`s an untagged enum's variants disagree about (one defaults its key, another reads
/// the `null` as a value), which the stripping parse and the value walk keep: serde takes the
/// first variant that reads the object, so whether the `null` goes is known only by trying.
/// Argument parsing then tries the choices object by object ([`Conflict`]).
#[derive(Debug, Default)]
pub(crate) struct Conflicts {
    /// Whether one was met.
    pub(crate) met: bool,
    /// Where each one is, when asked for (`Some`:
    /// [`strip_value_with`](super::walk::strip_value_with) records them).
    pub(crate) found: Option<Vec<Conflict>>,
}

/// A `null` the variants of an untagged enum disagree about, in a `serde_json::Value`.
#[derive(Debug)]
pub(crate) struct Conflict {
    /// The path of its object.
    pub(crate) path: Vec<Segment>,
    /// Its key.
    pub(crate) key: String,
    /// Whether the variant that defaults the key comes first, in the order serde tries them:
    /// then dropping the `null` is the first choice.
    pub(crate) default_first: bool,
}

/// A step of a [`Conflict`]'s path.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Segment {
    Key(String),
    Index(usize),
}

/// Looks `key` up in `node`, one node of an object's set. The nodes of the key's value are
/// appended to `stack` (a set starting at `from`).
pub(crate) fn lookup<'p>(
    node: &'p Plan<'p>,
    key: &[u8],
    stack: &mut Stack<'p>,
    from: usize,
    steps: &mut usize,
) -> Found<'p> {
    match node {
        Plan::Object(fields, flattened, _) => {
            // serde gives a key to the object's own field first; only the others reach the
            // flattened fields.
            if let Some(field) = fields.iter().find(|f| same_key(f.name.as_bytes(), key)) {
                expand(field.inner, stack, from, steps);
                return Found::field(field);
            }
            let mut found = Found::default();
            for node in *flattened {
                if take_step(steps) {
                    found = found.or(lookup(node, key, stack, from, steps));
                }
            }
            found
        }
        Plan::Values(inner) => {
            expand(inner, stack, from, steps);
            Found::default()
        }
        Plan::Any(alternatives) | Plan::Untagged(alternatives, _) => {
            let mut found = Found::default();
            if take_step(steps) {
                for alternative in *alternatives {
                    found = found.or(lookup(alternative, key, stack, from, steps));
                }
            }
            found
        }
        Plan::Lazy(resolve) | Plan::Cycle(resolve) => {
            if take_step(steps) {
                lookup(resolve.plan(), key, stack, from, steps)
            } else {
                Found::default()
            }
        }
        // A value's keywords are checked on the value; its members are its node's.
        Plan::Check(_, _, inner) => lookup(inner, key, stack, from, steps),
        // A tagged enum is resolved into its variant's node on entering the object.
        Plan::None
        | Plan::Items(_)
        | Plan::Unique(_)
        | Plan::Tuple(_)
        | Plan::Tagged(..)
        | Plan::Keep => Found::default(),
    }
}

/// Whether the object whose set is `nodes` needs [`resolve_tags`]: a tagged enum is in the set,
/// or flattened into one of its objects.
#[inline]
pub(crate) fn has_tagged<'p>(nodes: &[&'p Plan<'p>]) -> bool {
    let mut steps = MAX_STEPS;
    // Filled only where a tagged enum is found, which ends the search: no allocation else.
    let mut found = Vec::new();
    nodes.iter().any(|node| match node {
        Plan::Tagged(..) => true,
        Plan::Object(_, flattened, _) => flattened.iter().any(|f| {
            flattened_tagged(f, &mut found, &mut steps);
            !found.is_empty()
        }),
        _ => false,
    })
}

/// Appends to `found` the tagged enums `node` brings, flattened into an object.
pub(crate) fn flattened_tagged<'p>(node: &'p Plan<'p>, found: &mut Stack<'p>, steps: &mut usize) {
    if !take_step(steps) {
        return;
    }
    match node {
        Plan::Tagged(..) => found.push(node),
        Plan::Object(_, flattened, _) | Plan::Any(flattened) | Plan::Untagged(flattened, _) => {
            for f in *flattened {
                flattened_tagged(f, found, steps);
            }
        }
        Plan::Lazy(resolve) | Plan::Cycle(resolve) => {
            flattened_tagged(resolve.plan(), found, steps)
        }
        _ => {}
    }
}

/// Resolves the tagged enums of the set `stack[set..]`, which an object follows, into the nodes
/// of the variants their tags name: `tag_of(name)` is the object's member `name` when it is a
/// string. A tagged enum in the set is replaced by its variant's node; one flattened into an
/// object of the set gets its variant's node added to the set (it reads the keys the object's own
/// fields leave, and the names of the two never meet). A variant that is itself a tagged enum,
/// or flattens one, is resolved in turn.
pub(crate) fn resolve_tags<'t>(
    stack: &mut Stack<'static>,
    set: usize,
    tag_of: impl FnMut(&str) -> Option<Tag<'t>>,
) {
    with_nodes(|found| {
        with_nodes(|resolved| resolve_tags_with(stack, set, tag_of, found, resolved))
    })
}

/// [`resolve_tags`], with two empty lists to work in (the enums found, and those resolved).
pub(crate) fn resolve_tags_with<'p, 't>(
    stack: &mut Stack<'p>,
    set: usize,
    mut tag_of: impl FnMut(&str) -> Option<Tag<'t>>,
    found: &mut Stack<'p>,
    resolved: &mut Stack<'p>,
) {
    let mut steps = MAX_STEPS;
    // Each enum is resolved once (one that leads back to itself would come back), and each tag
    // looked up once: the first apart (there is seldom another), not to allocate a list for it.
    let mut first_tag: Option<(&'p str, Option<Tag<'t>>)> = None;
    let mut tags: Vec<(&'p str, Option<Tag<'t>>)> = Vec::new();
    let mut at = set;
    while let Some(&node) = stack.get(at) {
        match node {
            Plan::Tagged(..) => {
                stack.remove(at);
                found.push(node);
            }
            Plan::Object(_, flattened, _) => {
                for f in *flattened {
                    flattened_tagged(f, found, &mut steps);
                }
                at += 1;
            }
            _ => at += 1,
        }
        for tagged in found.drain(..) {
            let Plan::Tagged(tag, cases) = tagged else {
                continue;
            };
            if resolved.iter().any(|r| std::ptr::eq(*r, tagged)) || !take_step(&mut steps) {
                continue;
            }
            resolved.push(tagged);
            let known = first_tag
                .iter()
                .chain(&tags)
                .find(|(name, _)| *name == *tag)
                .map(|(_, value)| value.clone());
            let value = match known {
                Some(value) => value,
                None => {
                    let value = tag_of(tag);
                    match first_tag {
                        None => first_tag = Some((tag, value.clone())),
                        Some(_) => tags.push((tag, value.clone())),
                    }
                    value
                }
            };
            let case = match value {
                Some(Tag::Name(name)) => cases.iter().find(|c| c.name == name),
                // serde also reads a variant by its index, where it has buffered the object.
                Some(Tag::Index(index)) => usize::try_from(index).ok().and_then(|i| cases.get(i)),
                None => None,
            };
            if let Some(case) = case {
                expand(case.node, stack, set, &mut steps);
            }
        }
    }
}

/// A tag's value as an object holds it: a variant's name, or its index (a non-negative integer,
/// which serde reads where it has buffered the object first, as for a flattened enum).
#[derive(Clone)]
pub(crate) enum Tag<'t> {
    Name(Cow<'t, str>),
    Index(u64),
}

/// `name == key`, without a call to `memcmp`, which costs more for names (short ones): up to 16
/// bytes are compared in two loads of each, overlapping (the first and last 4 or 8 bytes), the
/// shortest byte by byte.
#[inline]
pub(crate) fn same_key(name: &[u8], key: &[u8]) -> bool {
    let len = name.len();
    if len != key.len() {
        return false;
    }
    match len {
        0..4 => name.iter().zip(key).all(|(a, b)| a == b),
        4..8 => same_at::<4>(name, key, 0) && same_at::<4>(name, key, len - 4),
        8..=16 => same_at::<8>(name, key, 0) && same_at::<8>(name, key, len - 8),
        _ => name == key,
    }
}

/// Whether the `N` bytes at `at` of `a` and `b` are the same (both there).
#[inline(always)]
fn same_at<const N: usize>(a: &[u8], b: &[u8], at: usize) -> bool {
    let word = |bytes: &[u8]| bytes.get(at..).and_then(<[u8]>::first_chunk::<N>).copied();
    matches!((word(a), word(b)), (Some(a), Some(b)) if a == b)
}

/// Looks `key` up in the set `stack[set..end]`; the nodes of its value go on after `end`.
pub(crate) fn lookup_set<'p>(
    stack: &mut Stack<'p>,
    set: usize,
    end: usize,
    key: &[u8],
) -> Found<'p> {
    // The common case: one plain object.
    if end == set + 1
        && let Some(Plan::Object(fields, [], _)) = stack.get(set).copied()
    {
        let Some(field) = fields.iter().find(|f| same_key(f.name.as_bytes(), key)) else {
            return Found::default();
        };
        if !matches!(field.inner, Plan::None | Plan::Keep) {
            let mut steps = MAX_STEPS;
            expand(field.inner, stack, end, &mut steps);
        }
        return Found::field(field);
    }
    let mut steps = MAX_STEPS;
    let mut found = Found::default();
    for index in set..end {
        if let Some(&node) = stack.get(index) {
            found = found.or(lookup(node, key, stack, end, &mut steps));
        }
    }
    found
}

/// Appends the nodes of the item at `index` of an array with the set `stack[set..end]`.
pub(crate) fn item_set<'p>(stack: &mut Stack<'p>, set: usize, end: usize, index: usize) {
    let mut steps = MAX_STEPS;
    for at in set..end {
        if let Some(&node) = stack.get(at) {
            item_nodes(node, index, stack, end, &mut steps);
        }
    }
}

/// Appends the nodes of the item at `index` of an array that follows `node`.
fn item_nodes<'p>(
    node: &'p Plan<'p>,
    index: usize,
    stack: &mut Stack<'p>,
    end: usize,
    steps: &mut usize,
) {
    match node {
        Plan::Items(inner) | Plan::Unique(inner) => expand(inner, stack, end, steps),
        Plan::Tuple(items) => {
            if let Some(inner) = items.get(index) {
                expand(inner, stack, end, steps);
            }
        }
        // A value's keywords are checked on the value; its items are its node's.
        Plan::Check(_, _, inner) if take_step(steps) => {
            item_nodes(inner, index, stack, end, steps);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::same_key;

    /// `same_key` is `==` for every length it compares a way of its own, a byte changed
    /// anywhere or not at all.
    #[test]
    fn same_key_is_equality() {
        for len in 0..40 {
            let name: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(same_key(&name, &name.clone()), "{len}");
            for at in 0..len {
                let mut other = name.clone();
                other[at] ^= 0x20;
                assert!(!same_key(&name, &other), "{len} {at}");
            }
            assert!(!same_key(&name, &name[..len.saturating_sub(1)]) || len == 0);
            assert!(!same_key(&name[..len.saturating_sub(1)], &name) || len == 0);
        }
    }
}
