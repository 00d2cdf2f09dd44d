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
/// with ``Dispatcher/widen(transformEnvironment:transformState:transformInput:)-(_,WritableKeyPath<BigState,Focus>Sendable,_)``.
public struct Child<S: Sendable, Input: Sendable, View>: Sendable {
  @usableFromInline let read: @Sendable () -> S
  @usableFromInline let observe: @Sendable (@escaping @Sendable (S) -> Void) -> Subscription
  @usableFromInline let render: @Sendable (S, @escaping @Sendable (Input) -> Void) -> View
  /// Sends an input of the child to the parent.
  public let handle: @Sendable (Input) -> Void

  @inlinable
  init(
    read: @escaping @Sendable () -> S,
    observe: @escaping @Sendable (@escaping @Sendable (S) -> Void) -> Subscription,
    render: @escaping @Sendable (S, @escaping @Sendable (Input) -> Void) -> View,
    handle: @escaping @Sendable (Input) -> Void
  ) {
    self.read = read
    self.observe = observe
    self.render = render
    self.handle = handle
  }

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

extension Child where S: Equatable {
  /// Calls `observer` with the child's view now, then after every action that changed the
  /// child's part of the state: a change elsewhere in the parent (another row, another tab)
  /// never calls it.
  ///
  /// - Complexity: O(1) per action besides reading the part (for a list's element, a lookup by
  ///   id), whatever the size of the parent's state.
  @inlinable
  @discardableResult
  public func subscribe(_ observer: @escaping @Sendable (View) -> Void) -> Subscription {
    let (render, handle) = (render, handle)
    return observe(distinct({ $0 }, { observer(render($0, handle)) }))
  }
}

extension StoreComponent {
  /// A child showing the part `state` of this component's state, whose inputs reach this
  /// component through `input`.
  @inlinable
  public func child<ChildState: Sendable, ChildInput: Sendable, ChildView>(
    state: KeyPath<S, ChildState> & Sendable,
    input: @escaping @Sendable (ChildInput) -> Input,
    render: @escaping @Sendable (ChildState, @escaping @Sendable (ChildInput) -> Void) -> ChildView
  ) -> Child<ChildState, ChildInput, ChildView> {
    let parent = handle
    let field = FieldReader(state)
    return Child(
      read: { [explorer] in field(explorer.space.position) },
      observe: { [explorer] observer in
        explorer.observe(initial: true, onlyOnChange: nil) {
          observer(field($0.position))
        }
      },
      render: render, handle: { parent(input($0)) })
  }

  /// A child showing the element `id` of the list at `path` (`nil` once it left the list),
  /// whose inputs reach this component through `input`: one row of a list, observed alone.
  ///
  /// ```swift
  /// let row = todos.child(forEach: \.rows, id: 7, input: { .row(id: 7, $0) }) { row, handle in
  ///   row.map { RowView(row: $0, handle: handle) }
  /// }
  /// row.subscribe { view in ... }  // called when row 7 changes, never for another row
  /// ```
  @inlinable
  public func child<ID: Hashable & Sendable, Element: Sendable, ChildInput: Sendable, ChildView>(
    forEach path: KeyPath<S, IdentifiedList<ID, Element>> & Sendable, id: ID,
    input: @escaping @Sendable (ChildInput) -> Input,
    render: @escaping @Sendable (Element?, @escaping @Sendable (ChildInput) -> Void) -> ChildView
  ) -> Child<Element?, ChildInput, ChildView> {
    let parent = handle
    let list = FieldReader(path)
    return Child(
      read: { [explorer] in list(explorer.space.position)[id: id] },
      observe: { [explorer] observer in
        explorer.observe(initial: true, onlyOnChange: nil) {
          observer(list($0.position)[id: id])
        }
      },
      render: render, handle: { parent(input($0)) })
  }

  /// A child showing the element `id` of the list at `path` (`nil` once it left the list),
  /// whose inputs reach this component through `input`, for `Equatable` elements: the children
  /// of one list share one observer of this component, which looks up each observed element
  /// after an action and calls only the children whose element changed.
  ///
  /// An action that changes one row of 10,000 then costs the same with 20 rows observed as
  /// with one, and nothing for the rows nobody observes.
  ///
  /// - Complexity: O(1) per action for each observed child, whatever the length of the list.
  @inlinable
  public func child<
    ID: Hashable & Sendable, Element: Equatable & Sendable, ChildInput: Sendable, ChildView
  >(
    forEach path: KeyPath<S, IdentifiedList<ID, Element>> & Sendable, id: ID,
    input: @escaping @Sendable (ChildInput) -> Input,
    render: @escaping @Sendable (Element?, @escaping @Sendable (ChildInput) -> Void) -> ChildView
  ) -> Child<Element?, ChildInput, ChildView> {
    let parent = handle
    return Child(
      read: { [explorer] in explorer.space.position[keyPath: path][id: id] },
      observe: { [explorer, fans] observer in
        Subscription(
          RowObserving.observe(
            path, id, observer, table: { body in fans.withLock { body(&$0.rowObservers) } },
            subscribe: { notify in
              explorer.observe(initial: true, onlyOnChange: nil) { notify($0.position) }.cancel
            }))
      },
      render: render, handle: { parent(input($0)) })
  }

  /// A child showing the presented child at `path` as it is now — this presentation, `nil`
  /// once it is dismissed — whose inputs reach this component through `input` while that
  /// presentation lasts: a scope that belongs to the presentation it was taken from. Taken while
  /// nothing is presented, or kept after a dismissal (also while a later child is presented:
  /// for an `Identifiable` child, one with another id), it sends nothing.
  ///
  /// ```swift
  /// let form = contacts.child(presented: \.form, input: Contacts.Input.form) { form, _ in
  ///   form.map(AddForm.render)
  /// }
  /// form.send(.save)  // reaches this form, not a later one
  /// ```
  ///
  /// Whether the presentation is still there is decided when the input's turn comes in the
  /// queue, so an input sent just before a dismissal is handled and one sent just after is not.
  @inlinable
  public func child<ChildState: Sendable, ChildInput: Sendable, ChildView>(
    presented path: KeyPath<S, ChildState?> & Sendable,
    input: @escaping @Sendable (ChildInput) -> Input,
    render: @escaping @Sendable (ChildState?, @escaping @Sendable (ChildInput) -> Void) -> ChildView
  ) -> Child<ChildState?, ChildInput, ChildView> {
    let key = presentationKey(ChildState.self)
    let field = FieldReader(path)
    let taken = field(explorer.space.position).map(key)
    let current: @Sendable (S) -> ChildState? = { whole in
      guard let taken, let child = field(whole), key(child) == taken else { return nil }
      return child
    }
    return Child(
      read: { [explorer] in current(explorer.space.position) },
      observe: { [explorer] observer in
        explorer.observe(initial: true, onlyOnChange: nil) { observer(current($0.position)) }
      },
      render: render,
      handle: { [explorer] childInput in
        guard taken != nil else { return }
        // In turn: the presentation is looked for as the queue comes to this input.
        explorer.inTurn { [explorer] space in
          guard current(space.position) != nil else { return }
          explorer.execute(explorer.dispatcher.plan(input(childInput)))
        }
      })
  }
}
