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

  /// The children the last handled message may have changed, or `nil` when it may have changed
  /// any (a toggle of every row); the loop compares their views with what their observers last
  /// received. Only these (or, when there are more of them, the observed children) are looked
  /// at, so a message that touches one row costs the same whatever the number of rows.
  mutating func takeTouchedChildren() -> [Child]?

  /// Takes back the array ``takeTouchedChildren()`` handed out, once read, to append the next
  /// message's children into its storage: taking the array and keeping its capacity in the
  /// model would otherwise allocate a new one for every message.
  mutating func reuseTouchedChildren(_ children: consuming [Child])

  /// The view of `child` now.
  func childView(_ child: Child) -> ChildView

  /// Whether `view` is the last a child's observer receives (a removed row's `nil`).
  static func isFinal(_ view: ChildView) -> Bool

  /// Whether the model has children at all; a loop without them skips their bookkeeping.
  static var hasChildren: Bool { get }
}

extension LoopModel where Child == Never {
  static var hasChildren: Bool { false }
  mutating func takeTouchedChildren() -> [Never]? { [] }
  mutating func reuseTouchedChildren(_ children: consuming [Never]) {}
  func childView(_ child: Never) -> Never {}
  static func isFinal(_ view: Never) -> Bool {}
}

extension LoopModel {
  static func isFinal(_ view: ChildView) -> Bool { false }
  static var hasChildren: Bool { true }
}

/// The whole runtime of the plain-Swift baseline: a model behind a `Lock`, and a FIFO of
/// messages handled by one caller at a time. A caller that finds nobody handling messages
/// handles its own at once, in the critical section that receives it: one lock round trip per
/// message, what a careful engineer writes without a framework. A message sent while another is
/// handled (from an observer, another thread, or an effect) is queued behind it, never nested
/// (R2); observers are called outside the lock, in order, by the one handling caller.
final class MessageLoop<Model: LoopModel>: Sendable {
  private struct State {
    var model: Model
    var lastView: Model.View
    var queue = DrainQueue<Model.Message>()
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

  /// What one handled message owes outside the lock.
  private struct Next {
    var observer: (@Sendable (Model.View) -> Void)?
    var changedView: Model.View?
    var effect: Model.Effect?
    var childCalls: [ChildCall]? = nil

    /// Whether it owes nothing: no gate section is entered for it.
    var isEmpty: Bool { changedView == nil && effect == nil && childCalls == nil }
  }

