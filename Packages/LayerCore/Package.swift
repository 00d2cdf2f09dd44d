// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "LayerCore",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "LayerCore", targets: ["LayerCore"]),
    .library(name: "LayerCoreTesting", targets: ["LayerCoreTesting"]),
  ],
  targets: [
    .target(name: "LayerCore"),
    .target(name: "LayerCoreTesting", dependencies: ["LayerCore"]),
    .testTarget(name: "LayerCoreTests", dependencies: ["LayerCore", "LayerCoreTesting"]),
  ]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v6)]
}
