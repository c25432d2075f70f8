//! What the provider dialects need to know about a type's schema, as small compile-time data:
//! the build-time half of strict mode.
//!
//! Every [`ToolSchema`](crate::ToolSchema) carries [`Facts`]: the problems its schema node has
//! for a dialect (a map, an arbitrary value, a tuple, a recursive reference, a regex Anthropic
//! cannot read, ..), the deepest nesting of objects, and counts of properties, enum values and
//! name characters, each summed over the node's kids. The derive combines its fields' facts; a
//! strict tool then checks each of its fields in const evaluation, spanned at the field, and one
//! check for the rest (flattened fields, the whole tool's totals). No schema text is read: the
//! dialect texts themselves are written at run time, at first use ([`crate::dialect::rewrite`]).
//!
//! The kids keep enough of the shape to name the path of a problem (`cards[].meta`).
//!
//! This module runs in const evaluation on the program's own types; its panics are the build
//! errors of strict tools, so the runtime's no-panic lints do not apply to it.
#![allow(clippy::indexing_slicing, clippy::panic)]

use crate::dialect::rules::{Limits, Rules};
use crate::dialect::{Dialect, Rule};
use crate::schema::rope::{At, DefId, def_eq, str_eq};

/// A schema that admits any JSON value (`{}`): no dialect but the standard one takes it.
pub const ANY: u16 = 1;
/// A map (`additionalProperties` with a schema): the strict modes need `false`.
pub const MAP: u16 = 1 << 1;
/// A tuple (`prefixItems`).
pub const TUPLE: u16 = 1 << 2;
/// A reference to a recursive type's definition (`$ref`).
pub const RECURSIVE: u16 = 1 << 3;
/// A `pattern` with word boundaries, backreferences or lookaround (Anthropic strict).
pub const PATTERN: u16 = 1 << 4;
/// A `type` with several types besides `null` (Gemini).
pub const MULTIPLE_TYPES: u16 = 1 << 5;
/// An `enum` or `const` that is not a string (Gemini).
pub const NON_STRING_ENUM: u16 = 1 << 6;
/// A reference to a type that leads back to the one holding it (a cycle the derive found, or a
/// field marked `#[tool(recursive)]`): the facts of the type it leads to are not summed in where
/// it is held, but kept behind a pointer ([`Target`]), which OpenAI strict mode's check follows.
pub const BEHIND: u16 = 1 << 7;

/// [`Facts::NONE`] as the reference `ToolSchema::FACTS` is: what the
/// derive writes for a field with nothing to say (a reference to a const, where borrowing one in
/// each type's const would cost the compiler a check of its own).
pub const NO_FACTS: &Facts = &Facts::NONE;

/// OpenAI strict mode's limits, the one dialect with limits (its rule table's).
const LIMITS: Limits = match Rules::of(Dialect::OpenAiStrict).limits {
    Some(limits) => limits,
    None => panic!("OpenAI strict mode has limits"),
};
const MAX_PROPERTIES: u32 = LIMITS.properties;
const MAX_DEPTH: u32 = LIMITS.depth;
const MAX_ENUM_VALUES: u32 = LIMITS.enum_values;
const MAX_TEXT: u32 = LIMITS.text;

/// What a strict dialect or Gemini's `parameters` needs to know of one schema node, and of what
/// is inside it.
///
/// ```
/// use toolgen::{ToolSchema, __private::facts};
/// use std::collections::HashMap;
///
/// #[derive(ToolSchema, serde::Deserialize)]
/// #[allow(dead_code)]
/// struct Card { front: String, meta: HashMap<String, u32> }
///
/// let card = <Vec<Card> as ToolSchema>::FACTS;
/// assert_eq!(card.all & facts::MAP, facts::MAP); // somewhere inside
/// assert_eq!(card.own & facts::MAP, 0); // not the array itself
/// assert_eq!(card.depth, 2); // a card, and its map
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    /// The problems of this node itself (bits such as [`MAP`]).
    pub own: u16,
    /// The problems of this node and of everything inside it.
    pub all: u16,
    /// Whether the node is an object schema (a level of nesting for OpenAI).
    pub object: bool,
    /// The most objects on one path down from this node, this one included.
    pub depth: u32,
    /// The most objects on one path inside a recursive type's definition (which OpenAI counts
    /// from the definition's root).
    pub def_depth: u32,
    /// Properties, in all.
    pub properties: u32,
    /// `enum` values, in all.
    pub enum_values: u32,
    /// Characters of property names, definition names, `enum` and `const` values, in all.
    pub text: u32,
    /// What the node is made of, for the paths of problems.
    pub kids: &'static [Kid],
    /// For a reference to a type that leads back ([`BEHIND`]): the type, whose facts are not in
    /// this node's totals.
    pub behind: Option<TargetAt>,
    /// How serde reads the node, beyond what its kids show: what argument parsing builds its
    /// plan from ([`crate::parse::plan::plan_for`]).
    pub parse: Parse,
    /// The work argument parsing has in the node or below it (bits such as `STRIP`), summed
    /// as [`Facts::node`] and the constructors that set [`Facts::parse`] say.
    pub work: u8,
}

