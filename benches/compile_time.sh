#!/usr/bin/env bash
# Compile time that `#[derive(toolgen::Tool)]` adds to a crate, compared with
# `#[derive(schemars::JsonSchema)]` on the same structs.
#
# Usage (from the repository root):
#
#     bash benches/compile_time.sh            # 5 paired runs, `cargo build` (dev profile)
#     RUNS=7 MODE=check bash benches/compile_time.sh
#     KEEP=1 bash benches/compile_time.sh     # keep the generated crates (path is printed)
#     TOOLGEN_PATH=/tmp/other-checkout bash benches/compile_time.sh   # measure another checkout
#     VARIANTS="toolgen toolgen-strict" bash benches/compile_time.sh   # some variants (and baseline)
#     COUNT=instructions STRUCTS=20 bash benches/compile_time.sh   # instructions, not seconds
#     COUNT=instructions VARIANTS="two-toolgen-set two-schemars+ two-rmcp" bash benches/compile_time.sh
#                                             # a crate's fixed cost: two tools (issue 33)
#
# It generates, in a temporary directory, crates that depend on this workspace by path and
# differ only in their derives, on 100 structs of 8 fields (String, Option<u32>, Vec<String>,
# bool, f64, a unit enum, Vec<Option<u32>>, a nested struct), each with a doc comment:
#
#   baseline   serde `Deserialize` only
#   toolgen    + `#[derive(toolgen::Tool)]` (`ToolSchema` on the enum and nested struct), and
#              `pub static ALL: [&str; 100]` holding every `INPUT_SCHEMA`, so the consts are
#              really evaluated
#   toolgen-defs  as toolgen, and `pub fn defs()` asking every tool for its definition text for
#              all five providers (`Tool::definition_json`)
#   toolgen-strict  as toolgen-defs, with `#[tool(strict)]` on every tool: the OpenAI and
#              Anthropic strict dialects are built and checked
#   schemars   + `#[derive(schemars::JsonSchema)]` instead
#   schemars+  as schemars, plus `pub fn all() -> Vec<Schema>` calling `schema_for!` on every
#              struct, i.e. what a user writes to get the schemas (generic code instantiated here)
#   toolgen-schemars1  as toolgen, with toolgen's `schemars1` feature (the derive also writes
#              `schemars::JsonSchema`), and the same `all()` as schemars+: schemars asked for
#              toolgen's schemas
#
# and a "rich" family on tools with a unit enum, a nested struct, an internally tagged enum,
# `Option`, `Vec`, defaults, `length` and `range` (`#[schemars(..)]` for schemars):
#
#   rich-baseline, rich-toolgen-defs, rich-toolgen-strict, rich-schemars+   as above
#
# and a "deep" family, where each tool holds a struct of its own (`ToolSchema`, twice: as a
# field and in a `Vec`) that holds the unit enum and the nested struct: a type of the user's
# that holds others, for which the derive finds whether they lead back to it:
#
#   deep-baseline, deep-toolgen-defs, deep-schemars+   as above
#
# and a "two" family, a crate's fixed cost: two small tools of three fields (a `String`, an
# `Option`, a `Vec`), with doc comments, as a user writes them (STRUCTS does not apply):
#
#   two-baseline, two-toolgen-defs, two-schemars+   as above
#   two-toolgen-set  as two-toolgen-defs, and `#[derive(ToolSet)]` on an enum of the two with
#              every provider's definitions and `parse_call`: what a user dispatching calls writes
#   two-toolgen-server  an MCP server of the two tools: a `Handler` (an async fn) for each, a
#              `#[derive(ToolSet)]` enum of the two, and `McpServer` serving it over stdio
#              (`server.serve(toolgen::mcp_stdio())`), as README's "Serving over MCP" writes it
#   two-toolgen-http  the same server over streamable HTTP (`server.serve_http(listener)`, a
#              tokio `TcpListener`)
#   two-rmcp   the same MCP server with rmcp's `#[tool_router(server_handler)]` and `#[tool]`
#              (rmcp 3.11, `macros` feature; schemars' derive on the argument types), served over
#              rmcp's stdio (`.serve(rmcp::transport::stdio())`)
#
# The "two" crates all depend on rmcp with its `macros` feature, on toolgen with its `mcp`
# feature and on tokio with `net`, to have the same dependencies.
#
# All crates have the same dependencies, share one target directory (under the temp dir), and
# are built once so the dependencies are prebuilt. Then, RUNS times, each crate in turn gets
# `touch src/lib.rs` and is rebuilt with CARGO_INCREMENTAL=0; the runs are interleaved (paired),
# so drift in machine load hits every crate alike. The table shows medians of wall-clock time and
# of CPU time (user+sys of cargo and rustc; steadier than wall-clock on a shared machine), and
# the median of the per-run differences to the baseline.
#
# COUNT=instructions runs each crate's `rustc` once under valgrind's callgrind instead, and
# reports the instructions it executed (the proc macros' included): the same count on a busy
# machine as on a quiet one, so two checkouts compare exactly (`TOOLGEN_PATH`) where CPU times
# differ by 10-20% from run to run here. It is about 50 times slower than a build: use fewer
# structs (STRUCTS=20 takes a few minutes for every crate).
#
# Not run by CI. Needs only crates already in the local cargo cache (it copies Cargo.lock and
# builds with --offline, falling back to a normal build if that fails).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export TOOLGEN_REPO="$(cd "${TOOLGEN_PATH:-$repo}" && pwd)"
export RUNS="${RUNS:-5}"
export MODE="${MODE:-build}"
export STRUCTS="${STRUCTS:-100}"
export KEEP="${KEEP:-0}"
export COUNT="${COUNT:-time}"

