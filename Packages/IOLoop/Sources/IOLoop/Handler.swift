import Synchronization

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

  /// Hands each output of `list`, of this handler's IO type, to ``handle(_:context:)``. The
  /// runtime calls it; the default implementation is the only one (it is a requirement so that
  /// it is compiled for each handler type, where its types are known).
  func _handle(list: _IOOutputList, route: IORouteSeed)
}

extension IOHandler {
  // Always inlined, so that each handler type's witness is this code compiled for that type.
  @inlinable @inline(__always)
  public func _handle(list: _IOOutputList, route: IORouteSeed) {
    let context = IOContext<IO>(route: IORoute(seed: route))
    for output in list._outputs(of: IO.Output.self) { handle(output, context: context) }
  }
}

/// `handlers` as existentials, in order: how a program, a nested program and a list of them keep
/// their handlers by IO type.
@inlinable
func existentials<each Handler: IOHandler>(_ handlers: repeat each Handler) -> [any IOHandler] {
  var list: [any IOHandler] = []
  for handler in repeat each handlers { list.append(handler) }
  return list
}

/// A handler that only takes outputs and needs no context: a screen that shows views, a log.
/// It never sends inputs back or starts work; its inputs, if any, come from outside the program
/// (``Main/send(_:from:)``).
///
/// ```swift
/// enum ViewIO: IOType { typealias Output = String; typealias Input = Intent }
///
/// struct Printer: IOOutputHandler {
///   typealias IO = ViewIO
///   func handle(_ text: String) { print(text) }
/// }
/// ```
///
/// Cheaper than an ``IOHandler`` that ignores its context, where the handler type is generic:
/// no context is made for it.
public protocol IOOutputHandler<IO>: IOHandler {
  /// Handles one output.
  func handle(_ output: IO.Output)
}

extension IOOutputHandler {
  public func handle(_ output: IO.Output, context: IOContext<IO>) { handle(output) }

  // Always inlined, so that each handler type's witness is this code compiled for that type.
  @inlinable @inline(__always)
  public func _handle(list: _IOOutputList, route: IORouteSeed) {
    for output in list._outputs(of: IO.Output.self) { handle(output) }
  }
}

/// A program, held weakly: one per program, shared by every route to it, so that a route made
/// for each list of outputs retains this object rather than forming a weak reference of its own
/// (and destroying it after).
@usableFromInline
final class HostReference: @unchecked Sendable {
  // @unchecked: `host` is set once, by the program's init, before the reference is shared.
  @usableFromInline weak var host: (any IOHost)?

  @usableFromInline init() {}
}

/// Where a handler's context sends, before it is typed by the handler's IO type.
public struct IORouteSeed: Sendable {
  @usableFromInline let reference: HostReference
  @usableFromInline let slot: Int
  @usableFromInline let embed: (@Sendable (any Sendable) -> any Sendable)?
  @usableFromInline let scope: [AnyWorkID]

  @inlinable
  init(
    host: HostReference, slot: Int, embed: (@Sendable (any Sendable) -> any Sendable)? = nil,
    scope: [AnyWorkID] = []
  ) {
    reference = host
    self.slot = slot
    self.embed = embed
    self.scope = scope
  }
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
/// A context holds its program weakly: one kept after `handle` returned never keeps the program
/// alive, and what it sends once the program is gone is dropped and reported by ``send(_:)``'s
/// result. To hand a sender to code that calls it later, from any thread, use ``sender`` (or
/// SimpleFunctional's ``inputClosure``): it counts what it could not deliver.
///
/// A parent's handler hands a child's handler a context of the child's IO type with ``map(_:)``
/// (the child's inputs become the parent's) or ``scoped(_:_:)`` (the same, with the child's work
/// kept apart and cancellable with ``cancelAll()``).
public struct IOContext<IO: IOType>: Sendable {
  @usableFromInline let route: IORoute<IO>

  @inlinable
  init(route: IORoute<IO>) { self.route = route }

  /// Queues `input` for the app, behind anything already queued.
  ///
  /// - Returns: Whether it was queued: ``IODelivery/dropped`` once the program was stopped or
  ///   released.
  @discardableResult
  public func send(_ input: IO.Input) -> IODelivery {
    route.deliver(input, from: nil) ? .queued : .dropped
  }

