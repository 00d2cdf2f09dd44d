import Comonadic

/// A `StoreComponent` for tests: send inputs and assert the views it renders.
///
/// ```swift
/// @Test func incrementShowsTheNewCount() async {
///   let harness = ComponentHarness(
///     initialState: Counter.State(), environment: fakes,
///     dispatcher: Counter.dispatcher, render: Counter.render)
///   await harness.send(.increment, renders: [CounterView(count: 1)])
///   await harness.finish()
/// }
/// ```
///
/// Effects run on the harness's own executor. `send` returns when every effect has finished or
/// waits on something outside the component (a clock, a service), so nothing sleeps; the views
/// rendered up to then are what it asserts. Views rendered later, when a fake answers or a
/// virtual clock advances, are asserted with `renders(_:)`.
public final class ComponentHarness<
  Environment: Sendable, S: Sendable, Input: Sendable, View: Equatable & Sendable
> {
  /// The component under test.
  public let component: StoreComponent<Environment, S, Input, View>
  private let executor: TestExecutor
  private let rendered = Rendered<View>()
  private var unasserted: [View] = []

  /// Creates the component, on an executor of the harness's own, and observes its views.
  public init(
    initialState: S, environment: Environment,
    dispatcher: StateDispatcher<Environment, S, Input>,
    render: @escaping @Sendable (S, @escaping @Sendable (Input) -> Void) -> View
  ) {
    let executor = TestExecutor.acquire()
    self.executor = executor
    component = StoreComponent(
      initialState: initialState, environment: environment, dispatcher: dispatcher,
      executor: executor, render: render)
    let (rendered, handle) = (rendered, component.handle)
    component.onEffect { state in rendered.append(render(state, handle)) }
  }

  deinit {
    component.stop()
    executor.release()
  }

  /// The state now.
  public var state: S { component.state }

  /// The view now.
  public var view: View { component.view }

  /// Sends `input`, waits until its effects have finished or wait outside the component, and
  /// asserts the views rendered meanwhile, one per action applied, in order.
  public func send(
    _ input: Input, renders expected: [View], fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await executor.quiescence()
    unasserted += rendered.drain()
    guard unasserted.isEmpty else {
      fail(
        "\(unasserted.count) view(s) rendered before sending \(input) were not asserted:\n"
          + unasserted.map { "  \($0)" }.joined(separator: "\n"),
        sourceLocation)
      unasserted = []
      return
    }
    component.send(input)
    await check(expected, after: "\(input)", sourceLocation)
  }

  /// Asserts the views rendered since the last assertion, once effects have settled: the
  /// results of work a fake answered or a clock released.
  public func renders(
    _ expected: [View], fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await check(expected, after: "the last assertion", sourceLocation)
  }

  /// Ends the test: fails if a rendered view was not asserted; then stops the component.
  public func finish(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await executor.quiescence()
    unasserted += rendered.drain()
    defer { component.stop() }
    if !unasserted.isEmpty {
      fail(
        "\(unasserted.count) rendered view(s) were not asserted:\n"
          + unasserted.map { "  \($0)" }.joined(separator: "\n"),
        sourceLocation)
    }
  }

  private func check(_ expected: [View], after cause: String, _ sourceLocation: CallSite)
    async
  {
    await executor.quiescence()
    let actual = unasserted + rendered.drain()
    unasserted = []
    guard actual != expected else { return }
    fail(
      "Views rendered after \(cause) differ (− expected, + actual):\n"
        + lineDiff(expected: expected, actual: actual),
      sourceLocation)
  }
}

private func fail(_ message: String, _ sourceLocation: CallSite) {
  reportFailure(message, at: sourceLocation)
}

/// The views rendered so far, as the component's hook reports them.
private final class Rendered<View: Sendable>: Sendable {
  private let views = Lock<[View]>([])
  func append(_ view: View) { views.withLock { $0.append(view) } }
  func drain() -> [View] {
    views.withLock { views in
      defer { views = [] }
      return views
    }
  }
}
