//! Null-stripping inside serde's own parse: a `Deserializer` wrapper that drops the members
//! `"key": null` whose field has a default as serde_json reads them, writes the
//! `#[tool(default = ..)]` values in (in the place of a `null` dropped, or at an object's end
//! for keys that are missing), and compares a set's
//! items before serde merges them, so that valid arguments are read once, with no second pass
//! over the text.
//!
//! [`from_str`] wraps serde_json's deserializer in [`Strip`], which carries the node set of the
//! value being read (the same sets the `Value` walk follows) into every visitor,
//! map, sequence and enum serde_json hands out. Where a set has nothing to strip, serde_json's
//! own seeds and visitors are used as they are, so those parts cost nothing extra.

use std::cell::Cell;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::{Mutex, PoisonError};

use serde::de::value::{BorrowedStrDeserializer, SeqDeserializer};
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Error as _, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

use crate::parse::args::{UniqueKeys, has_f32_overflow};

use super::lexer::{
    decode_into, is_whitespace, literal, scan_number, scan_string, skip_container, skip_whitespace,
    string_stop,
};
use super::plan::{self, Flat, Layout, Scalar};
use crate::parse::constraints::Measure;
use crate::schema::facts::Keywords;

// The fast path reads the derived types' plans only ([`plan::plan_for`]), kept for the life of
// the program: the node sets it keeps once ([`interned`]) are keyed by their nodes' addresses.
type Plan = plan::Plan<'static>;
type PlanField = plan::PlanField<'static>;
type TagCase = plan::TagCase<'static>;
type FillValue = plan::FillValue<'static>;
type Found = super::sets::Found<'static>;
use super::sets::{
    MAX_STEPS, Tag, expand, has_tagged, lookup, resolve_tags, same_key, take_step, with_nodes,
};

/// Parses `text` into `T`, dropping the members `"key": null` whose key has a default where it
/// is, as `root` tells.
///
/// Any error means "not on this path": the caller parses again the way that reports errors
/// (through a `serde_json::Value`, stripped and filled there), so the errors here are not shown
/// and are not made precise. Besides what serde_json rejects, three cases are left to that way:
/// a key of a field with a default that is repeated in its object (dropping one copy would hide
/// the repeat from serde), a key written with escapes (rare: models do not escape names; keys
/// are read as serde_json borrows them from the text, see [`null_follows`]), and types whose
/// enums meet in more distinct ways than [`MAX_SETS`].
pub(crate) fn from_str<T>(text: &str, root: &'static Plan) -> serde_json::Result<T>
where
    T: serde::de::DeserializeOwned,
{
    SETS_FULL.set(false);
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(Strip {
        de: &mut de,
        set: Set::of(root),
        text,
    })?;
    de.end()?;
    if SETS_FULL.get() {
        return Err(serde_json::Error::custom("too many distinct sets of nodes"));
    }
    Ok(value)
}

/// The concrete nodes (`Object`, `Items`, `Tuple`, `Values`) a JSON value follows: several where
/// an enum's alternatives meet. Copied for each item of an array: the rare set of several nodes
/// is kept once ([`interned`]).
#[derive(Clone, Copy)]
enum Set {
    /// Nothing to strip here or below.
    Empty,
    One(&'static Plan),
    Many(&'static [&'static Plan]),
}

impl Set {
    /// The set `node` stands for (`Any` and `Lazy` resolved).
    #[inline]
    fn of(node: &'static Plan) -> Set {
        match node {
            Plan::None | Plan::Keep => Set::Empty,
            Plan::Any(_) | Plan::Untagged(..) | Plan::Lazy(_) | Plan::Cycle(_) => {
                Set::expanded(node)
            }
            _ => Set::One(node),
        }
    }

    #[inline(never)]
    fn expanded(node: &'static Plan) -> Set {
        with_nodes(|nodes| {
            let mut steps = MAX_STEPS;
            expand(node, nodes, 0, &mut steps);
            Set::from_nodes(nodes)
        })
    }

    fn from_nodes(nodes: &[&'static Plan]) -> Set {
        match nodes {
            [] => Set::Empty,
            [node] => Set::One(node),
            _ => match interned(nodes) {
                Some(nodes) => Set::Many(nodes),
                // The parse is refused at its end ([`from_str`]); the slow path reads the text.
                None => {
                    SETS_FULL.set(true);
                    Set::Empty
                }
            },
        }
    }

    fn nodes(&self) -> &[&'static Plan] {
        match self {
            Set::Empty => &[],
            Set::One(node) => std::slice::from_ref(node),
            Set::Many(nodes) => nodes,
        }
    }

    fn is_empty(&self) -> bool {
        matches!(self, Set::Empty)
    }

    /// The keywords a value of the set must meet ([`Plan::Check`]), and the set of the value's
    /// own nodes. `Err` where the set is several nodes and one has keywords (alternatives of a
    /// union meeting at a value with keywords, rare): the `Value` path checks them.
    #[inline]
    fn peel(self) -> Result<(Option<&'static Plan>, Set), ()> {
        match self {
            Set::One(check @ Plan::Check(_, _, inner)) => Ok((Some(check), Set::of(inner))),
            Set::Many(nodes) if nodes.iter().any(|n| matches!(n, Plan::Check(..))) => Err(()),
            set => Ok((None, set)),
        }
    }

    /// Whether the set has a set of items that must all differ ([`visit_set`]).
    #[inline]
    fn has_unique(&self) -> bool {
        self.nodes().iter().any(|n| matches!(n, Plan::Unique(_)))
    }

    /// Whether an object in the set makes keys matter.
    fn has_object(&self) -> bool {
        self.nodes()
            .iter()
            .any(|n| matches!(n, Plan::Object(..) | Plan::Tagged(..)))
    }

    /// The set with its tagged enums resolved ([`resolve_tags`]) for the object whose members
    /// start at `members` in `text`.
    fn resolved(&self, text: &str, members: usize) -> Set {
        with_nodes(|nodes| {
            nodes.extend_from_slice(self.nodes());
            resolve_tags(nodes, 0, |tag| tag_value(text, members, tag));
            Set::from_nodes(nodes)
        })
    }

    /// How the members of an object that follows this set are read where it is not one plain
    /// object (which [`StripVisitor::visit_map`] reads by a [`FieldMap`]); `None` when there is
    /// nothing to strip in them.
    fn into_keyed(self) -> Option<Keyed> {
        if has_tagged(self.nodes()) {
            return Some(Keyed::Tagged(self));
        }
        if self.has_object() {
            return Some(Keyed::Keys(self));
        }
        // Only maps (or nodes of arrays, which an object does not follow): every value follows
        // the maps' value nodes, whatever its key.
        let values = with_nodes(|nodes| {
            let mut steps = MAX_STEPS;
            for node in self.nodes() {
                if let Plan::Values(inner) = node {
                    expand(inner, nodes, 0, &mut steps);
                }
            }
            Set::from_nodes(nodes)
        });
        match values {
            Set::Empty => None,
            values => Some(Keyed::Values(values)),
        }
    }

    /// How the items of an array that follows this set are read; `None` when there is nothing
    /// to strip in them.
    #[inline]
    fn into_items(self) -> Option<Items> {
        if self.nodes().iter().any(|n| matches!(n, Plan::Tuple(_))) {
            return Some(Items::ByPosition(self));
        }
        match self.item(0) {
            Set::Empty => None,
            items => Some(Items::All(items)),
        }
    }

    /// The set of the item at `index` of an array.
    fn item(&self, index: usize) -> Set {
        // The common case: one array.
        if let Set::One(Plan::Items(inner) | Plan::Unique(inner)) = self {
            return Set::of(inner);
        }
        with_nodes(|nodes| {
            let mut steps = MAX_STEPS;
            for node in self.nodes() {
                match node {
                    Plan::Items(inner) | Plan::Unique(inner) => {
                        expand(inner, nodes, 0, &mut steps);
                    }
                    Plan::Tuple(items) => {
                        if let Some(inner) = items.get(index) {
                            expand(inner, nodes, 0, &mut steps);
                        }
                    }
                    _ => {}
                }
            }
            Set::from_nodes(nodes)
        })
    }

    /// Looks `key` up in every node of the set, flattened ones and `Values` included: what it
    /// names, and the set of its value.
    fn lookup(&self, key: &str) -> (Found, Set) {
        match self.lookup_in_fields(key) {
            Some(found) => found,
            None => self.lookup_by_nodes(key),
        }
    }

    /// [`Set::lookup`] in every case: each node looked up in turn, the nodes of the value listed.
    fn lookup_by_nodes(&self, key: &str) -> (Found, Set) {
        with_nodes(|nodes| {
            let mut steps = MAX_STEPS;
            let mut found = Found::default();
            for node in self.nodes() {
                found = found.or(lookup(node, key.as_bytes(), nodes, 0, &mut steps));
            }
            (found, Set::from_nodes(nodes))
        })
    }
}

impl Set {
    /// [`Set::lookup`] where the set is objects whose flattened nodes are tagged enums (resolved
    /// into the set already: an object with an enum flattened in, once its tag is read) and at
    /// most one of them names `key`: the key is that field's, found without a list of nodes.
    /// `None` where the set is otherwise.
    fn lookup_in_fields(&self, key: &str) -> Option<(Found, Set)> {
        let mut named: Option<&'static PlanField> = None;
        for node in self.nodes() {
            let Plan::Object(fields, flattened, _) = node else {
                return None;
            };
            if !flattened.iter().all(|f| matches!(f, Plan::Tagged(..))) {
                return None;
            }
            if let Some((_, field)) = find_field(fields, key) {
                if named.is_some() {
                    return None;
                }
                named = Some(field);
            }
        }
        Some(match named {
            Some(field) => (Found::field(field), Set::of(field.inner)),
            None => (Found::default(), Set::Empty),
        })
    }
}

/// How many distinct sets of several nodes [`interned`] keeps, at most.
const MAX_SETS: usize = 4096;

thread_local! {
    /// Whether [`interned`] refused a set during the parse on this thread.
    static SETS_FULL: Cell<bool> = const { Cell::new(false) };
}

/// `nodes`, kept for the life of the program, once for each distinct list: each is a list of the
/// program's own `static` nodes (what a JSON value follows where an enum's alternatives meet),
/// so there are as many as the types' shapes allow, whatever the input. `None` past
/// [`MAX_SETS`] of them.
#[inline(never)]
fn interned(nodes: &[&'static Plan]) -> Option<&'static [&'static Plan]> {
    static SETS: Mutex<Option<Sets>> = Mutex::new(None);
    let mut sets = SETS.lock().unwrap_or_else(PoisonError::into_inner);
    intern(sets.get_or_insert_with(HashMap::new), nodes, MAX_SETS)
}

/// The sets [`interned`] keeps, by their nodes' addresses.
type Sets = HashMap<Vec<usize>, &'static [&'static Plan]>;

/// [`interned`] in `sets`, which keeps at most `max`.
fn intern(
    sets: &mut Sets,
    nodes: &[&'static Plan],
    max: usize,
) -> Option<&'static [&'static Plan]> {
    let address = |node: &&'static Plan| std::ptr::from_ref(*node).addr();
    // The nodes' addresses, on the stack where the set is small (as nearly all are): a set is
    // looked up without a new list, which is made only to keep a new one.
    let mut key = [0usize; 16];
    let long: Vec<usize>;
    let addresses: &[usize] = match key.get_mut(..nodes.len()) {
        Some(key) => {
            for (slot, node) in key.iter_mut().zip(nodes) {
                *slot = address(node);
            }
            key
        }
        None => {
            long = nodes.iter().map(address).collect();
            &long
        }
    };
    if let Some(set) = sets.get(addresses) {
        return Some(set);
    }
    if sets.len() >= max {
        return None;
    }
    let set: &'static [&'static Plan] = Box::leak(nodes.to_vec().into_boxed_slice());
    sets.insert(addresses.to_vec(), set);
    Some(set)
}

/// The field of `fields` named `key`, and its index.
#[inline(always)]
fn find_field(fields: &'static [PlanField], key: &str) -> Option<(usize, &'static PlanField)> {
    // Lengths first: most keys differ from most names there. (A loop of its own: through
    // `Iterator::find`, rustc leaves the search to a function of its own, called for each key.)
    for (index, field) in fields.iter().enumerate() {
        if field.name.len() == key.len() && same_key(field.name.as_bytes(), key.as_bytes()) {
            return Some((index, field));
        }
    }
    None
}

/// The fields with a default that the keys of an object read through a set ([`StripMap`]) have
/// named so far: the same `&'static str` whichever key names a field.
#[derive(Default)]
struct Seen(Vec<&'static str>);

impl Seen {
    /// Records `name`; `false` if it was named before.
    #[inline]
    fn insert(&mut self, name: &'static str) -> bool {
        if self.0.iter().any(|seen| std::ptr::eq(*seen, name)) {
            return false;
        }
        self.0.push(name);
        true
    }
}

/// How the members of an object that is not one plain object are read ([`StripMap`]).
enum Keyed {
    /// The values all follow a set, whatever their key (maps): keys are left to serde_json.
    Values(Set),
    /// Each key is read here and looked up in the set.
    Keys(Set),
    /// As `Keys`, once the tagged enums of the set are resolved: at the first key.
    Tagged(Set),
}

/// Hands `each` the fields with a `#[tool(default = ..)]` value of the object `node` stands for,
/// until it breaks: its own, then its flattened types' (in the order
/// [`fill_value`](super::walk::fill_value) writes them in). A tagged enum's variants hand theirs
/// with `cases`; without it, they are left out (a resolved set holds the variant its tag names). An
/// untagged enum's alternatives hand none: nothing is filled below them.
fn own_fills(
    node: &'static Plan,
    cases: bool,
    steps: &mut usize,
    each: &mut impl FnMut(&'static PlanField) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if !take_step(steps) {
        return ControlFlow::Continue(());
    }
    match node {
        Plan::Object(fields, flattened, _) => {
            for field in *fields {
                if field.fill.is_some() {
                    each(field)?;
                }
            }
            for node in *flattened {
                own_fills(node, cases, steps, each)?;
            }
        }
        Plan::Any(alternatives) => {
            for node in *alternatives {
                own_fills(node, cases, steps, each)?;
            }
        }
        Plan::Tagged(_, tagged) if cases => {
            for case in *tagged {
                own_fills(case.node, cases, steps, each)?;
            }
        }
        Plan::Lazy(resolve) | Plan::Cycle(resolve) => {
            own_fills(resolve.plan(), cases, steps, each)?
        }
        _ => {}
    }
    ControlFlow::Continue(())
}

/// The fields with a `#[tool(default = ..)]` value of the objects of `set` (a resolved one),
/// which an object whose keys are looked up in it ([`Keyed::Keys`]) may write in; `None` past
/// 64 (the `Value` path writes them in).
fn keyed_fills(set: &Set) -> Option<Vec<&'static PlanField>> {
    let mut fills = Vec::new();
    let mut steps = MAX_STEPS;
    for node in set.nodes() {
        let _ = own_fills(node, false, &mut steps, &mut |field| {
            fills.push(field);
            ControlFlow::Continue(())
        });
    }
    (fills.len() <= 64).then_some(fills)
}

/// How an array's items are read.
enum Items {
    /// Every item follows the set.
    All(Set),
    /// Item by item, in the array's set (it has a tuple).
    ByPosition(Set),
}

/// A deserializer whose value follows `set`: `de`, with `null`s dropped where `set` has a
/// default for their key. `text` is the JSON `de` reads, in which keys are found (see
/// [`null_follows`]).
struct Strip<'de, D> {
    de: D,
    set: Set,
    text: &'de str,
}

/// Forwards `deserialize_*` methods to the inner deserializer with the visitor wrapped.
macro_rules! forward_deserialize {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
                let Strip { de, set, text } = self;
                de.$method($($arg,)* StripVisitor { visitor, set, text })
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strip<'de, D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.de.deserialize_ignored_any(visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

/// A seed that deserializes through [`Strip`] with `set`.
struct StripSeed<'de, S> {
    seed: S,
    set: Set,
    text: &'de str,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for StripSeed<'de, S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        let StripSeed { seed, set, text } = self;
        seed.deserialize(Strip { de, set, text })
    }
}

