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
public struct IOInput<each IO: IOType>: Sendable, CustomReflectable {
  // Erased: the input and its IO type's index. A tuple of the pack's optionals, stored, would
  // be copied and destroyed through generic code that asks for the metadata of every element's
  // optional each time (Swift 6.3 does so even in specialized code): thousands of instructions
  // per input in the program's queue. Erased, an input crosses the runtime as an index and an
  // ``IOPayload``; the tuple is built only when the app reads ``values``. Not an existential
  // (`any Sendable`): a struct that holds one is copied and destroyed through its metadata,
  // even specialized, about 30 instructions an input.
  @usableFromInline let slot: Int
  @usableFromInline let payload: IOPayload

  /// One optional per IO type, in the order the app lists them; exactly one is set.
  @inlinable
  public var values: (repeat (each IO).Input?) {
    var index = 0
    return (repeat inputElement((each IO).self, slot: slot, payload: payload, index: &index))
  }

  /// An input from the IO type whose element is set. Exactly one element should be set; if
  /// more are, the first one is the input.
  @inlinable
  public init(_ values: repeat consuming (each IO).Input?) {
    var slot = -1
    var payload = IOPayload(())
    var index = 0
    repeat noteInput(each values, slot: &slot, payload: &payload, index: &index)
    self.init(slot: slot, payload: payload)
  }

  /// An input from `source`, one of the app's IO types: what a parent hands a child program it
  /// runs, without a `nil` for each of the child's other IO types.
  ///
  /// ```swift
  /// run(\.counter, IOCounter.Input(IOCounter.Screen.self, .reset))
  /// ```
  ///
  /// Cheaper than the initializer that takes one optional per IO type, on a step's hot path: it
  /// compares the IO types, where that one moves each optional through its type's metadata.
  ///
  /// - Precondition: `source` is one of the app's IO types.
  @inlinable
  public init<Source: IOType>(_ source: Source.Type, _ input: consuming Source.Input) {
    let slot = TypeList<repeat each IO>.index(of: Source.self)
    precondition(slot >= 0, "\(Source.self) is not one of this app's IO types")
    self.init(slot: slot, payload: IOPayload(input))
  }

  /// The input if the IO type `source` sent it, `nil` if another one did: what an app that
  /// handles one IO type's inputs at a time reads instead of ``values``.
  ///
  /// ```swift
  /// guard let intent = input.value(from: ViewIO.self) else { return (self, .none) }
  /// ```
  ///
  /// Cheaper than ``values`` on a step's hot path: the input's type is known where this is
  /// called, where ``values`` makes each IO type's optional through its type's metadata.
  ///
  /// - Precondition: `source` is one of the app's IO types (if it is listed twice, the first).
  @inlinable
  public func value<Source: IOType>(from source: Source.Type) -> Source.Input? {
    let sourceSlot = TypeList<repeat each IO>.index(of: Source.self)
    precondition(sourceSlot >= 0, "\(Source.self) is not one of this app's IO types")
    guard sourceSlot == slot else { return nil }
    return payload.value(as: Source.Input.self)
  }

  /// The input `payload` of the IO type at `slot`; the caller knows it has that type.
  @inlinable
  init(slot: Int, payload: consuming IOPayload) {
    self.slot = slot
    self.payload = payload
  }

  /// The input `value` of the IO type at `slot`, of that IO type's input type.
  @inlinable
  init<Value: Sendable>(slot: Int, value: consuming Value) {
    self.init(slot: slot, payload: IOPayload(value))
  }

  /// The input `payload` of the IO type at `slot`, which came erased (through a route, or from
  /// a parent): its content has that IO type's input type, or one that converts to it.
  @inlinable
  init(slot: Int, payload: any Sendable) {
    self.init(slot: slot, payload: IOPayload(erased: payload))
  }

  /// The optionals, one per IO type, as a test's diff shows them.
  public var customMirror: Mirror { Mirror(self, unlabeledChildren: [values]) }
}

/// Notes `value`, the element at `index` of an input being made, if it is the first one set.
/// Advances `index`.
@inlinable @inline(__always)
func noteInput<Input: Sendable>(
  _ value: consuming Input?, slot: inout Int, payload: inout IOPayload, index: inout Int
) {
  defer { index += 1 }
  switch value {
  case .some(let value):
    if slot < 0 {
      slot = index
      payload = IOPayload(value)
    }
  case .none: break
  }
}

/// The element of an input for `IO` at `index`: `payload` if `index` is `slot`, the index of
/// the input's IO type. Advances `index`.
@inlinable @inline(__always)
func inputElement<IO: IOType>(
  _: IO.Type, slot: Int, payload: IOPayload, index: inout Int
) -> IO.Input? {
  defer { index += 1 }
  guard index == slot else { return nil }
  return payload.value(as: IO.Input.self)
}