/// How serde reads a [`Facts`] node, where its kids (which mirror the schema) do not say it all:
/// the parse half of a type's shape. Argument parsing builds its plan from it at first use
/// ([`crate::parse::plan::plan_for`]).
#[derive(Clone, Copy, Debug)]
pub enum Parse {
    /// As the kids show: an object's properties and flattened types, an array's items, the one
    /// branch of a wrapper ([`PATTERN`], a recursive type's definition).
    Plain,
    /// A property's value with a default (`#[serde(default)]`, `#[tool(default = ..)]`): its one
    /// [`Via::Branch`] kid is the value's, and the JSON text is the `#[tool(default = ..)]` value
    /// written in where the key is missing.
    Default(Option<&'static str>),
    /// A field of an untagged variant that reads `null` as a value (its one kid is the value's):
    /// the plan's `Keep`.
    Keep,
    /// A type that reads `null` as a value of its own and a missing key as another, its
    /// `Default` ([`Patch`](crate::Patch)); its one [`Via::Branch`] kid is the value's. A
    /// default around it stands for a missing key alone: its `null` is not dropped
    /// ([`Facts::defaulted`]).
    NullValue,
    /// An untagged variant's own object, which the plan keeps whole, work or not: its fields
    /// that read `null` as a value ([`Parse::Keep`]) matter where another variant defaults the
    /// same key.
    Whole,
    /// An array whose items (the one [`Via::Items`] kid) must all differ.
    Set,
    /// A map, whose values follow the node (not a kid: the dialects stop at the map).
    Values(&'static Facts),
    /// A tuple, whose items follow the nodes by position (not kids: the dialects stop there).
    Tuple(&'static [&'static Facts]),
    /// An enum, whose kids are its branches as the schema writes them; those from
    /// `untagged_from` on are its untagged variants' contents.
    Enum(EnumRepr, u16),
    /// A recursive type's reference to itself, inside its own definition: the type's facts.
    Reference(fn() -> &'static Facts),
    /// A field's keywords that serde does not enforce (`#[tool(range, length, pattern,
    /// format)]`), checked on its value as it is parsed; the value's facts are the one
    /// [`Via::Branch`] kid ([`Facts::keywords`]).
    Keywords(&'static Keywords<'static>),
}

/// How an enum's tagged variants sit in its JSON ([`Parse::Enum`]).
#[derive(Clone, Copy, Debug)]
pub enum EnumRepr {
    /// `{"<variant>": content}`: each non-unit variant's branch is an object whose one property
    /// is the variant's.
    External,
    /// The tag (named here) beside the variant's fields: a branch per variant, in order, named
    /// by the variant ([`Kid::name`]).
    Internal(&'static str),
    /// The tag (named here) beside the content, under its key: a branch per variant, named by
    /// the variant, an object whose one property is the content.
    Adjacent(&'static str),
    /// No tag: every branch is a content.
    Untagged,
}

/// [`Facts::work`]: a field with a default (a `null` to drop).
pub const STRIP: u8 = 1;
/// [`Facts::work`]: a `#[tool(default = ..)]` value to fill in, not below an untagged enum.
pub const FILL: u8 = 1 << 1;
/// [`Facts::work`]: a `#[tool(default = ..)]` value anywhere, below an untagged enum too.
pub const FILL_ANYWHERE: u8 = 1 << 2;
/// [`Facts::work`]: a set whose items must all differ, not below an untagged enum.
pub const CHECK: u8 = 1 << 3;
/// [`Facts::work`]: a value to fill below an untagged enum, or a type that leads back on the
/// way (the stripping parse does not fill those as it reads).
pub const FILL_UNTAGGED: u8 = 1 << 4;
/// [`Facts::work`]: a recursive type's reference to itself below (within its definition): the
/// plan keeps the nodes on the way, whose work is the whole type's.
pub const REACH: u8 = 1 << 5;
/// [`Facts::work`]: a value in the node whose keywords (`#[tool(range, length, pattern,
/// format)]`, [`Parse::Keywords`]) argument parsing checks, below an untagged enum too. Set by
/// [`Facts::keywords`]; the nodes holding one have it from their kids.
pub const CONSTRAIN: u8 = 1 << 6;
/// Every kind of work: what a type that leads back counts as (what is behind it is not known
/// where it is held).
const ALL_WORK: u8 = STRIP | FILL | FILL_ANYWHERE | CHECK | FILL_UNTAGGED | CONSTRAIN;

/// A type that leads back to the one holding it, as a `static` keeps it (its own derive's, or,
/// behind a field marked `#[tool(recursive)]`, the holder's): who its `$defs` entry belongs to,
/// and its facts. A `static`, so that the holder's facts can point to it while the type's own
/// facts, which hold the holder's, are being worked out.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Who the type's `$defs` entry belongs to.
    pub id: &'static DefId,
    /// The type's facts.
    pub facts: &'static Facts,
}

/// Where a [`Target`] is: in a `static`, which the facts holding it point to.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub type TargetAt = At<Target>;

/// Names the [`Target`] of a field marked `#[tool(recursive)]`: the derive of the type holding
/// the field writes one such type for each type the field leads to, and reads the field's facts
/// as those of its type with that type replaced by [`Cycle`](crate::schema::Cycle)`<Self>`.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub trait LeadsTo {
    /// Where the target is.
    const TARGET: TargetAt;
}

/// A part of a schema node: a property, the items, a branch, a flattened type, a definition.
#[derive(Clone, Copy, Debug)]
pub struct Kid {
    /// How the part sits in its parent (what it adds to a path).
    pub via: Via,
    /// The property name for [`Via::Property`]; empty otherwise.
    pub name: &'static str,
    /// The part's facts.
    pub facts: &'static Facts,
}

// Constructors for the derive (and [`Kid::property`]): a call is fewer nodes for rustc to
// type-check than the struct and the `Via` path it names (about 0.15 M instructions a kid to
// compile, benches/compile_time.sh).
impl Kid {
    /// A branch of a union (or a schema with a field's keywords added).
    pub const fn branch(facts: &'static Facts) -> Kid {
        Kid {
            via: Via::Branch,
            name: "",
            facts,
        }
    }

    /// A tagged enum's variant, named as serde reads its tag ([`EnumRepr::Internal`],
    /// [`EnumRepr::Adjacent`]): a branch, which adds nothing to a path.
    pub const fn variant(name: &'static str, facts: &'static Facts) -> Kid {
        Kid {
            via: Via::Branch,
            name,
            facts,
        }
    }

    /// A flattened type.
    pub const fn flatten(facts: &'static Facts) -> Kid {
        Kid {
            via: Via::Flatten,
            name: "",
            facts,
        }
    }

    /// A recursive type's definition.
    pub const fn definition(facts: &'static Facts) -> Kid {
        Kid {
            via: Via::Definition,
            name: "",
            facts,
        }
    }
}

/// How a [`Kid`] sits in its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// A property (`.name` in a path).
    Property,
    /// The items of an array (`[]`).
    Items,
    /// A branch of a union, or a schema with keywords of a field added: the same place.
    Branch,
    /// A flattened type: its properties are the parent's own.
    Flatten,
    /// A recursive type's definition, written once under `$defs`.
    Definition,
}

impl Kid {
    /// A property.
    pub const fn property(name: &'static str, facts: &'static Facts) -> Kid {
        Kid {
            via: Via::Property,
            name,
            facts,
        }
    }

