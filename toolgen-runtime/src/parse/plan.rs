//! The parse plan: where a type's `null`s stand for missing fields with a default (OpenAI strict
//! mode makes every property required and the optional ones nullable, so a model sends `null`
//! for what it would have left out), where a missing field's `#[tool(default = ..)]` value goes
//! ([`PlanField::fill`]), and where a set's items must all differ ([`Plan::Unique`]).
//!
//! A type's plan is built from its `ToolSchema::FACTS` (its shape: which fields have a default,
//! the enum representation, sets, ..) at first use, once ([`plan_for`]): a tree of
//! `Plan<'static>` nodes kept for the life of the program. A
//! [`DynamicTool`](crate::DynamicTool)'s is built from its JSON Schema
//! ([`crate::parse::schema_plan`]) into an [`OwnedPlan`], whose nodes go with it. Argument
//! parsing follows a derived type's plan through serde's own parse ([`crate::parse::fast`], the
//! fast path) and, where that parse fails or leaves the arguments to it, through a value
//! ([`crate::parse::walk`]: `null`s dropped, values filled in, sets checked, errors found), both
//! by way of the node sets of [`crate::parse::sets`]; a dynamic tool's through its value.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use crate::schema::facts::{
    CHECK, CONSTRAIN, EnumRepr, Facts, Keywords, Parse, Pick, REACH, STRIP, TargetAt, Via,
};

/// The kinds of work ([`Facts::work`]) a plan has nodes for: `null`s to drop, sets to compare,
/// keywords to check, a recursive type's references on the way.
const PLANNED: u8 = STRIP | CHECK | REACH | CONSTRAIN;