/// `value`, opened from its existential, as `Value`: a route's input (a child's, lifted into
/// its parent's IO type) has the child IO type's input type. When that type is `Value` itself,
/// no dynamic cast (those cost hundreds of instructions); when `Value` is an existential (an IO
/// type whose input is `any Error`), the opened value is its content, cast back.
@inlinable @inline(__always)
func unwrapped<Opened, Value>(_ value: Opened, as _: Value.Type) -> Value {
  if Opened.self == Value.self { return unsafeBitCast(value, to: Value.self) }
  return value as! Value
}

/// An input's value, as an ``IOInput`` carries it across the runtime, erased: a value of a plain
/// type of at most 16 bytes (an intent without a payload or with a number, a tick) in place, any
/// other in a box, with its type.
///
/// A struct of plain fields and one reference: copied, passed and destroyed as such, where one
/// holding an existential (`any Sendable`, whose content only its metadata knows) is moved and
/// destroyed through its type's metadata, even in specialized code, and read through a
/// projection. The price is a box, one allocation, for a value that is not plain (a `String`,
/// an array, an enum that carries one).
@usableFromInline
struct IOPayload: @unchecked Sendable {
  // @unchecked: `box` holds a value of a `Sendable` type (every initializer takes one), and
  // `type` is only compared.
  /// The value's type: the type it was made with, or, for a value that came erased, its own.
  @usableFromInline let type: any Any.Type
  /// A plain value of at most 16 bytes, its bytes from the first on, the rest zero.
  @usableFromInline let bits: (UInt64, UInt64)
  /// Any other value.
  @usableFromInline let box: IOPayloadBox?

  @inlinable @inline(__always)
  init<Value: Sendable>(_ value: consuming Value) {
    type = Value.self
    if Self.isInline(Value.self) {
      bits = Self.bits(of: value)
      box = nil
    } else {
      bits = (0, 0)
      box = IOValueBox(value)
    }
  }

  /// The value inside `value`, with its own type.
  @inlinable
  init(erased value: any Sendable) { self = Self.opened(value) }

  @inlinable
  static func opened<Value: Sendable>(_ value: Value) -> IOPayload { IOPayload(value) }

  /// The value, as `Value`: the type it was made with, or a type its own converts to (an
  /// erased value read as the existential an IO type's input is).
  @inlinable @inline(__always)
  func value<Value>(as _: Value.Type) -> Value {
    guard ObjectIdentifier(type) == ObjectIdentifier(Value.self) else {
      return converted(to: Value.self)
    }
    if Self.isInline(Value.self) { return Self.value(of: bits, as: Value.self) }
    return unsafeDowncast(box.unsafelyUnwrapped, to: IOValueBox<Value>.self).value
  }

  /// The value as `Value`, a type other than its own: out of line, off a step's usual path.
  @usableFromInline @inline(never)
  func converted<Value>(to _: Value.Type) -> Value { anyValue as! Value }

  /// The value as `Any`, for a type other than its own: not on a step's usual path.
  @usableFromInline
  var anyValue: Any {
    if let box { return box.anyValue }
    func load<Value>(_: Value.Type) -> Any { IOPayload.value(of: bits, as: Value.self) }
    return _openExistential(type, do: load)
  }

  /// Whether a value of type `Value` is kept in ``bits``: a plain type of at most 16 bytes (an
  /// intent without a payload or with a number, a tick's `Duration`). Known at compile time
  /// where specialized.
  @inlinable @inline(__always)
  static func isInline<Value>(_: Value.Type) -> Bool {
    _isPOD(Value.self) && MemoryLayout<Value>.size <= 16 && MemoryLayout<Value>.alignment <= 8
  }

  @inlinable @inline(__always)
  static func bits<Value>(of value: Value) -> (UInt64, UInt64) {
    var bits: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &bits) { $0.storeBytes(of: value, as: Value.self) }
    return bits
  }

  @inlinable @inline(__always)
  static func value<Value>(of bits: (UInt64, UInt64), as _: Value.Type) -> Value {
    withUnsafeBytes(of: bits) { $0.load(as: Value.self) }
  }
}

/// A boxed input value (``IOPayload/box``).
@usableFromInline
class IOPayloadBox: @unchecked Sendable {
  // @unchecked: immutable; the subclass holds a value of a `Sendable` type.
  @usableFromInline init() {}

  /// The value, as `Any`.
  @usableFromInline var anyValue: Any { fatalError("IOPayloadBox is abstract") }
}

@usableFromInline
final class IOValueBox<Value>: IOPayloadBox, @unchecked Sendable {
  @usableFromInline let value: Value

  @inlinable init(_ value: consuming Value) {
    self.value = value
    super.init()
  }

  @usableFromInline override var anyValue: Any { value }
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
  // so the usual step, with outputs for one or two IO types, allocates nothing more; `rest` is
  // `nil` then, not an empty array (whose release every step pays, though it frees nothing).
  @usableFromInline let first: _IOOutputList?
  @usableFromInline let second: _IOOutputList?
  @usableFromInline let rest: [_IOOutputList]?

  /// How many outputs there are, over all IO types.
  public let count: Int

  /// One list per IO type, in the order the app lists them.
  public var values: (repeat [(each IO).Output]) {
    var index = 0
    return (repeat outputList((each IO).self, in: lists, index: &index))
  }

