// swift-tools-version: 6.1
import PackageDescription

// Each package's test tool, used wrongly once from an XCTest case and once from a Swift Testing
// test: `Scripts/reporting-probe.sh` runs this package's tests in a child process and checks
// that every wrong assertion fails its test, with the tool's message, at the caller's line.
let package = Package(
  name: "ReportingProbe",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [.package(name: "Root", path: "../../..")],
  targets: [
    .testTarget(
      name: "ProbeTests",
      dependencies: [
        "ElmStore", "ElmStoreTesting", "MUE", "MUETesting", "IOLoop", "IOLoopTesting",
        "LayerCore", "LayerCoreTesting", "Comonadic", "ComonadicTesting", "ArchitectureSpec",
        "ArchitectureSpecTesting",
      ].map { .product(name: $0, package: "Root") },
      swiftSettings: [.swiftLanguageMode(.v6)]
    )
  ]
)
