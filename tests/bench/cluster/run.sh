#!/usr/bin/env bash
# Benchmarks game_state on a Redis Cluster: builds a Release tree, starts a
# private cluster (six redis-servers: three masters with one replica each,
# AOF everysec; scripts/lib/servers.sh start_redis_cluster) and two
# game_state replicas on it, runs tests/bench/game_state's load generator
# against both, prints its figures, and stops everything whatever happens.
#
#   tests/bench/cluster/run.sh                        # 32 games, 20 s, wait=1
#   WAIT=0 GAMES=64 tests/bench/cluster/run.sh         # writes not confirmed by a replica
#   ROUTING=per_game tests/bench/cluster/run.sh
#   TOPOLOGY=single tests/bench/cluster/run.sh         # one redis-server (AOF), to compare
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
build=${BUILD_DIR:-$root/build/release}
games=${GAMES:-32}
duration=${DURATION:-20s}
warmup=${WARMUP:-3s}
routing=${ROUTING:-round_robin}
wait_replicas=${WAIT:-1}
topology=${TOPOLOGY:-cluster}

export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
if [ -z "${NO_BUILD:-}" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$build" -j"${JOBS:-2}" game_state game_state_loadgen
fi

# shellcheck source=../../../scripts/lib/servers.sh
source "$root/scripts/lib/servers.sh"
work=$(mktemp -d /tmp/cluster-bench.XXXXXX)
replica_pids=()
cleanup() {
  [ -n "${KEEP_LOGS:-}" ] && cp "$work"/replica*.log "$KEEP_LOGS"/ 2>/dev/null
  for pid in "${replica_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${replica_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  stop_servers
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$topology" = single ]; then
  REDIS_PORT=$(free_port)
  mkdir -p "$work/redis"
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$work/redis" --save '' \
    --appendonly yes --appendfsync everysec --logfile "$work/redis/redis.log" &
  _server_pids+=($!)
  wait_for_port "$REDIS_PORT" redis-server
  redis="127.0.0.1:$REDIS_PORT"
  REDIS_CLUSTER_PORTS=""
else
  start_redis_cluster "$work/redis"
  redis="$REDIS_CLUSTER_ADDRESS?wait=$wait_replicas"
fi

targets=""
for i in 1 2; do
  "$build/services/game_state/game_state" --listen=127.0.0.1:0 --redis="$redis" \
    --metrics-port=-1 --token-secret=bench-shared-secret-0123 --replica-id="bench-$i" \
    --log-level=warn --drain=0s >"$work/replica$i.out" 2>"$work/replica$i.log" &
  replica_pids+=($!)
  port=$(listening_port "$work/replica$i.out" $!)
  [ -n "$port" ] || { echo "replica $i did not start:"; cat "$work/replica$i.log"; exit 1; }
  targets="${targets:+$targets,}127.0.0.1:$port"
done

echo "bench: redis $redis, replicas $targets"
echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
"$build/tests/bench/game_state/game_state_loadgen" --targets="$targets" --games="$games" \
  --duration="$duration" --warmup="$warmup" --routing="$routing"
# Where the games went: keys per master.
for port in $REDIS_CLUSTER_PORTS; do
  role=$(redis-cli -p "$port" role | head -1)
  [ "$role" = master ] && echo "bench: master $port holds $(redis-cli -p "$port" dbsize) keys"
done
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
