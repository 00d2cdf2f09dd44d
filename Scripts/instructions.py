#!/usr/bin/env python3
"""Instructions and heap allocations per operation, counted by callgrind.

For each workload and contestant, runs `arch measure` under `valgrind --tool=callgrind` twice,
with N operations and with 0, and reports (count_N - count_0) / N: what the operations cost,
without start-up, set-up or checking. `arch measure` runs one warm-up operation before either,
so what a process pays once, on first use, cancels out too. Counts do not depend on machine
load.

Synchronous workloads are counted only inside `measuredRegion` (callgrind's --toggle-collect);
asynchronous ones, whose work runs on other threads, are counted over the whole process.

  Scripts/instructions.py                       # every workload and contestant, a table
  Scripts/instructions.py --workload dispatch --check Benchmarks/InstructionTargets.json
  Scripts/instructions.py --repeat              # run everything twice; fail if counts differ by >0.1%
  Scripts/instructions.py --json out.json       # also write the numbers as JSON
  Scripts/instructions.py --jobs 2              # two callgrind processes at a time
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Operations per counted run. Large enough that per-operation noise is far below 0.1%.
OPERATIONS = {
    "dispatch": 100_000, "observe.1": 100_000, "observe.100": 2_000, "render": 50_000,
    "state.size.10": 100_000, "state.size.1000": 100_000, "state.size.100000": 100_000,
    "fanout.1": 100_000, "fanout.10": 20_000, "fanout.100": 2_000,
    "ticks": 2_000, "typing": 500, "roundtrip": 500, "lifecycle": 200,
    "ticks.laps.10": 2_000, "ticks.laps.1000": 2_000, "ticks.laps.10000": 2_000,
    "shell.background-ticks": 2_000, "shell.reset-all": 200, "counter.increments": 500,
}
# The list workloads (Sources/Workloads/ListWorkloads.swift) at every size: operations that
# visit every row run fewer times on larger lists; delete and clear need rows nobody observes.
for rows in (100, 1_000, 10_000, 100_000):
    for operation in ("add", "toggle"):
        OPERATIONS[f"todos.{operation}.{rows}"] = 200
    for operation in ("delete", "clear-completed"):
        OPERATIONS[f"todos.{operation}.{rows}"] = min(200, (rows - 20) // 2)
    for operation in ("rename", "toggle-all", "filter"):
        OPERATIONS[f"todos.{operation}.{rows}"] = max(2, min(200, 200_000 // rows))
    OPERATIONS[f"todos.load.{rows}"] = max(2, min(20, 2_000 // rows))
# The navigation workloads (Sources/Workloads/NavigationWorkloads.swift). pop-to-root prepares
# one stack of 1,000 loading screens per 1,000 operations: its base run prepares as many and runs
# none (`arch measure --prepare-only`, which exits with the stacks still held), so a screen's count
# is all its removal costs: the pop, the cancelled load's end, and the runtime's end after it.
OPERATIONS.update({
    "contacts.push-pop.10": 1_000, "contacts.push-pop.10000": 2_000,
    "contacts.push-pop.observed.10": 50, "contacts.push-pop.observed.1000": 50,
    "contacts.pop-to-root.1000": 4_000, "contacts.sheet": 1_000,
})
# The SwiftUI path (Sources/Workloads/ObservationWorkloads.swift): through each Observation
# adapter to its objects on the main actor.
OPERATIONS.update({"observation.toggle.10000": 200, "observation.tick": 200})
PREPARED_BASE = {"contacts.pop-to-root.1000"}
ASYNCHRONOUS = {
    "ticks", "typing", "roundtrip", "lifecycle", "ticks.laps.10", "ticks.laps.1000",
    "ticks.laps.10000", "counter.increments",
} | {name for name in OPERATIONS if name.startswith(("todos.", "shell.", "contacts.", "observation."))}
ALLOCATORS = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"}


def build():
    """Builds `arch` in release mode and returns a copy without debug info (valgrind 3.19
    cannot read the toolchain's DWARF)."""
    subprocess.run(["swift", "build", "-c", "release", "--product", "arch"], cwd=ROOT, check=True,
                   stdout=sys.stderr)
    binary = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout.strip()
    stripped = os.path.join(tempfile.mkdtemp(prefix="arch-callgrind-"), "arch")
    shutil.copy(os.path.join(binary, "arch"), stripped)
    subprocess.run(["strip", "-g", stripped], check=True)
    return stripped


def count(binary, workload, contestant, operations, prepare_only=False):
    """Returns (instructions, allocations) of one run (of its preparation alone, if
    `prepare_only`)."""
    with tempfile.NamedTemporaryFile(prefix="callgrind-", suffix=".out", delete=False) as out:
        path = out.name
    command = ["valgrind", "--tool=callgrind", "--fair-sched=yes", f"--callgrind-out-file={path}"]
    if workload not in ASYNCHRONOUS:
        command.append("--toggle-collect=*measuredRegion*")
    command += [binary, "measure", workload, "--architecture", contestant,
                "--operations", str(operations)]
    if prepare_only:
        command.append("--prepare-only")
    environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    result = subprocess.run(command, capture_output=True, text=True, env=environment)
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if not line.startswith("==")]
        raise RuntimeError(f"{workload} · {contestant} failed:\n" + "\n".join(lines[-20:]))
    try:
        return parse(path)
    finally:
        os.remove(path)


