//! The build-time half of strict mode: a tool's [`Facts`] checked against each dialect's rule
//! table ([`Rules`]), in const evaluation, field by field, with the path of the first problem.
//! A problem is the build error of a strict tool (or of a Gemini `parameters` tool, or of a
//! structured answer), spanned at the field.
//!
//! This module runs in const evaluation on the program's own types; its panics are the build
//! errors of strict tools, so the runtime's no-panic lints do not apply to it.
#![allow(clippy::indexing_slicing, clippy::panic)]

use crate::dialect::rules::{Limits, Rules};
use crate::dialect::{Dialect, Rule};
use crate::schema::facts::{BEHIND, Facts, Kid, Via};
use crate::schema::rope::{DefId, def_eq, str_eq};

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
/// The modes `#[tool(strict)]` sets: OpenAI's and Anthropic's strict modes.
pub(crate) const STRICT: u8 = OPENAI | ANTHROPIC;

/// The rules a dialect checks on every node, in the order they are reported: its table's.
const fn rules(dialect: Dialect) -> &'static [(Rule, u16)] {
    Rules::of(dialect).refused
}

/// The dialects a tool can insist on, with the bit of its modes that asks for each (their rule
/// tables'), in [`Dialect::ALL`]'s order, the order problems are reported in.
const DIALECTS: [(u8, Dialect); 3] = {
    let mut found = [(0, Dialect::Standard); 3];
    let (mut d, mut n) = (0, 0);
    while d < Dialect::ALL.len() {
        let dialect = Dialect::ALL[d];
        let mode = Rules::of(dialect).mode;
        if mode != 0 {
            // A dialect added with a mode of its own needs a place here: the build stops.
            found[n] = (mode, dialect);
            n += 1;
        }
        d += 1;
    }
    found
};

/// The modes of the dialects whose tables limit a whole schema (OpenAI strict mode), and of
/// those whose build-time check follows `$ref`s: a field's check tests them as bits.
const LIMITED: u8 = modes_where(true);
const FOLLOWING: u8 = modes_where(false);

/// The modes of the dialects in [`DIALECTS`] whose table has limits (`limits`), else follows
/// `$ref`s.
const fn modes_where(limits: bool) -> u8 {
    let mut modes = 0;
    let mut d = 0;
    while d < DIALECTS.len() {
        let (bit, dialect) = DIALECTS[d];
        let rules = Rules::of(dialect);
        if (limits && rules.limits.is_some()) || (!limits && rules.follows_refs) {
            modes |= bit;
        }
        d += 1;
    }
    modes
}

/// The limits of the dialects that have any (OpenAI strict mode alone): one set, read as
/// constants by every field's check. Dialects with different limits stop this crate's build.
const LIMITS: Limits = {
    let mut found = None;
    let mut d = 0;
    while d < DIALECTS.len() {
        let (_, dialect) = DIALECTS[d];
        match (found, Rules::of(dialect).limits) {
            (
                Some(Limits {
                    properties,
                    depth,
                    enum_values,
                    text,
                }),
                Some(other),
            ) if properties != other.properties
                || depth != other.depth
                || enum_values != other.enum_values
                || text != other.text =>
            {
                panic!("the dialects with limits have the same limits")
            }
            (_, Some(limits)) => found = Some(limits),
            (_, None) => {}
        }
        d += 1;
    }
    match found {
        Some(limits) => limits,
        // No dialect limits anything: nothing is counted against these.
        None => Limits {
            properties: u32::MAX,
            depth: u32::MAX,
            enum_values: u32::MAX,
            text: u32::MAX,
        },
    }
};
const MAX_PROPERTIES: u32 = LIMITS.properties;
const MAX_DEPTH: u32 = LIMITS.depth;
const MAX_ENUM_VALUES: u32 = LIMITS.enum_values;
const MAX_TEXT: u32 = LIMITS.text;

/// How much of a path is kept.
const PATH_BYTES: usize = 200;

/// Text written in const evaluation into `N` bytes: a piece that would overflow them is left
/// out whole, so what is kept is whole pieces (path segments, words), always UTF-8.
#[derive(Clone, Copy)]
pub(crate) struct Text<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Text<N> {
    const EMPTY: Text<N> = Text {
        bytes: [0; N],
        len: 0,
    };

    pub(crate) const fn new() -> Text<N> {
        Text::EMPTY
    }

    /// What is written.
    const fn as_bytes(&self) -> &[u8] {
        self.bytes.split_at(self.len).0
    }

    /// What is written, as text.
    pub(crate) const fn text(&self) -> &str {
        match core::str::from_utf8(self.as_bytes()) {
            Ok(text) => text,
            Err(_) => "toolgen: a strict dialect cannot express this type",
        }
    }

    pub(crate) const fn put(&mut self, text: &str) {
        self.put_bytes(text.as_bytes());
    }

    const fn put_bytes(&mut self, bytes: &[u8]) {
        if self.len + bytes.len() > N {
            return;
        }
        let mut i = 0;
        while i < bytes.len() {
            self.bytes[self.len + i] = bytes[i];
            i += 1;
        }
        self.len += bytes.len();
    }

    const fn same(&self, other: &Text<N>) -> bool {
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

/// A JSON path being built (`cards[].meta`), cut at [`PATH_BYTES`] on a segment boundary.
type Path = Text<PATH_BYTES>;

impl Path {
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
}

/// Whether a dialect in `modes` has a problem with the node at `level` or inside it (a quick
/// test of bits before any path is looked for).
const fn refused(facts: &Facts, level: u32, modes: u8) -> bool {
    facts.all & REFUSED[(modes & (OPENAI | ANTHROPIC | GEMINI)) as usize] != 0
        || (modes & LIMITED != 0 && too_deep(facts, level))
        || (modes & FOLLOWING != 0 && facts.all & BEHIND != 0)
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
    if Rules::of(dialect).limits.is_some() {
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

/// `dialect`'s first problem (a dialect that takes `$ref`s: OpenAI strict mode) with the
/// types that lead back ([`BEHIND`]) in `facts` (at `path`, through the kids `only` lets
/// through), each looked into once: each as
/// the definition it is written as, counted from its own root, and named by the field that
/// leads to it.
const fn behind_problem(
    dialect: Dialect,
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
                    let found = problem(dialect, target.facts, 0, &walk.path, None);
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
const STRICT_ANSWER: u8 = STRICT | ANSWER;

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
    refused(tool, 0, modes) || (modes & LIMITED != 0 && totals(tool).is_some())
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
            if found[d].is_none() && Rules::of(dialect).follows_refs && facts.all & BEHIND != 0 {
                found[d] = behind_problem(dialect, facts, path, only, &mut Seen::new());
            }
            if found[d].is_none()
                && whole
                && Rules::of(dialect).limits.is_some()
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
pub(crate) type Message = Text<MESSAGE_BYTES>;

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
        && str_eq(
            Rules::of(a.dialect).attribute,
            Rules::of(b.dialect).attribute,
        )
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
        (None, dialect) => {
            message.put(Rules::of(dialect).attribute);
            message.put(": ");
        }
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
        message.put_bytes(problem.path.as_bytes());
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
    Some((found.rule, found.path.text().to_owned()))
}
