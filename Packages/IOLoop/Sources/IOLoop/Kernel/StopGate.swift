// Vendored from Kernel/Runtime/StopGate.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What makes `stop()` mean stop (SPEC R6): everything a runtime *begins* — an observer call,
/// an environment call — begins inside a section of the gate, and ``stop()`` closes the gate and
/// waits for the sections open on other threads. Once it returns, no section opens any more.
///
/// A section on the thread that calls ``stop()`` (stop from inside an observer or an effect) is
/// not waited for: it cannot end while its own thread waits. Its caller checks ``isStopped``
/// before each further call, so nothing else begins once that call returns.
///
/// The thread holding sections is kept in the gate: entering and leaving cost a few atomic
/// operations while one thread at a time holds sections (the drainer, the usual case). A
/// second thread's sections are also noted in a thread-local list. The lock and the condition
/// are used only while a stop waits.
@usableFromInline
package final class StopGate: @unchecked Sendable {
  // @unchecked: `mutex` and `condition` are only used through pthread calls; `state` is atomic.

  /// Bit 0: stopped. The rest: twice the number of open sections.
  @usableFromInline let state = Atomic<Int>(0)
  /// The thread whose sections ``depth`` counts (0: none); set and cleared by that thread.
  @usableFromInline let holder = Atomic<UInt>(0)
  /// How many sections ``holder`` has open; only the holder touches it.
  @usableFromInline let depth = Atomic<Int>(0)
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>

  /// Allocates the mutex and the condition in one block: every runtime makes a gate.
  @usableFromInline
  package init() {
    let conditionOffset =
      (MemoryLayout<pthread_mutex_t>.stride + MemoryLayout<pthread_cond_t>.alignment - 1)
      / MemoryLayout<pthread_cond_t>.alignment * MemoryLayout<pthread_cond_t>.alignment
    let block = UnsafeMutableRawPointer.allocate(
      byteCount: conditionOffset + MemoryLayout<pthread_cond_t>.size,
      alignment: max(
        MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<pthread_cond_t>.alignment))
    mutex = block.bindMemory(to: pthread_mutex_t.self, capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = (block + conditionOffset).bindMemory(to: pthread_cond_t.self, capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    UnsafeMutableRawPointer(mutex).deallocate()
  }

  /// Whether ``stop()`` was called.
  @inlinable package var isStopped: Bool {
    state.load(ordering: .sequentiallyConsistent) & 1 != 0
  }

  /// Opens a section; `false` (and nothing opened) once the gate is stopped.
  @inlinable @inline(__always)
  package func enter() -> Bool {
    let before = state.wrappingAdd(2, ordering: .sequentiallyConsistent).oldValue
    guard before & 1 == 0 else { return refuse() }
    let me = currentThread()
    let current = holder.load(ordering: .relaxed)
    if current == me {
      depth.store(depth.load(ordering: .relaxed) + 1, ordering: .relaxed)
    } else if current == 0,
      holder.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged
    {
      depth.store(1, ordering: .relaxed)
    } else {
      OpenSections.push(self)
    }
    return true
  }

  /// Undoes the count of an ``enter()`` that found the gate stopped.
  @usableFromInline @inline(never)
  func refuse() -> Bool {
    release()
    return false
  }

  /// Closes the section opened by the last successful ``enter()`` on this thread.
  @inlinable @inline(__always)
  package func leave() {
    if holder.load(ordering: .relaxed) == currentThread() {
      let remaining = depth.load(ordering: .relaxed) - 1
      depth.store(remaining, ordering: .relaxed)
      if remaining == 0 { holder.store(0, ordering: .releasing) }
    } else {
      OpenSections.pop(self)
    }
    release()
  }

  /// How many sections the calling thread has open in this gate.
  func ownSections() -> Int {
    let isHolder = holder.load(ordering: .relaxed) == currentThread()
    let held = isHolder ? depth.load(ordering: .relaxed) : 0
    return held + OpenSections.count(of: self)
  }

  @inlinable @inline(__always)
  func release() {
    let after = state.wrappingSubtract(2, ordering: .sequentiallyConsistent).newValue
    if after & 1 != 0 { wakeStopper() }
  }

  @usableFromInline @inline(never)
  func wakeStopper() {
    pthread_mutex_lock(mutex)
    pthread_cond_broadcast(condition)
    pthread_mutex_unlock(mutex)
  }

  /// Runs `body` inside a section; `nil` without running it once the gate is stopped.
  @inlinable
  package func ifOpen<Result>(_ body: () throws -> Result) rethrows -> Result? {
    guard enter() else { return nil }
    defer { leave() }
    return try body()
  }

  /// Calls `operation` inside a section until its first suspension, then lets the section go
  /// and waits for the result: an environment call the operation makes first either begins
  /// before ``stop()`` returns or not at all (`CancellationError`). Cancelling the caller
  /// cancels the operation.
  ///
  /// Before the OS releases that start tasks at once (macOS 26 and its siblings), the
  /// operation starts on its own task after the check, which leaves a short window.
  ///
  /// - Parameter executor: Where the operation goes on after its first suspension: the
  ///   effect's own executor preference.
  package func call<Result: Sendable>(
    on executor: (any TaskExecutor)?, _ operation: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
      guard !Task.isCancelled, enter() else { throw CancellationError() }
      let task = Task.immediate(executorPreference: executor) { try await operation() }
      leave()
      return try await withTaskCancellationHandler {
        try await task.value
      } onCancel: {
        task.cancel()
      }
    } else {
      guard !Task.isCancelled, !isStopped else { throw CancellationError() }
      return try await operation()
    }
  }

  /// Closes the gate for good and returns once every section open on another thread has
  /// ended. Idempotent; callable from any thread, also from inside a section.
  @usableFromInline
  package func stop() {
    state.bitwiseOr(1, ordering: .sequentiallyConsistent)
    let own = ownSections()
    pthread_mutex_lock(mutex)
    while state.load(ordering: .sequentiallyConsistent) >> 1 > own {
      pthread_cond_wait(condition, mutex)
    }
    pthread_mutex_unlock(mutex)
  }
}

/// The calling thread's id.
@inlinable @inline(__always)
func currentThread() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}

