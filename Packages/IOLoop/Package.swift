// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "IOLoop",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "IOLoop", targets: ["IOLoop"]),
    .library(name: "IOLoopTesting", targets: ["IOLoopTesting"]),
  ],
  targets: [
    .target(name: "IOLoop"),
    .target(name: "IOLoopTesting", dependencies: ["IOLoop"]),
    .testTarget(name: "IOLoopTests", dependencies: ["IOLoop", "IOLoopTesting"]),
  ]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v6)]
}
