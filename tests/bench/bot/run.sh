#!/usr/bin/env bash
# Benchmarks the bot pool on this machine: builds a Release tree, starts a
# private redis-server, game_state and BOTS bot processes on free ports,
# plays GAMES concurrent games (half against Easy, half against Medium)
# for DURATION, prints the reply times per level against the target (every
# bot move within its level's limit + 100 ms: Easy 150 ms, Medium 300 ms),
# the CPU each process used, and stops everything whatever happens.
#
#   tests/bench/bot/run.sh                          # 200 games, 60 s, 1 bot process
#   BOTS=2 JOBS_PER_WORKER=2 tests/bench/bot/run.sh  # the same load on two processes
#   GAMES=100 DURATION=30s VARIANT=english tests/bench/bot/run.sh
#
# Easy's human-looking pause is off here (--easy-pause=0s): it is a
# deliberate wait, not the pool's speed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
build=${BUILD_DIR:-$root/build/release}
games=${GAMES:-200}
duration=${DURATION:-60s}
variant=${VARIANT:-international}
bots=${BOTS:-1}
jobs_per_worker=${JOBS_PER_WORKER:-4}

export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
if [ -z "${NO_BUILD:-}" ]; then
  ninja -C "$build" -j"${JOBS:-2}" game_state bot bot_loadgen
fi

work=$(mktemp -d /tmp/bot-bench.XXXXXX)
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
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
  --logfile "$work/redis.log" &
pids+=($!)
for _ in $(seq 100); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
  sleep 0.05
done

"$build/services/game_state/game_state" --listen=127.0.0.1:0 --redis="127.0.0.1:$redis_port" \
  --metrics-port=-1 --log-level=warn --drain=0s >"$work/game_state.out" 2>"$work/game_state.log" &
pids+=($!)
game_state_port=$(listening_port "$work/game_state.out")
[ -n "$game_state_port" ] || { echo "game_state did not start:"; cat "$work/game_state.log"; exit 1; }

names=(redis game_state)
metrics_ports=()
for i in $(seq "$bots"); do
  metrics_port=$(free_port)
  "$build/services/bot/bot" --listen=127.0.0.1:0 --redis="127.0.0.1:$redis_port" \
    --game-state="127.0.0.1:$game_state_port" --consumer-name="bench-$i" \
    --jobs-per-worker="$jobs_per_worker" --easy-pause=0s --metrics-port="$metrics_port" \
    --log-level=warn --drain=0s >"$work/bot$i.out" 2>"$work/bot$i.log" &
  pids+=($!)
  names+=("bot$i")
  metrics_ports+=("$metrics_port")
  [ -n "$(listening_port "$work/bot$i.out")" ] || { echo "bot $i did not start:"; cat "$work/bot$i.log"; exit 1; }
done
# The bots create their consumer group before any job is written.
for _ in $(seq 100); do
  redis-cli -p "$redis_port" xinfo groups draughts:bot-jobs 2>/dev/null | grep -q bot && break
  sleep 0.05
done

cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat"
}
before=()
for pid in "${pids[@]}"; do before+=("$(cpu_seconds "$pid")"); done

echo "bench: $games games ($variant), $bots bot process(es) x $jobs_per_worker jobs, $duration"
echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
status=0
"$build/tests/bench/bot/bot_loadgen" --game-state="127.0.0.1:$game_state_port" --games="$games" \
  --duration="$duration" --variant="$variant" || status=$?
for i in "${!pids[@]}"; do
  used=$(awk -v a="${before[$i]}" -v b="$(cpu_seconds "${pids[$i]}")" 'BEGIN {printf "%.2f", b - a}')
  echo "cpu_s ${names[$i]}=$used"
done
for port in "${metrics_ports[@]}"; do
  # The bot's own view: think time per level and queue pressure.
  curl -s "http://127.0.0.1:$port/metrics" |
    grep -E '^draughts_bot_(think_seconds_(sum|count)|move_latency_seconds_(sum|count)|moves_total|jobs_total|jobs_claimed_total|jobs_retried_total)|^draughts_bot_move_latency_seconds_bucket.*le="0\.(05|1|15|2|3)"' || true
done
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
