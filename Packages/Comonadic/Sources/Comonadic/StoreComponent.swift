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
  @inlinable public var space: Store<S, View> { explorer.space }

  /// The state now.
  ///
  /// An input sent while another thread was handling the queue may not be applied yet;
  /// ``idle()`` waits until it is.
  @inlinable public var state: S { explorer.focus }

  /// The view of the state now.
  @inlinable public var view: View { explorer.space.extract() }

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
