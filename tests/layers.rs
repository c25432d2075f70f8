//! The runtime's layers (README, "Layout"): each folder of `toolgen-runtime/src` uses only the
//! folders above it. This test reads every source file's `crate::` paths (comments left out) and
//! fails on a use of a folder below the file's own, naming the file and the path.
//!
//! The uses that break the table today are listed in `KNOWN`, each to be moved away (issue 52,
//! "Layers that hold"); the test also fails when one of them is gone, so that the list shrinks
//! with the code and never holds a pair that is no longer true.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// The folders (and top-level files) of `toolgen-runtime/src`, top layer first.
const LAYERS: &[&str] = &[
    "kept", "schema", "patch", "dialect", "provider", "parse", "tool", "wire", "output", "run",
    "mcp",
];

/// (user, used): the uses of a lower layer that the code still has.
const KNOWN: &[(&str, &str)] = &[];

fn layer(name: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == name)
}

/// The items `lib.rs` re-exports at the crate's root (`pub use wire::set::ToolSet;`), with the
/// folder each comes from: `crate::ToolSet` uses `wire` as `crate::wire::set::ToolSet` does.
fn reexports(lib: &str) -> Vec<(String, &'static str)> {
    let mut found = Vec::new();
    for statement in code_of(lib).split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some(from) = LAYERS.iter().find(|l| path.starts_with(&format!("{l}::"))) else {
            continue;
        };
        let names = match path.find('{') {
            Some(at) => &path[at + 1..],
            None => path.rsplit("::").next().unwrap_or(""),
        };
        for name in names.split([',', '}', ' ', '\n']) {
            let name = name.trim();
            if name.starts_with(|c: char| c.is_ascii_uppercase()) || name.ends_with("_json") {
                found.push((name.to_owned(), *from));
            }
        }
    }
    found
}

/// The first-level names a `crate::` path reaches: `crate::a::b` gives `a`, `crate::{a, b::c}`
/// gives `a` and `b`.
fn crate_paths(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        // `$crate::` in a macro, or `my_crate::` in a string, is not this crate.
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0usize;
            let mut item = String::new();
            let mut at_start = true;
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        at_start = true;
                        continue;
                    }
                    _ => {}
                }
                if depth == 0 && at_start {
                    if c.is_alphanumeric() || c == '_' {
                        item.push(c);
                    } else if !item.is_empty() {
                        found.push(std::mem::take(&mut item));
                        at_start = false;
                    }
                }
            }
            if !item.is_empty() {
                found.push(item);
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            found.push(name);
        }
    }
    found
}

/// The file's code without its comments (doc links name items without using them).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn visit(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("the runtime's sources") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            visit(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn each_runtime_folder_uses_only_those_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("toolgen-runtime/src");
    let mut files = Vec::new();
    visit(&src, &mut files);
    files.sort();
    assert!(files.len() > 50, "the runtime's sources were not found");

    let roots = reexports(&fs::read_to_string(src.join("lib.rs")).expect("lib.rs"));
    assert!(
        roots
            .iter()
            .any(|(name, from)| name == "ToolSet" && *from == "wire")
    );
    let mut seen = BTreeSet::new();
    let mut wrong = BTreeSet::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        let top = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .expect("a file name")
            .trim_end_matches(".rs");
        let Some(own) = layer(top) else {
            assert!(top == "lib", "{top}: not in LAYERS (README's layer table)");
            continue;
        };
        let text = fs::read_to_string(file).expect("a source file");
        for used in crate_paths(&code_of(&text)) {
            let root = roots.iter().find(|(name, _)| *name == used);
            let Some(theirs) = layer(root.map_or(used.as_str(), |(_, from)| from)) else {
                continue;
            };
            if theirs > own {
                seen.insert((LAYERS[own], LAYERS[theirs]));
                if !KNOWN.contains(&(LAYERS[own], LAYERS[theirs])) {
                    wrong.insert(format!(
                        "{}: uses `crate::{used}`, a layer below `{top}` (README, \"Layout\")",
                        relative.display()
                    ));
                }
            }
        }
    }
    let wrong: Vec<_> = wrong.into_iter().collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let gone: Vec<_> = KNOWN.iter().filter(|pair| !seen.contains(pair)).collect();
    assert!(
        gone.is_empty(),
        "no longer true, take them out of KNOWN: {gone:?}"
    );
}

#[test]
fn paths_are_read_from_groups_and_single_uses() {
    assert_eq!(
        crate_paths("use crate::{parse::x, tool::{A, B}, wire};\nlet a = crate::run::f();"),
        ["parse", "tool", "wire", "run"]
    );
    assert_eq!(
        crate_paths("\"my_crate::deep\" $crate::x"),
        Vec::<String>::new()
    );
    assert_eq!(
        code_of("let a = 1; // crate::mcp\n/// [x](crate::mcp)"),
        "let a = 1; \n"
    );
}