exec python3 - <<'PY'
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

repo = os.environ["TOOLGEN_REPO"]
runs = int(os.environ["RUNS"])
mode = os.environ["MODE"]
n = int(os.environ["STRUCTS"])
keep = os.environ["KEEP"] == "1"
count = os.environ["COUNT"]
if mode not in ("build", "check"):
    sys.exit("MODE must be build or check")
if count not in ("time", "instructions"):
    sys.exit("COUNT must be time or instructions")
if count == "time" and runs < 3:
    sys.exit("RUNS must be at least 3")
if count == "instructions" and shutil.which("valgrind") is None:
    sys.exit("COUNT=instructions needs valgrind")

VARIANTS = [
    "baseline", "toolgen", "toolgen-defs", "toolgen-strict", "schemars", "schemars+",
    "toolgen-schemars1",
    "rich-baseline", "rich-toolgen-defs", "rich-toolgen-strict", "rich-schemars+",
    "deep-baseline", "deep-toolgen-defs", "deep-schemars+",
    "two-baseline", "two-toolgen-defs", "two-toolgen-set", "two-toolgen-server", "two-toolgen-http",
    "two-schemars+", "two-rmcp",
]
VARIANTS = [v for v in VARIANTS if v in os.environ.get("VARIANTS", " ".join(VARIANTS)).split()]


def prefix(variant):
    """The family's prefix: "rich-", "deep-", "two-" or ""."""
    for p in ("rich-", "deep-", "two-"):
        if variant.startswith(p):
            return p
    return ""


for v in list(VARIANTS):
    base = prefix(v) + "baseline"
    if base not in VARIANTS:
        VARIANTS.insert(0, base)


def family(variant):
    """The baseline and the schemars+ crate a variant is compared with."""
    return prefix(variant) + "baseline", prefix(variant) + "schemars+"


def sizes():
    """What the crates hold, for the tables' headers."""
    kinds = [f"{n} structs x 8 fields" for v in VARIANTS if not v.startswith("two-")][:1]
    kinds += ["two tools x 3 fields" for v in VARIANTS if v.startswith("two-")][:1]
    return ", ".join(kinds)


def structs(variant):
    """How many tools the variant's crate has."""
    return 2 if variant.startswith("two-") else n


