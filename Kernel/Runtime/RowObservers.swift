/// The observers of single rows of one identified list in a runtime's state: the runtime calls
/// `follow(_:)` with the list after each step (one subscriber for the whole list), which looks
/// up each observed row and compares it with the row that observer last saw; only observers of
/// rows that changed are called. A step that changes one row of 10,000 asks nothing of the rows
/// nobody observes, and nothing of an observer's own code for an observed row that did not
/// change (R11). The list itself is not kept, so an update still changes it in place.
///
/// An observer joins in the runtime's queue order: `add(_:_:)` files it, and the runtime calls
/// `join(_:_:)` from its drain, with the list it then holds, where it would first call a
/// subscriber (``JoinOnce`` makes that subscriber).
///
/// Observers are called outside the lock, in the order they were added, only from the caller
/// draining the runtime (never two at once).
@usableFromInline
package final class RowObservers<ID: Hashable & Sendable, Row: Equatable & Sendable>: Sendable {
  /// Every observer, in the order they were added, one array per field: the loop over them
  /// after each step reads and writes fields in place, never copying an observer out.
  @usableFromInline
  struct Registry {
    @usableFromInline var tokens: [Int] = []
    @usableFromInline var ids: [ID] = []
    /// Each in a struct: a closure kept directly in an array is kept at the array's
    /// abstraction, and taking it out re-wraps it (one allocation per call).
    @usableFromInline var notifies: [Notify] = []
    /// The row each observer was last given; `nil` before it joined or once the row left.
    @usableFromInline var lasts: [Row?] = []
    /// Whether each last row is one (`lasts[i] != nil`), kept apart: testing an optional row
    /// for `nil` where it is stored copies it out.
    @usableFromInline var inList: [Bool] = []
    @usableFromInline var joined: [Bool] = []
    /// Where each row was found last time, to find it again without hashing its id.
    @usableFromInline var hints: [SlotHint] = []
    @usableFromInline var lastToken = 0
    /// The stamp of the list the observers were brought up to date with (`0`: none yet).
    @usableFromInline var stamp: UInt64 = 0

    @inlinable init() {}

    @inlinable
    mutating func remove(at index: Int) {
      tokens.remove(at: index)
      ids.remove(at: index)
      notifies.remove(at: index)
      lasts.remove(at: index)
      inList.remove(at: index)
      joined.remove(at: index)
      hints.remove(at: index)
    }
  }

  /// An observer's function.
  @usableFromInline
  struct Notify {
    @usableFromInline let body: @Sendable (Row?) -> Void

    @inlinable
    init(_ body: @escaping @Sendable (Row?) -> Void) { self.body = body }
  }

  /// An observer to call, outside the lock, with its row.
  @usableFromInline
  struct Call {
    @usableFromInline let notify: Notify
    @usableFromInline let row: Row?

    @inlinable
    init(notify: Notify, row: Row?) {
      self.notify = notify
      self.row = row
    }

    @inlinable
    func callAsFunction() { notify.body(row) }
  }

  @usableFromInline let registry = Lock(Registry())

  @inlinable package init() {}

  /// Files an observer of row `id` that is told nothing until it joins; returns its token.
  @inlinable
  package func add(_ id: ID, _ notify: @escaping @Sendable (Row?) -> Void) -> Int {
    registry.withLock { registry in
      registry.lastToken += 1
      registry.tokens.append(registry.lastToken)
      registry.ids.append(id)
      registry.notifies.append(Notify(notify))
      registry.lasts.append(nil)
      registry.inList.append(false)
      registry.joined.append(false)
      registry.hints.append(SlotHint())
      return registry.lastToken
    }
  }

  /// Calls the observer `token` with its row in `list` (the runtime's state now), then with
  /// each change of that row `follow(_:)` finds. Does nothing if it was removed.
  @inlinable
  package func join(_ token: Int, _ list: IdentifiedList<ID, Row>) {
    let call = registry.withLock { registry -> Call? in
      guard let index = registry.tokens.firstIndex(of: token) else { return nil }
      let row = list[id: registry.ids[index]]
      registry.inList[index] = row != nil
      registry.lasts[index] = row
      registry.joined[index] = true
      // The others saw another list, maybe: the next step looks at every row.
      registry.stamp = 0
      return Call(notify: registry.notifies[index], row: row)
    }
    if let call { call() }
  }

  /// Removes the observer `token`: it is not called again once this returns, except by a call
  /// already begun.
  @inlinable
  package func remove(_ token: Int) {
    registry.withLock { registry in
      if let index = registry.tokens.firstIndex(of: token) { registry.remove(at: index) }
    }
  }

  /// The first index from `start` on whose element in `array` matches (`array.count`: none),
  /// found in the array's buffer: a scan of a few observers costs a few instructions each.
  @inlinable
  static func index<T>(in array: [T], from start: Int, where matches: (T) -> Bool) -> Int {
    array.withUnsafeBufferPointer { elements in
      var index = start
      while index < elements.count, !matches(elements[index]) { index += 1 }
      return index
    }
  }

  /// Calls each joined observer whose row differs from the one it last saw.
  ///
  /// - Complexity: O(1) when the list did not change; O(observers) otherwise, and one
  ///   comparison for each observer of a row that may have changed (of every row unless a
  ///   single row changed in place), whatever the length of the list: the row is found in the
  ///   slot it was in before, without hashing its id, unless the list was laid out again.
  @inlinable
  package func follow(_ list: IdentifiedList<ID, Row>) {
    withUnsafePointer(to: list) { follow(at: $0) }
  }

  /// ``follow(_:)`` for the list at `address`: for a runtime that has the list only inside a
  /// bigger state, which it would copy (retaining everything it holds) to hand the list over.
  @inlinable
  package func follow(at address: UnsafePointer<IdentifiedList<ID, Row>>) {
    // The first call kept apart: the usual step changes one observed row, or none, and then
    // this allocates nothing.
    let (first, rest) = registry.withLock { registry -> (Call?, [Call]) in
      var first: Call?
      var rest: [Call] = []
      // A flag rather than `first == nil`, which copies the call out to compare it.
      var found = false
      // Since the list the observers saw: nothing changed; one row changed in place or left
      // (only its observers look); rows added (only observers of rows not in the list look);
      // or anything (every observer looks).
      let change = address.pointee.change(since: registry.stamp)
      registry.stamp = address.pointee.stamp
      // Looks at observer `index`: calls it (later) if its row differs from its last.
      func look(at index: Int) {
        // The last row compared where it is kept, not copied out.
        let changed = withUnsafePointer(to: &registry.lasts[index]) { last in
          address.pointee.element(
            id: registry.ids[index], ifChangedFrom: last, hint: &registry.hints[index])
        }
        guard let row = changed else { return }
        registry.inList[index] = row != nil
        registry.lasts[index] = row
        let call = Call(notify: registry.notifies[index], row: row)
        if !found {
          found = true
          first = call
        } else {
          if rest.isEmpty { rest.reserveCapacity(registry.ids.endIndex - index) }
          rest.append(call)
        }
      }
      switch change {
      case .none:
        return (nil, [])
      case .slot(let slot), .removed(let slot):
        // Only observers whose row was in that slot of this layout look (the others' rows are
        // in other slots, or were not in the list, and no row was added).
        let layout = address.pointee.layout
        let wasThere = { (hint: SlotHint) in hint.slot == slot && hint.layout == layout }
        var index = Self.index(in: registry.hints, from: 0, where: wasThere)
        while index < registry.hints.count {
          if registry.joined[index] { look(at: index) }
          index = Self.index(in: registry.hints, from: index + 1, where: wasThere)
        }
      case .added:
        // Only observers whose row was not in the list look.
        var index = Self.index(in: registry.inList, from: 0) { !$0 }
        while index < registry.inList.count {
          if registry.joined[index] { look(at: index) }
          index = Self.index(in: registry.inList, from: index + 1) { !$0 }
        }
      case .unknown:
        for index in registry.ids.indices where registry.joined[index] { look(at: index) }
      }
      return (first, rest)
    }
    guard let first else { return }
    first()
    for call in rest { call() }
  }
}