    /// A part of the given kind, without a name.
    pub const fn via(via: Via, facts: &'static Facts) -> Kid {
        Kid {
            via,
            name: "",
            facts,
        }
    }
}

impl Facts {
    /// A node with nothing to say: a string, a number, ..
    pub const NONE: Facts = Facts::node(0, false, [0, 0, 0], &[]);

    /// A node with its own problems `own`, whether it is an `object`, its own counts
    /// `[properties, enum values, characters]`, and its kids, whose facts are summed in.
    pub const fn node(own: u16, object: bool, counts: [u32; 3], kids: &'static [Kid]) -> Facts {
        let mut facts = Facts {
            own,
            all: own,
            object,
            depth: 0,
            def_depth: 0,
            properties: counts[0],
            enum_values: counts[1],
            text: counts[2],
            kids,
            behind: None,
            parse: Parse::Plain,
            work: 0,
        };
        let mut below = 0;
        let mut flat = 0;
        let mut i = 0;
        while i < kids.len() {
            let kid = kids[i].facts;
            facts.all |= kid.all;
            facts.work |= kid.work;
            facts.properties = facts.properties.saturating_add(kid.properties);
            facts.enum_values = facts.enum_values.saturating_add(kid.enum_values);
            facts.text = facts.text.saturating_add(kid.text);
            facts.def_depth = max(facts.def_depth, kid.def_depth);
            match kids[i].via {
                Via::Property | Via::Items | Via::Branch => below = max(below, kid.depth),
                Via::Flatten => flat = max(flat, kid.depth),
                Via::Definition => facts.def_depth = max(facts.def_depth, kid.depth),
            }
            i += 1;
        }
        facts.depth = if object {
            max(below + 1, flat)
        } else {
            max(below, flat)
        };
        facts
    }

    /// The reference to a recursive type (`{"$ref":..}`), named `name_len` characters under
    /// `$defs`; `definition` is one [`Via::Definition`] kid with the definition's facts (in which
    /// the type's references to itself are [`Facts::reference`]s).
    pub const fn recursive(name_len: u32, definition: &'static [Kid]) -> Facts {
        let mut facts = Facts::node(RECURSIVE, false, [0, 0, name_len], definition);
        // The references inside are to this type: no node above it needs keeping for them.
        facts.work &= !REACH;
        facts
    }

    /// A recursive type's reference to itself, inside its own definition: `of` gives the
    /// type's facts (a function, as a const holding them would be a cycle).
    pub const fn reference(of: fn() -> &'static Facts) -> Facts {
        let mut facts = Facts::node(RECURSIVE, false, [0, 0, 0], &[]);
        facts.parse = Parse::Reference(of);
        facts.work = REACH;
        facts
    }

    /// A reference to another type, which leads back to the one holding it: its facts are
    /// behind `target` ([`BEHIND`]).
    pub const fn behind(target: TargetAt) -> Facts {
        let mut facts = Facts::node(RECURSIVE | BEHIND, false, [0, 0, 0], &[]);
        facts.behind = Some(target);
        facts.work = ALL_WORK;
        facts
    }

    /// A property's value `inner` with a default; `fill` is the JSON text of its
    /// `#[tool(default = ..)]` value, if it has one ([`Parse::Default`]). A value that reads
    /// `null` as a value ([`Parse::NullValue`]) is left as it is: its default is for a missing
    /// key alone, and its `null` is kept.
    pub const fn defaulted(fill: Option<&'static str>, inner: &'static [Kid]) -> Facts {
        // (A field read, not `reads_null`: a call is a frame of const evaluation for every
        // field with a default, of every crate.)
        if let [kid] = inner
            && let Parse::NullValue = kid.facts.parse
        {
            return *kid.facts;
        }
        let mut facts = Facts::node(0, false, [0; 3], inner);
        facts.parse = Parse::Default(fill);
        facts.work |= STRIP;
        if fill.is_some() {
            facts.work |= FILL | FILL_ANYWHERE;
        }
        facts
    }

    /// A field of an untagged variant that reads `null` as a value ([`Parse::Keep`]): nothing
    /// below it is followed when parsing (its value is checked all the same).
    pub const fn keep(inner: &'static [Kid]) -> Facts {
        let mut facts = Facts::node(0, false, [0; 3], inner);
        facts.parse = Parse::Keep;
        facts.work &= CONSTRAIN;
        facts
    }

    /// A type that reads `null` as a value of its own, whose value's facts are the one kid of
    /// `inner` ([`Parse::NullValue`]).
    pub const fn null_value(inner: &'static [Kid]) -> Facts {
        let mut facts = Facts::node(0, false, [0; 3], inner);
        facts.parse = Parse::NullValue;
        facts
    }

    /// Whether the node reads `null` as a value of its own ([`Parse::NullValue`]), also with a
    /// field's keywords around it.
    pub const fn reads_null(&self) -> bool {
        match (self.parse, self.kids) {
            (Parse::NullValue, _) => true,
            (Parse::Plain | Parse::Keywords(_), [kid]) if matches!(kid.via, Via::Branch) => {
                kid.facts.reads_null()
            }
            _ => false,
        }
    }

    /// A field's `keywords` around its value, whose facts are the one kid of `inner`
    /// ([`Parse::Keywords`]): argument parsing checks them on the value (`CONSTRAIN`).
    pub const fn keywords(keywords: &'static Keywords<'static>, inner: &'static [Kid]) -> Facts {
        let mut facts = Facts::node(0, false, [0; 3], inner);
        facts.parse = Parse::Keywords(keywords);
        facts.work |= CONSTRAIN;
        facts
    }

