// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Comonadic",
  platforms: [.macOS(.v15)],
  products: [.library(name: "Comonadic", targets: ["Comonadic"])],
  targets: [
    .target(name: "Comonadic"),
    .testTarget(name: "ComonadicTests", dependencies: ["Comonadic"]),
  ]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v6)]
}
