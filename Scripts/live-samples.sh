#!/usr/bin/env bash
# Checks `arch run` end to end with a built binary: the scripted samples for every architecture
# (same screens everywhere, the counter's file survives a run), the message without a terminal,
# and the interactive screen in tmux (keys, redraw, the terminal restored on Ctrl-C and SIGTERM).
#
# usage: Scripts/live-samples.sh PATH/TO/arch [--server-only]
set -euo pipefail
arch=$(realpath "$1")
work=$(mktemp -d)
# A tmux server of our own, so a developer's sessions are never touched.
tmux() { command tmux -L "arch-live-$$" "$@"; }
trap 'tmux kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
architectures=$("$arch" list | sed -n 's/^architectures: //p' | tr -d ',')
# Runs a command that must exit with a given status: `exits 1 "$arch" run …`.
exits() {
  local want=$1 status
  shift
  set +e
  "$@"
  status=$?
  set -e
  [ "$status" -eq "$want" ] || { echo "exit $status, not $want: $*"; return 1; }
}
# Compares two runs' screens. Times on the real clock are read where a tick may or may not have
# landed: a key right after `{200ms}` is processed about 50 ms before the next 100 ms tick, and a
# loaded machine can take longer than that to draw the screen before it. Exact times are checked
# by the conformance kit on a virtual clock; here every time reads M:SS.T.
same_screens() {
  diff <(sed -E 's/[0-9]+:[0-9]{2}\.[0-9]/M:SS.T/g' "$1") <(sed -E 's/[0-9]+:[0-9]{2}\.[0-9]/M:SS.T/g' "$2")
}

