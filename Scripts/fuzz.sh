#!/usr/bin/env bash
# Fuzzes every parser that reads outside bytes (Tests/Fuzz): first each target replays its seed
# corpus and every input that ever failed (Tests/Fuzz/Regressions), then libFuzzer mutates for
# SECONDS per target. Any failed property, crash, input slower than a second or memory past
# 2 GB stops the run; the input is left in the work directory printed at the end.
#
# usage: Scripts/fuzz.sh [SECONDS] [TARGET...]   (default: 20 seconds, every target)
#        Scripts/fuzz.sh 600 todos-file          (ten minutes on one target)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
shift || true
all=(count-file todos-file search forecast json-scan keys script screen-text)
[ "$#" -gt 0 ] && targets=("$@") || targets=("${all[@]}")

swift build --package-path Tests/Fuzz --sanitize=fuzzer -Xswiftc -warnings-as-errors 2>&1 | tail -1
binary=$(swift build --package-path Tests/Fuzz --sanitize=fuzzer --show-bin-path)/FuzzParsers
work=$(mktemp -d)
echo "work directory: $work"
# Swift's own crash handler would catch the trap first, and libFuzzer would not save the input.
export SWIFT_BACKTRACE=enable=no

# One target: replays its seeds and regressions, then fuzzes. Prints what it found; its exit
# status says whether it passed.
fuzz_one() {
  local target=$1
  [ -d "Tests/Fuzz/Corpus/$target" ] || { echo "no seed corpus for $target"; return 1; }
  local corpus="$work/$target/corpus"
  mkdir -p "$corpus" "$work/$target/artifacts"
  cp Tests/Fuzz/Corpus/"$target"/* "$corpus"/
  local regressions=()
  if [ -d "Tests/Fuzz/Regressions/$target" ]; then
    regressions=(Tests/Fuzz/Regressions/"$target"/*)
  fi
  FUZZ_TARGET=$target "$binary" -timeout=1 -rss_limit_mb=2048 "$corpus"/* "${regressions[@]}" \
    >"$work/$target/replay.txt" 2>&1 || {
    tail -30 "$work/$target/replay.txt"
    echo "$target: a seed or regression input fails"
    return 1
  }
  if ! FUZZ_TARGET=$target "$binary" "$corpus" -max_total_time="$seconds" -timeout=1 \
    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$work/$target/artifacts/" >"$work/$target/fuzz.txt" 2>&1; then
    grep -B2 -A12 "property failed\|ERROR: libFuzzer\|Fatal error\|deadly signal\|timeout\|out-of-memory" \
      "$work/$target/fuzz.txt" | head -40 || tail -40 "$work/$target/fuzz.txt"
    echo "$target: failed; the input: $(ls "$work/$target/artifacts/")"
    echo "keep it: cp $work/$target/artifacts/<file> Tests/Fuzz/Regressions/$target/"
    return 1
  fi
  local runs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$target/fuzz.txt")
  echo "$target: $runs inputs in ${seconds}s, $(ls "$corpus" | wc -l) in the corpus, nothing found"
}

# As many targets at a time as there are cores (libFuzzer runs on one): each still gets its
# SECONDS. A batch's reports are printed in the targets' order once the batch ends.
jobs=${FUZZ_JOBS:-$(nproc)}
failed=0
for ((first = 0; first < ${#targets[@]}; first += jobs)); do
  batch=("${targets[@]:first:jobs}")
  pids=()
  for target in "${batch[@]}"; do
    mkdir -p "$work/$target"
    fuzz_one "$target" >"$work/$target/report.txt" 2>&1 &
    pids+=($!)
  done
  for index in "${!batch[@]}"; do
    status=0
    wait "${pids[$index]}" || status=$?
    cat "$work/${batch[$index]}/report.txt"
    [ "$status" -eq 0 ] || failed=1
  done
  [ "$failed" -eq 0 ] || exit 1
done
rm -rf "$work"