def crate_dir_name(variant):
    return "ct_" + variant.replace("+", "_plus").replace("-", "_")


def source_two(variant):
    """The "two" family: two small tools, as a user writes them."""
    kind = variant[len("two-"):]
    tool = kind.startswith("toolgen")
    js = kind.startswith("schemars") or kind == "rmcp"
    d = ["Deserialize"]
    if tool:
        d.append("toolgen::Tool")
    if js:
        d.append("schemars::JsonSchema")
    derive = "#[derive(" + ", ".join(d) + ")]"
    out = [
        "#![allow(dead_code)]",
        "use serde::Deserialize;",
        "",
        "/// Search the notes for a phrase.",
        derive,
        "pub struct SearchNotes {",
        "    /// The words to look for.",
        "    pub query: String,",
        "    /// How many notes to return at most.",
        "    pub limit: Option<u32>,",
        "    /// Only notes with all of these tags.",
        "    pub tags: Vec<String>,",
        "}",
        "",
        "/// Add a note to the notebook.",
        derive,
        "pub struct AddNote {",
        "    /// The note's title.",
        "    pub title: String,",
        "    /// The note's text, in Markdown.",
        "    pub body: Option<String>,",
        "    /// Tags to file the note under.",
        "    pub tags: Vec<String>,",
        "}",
        "",
    ]
    served = kind in ("toolgen-server", "toolgen-http")
    if tool and not served:
        out += [
            "pub static ALL: [&str; 2] = [",
            "    <SearchNotes as toolgen::Tool>::INPUT_SCHEMA,",
            "    <AddNote as toolgen::Tool>::INPUT_SCHEMA,",
            "];",
            "pub fn defs() -> Vec<&'static str> {",
            "    let mut all = Vec::new();",
            "    for p in toolgen::Provider::ALL {",
            "        all.push(<SearchNotes as toolgen::Tool>::definition_json(p));",
            "        all.push(<AddNote as toolgen::Tool>::definition_json(p));",
            "    }",
            "    all",
            "}",
        ]
    if kind == "toolgen-set":
        out += [
            "#[derive(toolgen::ToolSet)]",
            "pub enum Notes {",
            "    Search(SearchNotes),",
            "    Add(AddNote),",
            "}",
            "pub fn set_defs() -> Vec<serde_json::Value> {",
            "    toolgen::Provider::ALL.iter().map(|&p| <Notes as toolgen::ToolSet>::definitions(p)).collect()",
            "}",
            "pub fn handle(call: &toolgen::ToolCall) -> Result<usize, toolgen::ArgsError> {",
            "    Ok(match <Notes as toolgen::ToolSet>::parse_call(call)? {",
            "        Notes::Search(s) => s.query.len() + s.tags.len(),",
            "        Notes::Add(a) => a.title.len() + a.tags.len(),",
            "    })",
            "}",
        ]
    if served:
        serving = {
            "toolgen-server": "    server.serve(toolgen::mcp_stdio()).await?.waiting().await?;",
            "toolgen-http": "    server.serve_http(tokio::net::TcpListener::bind(\"127.0.0.1:0\").await?).await?;",
        }[kind]
        out += [
            "use toolgen::{Handler, Invocation, McpServer, Runner, ToolError};",
            "",
            "pub struct Notebook;",
            "",
            "impl Handler<Notebook> for SearchNotes {",
            "    type Output = String;",
            "    async fn handle(self, _: &Notebook, _: &Invocation<'_>) -> Result<String, ToolError> {",
            "        Ok(format!(\"{} {}\", self.query, self.tags.len()))",
            "    }",
            "}",
            "",
            "impl Handler<Notebook> for AddNote {",
            "    type Output = String;",
            "    async fn handle(self, _: &Notebook, _: &Invocation<'_>) -> Result<String, ToolError> {",
            "        Ok(format!(\"{} {}\", self.title, self.tags.len()))",
            "    }",
            "}",
            "",
            "#[derive(toolgen::ToolSet)]",
            "pub enum Notes {",
            "    SearchNotes(SearchNotes),",
            "    AddNote(AddNote),",
            "}",
            "",
            "pub async fn serve() -> Result<(), Box<dyn std::error::Error>> {",
            "    let server = McpServer::new(Runner::<Notes, Notebook>::new(Notebook), \"notebook\", \"1.0.0\");",
            serving,
            "    Ok(())",
            "}",
        ]
    if kind == "schemars+":
        out += [
            "pub fn all() -> Vec<schemars::Schema> {",
            "    vec![schemars::schema_for!(SearchNotes), schemars::schema_for!(AddNote)]",
            "}",
        ]
    if kind == "rmcp":
        out += [
            "use rmcp::handler::server::wrapper::Parameters;",
            "use rmcp::{ServiceExt, tool, tool_router};",
            "",
            "#[derive(Clone)]",
            "pub struct Notebook {",
            "    tool_router: rmcp::handler::server::router::tool::ToolRouter<Self>,",
            "}",
            "",
            "#[tool_router(server_handler)]",
            "impl Notebook {",
            "    /// Search the notes for a phrase.",
            "    #[tool]",
            "    async fn search_notes(&self, Parameters(s): Parameters<SearchNotes>) -> String {",
            "        format!(\"{} {}\", s.query, s.tags.len())",
            "    }",
            "",
            "    /// Add a note to the notebook.",
            "    #[tool]",
            "    async fn add_note(&self, Parameters(a): Parameters<AddNote>) -> String {",
            "        format!(\"{} {}\", a.title, a.tags.len())",
            "    }",
            "}",
            "",
            "pub async fn serve() -> Result<(), Box<dyn std::error::Error>> {",
            "    let server = Notebook { tool_router: Notebook::tool_router() };",
            "    server.serve(rmcp::transport::stdio()).await?.waiting().await?;",
            "    Ok(())",
            "}",
        ]
    return "\n".join(out) + "\n"


