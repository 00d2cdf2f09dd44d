/// The queue a runtime handles its messages from, one at a time, in order (R2).
///
/// Whoever appends to an empty, undrained queue claims the drain (a ``DrainClaim``, kept by the
/// runtime outside its lock): it takes messages with ``next()`` while ``hasNext``, then calls
/// ``endDrain(_:keepingCapacity:)``. Everyone else only appends. Kept inside the runtime's
/// ``Lock``; the drainer handles each message after unlocking.
///
/// Handled messages stay in the buffer until the drain ends, except that a long drain (a fast
/// stream, observers that keep sending) drops them now and then, so it never keeps them all.
@usableFromInline
package struct DrainQueue<Message> {
  @usableFromInline var messages: [Message] = []
  /// The index of the next message.
  @usableFromInline var head = 0

  @inlinable package init() {}

  /// Whether a message waits.
  @inlinable package var hasNext: Bool { head < messages.count }

  /// The next message, without taking it.
  @inlinable package var peek: Message? { head < messages.count ? messages[head] : nil }

  /// Appends `message` and returns whether the caller must drain: `mayDrain` and nobody else
  /// is draining (a drainer is asked to look again). A runtime that has not started passes
  /// `mayDrain: false`, so messages wait. Call it holding the lock.
  @inlinable
  package mutating func append(
    _ message: consuming Message, claiming claim: borrowing DrainClaim, mayDrain: Bool = true
  ) -> Bool {
    messages.append(message)
    return mayDrain && claim.claim()
  }

  /// Appends `message` unless the runtime is stopped (`phase`), and returns whether the caller
  /// must drain (as ``append(_:claiming:mayDrain:)``). Call it holding the lock.
  @inlinable
  package mutating func append(
    _ message: consuming Message, claiming claim: borrowing DrainClaim, in phase: Phase,
    mayDrain: Bool = true
  ) -> Bool {
    guard !phase.isStopped else { return false }
    return append(message, claiming: claim, mayDrain: mayDrain)
  }

  /// Puts `message` before every message not handled yet (`start()` goes before the events sent
  /// ahead of it).
  @inlinable
  package mutating func insertNext(_ message: Message) {
    messages.insert(message, at: head)
  }

  /// The next message, out of the queue; call it only when ``hasNext``. A drain loop checks
  /// ``hasNext`` first and gets a plain value: an optional of a many-payload message enum costs a runtime
  /// call per message to check and destroy.
  @inlinable @inline(__always)
  package mutating func next() -> Message {
    let message = messages[head]
    head += 1
    if head >= 1024, head * 2 >= messages.count {
      messages.removeFirst(head)
      head = 0
    }
    return message
  }

  /// Ends the drain: drops what was handled and gives `claim` back. Messages not handled yet
  /// stay queued (a runtime that stopped taking them before `start()` keeps them for later).
  /// Call it holding the lock.
  ///
  /// - Parameter keepingCapacity: Whether to keep the buffer for the next drain.
  @inlinable @inline(__always)
  package mutating func endDrain(_ claim: borrowing DrainClaim, keepingCapacity: Bool = true) {
    // Usually the buffer is empty (the drainer applied its message in place): nothing to drop.
    if !messages.isEmpty { dropHandled(keepingCapacity: keepingCapacity) }
    claim.end()
  }

  /// Drops the messages already handled.
  @usableFromInline @inline(never)
  mutating func dropHandled(keepingCapacity: Bool) {
    if head >= messages.count {
      messages.removeAll(keepingCapacity: keepingCapacity)
    } else if head > 0 {
      messages.removeSubrange(..<head)
    }
    head = 0
  }

  /// Drops the messages not handled yet that match `shouldRemove` (what a cancelled run sent).
  ///
  /// - Complexity: O(*n*) in the messages not handled yet.
  @inlinable
  package mutating func removePending(where shouldRemove: (Message) -> Bool) {
    guard head < messages.count else { return }
    let kept = messages[head...].filter { !shouldRemove($0) }
    messages.removeSubrange(head...)
    messages.append(contentsOf: kept)
  }

  /// Drops every message and frees the buffer (the runtime stopped). A drain in progress sees
  /// an empty queue next.
  @inlinable
  package mutating func removeAll() {
    messages = []
    head = 0
  }
}

/// How many messages one caller handles in a row before it hands the rest of the drain to the
/// runtime's own task (SPEC R6, progress): a `send` returns after a bounded amount of work
/// however fast messages arrive (a clock that ticks faster than ticks are handled, observers that
/// send on every change). The runtime's task goes on in turns of the same size.
@inlinable package var messagesPerTurn: Int { 256 }
