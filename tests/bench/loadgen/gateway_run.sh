#!/usr/bin/env bash
# Long runs of tools/loadgen's gateway mode on this machine: builds a
# Release tree, starts a private redis-server (scripts/lib/servers.sh) and
# every service a table needs (game_state, matchmaking, clock, chat,
# gateway) on free ports, the gateway with its socket and lobby limits
# raised for the crowd, drives it with loadgen (simulated browsers: guest
# sessions, tables, games over the table sockets, spectators, chat) and
# prints loadgen's figures with each process's memory per live game, CPU
# seconds and the load average. Everything it started is stopped whatever
# happens.
#
#   tests/bench/loadgen/gateway_run.sh                       # 50 games, 20 s
#   GAMES=2000 SPECTATORS=1000 RATE=3000 DURATION=60s tests/bench/loadgen/gateway_run.sh
#   PERF=yes ...   # also perf record the services for PERF_SECONDS of the window
#   PERF_OUT=/tmp/gw.perf.data ...   # and keep the recording there
#   PERF_CALLGRAPH=dwarf PERF_FREQ=99 ...   # whole call stacks (no frame pointers here)
#
# Run it through `quietslot` so no build competes for the two cores.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
build=${BUILD_DIR:-$root/build/release}
games=${GAMES:-50}
spectators=${SPECTATORS:-$((games / 2))}
rate=${RATE:-$((games * 3 / 2))}
duration=${DURATION:-20s}
warmup=${WARMUP:-5s}
variant=${VARIANT:-international}
move_limit=${MOVE_LIMIT:-80}
time_per_move=${TIME_PER_MOVE:-60s}
io_threads=${IO_THREADS:-2}
# No move before every table has sat down (QUIET_RAMP=no: the first tables
# play while the others arrive).
quiet_ramp=${QUIET_RAMP:-yes}
perf=${PERF:-no}
perf_seconds=${PERF_SECONDS:-15}

if [ "${SKIP_BUILD:-no}" != yes ]; then
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$build" -j"${JOBS:-2}" gateway game_state matchmaking clock chat loadgen >/dev/null
fi

# shellcheck source=../../../scripts/lib/servers.sh
source "$root/scripts/lib/servers.sh"
work=$(mktemp -d /tmp/loadgen-gateway.XXXXXX)
pids=()
stop_all() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
  stop_servers
}
trap 'stop_all; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat"
}

# start NAME FLAGS...: starts services/NAME/NAME on a free port; sets PORT
# and LAST_PID.
start() {
  local name=$1
  shift
  "$build/services/$name/$name" --listen=127.0.0.1:0 --metrics-port=-1 --log-level=warn "$@" \
    >"$work/$name.out" 2>"$work/$name.log" &
  LAST_PID=$!
  pids+=("$LAST_PID")
  PORT=$(listening_port "$work/$name.out" "$LAST_PID")
  [ -n "$PORT" ] || { echo "$name did not start:"; cat "$work/$name.log"; exit 1; }
}

start_redis "$work/redis"
redis_pid=${_server_pids[-1]}
r="--redis=127.0.0.1:$REDIS_PORT"
start game_state "$r" --token-secret=bench-gateway-shared-secret-0123 --drain=0s
gs_pid=$LAST_PID gs="--game-state=127.0.0.1:$PORT"
start matchmaking "$r" "$gs" --token-secret=bench-gateway-matchmaking-0123
mm_pid=$LAST_PID mm="--matchmaking=127.0.0.1:$PORT"
start clock "$r" "$gs"
clock_pid=$LAST_PID clock="--clock=127.0.0.1:$PORT"
start chat "$r" "$gs" "$mm"
chat_pid=$LAST_PID chat="--chat=127.0.0.1:$PORT"
# Limits raised for the crowd: every socket (players + spectators + room),
# and the lobby's per-session bucket (one session per simulated browser, a
# few actions each; raised so a slow ramp never trips it).
sockets=$((games * 2 + spectators + 500))
start gateway "$r" "$gs" "$mm" "$clock" "$chat" --web-root="$root/web/dist" \
  --max-sockets="$sockets" --lobby-actions-per-second=50 --lobby-action-burst=100
