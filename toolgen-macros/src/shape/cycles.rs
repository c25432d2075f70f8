//! Types that hold each other, without a mark: the types of the user's that a type holds, its
//! nodes' neighbours in the graph of which types hold which (written out by `expand::edges`).

use syn::Type;

use crate::shape::ty::{PathArgs, Ty, inner_types_mut, mentions_self};
use crate::shape::{Container, delegate_type};

/// The types of the user's that a type holds, each once: the leaves (what is left of a field's
/// type once the standard containers are taken off) of its fields and variant contents, but
/// for those of fields marked `#[tool(recursive)]` (already cut) and those that hold the type
/// itself (a recursive type refers to itself by `$ref` already).
pub fn held_types(container: &Container<'_>) -> Vec<Type> {
    // A type serde reads as another (`from`, `transparent`) holds what that one holds.
    let types: Vec<&Type> = match delegate_type(container) {
        Some(delegate) => vec![delegate],
        None => container
            .members()
            .into_iter()
            .filter(|member| !member.field.is_some_and(|f| f.tool.recursive.is_present()))
            .map(|member| member.input_ty)
            .collect(),
    };
    let mut leaves: Vec<Type> = Vec::new();
    for ty in types {
        visit_leaves(&mut ty.clone(), &mut |leaf| {
            if !mentions_self(leaf, container.ident) && !leaves.contains(leaf) {
                leaves.push(leaf.clone());
            }
        });
    }
    leaves
}

/// The standard containers known by their last name, even where the macro cannot tell that the
/// name is the standard one (`use std::collections::BTreeMap;` then `BTreeMap<K, V>`): which of
/// their type arguments they hold. toolgen's `ToolSchema` impls of all of them take any
/// `ToolSchema` there, so a held type in that place may be replaced by a `$ref` to it.
const HOLDERS: &[(&str, usize)] = &[
    ("Option", 0),
    ("Box", 0),
    ("Rc", 0),
    ("Arc", 0),
    ("Vec", 0),
    ("VecDeque", 0),
    ("LinkedList", 0),
    ("HashSet", 0),
    ("BTreeSet", 0),
    ("IndexSet", 0),
    ("HashMap", 1),
    ("BTreeMap", 1),
    ("IndexMap", 1),
];

/// Calls `f` on each type inside `ty` that is neither a standard container nor a primitive
/// (what a field holds, once the containers are taken off): the types whose schemas only their
/// `ToolSchema` impls know.
fn visit_leaves(ty: &mut Type, f: &mut dyn FnMut(&mut Type)) {
    let held = match Ty::of(ty) {
        Ty::Primitive(_) | Ty::String | Ty::PathBuf | Ty::Value | Ty::Unit => return,
        // A map whose keys are not strings has no schema (its error is the map's own).
        Ty::Map(key, _) if !Ty::of(key).is_string_like() => return,
        Ty::Other => {
            let place = match ty {
                Type::Path(path) if path.qself.is_none() => path
                    .path
                    .segments
                    .last()
                    .and_then(|segment| HOLDERS.iter().find(|(name, _)| segment.ident == name))
                    .map(|(_, place)| *place),
                _ => None,
            };
            match place {
                Some(1)
                    if !inner_types_mut(ty, PathArgs::LastSegment)
                        .first()
                        .is_some_and(|key| Ty::of(key).is_string_like()) =>
                {
                    return;
                }
                Some(place) => Some(place),
                None => {
                    f(ty);
                    return;
                }
            }
        }
        _ => None,
    };
    match ty {
        Type::Path(_) => {
            // A container named by its last name holds its argument at `held`; `Option`,
            // `Box`, `Vec`, sets and maps (the value, the last argument) as the macro reads them.
            let mut args = inner_types_mut(ty, PathArgs::LastSegment);
            let index = held.unwrap_or(args.len().saturating_sub(1));
            if let Some(inner) = args.get_mut(index) {
                visit_leaves(inner, f);
            } else if held.is_some() {
                f(ty);
            }
        }
        _ => {
            for inner in inner_types_mut(ty, PathArgs::LastSegment) {
                visit_leaves(inner, f);
            }
        }
    }
}
