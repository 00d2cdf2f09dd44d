#!/usr/bin/env python3
"""Regenerates Docs/Benchmarks.md and its charts in Docs/Benchmarks/.

Runs Scripts/instructions.py (instructions and allocations per operation, under callgrind),
`arch compare` (ns per operation, median and 95% interval) and `arch compare --scaling` (cost
against list size, growth exponents, memory), and writes them side by side.

  Scripts/benchmarks-doc.py            # full comparison (half an hour)
  Scripts/benchmarks-doc.py --quick    # arch compare --quick and --scaling --quick
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Scripts"))
instructions = __import__("instructions")

PEERS = [
    ("bare reducer call", "14", "0"),
    ("Elementary", "180", "0"),
    ("Mobius", "8,557", "2"),
    ("SimpleFunctional", "8,386", "8"),
    ("ReSwift", "12,239", "9"),
    ("TCA 0.9", "about 16,900", "15"),
]


def fmt(value, digits=1):
    if value is None:
        return "—"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:,.{digits}f}"


def scaling_section(scaling):
    """The cost curves, notifications per observer kind and memory, from `compare --scaling`."""
    sizes = scaling["sizes"]
    largest = sizes[-1]
    setup = scaling["setup"]
    lines = [
        "## Lists at scale", "",
        "The todos app, js-framework-benchmark style: each list operation at "
        + ", ".join(f"{size:,}" for size in sizes) + " rows, with the root and 20 rows observed "
        "(what a screen shows). Storage holds the first save, so later saves wait behind it "
        "and what is timed is the update and its observation. *k* is the fitted growth "
        "exponent, cost ∝ rows^*k*: 0 is flat, 1 linear. "
        f"{setup['samples']} samples{' (quick)' if setup['isQuick'] else ''}.", "",
        "![every list operation against baseline](Benchmarks/scaling-overview.svg)", "",
    ]
    for curves in scaling["operations"]:
        name = curves["name"]
        lines += [f"### `{name}`", "", f"ns per {curves['unit']}. ![{name}](Benchmarks/{name}.svg)",
                  "", "| contestant | " + " | ".join(f"{size:,}" for size in sizes)
                  + f" | k | × baseline at {largest:,} |",
                  "|---|" + "---:|" * (len(sizes) + 2)]
        base = next((c for c in curves["curves"] if c["contestant"] == "baseline"), None)
        for curve in curves["curves"]:
            values = curve["nanoseconds"]
            ratio = (values[-1] / base["nanoseconds"][-1]
                     if base and values[-1] and base["nanoseconds"][-1] else None)
            exponent = curve.get("exponent")
            lines.append(f"| {curve['contestant']} | " + " | ".join(fmt(v) for v in values)
                         + f" | {'—' if exponent is None else f'{exponent:.2f}'} | "
                         + (f"{ratio:.2f}×" if ratio else "—") + " |")
        kinds = set()
        for curve in curves["curves"]:
            kind, operations = curve["notifications"][-1], curve["operations"][-1]
            if kind and operations:
                text = f"root {kind['root'] / operations:g} per operation"
                if kind["changedRowsObserved"]:
                    text += (f"; each of the {kind['changedRowsObserved']} changed observed "
                             f"row(s) {kind['changedRows'] / operations / kind['changedRowsObserved']:g}")
                if kind["unchangedRowsObserved"]:
                    text += (f"; the {kind['unchangedRowsObserved']} unchanged observed rows "
                             f"{kind['unchangedRows']} in all")
                kinds.add(text)
        if kinds:
            lines += ["", "Notifications at " + f"{largest:,} rows: "
                      + (" / ".join(sorted(kinds)) + (" (every contestant)" if len(kinds) == 1 else "")) + "."]
        lines.append("")
    memory = scaling.get("memory") or []
    if memory:
        base = next((m for m in memory if m["contestant"] == "baseline"), None)
        lines += ["### Memory", "",
                  f"A loaded list of {memory[0]['rows']:,} rows: heap retained after the load "
                  "(the runtime running), and the growth of resident memory to its peak during "
                  "the load, each contestant in a process of its own (`arch memory`).", "",
                  "| contestant | retained | × baseline | peak | × baseline |",
                  "|---|---:|---:|---:|---:|"]
        for use in memory:
            retained = use["retainedBytes"] / base["retainedBytes"] if base else None
            peak = (use["peakBytes"] / base["peakBytes"]
                    if base and use.get("peakBytes") and base.get("peakBytes") else None)
            lines.append(f"| {use['contestant']} | {use['retainedBytes'] / 1e6:.1f} MB | "
                         + (f"{retained:.2f}×" if retained else "—") + " | "
                         + (f"{use['peakBytes'] / 1e6:.1f} MB" if use.get("peakBytes") else "—")
                         + " | " + (f"{peak:.2f}×" if peak else "—") + " |")
        lines.append("")
    return lines


def within_baseline(counts, workloads, names):
    """Which workloads each architecture runs in more than 1.5× the baseline's instructions."""
    lines = ["", "## Within 1.5× of baseline?", "",
             "Instructions per operation against the baseline's, for every counted workload: "
             "the target is 1.5× everywhere. Listed: where an architecture is above it.", "",
             "| architecture | above 1.5× (× baseline) |", "|---|---|"]
    for contestant in names:
        if contestant in ("baseline", "bare"):
            continue
        above = []
        for workload in workloads:
            own = next((r for r in counts if r["workload"] == workload
                        and r["contestant"] == contestant), None)
            base = next((r for r in counts if r["workload"] == workload
                         and r["contestant"] == "baseline"), None)
            if own and base and base["instructions"]:
                ratio = own["instructions"] / base["instructions"]
                if ratio > 1.5:
                    above.append(f"`{workload}` {ratio:.1f}×")
        lines.append(f"| {contestant} | {', '.join(above) if above else 'none'} |")
    return lines