gw_pid=$LAST_PID gateway_port=$PORT

names=(gateway game_state matchmaking clock chat redis)
procs=("$gw_pid" "$gs_pid" "$mm_pid" "$clock_pid" "$chat_pid" "$redis_pid")
declare -A cpu_before
for i in "${!procs[@]}"; do cpu_before[$i]=$(cpu_seconds "${procs[$i]}"); done
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "bench: games=$games spectators=$spectators rate=$rate duration=$duration warmup=$warmup quiet_ramp=$quiet_ramp" \
  "variant=$variant move_limit=$move_limit time_per_move=$time_per_move on $(nproc) cores," \
  "load before: $load_before"

if [ "$perf" = yes ]; then
  # Starts once the tables are up (loadgen prints nothing before the end,
  # so wait for the sockets the gateway holds to reach the crowd's size).
  (
    want=$((games * 2 + spectators))
    for _ in $(seq 600); do
      have=$(ss -Htn state established "( sport = :$gateway_port )" 2>/dev/null | wc -l)
      [ "$have" -ge "$want" ] && break
      sleep 0.5
    done
    sleep 5
    perf record -F "${PERF_FREQ:-199}" --call-graph "${PERF_CALLGRAPH:-fp}" -o "$work/perf.data" \
      -p "$(IFS=,; echo "${procs[*]}")" -- sleep "$perf_seconds" >/dev/null 2>&1
  ) &
  perf_pid=$!
fi

"$build/tools/loadgen/loadgen" --mode=gateway --gateway="127.0.0.1:$gateway_port" \
  --games="$games" --spectators="$spectators" --rate="$rate" --duration="$duration" \
  --warmup="$warmup" --variant="$variant" --move-limit="$move_limit" \
  --time-per-move="$time_per_move" --io-threads="$io_threads" --quiet-ramp="$quiet_ramp" \
  --pids="$(IFS=,; echo "${procs[*]}")" >"$work/loadgen.out" 2>"$work/loadgen.err" &
loadgen_pid=$!
pids+=("$loadgen_pid")
wait "$loadgen_pid" || { echo "loadgen failed:"; cat "$work/loadgen.err"; }
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
cat "$work/loadgen.out"
echo "load average after: $load_after"
echo "per process: rss_per_live_game_kib, cpu in the measured window per move (us), cpu_seconds (whole run, ramp included)"
for i in "${!procs[@]}"; do
  pid=${procs[$i]}
  kib=$(sed -n "s/^rss_per_live_game pid=$pid kib=\(.*\)/\1/p" "$work/loadgen.out")
  window_us=$(sed -n "s/^cpu_in_window pid=$pid .*us_per_move=\(.*\)/\1/p" "$work/loadgen.out")
  cpu=$(awk -v a="${cpu_before[$i]}" -v b="$(cpu_seconds "$pid")" 'BEGIN {printf "%.1f", b - a}')
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
  printf '  %-12s rss_per_live_game_kib=%s window_cpu_us_per_move=%s cpu_s=%s rss_now_kib=%s\n' \
    "${names[$i]}" "${kib:-?}" "${window_us:-?}" "$cpu" "$rss"
done
for name in "${names[@]:0:5}"; do
  if [ -s "$work/$name.log" ]; then
    echo "--- $name log (last lines)"
    tail -5 "$work/$name.log"
  fi
done
if [ "$perf" = yes ]; then
  wait "$perf_pid" || true
  if [ -s "$work/perf.data" ]; then
    [ -z "${PERF_OUT:-}" ] || cp "$work/perf.data" "$PERF_OUT"
    echo "--- perf: samples by process"
    perf report -i "$work/perf.data" --no-children --sort comm --stdio 2>/dev/null | grep -v '^#' | grep -v '^$' | head -12
    echo "--- perf: top symbols"
    perf report -i "$work/perf.data" --no-children --sort comm,symbol --stdio -g none 2>/dev/null |
      grep -v '^#' | grep -v '^$' | head -40
  fi
fi
