//! Null-stripping for strict mode: dropping `"key": null` where the field has a default, so that
//! serde applies the default instead of rejecting the `null`.
//!
//! Under OpenAI strict mode every property is required and the optional ones are nullable, so a
//! model sends `null` for what it would have left out. Which fields have a default is known at
//! compile time: each type's `ToolSchema::NULLS` is a tree of [`Nulls`] nodes, which
//! [`de::from_str`] follows through serde's own parse (the fast path), [`strip_text`] through
//! the argument text where that parse fails (one pass, no `serde_json::Value`; it finds the
//! errors, and reads the rare keys the fast path leaves to it) and [`strip_value`] through a
//! value.
//!
//! The same tree says where a missing field's `#[tool(default = ..)]` value goes
//! ([`NullField::fill`]): [`fill_value`] writes those values into a `serde_json::Value` by
//! walking it, after the `null`s are dropped; and where a set's items must all differ
//! ([`Nulls::Unique`]), which [`check_value`] checks.

pub(crate) mod de;

use std::borrow::Cow;
use std::cell::RefCell;

use serde_json::Value;

use crate::parse::constraints::Violation;

/// Where `null`s stand for missing fields with a default, in a value of some type: a compile-time
/// tree, built by `#[derive(ToolSchema)]` and the standard library impls, that argument parsing
/// follows through the JSON.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Nulls {
    /// Nothing to strip here or below.
    None,
    /// An object: the fields that have a default or lead to one, and the nodes of its
    /// `#[serde(flatten)]` fields, which read the keys it does not know.
    Object(&'static [NullField], &'static [Nulls]),
    /// An array whose items all follow the node.
    Items(&'static Nulls),
    /// An array whose items all follow the node and must all differ: a set, whose schema says
    /// `uniqueItems` and which serde reads merging repeats without a word ([`check_value`]).
    Unique(&'static Nulls),
    /// An array whose items follow the nodes position by position (a tuple).
    Tuple(&'static [Nulls]),
    /// An object whose values all follow the node (a map).
    Values(&'static Nulls),
    /// The alternatives of an enum, any of which may be what the JSON is: a key is stripped if
    /// an alternative defaults it and none reads its `null` as a value ([`Nulls::Keep`]), and
    /// its value follows all of theirs. (Untagged variants: which one serde takes is known only
    /// by trying them.)
    Any(&'static [Nulls]),
    /// The untagged alternatives of an enum (the whole enum's, or its `#[serde(untagged)]`
    /// variants'), which serde tries in turn: stripped as [`Nulls::Any`], but no
    /// `#[tool(default = ..)]` value is filled in below it, where which variant the model meant
    /// is not known (a value filled in for one could make serde take it over another).
    Untagged(&'static [Nulls]),
    /// An internally or adjacently tagged enum: the object's member named by the first field (a
    /// string) names the variant whose node the whole object follows, its fields beside the tag
    /// (internal) or `{"<content>": ..}` (adjacent), so each variant's `null`s are stripped as
    /// that variant reads them. An object whose tag is missing, or names no case, follows
    /// nothing: serde refuses it whatever is stripped. Resolved on entering the object
    /// ([`resolve_tags`]).
    Tagged(&'static str, &'static [TagCase]),
    /// The node of a type that leads back to the type being defined (a recursive type), found
    /// when it is needed: a const would be a cycle. Counts as nothing to strip in
    /// [`Nulls::strips`], as it leads back to a tree being looked at already.
    Lazy(fn() -> &'static Nulls),
    /// The node of a type that leads back to the one holding it (a cycle the derive found, or a
    /// field marked `#[tool(recursive)]`), found when it is needed, as [`Nulls::Lazy`]. What is
    /// behind it is not known where it is held, so it counts as having something to strip.
    Cycle(fn() -> &'static Nulls),
    /// A field of an untagged variant that reads `null` as a value (a `serde_json::Value`, `()`,
    /// or one read by `deserialize_with`), where missing is not the same: when another variant
    /// defaults the same key, which of the two serde takes is known only by trying, so argument
    /// parsing tries the `null` kept and dropped ([`Conflicts`]). Nothing to strip in itself.
    Keep,
}

/// A variant of a [`Nulls::Tagged`]: the tag's value that names it, and its node.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct TagCase {
    /// The string serde reads for the variant.
    pub name: &'static str,
    /// What the object follows when its tag names the variant.
    pub node: &'static Nulls,
}

/// A field of a [`Nulls::Object`].
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct NullField {
    /// The property name serde reads.
    pub name: &'static str,
    /// Whether the field has a default (`#[serde(default)]` on it or its container, or
    /// `#[tool(default = ..)]`): then `null` is dropped and the default applies.
    pub default: bool,
    /// The JSON text of its `#[tool(default = ..)]` value, written in where the key is missing
    /// (after its `null` is dropped), so that serde finds it.
    pub fill: Option<&'static str>,
    /// The node of the field's value.
    pub inner: &'static Nulls,
}

impl NullField {
    /// A field without a default whose value may hold one ([`NullField::inner`]).
    pub const fn nested(name: &'static str, inner: &'static Nulls) -> NullField {
        NullField {
            name,
            default: false,
            fill: None,
            inner,
        }
    }
}

impl Nulls {
    /// Whether the tree has anything to strip: a field with a default somewhere in it.
    pub const fn strips(&self) -> bool {
        self.has(Work::Strip)
    }

    /// Whether the tree has a `#[tool(default = ..)]` value to fill in ([`fill_value`]): a field
    /// with one somewhere in it, not below [`Nulls::Untagged`]. A type that leads back to the one
    /// being asked about ([`Nulls::Lazy`]) adds nothing new; one behind a marked field
    /// ([`Nulls::Cycle`]) is not known here, so it counts as filling.
    pub const fn fills(&self) -> bool {
        self.has(Work::Fill)
    }

    /// Whether the tree has a set whose items must all differ ([`Nulls::Unique`],
    /// [`check_value`]), not below [`Nulls::Untagged`] (which variant serde reads is not known
    /// there). Lazy and marked nodes count as for [`Nulls::fills`].
    pub const fn checks(&self) -> bool {
        self.has(Work::Check)
    }

    /// Whether a `#[tool(default = ..)]` value is anywhere in the tree, below
    /// [`Nulls::Untagged`] too, where it is not filled in: the stripping parse, which fills as it
    /// reads, is not used for such a tree unless [`Nulls::fills_as_read`].
    pub const fn fills_anywhere(&self) -> bool {
        self.has(Work::FillAnywhere)
    }

    /// Whether argument parsing has `work` to do somewhere in the tree.
    const fn has(&self, work: Work) -> bool {
        match self {
            Nulls::None | Nulls::Lazy(_) | Nulls::Keep => false,
            Nulls::Cycle(_) => true,
            Nulls::Unique(inner) => matches!(work, Work::Check) || inner.has(work),
            Nulls::Items(inner) | Nulls::Values(inner) => inner.has(work),
            // Only `null`s are dropped below an untagged enum.
            Nulls::Untagged(nodes) => match work {
                Work::Strip | Work::FillAnywhere => any_has(nodes, work),
                Work::FillUntagged => any_has(nodes, Work::FillAnywhere),
                Work::Fill | Work::Check => false,
            },
            Nulls::Tuple(nodes) | Nulls::Any(nodes) => any_has(nodes, work),
            Nulls::Tagged(_, cases) => {
                let mut rest = *cases;
                while let [case, tail @ ..] = rest {
                    if case.node.has(work) {
                        return true;
                    }
                    rest = tail;
                }
                false
            }
            Nulls::Object(fields, flattened) => {
                let mut rest = *fields;
                while let [field, tail @ ..] = rest {
                    let own = match work {
                        Work::Strip => field.default,
                        Work::Fill | Work::FillAnywhere => field.fill.is_some(),
                        Work::Check | Work::FillUntagged => false,
                    };
                    if own || field.inner.has(work) {
                        return true;
                    }
                    rest = tail;
                }
                any_has(flattened, work)
            }
        }
    }

    /// Whether the stripping parse ([`de::from_str`]), which fills as it reads, fills every
    /// value to fill in as [`fill_value`] does: none is below an untagged enum's alternatives
    /// (where the stripping parse, which drops `null`s there, would fill too), and no type that
    /// leads back ([`Nulls::Cycle`]) is on the way (what is behind it is not known here).
    /// Argument parsing takes that one pass for such types, and the `serde_json::Value` path
    /// for the others.
    pub const fn fills_as_read(&self) -> bool {
        !self.has(Work::FillUntagged)
    }

    /// An object of `fields` and no flattened ones, [pruned](Nulls::pruned): one call where the
    /// derive would write the variant, its empty list of flattened nodes and the call.
    pub const fn fields(fields: &'static [NullField]) -> Nulls {
        Nulls::Object(fields, &[]).pruned()
    }

    /// The tree, or [`Nulls::None`] when it has nothing to strip and no set to check: what a type
    /// declares, so that the types around it can leave it out.
    pub const fn pruned(self) -> Nulls {
        if self.strips() || self.checks() {
            self
        } else {
            Nulls::None
        }
    }
}

/// Checks what only the JSON shows, as `node` tells: that no set's items repeat, at any depth
/// (serde merges repeats without a word, where the schema says `uniqueItems`). The error says
/// where, as a path. The walk follows serde's reading as [`fill_value`] does: an internally or
/// adjacently tagged enum's variant by its tag, nothing below [`Nulls::Untagged`].
pub(crate) fn check_value(value: &Value, node: &'static Nulls) -> Result<(), Violation> {
    check_at(value, node, 0)
}

/// [`check_node`] of a value, with a budget of steps of its own (see [`fill_node`]).
fn check_at(value: &Value, node: &'static Nulls, depth: usize) -> Result<(), Violation> {
    let mut steps = MAX_STEPS;
    check_node(value, node, depth, &mut steps)
}

fn check_node(
    value: &Value,
    node: &'static Nulls,
    depth: usize,
    steps: &mut usize,
) -> Result<(), Violation> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    match node {
        Nulls::None | Nulls::Keep | Nulls::Untagged(_) => {}
        Nulls::Object(fields, flattened) => {
            if let Value::Object(map) = value {
                for field in *fields {
                    if let Some(inner) = map.get(field.name) {
                        check_at(inner, field.inner, depth + 1)
                            .map_err(|v| v.within_field(field.name))?;
                    }
                }
            }
            for node in *flattened {
                if take_step(steps) {
                    check_node(value, node, depth, steps)?;
                }
            }
        }
        Nulls::Items(inner) | Nulls::Unique(inner) => {
            if let Value::Array(items) = value {
                if let Nulls::Unique(_) = node
                    && let Some((earlier, later)) = crate::schema::first_repeat(items)
                {
                    return Err(Violation::repeated(earlier).within_index(later));
                }
                for (index, item) in items.iter().enumerate() {
                    check_at(item, inner, depth + 1).map_err(|v| v.within_index(index))?;
                }
            }
        }
        Nulls::Tuple(nodes) => {
            if let Value::Array(items) = value {
                for (index, (item, node)) in items.iter().zip(*nodes).enumerate() {
                    check_at(item, node, depth + 1).map_err(|v| v.within_index(index))?;
                }
            }
        }
        Nulls::Values(inner) => {
            if let Value::Object(map) = value {
                for (key, item) in map {
                    check_at(item, inner, depth + 1).map_err(|v| v.within_field(key))?;
                }
            }
        }
        Nulls::Any(alternatives) => {
            if take_step(steps) {
                for alternative in *alternatives {
                    check_node(value, alternative, depth, steps)?;
                }
            }
        }
        Nulls::Tagged(tag, cases) => {
            if let Some(case) = tagged_case(value, tag, cases)
                && take_step(steps)
            {
                check_node(value, case.node, depth, steps)?;
            }
        }
        Nulls::Lazy(resolve) | Nulls::Cycle(resolve) => {
            if take_step(steps) {
                check_node(value, resolve(), depth, steps)?;
            }
        }
    }
    Ok(())
}

/// The variant of a tagged enum that the tag of `value` (an object) names: by its name, or by
/// its index, which serde reads where it has buffered the object (a flattened enum), as
/// [`resolve_tags`] finds it in the text.
fn tagged_case(value: &Value, tag: &str, cases: &'static [TagCase]) -> Option<&'static TagCase> {
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
/// below [`Nulls::Untagged`].
pub(crate) fn fill_value(value: &mut Value, node: &'static Nulls) {
    fill_at(value, node, 0);
}

/// [`fill_node`] of a value, with a budget of steps of its own.
fn fill_at(value: &mut Value, node: &'static Nulls, depth: usize) {
    let mut steps = MAX_STEPS;
    fill_node(value, node, depth, &mut steps);
}

/// [`fill_value`] at `depth`; `steps` bounds the nodes passed through without going into the
/// value (`Any`, `Lazy`, flattened and tagged ones), which a type that flattens itself would
/// pass forever. Each value inside starts with a budget of its own.
fn fill_node(value: &mut Value, node: &'static Nulls, depth: usize, steps: &mut usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match node {
        Nulls::None | Nulls::Keep | Nulls::Untagged(_) => {}
        Nulls::Object(fields, flattened) => {
            if let Value::Object(map) = value {
                for field in *fields {
                    if let Some(text) = field.fill
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
        Nulls::Items(inner) | Nulls::Unique(inner) => {
            if let Value::Array(items) = value {
                for item in items {
                    fill_at(item, inner, depth + 1);
                }
            }
        }
        Nulls::Tuple(nodes) => {
            if let Value::Array(items) = value {
                for (item, node) in items.iter_mut().zip(*nodes) {
                    fill_at(item, node, depth + 1);
                }
            }
        }
        Nulls::Values(inner) => {
            if let Value::Object(map) = value {
                for item in map.values_mut() {
                    fill_at(item, inner, depth + 1);
                }
            }
        }
        Nulls::Any(alternatives) => {
            if take_step(steps) {
                for alternative in *alternatives {
                    fill_node(value, alternative, depth, steps);
                }
            }
        }
        Nulls::Tagged(tag, cases) => {
            if let Some(case) = tagged_case(value, tag, cases)
                && take_step(steps)
            {
                fill_node(value, case.node, depth, steps);
            }
        }
        Nulls::Lazy(resolve) | Nulls::Cycle(resolve) => {
            if take_step(steps) {
                fill_node(value, resolve(), depth, steps);
            }
        }
    }
}

/// The work [`Nulls::has`] asks about.
#[derive(Clone, Copy)]
enum Work {
    Strip,
    Fill,
    FillAnywhere,
    Check,
    /// A value to fill below an untagged enum's alternatives, or a marked field on the way
    /// ([`Nulls::fills_as_read`]).
    FillUntagged,
}

const fn any_has(mut nodes: &[Nulls], work: Work) -> bool {
    while let [node, tail @ ..] = nodes {
        if node.has(work) {
            return true;
        }
        nodes = tail;
    }
    false
}

/// `T::NULLS`, for [`Nulls::Lazy`].
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub fn nulls_of<T: crate::ToolSchema + ?Sized>() -> &'static Nulls {
    &T::NULLS
}

/// `T` parsed from `text` with the `null`s of its fields with a default dropped as serde reads
/// it ([`de::from_str`]): the fast path of argument parsing alone, without the fallbacks that
/// make its errors precise, and without the constraint checks.
///
/// Not public API (it is reached through `toolgen::__private`, for the tests that check that
/// arguments take this path, and for the benchmark).
#[doc(hidden)]
pub fn parse_stripping<T>(text: &str) -> serde_json::Result<T>
where
    T: crate::ToolSchema + serde::de::DeserializeOwned,
{
    de::from_str(text, &T::NULLS)
}

/// [`strip_text`] for the benchmark that compares the text stripper with [`parse_stripping`]:
/// `None` where nothing was dropped.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub fn strip_text_of<T: crate::ToolSchema + ?Sized>(text: &str) -> Option<String> {
    strip_text(text, &T::NULLS, &mut Conflicts::default())
}

/// serde_json's nesting limit: deeper text is an error there, so the stripper gives up on it.
const MAX_DEPTH: usize = 128;

/// How many `Any`, `Lazy` and flattened nodes one look-up may pass through. The trees come from
/// the program's types, not from the input, but a type that flattens itself, or an untagged enum
/// whose variants lead back to it, would go round forever.
const MAX_STEPS: usize = 256;

/// A set of concrete nodes (`Object`, `Items`, `Tuple`, `Values`) that a JSON value follows:
/// several when an enum's alternatives meet. Sets live one after another in a `Vec`, a stack.
type Stack = Vec<&'static Nulls>;

thread_local! {
    /// Emptied lists of nodes, for [`with_nodes`] to hand out again.
    static SPARE_NODES: RefCell<Vec<Stack>> = const { RefCell::new(Vec::new()) };
}

/// Most spare lists [`with_nodes`] keeps.
const MAX_SPARE: usize = 8;

/// `f` with an empty list of nodes to fill, reused from call to call. The stripping parse works
/// out a set for every key of an object whose nodes meet (a flattened enum's, a map's) and
/// resolves its tagged enums, each in a list of its own: allocating, growing and freeing a new
/// one each time cost 20 operations with a tagged enum flattened in about 12 k of their 244 k
/// instructions (`benches/parse_cost.sh`). Calls may nest; each gets a list of its own.
///
/// Where the pool is out of reach (a parse run by another thread-local's destructor, as its
/// thread ends), a new list is made and dropped, as before the pool.
pub(crate) fn with_nodes<R>(f: impl FnOnce(&mut Stack) -> R) -> R {
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
fn expand(node: &'static Nulls, stack: &mut Stack, from: usize, steps: &mut usize) {
    match node {
        Nulls::None | Nulls::Keep => {}
        Nulls::Any(alternatives) | Nulls::Untagged(alternatives) => {
            if take_step(steps) {
                for alternative in *alternatives {
                    expand(alternative, stack, from, steps);
                }
            }
        }
        Nulls::Lazy(resolve) | Nulls::Cycle(resolve) => {
            if take_step(steps) {
                expand(resolve(), stack, from, steps);
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

fn take_step(steps: &mut usize) -> bool {
    match steps.checked_sub(1) {
        Some(left) => {
            *steps = left;
            true
        }
        None => false,
    }
}

/// What a key names in an object's node set: the field with a default, if any, and whether a
/// variant in the set reads the key's `null` as a value ([`Nulls::Keep`]).
#[derive(Clone, Copy, Default)]
pub(crate) struct Found {
    default: Option<&'static str>,
    keep: bool,
    /// Whether the default comes before the keep, in the order serde tries the variants.
    default_first: bool,
}

impl Found {
    /// What `field` says about its key.
    #[inline]
    fn field(field: &'static NullField) -> Found {
        Found {
            default: field.default.then_some(field.name),
            keep: !field.default && matches!(field.inner, Nulls::Keep),
            default_first: field.default,
        }
    }

    /// Both, `self` met first.
    fn or(self, later: Found) -> Found {
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
    pub(crate) fn defaulted(self) -> Option<&'static str> {
        self.default
    }

    /// Whether the variants disagree about the key's `null`: one defaults it, another reads it.
    pub(crate) fn conflict(self) -> bool {
        self.default.is_some() && self.keep
    }

    /// The field whose member is dropped when its value is `null` (`null` tells whether it is):
    /// the field with a default the key names, unless the variants disagree about it, which
    /// [`Conflicts::met`] records.
    fn drops(self, null: bool, conflicts: &mut Conflicts) -> Option<&'static str> {
        if null && self.conflict() {
            conflicts.met = true;
            return None;
        }
        self.default
    }

    /// Whether a `null` for the key is dropped whatever else is read: a field with a default
    /// names it, and no variant reads the `null` as a value.
    fn strips_null(self) -> bool {
        self.default.is_some() && !self.keep
    }
}

/// The `null`s an untagged enum's variants disagree about (one defaults its key, another reads
/// the `null` as a value), which the strippers keep: serde takes the first variant that reads
/// the object, so whether the `null` goes is known only by trying. Argument parsing then tries
/// the choices object by object ([`Conflict`]).
#[derive(Debug, Default)]
pub(crate) struct Conflicts {
    /// Whether one was met.
    pub(crate) met: bool,
    /// Where each one is, when asked for (`Some`: [`strip_value_with`] records them).
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
fn lookup(
    node: &'static Nulls,
    key: &[u8],
    stack: &mut Stack,
    from: usize,
    steps: &mut usize,
) -> Found {
    match node {
        Nulls::Object(fields, flattened) => {
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
        Nulls::Values(inner) => {
            expand(inner, stack, from, steps);
            Found::default()
        }
        Nulls::Any(alternatives) | Nulls::Untagged(alternatives) => {
            let mut found = Found::default();
            if take_step(steps) {
                for alternative in *alternatives {
                    found = found.or(lookup(alternative, key, stack, from, steps));
                }
            }
            found
        }
        Nulls::Lazy(resolve) | Nulls::Cycle(resolve) => {
            if take_step(steps) {
                lookup(resolve(), key, stack, from, steps)
            } else {
                Found::default()
            }
        }
        // A tagged enum is resolved into its variant's node on entering the object.
        Nulls::None
        | Nulls::Items(_)
        | Nulls::Unique(_)
        | Nulls::Tuple(_)
        | Nulls::Tagged(..)
        | Nulls::Keep => Found::default(),
    }
}

/// Whether the object whose set is `nodes` needs [`resolve_tags`]: a tagged enum is in the set,
/// or flattened into one of its objects.
#[inline]
fn has_tagged(nodes: &[&'static Nulls]) -> bool {
    let mut steps = MAX_STEPS;
    with_nodes(|found| {
        nodes.iter().any(|node| match node {
            Nulls::Tagged(..) => true,
            Nulls::Object(_, flattened) => flattened.iter().any(|f| {
                flattened_tagged(f, found, &mut steps);
                !found.is_empty()
            }),
            _ => false,
        })
    })
}

/// Appends to `found` the tagged enums `node` brings, flattened into an object.
fn flattened_tagged(node: &'static Nulls, found: &mut Vec<&'static Nulls>, steps: &mut usize) {
    if !take_step(steps) {
        return;
    }
    match node {
        Nulls::Tagged(..) => found.push(node),
        Nulls::Object(_, flattened) | Nulls::Any(flattened) | Nulls::Untagged(flattened) => {
            for f in *flattened {
                flattened_tagged(f, found, steps);
            }
        }
        Nulls::Lazy(resolve) | Nulls::Cycle(resolve) => flattened_tagged(resolve(), found, steps),
        _ => {}
    }
}

/// Resolves the tagged enums of the set `stack[set..]`, which an object follows, into the nodes
/// of the variants their tags name: `tag_of(name)` is the object's member `name` when it is a
/// string. A tagged enum in the set is replaced by its variant's node; one flattened into an
/// object of the set gets its variant's node added to the set (it reads the keys the object's own
/// fields leave, and the names of the two never meet). A variant that is itself a tagged enum,
/// or flattens one, is resolved in turn.
fn resolve_tags<'t>(stack: &mut Stack, set: usize, tag_of: impl FnMut(&str) -> Option<Tag<'t>>) {
    with_nodes(|found| {
        with_nodes(|resolved| resolve_tags_with(stack, set, tag_of, found, resolved))
    })
}

/// [`resolve_tags`], with two empty lists to work in (the enums found, and those resolved).
fn resolve_tags_with<'t>(
    stack: &mut Stack,
    set: usize,
    mut tag_of: impl FnMut(&str) -> Option<Tag<'t>>,
    found: &mut Stack,
    resolved: &mut Stack,
) {
    let mut steps = MAX_STEPS;
    // Each enum is resolved once (one that leads back to itself would come back), and each tag
    // looked up once: the first apart (there is seldom another), not to allocate a list for it.
    let mut first_tag: Option<(&'static str, Option<Tag<'t>>)> = None;
    let mut tags: Vec<(&'static str, Option<Tag<'t>>)> = Vec::new();
    let mut at = set;
    while let Some(&node) = stack.get(at) {
        match node {
            Nulls::Tagged(..) => {
                stack.remove(at);
                found.push(node);
            }
            Nulls::Object(_, flattened) => {
                for f in *flattened {
                    flattened_tagged(f, found, &mut steps);
                }
                at += 1;
            }
            _ => at += 1,
        }
        for tagged in found.drain(..) {
            let Nulls::Tagged(tag, cases) = tagged else {
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
enum Tag<'t> {
    Name(Cow<'t, str>),
    Index(u64),
}

/// `name == key`, byte by byte: names are short, and a call to `memcmp` costs more.
#[inline]
fn same_key(name: &[u8], key: &[u8]) -> bool {
    name.len() == key.len() && name.iter().zip(key).all(|(a, b)| a == b)
}

/// Looks `key` up in the set `stack[set..end]`; the nodes of its value go on after `end`.
fn lookup_set(stack: &mut Stack, set: usize, end: usize, key: &[u8]) -> Found {
    // The common case: one plain object.
    if end == set + 1
        && let Some(Nulls::Object(fields, [])) = stack.get(set).copied()
    {
        let Some(field) = fields.iter().find(|f| same_key(f.name.as_bytes(), key)) else {
            return Found::default();
        };
        if !matches!(field.inner, Nulls::None | Nulls::Keep) {
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
fn item_set(stack: &mut Stack, set: usize, end: usize, index: usize) {
    let mut steps = MAX_STEPS;
    for at in set..end {
        match stack.get(at).copied() {
            Some(Nulls::Items(inner) | Nulls::Unique(inner)) => {
                expand(inner, stack, end, &mut steps);
            }
            Some(Nulls::Tuple(items)) => {
                if let Some(inner) = items.get(index) {
                    expand(inner, stack, end, &mut steps);
                }
            }
            _ => {}
        }
    }
}

/// Drops the members `"key": null` of `text` (JSON) whose key has a default where it is, as
/// `root` tells, fixing the commas around them.
///
/// `None` when nothing was dropped, and when the text is not JSON, nests deeper than serde_json
/// reads, or repeats a key next to a dropped one: the caller then parses `text` as it is, and
/// serde reports what is wrong with it. Objects and arrays with nothing to strip in them are
/// skipped rather than read (strings read, brackets counted): what is wrong in there is not
/// seen here, but is copied as it is, and serde rejects the stripped text; the caller then
/// parses the original for serde's own error. (Dropping well-formed members never makes text
/// that is not JSON into JSON: the parser meets what is wrong in the same state as before.)
///
/// A `null` that an untagged enum's variants disagree about is kept or dropped as `conflicts`
/// says, and the first one met is recorded there.
pub(crate) fn strip_text(
    text: &str,
    root: &'static Nulls,
    conflicts: &mut Conflicts,
) -> Option<String> {
    if !may_strip(text.as_bytes(), root) {
        return None;
    }
    let mut stack = Vec::with_capacity(16);
    let mut steps = MAX_STEPS;
    expand(root, &mut stack, 0, &mut steps);
    let cuts = scan(text.as_bytes(), &mut stack, conflicts)?;
    if cuts.is_empty() {
        return None;
    }
    let removed: usize = cuts.iter().map(|(start, end)| end - start).sum();
    let mut out = String::with_capacity(text.len().saturating_sub(removed));
    let mut at = 0;
    for &(start, end) in &cuts {
        out.push_str(text.get(at..start)?);
        at = end;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}

/// Whether `bytes` may have a member to drop: a `null` after `"key":`, where the key is the name
/// of a field with a default somewhere in the tree. A quick look before the full pass, which
/// arguments with no such member (only plain `Option`s sent as `null`) are then spared. It may
/// answer yes wrongly (text in a string that looks like a member, a name with a default in
/// another object), never no wrongly on JSON.
fn may_strip(bytes: &[u8], root: &'static Nulls) -> bool {
    let mut names = None;
    let mut from = 0;
    while let Some(at) = find_null(bytes, from) {
        from = at + 1;
        let Some(key) = key_before(bytes, at) else {
            continue;
        };
        // A key with escapes is not compared here.
        if key.contains(&b'\\') {
            return true;
        }
        let names = names.get_or_insert_with(|| {
            let mut names = Vec::new();
            let mut seen = Vec::new();
            let mut steps = MAX_NAME_STEPS;
            default_names(root, &mut names, &mut seen, &mut steps).then_some(names)
        });
        match names {
            Some(names) => {
                if names.iter().any(|name| same_key(name.as_bytes(), key)) {
                    return true;
                }
            }
            // A tree too large to list: the full pass decides.
            None => return true,
        }
    }
    false
}

/// How many nodes [`default_names`] visits before it gives up.
const MAX_NAME_STEPS: usize = 4096;

/// Appends the names of the fields with a default in the tree to `names`; `false` if the tree
/// has more nodes than `steps`. `seen` holds the `Lazy` targets visited already.
fn default_names(
    node: &'static Nulls,
    names: &mut Vec<&'static str>,
    seen: &mut Vec<*const Nulls>,
    steps: &mut usize,
) -> bool {
    if !take_step(steps) {
        return false;
    }
    match node {
        Nulls::None | Nulls::Keep => true,
        Nulls::Object(fields, flattened) => {
            fields.iter().all(|field| {
                if field.default && !names.contains(&field.name) {
                    names.push(field.name);
                }
                default_names(field.inner, names, seen, steps)
            }) && flattened
                .iter()
                .all(|node| default_names(node, names, seen, steps))
        }
        Nulls::Items(inner) | Nulls::Unique(inner) | Nulls::Values(inner) => {
            default_names(inner, names, seen, steps)
        }
        Nulls::Tuple(nodes) | Nulls::Any(nodes) | Nulls::Untagged(nodes) => nodes
            .iter()
            .all(|node| default_names(node, names, seen, steps)),
        Nulls::Tagged(_, cases) => cases
            .iter()
            .all(|case| default_names(case.node, names, seen, steps)),
        Nulls::Lazy(resolve) | Nulls::Cycle(resolve) => {
            let target = resolve();
            let pointer: *const Nulls = target;
            if seen.contains(&pointer) {
                return true;
            }
            seen.push(pointer);
            default_names(target, names, seen, steps)
        }
    }
}

/// The text of the key before the `null` at `at`, if it stands after `"key":` (with any
/// whitespace), read backwards.
fn key_before(bytes: &[u8], at: usize) -> Option<&[u8]> {
    let before_whitespace = |mut end: usize| {
        while end > 0 && matches!(bytes.get(end - 1), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            end -= 1;
        }
        end
    };
    let colon = before_whitespace(at).checked_sub(1)?;
    if bytes.get(colon) != Some(&b':') {
        return None;
    }
    let quote = before_whitespace(colon).checked_sub(1)?;
    if bytes.get(quote) != Some(&b'"') {
        return None;
    }
    // The opening quote: the first `"` before, unless a backslash precedes it, in which case the
    // key has escapes and is returned from there (the caller does not compare those).
    let open = bytes.get(..quote)?.iter().rposition(|&b| b == b'"')?;
    match open.checked_sub(1) {
        Some(before) if bytes.get(before) == Some(&b'\\') => bytes.get(before..quote),
        _ => bytes.get(open + 1..quote),
    }
}

/// The index of the first `null` at or after `from`, eight bytes at a time: each `n` followed
/// by `u` is checked.
fn find_null(bytes: &[u8], mut from: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // The high bit of each byte of `word` that is zero, exactly (no borrow between bytes).
    let zeros = |word: u64| !(((word & LOW) + LOW) | word) & !LOW;
    let is_null = |at: usize| matches!(bytes.get(at..at + 4), Some([b'n', b'u', b'l', b'l']));
    while let Some(Ok(chunk)) = bytes.get(from..from + 8).map(<[u8; 8]>::try_from) {
        let word = u64::from_le_bytes(chunk);
        // `n` at byte i and `u` at byte i + 1, for i in 0..7.
        let mut pairs =
            zeros(word ^ (ONES * u64::from(b'n'))) & (zeros(word ^ (ONES * u64::from(b'u'))) >> 8);
        while pairs != 0 {
            let at = from + (pairs.trailing_zeros() / 8) as usize;
            if is_null(at) {
                return Some(at);
            }
            pairs &= pairs - 1;
        }
        // The last byte is checked again with the next seven.
        from += 7;
    }
    (from..bytes.len()).find(|&at| is_null(at))
}

/// An open object or array.
struct Frame {
    /// An object (else an array).
    object: bool,
    /// Whether a member before was kept: then a dropped member takes the comma before it,
    /// otherwise the one after it.
    kept: bool,
    /// Whether a member was dropped.
    dropped: bool,
    /// Its node set: `stack[set..end]`.
    set: usize,
    end: usize,
    /// Where the next dropped member's cut starts: after the `{`, or after the member before.
    last_end: usize,
    /// The index of the current item (arrays).
    index: usize,
    /// Where the object's keys start in the list of keys.
    keys: usize,
}

/// A key of an object that names a field with a default.
struct Key {
    /// The field's name.
    name: &'static str,
    /// Whether its member was dropped.
    dropped: bool,
}

/// What the scanner reads next.
#[derive(Clone, Copy)]
enum State {
    /// A value.
    Value,
    /// A `,` or the end of the object or array, after a value.
    AfterValue,
    /// A member of an object: its key, `:`, and then its value.
    Member,
}

/// Reads `bytes` (JSON) in one pass, following the node sets, the root's on `stack`: the byte
/// ranges to leave out, in order and not overlapping. `None` where [`strip_text`] gives up.
fn scan(bytes: &[u8], stack: &mut Stack, conflicts: &mut Conflicts) -> Option<Vec<(usize, usize)>> {
    let mut frames: Vec<Frame> = Vec::with_capacity(16);
    let mut keys: Vec<Key> = Vec::with_capacity(16);
    let mut cuts = Vec::with_capacity(64);
    let mut decoded = String::new();
    let mut at = 0;
    let mut state = State::Value;
    loop {
        match state {
            State::Value => {
                at = skip_whitespace(bytes, at);
                // The value's node set is on top of the stack, after its object's or array's.
                let from = frames.last().map_or(0, |frame| frame.end);
                let byte = *bytes.get(at)?;
                if byte == b'{' || byte == b'[' {
                    if byte == b'{' && stack.get(from..).is_some_and(has_tagged) {
                        let members = at + 1;
                        resolve_tags(stack, from, |tag| tag_value(bytes, members, tag));
                    }
                    if from == stack.len() {
                        at = skip_container(bytes, at)?;
                        state = State::AfterValue;
                        continue;
                    }
                    if frames.len() >= MAX_DEPTH {
                        return None;
                    }
                    let object = byte == b'{';
                    at = skip_whitespace(bytes, at + 1);
                    frames.push(Frame {
                        object,
                        kept: false,
                        dropped: false,
                        set: from,
                        end: stack.len(),
                        last_end: at,
                        index: 0,
                        keys: keys.len(),
                    });
                    let close = if object { b'}' } else { b']' };
                    if bytes.get(at) == Some(&close) {
                        at += 1;
                        close_frame(&mut frames, &mut keys, stack)?;
                        state = State::AfterValue;
                    } else if object {
                        state = State::Member;
                    } else {
                        let end = stack.len();
                        item_set(stack, from, end, 0);
                    }
                    continue;
                }
                at = match byte {
                    b'"' => scan_string(bytes, at)?.0,
                    b't' => literal(bytes, at, b"true")?,
                    b'f' => literal(bytes, at, b"false")?,
                    b'n' => literal(bytes, at, b"null")?,
                    b'-' | b'0'..=b'9' => scan_number(bytes, at)?,
                    _ => return None,
                };
                stack.truncate(from);
                state = State::AfterValue;
            }
            State::AfterValue => {
                let Some(frame) = frames.last_mut() else {
                    return (skip_whitespace(bytes, at) == bytes.len()).then_some(cuts);
                };
                if frame.object {
                    frame.last_end = at;
                    frame.kept = true;
                }
                at = skip_whitespace(bytes, at);
                let byte = *bytes.get(at)?;
                at += 1;
                match (frame.object, byte) {
                    (true, b',') => state = State::Member,
                    (false, b',') => {
                        frame.index += 1;
                        let (set, end, index) = (frame.set, frame.end, frame.index);
                        if set < end {
                            item_set(stack, set, end, index);
                        }
                        state = State::Value;
                    }
                    (true, b'}') | (false, b']') => {
                        close_frame(&mut frames, &mut keys, stack)?;
                    }
                    _ => return None,
                }
            }
            State::Member => {
                at = skip_whitespace(bytes, at);
                if bytes.get(at) != Some(&b'"') {
                    return None;
                }
                let key_start = at + 1;
                let (after_key, escaped) = scan_string(bytes, at)?;
                at = skip_whitespace(bytes, after_key);
                if bytes.get(at) != Some(&b':') {
                    return None;
                }
                at = skip_whitespace(bytes, at + 1);
                state = State::Value;
                let frame = frames.last()?;
                let (set, end) = (frame.set, frame.end);
                let raw = bytes.get(key_start..after_key - 1)?;
                let key = if escaped {
                    decode_into(raw, &mut decoded)?;
                    decoded.as_bytes()
                } else {
                    raw
                };
                let null = matches!(bytes.get(at..at + 4), Some([b'n', b'u', b'l', b'l']));
                let Some(name) = lookup_set(stack, set, end, key).drops(null, conflicts) else {
                    continue;
                };
                keys.push(Key {
                    name,
                    dropped: false,
                });
                if !null {
                    continue;
                }
                // `"key": null` with a default: drop it, with one comma.
                let value_end = at + 4;
                stack.truncate(end);
                at = skip_whitespace(bytes, value_end);
                let separator = *bytes.get(at)?;
                let frame = frames.last_mut()?;
                let cut = match separator {
                    b',' if frame.kept => {
                        state = State::Member;
                        (frame.last_end, value_end)
                    }
                    b',' => {
                        state = State::Member;
                        (frame.last_end, at + 1)
                    }
                    b'}' => {
                        state = State::AfterValue;
                        (frame.last_end, value_end)
                    }
                    _ => return None,
                };
                cuts.push(cut);
                frame.last_end = cut.1;
                frame.dropped = true;
                if let Some(key) = keys.last_mut() {
                    key.dropped = true;
                }
                at += 1;
                if separator == b'}' {
                    close_frame(&mut frames, &mut keys, stack)?;
                }
            }
        }
    }
}

/// The value of the member `tag` of the object whose members start at `at` (after its `{`), when
/// it is a string or an index: the variant an internally or adjacently tagged enum is. serde
/// takes the first (a repeated tag is an error there).
fn tag_value<'b>(bytes: &'b [u8], mut at: usize, tag: &str) -> Option<Tag<'b>> {
    let mut decoded = String::new();
    loop {
        at = skip_whitespace(bytes, at);
        if bytes.get(at) != Some(&b'"') {
            return None;
        }
        let (after_key, escaped) = scan_string(bytes, at)?;
        let raw = bytes.get(at + 1..after_key - 1)?;
        let is_tag = if escaped {
            decode_into(raw, &mut decoded)?;
            decoded == tag
        } else {
            raw == tag.as_bytes()
        };
        at = skip_whitespace(bytes, after_key);
        if bytes.get(at) != Some(&b':') {
            return None;
        }
        at = skip_whitespace(bytes, at + 1);
        let start = at;
        at = match *bytes.get(at)? {
            b'"' => {
                let (end, escaped) = scan_string(bytes, at)?;
                if is_tag {
                    let raw = bytes.get(start + 1..end - 1)?;
                    if escaped {
                        decode_into(raw, &mut decoded)?;
                        return Some(Tag::Name(Cow::Owned(decoded)));
                    }
                    return std::str::from_utf8(raw)
                        .ok()
                        .map(|name| Tag::Name(Cow::Borrowed(name)));
                }
                end
            }
            // A variant's index, or nothing serde reads a variant from.
            _ if is_tag => {
                let end = scan_number(bytes, at).unwrap_or(at);
                let digits = std::str::from_utf8(bytes.get(at..end)?).ok()?;
                return digits.parse().ok().map(Tag::Index);
            }
            b'{' | b'[' => skip_container(bytes, at)?,
            b't' => literal(bytes, at, b"true")?,
            b'f' => literal(bytes, at, b"false")?,
            b'n' => literal(bytes, at, b"null")?,
            _ => scan_number(bytes, at)?,
        };
        at = skip_whitespace(bytes, at);
        match bytes.get(at)? {
            b',' => at += 1,
            _ => return None,
        }
    }
}

/// Closes the innermost object or array (its closing bracket read).
fn close_frame(frames: &mut Vec<Frame>, keys: &mut Vec<Key>, stack: &mut Stack) -> Option<()> {
    let frame = frames.pop()?;
    // A repeated key is an error for serde; dropping one copy would hide it. (Two keys that are
    // the same name the same field.)
    if frame.dropped && repeats_dropped_key(keys.get(frame.keys..).unwrap_or_default()) {
        return None;
    }
    keys.truncate(frame.keys);
    stack.truncate(frame.set);
    Some(())
}

#[inline]
fn skip_whitespace(bytes: &[u8], mut at: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(at) {
        at += 1;
    }
    at
}

/// The end of `word` (`true`, `false`, `null`), which must be at `at`.
#[inline]
fn literal(bytes: &[u8], at: usize, word: &[u8]) -> Option<usize> {
    let end = at + word.len();
    same_key(bytes.get(at..end)?, word).then_some(end)
}

/// The end of the string whose opening quote is at `at`, and whether it has escapes.
#[inline(always)]
fn scan_string(bytes: &[u8], at: usize) -> Option<(usize, bool)> {
    let mut at = at + 1;
    let mut escaped = false;
    loop {
        at = string_stop(bytes, at);
        match *bytes.get(at)? {
            b'"' => return Some((at + 1, escaped)),
            b'\\' => {
                escaped = true;
                at = match bytes.get(at + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => at + 2,
                    b'u' => {
                        let digits = bytes.get(at + 2..at + 6)?;
                        if !digits.iter().all(u8::is_ascii_hexdigit) {
                            return None;
                        }
                        at + 6
                    }
                    _ => return None,
                };
            }
            // A control character: not allowed in a JSON string.
            0..0x20 => return None,
            _ => at += 1,
        }
    }
}

/// The end of the number that starts at `at`.
fn scan_number(bytes: &[u8], mut at: usize) -> Option<usize> {
    let digits = |mut at: usize| {
        let start = at;
        while bytes.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        (at > start).then_some(at)
    };
    if bytes.get(at) == Some(&b'-') {
        at += 1;
    }
    at = match bytes.get(at)? {
        b'0' => at + 1,
        b'1'..=b'9' => digits(at)?,
        _ => return None,
    };
    if bytes.get(at) == Some(&b'.') {
        at = digits(at + 1)?;
    }
    if let Some(b'e' | b'E') = bytes.get(at) {
        at += 1;
        if let Some(b'+' | b'-') = bytes.get(at) {
            at += 1;
        }
        at = digits(at)?;
    }
    Some(at)
}

/// The end of the object or array whose `{` or `[` is at `at` and which has nothing to strip:
/// strings are passed over, brackets counted, the rest not looked at (see [`strip_text`]).
fn skip_container(bytes: &[u8], mut at: usize) -> Option<usize> {
    let mut depth = 0usize;
    loop {
        let byte = *bytes.get(at)?;
        at += 1;
        if byte == b'"' {
            // Escapes are passed over; whether they are valid is serde's to say.
            loop {
                at = string_stop(bytes, at);
                match *bytes.get(at)? {
                    b'"' => break,
                    b'\\' => at += 2,
                    _ => at += 1,
                }
            }
            at += 1;
        } else if byte == b'{' || byte == b'[' {
            depth += 1;
        } else if byte == b'}' || byte == b']' {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(at);
            }
        }
    }
}

/// The index of the first `"`, `\\` or control character at or after `at` (or the length), eight
/// bytes at a time: a string's text runs up to there.
#[inline(always)]
fn string_stop(bytes: &[u8], at: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const QUOTES: u64 = ONES * b'"' as u64;
    const BACKSLASHES: u64 = ONES * b'\\' as u64;
    const SPACES: u64 = ONES * 0x20;
    let rest = bytes.get(at..).unwrap_or_default();
    let mut chunks = rest.chunks_exact(8);
    let mut offset = at;
    for chunk in chunks.by_ref() {
        let word = match <[u8; 8]>::try_from(chunk) {
            Ok(chunk) => u64::from_le_bytes(chunk),
            Err(_) => break,
        };
        let quote = word ^ QUOTES;
        let backslash = word ^ BACKSLASHES;
        // The high bit of each byte that is zero (after the xor) or below 0x20. Borrows run from
        // low bytes to high ones, so the lowest bit set is exact; the bytes above it may be
        // flagged wrongly, which does not matter.
        let found = (quote.wrapping_sub(ONES) & !quote
            | backslash.wrapping_sub(ONES) & !backslash
            | word.wrapping_sub(SPACES) & !word)
            & HIGH;
        if found != 0 {
            return offset + (found.trailing_zeros() / 8) as usize;
        }
        offset += 8;
    }
    for &byte in chunks.remainder() {
        if byte == b'"' || byte == b'\\' || byte < 0x20 {
            break;
        }
        offset += 1;
    }
    offset
}

/// Whether a dropped key of one object appears twice in it. (The same key finds the same field
/// in the same object's node set, so the names are the same `&'static str`.)
fn repeats_dropped_key(keys: &[Key]) -> bool {
    keys.iter().enumerate().any(|(at, key)| {
        key.dropped
            && keys
                .iter()
                .enumerate()
                .any(|(other_at, other)| other_at != at && std::ptr::eq(other.name, key.name))
    })
}

/// Decodes the text of a JSON string (between the quotes, already checked) into `out`; `None`
/// for an escape that is not a character (a lone surrogate).
fn decode_into(raw: &[u8], out: &mut String) -> Option<()> {
    out.clear();
    let text = std::str::from_utf8(raw).ok()?;
    let mut rest = text;
    while let Some(at) = rest.find('\\') {
        out.push_str(rest.get(..at)?);
        let escape = rest.get(at + 1..)?;
        let (decoded, used) = match escape.as_bytes().first()? {
            b'"' => ('"', 1),
            b'\\' => ('\\', 1),
            b'/' => ('/', 1),
            b'b' => ('\u{8}', 1),
            b'f' => ('\u{c}', 1),
            b'n' => ('\n', 1),
            b'r' => ('\r', 1),
            b't' => ('\t', 1),
            b'u' => {
                let first = hex4(escape.get(1..5)?)?;
                match first {
                    0xD800..=0xDBFF => {
                        let low = escape
                            .get(5..7)
                            .filter(|s| *s == "\\u")
                            .and_then(|_| escape.get(7..11))
                            .and_then(hex4)?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return None;
                        }
                        let code = 0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00);
                        (char::from_u32(code)?, 11)
                    }
                    _ => (char::from_u32(first)?, 5),
                }
            }
            _ => return None,
        };
        out.push(decoded);
        rest = escape.get(used..)?;
    }
    out.push_str(rest);
    Some(())
}

fn hex4(digits: &str) -> Option<u32> {
    if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

/// [`strip_text`] on a value: removes the members `key: null` whose key has a default where it
/// is. Values nested deeper than serde_json reads text are left as they are.
///
/// Not public API (it is reached through `toolgen::__private`, for the benchmark that compares
/// it with the text stripper).
#[doc(hidden)]
pub fn strip_value(value: &mut Value, root: &'static Nulls) {
    strip_value_with(value, root, &mut Conflicts::default());
}

/// [`strip_value`], which keeps the `null`s an untagged enum's variants disagree about, and
/// records them in `conflicts`.
pub(crate) fn strip_value_with(value: &mut Value, root: &'static Nulls, conflicts: &mut Conflicts) {
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
struct Walker<'c> {
    stack: Stack,
    conflicts: &'c mut Conflicts,
    /// Where the walk is, kept only while conflicts are recorded.
    path: Vec<Segment>,
}

impl Walker<'_> {
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
                    resolve_tags(&mut self.stack, set, |tag| match map.get(tag)? {
                        Value::String(name) => Some(Tag::Name(Cow::Borrowed(name))),
                        number => number.as_u64().map(Tag::Index),
                    });
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

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: Nulls = Nulls::None;

    /// Each call, nested or not, gets an empty list of its own, and leaves it for the next.
    #[test]
    fn node_lists_are_lent_empty_and_apart() {
        const LEAF: Nulls = Nulls::None;
        let outer = with_nodes(|outer| {
            assert!(outer.is_empty());
            outer.push(&LEAF);
            let inner = with_nodes(|inner| {
                assert!(inner.is_empty(), "a nested call has a list of its own");
                inner.push(&LEAF);
                inner.push(&LEAF);
                inner.len()
            });
            assert_eq!(outer.len(), 1, "the inner call left the outer list alone");
            inner
        });
        assert_eq!(outer, 2);
        assert!(
            with_nodes(|again| again.is_empty()),
            "a list comes back emptied"
        );
    }
    /// `{ a (default), b (default), c, inner: { x (default) }, list: [{ x (default) }] }`
    const INNER: Nulls = Nulls::Object(
        &[NullField {
            name: "x",
            default: true,
            fill: None,
            inner: &NONE,
        }],
        &[],
    );
    const ROOT: Nulls = Nulls::Object(
        &[
            NullField {
                name: "a",
                default: true,
                fill: None,
                inner: &NONE,
            },
            NullField {
                name: "b",
                default: true,
                fill: None,
                inner: &NONE,
            },
            NullField {
                name: "c",
                default: false,
                fill: None,
                inner: &NONE,
            },
            NullField {
                name: "inner",
                default: false,
                fill: None,
                inner: &INNER,
            },
            NullField {
                name: "list",
                default: false,
                fill: None,
                inner: &Nulls::Items(&INNER),
            },
            NullField {
                name: "map",
                default: false,
                fill: None,
                inner: &Nulls::Values(&INNER),
            },
            NullField {
                name: "pair",
                default: false,
                fill: None,
                inner: &Nulls::Tuple(&[Nulls::None, INNER]),
            },
        ],
        &[],
    );

    fn strip(text: &str) -> Option<String> {
        strip_text(text, &ROOT, &mut Conflicts::default())
    }

    #[test]
    fn drops_first_middle_last_and_all() {
        assert_eq!(strip(r#"{"a":null}"#).as_deref(), Some("{}"));
        assert_eq!(strip(r#"{"a":null,"c":1}"#).as_deref(), Some(r#"{"c":1}"#));
        assert_eq!(strip(r#"{"c":1,"a":null}"#).as_deref(), Some(r#"{"c":1}"#));
        assert_eq!(
            strip(r#"{"c":1,"a":null,"d":2}"#).as_deref(),
            Some(r#"{"c":1,"d":2}"#)
        );
        assert_eq!(strip(r#"{"a":null,"b":null}"#).as_deref(), Some("{}"));
        assert_eq!(
            strip(r#"{"a":null,"c":1,"b":null}"#).as_deref(),
            Some(r#"{"c":1}"#)
        );
        assert_eq!(
            strip(r#"{"c":1,"a":null,"b":null,"d":2}"#).as_deref(),
            Some(r#"{"c":1,"d":2}"#)
        );
    }

    #[test]
    fn keeps_what_has_no_default() {
        assert_eq!(strip(r#"{"c":null}"#), None);
        assert_eq!(strip(r#"{"z":null}"#), None);
        assert_eq!(strip(r#"{"a":1,"b":"null"}"#), None);
        assert_eq!(strip(r#"{"c":{"a":null}}"#), None);
        assert_eq!(strip(r#"{"inner":{"a":null}}"#), None);
        assert_eq!(strip(r#"[{"a":null}]"#), None);
        assert_eq!(strip(r#""{\"a\":null}""#), None);
    }

    #[test]
    fn whitespace_around_separators() {
        assert_eq!(
            strip(" { \"a\" : null , \"c\" : 1 } ").as_deref(),
            Some(" {  \"c\" : 1 } ")
        );
        assert_eq!(
            strip("{\n  \"c\": 1,\n  \"a\": null\n}").as_deref(),
            Some("{\n  \"c\": 1\n}")
        );
        assert_eq!(strip("{\"a\"\t:\tnull\r\n}").as_deref(), Some("{\r\n}"));
    }

    #[test]
    fn nested_arrays_maps_tuples() {
        assert_eq!(
            strip(r#"{"inner":{"x":null,"y":1}}"#).as_deref(),
            Some(r#"{"inner":{"y":1}}"#)
        );
        assert_eq!(
            strip(r#"{"list":[{"x":null},{"x":1},{"y":[null],"x":null}]}"#).as_deref(),
            Some(r#"{"list":[{},{"x":1},{"y":[null]}]}"#)
        );
        assert_eq!(
            strip(r#"{"map":{"k":{"x":null},"x":null}}"#).as_deref(),
            Some(r#"{"map":{"k":{},"x":null}}"#)
        );
        assert_eq!(
            strip(r#"{"pair":[{"x":null},{"x":null}]}"#).as_deref(),
            Some(r#"{"pair":[{"x":null},{}]}"#)
        );
    }

    #[test]
    fn escaped_keys_compare_decoded() {
        assert_eq!(strip(r#"{"\u0061":null}"#).as_deref(), Some("{}"));
        assert_eq!(strip(r#"{"\"a":null}"#), None);
        assert_eq!(
            strip(r#"{"c":"\"}\\","a":null}"#).as_deref(),
            Some(r#"{"c":"\"}\\"}"#)
        );
    }

    #[test]
    fn repeated_keys_are_left_to_serde() {
        assert_eq!(strip(r#"{"a":null,"a":1}"#), None);
        assert_eq!(strip(r#"{"a":1,"a":null}"#), None);
        assert_eq!(strip(r#"{"a":null,"\u0061":null}"#), None);
        assert_eq!(
            strip(r#"{"a":null,"b":null,"c":1}"#).as_deref(),
            Some(r#"{"c":1}"#)
        );
    }

    #[test]
    fn never_makes_malformed_text_json() {
        for text in [
            r#"{"a":null"#,
            r#"{"a":null,"#,
            r#"{"a":null,}"#,
            r#"{"a":null "c":1}"#,
            r#"{"c":1 "a":null}"#,
            r#"{"a" null}"#,
            r#"{"a":nul}"#,
            r#"{"a":nullx}"#,
            r#"{"a":null}x"#,
            r#"{"a":null}}"#,
            r#"{"a":null,"c":[1,}"#,
            r#"{"a":null,"c":01}"#,
            r#"{"a":null,"c":1.}"#,
            r#"{"a":null,"c":"\x"}"#,
            "{\"a\":null,\"c\":\"\u{1}\"}",
            r#"{"a":null,"c":"\ud8"}"#,
            r#"{"\ud800":null}"#,
            r#"{"a":null,"c":]}"#,
            r#"{"a":null,"c":[1]]}"#,
            r#"{"a":null,"c":{"x":1]}"#,
            "",
            "   ",
        ] {
            // Given up on, or (where a skipped part is wrong) still not JSON.
            if let Some(stripped) = strip(text) {
                assert!(
                    serde_json::from_str::<Value>(&stripped).is_err(),
                    "{text} -> {stripped}"
                );
            }
        }
        // Where the stripper reads, it gives up.
        for text in [
            r#"{"a":null"#,
            r#"{"a":null,}"#,
            r#"{"c":1 "a":null}"#,
            r#"{"a":null}x"#,
        ] {
            assert_eq!(strip(text), None, "{text}");
        }
    }

    #[test]
    fn depth_is_bounded() {
        fn tree() -> &'static Nulls {
            &TREE
        }
        const TREE: Nulls = Nulls::Object(
            &[
                NullField {
                    name: "a",
                    default: true,
                    fill: None,
                    inner: &NONE,
                },
                NullField {
                    name: "kids",
                    default: false,
                    fill: None,
                    inner: &Nulls::Items(&Nulls::Lazy(tree)),
                },
            ],
            &[],
        );
        let nested = |depth: usize| {
            format!(
                r#"{}{{"a":null}}{}"#,
                r#"{"a":null,"kids":["#.repeat(depth),
                "]}".repeat(depth)
            )
        };
        let stripped = strip_text(&nested(60), &TREE, &mut Conflicts::default()).unwrap();
        assert_eq!(stripped.matches("null").count(), 0);
        assert_eq!(
            strip_text(&nested(64), &TREE, &mut Conflicts::default()),
            None
        );
        assert_eq!(
            strip_text(&nested(100_000), &TREE, &mut Conflicts::default()),
            None
        );
        // Skipped parts have no depth limit of their own: serde_json has one.
        let deep = format!(
            r#"{{"a":null,"c":{}{}}}"#,
            "[".repeat(1000),
            "]".repeat(1000)
        );
        assert!(strip(&deep).is_some());
    }

    #[test]
    fn a_quick_look_spares_text_without_members_to_drop() {
        assert!(may_strip(br#"{"a":null}"#, &ROOT));
        assert!(may_strip(br#"{"c":1, "inner" : { "x" :  null }}"#, &ROOT));
        assert!(!may_strip(br#"{"c":null,"z":null,"list":[null]}"#, &ROOT));
        assert!(!may_strip(br#"{"c":"a: null","d":"b : null"}"#, &ROOT));
        assert!(!may_strip(br#"{"c":1}"#, &ROOT));
        // Keys with escapes, and text that looks like a member, go to the full pass.
        assert!(may_strip(br#"{"\u0061":null}"#, &ROOT));
        assert!(may_strip(br#"{"c":"\"a\": null"}"#, &ROOT));
        assert!(may_strip(br#"{"c":"x \"a\": null"}"#, &ROOT));
        assert_eq!(strip(r#"{"c":null,"z":null}"#), None);
        // Malformed text around the `null`: no member, nothing to drop.
        assert!(!may_strip(b"null", &ROOT));
        assert!(!may_strip(br#"[:null]"#, &ROOT));
        assert!(!may_strip(br#"a":null"#, &ROOT));
    }

    /// The word-at-a-time search finds what a byte-at-a-time one finds.
    #[test]
    fn find_null_finds_every_null() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..5_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 48) as usize;
            let mut bytes: Vec<u8> = (0..len)
                .map(|i| b"nulx"[((seed >> (i % 61)) as usize ^ i) % 4])
                .collect();
            if len > 4 && seed.is_multiple_of(3) {
                let at = (seed >> 20) as usize % (len - 3);
                bytes[at..at + 4].copy_from_slice(b"null");
            }
            let mut found = Vec::new();
            let mut from = 0;
            while let Some(at) = find_null(&bytes, from) {
                found.push(at);
                from = at + 1;
            }
            let naive: Vec<usize> = (0..len.saturating_sub(3))
                .filter(|&i| &bytes[i..i + 4] == b"null")
                .collect();
            assert_eq!(found, naive, "{:?}", String::from_utf8_lossy(&bytes));
        }
    }

    /// The word-at-a-time search stops where a byte-at-a-time one does.
    #[test]
    fn string_stop_finds_the_first_special_byte() {
        let alphabet = [
            b'a', b'"', b'\\', 0x1f, 0x20, 0x7f, 0x80, 0xff, 0x00, 0x21, 0x5c, 0x22,
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 40) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|i| {
                    let pick = (seed >> (i % 60)) as usize ^ i;
                    if pick.is_multiple_of(5) {
                        alphabet[pick / 5 % alphabet.len()]
                    } else {
                        b'a' + (pick % 26) as u8
                    }
                })
                .collect();
            for start in 0..=len {
                let naive = (start..len)
                    .find(|&i| matches!(bytes[i], b'"' | b'\\' | 0..0x20))
                    .unwrap_or(len);
                assert_eq!(string_stop(&bytes, start), naive, "{bytes:?} from {start}");
            }
        }
    }

    #[test]
    fn self_referencing_trees_end() {
        fn root() -> &'static Nulls {
            &LOOP
        }
        const LOOP: Nulls = Nulls::Any(&[
            Nulls::Lazy(root),
            Nulls::Lazy(root),
            Nulls::Object(&[], &[Nulls::Lazy(root), Nulls::Lazy(root)]),
        ]);
        assert_eq!(
            strip_text(r#"{"a":null}"#, &LOOP, &mut Conflicts::default()),
            None
        );
        let mut value = serde_json::json!({"a": null});
        strip_value(&mut value, &LOOP);
        assert_eq!(value, serde_json::json!({"a": null}));
        fill_value(&mut value, &LOOP);
        assert_eq!(value, serde_json::json!({"a": null}));
    }

    #[test]
    fn filling_a_self_referencing_tree_ends() {
        fn root() -> &'static Nulls {
            &FILLED
        }
        const FILLED: Nulls = Nulls::Object(
            &[NullField {
                name: "a",
                default: true,
                fill: Some("[1]"),
                inner: &Nulls::Items(&Nulls::Lazy(root)),
            }],
            &[Nulls::Lazy(root), Nulls::Any(&[Nulls::Lazy(root)])],
        );
        const { assert!(FILLED.fills()) };
        // Each object gets its `a`; the array written in is filled in turn (its item is no
        // object), and the flattened loop ends.
        let mut value = serde_json::json!({"b": [{}]});
        fill_value(&mut value, &FILLED);
        assert_eq!(value, serde_json::json!({"b": [{}], "a": [1]}));
        let mut value = serde_json::json!({"a": [{}, {"a": []}]});
        fill_value(&mut value, &FILLED);
        assert_eq!(value, serde_json::json!({"a": [{"a": [1]}, {"a": []}]}));
        // Nothing below an untagged enum's alternatives.
        const UNTAGGED: Nulls = Nulls::Untagged(&[FILLED]);
        const { assert!(!UNTAGGED.fills() && UNTAGGED.strips()) };
        let mut value = serde_json::json!({});
        fill_value(&mut value, &UNTAGGED);
        assert_eq!(value, serde_json::json!({}));
    }

    #[test]
    fn strips_values_like_text() {
        let mut value = serde_json::json!({
            "c": 1, "a": null, "b": 2, "inner": {"x": null},
            "list": [{"x": null}, {"x": 1}], "map": {"k": {"x": null}, "x": null},
            "pair": [{"x": null}, {"x": null}]
        });
        strip_value(&mut value, &ROOT);
        assert_eq!(
            value,
            serde_json::json!({
                "c": 1, "b": 2, "inner": {}, "list": [{}, {"x": 1}],
                "map": {"k": {}, "x": null}, "pair": [{"x": null}, {}]
            })
        );
    }

    #[test]
    fn strips_tells_trees_apart() {
        assert!(ROOT.strips());
        assert!(!Nulls::None.strips());
        assert!(!Nulls::Items(&Nulls::None).strips());
        assert!(Nulls::Any(&[Nulls::None, INNER]).strips());
        assert!(Nulls::Object(&[], &[INNER]).strips());
        assert!(!Nulls::Lazy(|| &INNER).strips());
        assert!(matches!(
            Nulls::Object(
                &[NullField {
                    name: "a",
                    default: false,
                    fill: None,
                    inner: &NONE
                }],
                &[]
            )
            .pruned(),
            Nulls::None
        ));
    }

    /// Objects of every ordered choice of up to 4 distinct members, with two kinds of spacing
    /// (also for the wrapper's tests in `de.rs`).
    pub(super) fn member_choices(pieces: &[&str]) -> Vec<String> {
        let mut texts = Vec::new();
        for mask in 1u32..(1 << pieces.len()) {
            if mask.count_ones() > 4 {
                continue;
            }
            let chosen: Vec<&str> = pieces
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, p)| *p)
                .collect();
            for spacing in [",", " ,\n "] {
                texts.push(format!("{{{}}}", chosen.join(spacing)));
            }
        }
        texts
    }

    /// Every text the stripper changes is JSON, and means the input without the members.
    #[test]
    fn disputed_nulls_are_kept_and_recorded() {
        const KEEP: Nulls = Nulls::Object(
            &[NullField {
                name: "note",
                default: false,
                fill: None,
                inner: &Nulls::Keep,
            }],
            &[],
        );
        const DEFAULT: Nulls = Nulls::Object(
            &[
                NullField {
                    name: "note",
                    default: true,
                    fill: None,
                    inner: &NONE,
                },
                NullField {
                    name: "x",
                    default: true,
                    fill: None,
                    inner: &NONE,
                },
            ],
            &[],
        );
        const EITHER: Nulls = Nulls::Any(&[KEEP, DEFAULT]);
        const LIST: Nulls = Nulls::Object(
            &[NullField {
                name: "list",
                default: false,
                fill: None,
                inner: &Nulls::Items(&EITHER),
            }],
            &[],
        );
        // `x` is not disputed: it goes. `note` stays, and is recorded.
        let text = r#"{"list":[{"note":1,"x":null},{"x":null,"note":null}]}"#;
        let mut conflicts = Conflicts::default();
        assert_eq!(
            strip_text(text, &LIST, &mut conflicts).as_deref(),
            Some(r#"{"list":[{"note":1},{"note":null}]}"#)
        );
        assert!(conflicts.met);
        let mut value: Value = serde_json::from_str(text).unwrap();
        let mut conflicts = Conflicts {
            met: false,
            found: Some(Vec::new()),
        };
        strip_value_with(&mut value, &LIST, &mut conflicts);
        assert_eq!(
            value,
            serde_json::json!({"list": [{"note": 1}, {"note": null}]})
        );
        let found = conflicts.found.unwrap_or_default();
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].path,
            [Segment::Key("list".to_owned()), Segment::Index(1)]
        );
        assert_eq!(found[0].key, "note");
        // `KEEP` is the first alternative: keeping the `null` is the first choice.
        assert!(!found[0].default_first);
        // Without a dispute, nothing is recorded.
        let mut conflicts = Conflicts::default();
        strip_text(r#"{"list":[{"note":2}]}"#, &LIST, &mut conflicts);
        assert!(!conflicts.met);
    }

    #[test]
    fn stripped_text_is_json() {
        let pieces = [
            r#""a":null"#,
            r#""b" : null"#,
            r#""c":null"#,
            r#""c":1"#,
            r#""inner":{"x":null}"#,
            r#""list":[{"x":null},{}]"#,
            r#""z":[null]"#,
        ];
        let mut count = 0;
        for text in member_choices(&pieces) {
            let Some(stripped) = strip(&text) else {
                continue;
            };
            count += 1;
            let parsed: Value = serde_json::from_str(&stripped)
                .unwrap_or_else(|e| panic!("{text} -> {stripped}: {e}"));
            let mut expected: Value = serde_json::from_str(&text).unwrap();
            strip_value(&mut expected, &ROOT);
            assert_eq!(parsed, expected, "{text} -> {stripped}");
        }
        assert!(count > 100, "{count}");
    }
}