def source(variant):
    if variant.startswith("two-"):
        return source_two(variant)
    rich = variant.startswith("rich-")
    deep = variant.startswith("deep-")
    kind = variant[len(prefix(variant)):]
    tool = kind.startswith("toolgen")
    strict = kind == "toolgen-strict"
    defs = kind in ("toolgen-defs", "toolgen-strict")
    js = kind.startswith("schemars")
    out = ["#![allow(dead_code)]", "use serde::Deserialize;", ""]

    def derives(what):
        d = ["Deserialize"]
        if tool:
            d.append("toolgen::Tool" if what == "tool" else "toolgen::ToolSchema")
        if js:
            d.append("schemars::JsonSchema")
        return "#[derive(" + ", ".join(d) + ")]"

    def constraint(kind_, args):
        # The same constraint, in each crate's attribute.
        if tool:
            return [f"    #[tool({kind_}({args}))]"]
        if js:
            return [f"    #[schemars({kind_}({args}))]"]
        return []

    out += [
        "/// How urgent the item is.",
        derives("schema"),
        '#[serde(rename_all = "lowercase")]',
        "pub enum Level {",
        "    Low,",
        "    Medium,",
        "    High,",
        "}",
        "",
        "/// A point on the page.",
        derives("schema"),
        "pub struct Nested {",
        "    /// Horizontal position.",
        "    pub x: f64,",
        "    /// Vertical position.",
        "    pub y: f64,",
        "    pub label: Option<String>,",
        "}",
        "",
    ]
    if rich:
        out += [
            "/// What to draw.",
            derives("schema"),
            '#[serde(tag = "kind", rename_all = "snake_case")]',
            "pub enum Shape {",
            "    /// A circle.",
            "    Circle { radius: f64 },",
            "    /// A square.",
            "    Square { side: f64 },",
            "    /// Some text.",
            "    Label { text: String, at: Nested },",
            "}",
            "",
        ]
    for i in range(n):
        if deep:
            out += [
                f"/// Part {i} of a drawing.",
                derives("schema"),
                f"pub struct Part{i} {{",
                "    pub name: String,",
                "    pub level: Level,",
                "    pub at: Nested,",
                "    pub path: Vec<Nested>,",
                "}",
                "",
            ]
        out += [
            f"/// Tool number {i}: does thing {i} with the given inputs.",
            derives("tool"),
            *(["#[tool(strict)]"] if strict else []),
            f"pub struct Tool{i} {{",
            f"    /// The name of thing {i}.",
        ]
        if deep:
            out += [
                "    pub title: String,",
                f"    pub part: Part{i},",
                f"    pub parts: Vec<Part{i}>,",
                "    pub note: Option<String>,",
                "}",
                "",
            ]
        elif rich:
            out += [
                *constraint("length", "min = 1, max = 80"),
                "    pub title: String,",
                "    /// How many, 0 to 10.",
                *constraint("range", "min = 0, max = 10"),
                "    #[serde(default)]",
                "    pub count: u8,",
                "    pub level: Level,",
                "    pub at: Nested,",
                "    /// What to draw.",
                "    pub shape: Shape,",
                "    pub tags: Vec<String>,",
                "    pub note: Option<String>,",
                "    #[serde(default)]",
                "    pub pinned: bool,",
                "}",
                "",
            ]
        else:
            out += [
                "    pub name: String,",
                "    /// How many, if known.",
                "    pub count: Option<u32>,",
                "    pub tags: Vec<String>,",
                "    pub enabled: bool,",
                "    /// A score between 0 and 1.",
                "    pub score: f64,",
                "    pub level: Level,",
                "    pub slots: Vec<Option<u32>>,",
                "    pub at: Nested,",
                "}",
                "",
            ]
    if tool:
        out.append(f"pub static ALL: [&str; {n}] = [")
        out += [f"    <Tool{i} as toolgen::Tool>::INPUT_SCHEMA," for i in range(n)]
        out.append("];")
    if defs:
        # Every definition of every tool, for all five providers (built at first use).
        out.append("pub fn defs() -> Vec<&'static str> {")
        out.append("    let mut all = Vec::new();")
        out.append("    for p in toolgen::Provider::ALL {")
        out += [f"        all.push(<Tool{i} as toolgen::Tool>::definition_json(p));" for i in range(n)]
        out.append("    }")
        out.append("    all")
        out.append("}")
    if kind in ("schemars+", "toolgen-schemars1"):
        out.append("pub fn all() -> Vec<schemars::Schema> {")
        out.append("    vec![")
        out += [f"        schemars::schema_for!(Tool{i})," for i in range(n)]
        out.append("    ]")
        out.append("}")
    return "\n".join(out) + "\n"


