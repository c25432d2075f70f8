//! Lists over the types a derive names, one function per length: what a struct's consts say of
//! each type it holds (its schema between the literal text, its facts, whether
//! it has constraints to check), and its `check_constraints`.
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

use crate::parse::constraints::Violation;
use crate::schema::ToolSchema;
use crate::schema::facts::Kid;
use crate::schema::rope::Rope;

macro_rules! lists {
    ($($n:literal: $seq:ident $kids:ident $checks:ident [$($t:ident $i:tt),+];)+) => {$(
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

        /// The constraints of each named field's value, in order: the first violation, its
        /// path within the field.
        pub fn $checks<$($t: ToolSchema),+>(
            values: ($(&$t,)+),
            names: [&'static str; $n],
        ) -> Result<(), Violation> {
            $(
                if let Err(violation) = $t::check_nested(values.$i) {
                    return Err(violation.within_field(names[$i]));
                }
            )+
            Ok(())
        }
    )+};
}

lists! {
    1: seq1 kids1 check_fields1 [A 0];
    2: seq2 kids2 check_fields2 [A 0, B 1];
    3: seq3 kids3 check_fields3 [A 0, B 1, C 2];
    4: seq4 kids4 check_fields4 [A 0, B 1, C 2, D 3];
    5: seq5 kids5 check_fields5 [A 0, B 1, C 2, D 3, E 4];
    6: seq6 kids6 check_fields6 [A 0, B 1, C 2, D 3, E 4, F 5];
    7: seq7 kids7 check_fields7 [A 0, B 1, C 2, D 3, E 4, F 5, G 6];
    8: seq8 kids8 check_fields8 [A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7];
    9: seq9 kids9 check_fields9 [A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8];
    10: seq10 kids10 check_fields10 [A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9];
    11: seq11 kids11 check_fields11
        [A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10];
    12: seq12 kids12 check_fields12
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

    /// A type whose values are checked: `Positive(n)` needs `n > 0`.
    struct Positive(i64);

    impl crate::schema::Sealed for Positive {}
    impl ToolSchema for Positive {
        const SCHEMA: Rope = Rope::Str("{\"type\":\"integer\",\"minimum\":1}");
        const FACTS: &'static crate::schema::facts::Facts =
            &crate::schema::facts::Facts::NONE.constrained();
        fn check_constraints(&self) -> Result<(), Violation> {
            crate::parse::constraints::check_range(Some(self.0 as f64), Some(1.0), None)
        }
    }

    /// The first field that fails is reported, under its name.
    #[test]
    fn field_checks_stop_at_the_first_violation_with_its_name() {
        let ok = check_fields2((&Positive(1), &String::new()), ["a", "b"]);
        assert!(ok.is_ok());
        let bad = check_fields3((&Positive(1), &Positive(0), &Positive(-1)), ["a", "b", "c"]);
        let violation = bad.expect_err("the second field is out of range");
        let shown = format!("{violation:?}");
        assert!(
            shown.contains("Key(\"b\")") && !shown.contains("Key(\"c\")"),
            "{shown}"
        );
    }
}