/// `$call` with `$seed` as it is where `$set` has nothing to strip, else wrapped in a
/// [`StripSeed`]: the parts with nothing to strip are serde_json's own.
macro_rules! strip_seed {
    ($set:expr, $text:expr, $seed:ident => $call:expr) => {{
        let set = $set;
        if set.is_empty() {
            $call
        } else {
            let $seed = StripSeed {
                seed: $seed,
                set,
                text: $text,
            };
            $call
        }
    }};
}

/// A visitor whose maps, sequences, enums and nested deserializers follow `set`.
struct StripVisitor<'de, V> {
    visitor: V,
    set: Set,
    text: &'de str,
}

impl<'de, V> StripVisitor<'de, V> {
    fn strip<D>(self, de: D) -> (V, Strip<'de, D>) {
        let StripVisitor { visitor, set, text } = self;
        (visitor, Strip { de, set, text })
    }
}

/// Forwards `visit_*` methods of a scalar to the inner visitor.
macro_rules! forward_visit {
    ($($method:ident($ty:ty);)*) => {
        $(
            #[inline]
            fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
                self.visitor.$method(v)
            }
        )*
    };
}

/// Forwards `visit_*` methods of a number or a text to the inner visitor, once the value meets
/// its keywords ([`check_scalar`]).
macro_rules! forward_checked {
    ($($method:ident($ty:ty) => $measure:ident;)*) => {
        $(
            #[inline]
            fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
                if !self.set.is_empty() {
                    check_scalar(self.set, forward_checked!(@$measure v))?;
                }
                self.visitor.$method(v)
            }
        )*
    };
    (@number $v:ident) => {
        // Precision beyond 2^53 is lost, as the checker reads every JSON number.
        Measure::Number($v as f64)
    };
    (@text $v:ident) => {
        Measure::Text(&$v)
    };
}

/// Checks a number or a text against the keywords of its set, if it has some. Any error leaves
/// the arguments to the `Value` path, which says what is wrong and where.
#[inline]
fn check_scalar<E: de::Error>(set: Set, measure: Measure<'_>) -> Result<(), E> {
    match set.peel() {
        Ok((None, _)) => Ok(()),
        Ok((Some(Plan::Check(keywords, regex, _)), _)) => keywords
            .check(measure, *regex)
            .map_err(|_| E::custom("a value breaks its keywords")),
        _ => Err(E::custom("keywords where alternatives meet")),
    }
}

/// The items of an array whose keywords count them (`minItems`, `maxItems`), counted as serde
/// reads them and checked once the last is read.
struct CountedSeq<A> {
    seq: A,
    keywords: &'static Keywords<'static>,
    count: usize,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for CountedSeq<A> {
    type Error = A::Error;

    #[inline]
    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        let next = self.seq.next_element_seed(seed)?;
        match next {
            Some(_) => self.count += 1,
            None => {
                if self
                    .keywords
                    .check(Measure::Items(self.count), None)
                    .is_err()
                {
                    return Err(A::Error::custom("an array breaks its keywords"));
                }
            }
        }
        Ok(next)
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for StripVisitor<'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.visitor.expecting(f)
    }

    forward_visit! {
        visit_bool(bool);
        visit_i8(i8);
        visit_i16(i16);
        visit_i32(i32);
        visit_u8(u8);
        visit_u16(u16);
        visit_u32(u32);
        visit_f32(f32);
        visit_char(char);
        visit_bytes(&[u8]);
        visit_borrowed_bytes(&'de [u8]);
        visit_byte_buf(Vec<u8>);
    }

    // What serde_json hands a visitor: its numbers and texts, checked against the value's
    // keywords where it has some.
    forward_checked! {
        visit_i64(i64) => number;
        visit_i128(i128) => number;
        visit_u64(u64) => number;
        visit_u128(u128) => number;
        visit_f64(f64) => number;
        visit_str(&str) => text;
        visit_borrowed_str(&'de str) => text;
        visit_string(String) => text;
    }

    #[inline]
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_none()
    }

    #[inline]
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_unit()
    }

    #[inline]
    fn visit_some<D: Deserializer<'de>>(self, de: D) -> Result<V::Value, D::Error> {
        let (visitor, strip) = self.strip(de);
        visitor.visit_some(strip)
    }

    #[inline]
    fn visit_newtype_struct<D: Deserializer<'de>>(self, de: D) -> Result<V::Value, D::Error> {
        let (visitor, strip) = self.strip(de);
        visitor.visit_newtype_struct(strip)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let Ok((check, set)) = self.set.peel() else {
            return Err(A::Error::custom("keywords where alternatives meet"));
        };
        if let Some(Plan::Check(keywords, ..)) = check
            && (keywords.min_properties.is_some() || keywords.max_properties.is_some())
        {
            // Not a derived tool's (its keywords count no properties).
            return Err(A::Error::custom("an object's properties to count"));
        }
        let this = StripVisitor {
            visitor: self.visitor,
            set,
            text: self.text,
        };
        this.visit_object(map)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let Ok((check, set)) = self.set.peel() else {
            return Err(A::Error::custom("keywords where alternatives meet"));
        };
        let this = StripVisitor {
            visitor: self.visitor,
            set,
            text: self.text,
        };
        match check {
            Some(Plan::Check(keywords, ..))
                if keywords.min_items.is_some() || keywords.max_items.is_some() =>
            {
                this.visit_array(CountedSeq {
                    seq,
                    keywords,
                    count: 0,
                })
            }
            _ => this.visit_array(seq),
        }
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        let Ok((_, set)) = self.set.peel() else {
            return Err(A::Error::custom("keywords where alternatives meet"));
        };
        // An externally tagged enum is an object keyed by its variants' names.
        if !set.has_object() {
            return self.visitor.visit_enum(data);
        }
        self.visitor.visit_enum(StripEnum {
            data,
            set,
            text: self.text,
        })
    }
}

impl<'de, V: Visitor<'de>> StripVisitor<'de, V> {
    /// [`Visitor::visit_map`], where the set is the object's own nodes (its keywords peeled).
    fn visit_object<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        // The common cases: one plain object, its fields looked up directly, or one with a
        // tagged enum flattened in whose variants are plain objects, its fields and those of the
        // variant its tag names looked up directly ([`Plan::object`]).
        let plain = match self.set {
            Set::One(Plan::Object(fields, [], layout)) => {
                Some((fields, None, layout.fills != 0, layout))
            }
            Set::One(Plan::Object(fields, [tagged @ Plan::Tagged(..)], layout)) => {
                match layout.flat {
                    Flat::No => None,
                    Flat::Fits => Some((fields, Some(tagged), false, layout)),
                    Flat::Fills => Some((fields, Some(tagged), true, layout)),
                }
            }
            _ => None,
        };
        if let Some((fields, tagged, fill, layout)) = plain {
            // `fill`: whether the object may have `#[tool(default = ..)]` values to write in
            // ([`FieldMap::next_fill`]); its layout, its own fields that do ([`Fill::fills`])
            // and the lengths of their names ([`FieldMap::lengths`]).
            macro_rules! visit {
                ($fill:literal) => {
                    self.visitor.visit_map(FieldMap::<A, $fill> {
                        map,
                        fields,
                        tagged,
                        case: None,
                        next: 0,
                        lengths: layout.lengths,
                        node: &Plan::None,
                        seen: 0,
                        fill: Fill::of(if $fill { layout.fills } else { 0 }),
                        text: self.text,
                    })
                };
            }
            return if fill { visit!(true) } else { visit!(false) };
        }
        let Some(members) = self.set.into_keyed() else {
            return self.visitor.visit_map(map);
        };
        // Whether the object may have `#[tool(default = ..)]` values to write in
        // ([`StripMap::next_fill`]), and which fields: before a tagged enum's tag is read, those
        // of every variant count (the fields are known once it is read); a map's values fill
        // their own.
        let (fill, fills) = match &members {
            Keyed::Keys(set) => match keyed_fills(set) {
                Some(fills) => (!fills.is_empty(), fills),
                None => return Err(A::Error::custom("more than 64 fields fill")),
            },
            Keyed::Tagged(set) => {
                let mut steps = MAX_STEPS;
                let any = set.nodes().iter().any(|node| {
                    own_fills(node, true, &mut steps, &mut |_| ControlFlow::Break(())).is_break()
                });
                (any, Vec::new())
            }
            Keyed::Values(_) => (false, Vec::new()),
        };
        macro_rules! visit {
            ($fill:literal) => {
                self.visitor.visit_map(StripMap::<A, $fill> {
                    map,
                    members,
                    value: Set::Empty,
                    seen: Seen(Vec::with_capacity(8)),
                    fill: Fill::of(low_bits(fills.len())),
                    fills,
                    text: self.text,
                })
            };
        }
        if fill { visit!(true) } else { visit!(false) }
    }

    /// [`Visitor::visit_seq`], where the set is the array's own nodes (its keywords peeled).
    fn visit_array<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        if self.set.has_unique() {
            return visit_set(self.visitor, seq, &self.set, self.text);
        }
        let items = match self.set.into_items() {
            Some(items) => items,
            None => return self.visitor.visit_seq(seq),
        };
        self.visitor.visit_seq(StripSeq {
            seq,
            items,
            index: 0,
            text: self.text,
        })
    }
}

