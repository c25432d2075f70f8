#!/usr/bin/env bash
# Calls/s of an MCP server run as 1, 2 and 4 replicas behind HAProxy (README, "Several processes
# behind a load balancer"), beside one replica alone: stateless 2026-07-28 `tools/call`s of
# `add` (examples/mcp_replica.rs, release build) from wrk's keep-alive connections, through
# examples/replicas/haproxy.cfg as tests/mcp_replicas.rs runs it. All on 127.0.0.1.
#
# Usage (from anywhere; needs Debian's haproxy and wrk: apt-get install haproxy wrk):
#
#     bash benches/replicas.sh
#     SECONDS_EACH=10 CONNECTIONS=64 REPLICAS="1 2 4" bash benches/replicas.sh
#     PROFILE=dev bash benches/replicas.sh     # a quick look with the debug build
#
# For each row it prints calls/s, wrk's p50 and p99, and the CPU time a call took in the
# replicas, in HAProxy and in wrk (from /proc: user + system), which shows where the machine's
# cores went. Every answer must be HTTP 200 (wrk counts the others; the row fails with any).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH="${SECONDS_EACH:-5}"
PROFILE="${PROFILE:-release}"
CONNECTIONS="${CONNECTIONS:-64}"
REPLICAS="${REPLICAS:-1 2 4}"
HAPROXY="${TOOLGEN_HAPROXY:-$(command -v haproxy || echo /usr/sbin/haproxy)}"
for tool in "$HAPROXY" wrk; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "replicas.sh: $tool is needed (apt-get install haproxy wrk)" >&2
        exit 1
    fi
done

cargo build --profile "$PROFILE" --quiet --features mcp --example mcp_replica
replica="target/$([ "$PROFILE" = dev ] && echo debug || echo "$PROFILE")/examples/mcp_replica"
work="$(mktemp -d)"
pids=()
stop_all() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    pids=()
}
trap 'stop_all; rm -rf "$work"' EXIT

cat >"$work/call.lua" <<'EOF'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["Mcp-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "add"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add",' ..
    '"arguments":{"a":2,"b":3},"_meta":{' ..
    '"io.modelcontextprotocol/protocolVersion":"2026-07-28",' ..
    '"io.modelcontextprotocol/clientCapabilities":{},' ..
    '"io.modelcontextprotocol/clientInfo":{"name":"wrk","version":"0"}}}}'
EOF

# The CPU time of processes, in clock ticks (user + system, /proc/PID/stat fields 14 and 15).
ticks() {
    local total=0 pid
    for pid in "$@"; do
        total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
    done
    echo "$total"
}
hz="$(getconf CLK_TCK)"

# Starts replica $1 on a free port: its pid in $replica_pid, its address in $replica_address.
start_replica() {
    : >"$work/$1.out"
    "$replica" --id "$1" --http 127.0.0.1:0 >"$work/$1.out" &
    replica_pid=$!
    pids+=("$replica_pid")
    for _ in $(seq 100); do
        replica_address="$(head -n 1 "$work/$1.out")"
        [ -n "$replica_address" ] && return
        sleep 0.05
    done
    echo "replicas.sh: replica $1 did not start" >&2
    exit 1
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# One row: wrk against $1 for SECONDS_EACH, the CPU of the pids in $server_pids.
measure() {
    local label="$1" target="$2" lb_pid="$3"
    local before_servers before_lb
    before_servers="$(ticks "${server_pids[@]}")"
    before_lb="$([ -n "$lb_pid" ] && ticks "$lb_pid" || echo 0)"
    /usr/bin/time -f '%U %S' -o "$work/wrk.time" \
        wrk -t 2 -c "$CONNECTIONS" -d "${SECONDS_EACH}s" --latency -s "$work/call.lua" \
        "http://$target/mcp" >"$work/wrk.out"
    local servers lb
    servers=$(($(ticks "${server_pids[@]}") - before_servers))
    lb=$(($([ -n "$lb_pid" ] && ticks "$lb_pid" || echo 0) - before_lb))
    if grep -q 'Non-2xx' "$work/wrk.out"; then
        cat "$work/wrk.out" >&2
        echo "replicas.sh: $label: answers other than HTTP 200" >&2
        exit 1
    fi
    local calls rate p50 p99 wrk_cpu
    calls="$(awk '/requests in/ {print $1}' "$work/wrk.out")"
    rate="$(awk '/Requests\/sec/ {printf "%d", $2}' "$work/wrk.out")"
    p50="$(awk '$1 == "50%" {print $2}' "$work/wrk.out")"
    p99="$(awk '$1 == "99%" {print $2}' "$work/wrk.out")"
    wrk_cpu="$(awk '{print $1 + $2}' "$work/wrk.time")"
    awk -v label="$label" -v rate="$rate" -v p50="$p50" -v p99="$p99" -v calls="$calls" \
        -v servers="$servers" -v lb="$lb" -v wrk="$wrk_cpu" -v hz="$hz" 'BEGIN {
        us = 1e6 / calls
        printf "| %-22s | %7d | %8s | %8s | %5.0f µs | %5.0f µs | %5.0f µs |\n",
            label, rate, p50, p99, servers / hz * us, lb / hz * us, wrk * us
    }'
}

echo "$(nproc) cores, load average $(cut -d" " -f1-3 /proc/loadavg); $CONNECTIONS connections, ${SECONDS_EACH} s a row; CPU a call: replicas, HAProxy, wrk"
echo
echo "| setup                  | calls/s |      p50 |      p99 |  replicas |   HAProxy |       wrk |"
echo "|---|---|---|---|---|---|---|"

start_replica alone
server_pids=("$replica_pid")
measure "1 replica, no HAProxy" "$replica_address" ""
stop_all

for n in $REPLICAS; do
    cp examples/replicas/haproxy.cfg "$work/haproxy.cfg"
    server_pids=()
    for i in $(seq "$n"); do
        start_replica "r$i"
        server_pids+=("$replica_pid")
        echo "    server r$i $replica_address check" >>"$work/haproxy.cfg"
    done
    listen="127.0.0.1:$(free_port)"
    MCP_LISTEN="$listen" "$HAPROXY" -db -f "$work/haproxy.cfg" 2>"$work/haproxy.err" &
    lb_pid=$!
    pids+=("$lb_pid")
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/${listen%:*}/${listen#*:}") 2>/dev/null && break
        sleep 0.05
    done
    measure "$n replica(s), HAProxy" "$listen" "$lb_pid"
    stop_all
done
