//! The official Python MCP SDK, for the tests that talk to it (`tests/mcp*.py`), and how a test
//! serves a client process over its stdio.

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

/// Serves `server` to `program` run with `args`, an MCP client over its stdin and stdout (a
/// script of the Python or TypeScript SDK): it must end within a minute, saying on stderr that
/// all its checks passed.
#[allow(dead_code)] // (Not every test file that has this module serves a client process.)
pub async fn serve_client<S>(server: S, program: &str, args: &[&str])
where
    S: toolgen::rmcp::ServerHandler,
{
    use toolgen::rmcp::ServiceExt;

    let mut child = spawn_client(program, args);
    let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    tokio::spawn(async move {
        if let Ok(running) = server.serve(transport).await {
            let _ = running.waiting().await;
        }
    });
    passes(child).await;
}

/// Waits for `child`, a client script of an SDK (its stderr piped): it must end within a
/// minute, saying on stderr that all its checks passed.
#[allow(dead_code)] // (Not every test file that has this module runs a client process.)
pub async fn passes(child: tokio::process::Child) {
    let wait = child.wait_with_output();
    let output = tokio::time::timeout(std::time::Duration::from_secs(60), wait)
        .await
        .expect("the client ends within a minute")
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("all checks passed"), "{stderr}");
}

/// `program` run with `args`, a client whose stdin, stdout and stderr are piped, killed when
/// dropped.
#[allow(dead_code)] // (Not every test file that has this module runs a client process.)
pub fn spawn_client(program: &str, args: &[&str]) -> tokio::process::Child {
    spawn(program, args, std::process::Stdio::piped())
}

/// `program` run with `args`, a server over its stdin and stdout (piped; its stderr dropped),
/// killed when dropped.
#[allow(dead_code)] // (Not every test file that has this module runs a server process.)
pub fn spawn_server(program: &str, args: &[&str]) -> tokio::process::Child {
    spawn(program, args, std::process::Stdio::null())
}

/// `program` run with `args`, its stdin and stdout piped and its stderr to `stderr`, killed
/// when dropped.
#[allow(dead_code)] // (Unused where neither of the above is.)
fn spawn(program: &str, args: &[&str], stderr: std::process::Stdio) -> tokio::process::Child {
    tokio::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(stderr)
        .kill_on_drop(true)
        .spawn()
        .unwrap()
}
