/// Where a machine's `process` runs.
///
/// simprokmachine's `.main` and `.new` were dispatch queues. Here `.main` is the main actor, so
/// it runs wherever the main actor does (an app, a test, an async `main`), and `.new` and
/// `.shared` need no queue at all.
public enum MachineQueue: Sendable, Hashable {
  /// The flow's single mailbox: `process` runs on whichever thread handles the flow's queue, one
  /// call at a time for the whole flow, in a deterministic order. The default, and what tests
  /// and benchmarks use.
  case shared
  /// A serial mailbox of the machine's own: `process` runs as a task on the flow's executor,
  /// one call at a time for this machine, concurrently with other machines.
  case new
  /// The main actor: `process` always runs there, one call at a time, in order. What a
  /// machine that updates a UI (an ``ObservableMachine``) uses.
  case main
}

/// A machine that does the work: it processes inputs and emits outputs through its callback.
///
/// ```swift
/// struct Logger: ChildMachine {
///   func process(input: String?, callback: Handler<Never>) {
///     print(input ?? "loading")
///   }
/// }
/// ```
///
/// `process` is called first with `nil`, once the whole flow is wired, then with every input.
/// Calls never overlap for one machine. Keep it short: start anything that waits with
/// ``Handler/run(id:lifetime:_:)``, so that stopping the flow cancels it.
public protocol ChildMachine<Input, Output>: Sendable {
  /// What the machine receives.
  associatedtype Input: Sendable
  /// What the machine emits; `Never` if nothing.
  associatedtype Output: Sendable = Never

  /// Where `process` runs; ``MachineQueue/shared`` unless the machine says otherwise.
  var queue: MachineQueue { get }

  /// Processes `input`, `nil` for the first call after the flow is wired.
  func process(input: Input?, callback: Handler<Output>)
}

extension ChildMachine {
  /// ``MachineQueue/shared``.
  public var queue: MachineQueue { .shared }

  /// This machine with its inputs mapped from another type (see ``Machine/inward(_:)``).
  public func inward<RInput: Sendable>(
    _ mapper: @escaping @Sendable (RInput) -> Ward<Input>
  ) -> Machine<RInput, Output> { machine.inward(mapper) }

  /// This machine with its outputs mapped to another type (see ``Machine/outward(_:)``).
  public func outward<ROutput: Sendable>(
    _ mapper: @escaping @Sendable (Output) -> Ward<ROutput>
  ) -> Machine<Input, ROutput> { machine.outward(mapper) }

  /// This machine sending some of its outputs back into itself (see ``Machine/redirect(_:)``).
  public func redirect(
    _ mapper: @escaping @Sendable (Output) -> Direction<Input>
  ) -> Machine<Input, Output> { machine.redirect(mapper) }

  /// This machine as a ``Machine``.
  @inlinable
  public var machine: Machine<Input, Output> { Machine(self) }

  /// This machine as a ``Machine``.
  @inlinable
  public static prefix func ~ (operand: Self) -> Machine<Input, Output> { Machine(operand) }
}

/// A machine made of another: it forwards its inputs to its child and its child's outputs up.
public protocol ParentMachine<Input, Output>: Sendable {
  /// What the machine receives.
  associatedtype Input: Sendable
  /// What the machine emits.
  associatedtype Output: Sendable

  /// The machine that does the work.
  var child: Machine<Input, Output> { get }
}

extension ParentMachine {
  /// This machine as a ``Machine``.
  public var machine: Machine<Input, Output> { child }

  /// This machine with its inputs mapped from another type (see ``Machine/inward(_:)``).
  public func inward<RInput: Sendable>(
    _ mapper: @escaping @Sendable (RInput) -> Ward<Input>
  ) -> Machine<RInput, Output> { machine.inward(mapper) }

  /// This machine with its outputs mapped to another type (see ``Machine/outward(_:)``).
  public func outward<ROutput: Sendable>(
    _ mapper: @escaping @Sendable (Output) -> Ward<ROutput>
  ) -> Machine<Input, ROutput> { machine.outward(mapper) }

  /// This machine sending some of its outputs back into itself (see ``Machine/redirect(_:)``).
  public func redirect(
    _ mapper: @escaping @Sendable (Output) -> Direction<Input>
  ) -> Machine<Input, Output> { machine.redirect(mapper) }

  /// This machine as a ``Machine``.
  public static prefix func ~ (operand: Self) -> Machine<Input, Output> { operand.child }
}

/// A description of a machine: a ``ChildMachine``, a ``ParentMachine``, or a composition made
/// with ``inward(_:)``, ``outward(_:)``, ``redirect(_:)`` and `merge`.
///
/// A `Machine` does nothing by itself: a ``Core``'s flow (or a ``RootMachine``) wires it when it
/// starts, and a machine used in two places runs twice.
public struct Machine<Input: Sendable, Output: Sendable>: Sendable {
  @usableFromInline let build: @Sendable (Wiring<Output>) -> Node<Input>

  @inlinable
  init(build: @escaping @Sendable (Wiring<Output>) -> Node<Input>) { self.build = build }

