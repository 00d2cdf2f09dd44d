// swift-tools-version: 6.1
import PackageDescription

// The architecture libraries. Each lives in `Packages/<Name>/` with its own standalone manifest;
// the root exposes the same sources, so users can add this repository by URL and depend on one
// product. An entry is added here when its package lands. Each brings its testing tool
// (`<Name>Testing`) and its samples (`Sources/Samples/<Name>`, target `<Name>Samples`).
let architectures: [String] = ["Comonadic", "ElmStore", "IOLoop", "LayerCore", "MUE"]

let architectureTargets: [Target] = architectures.flatMap { name -> [Target] in
  [
    .target(name: name, path: "Packages/\(name)/Sources/\(name)"),
    .target(
      name: "\(name)Testing", dependencies: [.target(name: name)],
      path: "Packages/\(name)/Sources/\(name)Testing"),
    .target(
      name: "\(name)Samples",
      dependencies: [.target(name: name), "ArchitectureSpec", "Workloads"],
      path: "Sources/Samples/\(name)"),
  ]
}

let package = Package(
  name: "swift-unidirectional-architectures",
  // Where Swift 6's task executors (`Task(executorPreference:)`) and `Synchronization` exist.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: architectures.flatMap { name -> [Product] in
    [
      .library(name: name, targets: [name]),
      .library(name: "\(name)Testing", targets: ["\(name)Testing"]),
    ]
  } + [
    .library(name: "ArchitectureApps", targets: ["ArchitectureApps"]),
    .library(name: "ArchitectureSpec", targets: ["ArchitectureSpec", "Baseline"]),
    .library(name: "ArchitectureSpecTesting", targets: ["ArchitectureSpecTesting"]),
    // The benchmark workloads and every architecture's contestant, for `Benchmarks/`.
    .library(name: "ArchitectureWorkloads", targets: ["Workloads", "Samples"]),
    // The `arch` command line as a library: an architecture of another package runs the same
    // commands next to the five (`ArchitectureCommand.main(adding:)`).
    .library(name: "ArchitectureCommands", targets: ["ArchitectureCommands"]),
    // The samples' live parts alone: file storage, Open-Meteo over HTTP, the terminal's keys and
    // scripts. The fuzz targets (Tests/Fuzz) build on this, not on every architecture.
    .library(name: "ArchitectureLive", targets: ["LiveEnvironment", "Console"]),
    .executable(name: "arch", targets: ["arch"]),
  ],
  targets: architectureTargets + [
    // The runtime kernel every architecture carries a copy of (Scripts/vendor-kernel): the
    // lock, the drain queue, the registry of running work, waiters, subscribers; and the test
    // tools' kernel (executor, line diff, failure reporting). Built here for its own tests, and
    // the kit, the baseline and the samples' support lock with its `Lock` (an atomic word, and a
    // pthread condition to sleep on: ThreadSanitizer sees both; it cannot see
    // `Synchronization.Mutex` on Linux).
    .target(name: "Kernel", path: "Kernel/Runtime"),
    .target(name: "KernelTesting", path: "Kernel/Testing"),
    .testTarget(name: "KernelTests", dependencies: ["Kernel", "KernelTesting"]),
    // The spec's apps: intents, views, environment protocols, formatting, and the driver
    // protocol every architecture implements. Live code and the samples build on this alone.
    .target(name: "ArchitectureApps", dependencies: ["Kernel"]),
    // The conformance kit: per app, fakes, scenarios and mutants; the generic runner, traces
    // and reports.
    .target(name: "ArchitectureSpec", dependencies: ["ArchitectureApps", "Kernel"]),
    // A thin Swift Testing adapter for the kit; kept apart so `arch` never links Testing.
    .target(name: "ArchitectureSpecTesting", dependencies: ["ArchitectureSpec"]),
    // The benchmark workloads, defined once for every contestant.
    .target(name: "Workloads", dependencies: ["ArchitectureSpec", "CHeapUsage", "Kernel"]),
    // Heap usage from the C library, for the lifecycle workload's leak check.
    .target(name: "CHeapUsage"),
    // The plain-Swift reference apps: the traces every architecture must match.
    .target(
      name: "Baseline", dependencies: ["ArchitectureSpec", "Workloads", "Kernel"],
      path: "Sources/Samples/Baseline"),
    // The catalog of every architecture's samples and conformance drivers.
    .target(
      name: "Samples",
      dependencies: ["ArchitectureSpec", "Baseline", "Kernel", "Workloads"]
        + architectures.map { .target(name: "\($0)Samples") },
      path: "Sources/Samples/Catalog"
    ),
    // The samples' live environment: file storage, Open-Meteo over URLSession, recorded responses.
    .target(name: "LiveEnvironment", dependencies: ["ArchitectureApps", "Kernel"]),
    // The samples as terminal screens: keys, scripts, raw mode, the interactive loop.
    .target(name: "Console", dependencies: ["ArchitectureApps", "Kernel"]),
    // The command line's commands, and the entry point for architectures of other packages.
    .target(
      name: "ArchitectureCommands",
      dependencies: [
        "ArchitectureSpec", "Console", "Kernel", "LiveEnvironment", "Samples", "Workloads",
      ]),
    .executableTarget(name: "arch", dependencies: ["ArchitectureCommands"]),
    .testTarget(
      name: "ArchitectureSpecTests",
      dependencies: [
        "ArchitectureSpec", "ArchitectureSpecTesting", "Baseline", "Kernel", "Samples",
      ],
      exclude: ["Golden"]
    ),
    .testTarget(
      name: "WorkloadTests",
      dependencies: [
        "ArchitectureSpec", "Baseline", "Kernel", "KernelTesting", "Samples", "Workloads",
      ]),
    // Each architecture's samples under its own testing tool.
    .testTarget(
      name: "SampleTests",
      dependencies: ["ArchitectureSpec", "ArchitectureSpecTesting", "Baseline"]
        + architectures.flatMap { [.target(name: "\($0)Samples"), .target(name: "\($0)Testing")] }
    ),
    // The live environment against a server on 127.0.0.1 and real files; `arch run` scripts.
    .testTarget(
      name: "LiveTests",
      dependencies: ["ArchitectureSpec", "Console", "Kernel", "LiveEnvironment", "Samples"]
    ),
    .testTarget(
      name: "ConformanceTests",
      dependencies: ["ArchitectureSpec", "ArchitectureSpecTesting", "Baseline", "Samples"]
    ),
    // Each package's test tool used wrongly once from an XCTest case (a file importing only
    // XCTest) and once from a Swift Testing test. Skipped unless `ARCH_REPORTING_PROBE=1`:
    // `Scripts/reporting-probe.sh` runs them so, in a child process, and checks that every
    // wrong assertion failed its test with the tool's message at the caller's line.
    .testTarget(
      name: "ReportingProbeTests",
      dependencies: [
        "ArchitectureSpec", "ArchitectureSpecTesting",
        .target(name: "Comonadic"), .target(name: "ComonadicTesting"),
        .target(name: "ElmStore"), .target(name: "ElmStoreTesting"),
        .target(name: "IOLoop"), .target(name: "IOLoopTesting"),
        .target(name: "LayerCore"), .target(name: "LayerCoreTesting"),
        .target(name: "MUE"), .target(name: "MUETesting"),
      ]
    ),
  ]
)

for target in package.targets where target.name != "CHeapUsage" {
  target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v6)]
}
