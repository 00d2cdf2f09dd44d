#!/usr/bin/env python3
"""Instructions and heap allocations per operation, counted by callgrind.

For each workload and contestant, counts a base phase (no operation) and a full one (N
operations) and reports (count_N - count_0) / N: what the operations cost, without start-up,
set-up or checking. One warm-up operation runs before either, so what a process pays once, on
first use, cancels out too. Counts do not depend on machine load.

All of a contestant's workloads run in one `arch measure --batch` process under `valgrind
--tool=callgrind` (valgrind's start-up, about two seconds, once rather than twice per workload);
callgrind zeroes its counters where a phase begins (`--zero-before=*countingBegins*`) and writes
them where it ends (`--dump-before=*countingEnds*`), over all threads. For a synchronous workload
a phase is the operations' run alone; for an asynchronous one, whose work ends on other threads,
it is the trial's preparation, run, finish and release. Synchronous and asynchronous workloads
run in separate processes.

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
#
# The sheet and push-pop.10 count 4,000 and 2,000 operations, the observed push-pops 400: a
# phase's session (its fake service and clock) is made in the base phase and again in the full
# one, and what making it costs depends on the state earlier phases left the allocator in (a
# large allocation that finds the free lists unsorted sorts them): up to 1.6M instructions more
# in one phase than in the other. Over 1,000 sheet cycles, that moved the count per cycle by up
# to 4% from run to run (72.2k to 76.5k for layer-core); over 4,000, by 0.6%. Over 50 observed
# push-pops it moved layer-core's count by a fifth (52.3k one run, 65.2k over 400).
OPERATIONS.update({
    "contacts.push-pop.10": 2_000, "contacts.push-pop.10000": 2_000,
    "contacts.push-pop.observed.10": 400, "contacts.push-pop.observed.1000": 400,
    "contacts.pop-to-root.1000": 4_000, "contacts.sheet": 4_000,
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


def parse(path, totals_only=False):
    """Total instructions and the number of calls into the allocator, from a callgrind file.

    A dump written at `--dump-before` (`totals_only`) is read by its "totals:" line, the sum of
    the costs it lists since the last zeroing: its "summary:" line can still count from the
    process's start."""
    names = {}
    instructions = 0
    allocations = 0
    callee = None
    with open(path) as file:
        for line in file:
            if line.startswith("totals:") or (line.startswith("summary:") and not totals_only):
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


def count_batch(binary, contestant, workloads, synchronous):
    """Counts `workloads` for one contestant in one callgrind process (`arch measure --batch`):
    each workload's base phase, then its full one, each zeroed on entering `countingBegins` and
    written on entering `countingEnds`. Returns {workload: (base, full)}, each (instructions,
    allocations); a workload the contestant cannot run is left out."""
    directory = tempfile.mkdtemp(prefix="callgrind-")
    path = os.path.join(directory, "out")
    command = ["valgrind", "--tool=callgrind", "--fair-sched=yes", f"--callgrind-out-file={path}",
               "--zero-before=*countingBegins*", "--dump-before=*countingEnds*"]
    command += [binary, "measure", "--architecture", contestant, "--batch",
                ",".join(f"{workload}={OPERATIONS[workload]}" for workload in workloads)]
    if synchronous:
        command.append("--runs-only")
    prepared = [workload for workload in workloads if workload in PREPARED_BASE]
    if prepared:
        command += ["--prepared-base", ",".join(prepared)]
    environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    try:
        result = subprocess.run(command, capture_output=True, text=True, env=environment)
        if result.returncode != 0:
            lines = [line for line in result.stderr.splitlines() if not line.startswith("==")]
            raise RuntimeError(f"{', '.join(workloads)} · {contestant} failed:\n"
                               + "\n".join(lines[-20:]))
        # One line per phase, in the order of the dumps: "W base", "W full operations=N", or
        # "W skipped" (no phase).
        phases = [line.split()[:2] for line in result.stdout.splitlines()
                  if re.match(r"\S+ (base|full)( |$)", line)]
        dumps = sorted((name for name in os.listdir(directory) if re.fullmatch(r"out\.\d+", name)),
                       key=lambda name: int(name.split(".")[1]))
        if len(dumps) != len(phases):
            raise RuntimeError(f"{contestant}: {len(phases)} phases but {len(dumps)} callgrind dumps")
        counts = {}
        for (workload, phase), dump in zip(phases, dumps):
            counts.setdefault(workload, {})[phase] = parse(os.path.join(directory, dump), True)
        return {workload: (phases["base"], phases["full"]) for workload, phases in counts.items()}
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def measure(binary, workloads, names, jobs=1):
    """Counts every (workload, contestant) pair: one callgrind process per contestant for the
    synchronous workloads and one for the asynchronous ones, `jobs` processes at a time (counts
    do not depend on what else runs). Results and the progress lines keep the pairs' order."""
    groups = []
    for contestant in names:
        for synchronous in (True, False):
            group = [workload for workload in workloads
                     if (workload not in ASYNCHRONOUS) == synchronous]
            if group:
                groups.append((contestant, group, synchronous))

    def one(group):
        contestant, group_workloads, synchronous = group
        return contestant, count_batch(binary, contestant, group_workloads, synchronous)

    counted = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for contestant, counts in pool.map(one, groups):
            for workload, (base, full) in counts.items():
                counted[(workload, contestant)] = (base, full)

    results = []
    for workload in workloads:
        for contestant in names:
            if (workload, contestant) not in counted:
                continue
            base, full = counted[(workload, contestant)]
            operations = OPERATIONS[workload]
            result = {
                "workload": workload, "contestant": contestant, "operations": operations,
                "instructions": (full[0] - base[0]) / operations,
                "allocations": (full[1] - base[1]) / operations,
            }
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
