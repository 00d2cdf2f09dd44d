import Kernel

/// Calls that stay pending until a scenario answers them; shared by the storage and weather fakes.
final class PendingCalls<Value: Sendable>: Sendable {
  private struct Call {
    var id: Int
    var call: EnvironmentCall
    var continuation: CheckedContinuation<Value, any Error>
    var isCancelled = false
  }

  private struct State {
    var nextID = 0
    var calls: [Call] = []
    var cancelledBeforeRegistration: Set<Int> = []
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
          state.calls.append(Call(id: id, call: call, continuation: continuation))
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
      guard let index = state.calls.firstIndex(where: { $0.id == id }) else {
        state.cancelledBeforeRegistration.insert(id)
        return nil
      }
      state.calls[index].isCancelled = true
      return honorsCancellation ? state.calls.remove(at: index).continuation : nil
    }
    recorder.record(.cancelled(call))
    continuation?.resume(throwing: CancellationError())
  }

  /// The calls still waiting for an answer, oldest first.
  var pending: [EnvironmentCall] { state.withLock { $0.calls.map(\.call) } }

  /// Answers the oldest pending call that `matches`, if any.
  ///
  /// - Returns: The call that was answered.
  @discardableResult
  func answer(
    _ result: Result<Value, any Error>, where matches: (EnvironmentCall) -> Bool
  ) -> EnvironmentCall? {
    let found = state.withLock { state -> Call? in
      guard let index = state.calls.firstIndex(where: { matches($0.call) }) else { return nil }
      return state.calls.remove(at: index)
    }
    guard let found else { return nil }
    found.continuation.resume(with: result)
    return found.call
  }

  /// Fails every pending call with `CancellationError` without recording anything; used when a
  /// run ends so no task stays suspended forever.
  func abandonAll() {
    let calls = state.withLock { state in
      defer { state.calls.removeAll() }
      return state.calls
    }
    for call in calls { call.continuation.resume(throwing: CancellationError()) }
  }
}