def swiftui_section(counts, names):
    """The Observation workloads: through each package's adapter to its objects on the main
    actor, as a SwiftUI app reads them."""
    lines = ["", "## The SwiftUI path", "",
             "What a SwiftUI app pays: a change sent to the runtime, through the package's "
             "Observation adapter (`ObservableStore`, `ObservableLoop`, `ObservableMain`, "
             "`ObservableMachine`, `ObservableComponent`) to its `@Observable` objects on the main "
             "actor, and the `withObservationTracking` reader it invalidates read again. "
             "`observation.toggle.10000`: one of 20 read rows of a 10,000-row list toggled; every "
             "toggle checks that exactly that row's reader was invalidated (none of the other 19, "
             "not the list's ids). `observation.tick`: a count incremented and read, as a "
             "stopwatch's tick is. The baseline is the plain message loop with the same delivery "
             "and row objects (`BaselineObservation`), so × baseline is the architecture's price "
             "on this path. Counted by callgrind per operation, gated in CI; `arch compare` times "
             "them below.", "",
             "| contestant | `observation.toggle.10000` | × baseline | allocations "
             "| `observation.tick` | × baseline | allocations |",
             "|---|---:|---:|---:|---:|---:|---:|"]

    def find(workload, contestant):
        return next((r for r in counts if r["workload"] == workload
                     and r["contestant"] == contestant), None)

    for contestant in names:
        cells = []
        for workload in ("observation.toggle.10000", "observation.tick"):
            own, base = find(workload, contestant), find(workload, "baseline")
            if not own:
                cells += ["—", "—", "—"]
                continue
            ratio = own["instructions"] / base["instructions"] if base else None
            cells += [fmt(own["instructions"]), f"{fmt(ratio, 2)}×" if ratio else "—",
                      fmt(own["allocations"], 2)]
        if any(cell != "—" for cell in cells):
            lines.append(f"| {contestant} | " + " | ".join(cells) + " |")
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    arguments = parser.parse_args()

    binary = instructions.build()
    listed = subprocess.run([binary, "list"], check=True, capture_output=True, text=True).stdout
    standard = [line.split(": ", 1)[1].split(", ") for line in listed.splitlines()
                if line.startswith("workloads: ")][0]
    # Taking 10,000 laps first takes minutes under valgrind; its ratio is gated at 1,000 laps.
    workloads = [name for name in standard if name in instructions.OPERATIONS
                 and name != "ticks.laps.10000"]
    names = instructions.contestants(binary)
    # Callgrind's counts do not depend on what else runs: a process per core. The timings
    # below run alone.
    counts = instructions.measure(binary, workloads, names, jobs=os.cpu_count() or 1)

    charts = os.path.join(ROOT, "Docs", "Benchmarks")
    for old in os.listdir(charts):
        if old.endswith(".svg"):
            os.remove(os.path.join(charts, old))
    command = [binary, "compare", "--format", "json", "--output", charts]
    if arguments.quick:
        command.append("--quick")
    comparison = json.loads(subprocess.run(command, check=True, capture_output=True,
                                           text=True).stdout)
    os.remove(os.path.join(charts, "comparison.md"))
    command = [binary, "compare", "--scaling", "--format", "json", "--output", charts]
    if arguments.quick:
        command.append("--quick")
    scaling = json.loads(subprocess.run(command, check=True, capture_output=True,
                                        text=True).stdout)

    def counted(workload, contestant):
        for result in counts:
            if result["workload"] == workload and result["contestant"] == contestant:
                return result
        return None

    setup = comparison["setup"]
    lines = [
        "# Benchmarks",
        "",
        "<!-- Generated by Scripts/benchmarks-doc.py; do not edit by hand. -->",
        "",
        "Every architecture, the plain-Swift `baseline` and the bare reducer call run the same",
        "workloads (`Sources/Workloads`), each with a check of its result; an architecture that",
        "fails an app's conformance suite is not timed for that app. Instructions and heap",
        "allocations per operation are counted by callgrind (a run of N operations minus a run of",
        "0, both after one warm-up operation, so what a process pays once on first use is not",
        "spread over the counted operations) and repeat within 0.1%; nanoseconds are wall-clock",
        "medians with a 95% interval and",
        "vary from run to run on shared machines, so only counts are gated in CI.",
        "",
        f"Measured on {setup['machine']}, {setup['date']}, Swift 6.3.1, "
        f"{setup['samples']} samples per workload{' (quick: a twentieth of the operations)' if setup['isQuick'] else ''}.",
        "",
        "## Reproduce",
        "",
        "```sh",
        "swift run -c release arch compare --quick        # ns per operation, in a minute",
        "Scripts/instructions.py                          # instructions and allocations",
        "Scripts/instructions.py --repeat                 # the same, twice, compared",
        "swift package --package-path Benchmarks benchmark  # package-benchmark: time, mallocs",
        "swift run -c release arch compare --scaling      # cost against list size, memory",
        "Scripts/benchmarks-doc.py                        # this page",
        "```",
        "",
        "Filters of package-benchmark match whole names, `WORKLOAD.CONTESTANT`: "
        "`--filter 'todos\\..*'`, `--filter '.*\\.elm-store'`.",
        "",
    ]
    lines += scaling_section(scaling)
    lines += swiftui_section(counts, names)
    lines += ["", "## Every workload"]
    for workload in comparison["workloads"]:
        name = workload["name"]
        by_name = {result["contestant"]: result for result in workload["results"]}

        def median(contestant):
            result = by_name.get(contestant)
            return result["nanoseconds"]["median"] if result and result.get("nanoseconds") else None

        base = counted(name, "baseline")
        bare = counted(name, "bare")
        lines += ["", f"### `{name}`", "",
                  f"Per {workload['operation']}. ![{name}](Benchmarks/{name}.svg)", "",
                  "| contestant | instructions | × baseline | × bare | allocations | ns (median) "
                  "| 95% interval | notifications |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for result in workload["results"]:
            contestant = result["contestant"]
            count = counted(name, contestant)
            if result.get("notTimed") or result.get("failure"):
                reason = (f"wrong result: {result['failure']}" if result.get("failure")
                          else f"not timed: {result['notTimed']}")
                lines.append(f"| {contestant} | {reason} ||||||| ")
                continue
            ns = result.get("nanoseconds")
            ratio_base = (count["instructions"] / base["instructions"]
                          if count and base and base["instructions"] else None)
            ratio_bare = (count["instructions"] / bare["instructions"]
                          if count and bare and bare["instructions"] else None)
            lines.append(
                f"| {contestant} | {fmt(count and count['instructions'])} | "
                f"{fmt(ratio_base, 2)}{'×' if ratio_base else ''} | "
                f"{fmt(ratio_bare, 2)}{'×' if ratio_bare else ''} | "
                f"{fmt(count and count['allocations'], 2)} | {fmt(ns and ns['median'])} | "
                f"{fmt(ns and ns['low'])}–{fmt(ns and ns['high'])} | "
                f"{fmt(result.get('notificationsPerOperation'), 0)} |")

    with open(os.path.join(ROOT, "Benchmarks", "InstructionTargets.json")) as file:
        targets = json.load(file)
    dispatch_targets = targets["dispatch"]["instructions"]
    lines += ["", "## Targets", "",
              "From `Benchmarks/InstructionTargets.json`, which `.ci/run` checks.", "",
              "| check | contestant | measured | target |", "|---|---|---:|---:|"]
    for contestant in names:
        small = counted("state.size.10", contestant)
        large = counted("state.size.100000", contestant)
        if small and large and small["instructions"]:
            ratio = large["instructions"] / small["instructions"]
            lines.append(f"| `state.size` 100,000 ÷ 10 elements | {contestant} | {ratio:.2f}× "
                         f"| ≤ 1.5× |")
        small = counted("todos.toggle.100", contestant)
        large = counted("todos.toggle.10000", contestant)
        if small and large and small["instructions"]:
            ratio = large["instructions"] / small["instructions"]
            lines.append(f"| `todos.toggle` 10,000 ÷ 100 rows | {contestant} | {ratio:.2f}× "
                         f"| ≤ 3× |")
        dispatch = counted("dispatch", contestant)
        if dispatch and contestant != "bare":
            lines.append(f"| `dispatch` instructions, allocations | {contestant} | "
                         f"{dispatch['instructions']:.0f}, {dispatch['allocations']:.0f} | "
                         f"≤ {dispatch_targets.get(contestant, dispatch_targets['*'])}, 0 |")

    lines += within_baseline(counts, workloads, names)

    lines += ["", "## Peers, measured outside this repository", "",
              "Not run by this repository: per counter dispatch on this machine class, as measured "
              "when the project started (same method: callgrind, N minus 0).", "",
              "| library | instructions | allocations |", "|---|---:|---:|"]
    lines += [f"| {name} | {ins} | {alloc} |" for name, ins, alloc in PEERS]
    with open(os.path.join(ROOT, "Docs", "Benchmarks.md"), "w") as file:
        file.write("\n".join(lines) + "\n")
    print("wrote Docs/Benchmarks.md and Docs/Benchmarks/", file=sys.stderr)


if __name__ == "__main__":
    main()
