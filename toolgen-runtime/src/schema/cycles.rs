//! Types that hold each other, found without a mark: a graph of which types each type holds,
//! kept in `static`s, and the choice, made per type in const evaluation, to refer to a type on a
//! cycle by `$ref` wherever it is held.
//!
//! A const that holds another type's schema cannot be part of a cycle: rustc stops with E0391
//! when `A`'s schema holds `B`'s and `B`'s holds `A`'s. So every concrete type that derives
//! `ToolSchema` and holds types of the user's keeps a `static` [`Edges`] node that points to the
//! nodes of the types it holds (a pointer is not a read, so statics may point to each other in a
//! cycle). Its derive writes a const `ON_CYCLE: bool`, whether a type it holds leads back to it
//! ([`reaches`], which walks the statics, once for each type it holds), and its own `ToolSchema`
//! consts choose by it, through [`CutOf<Self, ON_CYCLE>`](CutOf): on a cycle, its schema is a
//! `$ref` to its entry under the root's `$defs` (its definitions and facts are behind its
//! [`Cut`] `static`, which argument parsing also follows), and its values are checked; off a
//! cycle, they are its entry's ([`Cyclic::ENTRY`], and what that entry needs).
//! The choice is a type, so the const that is not chosen is never named. So a type that holds
//! one on a cycle names its consts as they are: no const of one type of a cycle depends on one
//! of another's that depends on it, and every type of a cycle is written once, wherever it is
//! held (by a type of the cycle, one off it, or a tool).
//!
//! This module runs in const evaluation on the program's own types; its assertions are build
//! errors, so the runtime's no-panic lints do not apply to it.
#![allow(clippy::indexing_slicing, clippy::panic)]

use core::marker::PhantomData;

use crate::schema::ToolSchema;
use crate::schema::facts::{Facts, NO_FACTS, Target, TargetAt};
use crate::schema::rope::{At, Cyclic, DefId, Defs, DefsAt, Rope, str_eq};

/// The types of the user's that a type holds, as a node of the graph [`reaches`] walks, and,
/// for a type on a cycle, where its definitions and facts are.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Debug)]
pub struct Edges {
    /// `module::Name@line:column` of a concrete type; empty for a generic type's node (a const,
    /// which a walk never looks for).
    pub id: &'static str,
    /// The nodes of the types it holds ([`ToolSchema::EDGES`]).
    pub kids: &'static [Option<EdgesAt>],
    /// What a field that leads back to the type needs of it. `None` for a generic type, which
    /// no field refers to this way.
    pub cut: Option<At<Cut>>,
}

impl Edges {
    /// A node of a type that no field refers to by `$ref` (a generic type's).
    pub const fn of(id: &'static str, kids: &'static [Option<EdgesAt>]) -> Edges {
        Edges {
            id,
            kids,
            cut: None,
        }
    }

    /// A concrete type's node, and its [`Cut`] (a `static`: only its address is taken).
    pub const fn concrete(
        id: &'static str,
        kids: &'static [Option<EdgesAt>],
        cut: &'static Cut,
    ) -> Edges {
        Edges {
            id,
            kids,
            cut: Some(At::of(cut)),
        }
    }
}

/// What a `$ref` to a concrete type needs of it, in a `static` of that type's derive (a const
/// would be part of the cycle): filled only for a type on a cycle (its derive's `ON_CYCLE`);
/// [`Cut::NONE`] otherwise (a `static` is compiled into the program with all it points to). The
/// type's own `ToolSchema::DEFS` and `FACTS` point into it when it is on a cycle: every type
/// that holds it refers to it by `$ref`.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Debug)]
pub struct Cut {
    /// The type's definitions, then its own entry (its schema under its [`Cyclic::ID`]).
    pub defs: Defs,
    /// The type's facts.
    pub target: Target,
}

impl Cut {
    /// Nothing: the type is on no cycle.
    pub const NONE: Cut = Cut {
        defs: Defs::None,
        target: Target {
            id: &NO_ID,
            facts: NO_FACTS,
        },
    };
}

/// The [`Cut`] of a concrete type `T`: [`Cut::NONE`] unless `ON` (it is on a cycle). Written
/// here, generically, so that the derive of each type names it instead of building it (each
/// borrow in a derive's code is a check of its own for rustc), and chosen by a type, so that
/// the schema of a type on no cycle is not named (nor, when it fails, named again).
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub struct CutOf<T: ?Sized, const ON: bool>(PhantomData<T>);

impl<T: ?Sized> CutOf<T, false> {
    /// Nothing: the type is on no cycle.
    pub const CUT: Cut = Cut::NONE;
}

