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
    // Moved out, not copied: one retain and release fewer per round.
    if let last = lastView.take(), isSame(last, view) {
      lastView = consume last
      return []
    }
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