    /// The node as an untagged variant's own object ([`Parse::Whole`]).
    pub const fn whole(mut self) -> Facts {
        self.parse = Parse::Whole;
        self
    }

    /// The node as a set's: its items must all differ ([`Parse::Set`]).
    pub const fn set(mut self) -> Facts {
        self.parse = Parse::Set;
        self.work |= CHECK;
        self
    }

    /// The node as a map's, whose values are `values` ([`Parse::Values`]).
    pub const fn values(mut self, values: &'static Facts) -> Facts {
        self.parse = Parse::Values(values);
        self.work |= values.work;
        self
    }

    /// The node as a tuple's, whose items are `items` ([`Parse::Tuple`]).
    pub const fn tuple(mut self, items: &'static [&'static Facts]) -> Facts {
        self.parse = Parse::Tuple(items);
        let mut i = 0;
        while i < items.len() {
            self.work |= items[i].work;
            i += 1;
        }
        self
    }

    /// An enum: its `branches` as the schema writes them, those from `untagged_from` on its
    /// untagged variants' contents ([`Parse::Enum`]); `own` and `counts` as for
    /// [`Facts::node`]. Below the untagged ones only `null`s are dropped: what they fill in
    /// counts as `FILL_ANYWHERE` and `FILL_UNTAGGED`, their sets as nothing (their
    /// constraints are checked).
    pub const fn enumeration(
        repr: EnumRepr,
        untagged_from: u16,
        own: u16,
        counts: [u32; 3],
        branches: &'static [Kid],
    ) -> Facts {
        let mut facts = Facts::node(own, false, counts, branches);
        facts.parse = Parse::Enum(repr, untagged_from);
        let mut work = 0;
        let mut i = 0;
        while i < branches.len() {
            let kid = branches[i].facts.work;
            if i < untagged_from as usize {
                work |= kid;
            } else {
                work |= kid & (STRIP | FILL_ANYWHERE | REACH | CONSTRAIN);
                if kid & FILL_ANYWHERE != 0 {
                    work |= FILL_UNTAGGED;
                }
            }
            i += 1;
        }
        facts.work = work;
        facts
    }

    /// Whether argument parsing has anything to drop in the node: a field with a default
    /// somewhere in it, whose `null` is dropped so that the default applies (OpenAI strict mode
    /// makes every field required, and models send `null` for what they would leave out).
    pub const fn strips(&self) -> bool {
        self.work & STRIP != 0
    }

    /// Whether the node has a `#[tool(default = ..)]` value to fill in, not below an untagged
    /// enum, written in where the model left its key out.
    pub const fn fills(&self) -> bool {
        self.work & FILL != 0
    }

    /// Whether the node has a set whose items must all differ, not below an untagged enum
    /// (what only the JSON shows, as serde merges repeats).
    pub const fn checks(&self) -> bool {
        self.work & CHECK != 0
    }

    /// Whether a `#[tool(default = ..)]` value is anywhere in the node, below an untagged enum
    /// too, where it is not filled in.
    pub const fn fills_anywhere(&self) -> bool {
        self.work & FILL_ANYWHERE != 0
    }

    /// Whether a value of the node has keywords to check, at any depth (`CONSTRAIN`).
    pub const fn constrains(&self) -> bool {
        self.work & CONSTRAIN != 0
    }

    /// Whether the stripping parse, which fills as it reads, fills every value to fill in as the
    /// value walk does: none is below an untagged enum's alternatives, and no type that leads
    /// back is on the way.
    pub const fn fills_as_read(&self) -> bool {
        self.work & FILL_UNTAGGED == 0
    }
}

const fn max(a: u32, b: u32) -> u32 {
    if a > b { a } else { b }
}

/// The dialects a tool insists on, as bits: its strict modes and Gemini `parameters`.
pub const OPENAI: u8 = 1;
/// Anthropic strict mode.
pub const ANTHROPIC: u8 = 1 << 1;
/// Gemini `parameters` (`#[tool(gemini = "parameters")]`).
pub const GEMINI: u8 = 1 << 2;
/// No Gemini `parameters` at all: `#[tool(gemini = "json_schema")]` (not a dialect to check).
pub const GEMINI_SKIP: u8 = 1 << 3;
/// Checked for a structured answer (`Structured<T>`), not a tool: the errors say so.
pub const ANSWER: u8 = 1 << 4;

/// The rules a dialect checks on every node, in the order they are reported: its table's.
const fn rules(dialect: Dialect) -> &'static [(Rule, u16)] {
    Rules::of(dialect).refused
}

const DIALECTS: [(u8, Dialect); 3] = [
    (OPENAI, Dialect::OpenAiStrict),
    (ANTHROPIC, Dialect::AnthropicStrict),
    (GEMINI, Dialect::Gemini),
];

/// How much of a path is kept.
const PATH_BYTES: usize = 200;

/// A JSON path being built (`cards[].meta`), cut at [`PATH_BYTES`] on a segment boundary.
#[derive(Clone, Copy)]
struct Path {
    bytes: [u8; PATH_BYTES],
    len: usize,
}

impl Path {
    const EMPTY: Path = Path {
        bytes: [0; PATH_BYTES],
        len: 0,
    };

    /// Adds what `kid` adds to a path; returns the length to go back to.
    const fn push(&mut self, kid: &Kid) -> usize {
        let back = self.len;
        match kid.via {
            Via::Property => {
                if self.len > 0 {
                    self.put(".");
                }
                self.put(kid.name);
            }
            Via::Items => self.put("[]"),
            Via::Branch | Via::Flatten | Via::Definition => {}
        }
        back
    }

    pub(crate) const fn put(&mut self, text: &str) {
        let bytes = text.as_bytes();
        if self.len + bytes.len() > PATH_BYTES {
            return;
        }
        let mut i = 0;
        while i < bytes.len() {
            self.bytes[self.len + i] = bytes[i];
            i += 1;
        }
        self.len += bytes.len();
    }

