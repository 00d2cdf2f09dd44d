/// A component whose space is a ``Store``: a state, the view of every state, and a dispatcher
/// that turns inputs into ``State`` actions: Bow Arch's `StoreComponent`.
///
/// ```swift
/// let stepper = StoreComponent(
///   initialState: 0, environment: (),
///   dispatcher: StateDispatcher<Void, Int, StepperInput>.pure { input in
///     switch input {
///     case .tapDecrement: .modify { $0 - 1 }
///     case .tapIncrement: .modify { $0 + 1 }
///     }
///   },
///   render: { count, handle in StepperView(count: count, handle: handle) })
/// stepper.send(.tapIncrement)
/// stepper.view.count  // 1
/// ```
///
/// The component owns its space. Inputs, from any thread, and the actions effects produce wait
/// in one queue and are applied one at a time, in order, each to the state as it is then; an
/// input sent while another is handled (by a view, an observer, another thread) is queued
/// behind it, never nested. Views are rendered on demand: ``view``, and for observers.
///
/// A component stops when ``stop()`` is called or when it is released: running effects are
/// cancelled, their late results dropped, later inputs ignored. Effects hold the component
/// weakly, so a running timer never keeps it alive.
public final class StoreComponent<Environment: Sendable, S: Sendable, Input: Sendable, View>:
  Sendable
{
  @usableFromInline let explorer: Explorer<Environment, Store<S, View>, Input>
  /// The view observers called after every action, and those called after changes: each
  /// fan renders the view once per round for all of its observers.
  @usableFromInline let fans = Lock(ViewFans<View>())
  /// The `handle` every view is given: sends to this component, weakly.
  public let handle: @Sendable (Input) -> Void

  /// Creates a component showing `initialState`.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - environment: What effects work with: services, storage, the clock.
  ///   - dispatcher: Turns each input into the actions and effects that follow it.
  ///   - executor: Where effects run; `nil` for the global concurrent executor.
  ///   - render: The view of a state, given `handle` to send inputs with.
  @inlinable
  public init(
    initialState: S, environment: Environment,
    dispatcher: StateDispatcher<Environment, S, Input>,
    executor: (any TaskExecutor)? = nil,
    render: @escaping @Sendable (S, @escaping @Sendable (Input) -> Void) -> View
  ) {
    let target = Target<Input>()
    let handle: @Sendable (Input) -> Void = { target.send($0) }
    explorer = Explorer(
      space: Store(position: initialState) { render($0, handle) },
      environment: environment, dispatcher: dispatcher, executor: executor)
    self.handle = handle
    let explorer = self.explorer
    target.connect { [weak explorer] in explorer?.send($0) }
  }

  deinit { if !explorer.gate.isStopped { explorer.stop() } }

  /// Sends `input`: handled now, or queued behind the message being handled.
  ///
  /// Safe from any thread or task, from views, observers and effects. Ignored after ``stop()``.
  @inlinable
  public func send(_ input: Input) { explorer.send(input) }

  /// The space now: the state, and the view of every state.
  public var space: Store<S, View> { explorer.space }

  /// The state now.
  ///
  /// An input sent while another thread was handling the queue may not be applied yet;
  /// ``idle()`` waits until it is.
  public var state: S { explorer.space.position }

  /// The view of the state now.
  public var view: View { explorer.space.extract() }

  /// Calls `observer` with the current view, then after every action applied.
  ///
  /// Observers are called outside the component's lock, one at a time, in the order they
  /// subscribed; they may send. The view is rendered once per action for all of them.
  ///
  /// - Complexity: O(1) per observer and action, besides rendering the view once.
  @inlinable
  @discardableResult
  public func subscribe(_ observer: @escaping @Sendable (View) -> Void) -> Subscription {
    ViewFans.join(observer, fans: fans, explorer: explorer)
  }

  /// Calls `hook` with the new state after every action applied, in order: what Bow Arch's
  /// `EffectComponent.onEffect` meant to be, seeing the state the action produced rather than
  /// the one the component started with.
  @inlinable
  @discardableResult
  public func onEffect(_ hook: @escaping @Sendable (S) -> Void) -> Subscription {
    explorer.observe(initial: false, onlyOnChange: nil) { hook($0.position) }
  }

  /// Stops the component: effects are cancelled, observers released, later inputs ignored.
  ///
  /// When `stop()` returns, no observer is called again and no late result is applied.
  @inlinable
  public func stop() { explorer.stop() }

  /// Returns when nothing is queued or handled and no task effect is running.
  ///
  /// Streams (a timer, say) do not count: a component waiting only on them is idle. Returns at
  /// once after ``stop()``.
  public func idle() async { await explorer.idle() }
}

