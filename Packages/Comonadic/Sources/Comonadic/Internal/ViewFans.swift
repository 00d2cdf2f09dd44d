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

  /// Which fan an observer joins: the view after every action, or after actions that changed
  /// the state. (Observers of changed views are the explorer's value observers.)
  @usableFromInline
  enum Kind: Sendable {
    case everyAction, stateChange
  }

  @usableFromInline var nextID = 0
  @usableFromInline var everyAction = Fan()
  @usableFromInline var onStateChange = Fan()
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
      }
    }
    set {
      switch kind {
      case .everyAction: everyAction = newValue
      case .stateChange: onStateChange = newValue
      }
    }
  }

  /// Adds `observer` to the fan of `kind`; returns whether the fan must be attached to the
  /// component.
  @inlinable
  mutating func join(_ observer: Observer, to kind: Kind) -> Bool {
    self[kind].observers.append(observer)
    guard !self[kind].isAttached else { return false }
    self[kind].isAttached = true
    return true
  }

  /// Adds `observer` to a fan in turn with the component's queue: it is called with the view
  /// then, and after every later action (`isEqual`: that changed the state; `isSame`: that
  /// changed the view, which keeps no state to compare with: the explorer's value observers).
  @inlinable
  static func join<S: Sendable, Environment, Input>(
    _ observer: @escaping @Sendable (View) -> Void, fans: Lock<ViewFans>,
    explorer: Explorer<Environment, Store<S, View>, Input>,
    onlyOnChange isEqual: (@Sendable (S, S) -> Bool)? = nil,
    isSame: (@Sendable (View, View) -> Bool)? = nil
  ) -> Subscription {
    if let isSame { return explorer.observeValues(isSame: isSame, observer) }
    let kind: Kind = isEqual != nil ? .stateChange : .everyAction
    let id = fans.withLock { fans in
      fans.nextID += 1
      return fans.nextID
    }
    // Run by the explorer itself, which is alive while it runs it.
    explorer.inTurn { [unowned(unsafe) explorer] space in
      let view = space.extract()
      let mustAttach = fans.withLock { fans in
        fans.join(Subscriber(id: id, notify: observer), to: kind)
      }
      if mustAttach {
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
