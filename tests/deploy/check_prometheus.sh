#!/usr/bin/env bash
# Debian's Prometheus against the services of this build (ctest
# deploy.prometheus): starts a private Redis and PostgreSQL, every service
# under services/ whose binary is built (the others are skipped, named),
# and Prometheus with deploy/prometheus's job names and alert rules; then
# check_live.mjs asserts every target up, every alert rule loaded and
# evaluated, and every metric a dashboard query names exported by a live
# scrape of the service the query selects.
#   tests/deploy/check_prometheus.sh [repo root] [build dir]
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
build=${2:-$root/build/asan}
cd "$root"
source scripts/lib/servers.sh
for tool in prometheus redis-server node; do
  command -v "$tool" >/dev/null || { echo "check_prometheus: $tool is missing (scripts/deps installs it)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/draughts-prom.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  stop_servers
  rm -rf "$work"
}
trap cleanup EXIT

start_redis "$work/redis"
start_postgres "$work/pg"
export DRAUGHTS_REDIS="127.0.0.1:$REDIS_PORT"
export DRAUGHTS_PG="host=127.0.0.1 port=$PG_PORT dbname=draughts_test user=postgres connect_timeout=5"
DRAUGHTS_TOKEN_SECRET=$(head -c 32 /dev/urandom | base64 | tr -d '\n')
export DRAUGHTS_TOKEN_SECRET

# wait_listening LOG PID -> prints the port the binary announced.
wait_listening() {
  local log=$1 pid=$2
  for _ in $(seq 1 600); do
    if grep -q '^LISTENING ' "$log" 2>/dev/null; then
      grep -m1 '^LISTENING ' "$log" | cut -d' ' -f2
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "check_prometheus: $(basename "$log" .log) did not start:" >&2
  tail -20 "$log" >&2
  return 1
}

# start SERVICE: runs it on free ports; appends "name metrics-port" to targets.
targets=()
start() {
  local name=$1 binary=$build/services/$1/$1 metrics port pid attempt
  # A free port can still be taken by a parallel test before the service
  # binds it: then the service exits saying so, and starts again elsewhere.
  for attempt in 1 2 3; do
    metrics=$(free_port)
    "$binary" --listen=127.0.0.1:0 --metrics-port="$metrics" >"$work/$name.log" 2>&1 &
    pid=$!
    pids+=("$pid")
    if port=$(wait_listening "$work/$name.log" "$pid" 2>"$work/$name.err"); then break; fi
    if [ "$attempt" = 3 ] || ! grep -q 'cannot start the metrics exposer' "$work/$name.log"; then
      cat "$work/$name.err" >&2
      return 1
    fi
  done
  export "DRAUGHTS_$(echo "$name" | tr a-z A-Z)_ADDR=127.0.0.1:$port"
  wait_for_port "$metrics" "$name metrics"
  targets+=("$name=127.0.0.1:$metrics")
  echo "started $name: port $port, metrics $metrics"
}

# The services first, the gateway last: it needs their addresses.
names=()
for dir in services/*/; do
  name=$(basename "$dir")
  [ -f "$dir/CMakeLists.txt" ] || continue
  if [ ! -x "$build/services/$name/$name" ]; then
    echo "skip: $name is not built in $build"
    continue
  fi
  [ "$name" = gateway ] || names+=("$name")
done
for name in "${names[@]}"; do start "$name"; done
[ -x "$build/services/gateway/gateway" ] && start gateway

prom_port=$(free_port)
node tests/deploy/write_test_prometheus_config.mjs "$root" "$work/prometheus.yml" "${targets[@]}"
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
  --web.listen-address="127.0.0.1:$prom_port" >"$work/prometheus.log" 2>&1 &
pids+=($!)
wait_for_port "$prom_port" prometheus
node tests/deploy/check_live.mjs "$root" "http://127.0.0.1:$prom_port" "${targets[@]}" || {
  tail -20 "$work/prometheus.log" >&2
  exit 1
}
