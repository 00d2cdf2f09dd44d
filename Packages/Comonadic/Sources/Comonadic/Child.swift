/// A part of a component shown by a view of its own: it sees a part of the parent's state and
/// forwards its inputs to the parent, which alone owns the space.
///
/// ```swift
/// let stepper = app.child(state: \.stepper, input: AppInput.stepper) { count, handle in
///   StepperView(count: count, handle: handle)
/// }
/// stepper.send(.tapIncrement)  // the app handles .stepper(.tapIncrement)
/// ```
///
/// The parent's dispatcher handles the forwarded inputs; build it from the child's dispatcher
/// with ``Dispatcher/widen(transformEnvironment:transformState:transformInput:)``.
public struct Child<S: Sendable, Input: Sendable, View>: Sendable {
  let read: @Sendable () -> S
  let observe: @Sendable (@escaping @Sendable (S) -> Void) -> Subscription
  let render: @Sendable (S, @escaping @Sendable (Input) -> Void) -> View
  /// Sends an input of the child to the parent.
  public let handle: @Sendable (Input) -> Void

  /// Sends `input` to the parent, as the parent's input it was made into.
  public func send(_ input: Input) { handle(input) }

  /// The child's part of the parent's state now.
  public var state: S { read() }

  /// The child's view now.
  public var view: View { render(read(), handle) }

  /// Calls `observer` with the child's view now, then after every action the parent applies.
  @discardableResult
  public func subscribe(_ observer: @escaping @Sendable (View) -> Void) -> Subscription {
    let (render, handle) = (render, handle)
    return observe { observer(render($0, handle)) }
  }
}

extension StoreComponent {
  /// A child showing the part `state` of this component's state, whose inputs reach this
  /// component through `input`.
  public func child<ChildState: Sendable, ChildInput: Sendable, ChildView>(
    state: KeyPath<S, ChildState> & Sendable,
    input: @escaping @Sendable (ChildInput) -> Input,
    render: @escaping @Sendable (ChildState, @escaping @Sendable (ChildInput) -> Void) -> ChildView
  ) -> Child<ChildState, ChildInput, ChildView> {
    let parent = handle
    return Child(
      read: { [explorer] in explorer.space.position[keyPath: state] },
      observe: { [explorer] observer in
        explorer.observe(initial: true, onlyOnChange: nil) {
          observer($0.position[keyPath: state])
        }
      },
      render: render, handle: { parent(input($0)) })
  }
}
