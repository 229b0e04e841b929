#!/usr/bin/env bash
# A throwaway three-node Redis Cluster on loopback, for the cluster integration test (and for trying Vetted on a
# cluster by hand). Nothing is persisted; everything lives in the directory given.
#
#   scripts/redis-cluster.sh start <dir> [owner-pid]   prints the REDIS_URL: redis+cluster://127.0.0.1:P1,...,P3
#   scripts/redis-cluster.sh stop <dir>                stops the nodes started in <dir> and removes it
#
# Ports are picked at random (20000-29999, each node's cluster bus at port + 10000) and a node that cannot bind
# is started again on another, so several runs at once do not collide. With an owner pid, a watchdog stops the
# nodes when that process goes away (a test runner killed before its cleanup). A failed start stops what it
# started.
set -euo pipefail

NODES=3
SELF="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
command -v redis-server >/dev/null && command -v redis-cli >/dev/null || {
  echo "error: redis-server and redis-cli are needed for a Redis Cluster (apt-get install redis-server)" >&2
  exit 1
}

usage() {
  echo "usage: $0 start <dir> [owner-pid] | stop <dir>" >&2
  exit 2
}

stop_nodes() { # stop_nodes <dir>
  local dir="$1" pid i
  [ -f "$dir/pids" ] || return 0
  while read -r pid; do kill -TERM "$pid" 2>/dev/null || true; done <"$dir/pids"
  for ((i = 0; i < 50; i++)); do
    local alive=0
    while read -r pid; do kill -0 "$pid" 2>/dev/null && alive=1; done <"$dir/pids"
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  while read -r pid; do kill -KILL "$pid" 2>/dev/null || true; done <"$dir/pids"
  rm -rf "$dir"
}

answers() { [ "$(redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null)" = "PONG" ]; }

start_node() { # start_node <dir>: prints the port of a node that answers
  local dir="$1" attempt port pid i
  for ((attempt = 0; attempt < 20; attempt++)); do
    port=$((20000 + RANDOM % 10000))
    redis-server --port "$port" --bind 127.0.0.1 --cluster-enabled yes --cluster-config-file "nodes-$port.conf" \
      --cluster-node-timeout 5000 --save "" --appendonly no --dir "$dir" --logfile "redis-$port.log" \
      </dev/null >/dev/null 2>&1 &
    pid=$!
    echo "$pid" >>"$dir/pids"
    for ((i = 0; i < 50; i++)); do
      if answers "$port"; then echo "$port"; return 0; fi
      kill -0 "$pid" 2>/dev/null || break # could not bind (port or bus port taken): another port
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
  done
  echo "error: no Redis node would start on a free loopback port (see $dir/redis-*.log)" >&2
  return 1
}

cluster_ok() { # cluster_ok <port>...: every node says cluster_state:ok
  local port
  for port in "$@"; do
    redis-cli -h 127.0.0.1 -p "$port" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || return 1
  done
}

start() { # start <dir> [owner-pid]
  local dir="$1" owner="${2:-}" ports=() i
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  trap 'stop_nodes "$dir"' ERR
  for ((i = 0; i < NODES; i++)); do ports+=("$(start_node "$dir")"); done
  local addresses=()
  for i in "${ports[@]}"; do addresses+=("127.0.0.1:$i"); done
  redis-cli --cluster create "${addresses[@]}" --cluster-replicas 0 --cluster-yes >"$dir/create.log" 2>&1 || {
    echo "error: redis-cli --cluster create failed:" >&2
    cat "$dir/create.log" >&2
    false
  }
  for ((i = 0; i < 300; i++)); do cluster_ok "${ports[@]}" && break; sleep 0.1; done
  cluster_ok "${ports[@]}" || { echo "error: the cluster did not reach cluster_state:ok within 30 s" >&2; false; }
  trap - ERR
  if [ -n "$owner" ]; then
    # Detached from our pipes, so whoever runs this script is not kept waiting for the watchdog.
    setsid bash -c 'while kill -0 "$1" 2>/dev/null && [ -d "$2" ]; do sleep 1; done; exec bash "$3" stop "$2"' \
      watchdog "$owner" "$dir" "$SELF" </dev/null >/dev/null 2>&1 &
  fi
  local IFS=,
  echo "redis+cluster://${addresses[*]}"
}

case "${1:-}" in
  start) [ $# -ge 2 ] || usage; start "$2" "${3:-}" ;;
  stop) [ $# -eq 2 ] || usage; stop_nodes "$2" ;;
  *) usage ;;
esac