  private let state: Lock<State>
  /// Who handles messages now (the kernel's atomic claim: taken under the lock, given back
  /// without it when nothing was queued meanwhile).
  private let claim = DrainClaim()
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
      // The caller drains next: until then, messages wait.
      claim.hold()
      state.observer = observer
      var calls: [ChildCall] = []
      for child in Array(state.childObservers.keys) {
        Self.notify(child, in: &state, force: true, into: &calls)
      }
      return (state.lastView, calls)
    }
    guard let (view, calls) = started else { return false }
    gate.ifOpen {
      for call in calls where !gate.isStopped { call.observe(call.view) }
      if let observer, !gate.isStopped { observer(view) }
    }
    return true
  }

  /// A child observer to call with a view. A struct, not a tuple: a closure kept in an array
  /// of tuples is kept at the array's abstraction, and is wrapped again (an allocation) when
  /// it is put in.
  private struct ChildCall {
    let observe: @Sendable (Model.ChildView) -> Void
    let view: Model.ChildView
  }

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
    defer { if let touched { state.model.reuseTouchedChildren(touched) } }
    guard !state.childObservers.isEmpty else { return nil }
    var calls: [ChildCall] = []
    if let touched, touched.count <= state.childObservers.count {
      // One lookup per touched child, in `notify`.
      for child in touched { notify(child, in: &state, force: false, into: &calls) }
    } else {
      // More touched than observed: each observed child is compared instead, walked where it
      // is, not looked up (R11 leaves the order of one message's child calls open).
      var finals: [Model.Child] = []
      var slot = state.childObservers.startIndex
      while slot != state.childObservers.endIndex {
        if notify(at: slot, in: &state, force: false, into: &calls) {
          finals.append(state.childObservers.keys[slot])
        }
        state.childObservers.formIndex(after: &slot)
      }
      for child in finals { state.childObservers[child] = nil }
    }
    // Mutation point (tests only): every child observer is called when any child changed.
    if touched?.isEmpty != true, defects.contains(.notifiesEveryChild) {
      for child in Array(state.childObservers.keys) where touched?.contains(child) == false {
        notify(child, in: &state, force: true, into: &calls)
      }
    }
    return calls.isEmpty ? nil : calls
  }

  /// Adds to `calls` the calls owed to `child`'s observers: those whose last view differs (every
  /// one, when `force`). Observers that received a final view are removed.
  private static func notify(
    _ child: Model.Child, in state: inout State, force: Bool, into calls: inout [ChildCall]
  ) {
    guard let slot = state.childObservers.index(forKey: child) else { return }
    if notify(at: slot, in: &state, force: force, into: &calls) {
      state.childObservers.remove(at: slot)
    }
  }

  /// Adds to `calls` the calls owed to the observers at `slot`; returns whether their child's
  /// view is final (the caller removes them). Changes nothing but their last views, so the
  /// dictionary's indices stay valid.
  private static func notify(
    at slot: Dictionary<Model.Child, [ChildObserver]>.Index, in state: inout State, force: Bool,
    into calls: inout [ChildCall]
  ) -> Bool {
    let view = state.model.childView(state.childObservers.keys[slot])
    // Changed where they are, not copied out and written back (a copy of the array each time).
    for index in state.childObservers.values[slot].indices {
      guard force || state.childObservers.values[slot][index].last != view else { continue }
      state.childObservers.values[slot][index].last = view
      calls.append(ChildCall(observe: state.childObservers.values[slot][index].observe, view: view))
    }
    return Model.isFinal(view)
  }

  /// Handles `message` at once when nobody else is handling messages, or queues it behind the
  /// one who is (who then handles it).
  ///
  /// - Parameter isIntent: Whether the message comes from the user rather than an effect.
  func send(_ message: Model.Message, isIntent: Bool, perform: (Model.Effect) -> Void) {
    state.lock()
    let locked = state.value
    guard locked.pointee.isStarted, !locked.pointee.isStopped,
      !(isIntent && locked.pointee.ignoresIntents)
    else { return state.unlock() }
    if claim.isHeld {
      // Mutation point (tests only): handling a message sent mid-handling at once, nested.
      if defects.contains(.nestsMessages) {
        let next = Self.handle(message, in: &locked.pointee, defects: defects)
        state.unlock()
        return deliver(next, perform: perform)
      }
      // The handler may let go meanwhile (without the lock): then this caller drains.
      let mustDrain = locked.pointee.queue.append(message, claiming: claim)
      state.unlock()
      if mustDrain { drain(perform: perform) }
      return
    }
    claim.hold()
    if !Model.hasChildren, locked.pointee.observer == nil {
      // Nobody observes: the model's work and its effect, nothing else.
      let effect = locked.pointee.model.handle(message)
      state.unlock()
      if let effect { deliver(effect, perform: perform) }
    } else if !Model.hasChildren, let observer = locked.pointee.observer {
      // One observer and no children: the view, compared with the last, and the effect.
      let effect = locked.pointee.model.handle(message)
      let view = locked.pointee.model.view
      // Mutation point (tests only): the observer is called for every message.
      let changed = view != locked.pointee.lastView || defects.contains(.notifiesUnchangedViews)
      if changed { locked.pointee.lastView = view }
      state.unlock()
      if changed || effect != nil, gate.enter() {
        if changed { observer(view) }
        if let effect, !gate.isStopped { perform(effect) }
        gate.leave()
      }
    } else {
      let next = Self.handle(message, in: &locked.pointee, defects: defects)
      state.unlock()
      deliver(next, perform: perform)
    }
    // Nothing queued meanwhile: given back without the lock.
    if !claim.release() { drain(perform: perform) }
  }

  /// Handles queued messages until none is left (or the loop stopped), at most
  /// `messagesPerTurn` of them on this thread: then a task of the loop's own goes on with the
  /// rest, so a `send` returns however fast messages arrive (SPEC R6, progress). Call it
  /// holding the claim (after `start`, or when `send` says so).
  func drain(perform: (Model.Effect) -> Void) {
    var handled = 0
    while true {
      if handled == messagesPerTurn {
        if handOverIfQueued() { return }
        handled = 0
      }
      state.lock()
      let locked = state.value
      guard !locked.pointee.isStopped, locked.pointee.queue.hasNext else {
        locked.pointee.queue.endDrain(claim)
        return state.unlock()
      }
      let message = locked.pointee.queue.next()
      let next = Self.handle(message, in: &locked.pointee, defects: defects)
      state.unlock()
      handled += 1
      deliver(next, perform: perform)
    }
  }

  /// What a message starts — observer calls, then its effect — in a section of ``gate``, each
  /// part only while the gate is open: a stop from inside an observer ends the message's
  /// deliveries there, and a stop on another thread waits for the section (R6).
  @inline(__always)
  private func deliver(_ next: Next, perform: (Model.Effect) -> Void) {
    if next.isEmpty { return }
    guard gate.enter() else { return }
    if let view = next.changedView { next.observer?(view) }
    if let calls = next.childCalls {
      for call in calls where !gate.isStopped { call.observe(call.view) }
    }
    if let effect = next.effect, !gate.isStopped { perform(effect) }
    gate.leave()
  }

  /// An effect alone, in a section of ``gate``.
  private func deliver(_ effect: Model.Effect, perform: (Model.Effect) -> Void) {
    guard gate.enter() else { return }
    perform(effect)
    gate.leave()
  }

  /// After a turn: when messages wait, a task of the loop's own goes on with them (the drain
  /// stays claimed for it) and the caller returns.
  private func handOverIfQueued() -> Bool {
    let performer = state.withLock { state in
      !state.isStopped && state.queue.hasNext ? state.performer : nil
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

  /// Applies `message` to the model and works out what it owes: the observers' calls (when the
  /// view changed) and its effect. Called holding the lock.
  @inline(__always)
  private static func handle(
    _ message: Model.Message, in state: inout State, defects: BaselineDefects
  ) -> Next {
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