    const fn same(&self, other: &Path) -> bool {
        if self.len != other.len {
            return false;
        }
        let mut i = 0;
        while i < self.len {
            if self.bytes[i] != other.bytes[i] {
                return false;
            }
            i += 1;
        }
        true
    }
}

/// Whether a dialect in `modes` has a problem with the node at `level` or inside it (a quick
/// test of bits before any path is looked for).
const fn refused(facts: &Facts, level: u32, modes: u8) -> bool {
    facts.all & REFUSED[(modes & (OPENAI | ANTHROPIC | GEMINI)) as usize] != 0
        || (modes & OPENAI != 0 && (too_deep(facts, level) || facts.all & BEHIND != 0))
}

/// The bits that the dialects of each combination of [`OPENAI`], [`ANTHROPIC`] and [`GEMINI`]
/// refuse ([`rules`]), by the combination: worked out once, so that the check of a field, which
/// rustc runs for every field of every strict tool, is a table look-up and a bit test.
const REFUSED: [u16; 8] = {
    let mut table = [0; 8];
    let mut modes = 0;
    while modes < table.len() {
        let mut d = 0;
        while d < DIALECTS.len() {
            let (bit, dialect) = DIALECTS[d];
            if modes as u8 & bit != 0 {
                let rules = rules(dialect);
                let mut r = 0;
                while r < rules.len() {
                    table[modes] |= rules[r].1;
                    r += 1;
                }
            }
            d += 1;
        }
        modes += 1;
    }
    table
};

/// Follows the kids that hold `bit` down to the node that has it as its own, adding to `path`.
const fn find(facts: &Facts, bit: u16, path: &mut Path) -> bool {
    if facts.own & bit != 0 {
        return true;
    }
    let mut i = 0;
    while i < facts.kids.len() {
        let kid = &facts.kids[i];
        if kid.facts.all & bit != 0 {
            let back = path.push(kid);
            if find(kid.facts, bit, path) {
                return true;
            }
            path.len = back;
        }
        i += 1;
    }
    false
}

/// Whether a node at `level` (objects above it) nests objects deeper than OpenAI allows.
const fn too_deep(facts: &Facts, level: u32) -> bool {
    level + facts.depth > MAX_DEPTH || facts.def_depth > MAX_DEPTH
}

/// Follows the nesting down to the object past OpenAI's limit, adding to `path`.
const fn find_deep(facts: &Facts, level: u32, path: &mut Path) -> bool {
    let level = level + facts.object as u32;
    if level > MAX_DEPTH {
        return true;
    }
    let mut i = 0;
    while i < facts.kids.len() {
        let kid = &facts.kids[i];
        // A flattened object is this object; a definition counts from its own root.
        let at = match kid.via {
            Via::Flatten => level - (kid.facts.object && level > 0) as u32,
            Via::Definition => 0,
            _ => level,
        };
        if too_deep(kid.facts, at) {
            let back = path.push(kid);
            if find_deep(kid.facts, at, path) {
                return true;
            }
            path.len = back;
        }
        i += 1;
    }
    false
}

/// One dialect's first problem with a node, and where.
#[derive(Clone, Copy)]
struct Problem {
    dialect: Dialect,
    rule: Rule,
    path: Path,
}

/// The first problem `dialect` has with the node `facts`, found at `path` with `level` objects
/// above it; only the node's own problems and those of the kids `only` lets through.
const fn problem(
    dialect: Dialect,
    facts: &Facts,
    level: u32,
    path: &Path,
    only: Option<&[Via]>,
) -> Option<Problem> {
    let rules = rules(dialect);
    let mut r = 0;
    while r < rules.len() {
        let (rule, bit) = rules[r];
        if facts.own & bit != 0 {
            return Some(Problem {
                dialect,
                rule,
                path: *path,
            });
        }
        let mut i = 0;
        while i < facts.kids.len() {
            let kid = &facts.kids[i];
            if kid.facts.all & bit != 0 && admits(only, kid.via) {
                let mut at = *path;
                at.push(kid);
                find(kid.facts, bit, &mut at);
                return Some(Problem {
                    dialect,
                    rule,
                    path: at,
                });
            }
            i += 1;
        }
        r += 1;
    }
    if let Dialect::OpenAiStrict = dialect {
        let mut i = 0;
        let inner = level + facts.object as u32;
        while i < facts.kids.len() {
            let kid = &facts.kids[i];
            let at_level = match kid.via {
                Via::Definition => 0,
                _ => inner,
            };
            if admits(only, kid.via) && too_deep(kid.facts, at_level) {
                let mut at = *path;
                at.push(kid);
                find_deep(kid.facts, at_level, &mut at);
                return Some(Problem {
                    dialect,
                    rule: Rule::TooDeep,
                    path: at,
                });
            }
            i += 1;
        }
        if only.is_none() && too_deep(facts, level) {
            let mut at = *path;
            find_deep(facts, level, &mut at);
            return Some(Problem {
                dialect,
                rule: Rule::TooDeep,
                path: at,
            });
        }
    }
    None
}

const fn admits(only: Option<&[Via]>, via: Via) -> bool {
    let Some(list) = only else { return true };
    let mut i = 0;
    while i < list.len() {
        if list[i] as u8 == via as u8 {
            return true;
        }
        i += 1;
    }
    false
}

/// The whole tool's totals against OpenAI's limits, the types that lead back ([`BEHIND`])
/// counted once each (they are written once, under `$defs`).
const fn totals(facts: &Facts) -> Option<Rule> {
    let mut sums = [facts.properties, facts.enum_values, facts.text];
    if facts.all & BEHIND != 0 {
        behind_totals(facts, &mut sums, &mut Seen::new());
    }
    let [properties, enum_values, text] = sums;
    if properties > MAX_PROPERTIES {
        Some(Rule::TooManyProperties)
    } else if enum_values > MAX_ENUM_VALUES {
        Some(Rule::TooManyEnumValues)
    } else if text > MAX_TEXT {
        Some(Rule::TooMuchText)
    } else {
        None
    }
}

/// How many types that lead back ([`BEHIND`]) one check can look into.
const MAX_TARGETS: usize = 64;