/// Where `null`s stand for missing fields with a default, in a value of some type: a compile-time
/// tree, built by `#[derive(ToolSchema)]` and the standard library impls, that argument parsing
/// follows through the JSON.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Plan<'p> {
    /// Nothing to strip here or below.
    None,
    /// An object: the fields that have a default or lead to one, and the nodes of its
    /// `#[serde(flatten)]` fields, which read the keys it does not know; and what the fast
    /// map reads of it ([`Layout`], which [`Plan::object`] works out).
    Object(&'p [PlanField<'p>], &'p [Plan<'p>], Layout),
    /// An array whose items all follow the node.
    Items(&'p Plan<'p>),
    /// An array whose items all follow the node and must all differ: a set, whose schema says
    /// `uniqueItems` and which serde reads merging repeats without a word ([`check_value`]).
    Unique(&'p Plan<'p>),
    /// An array whose items follow the nodes position by position (a tuple).
    Tuple(&'p [Plan<'p>]),
    /// An object whose values all follow the node (a map).
    Values(&'p Plan<'p>),
    /// The alternatives of an enum, any of which may be what the JSON is: a key is stripped if
    /// an alternative defaults it and none reads its `null` as a value ([`Plan::Keep`]), and
    /// its value follows all of theirs. (Untagged variants: which one serde takes is known only
    /// by trying them.)
    Any(&'p [Plan<'p>]),
    /// The untagged alternatives of an enum (the whole enum's, or its `#[serde(untagged)]`
    /// variants'), which serde tries in turn: stripped as [`Plan::Any`], but no
    /// `#[tool(default = ..)]` value is filled in below it, where which variant the model meant
    /// is not known (a value filled in for one could make serde take it over another). Their
    /// keywords are checked on the alternative serde took, where the derive says which
    /// ([`Pick`]); else a value passes if it meets one alternative's, as JSON Schema's `anyOf`
    /// says.
    Untagged(&'p [Plan<'p>], Option<Pick>),
    /// An internally or adjacently tagged enum: the object's member named by the first field (a
    /// string) names the variant whose node the whole object follows, its fields beside the tag
    /// (internal) or `{"<content>": ..}` (adjacent), so each variant's `null`s are stripped as
    /// that variant reads them. An object whose tag is missing, or names no case, follows
    /// nothing: serde refuses it whatever is stripped. Resolved on entering the object
    /// ([`resolve_tags`]).
    Tagged(&'p str, &'p [TagCase<'p>]),
    /// The node of a type that leads back to the type being defined (a recursive type), found
    /// when it is needed: its facts cannot hold the type's own (a const would be a cycle).
    Lazy(Reach<'p>),
    /// The node of a type that leads back to the one holding it (a cycle the derive found, or a
    /// field marked `#[tool(recursive)]`), found when it is needed, as [`Plan::Lazy`]. What is
    /// behind it is not known where it is held, so its facts count it as having every kind of
    /// work.
    Cycle(Reach<'p>),
    /// A field of an untagged variant that reads `null` as a value (a `serde_json::Value`, `()`,
    /// or one read by `deserialize_with`), where missing is not the same: when another variant
    /// defaults the same key, which of the two serde takes is known only by trying, so argument
    /// parsing tries the `null` kept and dropped ([`Conflicts`]). Nothing to strip in itself.
    Keep,
    /// A value with keywords that serde does not enforce ([`Keywords`]: a field's `#[tool(range,
    /// length, pattern, format)]`, or what a JSON Schema states), checked by the one checker
    /// (`Keywords::check`) as the value is read ([`crate::parse::fast`]) or walked
    /// ([`check_value`](crate::parse::walk::check_value)); the `pattern`'s compiled regex
    /// (`None`: not checked); and the value's own node, followed as it would be without them.
    Check(&'p Keywords<'p>, Option<&'p regex::Regex>, &'p Plan<'p>),
}

/// A variant of a [`Plan::Tagged`]: the tag's value that names it, and its node.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct TagCase<'p> {
    /// The string serde reads for the variant.
    pub name: &'p str,
    /// What the object follows when its tag names the variant.
    pub node: &'p Plan<'p>,
}

/// A field of a [`Plan::Object`].
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct PlanField<'p> {
    /// The property name serde reads.
    pub name: &'p str,
    /// Whether the field has a default (`#[serde(default)]` on it or its container, or
    /// `#[tool(default = ..)]`): then `null` is dropped and the default applies.
    pub default: bool,
    /// Its `#[tool(default = ..)]` value, written in where the key is missing (after its `null`
    /// is dropped), so that serde finds it.
    pub fill: Option<FillValue<'p>>,
    /// The node of the field's value.
    pub inner: &'p Plan<'p>,
}

impl<'p> PlanField<'p> {
    /// A field without a default whose value may hold one ([`PlanField::inner`]).
    pub const fn nested(name: &'p str, inner: &'p Plan<'p>) -> PlanField<'p> {
        PlanField {
            name,
            default: false,
            fill: None,
            inner,
        }
    }
}

/// A `#[tool(default = ..)]` value: its JSON text, and the [`Scalar`] it is where it is one (most
/// are), read from the text once, where the plan is built ([`FillValue::of`]), so that writing
/// it in reads no text.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct FillValue<'p> {
    /// The value's JSON text.
    pub text: &'p str,
    /// The value, where it is a [`Scalar`]; `None` leaves it to serde_json, which reads `text`.
    pub scalar: Option<Scalar<'p>>,
}

impl<'p> FillValue<'p> {
    /// The value whose JSON text is `text`.
    pub const fn of(text: &'p str) -> FillValue<'p> {
        FillValue {
            text,
            scalar: Scalar::of(text),
        }
    }
}

/// A `#[tool(default = ..)]` text that is a single scalar (`true`, `false`, an integer, a string
/// without escapes) or an empty array or object, read without a serde_json deserializer: most
/// defaults are such, and a deserializer of their own cost a parse about 180 instructions each.
/// As a deserializer ([`crate::parse::fast`]) it hands serde what serde_json would for the same
/// text, for each way serde asks.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar<'p> {
    /// `true` or `false`.
    Bool(bool),
    /// An integer without a sign.
    Unsigned(u64),
    /// A negative integer.
    Signed(i64),
    /// A string without escapes, between its quotes.
    Str(&'p str),
    /// `[]`.
    EmptyArray,
    /// `{}`.
    EmptyObject,
}

impl<'p> Scalar<'p> {
    /// The scalar `text` is, if it is one of those; `None` leaves it to serde_json (numbers with
    /// a fraction or exponent, whose rounding is serde_json's, leading zeros, escapes, `null`,
    /// arrays and objects with members, integers beyond 64 bits).
    pub(crate) const fn of(text: &'p str) -> Option<Scalar<'p>> {
        match text.as_bytes() {
            b"true" => Some(Scalar::Bool(true)),
            b"false" => Some(Scalar::Bool(false)),
            b"[]" => Some(Scalar::EmptyArray),
            b"{}" => Some(Scalar::EmptyObject),
            [b'"', inner @ .., b'"'] => {
                let mut rest = inner;
                while let [byte, after @ ..] = rest {
                    if *byte == b'\\' || *byte == b'"' || *byte < 0x20 {
                        return None;
                    }
                    rest = after;
                }
                // Between two quotes: on characters' bounds.
                match text.split_at_checked(1) {
                    Some((_, rest)) => match rest.split_at_checked(inner.len()) {
                        Some((inner, _)) => Some(Scalar::Str(inner)),
                        None => None,
                    },
                    None => None,
                }
            }
            // Not `-0`, which serde_json reads as the float `-0.0`.
            [b'-', digits @ ..] => match plain_integer(digits) {
                Some(0) | None => None,
                Some(magnitude) => match 0_i64.checked_sub_unsigned(magnitude) {
                    Some(value) => Some(Scalar::Signed(value)),
                    None => None,
                },
            },
            digits => match plain_integer(digits) {
                Some(value) => Some(Scalar::Unsigned(value)),
                None => None,
            },
        }
    }
}

/// The value of `digits`, where they are digits, at least one, with no leading zero (as JSON
/// writes an integer), whose value fits a `u64`.
const fn plain_integer(digits: &[u8]) -> Option<u64> {
    match digits {
        [b'0'] => return Some(0),
        [b'1'..=b'9', ..] => {}
        _ => return None,
    }
    let mut value: u64 = 0;
    let mut rest = digits;
    while let [digit @ b'0'..=b'9', after @ ..] = rest {
        value = match value.checked_mul(10) {
            Some(value) => match value.checked_add((*digit - b'0') as u64) {
                Some(value) => value,
                None => return None,
            },
            None => return None,
        };
        rest = after;
    }
    match rest {
        [] => Some(value),
        _ => None,
    }
}

/// Whether an object with a tagged enum flattened in is read by the small map of a plain object
/// ([`Plan::object`]): worked out once, where the plan is built.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flat {
    /// No: a plain object (its own fast map), or one read through its node set.
    No,
    /// Yes, and it has no `#[tool(default = ..)]` value to write in.
    Fits,
    /// Yes, and it may have `#[tool(default = ..)]` values to write in.
    Fills,
}

/// What the fast map of an object reads from its plan rather than working it out per object
/// ([`Plan::object`]).
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Whether a tagged enum flattened in is read by the fast map.
    pub flat: Flat,
    /// The object's fields with a `#[tool(default = ..)]` value, a bit each by index (the first
    /// 64).
    pub fills: u64,
    /// The lengths of its fields' names, a bit each (the length's lowest six bits): a key of
    /// another length names none of them.
    pub lengths: u64,
}

impl<'p> Plan<'p> {
    /// An object of `fields` with `flattened` read beside them, its [`Layout`] worked out:
    /// whether it fits the fast map ([`Flat`]), where its one flattened node is a tagged enum
    /// whose variants are plain objects, none of whose names is one of the object's own (a key
    /// then names one field, whatever the variant), nor is the tag's, no variant's name holds a
    /// quote, a backslash or a control character, and the object's fields and any variant's
    /// fit in 64; and the bits of its fields.
    pub const fn object(fields: &'p [PlanField<'p>], flattened: &'p [Plan<'p>]) -> Plan<'p> {
        let flat = match flattened {
            [Plan::Tagged(tag, cases)] => flat_cases(fields, tag, cases),
            _ => Flat::No,
        };
        // (A loop of slice patterns: a const fn has no iterators.)
        let (mut fills, mut lengths, mut bit) = (0, 0, 1_u64);
        let mut rest = fields;
        while let [field, after @ ..] = rest {
            if field.fill.is_some() {
                fills |= bit;
            }
            // Past the 64th field, no bit (`<<` by one moves the last bit out).
            bit <<= 1;
            lengths |= 1_u64 << (field.name.len() & 63);
            rest = after;
        }
        Plan::Object(
            fields,
            flattened,
            Layout {
                flat,
                fills,
                lengths,
            },
        )
    }
}