extension StoreComponent where Environment == Void {
  /// Creates a component showing `initialState` whose effects need no environment, as Bow Arch
  /// wrote it for a component without one.
  ///
  /// ```swift
  /// let stepper = StoreComponent(
  ///   initialState: 0, dispatcher: stepperDispatcher,
  ///   render: { count, handle in StepperView(count: count, handle: handle) })
  /// ```
  @inlinable
  public convenience init(
    initialState: S, dispatcher: StateDispatcher<Void, S, Input>,
    executor: (any TaskExecutor)? = nil,
    render: @escaping @Sendable (S, @escaping @Sendable (Input) -> Void) -> View
  ) {
    self.init(
      initialState: initialState, environment: (), dispatcher: dispatcher, executor: executor,
      render: render)
  }
}

extension StoreComponent where S: Equatable {
  /// Calls `observer` with the current view, then after every action that changed the state.
  ///
  /// The component keeps the state before each action to compare it with the one after, so an
  /// action that changes part of a large state (one row of a long list) copies what it
  /// changes. With an `Equatable` view, views are compared instead, and no state is kept.
  @inlinable
  @discardableResult
  public func subscribe(_ observer: @escaping @Sendable (View) -> Void) -> Subscription {
    ViewFans.join(observer, fans: fans, explorer: explorer, onlyOnChange: { $0 == $1 })
  }
}

extension StoreComponent where View: Equatable & Sendable {
  /// Calls `observer` with the current view, then after every action that changed the view.
  ///
  /// The view is rendered once per action for all such observers and compared with the one
  /// before; the state is not kept for it, so actions change the state in place.
  @inlinable
  @discardableResult
  public func subscribe(_ observer: @escaping @Sendable (View) -> Void) -> Subscription {
    ViewFans.join(observer, fans: fans, explorer: explorer, isSame: { $0 == $1 })
  }
}

extension StoreComponent where S: Equatable, View: Equatable & Sendable {
  /// Calls `observer` with the current view, then after every action that changed the view;
  /// see the `subscribe(_:)` of an `Equatable` view.
  @inlinable
  @discardableResult
  public func subscribe(_ observer: @escaping @Sendable (View) -> Void) -> Subscription {
    ViewFans.join(observer, fans: fans, explorer: explorer, isSame: { $0 == $1 })
  }
}

/// Where a component's `handle` sends: set once, right after the component is built, before
/// anyone can call it.
@usableFromInline
final class Target<Input: Sendable>: @unchecked Sendable {
  // @unchecked: `sink` is written once in the component's initializer, before `handle` is
  // published; afterwards it is only read. The sink holds the explorer weakly, and is made
  // there, where the explorer's types are known.
  @usableFromInline var sink: (@Sendable (Input) -> Void)?

  @inlinable init() {}

  @inlinable
  func connect(_ sink: @escaping @Sendable (Input) -> Void) { self.sink = sink }

  @inlinable
  func send(_ input: Input) { sink?(input) }
}

/// View observers that share one view per round of notifications: each fan is one observer of
/// the component, which renders the view once and hands it to each of its observers, in the
/// order they joined.
@usableFromInline
struct ViewFans<View> {
  @usableFromInline typealias Observer = Subscriber<View>

