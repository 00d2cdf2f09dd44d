import ElmStore

extension TestStore {
  /// Sends a child's action through its scope and asserts the change to that child only:
  /// `send(.row(1, .toggle), child: \.rows[id: 1]) { $0?.done = true }`. Exhaustive as
  /// ``send(_:assert:fileID:filePath:line:column:)``: a change anywhere else in the state fails the test.
  ///
  /// - Parameters:
  ///   - action: The parent's action that carries the child's.
  ///   - path: Where the child lives in the state (a row: `\.rows[id: 1]`).
  ///   - updateExpectingResult: Sets the child's fields the action is expected to change.
  ///   - fileID: Where the failure is reported: the caller's file (default).
  ///   - filePath: The caller's file path, for XCTest (default).
  ///   - line: The caller's line (default).
  ///   - column: The caller's column (default).
  public func send<Child>(
    _ action: Action, child path: WritableKeyPath<State, Child>,
    assert updateExpectingResult: @escaping (inout Child) -> Void,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    await send(
      action, assert: { updateExpectingResult(&$0[keyPath: path]) },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that an effect dispatched `action` and the change it made to one child only.
  public func receive<Child>(
    _ action: Action, child path: WritableKeyPath<State, Child>,
    assert updateExpectingResult: @escaping (inout Child) -> Void,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      action, assert: { updateExpectingResult(&$0[keyPath: path]) },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension TestStore {
  /// Asserts that an effect dispatches `action` within `limit` of virtual time: advances the
  /// test's clock in steps of `step` until the action arrives or the limit is reached, then
  /// asserts as ``receive(_:assert:fileID:filePath:line:column:)`` does. It never hangs, and never sleeps.
  ///
  /// ```swift
  /// await store.send(.intent(.start)) { $0.isRunning = true }
  /// await store.receive(.tick, within: .milliseconds(100), advancing: clock.advance(by:)) {
  ///   $0.tenths = 1
  /// }
  /// ```
  public func receive(
    _ action: Action, within limit: Duration,
    advancing advance: (Duration) -> Void, step: Duration = .milliseconds(1),
    assert updateExpectingResult: ((inout State) -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    var waited = Duration.zero
    while await !hasReceived(action), waited < limit {
      advance(step)
      waited += step
    }
    await receive(
      action, assert: updateExpectingResult, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }
}