/// The items of a set (an array whose items must all differ, [`Plan::Unique`]), which serde would
/// merge without a word: each read into a `serde_json::Value` as it follows its set (`null`s
/// dropped, defaults written in, sets inside checked in turn, a repeated key refused), compared,
/// then handed to `visitor`. A repeat is an error, as anything the `Value` path would see
/// differently (a number beyond `f32`'s range, which serde reads from a `Value` as infinity): the
/// caller then takes that path, which says where.
///
/// Items with nothing to follow inside them (the common case: strings, numbers) are read as
/// [`SetItem`]s, borrowed from the text where serde_json borrows them, so that a set of words costs
/// no `Value` per item; up to [`KEPT_ITEMS`] plain ones ([`SetItem::plain`]) are kept on the stack,
/// compared there and handed to `visitor` from there ([`PlainSeq`]), with no list on the heap.
#[inline(never)]
fn visit_set<'de, V: Visitor<'de>, A: SeqAccess<'de>>(
    visitor: V,
    mut seq: A,
    set: &Set,
    text: &'de str,
) -> Result<V::Value, A::Error> {
    if let Set::One(Plan::Unique(inner)) = set
        && matches!(Set::of(inner), Set::Empty)
    {
        let mut few = [Scalar::Bool(false); KEPT_ITEMS];
        let mut count = 0;
        // The items read, once one is not plain or there are more than a few.
        let mut items: Vec<SetItem<'de>> = loop {
            let Some(item) = seq.next_element_seed(SetItemSeed)? else {
                let few = few.get(..count).unwrap_or_default();
                if any_repeat(few) {
                    return Err(A::Error::custom("a set repeats an item"));
                }
                let mut items = PlainSeq(few.iter());
                let value = visitor.visit_seq(&mut items).map_err(A::Error::custom)?;
                // As `SeqDeserializer::end`: every item is read.
                if items.0.len() > 0 {
                    return Err(A::Error::custom("a set's items were not all read"));
                }
                return Ok(value);
            };
            match (item.plain(), few.get_mut(count)) {
                (Some(plain), Some(slot)) => {
                    *slot = plain;
                    count += 1;
                }
                _ => {
                    let mut items = Vec::with_capacity(2 * KEPT_ITEMS);
                    items.extend(few.iter().take(count).map(|plain| SetItem::from(*plain)));
                    items.push(item);
                    break items;
                }
            }
        };
        while let Some(item) = seq.next_element_seed(SetItemSeed)? {
            items.push(item);
        }
        if SetItem::any_repeat(&items) {
            return Err(A::Error::custom("a set repeats an item"));
        }
        let mut items = SeqDeserializer::<_, serde_json::Error>::new(items.into_iter());
        let value = visitor.visit_seq(&mut items).map_err(A::Error::custom)?;
        items.end().map_err(A::Error::custom)?;
        return Ok(value);
    }
    let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
    loop {
        let seed = std::marker::PhantomData::<UniqueKeys>;
        let item = strip_seed!(set.item(items.len()), text, seed => seq.next_element_seed(seed))?;
        match item {
            Some(UniqueKeys(item)) => items.push(item),
            None => break,
        }
    }
    if crate::schema::first_repeat(&items).is_some() {
        return Err(A::Error::custom("a set repeats an item"));
    }
    if items.iter().any(has_f32_overflow) {
        return Err(A::Error::custom("a number beyond f32's range"));
    }
    let mut items = SeqDeserializer::<_, serde_json::Error>::new(items.into_iter());
    let value = visitor.visit_seq(&mut items).map_err(A::Error::custom)?;
    items.end().map_err(A::Error::custom)?;
    Ok(value)
}

/// How many items of a set [`SetItem::any_repeat`] compares pair by pair, at most.
const FEW_ITEMS: usize = 16;

/// How many plain items of a set [`visit_set`] keeps on the stack, at most (most sets are a few
/// tags or ids; a larger array costs every set its filling).
const KEPT_ITEMS: usize = 8;

/// Whether two of `items`, a set's plain items ([`SetItem::plain`]), are equal
/// ([`SetItem::any_repeat`] of plain items).
fn any_repeat(items: &[Scalar<'_>]) -> bool {
    // Plain loops: through iterator adapters, rustc left each comparison to a call.
    let mut rest = items;
    while let [item, later @ ..] = rest {
        for other in later {
            if same_scalar(item, other) {
                return true;
            }
        }
        rest = later;
    }
    false
}

/// Equality of two plain items, as their values' ([`SetItem::same`]).
#[inline]
fn same_scalar(a: &Scalar<'_>, b: &Scalar<'_>) -> bool {
    use Scalar::{Bool, EmptyArray, EmptyObject, Signed, Str, Unsigned};
    match (a, b) {
        (Str(a), Str(b)) => same_key(a.as_bytes(), b.as_bytes()),
        (Unsigned(a), Unsigned(b)) => a == b,
        (Signed(a), Signed(b)) => a == b,
        (Bool(a), Bool(b)) => a == b,
        (EmptyArray, EmptyArray) | (EmptyObject, EmptyObject) => true,
        _ => false,
    }
}

impl<'de> From<Scalar<'de>> for SetItem<'de> {
    fn from(plain: Scalar<'de>) -> SetItem<'de> {
        match plain {
            Scalar::Str(text) => SetItem::Str(text),
            Scalar::Unsigned(n) => SetItem::U64(n),
            Scalar::Signed(n) => SetItem::I64(n),
            Scalar::Bool(b) => SetItem::Bool(b),
            // Never a set's plain item ([`SetItem::plain`] makes none): the value it is, all
            // the same.
            Scalar::EmptyArray => SetItem::Other(Box::new(serde_json::json!([]))),
            Scalar::EmptyObject => SetItem::Other(Box::new(serde_json::json!({}))),
        }
    }
}

/// The plain items of a set, handed to serde as [`SetItem`]s.
struct PlainSeq<'a, 'de>(std::slice::Iter<'a, Scalar<'de>>);

impl<'de> SeqAccess<'de> for PlainSeq<'_, 'de> {
    type Error = de::value::Error;

    #[inline]
    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, de::value::Error> {
        match self.0.next() {
            Some(plain) => seed.deserialize(*plain).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

/// An item of a set whose items have nothing inside to follow: a string borrowed from the text,
/// an integer or a boolean as serde_json reads them, or any other value (an escaped string, a
/// float, `null`, an array or object) as a `serde_json::Value`.
enum SetItem<'de> {
    Str(&'de str),
    U64(u64),
    I64(i64),
    Bool(bool),
    /// Boxed: rare, and each item is moved about in a room that holds any variant.
    Other(Box<serde_json::Value>),
}

impl<'de> SetItem<'de> {
    /// The item, where it is plain.
    #[inline]
    fn plain(&self) -> Option<Scalar<'de>> {
        match self {
            SetItem::Str(text) => Some(Scalar::Str(text)),
            SetItem::U64(n) => Some(Scalar::Unsigned(*n)),
            SetItem::I64(n) => Some(Scalar::Signed(*n)),
            SetItem::Bool(b) => Some(Scalar::Bool(*b)),
            SetItem::Other(_) => None,
        }
    }

    /// Whether two items are equal as `serde_json::Value`s: compared as they are where all are
    /// plain, else as values ([`crate::schema::first_repeat`]).
    fn any_repeat(items: &[SetItem<'_>]) -> bool {
        if items.iter().any(|item| matches!(item, SetItem::Other(_))) {
            let values: Vec<serde_json::Value> = items.iter().map(SetItem::to_value).collect();
            if values.iter().any(has_f32_overflow) {
                return true;
            }
            return crate::schema::first_repeat(&values).is_some();
        }
        if items.len() <= FEW_ITEMS {
            return items
                .iter()
                .enumerate()
                .any(|(at, item)| items.iter().take(at).any(|earlier| earlier.same(item)));
        }
        let mut seen = std::collections::HashSet::with_capacity(items.len());
        items.iter().any(|item| !seen.insert(item.key()))
    }

    /// Equality of plain items, as their values'.
    fn same(&self, other: &SetItem<'_>) -> bool {
        match (self, other) {
            (SetItem::Str(a), SetItem::Str(b)) => a == b,
            (SetItem::U64(a), SetItem::U64(b)) => a == b,
            (SetItem::I64(a), SetItem::I64(b)) => a == b,
            (SetItem::Bool(a), SetItem::Bool(b)) => a == b,
            _ => false,
        }
    }

    /// A plain item, for hashing: equal keys for equal values.
    fn key(&self) -> (u8, &str, u64) {
        match self {
            SetItem::Str(text) => (0, text, 0),
            SetItem::U64(n) => (1, "", *n),
            SetItem::I64(n) => (2, "", n.cast_unsigned()),
            SetItem::Bool(b) => (3, "", u64::from(*b)),
            SetItem::Other(_) => (4, "", 0),
        }
    }

    fn to_value(&self) -> serde_json::Value {
        match self {
            SetItem::Str(text) => serde_json::Value::String((*text).to_owned()),
            SetItem::U64(n) => (*n).into(),
            SetItem::I64(n) => (*n).into(),
            SetItem::Bool(b) => (*b).into(),
            SetItem::Other(value) => (**value).clone(),
        }
    }
}

/// Reads a [`SetItem`].
struct SetItemSeed;

impl<'de> DeserializeSeed<'de> for SetItemSeed {
    type Value = SetItem<'de>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<SetItem<'de>, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for SetItemSeed {
    type Value = SetItem<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<SetItem<'de>, E> {
        Ok(SetItem::Str(text))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<SetItem<'de>, E> {
        Ok(SetItem::Other(Box::new(serde_json::Value::String(
            text.to_owned(),
        ))))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<SetItem<'de>, E> {
        Ok(SetItem::Other(Box::new(serde_json::Value::String(text))))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<SetItem<'de>, E> {
        Ok(SetItem::U64(n))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<SetItem<'de>, E> {
        Ok(SetItem::I64(n))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<SetItem<'de>, E> {
        Ok(SetItem::Other(Box::new(serde_json::Value::from(n))))
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<SetItem<'de>, E> {
        Ok(SetItem::Bool(b))
    }

    fn visit_unit<E: de::Error>(self) -> Result<SetItem<'de>, E> {
        Ok(SetItem::Other(Box::new(serde_json::Value::Null)))
    }

    fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<SetItem<'de>, S::Error> {
        let UniqueKeys(value) =
            serde::Deserialize::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))?;
        Ok(SetItem::Other(Box::new(value)))
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<SetItem<'de>, M::Error> {
        let UniqueKeys(value) =
            serde::Deserialize::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
        Ok(SetItem::Other(Box::new(value)))
    }
}

impl<'de> serde::de::IntoDeserializer<'de, serde_json::Error> for SetItem<'de> {
    type Deserializer = SetItem<'de>;

    fn into_deserializer(self) -> SetItem<'de> {
        self
    }
}

