/// What a testing tool sees of a flow's layers: each input a layer's machine gets (after the
/// layer's mapper) and each event a layer emits (after its event mapper), by layer index.
@usableFromInline
package struct FlowMonitor<Event>: Sendable {
  @usableFromInline package var received: @Sendable (_ layer: Int, _ input: any Sendable) -> Void
  @usableFromInline package var emitted: @Sendable (_ layer: Int, _ event: Event) -> Void
  /// What happens to each child of a layer that has children.
  @usableFromInline package var children: ChildMonitor?
  /// Work a machine started: its run's token, the machine and the work's id (`nil`: none).
  @usableFromInline package var started:
    (@Sendable (_ run: Int, _ machine: Int, _ id: AnyWorkID?) -> Void)?

  package init(
    received: @escaping @Sendable (Int, any Sendable) -> Void,
    emitted: @escaping @Sendable (Int, Event) -> Void,
    children: ChildMonitor? = nil,
    started: (@Sendable (Int, Int, AnyWorkID?) -> Void)? = nil
  ) {
    self.received = received
    self.emitted = emitted
    self.children = children
    self.started = started
  }
}

/// What a testing tool sees of the children of the layers that have them — a presented layer's
/// presentations, a `forEach` layer's rows — by layer index and child: a row by its id, a
/// presentation by its number (the first is 1).
@usableFromInline
package struct ChildMonitor: Sendable {
  /// A child's machine was made; its work is filed under `machines` (`nil`: it has none).
  @usableFromInline package var presented:
    @Sendable (_ layer: Int, _ child: AnyWorkID, _ machines: ClosedRange<Int>?) -> Void
  /// A child's machine got `input`.
  @usableFromInline package var received:
    @Sendable (_ layer: Int, _ child: AnyWorkID, _ input: any Sendable) -> Void
  /// A child's machine sent `output`, in its own type (before the layer maps it to an event).
  @usableFromInline package var emitted:
    @Sendable (_ layer: Int, _ child: AnyWorkID, _ output: any Sendable) -> Void
  /// A child was dismissed: its machine dropped, its work cancelled.
  @usableFromInline package var dismissed: @Sendable (_ layer: Int, _ child: AnyWorkID) -> Void

  package init(
    presented: @escaping @Sendable (Int, AnyWorkID, ClosedRange<Int>?) -> Void,
    received: @escaping @Sendable (Int, AnyWorkID, any Sendable) -> Void,
    emitted: @escaping @Sendable (Int, AnyWorkID, any Sendable) -> Void,
    dismissed: @escaping @Sendable (Int, AnyWorkID) -> Void
  ) {
    self.presented = presented
    self.received = received
    self.emitted = emitted
    self.dismissed = dismissed
  }

  /// This monitor for the children of layer `layer`.
  @usableFromInline
  func tap(layer: Int) -> ChildTap {
    ChildTap(
      presented: { presented(layer, $0, $1) }, received: { received(layer, $0, $1) },
      emitted: { emitted(layer, $0, $1) }, dismissed: { dismissed(layer, $0) })
  }
}

/// A ``ChildMonitor`` bound to one layer: what a layer with children tells about them.
@usableFromInline
struct ChildTap: Sendable {
  @usableFromInline let presented: @Sendable (AnyWorkID, ClosedRange<Int>?) -> Void
  @usableFromInline let received: @Sendable (AnyWorkID, any Sendable) -> Void
  @usableFromInline let emitted: @Sendable (AnyWorkID, any Sendable) -> Void
  @usableFromInline let dismissed: @Sendable (AnyWorkID) -> Void

  @usableFromInline
  init(
    presented: @escaping @Sendable (AnyWorkID, ClosedRange<Int>?) -> Void,
    received: @escaping @Sendable (AnyWorkID, any Sendable) -> Void,
    emitted: @escaping @Sendable (AnyWorkID, any Sendable) -> Void,
    dismissed: @escaping @Sendable (AnyWorkID) -> Void
  ) {
    self.presented = presented
    self.received = received
    self.emitted = emitted
    self.dismissed = dismissed
  }

  /// `sink`, telling this tap first what child `child` sends while it still arrives (not
  /// what the work of a dismissed child sends late, which the flow drops).
  @usableFromInline
  func sink<Output: Sendable>(
    _ sink: Sink<Output>, of child: AnyWorkID, host: WeakHost
  ) -> Sink<Output> {
    let emitted = self.emitted
    return Sink { output, run in
      if host.host?.isLive(run) ?? false { emitted(child, output) }
      sink.send(output, run)
    }
  }
}
