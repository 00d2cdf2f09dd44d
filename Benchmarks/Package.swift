// swift-tools-version: 6.1
import PackageDescription

// The workloads of `arch compare` on package-benchmark, for wall clock, throughput and malloc
// counts. Its own package, so users of the libraries never resolve benchmark dependencies.
let package = Package(
  name: "Benchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "swift-unidirectional-architectures", path: ".."),
    .package(
      url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "Architectures",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(
          name: "ArchitectureWorkloads", package: "swift-unidirectional-architectures"),
      ],
      path: "Benchmarks/Architectures",
      swiftSettings: [.swiftLanguageMode(.v6)],
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
  ]
)