/// A [`SetItem`] handed to serde as serde_json would hand the same token: a string borrowed, a
/// number, a boolean; `Some` for an `Option`, the content of a newtype; any other value as a
/// `serde_json::Value` hands itself.
impl<'de> Deserializer<'de> for SetItem<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self {
            SetItem::Str(text) => visitor.visit_borrowed_str(text),
            SetItem::U64(n) => visitor.visit_u64(n),
            SetItem::I64(n) => visitor.visit_i64(n),
            SetItem::Bool(b) => visitor.visit_bool(b),
            SetItem::Other(value) => value.deserialize_any(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self {
            SetItem::Other(value) => value.deserialize_option(visitor),
            plain => visitor.visit_some(plain),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self {
            SetItem::Other(value) => value.deserialize_newtype_struct(name, visitor),
            plain => visitor.visit_newtype_struct(plain),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self {
            SetItem::Str(text) => BorrowedStrDeserializer::<serde_json::Error>::new(text)
                .deserialize_enum(name, variants, visitor),
            other => other.to_value().deserialize_enum(name, variants, visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// Reads a key (or a variant's name) as serde_json borrows it from the text. A key written with
/// escapes, which serde_json decodes into a new string, is an error: rare (models do not escape
/// names), it is left to the `Value` path, where keys are decoded.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = &'de str;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<&'de str, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = &'de str;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a string key without escapes")
    }

    #[inline]
    fn visit_borrowed_str<E>(self, key: &'de str) -> Result<&'de str, E> {
        Ok(key)
    }
}

/// Reads the `null` of a member that is dropped, which [`null_follows`] saw (anything else is
/// serde_json's error): a seed and visitor of its own, which inline into serde_json's
/// `next_value_seed`, where `MapAccess::next_value::<()>` was left a function of its own.
struct SkipNull;

impl<'de> DeserializeSeed<'de> for SkipNull {
    type Value = ();

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_unit(SkipNull)
    }
}

impl<'de> Visitor<'de> for SkipNull {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("null")
    }

    #[inline]
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

/// Hands `key` to the caller's `seed`, as serde_json would have.
#[inline]
fn give_key<'de, K: DeserializeSeed<'de>, E: de::Error>(
    seed: K,
    key: &'de str,
) -> Result<K::Value, E> {
    seed.deserialize(BorrowedStrDeserializer::new(key))
}

/// Whether `null` is the value after `key`, a key serde_json has just read from `text`. Where
/// the key is in the text tells, and serde_json borrows keys without escapes from the text, so
/// the value need not be read ahead (into a `serde_json::Value`, or a `RawValue`) to be looked at:
/// when it is not `null`, serde_json reads it once, in its place. `None` when the key is not in
/// the text (it had escapes and was decoded).
///
/// Only a look: serde_json then reads the value, and rejects what is not JSON.
#[inline(always)]
fn null_follows(text: &str, key: &str) -> Option<bool> {
    let bytes = text.as_bytes();
    let quote = key_offset(text, key)? + key.len();
    // Most often the value follows the colon at once (`"key":null`, `"key":"..."`).
    match bytes.get(quote..)? {
        [b'"', b':', b'n', b'u', b'l', b'l', ..] => return Some(true),
        [b'"', b':', value, ..] if *value != b'n' && !is_whitespace(*value) => {
            return Some(false);
        }
        [b'"', ..] => {}
        _ => return None,
    }
    let colon = skip_whitespace(bytes, quote + 1);
    if bytes.get(colon) != Some(&b':') {
        return Some(false);
    }
    let value = skip_whitespace(bytes, colon + 1);
    Some(
        bytes
            .get(value..)
            .is_some_and(|rest| rest.starts_with(b"null")),
    )
}

/// Where `key`, a key serde_json has just read, starts in `text` (after its quote); `None` when
/// it is not a slice of the text (it had escapes and was decoded).
#[inline]
fn key_offset(text: &str, key: &str) -> Option<usize> {
    let start = key.as_ptr().addr().checked_sub(text.as_ptr().addr())?;
    (start > 0 && start.checked_add(key.len())? < text.len()).then_some(start)
}

/// The fields of the variant of the flattened tagged enum `tagged` ([`Plan::object`]) that the
/// object's tag names, where `key`, just read, is the first of its keys that is not one of the
/// object's own fields: none where the tag is missing or names no variant (serde then refuses
/// the object), as [`resolve_tags`] adds no node then. `None` when the key is not in `text` (it
/// had escapes).
///
/// The tag is looked for from `key` on: the keys before it are the object's own fields, and the
/// tag is not one ([`Plan::object`]), so the first tag from there is the object's first, which
/// serde reads (and [`resolve_tags`] finds from the object's start).
#[inline(never)]
fn variant_fields(
    text: &str,
    key: &str,
    tagged: &'static Plan,
) -> Option<(&'static [PlanField], Layout)> {
    const NO_FIELDS: (&[PlanField], Layout) = (
        &[],
        Layout {
            flat: Flat::No,
            fills: 0,
            lengths: 0,
        },
    );
    let Plan::Tagged(tag, cases) = tagged else {
        return Some(NO_FIELDS);
    };
    let start = key_offset(text, key)?;
    // Most often the key is the tag itself (models write it first among the variant's keys):
    // its value, a variant's name, is read where it is, and compared as it is in the text.
    let is_tag = same_key(key.as_bytes(), tag.as_bytes());
    let case = match is_tag {
        true => case_named_at(text.as_bytes(), start + key.len(), cases),
        false => None,
    };
    let case = match case {
        Some(case) => Some(case),
        None => {
            let name = match is_tag {
                true => plain_string_after(text.as_bytes(), start + key.len()),
                false => None,
            };
            match name {
                Some(name) => cases.iter().find(|c| same_key(c.name.as_bytes(), name)),
                None => case_by_tag(text, start - 1, tag, cases),
            }
        }
    };
    Some(match case.map(|c| c.node) {
        Some(Plan::Object(fields, _, layout)) => (fields, *layout),
        _ => NO_FIELDS,
    })
}

/// The variant of `cases` whose name is the string right after the colon that follows `quote`
/// (a key's closing quote) in `bytes`, as it is mostly written (`"tag":"name"`): each name
/// compared with the text there, without looking for the string's end first. `None` where none
/// is (the value is written otherwise, or has escapes: [`plain_string_after`] and
/// [`case_by_tag`] read it).
#[inline]
fn case_named_at(
    bytes: &[u8],
    quote: usize,
    cases: &'static [TagCase],
) -> Option<&'static TagCase> {
    let [b'"', b':', b'"', rest @ ..] = bytes.get(quote..)? else {
        return None;
    };
    // The names are plain ([`Plan::object`]): one found in the text is the string there.
    cases.iter().find(|case| {
        let name = case.name.as_bytes();
        rest.get(name.len()) == Some(&b'"')
            && rest
                .get(..name.len())
                .is_some_and(|written| same_key(written, name))
    })
}

/// The variant of `cases` the tag `tag` of the object whose members start at `members` names
/// ([`tag_value`]), where its value is not a plain string right after the first key.
#[inline(never)]
fn case_by_tag(
    text: &str,
    members: usize,
    tag: &str,
    cases: &'static [TagCase],
) -> Option<&'static TagCase> {
    match tag_value(text, members, tag)? {
        Tag::Name(name) => cases
            .iter()
            .find(|c| same_key(c.name.as_bytes(), name.as_bytes())),
        // serde also reads a variant by its index, where it has buffered the object.
        Tag::Index(index) => usize::try_from(index).ok().and_then(|i| cases.get(i)),
    }
}

/// The value of the member `tag` of the object whose members start at `at` (after its `{`), when
/// it is a string or an index: the variant an internally or adjacently tagged enum is. serde
/// takes the first (a repeated tag is an error there).
fn tag_value<'b>(text: &'b str, mut at: usize, tag: &str) -> Option<Tag<'b>> {
    let bytes = text.as_bytes();
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
            same_key(raw, tag.as_bytes())
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
                        return Some(Tag::Name(std::borrow::Cow::Owned(decoded)));
                    }
                    // Between two quotes: on characters' bounds.
                    return text
                        .get(start + 1..end - 1)
                        .map(|name| Tag::Name(std::borrow::Cow::Borrowed(name)));
                }
                end
            }
            // A variant's index, or nothing serde reads a variant from.
            _ if is_tag => {
                let end = scan_number(bytes, at).unwrap_or(at);
                let digits = text.get(at..end)?;
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

/// The string after `"key":` in `bytes`, where `quote` is the key's closing quote, if it is one
/// without escapes (and a string), as it is in the text: `None` leaves the value to
/// [`tag_value`], which reads any.
#[inline]
fn plain_string_after(bytes: &[u8], quote: usize) -> Option<&[u8]> {
    // Most often the value follows the colon at once (`"key":"..."`).
    let open = match bytes.get(quote..)? {
        [b'"', b':', b'"', ..] => quote + 2,
        [b'"', ..] => {
            let colon = skip_whitespace(bytes, quote + 1);
            if bytes.get(colon) != Some(&b':') {
                return None;
            }
            let open = skip_whitespace(bytes, colon + 1);
            if bytes.get(open) != Some(&b'"') {
                return None;
            }
            open
        }
        _ => return None,
    };
    let close = string_stop(bytes, open + 1);
    match bytes.get(close) {
        Some(b'"') => bytes.get(open + 1..close),
        _ => None,
    }
}

/// The members of one plain object (the common case), or of one with a tagged enum flattened
/// in ([`Plan::object`]), with the `null`s of fields with a default left out: each key looked up
/// in the object's fields directly, then in its variant's.
struct FieldMap<'de, A, const FILL: bool> {
    map: A,
    fields: &'static [PlanField],
    /// The tagged enum flattened in, if any ([`Plan::object`]).
    tagged: Option<&'static Plan>,
    /// The fields of its variant, once found ([`variant_fields`]), their indices following
    /// `fields`': at the first key that is not one of the object's own.
    case: Option<&'static [PlanField]>,
    /// The index of the field after the last one a key named, looked at first for the next key
    /// ([`FieldMap::find`]).
    next: usize,
    /// The lengths of the names of `fields` (and of `case`'s, once found), a bit each (the
    /// length's lowest six bits): a key of another length names none of them, and is not looked
    /// for among them.
    lengths: u64,
    /// The node of the value whose key was handed out last.
    node: &'static Plan,
    /// The fields with a default named so far, a bit each by index.
    seen: u64,
    /// The `#[tool(default = ..)]` values to write in, by the fields' indices.
    fill: Fill,
    text: &'de str,
}

impl<'de, A: MapAccess<'de>, const FILL: bool> FieldMap<'de, A, FILL> {
    /// After the object's last member: the key of the next field whose `#[tool(default = ..)]`
    /// value is to be written in (its key was not handed out), as
    /// [`fill_value`](super::walk::fill_value) writes it into a value; its value is then read from
    /// the default's text ([`MapAccess::next_value_seed`]).
    fn next_fill<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let (fields, case) = (self.fields, self.case.unwrap_or_default());
        let field_at = |index: usize| match fields.get(index) {
            Some(field) => Some(field),
            None => case.get(index - fields.len()),
        };
        // A plain object's fields past the 64th have no bit ([`Fill::next_past`]).
        let past = fields.len() > 64;
        self.fill.next(field_at, |_| 0, past, seed)
    }

    /// Whether the object has an enum flattened in and had no members: every key is one of
    /// its own fields (which moves [`FieldMap::next`] on) or finds the variant. It has no
    /// variant then, and nothing is written in, as through its set, which is resolved at the
    /// first key.
    fn had_no_variant(&self) -> bool {
        self.tagged.is_some() && self.case.is_none() && self.next == 0
    }

    /// The field `key` names, and its index: the object's own, else its variant's.
    #[inline(always)]
    fn find(&mut self, key: &str) -> Result<Option<(usize, &'static PlanField)>, A::Error> {
        let fields = self.fields;
        // First the field after the last one found (the object's own, then its variant's):
        // models write the keys in the schema's order, so it is most often the one.
        let guess = match fields.get(self.next) {
            Some(field) => Some(field),
            None => match self.case {
                Some(case) => case.get(self.next.saturating_sub(fields.len())),
                None => None,
            },
        };
        if let Some(field) = guess
            && same_key(field.name.as_bytes(), key.as_bytes())
        {
            let found = (self.next, field);
            self.next += 1;
            return Ok(Some(found));
        }
        let length = 1_u64 << (key.len() & 63);
        if self.lengths & length != 0
            && let Some((index, field)) = find_field(fields, key)
        {
            self.next = index + 1;
            return Ok(Some((index, field)));
        }
        let Some(tagged) = self.tagged else {
            return Ok(None);
        };
        let case = match self.case {
            Some(case) => case,
            None => {
                let (case, layout) = variant_fields(self.text, key, tagged)
                    .ok_or_else(|| A::Error::custom("a tagged object's key is not in the text"))?;
                self.case = Some(case);
                if FILL {
                    // Its indices follow the object's own fields, which are fewer than 64
                    // where it has any ([`Plan::object`]).
                    let first = u32::try_from(fields.len()).ok();
                    self.fill.fills |= first
                        .and_then(|first| layout.fills.checked_shl(first))
                        .unwrap_or(0);
                }
                self.lengths |= layout.lengths;
                // Most often the key is the tag, and the variant's own keys follow it.
                self.next = fields.len();
                case
            }
        };
        if self.lengths & length == 0 {
            return Ok(None);
        }
        Ok(find_field(case, key).map(|(index, field)| {
            let index = fields.len() + index;
            self.next = index + 1;
            (index, field)
        }))
    }
}