/// A subscriber that runs its body on its first call only, then unsubscribes itself: how an
/// observer joins a ``RowObservers`` in the runtime's queue order.
@usableFromInline
package final class JoinOnce<Value>: Sendable {
  @usableFromInline
  struct State {
    @usableFromInline var fired = false
    @usableFromInline var cancel: (@Sendable () -> Void)?

    @inlinable init() {}
  }

  @usableFromInline let state = Lock(State())
  @usableFromInline let body: @Sendable (Value) -> Void

  @inlinable
  package init(_ body: @escaping @Sendable (Value) -> Void) { self.body = body }

  /// The subscriber to hand the runtime.
  @inlinable
  package func call(_ value: Value) {
    let (first, cancel) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
      if state.fired { return (false, nil) }
      state.fired = true
      return (true, state.cancel.take())
    }
    guard first else { return }
    body(value)
    cancel?()
  }

  /// How to unsubscribe, once the runtime handed it out: called at once if the first call
  /// already happened (a runtime may call a new subscriber before `subscribe` returns), or when
  /// it does; `cancelNow` unsubscribes without calling the body.
  @inlinable
  package func unsubscribe(with cancel: @escaping @Sendable () -> Void) {
    let fired = state.withLock { state -> Bool in
      if !state.fired { state.cancel = cancel }
      return state.fired
    }
    if fired { cancel() }
  }

  /// Makes sure the body never runs and unsubscribes.
  @inlinable
  package func cancelNow() {
    let cancel = state.withLock { state -> (@Sendable () -> Void)? in
      state.fired = true
      return state.cancel.take()
    }
    cancel?()
  }
}