def manifest(variant):
    # The "two" family also depends on rmcp (for two-rmcp), serde_json (for a set's
    # definitions), toolgen's `mcp` and tokio (for two-toolgen-server and -http), all of its
    # crates alike.
    two = (
        'serde_json = "1"\n'
        'tokio = { version = "1", features = ["net"] }\n'
        'rmcp = { version = "3.11", default-features = false, features = ["server", "macros", "transport-io"] }\n'
        if variant.startswith("two-")
        else ""
    )
    features = ', features = ["schemars1"]' if variant.endswith("schemars1") else ""
    if variant.startswith("two-"):
        features = ', features = ["mcp"]'
    return f"""[package]
name = "{crate_dir_name(variant)}"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
serde = {{ version = "1", features = ["derive"] }}
toolgen = {{ path = "{repo}"{features} }}
schemars = "1.2.3"
{two}
[workspace]
"""


# A `RUSTC_WRAPPER` that runs rustc under callgrind for the benchmark crates (`ct_*`) and
# appends "<crate> <instructions>" to the file named by TOOLGEN_IR_OUT.
WRAPPER = r"""#!/bin/sh
rustc="$1"; shift
case " $* " in
*" --crate-name ct_"*)
    out="$(mktemp)"
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$rustc" "$@" 2>"$out.log"
    rc=$?
    name="$(echo " $* " | sed -n 's/.* --crate-name \(ct_[a-z0-9_]*\) .*/\1/p')"
    ir="$(grep -o 'Collected : [0-9]*' "$out.log" | awk '{print $3}')"
    if [ "$rc" -ne 0 ]; then cat "$out.log" >&2; fi
    echo "$name $ir" >> "$TOOLGEN_IR_OUT"
    rm -f "$out" "$out.log"
    exit $rc;;
*) exec "$rustc" "$@";;
esac
"""


