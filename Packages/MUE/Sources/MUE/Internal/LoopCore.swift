/// What waits in the loop's queue.
@usableFromInline
enum Message<State: Sendable, Event: Sendable, Effect: MUE.Effect>: Sendable {
  /// `start()`: apply the update's `first(state:)`.
  case start
  case event(Event)
  /// An event handled only if `condition` holds for the state when its turn comes: what a
  /// presented child's handler sends (ignored once that child was dismissed).
  case guarded(Event, if: @Sendable (State) -> Bool)
  case result(Effect.Result, from: Run<Effect.ID>)
  case subscribe(Subscriber<State>)
}

extension Message: RunMessage {
  @usableFromInline var origin: Run<Effect.ID>? {
    if case .result(_, let from) = self { from } else { nil }
  }
}

/// What one message did, for the test harness: the input, the state after it, and the effects
/// it started and cancelled.
@usableFromInline
package struct Processed<State: Sendable, Event: Sendable, Effect: MUE.Effect>: Sendable {
  @usableFromInline
  package enum Input: Sendable {
    case first
    case event(Event)
    case result(Effect.Result)
  }

  @usableFromInline package var input: Input
  @usableFromInline package var after: State
  @usableFromInline package var effects: [Effect]
  @usableFromInline package var cancellations: [Effect.ID]
  /// The running effects the loop cancelled because their child left the state.
  @usableFromInline package var dismissed: [Effect.ID]

  @inlinable
  init(
    input: Input, after: State, effects: [Effect], cancellations: [Effect.ID],
    dismissed: [Effect.ID]
  ) {
    self.input = input
    self.after = after
    self.effects = effects
    self.cancellations = cancellations
    self.dismissed = dismissed
  }
}

/// An effect to start, and the run it starts as.
@usableFromInline
struct Launch<Effect: MUE.Effect> {
  @usableFromInline let effect: Effect
  @usableFromInline let run: Run<Effect.ID>

  @inlinable init(effect: Effect, run: Run<Effect.ID>) {
    self.effect = effect
    self.run = run
  }
}

/// What the loop does after unlocking: notify, cancel, start.
@usableFromInline
struct Step<State: Sendable, Effect: MUE.Effect> {
  @usableFromInline var notifies = false
  @usableFromInline var state: State
  @usableFromInline var observers: [Subscriber<State>]
  @usableFromInline var cancelled: [Task<Void, Never>] = []
  @usableFromInline var started: [Launch<Effect>] = []
  /// The running effects cancelled because their child left the state.
  @usableFromInline var dismissed: [Effect.ID] = []

  @inlinable init(state: State, observers: [Subscriber<State>]) {
    self.state = state
    self.observers = observers
  }
}

/// Everything a loop guards with its lock: a state machine the loop acts on after unlocking.
@usableFromInline
struct LoopCore<State: Equatable & Sendable, Event: Sendable, Effect: MUE.Effect>: RuntimeCore {
  @usableFromInline var state: State
  @usableFromInline var phase = Phase.created
  @usableFromInline var queue = DrainQueue<Message<State, Event, Effect>>()
  @usableFromInline var subscribers: [Subscriber<State>] = []
  /// The observers of single rows, one ``RowObservers`` per identified list.
  @usableFromInline var rowObservers: RowObserverTable = [:]
  @usableFromInline var runs = RunRegistry<Effect.ID>()
  @usableFromInline var idleWaiters = Waiters()
  /// One tracker per kind of child the update declares (``Update/children``): whose effects
  /// end when a child leaves the state.
  @usableFromInline var children: [ChildTracker<State, Effect.ID>]

  @inlinable init(state: State, children: [ChildTracker<State, Effect.ID>] = []) {
    self.state = state
    self.children = children
  }

  /// Whether the message at the head can be handled now: anything after start, only
  /// subscriptions before it (events wait for `start()`).
  @inlinable
  var hasNext: Bool {
    guard !phase.isStopped, queue.hasNext else { return false }
    if phase.isRunning { return true }
    if case .subscribe = queue.peek { return true }
    return false
  }

  /// Carries out what an update decided once it changed (or left) the state: observers to
  /// tell, cancellations, then new runs.
  @inlinable
  mutating func apply(_ result: InPlaceResult<Effect>) -> Step<State, Effect> {
    var step = Step<State, Effect>(
      state: state, observers: result.stateChanged ? subscribers : [])
    step.notifies = result.stateChanged
    if result.stateChanged, !children.isEmpty { endWorkOfRemovedChildren(&step) }
    for id in result.cancellations {
      if let task = remove(.id(id)) { step.cancelled.append(task) }
    }
    var childWorkBegan = false
    for effect in result.effects {
      let key: RunKey<Effect.ID>? = if let id = effect.id { .id(id) } else { nil }
      guard let (run, superseded) = runs.start(key, isFinite: true) else { continue }
      if let superseded, let task = queue.drop(superseded) { step.cancelled.append(task) }
      step.started.append(Launch(effect: effect, run: run))
      if let id = effect.id, !children.isEmpty {
        for index in children.indices { children[index].started(id, in: state) }
        childWorkBegan = true
      }
    }
    // The children whose work began are placed now, in the message that began it: the 10,000
    // screens of a launch path are looked up at start, not by the first push that follows.
    if childWorkBegan { endWorkOfRemovedChildren(&step) }
    return step
  }

  /// Cancels the running effects of the children the state no longer has (R13).
  @inlinable
  mutating func endWorkOfRemovedChildren(_ step: inout Step<State, Effect>) {
    for index in children.indices {
      for id in children[index].endedWork(in: state) {
        guard let task = remove(.id(id)) else { continue }
        step.cancelled.append(task)
        step.dismissed.append(id)
      }
    }
  }

  /// Removes the run under `key` and whatever results it queued; returns its task to cancel.
  @inlinable
  mutating func remove(_ key: RunKey<Effect.ID>) -> Task<Void, Never>? {
    runs.remove(key).flatMap { queue.drop($0) }
  }

  /// Whether `run` may still deliver results.
  @inlinable
  func isLive(_ run: Run<Effect.ID>) -> Bool { !phase.isStopped && runs.isLive(run) }

  /// Stops for good: what to cancel and resume once unlocked (nothing if already stopped).
  @inlinable
  mutating func stop() -> Shutdown {
    guard !phase.isStopped else { return Shutdown() }
    subscribers = []
    return Shutdown(phase: &phase, queue: &queue, runs: &runs, waiters: &idleWaiters)
  }

}
