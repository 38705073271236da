#!/usr/bin/env bash
# Builds the libFuzzer targets of the rules library's text parsers with clang
# in build/fuzz and runs each for a bounded time (FUZZ_SECONDS, default 60).
# Seeds come from tests/fuzz/corpus/<target>; what the fuzzer learns goes to
# build/fuzz/corpus/<target> (not committed) and crashes to
# build/fuzz/artifacts/. Exits non-zero if any target found a crash.
#
#   tests/bench/fuzz/run.sh                 # every target, 60 s each
#   FUZZ_SECONDS=10 tests/bench/fuzz/run.sh pdn
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
build="${root}/build/fuzz"
seconds="${FUZZ_SECONDS:-60}"
jobs="${FUZZ_BUILD_JOBS:-2}"
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then targets=(fen move_notation pdn); fi

cmake -G Ninja -S "${root}" -B "${build}" \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=Debug -DDRAUGHTS_FUZZ=ON -DDRAUGHTS_WITH_SERVICES=OFF >/dev/null
ninja -C "${build}" -j "${jobs}" "${targets[@]/#/fuzz_}"

mkdir -p "${build}/artifacts"
failed=()
for target in "${targets[@]}"; do
  corpus="${build}/corpus/${target}"
  seeds="${root}/tests/fuzz/corpus/${target}"
  mkdir -p "${corpus}"
  dict=()
  if [[ -f "${root}/tests/fuzz/${target}.dict" ]]; then
    dict=("-dict=${root}/tests/fuzz/${target}.dict")
  fi
  echo "== fuzz_${target}: ${seconds} s"
  start=$(date +%s)
  if "${build}/tests/fuzz/fuzz_${target}" "${dict[@]}" \
      -max_total_time="${seconds}" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="${build}/artifacts/${target}-" \
      "${corpus}" "${seeds}" > "${build}/fuzz_${target}.log" 2>&1; then
    status=ok
  else
    status=FAILED
    failed+=("${target}")
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "${build}/fuzz_${target}.log" | grep -o '[0-9]*$' || echo '?')
  echo "   ${status}: ${runs} inputs in $(( $(date +%s) - start )) s, corpus $(ls "${corpus}" | wc -l) files" \
       "(log: ${build}/fuzz_${target}.log)"
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "crashes in: ${failed[*]} (inputs in ${build}/artifacts/)" >&2
  exit 1
fi
echo "no crash in: ${targets[*]}"
