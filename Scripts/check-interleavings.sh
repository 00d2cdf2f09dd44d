#!/usr/bin/env bash
# The kernel's stop and drain protocol over every interleaving (Kernel/Model/StopDrain.pml):
# spin explores each scenario exhaustively and must find nothing; each protocol mutant must be
# caught. First, every kernel function the model's steps name must still exist in
# Kernel/Runtime, so the model cannot silently drift from the code it stands for.
#
# usage: Scripts/check-interleavings.sh   (installs spin with apt-get when it is missing)
set -euo pipefail
cd "$(dirname "$0")/.."
model=Kernel/Model/StopDrain.pml

echo "-- the kernel functions the model names exist"
missing=0
names=$(grep -o 'kernel: [A-Za-z.,— ]*' "$model" | sed 's/kernel: //; s/ —.*//' | tr ',' '\n' \
  | sed 's/^ *//; s/ *$//' | grep -v '^$' | sort -u)
for name in $names; do
  type=${name%%.*}
  member=${name#*.}
  if [ "$type" = "$name" ]; then
    # A type or a free function.
    grep -rqE "(struct|class|enum|protocol) $type\b|func $type\b" Kernel/Runtime \
      || { echo "missing in Kernel/Runtime: $name"; missing=1; }
  else
    file=$(grep -rlE "(struct|class|enum|protocol|extension) $type\b" Kernel/Runtime || true)
    { [ -n "$file" ] && grep -qE "(func|var|init) $member\b" $file; } \
      || { echo "missing in Kernel/Runtime: $name"; missing=1; }
  fi
done
[ "$missing" -eq 0 ]
echo "$(wc -w <<<"$names") names found: $(tr '\n' ' ' <<<"$names")"

command -v spin >/dev/null || { apt-get update && apt-get install -y spin; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$model" "$work/"

# Verifies `model` with the given -D flags; prints spin's summary line; returns pan's verdict.
verify() {
  local label=$1
  shift
  (
    cd "$work"
    rm -f pan* ./*.trail
    spin -a "$@" StopDrain.pml >/dev/null
    # COLLAPSE: every state stored, compressed (scenario 3's ten million take 0.5 GB).
    gcc -O2 -DSAFETY -DCOLLAPSE -o pan pan.c
    # -m: a depth limit far above the deepest path (a few hundred steps).
    ./pan -m100000 >pan.out 2>&1 || true
    states=$(sed -n 's/^ *\([0-9]*\) states, stored.*/\1/p' pan.out)
    errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.out)
    reason=$(grep -m1 -E "^pan:.*(assertion violated|invalid end state)" pan.out \
      | sed 's/^pan:[0-9]*: *//' || true)
    printf '%-64s %8s states, %s errors %s\n' "$label" "${states:-?}" "${errors:-?}" "$reason"
    [ "${errors:-1}" -eq 0 ] || return 1
    # A clean search must have been complete.
    if grep -q "depth limit reached\|Search not completed" pan.out; then
      echo "the search was cut short"
      exit 2
    fi
  )
}

echo "-- every interleaving of the scenarios: nothing found"
verify "1: two senders, a stop from a third thread or an observer" -DSCENARIO=1
verify "2: two senders holding it weakly, the last reference dropped" -DSCENARIO=2
verify "3: scenario 1 and work in a gate section on a fourth thread" -DSCENARIO=3

echo "-- each protocol mutant is caught"
caught=0
for mutant in \
  "1 stop that does not wait for a delivery begun on another thread" \
  "2 a release that clears the claim though asked to look again" \
  "3 a drain whose claim is cleared after the lock is let go"; do
  number=${mutant%% *}
  for scenario in 1 2 3; do
    if verify "mutant $number (${mutant#* }), scenario $scenario" -DSCENARIO=$scenario -DMUTANT="$number"; then
      continue
    fi
    caught=$((caught + 1))
    continue 2
  done
  echo "mutant $number was not caught"
  exit 1
done
echo "all $caught mutants caught"
