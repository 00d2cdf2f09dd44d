/// What waits in the explorer's queue.
@usableFromInline
enum Message<Environment: Sendable, W: Space & Sendable>: Sendable
where W.Action: Sendable, W.Focus: Sendable {
  /// What the dispatcher made of an input, which the sender worked out before queueing it.
  case plan(Plan<Environment, W.Focus, W.Action>)
  /// An effect's action, and the steps of its workflow that follow it.
  case result(
    W.Action, from: Run<AnyWorkID>, rest: ArraySlice<Effect<Environment, W.Focus, W.Action>>)
  /// An action a stream sent.
  case sent(W.Action, from: Run<AnyWorkID>)
  case subscribe(Subscriber<W>, initial: Bool)
  /// Work done in turn with the queue, given the space then: a view observer joining its fan.
  case join(@Sendable (W) -> Void)
}

extension Message: RunMessage {
  @usableFromInline var origin: Run<AnyWorkID>? {
    switch self {
    case .result(_, let from, _), .sent(_, let from): from
    case .plan, .subscribe, .join: nil
    }
  }
}

/// A task that waits for the run under its id to finish (``WhenRunning/enqueue``).
@usableFromInline
struct Waiting<Environment: Sendable, Focus: Sendable, Action: Sendable>: Sendable {
  @usableFromInline var operation: Work<Environment, Focus, Action>
  /// The state when the step came; `nil` for work that does not read it.
  @usableFromInline var focus: Focus?
  @usableFromInline var rest: ArraySlice<Effect<Environment, Focus, Action>>

  @inlinable
  init(
    operation: Work<Environment, Focus, Action>, focus: Focus?,
    rest: ArraySlice<Effect<Environment, Focus, Action>>
  ) {
    self.operation = operation
    self.focus = focus
    self.rest = rest
  }
}

