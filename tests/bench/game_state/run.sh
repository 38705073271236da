#!/usr/bin/env bash
# Benchmarks game_state on this machine: builds a Release tree, starts a
# private redis-server and two game_state replicas on free ports, runs the
# load generator against both replicas, prints its figures, and stops
# everything whatever happens.
#
#   tests/bench/game_state/run.sh                 # 64 games, 20 s measured
#   GAMES=128 DURATION=30s tests/bench/game_state/run.sh
#   AOF=no tests/bench/game_state/run.sh          # Redis without persistence
#   ROUTING=per_game tests/bench/game_state/run.sh  # each game stays on one replica
#   GAME_STATE_BIN=<older build>/services/game_state/game_state tests/bench/game_state/run.sh
#                                                   # another game_state, same loadgen (side by side)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
build=${BUILD_DIR:-$root/build/game-state-release}
games=${GAMES:-64}
duration=${DURATION:-20s}
warmup=${WARMUP:-3s}
variant=${VARIANT:-international}
aof=${AOF:-yes}
routing=${ROUTING:-round_robin}

export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$build" -j"${JOBS:-2}" game_state game_state_loadgen

work=$(mktemp -d /tmp/game-state-bench.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# free_port: below the ephemeral range, where no outgoing connection takes it.
source "$root/scripts/lib/servers.sh"

redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly "$aof" \
  --appendfsync everysec --dir "$work" --logfile "$work/redis.log" &
pids+=($!)
for _ in $(seq 100); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
  sleep 0.05
done

targets=""
for i in 1 2; do
  "${GAME_STATE_BIN:-$build/services/game_state/game_state}" --listen=127.0.0.1:0 --redis="127.0.0.1:$redis_port" \
    --metrics-port=-1 --token-secret=bench-shared-secret-0123 --replica-id="bench-$i" \
    --log-level=warn --drain=0s >"$work/replica$i.out" 2>"$work/replica$i.log" &
  pids+=($!)
  port=$(listening_port "$work/replica$i.out" $!)
  [ -n "$port" ] || { echo "replica $i did not start:"; cat "$work/replica$i.log"; exit 1; }
  targets="${targets:+$targets,}127.0.0.1:$port"
done

# CPU seconds a process has used so far (user + system).
cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat"
}
before=()
for pid in "${pids[@]}"; do before+=("$(cpu_seconds "$pid")"); done

echo "bench: redis 127.0.0.1:$redis_port (appendonly $aof), replicas $targets"
echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
"$build/tests/bench/game_state/game_state_loadgen" --targets="$targets" --games="$games" \
  --duration="$duration" --warmup="$warmup" --variant="$variant" --routing="$routing" |
  tee "$work/loadgen.out"
names=(redis replica1 replica2)
moves_all=$(sed -n 's/.*moves_all=\([0-9]*\).*/\1/p' "$work/loadgen.out")
loadgen_cpu=$(sed -n 's/^loadgen_cpu_s=//p' "$work/loadgen.out")
per_move="loadgen=$(awk -v c="$loadgen_cpu" -v m="$moves_all" 'BEGIN {printf "%.0f", c * 1e6 / m}')"
total=$loadgen_cpu
for i in "${!pids[@]}"; do
  used=$(awk -v a="${before[$i]}" -v b="$(cpu_seconds "${pids[$i]}")" 'BEGIN {printf "%.2f", b - a}')
  echo "cpu_s ${names[$i]}=$used"
  per_move="$per_move ${names[$i]}=$(awk -v c="$used" -v m="$moves_all" 'BEGIN {printf "%.0f", c * 1e6 / m}')"
  total=$(awk -v a="$total" -v b="$used" 'BEGIN {print a + b}')
done
# CPU per move over the whole run (warm-up included; a replica serves about
# half the moves, so its figure is per move of the whole system).
echo "cpu_us_per_move $per_move total=$(awk -v c="$total" -v m="$moves_all" 'BEGIN {printf "%.0f", c * 1e6 / m}')"
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
