/// The top of a tree of machines with no core: simprokmachine's way to run machines alone.
///
/// ```swift
/// final class AppDelegate: RootMachine {
///   var child: Machine<Never, String> { ~Ticker() }
/// }
///
/// let subscription = AppDelegate().start { print($0) }
/// ```
public protocol RootMachine: Sendable {
  /// What the top machine receives (only through ``Machine/redirect(_:)`` inside the tree).
  associatedtype Input: Sendable
  /// What the top machine emits.
  associatedtype Output: Sendable

  /// The top machine.
  var child: Machine<Input, Output> { get }
}

extension RootMachine {
  /// Wires `child` and its machines, then calls their first `process(input: nil, …)`.
  ///
  /// The machines run until the subscription is stopped or released.
  ///
  /// - Parameters:
  ///   - executor: Where the machines' work runs; `nil` for the global concurrent executor.
  ///   - callback: Every output of the top machine, in order, one at a time.
  public func start(
    executor: (any TaskExecutor)? = nil,
    callback: @escaping @Sendable (Output) -> Void = { _ in }
  ) -> Subscription {
    Subscription(RootCore(child: child, callback: callback).start(executor: executor))
  }
}

extension RootMachine where Self: AnyObject {
  /// Starts the machines and keeps them running until ``stop()``, like simprokmachine's
  /// `start()` on an `NSObject`. Starting again stops the previous run first.
  ///
  /// The running machines keep `self` alive until ``stop()``.
  public func start(callback: @escaping @Sendable (Output) -> Void = { _ in }) {
    KeptRunning.keep(start(executor: nil, callback: callback), for: self)
  }

  /// Stops what ``start(callback:)`` started; does nothing if nothing runs.
  public func stop() { KeptRunning.stop(self) }
}

extension Core where Self: AnyObject {
  /// Starts the flow and keeps it running until ``stop()``, like simprokcore's `start()` on
  /// the app delegate. Starting again stops the previous flow first.
  ///
  /// The running flow keeps `self` alive until ``stop()``. To hold the flow yourself (and see
  /// its state), use ``start(executor:)``.
  public func start() {
    KeptRunning.keep(start(executor: nil), for: self)
  }

  /// Stops the flow ``start()`` started; does nothing if none runs.
  public func stop() { KeptRunning.stop(self) }
}

/// A running tree of machines started by ``RootMachine/start(executor:callback:)``.
///
/// Releasing it stops the machines, like calling ``stop()``.
public final class Subscription: Sendable {
  private let flow: any Stoppable

  init(_ flow: any Stoppable) { self.flow = flow }

  /// Stops the machines: their work is cancelled and what it sends later dropped.
  public func stop() { flow.stop() }

  /// Whether the machines were stopped.
  public var isStopped: Bool { flow.isStopped }

  deinit { flow.stop() }
}

/// A root machine as a core: the tree is a producer layer; each output becomes the state,
/// which a second layer hands to the callback outside the flow's lock, in order.
struct RootCore<Input: Sendable, Output: Sendable>: Core {
  let child: Machine<Input, Output>
  let callback: @Sendable (Output) -> Void

  var layers: [Layer<Output, Output>] {
    [.producer(child, mapper: { $0 }), .consumer(~Callback(callback: callback), mapper: { $0 })]
  }

  func reduce(state: Output?, event: Output) -> ReducerResult<Output> { .set(event) }

  struct Callback: ChildMachine {
    let callback: @Sendable (Output) -> Void
    func process(input: Output?, callback _: Handler<Never>) {
      if let input { callback(input) }
    }
  }
}

/// Something running that can be stopped.
protocol Stoppable: AnyObject, Sendable {
  func stop()
  var isStopped: Bool { get }
}

extension Flow: Stoppable {}
extension Subscription: Stoppable {}

/// What ``Core/start()`` and ``RootMachine/start(callback:)`` keep running, by object.
enum KeptRunning {
  private static let running = Lock<[ObjectIdentifier: any Stoppable]>([:])

  static func keep(_ started: any Stoppable, for owner: AnyObject) {
    let previous = running.withLock { $0.updateValue(started, forKey: ObjectIdentifier(owner)) }
    previous?.stop()
  }

  static func stop(_ owner: AnyObject) {
    running.withLock { $0.removeValue(forKey: ObjectIdentifier(owner)) }?.stop()
  }
}
