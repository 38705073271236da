#!/usr/bin/env bash
# Benchmarks the rating service on this machine: builds a Release tree,
# starts a private redis-server (AOF, fsync every second) and PostgreSQL
# (default durability: fsync on, synchronous commit) on free ports and one
# rating binary, then runs the load generator RUNS times: each run writes
# RESULTS finished games (5% twice) to the results stream and times until
# all are in PostgreSQL, then checks each was applied exactly once. Prints
# every run, the median, and the load average; stops everything whatever
# happens.
#
#   tests/bench/rating/run.sh                  # 5 runs of 20,000 results
#   RUNS=3 RESULTS=50000 BATCH=200 tests/bench/rating/run.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
build=${BUILD_DIR:-$root/build/release}
runs=${RUNS:-5}
results=${RESULTS:-20000}
batch=${BATCH:-100}
pg_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}

export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
if [ -z "${NO_BUILD:-}" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$build" -j"${JOBS:-2}" rating rating_loadgen
fi

work=$(mktemp -d /tmp/rating-bench.XXXXXX)
chmod 755 "$work"
pids=()
as_pg=()
[ "$(id -u)" -eq 0 ] && as_pg=(runuser -u postgres --)
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -d "$work/pg" ]; then
    "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# free_port: below the ephemeral range, where no outgoing connection takes it.
source "$root/scripts/lib/servers.sh"

redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly yes \
  --appendfsync everysec --dir "$work" --logfile "$work/redis.log" &
pids+=($!)

pg_port=$(free_port)
[ "$(id -u)" -eq 0 ] && chown postgres "$work"
"${as_pg[@]}" "$pg_bin/initdb" -D "$work/pg" -A trust -U postgres >"$work/initdb.log" 2>&1
"${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w -t 60 \
  -o "-p $pg_port -k $work/pg -c listen_addresses=127.0.0.1" start >/dev/null
"${as_pg[@]}" "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres rating_bench
pg="host=127.0.0.1 port=$pg_port dbname=rating_bench user=postgres connect_timeout=5"
for _ in $(seq 100); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
  sleep 0.05
done

"$build/services/rating/rating" --listen=127.0.0.1:0 --metrics-port=-1 --log-level=warn \
  --drain=0s --redis="127.0.0.1:$redis_port" --pg="$pg" --batch-size="$batch" \
  --consumer-name=bench >"$work/rating.out" 2>"$work/rating.log" &
pids+=($!)
[ -n "$(listening_port "$work/rating.out" $!)" ] || { echo "rating did not start:"; cat "$work/rating.log"; exit 1; }

echo "bench: redis 127.0.0.1:$redis_port (AOF everysec), postgres 127.0.0.1:$pg_port (fsync on), batch $batch"
echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
rates=()
for i in $(seq "$runs"); do
  line=$("$build/tests/bench/rating/rating_loadgen" --redis="127.0.0.1:$redis_port" --pg="$pg" \
    --results="$results" --run="run$i")
  echo "run $i: $line"
  rates+=("$(sed -n 's/.*results_per_s=\([0-9]*\).*/\1/p' <<<"$line")")
done
median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
echo "median results_per_s=$median over $runs runs of $results results"
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
