/// Hands values to code on the main actor in the order they were produced, skipping any value
/// older than one already delivered, and tells when all produced values were delivered.
final class MainActorDelivery<Value: Sendable>: Sendable {
  private struct State {
    var produced = 0
    var delivered = 0
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Lock(State())
  private let deliver: @MainActor @Sendable (Value) -> Void

  init(_ deliver: @escaping @MainActor @Sendable (Value) -> Void) {
    self.deliver = deliver
  }

  /// Delivers `value` on the main actor, unless a newer value gets there first.
  func send(_ value: Value) {
    let number = state.withLock { state -> Int in
      state.produced += 1
      return state.produced
    }
    Task { @MainActor in self.apply(number, value) }
  }

  /// Returns once every value produced so far was delivered or skipped.
  func settled() async {
    await withCheckedContinuation { continuation in
      let done = state.withLock { state in
        if state.delivered >= state.produced { return true }
        state.waiters.append(continuation)
        return false
      }
      if done { continuation.resume() }
    }
  }

  @MainActor
  private func apply(_ number: Int, _ value: Value) {
    let (isNewest, waiters) = state.withLock {
      state -> (Bool, [CheckedContinuation<Void, Never>]) in
      let isNewest = number > state.delivered
      state.delivered = max(state.delivered, number)
      guard state.delivered >= state.produced else { return (isNewest, []) }
      defer { state.waiters = [] }
      return (isNewest, state.waiters)
    }
    if isNewest { deliver(value) }
    for waiter in waiters { waiter.resume() }
  }
}

extension Store {
  /// Calls `observer` on the main actor with `transform` of the state now, then whenever it
  /// changes: what a UI that is not SwiftUI needs. Values hop to the main actor in order; one
  /// older than a value already delivered is skipped.
  @discardableResult
  public func subscribeOnMainActor<Value: Equatable & Sendable>(
    _ transform: @escaping @Sendable (State) -> Value,
    _ observer: @escaping @MainActor @Sendable (Value) -> Void
  ) -> Subscription {
    let delivery = MainActorDelivery(observer)
    return subscribe(transform) { delivery.send($0) }
  }
}
