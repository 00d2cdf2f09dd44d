#!/usr/bin/env bash
# Saves that cannot be written, made to fail for real (SPEC C6, T7, L4, L5), for the counter and
# the todos in every architecture: the file size limit reached mid-write (`prlimit --fsize`), a
# read-only directory, a temporary file that cannot be created (no inode left), a disk that
# fills up mid-write and a rename that fails. Each run makes two changes: the screen must say
# `log: storage: save failed`, the run must exit with status 1 and report the failure on standard
# error, and the previous file must be byte-identical with nothing left beside it but its lock
# file. Then the cause is removed and the next run saves. (That every change tries again within
# a run is the conformance kit's C6 and T7, and LiveTests' FailingWriteTests with real files.)
#
# The read-only directory and the failing rename use the immutable attribute as root (root
# writes anywhere) and permissions otherwise; the full file systems are small tmpfs mounts,
# checked only where mounting is allowed.
#
# usage: Scripts/failing-writes.sh PATH/TO/arch
set -euo pipefail
arch=$(realpath "$1")
work=$(mktemp -d)
mounts=()
immutable=()
cleanup() {
  for path in "${immutable[@]}"; do chattr -i "$path" 2>/dev/null || true; done
  for path in "${mounts[@]}"; do umount "$path" 2>/dev/null || true; done
  [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
architectures=$("$arch" list | sed -n 's/^architectures: //p' | tr -d ',')
is_root=$([ "$(id -u)" -eq 0 ] && echo 1 || echo 0)
can_mount=0
if [ "$is_root" -eq 1 ] && mkdir "$work/probe" && mount -t tmpfs -o size=64k tmpfs "$work/probe" 2>/dev/null; then
  umount "$work/probe"
  can_mount=1
fi

# A list of 60 todos, more than a kilobyte and more than a 4 KiB page as JSON.
todos_json() {
  local items=() i
  for i in $(seq 1 60); do
    items+=("{\"done\":false,\"id\":$i,\"title\":\"item number $i of a list long enough to span pages\"}")
  done
  local IFS=,
  printf '[%s]' "${items[*]}"
}

# Fills `dir` (app `app`) with the file a first, successful run left: the data and the lock.
prepare() {
  local app=$1 dir=$2
  mkdir -p "$dir"
  case $app in
    counter)
      echo 41 >"$dir/data"
      "$arch" run counter --architecture baseline --storage "$dir/data" --keys "" >/dev/null
      ;;
    todos)
      todos_json >"$dir/data"
      "$arch" run todos --architecture baseline --file "$dir/data" --keys "" >/dev/null
      ;;
  esac
  [ -e "$dir/data.lock" ] || { echo "no lock file after a first run in $dir"; exit 1; }
}

# Runs `app` in `dir` with two changes, under the command prefix in the rest of the arguments
# (a limit, another user); output goes through pipes, which no file size limit applies to.
run_app() {
  local app=$1 architecture=$2 dir=$3
  shift 3
  local storage
  case $app in
    counter) storage=(--storage "$dir/data") keys="+{100ms}+" ;;
    todos) storage=(--file "$dir/data") keys="A<enter>{100ms}B<enter>" ;;
  esac
  set +e
  "$@" "$arch" run "$app" --architecture "$architecture" "${storage[@]}" --keys "$keys" \
    2> >(cat >"$dir.err") | cat >"$dir.out"
  status=${PIPESTATUS[0]}
  set -e
  wait
}

# The run failed both saves, reported it and left the file as it was.
check_failed() {
  local what=$1 dir=$2 before=$3
  local failures
  failures=$(grep -c "^log: storage: save failed$" "$dir.out" || true)
  if [ "$status" -ne 1 ] || [ "$failures" -eq 0 ] || ! grep -q "^storage: cannot write " "$dir.err"; then
    echo "$what: exit $status, $failures screens with a failed save (want 1 and some)"
    cat "$dir.out" "$dir.err"
    exit 1
  fi
  cmp "$dir/data" "$before" || { echo "$what: the file changed"; exit 1; }
  local left
  left=$(ls -A "$dir" | tr '\n' ' ')
  [ "$left" = "data data.lock " ] || { echo "$what: left in the directory: $left"; exit 1; }
  echo "$what: $(head -1 "$dir.err")"
}

