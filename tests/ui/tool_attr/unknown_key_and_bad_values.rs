// An attribute with an unknown key still has its other keys read and checked: every problem of
// the build is reported at once (a name providers refuse, hints MCP does not read beside
// `read_only`, bounds that admit nothing, a length on a number).
use toolgen::Tool;

/// Does nothing.
#[derive(Tool, serde::Deserialize)]
#[tool(name = "bad name", descripton = "x", read_only, destructive)]
struct Nothing {
    #[tool(range(min = 5, max = 1), lenght(max = 3))]
    a: u8,
    #[tool(length(max = 3), exmaple = 2)]
    b: u8,
}

fn main() {}