/// A runtime's ``RowObservers``, one per identified list whose rows are observed, by key path.
/// It lives in the runtime's own locked state, so a runtime nobody observes a row of allocates
/// nothing for it.
@usableFromInline
package typealias RowObserverTable = [AnyKeyPath: AnyObject]

/// How a runtime's row-scoped `observe` is built on ``RowObservers``.
@usableFromInline
package enum RowObserving {
  /// Calls `observer` with row `id` of the list at `path` now (`nil`: not in the list), in the
  /// runtime's queue order, then whenever that row changes; returns what stops it.
  ///
  /// - Parameters:
  ///   - table: Runs its argument on the runtime's ``RowObserverTable``, under its lock.
  ///   - subscribe: Subscribes a function of the runtime's state, called with the state now in
  ///     queue order, then after each step; returns what unsubscribes it.
  @inlinable
  package static func observe<State, ID: Hashable & Sendable, Row: Equatable & Sendable>(
    _ path: KeyPath<State, IdentifiedList<ID, Row>> & Sendable, _ id: ID,
    _ observer: @escaping @Sendable (Row?) -> Void,
    table: ((inout RowObserverTable) -> (AnyObject, Bool)) -> (AnyObject, Bool),
    subscribe: (@escaping @Sendable (State) -> Void) -> @Sendable () -> Void
  ) -> @Sendable () -> Void {
    let (found, isNew) = table { table in
      if let hub = table[path] { return (hub, false) }
      let hub = RowObservers<ID, Row>()
      table[path] = hub
      return (hub, true)
    }
    let hub = found as! RowObservers<ID, Row>
    let list = FieldReader(path)
    // The list's one subscriber, for as long as the runtime runs.
    // The list is looked at where it is in the state, not copied out of it.
    if isNew { _ = subscribe { list.withAddress(in: $0) { hub.follow(at: $0) } } }
    let token = hub.add(id, observer)
    let joiner = JoinOnce<State> { hub.join(token, list($0)) }
    joiner.unsubscribe(with: subscribe(joiner.call))
    return {
      joiner.cancelNow()
      hub.remove(token)
    }
  }
}