  /// A sender to keep and call later, from any thread; it holds the program weakly and counts
  /// the inputs it could not deliver.
  public var sender: IOInputSender<IO> { IOInputSender(route: route) }

  /// SimpleFunctional's `inputClosure`: ``sender`` as a plain function.
  public var inputClosure: @Sendable (IO.Input) -> Void {
    let sender = self.sender
    return { sender($0) }
  }

  /// Starts `operation` as a task of the program. Inputs it sends reach the app only while the
  /// work is live: after it is cancelled (by id, by newer work with the same id, by
  /// ``cancelAll()`` of its scope, or by stopping the program) they are dropped, even if the
  /// operation ignores cancellation.
  ///
  /// - Parameters:
  ///   - id: Work with the same id and IO type (and scope) is replaced: the running one is
  ///     cancelled.
  ///   - lifetime: `.finite` (the default) or `.untilCancelled`, for a timer.
  ///   - operation: The work; `send` feeds inputs back.
  @inlinable
  public func run(
    id: (any Hashable & Sendable)? = nil, lifetime: IOLifetime = .finite,
    _ operation: @escaping @Sendable (IOSender<IO>) async -> Void
  ) {
    guard let host = route.host else { return }
    let route = self.route
    host.startRun(slot: route.slot, id: route.workID(id), lifetime: lifetime) { run in
      await operation(IOSender(route: route, run: run))
    }
  }

  /// Cancels the running work with `id` (of this IO type and scope), if any, and drops its
  /// later inputs.
  @inlinable
  public func cancel(id: some Hashable & Sendable) {
    guard let id = route.workID(id) else { return }
    route.host?.cancelRun(slot: route.slot, id: id)
  }

  /// Cancels all work started in this context's scope and in the scopes within it (a removed
  /// child's work), and drops their later inputs. Outside any scope, it cancels every run of
  /// this IO type.
  public func cancelAll() { route.cancelAll(within: route.scope) }

  /// This context for a handler of another IO type whose inputs become this one's through
  /// `transform`: how a parent lends its context to a child's handler. Work ids are shared with
  /// this context; use ``scoped(_:_:)`` to keep the child's apart.
  public func map<Child: IOType>(
    _ transform: @escaping @Sendable (Child.Input) -> IO.Input
  ) -> IOContext<Child> {
    IOContext<Child>(route: route.map(transform, scope: route.scope))
  }

  /// Like ``map(_:)``, with the child's work in a scope of its own named `id`: its ids never
  /// meet this context's, and ``cancelAll()`` on the returned context (or on a context of the
  /// same scope later) cancels all of it. A list of child programs scopes each child by its id.
  public func scoped<Child: IOType>(
    _ id: some Hashable & Sendable, _ transform: @escaping @Sendable (Child.Input) -> IO.Input
  ) -> IOContext<Child> {
    IOContext<Child>(route: route.map(transform, scope: route.scope + [AnyWorkID(id)]))
  }
}

/// Whether an input reached the program's queue.
public enum IODelivery: Sendable, Hashable {
  /// Queued: the app will handle it.
  case queued
  /// Dropped: the program was stopped or released, or the work that sent it was cancelled.
  case dropped
}

/// Where a context's inputs go: the program (held weakly), the IO type's slot there, how an
/// input becomes that slot's input, and the scope its work is filed under.
@usableFromInline
struct IORoute<IO: IOType>: Sendable {
  @usableFromInline let reference: HostReference
  @usableFromInline let slot: Int
  /// An `IO.Input` as the input of the IO type at `slot`; `nil` when it is that input already.
  /// Erased, as a seed's: a handler's route is made from a seed for every list of outputs, and
  /// a typed function here would be a closure allocated to wrap the seed's each time.
  @usableFromInline let embed: (@Sendable (any Sendable) -> any Sendable)?
  @usableFromInline let scope: [AnyWorkID]

  /// The program, while it is there.
  @inlinable var host: (any IOHost)? { reference.host }

  @inlinable
  init(
    host: HostReference, slot: Int, embed: (@Sendable (any Sendable) -> any Sendable)?,
    scope: [AnyWorkID]
  ) {
    reference = host
    self.slot = slot
    self.embed = embed
    self.scope = scope
  }

