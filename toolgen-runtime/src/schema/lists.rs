//! Lists over the types a derive names, one function per length: what a struct's consts say of
//! each type it holds (its schema between the literal text, its facts).
//!
//! Written out, each entry is an expression of its own in every const of every type
//! (`Kid::property("a", <A as ToolSchema>::FACTS)`), which rustc type-checks, builds and
//! borrow-checks there. A call of one of these generic functions is one expression: the list is
//! checked once, here. Written out, a list of three fields (of the former parse-plan
//! const) cost about 2.9 M instructions to compile; the call alone, about 1.0 M (the names in front, below, add some of it back;
//! `benches/compile_time.sh` measures the whole).
//!
//! A type without a schema would then be reported at each call too, with the function's bound
//! as a note: a second diagnostic for one problem. So the derive names each type's
//! `SCHEMA` or `FACTS` first where it calls one of these (`let _ = ..;`): rustc reports the type
//! once there, as everywhere else, and not again for the call at the same place.
//!
//! Lengths 1 to 12 have a function; longer lists are written out.

use crate::schema::ToolSchema;
use crate::schema::facts::Kid;
use crate::schema::rope::Rope;

macro_rules! lists {
    ($($n:literal: $seq:ident $kids:ident [$($t:ident $i:tt),+];)+) => {$(
        /// A sequence of `text` with each type's schema between two of its pieces: `text[0]`,
        /// the first type's schema, `text[1]`, .. `text[n]`.
        pub const fn $seq<$($t: ToolSchema + ?Sized),+>(
            text: [&'static str; $n + 1],
        ) -> [Rope; 2 * $n + 1] {
            [$(Rope::Str(text[$i]), $t::SCHEMA,)+ Rope::Str(text[$n])]
        }

        /// The kids of an object's facts: each named property has its type's facts.
        pub const fn $kids<$($t: ToolSchema + ?Sized),+>(names: [&'static str; $n]) -> [Kid; $n] {
            [$(Kid::property(names[$i], $t::FACTS)),+]
        }
    )+};
}

lists! {
    1: seq1 kids1 [A 0];
    2: seq2 kids2 [A 0, B 1];
    3: seq3 kids3 [A 0, B 1, C 2];
    4: seq4 kids4 [A 0, B 1, C 2, D 3];
    5: seq5 kids5 [A 0, B 1, C 2, D 3, E 4];
    6: seq6 kids6 [A 0, B 1, C 2, D 3, E 4, F 5];
    7: seq7 kids7 [A 0, B 1, C 2, D 3, E 4, F 5, G 6];
    8: seq8 kids8 [A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7];
    9: seq9 kids9 [A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8];
    10: seq10 kids10 [A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9];
    11: seq11 kids11
        [A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10];
    12: seq12 kids12
        [A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11];
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lists are what the derive wrote out before, piece for piece.
    #[test]
    fn lists_hold_each_type_in_order() {
        const SEQ: [Rope; 5] = seq2::<String, Vec<u8>>(["{\"a\":", ",\"b\":", "}"]);
        let text = |rope: &Rope| match rope {
            Rope::Str(text) => Some(*text),
            _ => None,
        };
        assert_eq!(text(&SEQ[0]), Some("{\"a\":"));
        assert_eq!(text(&SEQ[2]), Some(",\"b\":"));
        assert_eq!(text(&SEQ[4]), Some("}"));
        assert!(matches!(SEQ[1], Rope::Typed("string", _)));
        assert!(matches!(SEQ[3], Rope::Typed("array", _)));

        type Map = std::collections::HashMap<String, u8>;
        const KIDS: [Kid; 2] = kids2::<Map, u8>(["m", "n"]);
        assert_eq!([KIDS[0].name, KIDS[1].name], ["m", "n"]);
        assert_ne!(KIDS[0].facts.own, 0, "a map's facts say it is one");
        assert_eq!(KIDS[1].facts.own, 0);
    }
}