/// Everything an explorer guards with its lock: the space it owns and its queue, observers and
/// runs. A plain state machine; the explorer acts on what it returns after unlocking.
@usableFromInline
struct ExplorerCore<Environment: Sendable, W: Space & Sendable>: RuntimeCore
where W.Action: Sendable, W.Focus: Sendable {
  @usableFromInline typealias Step = Effect<Environment, W.Focus, W.Action>

  @usableFromInline var phase = Phase.running
  @usableFromInline var queue = DrainQueue<Message<Environment, W>>()
  @usableFromInline var subscribers: [Subscriber<W>] = []
  /// The observers of the space's changed values (views), in the order they joined: told, with
  /// one value extracted for all, where the first of them joined the subscribers (see
  /// ``Explorer/observeValues(isSame:_:)``).
  @usableFromInline var valueObservers: [Subscriber<W.Value>] = []
  @usableFromInline var runs = RunRegistry<AnyWorkID>()
  /// Tasks started with `.enqueue` while a task under their id ran: they start in turn.
  @usableFromInline var waiting: [AnyWorkID: WaitingLine<Waiting<Environment, W.Focus, W.Action>>] =
    [:]
  @usableFromInline var nextObserverID = 0
  @usableFromInline var idleWaiters = Waiters()
  /// The focus's `==`, once an observer wants only changes.
  @usableFromInline var isEqual = Comparison<W.Focus>()

  /// One watch per child kind the dispatcher widened onto (a presented part, a lifted list):
  /// whose work ends with which child (R13).
  @usableFromInline let watches: [DepartureWatch<W.Focus>]
  /// The space. Last, not first: the drain's holder reads it where it is kept, outside the lock
  /// (``Explorer/spaceOffset``), while other threads take the lock, which ThreadSanitizer marks
  /// as an access to the core's first bytes.
  @usableFromInline var space: W

  @inlinable init(space: W, watches: [DepartureWatch<W.Focus>] = []) {
    self.space = space
    self.watches = watches
  }

  /// Applies `action` to the space; returns whether the focus changed (`true` when no
  /// observer asks).
  @inlinable @inline(__always)
  mutating func select(_ action: consuming W.Action) -> Bool {
    guard isEqual.isSet else {
      space.select(consume action)
      return true
    }
    let before = space.focus
    space.select(consume action)
    return !isEqual(before, space.focus)
  }

  /// Files a new run under `id`, replacing the one going under it (what that one queued is
  /// dropped). Returns the run and the tasks to cancel: the superseded one, and any of a child
  /// found gone while noting the new work; `nil` after stop.
  ///
  /// Work filed under a child is noted, and the child placed, in the message that began it: a
  /// stack launched with 10,000 loading screens pays for placing them there, not in the first
  /// message after it.
  @inlinable
  mutating func start(_ id: AnyWorkID?, isFinite: Bool) -> (
    run: Run<AnyWorkID>, superseded: Task<Void, Never>?, departed: DepartedTasks
  )? {
    let key: RunKey<AnyWorkID>? = if let id { .id(id) } else { nil }
    guard !phase.isStopped, let (run, superseded) = runs.start(key, isFinite: isFinite) else {
      return nil
    }
    var departed = DepartedTasks()
    if !watches.isEmpty, let id, let filed = ScopedWorkID.filed(id) {
      var mustLook = false
      for watch in watches where watch.started(id, filed) { mustLook = true }
      if mustLook { departed = removeDeparted() }
    }
    return (run, superseded.flatMap { queue.drop($0) }, departed)
  }

  /// Removes the run under `id` and the tasks waiting for it, and drops what it queued.
  /// Returns its task to cancel.
  @inlinable
  mutating func remove(_ id: AnyWorkID) -> Task<Void, Never>? {
    waiting[id] = nil
    return runs.remove(.id(id)).flatMap { queue.drop($0) }
  }

  /// Whether `run` may still deliver actions.
  @inlinable
  func isLive(_ run: Run<AnyWorkID>) -> Bool { !phase.isStopped && runs.isLive(run) }

  /// Ends `run` whose result is being handled; returns whether it was still live, and the
  /// next run waiting under its id, started, if any.
  @inlinable
  mutating func finish(_ run: Run<AnyWorkID>) -> (
    isLive: Bool, next: (run: Run<AnyWorkID>, waiting: Waiting<Environment, W.Focus, W.Action>)?
  ) {
    guard !phase.isStopped, let key = runs.finish(run) else { return (false, nil) }
    // Looked up before it is changed: changing a dictionary's entry in place costs an
    // allocation even when there is no entry.
    guard case .id(let id) = key, waiting[id] != nil,
      let next = waiting[id]?.removeFirst()
    else { return (true, nil) }
    if waiting[id]?.isEmpty == true { waiting[id] = nil }
    guard let (started, _) = runs.start(id: id, isFinite: true) else { return (true, nil) }
    return (true, (started, next))
  }

  /// Removes the runs of the children the last action removed (elements no longer in their
  /// list, a dismissed presentation) and the tasks waiting under them, and drops what they
  /// queued. Returns their tasks to cancel.
  ///
  /// - Complexity: O(1) per kind of child when no child left, whatever the number of children
  ///   and of runs; plus what the departed children's work costs to remove.
  @inlinable
  mutating func removeDeparted() -> DepartedTasks {
    var tasks = DepartedTasks()
    for watch in watches where watch.isTracking() {
      // The state is lent, not copied (`space.focus` would copy it: read in a mutating method).
      for id in space.withFocus(watch.departed) {
        if let task = remove(id) { tasks.append(task) }
      }
    }
    return tasks
  }

  /// Stops for good: what to cancel and resume once unlocked (nothing if already stopped).
  @inlinable
  mutating func stop() -> Shutdown {
    guard !phase.isStopped else { return Shutdown() }
    subscribers = []
    valueObservers = []
    waiting = [:]
    return Shutdown(phase: &phase, queue: &queue, runs: &runs, waiters: &idleWaiters)
  }

}

/// The tasks of the work of departed children, to cancel once unlocked: most often one, kept
/// apart from the rest, so that no array is made for it.
@usableFromInline
struct DepartedTasks {
  @usableFromInline var first: Task<Void, Never>?
  @usableFromInline var more: [Task<Void, Never>] = []

  @inlinable init() {}

  @inlinable
  mutating func append(_ task: Task<Void, Never>) {
    if first == nil { first = task } else { more.append(task) }
  }

  /// Cancels them all.
  @inlinable
  func cancel() {
    first?.cancel()
    for task in more { task.cancel() }
  }
}

/// A first-in, first-out line that takes from the front in O(1): tasks waiting for the run
/// under their id, however many pile up.
@usableFromInline
struct WaitingLine<Element> {
  @usableFromInline var items: [Element] = []
  @usableFromInline var head = 0

  @usableFromInline init() {}

  @usableFromInline var isEmpty: Bool { head == items.count }

  @usableFromInline mutating func append(_ item: Element) { items.append(item) }

  /// The first item, taken out; `nil` when the line is empty.
  @usableFromInline mutating func removeFirst() -> Element? {
    guard head < items.count else { return nil }
    let item = items[head]
    head += 1
    if head == items.count {
      items.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64, head * 2 >= items.count {
      items.removeFirst(head)
      head = 0
    }
    return item
  }
}