impl<'de, A: MapAccess<'de>, const FILL: bool> MapAccess<'de> for FieldMap<'de, A, FILL> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        loop {
            if FILL && self.fill.ended() {
                return self.next_fill(seed);
            }
            let Some(key) = self.map.next_key_seed(KeySeed)? else {
                if !FILL || self.had_no_variant() {
                    return Ok(None);
                }
                let next = self.next_fill(seed);
                self.fill.end();
                return next;
            };
            let Some((index, field)) = self.find(key)? else {
                self.node = &Plan::None;
                return give_key(seed, key).map(Some);
            };
            self.node = field.inner;
            let fills = FILL && field.fill.is_some();
            if !field.default && !fills {
                return give_key(seed, key).map(Some);
            }
            // Rare: the `Value` path strips and fills past the 64th field.
            let bit = field_bit(index)
                .ok_or_else(|| A::Error::custom("a field past the 64th has a default"))?;
            if fills {
                // Handed out: as the model wrote it, or its `null` dropped and the default
                // written in its place (below).
                self.fill.given |= bit;
            }
            if field.default {
                // Dropping one copy of a repeated key would hide the repeat from serde.
                if self.seen & bit != 0 {
                    return Err(A::Error::custom("a key with a default is repeated"));
                }
                self.seen |= bit;
                if fills {
                    // Handed out as it is: where its value is `null`, its `#[tool(default =
                    // ..)]` value is written in its place ([`OrFill`]), in the one look
                    // serde_json takes at the value, rather than at the object's end (a key a
                    // second time, and a turn of this loop).
                    self.fill.value = Some(field);
                    return give_key(seed, key).map(Some);
                }
                match null_follows(self.text, key) {
                    Some(true) => {
                        self.map.next_value_seed(SkipNull)?;
                        continue;
                    }
                    Some(false) => {}
                    None => {
                        return Err(A::Error::custom("a key with a default is not in the text"));
                    }
                }
            }
            return give_key(seed, key).map(Some);
        }
    }

    #[inline(always)]
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        if FILL && let Some(field) = self.fill.value.take() {
            // In the object's members: the value as sent, or the default for its `null`.
            if !self.fill.ended() {
                let text = self.text;
                return self.map.next_value_seed(OrFill { seed, field, text });
            }
            return read_fill(field, seed);
        }
        strip_seed!(Set::of(self.node), self.text, seed => self.map.next_value_seed(seed))
    }

    // What serde's derive calls: kept in line too (as the trait's own, rustc left it a function
    // of its own for some values, which cost the `#[tool(default)]` call of
    // `benches/parse_cost.sh` 1.111x -> 1.114x).
    #[inline(always)]
    fn next_value<T: serde::Deserialize<'de>>(&mut self) -> Result<T, A::Error> {
        self.next_value_seed(std::marker::PhantomData)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// The members of an object read through a set ([`Keyed`]), with the `null`s of fields with a
/// default left out.
struct StripMap<'de, A, const FILL: bool> {
    map: A,
    members: Keyed,
    /// The set of the value whose key was handed out last.
    value: Set,
    seen: Seen,
    /// The `#[tool(default = ..)]` values to write in, by the fields' indices in `fills`.
    fill: Fill,
    /// Where `FILL`: the fields that may be written in ([`keyed_fills`]).
    fills: Vec<&'static PlanField>,
    text: &'de str,
}

impl<'de, A: MapAccess<'de>, const FILL: bool> StripMap<'de, A, FILL> {
    /// After the object's last member: the key of the next field of `fills` whose
    /// `#[tool(default = ..)]` value is to be written in (its key was not handed out), as
    /// [`fill_value`](super::walk::fill_value) writes it into a value; its value is then read from
    /// the default's text ([`MapAccess::next_value_seed`]).
    fn next_fill<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let fills = &self.fills;
        self.fill.next(
            |index| fills.get(index).copied(),
            |name| name_bits(fills, name),
            false,
            seed,
        )
    }
}

/// The `#[tool(default = ..)]` values an object's map writes in after the object's own members
/// ([`FieldMap`], [`StripMap`]), as [`fill_value`](super::walk::fill_value) writes them into a
/// value.
struct Fill {
    /// The fields with a value to write in, a bit each by index in the map's list of fields (the
    /// first 64).
    fills: u64,
    /// The fields whose key was handed out (given by the model, or written in), a bit each by
    /// index in the map's list of fields.
    given: u64,
    /// Whether the object's own members are read.
    ended: bool,
    /// Past the object's own members and the first 64 fields: one more than the index of the
    /// last field looked at (a plain object's fields past the 64th have no bit: a key of one
    /// with a value to write in is refused, so none of them was handed out).
    past: usize,
    /// The field whose key was handed out last, to be written in.
    value: Option<&'static PlanField>,
}

impl Fill {
    /// For a map whose fields with a value to write in are `fills`.
    #[inline]
    fn of(fills: u64) -> Fill {
        Fill {
            fills,
            given: 0,
            ended: false,
            past: 64,
            value: None,
        }
    }

    /// Whether the object's own members are read.
    #[inline]
    fn ended(&self) -> bool {
        self.ended
    }

    /// Marks the object's own members read (after [`Fill::next`] from the first field).
    fn end(&mut self) {
        self.ended = true;
    }

    /// Hands `seed` the key of the next field (in the order of the map's list, `field_at` of
    /// each index) whose value is to be written in, its key not handed out, marking it handed
    /// out, and the fields `shared` names by its name (where names may be shared: two of a set's
    /// objects have one, and the first one's is written in); then, where the map has fields past
    /// the 64th (`past`), those ([`Fill::next_past`]). Its value is then read from the default
    /// ([`Fill::read`]).
    fn next<'de, K: DeserializeSeed<'de>, E: de::Error>(
        &mut self,
        field_at: impl Fn(usize) -> Option<&'static PlanField>,
        shared: impl Fn(&str) -> u64,
        past: bool,
        seed: K,
    ) -> Result<Option<K::Value>, E> {
        let pending = self.fills & !self.given;
        let field = if pending != 0 {
            let index = pending.trailing_zeros() as usize;
            self.given |= pending & pending.wrapping_neg();
            field_at(index)
        } else if past {
            self.next_past(&field_at)
        } else {
            None
        };
        let Some(field) = field else {
            return Ok(None);
        };
        self.given |= shared(field.name);
        self.value = Some(field);
        give_key(seed, field.name).map(Some)
    }

    /// The next field past the 64th with a value to write in.
    #[cold]
    fn next_past(
        &mut self,
        field_at: &impl Fn(usize) -> Option<&'static PlanField>,
    ) -> Option<&'static PlanField> {
        loop {
            let field = field_at(self.past)?;
            self.past += 1;
            if field.fill.is_some() {
                return Some(field);
            }
        }
    }

    /// Reads the value whose key was handed out last into `seed` ([`read_fill`]), where the
    /// map has one to write in.
    #[inline]
    fn read<'de, S: DeserializeSeed<'de>, E: de::Error>(&mut self, seed: S) -> Result<S::Value, E> {
        match self.value.take() {
            Some(field) => read_fill(field, seed),
            None => Err(E::custom("no value to write in")),
        }
    }
}

/// Reads the `#[tool(default = ..)]` value of `field` into `seed`, with the `#[tool(default =
/// ..)]` values of its own fields written in, as [`fill_value`](super::walk::fill_value) fills the
/// value it writes in. Its `null`s, which the `Value` path keeps (the fill comes after the
/// stripping), are left to that path. Inlined where the map's `next_value_seed` is (always):
/// out of line, its call cost about 10 instructions a value written in
/// (`benches/parse_cost.sh`).
#[inline]
fn read_fill<'de, S: DeserializeSeed<'de>, E: de::Error>(
    field: &'static PlanField,
    seed: S,
) -> Result<S::Value, E> {
    match field.fill {
        Some(FillValue {
            scalar: Some(scalar),
            ..
        }) => seed.deserialize(scalar).map_err(E::custom),
        Some(FillValue { text, scalar: None }) => read_fill_json(text, Set::of(field.inner), seed),
        None => Err(E::custom("no value to write in")),
    }
}

/// The value of a member whose field has a `#[tool(default = ..)]` value ([`FieldMap`]): the
/// value as sent, or, for its `null`, the default written in its place. serde_json's one look
/// at the value (`deserialize_option`) tells which, where a look at the text would come first.
struct OrFill<'de, S> {
    seed: S,
    field: &'static PlanField,
    text: &'de str,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for OrFill<'de, S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        de.deserialize_option(self)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for OrFill<'de, S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a value or null")
    }

    #[inline]
    fn visit_none<E: de::Error>(self) -> Result<S::Value, E> {
        read_fill(self.field, self.seed)
    }

    #[inline]
    fn visit_some<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        let OrFill { seed, field, text } = self;
        strip_seed!(Set::of(field.inner), text, seed => seed.deserialize(de))
    }
}

/// The bits of the first `count` fields (at most 64).
fn low_bits(count: usize) -> u64 {
    match u32::try_from(count) {
        Ok(count @ 0..64) => (1_u64 << count) - 1,
        _ => u64::MAX,
    }
}

