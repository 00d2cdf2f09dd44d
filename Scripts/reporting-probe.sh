#!/usr/bin/env bash
# Every test tool fails a wrong assertion under XCTest and under Swift Testing alike, at the
# caller's line. Runs Tests/ReportingProbeTests (one wrong assertion per tool, made from an
# XCTest case that imports only XCTest and from a Swift Testing test; skipped unless
# ARCH_REPORTING_PROBE=1) in a child process, and checks that every one of them failed its test
# with the tool's message at the `PROBE` line. Uses the root's debug build (`swift build
# --build-tests`), building it first if it is missing.
set -uo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests >/dev/null || { echo "the probe does not build"; exit 1; }
out=$(mktemp)
ARCH_REPORTING_PROBE=1 swift test --skip-build --filter 'ReportingProbeTests\.' >"$out" 2>&1
status=$?
source_file=Tests/ReportingProbeTests/WrongAssertions.swift
failed=0
[ "$status" -ne 0 ] || { echo "the probe's tests passed: a wrong assertion went unreported"; failed=1; }
# Each tool's message, as a user reads it under either framework.
declare -A message=(
  [elm-store]="State after 1 differs from the expected state"
  [elm-store-dismissal]="left its work running:"
  [mue]="when 1:"
  [mue-dismissal]="effects ended with a dismissed child differ"
  [io-loop]="step 1 (1):"
  [layer-core]="state differs: (− expected, + actual)"
  [layer-core-dismissal]="dismissing the child at"
  [comonadic]="State after 1 differs from the expected state"
  [comonadic-dismissal]="Work cancelled with the children false dismissed differs"
  [kit]="probe · counter · c1.increment \\[R1\\]"
)
for tool in elm-store elm-store-dismissal mue mue-dismissal io-loop layer-core layer-core-dismissal comonadic comonadic-dismissal kit; do
  line=$(grep -n "// PROBE $tool\$" "$source_file" | cut -d: -f1)
  if [ "$(grep -c -- "${message[$tool]}" "$out")" -lt 2 ]; then
    echo "$tool: the message '${message[$tool]}' is not reported under both frameworks"
    failed=1
  fi
  xctest=$(grep -c "WrongAssertions.swift:$line: error: XCTestProbe\." "$out")
  swifttesting=$(grep -c "recorded an issue at WrongAssertions.swift:$line:" "$out")
  printf '%-20s line %-3s XCTest failures: %s, Swift Testing issues: %s\n' "$tool" "$line" "$xctest" "$swifttesting"
  if [ "$xctest" -lt 1 ] || [ "$swifttesting" -lt 1 ]; then failed=1; fi
done
grep -q "Executed 10 tests, with [1-9][0-9]* failures" "$out" || { echo "XCTest: not every case failed"; failed=1; }
grep -q "✘ Test run with 10 tests" "$out" || { echo "Swift Testing: not every test failed"; failed=1; }
if [ "$failed" -ne 0 ]; then cat "$out"; exit 1; fi
grep -E "XCTestProbe.testElmStore : failed|differs from the expected state" "$out" | head -2
echo "every tool failed its wrong assertion under XCTest and Swift Testing, at the caller's line"
