// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "MUE",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "MUE", targets: ["MUE"]),
    .library(name: "MUETesting", targets: ["MUETesting"]),
  ],
  targets: [
    .target(name: "MUE"),
    .target(name: "MUETesting", dependencies: ["MUE"]),
    .testTarget(name: "MUETests", dependencies: ["MUE", "MUETesting"]),
  ]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v6)]
}
