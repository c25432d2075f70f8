//! What the schema states and serde does not enforce (ranges, lengths, item counts, patterns,
//! formats), checked on the parsed value, with the JSON path of the value that breaks it.
//!
//! The generated `ToolSchema::check_constraints` calls these with the bounds from the same
//! `#[tool(..)]` attributes that wrote the schema's keywords.

use std::collections::BTreeMap;
use std::sync::RwLock;

use crate::kept::kept;
use crate::parse::args::{ArgsError, ArgsErrorKind};

/// A constraint a parsed value breaks, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct Violation {
    /// From the value outwards.
    segments: Vec<Segment>,
    message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    Key(String),
    Index(usize),
}

impl Violation {
    fn new(message: String) -> Self {
        Violation {
            segments: Vec::new(),
            message,
        }
    }

    /// A set item that repeats the item at `earlier`.
    pub(crate) fn repeated(earlier: usize) -> Self {
        Violation::new(format!(
            "repeats item {earlier}: the items of this list must all differ"
        ))
    }

    /// The violation, as found inside the property `name`.
    pub fn within_field(mut self, name: &str) -> Self {
        self.segments.push(Segment::Key(name.to_owned()));
        self
    }

    /// The violation, as found inside the item `index`.
    pub fn within_index(mut self, index: usize) -> Self {
        self.segments.push(Segment::Index(index));
        self
    }

    /// The path the way serde_path_to_error writes it: `flashcards[2].unit`.
    fn path(&self) -> String {
        let mut path = String::new();
        for segment in self.segments.iter().rev() {
            match segment {
                Segment::Key(key) => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(key);
                }
                Segment::Index(index) => path.push_str(&format!("[{index}]")),
            }
        }
        path
    }
}

impl From<Violation> for ArgsError {
    fn from(violation: Violation) -> Self {
        ArgsError::new(
            violation.path(),
            violation.message,
            ArgsErrorKind::Constraint,
        )
    }
}

/// What a constraint can measure on a value: a number, a text, or a count of items. Implemented
/// for the std types; implement it for a newtype to put `range`, `length`, `pattern` or `format`
/// on a field of that type.
///
/// ```
/// use toolgen::Constrained;
/// struct Meters(f64);
/// impl Constrained for Meters {
///     fn number(&self) -> Option<f64> { Some(self.0) }
/// }
/// assert_eq!(Meters(2.5).number(), Some(2.5));
/// ```
#[diagnostic::on_unimplemented(
    message = "toolgen cannot check `range`/`length`/`pattern`/`format` on `{Self}`",
    note = "implement `toolgen::Constrained` for it (say which number, text or item count the constraint is about)"
)]
pub trait Constrained {
    /// The number a `range` is about.
    fn number(&self) -> Option<f64> {
        None
    }
    /// The text a `length`, `pattern` or `format` is about.
    fn text(&self) -> Option<&str> {
        None
    }
    /// The item count a `length` is about.
    fn count(&self) -> Option<usize> {
        None
    }
}

macro_rules! numbers {
    ($($ty:ty),*) => {$(
        impl Constrained for $ty {
            fn number(&self) -> Option<f64> {
                // Precision beyond 2^53 is lost; bounds are attribute literals, far inside that.
                Some(*self as f64)
            }
        }
    )*};
}
numbers!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64
);

