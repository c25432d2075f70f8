//! Schemas as compile-time data: a tree of `&'static str` pieces ([`Rope`]) plus the definitions
//! it refers to ([`Defs`]), and the `const fn`s that flatten them into one JSON text.
//!
//! Every [`ToolSchema`](crate::ToolSchema) carries its schema as a `Rope` (its sealed `ToolSchema::SCHEMA`). Ropes nest through
//! `&'static` references, so generic impls (`Vec<T>`, `Option<T>`, a user's `Page<T>`) can embed
//! `T::SCHEMA` without knowing its size; only a concrete [`Tool`](crate::Tool) flattens the tree,
//! once, into a `[u8; N]` whose length `N` is itself computed ([`flatten_capped`]). This works on stable
//! Rust, where array lengths cannot depend on a generic parameter's consts.
//!
//! One walker ([`walk`]) does both jobs: in a dry run it only counts bytes, otherwise it writes
//! them, so the length and the text cannot disagree.
//!
//! This module works on the program's own schema pieces in const evaluation, never on model
//! output: a failed index or assertion here stops the build with a message, so the runtime's
//! no-panic lints do not apply to it.
#![allow(clippy::indexing_slicing, clippy::panic)]

/// A JSON Schema as a tree of text pieces, assembled in const evaluation.
///
/// Every variant stands for one complete JSON value (a schema object), except inside
/// [`Rope::Typed`]'s tail and [`Rope::Seq`], which hold fragments. The text in [`Rope::Str`] is
/// JSON text, already escaped.
///
/// ```
/// use toolgen_runtime::__private::{Rope, schema_text, Defs};
///
/// const NAME: Rope = Rope::Typed("string", &Rope::Str("}"));
/// const MAYBE: Rope = Rope::Nullable(&NAME);
/// assert_eq!(schema_text(&MAYBE, &Defs::None), r#"{"type":["string","null"]}"#);
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Rope {
    /// JSON text, written as it is.
    Str(&'static str),
    /// The pieces, one after another.
    Seq(&'static [Rope]),
    /// `{"type":"<type>"` followed by the tail, which is `}` or starts with `,` and ends with `}`.
    ///
    /// Use it only when every other keyword in the tail constrains values of that one type
    /// (`minimum`, `items`, `properties`, ...), never `enum`/`const`/`anyOf`: then [`Rope::Nullable`]
    /// can admit `null` by widening the type to `["<type>","null"]`.
    Typed(&'static str, &'static Rope),
    /// The schema, or `null`: a widened `type` for [`Rope::Typed`], otherwise
    /// `{"anyOf":[<schema>,{"type":"null"}]}`. Already-nullable schemas are left as they are.
    Nullable(&'static Rope),
    /// The schema with a `"description"` (JSON-escaped text, without quotes). A description on a
    /// schema that already has one replaces it, so a field's doc comment wins over its type's.
    Described(&'static Rope, &'static str),
    /// A decimal number (array lengths of `[T; N]`).
    Uint(u64),
    /// The pieces, separated by `,`, leaving out empty ones: property lists merged from several
    /// sources (`#[serde(flatten)]`), where any may be empty.
    Join(&'static [Rope]),
    /// `prefix`, the inner text and `suffix`, or nothing at all when the inner text is empty
    /// (`,"required":[` .. `]` when a merged list may turn out empty).
    Keyword(&'static str, &'static Rope, &'static str),
    /// The schema with more keywords appended: the second rope is comma-separated `"key":value`
    /// text without braces (e.g. `"minLength":1`), usually a [`Rope::Join`]; when it is empty the
    /// schema is left as it is.
    Extend(&'static Rope, &'static Rope),
    /// The properties (`"name":schema,..`) of an object-shaped type, which must have them:
    /// const evaluation stops with an error for a type that has no [`Object`] parts.
    PropertiesOf(&'static Option<Object>),
    /// The required names (`"a","b"`) of an object-shaped type; as [`Rope::PropertiesOf`].
    RequiredOf(&'static Option<Object>),
    /// `"default":<json>` when the value is known, else nothing (an item of a [`Rope::Join`]).
    DefaultOf(&'static Option<Rope>),
    /// `"additionalProperties":<schema>` of a flattened map, else nothing.
    AdditionalOf(&'static Option<Object>),
    /// `"additionalProperties":false` for a type that denies unknown fields, else nothing.
    DenyOf(&'static Option<Object>),
    /// `{"$ref":"#/$defs/<key>"}`: a reference to a recursive type's definition. The key is the
    /// type's name, made unique among the root's definitions ([`DefId`]).
    Ref(&'static DefId),
    /// An object schema (the second rope) whose flattened types may bring alternatives (a
    /// flattened enum): written once per alternative under `anyOf`, each time with that
    /// alternative's properties merged in (and its description), or as it is when there are
    /// none. At most one flattened type of an object may have alternatives.
    Branches(&'static Branches, &'static Rope),
}

/// The parts of an object schema that another object can take in: what `#[serde(flatten)]`
/// merges, and what an internally tagged enum's newtype variant shares with its tag.
#[derive(Clone, Copy, Debug)]
pub struct Object {
    /// The properties, as comma-separated `"name":schema` pairs (possibly none).
    pub properties: Rope,
    /// The required property names, as comma-separated JSON strings (possibly none).
    pub required: Rope,
    /// The schema of other properties, for a map (`additionalProperties`).
    pub additional: Option<Rope>,
    /// The property names, to find duplicates after flattening.
    pub names: Names,
    /// `#[serde(deny_unknown_fields)]`: serde rejects other properties when it reads this type
    /// on its own (as an internally tagged newtype variant's content; not when flattened).
    pub deny_unknown: bool,
    /// The alternatives of an enum that serde can read from the enclosing object when it is
    /// flattened (one per variant), or those its own flattened types bring.
    pub branches: Branches,
}

impl Object {
    /// The object of a struct with no flattened field that takes unknown properties: its
    /// `properties`, `required` names and property `names`. What the derive writes for most
    /// structs (a call is fewer nodes for rustc to type-check than the struct literal).
    ///
    /// ```
    /// use toolgen_runtime::__private::{Names, Object, Rope};
    /// const OBJECT: Option<Object> =
    ///     Object::plain(Rope::Str(r#""a":{"type":"string"}"#), Rope::Str(r#""a""#), &["a"]);
    /// assert!(matches!(OBJECT, Some(Object { names: Names::List(["a"]), .. })));
    /// ```
    pub const fn plain(
        properties: Rope,
        required: Rope,
        names: &'static [&'static str],
    ) -> Option<Object> {
        Some(Object {
            properties,
            required,
            additional: None,
            names: Names::List(names),
            deny_unknown: false,
            branches: Branches::None,
        })
    }
}

/// The alternatives an object-shaped type brings when it is flattened: an enum's variants, each
/// a set of properties that is merged into the enclosing object (see [`Rope::Branches`]).
///
/// ```
/// use toolgen_runtime::__private::{Branch, Branches, Defs, Names, Object, Rope, schema_text};
///
/// // What `#[derive(ToolSchema)]` writes for `#[serde(untagged)] enum E { A { a: String }, B { b: u8 } }`.
/// const E: Option<Object> = Some(Object {
///     properties: Rope::Str(""),
///     required: Rope::Str(""),
///     additional: None,
///     deny_unknown: false,
///     names: Names::None,
///     branches: Branches::List(&[
///         Branch {
///             properties: Rope::Str(r#""a":{"type":"string"}"#),
///             required: Rope::Str(r#""a""#),
///             names: Names::List(&["a"]),
///             description: "",
///         },
///         Branch {
///             properties: Rope::Str(r#""b":{"type":"integer"}"#),
///             required: Rope::Str(r#""b""#),
///             names: Names::List(&["b"]),
///             description: "The other one.",
///         },
///     ]),
/// });
/// // `struct S { id: u8, #[serde(flatten)] e: E }`
/// const S: Rope = Rope::Branches(
///     &Branches::Of(&E),
///     &Rope::Typed("object", &Rope::Seq(&[
///         Rope::Str(r#","properties":{"id":{"type":"integer"},"#),
///         Rope::PropertiesOf(&E),
///         Rope::Str(r#"},"required":["id","#),
///         Rope::RequiredOf(&E),
///         Rope::Str("]}"),
///     ])),
/// );
/// assert_eq!(
///     schema_text(&S, &Defs::None),
///     concat!(
///         r#"{"anyOf":["#,
///         r#"{"type":"object","properties":{"id":{"type":"integer"},"a":{"type":"string"}},"required":["id","a"]},"#,
///         r#"{"type":"object","properties":{"id":{"type":"integer"},"b":{"type":"integer"}},"required":["id","b"],"description":"The other one."}"#,
///         "]}"
///     )
/// );
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Branches {
    /// None: the type is one object.
    None,
    /// This type's own alternatives (an enum's variants).
    List(&'static [Branch]),
    /// The alternatives of a flattened type.
    Of(&'static Option<Object>),
    /// The alternatives of several flattened types, of which at most one may have any.
    Seq(&'static [Branches]),
}

/// One alternative of [`Branches`]: the properties one variant adds to the enclosing object
/// (an example is at [`Branches`]).
#[derive(Clone, Copy, Debug)]
pub struct Branch {
    /// The properties, as comma-separated `"name":schema` pairs (possibly none).
    pub properties: Rope,
    /// The required property names, as comma-separated JSON strings (possibly none).
    pub required: Rope,
    /// The property names, to find duplicates after merging.
    pub names: Names,
    /// The variant's description (JSON-escaped, without quotes), or empty.
    pub description: &'static str,
}

/// [`Out::branch`] outside [`Rope::Branches`]: no alternative is chosen.
const NO_BRANCH: usize = usize::MAX;

/// How many alternatives `branches` stands for; stops the build if two flattened types of one
/// object both have some (their combinations would multiply).
const fn branch_count(branches: &Branches) -> usize {
    match branches {
        Branches::None | Branches::Of(None) => 0,
        Branches::List(list) => list.len(),
        Branches::Of(Some(object)) => branch_count(&object.branches),
        Branches::Seq(groups) => {
            let mut n = 0;
            let mut i = 0;
            while i < groups.len() {
                let here = branch_count(&groups[i]);
                if here > 0 {
                    if n > 0 {
                        panic!(
                            "toolgen: an object can flatten at most one enum (`#[serde(flatten)]`); put the others in fields of their own"
                        );
                    }
                    n = here;
                }
                i += 1;
            }
            n
        }
    }
}

/// The `index`-th alternative of `branches` (which has some).
const fn branch_at(branches: &Branches, index: usize) -> Option<&'static Branch> {
    match branches {
        Branches::None | Branches::Of(None) => None,
        Branches::List(list) => {
            if index < list.len() {
                Some(&list[index])
            } else {
                None
            }
        }
        Branches::Of(Some(object)) => branch_at(&object.branches, index),
        Branches::Seq(groups) => {
            let mut i = 0;
            while i < groups.len() {
                if branch_count(&groups[i]) > 0 {
                    return branch_at(&groups[i], index);
                }
                i += 1;
            }
            None
        }
    }
}

/// The alternative chosen for an object's own [`Branches::List`], or `None` when the object has
/// none; stops the build where an enum is flattened outside an object that can branch on it
/// (inside a variant of another flattened enum).
const fn chosen(object: &Object, branch: usize) -> Option<&'static Branch> {
    let Branches::List(list) = object.branches else {
        return None;
    };
    if branch == NO_BRANCH || branch >= list.len() {
        panic!(
            "toolgen: this enum cannot be flattened here (`#[serde(flatten)]` inside a variant of a flattened enum); put it in a field of its own"
        );
    }
    Some(&list[branch])
}

/// Property names of an object, including those its flattened fields bring in.
#[derive(Clone, Copy, Debug)]
pub enum Names {
    /// No names.
    None,
    /// These names.
    List(&'static [&'static str]),
    /// Several groups of names.
    Seq(&'static [Names]),
    /// The names of an object-shaped type (none for other types).
    Of(&'static Option<Object>),
}

/// How many names `names` holds, with those of alternative `branch` of a flattened enum.
const fn name_count(names: &Names, branch: usize) -> usize {
    match names {
        Names::None => 0,
        Names::List(list) => list.len(),
        Names::Seq(groups) => {
            let mut n = 0;
            let mut i = 0;
            while i < groups.len() {
                n += name_count(&groups[i], branch);
                i += 1;
            }
            n
        }
        Names::Of(Some(object)) => {
            let own = name_count(&object.names, branch);
            match chosen(object, branch) {
                Some(chosen) => own + name_count(&chosen.names, NO_BRANCH),
                None => own,
            }
        }
        Names::Of(None) => 0,
    }
}

const fn name_at(names: &Names, mut index: usize, branch: usize) -> &'static str {
    match names {
        Names::None | Names::Of(None) => "",
        Names::List(list) => list[index],
        Names::Seq(groups) => {
            let mut i = 0;
            while i < groups.len() {
                let n = name_count(&groups[i], branch);
                if index < n {
                    return name_at(&groups[i], index, branch);
                }
                index -= n;
                i += 1;
            }
            ""
        }
        Names::Of(Some(object)) => {
            let own = name_count(&object.names, branch);
            if index < own {
                return name_at(&object.names, index, branch);
            }
            match chosen(object, branch) {
                Some(chosen) => name_at(&chosen.names, index - own, NO_BRANCH),
                None => "",
            }
        }
    }
}

/// Stops the build unless the type is object-shaped (what `#[serde(flatten)]` and internally
/// tagged newtype variants need); otherwise the empty string (so it can sit in a [`Rope::Str`]).
/// Called where the type is written, so the error points there.
#[doc(hidden)]
pub const fn require_object(object: &Option<Object>) -> &'static str {
    if object.is_none() {
        panic!("{}", NOT_AN_OBJECT);
    }
    ""
}

/// Stops the build where a tool's arguments flatten an enum: they would be one of several objects
/// (`anyOf` at the root), which the providers refuse (OpenAI and Anthropic want one object).
/// Otherwise `()`; called where the flattened field's type is written, so the error points there.
#[doc(hidden)]
pub const fn flattened_at_root(object: &Option<Object>) {
    if alternatives(object) > 0 {
        panic!(
            "toolgen: a tool's arguments must be one object, but this `#[serde(flatten)]` enum makes them one of several (`anyOf` at the root), which OpenAI and Anthropic refuse; drop `flatten` and keep the enum in a field (e.g. `operation: Operation`), or make the tool an enum-free struct"
        );
    }
}

/// `this`, a flattened type's object parts, unless it is a second enum flattened into one object
/// (`earlier` are the parts of the types flattened before it): that stops the build, at the
/// type where it is called.
#[doc(hidden)]
pub const fn flattened_after(
    this: &'static Option<Object>,
    earlier: &[&'static Option<Object>],
) -> &'static Option<Object> {
    if alternatives(this) > 0 {
        let mut i = 0;
        while i < earlier.len() {
            if alternatives(earlier[i]) > 0 {
                panic!(
                    "toolgen: an object can flatten at most one enum (`#[serde(flatten)]`), and an earlier field flattens one already; put this one in a field of its own"
                );
            }
            i += 1;
        }
    }
    this
}

/// Whether a type flattened into a variant of an enum brings no alternatives of its own: an enum
/// whose variants flatten another enum has no object form (its alternatives would multiply).
#[doc(hidden)]
pub const fn has_no_branches(this: &Option<Object>) -> bool {
    alternatives(this) == 0
}

/// How many alternatives an object-shaped type brings when flattened (none for one object, or
/// for a type that is not object-shaped).
const fn alternatives(object: &Option<Object>) -> usize {
    match object {
        Some(object) => branch_count(&object.branches),
        None => 0,
    }
}

/// Stops the build if two properties of one object have the same name once flattened fields are
/// merged in; otherwise the empty string (so it can sit in a [`Rope::Str`]).
#[doc(hidden)]
pub const fn unique_names(names: &Names) -> &'static str {
    // With a flattened enum, each of its alternatives is checked with the other names.
    let branches = names_branch_count(names);
    let mut branch = if branches == 0 { NO_BRANCH } else { 0 };
    loop {
        let count = name_count(names, branch);
        let mut i = 0;
        while i < count {
            let mut j = i + 1;
            while j < count {
                if str_eq(name_at(names, i, branch), name_at(names, j, branch)) {
                    panic!(
                        "toolgen: two properties of one object have the same name after #[serde(flatten)]; rename one with #[serde(rename = \"...\")]"
                    );
                }
                j += 1;
            }
            i += 1;
        }
        branch = branch.wrapping_add(1);
        if branch >= branches {
            return "";
        }
    }
}

/// How many alternatives the flattened types named in `names` bring.
const fn names_branch_count(names: &Names) -> usize {
    match names {
        Names::None | Names::List(_) => 0,
        Names::Of(object) => alternatives(object),
        Names::Seq(groups) => {
            let mut n = 0;
            let mut i = 0;
            while i < groups.len() {
                let here = names_branch_count(&groups[i]);
                if here > n {
                    n = here;
                }
                i += 1;
            }
            n
        }
    }
}

/// The definitions a schema's `$ref`s point to, hoisted to the root's `$defs` when it is written.
///
/// Only self-referential types produce entries; everything else is inlined. The same type
/// reached twice is written once; two different types with one name get different keys (the
/// name, then `Name-2`, `Name-3`, .. in the order they are met), and every [`Rope::Ref`] to
/// them names its own.
///
/// ```
/// use toolgen_runtime::__private::{DefId, Defs, Rope, schema_text};
///
/// const A: DefId = DefId { name: "Node", path: "app::a", args: &[] };
/// const B: DefId = DefId { name: "Node", path: "app::b", args: &[] };
/// const NODE_A: Rope = Rope::Typed("array", &Rope::Seq(&[Rope::Str(r#","items":"#), Rope::Ref(&A), Rope::Str("}")]));
/// const NODE_B: Rope = Rope::Typed("object", &Rope::Seq(&[Rope::Str(r#","properties":{"next":"#), Rope::Ref(&B), Rope::Str("}}")]));
/// const DEFS: Defs = Defs::Seq(&[Defs::Def(&A, &NODE_A), Defs::Def(&B, &NODE_B), Defs::Def(&A, &NODE_A)]);
/// const ROOT: Rope = Rope::Typed("object", &Rope::Seq(&[
///     Rope::Str(r#","properties":{"a":"#), Rope::Ref(&A), Rope::Str(r#","b":"#), Rope::Ref(&B), Rope::Str("}}"),
/// ]));
/// assert_eq!(
///     schema_text(&ROOT, &DEFS),
///     concat!(
///         r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/Node"},"b":{"$ref":"#/$defs/Node-2"}},"##,
///         r##""$defs":{"Node":{"type":"array","items":{"$ref":"#/$defs/Node"}},"##,
///         r##""Node-2":{"type":"object","properties":{"next":{"$ref":"#/$defs/Node-2"}}}}}"##,
///     )
/// );
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Defs {
    /// No definitions.
    None,
    /// A definition: whose it is, and its schema.
    Def(&'static DefId, &'static Rope),
    /// Several groups of definitions.
    Seq(&'static [Defs]),
    /// The entry of a type that leads back to the one holding it (a cycle the derive found, or a
    /// field marked `#[tool(recursive)]`) and the definitions it brings: behind a pointer to a `static` that holds them, since a const that
    /// held them would be part of a cycle (the type leads back to the one holding the field).
    /// Followed once for a root, however many ways lead to it.
    Behind(&'static DefId, DefsAt),
}

/// Where a `static` (or another value that lives for the whole program) is: a raw pointer, so
/// that a const holding it does not hold (and const evaluation does not check) what it points
/// to, which may lead back to that const. Made only from a `&'static T` ([`At::of`]).
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Debug)]
pub struct At<T: 'static>(*const T);

impl<T> Clone for At<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for At<T> {}

// SAFETY: an `At<T>` only gives out a `&'static T` (`At::of` takes one), which is `Sync` where `T`
// is: any thread may read it.
unsafe impl<T: Sync> Sync for At<T> {}
// SAFETY: as for `Sync`: sending an `At<T>` shares the `&'static T`.
unsafe impl<T: Sync> Send for At<T> {}

impl<T> At<T> {
    /// The address of `value`.
    pub const fn of(value: &'static T) -> At<T> {
        At(value)
    }

    /// The value it points to.
    pub(crate) const fn get(self) -> &'static T {
        // SAFETY: made from a `&'static T` in `of`, so it points to a `T` that lives for the
        // whole program and is never written (a `&'static T` is immutable, and `T`'s interior
        // mutability, if any, is `T`'s own).
        unsafe { &*self.0 }
    }
}

/// Where a `static` copy of a type's [`Defs`] is: what [`Defs::Behind`] follows.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub type DefsAt = At<Defs>;

/// A type that a field may refer to by `$ref` where it leads back (a cycle the derive found,
/// or a field marked `#[tool(recursive)]`): every type that derives
/// `ToolSchema` and holds a type other than itself and the standard ones (only such a type can
/// lead back; a tool's input struct is a root, and a cycle through it is marked at a field that
/// leads elsewhere). The field refers to it by `$ref`, and the type holding the field adds
/// its entry (its schema, under this name) to `$defs`.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a `#[tool(recursive)]` field cannot lead to `{Self}`",
    label = "not a type that derives `ToolSchema` and leads back",
    note = "a field marked `#[tool(recursive)]` refers by `$ref` to the types it holds: each must derive `ToolSchema` and lead back to the field's type, so hold a type of yours (a tool's input struct is not one); mark a field of the cycle that leads to such a type"
)]
pub trait Cyclic {
    /// Who the type's `$defs` entry belongs to (the same as its [`Recursive::ID`] when it has
    /// one).
    const ID: DefId;
    /// The type's schema as its `$defs` entry writes it. The `ToolSchema::SCHEMA` of a concrete
    /// type on a cycle is a `$ref` to this entry, wherever it is held, so that the entry is
    /// written once.
    const ENTRY: Rope;
    /// The definitions its entry needs (`ToolSchema::DEFS` of a type on a cycle is the entry
    /// itself, behind its `Cut`).
    const OWN_DEFS: Defs;
    /// The facts of its entry (`ToolSchema::FACTS` of a type on a cycle lead to its `Cut`).
    const OWN_FACTS: &'static crate::schema::facts::Facts;
}

/// Who a `$defs` entry belongs to: a type's name, the module it is defined in, and the schemas
/// of its type arguments (so `Tree<u8>` and `Tree<String>` are two entries). Entries are the
/// same when all three are; the name is the key unless two different entries share it.
///
/// ```
/// use toolgen_runtime::__private::{DefId, Rope};
/// const TREE_OF_U8: DefId = DefId {
///     name: "Tree",
///     path: "app",
///     args: &[Rope::Typed("integer", &Rope::Str(r#","minimum":0,"maximum":255}"#))],
/// };
/// assert_eq!(TREE_OF_U8.name, "Tree");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct DefId {
    /// The type's name as it is written under `$defs` (`#[serde(rename)]` applied).
    pub name: &'static str,
    /// `module_path!()` where the type is defined.
    pub path: &'static str,
    /// The schemas of the type's type arguments, in order.
    pub args: &'static [Rope],
}

/// No type arguments: the [`DefId::args`] of a type without any.
#[doc(hidden)]
pub const NO_ARGS: &[Rope] = &[];

/// The [`DefId`] of a recursive type, which its schema refers to by `$ref`.
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
pub trait Recursive {
    /// Who the type's `$defs` entry belongs to.
    const ID: DefId;
}

/// Where [`walk`] writes, or, in a dry run, only counts.
pub(crate) struct Out<'a> {
    pub(crate) buf: &'a mut [u8],
    /// `buf.len()`, read once ([`Out::new`]): in const evaluation `len` is a call.
    room: usize,
    pub(crate) pos: usize,
    pub(crate) dry: bool,
    /// The alternative of a flattened enum being written ([`Rope::Branches`]), or [`NO_BRANCH`].
    pub(crate) branch: usize,
    /// The root's definitions, which [`Rope::Ref`] keys are looked up in.
    pub(crate) entries: &'a Entries,
    /// Whether `buf` may be too short for the text ([`flatten_capped`]): then what does not fit
    /// is counted, not written, and `overflowed` is set.
    capped: bool,
    /// Whether a piece did not fit in a capped `buf`.
    overflowed: bool,
}

impl<'a> Out<'a> {
    /// Where [`walk`] writes into `buf` (or, when `dry`, only counts), the root's definitions
    /// being `entries`.
    pub(crate) const fn new(buf: &'a mut [u8], dry: bool, entries: &'a Entries) -> Out<'a> {
        let room = buf.len();
        Out {
            buf,
            room,
            pos: 0,
            dry,
            branch: NO_BRANCH,
            entries,
            capped: false,
            overflowed: false,
        }
    }

    pub(crate) const fn put(&mut self, bytes: &[u8]) {
        let len = bytes.len();
        if !self.dry {
            let room = self.room;
            if self.pos <= room && len <= room - self.pos {
                // One raw copy, from pointers made by casts: in const evaluation, where every
                // schema is flattened, each call (`split_at_mut`, `copy_from_slice`, `len`,
                // `as_ptr`) is a frame of its own, and writing cost 2.5 times counting
                // (benches/compile_time.sh).
                let src = bytes as *const [u8] as *const u8;
                let dst = &raw mut *self.buf as *mut u8;
                // SAFETY: `pos + len <= buf.len()` (checked above), so the destination is in
                // bounds of `buf`, whose whole slice the pointer comes from; `bytes` is a shared
                // borrow and `buf` a unique one, so they cannot overlap; `u8` has no alignment
                // requirement.
                unsafe { core::ptr::copy_nonoverlapping(src, dst.add(self.pos), len) };
            } else {
                assert!(self.capped, "toolgen: schema length mismatch");
                self.overflowed = true;
            }
        }
        self.pos += len;
    }

    /// Steps back over the closing `}` just written, so keywords can be appended to an object.
    const fn reopen(&mut self) {
        if !self.dry && !self.overflowed {
            // This also keeps `as_str` sound: we only ever cut off one ASCII byte.
            assert!(
                self.buf[self.pos - 1] == b'}',
                "toolgen: a schema piece does not end with a closing brace"
            );
        }
        self.pos -= 1;
    }

    pub(crate) const fn put_uint(&mut self, mut n: u64) {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let (_, used) = digits.split_at(i);
        self.put(used);
    }
}

/// Writes (or, when `dry`, counts) the JSON text of `rope` at `out.pos`.
const fn walk(rope: &Rope, out: &mut Out<'_>) {
    match rope {
        // The bytes by a cast, not `as_bytes()`: the most common piece, and in const evaluation
        // each call is a frame of its own.
        // SAFETY: `str` and `[u8]` have the same layout; the pointer keeps the length.
        Rope::Str(text) => out.put(unsafe { &*(*text as *const str as *const [u8]) }),
        Rope::Seq(pieces) => {
            // The length read once: in const evaluation, `len` is a call (two frames).
            let count = pieces.len();
            let mut i = 0;
            while i < count {
                walk(&pieces[i], out);
                i += 1;
            }
        }
        Rope::Typed(ty, tail) => {
            out.put(b"{\"type\":\"");
            out.put(ty.as_bytes());
            out.put(b"\"");
            walk(tail, out);
        }
        Rope::Nullable(inner) => walk_nullable(inner, out),
        Rope::Described(inner, description) => walk_described(inner, description, out),
        Rope::Uint(n) => out.put_uint(*n),
        Rope::Join(pieces) => {
            let mut first = true;
            let count = pieces.len();
            let mut i = 0;
            while i < count {
                if !is_empty(&pieces[i], out.branch) {
                    if !first {
                        out.put(b",");
                    }
                    first = false;
                    walk(&pieces[i], out);
                }
                i += 1;
            }
        }
        _ => walk_rest(rope, out),
    }
}

/// [`walk`]'s less common pieces, apart so that `walk`'s frame, which const evaluation sets up
/// for every piece of every schema, stays small.
const fn walk_rest(rope: &Rope, out: &mut Out<'_>) {
    match rope {
        Rope::Keyword(prefix, inner, suffix) => {
            if !is_empty(inner, out.branch) {
                out.put(prefix.as_bytes());
                walk(inner, out);
                out.put(suffix.as_bytes());
            }
        }
        Rope::Extend(inner, keywords) => {
            let start = out.pos;
            walk(inner, out);
            if !is_empty(keywords, out.branch) {
                let empty_object = out.pos - start == 2;
                out.reopen();
                if !empty_object {
                    out.put(b",");
                }
                walk(keywords, out);
                out.put(b"}");
            }
        }
        Rope::PropertiesOf(object) => match object {
            Some(object) => {
                let chosen = chosen(object, out.branch);
                walk_merged(&object.properties, chosen, out, true);
            }
            None => panic!("{}", NOT_AN_OBJECT),
        },
        Rope::RequiredOf(object) => match object {
            Some(object) => {
                let chosen = chosen(object, out.branch);
                walk_merged(&object.required, chosen, out, false);
            }
            None => panic!("{}", NOT_AN_OBJECT),
        },
        Rope::Ref(id) => {
            out.put(b"{\"$ref\":\"#/$defs/");
            put_key(id, out);
            out.put(b"\"}");
        }
        Rope::Branches(branches, template) => {
            let count = branch_count(branches);
            let outer = out.branch;
            if count == 0 {
                out.branch = NO_BRANCH;
                walk(template, out);
            } else {
                if count > 1 {
                    out.put(b"{\"anyOf\":[");
                }
                let mut b = 0;
                while b < count {
                    if b > 0 {
                        out.put(b",");
                    }
                    out.branch = b;
                    match branch_at(branches, b) {
                        Some(branch) if !branch.description.is_empty() => {
                            walk_described(template, branch.description, out)
                        }
                        _ => walk(template, out),
                    }
                    b += 1;
                }
                if count > 1 {
                    out.put(b"]}");
                }
            }
            out.branch = outer;
        }
        Rope::AdditionalOf(object) => {
            if let Some(Object {
                additional: Some(schema),
                ..
            }) = object
            {
                out.put(b"\"additionalProperties\":");
                walk(schema, out);
            }
        }
        Rope::DenyOf(object) => {
            if let Some(Object {
                deny_unknown: true,
                additional: None,
                ..
            }) = object
            {
                out.put(b"\"additionalProperties\":false");
            }
        }
        Rope::DefaultOf(value) => {
            if let Some(value) = value {
                out.put(b"\"default\":");
                walk(value, out);
            }
        }
        Rope::Str(_)
        | Rope::Seq(_)
        | Rope::Typed(..)
        | Rope::Nullable(_)
        | Rope::Described(..)
        | Rope::Uint(_)
        | Rope::Join(_) => walk(rope, out),
    }
}

/// An object's own properties (or required names), then those of its chosen alternative.
const fn walk_merged(
    own: &Rope,
    chosen: Option<&'static Branch>,
    out: &mut Out<'_>,
    properties: bool,
) {
    walk(own, out);
    if let Some(chosen) = chosen {
        let theirs = if properties {
            &chosen.properties
        } else {
            &chosen.required
        };
        // Inside an alternative, no other enum can be chosen.
        let branch = out.branch;
        out.branch = NO_BRANCH;
        if !is_empty(theirs, NO_BRANCH) {
            if !is_empty(own, branch) {
                out.put(b",");
            }
            walk(theirs, out);
        }
        out.branch = branch;
    }
}

/// What `#[serde(flatten)]` needs and a type lacks.
const NOT_AN_OBJECT: &str = "toolgen: `#[serde(flatten)]` (or an internally tagged newtype variant) needs a type serde reads from a JSON object: a struct with named fields, a map, or an enum whose variants all are objects (and flatten no enum)";

const fn walk_nullable(inner: &'static Rope, out: &mut Out<'_>) {
    match inner {
        // An object without alternatives is its template: `Option` widens its `type`.
        Rope::Branches(branches, template) if branch_count(branches) == 0 => {
            let outer = out.branch;
            out.branch = NO_BRANCH;
            walk_nullable(template, out);
            out.branch = outer;
        }
        Rope::Typed(ty, tail) => {
            out.put(b"{\"type\":[\"");
            out.put(ty.as_bytes());
            out.put(b"\",\"null\"]");
            walk(tail, out);
        }
        // `Option<Option<T>>`: serde reads `null` as the outer `None`; one `null` branch is enough.
        Rope::Nullable(_) => walk(inner, out),
        // Keep the description outermost: `{"type":["string","null"],"description":..}`.
        Rope::Described(schema, description) => {
            walk_described(&Rope::Nullable(schema), description, out)
        }
        _ => {
            out.put(b"{\"anyOf\":[");
            walk(inner, out);
            out.put(b",{\"type\":\"null\"}]}");
        }
    }
}

const fn walk_described(inner: &Rope, description: &str, out: &mut Out<'_>) {
    // The new description replaces the schema's own, also where `walk_nullable` would write that
    // one outermost (`Option<T>` of a described `T`): a JSON object has one `description`.
    match inner {
        Rope::Described(schema, _) => return walk_described(schema, description, out),
        Rope::Nullable(nested @ Rope::Nullable(_)) => {
            return walk_described(nested, description, out);
        }
        Rope::Nullable(Rope::Described(schema, _)) => {
            return walk_described(&Rope::Nullable(schema), description, out);
        }
        _ => {}
    }
    let start = out.pos;
    walk(inner, out);
    let empty_object = out.pos - start == 2;
    out.reopen();
    if !empty_object {
        out.put(b",");
    }
    out.put(b"\"description\":\"");
    out.put(description.as_bytes());
    out.put(b"\"}");
}

/// Whether `defs` holds any entry: whether a schema holds a recursive type somewhere. (A
/// [`Defs::Behind`] holds at least the entry of the type it leads to, and is not followed: a
/// type's own consts ask this, and what is behind may be being evaluated.)
#[doc(hidden)]
pub const fn has_defs(defs: &Defs) -> bool {
    match defs {
        Defs::None => false,
        Defs::Def(..) | Defs::Behind(..) => true,
        Defs::Seq(groups) => {
            let mut i = 0;
            while i < groups.len() {
                if has_defs(&groups[i]) {
                    return true;
                }
                i += 1;
            }
            false
        }
    }
}

/// How many different entries one root's `$defs` can hold.
const MAX_ENTRIES: usize = 64;

/// How deeply the groups of definitions under one root may nest ([`Entries::collect`]).
const MAX_GROUPS: usize = 256;

/// The different entries of a root's [`Defs`], in the order they are met (each [`Defs::Behind`]
/// followed once), with the number of each one's key: what the root's walk writes under
/// `$defs`, and looks [`Rope::Ref`] keys up in.
pub(crate) struct Entries {
    ids: [Option<&'static DefId>; MAX_ENTRIES],
    ropes: [Option<&'static Rope>; MAX_ENTRIES],
    /// 1 when no entry before has the same name (the key is the name), else one more than
    /// those (`Name-2`).
    numbers: [usize; MAX_ENTRIES],
    len: usize,
    /// The types whose [`Defs::Behind`] was followed.
    followed: [Option<&'static DefId>; MAX_ENTRIES],
    followed_len: usize,
}

impl Entries {
    pub(crate) const EMPTY: Entries = Entries {
        ids: [None; MAX_ENTRIES],
        ropes: [None; MAX_ENTRIES],
        numbers: [0; MAX_ENTRIES],
        len: 0,
        followed: [None; MAX_ENTRIES],
        followed_len: 0,
    };

    /// The entries of `defs`.
    const fn of(defs: &Defs) -> Entries {
        let mut entries = Entries::EMPTY;
        if has_defs(defs) {
            entries.collect(defs);
        }
        entries
    }

    /// Adds the entries of `defs`, in the order a depth-first walk meets them, following each
    /// [`Defs::Behind`] once. The walk keeps its own stack of the groups it is in, so that a long
    /// cycle of types does not take one frame of const evaluation per type (rustc stops const
    /// evaluation at the crate's recursion limit of frames, 128 by default); a group's last
    /// member is walked after the group is left, so a ring of types that each lead to the next
    /// as their last definition takes no depth at all.
    const fn collect(&mut self, defs: &Defs) {
        let mut groups: [&[Defs]; MAX_GROUPS] = [&[]; MAX_GROUPS];
        let mut next = [0usize; MAX_GROUPS];
        let mut depth = 0;
        let mut current = Some(defs);
        loop {
            if let Some(defs) = current {
                current = None;
                match defs {
                    Defs::None => {}
                    Defs::Def(id, rope) => self.add(id, rope),
                    Defs::Seq(members) => {
                        assert!(
                            depth < MAX_GROUPS,
                            "toolgen: the types under one schema's `$defs` nest too deeply; split the tool"
                        );
                        groups[depth] = members;
                        next[depth] = 0;
                        depth += 1;
                    }
                    Defs::Behind(id, at) => {
                        if self.follows(id) {
                            current = Some(at.get());
                            continue;
                        }
                    }
                }
            }
            // The next member of the innermost group not done with.
            if depth == 0 {
                return;
            }
            let top = depth - 1;
            let members = groups[top];
            if next[top] < members.len() {
                current = Some(&members[next[top]]);
                next[top] += 1;
            }
            if next[top] >= members.len() {
                depth -= 1;
            }
        }
    }

    /// Adds the entry of `id`, unless it has one.
    const fn add(&mut self, id: &'static DefId, rope: &'static Rope) {
        if self.index(id).is_some() {
            return;
        }
        assert!(
            self.len < MAX_ENTRIES,
            "toolgen: more than 64 types under one schema's `$defs`; split the tool"
        );
        let mut number = 1;
        let mut k = 0;
        while k < self.len {
            if let Some(other) = self.ids[k]
                && str_eq(other.name, id.name)
            {
                number += 1;
            }
            k += 1;
        }
        self.ids[self.len] = Some(id);
        self.ropes[self.len] = Some(rope);
        self.numbers[self.len] = number;
        self.len += 1;
    }

    /// Records that the [`Defs::Behind`] of `id` is followed; `false` if it was before.
    const fn follows(&mut self, id: &'static DefId) -> bool {
        let mut k = 0;
        while k < self.followed_len {
            if let Some(other) = self.followed[k]
                && def_eq(other, id)
            {
                return false;
            }
            k += 1;
        }
        assert!(
            self.followed_len < MAX_ENTRIES,
            "toolgen: more than 64 types under one schema's `$defs`; split the tool"
        );
        self.followed[self.followed_len] = Some(id);
        self.followed_len += 1;
        true
    }

    /// The index of `id`'s entry.
    const fn index(&self, id: &DefId) -> Option<usize> {
        let mut k = 0;
        while k < self.len {
            if let Some(other) = self.ids[k]
                && def_eq(other, id)
            {
                return Some(k);
            }
            k += 1;
        }
        None
    }
}

/// Whether two [`DefId`]s are the same entry.
pub(crate) const fn def_eq(a: &DefId, b: &DefId) -> bool {
    str_eq(a.name, b.name) && str_eq(a.path, b.path) && ropes_eq(a.args, b.args)
}

const fn ropes_eq(a: &[Rope], b: &[Rope]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !rope_eq(&a[i], &b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether two ropes are the same tree (so they write the same text): how the schemas of two
/// type arguments are compared.
const fn rope_eq(a: &Rope, b: &Rope) -> bool {
    match (a, b) {
        (Rope::Str(a), Rope::Str(b)) => str_eq(a, b),
        (Rope::Seq(a), Rope::Seq(b)) | (Rope::Join(a), Rope::Join(b)) => ropes_eq(a, b),
        (Rope::Typed(t, a), Rope::Typed(u, b)) => str_eq(t, u) && rope_eq(a, b),
        (Rope::Nullable(a), Rope::Nullable(b)) => rope_eq(a, b),
        (Rope::Described(a, d), Rope::Described(b, e)) => str_eq(d, e) && rope_eq(a, b),
        (Rope::Uint(a), Rope::Uint(b)) => *a == *b,
        (Rope::Keyword(p, a, s), Rope::Keyword(q, b, t)) => {
            str_eq(p, q) && str_eq(s, t) && rope_eq(a, b)
        }
        (Rope::Extend(a, k), Rope::Extend(b, l)) => rope_eq(a, b) && rope_eq(k, l),
        (Rope::PropertiesOf(a), Rope::PropertiesOf(b))
        | (Rope::RequiredOf(a), Rope::RequiredOf(b))
        | (Rope::AdditionalOf(a), Rope::AdditionalOf(b))
        | (Rope::DenyOf(a), Rope::DenyOf(b)) => objects_eq(a, b),
        (Rope::DefaultOf(a), Rope::DefaultOf(b)) => match (a, b) {
            (Some(a), Some(b)) => rope_eq(a, b),
            (None, None) => true,
            _ => false,
        },
        (Rope::Ref(a), Rope::Ref(b)) => def_eq(a, b),
        (Rope::Branches(a, t), Rope::Branches(b, u)) => branches_eq(a, b) && rope_eq(t, u),
        _ => false,
    }
}

const fn objects_eq(a: &Option<Object>, b: &Option<Object>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            rope_eq(&a.properties, &b.properties)
                && rope_eq(&a.required, &b.required)
                && match (&a.additional, &b.additional) {
                    (Some(a), Some(b)) => rope_eq(a, b),
                    (None, None) => true,
                    _ => false,
                }
                && a.deny_unknown == b.deny_unknown
                && branches_eq(&a.branches, &b.branches)
        }
        _ => false,
    }
}

const fn branches_eq(a: &Branches, b: &Branches) -> bool {
    match (a, b) {
        (Branches::None, Branches::None) => true,
        (Branches::Of(a), Branches::Of(b)) => objects_eq(a, b),
        (Branches::Seq(a), Branches::Seq(b)) => {
            if a.len() != b.len() {
                return false;
            }
            let mut i = 0;
            while i < a.len() {
                if !branches_eq(&a[i], &b[i]) {
                    return false;
                }
                i += 1;
            }
            true
        }
        (Branches::List(a), Branches::List(b)) => {
            if a.len() != b.len() {
                return false;
            }
            let mut i = 0;
            while i < a.len() {
                if !(rope_eq(&a[i].properties, &b[i].properties)
                    && rope_eq(&a[i].required, &b[i].required)
                    && str_eq(a[i].description, b[i].description))
                {
                    return false;
                }
                i += 1;
            }
            true
        }
        _ => false,
    }
}

/// Writes the `$defs` key of `id`: its name, or `Name-<n>` for the n-th different type with
/// that name. Outside a root that defines it (a type's schema on its own), the name.
const fn put_key(id: &DefId, out: &mut Out<'_>) {
    out.put(id.name.as_bytes());
    if let Some(k) = out.entries.index(id)
        && out.entries.numbers[k] > 1
    {
        out.put(b"-");
        out.put_uint(out.entries.numbers[k] as u64);
    }
}

pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `rope` writes no text at all. Decided by the first piece that writes something, so a
/// `Join` of properties (each starting with its name) costs one look per piece, not a dry run
/// of each (which, in nested `Join`s, doubled the walk at every level).
const fn is_empty(rope: &Rope, branch: usize) -> bool {
    match rope {
        Rope::Str(text) => text.is_empty(),
        Rope::Seq(pieces) | Rope::Join(pieces) => {
            let count = pieces.len();
            let mut i = 0;
            while i < count {
                if !is_empty(&pieces[i], branch) {
                    return false;
                }
                i += 1;
            }
            true
        }
        Rope::Keyword(_, inner, _) => is_empty(inner, branch),
        Rope::PropertiesOf(Some(object)) => {
            is_empty(&object.properties, branch)
                && match chosen(object, branch) {
                    Some(chosen) => is_empty(&chosen.properties, NO_BRANCH),
                    None => true,
                }
        }
        Rope::RequiredOf(Some(object)) => {
            is_empty(&object.required, branch)
                && match chosen(object, branch) {
                    Some(chosen) => is_empty(&chosen.required, NO_BRANCH),
                    None => true,
                }
        }
        Rope::AdditionalOf(object) => !matches!(
            object,
            Some(Object {
                additional: Some(_),
                ..
            })
        ),
        Rope::DenyOf(object) => !matches!(
            object,
            Some(Object {
                deny_unknown: true,
                additional: None,
                ..
            })
        ),
        Rope::DefaultOf(value) => value.is_none(),
        // A missing object is `walk`'s error to report.
        Rope::PropertiesOf(None) | Rope::RequiredOf(None) => false,
        Rope::Typed(..)
        | Rope::Nullable(_)
        | Rope::Described(..)
        | Rope::Uint(_)
        | Rope::Extend(..)
        | Rope::Ref(_)
        | Rope::Branches(..) => false,
    }
}

const fn walk_root(root: &Rope, out: &mut Out<'_>) {
    walk(root, out);
    let entries = out.entries;
    if entries.len == 0 {
        return;
    }
    out.reopen();
    out.put(b",\"$defs\":{");
    let mut k = 0;
    while k < entries.len {
        if let (Some(id), Some(rope)) = (entries.ids[k], entries.ropes[k]) {
            if k > 0 {
                out.put(b",");
            }
            out.put(b"\"");
            put_key(id, out);
            out.put(b"\":");
            walk(rope, out);
        }
        k += 1;
    }
    out.put(b"}}");
}

/// The length in bytes of the text [`flatten_root`] writes for `root` and `defs`.
const fn root_len(root: &Rope, defs: &Defs) -> usize {
    let mut nothing: [u8; 0] = [];
    let entries = Entries::of(defs);
    let mut out = Out::new(&mut nothing, true, &entries);
    walk_root(root, &mut out);
    out.pos
}

/// The JSON text of `root`, with the entries of `defs` (without repeats) under `"$defs"`.
///
/// `N` must be [`root_len`] of the same arguments; a wrong `N` fails const evaluation.
const fn flatten_root<const N: usize>(root: &Rope, defs: &Defs) -> [u8; N] {
    let mut buf = [0u8; N];
    let entries = Entries::of(defs);
    let mut out = Out::new(&mut buf, false, &entries);
    walk_root(root, &mut out);
    assert!(out.pos == N, "toolgen: schema length mismatch");
    buf
}

/// A schema's text as [`flatten_text`] wrote it: UTF-8 by construction.
#[doc(hidden)]
pub struct Flat<const N: usize>([u8; N]);

impl<const N: usize> Flat<N> {
    /// The text. No check is needed (const evaluation would spend a step on every byte): the
    /// walk writes only whole `&str` pieces, ASCII punctuation and digits, and steps back over
    /// a `}` only after checking it is one.
    pub const fn as_str(&self) -> &str {
        // SAFETY: see above; `flatten_text` and `flat_text` are the only ways to make a `Flat`:
        // the first checks that the walk wrote exactly `N` bytes, the second copies the first
        // `N` bytes of a walk that wrote `N` bytes and left none out (`Capped::fits`).
        unsafe { core::str::from_utf8_unchecked(&self.0) }
    }
}

/// No definitions, by reference: what the derive passes where a schema holds none (a constant
/// of the runtime's, so each derive's consts do not make one of their own).
#[doc(hidden)]
pub const NO_DEFS: &Defs = &Defs::None;

/// How many bytes of a schema's text the derive writes in one walk ([`flatten_capped`]): a
/// longer text takes a second walk.
const CAP: usize = 8192;

/// A schema's text written in one walk into a buffer of 8 KiB, and its length: what the derive
/// writes a schema's text from, instead of a walk that counts and another that writes (the
/// text's const needs its length first).
///
/// The derive keeps it in a const that only its other consts read: no program holds the
/// buffer.
#[doc(hidden)]
pub struct Capped {
    buf: [u8; CAP],
    /// The text's length in bytes, also where it is longer than `CAP`.
    pub len: usize,
    /// Whether the whole text is in `buf`.
    fits: bool,
}

/// The text of `root` with the entries of `defs` under `"$defs"`, in one walk, into a buffer of 8 KiB;
/// its length is known whatever it is.
///
/// ```
/// use toolgen_runtime::__private::{Capped, Defs, Flat, Rope, flat_text, flatten_capped};
/// const ROOT: &Rope = &Rope::Typed("object", &Rope::Str("}"));
/// const FLAT: &Capped = &flatten_capped(ROOT, &Defs::None);
/// const TEXT: &Flat<{ FLAT.len }> = &flat_text(FLAT, ROOT, &Defs::None);
/// assert_eq!(TEXT.as_str(), r#"{"type":"object"}"#);
/// ```
#[doc(hidden)]
pub const fn flatten_capped(root: &Rope, defs: &Defs) -> Capped {
    let mut buf = [0u8; CAP];
    let entries = Entries::of(defs);
    let mut out = Out::new(&mut buf, false, &entries);
    out.capped = true;
    walk_root(root, &mut out);
    let len = out.pos;
    let fits = !out.overflowed;
    Capped { buf, len, fits }
}

/// The text `flat` holds (`N` is its length), or, where it did not fit, the text of `root` and
/// `defs` (what `flat` was written from) written again, into `N` bytes.
#[doc(hidden)]
pub const fn flat_text<const N: usize>(flat: &Capped, root: &Rope, defs: &Defs) -> Flat<N> {
    assert!(N == flat.len, "toolgen: schema length mismatch");
    if !flat.fits {
        return flatten_text(root, defs);
    }
    assert!(N <= CAP, "toolgen: schema length mismatch");
    let mut text = [0u8; N];
    // SAFETY: `N <= CAP` (checked above), so both are in bounds; they are two arrays, and do
    // not overlap.
    unsafe {
        core::ptr::copy_nonoverlapping(
            &raw const flat.buf as *const u8,
            &raw mut text as *mut u8,
            N,
        );
    }
    Flat(text)
}

/// [`flatten_root`], as text: what the derive writes a tool's schemas with.
#[doc(hidden)]
pub const fn flatten_text<const N: usize>(root: &Rope, defs: &Defs) -> Flat<N> {
    Flat(flatten_root::<N>(root, defs))
}

/// Bytes written in const evaluation from `&str` pieces as `&str`: what the derive reads an
/// escaped doc comment with ([`escaped`]; escaping adds ASCII only, so the text is UTF-8).
#[doc(hidden)]
pub const fn flattened_str(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("toolgen: flattened schema is not UTF-8"),
    }
}

/// The JSON text of a rope and its definitions, built at run time.
///
/// Useful for the schema of a type that is not a [`Tool`](crate::Tool) (a nested type, a generic
/// instance); tools have it as the const [`Tool::INPUT_SCHEMA`](crate::Tool::INPUT_SCHEMA).
///
/// ```
/// use toolgen_runtime::{ToolSchema, __private::{Defs, schema_text}};
/// let text = schema_text(&<Vec<u8> as ToolSchema>::SCHEMA, &Defs::None);
/// assert_eq!(text, r#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":255}}"#);
/// ```
// The rope is the program's own schema, built at compile time; no external data is in it.
#[allow(clippy::expect_used)]
pub fn schema_text(root: &Rope, defs: &Defs) -> String {
    let mut buf = vec![0u8; root_len(root, defs)];
    let entries = Entries::of(defs);
    let mut out = Out::new(&mut buf, false, &entries);
    walk_root(root, &mut out);
    String::from_utf8(buf).expect("rope pieces are `str` and only `}` bytes are cut")
}

/// The entries a root's `$defs` holds, in the order it writes them: each one's type, and the
/// number of its key (1: the type's name; `n`: `Name-n`), as the root's `$ref`s name them.
#[cfg(feature = "schemars1")]
pub(crate) fn def_entries(defs: &Defs) -> Vec<(&'static DefId, usize)> {
    let entries = Entries::of(defs);
    entries
        .ids
        .iter()
        .zip(entries.numbers)
        .take(entries.len)
        .filter_map(|(id, number)| Some(((*id)?, number)))
        .collect()
}

/// Writes (or counts) `text` escaped as the content of a JSON string, as the macro's own escaping
/// does: `"`, `\`, and control characters.
const fn put_escaped(text: &str, out: &mut Out<'_>) {
    let bytes = text.as_bytes();
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let escape: &[u8] = match c {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0..=0x1f => b"\\u00",
            _ => b"",
        };
        if !escape.is_empty() {
            let (_, tail) = bytes.split_at(run);
            let (plain, _) = tail.split_at(i - run);
            out.put(plain);
            out.put(escape);
            if escape.len() == 4 {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.put(&[HEX[(c >> 4) as usize], HEX[(c & 0xf) as usize]]);
            }
            run = i + 1;
        }
        i += 1;
    }
    let (_, tail) = bytes.split_at(run);
    out.put(tail);
}

/// The length of `text` escaped as JSON string content ([`escaped`]).
#[doc(hidden)]
pub const fn escaped_len(text: &str) -> usize {
    let mut out = Out::new(&mut [], true, &Entries::EMPTY);
    put_escaped(text, &mut out);
    out.pos
}

/// `text` escaped as JSON string content: what the derive writes for a description it can only
/// name as an expression (`#[doc = include_str!("..")]`). `N` is [`escaped_len`].
#[doc(hidden)]
pub const fn escaped<const N: usize>(text: &str) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut out = Out::new(&mut buf, false, &Entries::EMPTY);
    put_escaped(text, &mut out);
    buf
}

/// A doc text read from an expression, without the white space around it.
#[doc(hidden)]
pub const fn trim_doc(text: &'static str) -> &'static str {
    text.trim_ascii()
}
