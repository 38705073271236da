#!/usr/bin/env bash
# The gateway's JSON printing, library against fast printer, side by side.
# Build first (Release):  ninja -C build/release gateway_json_bench
#   tests/bench/gateway_json/run.sh [build dir, default build/release] [prints per repetition] [repetitions]
set -euo pipefail
cd "$(dirname "$0")/../../.."
build=${1:-build/release}
bench="$build/tests/bench/gateway_json/gateway_json_bench"
if [[ ! -x "$bench" ]]; then
  echo "missing $bench: ninja -C $build gateway_json_bench" >&2
  exit 1
fi
exec "$bench" "${2:-3000}" "${3:-9}"
