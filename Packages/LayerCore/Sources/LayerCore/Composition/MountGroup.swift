/// A mounted child's layers in one flow, as one delivery: each state of the parent, the group
/// reads the child's state out of it once and hands that to each of the child's layers in
/// turn, where each layer reading it for itself copied it once per layer (a copy of a state
/// retains everything it holds, and releasing the copy releases it all again).
///
/// The flow delivers through the group to a run of its members that follow each other in the
/// parent's layers (the usual `[own layers] + child.layers`); a parent that puts another layer
/// between two of a child's layers gets two runs, each in layer order. Every layer still gets
/// every state.
@usableFromInline
final class MountGroup<ParentState, ChildState>: Sendable {
  @usableFromInline let members = MountMembers<ChildState>()
  /// Hands the child's state in a parent's (nothing while it has none) to a range of the
  /// members, in order; to none after the first once the flow stopped.
  @usableFromInline let deliver: @Sendable (ParentState, Range<Int>, StopGate) -> Void

  /// A group that reads the child's state at `address` in the parent's, or through `state`
  /// where it has none.
  ///
  /// Inlinable, and made where the parent's and the child's types are known (a mounted core's
  /// `layers`): the delivery it builds copies the child's state and calls each member compiled
  /// for these types, not through their metadata.
  @inlinable
  init(
    address: (@Sendable (UnsafePointer<ParentState>) -> UnsafePointer<ChildState>?)?,
    state: @escaping @Sendable (ParentState) -> ChildState?
  ) {
    let members = members
    if let address {
      deliver = { parent, range, gate in
        Self.withChild(in: parent, at: address) { child in
          Lender.lend(at: child) { members.each($0, range, gate) }
        }
      }
    } else {
      deliver = { parent, range, gate in
        guard let child = state(parent) else { return }
        members.each(child, range, gate)
      }
    }
  }

  /// Calls `body` with the child's state where it is stored in `parent` (not while it has
  /// none).
  ///
  /// Not inlinable on purpose: compiled once for any state, it has the parent's state by
  /// address and reads the child's there; compiled for the types, taking the parent's address
  /// copies the whole of it first (see `Layer.pullback(at:state:event:)`).
  @usableFromInline
  static func withChild(
    in parent: ParentState,
    at address: (UnsafePointer<ParentState>) -> UnsafePointer<ChildState>?,
    _ body: (UnsafePointer<ChildState>) -> Void
  ) {
    withUnsafePointer(to: parent) { parent in
      guard let child = address(parent) else { return }
      body(child)
    }
  }

  /// Adds a member that gets the child's state through `deliver`.
  @inlinable
  func member(adding deliver: @escaping @Sendable (ChildState) -> Void) -> MountGroupMember<
    ParentState
  > {
    MountGroupMember(group: self, index: members.add(deliver), deliver: self.deliver)
  }
}

/// The deliveries of a ``MountGroup``'s members, in layer order.
@usableFromInline
final class MountMembers<ChildState>: @unchecked Sendable {
  // @unchecked: `list` grows only while the flow is wired, before any state is delivered, and
  // is only read after.
  @exclusivity(unchecked) @usableFromInline var list: [@Sendable (ChildState) -> Void] = []

  @inlinable
  init() {}

  /// Adds `deliver`; returns its index.
  @inlinable
  func add(_ deliver: @escaping @Sendable (ChildState) -> Void) -> Int {
    list.append(deliver)
    return list.count - 1
  }

  /// Hands `child` to the members in `range`; to none after the first once `gate` stopped.
  @inlinable
  func each(_ child: ChildState, _ range: Range<Int>, _ gate: StopGate) {
    list.withUnsafeBufferPointer { list in
      for index in range {
        if index != range.lowerBound, gate.isStopped { return }
        list[index](child)
      }
    }
  }
}

/// A layer's place in its ``MountGroup``.
@usableFromInline
struct MountGroupMember<ParentState>: Sendable {
  @usableFromInline let group: any AnyObject & Sendable
  @usableFromInline let index: Int
  /// The group's delivery to a range of its members.
  @usableFromInline let deliver: @Sendable (ParentState, Range<Int>, StopGate) -> Void

  @inlinable
  init(
    group: any AnyObject & Sendable, index: Int,
    deliver: @escaping @Sendable (ParentState, Range<Int>, StopGate) -> Void
  ) {
    self.group = group
    self.index = index
    self.deliver = deliver
  }
}

/// One flow's mount groups, by the `Mounted.layers` call whose layers they deliver to: each
/// flow wires its own, so layers kept and started in two flows form a group in each. Kept in
/// the flow's ``WeakHost``; a flow without mounted children never adds one (an empty
/// dictionary allocates nothing).
@usableFromInline
struct MountGroups {
  @usableFromInline var groups: [ObjectIdentifier: (token: AnyObject, group: AnyObject)] = [:]

  @inlinable
  init() {}

  /// The group of the layers `token` marks, made by `make` for the first of them.
  @inlinable
  mutating func group<Group: AnyObject>(for token: AnyObject, make: () -> Group) -> Group {
    if let found = groups[ObjectIdentifier(token)] { return found.group as! Group }
    let made = make()
    groups[ObjectIdentifier(token)] = (token, made)
    return made
  }
}

/// What marks the layers of one `Mounted.layers` call as one group.
@usableFromInline
final class MountToken: Sendable {
  @inlinable
  init() {}
}

/// How the layers of one `Mounted.layers` call find their group in a flow: its token, and how
/// to make the group (for the first of them).
@usableFromInline
struct MountGrouping<ParentState, ChildState>: Sendable {
  @usableFromInline let token: MountToken
  @usableFromInline let make: @Sendable () -> MountGroup<ParentState, ChildState>

  @inlinable
  init(token: MountToken, make: @escaping @Sendable () -> MountGroup<ParentState, ChildState>) {
    self.token = token
    self.make = make
  }
}
