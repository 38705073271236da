#!/usr/bin/env bash
# Perft speed of the rules library, one thread, Release build.
#
#   tests/bench/perft/run.sh            # every rule set, 5 runs each, median
#   RUNS=3 HASH_MB=256 tests/bench/perft/run.sh international english
#
# For each rule set it runs tools/perft from the start position at a fixed
# depth without a table (the move generator alone) and with a table
# (HASH_MB, default 256), checks the count against the published figure
# when there is one, and prints the median time and the speed in leaf
# nodes per second (the usual perft figure; the last ply is bulk-counted).
# Depths can be changed with DEPTH_<id> (dashes as underscores).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
build=${BUILD_DIR:-$root/build/rules-release}
runs=${RUNS:-5}
hash_mb=${HASH_MB:-256}

cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DDRAUGHTS_WITH_SERVICES=OFF >/dev/null
ninja -C "$build" -j2 perft >/dev/null
perft=$build/tools/perft/perft

declare -A depth=([international]=11 [english]=12 [canadian]=9 [tutorial-8x8]=11
                  [russian]=10 [brazilian]=11 [pool]=10 [spanish]=11 [czech]=11 [italian]=11
                  [thai]=9 [antidraughts]=9 [breakthrough]=9 [frisian]=10 [turkish]=9)
# Published counts (see tests/unit/rules_core/perft_counts.h and
# tests/unit/rules_variants/variant_perft_counts.h for sources).
declare -A expected=([international:11]=1665861398 [international:10]=258895763
                     [english:12]=388623673 [english:11]=85242128
                     [canadian:8]=31839056
                     [russian:10]=22450628 [brazilian:11]=105491257 [spanish:11]=81383200
                     [czech:11]=84967210 [italian:11]=81647058 [thai:9]=114530830
                     [antidraughts:9]=41022423 [breakthrough:9]=41022423
                     [frisian:10]=85817725
                     [turkish:9]=1454144462 [turkish:10]=16991457316)

variants=("$@")
[ ${#variants[@]} -eq 0 ] && variants=(international english canadian tutorial-8x8 russian brazilian
                                      pool spanish czech italian thai antidraughts breakthrough
                                      frisian turkish)

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%-14s %5s %7s %12s %10s %12s\n' variant depth hash_mb count median_s Mnodes/s
status=0
for v in "${variants[@]}"; do
  var="DEPTH_${v//-/_}"
  d=${!var:-${depth[$v]:-8}}
  for mb in 0 "$hash_mb"; do
    times=()
    count=""
    for ((i = 0; i < runs; i++)); do
      start=$(date +%s.%N)
      count=$("$perft" --variant="$v" --depth="$d" --hash-mb="$mb" 2>/dev/null | tail -1)
      end=$(date +%s.%N)
      times+=("$(echo "$end - $start" | bc -l)")
    done
    t=$(printf '%s\n' "${times[@]}" | median)
    speed=$(echo "$count / $t / 1000000" | bc -l)
    printf '%-14s %5d %7d %12d %10.3f %12.1f' "$v" "$d" "$mb" "$count" "$t" "$speed"
    want=${expected[$v:$d]:-}
    if [ -n "$want" ] && [ "$want" != "$count" ]; then
      printf '   WRONG (published %s)' "$want"
      status=1
    fi
    printf '\n'
  done
done
exit $status
