import Kernel

/// What keeps `stop()`'s promise in a runtime of your own (SPEC R6): once ``stop()`` returns,
/// nothing that went through the gate begins any more.
///
/// An effect runs on a task of its own. Between checking "still running" and calling the
/// environment, `stop()` may run to its end on another thread; the save or the log line then
/// begins after stop, and a check alone cannot close that window. The gate does: work passed
/// through it begins inside a section of the gate, and ``stop()`` closes the gate and waits for
/// the sections open on other threads. The work either begins before `stop()` returns, or never.
///
/// ```swift
/// let gate = RunGate()
///
/// // In an effect:
/// try await gate.call { try await storage.save(count) }
/// gate.ifRunning { log.log("count: \(count)") }
/// gate.ifRunning { observer(view) }
///
/// // In the runtime's stop() and deinit:
/// gate.stop()
/// ```
///
/// A cancellable request (a load, a search) needs no gate: after `stop()` cancels its task it
/// may still reach the environment, already cancelled, and end at once. The conformance kit's
/// race probe (``Conformance/Options/stressTries``) fails R6 for work that began after stop.
///
/// Entering and leaving a section cost a few atomic operations; the gate locks only while a
/// stop waits. Sections nest, also across gates, and a stop called from inside a section (an
/// observer that stops the runtime) does not wait for its own thread.
public final class RunGate: Sendable {
  private let gate = StopGate()

  public init() {}

  /// Whether ``stop()`` was called.
  public var isStopped: Bool { gate.isStopped }

  /// Runs `body` inside a section, unless the gate is stopped.
  ///
  /// - Returns: What `body` returned, or `nil` without running it once the gate is stopped.
  @discardableResult
  public func ifRunning<Result>(_ body: () throws -> Result) rethrows -> Result? {
    try gate.ifOpen(body)
  }

  /// Calls `operation` so that it begins inside a section: before a concurrent ``stop()``
  /// returns, or not at all. The section ends at the operation's first suspension, so a long
  /// save does not hold up a stop; what the operation does first is what counts as beginning.
  ///
  /// - Parameter executor: Where the operation goes on after its first suspension (the task
  ///   executor your effects prefer, if any).
  /// - Throws: `CancellationError` when the gate is stopped or the calling task is cancelled,
  ///   or what `operation` throws.
  public func call<Result: Sendable>(
    on executor: (any TaskExecutor)? = nil,
    _ operation: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    try await gate.call(on: executor, operation)
  }

  /// Closes the gate for good and returns once every section open on another thread has ended.
  /// Idempotent, callable from any thread, also from inside a section.
  public func stop() { gate.stop() }
}
