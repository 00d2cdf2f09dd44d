import Testing

@testable import KernelTesting

@Suite struct LineDiffBehaviour {
  struct Row: Equatable {
    var title: String
    var done: Bool
  }

  @Test func equalValuesHaveNoDiff() {
    #expect(
      lineDiff(expected: Row(title: "a", done: false), actual: Row(title: "a", done: false)) == "")
  }

  @Test func oneChangedFieldIsOnePairOfLines() {
    let diff = lineDiff(expected: Row(title: "a", done: true), actual: Row(title: "a", done: false))
    let lines = diff.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.hasPrefix("− ") } == ["−   - done: true"])
    #expect(lines.filter { $0.hasPrefix("+ ") } == ["+   - done: false"])
    #expect(lines.contains("    - title: \"a\""))
  }
}

@Suite struct FailureReporting {
  @Test func aFailureInASwiftTestingTestIsAnIssueAtTheCallersLine() {
    let line: UInt = #line + 3
    withKnownIssue {
      reportFailure(
        "expected 2, got 1",
        at: CallSite(fileID: #fileID, filePath: #filePath, line: line, column: 7))
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["expected 2, got 1"]
        && issue.sourceLocation?.line == Int(line) && issue.sourceLocation?.column == 7
        && issue.sourceLocation?.fileID == "\(#fileID)"
    }
  }

  @Test func thisRunIsNotAnXCTestRun() {
    #expect(!TestRun.isXCTest)
  }
}

@Suite struct TestExecutorBehaviour {
  @Test func quiescenceWaitsForEveryJob() async {
    let executor = TestExecutor.acquire()
    defer { executor.release() }
    let counter = Counter()
    for _ in 0..<100 {
      Task(executorPreference: executor) {
        await Task.yield()
        counter.increment()
      }
    }
    await executor.quiescence()
    #expect(counter.value == 100)
  }

  @Test func aReleasedExecutorIsReused() {
    let executor = TestExecutor.acquire()
    executor.release()
    let again = TestExecutor.acquire()
    defer { again.release() }
    #expect(executor === again)
  }
}

/// A count that only the executor's thread changes.
final class Counter: @unchecked Sendable {
  // @unchecked: incremented only by jobs of one serial executor; read after its quiescence.
  private(set) var value = 0
  func increment() { value += 1 }
}