/// The bits in [`Fill::given`] of the fields of `fills` named `name`.
#[inline]
fn name_bits(fills: &[&'static PlanField], name: &str) -> u64 {
    fills
        .iter()
        .enumerate()
        .filter(|(_, field)| field.name == name)
        .filter_map(|(index, _)| field_bit(index))
        .fold(0, |bits, bit| bits | bit)
}

/// A field's bit in [`FieldMap`]'s and [`StripMap`]'s bit sets, for the first 64 fields.
#[inline]
fn field_bit(index: usize) -> Option<u64> {
    u32::try_from(index).ok().and_then(|i| 1_u64.checked_shl(i))
}

impl<'de, A: MapAccess<'de>, const FILL: bool> MapAccess<'de> for StripMap<'de, A, FILL> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        // A map's keys are serde_json's: they may be numbers in strings.
        if let Keyed::Values(_) = self.members {
            return self.map.next_key_seed(seed);
        }
        loop {
            if FILL && self.fill.ended() {
                return self.next_fill(seed);
            }
            let Some(key) = self.map.next_key_seed(KeySeed)? else {
                if !FILL {
                    return Ok(None);
                }
                let next = self.next_fill(seed);
                self.fill.end();
                return next;
            };
            let found = match &self.members {
                Keyed::Values(_) => Found::default(), // Returned above.
                // The first key of an object with a tagged enum in its set: the members start at
                // the key's quote, and the tag, wherever it is among them, tells which variant's
                // fields they are.
                Keyed::Tagged(set) => {
                    let Some(start) = key_offset(self.text, key) else {
                        return Err(A::Error::custom("a tagged object's key is not in the text"));
                    };
                    let set = set.resolved(self.text, start - 1);
                    if FILL {
                        self.fills = keyed_fills(&set)
                            .ok_or_else(|| A::Error::custom("more than 64 fields fill"))?;
                        self.fill.fills = low_bits(self.fills.len());
                    }
                    let (found, value) = set.lookup(key);
                    self.value = value;
                    self.members = Keyed::Keys(set);
                    found
                }
                Keyed::Keys(set) => {
                    let (found, value) = set.lookup(key);
                    self.value = value;
                    found
                }
            };
            // A `null` that an untagged enum's variants disagree about ([`Found::conflict`]) is
            // left to the slow path, which tries it kept and dropped, object by object.
            if found.conflict() && null_follows(self.text, key) != Some(false) {
                return Err(A::Error::custom(
                    "the variants of an untagged enum disagree about a null",
                ));
            }
            if let Some(name) = found.defaulted() {
                // Dropping one copy of a repeated key would hide the repeat from serde.
                if !self.seen.insert(name) {
                    return Err(A::Error::custom("a key with a default is repeated"));
                }
                match null_follows(self.text, key) {
                    Some(true) => {
                        self.map.next_value_seed(SkipNull)?;
                        continue;
                    }
                    Some(false) => {}
                    None => {
                        return Err(A::Error::custom("a key with a default is not in the text"));
                    }
                }
            }
            if FILL && !self.fills.is_empty() {
                self.fill.given |= name_bits(&self.fills, key);
            }
            return give_key(seed, key).map(Some);
        }
    }

    #[inline]
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        if FILL && self.fill.value.is_some() {
            return self.fill.read(seed);
        }
        let set = match &self.members {
            Keyed::Values(set) => *set,
            Keyed::Keys(_) | Keyed::Tagged(_) => std::mem::replace(&mut self.value, Set::Empty),
        };
        strip_seed!(set, self.text, seed => self.map.next_value_seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// [`read_fill`] of a default that is not a [`Scalar`], by serde_json: out of line, as it is
/// rare, so that the scalars' way is short.
#[inline(never)]
fn read_fill_json<'de, S: DeserializeSeed<'de>, E: de::Error>(
    text: &'de str,
    set: Set,
    seed: S,
) -> Result<S::Value, E> {
    if text.contains("null") {
        return Err(E::custom("a default holds a null"));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let value = strip_seed!(set, text, seed => seed.deserialize(&mut de)).map_err(E::custom)?;
    de.end().map_err(E::custom)?;
    Ok(value)
}

/// A [`Scalar`] (a default's value, or a set's plain item) handed to serde as serde_json would
/// hand the same text, for each way serde asks.
impl<'de> Deserializer<'de> for Scalar<'de> {
    type Error = de::value::Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self {
            Scalar::Bool(value) => visitor.visit_bool(value),
            Scalar::Unsigned(value) => visitor.visit_u64(value),
            Scalar::Signed(value) => visitor.visit_i64(value),
            Scalar::Str(value) => visitor.visit_borrowed_str(value),
            Scalar::EmptyArray => visitor.visit_seq(SeqDeserializer::<_, Self::Error>::new(
                std::iter::empty::<()>(),
            )),
            Scalar::EmptyObject => visitor.visit_map(
                de::value::MapDeserializer::<_, Self::Error>::new(std::iter::empty::<((), ())>()),
            ),
        }
    }

    // As serde_json: a value that is not `null` is `Some`, a newtype holds the value itself, an
    // enum is written as its variant's name, bytes are a string's.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self {
            Scalar::Str(value) => {
                visitor.visit_enum(BorrowedStrDeserializer::<Self::Error>::new(value))
            }
            _ => Err(de::Error::custom("expected an enum's variant name")),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self {
            Scalar::Str(value) => visitor.visit_borrowed_bytes(value.as_bytes()),
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("expected null"))
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string seq tuple
        tuple_struct map struct identifier
    }
}

/// An array's items, each following its set.
struct StripSeq<'de, A> {
    seq: A,
    items: Items,
    index: usize,
    text: &'de str,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for StripSeq<'de, A> {
    type Error = A::Error;

    #[inline]
    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        let set = match &self.items {
            Items::All(set) => *set,
            Items::ByPosition(set) => set.item(self.index),
        };
        self.index = self.index.saturating_add(1);
        strip_seed!(set, self.text, seed => self.seq.next_element_seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

/// An externally tagged enum: `{"Variant": content}`, or `"Variant"`.
struct StripEnum<'de, A> {
    data: A,
    set: Set,
    text: &'de str,
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for StripEnum<'de, A> {
    type Error = A::Error;
    type Variant = StripVariant<'de, A::Variant>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), A::Error> {
        let (key, variant) = self.data.variant_seed(KeySeed)?;
        let (_, set) = self.set.lookup(key);
        let value = give_key(seed, key)?;
        let text = self.text;
        Ok((value, StripVariant { variant, set, text }))
    }
}

/// A variant's content, following its set.
struct StripVariant<'de, A> {
    variant: A,
    set: Set,
    text: &'de str,
}