  /// A route from a seed: the same program, slot and scope, typed.
  @inlinable
  init(seed: IORouteSeed) {
    reference = seed.reference
    slot = seed.slot
    scope = seed.scope
    embed = seed.embed
  }

  /// This route as a seed, for a handler of another IO type whose input `transform` makes this
  /// one's, in `scope`.
  @inlinable
  func seed(
    scope: [AnyWorkID], _ transform: @escaping @Sendable (any Sendable) -> IO.Input
  ) -> IORouteSeed {
    let embed = self.embed
    let lifted: @Sendable (any Sendable) -> any Sendable =
      if let embed { { embed(transform($0)) } } else { { transform($0) } }
    return IORouteSeed(host: reference, slot: slot, embed: lifted, scope: scope)
  }

  /// Queues `input` if the program is there and `run` (if any) is live.
  @inlinable
  func deliver(_ input: IO.Input, from run: Run<OwnedWorkID>?) -> Bool {
    guard let host else { return false }
    if let embed { return host.receive(embed(input), slot: slot, from: run) }
    return host.receive(input, slot: slot, from: run)
  }

  /// Cancels all work of this IO type filed in `scope` and in the scopes within it (outside
  /// any scope: every run of this IO type), and drops its later inputs.
  @usableFromInline
  func cancelAll(within scope: [AnyWorkID]) {
    guard let child = scope.last else { return host?.cancelRuns(slot: slot) ?? () }
    host?.cancelRuns(slot: slot, base: Array(scope.dropLast()), child: { child })
  }

  /// Cancels all work of this IO type filed in the scopes `children` makes, directly within
  /// this route's scope (and in the scopes within those), in one look at the work: what removing
  /// many children at once costs (a stack popped to its root). `children` is called only if
  /// some work of this IO type is running.
  @usableFromInline
  func cancelWork(ofChildren children: () -> [AnyWorkID]) {
    host?.cancelRuns(slot: slot, base: scope, children: children)
  }

  /// Cancels all work of this IO type filed in the scope of `child`, a child directly within
  /// this route's scope (and in the scopes within it): one lookup, no scope built.
  @usableFromInline
  func cancelAll(ofChild child: () -> AnyWorkID) {
    host?.cancelRuns(slot: slot, base: scope, child: child)
  }

  /// The route of a handler whose inputs become this IO type's through `transform`.
  @inlinable
  func map<Child: IOType>(
    _ transform: @escaping @Sendable (Child.Input) -> IO.Input, scope: [AnyWorkID]
  ) -> IORoute<Child> {
    let embed = self.embed
    // A route's inputs reach its embed as `Child.Input`s: opened, not cast.
    let lifted: @Sendable (any Sendable) -> any Sendable =
      if let embed {
        { embed(transform(unwrapped($0, as: Child.Input.self))) }
      } else {
        { transform(unwrapped($0, as: Child.Input.self)) }
      }
    return IORoute<Child>(host: reference, slot: slot, embed: lifted, scope: scope)
  }

  /// The id work is filed under: `id` as is outside any scope; inside one, `id` (or a fresh
  /// serial number for anonymous work, so a scope can cancel it) under the scope.
  @usableFromInline
  func workID(_ id: (any Hashable & Sendable)?) -> AnyWorkID? {
    if scope.isEmpty { return id.map { AnyWorkID($0) } }
    let within =
      id.map { AnyWorkID($0) }
      ?? AnyWorkID(AnonymousWork(number: anonymousWork.add(1, ordering: .relaxed).newValue))
    return AnyWorkID(ScopedWorkID(scope: scope, id: within))
  }
}

/// Work filed inside a scope (a child program, a row of a list).
@usableFromInline
struct ScopedWorkID: Hashable, Sendable {
  @usableFromInline let scope: [AnyWorkID]
  @usableFromInline let id: AnyWorkID

  @inlinable
  init(scope: [AnyWorkID], id: AnyWorkID) {
    self.scope = scope
    self.id = id
  }

  /// The ids' hashes (each made with its id) folded into one value for the hasher.
  @inlinable
  func hash(into hasher: inout Hasher) {
    var folded = scope.count
    for element in scope { folded = folded &* 31 &+ element.box.hash }
    hasher.combine(folded &* 31 &+ id.box.hash)
  }