/// [`Plan::object`]'s [`Flat`] for an object of `fields` with the tagged enum `tag`, `cases`
/// flattened in.
const fn flat_cases(fields: &[PlanField<'_>], tag: &str, cases: &[TagCase<'_>]) -> Flat {
    if has_field(fields, tag.as_bytes()) {
        return Flat::No;
    }
    // (Loops of slice patterns: a const fn has no iterators.)
    let mut fill = false;
    let mut rest = fields;
    while let [field, after @ ..] = rest {
        fill |= field.fill.is_some();
        rest = after;
    }
    let mut cases = cases;
    while let [case, after @ ..] = cases {
        // A name that could stand for another string in JSON (rare), which the fast map would
        // not find as it is in the text: left to the node set's way.
        let mut name = case.name.as_bytes();
        while let [byte, after @ ..] = name {
            if *byte == b'"' || *byte == b'\\' || *byte < 0x20 {
                return Flat::No;
            }
            name = after;
        }
        match case.node {
            Plan::None => {}
            Plan::Object(own, [], _) => {
                if fields.len() + own.len() > 64 {
                    return Flat::No;
                }
                let mut own = *own;
                while let [field, after @ ..] = own {
                    if has_field(fields, field.name.as_bytes()) {
                        return Flat::No;
                    }
                    fill |= field.fill.is_some();
                    own = after;
                }
            }
            _ => return Flat::No,
        }
        cases = after;
    }
    if fill { Flat::Fills } else { Flat::Fits }
}

