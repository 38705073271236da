#!/usr/bin/env bash
# A PostgreSQL cluster of a fault test's own, which the test stops and
# starts (the shared one of scripts/test must stay up):
#   private_pg.sh init DIR PORT     initdb, start, create database draughts_test
#   private_pg.sh stop DIR          fast shutdown (sessions are ended)
#   private_pg.sh start DIR PORT    start again on the same data
#   private_pg.sh query PORT SQL    first column of the first row
#   private_pg.sh destroy DIR       immediate stop, remove DIR
# PG_BIN names the server binaries (DRAUGHTS_TEST_PG_BIN).
set -euo pipefail
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
as_pg=()
[ "$(id -u)" -eq 0 ] && as_pg=(runuser -u postgres --)

start() {
  local dir=$1 port=$2
  "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir/data -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50" \
    start >/dev/null
}

case $1 in
  init)
    dir=$2
    mkdir -p "$dir"
    chmod 755 "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    "${as_pg[@]}" "$PG_BIN/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1
    start "$dir" "$3"
    "${as_pg[@]}" "$PG_BIN/createdb" -h 127.0.0.1 -p "$3" -U postgres draughts_test
    ;;
  stop) "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$2/data" -m fast -w -t 60 stop >/dev/null ;;
  start) start "$2" "$3" ;;
  query) "$PG_BIN/psql" -h 127.0.0.1 -p "$2" -U postgres -d draughts_test -At -v ON_ERROR_STOP=1 -c "$3" | head -n1 ;;
  destroy)
    "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$2/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$2"
    ;;
  *) echo "unknown command $1" >&2; exit 2 ;;
esac
