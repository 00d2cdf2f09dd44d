import Glibc
import Kernel

/// The pure part of a baseline app: a value that handles one message at a time.
protocol LoopModel: Sendable {
  associatedtype Message: Sendable
  associatedtype Effect: Sendable
  associatedtype View: Equatable & Sendable

  /// Applies `message` and returns the side effect to run, if any.
  mutating func handle(_ message: Message) -> Effect?

  /// What the user sees now.
  var view: View { get }

  /// How a child feature is addressed (a row id, a tab); `Never` for apps without children.
  associatedtype Child: Hashable & Sendable = Never
  /// What a child's observer receives.
  associatedtype ChildView: Equatable & Sendable = Never

  /// The children the last handled message may have changed; the loop compares their views
  /// with what their observers last received. Only these are looked at, so a message that
  /// touches one row costs the same whatever the number of rows.
  mutating func takeTouchedChildren() -> [Child]

  /// The view of `child` now.
  func childView(_ child: Child) -> ChildView

  /// Whether `view` is the last a child's observer receives (a removed row's `nil`).
  static func isFinal(_ view: ChildView) -> Bool

  /// Whether the model has children at all; a loop without them skips their bookkeeping.
  static var hasChildren: Bool { get }
}

extension LoopModel where Child == Never {
  static var hasChildren: Bool { false }
  mutating func takeTouchedChildren() -> [Never] { [] }
  func childView(_ child: Never) -> Never {}
  static func isFinal(_ view: Never) -> Bool {}
}

extension LoopModel {
  static func isFinal(_ view: ChildView) -> Bool { false }
  static var hasChildren: Bool { true }
}

