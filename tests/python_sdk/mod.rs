//! The official Python MCP SDK, for the tests that talk to it (`tests/mcp*.py`).

/// The Python interpreter with the official MCP SDK (`pip install mcp==2.3.0`): `TOOLGEN_PYTHON`,
/// or `python3`. `None` (the test, named by `what`, says it is skipped) where there is none; but
/// where `TOOLGEN_PYTHON` names one (as `.ci/run` does), it must work.
pub fn python_with_mcp(what: &str) -> Option<String> {
    let named = std::env::var("TOOLGEN_PYTHON").ok();
    let python = named.clone().unwrap_or_else(|| "python3".to_owned());
    let works = std::process::Command::new(&python)
        .args(["-c", "import mcp"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    match (works, named) {
        (true, _) => Some(python),
        (false, Some(named)) => panic!("TOOLGEN_PYTHON={named} cannot `import mcp`"),
        (false, None) => {
            eprintln!(
                "the Python SDK {what} test is skipped: `python3 -c \"import mcp\"` fails \
                 (`pip install mcp==2.3.0`, or set TOOLGEN_PYTHON)"
            );
            None
        }
    }
}