def cargo(crate, target, extra=(), quiet=True, wrapper=None):
    env = dict(os.environ, CARGO_TARGET_DIR=target, CARGO_INCREMENTAL="0")
    if wrapper:
        env["RUSTC_WRAPPER"] = wrapper
    env.pop("RUSTFLAGS", None)
    cmd = ["cargo", mode, *extra]
    res = subprocess.run(
        cmd,
        cwd=crate,
        env=env,
        stdout=subprocess.DEVNULL if quiet else None,
        stderr=subprocess.PIPE if quiet else None,
        text=True,
    )
    return res


def whole_crate(metric, what):
    """The "two" family's crates whole, against rmcp's and schemars' (the issue's comparison)."""
    value = {v: statistics.median(x) if isinstance(x, list) else x for v, x in metric.items()}
    others = [v for v in ("two-rmcp", "two-schemars+") if v in value]
    mine = [v for v in VARIANTS if v.startswith("two-toolgen")]
    if not others or not mine:
        return
    print()
    print(f"two tools, the whole crate's {what}, against:")
    print()
    print("| crate | " + " | ".join(others) + " |")
    print("|---|" + "---|" * len(others))
    for v in mine:
        print(f"| {v} | " + " | ".join(f"{value[v] / value[o]:.2f}x" for o in others) + " |")


