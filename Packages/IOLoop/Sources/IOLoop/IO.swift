/// A kind of IO: what a pure app can ask for (its outputs) and what comes back (its inputs).
///
/// ```swift
/// enum TimerIO: IOType {
///   enum Output: Sendable { case start(every: Duration), stop }
///   enum Input: Sendable { case fired }
/// }
/// ```
///
/// An IO type is a namespace for two value types; the imperative side lives in an
/// ``IOHandler`` for it.
#if compiler(>=6.2)
  public protocol IOType: SendableMetatype {
    /// What the handler feeds back to the app; `Never` if nothing.
    associatedtype Input: Sendable = Never
    /// What the app asks the handler to do; `Never` if nothing.
    associatedtype Output: Sendable = Never
  }
#else
  public protocol IOType {
    /// What the handler feeds back to the app; `Never` if nothing.
    associatedtype Input: Sendable = Never
    /// What the app asks the handler to do; `Never` if nothing.
    associatedtype Output: Sendable = Never
  }
#endif

/// The one input a step of an app handles, typed by where it came from: the element for the IO
/// type that sent it is set, every other element is `nil`.
///
/// ```swift
/// func run(input: IOInput<ViewIO, StorageIO>) -> (Self, IOOutputs<ViewIO, StorageIO>) {
///   let (intent, storage) = input.values
///   if let intent { … }
///   if case .loaded(let count)? = storage { … }
/// }
/// ```
public struct IOInput<each IO: IOType>: Sendable {
  /// One optional per IO type, in the order the app lists them; exactly one is set.
  public let values: (repeat (each IO).Input?)

  /// An input from the IO type whose element is set. Exactly one element should be set.
  @inlinable
  public init(_ values: repeat consuming (each IO).Input?) {
    self.values = (repeat each values)
  }
}

/// The outputs of one step, one list per IO type: each list goes only to its handler.
///
/// ```swift
/// return (next, IOOutputs([.render(view)], [.save(count)]))
/// return (self, .none)
/// ```
///
/// Handlers receive them in a defined order: IO types in the order the app lists them, and each
/// list in its order.
public struct IOOutputs<each IO: IOType>: Sendable, CustomReflectable {
  // The lists that are not empty, each with its IO type's index, erased: a tuple of the pack's
  // lists would be copied and destroyed through slow generic code (Swift 6.3 asks for its
  // elements' metadata every time, even in specialized code). The first two are kept inline,
  // so the usual step, with outputs for one or two IO types, allocates nothing more.
  @usableFromInline let first: IOOutputList?
  @usableFromInline let second: IOOutputList?
  @usableFromInline let rest: [IOOutputList]

  /// How many outputs there are, over all IO types.
  public let count: Int

  /// One list per IO type, in the order the app lists them.
  public var values: (repeat [(each IO).Output]) {
    var index = 0
    return (repeat outputList((each IO).self, in: lists, index: &index))
  }

  /// The lists that are not empty, in IO type order.
  @inlinable
  var lists: [IOOutputList] {
    var lists: [IOOutputList] = []
    forEachList { lists.append($0) }
    return lists
  }

  /// Outputs for each IO type, in the order the app lists them.
  @inlinable
  public init(_ values: repeat [(each IO).Output]) {
    var count = 0
    var first: IOOutputList?
    var second: IOOutputList?
    var rest: [IOOutputList] = []
    var slot = 0
    for list in repeat each values {
      if !list.isEmpty {
        count += list.count
        let entry = IOOutputList(slot: slot, list: list)
        if first == nil {
          first = entry
        } else if second == nil {
          second = entry
        } else {
          rest.append(entry)
        }
      }
      slot += 1
    }
    self.first = first
    self.second = second
    self.rest = rest
    self.count = count
  }

  @inlinable
  init(none: Void) {
    first = nil
    second = nil
    rest = []
    count = 0
  }

  /// Calls `body` with each list that is not empty, in IO type order.
  @inlinable
  func forEachList(_ body: (IOOutputList) -> Void) {
    guard let first else { return }
    body(first)
    guard let second else { return }
    body(second)
    for entry in rest { body(entry) }
  }

  /// No output at all.
  @inlinable
  public static var none: Self { Self(none: ()) }

  /// Whether no IO type has an output.
  @inlinable
  public var isEmpty: Bool { count == 0 }

  /// The lists, one per IO type, as a test's diff shows them.
  public var customMirror: Mirror { Mirror(self, unlabeledChildren: [values]) }
}

/// One IO type's outputs of a step: its index in the app's IO types and its `[Output]`.
@usableFromInline
struct IOOutputList: Sendable {
  @usableFromInline let slot: Int
  @usableFromInline let list: any Sendable

  @inlinable
  init(slot: Int, list: any Sendable) {
    self.slot = slot
    self.list = list
  }
}

/// The list of `IO` at `index` among `lists`, empty if it has none. Advances `index`.
func outputList<IO: IOType>(_: IO.Type, in lists: [IOOutputList], index: inout Int)
  -> [IO.Output]
{
  defer { index += 1 }
  let slot = index
  return lists.first { $0.slot == slot }?.list as? [IO.Output] ?? []
}

/// A pure app, SimpleFunctional's top-level function split in two: where it starts, and how
/// each input moves it on. Both return the new state and the outputs for the handlers.
///
/// ```swift
/// struct Counter: PureApp {
///   typealias Input = IOInput<ViewIO, StorageIO>
///   typealias Outputs = IOOutputs<ViewIO, StorageIO>
///   let count: Int
///
///   static func start() -> (Counter, Outputs) {
///     (Counter(count: 0), Outputs([.render(0)], [.load]))
///   }
///
///   func run(input: Input) -> (Counter, Outputs) { … }
/// }
/// ```
///
/// Both functions must be pure: no IO, no time, no randomness. A step that returns no outputs
/// asks for nothing; when no input is queued and no output is being handled either, the
/// program is over (see ``Main/run()``).
public protocol PureApp: Sendable {
  /// `IOInput<…>` of the app's IO types.
  associatedtype Input: Sendable
  /// `IOOutputs<…>` of the same IO types, in the same order.
  associatedtype Outputs: Sendable

  /// The initial state and outputs.
  static func start() -> (Self, Outputs)

  /// The next state and outputs for `input`.
  func run(input: Input) -> (Self, Outputs)
}