impl Constrained for str {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl Constrained for String {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl Constrained for std::path::PathBuf {
    fn text(&self) -> Option<&str> {
        self.to_str()
    }
}

macro_rules! delegate {
    ($($ty:ty),*) => {$(
        impl<T: Constrained + ?Sized> Constrained for $ty {
            fn number(&self) -> Option<f64> { (**self).number() }
            fn text(&self) -> Option<&str> { (**self).text() }
            fn count(&self) -> Option<usize> { (**self).count() }
        }
    )*};
}
delegate!(&T, Box<T>, std::rc::Rc<T>, std::sync::Arc<T>);

impl<T: Constrained + ToOwned + ?Sized> Constrained for std::borrow::Cow<'_, T> {
    fn number(&self) -> Option<f64> {
        (**self).number()
    }
    fn text(&self) -> Option<&str> {
        (**self).text()
    }
    fn count(&self) -> Option<usize> {
        (**self).count()
    }
}

impl<T: Constrained> Constrained for Option<T> {
    fn number(&self) -> Option<f64> {
        self.as_ref()?.number()
    }
    fn text(&self) -> Option<&str> {
        self.as_ref()?.text()
    }
    fn count(&self) -> Option<usize> {
        self.as_ref()?.count()
    }
}

macro_rules! counted {
    ($($ty:ty => $($param:ident),*;)*) => {$(
        impl<$($param),*> Constrained for $ty {
            fn count(&self) -> Option<usize> {
                Some(self.len())
            }
        }
    )*};
}
counted! {
    Vec<T> => T;
    [T] => T;
    std::collections::VecDeque<T> => T;
    std::collections::LinkedList<T> => T;
    std::collections::BinaryHeap<T> => T;
    std::collections::BTreeSet<T> => T;
    std::collections::HashSet<T, S> => T, S;
    std::collections::BTreeMap<K, V> => K, V;
    std::collections::HashMap<K, V, S> => K, V, S;
}

impl<T, const N: usize> Constrained for [T; N] {
    fn count(&self) -> Option<usize> {
        Some(N)
    }
}

fn show(bound: f64) -> String {
    // Bounds come from literals; show `5`, not `5.0`, for whole numbers.
    if bound.fract() == 0.0 && bound.abs() < 1e15 {
        format!("{}", bound as i64)
    } else {
        format!("{bound}")
    }
}

/// `#[tool(range(min, max))]`.
#[doc(hidden)]
pub fn check_range(
    value: Option<f64>,
    min: Option<f64>,
    max: Option<f64>,
) -> Result<(), Violation> {
    let Some(value) = value else { return Ok(()) };
    if let Some(min) = min
        && value < min
    {
        return Err(Violation::new(format!(
            "must be at least {}, not {value}",
            show(min)
        )));
    }
    if let Some(max) = max
        && value > max
    {
        return Err(Violation::new(format!(
            "must be at most {}, not {value}",
            show(max)
        )));
    }
    Ok(())
}

/// `#[tool(length(min, max))]`: characters (Unicode scalar values, as JSON Schema counts them) of
/// a text, or items of a collection.
#[doc(hidden)]
pub fn check_length<T: Constrained + ?Sized>(
    value: &T,
    min: Option<usize>,
    max: Option<usize>,
) -> Result<(), Violation> {
    let (count, unit) = match (value.text(), value.count()) {
        (Some(text), _) => (text.chars().count(), "character"),
        (None, Some(count)) => (count, "item"),
        (None, None) => return Ok(()),
    };
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    if let Some(min) = min
        && count < min
    {
        return Err(Violation::new(format!(
            "must have at least {min} {unit}{}, not {count}",
            plural(min)
        )));
    }
    if let Some(max) = max
        && count > max
    {
        return Err(Violation::new(format!(
            "must have at most {max} {unit}{}, not {count}",
            plural(max)
        )));
    }
    Ok(())
}

/// `#[tool(pattern)]`: the text must contain a match (JSON Schema patterns are not anchored).
/// The macro has already checked that the pattern parses; it is compiled at its first check
/// ([`compiled`]).
#[doc(hidden)]
pub fn check_pattern(text: Option<&str>, pattern: &'static str) -> Result<(), Violation> {
    let Some(text) = text else { return Ok(()) };
    match compiled(pattern) {
        Some(regex) if !regex.is_match(text) => Err(Violation::new(format!(
            "must match the pattern `{pattern}`"
        ))),
        _ => Ok(()),
    }
}

/// The regex of a derived type's `#[tool(pattern)]`, compiled at its first use and kept for
/// the life of the program: one map for every pattern of every type (they are the program's
/// own literals, so it holds a few), where each pattern field kept a `static` of its own, which
/// cost its crate a codegen item to build. `None` for a pattern the `regex` crate refuses
/// (the macro's check makes that unlikely; such a pattern checks nothing, as before).
fn compiled(pattern: &'static str) -> Option<&'static regex::Regex> {
    static COMPILED: RwLock<BTreeMap<&'static str, &'static Option<regex::Regex>>> =
        RwLock::new(BTreeMap::new());
    kept(&COMPILED, pattern, || regex::Regex::new(pattern).ok()).as_ref()
}

/// `#[tool(format)]`.
#[doc(hidden)]
pub fn check_format(text: Option<&str>, format: &'static str) -> Result<(), Violation> {
    let Some(text) = text else { return Ok(()) };
    crate::parse::formats::check_format(format, text)
        .map_err(|reason| Violation::new(reason.to_owned()))
}

/// The outcome of a derived type's checks, each with its path: what `check_constraints` chains,
/// so that a struct's checks are one expression (no branch of the derive's own for rustc to
/// check in every crate).
///
/// Not public API (it is reached through `toolgen::__private`).
#[doc(hidden)]
#[derive(Debug)]
pub struct Checked(pub Result<(), Violation>);

impl Checked {
    /// The violation, as found inside the field `name`.
    #[inline]
    pub fn within_field(self, name: &str) -> Checked {
        Checked(self.0.map_err(|violation| violation.within_field(name)))
    }

    /// The violation, as found inside the item `index`.
    #[inline]
    pub fn within_index(self, index: usize) -> Checked {
        Checked(self.0.map_err(|violation| violation.within_index(index)))
    }

    /// This violation, else `next`'s: the first in order.
    #[inline]
    pub fn and(self, next: Checked) -> Checked {
        match self.0 {
            Ok(()) => next,
            Err(_) => self,
        }
    }

    /// The first violation, if any.
    #[inline]
    pub fn result(self) -> Result<(), Violation> {
        self.0
    }
}
