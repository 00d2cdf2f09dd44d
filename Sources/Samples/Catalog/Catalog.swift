import ArchitectureSpec
import Baseline
import ComonadicSamples
import ElmStoreSamples
import IOLoopSamples
import LayerCoreSamples
import MUESamples
import Workloads

/// One architecture's implementations of the three apps.
public struct Architecture: Sendable {
  public var name: String
  public var counter: Implementation<CounterApp>
  public var stopwatch: Implementation<StopwatchApp>
  public var weather: Implementation<WeatherApp>
  /// The runtime around the benchmark counter, for the synchronous workloads.
  public var tally: any TallySubject.Type

  /// What the benchmark workloads run for this architecture.
  public var contestant: Contestant {
    Contestant(name: name, tally: tally, stopwatch: stopwatch, weather: weather)
  }
}

/// Every architecture in this repository, and what is known not to conform yet.
public enum Catalog {
  /// The architectures, reference first.
  public static let architectures: [Architecture] = [
    Architecture(
      name: "baseline", counter: .baseline, stopwatch: .baseline, weather: .baseline,
      tally: BaselineTally.self),
    Architecture(
      name: "elm-store", counter: .elmStore, stopwatch: .elmStore, weather: .elmStore,
      tally: ElmStoreTally.self),
    Architecture(
      name: "mue", counter: .mue, stopwatch: .mue, weather: .mue, tally: MUETally.self),
    Architecture(
      name: "io-loop", counter: .ioLoop, stopwatch: .ioLoop, weather: .ioLoop,
      tally: IOLoopTally.self),
    Architecture(
      name: "layer-core", counter: .layerCore, stopwatch: .layerCore, weather: .layerCore,
      tally: LayerCoreTally.self),
    Architecture(
      name: "comonadic", counter: .comonadic, stopwatch: .comonadic, weather: .comonadic,
      tally: ComonadicTally.self),
  ]

  /// What the benchmark runner measures: every architecture, then the bare reducer.
  public static var contestants: [Contestant] { architectures.map(\.contestant) + [.bare] }

  /// The reference every trace is compared with: `baseline`.
  public static var reference: Architecture { architectures[0] }

  /// The app names, in the order reports list them.
  public static let apps = [CounterApp.name, StopwatchApp.name, WeatherApp.name]

  /// Failures accepted for now, with the reason. The goal is an empty list; an entry whose
  /// scenario passes is reported as an error.
  public static let knownDeviations: [KnownDeviation] = []

  /// The architecture called `name`, if there is one.
  public static func architecture(named name: String) -> Architecture? {
    architectures.first { $0.name == name }
  }
}
