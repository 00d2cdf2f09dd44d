/// The children a baseline model's messages touched since the loop last looked, in one array
/// whose storage is reused from message to message.
///
/// The loop takes the array (``take()``), compares those children's views with what their
/// observers last received, and hands it back (``reuse(_:)``), so that the next message appends
/// into the same storage. Emptying the array in the model while the loop still held it would
/// allocate new storage for every message.
struct TouchedChildren<Child: Sendable>: Sendable {
  private var children: [Child] = []
  /// Whether a message may have changed every child (no list of them is made).
  private var all = false

  init() {}

  /// Notes that `child` may have changed.
  mutating func append(_ child: Child) { children.append(child) }

  /// Notes that each of `children` may have changed.
  mutating func append(contentsOf children: some Sequence<Child>) {
    self.children.append(contentsOf: children)
  }

  /// Notes that any child may have changed (a toggle of every row).
  mutating func touchAll() { all = true }

  /// Forgets what was noted (a model's launch, whose children nobody observes yet).
  mutating func removeAll() { children.removeAll(keepingCapacity: true) }

  /// The children noted since the last look, or `nil` when any may have changed.
  mutating func take() -> [Child]? {
    guard !all else {
      all = false
      children.removeAll(keepingCapacity: true)
      return nil
    }
    let taken = children
    children = []
    return taken
  }

  /// Takes back the array ``take()`` handed out, once read, to append into its storage.
  mutating func reuse(_ taken: consuming [Child]) {
    guard children.isEmpty else { return }
    taken.removeAll(keepingCapacity: true)
    children = taken
  }
}