/// The whole runtime of the plain-Swift baseline: a model behind a `Lock`, and a FIFO of
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
    /// What carries out effects when the loop's task goes on with a drain: set once by the app
    /// (``performEffects(with:)``). Callers pass their own, non-escaping, so a send allocates no
    /// closure context.
    var performer: (@Sendable (Model.Effect) -> Void)?
    /// Child observers with the view each received last (R11).
    var childObservers: [Model.Child: [ChildObserver]] = [:]
  }

  private struct ChildObserver {
    var observe: @Sendable (Model.ChildView) -> Void
    var last: Model.ChildView?
  }

  private struct Next {
    var observer: (@Sendable (Model.View) -> Void)?
    var changedView: Model.View?
    var effect: Model.Effect?
    var childCalls: [(@Sendable (Model.ChildView) -> Void, Model.ChildView)]? = nil
  }

  private let state: Lock<State>
  private let defects: BaselineDefects
  /// Where everything the loop and its effects begin begins: observer calls, environment calls.
  /// `stop()` closes it and waits for what began on other threads (R6).
  let gate = StopGate()
  /// Where the loop goes on with a long drain after the caller's turn (SPEC R6, progress).
  private let executor: (any TaskExecutor)?

  init(_ model: Model, defects: BaselineDefects, executor: (any TaskExecutor)? = nil) {
    state = Lock(State(model: model, lastView: model.view))
    self.defects = defects
    self.executor = executor
  }

  /// The current view.
  var view: Model.View {
    state.withLock { $0.observer == nil && $0.isStarted ? $0.model.view : $0.lastView }
  }

  /// Reads the model now.
  func read<Value>(_ body: (Model) -> Value) -> Value { state.withLock { body($0.model) } }

  /// Starts the loop and calls `observer` with the initial view; `false` if it was started or
  /// stopped before. Until the caller drains, messages sent by others are queued. Child
  /// observers subscribed before start receive their first view here.
  func start(observer: (@Sendable (Model.View) -> Void)?) -> Bool {
    let started = state.withLock { state -> (Model.View, [ChildCall])? in
      guard !state.isStarted, !state.isStopped else { return nil }
      state.isStarted = true
      state.isDraining = true
      state.observer = observer
      var calls: [ChildCall] = []
      for child in Array(state.childObservers.keys) {
        calls += Self.notify(child, in: &state, force: true)
      }
      return (state.lastView, calls)
    }
    guard let (view, calls) = started else { return false }
    gate.ifOpen {
      for (observe, childView) in calls where !gate.isStopped { observe(childView) }
      if let observer, !gate.isStopped { observer(view) }
    }
    return true
  }

  private typealias ChildCall = (@Sendable (Model.ChildView) -> Void, Model.ChildView)

  /// Observes one child (R11): its current view at once (at start, if not started yet), then
  /// its changes, until a final view.
  func observe(_ child: Model.Child, _ observe: @escaping @Sendable (Model.ChildView) -> Void) {
    let first = state.withLock { state -> Model.ChildView? in
      guard !state.isStopped else { return nil }
      guard state.isStarted else {
        state.childObservers[child, default: []].append(ChildObserver(observe: observe))
        return nil
      }
      let view = state.model.childView(child)
      if !Model.isFinal(view) {
        state.childObservers[child, default: []].append(ChildObserver(observe: observe, last: view))
      }
      return view
    }
    if let first { gate.ifOpen { observe(first) } }
  }

  /// The calls owed to the observers of the children the last message touched.
  private static func childCalls(in state: inout State, defects: BaselineDefects) -> [ChildCall]? {
    let touched = state.model.takeTouchedChildren()
    guard !state.childObservers.isEmpty else { return nil }
    var calls: [ChildCall] = []
    for child in touched where state.childObservers[child] != nil {
      calls += notify(child, in: &state, force: false)
    }
    // Mutation point (tests only): every child observer is called when any child changed.
    if !touched.isEmpty, defects.contains(.notifiesEveryChild) {
      for child in Array(state.childObservers.keys) where !touched.contains(child) {
        calls += notify(child, in: &state, force: true)
      }
    }
    return calls.isEmpty ? nil : calls
  }

  /// The calls owed to `child`'s observers: those whose last view differs (every one, when
  /// `force`). Observers that received a final view are removed.
  private static func notify(_ child: Model.Child, in state: inout State, force: Bool)
    -> [ChildCall]
  {
    guard var observers = state.childObservers[child] else { return [] }
    let view = state.model.childView(child)
    var calls: [ChildCall] = []
    for index in observers.indices where force || observers[index].last != view {
      observers[index].last = view
      calls.append((observers[index].observe, view))
    }
    if Model.isFinal(view) {
      state.childObservers[child] = nil
    } else if !calls.isEmpty {
      state.childObservers[child] = observers
    }
    return calls
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

  /// Handles queued messages until none is left (or the loop stopped), at most
  /// `messagesPerTurn` of them on this thread: then a task of the loop's own goes on with the
  /// rest, so a `send` returns however fast messages arrive (SPEC R6, progress).
  ///
  /// What a message starts — observer calls, then its effect — runs in a section of ``gate``,
  /// each part only while the gate is open: a stop from inside an observer ends the message's
  /// deliveries there, and a stop on another thread waits for the section (R6).
  func drain(perform: (Model.Effect) -> Void) {
    var handled = 0
    while true {
      if handled == messagesPerTurn {
        if handOverIfQueued() { return }
        handled = 0
      }
      guard let next = takeNext() else { return }
      handled += 1
      guard gate.enter() else { continue }
      if let view = next.changedView { next.observer?(view) }
      if let calls = next.childCalls {
        for (observe, view) in calls where !gate.isStopped { observe(view) }
      }
      if let effect = next.effect, !gate.isStopped { perform(effect) }
      gate.leave()
    }
  }

  /// After a turn: when messages wait, a task of the loop's own goes on with them (the drain
  /// stays claimed for it) and the caller returns.
  private func handOverIfQueued() -> Bool {
    let performer = state.withLock { state in
      !state.isStopped && state.head < state.queue.count ? state.performer : nil
    }
    guard let performer else { return false }
    Task(executorPreference: executor) { [weak self] in self?.drain(perform: performer) }
    return true
  }

  /// Sets what carries out effects when the loop's own task goes on with a long drain. Until it
  /// is set, the caller drains to the end.
  func performEffects(with perform: @escaping @Sendable (Model.Effect) -> Void) {
    state.withLock { $0.performer = perform }
  }

  /// Takes and handles the next message; `nil` when the drain ends.
  private func takeNext() -> Next? {
    state.withLock { state -> Next? in
      guard !state.isStopped, state.head < state.queue.count else {
        state.isDraining = false
        state.queue.removeAll(keepingCapacity: true)
        state.head = 0
        return nil
      }
      let message = state.queue[state.head]
      state.head += 1
      let effect = state.model.handle(message)
      var childCalls: [ChildCall]?
      if Model.hasChildren { childCalls = Self.childCalls(in: &state, defects: defects) }
      // With no root observer no view is made: what the message costs is the model's.
      guard state.observer != nil else { return Next(effect: effect, childCalls: childCalls) }
      let view = state.model.view
      // Mutation point (tests only): the observer is called for every message.
      guard view != state.lastView || defects.contains(.notifiesUnchangedViews) else {
        return Next(effect: effect, childCalls: childCalls)
      }
      state.lastView = view
      return Next(
        observer: state.observer, changedView: view, effect: effect, childCalls: childCalls)
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
    gate.ifOpen {
      if let view = next.changedView { next.observer?(view) }
      if let effect { perform(effect) }
    }
  }

  /// Stops the loop: queued and later messages are dropped and the observer is released, and
  /// it returns once deliveries begun on other threads have ended (R6).
  func stop() {
    state.withLock { state in
      // Mutation point (tests only): a stop that only closes the door to intents.
      if defects.contains(.appliesResultsAfterStop) {
        state.ignoresIntents = true
        return
      }
      state.isStopped = true
      state.observer = nil
      state.childObservers.removeAll()
      state.queue.removeAll()
      state.head = 0
    }
    if !defects.contains(.appliesResultsAfterStop) { gate.stop() }
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
  /// Todos and counter: every change saves at once, while another save is in flight.
  package static let overlapsSaves = BaselineDefects(rawValue: 1 << 8)
  /// Todos: a change made while a save was in flight is never saved.
  package static let dropsCoalescedSave = BaselineDefects(rawValue: 1 << 9)
  /// Todos: toggleAll toggles only the rows the filter shows.
  package static let togglesVisibleRowsOnly = BaselineDefects(rawValue: 1 << 10)
  /// Todos: a removed row's observers are never told.
  package static let forgetsRemovedRows = BaselineDefects(rawValue: 1 << 11)
  /// Every child observer is called when any child changed.
  package static let notifiesEveryChild = BaselineDefects(rawValue: 1 << 12)
  /// Shell: the counter's increment for a lap arrives as a message of its own, after the lap.
  package static let incrementsAfterLap = BaselineDefects(rawValue: 1 << 13)
  /// Shell: resetAll is sent on as one message per child.
  package static let resetsChildByChild = BaselineDefects(rawValue: 1 << 14)
  /// Shell: the stopwatch ignores its ticks while its tab is hidden.
  package static let pausesHiddenTabs = BaselineDefects(rawValue: 1 << 15)
  /// The observer is called after every processed message, also when the view did not change.
  package static let notifiesUnchangedViews = BaselineDefects(rawValue: 1 << 16)
  /// Counter: a save's log line checks "still running" and is then written outside the gate,
  /// so a stop that returns in between does not keep it from beginning (R6).
  package static let logsOutsideGate = BaselineDefects(rawValue: 1 << 17)
  /// Contacts: a dismissed form's `create` is not cancelled and its answer adds the contact.
  package static let keepsDismissedCreate = BaselineDefects(rawValue: 1 << 18)
  /// Contacts: a popped screen's load goes on, and an answer lands in a loading screen of the
  /// same contact.
  package static let matchesAnswersByContact = BaselineDefects(rawValue: 1 << 19)
  /// Contacts: a new screen's id is one more than the top screen's (reused after a pop).
  package static let reusesScreenIDs = BaselineDefects(rawValue: 1 << 20)
  /// Contacts: `close` removes only that screen, not the ones above it.
  package static let closesOnlyThatScreen = BaselineDefects(rawValue: 1 << 21)
  /// Contacts: confirming a deletion leaves the contact's screens on the stack.
  package static let keepsScreensOfDeletedContact = BaselineDefects(rawValue: 1 << 22)
  /// Contacts: intents for the list and the stack still act while an alert is presented.
  package static let stackReachableUnderAlert = BaselineDefects(rawValue: 1 << 23)
  /// Contacts: a removed screen's observers are never told.
  package static let forgetsRemovedScreens = BaselineDefects(rawValue: 1 << 24)
  /// Contacts: removing screens does not cancel their loads.
  package static let forgetsPoppedLoads = BaselineDefects(rawValue: 1 << 25)
}