  @usableFromInline
  struct Fan {
    @usableFromInline var isAttached = false
    @usableFromInline var observers: [Observer] = []
    @usableFromInline init() {}
  }

  /// Which fan an observer joins: the view after every action, after actions that changed
  /// the state, or after actions that changed the view.
  @usableFromInline
  enum Kind: Sendable {
    case everyAction, stateChange, viewChange
  }

  @usableFromInline var nextID = 0
  @usableFromInline var everyAction = Fan()
  @usableFromInline var onStateChange = Fan()
  @usableFromInline var onViewChange = Fan()
  /// The view the view-change fan handed out last.
  @usableFromInline var lastView: View?
  /// The observers of single rows of the state's identified lists, one ``RowObservers`` per
  /// list (`child(forEach:id:input:render:)` with `Equatable` elements).
  @usableFromInline var rowObservers: RowObserverTable = [:]

  @usableFromInline init() {}

  @inlinable
  subscript(kind: Kind) -> Fan {
    get {
      switch kind {
      case .everyAction: everyAction
      case .stateChange: onStateChange
      case .viewChange: onViewChange
      }
    }
    set {
      switch kind {
      case .everyAction: everyAction = newValue
      case .stateChange: onStateChange = newValue
      case .viewChange: onViewChange = newValue
      }
    }
  }

  /// Adds `observer` to the fan of `kind`; returns whether the fan must be attached to the
  /// component (the view-change fan then starts from `view`, the one its first observer gets).
  @inlinable
  mutating func join(_ observer: Observer, to kind: Kind, view: View) -> Bool {
    self[kind].observers.append(observer)
    guard !self[kind].isAttached else { return false }
    self[kind].isAttached = true
    if kind == .viewChange { lastView = view }
    return true
  }

  /// The view-change fan's observers to call with `view`: none when it is the last one's
  /// equal. Under the lock, so the last view follows the order of the actions.
  @inlinable
  mutating func observers(ofChanged view: View, isSame: (View, View) -> Bool) -> [Observer] {
    if let last = lastView, isSame(last, view) { return [] }
    lastView = view
    return onViewChange.observers
  }

  /// Adds `observer` to a fan in turn with the component's queue: it is called with the view
  /// then, and after every later action (`isEqual`: that changed the state; `isSame`: that
  /// changed the view, which keeps no state to compare with).
  @inlinable
  static func join<S: Sendable, Environment, Input>(
    _ observer: @escaping @Sendable (View) -> Void, fans: Lock<ViewFans>,
    explorer: Explorer<Environment, Store<S, View>, Input>,
    onlyOnChange isEqual: (@Sendable (S, S) -> Bool)? = nil,
    isSame: (@Sendable (View, View) -> Bool)? = nil
  ) -> Subscription {
    let kind: Kind = isSame != nil ? .viewChange : isEqual != nil ? .stateChange : .everyAction
    let id = fans.withLock { fans in
      fans.nextID += 1
      return fans.nextID
    }
    // Run by the explorer itself, which is alive while it runs it.
    explorer.inTurn { [unowned(unsafe) explorer] space in
      let view = space.extract()
      let mustAttach = fans.withLock { fans in
        fans.join(Subscriber(id: id, notify: observer), to: kind, view: view)
      }
      guard mustAttach else { return observer(view) }
      if let isSame {
        explorer.attach(onlyOnChange: nil) { space in
          let view = space.extract()
          let observers = fans.withLock { $0.observers(ofChanged: view, isSame: isSame) }
          observers.notifyEach(of: view) { explorer.gate.isStopped }
        }
      } else {
        explorer.attach(onlyOnChange: isEqual) { space in
          let observers = fans.withLock { $0[kind].observers }
          guard !observers.isEmpty else { return }
          observers.notifyEach(of: space.extract()) { explorer.gate.isStopped }
        }
      }
      observer(view)
    }
    return Subscription {
      fans.withLock { fans in fans[kind].observers.removeAll { $0.id == id } }
    }
  }
}
