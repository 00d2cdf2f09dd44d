import IOLoop

extension Stepper {
  /// Runs one step that should dismiss the child presented at `path` (a sheet's form), and
  /// checks that the step returned the output that ends its work — `ProgramsIO.Output.removed(_:)`
  /// of its presentation — since nothing happens that a step does not return. Fails at the
  /// caller's line when nothing was presented, when the child is still presented, or when the
  /// output is missing.
  ///
  /// ```swift
  /// app.step(IOContacts.Input(.form(.cancel), nil, nil), dismissing: \.form)
  /// ```
  @discardableResult
  public mutating func step<Child: PureApp>(
    _ input: App.Input, dismissing path: KeyPath<App, Presentation<Child>>,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) -> (App, App.Outputs) {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let before = state?[keyPath: path]
    let (next, outputs) = step(
      input, fileID: fileID, filePath: filePath, line: line, column: column)
    guard let before, before.isPresented else {
      reportFailure(
        "step \(steps - 1): nothing was presented at\(readable(path)) to dismiss",
        at: sourceLocation)
      return (next, outputs)
    }
    var failures: [String] = []
    let after = next[keyPath: path]
    if after.isPresented, after.number == before.number {
      failures.append("the child at\(readable(path)) is still presented")
    }
    if !removals(of: ProgramsIO<Int, Child>.self, in: outputs).contains(before.number) {
      failures.append(
        "no output ends presentation \(before.number)'s work: its `create`, its timers go on "
          + "(expected .removed(\(before.number)); return what `dismiss()` returns)")
    }
    if !failures.isEmpty {
      reportFailure(
        (["step \(steps - 1) (\(describe(input))):"] + failures).joined(separator: "\n"),
        at: sourceLocation)
    }
    return (next, outputs)
  }

  /// Runs one step that should remove the children `ids` of the list at `path` (screens of a
  /// stack), and checks that it returned the output that ends each one's work. Fails at the
  /// caller's line when a child is still in the list or its output is missing.
  @discardableResult
  public mutating func step<ID: Hashable & Sendable, Child: PureApp>(
    _ input: App.Input, dismissing ids: [ID], from path: KeyPath<App, IdentifiedList<ID, Child>>,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) -> (App, App.Outputs) {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let (next, outputs) = step(
      input, fileID: fileID, filePath: filePath, line: line, column: column)
    let removed = Set(removals(of: ProgramsIO<ID, Child>.self, in: outputs))
    var failures: [String] = []
    for id in ids {
      if next[keyPath: path].contains(id: id) {
        failures.append("\(id) is still in\(readable(path))")
      } else if !removed.contains(id) {
        failures.append("no output ends \(id)'s work (expected .removed(\(id)))")
      }
    }
    if !failures.isEmpty {
      reportFailure(
        (["step \(steps - 1) (\(describe(input))):"] + failures).joined(separator: "\n"),
        at: sourceLocation)
    }
    return (next, outputs)
  }

  /// The ids `outputs` removes through its lists of `IO`'s outputs.
  private func removals<ID: Hashable & Sendable, Child: PureApp>(
    of _: ProgramsIO<ID, Child>.Type, in outputs: App.Outputs
  ) -> [ID] {
    guard let values = Mirror(reflecting: outputs).children.first?.value else { return [] }
    // One IO type's outputs are its list itself; several are a tuple of lists.
    let lists =
      values is [ProgramsIO<ID, Child>.Output]
      ? [values] : Mirror(reflecting: values).children.map(\.value)
    var ids: [ID] = []
    for list in lists {
      guard let outputs = list as? [ProgramsIO<ID, Child>.Output] else { continue }
      for output in outputs { if case .removed(let id) = output { ids.append(id) } }
    }
    return ids
  }
}
