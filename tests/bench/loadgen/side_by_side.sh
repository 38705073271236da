#!/usr/bin/env bash
# Two builds of the platform measured side by side at the same crowd:
# gateway_run.sh alternately on each (A, B, A, B, ...), a pause between
# runs, then the medians of each tree's runs and the ratio B / A. This
# machine's speed swings within minutes, so only runs interleaved like this
# are compared (docs/BENCHMARKS.md).
#
#   tests/bench/loadgen/side_by_side.sh /tmp/tree-old /tmp/tree-new
#   PAIRS=2 RATE=2000 DURATION=60s tests/bench/loadgen/side_by_side.sh A B
#
# A tree is a build directory, or a copy holding only what gateway_run.sh
# starts: services/{gateway,game_state,matchmaking,clock,chat}/<name> and
# tools/loadgen/loadgen (Release builds). The crowd's variables
# (GAMES, SPECTATORS, RATE, DURATION...) pass through; GAMES, SPECTATORS
# and RATE default to the target crowd here. PAUSE: seconds between runs.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 TREE_A TREE_B" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
pairs=${PAIRS:-3}
pause=${PAUSE:-15}
export GAMES=${GAMES:-2000} SPECTATORS=${SPECTATORS:-1000} RATE=${RATE:-3000}
export SKIP_BUILD=yes
results=$(mktemp)
trap 'rm -f "$results"' EXIT

for run in $(seq "$pairs"); do
  for side in A B; do
    tree=$1
    [ "$side" = B ] && tree=$2
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    out=$(BUILD_DIR="$tree" "$here/gateway_run.sh" 2>&1) || {
      echo "$out" >&2
      exit 1
    }
    moves=$(sed -n 's/^moves_per_s=\([0-9]*\).*/\1/p' <<<"$out")
    p99=$(sed -n 's/.* p99_ms=\([0-9.]*\).*/\1/p' <<<"$out" | head -1)
    lost=$(grep -E '^lost_events=' <<<"$out" || true)
    cpu=$(awk '/window_cpu_us_per_move=/ {
             split($3, a, "="); printf "%s%s=%s", sep, $1, a[2]; sep = " " }' <<<"$out")
    echo "$side run=$run $(date -u +%H:%M:%S) load_before=${load// //} moves_per_s=$moves" \
      "p99_ms=$p99 $lost cpu_us_per_move: $cpu"
    echo "$side moves $moves" >>"$results"
    echo "$side p99 $p99" >>"$results"
    awk -v side="$side" '/window_cpu_us_per_move=/ {
           split($3, a, "="); print side, $1, a[2] }' <<<"$out" >>"$results"
    sleep "$pause"
  done
done

# Medians per tree and quantity, and B / A.
echo "medians over $pairs runs each (A = $1, B = $2):"
awk '
  { values[$1 " " $2] = values[$1 " " $2] " " $3; names[$2] = 1 }
  function median(list,    n, v, i, j, t) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
      t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
    }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  END {
    for (name in names) {
      a = median(values["A " name]); b = median(values["B " name])
      label = name == "moves" ? "moves_per_s" : name == "p99" ? "p99_ms" : name " us/move"
      printf "  %-22s A=%-8s B=%-8s B/A=%.3f\n", label, a, b, (a > 0 ? b / a : 0)
    }
  }' "$results" | sort
