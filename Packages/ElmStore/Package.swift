// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "ElmStore",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "ElmStore", targets: ["ElmStore"]),
    .library(name: "ElmStoreTesting", targets: ["ElmStoreTesting"]),
  ],
  targets: [
    .target(name: "ElmStore"),
    .target(name: "ElmStoreTesting", dependencies: ["ElmStore"]),
    .testTarget(name: "ElmStoreTests", dependencies: ["ElmStore", "ElmStoreTesting"]),
  ]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v6)]
}