impl<'de, A: VariantAccess<'de>> StripVariant<'de, A> {
    fn visitor<V>(self, visitor: V) -> (A, StripVisitor<'de, V>) {
        let StripVariant { variant, set, text } = self;
        (variant, StripVisitor { visitor, set, text })
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for StripVariant<'de, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.variant.unit_variant()
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, A::Error> {
        let StripVariant { variant, set, text } = self;
        strip_seed!(set, text, seed => variant.newtype_variant_seed(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        let (variant, visitor) = self.visitor(visitor);
        variant.tuple_variant(len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let (variant, visitor) = self.visitor(visitor);
        variant.struct_variant(fields, visitor)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;
    use serde_json::{Value, json};

    use super::*;

    /// The [`Flat`] of an object of `fields` with the tagged enum `tag`, `cases` flattened in.
    fn flat(fields: &'static [PlanField], tag: &'static str, cases: &'static [TagCase]) -> Flat {
        let flattened: &'static [Plan] = Box::leak(Box::new([Plan::Tagged(tag, cases)]));
        match Plan::object(fields, flattened) {
            Plan::Object(_, _, layout) => layout.flat,
            _ => Flat::No,
        }
    }
    use crate::parse::plan::Reach;
    use crate::parse::walk::strip_value;

    const NONE: Plan = Plan::None;

    /// What `Scalar` hands `T` for `text`, against serde_json on the same text: the same value,
    /// or an error from both (an error sends a parse to the slower path, which reads the text).
    fn same_as_serde_json<T>(text: &'static str)
    where
        T: for<'a> Deserialize<'a> + PartialEq + std::fmt::Debug,
    {
        let Some(scalar) = Scalar::of(text) else {
            panic!("{text} is read by serde_json");
        };
        let ours = T::deserialize(scalar).ok();
        let theirs = serde_json::from_str::<T>(text).ok();
        assert_eq!(ours, theirs, "{text} as {}", std::any::type_name::<T>());
    }

    #[test]
    fn scalar_defaults_are_read_as_serde_json_reads_them() {
        #[derive(Deserialize, PartialEq, Debug)]
        struct Meters(u32);
        #[derive(Deserialize, PartialEq, Debug)]
        #[serde(rename_all = "lowercase")]
        enum Level {
            Low,
            High,
        }
        #[derive(Deserialize, PartialEq, Debug, Default)]
        struct Empty {}
        #[derive(Deserialize, PartialEq, Debug)]
        struct Unit;
        for text in [
            "0",
            "3",
            "255",
            "256",
            "-1",
            "-129",
            "18446744073709551615",
            "-9223372036854775808",
        ] {
            same_as_serde_json::<u8>(text);
            same_as_serde_json::<i8>(text);
            same_as_serde_json::<u64>(text);
            same_as_serde_json::<i64>(text);
            same_as_serde_json::<u128>(text);
            same_as_serde_json::<f32>(text);
            same_as_serde_json::<f64>(text);
            same_as_serde_json::<Option<u8>>(text);
            same_as_serde_json::<Meters>(text);
            same_as_serde_json::<String>(text);
            same_as_serde_json::<bool>(text);
            same_as_serde_json::<Value>(text);
        }
        for text in ["true", "false"] {
            same_as_serde_json::<bool>(text);
            same_as_serde_json::<Option<bool>>(text);
            same_as_serde_json::<u8>(text);
            same_as_serde_json::<Value>(text);
        }
        for text in [r#""""#, r#""high""#, r#""x""#, r#""ünï""#, r#""low high""#] {
            same_as_serde_json::<String>(text);
            same_as_serde_json::<Option<String>>(text);
            same_as_serde_json::<char>(text);
            same_as_serde_json::<Level>(text);
            same_as_serde_json::<Option<Level>>(text);
            same_as_serde_json::<std::path::PathBuf>(text);
            same_as_serde_json::<u8>(text);
            same_as_serde_json::<Unit>(text);
            same_as_serde_json::<Value>(text);
        }
        for text in ["[]", "{}"] {
            same_as_serde_json::<Vec<u8>>(text);
            same_as_serde_json::<Option<Vec<String>>>(text);
            same_as_serde_json::<BTreeMap<String, u8>>(text);
            same_as_serde_json::<Empty>(text);
            same_as_serde_json::<(u8,)>(text);
            same_as_serde_json::<String>(text);
            same_as_serde_json::<Level>(text);
            same_as_serde_json::<Value>(text);
        }
        // Left to serde_json: fractions and exponents (its rounding), leading zeros, escapes,
        // `null`, members.
        for text in [
            "1.5",
            "1e3",
            "-0.0",
            "-0",
            "01",
            "-",
            "\"\\n\"",
            r#""a\"b""#,
            "null",
            "[1]",
            r#"{"a":1}"#,
            "truee",
            "",
        ] {
            assert!(Scalar::of(text).is_none(), "{text}");
        }
    }

    const fn field(name: &'static str, default: bool, inner: &'static Plan) -> PlanField {
        PlanField {
            name,
            default,
            fill: None,
            inner,
        }
    }

    /// An object of 70 fields, some with a value to write in on either side of the 64th (whose
    /// bits [`Fill`] keeps): each is written in where its key is missing, those past the 64th
    /// too; a key of one of those is left to the `Value` path.
    #[test]
    fn fills_past_the_64th_field_are_written_in() {
        let fields: Vec<PlanField> = (0..70)
            .map(|i| PlanField {
                name: Box::leak(format!("f{i}").into_boxed_str()),
                default: matches!(i, 1 | 2 | 66 | 67),
                fill: match i {
                    1 => Some(FillValue::of("1")),
                    67 => Some(FillValue::of(r#""x""#)),
                    _ => None,
                },
                inner: &NONE,
            })
            .collect();
        let root: &'static Plan = Box::leak(Box::new(Plan::object(fields.leak(), &[])));
        let read = |text: &str| from_str::<Value>(text, root);
        assert_eq!(
            read(r#"{"f2":null,"f0":5}"#).unwrap(),
            json!({"f0": 5, "f1": 1, "f67": "x"})
        );
        assert_eq!(
            read(r#"{"f1":null,"f69":null}"#).unwrap(),
            json!({"f69": null, "f1": 1, "f67": "x"})
        );
        assert_eq!(read(r#"{"f1":7}"#).unwrap(), json!({"f1": 7, "f67": "x"}));
        assert!(read(r#"{"f67":"y"}"#).is_err());
        assert!(read(r#"{"f66":null}"#).is_err());
    }

    /// `{ x (default) }`
    const INNER: Plan = Plan::object(&[field("x", true, &NONE)], &[]);
    /// `{ a, b (defaults), c, inner, list, map, pair, obj (a default, with an object) }`
    const ROOT: Plan = Plan::object(
        &[
            field("a", true, &NONE),
            field("b", true, &NONE),
            field("c", false, &NONE),
            field("inner", false, &INNER),
            field("list", false, &Plan::Items(&INNER)),
            field("map", false, &Plan::Values(&INNER)),
            field("pair", false, &Plan::Tuple(&[Plan::None, INNER])),
            field("obj", true, &INNER),
        ],
        &[],
    );

    /// `text` read as a value and stripped there, by the `Value` walk.
    fn by_value(text: &str) -> serde_json::Result<Value> {
        let mut value: Value = serde_json::from_str(text)?;
        strip_value(&mut value, &ROOT);
        Ok(value)
    }

    fn value(text: &str) -> serde_json::Result<Value> {
        from_str(text, &ROOT)
    }

    #[test]
    fn reads_what_the_value_walk_strips() {
        for text in [
            r#"{"a":null}"#,
            r#"{"a":null,"c":1,"b":null}"#,
            r#"{"c":null,"z":null,"a":1}"#,
            " { \"a\" : null , \"c\" : 1 } ",
            "{\n  \"c\": 1,\n  \"a\":\tnull\n}",
            r#"{"inner":{"x":null,"y":1}}"#,
            r#"{"list":[{"x":null},{"x":1},{"y":[null],"x":null}]}"#,
            r#"{"map":{"k":{"x":null},"x":null}}"#,
            r#"{"pair":[{"x":null},{"x":null}]}"#,
            r#"{"obj":{"x":null,"y":[1]},"a":null}"#,
            r#"{"obj":null}"#,
            r#"{"c":"\"a\":null","a":null}"#,
            r#"{"c":{"a":null},"d":[{"a":null}]}"#,
            r#"[{"a":null}]"#,
            r#""{\"a\":null}""#,
            "null",
        ] {
            assert_eq!(value(text).unwrap(), by_value(text).unwrap(), "{text}");
        }
        assert_eq!(
            value(r#"{"list":[{"x":null}],"a":null,"c":null}"#).unwrap(),
            json!({"list": [{}], "c": null})
        );
    }

    /// Every ordered choice of up to 4 members: the same values come out as from the `Value`
    /// walk.
    #[test]
    fn reads_every_choice_of_members_like_the_value_walk() {
        let pieces = [
            r#""a":null"#,
            r#""b" : null"#,
            r#""c":null"#,
            r#""c2":1"#,
            r#""inner":{"x":null}"#,
            r#""list":[{"x":null},{}]"#,
            r#""z":[null]"#,
            r#""obj" :{"x":null}"#,
        ];
        let mut count = 0;
        for text in crate::parse::plan_tests::member_choices(&pieces) {
            assert_eq!(value(&text).unwrap(), by_value(&text).unwrap(), "{text}");
            count += 1;
        }
        assert!(count > 300, "{count}");
    }

    /// Random JSON with the tree's keys, sometimes broken: where the wrapper reads it, it reads
    /// what the `Value` walk strips.
    #[test]
    fn agrees_with_the_value_walk_on_random_text() {
        struct Random(u64);
        impl Random {
            fn below(&mut self, n: u64) -> u64 {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                self.0 % n
            }
        }
        fn json(random: &mut Random, depth: u32, out: &mut String) {
            const KEYS: [&str; 10] = [
                "a", "b", "c", "x", "inner", "list", "map", "pair", "obj", "\\u0061",
            ];
            let space = |random: &mut Random, out: &mut String| {
                if random.below(4) == 0 {
                    out.push_str(" \n");
                }
            };
            let pick = match depth {
                0 => 4,
                1..=3 => random.below(7),
                _ => random.below(4),
            };
            match pick {
                0 | 1 => out.push_str("null"),
                2 => out.push('1'),
                3 => out.push_str(r#""null""#),
                4 | 5 => {
                    out.push('{');
                    for i in 0..random.below(5) {
                        if i > 0 {
                            out.push(',');
                        }
                        space(random, out);
                        let key = KEYS[random.below(KEYS.len() as u64) as usize];
                        out.push_str(&format!("\"{key}\""));
                        space(random, out);
                        out.push(':');
                        space(random, out);
                        json(random, depth + 1, out);
                    }
                    out.push('}');
                }
                _ => {
                    out.push('[');
                    for i in 0..random.below(4) {
                        if i > 0 {
                            out.push(',');
                        }
                        json(random, depth + 1, out);
                    }
                    out.push(']');
                }
            }
        }
        let mut random = Random(0x853c_49e6_748f_ea9b);
        let (mut read, mut stripped) = (0, 0);
        for _ in 0..20_000 {
            let mut text = String::new();
            json(&mut random, 0, &mut text);
            // Sometimes broken: a byte cut out.
            if random.below(5) == 0 && !text.is_empty() {
                let at = random.below(text.len() as u64) as usize;
                text.remove(at);
            }
            let Ok(got) = value(&text) else {
                continue;
            };
            read += 1;
            let expected = by_value(&text).expect("the wrapper read it");
            if serde_json::from_str::<Value>(&text).ok().as_ref() != Some(&expected) {
                stripped += 1;
            }
            assert_eq!(got, expected, "{text}");
        }
        assert!(read > 10_000 && stripped > 1_000, "{read} {stripped}");
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct Inner {
        #[serde(default)]
        x: u32,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct Root {
        #[serde(default)]
        a: u32,
        #[serde(default)]
        b: String,
        c: Option<u32>,
        #[serde(default)]
        inner: Option<Inner>,
        #[serde(default)]
        list: Vec<Inner>,
        #[serde(default)]
        map: BTreeMap<u32, Inner>,
        #[serde(default)]
        pair: Option<(u32, Inner)>,
        #[serde(default = "obj")]
        obj: Inner,
    }

    fn obj() -> Inner {
        Inner { x: 9 }
    }

    fn root(text: &str) -> serde_json::Result<Root> {
        from_str(text, &ROOT)
    }

    #[test]
    fn typed_fields_get_their_defaults() {
        let parsed = root(
            r#"{"a":null,"b":null,"c":null,"inner":{"x":null},"list":[{"x":null},{"x":2}],
                "map":{"1":{"x":null}},"pair":[3,{"x":null}],"obj":null}"#,
        )
        .unwrap();
        assert_eq!(
            parsed,
            Root {
                a: 0,
                b: String::new(),
                c: None,
                inner: Some(Inner { x: 0 }),
                list: vec![Inner { x: 0 }, Inner { x: 2 }],
                // Map keys are serde_json's own: numbers in strings still read.
                map: BTreeMap::from([(1, Inner { x: 0 })]),
                pair: Some((3, Inner { x: 0 })),
                obj: obj(),
            }
        );
        // A key with a default whose value is an object: kept, and stripped inside.
        let parsed = root(r#"{"obj":{"x":null},"a":5}"#).unwrap();
        assert_eq!((parsed.obj, parsed.a), (Inner { x: 0 }, 5));
        // `null` where there is no default stays, for serde to reject or take as `None`.
        assert!(root(r#"{"inner":null}"#).unwrap().inner.is_none());
        assert!(root(r#"{"list":[null]}"#).is_err());
        assert!(root(r#"{"a":"null"}"#).is_err());
    }

    #[test]
    fn sets_of_several_nodes_are_kept_once_and_at_most_max() {
        const A: Plan = Plan::Items(&NONE);
        const B: Plan = Plan::Values(&NONE);
        let mut sets = Sets::new();
        let first = intern(&mut sets, &[&A, &B], 2).unwrap();
        let again = intern(&mut sets, &[&A, &B], 2).unwrap();
        assert!(std::ptr::eq(first, again));
        assert_eq!(first.len(), 2);
        // The order is kept: another list.
        let other = intern(&mut sets, &[&B, &A], 2).unwrap();
        assert!(!std::ptr::eq(first, other));
        assert!(intern(&mut sets, &[&A, &A], 2).is_none());
        // Those kept are still found once full.
        assert!(intern(&mut sets, &[&B, &A], 2).is_some());
        // A set larger than the addresses kept on the stack, kept and found again.
        let mut sets = Sets::new();
        let long: Vec<&'static Plan> = (0..17).map(|i| if i % 2 == 0 { &A } else { &B }).collect();
        let first = intern(&mut sets, &long, 2).unwrap();
        let again = intern(&mut sets, &long, 2).unwrap();
        assert!(std::ptr::eq(first, again));
        assert_eq!(first.len(), 17);
    }

    #[test]
    fn repeated_keys_with_defaults_and_escaped_keys_are_left_to_the_value_path() {
        for text in [
            r#"{"a":null,"a":1}"#,
            r#"{"a":1,"a":null}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"a":null,"\u0061":null}"#,
            r#"{"inner":{"x":null,"x":null}}"#,
            r#"{"\u0061":null}"#,
            r#"{"\u0061":1}"#,
            r#"{"obj":{"\u0078":null}}"#,
        ] {
            assert!(root(text).is_err(), "{text}");
            assert!(value(text).is_err(), "{text}");
        }
        // So is any key with escapes (models do not escape names), one without a default too.
        assert!(root(r#"{"\u0063":null}"#).is_err());
        assert!(value(r#"{"\u0063":null}"#).is_err());
        // Escapes in values are serde_json's.
        assert_eq!(
            value(r#"{"c2":"\"a\": null","a":null}"#).unwrap(),
            json!({"c2": "\"a\": null"})
        );
        // Keys without a default repeat as serde_json and the derive see them.
        assert!(root(r#"{"c":1,"c":2}"#).is_err());
        assert_eq!(value(r#"{"c":1,"c":2}"#).unwrap(), json!({"c": 2}));
    }

    /// An externally tagged enum: an object keyed by its variants' names.
    #[derive(Deserialize, Debug, PartialEq)]
    enum Shape {
        Dot,
        Circle {
            #[serde(default)]
            radius: u32,
        },
        Square(Inner),
        Pair(Inner, Inner),
    }

    const SHAPE: Plan = Plan::object(
        &[
            field(
                "Circle",
                false,
                &Plan::object(&[field("radius", true, &NONE)], &[]),
            ),
            field("Square", false, &INNER),
            field("Pair", false, &Plan::Tuple(&[INNER, INNER])),
        ],
        &[],
    );

    #[test]
    fn externally_tagged_enums() {
        let shapes: Vec<Shape> = from_str(
            r#"["Dot", {"Circle": {"radius": null}}, {"Square": {"x": null}},
                {"Pair": [{"x": null}, {"x": 1}]}, {"Dot": null}]"#,
            &Plan::Items(&SHAPE),
        )
        .unwrap();
        assert_eq!(
            shapes,
            [
                Shape::Dot,
                Shape::Circle { radius: 0 },
                Shape::Square(Inner { x: 0 }),
                Shape::Pair(Inner { x: 0 }, Inner { x: 1 }),
                Shape::Dot,
            ]
        );
    }

    /// Alternatives: a key is dropped if any of them defaults it, and its value follows all.
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Either {
        Left {
            l: u32,
            #[serde(default)]
            left: u32,
            deep: Inner,
        },
        Right {
            right: u32,
            deep: Deep,
        },
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct Deep {
        #[serde(default)]
        y: u32,
    }

    const EITHER: Plan = Plan::Any(&[
        Plan::object(
            &[field("left", true, &NONE), field("deep", false, &INNER)],
            &[],
        ),
        Plan::object(
            &[field(
                "deep",
                false,
                &Plan::object(&[field("y", true, &NONE)], &[]),
            )],
            &[],
        ),
    ]);

    #[test]
    fn any_unions_alternatives() {
        let parsed: Vec<Either> = from_str(
            r#"[{"l":1,"left":null,"deep":{"x":null}}, {"right":1,"left":null,"deep":{"y":null,"x":null}}]"#,
            &Plan::Items(&EITHER),
        )
        .unwrap();
        assert_eq!(
            parsed,
            [
                Either::Left {
                    l: 1,
                    left: 0,
                    deep: Inner { x: 0 }
                },
                // `left` is dropped for the first alternative, `x` and `y` in `deep` for
                // either; the second then matches.
                Either::Right {
                    right: 1,
                    deep: Deep { y: 0 }
                },
            ]
        );
        let parsed: Either = from_str(r#"{"right":1,"deep":{"y":null,"z":2}}"#, &EITHER).unwrap();
        assert_eq!(
            parsed,
            Either::Right {
                right: 1,
                deep: Deep { y: 0 }
            }
        );
    }

    /// A recursive type, through `Lazy`, and flattened fields.
    #[derive(Deserialize, Debug, PartialEq)]
    struct Tree {
        #[serde(default)]
        label: String,
        #[serde(default)]
        kids: Vec<Tree>,
        #[serde(flatten)]
        extra: Extra,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct Extra {
        #[serde(default)]
        level: u8,
        note: Option<String>,
    }

    fn tree() -> &'static Plan {
        &TREE
    }

    const TREE: Plan = Plan::object(
        &[
            field("label", true, &NONE),
            field("kids", true, &Plan::Items(&Plan::Lazy(Reach::Plan(tree)))),
        ],
        &[Plan::object(&[field("level", true, &NONE)], &[])],
    );

    fn leaf(label: &str) -> Tree {
        Tree {
            label: label.into(),
            kids: Vec::new(),
            extra: Extra {
                level: 0,
                note: None,
            },
        }
    }

    #[test]
    fn recursive_and_flattened() {
        let parsed: Tree = from_str(
            r#"{"label":null,"level":null,"note":null,"kids":[
                {"label":"a","kids":null,"level":null},
                {"kids":[{"label":null,"kids":null,"note":null}],"label":"b"}]}"#,
            &Plan::Lazy(Reach::Plan(tree)),
        )
        .unwrap();
        assert_eq!(
            parsed,
            Tree {
                kids: vec![
                    leaf("a"),
                    Tree {
                        kids: vec![leaf("")],
                        ..leaf("b")
                    }
                ],
                ..leaf("")
            }
        );
    }

    #[test]
    fn deep_nesting_is_serde_jsons_error() {
        let nested = |depth: usize| {
            format!(
                r#"{}{{"label":null}}{}"#,
                r#"{"label":null,"kids":["#.repeat(depth),
                "]}".repeat(depth)
            )
        };
        let parsed: Tree = from_str(&nested(60), &TREE).unwrap();
        assert_eq!(parsed.kids.len(), 1);
        for depth in [64, 100_000] {
            let error = from_str::<Tree>(&nested(depth), &TREE).unwrap_err();
            assert!(
                error.to_string().starts_with("recursion limit exceeded"),
                "{error}"
            );
        }
    }

    #[test]
    fn null_follows_looks_after_the_key() {
        let text =
            "{\"a\" :\r\n null, \"b\":nul, \"c\":1, \"d\"  :\"null\", \"e\":, \"f\":\u{c}null";
        let key = |name: &str| {
            let at = text.find(&format!("\"{name}\"")).unwrap() + 1;
            &text[at..at + name.len()]
        };
        assert_eq!(null_follows(text, key("a")), Some(true));
        assert_eq!(null_follows(text, key("b")), Some(false));
        assert_eq!(null_follows(text, key("c")), Some(false));
        assert_eq!(null_follows(text, key("d")), Some(false));
        assert_eq!(null_follows(text, key("e")), Some(false));
        // Only JSON's white space: serde_json rejects a form feed.
        assert_eq!(null_follows(text, key("f")), Some(false));
        // A key that is not a slice of the text (decoded from escapes).
        assert_eq!(null_follows(text, "a"), None);
        assert_eq!(null_follows(text, &String::from("a")), None);
    }

    /// An object with a tagged enum flattened in, its variants plain objects: read by a
    /// [`FieldMap`] ([`Plan::object`]), it reads as through its set ([`StripMap`], which the same
    /// enum under an `Any` takes), on random objects with the object's and the variants' keys,
    /// tags of every kind among them, and `null`s, defaults and keys with escapes.
    #[test]
    fn a_flattened_enum_reads_as_through_its_set() {
        const fn filled(name: &'static str, fill: &'static str) -> PlanField {
            PlanField {
                name,
                default: true,
                fill: Some(FillValue::of(fill)),
                inner: &NONE,
            }
        }
        const ADD: Plan = Plan::object(
            &[
                filled("position", "0"),
                filled("collapsed", "false"),
                field("inner", false, &INNER),
            ],
            &[],
        );
        const MOVE: Plan = Plan::object(&[field("title", true, &NONE)], &[]);
        const CASES: &[crate::parse::plan::TagCase] = &[
            crate::parse::plan::TagCase {
                name: "add",
                node: &ADD,
            },
            crate::parse::plan::TagCase {
                name: "rename",
                node: &NONE,
            },
            crate::parse::plan::TagCase {
                name: "move",
                node: &MOVE,
            },
        ];
        const FIELDS: &[PlanField] = &[
            filled("description", r#""""#),
            field("list", true, &Plan::Items(&INNER)),
            field("id", false, &INNER),
        ];
        const FLAT: Plan = Plan::Items(&Plan::object(FIELDS, &[Plan::Tagged("action", CASES)]));
        const BY_SET: Plan = Plan::Items(&Plan::object(
            FIELDS,
            &[Plan::Any(&[Plan::Tagged("action", CASES)])],
        ));
        const KEYS: [&str; 11] = [
            "id",
            "description",
            "list",
            "action",
            "position",
            "collapsed",
            "inner",
            "title",
            "x",
            "\\u0061ction",
            "\\u0070osition",
        ];
        const TAGS: [&str; 8] = [
            r#""add""#,
            r#""rename""#,
            r#""move""#,
            r#""\u0061dd""#,
            "2",
            "7",
            "null",
            r#""other""#,
        ];
        const VALUES: [&str; 6] = [
            "null",
            "1",
            r#""s""#,
            r#"{"x":null}"#,
            r#"[{"x":null}]"#,
            "{}",
        ];
        struct Random(u64);
        impl Random {
            fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                from[(self.0 % from.len() as u64) as usize]
            }
        }
        assert!(flat(FIELDS, "action", CASES) != Flat::No);
        let mut random = Random(0x2545_f491_4f6c_dd1d);
        let (mut read, mut filled_in) = (0, 0);
        for _ in 0..20_000 {
            let mut text = String::from("[");
            for object in 0..random.pick(&["1", "2", "3"]).len() + 1 {
                if object > 0 {
                    text.push(',');
                }
                text.push('{');
                let members = random
                    .pick(&["", "1", "12", "123", "1234", "12345", "123456"])
                    .len();
                for member in 0..members {
                    if member > 0 {
                        text.push_str(random.pick(&[",", " , "]));
                    }
                    let key = random.pick(&KEYS);
                    let value = if key == "action" {
                        random.pick(&TAGS)
                    } else {
                        random.pick(&VALUES)
                    };
                    let colon = random.pick(&[":", " : ", ":\n "]);
                    text.push_str(&format!("\"{key}\"{colon}{value}"));
                }
                text.push('}');
            }
            text.push(']');
            let flat = from_str::<Value>(&text, &FLAT);
            let by_set = from_str::<Value>(&text, &BY_SET);
            assert_eq!(flat.is_ok(), by_set.is_ok(), "{text}: {flat:?} {by_set:?}");
            if let (Ok(flat), Ok(by_set)) = (flat, by_set) {
                read += 1;
                filled_in += usize::from(flat.to_string().contains(r#""position":0"#));
                assert_eq!(flat, by_set, "{text}");
            }
        }
        assert!(read > 5_000 && filled_in > 400, "{read} {filled_in}");
        // A variant that names a field of the object's, or one that is not a plain object, takes
        // the set.
        const SHARED: &[crate::parse::plan::TagCase] = &[crate::parse::plan::TagCase {
            name: "move",
            node: &Plan::object(&[field("id", true, &NONE)], &[]),
        }];
        assert_eq!(flat(FIELDS, "action", SHARED), Flat::No);
        assert_eq!(flat(FIELDS, "id", CASES), Flat::No);
        const DEEP: &[crate::parse::plan::TagCase] = &[crate::parse::plan::TagCase {
            name: "move",
            node: &Plan::object(&[], &[Plan::Tagged("action", CASES)]),
        }];
        assert_eq!(flat(FIELDS, "action", DEEP), Flat::No);
    }

    /// A set of plain items is read from the stack up to [`KEPT_ITEMS`] of them, into a list past
    /// that or once an item is not plain: either way, it reads as serde_json does where no two
    /// items are equal as values, and is refused where two are.
    #[test]
    fn sets_read_as_serde_json_and_refuse_repeats() {
        const SET: Plan = Plan::Unique(&NONE);
        let items = |count: usize, repeat: Option<usize>, other: Option<&str>| {
            let mut items: Vec<String> = (0..count)
                .map(|i| match i % 4 {
                    0 => format!("\"w{i}\""),
                    1 => format!("{i}"),
                    2 => format!("-{i}"),
                    3 if i < 8 => ["true", "false"][i / 4].to_owned(),
                    _ => format!("\"x{i}\""),
                })
                .collect();
            if let Some(at) = repeat {
                items.push(items[at].clone());
            }
            items.extend(other.map(str::to_owned));
            format!("[{}]", items.join(","))
        };
        let mut cases = Vec::new();
        for count in [0_usize, 1, 3, 7, 8, 9, 15, 16, 17, 40] {
            for repeat in [None, Some(0), Some(count.saturating_sub(1))] {
                for other in [
                    None,
                    Some(r#""w\u0030""#),
                    Some("1.5"),
                    Some("null"),
                    Some("[1]"),
                ] {
                    if repeat.is_some() && count == 0 {
                        continue;
                    }
                    cases.push(items(count, repeat, other));
                }
            }
        }
        let mut distinct_sets = 0;
        for text in cases {
            let values: Vec<Value> = serde_json::from_str(&text).unwrap();
            let distinct = crate::schema::first_repeat(&values).is_none();
            distinct_sets += usize::from(distinct && values.len() > KEPT_ITEMS);
            let read = from_str::<Vec<Value>>(&text, &SET);
            assert_eq!(read.is_ok(), distinct, "{text}");
            if let Ok(read) = read {
                assert_eq!(read, values, "{text}");
            }
        }
        assert!(distinct_sets >= 8, "{distinct_sets}");
        // Items read as the visitor asks: strings borrowed, numbers of another type refused.
        assert_eq!(
            from_str::<std::collections::BTreeSet<String>>(r#"["b","a"]"#, &SET).unwrap(),
            std::collections::BTreeSet::from(["a".to_owned(), "b".to_owned()])
        );
        assert!(from_str::<std::collections::BTreeSet<u8>>("[1,300]", &SET).is_err());
        assert!(from_str::<std::collections::BTreeSet<u8>>("[1,1]", &SET).is_err());
        assert!(from_str::<(u8,)>("[1,2]", &SET).is_err());
    }

    /// The look-up of a key in the fields of an object with an enum flattened in (once its tag
    /// is read) says what the look-up through a list of nodes says, wherever it answers.
    #[test]
    fn a_key_looked_up_in_fields_is_what_the_nodes_say() {
        const CASE: Plan = Plan::object(
            &[
                field("title", false, &NONE),
                field("position", true, &NONE),
                field("inner", false, &INNER),
                field("list", true, &Plan::Items(&INNER)),
            ],
            &[],
        );
        const TAGGED: Plan = Plan::Tagged(
            "action",
            &[crate::parse::plan::TagCase {
                name: "add",
                node: &CASE,
            }],
        );
        const OUTER: Plan = Plan::object(
            &[field("id", false, &NONE), field("description", true, &NONE)],
            &[TAGGED],
        );
        /// Names `title` too, so that a key both name goes through the nodes.
        const OTHER: Plan = Plan::object(&[field("title", true, &INNER)], &[]);
        const MAP: Plan = Plan::Values(&INNER);
        let sets: [&'static [&'static Plan]; 5] = [
            &[&OUTER, &CASE],
            &[&CASE],
            &[&OUTER],
            &[&OUTER, &CASE, &OTHER],
            &[&OUTER, &MAP],
        ];
        let keys = [
            "id",
            "description",
            "title",
            "position",
            "inner",
            "list",
            "action",
            "zz",
        ];
        let mut answered = 0;
        for nodes in sets {
            let set = Set::from_nodes(nodes);
            for key in keys {
                let Some((fast, fast_value)) = set.lookup_in_fields(key) else {
                    continue;
                };
                answered += 1;
                let (slow, slow_value) = set.lookup_by_nodes(key);
                assert_eq!(fast.defaulted(), slow.defaulted(), "{key}");
                assert_eq!(fast.conflict(), slow.conflict(), "{key}");
                let same = fast_value.nodes().len() == slow_value.nodes().len()
                    && fast_value
                        .nodes()
                        .iter()
                        .zip(slow_value.nodes())
                        .all(|(a, b)| std::ptr::eq(*a, *b));
                assert!(same, "{key}");
            }
        }
        // The first three sets answer every key, the fourth all but `title` (two of its objects
        // name it), the last none (it holds a map).
        assert_eq!(answered, 3 * keys.len() + 7, "{answered}");
    }
}
