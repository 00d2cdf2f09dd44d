import ArchitectureSpec
import LayerCore

/// A request the core puts into its state for a layer to carry out. The id tells a new request
/// from the same one seen again: every layer receives every state, so a machine acts on an id
/// once.
public struct Request<Value: Sendable & Equatable>: Sendable, Equatable {
  public var id: Int
  public var value: Value

  public init(id: Int, _ value: Value) {
    self.id = id
    self.value = value
  }
}

/// The screen an app draws on: a machine whose input is the view. It shows `placeholder` until
/// the core has a state, tells its observers about every view that differs from the last one,
/// and turns what the user does (``send(_:)``) into its output.
///
/// The terminal and the conformance kit play the user; in an iOS app this is the view
/// controller.
public final class Screen<View: Equatable & Sendable, Intent: Sendable>: ChildMachine {
  private struct Shown {
    var view: View
    var observers: [@Sendable (View) -> Void] = []
    var callback: Handler<Intent>?
  }

  private let shown: Lock<Shown>
  /// Where the view now is read when the screen keeps none (see ``init(placeholder:current:)``).
  private let current: (@Sendable () -> View?)?
  /// What the screen makes of a view before it shows it to observers and keeps it.
  private let shownView: (@Sendable (View) -> View)?

  /// A screen showing `placeholder`; see ``observe(_:)``.
  ///
  /// With `current` (the view of the flow's state now; `nil` before the flow has one), the
  /// screen keeps no view while nobody observes it, and reads `current` when asked: a view that
  /// holds a large state (a stack of 10,000 screens) is then not kept by a screen nobody looks
  /// at, so the core's next change to that state does not copy it. Such a view, once observed,
  /// is made final by `shown` before observers get it and the screen keeps it: `shown` returns
  /// the view made, holding what it shows and not the state (which, kept, the flow's next
  /// change would copy).
  public init(
    placeholder: View, current: (@Sendable () -> View?)? = nil,
    shown: (@Sendable (View) -> View)? = nil
  ) {
    self.shown = Lock(Shown(view: placeholder))
    self.current = current
    shownView = shown
  }

  /// Tells `observer` about every new view from now on, starting with the one shown now.
  ///
  /// Before the flow started the screen, at once (the placeholder, then the first view at
  /// start); afterwards in the flow's order, so a stopped flow calls a late observer not at all
  /// (SPEC R6: subscribing after stop calls nothing).
  public func observe(_ observer: @escaping @Sendable (View) -> Void) {
    let (placeholder, started) = shown.withLock { shown -> (View?, Handler<Intent>?) in
      guard let callback = shown.callback else {
        shown.observers.append(observer)
        return (shown.view, nil)
      }
      return (nil, callback)
    }
    if let placeholder { return observer(placeholder) }
    started?.enqueue { [self] in
      // In the flow's order: the view now, read before the lock if none is kept.
      let now = current?().map { shownView?($0) ?? $0 }
      let view = shown.withLock { shown in
        if shown.observers.isEmpty, let now { shown.view = now }
        shown.observers.append(observer)
        return shown.view
      }
      observer(view)
    }
  }

  /// The view shown now.
  public var view: View {
    let kept = shown.withLock { shown in
      current == nil || !shown.observers.isEmpty ? shown.view : nil
    }
    return kept ?? current?() ?? shown.withLock { $0.view }
  }

  /// Sends what the user did to the core. Ignored until the flow has started the screen.
  public func send(_ intent: Intent) {
    shown.withLock { $0.callback }?(intent)
  }

  public func process(input: View?, callback: Handler<Intent>) {
    guard case .some(var view) = input else {
      // Observers saw the placeholder when they began observing.
      return shown.withLock { $0.callback = callback }
    }
    // Only the observers leave the lock: the view they get is the input. With none, the view
    // is kept and not compared (a view that is made when read is then never made).
    let observers = shown.withLock { shown -> [@Sendable (View) -> Void]? in
      guard !shown.observers.isEmpty else {
        if current == nil { shown.view = view }
        return nil
      }
      if let shownView { view = shownView(view) }
      guard view != shown.view else { return nil }
      shown.view = view
      return shown.observers
    }
    guard let observers else { return }
    for observer in observers { observer(view) }
  }
}

/// A machine that carries out the latest request of one kind: a new request replaces the running
/// one, `nil` cancels it, and the same request seen again is left alone.
public final class RequestMachine<Value: Sendable & Equatable, Output: Sendable>: ChildMachine {
  public typealias Input = Request<Value>?

  private let lifetime: WorkLifetime
  private let work: @Sendable (Request<Value>, Handler<Output>) async -> Void
  private let latest = Lock<Int?>(nil)

  /// - Parameters:
  ///   - lifetime: `.untilCancelled` for work that never ends by itself (a timer).
  ///   - work: What a request does; it sends its outputs through the handler.
  public init(
    lifetime: WorkLifetime = .finite,
    work: @escaping @Sendable (Request<Value>, _ send: Handler<Output>) async -> Void
  ) {
    self.lifetime = lifetime
    self.work = work
  }

  public func process(input: Request<Value>??, callback: Handler<Output>) {
    // One switch over both optionals: binding each in turn copies the request for each.
    switch input {
    case .none:
      return  // started: nothing to do yet
    case .some(.none):
      guard latest.exchange(nil) != nil else { return }
      callback.cancel(id: 0)
    case .some(.some(let request)):
      guard latest.exchange(request.id) != request.id else { return }
      let work = work
      callback.run(id: 0, lifetime: lifetime) { send in await work(request, send) }
    }
  }
}

/// The log: writes each new line request once (every layer sees every state, so a line seen
/// again is left alone).
final class LogMachine: ChildMachine {
  let log: any AppLog
  private let lastLine = Lock(0)

  init(log: any AppLog) { self.log = log }

  func process(input: Request<String>??, callback: Handler<Never>) {
    guard let line = input ?? nil, lastLine.exchange(line.id) != line.id else { return }
    log.log(line.value)
  }
}

/// How a request ended: what a network layer reports.
public struct Answer<Value: Sendable & Equatable, Success: Sendable>: Sendable {
  public var request: Request<Value>
  public var result: Result<Success, any Error>

  /// The answer to `request`: what `body` returned or threw.
  static func to(_ request: Request<Value>, _ body: () async throws -> Success) async -> Answer {
    do { return Answer(request: request, result: .success(try await body())) } catch {
      return Answer(request: request, result: .failure(error))
    }
  }
}

/// Sleeps until `clock.now + duration`; `false` if cancelled.
func sleep(for duration: Duration, on clock: any Clock<Duration>) async -> Bool {
  await sleep(until: duration, on: clock)
}

private func sleep<C: Clock<Duration>>(until duration: Duration, on clock: C) async -> Bool {
  do {
    try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
    return true
  } catch { return false }
}