# SPEC L1 and L2 against a misbehaving server on 127.0.0.1: the peak memory of a run that is
# offered 1 GiB (announced, streamed, chunked) stays within 16 MiB of a small answer's.
misbehaving_server() {
  echo "-- a misbehaving server (SPEC L1, L2): bounded memory, nothing raw on the screen"
  serve() {
    rm -f "$work/port"
    python3 "$(dirname "$0")/misbehaving-server.py" "$1" "$work/port" &
    server=$!
    for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
    port=$(cat "$work/port")
  }
  # Peak memory of one weather run against the server, in KiB (the children's maximum RSS).
  peak_kib() {
    python3 - "$arch" "$port" "$work/weather-$1.txt" <<'PY'
import resource, subprocess, sys
arch, port, out = sys.argv[1:4]
with open(out, "w") as f:
    subprocess.run([arch, "run", "weather", "--architecture", "baseline",
                    "--geocoding-url", f"http://127.0.0.1:{port}", "--timeout", "30",
                    "--keys", "Berlin{4s}"], stdout=f, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
  }
  serve hostile
  small=$(peak_kib hostile)
  kill "$server"
  if grep -q $'[\x1b\x07]' "$work/weather-hostile.txt"; then echo "raw ESC or BEL on screen"; exit 1; fi
  grep -q "Evil␛\]0;pwned␇␛\[2J␍␊Town" "$work/weather-hostile.txt"
  for mode in huge-announced huge-streamed huge-chunked; do
    serve "$mode"
    peak=$(peak_kib "$mode")
    kill "$server"
    grep -q "more than the 1048576" "$work/weather-$mode.txt" \
      || { echo "$mode:"; cat "$work/weather-$mode.txt"; exit 1; }
    [ "$peak" -lt $((small + 16 * 1024)) ] \
      || { echo "$mode: peak RSS $peak KiB against $small KiB for a small answer"; exit 1; }
    echo "$mode: peak RSS $peak KiB (a small answer: $small KiB)"
  done
  serve long-reason
  peak_kib long-reason >/dev/null
  kill "$server"
  longest=$(awk '{ if (length($0) > n) n = length($0) } END { print n }' "$work/weather-long-reason.txt")
  [ "$longest" -le 1000 ] || { echo "a line of $longest characters"; exit 1; }
  grep -q "answered HTTP 500: x*…$" "$work/weather-long-reason.txt"
  echo "a 500,000-character reason: the longest line is $longest characters"
}

# `--server-only`: just that, e.g. with the debug build the README runs (L2 holds there too).
if [ "${2:-}" = "--server-only" ]; then
  misbehaving_server
  exit 0
fi

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
grep -qE "^Lap 1  0:0(0\.9|1\.[01])$" "$work/stopwatch-baseline.txt"
grep -q "^Zürich: 40.3°F, Clear sky, wind 3.2 km/h$" "$work/weather-baseline.txt"
grep -q "^Tokyo: 59.0°F, Mainly clear, wind 9.0 km/h$" "$work/weather-baseline.txt"
for a in $architectures; do
  same_screens "$work/stopwatch-baseline.txt" "$work/stopwatch-$a.txt"
  diff "$work/weather-baseline.txt" "$work/weather-$a.txt"
  echo "$a: same screens as baseline"
done

echo "-- todos: a list in a JSON file, kept between runs; bad files are reported and kept"
for a in $("$arch" list | sed -n 's/^app todos: //p' | tr -d ','); do
  "$arch" run todos --architecture "$a" --file "$work/$a/todos.json" \
    --keys "Milk<enter>Eggs<enter><ctrl-t><down><ctrl-e><bs><bs><bs><bs>Oats<enter>" >"$work/todos-$a.txt"
  grep -q '^> \[x\] Milk$' "$work/todos-$a.txt"
  expected='[{"done":true,"id":1,"title":"Milk"},{"done":false,"id":2,"title":"Oats"}]'
  [ "$(cat "$work/$a/todos.json")" = "$expected" ] || { echo "$a: file holds $(cat "$work/$a/todos.json")"; exit 1; }
  "$arch" run todos --architecture "$a" --file "$work/$a/todos.json" --keys "" >"$work/todos-again-$a.txt"
  grep -q '^  \[ \] Oats$' "$work/todos-again-$a.txt" || { cat "$work/todos-again-$a.txt"; exit 1; }
  diff "$work/todos-baseline.txt" "$work/todos-$a.txt"
  echo "$a: ok"
done
printf '' >"$work/empty.json"
"$arch" run todos --architecture baseline --file "$work/empty.json" --keys "A<enter>" >"$work/todos-empty.txt"
grep -q '"title":"A"' "$work/empty.json"
printf '[{"id": 1, "title": "kept"' >"$work/corrupt.json"
cp "$work/corrupt.json" "$work/corrupt.before"
# A save that fails is reported, and the run exits with status 1 (SPEC L5).
exits 1 "$arch" run todos --architecture baseline --file "$work/corrupt.json" --keys "B<enter>" \
  >"$work/todos-corrupt.txt" 2>"$work/todos-corrupt.err"
grep -q "^storage: not saving: " "$work/todos-corrupt.err"
grep -q "is not a todo list" "$work/todos-corrupt.txt"
grep -q "not saving: .* holds data this app could not read" "$work/todos-corrupt.txt"
cmp "$work/corrupt.json" "$work/corrupt.before"
printf 'not a directory' >"$work/plain"
exits 1 "$arch" run todos --architecture baseline --file "$work/plain/todos.json" --keys "C<enter>" \
  >"$work/todos-unwritable.txt" 2>/dev/null
grep -q "storage: cannot write $work/plain/todos.json" "$work/todos-unwritable.txt"
grep -q "log: storage: save failed" "$work/todos-unwritable.txt"
echo "todos: missing, empty, corrupt (kept as it was) and unwritable files"

echo "-- shell: the three apps as tabs, the counter's file shared with arch run counter"
for a in $("$arch" list | sed -n 's/^app shell: //p' | tr -d ','); do
  "$arch" run shell --architecture "$a" --storage "$work/$a/shell-count.txt" --weather fixtures \
    --keys "+<ctrl-n>s{200ms}l<ctrl-n>Zürich{400ms}<enter><ctrl-p><ctrl-x>" >"$work/shell-$a.txt"
  grep -q "Counter (2)" "$work/shell-$a.txt"
  grep -q "Stopwatch (running)" "$work/shell-$a.txt"
  grep -q "Weather (Zürich)" "$work/shell-$a.txt"
  [ "$(cat "$work/$a/shell-count.txt")" = "0" ]
  same_screens "$work/shell-baseline.txt" "$work/shell-$a.txt"
  echo "$a: ok"
done

echo "-- storage (SPEC L4, L5): what is not a count is kept; one writer per file; kill -9 leaves nothing behind"
printf 'my notes\nbuy milk\n' >"$work/notes.txt"
cp "$work/notes.txt" "$work/notes.before"
exits 1 "$arch" run counter --architecture baseline --storage "$work/notes.txt" --keys "++" \
  >"$work/notes-run.txt" 2>/dev/null
cmp "$work/notes.txt" "$work/notes.before"
grep -q "is not a count" "$work/notes-run.txt"
grep -q "not saving: $work/notes.txt holds data this app could not read" "$work/notes-run.txt"
mkfifo "$work/fifo"
exits 1 "$arch" run counter --architecture baseline --storage "$work/fifo" --keys "+" \
  >"$work/fifo-run.txt" 2>/dev/null
[ -p "$work/fifo" ] || { echo "the FIFO was replaced"; exit 1; }
grep -q "not a regular file" "$work/fifo-run.txt"
echo "notes and a FIFO at --storage are left as they were"

# A file the user may not read (EACCES) is kept too; checked as an unprivileged user, since
# root reads any file.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  perm=$(mktemp -d)
  chmod 777 "$perm"
  echo 3 >"$perm/count.txt"
  chmod 000 "$perm/count.txt"
  exits 1 setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$arch" run counter --architecture io-loop --storage "$perm/count.txt" --keys "+" \
    >"$work/perm-run.txt" 2>/dev/null
  grep -q "cannot read $perm/count.txt: Permission denied" "$work/perm-run.txt" \
    || { cat "$work/perm-run.txt"; exit 1; }
  [ "$(cat "$perm/count.txt")" = "3" ] || { echo "the unreadable file changed"; exit 1; }
  rm -rf "$perm"
  echo "a file the user may not read is left as it was"
fi

mkdir -p "$work/locked"
echo 5 >"$work/locked/count.txt"
"$arch" run counter --architecture elm-store --storage "$work/locked/count.txt" --keys "+{3s}" \
  >"$work/first.txt" &
first=$!
# The first run holds the lock once its lock file is locked (a CI script polling, not a test).
for _ in $(seq 100); do
  if [ -e "$work/locked/count.txt.lock" ] && ! flock -n "$work/locked/count.txt.lock" true; then break; fi
  sleep 0.05
done
for second in "counter --storage $work/locked/count.txt" \
  "shell --storage $work/locked/../locked/count.txt --weather fixtures"; do
  set +e
  # shellcheck disable=SC2086
  "$arch" run $second --architecture mue --keys "+++" >"$work/second.out" 2>"$work/second.err"
  status=$?
  set -e
  if [ "$status" -ne 1 ] || [ -s "$work/second.out" ] \
    || ! grep -q "^storage: .*count.txt is in use by another process$" "$work/second.err"; then
    echo "a second run ($second): exit $status"; cat "$work/second.out" "$work/second.err"; exit 1
  fi
done
wait "$first"
[ "$(cat "$work/locked/count.txt")" = "6" ] || { echo "count: $(cat "$work/locked/count.txt")"; exit 1; }
echo "a second run on the same file (by another path too) is refused, exit 1, nothing changed"

mkdir -p "$work/killed"
for i in $(seq 30); do
  "$arch" run counter --architecture mue --storage "$work/killed/count.txt" \
    --keys "++++++++++++++++++++++++++++++" >/dev/null 2>&1 &
  victim=$!
  sleep "0.0$((RANDOM % 10))"
  kill -9 "$victim" 2>/dev/null || true
  wait "$victim" 2>/dev/null || true
done
"$arch" run counter --architecture baseline --storage "$work/killed/count.txt" --keys "+" >/dev/null
left=$(ls -A "$work/killed" | tr '\n' ' ')
[ "$left" = "count.txt count.txt.lock " ] || { echo "left after 30 kill -9: $left"; exit 1; }
grep -qE '^[0-9]+$' "$work/killed/count.txt"
echo "30 runs killed with kill -9, one clean run: only the count and its lock file are left"

misbehaving_server

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
for args in "counter --architecture mue --keys <end>" "stopwatch --architecture mue --storage x" \
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

echo "-- contacts: the list, a screen that loads, a failed load and its retry, the sheet, the alert"
for a in $("$arch" list | sed -n 's/^app contacts: //p' | tr -d ','); do
  "$arch" run contacts --architecture "$a" \
    --keys "<down><enter>{450ms}<down><down><enter>{450ms}r{450ms}<home>aEve!<enter>{450ms}<bs><enter>{450ms}d<enter>q" \
    >"$work/contacts-$a.txt"
  for line in "Loading Alan Turing…" "Defined computability with the Turing machine (1936)." \
    "Could not load Edsger Dijkstra" "Name: Eve!▏  saving…" "Could not add Eve!" \
    "── Delete Edsger Dijkstra? ──" "  Eve"; do
    grep -qF -- "$line" "$work/contacts-$a.txt" || { echo "$a: no '$line'"; cat "$work/contacts-$a.txt"; exit 1; }
  done
  # The last screen: Edsger Dijkstra deleted, Eve added.
  last=$(sed -n '/^== <enter> ==$/h; /^== <enter> ==$/!H; ${x;p;}' "$work/contacts-$a.txt")
  if grep -q "Edsger" <<<"$last" || ! grep -q "  Eve" <<<"$last"; then
    echo "$a: the last screen is"; echo "$last"; exit 1
  fi
  diff "$work/contacts-baseline.txt" "$work/contacts-$a.txt"
done
echo "contacts: list, loading, loaded, failed and retried, add sheet with an error, delete alert"

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

run_in_tmux "'$arch' run contacts --architecture baseline"
wait_for "> Ada Lovelace"
tmux send-keys -t live Enter
wait_for "Loading Ada Lovelace…"
wait_for "Wrote the first published program"
tmux send-keys -t live a
wait_for "── Add contact ──"
tmux send-keys -t live Escape
wait_for "esc back"
tmux send-keys -t live Escape
wait_for "> Ada Lovelace"
tmux send-keys -t live Home q
wait_for_file "$work/after"
diff "$work/before" "$work/after"
grep -q "exit 0" "$work/status"
echo "contacts: a screen loads, the sheet closes with Escape, Escape goes back, q quits"

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

run_in_tmux "'$arch' run todos --architecture baseline --file '$work/interactive-todos.json'"
wait_for "ctrl-x clear completed\|enter add"
tmux send-keys -t live "Tea" Enter
wait_for "> \[ \] Tea"
tmux send-keys -t live C-t
wait_for "> \[x\] Tea"
tmux send-keys -t live Escape
wait_for_file "$work/after"
diff "$work/before" "$work/after"
grep -q "exit 0" "$work/status"
grep -q '"title":"Tea"' "$work/interactive-todos.json"
echo "todos: typing, Enter adds, Ctrl-T toggles, Escape quits"

run_in_tmux "'$arch' run shell --architecture baseline --storage '$work/interactive-shell.txt' --weather fixtures"
wait_for "\[Counter (0)\]"
wait_for "ctrl-n/ctrl-p switch tab"
tmux send-keys -t live + C-n Space
wait_for "\[Stopwatch (running)\]"
wait_for " Counter (1) "
tmux send-keys -t live C-x
wait_for "\[Stopwatch\]"
tmux send-keys -t live Escape
wait_for_file "$work/after"
diff "$work/before" "$work/after"
grep -q "exit 0" "$work/status"
echo "shell: tabs switch with Ctrl-N, a hidden counter keeps its count, Ctrl-X resets all"

# SPEC L3: at 40 columns, a key echoes within 100 ms with a 100,000-character name on screen,
# and Escape quits within 1 s after a 10,000-character paste (bracketed: its text is not keys).
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
serve long-name
tmux kill-session -t live 2>/dev/null || true
rm -f "$work/before" "$work/after" "$work/status"
tmux new-session -d -s live -x 40 -y 30 \
  "stty -g >'$work/before'; '$arch' run weather --architecture mue --geocoding-url http://127.0.0.1:$port; echo \"exit \$?\" >'$work/status'; stty -g >'$work/after'; sleep 60"
wait_for "type to search"
tmux send-keys -t live "Berlin"
wait_for "NNNNNNNNNNNNNNNNNNNN"
start=$(now_ms)
tmux send-keys -t live "x"
until tmux capture-pane -p -t live | grep -q "Search: Berlinx"; do
  [ $(( $(now_ms) - start )) -lt 5000 ] || { echo "the key never echoed"; exit 1; }
done
echo_ms=$(( $(now_ms) - start ))
[ "$echo_ms" -le 100 ] || { echo "a key took $echo_ms ms to echo beside a 100,000-character name"; exit 1; }
kill "$server"
tmux set-buffer -b paste "$(printf 'ab%.0s' $(seq 5000))"
tmux paste-buffer -p -b paste -t live
wait_for "ababababab"
start=$(now_ms)
tmux send-keys -t live Escape
wait_for_file "$work/after"
quit_ms=$(( $(now_ms) - start ))
diff "$work/before" "$work/after"
grep -q "exit 0" "$work/status"
[ "$quit_ms" -le 1000 ] || { echo "Escape took $quit_ms ms to quit after a paste"; exit 1; }
echo "weather at 40 columns: a key echoes in $echo_ms ms beside a 100,000-character name;" \
  "Escape quits in $quit_ms ms after a 10,000-character paste"