  /// The lists that are not empty, in IO type order.
  @inlinable
  var lists: [_IOOutputList] {
    var lists: [_IOOutputList] = []
    forEachList { lists.append($0) }
    return lists
  }

  /// Outputs for each IO type, in the order the app lists them.
  @inlinable
  public init(_ values: repeat [(each IO).Output]) {
    var lists = Lists()
    repeat lists.append(each values)
    first = lists.first
    second = lists.second
    rest = lists.rest
    count = lists.count
  }

  /// The lists of a step as its outputs are made, IO type by IO type.
  @usableFromInline
  struct Lists {
    @usableFromInline var first: _IOOutputList?
    @usableFromInline var second: _IOOutputList?
    @usableFromInline var rest: [_IOOutputList]?
    @usableFromInline var count = 0
    @usableFromInline var slot = 0

    @inlinable init() {}

    /// Adds the list of the next IO type. A function of its own, generic over the output type:
    /// the list is then an array of a type parameter, not an element of the pack, and Swift
    /// reads it without looking up the array type's metadata.
    @inlinable
    mutating func append<Output: Sendable>(_ list: [Output]) {
      defer { slot += 1 }
      // `count`, not `isEmpty`: an array's `isEmpty` is `Collection`'s, called through its
      // witness table here.
      let size = list.count
      guard size > 0 else { return }
      count += size
      let entry = _IOOutputList(slot: slot, list: list)
      if first == nil {
        first = entry
      } else if second == nil {
        second = entry
      } else if rest == nil {
        rest = [entry]
      } else {
        rest!.append(entry)
      }
    }
  }

  @inlinable
  init(none: Void) {
    first = nil
    second = nil
    rest = nil
    count = 0
  }

  /// Calls `body` with each list that is not empty, in IO type order.
  @inlinable
  func forEachList(_ body: (_IOOutputList) -> Void) {
    guard let first else { return }
    body(first)
    guard let second else { return }
    body(second)
    guard let rest else { return }
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

/// One IO type's outputs of a step, its `[Output]` with the type erased, and the index of the
/// IO type among the app's: how the runtime hands a list to the handler of that IO type (see
/// ``IOHandler/_handle(list:route:)``).
public struct _IOOutputList: @unchecked Sendable {
  /// The index of the IO type among the app's.
  @usableFromInline let slot: Int
  #if _runtime(_ObjC)
    @usableFromInline let storage: any Sendable
  #else
    // An array is one reference to its buffer. Kept as that reference, a list is stored and
    // read back without asking for the array type's metadata, which a pack's element types
    // make a lookup each time. (Only outputs lists made here are stored: `Sendable` elements.)
    @usableFromInline let storage: AnyObject
  #endif

  @inlinable
  init<Output: Sendable>(slot: Int, list: [Output]) {
    self.slot = slot
    #if _runtime(_ObjC)
      storage = list
    #else
      storage = unsafeBitCast(list, to: AnyObject.self)
    #endif
  }

  /// The list, typed. `Output` must be the type the list was made with, which the slot says.
  @inlinable
  public func _outputs<Output>(of _: Output.Type) -> [Output] {
    #if _runtime(_ObjC)
      storage as? [Output] ?? []
    #else
      unsafeBitCast(storage, to: [Output].self)
    #endif
  }
}

/// The list of `IO` at `index` among `lists`, empty if it has none. Advances `index`.
func outputList<IO: IOType>(_: IO.Type, in lists: [_IOOutputList], index: inout Int)
  -> [IO.Output]
{
  defer { index += 1 }
  let slot = index
  return lists.first { $0.slot == slot }?._outputs(of: IO.Output.self) ?? []
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

  /// The same step written in place: this state becomes the next one; returns the outputs.
  ///
  /// Write this form or ``run(input:)``: each has a default made of the other, and the program
  /// runs this one on the state it keeps. Written in place, a step that changes one row of a
  /// long ``IdentifiedList`` copies nothing: `var next = self` in ``run(input:)`` changes a copy
  /// while the program still holds the state, so the first write copies the nodes on the row's
  /// path, and the program frees the old ones after.
  ///
  /// ```swift
  /// mutating func run(inPlace input: Input) -> Outputs {
  ///   guard let intent: ListIntent = input.values else { return .none }
  ///   switch intent {
  ///   case .toggle(let id): rows.update(id: id) { $0.done.toggle() }
  ///   }
  ///   return Outputs([view], [])
  /// }
  /// ```
  mutating func run(inPlace input: Input) -> Outputs
}

extension PureApp {
  /// ``run(input:)`` applied to this state.
  @inlinable
  public mutating func run(inPlace input: Input) -> Outputs {
    let (next, outputs) = run(input: input)
    self = next
    return outputs
  }

  /// ``run(inPlace:)`` on a copy of this state.
  @inlinable
  public func run(input: Input) -> (Self, Outputs) {
    var next = self
    let outputs = next.run(inPlace: input)
    return (next, outputs)
  }
}