/// Whether one of `fields` is named `name`.
const fn has_field(fields: &[PlanField<'_>], name: &[u8]) -> bool {
    let mut rest = fields;
    while let [field, after @ ..] = rest {
        if same_bytes(field.name.as_bytes(), name) {
            return true;
        }
        rest = after;
    }
    false
}

/// `a == b`, in a const fn.
const fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut a, mut b) = (a, b);
    while let ([x, a_after @ ..], [y, b_after @ ..]) = (a, b) {
        if *x != *y {
            return false;
        }
        a = a_after;
        b = b_after;
    }
    true
}

/// What a [`Plan::Lazy`] or [`Plan::Cycle`] leads to, found when parsing needs it.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Reach<'p> {
    /// A type's facts, whose plan is built from them ([`plan_for`]).
    Facts(fn() -> &'static Facts),
    /// A type that leads back to the one holding it: its facts are its target's.
    Target(TargetAt),
    /// A plan as it is (the tests write trees by hand).
    Plan(fn() -> &'static Plan<'static>),
    /// A node of the same plan, set once it is built: a JSON Schema's `$ref` into its `$defs`,
    /// which may lead back to itself ([`OwnedPlan`]).
    Slot(&'p Slot),
}

impl<'p> Reach<'p> {
    /// The plan it leads to.
    pub(crate) fn plan(self) -> &'p Plan<'p> {
        match self {
            Reach::Facts(of) => plan_for(of()),
            Reach::Target(at) => plan_for(at.get().facts),
            Reach::Plan(of) => of(),
            Reach::Slot(slot) => slot.get(),
        }
    }
}

/// The node a `$ref` leads to, in a plan built from a JSON Schema ([`Reach::Slot`]): set once
/// the node is built, which may be after nodes inside it that lead back here.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Default)]
pub struct Slot(OnceLock<&'static Plan<'static>>);

impl Slot {
    /// The node, or [`Plan::None`] before it is set (a plan being built is not parsed with).
    ///
    /// The node lives as long as the slot: both are in the same [`OwnedPlan`]'s blocks (or
    /// both kept for the life of the program), so the slot's borrow bounds the node's.
    fn get<'p>(&'p self) -> &'p Plan<'p> {
        self.0.get().copied().unwrap_or(&Plan::None)
    }
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the node: it may hold this slot.
        f.write_str("Slot")
    }
}

/// The plan argument parsing follows for a value of `T`: built from its facts at first use.
pub(crate) fn plan<T: crate::ToolSchema + ?Sized>() -> &'static Plan<'static> {
    plan_for(T::FACTS)
}

