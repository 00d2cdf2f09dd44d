import Synchronization

/// One architecture's runtime around ``tally(_:_:)``, for the synchronous workloads.
///
/// A conforming type builds a started runtime in its initializer, the way a user of that
/// architecture would, and sends actions through the runtime's normal synchronous path.
///
/// ```swift
/// final class MyTally: TallySubject {
///   let store: MyStore<TallyState, TallyAction>
///   init(_ setup: TallySetup) {
///     store = MyStore(state: setup.state, update: tally)
///     for _ in 0..<setup.observers { store.subscribe { setup.notify($0) } }
///   }
///   func send(_ action: TallyAction, times: Int) {
///     for _ in 0..<times { store.dispatch(action) }
///   }
///   var state: TallyState { store.state }
///   func stop() { store.stop() }
/// }
/// ```
public protocol TallySubject: AnyObject, Sendable {
  /// What the `fanout` workloads widen in this architecture; observers unless it says otherwise.
  static var fanout: Fanout { get }

  /// Creates and starts a runtime with `setup`'s state, observers and fan-out.
  init(_ setup: TallySetup)

  /// Sends `action` `times` times, one synchronous dispatch each.
  func send(_ action: TallyAction, times: Int)

  /// The state now.
  var state: TallyState { get }

  /// Stops the runtime.
  func stop()
}

extension TallySubject {
  public static var fanout: Fanout { .observers }
}

/// What a ``TallySubject`` is built with.
public struct TallySetup: Sendable {
  /// The initial state.
  public var state: TallyState
  /// How many observers to subscribe; each calls ``notify`` with the state it is given.
  public var observers: Int
  /// How wide to make the architecture's ``Fanout`` dimension (0: as narrow as it goes).
  /// When the dimension is observers, these observers also call ``notify``.
  public var fanout: Int
  /// What every observer calls on each notification: `{ setup.notify($0) }`.
  ///
  /// Write the call in a closure at the place the runtime takes an observer, as a user writes
  /// an observer: a generic runtime keeps a closure at its generic representation, and a closure
  /// literal is made in that representation, where a function value made elsewhere
  /// (`subscribe(setup.notify)` with a function) is wrapped in a reabstraction thunk, one call
  /// more per notification that no user writing a closure pays.
  public var notify: TallySink

  public init(
    state: TallyState, observers: Int = 0, fanout: Int = 0,
    notify: (@Sendable (TallyState) -> Void)? = nil
  ) {
    self.state = state
    self.observers = observers
    self.fanout = fanout
    self.notify = TallySink(notify)
  }
}

/// What the workloads' observers call: counts the notifications and hands each state to a
/// function, if given one.
///
/// A class with an inlinable call, not a function value, so that an observer written as a
/// closure around it is the observer's whole body, in every contestant alike.
public final class TallySink: Sendable {
  @usableFromInline let count = Atomic(0)
  /// Whether there is an `onValue` to call: a flag, so that a sink without one does not copy
  /// (retain and release) an optional function on every call.
  @usableFromInline let forwards: Bool
  @usableFromInline let onValue: @Sendable (TallyState) -> Void

  /// A sink that hands every state to `onValue`, if given one.
  public init(_ onValue: (@Sendable (TallyState) -> Void)? = nil) {
    forwards = onValue != nil
    self.onValue = onValue ?? { _ in }
  }

  /// Counts one notification of `state`.
  @inlinable
  public func callAsFunction(_ state: TallyState) {
    count.wrappingAdd(1, ordering: .relaxed)
    if forwards { forward(state) }
  }

  /// Hands `state` to `onValue`: out of line, so that a sink without one counts with no frame.
  @usableFromInline @inline(never)
  func forward(_ state: TallyState) { onValue(state) }

  /// How many notifications the sink has had.
  public var notifications: Int { count.load(ordering: .relaxed) }
}

/// The dimension a runtime fans out along, widened by the `fanout` workloads.
public enum Fanout: String, Sendable, Codable {
  /// Subscribers notified on each change (ElmStore, MUE, Comonadic, baseline).
  case observers
  /// Machine layers around the core (LayerCore).
  case layers
  /// IO handlers consulted per message (IOLoop).
  case handlers
}

/// The physical floor: ``tally(_:_:)`` called in a loop, observers called directly.
///
/// Not a runtime: it has no lock and no queue, and must be used from one task at a time.
public final class BareReducer: TallySubject, @unchecked Sendable {
  // @unchecked: the workloads call a trial's closures one after another on one task, the only
  // way this floor is used; it exists to be measured, not shared.
  private var current: TallyState
  /// Each function in an object the list keeps, called through it unretained (``notify(_:)``).
  private let observers: [Observer]

  public init(_ setup: TallySetup) {
    current = setup.state
    let sink = setup.notify
    observers = (0..<(setup.observers + setup.fanout)).map { _ in Observer { sink($0) } }
    notify(current)
  }

  public func send(_ action: TallyAction, times: Int) {
    var state = current
    current = TallyState()
    for _ in 0..<times {
      let old = state.count
      reduceOpaquely(&state, action)
      if state.count != old { notify(state) }
    }
    current = state
  }

  /// Calls every observer with `state`, without retaining and releasing each one's function
  /// around its call (the list holds them): the floor of a fan-out.
  @inline(__always)
  private func notify(_ state: TallyState) {
    observers.withUnsafeBufferPointer { observers in
      for index in observers.indices {
        Unmanaged.passUnretained(observers[index])._withUnsafeGuaranteedRef { $0.notify(state) }
      }
    }
  }

  /// An observer's function, kept by reference.
  final class Observer: Sendable {
    let notify: @Sendable (TallyState) -> Void

    init(_ notify: @escaping @Sendable (TallyState) -> Void) { self.notify = notify }
  }

  public var state: TallyState { current }

  public func stop() {}
}

/// ``tally(_:_:)`` behind a call the optimizer cannot see through, so a loop of them is not
/// folded into one addition.
@inline(never)
func reduceOpaquely(_ state: inout TallyState, _ action: TallyAction) {
  tally(&state, action)
}
