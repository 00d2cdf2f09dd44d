#!/usr/bin/env bash
# Builds every package's DocC catalog with warnings as errors, then merges them into one static
# site: .build/docs/site (open index.html through any static file server, e.g.
# `python3 -m http.server -d .build/docs/site`, then /documentation/elmstore).
#
# Plain `docc` from the toolchain, from symbol graphs: no plugin, no dependency.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 Scripts/docc-topics.py
out=.build/docs
rm -rf "$out" && mkdir -p "$out"
trap 'echo "docc-site: failed" >&2' ERR
archives=()
for catalog in Packages/*/Sources/*/*.docc; do
  [ -e "$catalog" ] || continue
  package=${catalog%%/Sources/*}
  target=$(basename "$(dirname "$catalog")")
  # Kept between runs: a build with nothing to compile emits no symbol graphs.
  graphs=".build/symbol-graphs/$target"
  mkdir -p "$graphs"
  scratch=".build/docc-build/$target"
  build() {
    swift build --package-path "$package" --target "$target" --scratch-path "$scratch" \
      -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs"
  }
  build
  if ! ls "$graphs/$target.symbols.json" >/dev/null 2>&1; then
    rm -rf "$scratch" && build
  fi
  # A testing module's build compiles its library too: keep only this module's graphs (its own
  # and its extensions of other modules, `Target@Other.symbols.json`).
  find "$graphs" -name '*.symbols.json' ! -name "$target.symbols.json" ! -name "$target@*.symbols.json" \
    -delete
  docc convert "$catalog" --additional-symbol-graph-dir "$graphs" --analyze \
    --warnings-as-errors --fallback-display-name "$target" --fallback-bundle-identifier "$target" \
    --output-path "$out/$target.doccarchive"
  archives+=("$out/$target.doccarchive")
done
docc merge "${archives[@]}" --synthesized-landing-page-name "Unidirectional architectures" \
  --synthesized-landing-page-kind "Packages" --output-path "$out/site"
# The side-by-side pages (Scripts/docs.py) are static files of the same site.
mkdir -p "$out/site/side-by-side"
cp Docs/SideBySide/* "$out/site/side-by-side/"
echo "site: $out/site (${#archives[@]} packages; side-by-side pages in side-by-side/)"
