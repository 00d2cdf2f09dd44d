// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "LayerCore",
  platforms: [.macOS(.v15)],
  products: [.library(name: "LayerCore", targets: ["LayerCore"])],
  targets: [
    .target(name: "LayerCore"),
    .testTarget(name: "LayerCoreTests", dependencies: ["LayerCore"]),
  ]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v6)]
}
