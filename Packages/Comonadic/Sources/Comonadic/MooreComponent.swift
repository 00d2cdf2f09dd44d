/// A component whose space is a ``Moore`` machine: the Elm/Redux-shaped variant, where inputs to
/// the machine are messages folded into a model, and a dispatcher turns the component's inputs
/// into ``Inputs`` (lists of messages) and effects.
///
/// ```swift
/// let counter = MooreComponent(
///   machine: Moore(state: 0, reduce: { count, message in count + message }, render: { $0 }),
///   environment: (),
///   dispatcher: InputsDispatcher<Void, Int, Int, StepperInput>.pure { input in
///     Inputs(input == .tapIncrement ? 1 : -1)
///   },
///   render: { count, handle in StepperView(count: count, handle: handle) })
/// ```
///
/// Runs like ``StoreComponent``: one FIFO queue, effects that see the machine's value and end
/// in messages, stop on ``stop()`` or release.
public final class MooreComponent<
  Environment: Sendable, Message: Sendable, Value: Sendable, Input: Sendable, View
>: Sendable {
  @usableFromInline let explorer: Explorer<Environment, Moore<Message, Value>, Input>
  @usableFromInline let render: @Sendable (Value, @escaping @Sendable (Input) -> Void) -> View
  /// The `handle` every view is given: sends to this component, weakly.
  public let handle: @Sendable (Input) -> Void

  /// Creates a component exploring `machine`.
  ///
  /// - Parameters:
  ///   - machine: The machine to start from; its value is what views and effects see.
  ///   - environment: What effects work with.
  ///   - dispatcher: Turns each input into the messages and effects that follow it.
  ///   - executor: Where effects run; `nil` for the global concurrent executor.
  ///   - render: The view of the machine's value, given `handle` to send inputs with.
  @inlinable
  public init(
    machine: Moore<Message, Value>, environment: Environment,
    dispatcher: InputsDispatcher<Environment, Message, Value, Input>,
    executor: (any TaskExecutor)? = nil,
    render: @escaping @Sendable (Value, @escaping @Sendable (Input) -> Void) -> View
  ) {
    let target = Target<Input>()
    explorer = Explorer(
      space: machine, environment: environment, dispatcher: dispatcher, executor: executor)
    self.render = render
    handle = { target.send($0) }
    let explorer = self.explorer
    target.connect { [weak explorer] in explorer?.send($0) }
  }

  /// Creates a component exploring `machine` whose effects need no environment.
  @inlinable
  public convenience init(
    machine: Moore<Message, Value>,
    dispatcher: InputsDispatcher<Environment, Message, Value, Input>,
    executor: (any TaskExecutor)? = nil,
    render: @escaping @Sendable (Value, @escaping @Sendable (Input) -> Void) -> View
  ) where Environment == Void {
    self.init(
      machine: machine, environment: (), dispatcher: dispatcher, executor: executor,
      render: render)
  }

  deinit { if !explorer.gate.isStopped { explorer.stop() } }

  /// Sends `input`: handled now, or queued behind the message being handled.
  public func send(_ input: Input) { explorer.send(input) }

  /// The machine now.
  @inlinable public var machine: Moore<Message, Value> { explorer.space }

  /// The machine's value now.
  @inlinable public var value: Value { explorer.focus }

  /// The view of the value now.
  @inlinable public var view: View { render(explorer.focus, handle) }

  /// Calls `observer` with the current view, then after every action applied.
  @discardableResult
  public func subscribe(_ observer: @escaping @Sendable (View) -> Void) -> Subscription {
    let (render, handle) = (render, handle)
    return explorer.observe(initial: true, onlyOnChange: nil) {
      observer(render($0.value, handle))
    }
  }

  /// Calls `hook` with the machine's new value after every action applied, in order.
  @discardableResult
  public func onEffect(_ hook: @escaping @Sendable (Value) -> Void) -> Subscription {
    explorer.observe(initial: false, onlyOnChange: nil) { hook($0.value) }
  }

  /// Stops the component: effects are cancelled, observers released, later inputs ignored.
  @inlinable
  public func stop() { explorer.stop() }

  /// Returns when nothing is queued or handled and no task effect is running.
  public func idle() async { await explorer.idle() }
}

extension MooreComponent where Value: Equatable {
  /// Calls `observer` with the current view, then after every action that changed the value.
  @discardableResult
  public func subscribe(_ observer: @escaping @Sendable (View) -> Void) -> Subscription {
    let (render, handle) = (render, handle)
    return explorer.observe(
      initial: true, onlyOnChange: { $0 == $1 }, { observer(render($0.value, handle)) })
  }
}
