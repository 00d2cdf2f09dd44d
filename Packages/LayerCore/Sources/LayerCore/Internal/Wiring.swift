import Synchronization

/// Where a wired machine's outputs go, with the work that sent them (`nil` from `process`).
@usableFromInline
struct Sink<Output>: Sendable {
  @usableFromInline let body: @Sendable (Output, Run<OwnedWorkID>?) -> Void

  @inlinable
  init(_ body: @escaping @Sendable (Output, Run<OwnedWorkID>?) -> Void) { self.body = body }

  @inlinable
  func send(_ output: Output, _ run: Run<OwnedWorkID>?) { body(output, run) }
}

/// A wired machine: what its parent calls.
@usableFromInline
struct Node<Input>: Sendable {
  /// Processes one input.
  @usableFromInline let process: @Sendable (consuming Input) -> Void
  /// Delivers the first `process(nil)` to every child machine below.
  @usableFromInline let start: @Sendable () -> Void

  @inlinable
  init(
    process: @escaping @Sendable (consuming Input) -> Void, start: @escaping @Sendable () -> Void
  ) {
    self.process = process
    self.start = start
  }
}

extension Node where Input: Sendable {
  /// A node whose calls to `node` wait in `mailbox` and run as the flow's work, one at a time.
  @inlinable
  init(mailbox: Mailbox, host: WeakHost, node: Node<Input>) {
    let (process, start) = (node.process, node.start)
    self.process = { input in mailbox.post({ process(input) }, host: host) }
    self.start = { mailbox.post(start, host: host) }
  }
}

/// What a machine is wired with: where its outputs go, and the flow.
@usableFromInline
struct Wiring<Output> {
  @usableFromInline let sink: Sink<Output>
  @usableFromInline let host: WeakHost
  let ids: MachineIDs
  /// Reads the input the machine would get now (the flow's state, mapped by the machine's
  /// layer), for a machine that looks at it only now and then instead of keeping the last one;
  /// `nil` where the machine is not a layer's own (inside a composition).
  @usableFromInline let reader: InputReading?

  @usableFromInline
  init(sink: Sink<Output>, host: WeakHost, ids: MachineIDs, reader: InputReading? = nil) {
    self.sink = sink
    self.host = host
    self.ids = ids
    self.reader = reader
  }

  /// The same wiring with outputs going to `sink`.
  func sending<Other>(_ sink: Sink<Other>) -> Wiring<Other> {
    Wiring<Other>(sink: sink, host: host, ids: ids)
  }

  /// A new id for a child machine, naming its work.
  @usableFromInline
  func makeMachineID() -> Int { ids.next() }
}

/// Numbers the child machines of one flow: while it is wired, and later for the machines of
/// list elements that join.
@usableFromInline
final class MachineIDs: Sendable {
  @usableFromInline let last = Atomic(0)

  @inlinable init() {}

  /// A new id.
  @inlinable
  func next() -> Int { last.add(1, ordering: .relaxed).newValue }

  /// The last id handed out.
  @inlinable var peek: Int { last.load(ordering: .relaxed) }
}