/// The types that lead back ([`BEHIND`]) that one check has looked into.
struct Seen {
    ids: [Option<&'static DefId>; MAX_TARGETS],
    len: usize,
}

impl Seen {
    const fn new() -> Seen {
        Seen {
            ids: [None; MAX_TARGETS],
            len: 0,
        }
    }

    /// Adds `id`: `Some(true)` if it is new, `Some(false)` if it was there already, `None` if
    /// there is no room for it.
    const fn add(&mut self, id: &'static DefId) -> Option<bool> {
        let mut i = 0;
        while i < self.len {
            if let Some(seen) = self.ids[i]
                && def_eq(seen, id)
            {
                return Some(false);
            }
            i += 1;
        }
        if self.len == MAX_TARGETS {
            return None;
        }
        self.ids[self.len] = Some(id);
        self.len += 1;
        Some(true)
    }
}

/// OpenAI strict mode's first problem with the types that lead back ([`BEHIND`]) in
/// `facts` (at `path`, through the kids `only` lets through), each looked into once: each as
/// the definition it is written as, counted from its own root, and named by the field that
/// leads to it.
const fn behind_problem(
    facts: &Facts,
    path: &Path,
    only: Option<&[Via]>,
    seen: &mut Seen,
) -> Option<Problem> {
    let mut walk = BehindWalk::new(*path, true);
    let mut current = Some(facts);
    let mut only = only;
    while let Some(facts) = current {
        if let Some(at) = facts.behind {
            let target = at.get();
            match seen.add(target.id) {
                Some(true) => {
                    let found = problem(Dialect::OpenAiStrict, target.facts, 0, &walk.path, None);
                    if found.is_some() {
                        return found;
                    }
                    current = Some(target.facts);
                    only = None;
                    continue;
                }
                Some(false) => {}
                None => panic!(
                    "toolgen: a strict tool holds more than 64 types that hold each other; split the tool"
                ),
            }
        } else {
            walk.enter(facts, only);
        }
        only = None;
        current = walk.next();
    }
    None
}

/// How deeply [`BehindWalk`] may go into kids (types behind included).
const MAX_FRAMES: usize = 256;

/// The walk [`behind_problem`] and [`behind_totals`] take through the kids that lead to types
/// behind ([`BEHIND`]): with a stack of its own (the kids being walked, and the path's length
/// before them) in place of recursion, whose depth would grow with every type followed: rustc
/// stops const evaluation at the crate's recursion limit of frames.
struct BehindWalk<'a> {
    frames: [Frame<'a>; MAX_FRAMES],
    depth: usize,
    /// The path to the kid handed out last, where `tracks` says to keep it.
    path: Path,
    tracks: bool,
}

/// A node whose kids a [`BehindWalk`] is walking.
#[derive(Clone, Copy)]
struct Frame<'a> {
    kids: &'a [Kid],
    /// The index of the next kid to look at.
    next: usize,
    /// The path's length before the frame's kids.
    back: usize,
    /// The kinds of kid to look into (the first node's, as its caller says).
    only: Option<&'a [Via]>,
}

impl<'a> BehindWalk<'a> {
    const EMPTY: Frame<'static> = Frame {
        kids: &[],
        next: 0,
        back: 0,
        only: None,
    };

    const fn new(path: Path, tracks: bool) -> BehindWalk<'a> {
        BehindWalk {
            frames: [Self::EMPTY; MAX_FRAMES],
            depth: 0,
            path,
            tracks,
        }
    }

    /// Goes into the kids of `facts` that `only` lets through.
    const fn enter(&mut self, facts: &'a Facts, only: Option<&'a [Via]>) {
        if facts.kids.is_empty() {
            return;
        }
        assert!(
            self.depth < MAX_FRAMES,
            "toolgen: the types of a strict tool nest too deeply; split the tool"
        );
        self.frames[self.depth] = Frame {
            kids: facts.kids,
            next: 0,
            back: self.path.len,
            only,
        };
        self.depth += 1;
    }

    /// The facts of the next kid that leads to a type behind, of the innermost node not done
    /// with (the path then leads to it); `None` when the walk is done.
    const fn next(&mut self) -> Option<&'a Facts> {
        while self.depth > 0 {
            let frame = &mut self.frames[self.depth - 1];
            self.path.len = frame.back;
            while frame.next < frame.kids.len() {
                let kid = &frame.kids[frame.next];
                frame.next += 1;
                if kid.facts.all & BEHIND != 0 && admits(frame.only, kid.via) {
                    if self.tracks {
                        self.path.push(kid);
                    }
                    return Some(kid.facts);
                }
            }
            self.depth -= 1;
        }
        None
    }
}

/// Adds to `sums` the totals of the types behind in `facts` ([`BEHIND`]), each once (`seen`).
const fn behind_totals(facts: &Facts, sums: &mut [u32; 3], seen: &mut Seen) {
    let mut walk = BehindWalk::new(Path::EMPTY, false);
    let mut current = Some(facts);
    while let Some(facts) = current {
        if let Some(at) = facts.behind {
            let target = at.get();
            // Past the room for them, the types are not counted: `behind_problem`, which every
            // check runs on the same types first, stops the build there, once.
            if let Some(true) = seen.add(target.id) {
                sums[0] = sums[0].saturating_add(target.facts.properties);
                sums[1] = sums[1].saturating_add(target.facts.enum_values);
                sums[2] = sums[2]
                    .saturating_add(target.facts.text)
                    .saturating_add(target.id.name.len() as u32);
                current = Some(target.facts);
                continue;
            }
        } else {
            walk.enter(facts, None);
        }
        current = walk.next();
    }
}

/// Stops the build if a dialect in `modes` cannot express the property at `index` of a tool's
/// input object `tool`: one error for the field, spanned there by the caller, naming every
/// dialect that rejects it.
#[doc(hidden)]
pub const fn check_field(tool: &Facts, index: usize, modes: u8) {
    // Most fields are fine: a few bit tests, and no path or message is built.
    if refused(tool.kids[index].facts, 1, modes) {
        fail(&field_problems(tool, index, modes), modes, "");
    }
}

