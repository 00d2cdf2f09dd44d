// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Comonadic",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Comonadic", targets: ["Comonadic"]),
    .library(name: "ComonadicTesting", targets: ["ComonadicTesting"]),
  ],
  targets: [
    .target(name: "Comonadic"),
    .target(name: "ComonadicTesting", dependencies: ["Comonadic"]),
    .testTarget(name: "ComonadicTests", dependencies: ["Comonadic", "ComonadicTesting"]),
  ]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v6)]
}
