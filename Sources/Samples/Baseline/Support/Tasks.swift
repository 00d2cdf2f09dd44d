import Kernel

/// The effect tasks a baseline runtime owns, by slot, cancelled on replace, stop and release.
final class TaskSlots<Slot: Hashable & Sendable>: Sendable {
  private struct State {
    var tasks: [Slot: [Task<Void, Never>]] = [:]
    var isClosed = false
  }

  private let state = Lock(State())

  /// Puts `task` in `slot`, cancelling what was there unless `keepingOthers`.
  func replace(_ slot: Slot, with task: Task<Void, Never>, keepingOthers: Bool = false) {
    let old = state.withLock { state -> [Task<Void, Never>] in
      guard !state.isClosed else { return [task] }
      let old = keepingOthers ? [] : state.tasks[slot, default: []]
      state.tasks[slot] = (keepingOthers ? state.tasks[slot, default: []] : []) + [task]
      return old
    }
    for task in old { task.cancel() }
  }

  /// Cancels the tasks in `slot`.
  func cancel(_ slot: Slot) {
    let old = state.withLock { $0.tasks.removeValue(forKey: slot) ?? [] }
    for task in old { task.cancel() }
  }

  /// Cancels everything and refuses new tasks.
  func cancelAll() {
    let all = state.withLock { state in
      state.isClosed = true
      defer { state.tasks.removeAll() }
      return state.tasks.values.flatMap { $0 }
    }
    for task in all { task.cancel() }
  }

  deinit { cancelAll() }
}

/// Where an effect's result goes: connected once to the loop that owns the effects, through a
/// closure that holds its owner weakly, so running effects never keep a runtime alive.
final class Relay<Message: Sendable>: @unchecked Sendable {
  // @unchecked: `target` is written once, by the owner's initialiser, before any effect can
  // run, and only read afterwards. Not behind a lock: handing a generic closure out of a lock's
  // critical section re-wrapped it (two allocations and thousands of instructions per message).
  private var target: (@Sendable (Message) -> Void)?

  /// Sets where messages go; call once, before starting any effect.
  func connect(_ deliver: @escaping @Sendable (Message) -> Void) {
    target = deliver
  }

  func send(_ message: Message) {
    target?(message)
  }
}