def parse(path):
    """Total instructions and the number of calls into the allocator, from a callgrind file."""
    names = {}
    instructions = 0
    allocations = 0
    callee = None
    with open(path) as file:
        for line in file:
            if line.startswith("summary:") or line.startswith("totals:"):
                instructions = max(instructions, int(line.split()[1]))
            elif line.startswith("fn="):
                match = re.match(r"fn=\((\d+)\) (.*)", line.strip())
                if match:
                    names[match.group(1)] = match.group(2)
            elif line.startswith("cfn="):
                match = re.match(r"cfn=\((\d+)\)(?: (.*))?", line.strip())
                if match:
                    if match.group(2):
                        names[match.group(1)] = match.group(2)
                    callee = names.get(match.group(1))
                else:
                    callee = line.strip()[4:]
            elif line.startswith("calls="):
                if callee in ALLOCATORS:
                    allocations += int(line.split("=")[1].split()[0])
    return instructions, allocations


def contestants(binary):
    output = subprocess.run([binary, "list"], check=True, capture_output=True, text=True).stdout
    for line in output.splitlines():
        if line.startswith("contestants:"):
            return [name.strip() for name in line.split(":", 1)[1].split(",")]
    raise RuntimeError("`arch list` printed no contestants line")


def measure(binary, workloads, names, jobs=1):
    """Counts every (workload, contestant) pair, `jobs` callgrind processes at a time (counts
    do not depend on what else runs); results and the progress lines keep the pairs' order."""
    pairs = [(workload, contestant) for workload in workloads for contestant in names]

    def one(pair):
        workload, contestant = pair
        operations = OPERATIONS[workload]
        try:
            if workload in PREPARED_BASE:
                base = count(binary, workload, contestant, operations, prepare_only=True)
            else:
                base = count(binary, workload, contestant, 0)
        except RuntimeError as error:
            if "has nothing" in str(error):
                return None
            raise
        full = count(binary, workload, contestant, operations)
        return {
            "workload": workload, "contestant": contestant, "operations": operations,
            "instructions": (full[0] - base[0]) / operations,
            "allocations": (full[1] - base[1]) / operations,
        }

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for result in pool.map(one, pairs):
            if result is None:
                continue
            results.append(result)
            print(f"  {result['workload']:18} {result['contestant']:12} "
                  f"{result['instructions']:12.1f} instructions"
                  f" {result['allocations']:8.2f} allocations", file=sys.stderr)
    return results