impl<T: ToolSchema + Cyclic + ?Sized> CutOf<T, true> {
    /// `T`'s definitions, then its own entry; its facts.
    pub const CUT: Cut = Cut {
        defs: Defs::Seq(&[T::OWN_DEFS, Defs::Def(&T::ID, &T::ENTRY)]),
        target: Target {
            id: &T::ID,
            facts: T::OWN_FACTS,
        },
    };
    /// A `$ref` to its entry (see `CutOf<T, false>::SCHEMA`).
    pub const SCHEMA: Rope = Rope::Ref(&T::ID);
    /// Its entry and what that needs, behind its [`Cut`].
    pub const DEFS: Defs = Defs::Behind(&T::ID, cut_of(T::EDGES).0);
    /// Its entry's facts, behind its [`Cut`]: what is behind a cycle is not known here, so they
    /// count as having every kind of work, constraints to check too.
    pub const FACTS: &'static Facts = &Facts::behind(cut_of(T::EDGES).1);
}

/// What a concrete type that may be on a cycle says of itself as a `ToolSchema`, by `ON`
/// (whether it is on a cycle): its entry, or a `$ref` to it, so that every type holding it
/// (one off the cycle, a tool) refers to it, and the entry is written once.
impl<T: Cyclic + ?Sized> CutOf<T, false> {
    /// Its entry.
    pub const SCHEMA: Rope = T::ENTRY;
    /// The definitions its entry needs.
    pub const DEFS: Defs = T::OWN_DEFS;
    /// Its entry's facts.
    pub const FACTS: &'static Facts = T::OWN_FACTS;
}

const NO_ID: DefId = DefId {
    name: "",
    path: "",
    args: &[],
};

/// Where an [`Edges`] node is: in a `static`, or in a generic type's const.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub type EdgesAt = At<Edges>;

/// How many nodes one walk of [`reaches`] can hold.
const MAX_NODES: usize = 256;

/// Whether the type whose node is `from` holds, at any depth, the concrete type named `target`
/// (`module::Name@line:column`): whether a field of `target`'s of that type leads back to it.
///
/// ```
/// use toolgen::__private::{Edges, EdgesAt, reaches};
///
/// static A: Edges = Edges::of("app::A", &[Some(EdgesAt::of(&B))]);
/// static B: Edges = Edges::of("app::B", &[Some(EdgesAt::of(&A)), None]);
/// static C: Edges = Edges::of("app::C", &[Some(EdgesAt::of(&A))]);
/// const B_LEADS_BACK_TO_A: bool = reaches(Some(EdgesAt::of(&B)), "app::A");
/// const A_LEADS_TO_C: bool = reaches(Some(EdgesAt::of(&A)), "app::C");
/// assert!(B_LEADS_BACK_TO_A);
/// assert!(!A_LEADS_TO_C);
/// ```
pub const fn reaches(from: Option<EdgesAt>, target: &str) -> bool {
    // Most held types hold none of the user's types (no node): no walk, and no room made for
    // one (two arrays of 256 entries, which const evaluation writes out).
    if from.is_none() {
        return false;
    }
    let mut stack: [Option<EdgesAt>; MAX_NODES] = [None; MAX_NODES];
    stack[0] = from;
    walk(stack, 1, target)
}

/// What stops the build where a walk meets more types than it has room for.
const TOO_MANY: &str = "toolgen: more than 256 types of yours are reached from here, more than the derive looks through for a way back; mark `#[tool(recursive)]` the field that leads to them (it then refers to them by `$ref`, and the search stops there), or split the types";

/// The walk of [`reaches`], from the first `pending` nodes of `stack`.
const fn walk(mut stack: [Option<EdgesAt>; MAX_NODES], mut pending: usize, target: &str) -> bool {
    let mut seen: [&str; MAX_NODES] = [""; MAX_NODES];
    let mut known = 0;
    while pending > 0 {
        pending -= 1;
        let Some(at) = stack[pending] else {
            continue;
        };
        let node = at.get();
        if !node.id.is_empty() {
            if str_eq(node.id, target) {
                return true;
            }
            let mut i = 0;
            while i < known && !str_eq(seen[i], node.id) {
                i += 1;
            }
            if i < known {
                continue;
            }
            assert!(known < MAX_NODES, "{}", TOO_MANY);
            seen[known] = node.id;
            known += 1;
        }
        let mut k = 0;
        while k < node.kids.len() {
            if node.kids[k].is_some() {
                assert!(pending < MAX_NODES, "{}", TOO_MANY);
                stack[pending] = node.kids[k];
                pending += 1;
            }
            k += 1;
        }
    }
    false
}

/// Where the definitions and facts of the type whose node is `edges` are, for a `$ref` to it.
const fn cut_of(edges: Option<EdgesAt>) -> (DefsAt, TargetAt) {
    if let Some(at) = edges
        && let Some(cut) = at.get().cut
    {
        // Addresses inside the `static`, which is not read here (it may be being worked out).
        let cut = cut.get();
        (At::of(&cut.defs), At::of(&cut.target))
    } else {
        // Only a concrete type's consts choose a `$ref` to it, and its node has a `Cut`.
        panic!("toolgen: a type on a cycle has no node of its own")
    }
}
