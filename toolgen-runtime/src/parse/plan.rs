//! The parse plan: where a type's `null`s stand for missing fields with a default (OpenAI strict
//! mode makes every property required and the optional ones nullable, so a model sends `null`
//! for what it would have left out), where a missing field's `#[tool(default = ..)]` value goes
//! ([`PlanField::fill`]), and where a set's items must all differ ([`Plan::Unique`]).
//!
//! A type's plan is built from its `ToolSchema::FACTS` (its shape: which fields have a default,
//! the enum representation, sets, ..) at first use, once ([`plan_for`]): a tree of [`Plan`]
//! nodes kept for the life of the program. Argument parsing follows it through serde's own parse ([`crate::parse::fast`], the fast path), through the
//! argument text where that parse fails ([`crate::parse::text`]: one pass, no
//! `serde_json::Value`; it finds the errors, and reads the rare keys the fast path leaves to it)
//! and through a value ([`crate::parse::walk`]: `null`s dropped, values filled in, sets
//! checked), all three by way of the node sets of [`crate::parse::sets`].

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

use super::sets::Conflicts;
use super::text::strip_text;
use crate::schema::facts::{CHECK, EnumRepr, Facts, Parse, REACH, STRIP, TargetAt, Via};

/// Where `null`s stand for missing fields with a default, in a value of some type: a compile-time
/// tree, built by `#[derive(ToolSchema)]` and the standard library impls, that argument parsing
/// follows through the JSON.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Plan {
    /// Nothing to strip here or below.
    None,
    /// An object: the fields that have a default or lead to one, and the nodes of its
    /// `#[serde(flatten)]` fields, which read the keys it does not know.
    Object(&'static [PlanField], &'static [Plan]),
    /// An array whose items all follow the node.
    Items(&'static Plan),
    /// An array whose items all follow the node and must all differ: a set, whose schema says
    /// `uniqueItems` and which serde reads merging repeats without a word ([`check_value`]).
    Unique(&'static Plan),
    /// An array whose items follow the nodes position by position (a tuple).
    Tuple(&'static [Plan]),
    /// An object whose values all follow the node (a map).
    Values(&'static Plan),
    /// The alternatives of an enum, any of which may be what the JSON is: a key is stripped if
    /// an alternative defaults it and none reads its `null` as a value ([`Plan::Keep`]), and
    /// its value follows all of theirs. (Untagged variants: which one serde takes is known only
    /// by trying them.)
    Any(&'static [Plan]),
    /// The untagged alternatives of an enum (the whole enum's, or its `#[serde(untagged)]`
    /// variants'), which serde tries in turn: stripped as [`Plan::Any`], but no
    /// `#[tool(default = ..)]` value is filled in below it, where which variant the model meant
    /// is not known (a value filled in for one could make serde take it over another).
    Untagged(&'static [Plan]),
    /// An internally or adjacently tagged enum: the object's member named by the first field (a
    /// string) names the variant whose node the whole object follows, its fields beside the tag
    /// (internal) or `{"<content>": ..}` (adjacent), so each variant's `null`s are stripped as
    /// that variant reads them. An object whose tag is missing, or names no case, follows
    /// nothing: serde refuses it whatever is stripped. Resolved on entering the object
    /// ([`resolve_tags`]).
    Tagged(&'static str, &'static [TagCase]),
    /// The node of a type that leads back to the type being defined (a recursive type), found
    /// when it is needed: its facts cannot hold the type's own (a const would be a cycle).
    Lazy(Reach),
    /// The node of a type that leads back to the one holding it (a cycle the derive found, or a
    /// field marked `#[tool(recursive)]`), found when it is needed, as [`Plan::Lazy`]. What is
    /// behind it is not known where it is held, so its facts count it as having every kind of
    /// work.
    Cycle(Reach),
    /// A field of an untagged variant that reads `null` as a value (a `serde_json::Value`, `()`,
    /// or one read by `deserialize_with`), where missing is not the same: when another variant
    /// defaults the same key, which of the two serde takes is known only by trying, so argument
    /// parsing tries the `null` kept and dropped ([`Conflicts`]). Nothing to strip in itself.
    Keep,
}

/// A variant of a [`Plan::Tagged`]: the tag's value that names it, and its node.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct TagCase {
    /// The string serde reads for the variant.
    pub name: &'static str,
    /// What the object follows when its tag names the variant.
    pub node: &'static Plan,
}

/// A field of a [`Plan::Object`].
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct PlanField {
    /// The property name serde reads.
    pub name: &'static str,
    /// Whether the field has a default (`#[serde(default)]` on it or its container, or
    /// `#[tool(default = ..)]`): then `null` is dropped and the default applies.
    pub default: bool,
    /// Its `#[tool(default = ..)]` value, written in where the key is missing (after its `null`
    /// is dropped), so that serde finds it.
    pub fill: Option<FillValue>,
    /// The node of the field's value.
    pub inner: &'static Plan,
}

impl PlanField {
    /// A field without a default whose value may hold one ([`PlanField::inner`]).
    pub const fn nested(name: &'static str, inner: &'static Plan) -> PlanField {
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
pub struct FillValue {
    /// The value's JSON text.
    pub text: &'static str,
    /// The value, where it is a [`Scalar`]; `None` leaves it to serde_json, which reads `text`.
    pub scalar: Option<Scalar>,
}

impl FillValue {
    /// The value whose JSON text is `text`.
    pub const fn of(text: &'static str) -> FillValue {
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
pub enum Scalar {
    /// `true` or `false`.
    Bool(bool),
    /// An integer without a sign.
    Unsigned(u64),
    /// A negative integer.
    Signed(i64),
    /// A string without escapes, between its quotes.
    Str(&'static str),
    /// `[]`.
    EmptyArray,
    /// `{}`.
    EmptyObject,
}

impl Scalar {
    /// The scalar `text` is, if it is one of those; `None` leaves it to serde_json (numbers with
    /// a fraction or exponent, whose rounding is serde_json's, leading zeros, escapes, `null`,
    /// arrays and objects with members, integers beyond 64 bits).
    pub(crate) const fn of(text: &'static str) -> Option<Scalar> {
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

/// What a [`Plan::Lazy`] or [`Plan::Cycle`] leads to, found when parsing needs it.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Reach {
    /// A type's facts, whose plan is built from them ([`plan_for`]).
    Facts(fn() -> &'static Facts),
    /// A type that leads back to the one holding it: its facts are its target's.
    Target(TargetAt),
    /// A plan as it is (the tests write trees by hand).
    Plan(fn() -> &'static Plan),
}

impl Reach {
    /// The plan it leads to.
    pub(crate) fn plan(self) -> &'static Plan {
        match self {
            Reach::Facts(of) => plan_for(of()),
            Reach::Target(at) => plan_for(at.get().facts),
            Reach::Plan(of) => of(),
        }
    }
}

/// The plan argument parsing follows for a value of `T`: built from its facts at first use.
pub(crate) fn plan<T: crate::ToolSchema + ?Sized>() -> &'static Plan {
    plan_for(T::FACTS)
}

/// The plan of a type whose facts are `facts`, built from them once (a tree of `static`s, kept
/// for the life of the program: there are as many as the program's types, whatever the input)
/// and looked up by the facts' address after that.
///
/// Not public API (it is reached through `toolgen::__private`, for the benchmark).
#[doc(hidden)]
pub fn plan_for(facts: &'static Facts) -> &'static Plan {
    static BUILT: Mutex<Option<Built>> = Mutex::new(None);
    // The plans found most, without a lock: a slot per address's hash, taken by the first type
    // that lands there (one atomic load to read); the others are found under the lock.
    static SEEN: [OnceLock<(usize, &'static Plan)>; SEEN_SLOTS] =
        [const { OnceLock::new() }; SEEN_SLOTS];
    if facts.work & (STRIP | CHECK | REACH) == 0 {
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
    let plan = Builder {
        built: built.get_or_insert_with(Built::default),
    }
    .node(facts);
    if let Some(slot) = slot {
        let _ = slot.set((address, plan));
    }
    plan
}

/// How many plans [`plan_for`] finds without its lock.
const SEEN_SLOTS: usize = 64;

/// The plans built so far, by the address of their facts, and room for more.
#[derive(Default)]
struct Built {
    plans: HashMap<usize, &'static Plan>,
    nodes: Pool<Plan>,
    fields: Pool<PlanField>,
    cases: Pool<TagCase>,
}

/// Room for the nodes of plans, kept for the life of the program: a few blocks, taken in turn,
/// rather than an allocation per node scattered among the program's own (which would leave the
/// allocator's free lists more broken up for the program's later allocations).
struct Pool<T: 'static> {
    rest: &'static mut [T],
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool { rest: &mut [] }
    }
}

/// How many items a [`Pool`] block holds (more where one list needs more).
const POOL_BLOCK: usize = 256;

impl<T: Copy> Pool<T> {
    /// A copy of `items` in the pool; `filler` fills a new block's room until it is used.
    fn put(&mut self, items: &[T], filler: T) -> &'static [T] {
        if items.is_empty() {
            return &[];
        }
        if self.rest.len() < items.len() {
            self.rest = vec![filler; POOL_BLOCK.max(items.len())].leak();
        }
        let (taken, rest) = std::mem::take(&mut self.rest).split_at_mut(items.len());
        self.rest = rest;
        taken.copy_from_slice(items);
        taken
    }
}

/// Builds plans from facts, keeping each node it builds ([`plan_for`]).
struct Builder<'a> {
    built: &'a mut Built,
}

impl Builder<'_> {
    /// The plan of a node: [`Plan::None`] where there is nothing to do in it, else built once.
    fn node(&mut self, facts: &'static Facts) -> &'static Plan {
        if facts.work & (STRIP | CHECK | REACH) == 0 {
            return &Plan::None;
        }
        self.kept(facts)
    }

    /// The plan of a node, work or not, built once for the node's address.
    fn kept(&mut self, facts: &'static Facts) -> &'static Plan {
        let address = std::ptr::from_ref(facts).addr();
        if let Some(plan) = self.built.plans.get(&address) {
            return plan;
        }
        let plan = self.build(facts);
        let plan = match self.nodes(&[plan]) {
            [plan] => plan,
            _ => &Plan::None,
        };
        self.built.plans.insert(address, plan);
        plan
    }

    fn build(&mut self, facts: &'static Facts) -> Plan {
        if let Some(target) = facts.behind {
            return Plan::Cycle(Reach::Target(target));
        }
        match facts.parse {
            Parse::Reference(of) => Plan::Lazy(Reach::Facts(of)),
            Parse::Set => Plan::Unique(self.items(facts)),
            Parse::Values(values) => Plan::Values(self.node(values)),
            Parse::Tuple(items) => Plan::Tuple(self.list(items.iter().copied())),
            Parse::Enum(repr, untagged_from) => self.enumeration(facts, repr, untagged_from),
            Parse::Whole => self.object(facts),
            Parse::Plain | Parse::Default(_) | Parse::Keep => {
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
    fn nodes(&mut self, nodes: &[Plan]) -> &'static [Plan] {
        self.built.nodes.put(nodes, Plan::None)
    }

    /// `fields`, kept for the life of the program.
    fn fields(&mut self, fields: &[PlanField]) -> &'static [PlanField] {
        self.built
            .fields
            .put(fields, PlanField::nested("", &Plan::None))
    }

    /// The node of an array's items.
    fn items(&mut self, facts: &'static Facts) -> &'static Plan {
        match facts.kids.iter().find(|k| matches!(k.via, Via::Items)) {
            Some(kid) => self.node(kid.facts),
            None => &Plan::None,
        }
    }

    /// The nodes of `facts`, as a list kept for the life of the program.
    fn list(&mut self, facts: impl Iterator<Item = &'static Facts>) -> &'static [Plan] {
        let nodes: Vec<Plan> = facts.map(|f| *self.node(f)).collect();
        self.nodes(&nodes)
    }

    /// An object: its properties (each with its default, if any) and its flattened types.
    fn object(&mut self, facts: &'static Facts) -> Plan {
        let mut fields = Vec::new();
        let mut flattened = Vec::new();
        for kid in facts.kids {
            match kid.via {
                Via::Property => fields.push(self.field(kid.name, kid.facts)),
                Via::Flatten => flattened.push(*self.node(kid.facts)),
                _ => {}
            }
        }
        Plan::Object(self.fields(&fields), self.nodes(&flattened))
    }

    /// A property named `name` whose value's facts are `facts`.
    fn field(&mut self, name: &'static str, facts: &'static Facts) -> PlanField {
        match (facts.parse, facts.kids) {
            (Parse::Default(fill), [kid]) => PlanField {
                name,
                default: true,
                fill: fill.map(FillValue::of),
                inner: self.node(kid.facts),
            },
            (Parse::Keep, _) => PlanField::nested(name, &Plan::Keep),
            _ => PlanField::nested(name, self.node(facts)),
        }
    }

    /// An enum: its tagged variants as their representation reads them, then its untagged
    /// ones, which serde tries in turn.
    fn enumeration(&mut self, facts: &'static Facts, repr: EnumRepr, untagged_from: u16) -> Plan {
        let (tagged, untagged) = facts
            .kids
            .split_at_checked(usize::from(untagged_from))
            .unwrap_or((facts.kids, &[]));
        let mut alternatives = Vec::new();
        match repr {
            EnumRepr::External => {
                let fields: Vec<PlanField> = tagged
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
                    alternatives.push(Plan::Object(self.fields(&fields), &[]));
                }
            }
            EnumRepr::Internal(tag) | EnumRepr::Adjacent(tag) => {
                let cases: Vec<TagCase> = tagged
                    .iter()
                    .map(|branch| TagCase {
                        name: branch.name,
                        node: self.case(branch.facts),
                    })
                    .collect();
                if cases.iter().any(|c| !matches!(c.node, Plan::None)) {
                    let cases = self.built.cases.put(
                        &cases,
                        TagCase {
                            name: "",
                            node: &Plan::None,
                        },
                    );
                    alternatives.push(Plan::Tagged(tag, cases));
                }
            }
            EnumRepr::Untagged => {}
        }
        if !untagged.is_empty() {
            let contents: Vec<Plan> = untagged
                .iter()
                .map(|branch| match branch.facts.parse {
                    // An untagged variant's own fields: kept whole.
                    Parse::Whole => *self.kept(branch.facts),
                    _ => *self.node(branch.facts),
                })
                .collect();
            alternatives.push(Plan::Untagged(self.nodes(&contents)));
        }
        match alternatives.len() {
            0 => Plan::None,
            1 => alternatives.pop().unwrap_or(Plan::None),
            _ => Plan::Any(self.nodes(&alternatives)),
        }
    }

    /// The node of a tagged variant's object: its fields, or a newtype variant's content
    /// (flattened in beside the tag).
    fn case(&mut self, facts: &'static Facts) -> &'static Plan {
        match facts.kids {
            [kid] if matches!(kid.via, Via::Flatten) => self.node(kid.facts),
            _ => self.node(facts),
        }
    }
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
    super::fast::from_str(text, plan::<T>())
}

/// [`strip_text`] for the benchmark that compares the text stripper with [`parse_stripping`]:
/// `None` where nothing was dropped.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub fn strip_text_of<T: crate::ToolSchema + ?Sized>(text: &str) -> Option<String> {
    strip_text(text, plan::<T>(), &mut Conflicts::default())
}