def table(results):
    lines = ["| workload | contestant | instructions/op | allocations/op |", "|---|---|---:|---:|"]
    for result in results:
        lines.append(f"| `{result['workload']}` | {result['contestant']} | "
                     f"{result['instructions']:,.1f} | {result['allocations']:.2f} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workload", help="comma-separated workloads (default: all)")
    parser.add_argument("--architecture", help="comma-separated contestants (default: all)")
    parser.add_argument("--binary", help="an `arch` built without debug info (default: build one)")
    parser.add_argument("--check", help="a JSON file of targets: fail when a count exceeds one")
    parser.add_argument("--repeat", action="store_true",
                        help="count everything twice; fail if any count differs by more than 0.1%%")
    parser.add_argument("--json", help="write the results to this file")
    parser.add_argument("--jobs", type=int, default=1,
                        help="callgrind processes at a time (default: 1)")
    arguments = parser.parse_args()

    binary = arguments.binary or build()
    workloads = arguments.workload.split(",") if arguments.workload else list(OPERATIONS)
    unknown = [name for name in workloads if name not in OPERATIONS]
    if unknown:
        parser.error(f"unknown workload(s) {', '.join(unknown)}; one of {', '.join(OPERATIONS)}")
    names = arguments.architecture.split(",") if arguments.architecture else contestants(binary)

    results = measure(binary, workloads, names, arguments.jobs)
    print(table(results))
    failed = False
    if arguments.repeat:
        again = measure(binary, workloads, names, arguments.jobs)
        for first, second in zip(results, again):
            for key in ("instructions", "allocations"):
                a, b = first[key], second[key]
                drift = abs(a - b) / max(abs(a), 1e-9)
                status = "ok" if drift <= 0.001 else "DIFFERS"
                if drift > 0.001:
                    failed = True
                print(f"repeat {first['workload']} · {first['contestant']} {key}: "
                      f"{a:.2f} then {b:.2f} ({drift * 100:.3f}%) {status}")
    if arguments.check:
        with open(arguments.check) as file:
            targets = json.load(file)
        for result in results:
            target = targets.get(result["workload"], {}) if result["workload"] != "ratios" else {}
            limit = target.get("instructions", {}).get(result["contestant"],
                                                       target.get("instructions", {}).get("*"))
            allocations = target.get("allocations")
            if isinstance(allocations, dict):
                allocations = allocations.get(result["contestant"], allocations.get("*"))
            verdict = []
            if limit is not None and result["instructions"] > limit:
                verdict.append(f"{result['instructions']:.1f} instructions > target {limit}")
            # Two decimals: a one-time allocation (a queue's first buffer) spread over 100,000
            # operations is not an allocation per operation.
            if allocations is not None and round(result["allocations"], 2) > allocations:
                verdict.append(f"{result['allocations']:.2f} allocations > target {allocations}")
            if verdict:
                failed = True
                print(f"FAIL {result['workload']} · {result['contestant']}: {'; '.join(verdict)}")
            elif limit is not None or allocations is not None:
                print(f"ok   {result['workload']} · {result['contestant']}: "
                      f"{result['instructions']:.1f} instructions (target {limit}), "
                      f"{result['allocations']:.2f} allocations")
        for rule in targets.get("ratios", []):
            for contestant in names:
                reason = rule.get("except", {}).get(contestant)
                if reason:
                    print(f"skip {rule['numerator']} ÷ {rule['denominator']} · {contestant}: "
                          f"{reason}")
                    continue
                top = next((r for r in results if r["workload"] == rule["numerator"]
                            and r["contestant"] == contestant), None)
                bottom = next((r for r in results if r["workload"] == rule["denominator"]
                               and r["contestant"] == contestant), None)
                if not top or not bottom or not bottom["instructions"]:
                    continue
                ratio = top["instructions"] / bottom["instructions"]
                label = f"{rule['numerator']} ÷ {rule['denominator']} · {contestant}"
                if ratio > rule["max"]:
                    failed = True
                    print(f"FAIL {label}: {ratio:.2f}× > {rule['max']}×")
                else:
                    print(f"ok   {label}: {ratio:.2f}× (at most {rule['max']}×)")
    if arguments.json:
        with open(arguments.json, "w") as file:
            json.dump(results, file, indent=2)
            file.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
