import Kernel

/// A call waiting for its answer, in a fake's queue.
///
/// Not generic: the queue's code is then the same compiled code for every fake, with no type
/// metadata looked up (as a generic struct inside the generic class, every copy and every
/// `nil` check of an entry went through its value witnesses: some 20,000 instructions to cancel
/// one call, which every contestant of a workload paid alike, hiding what the architectures
/// themselves cost).
private struct PendingCall {
  var id: Int
  var call: EnvironmentCall
  /// The waiting task's `CheckedContinuation<Value, any Error>`; `nil` once answered or
  /// cancelled (the entry is then a tombstone).
  var continuation: (any Sendable)?
}

/// The pending calls in id order (oldest first) from `front`. An answered or cancelled call
/// leaves a tombstone until the front passes it or the entries are compacted: answering the
/// oldest call, or cancelling any (found by its id, in order), costs the same with 10 or 10,000
/// calls pending (the navigation workloads keep thousands of loads pending). One array, as a
/// plain queue would use: a fake allocates no more than one did.
private struct PendingQueue {
  var nextID = 0
  var entries: [PendingCall] = []
  var front = 0
  var live = 0
  var cancelledBeforeRegistration: Set<Int> = []

  /// Where `id` is, or would be, among the entries from `front`.
  func position(of id: Int) -> Int {
    var low = front
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].id < id { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The index of the pending call `id`, if it is pending.
  func index(of id: Int) -> Int? {
    let index = position(of: id)
    return index < entries.count && entries[index].id == id
      && entries[index].continuation != nil ? index : nil
  }

  mutating func append(_ call: PendingCall) {
    // Ids are taken before a call registers, so a call may register after a later one.
    if let last = entries.last, last.id > call.id {
      entries.insert(call, at: position(of: call.id))
    } else {
      entries.append(call)
    }
    live += 1
  }

  /// Takes the call at `index` out: its continuation, and the call.
  mutating func remove(at index: Int) -> (continuation: any Sendable, call: EnvironmentCall)? {
    guard let continuation = entries[index].continuation else { return nil }
    entries[index].continuation = nil
    let call = entries[index].call
    live -= 1
    while front < entries.count, entries[front].continuation == nil { front += 1 }
    if front == entries.count {
      entries.removeAll(keepingCapacity: true)
      front = 0
    } else if entries.count - front > 2 * live + 64 {
      entries = entries[front...].filter { $0.continuation != nil }
      front = 0
    }
    return (continuation, call)
  }

  /// The pending calls, oldest first.
  var pending: some Sequence<PendingCall> {
    entries[front...].lazy.filter { $0.continuation != nil }
  }
}

/// Calls that stay pending until a scenario answers them; shared by the storage and weather fakes.
final class PendingCalls<Value: Sendable>: Sendable {
  private typealias Continuation = CheckedContinuation<Value, any Error>

  private let state = Lock(PendingQueue())
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
          state.append(PendingCall(id: id, call: call, continuation: continuation))
          return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      cancel(id: id, call: call)
    }
  }

  private func cancel(id: Int, call: EnvironmentCall) {
    let continuation = state.withLock { state -> (any Sendable)? in
      guard let index = state.index(of: id) else {
        state.cancelledBeforeRegistration.insert(id)
        return nil
      }
      return honorsCancellation ? state.remove(at: index)?.continuation : nil
    }
    recorder.record(.cancelled(call))
    (continuation as? Continuation)?.resume(throwing: CancellationError())
  }

  /// The calls still waiting for an answer, oldest first.
  var pending: [EnvironmentCall] {
    state.withLock { state in state.pending.map(\.call) }
  }

  /// The oldest call still waiting for an answer.
  var oldest: EnvironmentCall? {
    state.withLock { state in state.pending.first(where: { _ in true })?.call }
  }

  /// Answers the oldest pending call that `matches`, if any.
  ///
  /// - Returns: The call that was answered.
  @discardableResult
  func answer(
    _ result: Result<Value, any Error>, where matches: (EnvironmentCall) -> Bool
  ) -> EnvironmentCall? {
    let found = state.withLock { state -> (continuation: any Sendable, call: EnvironmentCall)? in
      guard
        let index = state.entries[state.front...].firstIndex(where: {
          $0.continuation != nil && matches($0.call)
        })
      else { return nil }
      return state.remove(at: index)
    }
    guard let found else { return nil }
    (found.continuation as? Continuation)?.resume(with: result)
    return found.call
  }

  /// Fails every pending call with `CancellationError` without recording anything; used when a
  /// run ends so no task stays suspended forever.
  func abandonAll() {
    let calls = state.withLock { state in
      let pending = Array(state.pending)
      state.entries.removeAll()
      state.front = 0
      state.live = 0
      return pending
    }
    for call in calls {
      (call.continuation as? Continuation)?.resume(throwing: CancellationError())
    }
  }
}
