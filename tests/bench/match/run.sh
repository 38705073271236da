#!/usr/bin/env bash
# Strength and speed of the bot levels: engine-vs-engine matches through the
# Hub protocol with Release binaries (tools/hub, tools/match).
#
#   tests/bench/match/run.sh                     # the four matches below
#   tests/bench/match/run.sh english:medium:easy # only the ones named
#   OPENINGS=5 tests/bench/match/run.sh          # fewer openings (smoke run)
#
# Each match is VARIANT:LEVEL1:LEVEL2; 20 openings x 2 colours = 40 games by
# default. Games run one at a time (the machine is shared). Per match, the
# PDN of every game and the log go to $OUT_DIR (default
# build/engine-tools/bench-match). At the end every RESULT line is checked
# against the targets of issue #4:
#   - the stronger level scores at least 75% of the points;
#   - hard averages 1.3-1.7 s per move and never takes more than 3 s;
#   - medium never takes more than 200 ms, easy never more than 50 ms.
# Exit status 1 if a target is missed (the numbers are printed either way).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build/engine-tools}"
OUT_DIR="${OUT_DIR:-$BUILD_DIR/bench-match}"
OPENINGS="${OPENINGS:-20}"
JOBS="${JOBS:-2}"

matches=("$@")
if [ ${#matches[@]} -eq 0 ]; then
  matches=(international:hard:medium international:medium:easy
           english:hard:medium english:medium:easy)
fi

cmake -G Ninja -B "$BUILD_DIR" -S "$ROOT" -DCMAKE_BUILD_TYPE=Release \
  -DDRAUGHTS_WITH_SERVICES=OFF >/dev/null
ninja -C "$BUILD_DIR" -j"$JOBS" hub match >/dev/null
HUB="$BUILD_DIR/tools/hub/hub"
MATCH="$BUILD_DIR/tools/match/match"
mkdir -p "$OUT_DIR"

# Longest a level may think per move, in ms (0 = not checked), and the
# window for hard's average.
max_ms() { case "$1" in hard) echo 3000 ;; medium) echo 200 ;; easy) echo 50 ;; *) echo 0 ;; esac; }
HARD_AVG_MIN=1300
HARD_AVG_MAX=1700

failures=0
check() {  # check <description> <1 if met, else 0>
  if [ "$2" = 1 ]; then echo "  ok    $1"; else echo "  MISS  $1"; failures=$((failures + 1)); fi
}

summary=()
for spec in "${matches[@]}"; do
  IFS=: read -r variant level1 level2 <<<"$spec"
  name="$variant-$level1-vs-$level2"
  echo "== $name: $((OPENINGS * 2)) games ($(date -u +%FT%TZ))"
  start=$(date +%s)
  "$MATCH" --engine1="$HUB" --engine2="$HUB" --variant="$variant" \
    --option1=level="$level1" --option2=level="$level2" \
    --name1="$level1" --name2="$level2" --openings-count="$OPENINGS" \
    --event="$name" --pdn="$OUT_DIR/$name.pdn" | tee "$OUT_DIR/$name.log"
  echo "   took $(( $(date +%s) - start )) s"
  summary+=("$name $level1 $level2 $(grep '^RESULT ' "$OUT_DIR/$name.log")")
done

echo
echo "== Summary (engine 1 = first level)"
for line in "${summary[@]}"; do
  read -r name level1 level2 _ <<<"$line"
  echo "$name ${line#* * * }"
  get() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
  score=$(get score)
  check "$name: $level1 scores $(awk -v s="$score" 'BEGIN{printf "%.1f", 100*s}')% >= 75%" \
    "$(awk -v s="$score" 'BEGIN{print (s >= 0.75) ? 1 : 0}')"
  for i in 1 2; do
    if [ $i = 1 ]; then level=$level1; else level=$level2; fi
    avg=$(get "avg_ms$i")
    max=$(get "max_ms$i")
    limit=$(max_ms "$level")
    if [ "$limit" != 0 ]; then
      check "$name: $level max $max ms <= $limit ms" "$([ "$max" -le "$limit" ] && echo 1 || echo 0)"
    fi
    if [ "$level" = hard ]; then
      check "$name: hard avg $avg ms in $HARD_AVG_MIN-$HARD_AVG_MAX ms" \
        "$(awk -v a="$avg" -v lo=$HARD_AVG_MIN -v hi=$HARD_AVG_MAX \
          'BEGIN{print (a >= lo && a <= hi) ? 1 : 0}')"
    fi
  done
done
echo
if [ "$failures" -gt 0 ]; then
  echo "$failures target(s) missed"
  exit 1
fi
echo "all targets met"
