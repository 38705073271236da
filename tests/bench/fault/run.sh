#!/usr/bin/env bash
# The long versions of the fault tests (tests/fault): more games, more
# moves, PostgreSQL down for 10 s, Redis down for 2 s, each test repeated,
# plus the clock and bot kill tests of tests/integration repeated. Starts a
# private Redis and PostgreSQL (scripts/lib/servers.sh) and stops them
# whatever happens. Sanitizer tree by default: these check correctness.
#
#   tests/bench/fault/run.sh
#   REPEAT=5 GAMES=40 PLIES=200 tests/bench/fault/run.sh
#   FILTER='GameStateFaults.*' tests/bench/fault/run.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$root"
source scripts/lib/servers.sh
build=${BUILD_DIR:-$root/build/asan}
repeat=${REPEAT:-3}

if [ -z "${SKIP_BUILD:-}" ]; then
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Asan >/dev/null
  $(command -v buildslot || true) ninja -C "$build" -j"${JOBS:-2}" fault_test clock_integration_test bot_integration_test
fi

work=$(mktemp -d /tmp/fault-long.XXXXXX)
chmod 755 "$work"
cleanup() {
  stop_servers
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
start_redis "$work/redis"
start_postgres "$work/pg"
export DRAUGHTS_TEST_REDIS="127.0.0.1:$REDIS_PORT"
export DRAUGHTS_TEST_PG="host=127.0.0.1 port=$PG_PORT dbname=draughts_test user=postgres"
export DRAUGHTS_TEST_REDIS_SERVER=$(command -v redis-server)
export DRAUGHTS_TEST_PG_BIN="$PG_BIN"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
[ -f tests/lsan.supp ] && export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/tests/lsan.supp:print_suppressions=0}

export DRAUGHTS_FAULT_GAMES=${GAMES:-24}
export DRAUGHTS_FAULT_PLIES=${PLIES:-150}
export DRAUGHTS_FAULT_GATEWAY_PLIES=${GATEWAY_PLIES:-90}
export DRAUGHTS_FAULT_REDIS_DOWN_MS=${REDIS_DOWN_MS:-2000}
export DRAUGHTS_FAULT_PG_DOWN_MS=${PG_DOWN_MS:-10000}
export DRAUGHTS_FAULT_GAMES_BEFORE=${GAMES_BEFORE:-10}
export DRAUGHTS_FAULT_GAMES_DURING=${GAMES_DURING:-40}

status=0
t0=$(date +%s)
"$build/tests/fault/fault_test" --gtest_repeat="$repeat" --gtest_filter="${FILTER:-*}" || status=1
# A clock replica and a bot worker killed: the tests of their own services.
"$build/tests/integration/clock/clock_integration_test" --gtest_repeat="$repeat" \
  --gtest_filter='ClockReplicasTest.AKilledReplica*:ClockReplicasTest.AClaimOfADeadReplica*' || status=1
"$build/tests/integration/bot/bot_integration_test" --gtest_repeat="$repeat" \
  --gtest_filter='BotWorkersTest.AJobOfAKilledWorker*' || status=1
echo "fault long run: $(( $(date +%s) - t0 )) s, load $(cut -d' ' -f1-3 /proc/loadavg), status $status"
exit "$status"
