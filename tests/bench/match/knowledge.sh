#!/usr/bin/env bash
# Hard with its knowledge (learned evaluation, opening book, endgame
# databases) against Hard as it was before them (hand-set evaluation, no
# book, no databases), at equal time a move: the measure of issue #17.
#
#   tests/bench/match/knowledge.sh                        # international and english
#   OPENINGS=100 MOVE_TIME=1.5 tests/bench/match/knowledge.sh english
#
# OPENINGS built-in openings, each played with both colours (100 = the
# 200 games the issue asks for). KNOWLEDGE (default "eval book egdb") says
# what the first engine gets: the learned evaluation (without it, the
# hand-set one like the second engine), the books of BOOK_DIR (default
# data/book), the databases of EGDB_DIR (default /work/data/egdb, built by
# scripts/build-egdb); so one piece at a time can be measured. Rule sets named on the command line run in
# parallel, one engine thinking at a time in each, so two rule sets take
# the two cores. PDN and logs go to $OUT_DIR. Prints each match's RESULT
# line (score, Elo with its 95% margin, move times).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build/engine-tools}"
OUT_DIR="${OUT_DIR:-$BUILD_DIR/bench-knowledge}"
OPENINGS="${OPENINGS:-100}"
MOVE_TIME="${MOVE_TIME:-1.5}"
EGDB_DIR="${EGDB_DIR:-/work/data/egdb}"
BOOK_DIR="${BOOK_DIR:-$ROOT/data/book}"
KNOWLEDGE="${KNOWLEDGE:-eval book egdb}"
JOBS="${JOBS:-2}"

variants=("$@")
[ ${#variants[@]} -eq 0 ] && variants=(international english)

if [ -z "${NO_BUILD:-}" ]; then
  cmake -G Ninja -B "$BUILD_DIR" -S "$ROOT" -DCMAKE_BUILD_TYPE=Release \
    -DDRAUGHTS_WITH_SERVICES=OFF >/dev/null
  ninja -C "$BUILD_DIR" -j"$JOBS" hub match >/dev/null
fi
HUB="$BUILD_DIR/tools/hub/hub"
MATCH="$BUILD_DIR/tools/match/match"
mkdir -p "$OUT_DIR"

has() { [[ " $KNOWLEDGE " == *" $1 "* ]]; }
# The databases are a process-wide setting (DRAUGHTS_EGDB_DIR); match runs
# each engine command through /bin/sh -c.
without_egdb="env -u DRAUGHTS_EGDB_DIR $(printf %q "$HUB")"
engine1=$without_egdb
has egdb && engine1="env DRAUGHTS_EGDB_DIR=$(printf %q "$EGDB_DIR") $(printf %q "$HUB")"
options1=(--option1=level=hard)
has book && options1+=(--option1=book="$BOOK_DIR")
has eval || options1+=(--option1=eval=classic)
label=$(echo "$KNOWLEDGE" | tr ' ' '+')

run_one() {
  local variant=$1 name="$1-$label-vs-before"
  "$MATCH" --engine1="$engine1" --engine2="$without_egdb" --variant="$variant" \
    "${options1[@]}" --option2=level=hard --option2=eval=classic \
    --name1="$label" --name2=before --move-time="$MOVE_TIME" \
    --openings-count="$OPENINGS" --event="$name" --pdn="$OUT_DIR/$name.pdn" \
    >"$OUT_DIR/$name.log" 2>&1
}

echo "== $label against before: $((OPENINGS * 2)) games a rule set at $MOVE_TIME s a move, $(date -u +%FT%TZ)," \
  "load $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
pids=()
for variant in "${variants[@]}"; do
  run_one "$variant" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
echo "   took $(($(date +%s) - start)) s, load $(cut -d' ' -f1-3 /proc/loadavg)"
for variant in "${variants[@]}"; do
  echo "$variant: $(grep '^RESULT ' "$OUT_DIR/$variant-$label-vs-before.log" || echo 'no result')"
done
exit "$status"
