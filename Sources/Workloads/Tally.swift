/// The state of the benchmark counter: a count, plus a payload whose size the `state.size`
/// workloads vary to prove a runtime never copies the state on dispatch.
public struct TallyState: Equatable, Sendable {
  /// The number of increments applied.
  public var count: Int
  /// Elements no action touches.
  public var payload: [Int]

  public init(count: Int = 0, payload: [Int] = []) {
    self.count = count
    self.payload = payload
  }
}

/// What the benchmark counter can be sent.
public enum TallyAction: Sendable, Hashable {
  /// Adds one to the count: the state changes.
  case increment
  /// Changes nothing: observers must not be notified.
  case touch
}

/// The benchmark counter's update: the smallest reducer with a real state change.
///
/// Every architecture runs exactly this function, wrapped in its own runtime, so the
/// `dispatch` workloads measure the runtime and nothing else.
@inlinable
public func tally(_ state: inout TallyState, _ action: TallyAction) {
  switch action {
  case .increment: state.count &+= 1
  case .touch: break
  }
}
