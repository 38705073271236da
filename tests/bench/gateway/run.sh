#!/usr/bin/env bash
# Runs game_sockets.mjs against the Release binaries of BUILD (default
# build/release): GAMES, SPECTATORS, RATE, SECONDS, WORKER_THREADS pass
# through. Needs tests/contract's node_modules (npm ci there) for `ws`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
build="${BUILD:-$root/build/release}"
export DRAUGHTS_GATEWAY_BIN="${DRAUGHTS_GATEWAY_BIN:-$build/services/gateway/gateway}"
export DRAUGHTS_GAME_STATE_BIN="${DRAUGHTS_GAME_STATE_BIN:-$build/services/game_state/game_state}"
export DRAUGHTS_REDIS_SERVER="${DRAUGHTS_REDIS_SERVER:-$(command -v redis-server)}"
cd "$root"
exec node tests/bench/gateway/game_sockets.mjs
