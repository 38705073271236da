#!/usr/bin/env bash
# Benchmarks quick pairing on this machine: builds a Release tree, starts a
# private redis-server, game_state and two matchmaking replicas on free
# ports, sends QuickPair at a fixed rate spread over both replicas, checks
# that every player was paired exactly once within the rating window, and
# stops everything whatever happens.
#
#   tests/bench/matchmaking/run.sh                  # 1,000/s for 10 s
#   RATE=2000 REQUESTS=20000 tests/bench/matchmaking/run.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
build=${BUILD_DIR:-$root/build/release}
rate=${RATE:-1000}
# Enough client threads that the answers' latency never slows the sending.
requests=${REQUESTS:-10000}

export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
if [ -z "${NO_BUILD:-}" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$build" -j"${JOBS:-2}" game_state matchmaking matchmaking_loadgen
fi

work=$(mktemp -d /tmp/matchmaking-bench.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# free_port (below the ephemeral range, where no outgoing connection takes
# it) and listening_port.
source "$root/scripts/lib/servers.sh"

redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly yes \
  --appendfsync everysec --dir "$work" --logfile "$work/redis.log" &
pids+=($!)
for _ in $(seq 100); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
  sleep 0.05
done

"$build/services/game_state/game_state" --listen=127.0.0.1:0 --redis="127.0.0.1:$redis_port" \
  --metrics-port=-1 --token-secret=bench-shared-secret-0123 --log-level=warn --drain=0s \
  >"$work/game_state.out" 2>"$work/game_state.log" &
pids+=($!)
game_port=$(listening_port "$work/game_state.out")

pairing=(--pair-window=100 --pair-widen-by=50 --pair-widen-every=1s --pair-max-window=1000)
targets=""
for i in 1 2; do
  "$build/services/matchmaking/matchmaking" --listen=127.0.0.1:0 --redis="127.0.0.1:$redis_port" \
    --game-state="127.0.0.1:$game_port" --metrics-port=-1 --consumer-name="bench-$i" \
    --token-secret=bench-matchmaking-secret --log-level=warn --drain=0s "${pairing[@]}" \
    >"$work/mm$i.out" 2>"$work/mm$i.log" &
  pids+=($!)
  port=$(listening_port "$work/mm$i.out")
  targets="${targets:+$targets,}127.0.0.1:$port"
done

echo "matchmaking bench: $requests QuickPair at $rate/s over 2 replicas, 1 game_state, 1 Redis (AOF everysec)"
"$build/tests/bench/matchmaking/matchmaking_loadgen" --targets="$targets" \
  --game-state="127.0.0.1:$game_port" --rate="$rate" --requests="$requests" \
  --threads="${THREADS:-256}" --window=100 --widen-by=50 --widen-every=1s --max-window=1000
status=$?
# Redis commands per kind (calls, usec per call), to count round trips.
if [ -n "${REDIS_STATS:-}" ]; then
  redis-cli -p "$redis_port" INFO commandstats | grep -E '^cmdstat_' | sed 's/,rejected_calls.*//'
fi
exit $status
