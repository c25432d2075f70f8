//! Compile-time errors of the derives, each with its expected `.stderr` (trybuild), and inputs that
//! look odd but must compile.
//!
//! `tests/ui/<family>/<case>.rs`: one error family per directory; `tests/ui/pass/` holds the cases
//! that must compile and run. Regenerate with `TRYBUILD=overwrite cargo test --test ui`, then read
//! every changed `.stderr` as a user would.

use std::fs;

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    let mut families: Vec<String> = fs::read_dir("tests/ui")
        .expect("tests/ui exists")
        .map(|entry| entry.expect("readable tests/ui entry"))
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|family| family != "pass")
        .collect();
    families.sort();
    for family in families {
        t.compile_fail(format!("tests/ui/{family}/*.rs"));
    }
    t.pass("tests/ui/pass/*.rs");
}
