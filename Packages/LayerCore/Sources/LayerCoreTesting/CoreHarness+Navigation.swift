import LayerCore

/// One child of a layer that has children: a row of a `forEach` layer, named by its id, or a
/// presentation of a presented layer, named by its number (the first is 1, the next
/// presentation 2, …).
public struct LayerChild: Hashable, Sendable, CustomStringConvertible {
  /// The layer's index in `Core.layers`.
  public let layer: Int
  let id: AnyWorkID

  /// Child `id` of layer `layer`: a row's id, or a presentation's number.
  public init(layer: Int, _ id: some Hashable & Sendable) {
    self.init(layer: layer, id: AnyWorkID(id))
  }

  init(layer: Int, id: AnyWorkID) {
    self.layer = layer
    self.id = id
  }

  public var description: String { "layer \(layer) · \(id)" }
}

extension CoreHarness {
  /// Checks the inputs the machine of one child of layer `layer` got since the last check of
  /// that child: a row of a `forEach` layer by its id, a presentation of a presented layer by
  /// its number (the first is 1).
  ///
  /// ```swift
  /// await harness.send(.open(contactID: 2))
  /// harness.expect(layer: 2, child: 4, received: [ScreenInput(contact: bea, status: .loading)])
  /// ```
  public func expect<Input: Equatable & Sendable>(
    layer: Int, child id: some Hashable & Sendable, received expected: [Input],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let child = LayerChild(layer: layer, id)
    guard let received = record.takeReceived(by: child) else {
      return report([neverPresented(child)], sourceLocation)
    }
    let failure = difference(of: received, from: expected, receivedBy: "\(child)")
    report(failure.map { [$0] } ?? [], sourceLocation)
  }

  /// Checks what the machine of one child of layer `layer` sent since the last check of that
  /// child, in the child's own output type (before the layer made events of it).
  public func expect<Output: Equatable & Sendable>(
    layer: Int, child id: some Hashable & Sendable, emitted expected: [Output],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let child = LayerChild(layer: layer, id)
    guard let emitted = record.takeEmitted(by: child) else {
      return report([neverPresented(child)], sourceLocation)
    }
    let typed = emitted.compactMap { $0 as? Output }
    guard typed.count != emitted.count || typed != expected else { return }
    report(
      ["\(child) emitted:\n  expected: \(list(expected))\n  actual:   \(list(emitted))"],
      sourceLocation)
  }

  /// Sends `event` (settling after it, as ``send(_:)`` does) and checks that it dismissed the
  /// child at `path` — a presented form (`\.form`), a screen of a stack (`\.stack[id: 3]`) —
  /// and ended its work. The child's work is every piece of work still going that its own
  /// machines started (a child of a presented or `forEach` layer), or that another layer's
  /// machine started in a step that changed the child, unless a child still shown started it.
  /// Fails at the caller's line when nothing was presented at `path`, when the child is still
  /// there, or when some of its work goes on; ``endedByLastDismissal`` lists the work it ended.
  ///
  /// ```swift
  /// await harness.send(.form(.save))
  /// await harness.send(.form(.cancel), dismissing: \.form)
  /// #expect(harness.endedByLastDismissal == ["layer 1 · 1 › create"])
  /// ```
  public func send<Child: Equatable>(
    _ event: C.Event, dismissing path: KeyPath<C.State, Child?>,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    record.endedByLastDismissal = []
    await settle()
    guard let before = state, before[keyPath: path] != nil else {
      return report(["nothing is presented at \(path) to dismiss"], sourceLocation)
    }
    // The steps that changed the child (its presentation among them).
    let changedIt = Set(
      steps.enumerated().compactMap { index, step -> Int? in
        guard step.event != nil, let after = step.state else { return nil }
        return step.before?[keyPath: path] != after[keyPath: path] ? index : nil
      })
    // The work going before the event, each with the child that started it, if one did.
    let going = record.work.filter { flow.isRunning($0.run) }.map {
      (work: $0, owner: record.owner(of: $0.machine))
    }
    await send(event)
    if let after = state, after[keyPath: path] != nil {
      report(["\(event) did not dismiss the child at \(path)"], sourceLocation)
    }
    let childs: [(run: Int, name: String)] = going.compactMap { work, owner in
      let name = work.id ?? "work without an id"
      guard let (child, shown) = owner else {
        return changedIt.contains(work.step) ? (work.run, name) : nil
      }
      // A child's work is this child's if this event dismissed it.
      let isShown = record.owner(of: work.machine)?.1.isPresented ?? false
      return shown.isPresented && !isShown ? (work.run, "\(child) › \(name)") : nil
    }
    let goingOn = childs.filter { flow.isRunning($0.run) }.map(\.name)
    record.endedByLastDismissal = childs.filter { !flow.isRunning($0.run) }.map(\.name)
    guard !goingOn.isEmpty else { return }
    report(
      [
        "dismissing the child at \(path) left its work running:\n"
          + goingOn.map { "  \($0)" }.joined(separator: "\n")
          + "\nGive the child a layer of its own with Layer.presented(_:machine:event:) or "
          + "Layer.forEach(_:machine:event:), whose machines' work ends with the child, or "
          + "cancel this work when the child goes."
      ], sourceLocation)
  }

  /// The work the last ``send(_:dismissing:fileID:filePath:line:column:)`` ended, as each
  /// child names it (`layer 1 · 1 › create`), or by its id alone for work of a layer's own
  /// machine.
  public var endedByLastDismissal: [String] { record.endedByLastDismissal }

  private func neverPresented(_ child: LayerChild) -> String {
    "\(child) was never presented: name a row by its id, a presentation by its number (the "
      + "first is 1), and the layer by its index in Core.layers"
  }
}
