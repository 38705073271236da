# Private Redis and PostgreSQL servers on free loopback ports, for tests and
# local runs. Source this file; call start_redis / start_postgres with a
# directory, and stop_servers (safe to call twice) from a trap.

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
_server_pids=()
_pg_data=""

# Below Linux's ephemeral range (32768 and up): a port there can be taken
# by any outgoing connection between this check and the server's bind.
free_port() {
  local port
  for _ in $(seq 1 200); do
    port=$((20000 + RANDOM % 12000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "no free port found" >&2
  return 1
}

wait_for_port() {
  local port=$1 what=$2
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "$what did not start listening on port $port" >&2
  return 1
}

# listening_port OUT [PID]: the port a service started with --listen=...:0
# announces ("LISTENING <port>" on its stdout, OUT), waited for up to 15 s
# or until PID exits; prints nothing if it never came.
listening_port() {
  local out=$1 pid=${2:-}
  for _ in $(seq 300); do
    grep -q LISTENING "$out" 2>/dev/null && break
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.05
  done
  awk '/LISTENING/ {print $2; exit}' "$out" 2>/dev/null
}

# start_redis DIR -> sets REDIS_PORT
start_redis() {
  local dir=$1
  mkdir -p "$dir"
  REDIS_PORT=$(free_port)
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$dir" --save '' --appendonly no \
    --logfile "$dir/redis.log" --daemonize no &
  _server_pids+=($!)
  wait_for_port "$REDIS_PORT" redis-server
}

# start_redis_cluster DIR [NODES] -> sets REDIS_CLUSTER_PORTS (space separated)
# and REDIS_CLUSTER_ADDRESS (cluster://host:port,... for --redis): NODES
# (default 6) redis-servers in cluster mode with AOF, joined with one replica
# per master (three masters for six nodes).
start_redis_cluster() {
  local dir=$1 nodes=${2:-6} port addresses=() seeds=()
  REDIS_CLUSTER_PORTS=""
  for _ in $(seq 1 "$nodes"); do
    # The cluster bus listens on port + 10000.
    for _ in $(seq 1 50); do
      port=$(free_port)
      [ "$port" -lt 55000 ] && ! (exec 3<>"/dev/tcp/127.0.0.1/$((port + 10000))") 2>/dev/null && break
    done
    mkdir -p "$dir/$port"
    redis-server --port "$port" --bind 127.0.0.1 --dir "$dir/$port" --cluster-enabled yes \
      --cluster-config-file nodes.conf --cluster-node-timeout 1000 --appendonly yes --save '' \
      --logfile "$dir/$port/redis.log" --daemonize no &
    _server_pids+=($!)
    REDIS_CLUSTER_PORTS="$REDIS_CLUSTER_PORTS $port"
    addresses+=("127.0.0.1:$port")
    [ ${#seeds[@]} -lt 3 ] && seeds+=("127.0.0.1:$port")
  done
  REDIS_CLUSTER_PORTS=${REDIS_CLUSTER_PORTS# }
  for port in $REDIS_CLUSTER_PORTS; do wait_for_port "$port" redis-server || return 1; done
  redis-cli --cluster create "${addresses[@]}" --cluster-replicas 1 --cluster-yes \
    >"$dir/create.log" 2>&1 || { echo "redis-cli --cluster create failed: see $dir/create.log" >&2; return 1; }
  # Ready when the cluster is ok and every replica's link is online: writes
  # wait for a replica (WAIT), so one still in its first sync would stall them.
  local online
  for _ in $(seq 1 300); do
    online=0
    for port in $REDIS_CLUSTER_PORTS; do
      online=$((online + $(redis-cli -p "$port" info replication 2>/dev/null | grep -c 'state=online')))
    done
    if [ "$online" -ge $((nodes / 2)) ] &&
      redis-cli -p "${REDIS_CLUSTER_PORTS%% *}" cluster info 2>/dev/null | grep -q 'cluster_state:ok'; then
      REDIS_CLUSTER_ADDRESS="cluster://$(IFS=,; echo "${seeds[*]}")"
      return 0
    fi
    sleep 0.1
  done
  echo "redis cluster did not become ok" >&2
  return 1
}

# start_postgres DIR -> sets PG_PORT, PG_SOCKET_DIR; creates database draughts_test
start_postgres() {
  local dir=$1
  mkdir -p "$dir"
  chmod 755 "$dir"
  chmod o+x "$(dirname "$dir")" 2>/dev/null || true
  _pg_data="$dir/data"
  PG_PORT=$(free_port)
  PG_SOCKET_DIR="$_pg_data"
  local as_pg=()
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres "$dir"
    as_pg=(runuser -u postgres --)
  fi
  "${as_pg[@]}" "$PG_BIN/initdb" -D "$_pg_data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1
  "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$_pg_data" -l "$_pg_data/server.log" -w -t 60 \
    -o "-p $PG_PORT -k $_pg_data -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" \
    start >/dev/null
  "${as_pg[@]}" "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres draughts_test
}

stop_servers() {
  if [ -n "$_pg_data" ] && [ -d "$_pg_data" ]; then
    local as_pg=()
    [ "$(id -u)" -eq 0 ] && as_pg=(runuser -u postgres --)
    "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$_pg_data" -m immediate -w stop >/dev/null 2>&1 || true
    _pg_data=""
  fi
  local pid
  for pid in "${_server_pids[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  _server_pids=()
}