/// The plan of a type whose facts are `facts`, built from them once (a tree of `static`s, kept
/// for the life of the program: there are as many as the program's types, whatever the input)
/// and looked up by the facts' address after that (facts are `static`s, never freed).
///
/// Not public API (it is reached through `toolgen::__private`, for the benchmark).
#[doc(hidden)]
pub fn plan_for(facts: &'static Facts) -> &'static Plan<'static> {
    // The plans found most, without a lock: a slot per address's hash, taken by the first type
    // that lands there (one atomic load to read); the others are found under the lock.
    static SEEN: [OnceLock<(usize, &'static Plan<'static>)>; SEEN_SLOTS] =
        [const { OnceLock::new() }; SEEN_SLOTS];
    if facts.work & PLANNED == 0 {
        return &Plan::None;
    }
    let address = std::ptr::from_ref(facts).addr();
    let slot = SEEN.get((address >> 4) % SEEN_SLOTS);
    if let Some(&(seen, plan)) = slot.and_then(OnceLock::get)
        && seen == address
    {
        return plan;
    }
    let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
    let built = built.get_or_insert_with(Built::default);
    let plan = Builder {
        plans: &mut built.plans,
        store: &mut built.store,
    }
    .node(facts);
    if let Some(slot) = slot {
        let _ = slot.set((address, plan));
    }
    plan
}

/// The derived types' plans, kept for the life of the program ([`plan_for`]).
static BUILT: Mutex<Option<Built>> = Mutex::new(None);

/// How many blocks the plans built from JSON Schemas ([`OwnedPlan`]) hold, all told: each
/// plan's go when it is dropped.
static OWNED_BLOCKS: AtomicUsize = AtomicUsize::new(0);

/// What the plans hold: how many the derived types' store keeps for the program (one per type
/// with work, whatever the input), and how many blocks the plans built from JSON Schemas hold
/// right now (none once every [`DynamicTool`](crate::DynamicTool) is dropped).
///
/// Not public API (it is reached through `toolgen::__private`, for the test that building and
/// dropping dynamic tools keeps nothing).
///
/// ```
/// let (derived, _) = toolgen::__private::plans_kept();
/// let tool = toolgen::DynamicTool::new("t", "T.", serde_json::json!({"type": "object"})).unwrap();
/// drop(tool);
/// assert_eq!(toolgen::__private::plans_kept().0, derived);
/// ```
#[doc(hidden)]
pub fn plans_kept() -> (usize, usize) {
    let built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
    let derived = built.as_ref().map_or(0, |built| built.plans.len());
    (derived, OWNED_BLOCKS.load(Ordering::Relaxed))
}

/// How many plans [`plan_for`] finds without its lock.
const SEEN_SLOTS: usize = 64;

/// The plans built so far, by the address of their facts, and room for more.
#[derive(Default)]
struct Built {
    plans: HashMap<usize, &'static Plan<'static>>,
    store: Store,
}

/// Room for the nodes, fields, cases, names and slots of plans, a few blocks of each, taken in
/// turn, rather than an allocation per node scattered among the program's own (which would
/// leave the allocator's free lists more broken up for the program's later allocations).
///
/// The derived types' store ([`plan_for`]) leaks its blocks: they are kept for the life of the
/// program. An [`OwnedPlan`]'s keeps them and frees them when it is dropped.
#[derive(Default)]
pub(crate) struct Store {
    nodes: Pool<Plan<'static>>,
    fields: Pool<PlanField<'static>>,
    cases: Pool<TagCase<'static>>,
    texts: Pool<u8>,
    slots: Pool<Slot>,
    /// Whether the blocks are kept here, to be freed with the store (else leaked).
    owns: bool,
}

/// Blocks of `T`s, handed out in pieces ([`Store`]).
struct Pool<T: 'static> {
    rest: &'static mut [T],
    /// The blocks handed out from, where the store owns them.
    blocks: Vec<Vec<T>>,
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool {
            rest: &mut [],
            blocks: Vec::new(),
        }
    }
}

/// How many items a [`Pool`] block holds (more where one list needs more).
const POOL_BLOCK: usize = 256;

