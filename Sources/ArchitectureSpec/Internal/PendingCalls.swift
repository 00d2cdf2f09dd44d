import Kernel

/// Calls that stay pending until a scenario answers them; shared by the storage and weather fakes.
final class PendingCalls<Value: Sendable>: Sendable {
  private struct Call {
    var id: Int
    var call: EnvironmentCall
    var continuation: CheckedContinuation<Value, any Error>
  }

  /// The pending calls by id, and their ids oldest first. An answered or cancelled call leaves
  /// its id in `order` until the front passes it or the ids are compacted, so that answering the
  /// oldest call, or cancelling any, costs the same with 10 or 10,000 calls pending (the
  /// navigation workloads keep thousands of loads pending).
  private struct State {
    var nextID = 0
    var calls: [Int: Call] = [:]
    var order: [Int] = []
    var front = 0
    var cancelledBeforeRegistration: Set<Int> = []

    mutating func append(_ call: Call) {
      calls[call.id] = call
      order.append(call.id)
    }

    mutating func remove(_ id: Int) -> Call? {
      guard let call = calls.removeValue(forKey: id) else { return nil }
      while front < order.count, calls[order[front]] == nil { front += 1 }
      if front == order.count {
        order.removeAll(keepingCapacity: true)
        front = 0
      } else if order.count - front > 2 * calls.count + 64 {
        order = order[front...].filter { calls[$0] != nil }
        front = 0
      }
      return call
    }

    /// The pending calls' ids, oldest first.
    var ids: some Sequence<Int> { order[front...].lazy.filter { calls[$0] != nil } }
  }

  private let state = Lock(State())
  private let recorder: CallRecorder
  private let honorsCancellation: Bool

  /// - Parameter honorsCancellation: When `false`, a cancelled call is recorded as cancelled but
  ///   stays pending until answered, like a service that ignores cancellation (R5).
  init(recorder: CallRecorder, honorsCancellation: Bool) {
    self.recorder = recorder
    self.honorsCancellation = honorsCancellation
  }

  /// Records `call` and suspends until it is answered or, if cancellation is honoured, cancelled.
  func wait(for call: EnvironmentCall) async throws -> Value {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    recorder.record(call)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let cancelled = state.withLock { state in
          if state.cancelledBeforeRegistration.remove(id) != nil, honorsCancellation { return true }
          state.append(Call(id: id, call: call, continuation: continuation))
          return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      cancel(id: id, call: call)
    }
  }

  private func cancel(id: Int, call: EnvironmentCall) {
    let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
      guard state.calls[id] != nil else {
        state.cancelledBeforeRegistration.insert(id)
        return nil
      }
      return honorsCancellation ? state.remove(id)?.continuation : nil
    }
    recorder.record(.cancelled(call))
    continuation?.resume(throwing: CancellationError())
  }

  /// The calls still waiting for an answer, oldest first.
  var pending: [EnvironmentCall] {
    state.withLock { state in state.ids.compactMap { state.calls[$0]?.call } }
  }

  /// The oldest call still waiting for an answer.
  var oldest: EnvironmentCall? {
    state.withLock { state in
      state.ids.first(where: { _ in true }).flatMap { state.calls[$0]?.call }
    }
  }

  /// Answers the oldest pending call that `matches`, if any.
  ///
  /// - Returns: The call that was answered.
  @discardableResult
  func answer(
    _ result: Result<Value, any Error>, where matches: (EnvironmentCall) -> Bool
  ) -> EnvironmentCall? {
    let found = state.withLock { state -> Call? in
      guard let id = state.ids.first(where: { state.calls[$0].map { matches($0.call) } ?? false })
      else { return nil }
      return state.remove(id)
    }
    guard let found else { return nil }
    found.continuation.resume(with: result)
    return found.call
  }

  /// Fails every pending call with `CancellationError` without recording anything; used when a
  /// run ends so no task stays suspended forever.
  func abandonAll() {
    let calls = state.withLock { state in
      let pending = state.ids.compactMap { state.calls[$0] }
      state.calls.removeAll()
      state.order.removeAll()
      state.front = 0
      return pending
    }
    for call in calls { call.continuation.resume(throwing: CancellationError()) }
  }
}