/// The sections open on the current thread, innermost last: how ``StopGate/stop()`` knows which
/// sections are its own caller's.
///
/// A per-thread buffer of words: the count, then the gates' addresses. Pushing and popping cost
/// a thread-local read and a few stores; a Swift array cost several times more on every
/// delivery. Sections nested deeper than ``capacity`` on one thread are counted but not named:
/// a stop from that deep inside its own sections would wait for itself.
@usableFromInline
enum OpenSections {
  @usableFromInline static let capacity = 64

  @usableFromInline static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in
      #if canImport(Darwin)
        let pointer: UnsafeMutableRawPointer = pointer
      #else
        guard let pointer else { return }
      #endif
      pointer.deallocate()
    }
    return key
  }()

  /// This thread's buffer, made on first use.
  @inlinable
  static var buffer: UnsafeMutablePointer<UInt> {
    if let existing = pthread_getspecific(key) {
      return existing.assumingMemoryBound(to: UInt.self)
    }
    return makeBuffer()
  }

  @usableFromInline @inline(never)
  static func makeBuffer() -> UnsafeMutablePointer<UInt> {
    let buffer = UnsafeMutablePointer<UInt>.allocate(capacity: capacity + 1)
    buffer.initialize(repeating: 0, count: capacity + 1)
    pthread_setspecific(key, buffer)
    return buffer
  }

  @usableFromInline @inline(never)
  static func push(_ gate: StopGate) {
    let buffer = buffer
    let count = Int(buffer[0])
    if count < capacity { buffer[1 + count] = UInt(bitPattern: ObjectIdentifier(gate)) }
    buffer[0] = UInt(count + 1)
  }

  @usableFromInline @inline(never)
  static func pop(_ gate: StopGate) {
    let buffer = buffer
    let count = Int(buffer[0])
    guard count > 0 else { return }
    let id = UInt(bitPattern: ObjectIdentifier(gate))
    if count <= capacity, buffer[count] != id {
      // Not the innermost (sections closed out of order): remove the last one of `gate`.
      var index = count
      while index > 0, buffer[index] != id { index -= 1 }
      if index > 0 {
        while index < count {
          buffer[index] = buffer[index + 1]
          index += 1
        }
      }
    }
    buffer[0] = UInt(count - 1)
  }

  static func count(of gate: StopGate) -> Int {
    let buffer = buffer
    let id = UInt(bitPattern: ObjectIdentifier(gate))
    let named = min(Int(buffer[0]), capacity)
    var own = 0
    for index in stride(from: 1, through: named, by: 1) where buffer[index] == id { own += 1 }
    return own
  }
}

extension StopGate {
  /// The runtime whose effect runs on a task: its gate and its effects' executor.
  package struct Scope: Sendable {
    package let gate: StopGate
    package let executor: (any TaskExecutor)?

    package init(_ gate: StopGate, executor: (any TaskExecutor)?) {
      self.gate = gate
      self.executor = executor
    }
  }

  /// The runtime whose effect runs on this task, for ``WhileRunning``.
  @TaskLocal package static var current: Scope?

  /// Starts an effect's task (see ``startEffectTask(on:_:)``) with this gate as its runtime's
  /// (see ``WhileRunning``) for all of the task: bound while the task is made, which the task
  /// inherits. Bound inside the task instead (an async `withValue` around the work), it cost
  /// two async frames, a copy of the scope and two executor checks per run: about 2,300
  /// instructions for each load or save a screen starts.
  @usableFromInline
  package func startTask(
    on executor: (any TaskExecutor)?,
    _ operation: @escaping @isolated(any) @Sendable () async throws(Never) -> Void
  ) -> Task<Void, Never> {
    Self.$current.withValue(Scope(self, executor: executor)) {
      startEffectTask(on: executor, operation)
    }
  }
}

/// Work an effect must not begin once its runtime has stopped (SPEC R6): a save, a log line.
///
/// An effect's code runs on a task of its own, so between checking that the runtime still runs
/// and calling the environment, `stop()` may return on another thread. These calls close that
/// window: the work either begins before `stop()` returns (which waits for it), or never.
/// Outside an effect they simply run the work.
///
/// ```swift
/// try await WhileRunning.call { try await storage.save(count) }
/// WhileRunning.perform { log.log("saved \(count)") }
/// ```
///
/// A cancellable request (a load, a search) needs neither: after `stop()` it begins already
/// cancelled and ends at once.
public enum WhileRunning {
  /// Calls `body` unless the effect's runtime has stopped.
  ///
  /// - Returns: What `body` returned, or `nil` when the runtime has stopped.
  @discardableResult
  public static func perform<Result>(_ body: () throws -> Result) rethrows -> Result? {
    guard let gate = StopGate.current?.gate else { return try body() }
    guard gate.enter() else { return nil }
    defer { gate.leave() }
    return try body()
  }

  /// Calls `operation` unless the effect's runtime has stopped: it begins before a concurrent
  /// `stop()` returns, or not at all.
  ///
  /// - Throws: `CancellationError` when the runtime has stopped (or the task is cancelled), or
  ///   what `operation` throws.
  public static func call<Result: Sendable>(
    _ operation: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    guard let scope = StopGate.current else { return try await operation() }
    return try await scope.gate.call(on: scope.executor, operation)
  }
}