impl<T> Pool<T> {
    /// `count` items of the pool, untouched before; `filler` fills a new block's room.
    fn take(&mut self, count: usize, owns: bool, filler: impl Fn() -> T) -> &'static mut [T] {
        if self.rest.len() < count {
            let mut block: Vec<T> = std::iter::repeat_with(filler)
                .take(POOL_BLOCK.max(count))
                .collect();
            self.rest = if owns {
                let (start, len) = (block.as_mut_ptr(), block.len());
                self.blocks.push(block);
                OWNED_BLOCKS.fetch_add(1, Ordering::Relaxed);
                // SAFETY: `start` and `len` are those of the block just moved into
                // `self.blocks` (moving a `Vec` leaves its buffer where it is, and
                // `as_mut_ptr` makes no reference that moving it would end). The block is
                // never read, written, grown or dropped through `self.blocks` while the store
                // is alive: it is only dropped with the store. The `'static` is the store's
                // own to keep: the nodes built in it hold these references to each other, and
                // an `OwnedPlan`, which owns the store, hands out its root only for the
                // borrow of itself (`Plan<'p>` is covariant), so no reference outlives the
                // block.
                unsafe { std::slice::from_raw_parts_mut(start, len) }
            } else {
                block.leak()
            };
        }
        let (taken, rest) = std::mem::take(&mut self.rest).split_at_mut(count);
        self.rest = rest;
        taken
    }
}

impl<T: Copy> Pool<T> {
    /// A copy of `items` in the pool; `filler` fills a new block's room until it is used.
    fn put(&mut self, items: &[T], owns: bool, filler: T) -> &'static [T] {
        if items.is_empty() {
            return &[];
        }
        let taken = self.take(items.len(), owns, || filler);
        taken.copy_from_slice(items);
        taken
    }
}

impl Store {
    /// A store whose blocks are freed with it ([`OwnedPlan`]).
    fn owned() -> Store {
        let mut store = Store::default();
        store.owns = true;
        store
    }

    /// `nodes`, kept in the store.
    pub(crate) fn nodes(&mut self, nodes: &[Plan<'static>]) -> &'static [Plan<'static>] {
        self.nodes.put(nodes, self.owns, Plan::None)
    }

    /// `node`, kept in the store.
    pub(crate) fn node(&mut self, node: Plan<'static>) -> &'static Plan<'static> {
        match self.nodes(&[node]) {
            [node] => node,
            _ => &Plan::None,
        }
    }

    /// `fields`, kept in the store.
    pub(crate) fn fields(
        &mut self,
        fields: &[PlanField<'static>],
    ) -> &'static [PlanField<'static>] {
        self.fields
            .put(fields, self.owns, PlanField::nested("", &Plan::None))
    }

    /// `cases`, kept in the store.
    pub(crate) fn cases(&mut self, cases: &[TagCase<'static>]) -> &'static [TagCase<'static>] {
        let filler = TagCase {
            name: "",
            node: &Plan::None,
        };
        self.cases.put(cases, self.owns, filler)
    }

    /// `text`, kept in the store.
    pub(crate) fn text(&mut self, text: &str) -> &'static str {
        let bytes = self.texts.put(text.as_bytes(), self.owns, 0);
        // The bytes of a `str`, copied whole: always UTF-8.
        std::str::from_utf8(bytes).unwrap_or_default()
    }

    /// A new slot, kept in the store.
    pub(crate) fn slot(&mut self) -> &'static Slot {
        match self.slots.take(1, self.owns, Slot::default) {
            [slot] => slot,
            _ => {
                // `take` hands out exactly what is asked for.
                static UNSET: Slot = Slot(OnceLock::new());
                &UNSET
            }
        }
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        let blocks = self.nodes.blocks.len()
            + self.fields.blocks.len()
            + self.cases.blocks.len()
            + self.texts.blocks.len()
            + self.slots.blocks.len();
        OWNED_BLOCKS.fetch_sub(blocks, Ordering::Relaxed);
    }
}

/// Sets `slot` to `node` ([`Reach::Slot`]).
pub(crate) fn set_slot(slot: &Slot, node: &'static Plan<'static>) {
    let _ = slot.0.set(node);
}

/// A plan built at run time for values whose shape is known only then (a
/// [`DynamicTool`](crate::DynamicTool)'s, from its JSON Schema), which owns its nodes: they go
/// when it is dropped, nothing kept for the program.
pub(crate) struct OwnedPlan {
    /// The root node, its references into `store`.
    root: Plan<'static>,
    /// Where the nodes are. Never touched again once built (see [`Pool::take`]).
    store: Store,
}

impl OwnedPlan {
    /// The plan `build` makes in a store of its own, `build` returning the root node.
    ///
    /// `build` gets the store with `'static` references into it; they must not leave it but
    /// by the root (the builders in this crate keep them only in the store's nodes).
    pub(crate) fn build(build: impl FnOnce(&mut Store) -> Plan<'static>) -> OwnedPlan {
        let mut store = Store::owned();
        let root = build(&mut store);
        OwnedPlan { root, store }
    }

    /// The root node, for as long as the plan is borrowed.
    pub(crate) fn root(&self) -> &Plan<'_> {
        &self.root
    }
}

impl std::fmt::Debug for OwnedPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The store's blocks are nodes' room, not what the plan is.
        let _ = &self.store;
        f.debug_struct("OwnedPlan")
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}

