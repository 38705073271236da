#!/usr/bin/env bash
# tools/health_check against a real game_state (ctest deploy.health_check):
# exit 2 on bad arguments, 1 for a closed port and an unknown service, 0 once
# game_state serves (whole server and draughts.v1.GameService), and 1 again
# once its Redis is gone (readiness reports NOT_SERVING). Polls with a
# deadline: the services run under ASan on a loaded machine.
#   tests/deploy/check_health_check.sh [repo root] [build dir]
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
build=${2:-$root/build/asan}
cd "$root"
source scripts/lib/servers.sh
health_check=$build/tools/health_check/health_check
game_state=$build/services/game_state/game_state
for binary in "$health_check" "$game_state"; do
  [ -x "$binary" ] || { echo "check_health_check: $binary is not built" >&2; exit 1; }
done

work=$(mktemp -d /tmp/draughts-health.XXXXXX)
game_state_pid=""
cleanup() {
  if [ -n "$game_state_pid" ]; then
    kill -TERM "$game_state_pid" 2>/dev/null || true
    wait "$game_state_pid" 2>/dev/null || true
  fi
  stop_servers
  rm -rf "$work"
}
trap cleanup EXIT

failures=0
# expect_exit CODE ARGS...: health_check ARGS exits CODE at once.
expect_exit() {
  local want=$1 got=0
  shift
  "$health_check" "$@" 2>"$work/stderr" || got=$?
  if [ "$got" -eq "$want" ]; then
    echo "ok: health_check $* -> $got"
  else
    echo "FAIL: health_check $* -> $got, want $want ($(cat "$work/stderr"))"
    failures=$((failures + 1))
  fi
}
# eventually_exit CODE ARGS...: health_check ARGS exits CODE within 60 s.
eventually_exit() {
  local want=$1 got=0
  shift
  for _ in $(seq 1 300); do
    got=0
    "$health_check" "$@" 2>"$work/stderr" || got=$?
    if [ "$got" -eq "$want" ]; then
      echo "ok: health_check $* -> $got"
      return 0
    fi
    sleep 0.2
  done
  echo "FAIL: health_check $* -> $got, want $want within 60 s ($(cat "$work/stderr"))"
  failures=$((failures + 1))
}

expect_exit 2
expect_exit 2 --help
closed=$(free_port)
expect_exit 1 "127.0.0.1:$closed"

start_redis "$work/redis"
redis_pid=${_server_pids[-1]}
DRAUGHTS_TOKEN_SECRET=$(head -c 32 /dev/urandom | base64 | tr -d '\n') \
  "$game_state" --listen=127.0.0.1:0 --metrics-port=-1 --redis="127.0.0.1:$REDIS_PORT" \
  --readiness-interval=200ms >"$work/game_state.log" 2>&1 &
game_state_pid=$!
port=""
for _ in $(seq 1 600); do
  port=$(grep -m1 '^LISTENING ' "$work/game_state.log" 2>/dev/null | cut -d' ' -f2 || true)
  [ -n "$port" ] && break
  kill -0 "$game_state_pid" 2>/dev/null || break
  sleep 0.1
done
[ -n "$port" ] || { echo "game_state did not start:" >&2; tail -20 "$work/game_state.log" >&2; exit 1; }

eventually_exit 0 "127.0.0.1:$port"
expect_exit 0 "127.0.0.1:$port" draughts.v1.GameService
expect_exit 1 "127.0.0.1:$port" no.such.Service

kill -TERM "$redis_pid"
wait "$redis_pid" 2>/dev/null || true
eventually_exit 1 "127.0.0.1:$port"
expect_exit 1 "127.0.0.1:$port" draughts.v1.GameService

[ "$failures" -eq 0 ] || { echo "check_health_check: $failures failed" >&2; exit 1; }
echo "check_health_check: all passed"