# With the cause removed, the next run saves.
check_saves() {
  local what=$1 app=$2 architecture=$3 dir=$4 before=$5
  run_app "$app" "$architecture" "$dir"
  if [ "$status" -ne 0 ] || cmp -s "$dir/data" "$before"; then
    echo "$what, cause removed: exit $status, file changed: $(cmp -s "$dir/data" "$before" && echo no || echo yes)"
    cat "$dir.out" "$dir.err"
    exit 1
  fi
}

for app in counter todos; do
  for a in $architectures; do
    base="$work/$app-$a"

    # The file size limit: 0 for the count, 1 KiB for the list (the write stops mid-file).
    dir="$base-limit"
    prepare "$app" "$dir"
    cp "$dir/data" "$dir.before"
    limit=$([ "$app" = counter ] && echo 0 || echo 1024)
    run_app "$app" "$a" "$dir" prlimit --fsize="$limit"
    check_failed "$app $a: file size limit" "$dir" "$dir.before"
    check_saves "$app $a: file size limit" "$app" "$a" "$dir" "$dir.before"

    # A read-only directory: no temporary file can be made beside the file.
    dir="$base-readonly"
    prepare "$app" "$dir"
    cp "$dir/data" "$dir.before"
    if [ "$is_root" -eq 1 ]; then
      chattr +i "$dir" && immutable+=("$dir")
    else
      chmod a-w "$dir"
    fi
    run_app "$app" "$a" "$dir"
    check_failed "$app $a: read-only directory" "$dir" "$dir.before"
    if [ "$is_root" -eq 1 ]; then chattr -i "$dir"; else chmod u+w "$dir"; fi
    check_saves "$app $a: read-only directory" "$app" "$a" "$dir" "$dir.before"

    # A rename that fails: the file itself may not be replaced (immutable; as another user, a
    # sticky directory and a file of root's would do the same).
    if [ "$is_root" -eq 1 ]; then
      dir="$base-rename"
      prepare "$app" "$dir"
      cp "$dir/data" "$dir.before"
      chattr +i "$dir/data" && immutable+=("$dir/data")
      run_app "$app" "$a" "$dir"
      check_failed "$app $a: rename fails" "$dir" "$dir.before"
      chattr -i "$dir/data"
      check_saves "$app $a: rename fails" "$app" "$a" "$dir" "$dir.before"
    fi

    if [ "$can_mount" -eq 1 ]; then
      # No inode left: the temporary file cannot be created (the root directory, the file and
      # its lock use all three).
      dir="$base-inodes"
      mkdir -p "$dir"
      mount -t tmpfs -o size=1m,nr_inodes=3 tmpfs "$dir" && mounts+=("$dir")
      prepare "$app" "$dir"
      cp "$dir/data" "$dir.before"
      run_app "$app" "$a" "$dir"
      check_failed "$app $a: no inode for the temporary file" "$dir" "$dir.before"
      umount "$dir"
      prepare "$app" "$dir"
      cp "$dir/data" "$dir.before"
      check_saves "$app $a: no inode for the temporary file" "$app" "$a" "$dir" "$dir.before"

      # A full disk: the temporary file is made, its write fails (ENOSPC) part way.
      dir="$base-full"
      mkdir -p "$dir"
      mount -t tmpfs -o size=16k tmpfs "$dir" && mounts+=("$dir")
      prepare "$app" "$dir"
      cp "$dir/data" "$dir.before"
      # Whatever is left of the 16 KiB taken: not a byte more fits.
      free=$(($(stat -f -c '%a * %S' "$dir")))
      head -c "$free" /dev/zero >"$dir/filler" 2>/dev/null || true
      run_app "$app" "$a" "$dir"
      rm "$dir/filler"
      check_failed "$app $a: disk full" "$dir" "$dir.before"
      check_saves "$app $a: disk full" "$app" "$a" "$dir" "$dir.before"
      umount "$dir"
    fi
  done
  echo "$app: every architecture reports failed saves, keeps the file and saves again"
done
if [ "$is_root" -eq 0 ]; then echo "not root: the failing rename was not checked"; fi
if [ "$can_mount" -eq 0 ]; then echo "no tmpfs mounts allowed: no-inode and full-disk cases not checked"; fi