/// Builds plans from facts, keeping each node it builds ([`plan_for`]).
struct Builder<'a> {
    plans: &'a mut HashMap<usize, &'static Plan<'static>>,
    store: &'a mut Store,
}

impl Builder<'_> {
    /// The plan of a node: [`Plan::None`] where there is nothing to do in it, else built once.
    fn node(&mut self, facts: &'static Facts) -> &'static Plan<'static> {
        if facts.work & PLANNED == 0 {
            return &Plan::None;
        }
        self.kept(facts)
    }

    /// The plan of a node, work or not, built once for the node's address.
    fn kept(&mut self, facts: &'static Facts) -> &'static Plan<'static> {
        let address = std::ptr::from_ref(facts).addr();
        if let Some(plan) = self.plans.get(&address) {
            return plan;
        }
        let plan = self.build(facts);
        let plan = self.store.node(plan);
        self.plans.insert(address, plan);
        plan
    }

    fn build(&mut self, facts: &'static Facts) -> Plan<'static> {
        if let Some(target) = facts.behind {
            return Plan::Cycle(Reach::Target(target));
        }
        match facts.parse {
            Parse::Reference(of) => Plan::Lazy(Reach::Facts(of)),
            Parse::Set => Plan::Unique(self.items(facts)),
            Parse::Values(values) => Plan::Values(self.node(values)),
            Parse::Tuple(items) => Plan::Tuple(self.list(items.iter().copied())),
            Parse::Enum(repr, untagged_from, pick) => {
                self.enumeration(facts, repr, untagged_from, pick)
            }
            Parse::Whole => self.object(facts),
            Parse::Keywords(keywords) => {
                let regex = keywords
                    .pattern
                    .and_then(crate::parse::constraints::compiled);
                let inner = match facts.kids {
                    [kid] => self.node(kid.facts),
                    _ => &Plan::None,
                };
                Plan::Check(keywords, regex, inner)
            }
            Parse::Plain | Parse::Default(_) | Parse::Keep | Parse::NullValue => {
                let kids = facts.kids;
                if kids
                    .iter()
                    .any(|k| matches!(k.via, Via::Property | Via::Flatten))
                {
                    self.object(facts)
                } else if kids.iter().any(|k| matches!(k.via, Via::Items)) {
                    Plan::Items(self.items(facts))
                } else {
                    // A wrapper: a field's keywords, a recursive type's definition.
                    match kids {
                        [kid] => *self.node(kid.facts),
                        _ => Plan::Any(self.list(kids.iter().map(|k| k.facts))),
                    }
                }
            }
        }
    }

    /// `nodes`, kept for the life of the program.
    fn nodes(&mut self, nodes: &[Plan<'static>]) -> &'static [Plan<'static>] {
        self.store.nodes(nodes)
    }

    /// `fields`, kept for the life of the program.
    fn fields(&mut self, fields: &[PlanField<'static>]) -> &'static [PlanField<'static>] {
        self.store.fields(fields)
    }

    /// The node of an array's items.
    fn items(&mut self, facts: &'static Facts) -> &'static Plan<'static> {
        match facts.kids.iter().find(|k| matches!(k.via, Via::Items)) {
            Some(kid) => self.node(kid.facts),
            None => &Plan::None,
        }
    }

    /// The nodes of `facts`, as a list kept for the life of the program.
    fn list(&mut self, facts: impl Iterator<Item = &'static Facts>) -> &'static [Plan<'static>] {
        let nodes: Vec<Plan<'static>> = facts.map(|f| *self.node(f)).collect();
        self.nodes(&nodes)
    }

    /// An object: its properties (each with its default, if any) and its flattened types.
    fn object(&mut self, facts: &'static Facts) -> Plan<'static> {
        let mut fields = Vec::new();
        let mut flattened = Vec::new();
        for kid in facts.kids {
            match kid.via {
                Via::Property => fields.push(self.field(kid.name, kid.facts)),
                Via::Flatten => flattened.push(*self.node(kid.facts)),
                _ => {}
            }
        }
        Plan::object(self.fields(&fields), self.nodes(&flattened))
    }

    /// A property named `name` whose value's facts are `facts`.
    fn field(&mut self, name: &'static str, facts: &'static Facts) -> PlanField<'static> {
        match (facts.parse, facts.kids) {
            (Parse::Default(fill), [kid]) => PlanField {
                name,
                default: true,
                fill: fill.map(FillValue::of),
                inner: self.node(kid.facts),
            },
            (Parse::Keep, _) => PlanField::nested(name, &Plan::Keep),
            // A `Patch`: its `null` is a value, where another variant may default the key.
            _ if facts.reads_null() && facts.work & PLANNED == 0 => {
                PlanField::nested(name, &Plan::Keep)
            }
            _ => PlanField::nested(name, self.node(facts)),
        }
    }

    /// An enum: its tagged variants as their representation reads them, then its untagged
    /// ones, which serde tries in turn.
    fn enumeration(
        &mut self,
        facts: &'static Facts,
        repr: EnumRepr,
        untagged_from: u16,
        pick: Option<Pick>,
    ) -> Plan<'static> {
        let (tagged, untagged) = facts
            .kids
            .split_at_checked(usize::from(untagged_from))
            .unwrap_or((facts.kids, &[]));
        let mut alternatives = Vec::new();
        match repr {
            EnumRepr::External => {
                let fields: Vec<PlanField<'static>> = tagged
                    .iter()
                    .filter_map(|branch| {
                        let [kid] = branch.facts.kids else {
                            return None;
                        };
                        matches!(kid.via, Via::Property).then_some(kid)
                    })
                    .map(|kid| PlanField::nested(kid.name, self.node(kid.facts)))
                    .collect();
                if fields.iter().any(|f| !matches!(f.inner, Plan::None)) {
                    alternatives.push(Plan::object(self.fields(&fields), &[]));
                }
            }
            EnumRepr::Internal(tag) | EnumRepr::Adjacent(tag) => {
                let cases: Vec<TagCase<'static>> = tagged
                    .iter()
                    .map(|branch| TagCase {
                        name: branch.name,
                        node: self.case(branch.facts),
                    })
                    .collect();
                if cases.iter().any(|c| !matches!(c.node, Plan::None)) {
                    let cases = self.store.cases(&cases);
                    alternatives.push(Plan::Tagged(tag, cases));
                }
            }
            EnumRepr::Untagged => {}
        }
        if !untagged.is_empty() {
            let contents: Vec<Plan<'static>> = untagged
                .iter()
                .map(|branch| match branch.facts.parse {
                    // An untagged variant's own fields: kept whole.
                    Parse::Whole => *self.kept(branch.facts),
                    _ => *self.node(branch.facts),
                })
                .collect();
            alternatives.push(Plan::Untagged(self.nodes(&contents), pick));
        }
        match alternatives.len() {
            0 => Plan::None,
            1 => alternatives.pop().unwrap_or(Plan::None),
            _ => Plan::Any(self.nodes(&alternatives)),
        }
    }

    /// The node of a tagged variant's object: its fields, or a newtype variant's content
    /// (flattened in beside the tag).
    fn case(&mut self, facts: &'static Facts) -> &'static Plan<'static> {
        match facts.kids {
            [kid] if matches!(kid.via, Via::Flatten) => self.node(kid.facts),
            _ => self.node(facts),
        }
    }
}

/// `T` parsed from `text` with the `null`s of its fields with a default dropped as serde reads
/// it ([`de::from_str`]): the fast path of argument parsing alone, without the fallbacks that
/// make its errors precise.
///
/// Not public API (it is reached through `toolgen::__private`, for the tests that check that
/// arguments take this path, and for the benchmark).
#[doc(hidden)]
pub fn parse_stripping<T>(text: &str) -> serde_json::Result<T>
where
    T: crate::ToolSchema + serde::de::DeserializeOwned,
{
    super::fast::from_str(text, plan::<T>())
}
