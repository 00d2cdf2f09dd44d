// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for every parser that reads outside bytes (SPEC L1, L4, L6, T1, W11): the
// count file, the todos file, the Open-Meteo search and forecast decoders and the JSON scan
// behind them, the terminal's key decoder, the `--keys` script parser and the screen's
// sanitizer. One executable; `FUZZ_TARGET` names the parser. Built only with
// `--sanitize=fuzzer` (libFuzzer brings `main`): run it with `Scripts/fuzz.sh`.
let package = Package(
  name: "Fuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "Root", path: "../..")],
  targets: [
    .executableTarget(
      name: "FuzzParsers",
      dependencies: [
        .product(name: "ArchitectureLive", package: "Root"),
        .product(name: "ArchitectureApps", package: "Root"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-parse-as-library"])]
    )
  ]
)
