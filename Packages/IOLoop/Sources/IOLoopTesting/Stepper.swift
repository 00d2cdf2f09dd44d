import IOLoop

/// A pure stepper for a `PureApp`: feeds it inputs one at a time and asserts the exact state
/// and outputs of each step. No handler runs; nothing is asynchronous.
///
/// ```swift
/// @Test func incrementSavesAndRenders() {
///   var app = Stepper(Counter.self)
///   app.start(expecting: Counter(count: 0), IOOutputs([.render("Loading…")], [.load]))
///   app.step(IOInput(nil, .loaded(3)), expecting: Counter(count: 3), IOOutputs([.render("Count: 3")], []))
///   app.step(IOInput(.increment, nil), expecting: Counter(count: 4), IOOutputs([.render("Count: 4")], [.save(4)]))
/// }
/// ```
///
/// A mismatch records an issue naming the step and showing a line diff (− expected, + actual)
/// of the state and of the outputs; the stepper goes on from the actual state, so one wrong
/// step does not hide the next.
public struct Stepper<App: PureApp> {
  /// The state after the last step.
  public private(set) var state: App?
  /// How many steps have run, `start()` included.
  public private(set) var steps = 0

  /// A stepper that has not started.
  public init(_ app: App.Type) {}

  /// A stepper that starts from `state`, as if `start()` had returned it.
  public init(from state: App) {
    self.state = state
    steps = 1
  }

  /// Runs `start()` and returns its state and outputs.
  @discardableResult
  public mutating func start() -> (App, App.Outputs) {
    let (next, outputs) = App.start()
    state = next
    steps = 1
    return (next, outputs)
  }

  /// Runs `run(input:)` on the current state and returns the new state and the outputs.
  @discardableResult
  public mutating func step(
    _ input: App.Input, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> (App, App.Outputs) {
    guard let state else {
      reportFailure(
        "Stepper: step(\(input)) before start(); call start() or init(from:) first",
        at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
      return App.start()
    }
    let (next, outputs) = state.run(input: input)
    self.state = next
    steps += 1
    return (next, outputs)
  }
}

extension Stepper where App: Equatable {
  /// Runs `start()` and checks its state and outputs.
  public mutating func start(
    expecting expected: App, _ expectedOutputs: App.Outputs,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let (actual, outputs) = start()
    check("start()", actual, outputs, expected, expectedOutputs, sourceLocation)
  }

  /// Runs one step and checks its state and outputs.
  public mutating func step(
    _ input: App.Input, expecting expected: App, _ expectedOutputs: App.Outputs,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let (actual, outputs) = step(
      input, fileID: fileID, filePath: filePath, line: line, column: column)
    check(
      "step \(steps - 1) (\(describe(input)))", actual, outputs, expected, expectedOutputs,
      sourceLocation)
  }

  /// Runs one step that should change only one child program of the app (an embedded program,
  /// or one row of a list: `\.rows[id: 3]`), and checks it exhaustively: the child's state,
  /// that nothing else of the app's state changed, and the step's outputs (the child's, lifted,
  /// and the parent's own).
  ///
  /// ```swift
  /// app.step(IOShell.Input(nil, nil, IOStopwatch.Input(.lap, nil), nil), child: \.stopwatch,
  ///          expecting: lapped, IOShell.Outputs([], [], [lappedOutputs], []))
  /// ```
  ///
  /// A mismatch names the child's path and shows a line diff of the child, of the rest of the
  /// state, and of the outputs.
  public mutating func step<Child: Equatable>(
    _ input: App.Input, child path: WritableKeyPath<App, Child>, expecting expected: Child,
    _ expectedOutputs: App.Outputs, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let before = state else {
      _ = step(input, fileID: fileID, filePath: filePath, line: line, column: column)
      return
    }
    let (actual, outputs) = step(
      input, fileID: fileID, filePath: filePath, line: line, column: column)
    var failures: [String] = []
    if actual[keyPath: path] != expected {
      failures.append(
        "child\(readable(path)) differs: (− expected, + actual)\n"
          + lineDiff(expected: expected, actual: actual[keyPath: path]))
    }
    // Everything else must be as it was: the state before, with the actual child put in.
    var unchanged = before
    unchanged[keyPath: path] = actual[keyPath: path]
    if actual != unchanged {
      failures.append(
        "state outside the child changed: (− before, + actual)\n"
          + lineDiff(expected: unchanged, actual: actual))
    }
    let outputsDiff = lineDiff(expected: expectedOutputs, actual: outputs)
    if !outputsDiff.isEmpty {
      failures.append("outputs differ: (− expected, + actual)\n" + outputsDiff)
    }
    guard !failures.isEmpty else { return }
    reportFailure(
      (["step \(steps - 1) (\(describe(input))):"] + failures).joined(separator: "\n"),
      at: sourceLocation)
  }

  private func check(
    _ name: String, _ actual: App, _ outputs: App.Outputs, _ expected: App,
    _ expectedOutputs: App.Outputs, _ sourceLocation: CallSite
  ) {
    var failures: [String] = []
    if actual != expected {
      failures.append(
        "state differs: (− expected, + actual)\n" + lineDiff(expected: expected, actual: actual))
    }
    let outputsDiff = lineDiff(expected: expectedOutputs, actual: outputs)
    if !outputsDiff.isEmpty {
      failures.append("outputs differ: (− expected, + actual)\n" + outputsDiff)
    }
    guard !failures.isEmpty else { return }
    reportFailure((["\(name):"] + failures).joined(separator: "\n"), at: sourceLocation)
  }
}

/// ` \\App.child` for a key path that prints readably, `""` for one that does not (a
/// subscript, on some platforms).
func readable(_ path: AnyKeyPath) -> String {
  let text = "\(path)"
  return text.contains("<computed") ? "" : " " + text
}

/// An input described by its set element only: `increment` rather than the whole tuple.
func describe<Input>(_ input: Input) -> String {
  let mirror = Mirror(reflecting: input)
  guard let values = mirror.children.first?.value else { return "\(input)" }
  for element in Mirror(reflecting: values).children {
    let inner = Mirror(reflecting: element.value)
    if inner.displayStyle == .optional, let some = inner.children.first { return "\(some.value)" }
  }
  return "\(input)"
}
