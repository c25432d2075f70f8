//! What the provider dialects need to know about a type's schema, as small compile-time data:
//! the build-time half of strict mode.
//!
//! Every [`ToolSchema`](crate::ToolSchema) carries [`Facts`]: the problems its schema node has
//! for a dialect (a map, an arbitrary value, a tuple, a recursive reference, a regex Anthropic
//! cannot read, ..), the deepest nesting of objects, and counts of properties, enum values and
//! name characters, each summed over the node's kids. The derive combines its fields' facts; a
//! strict tool then checks each of its fields in const evaluation, spanned at the field, and one
//! check for the rest (flattened fields, the whole tool's totals), against the dialects' rule
//! tables ([`crate::dialect::strict`]). No schema text is read: the
//! dialect texts themselves are written at run time, at first use ([`crate::dialect::rewrite`]).
//!
//! The kids keep enough of the shape to name the path of a problem (`cards[].meta`).
//!
//! This module runs in const evaluation on the program's own types; its panics are the build
//! errors of strict tools, so the runtime's no-panic lints do not apply to it.
#![allow(clippy::indexing_slicing, clippy::panic)]

use crate::schema::rope::{At, DefId};

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
    /// `untagged_from` on are its untagged variants' contents; and which of those serde took
    /// for a value, where the derive could say ([`Facts::picked_by`]).
    Enum(EnumRepr, u16, Option<Pick>),
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
/// Which of an enum's untagged alternatives serde takes for a JSON value: the enum read from it
/// (as serde reads it, trying the variants in turn) and the variant it became, as its position
/// among the alternatives (`u16::MAX`: a tagged variant, none of them); `None` where the value
/// does not read as the enum. What the derive writes for an enum with untagged variants that
/// implements `Deserialize` ([`crate::__private::UntaggedPick`]).
pub type Pick = fn(&serde_json::Value) -> Option<u16>;

/// [`Facts::work`]: a value in the node whose keywords (`#[tool(range, length, pattern,
/// format)]`, [`Parse::Keywords`]) argument parsing checks, below an untagged enum too. Set by
/// [`Facts::keywords`]; the nodes holding one have it from their kids.
pub const CONSTRAIN: u8 = 1 << 6;
/// Every kind of work: what a type that leads back counts as (what is behind it is not known
/// where it is held).
const ALL_WORK: u8 =
    STRIP | FILL | FILL_ANYWHERE | CHECK | FILL_UNTAGGED | CONSTRAIN | CONSTRAIN_UNTAGGED;
/// [`Facts::work`]: a value with keywords below an untagged enum's alternatives, where only the
/// alternative serde took is checked, which is known once serde has read the value (the value
/// walk checks them, not the stripping parse).
pub const CONSTRAIN_UNTAGGED: u8 = 1 << 7;

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
        if let [kid] = inner {
            match (kid.facts.parse, kid.facts.kids) {
                (Parse::NullValue, _) => return *kid.facts,
                // A field's keywords around it (`#[tool(length(..))]` on a `Patch<String>`).
                (Parse::Keywords(_), [value]) if matches!(value.facts.parse, Parse::NullValue) => {
                    return *kid.facts;
                }
                _ => {}
            }
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
        facts.work &= CONSTRAIN | CONSTRAIN_UNTAGGED;
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
        facts.parse = Parse::Enum(repr, untagged_from, None);
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
                if kid & CONSTRAIN != 0 {
                    work |= CONSTRAIN_UNTAGGED;
                }
            }
            i += 1;
        }
        facts.work = work;
        facts
    }

    /// The enum ([`Facts::enumeration`]) with `pick`, which says which untagged alternative serde
    /// took for a value, so that only that one's keywords are checked ([`Pick`]).
    pub const fn picked_by(mut self, pick: Pick) -> Facts {
        if let Parse::Enum(repr, untagged_from, _) = self.parse {
            self.parse = Parse::Enum(repr, untagged_from, Some(pick));
        }
        self
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

    /// Whether the stripping parse, which checks keywords as it reads, checks every value's as
    /// the value walk does: none is below an untagged enum's alternatives (where which one
    /// applies is known once serde has read the value), and no type that leads back is on the
    /// way.
    pub const fn constrains_as_read(&self) -> bool {
        self.work & CONSTRAIN_UNTAGGED == 0
    }
}

const fn max(a: u32, b: u32) -> u32 {
    if a > b { a } else { b }
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

/// How the derive writes an enum's [`Pick`] without knowing whether the enum implements
/// `Deserialize` (a type may derive `ToolSchema` for its output alone): `(&&UntaggedPick::<Self>
/// ::NEW).pick(value, which)` reads the enum with serde where it can ([`PickBySerde`]), and is
/// `None` where it cannot ([`PickNone`]), as method resolution tries `&&` before `&`.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub struct UntaggedPick<T>(core::marker::PhantomData<T>);

impl<T> UntaggedPick<T> {
    /// The picker of `T`.
    pub const NEW: UntaggedPick<T> = UntaggedPick(core::marker::PhantomData);
}

/// [`UntaggedPick`] of a `T` that implements `Deserialize`: `T` read from the value, and
/// `which` of its variants that is.
#[doc(hidden)]
pub trait PickBySerde<T> {
    /// The variant of `T` serde reads `value` as, by `which`; `None` where it reads none.
    fn pick(&self, value: &serde_json::Value, which: fn(&T) -> u16) -> Option<u16>;
}

impl<T: serde::de::DeserializeOwned> PickBySerde<T> for &UntaggedPick<T> {
    fn pick(&self, value: &serde_json::Value, which: fn(&T) -> u16) -> Option<u16> {
        T::deserialize(value).ok().map(|read| which(&read))
    }
}

/// [`UntaggedPick`] of any other `T`: nothing known.
#[doc(hidden)]
pub trait PickNone<T> {
    /// `None`: `T` cannot be read here.
    fn pick(&self, _value: &serde_json::Value, _which: fn(&T) -> u16) -> Option<u16> {
        None
    }
}

impl<T> PickNone<T> for UntaggedPick<T> {}
