extension Store {
  /// Calls `observer` on the main actor with `transform` of the state now, then whenever it
  /// changes: what a UI that is not SwiftUI needs. Values hop to the main actor in order; one
  /// older than a value already delivered is skipped.
  @discardableResult
  public func subscribeOnMainActor<Value: Equatable & Sendable>(
    _ transform: @escaping @Sendable (State) -> Value,
    _ observer: @escaping @MainActor @Sendable (Value) -> Void
  ) -> Subscription {
    let delivery = MainActorDelivery(gate: runtime.gate, observer)
    return subscribe(transform) { delivery.send($0) }
  }
}
