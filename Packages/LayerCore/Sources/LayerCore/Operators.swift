/// The values a mapping yields: none drops the item, several fan it out, in order.
///
/// ```swift
/// machine.inward { (text: String) in text.isEmpty ? .set() : .set(text) }
/// ```
public struct Ward<T: Sendable>: Sendable {
  /// The values, in order.
  public let values: [T]

  @usableFromInline init(values: [T]) { self.values = values }

  /// A ward of `values`; `.set()` yields nothing.
  @inlinable
  public static func set(_ values: T...) -> Ward<T> { Ward(values: values) }

  /// A ward of `values`.
  @inlinable
  public static func set(_ values: [T]) -> Ward<T> { Ward(values: values) }
}

/// Where ``Machine/redirect(_:)`` sends one of a machine's outputs.
public enum Direction<Input: Sendable>: Sendable {
  /// Up, to the machine's parent, unchanged.
  case prop
  /// Back into the machine as these inputs, instead of up.
  case back([Input])

  /// Back into the machine as these inputs, instead of up.
  public static func back(_ values: Input...) -> Direction<Input> { .back(values) }
}

extension Machine {
  /// A machine whose inputs are mapped into this one's: each input becomes the ward's values,
  /// in order.
  public func inward<RInput: Sendable>(
    _ mapper: @escaping @Sendable (RInput) -> Ward<Input>
  ) -> Machine<RInput, Output> {
    let build = self.build
    return Machine<RInput, Output> { wiring in
      let child = build(wiring)
      return Node(
        process: { input in for value in mapper(input).values { child.process(value) } },
        start: child.start)
    }
  }

  /// A machine whose outputs are mapped from this one's: each output becomes the ward's values,
  /// in order.
  public func outward<ROutput: Sendable>(
    _ mapper: @escaping @Sendable (Output) -> Ward<ROutput>
  ) -> Machine<Input, ROutput> {
    let build = self.build
    return Machine<Input, ROutput> { wiring in
      let up = wiring.sink
      return build(
        wiring.sending(
          Sink { output, run in for value in mapper(output).values { up.send(value, run) } }))
    }
  }

  /// A machine that sends some of its outputs back into itself: ``Direction/back(_:)-swift.type.method``
  /// inputs are queued behind what the flow is handling, never processed inside the callback.
  public func redirect(_ mapper: @escaping @Sendable (Output) -> Direction<Input>) -> Machine<
    Input, Output
  > {
    let build = self.build
    return Machine { wiring in
      let up = wiring.sink
      let host = wiring.host
      let target = NodeReference<Input>()
      let node = build(
        wiring.sending(
          Sink { output, run in
            switch mapper(output) {
            case .prop: up.send(output, run)
            case .back(let inputs):
              host.host?.enqueue(from: run) {
                guard let node = target.node else { return }
                for input in inputs { node.process(input) }
              }
            }
          }))
      target.node = node
      return node
    }
  }

  /// A machine that sends every input to each of `machines`, in order, and every output of
  /// theirs up.
  public static func merge(_ machines: [Machine<Input, Output>]) -> Machine<Input, Output> {
    Machine { wiring in
      let nodes = machines.map { $0.build(wiring) }
      return Node(
        process: { input in for node in nodes { node.process(input) } },
        start: { for node in nodes { node.start() } })
    }
  }

  /// A machine that sends every input to each of `machines`, in order, and every output of
  /// theirs up.
  public static func merge(_ machines: Machine<Input, Output>...) -> Machine<Input, Output> {
    merge(machines)
  }
}

/// A machine that sends every input to each of `machines`, in order, and every output of theirs
/// up.
public func merge<Input: Sendable, Output: Sendable>(
  _ machines: [Machine<Input, Output>]
) -> Machine<Input, Output> {
  Machine.merge(machines)
}

/// A machine that sends every input to each of `machines`, in order, and every output of theirs
/// up.
public func merge<Input: Sendable, Output: Sendable>(
  _ machines: Machine<Input, Output>...
) -> Machine<Input, Output> {
  Machine.merge(machines)
}