  /// The scope `key` was filed in, if it was filed in one.
  @inlinable
  static func scope(of key: RunKey<OwnedWorkID>) -> [AnyWorkID]? {
    guard case .id(let owned) = key, let scoped = owned.id.value(as: ScopedWorkID.self),
      !scoped.scope.isEmpty
    else { return nil }
    return scoped.scope
  }
}

/// A scope — the first `headLength` ids of `head`, then `last` — and an IO type: a key of a
/// program's index of scoped work. Made from a run's scope (its prefixes share its storage) or
/// from a route's scope and a child's id, without building an array either way.
@usableFromInline
struct ScopePrefix: Hashable, Sendable {
  @usableFromInline let slot: Int
  @usableFromInline let head: [AnyWorkID]
  @usableFromInline let headLength: Int
  @usableFromInline let last: AnyWorkID

  @inlinable
  init(slot: Int, head: [AnyWorkID], headLength: Int, last: AnyWorkID) {
    self.slot = slot
    self.head = head
    self.headLength = headLength
    self.last = last
  }

  @inlinable
  static func == (lhs: ScopePrefix, rhs: ScopePrefix) -> Bool {
    guard lhs.slot == rhs.slot, lhs.headLength == rhs.headLength, lhs.last == rhs.last else {
      return false
    }
    for index in 0..<lhs.headLength where lhs.head[index] != rhs.head[index] { return false }
    return true
  }

  /// The slot and the ids' hashes (each made with its id) folded into one value: the hasher
  /// mixes one word, not two plus one per id.
  @inlinable
  var foldedHash: Int {
    var folded = slot &* 31 &+ headLength
    for index in 0..<headLength { folded = folded &* 31 &+ head[index].box.hash }
    return folded &* 31 &+ last.box.hash
  }

  @inlinable
  func hash(into hasher: inout Hasher) { hasher.combine(foldedHash) }

  /// What the program's index asks for: the folded hash mixed once with its seed (``RunHash``:
  /// the ids' hashes were made by `Hasher`), with no `Hasher` made, fed and finished.
  @inlinable
  func _rawHashValue(seed: Int) -> Int { RunHash.mix(foldedHash, seed: seed) }
}

/// Work without an id inside a scope, numbered so that the scope can cancel it.
struct AnonymousWork: Hashable, Sendable {
  let number: Int
}

private let anonymousWork = Atomic(0)

/// Sends inputs from a handler's work back to the app, while that work is live.
public struct IOSender<IO: IOType>: Sendable {
  @usableFromInline let route: IORoute<IO>
  @usableFromInline let run: Run<OwnedWorkID>

  @inlinable
  init(route: IORoute<IO>, run: Run<OwnedWorkID>) {
    self.route = route
    self.run = run
  }

  /// Queues `input`, unless the work was cancelled or the program stopped.
  @inlinable
  public func callAsFunction(_ input: IO.Input) {
    _ = route.deliver(input, from: run)
  }

  /// Whether inputs sent now still reach the app.
  public var isActive: Bool { route.host?.isLive(run) ?? false }
}

/// A sender to keep: it may be called later from any thread, holds its program weakly, and
/// counts the inputs it could not deliver (the program was stopped or released) instead of
/// losing them in silence.
///
/// ```swift
/// func handle(_ output: ClipboardIO.Output, context: IOContext<ClipboardIO>) {
///   clipboard.onChange = context.sender.callAsFunction   // kept by the clipboard
/// }
/// ```
public struct IOInputSender<IO: IOType>: Sendable {
  @usableFromInline let route: IORoute<IO>
  @usableFromInline let drops = DropCount()

  init(route: IORoute<IO>) { self.route = route }

  /// Queues `input` for the app; when the program is gone or stopped, counts it as dropped.
  @inlinable
  @discardableResult
  public func callAsFunction(_ input: IO.Input) -> IODelivery {
    if route.deliver(input, from: nil) { return .queued }
    drops.value.add(1, ordering: .relaxed)
    return .dropped
  }

  /// How many inputs this sender (and its copies) could not deliver.
  public var droppedCount: Int { drops.value.load(ordering: .relaxed) }

  /// Whether the program is still there to receive inputs.
  public var isConnected: Bool { route.host != nil }
}

/// A count shared by a sender's copies.
@usableFromInline
final class DropCount: Sendable {
  @usableFromInline let value = Atomic<Int>(0)

  @usableFromInline init() {}
}
