// swift-tools-version: 6.1
import PackageDescription

// An architecture that is not in the repository, checked with the kit the way a user would:
// the repository is one dependency (by path here; by URL in a real project), and the kit
// (`ArchitectureSpec`, its reference apps, and `ArchitectureSpecTesting`) comes from it.
let package = Package(
  name: "ActorCounter",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "swift-unidirectional-architectures", path: "../..")
  ],
  targets: [
    // The architecture under test: an actor store whose `send` is asynchronous.
    .target(
      name: "ActorCounter",
      dependencies: [
        .product(name: "ArchitectureSpec", package: "swift-unidirectional-architectures")
      ]),
    // A plain executable that prints the conformance report.
    .executableTarget(
      name: "actor-conformance",
      dependencies: [
        "ActorCounter",
        .product(name: "ArchitectureSpec", package: "swift-unidirectional-architectures"),
      ]),
    // The project's command line with the actor counter added: `swift run actor-arch
    // conformance --architecture actor-counter`, `stress`, `compare --quick`, `measure`.
    .executableTarget(
      name: "actor-arch",
      dependencies: [
        "ActorCounter",
        .product(name: "ArchitectureCommands", package: "swift-unidirectional-architectures"),
      ]),
    // The same check as Swift Testing tests, one per scenario.
    .testTarget(
      name: "ActorCounterTests",
      dependencies: [
        "ActorCounter",
        .product(name: "ArchitectureSpec", package: "swift-unidirectional-architectures"),
        .product(name: "ArchitectureSpecTesting", package: "swift-unidirectional-architectures"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
