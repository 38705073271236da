#!/usr/bin/env bash
# Long runs of tools/loadgen (grpc mode) against game_state on this machine:
# builds a Release tree, starts a private redis-server (AOF everysec unless
# AOF=no) and one game_state per run, drives it with loadgen, and prints
# loadgen's figures with the CPU each process used and the load average.
# Everything it started is stopped whatever happens.
#
#   tests/bench/loadgen/run.sh                          # 200 games, 20 s, 1 run
#   GAMES=400 DURATION=30s RATE=10000 tests/bench/loadgen/run.sh
#   CONNECTIONS=2 tests/bench/loadgen/run.sh            # games over two connections
#   RUNS=3 COMPARE="before=/tmp/base/game_state after=build/release/services/game_state/game_state" \
#     tests/bench/loadgen/run.sh                        # side by side, interleaved, medians
#
# Run it through `quietslot` so no build competes for the two cores.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
build=${BUILD_DIR:-$root/build/release}
games=${GAMES:-200}
duration=${DURATION:-20s}
warmup=${WARMUP:-3s}
rate=${RATE:-0}
variant=${VARIANT:-international}
aof=${AOF:-yes}
runs=${RUNS:-1}
compare=${COMPARE:-"after=$build/services/game_state/game_state"}
# Connections from the load generator to game_state (games spread over them).
connections=${CONNECTIONS:-1}

if [ "${SKIP_BUILD:-no}" != yes ]; then
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$build" -j"${JOBS:-2}" game_state loadgen >/dev/null
fi

work=$(mktemp -d /tmp/loadgen-bench.XXXXXX)
pids=()
stop_all() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}
trap 'stop_all; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# free_port: below the ephemeral range, where no outgoing connection takes it.
source "$root/scripts/lib/servers.sh"
cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat"
}

# One run of the binary $2 (labelled $1): prints one summary line.
run_once() {
  local label=$1 binary=$2 n=$3
  local dir="$work/$label-$n"
  mkdir -p "$dir"
  local redis_port
  redis_port=$(free_port)
  redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly "$aof" \
    --appendfsync everysec --dir "$dir" --logfile "$dir/redis.log" &
  local redis_pid=$!
  pids+=("$redis_pid")
  for _ in $(seq 100); do
    redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
    sleep 0.05
  done
  "$binary" --listen=127.0.0.1:0 --redis="127.0.0.1:$redis_port" --metrics-port=-1 \
    --token-secret=bench-shared-secret-0123 --log-level=warn --drain=0s \
    >"$dir/game_state.out" 2>"$dir/game_state.log" &
  local gs_pid=$!
  pids+=("$gs_pid")
  local port
  port=$(listening_port "$dir/game_state.out" "$gs_pid")
  [ -n "$port" ] || { echo "game_state did not start:"; cat "$dir/game_state.log"; exit 1; }
  local load_before redis_before gs_before
  load_before=$(cut -d' ' -f1 /proc/loadavg)
  redis_before=$(cpu_seconds "$redis_pid")
  gs_before=$(cpu_seconds "$gs_pid")
  local targets=""
  for _ in $(seq "$connections"); do targets="${targets:+$targets,}127.0.0.1:$port"; done
  "$build/tools/loadgen/loadgen" --mode=grpc --targets="$targets" --games="$games" \
    --duration="$duration" --warmup="$warmup" --rate="$rate" --variant="$variant" \
    --pids="$gs_pid" >"$dir/loadgen.out"
  local load_after redis_cpu gs_cpu
  load_after=$(cut -d' ' -f1 /proc/loadavg)
  redis_cpu=$(awk -v a="$redis_before" -v b="$(cpu_seconds "$redis_pid")" 'BEGIN {printf "%.1f", b - a}')
  gs_cpu=$(awk -v a="$gs_before" -v b="$(cpu_seconds "$gs_pid")" 'BEGIN {printf "%.1f", b - a}')
  stop_all
  local f="$dir/loadgen.out"
  field() { sed -n "s/.*[ ^]$1=\([^ ]*\).*/\1/p; s/^$1=\([^ ]*\).*/\1/p" "$f" | head -1; }
  printf '%-8s run=%d moves_per_s=%s p50_ms=%s p95_ms=%s p99_ms=%s errors=%s lost=%s dup=%s rss_kib_per_game=%s cpu_s(game_state=%s redis=%s loadgen=%s) load=%s->%s\n' \
    "$label" "$n" "$(field moves_per_s)" "$(field p50_ms)" "$(field p95_ms)" "$(field p99_ms)" \
    "$(field errors)" "$(field lost_events)" "$(field duplicated_events)" "$(field kib)" \
    "$gs_cpu" "$redis_cpu" "$(field loadgen_cpu_s)" "$load_before" "$load_after" | tee -a "$work/results"
  if [ "${VERBOSE:-no}" = yes ]; then cat "$f"; fi
}

echo "bench: games=$games duration=$duration warmup=$warmup rate=$rate variant=$variant aof=$aof runs=$runs on $(nproc) cores"
for n in $(seq "$runs"); do
  for entry in $compare; do
    run_once "${entry%%=*}" "${entry#*=}" "$n"
  done
done
if [ "$runs" -gt 1 ]; then
  echo "medians of $runs:"
  for entry in $compare; do
    label=${entry%%=*}
    for key in moves_per_s p50_ms p95_ms p99_ms; do
      median=$(grep "^$label " "$work/results" | sed -n "s/.* $key=\([^ ]*\).*/\1/p" | sort -g |
        awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
      printf '%s %s=%s  ' "$label" "$key" "$median"
    done
    echo
  done
fi