  /// A machine that runs `child`.
  @inlinable
  public init<Child: ChildMachine>(_ child: Child)
  where Child.Input == Input, Child.Output == Output {
    build = { wiring in
      let callback = Handler(
        wiring.sink, host: wiring.host, machine: wiring.makeMachineID(),
        reader: wiring.reader)
      let node = Node<Input>(
        // Moved into the optional the child takes, not copied: a large input (a list) costs
        // a copy and a release of everything it holds otherwise.
        process: { input in child.process(input: Optional(consume input), callback: callback) },
        start: { child.process(input: nil, callback: callback) })
      switch child.queue {
      case .shared: return node
      case .new: return Node(mailbox: Mailbox(), host: wiring.host, node: node)
      case .main:
        return Node(mailbox: Mailbox(onMainActor: true), host: wiring.host, node: node)
      }
    }
  }

  /// A machine that runs `parent`'s child.
  public init<Parent: ParentMachine>(_ parent: Parent)
  where Parent.Input == Input, Parent.Output == Output {
    self = parent.child
  }

  /// This machine (simprokmachine's spelling of "as a machine").
  public var machine: Machine<Input, Output> { self }

  /// This machine.
  public static prefix func ~ (operand: Self) -> Machine<Input, Output> { operand }
}

/// How a machine sends outputs up, and starts and cancels work the flow owns.
///
/// Call it like simprokmachine's callback: `callback(.click)`. Outputs sent after the flow
/// stopped, or by work that was cancelled, are dropped.
public struct Handler<Output: Sendable>: Sendable {
  @usableFromInline let sink: Sink<Output>
  @usableFromInline let host: WeakHost
  @usableFromInline let machine: Int
  @usableFromInline let run: Run<OwnedWorkID>?
  /// The machine's input now, when its layer can tell (see ``Wiring/reader``). The flow holds
  /// it (its layer's delivery), and it is read only from the flow's drain, while the flow is
  /// there: not counted, as a handler is copied for every input a machine gets.
  @usableFromInline unowned(unsafe) let reader: InputReading?

  @usableFromInline
  init(
    _ sink: Sink<Output>, host: WeakHost, machine: Int, run: Run<OwnedWorkID>? = nil,
    reader: InputReading? = nil
  ) {
    self.sink = sink
    self.host = host
    self.machine = machine
    self.run = run
    self.reader = reader
  }

  /// Sends `output` up, to the machine's parent or layer.
  @inlinable
  public func callAsFunction(_ output: Output) { sink.send(output, run) }

  /// This handler as a plain function, simprokcore's `Handler<T> = (T) -> Void`: for code that
  /// takes a callback closure.
  public var closure: @Sendable (Output) -> Void {
    let this = self
    return { this($0) }
  }

  /// Runs `job` in the flow's order, behind what the flow is handling now, inside the flow's
  /// stop gate; never once the flow stopped (or this work was cancelled). What a machine uses to
  /// hand an observer that arrives late its first value: the observer then hears nothing after
  /// a stop, and hears its first value before any later one (SPEC R6, R11).
  @inlinable
  public func enqueue(_ job: @escaping @Sendable () -> Void) {
    host.host?.enqueue(from: run, job)
  }

  /// Whether outputs sent now still arrive: the flow runs, and this work (if it is work) was not
  /// cancelled.
  @inlinable
  public var isActive: Bool { host.host?.isLive(run) ?? false }

  /// Starts `operation` as a task of the flow. What it sends arrives only while the work is
  /// live: after it is cancelled (by id, by newer work with the same id, or by stopping the
  /// flow) it is dropped, even if the operation ignores cancellation.
  ///
  /// - Parameters:
  ///   - id: Work with the same id from the same machine is replaced: the running one is
  ///     cancelled.
  ///   - lifetime: `.finite` (the default) or `.untilCancelled`, for a timer.
  ///   - operation: The work; `send` sends outputs up.
  @inlinable
  public func run(
    id: (any Hashable & Sendable)? = nil, lifetime: WorkLifetime = .finite,
    _ operation: @escaping @Sendable (_ send: Handler<Output>) async -> Void
  ) {
    guard let host = host.host else { return }
    let this = self
    host.startRun(machine: machine, id: id.map { AnyWorkID($0) }, lifetime: lifetime) { run in
      await operation(Handler(this.sink, host: this.host, machine: this.machine, run: run))
    }
  }

  /// Cancels this machine's running work with `id`, if any, and drops what it sends later.
  @inlinable
  public func cancel(id: some Hashable & Sendable) {
    host.host?.cancelRun(machine: machine, id: AnyWorkID(id))
  }
}

/// simprokcore's spelling of a mapping function: `Mapper<AppState, UILayerState>`.
public typealias Mapper<T, R> = @Sendable (T) -> R

/// simprokcore's spelling of a function that supplies a value.
public typealias Supplier<T> = @Sendable () -> T

/// How long work started with ``Handler/run(id:lifetime:_:)`` keeps a flow busy.
public enum WorkLifetime: Sendable, Hashable {
  /// Work that ends by itself (a request): ``Flow/idle()`` waits for it.
  case finite
  /// Work that runs until cancelled (a timer): ``Flow/idle()`` does not wait for it.
  case untilCancelled
}