/// [`check_field`] for the type `name`, a structured answer (`#[tool(answer)]`): the strict
/// dialects of OpenAI and Anthropic, and the errors say so.
#[doc(hidden)]
pub const fn check_answer_field(answer: &Facts, index: usize, name: &str) {
    if refused(answer.kids[index].facts, 1, STRICT_ANSWER) {
        let problems = field_problems(answer, index, STRICT_ANSWER);
        fail(&problems, STRICT_ANSWER, name);
    }
}

/// The problems of the property at `index` of `tool`, for [`check_field`] and
/// [`check_answer_field`]. (Each stops the build itself, in [`fail`]: each frame between is one
/// more note in the build error.)
const fn field_problems(tool: &Facts, index: usize, modes: u8) -> [Option<Problem>; 3] {
    let kid = &tool.kids[index];
    let mut path = Path::EMPTY;
    path.push(kid);
    problems(modes, kid.facts, 1, &path, None, false)
}

/// Stops the build if a dialect in `modes` cannot express what no field of the tool's input
/// `tool` holds: the object itself, flattened fields, the totals OpenAI limits; and the
/// properties too unless `fields_checked` ([`check_field`] checked each of them).
#[doc(hidden)]
pub const fn check_rest(tool: &Facts, modes: u8, fields_checked: bool) {
    if rest_refused(tool, modes) {
        fail(&rest_problems(tool, modes, fields_checked), modes, "");
    }
}

/// The modes a structured answer is checked for: both strict dialects, as an answer.
const STRICT_ANSWER: u8 = OPENAI | ANTHROPIC | ANSWER;

/// Stops the build where the type `name` (whose facts are `answer`) cannot be a structured
/// answer: what the strict dialects of OpenAI and Anthropic cannot express (its fields too
/// unless `fields_checked`, [`check_answer_field`] checked each of them), and an answer that is
/// not an object. `name` is `""` where it is not known (a type the derive did not write).
#[doc(hidden)]
pub const fn check_answer(answer: &Facts, name: &str, fields_checked: bool) {
    if rest_refused(answer, STRICT_ANSWER) {
        let problems = rest_problems(answer, STRICT_ANSWER, fields_checked);
        fail(&problems, STRICT_ANSWER, name);
    }
    if !answer.object {
        let mut message = Message::new();
        message.put("toolgen: ");
        if !name.is_empty() {
            message.put("`");
            message.put(name);
            message.put("` cannot be a structured answer: ");
        }
        message.put(
            "a structured answer must be an object (a struct with named fields): OpenAI and \
             Anthropic take no other schema for it. Wrap the type in a struct.",
        );
        panic!("{}", message.text());
    }
}

/// Whether a dialect in `modes` may refuse what no field of `tool` holds (then
/// [`rest_problems`] says what), for [`check_rest`] and [`check_answer`].
const fn rest_refused(tool: &Facts, modes: u8) -> bool {
    refused(tool, 0, modes) || (modes & OPENAI != 0 && totals(tool).is_some())
}

/// The problems of what no field of `tool` holds (and of its fields, unless `fields_checked`).
const fn rest_problems(tool: &Facts, modes: u8, fields_checked: bool) -> [Option<Problem>; 3] {
    let rest: &[Via] = &[Via::Flatten, Via::Branch, Via::Definition, Via::Items];
    let only = if fields_checked { Some(rest) } else { None };
    problems(modes, tool, 0, &Path::EMPTY, only, true)
}

/// "a structured answer", or "`Name`, a structured answer" where the type's name is known.
const fn put_answer(message: &mut Message, name: &str) {
    if !name.is_empty() {
        message.put("`");
        message.put(name);
        message.put("`, ");
    }
    message.put("a structured answer");
}

/// The first problem of each dialect in `modes` (in [`DIALECTS`]' order) with the node `facts`
/// at `path`, `level` objects deep, looking only into the kids `only` lets through; `whole`:
/// the node is the whole tool's input, whose totals OpenAI limits.
const fn problems(
    modes: u8,
    facts: &Facts,
    level: u32,
    path: &Path,
    only: Option<&[Via]>,
    whole: bool,
) -> [Option<Problem>; 3] {
    let mut found = [None; 3];
    let mut d = 0;
    while d < DIALECTS.len() {
        let (bit, dialect) = DIALECTS[d];
        if modes & bit != 0 {
            found[d] = problem(dialect, facts, level, path, only);
            if found[d].is_none()
                && let Dialect::OpenAiStrict = dialect
                && facts.all & BEHIND != 0
            {
                found[d] = behind_problem(facts, path, only, &mut Seen::new());
            }
            if found[d].is_none()
                && whole
                && let Dialect::OpenAiStrict = dialect
                && let Some(rule) = totals(facts)
            {
                found[d] = Some(Problem {
                    dialect,
                    rule,
                    path: *path,
                });
            }
        }
        d += 1;
    }
    found
}

/// How long a build error's message may be.
const MESSAGE_BYTES: usize = 2048;

/// A message being written, cut where it would overflow.
pub(crate) struct Message {
    bytes: [u8; MESSAGE_BYTES],
    len: usize,
}

impl Message {
    pub(crate) const fn new() -> Message {
        Message {
            bytes: [0; MESSAGE_BYTES],
            len: 0,
        }
    }

    /// The message (cut at a character boundary, so always text).
    pub(crate) const fn text(&self) -> &str {
        let (text, _) = self.bytes.split_at(self.len);
        match core::str::from_utf8(text) {
            Ok(text) => text,
            Err(_) => "toolgen: a strict dialect cannot express this type",
        }
    }

    pub(crate) const fn put(&mut self, text: &str) {
        self.put_bytes(text.as_bytes());
    }

    const fn put_bytes(&mut self, bytes: &[u8]) {
        if self.len + bytes.len() > MESSAGE_BYTES {
            return;
        }
        let mut i = 0;
        while i < bytes.len() {
            self.bytes[self.len + i] = bytes[i];
            i += 1;
        }
        self.len += bytes.len();
    }
}

