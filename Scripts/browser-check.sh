#!/usr/bin/env bash
# Renders every side-by-side page (Docs/SideBySide/*.html) in headless Chromium, the way a reader
# on a laptop sees it (1440 × 900), and fails on a console error, a concern missing a column, or
# code wider than its column. Each page checks itself when opened with `?check` (the script at
# its end writes the result into <output id="check">); this reads the rendered DOM.
#
# usage: Scripts/browser-check.sh [OUTPUT-DIRECTORY]   (default .build/browser-check)
# Screenshots of the two-column view land in the output directory. Installs Debian's chromium
# when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/browser-check}
mkdir -p "$out"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  apt-get update >/dev/null && apt-get install -y chromium >/dev/null
  browser=$(command -v chromium)
fi
# --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
chrome() {
  "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --enable-logging=stderr --v=0 "$@"
}

failed=0
pages=0
for page in Docs/SideBySide/*.html; do
  name=$(basename "$page" .html)
  for show in baseline,elm-store baseline,elm-store,mue,io-loop,layer-core,comonadic; do
    columns=$(tr ',' '\n' <<<"$show" | wc -l)
    url="file://$PWD/$page?check&show=$show"
    chrome --window-size=1440,900 --dump-dom "$url" >"$out/$name.$columns.html" 2>"$out/$name.$columns.log"
    result=$(sed -n 's/.*<output id="check"[^>]*>\([^<]*\)<\/output>.*/\1/p' "$out/$name.$columns.html")
    console=$(grep -a "CONSOLE" "$out/$name.$columns.log" || true)
    if [ "$result" != "check: ok" ] || [ -n "$console" ]; then
      echo "FAIL $page with $columns columns: ${result:-the page never checked itself}"
      [ -z "$console" ] || echo "$console"
      failed=1
    else
      echo "ok   $page with $columns columns"
    fi
  done
  chrome --window-size=1440,900 --screenshot="$out/$name.png" "file://$PWD/$page?show=baseline,elm-store" \
    2>"$out/$name.screenshot.log"
  [ -s "$out/$name.png" ] || { echo "FAIL $page: no screenshot"; failed=1; }
  pages=$((pages + 1))
done
[ "$pages" -gt 0 ] || { echo "no pages in Docs/SideBySide"; exit 1; }
echo "$pages pages; screenshots in $out"
exit "$failed"
