import Glibc
import Synchronization

/// The pure part of a baseline app: a value that handles one message at a time.
protocol LoopModel: Sendable {
  associatedtype Message: Sendable
  associatedtype Effect: Sendable
  associatedtype View: Equatable & Sendable

  /// Applies `message` and returns the side effect to run, if any.
  mutating func handle(_ message: Message) -> Effect?

  /// What the user sees now.
  var view: View { get }
}

/// The whole runtime of the plain-Swift baseline: a model behind a `Mutex`, and a FIFO of
/// messages drained by whichever caller finds the loop idle. A message sent while another is
/// handled (from an observer, another thread, or an effect) is queued behind it, never nested
/// (R2); the observer is called outside the lock, in order, by the one draining caller.
final class MessageLoop<Model: LoopModel>: Sendable {
  private struct State {
    var model: Model
    var lastView: Model.View
    var queue: [Model.Message] = []
    var head = 0
    var isDraining = false
    var isStarted = false
    var isStopped = false
    var ignoresIntents = false
    var observer: (@Sendable (Model.View) -> Void)?
  }

  private struct Next {
    var observer: (@Sendable (Model.View) -> Void)?
    var changedView: Model.View?
    var effect: Model.Effect?
  }

  private let state: Mutex<State>
  private let defects: BaselineDefects

  init(_ model: Model, defects: BaselineDefects) {
    state = Mutex(State(model: model, lastView: model.view))
    self.defects = defects
  }

  /// The current view.
  var view: Model.View { state.withLock { $0.lastView } }

  /// Starts the loop and returns the initial view, or `nil` if it was started before. Until the
  /// caller drains, messages sent by others are queued.
  func start(observer: @escaping @Sendable (Model.View) -> Void) -> Model.View? {
    state.withLock { state in
      guard !state.isStarted, !state.isStopped else { return nil }
      state.isStarted = true
      state.isDraining = true
      state.observer = observer
      return state.lastView
    }
  }

  /// Queues `message` and, if no one else is draining, drains the queue on this thread.
  ///
  /// - Parameter isIntent: Whether the message comes from the user rather than an effect.
  func send(_ message: Model.Message, isIntent: Bool, perform: (Model.Effect) -> Void) {
    let mustDrain = state.withLock { state in
      guard state.isStarted, !state.isStopped, !(isIntent && state.ignoresIntents) else {
        return false
      }
      state.queue.append(message)
      // Mutation point (tests only): handling a message sent mid-handling at once, nested.
      if state.isDraining, !defects.contains(.nestsMessages) { return false }
      state.isDraining = true
      return true
    }
    if mustDrain { drain(perform: perform) }
  }

  /// Handles queued messages until none is left.
  func drain(perform: (Model.Effect) -> Void) {
    while let next = takeNext() {
      if let view = next.changedView { next.observer?(view) }
      if let effect = next.effect { perform(effect) }
    }
  }

  private func takeNext() -> Next? {
    state.withLock { state in
      guard !state.isStopped, state.head < state.queue.count else {
        state.isDraining = false
        state.queue.removeAll(keepingCapacity: true)
        state.head = 0
        return nil
      }
      let message = state.queue[state.head]
      state.head += 1
      let effect = state.model.handle(message)
      let view = state.model.view
      guard view != state.lastView else { return Next(effect: effect) }
      state.lastView = view
      return Next(observer: state.observer, changedView: view, effect: effect)
    }
  }

  /// Mutation point (tests only): handles `message` on a copy of the model taken outside the
  /// queue and writes the copy back, so concurrent senders overwrite each other's updates.
  func sendUnserialized(_ message: Model.Message, perform: (Model.Effect) -> Void) {
    guard var model = state.withLock({ $0.isStarted && !$0.isStopped ? $0.model : nil }) else {
      return
    }
    sched_yield()
    let effect = model.handle(message)
    let next = state.withLock { state in
      state.model = model
      state.lastView = model.view
      return Next(observer: state.observer, changedView: model.view, effect: effect)
    }
    if let view = next.changedView { next.observer?(view) }
    if let effect { perform(effect) }
  }

  /// Stops the loop: queued and later messages are dropped and the observer is released (R6).
  func stop() {
    state.withLock { state in
      // Mutation point (tests only): a stop that only closes the door to intents.
      if defects.contains(.appliesResultsAfterStop) {
        state.ignoresIntents = true
        return
      }
      state.isStopped = true
      state.observer = nil
      state.queue.removeAll()
      state.head = 0
    }
  }
}

/// Bugs the original libraries have, switched on only by the kit's mutant tests to prove the
/// conformance suite catches them. Never set in samples or by users.
package struct BaselineDefects: OptionSet, Sendable {
  package let rawValue: Int
  package init(rawValue: Int) { self.rawValue = rawValue }

  /// A message sent while another is handled is handled at once, nested (Elementary).
  package static let nestsMessages = BaselineDefects(rawValue: 1 << 0)
  /// Concurrent intents update copies of the state and overwrite each other (Bow Arch, Elementary).
  package static let losesConcurrentUpdates = BaselineDefects(rawValue: 1 << 1)
  /// The result of the effect started during start is dropped (simprokcore).
  package static let losesStartupEvent = BaselineDefects(rawValue: 1 << 2)
  /// Stop neither cancels effects nor stops applying their results (Unison).
  package static let appliesResultsAfterStop = BaselineDefects(rawValue: 1 << 3)
  /// `start` while running starts another timer.
  package static let startsSecondTimer = BaselineDefects(rawValue: 1 << 4)
  /// `stop` leaves the timer running and its ticks are still applied.
  package static let appliesTicksAfterStop = BaselineDefects(rawValue: 1 << 5)
  /// A superseded search is neither cancelled nor ignored when it answers.
  package static let appliesStaleSearchResults = BaselineDefects(rawValue: 1 << 6)
  /// The counter logs before it saves.
  package static let logsBeforeSaving = BaselineDefects(rawValue: 1 << 7)
}