/// Stops the build with one message for the problems found, if any: dialects with the same
/// problem at the same place share a sentence. `name`: the answer's type, for an answer.
const fn fail(problems: &[Option<Problem>; 3], modes: u8, name: &str) {
    let mut message = Message::new();
    message.put("toolgen: ");
    let mut written = 0;
    let mut i = 0;
    while i < problems.len() {
        if let Some(problem) = &problems[i]
            && !said_before(problems, i)
        {
            if written > 0 {
                message.put(" Also ");
            }
            written += 1;
            let answer = if modes & ANSWER != 0 {
                Some(name)
            } else {
                None
            };
            put_problem(&mut message, problems, i, problem, answer);
        }
        i += 1;
    }
    if written > 0 {
        panic!("{}", message.text());
    }
}

/// Whether the problem at `i` is the same as an earlier one (same rule, place and fix).
const fn said_before(problems: &[Option<Problem>; 3], i: usize) -> bool {
    let mut j = 0;
    while j < i {
        if let (Some(a), Some(b)) = (&problems[j], &problems[i])
            && same(a, b)
        {
            return true;
        }
        j += 1;
    }
    false
}

const fn same(a: &Problem, b: &Problem) -> bool {
    a.rule as u8 == b.rule as u8
        && a.path.same(&b.path)
        && matches!(a.dialect, Dialect::Gemini) == matches!(b.dialect, Dialect::Gemini)
}

/// One sentence: the attribute (or the answer, `answer`: its type's name, if known), the
/// dialects, what they cannot take, where, and the fix.
const fn put_problem(
    message: &mut Message,
    problems: &[Option<Problem>; 3],
    first: usize,
    problem: &Problem,
    answer: Option<&str>,
) {
    match (answer, problem.dialect) {
        (Some(name), _) => {
            put_answer(message, name);
            message.put(" (strict for OpenAI and Anthropic): ");
        }
        (None, Dialect::Gemini) => message.put("`#[tool(gemini = \"parameters\")]`: "),
        (None, _) => message.put("`#[tool(strict)]`: "),
    }
    message.put(problem.dialect.provider());
    let mut j = first + 1;
    while j < problems.len() {
        if let Some(other) = &problems[j]
            && same(problem, other)
        {
            message.put(" and ");
            message.put(other.dialect.provider());
        }
        j += 1;
    }
    let (what, fix) = problem.rule.words(problem.dialect);
    message.put(" ");
    message.put(what);
    if problem.path.len > 0 {
        message.put(", at `");
        let (path, _) = problem.path.bytes.split_at(problem.path.len);
        message.put_bytes(path);
        message.put("`");
    }
    message.put("; ");
    if answer.is_some() {
        put_answer_fix(message, fix);
    } else {
        message.put(fix);
    }
    message.put(".");
}

/// A fix in words for a structured answer: a tool's, without what only a tool can do (drop
/// `strict`, or choose one provider's).
const fn put_answer_fix(message: &mut Message, fix: &str) {
    const DROP: &str = ", or drop `strict`";
    const ONE_PROVIDER: &str = "use `#[tool(strict";
    // The fixes are the rule table's ASCII sentences: every byte is a character boundary.
    if fix.len() >= ONE_PROVIDER.len() && str_eq(fix.split_at(ONE_PROVIDER.len()).0, ONE_PROVIDER) {
        message.put("change the type");
    } else if fix.len() >= DROP.len() && str_eq(fix.split_at(fix.len() - DROP.len()).1, DROP) {
        message.put(fix.split_at(fix.len() - DROP.len()).0);
    } else {
        message.put(fix);
    }
}

/// The first problem `dialect` has with a tool's input whose facts are `facts`, as the build
/// checks it: the rule and the path. For tests, which hold it against the run-time rewrite.
#[doc(hidden)]
pub fn first_problem(facts: &Facts, dialect: Dialect) -> Option<(Rule, String)> {
    let index = DIALECTS.iter().position(|&(_, d)| d == dialect)?;
    let (modes, _) = *DIALECTS.get(index)?;
    let found = problems(modes, facts, 0, &Path::EMPTY, None, true)
        .get(index)
        .copied()
        .flatten()?;
    let path = found.path.bytes.get(..found.path.len).unwrap_or_default();
    Some((found.rule, String::from_utf8_lossy(path).into_owned()))
}

/// The keywords of one schema node that state what serde does not enforce: the bounds of a
/// number, of a text's length, of an array's or an object's count, whether an array's items
/// must differ, a `pattern` and a `format`. One checker reads them (`Keywords::check`, in
/// `parse/constraints.rs`), for derived tools (their `#[tool(range, length, pattern, format)]`,
/// written by the derive into their facts, [`Facts::keywords`], and carried by the parse plan)
/// and for a [`DynamicTool`](crate::DynamicTool) (from its JSON Schema, `Keywords::of_schema`)
/// alike.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Keywords<'k> {
    /// `minimum`.
    pub minimum: Option<f64>,
    /// `maximum`.
    pub maximum: Option<f64>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: Option<f64>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: Option<f64>,
    /// `multipleOf`.
    pub multiple_of: Option<f64>,
    /// `minLength`, in characters (Unicode scalar values, as JSON Schema counts them).
    pub min_length: Option<u64>,
    /// `maxLength`.
    pub max_length: Option<u64>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `minProperties`.
    pub min_properties: Option<u64>,
    /// `maxProperties`.
    pub max_properties: Option<u64>,
    /// `uniqueItems: true`.
    pub unique_items: bool,
    /// `pattern`: a text must contain a match (JSON Schema patterns are not anchored).
    pub pattern: Option<&'k str>,
    /// `format`.
    pub format: Option<&'k str>,
}

impl Keywords<'_> {
    /// No keyword: what the derive's keywords are written over (`..Keywords::NONE`).
    pub const NONE: Keywords<'static> = Keywords {
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        multiple_of: None,
        min_length: None,
        max_length: None,
        min_items: None,
        max_items: None,
        min_properties: None,
        max_properties: None,
        unique_items: false,
        pattern: None,
        format: None,
    };
}
