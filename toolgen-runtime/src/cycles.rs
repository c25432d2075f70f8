//! Types that hold each other, found without a mark: a graph of which types each type holds,
//! kept in `static`s, and the choice, made per field in const evaluation, to refer to a type by
//! `$ref` where it leads back.
//!
//! A const that holds another type's schema cannot be part of a cycle: rustc stops with E0391
//! when `A`'s schema holds `B`'s and `B`'s holds `A`'s. So every concrete type that derives
//! `ToolSchema` and holds types of the user's keeps a `static` [`Edges`] node that points to the
//! nodes of the types it holds (a pointer is not a read, so statics may point to each other in a
//! cycle). For each such type `L` that a concrete type `A` holds, the derive writes a const
//! `CUT: bool = reaches(<L as ToolSchema>::EDGES, "A")`, which walks the statics, and reads the
//! field's type with `L` replaced by `<Choose<CUT> as Select<L>>::Out`: `L` itself where it does
//! not lead back, and [`Held<L>`], a `$ref` to it, where it does. The choice is a type, so the const that is not chosen is never named, and no
//! const of `A` depends on one of `L` that leads back to `A`.
//!
//! This module runs in const evaluation on the program's own types; its assertions are build
//! errors, so the runtime's no-panic lints do not apply to it.
#![allow(clippy::indexing_slicing, clippy::panic)]

use core::marker::PhantomData;

use crate::facts::{Facts, TargetAt};
use crate::nulls::{Nulls, nulls_of};
use crate::rope::{At, Cyclic, Defs, DefsAt, Rope, str_eq};
use crate::schema::ToolSchema;

/// The types of the user's that a type holds, as a node of the graph [`reaches`] walks.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Debug)]
pub struct Edges {
    /// `module::Name` of a concrete type; empty for a generic type's node (a const, which a
    /// walk never looks for).
    pub id: &'static str,
    /// The nodes of the types it holds ([`ToolSchema::EDGES`]).
    pub kids: &'static [Option<EdgesAt>],
}

/// Where an [`Edges`] node is: in a `static`, or in a generic type's const.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub type EdgesAt = At<Edges>;

/// How many nodes one walk of [`reaches`] can hold.
const MAX_NODES: usize = 256;

/// Whether the type whose node is `from` holds, at any depth, the concrete type named `target`
/// (`module::Name`): whether a field of `target`'s of that type leads back to it.
///
/// ```
/// use toolgen::__private::{Edges, EdgesAt, reaches};
///
/// static A: Edges = Edges { id: "app::A", kids: &[Some(EdgesAt::of(&B))] };
/// static B: Edges = Edges { id: "app::B", kids: &[Some(EdgesAt::of(&A)), None] };
/// static C: Edges = Edges { id: "app::C", kids: &[Some(EdgesAt::of(&A))] };
/// const B_LEADS_BACK_TO_A: bool = reaches(Some(EdgesAt::of(&B)), "app::A");
/// const A_LEADS_TO_C: bool = reaches(Some(EdgesAt::of(&A)), "app::C");
/// assert!(B_LEADS_BACK_TO_A);
/// assert!(!A_LEADS_TO_C);
/// ```
pub const fn reaches(from: Option<EdgesAt>, target: &str) -> bool {
    let mut stack: [Option<EdgesAt>; MAX_NODES] = [None; MAX_NODES];
    stack[0] = from;
    walk(stack, 1, target)
}

/// Whether the type whose node is `node`, named `id`, holds itself through other types: whether
/// a type it holds leads back to it (so that a field of another type may refer to it by `$ref`,
/// and its definitions are needed where it is written).
///
/// ```
/// use toolgen::__private::{Edges, EdgesAt, on_cycle};
///
/// static A: Edges = Edges { id: "app::A", kids: &[Some(EdgesAt::of(&B))] };
/// static B: Edges = Edges { id: "app::B", kids: &[Some(EdgesAt::of(&A))] };
/// static C: Edges = Edges { id: "app::C", kids: &[Some(EdgesAt::of(&A))] };
/// const A_ON_A_CYCLE: bool = on_cycle(Some(EdgesAt::of(&A)), "app::A");
/// const C_ON_A_CYCLE: bool = on_cycle(Some(EdgesAt::of(&C)), "app::C");
/// assert!(A_ON_A_CYCLE);
/// assert!(!C_ON_A_CYCLE);
/// ```
pub const fn on_cycle(node: Option<EdgesAt>, id: &str) -> bool {
    let Some(at) = node else {
        return false;
    };
    let kids = at.get().kids;
    assert!(
        kids.len() <= MAX_NODES,
        "toolgen: a type holds more than 256 types of yours"
    );
    let mut stack: [Option<EdgesAt>; MAX_NODES] = [None; MAX_NODES];
    let mut k = 0;
    while k < kids.len() {
        stack[k] = kids[k];
        k += 1;
    }
    walk(stack, kids.len(), id)
}

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
            assert!(
                known < MAX_NODES,
                "toolgen: more than 256 types hold each other; mark a field that leads back `#[tool(recursive)]`"
            );
            seen[known] = node.id;
            known += 1;
        }
        let mut k = 0;
        while k < node.kids.len() {
            if node.kids[k].is_some() {
                assert!(
                    pending < MAX_NODES,
                    "toolgen: more than 256 types hold each other; mark a field that leads back `#[tool(recursive)]`"
                );
                stack[pending] = node.kids[k];
                pending += 1;
            }
            k += 1;
        }
    }
    false
}

/// A concrete type that a field can refer to by `$ref` where it leads back ([`Held`]): where its
/// definitions and facts are, in `static`s of its own derive.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub trait CutTarget: Cyclic + ToolSchema {
    /// The type's definitions, then its own entry (its schema under its [`Cyclic::ID`]).
    const ENTRY: DefsAt;
    /// The type's facts.
    const TARGET: TargetAt;
}

/// Chooses, by `CUT`, how a field reads a type `T` it holds ([`Select`]).
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub struct Choose<const CUT: bool>;

/// The type `T` as a field reads it: `<Choose<CUT> as Select<T>>::Out` is `T` itself where `CUT`
/// is `false`, and [`Held<T>`], a `$ref` to its entry under `$defs`, where `CUT` is `true` (it
/// leads back to the type holding the field). A projection, so that where `T` is read as itself
/// the field's type is the same type as anywhere else.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub trait Select<T: ?Sized> {
    /// The type read.
    type Out: ?Sized;
}

impl<T: ?Sized> Select<T> for Choose<false> {
    type Out = T;
}

impl<T: ?Sized> Select<T> for Choose<true> {
    type Out = Held<T>;
}

/// A type `T` that leads back to the type holding it, as that type reads it: a `$ref` to `T`'s
/// entry under `$defs`, whose definitions and facts are in `static`s of `T`'s own derive.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub struct Held<T: ?Sized>(PhantomData<T>);

impl<T: CutTarget + ?Sized> ToolSchema for Held<T> {
    const SCHEMA: Rope = Rope::Ref(&T::ID);
    const DEFS: Defs = Defs::Behind(&T::ID, T::ENTRY);
    const FACTS: &'static Facts = &Facts::behind(T::TARGET);
    const NULLS: Nulls = Nulls::Cycle(nulls_of::<T>);
    const NEEDS_CHECK: bool = true;
}
