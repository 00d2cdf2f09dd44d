/// The imperative side of one ``IOType``: turns the app's outputs into work, and results into
/// inputs.
///
/// ```swift
/// struct StorageHandler: IOHandler {
///   typealias IO = StorageIO
///   let storage: any CounterStorage
///
///   func handle(_ output: StorageIO.Output, context: IOContext<StorageIO>) {
///     switch output {
///     case .save(let count):
///       context.run { send in
///         do { try await storage.save(count); send(.saved(count)) } catch { send(.saveFailed) }
///       }
///     }
///   }
/// }
/// ```
///
/// `handle` is called for one output at a time, in the order the app produced them, never
/// concurrently with another `handle` of the same program. Keep it short: start anything that
/// waits with ``IOContext/run(id:lifetime:_:)``.
public protocol IOHandler<IO>: Sendable {
  /// The IO type this handler serves.
  associatedtype IO: IOType

  /// Handles one output.
  func handle(_ output: IO.Output, context: IOContext<IO>)
}

/// How long a handler's work keeps a program alive.
public enum IOLifetime: Sendable, Hashable {
  /// Work that ends by itself (a request): it keeps the program busy, and ``Main/idle()``
  /// waits for it.
  case finite
  /// Work that runs until cancelled (a timer): it keeps the program alive, but
  /// ``Main/idle()`` does not wait for it.
  case untilCancelled
}

/// What a handler can do while handling an output: send inputs back, start work, cancel work.
///
/// A context is for the duration of one `handle` call: it refers to its program strongly, so
/// keep work that outlives the call in ``run(id:lifetime:_:)``, whose sender holds the program
/// weakly.
public struct IOContext<IO: IOType>: Sendable {
  @usableFromInline let host: any IOHost
  @usableFromInline let slot: Int

  @inlinable
  init(host: any IOHost, slot: Int) {
    self.host = host
    self.slot = slot
  }

  /// Queues `input` for the app, behind anything already queued.
  public func send(_ input: IO.Input) {
    _ = host.receive(input, slot: slot, from: nil)
  }

  /// Starts `operation` as a task of the program. Inputs it sends reach the app only while the
  /// work is live: after it is cancelled (by id, by newer work with the same id, or by stopping
  /// the program) they are dropped, even if the operation ignores cancellation.
  ///
  /// - Parameters:
  ///   - id: Work with the same id and IO type is replaced: the running one is cancelled.
  ///   - lifetime: `.finite` (the default) or `.untilCancelled`, for a timer.
  ///   - operation: The work; `send` feeds inputs back.
  public func run(
    id: (any Hashable & Sendable)? = nil, lifetime: IOLifetime = .finite,
    _ operation: @escaping @Sendable (IOSender<IO>) async -> Void
  ) {
    let slot = self.slot
    let host = self.host
    host.startRun(slot: slot, id: id.map { AnyWorkID($0) }, lifetime: lifetime) { [weak host] run in
      await operation(IOSender(host: host, slot: slot, run: run))
    }
  }

  /// Cancels the running work with `id` (of this IO type), if any, and drops its later inputs.
  public func cancel(id: some Hashable & Sendable) {
    host.cancelRun(slot: slot, id: AnyWorkID(id))
  }
}

/// Sends inputs from a handler's work back to the app, while that work is live.
public struct IOSender<IO: IOType>: Sendable {
  weak let host: (any IOHost)?
  let slot: Int
  let run: Run<OwnedWorkID>

  init(host: (any IOHost)?, slot: Int, run: Run<OwnedWorkID>) {
    self.host = host
    self.slot = slot
    self.run = run
  }

  /// Queues `input`, unless the work was cancelled or the program stopped.
  public func callAsFunction(_ input: IO.Input) {
    _ = host?.receive(input, slot: slot, from: run)
  }

  /// Whether inputs sent now still reach the app.
  public var isActive: Bool { host?.isLive(run) ?? false }
}
