/// Starts the task that runs one piece of an effect's work, so that work begins in the order
/// the runtime started it: the task runs `operation` at once, on the calling thread, up to its
/// first suspension, and goes on on `executor` (or the global executor) after it.
///
/// A runtime starts the effects of one processed message before it takes the next message
/// (SPEC's trace order: "effects of one processed message start before those of the next").
/// Started as plain tasks, two effects reach their handlers in whatever order the executor's
/// threads pick their jobs up: a message's effect could call the environment after one a later
/// message started. Started at once, each handler's first environment call happens before
/// `start` returns, so calls are made in the order the effects were started. A handler that
/// completes without suspending delivers its result before `start` returns; the runtime's
/// queue takes it behind the message being processed (R2), never nested.
///
/// `operation` has exactly the type `Task.immediate` takes: a closure converted on the way would
/// be wrapped in a thunk, an allocation per effect.
///
/// Before the OS releases that start tasks at once (macOS 26 and its siblings), the work starts
/// on a plain task, in the executor's order.
@inlinable @inline(__always)
package func startEffectTask(
  on executor: (any TaskExecutor)?,
  _ operation: sending @escaping @isolated(any) () async throws(Never) -> Void
) -> Task<Void, Never> {
  if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
    return Task.immediate(executorPreference: executor, operation: operation)
  } else {
    return Task(executorPreference: executor, operation: operation)
  }
}
