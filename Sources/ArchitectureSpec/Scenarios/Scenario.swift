/// A named list of steps, tagged with the spec rules it checks.
///
/// Every run starts the runtime first; steps then act on it or check it. Each action waits for
/// idle before the next step (R7), and time passes only in ``Step/advance(_:)``. Child features
/// named in `observing` are observed before start (R11); their views are part of the trace.
///
/// ```swift
/// Scenario<CounterApp>(
///   "c4.increment", rules: [.c4, .c5],
///   steps: [.send(.increment), .expectView(.ready(count: 1)),
///           .expectCalls([.load, .save(1), .log("count: 1")])])
/// ```
public struct Scenario<App: ConformanceApp>: Sendable, CustomStringConvertible {
  public var name: String
  public var rules: [Rule]
  public var setup: App.Setup
  /// Children observed from before start, in this order.
  public var observing: [App.Child]
  public var steps: [Step<App>]

  public init(
    _ name: String, rules: [Rule], setup: App.Setup = App.Setup(), observing: [App.Child] = [],
    steps: [Step<App>]
  ) {
    self.name = name
    self.rules = rules
    self.setup = setup
    self.observing = observing
    self.steps = steps
  }

  public var description: String {
    var lines = ["\(name) [\(rules.map(\.rawValue).joined(separator: ", "))]"]
    let setupText = setup.description
    if !setupText.isEmpty { lines.append("  setup: \(setupText)") }
    if !observing.isEmpty {
      lines.append("  observing: \(observing.map(\.description).joined(separator: ", "))")
    }
    for (index, step) in steps.enumerated() { lines.append("  \(index + 1). \(step)") }
    return lines.joined(separator: "\n")
  }
}
