#!/usr/bin/env bash
# Checks `arch run` end to end with a built binary: the scripted samples for every architecture
# (same screens everywhere, the counter's file survives a run), the message without a terminal,
# and the interactive screen in tmux (keys, redraw, the terminal restored on Ctrl-C and SIGTERM).
#
# usage: Scripts/live-samples.sh PATH/TO/arch
set -euo pipefail
arch=$(realpath "$1")
work=$(mktemp -d)
# A tmux server of our own, so a developer's sessions are never touched.
tmux() { command tmux -L "arch-live-$$" "$@"; }
trap 'tmux kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
architectures=$("$arch" list | sed -n 's/^architectures: //p' | tr -d ',')

echo "-- counter: ++- ends at Count: 1, and the next run starts there"
for a in $architectures; do
  "$arch" run counter --architecture "$a" --storage "$work/$a/count.txt" --keys "++-" >"$work/counter-$a.txt"
  last=$(awk '/^== /{screen=""; next} {screen=screen $0 "\n"} END{printf "%s", screen}' "$work/counter-$a.txt" | head -1)
  [ "$last" = "Count: 1" ] || { echo "$a: last screen starts with '$last'"; cat "$work/counter-$a.txt"; exit 1; }
  again=$("$arch" run counter --architecture "$a" --storage "$work/$a/count.txt" --keys "" | sed -n 2p)
  [ "$again" = "Count: 1" ] || { echo "$a: second run starts with '$again'"; exit 1; }
  [ "$(cat "$work/$a/count.txt")" = "1" ]
  echo "$a: ok"
done

echo "-- stopwatch (real clock) and weather (recorded responses): the same screens everywhere"
for a in $architectures; do
  "$arch" run stopwatch --architecture "$a" --keys "s{1s}l{500ms}s<space>{300ms}r" >"$work/stopwatch-$a.txt"
  "$arch" run weather --architecture "$a" --weather fixtures \
    --keys "Zürich{400ms}<enter><tab><bs><bs><bs><bs><bs><bs>東京{400ms}<enter>" >"$work/weather-$a.txt"
done
grep -q "^Lap 1  0:01.0$" "$work/stopwatch-baseline.txt"
grep -q "^Zürich: 40.3°F, Clear sky, wind 3.2 km/h$" "$work/weather-baseline.txt"
grep -q "^Tokyo: 59.0°F, Mainly clear, wind 9.0 km/h$" "$work/weather-baseline.txt"
for a in $architectures; do
  diff "$work/stopwatch-baseline.txt" "$work/stopwatch-$a.txt"
  diff "$work/weather-baseline.txt" "$work/weather-$a.txt"
  echo "$a: same screens as baseline"
done

echo "-- without a terminal the app says so"
set +e
"$arch" run counter --architecture mue --storage "$work/tty.txt" </dev/null >/dev/null 2>"$work/tty.err"
status=$?
set -e
if [ "$status" -ne 1 ] || ! grep -q "standard input is not a terminal" "$work/tty.err" \
  || ! grep -q -- "--keys" "$work/tty.err"; then
  echo "without a terminal: exit $status"; cat "$work/tty.err"; exit 1
fi

echo "-- a bad script or option is a usage error"
for args in "counter --architecture mue --keys <home>" "stopwatch --architecture mue --storage x" \
  "weather --architecture mue --geocoding-url ftp://x" "counter --architecture nope"; do
  set +e
  # shellcheck disable=SC2086
  "$arch" run $args >/dev/null 2>"$work/usage.err"
  status=$?
  set -e
  if [ "$status" -ne 2 ] || ! grep -q "^error: " "$work/usage.err"; then
    echo "$args: exit $status"; exit 1
  fi
done

echo "-- interactive, in tmux"
command -v tmux >/dev/null
# Polls the pane (a CI script, not a test: the app runs on the real clock in a real terminal).
wait_for() {
  for _ in $(seq 100); do
    if tmux capture-pane -p -t live | grep -q -- "$1"; then return 0; fi
    sleep 0.1
  done
  echo "the pane never showed '$1':"
  tmux capture-pane -p -t live
  return 1
}
wait_for_file() {
  for _ in $(seq 100); do [ -s "$1" ] && return 0; sleep 0.1; done
  echo "$1 never appeared"; return 1
}
run_in_tmux() {
  tmux kill-session -t live 2>/dev/null || true
  rm -f "$work/before" "$work/after" "$work/status"
  tmux new-session -d -s live -x 120 -y 30 \
    "stty -g >'$work/before'; $1; echo \"exit \$?\" >'$work/status'; stty -g >'$work/after'; sleep 60"
}

run_in_tmux "'$arch' run counter --architecture elm-store --storage '$work/interactive.txt'"
wait_for "Count: 0"
wait_for "keys: + increment   q quit"
tmux send-keys -t live + +
wait_for "Count: 2"
wait_for "log: count: 2"
tmux send-keys -t live -
wait_for "Count: 1"
[ "$(tmux capture-pane -p -t live | grep -c '^Count: ')" -eq 1 ] || { echo "more than one screen"; exit 1; }
tmux send-keys -t live C-c
wait_for_file "$work/after"
diff "$work/before" "$work/after"
grep -q "exit 0" "$work/status"
[ "$(cat "$work/interactive.txt")" = "1" ]
echo "counter: keys, one redrawn screen, Ctrl-C restores the terminal"

run_in_tmux "'$arch' run stopwatch --architecture comonadic"
wait_for "0:00.0  stopped"
tmux send-keys -t live Space
wait_for "0:0[0-9]\.[1-9]  running"
tmux send-keys -t live l
wait_for "Lap 1  0:0"
pkill -TERM -f "$arch run stopwatch"
wait_for_file "$work/after"
diff "$work/before" "$work/after"
grep -q "exit 143" "$work/status"
echo "stopwatch: ticks redraw the screen, SIGTERM restores the terminal"

run_in_tmux "'$arch' run weather --architecture layer-core --weather fixtures"
wait_for "type to search"
tmux send-keys -t live "Berlin"
wait_for "> Berlin, Germany"
tmux send-keys -t live Down Enter
wait_for "Berlin: -3.4°C, Snow, wind 6.1 km/h"
tmux send-keys -t live Escape
wait_for_file "$work/after"
diff "$work/before" "$work/after"
grep -q "exit 0" "$work/status"
echo "weather: typing, arrows, Enter, Escape quits"
