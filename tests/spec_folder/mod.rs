//! Where the official specs are: the folder `TOOLGEN_SPECS` names (CI sets it to
//! `../shared/specs`; a relative path is taken from the crate root). Shared by the tests that
//! validate against them.

use std::path::PathBuf;

/// The spec folder, or `None` (with a note) when `test`'s checks are to be skipped: unset,
/// except under `CI=true`, where a missing folder fails.
pub fn specs_dir(test: &str) -> Option<PathBuf> {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let Some(dir) = std::env::var_os("TOOLGEN_SPECS") else {
        assert!(
            !ci,
            "CI=true but TOOLGEN_SPECS is unset: set it to the spec folder (../shared/specs)"
        );
        eprintln!("{test}: skipped, TOOLGEN_SPECS is unset (set it to ../shared/specs)");
        return None;
    };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    assert!(
        dir.is_dir(),
        "TOOLGEN_SPECS={} is not a folder",
        dir.display()
    );
    Some(dir)
}

/// A validator of the definition `name` (`JSONRPCMessage`, `ElicitRequestFormParams`, ..) of MCP
/// `version`'s schema, or `None` where the specs are not at hand.
#[allow(dead_code)] // (Not every test that has this module validates MCP messages.)
pub fn mcp_validator(version: &str, name: &str) -> Option<jsonschema::Validator> {
    let dir = specs_dir("MCP schema checks")?;
    let path = dir.join(format!("mcp-{version}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut spec: serde_json::Value = serde_json::from_str(&text).unwrap();
    let object = spec.as_object_mut().unwrap();
    let reference = serde_json::Value::from(format!("#/$defs/{name}"));
    object.insert("$ref".to_owned(), reference);
    Some(jsonschema::draft202012::new(&spec).unwrap())
}
