#!/usr/bin/env bash
# Benchmarks the clock on this machine: builds a Release tree, starts a
# private redis-server and two clock replicas on free ports, runs
# clock_bench (20,000 deadlines through the deadlines stream, a stand-in
# game-state recording when each automatic move is asked for), prints its
# figures, and stops everything whatever happens.
#
#   tests/bench/clock/run.sh                        # 20,000 deadlines over 10 s
#   DEADLINES=20000 SPREAD=2s tests/bench/clock/run.sh   # a denser burst
#   REPLICAS=1 tests/bench/clock/run.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
build=${BUILD_DIR:-$root/build/release}
deadlines=${DEADLINES:-20000}
spread=${SPREAD:-10s}
lead=${LEAD:-4s}
replicas=${REPLICAS:-2}

if [ -z "${SKIP_BUILD:-}" ]; then
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$build" -j"${JOBS:-2}" clock clock_bench
fi

work=$(mktemp -d /tmp/clock-bench.XXXXXX)
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
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
  --logfile "$work/redis.log" &
pids+=($!)
for _ in $(seq 100); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
  sleep 0.05
done

game_state_port=$(free_port)
for i in $(seq "$replicas"); do
  "$build/services/clock/clock" --listen=127.0.0.1:0 --redis="127.0.0.1:$redis_port" \
    --metrics-port=-1 --game-state="127.0.0.1:$game_state_port" --consumer-name="bench-$i" \
    --log-level=warn --drain=0s >"$work/clock$i.out" 2>"$work/clock$i.log" &
  pids+=($!)
  [ -n "$(listening_port "$work/clock$i.out" $!)" ] || { echo "clock $i did not start:"; cat "$work/clock$i.log"; exit 1; }
done

echo "bench: redis 127.0.0.1:$redis_port, $replicas clock replicas, $deadlines deadlines over $spread"
echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
status=0
"$build/tests/bench/clock/clock_bench" --redis="127.0.0.1:$redis_port" \
  --game-state-port="$game_state_port" --deadlines="$deadlines" --spread="$spread" --lead="$lead" ||
  status=$?
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
