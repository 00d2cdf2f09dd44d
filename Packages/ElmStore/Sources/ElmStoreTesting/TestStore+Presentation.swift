import ElmStore

extension TestStore {
  /// Sends `action`, asserts the state change it makes (as
  /// ``send(_:assert:fileID:filePath:line:column:)`` does), and asserts that it dismissed the
  /// child at `path` — a presented form (`\.addForm`), a screen of a stack
  /// (`\.stack[id: 3]`) — and ended its work: every run that began in an action that changed
  /// that child and was still going is cancelled. Fails at the caller's line when nothing was
  /// presented at `path`, when the child is still there, or when its work goes on;
  /// ``endedByLastDismissal`` lists the work it ended.
  ///
  /// ```swift
  /// await store.send(.form(.intent(.save))) { $0.form?.isSaving = true }
  /// await store.send(.form(.intent(.cancel)), dismissing: \.form) { $0.form = nil }
  /// #expect(store.endedByLastDismissal == ["\\State.form #1 › create"])
  /// ```
  public func send<Child: Equatable>(
    _ action: Action, dismissing path: KeyPath<State, Child?>,
    assert updateExpectingResult: ((inout State) -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    endedByLastDismissal = []
    await settle()
    guard state[keyPath: path] != nil else {
      fail("Nothing is presented at \(path) to dismiss.", sourceLocation: sourceLocation)
      return
    }
    // The child's work: runs begun in actions that changed it, still going now.
    let work = history.filter { $0.before[keyPath: path] != $0.after[keyPath: path] }
      .flatMap(\.started).filter { isRunning($0.run) }
    await send(
      action, assert: updateExpectingResult, fileID: fileID, filePath: filePath, line: line,
      column: column)
    if state[keyPath: path] != nil {
      fail("\(action) did not dismiss the child at \(path).", sourceLocation: sourceLocation)
    }
    let goingOn = work.filter { isRunning($0.run) }
    endedByLastDismissal = work.filter { !isRunning($0.run) }.map(\.description)
    guard goingOn.isEmpty else {
      fail(
        "Dismissing the child at \(path) left its work running:\n"
          + goingOn.map { "  \($0.description)" }.joined(separator: "\n")
          + "\nLift the child's effect with lifted(ifLet:action:) or lifted(forEach:action:), "
          + "or cancel this work when the child is dismissed.",
        sourceLocation: sourceLocation)
      return
    }
  }
}
