#!/usr/bin/env bash
# Instructions one MCP `tools/call` takes in toolgen's server and in an rmcp `#[tool_router]`
# server with the same tools (benches/mcp.rs): exact counts (callgrind), where timings on a
# shared machine move by tens of percent between runs.
#
# Usage (from the repository root; needs valgrind):
#
#     bash benches/mcp_cost.sh
#
# For each tool (`add`, trivial; `search_orders`, of a real tool's size) it counts:
#
#   in process    the whole bench process making N calls over `tokio::io::duplex`, client and
#                 server on one thread (TOOLGEN_BENCH_MCP_CALLS);
#   http          the server process alone, serving N calls from 8 kept-alive clients over
#                 streamable HTTP (2025-11-25 sessions, TOOLGEN_BENCH_MCP_SERVE), for toolgen's
#                 server (`http`), with authorization on (`http-token`, a `TokenValidator` that
#                 accepts one fixed token), with every answer an event stream (`http-sse`,
#                 `json_reply_wait(Duration::ZERO)`), and rmcp's (`http-rmcp`).
#
# and prints one call's instructions: the difference of two runs (LOW and HIGH calls, 200 and
# 1,000 unless set) over the difference of their calls, so that start-up and sessions drop out.
# TOOLS and SERVERS (space-separated) measure some of them only, e.g.
# `TOOLS=search_orders SERVERS="http http-rmcp" bash benches/mcp_cost.sh`; the servers are
# `toolgen` and `rmcp` in process, and `http`, `http-token`, `http-rmcp` and `http-sse`.
set -euo pipefail

low=${LOW:-200}
high=${HIGH:-1000}
command -v valgrind >/dev/null || { echo "mcp_cost.sh needs valgrind" >&2; exit 1; }

binary=$(cargo bench --features mcp,__rmcp_macros --bench mcp --no-run --message-format=json \
    2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message["target"]["name"] == "mcp" \
            and message.get("executable"):
        print(message["executable"])
')
[ -n "$binary" ] || { echo "the mcp bench did not build" >&2; exit 1; }

BINARY=$binary LOW=$low HIGH=$high python3 - <<'EOF'
import os, re, subprocess

binary, low, high = os.environ["BINARY"], int(os.environ["LOW"]), int(os.environ["HIGH"])
tools = os.environ.get("TOOLS", "add search_orders").split()
servers = os.environ.get("SERVERS", "toolgen rmcp http http-token http-rmcp http-sse").split()
callgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]


def collected(stderr):
    return int(re.search(r"Collected : *(\d+)", stderr).group(1))


def in_process(kind, tool, calls):
    env = dict(os.environ, TOOLGEN_BENCH_MCP_CALLS=f"{kind}:{calls}", TOOLGEN_BENCH_MCP_TOOL=tool)
    run = subprocess.run(callgrind + [binary], env=env, capture_output=True, text=True, check=True)
    return collected(run.stderr)


def http(serve, tool, calls):
    env = dict(os.environ, TOOLGEN_BENCH_MCP_SERVE=serve)
    server = subprocess.Popen(callgrind + [binary], env=env, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    address = server.stdout.readline().strip()
    env = dict(os.environ, TOOLGEN_BENCH_MCP_HTTP_CALLS=f"{address}:{calls}",
               TOOLGEN_BENCH_MCP_TOOL=tool)
    if serve == "http-token":
        env["TOOLGEN_BENCH_MCP_TOKEN"] = "1"
    subprocess.run([binary], env=env, check=True)
    # (The server exits when its stdin closes, and callgrind writes its count then.)
    server.stdin.close()
    stderr = server.stderr.read()
    server.wait()
    return collected(stderr)


def per_call(count, *args):
    return (count(*args, high) - count(*args, low)) / (high - low)


print(f"{'tool':<15} {'measure':<12} {'server':<16} {'instructions a call':>20}")
for tool in tools:
    counts = {}
    for server in servers:
        if server in ("toolgen", "rmcp"):
            measure, count = "in process", per_call(in_process, server, tool)
        else:
            measure, count = "http", per_call(http, server, tool)
        counts[server] = count
        print(f"{tool:<15} {measure:<12} {server:<16} {count:>20,.0f}")
    if "toolgen" in counts and "rmcp" in counts:
        print(f"{tool:<15} in process: rmcp / toolgen = {counts['rmcp'] / counts['toolgen']:.3f}x")
    if "http" in counts:
        ours = counts["http"]
        if "http-rmcp" in counts:
            print(f"{tool:<15} http: rmcp / toolgen = {counts['http-rmcp'] / ours:.3f}x")
        if "http-token" in counts:
            token = counts["http-token"]
            print(f"{tool:<15} http: authorization adds {token - ours:,.0f} ({token / ours - 1:+.1%})")
        if "http-sse" in counts:
            print(f"{tool:<15} http: an event stream in place of JSON adds "
                  f"{counts['http-sse'] - ours:,.0f}")
EOF