tmp = tempfile.mkdtemp(prefix="toolgen-compile-time-")
target = os.path.join(tmp, "target")
try:
    crates = {}
    for v in VARIANTS:
        d = os.path.join(tmp, crate_dir_name(v))
        os.makedirs(os.path.join(d, "src"))
        with open(os.path.join(d, "Cargo.toml"), "w") as f:
            f.write(manifest(v))
        with open(os.path.join(d, "src", "lib.rs"), "w") as f:
            f.write(source(v))
        lock = os.path.join(repo, "Cargo.lock")
        if os.path.exists(lock):
            shutil.copy(lock, os.path.join(d, "Cargo.lock"))
        crates[v] = d

    print(f"generated {len(VARIANTS)} crates ({sizes()}) in {tmp}, toolgen from {repo}", flush=True)
    print("prebuilding dependencies (first build of each crate)...", flush=True)
    offline = True
    for v in VARIANTS:
        res = cargo(crates[v], target, ["--offline"] if offline else [])
        if res.returncode != 0 and offline:
            offline = False
            res = cargo(crates[v], target)
        if res.returncode != 0:
            sys.stderr.write(res.stderr)
            sys.exit(f"first build of {v} failed")

    extra = ["--offline"] if offline else []
    if count == "instructions":
        wrapper = os.path.join(tmp, "callgrind-rustc.sh")
        with open(wrapper, "w") as f:
            f.write(WRAPPER)
        os.chmod(wrapper, 0o755)
        ir_out = os.path.join(tmp, "instructions.txt")
        os.environ["TOOLGEN_IR_OUT"] = ir_out
        ir = {}
        for v in VARIANTS:
            os.utime(os.path.join(crates[v], "src", "lib.rs"))
            open(ir_out, "w").close()
            res = cargo(crates[v], target, extra, wrapper=wrapper)
            if res.returncode != 0:
                sys.stderr.write(res.stderr)
                sys.exit(f"build of {v} failed")
            with open(ir_out) as f:
                counts = [int(line.split()[1]) for line in f if len(line.split()) == 2]
            if len(counts) != 1:
                sys.exit(f"no instruction count for {v}")
            ir[v] = counts[0]
            print(f"{v}: {ir[v]:,} instructions", flush=True)
        print()
        print(
            f"cargo {mode}, CARGO_INCREMENTAL=0, {sizes()}: instructions rustc "
            "executed for the crate (callgrind), proc macros included"
        )
        print("extra vs schemars+: (crate - baseline) / (schemars+ - baseline), same family.")
        print()
        print("| crate | instructions (M) | extra (M) | extra per struct (M) | extra vs schemars+ |")
        print("|---|---|---|---|---|")
        for v in VARIANTS:
            base, js = family(v)
            if v == base:
                print(f"| {v} | {ir[v] / 1e6:.0f} | – | – | – |")
                continue
            e = ir[v] - ir[base]
            ratio = "–"
            if js in VARIANTS and ir[js] > ir[base]:
                ratio = f"{e / (ir[js] - ir[base]):.2f}x"
            print(
                f"| {v} | {ir[v] / 1e6:.0f} | {e / 1e6:+.0f} | {e / structs(v) / 1e6:+.2f} | {ratio} |"
            )
        whole_crate(ir, "instructions")
        sys.exit(0)
    wall = {v: [] for v in VARIANTS}
    cpu = {v: [] for v in VARIANTS}
    for r in range(runs):
        for v in VARIANTS:
            os.utime(os.path.join(crates[v], "src", "lib.rs"))
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            res = cargo(crates[v], target, extra)
            t1 = time.perf_counter()
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            if res.returncode != 0:
                sys.stderr.write(res.stderr)
                sys.exit(f"build of {v} failed")
            wall[v].append(t1 - t0)
            cpu[v].append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
        print(
            f"run {r + 1}/{runs} (wall/cpu s): "
            + ", ".join(f"{v} {wall[v][-1]:.2f}/{cpu[v][-1]:.2f}" for v in VARIANTS),
            flush=True,
        )

    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print()
    print(
        f"cargo {mode}, CARGO_INCREMENTAL=0, {sizes()}, {runs} paired runs, "
        f"load average at the end {load}"
    )
    print(
        "wall: wall-clock of `cargo build` after `touch src/lib.rs` (includes cargo's own, "
        "constant, overhead);"
    )
    print(
        "cpu: user+sys time of cargo and rustc, less sensitive to other load on the machine;"
    )
    print("extra: median over runs of (crate - baseline) in the same run.")
    print()
    print("extra cpu vs schemars+: (crate - baseline) / (schemars+ - baseline), same family.")
    print()
    print(
        "| crate | wall median s | cpu median s | extra wall s | extra cpu s "
        "| extra cpu per struct ms | cpu vs baseline | extra cpu vs schemars+ |"
    )
    print("|---|---|---|---|---|---|---|---|")

    def extra(v, metric):
        base, _ = family(v)
        return statistics.median(a - b for a, b in zip(metric[v], metric[base]))

    for v in VARIANTS:
        base, js = family(v)
        wm, cm = statistics.median(wall[v]), statistics.median(cpu[v])
        if v == base:
            print(f"| {v} | {wm:.2f} | {cm:.2f} | – | – | – | 1.00x | – |")
            continue
        ew, ec = extra(v, wall), extra(v, cpu)
        ratio = "–"
        if js in VARIANTS and extra(js, cpu) > 0:
            ratio = f"{ec / extra(js, cpu):.2f}x"
        base_cpu = statistics.median(cpu[base])
        print(
            f"| {v} | {wm:.2f} | {cm:.2f} | {ew:+.2f} | {ec:+.2f} | "
            f"{ec / structs(v) * 1000:+.1f} | {cm / base_cpu:.2f}x | {ratio} |"
        )
    whole_crate(cpu, "CPU time (medians)")
finally:
    if keep:
        print(f"\nkept {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
PY
