/// A child program as one IO type of its parent: each step's outputs of the child go out as one
/// output, and the child's inputs come back as one input.
///
/// The parent's pure function owns the child's state and runs the child on its inputs (see
/// ``PureApp/run(_:_:)``); a ``ProgramHandler`` hands the child's outputs to the child's own
/// handlers. The child is written once, as its own ``PureApp``, and runs the same embedded as
/// alone.
///
/// ```swift
/// struct Shell: PureApp {
///   typealias Input = IOInput<ScreenIO<ShellView, ShellIntent>, ProgramIO<IOCounter>>
///   typealias Outputs = IOOutputs<ScreenIO<ShellView, ShellIntent>, ProgramIO<IOCounter>>
///   var counter: IOCounter
///
///   func run(input: Input) -> (Shell, Outputs) {
///     switch input.values {
///     case (_, let counterInput?):
///       let (next, counter) = run(\.counter, counterInput)
///       return (next, Outputs([next.view], counter))
///     …
///   }
/// }
/// ```
public enum ProgramIO<Child: PureApp>: IOType {
  /// One step's outputs of the child.
  public typealias Output = Child.Outputs
  /// One input of the child.
  public typealias Input = Child.Input
}

/// A list of identified child programs as one IO type of their parent: each child's outputs go
/// out tagged with its id, and its inputs come back tagged the same way.
///
/// The parent keeps the children's states (an `IdentifiedList`), runs the child an input is
/// for (``IdentifiedList/run(_:id:)-(Element.Input,_)``), and says when it removed one
/// (``Output/removed(_:)``), so that the ``ProgramsHandler`` cancels that child's work and drops
/// what it sends later.
public enum ProgramsIO<ID: Hashable & Sendable, Child: PureApp>: IOType {
  public enum Output: Sendable {
    /// One step's outputs of the child with the id.
    case outputs(ID, Child.Outputs)
    /// The child with the id was removed: cancel its work.
    case removed(ID)
  }

  /// One input of the child with `id`.
  public struct Input: Sendable {
    public let id: ID
    public let input: Child.Input

    public init(id: ID, input: Child.Input) {
      self.id = id
      self.input = input
    }
  }
}

/// A child program's handlers, lifted into its parent: hands each of the child's steps' outputs
/// to the child's own handlers (IO types in the child's order, each list in order), with
/// contexts whose inputs come back to the parent as the child's. Each of the child's IO types
/// keeps its work apart, as in a program of its own.
///
/// ```swift
/// Main(app: Shell.self, handlers:
///   ScreenHandler(screen),
///   ProgramHandler(IOCounter.self, handlers: ScreenHandler(counterScreen), LogHandler(log),
///                  StorageHandler(storage)))
/// ```
public struct ProgramHandler<Child: PureApp, each Handler: IOHandler>: IOHandler
where
  Child.Input == IOInput<repeat (each Handler).IO>,
  Child.Outputs == IOOutputs<repeat (each Handler).IO>
{
  public typealias IO = ProgramIO<Child>

  /// The child's handlers, by IO type (see ``Main``'s).
  @usableFromInline let handlers: [any IOHandler]
  /// The child's IO types' scopes and inputs, made once.
  @usableFromInline let slots: ChildSlots
  /// What ``_handle(list:route:)`` does, made by the initializer where the program's types are
  /// known: the conformance of a generic handler runs as generic code, looking up the metadata
  /// of every type it touches, each output.
  @usableFromInline let deliver: @Sendable (_IOOutputList, IORouteSeed) -> Void

  /// The handlers of `child`, one per IO type, in the child's order.
  @inlinable
  public init(_ child: Child.Type, handlers: repeat each Handler) {
    let handlers = existentials(repeat each handlers)
    let slots = ChildSlots(count: handlers.count) { Child.Input(slot: $0, payload: $1) }
    self.handlers = handlers
    self.slots = slots
    deliver = { outputs, seed in
      let route = IORoute<IO>(seed: seed)
      for outputs in outputs._outputs(of: Child.Outputs.self) {
        Self.dispatch(outputs, route: route, to: handlers, slots: slots)
      }
    }
  }

  public func handle(_ outputs: Child.Outputs, context: IOContext<IO>) {
    Self.dispatch(outputs, route: context.route, to: handlers, slots: slots)
  }

  @inlinable
  public func _handle(list: _IOOutputList, route: IORouteSeed) { deliver(list, route) }

  /// Hands `outputs` to the child's handlers, each with a context in the child's scope for its
  /// IO type, whose inputs `route` takes as the child's.
  @inlinable
  static func dispatch<ParentIO: IOType>(
    _ outputs: Child.Outputs, route: IORoute<ParentIO>, to handlers: [any IOHandler],
    slots: ChildSlots
  ) where ParentIO.Input == Child.Input {
    outputs.forEachList { entry in
      let slot = entry.slot
      // The element at `slot` is this IO type's: the input the child's own program would get.
      // A child run by its parent directly (no scope, no embed: the usual case) takes the
      // slot's scope and input as made once; only a child inside a scope (a row) makes them.
      let scope = route.scope.isEmpty ? slots.scopes[slot] : route.scope.appending(slots.ids[slot])
      let seed: IORouteSeed
      if let embed = route.embed {
        seed = IORouteSeed(
          host: route.reference, slot: route.slot,
          embed: { embed(Child.Input(slot: slot, payload: $0)) }, scope: scope)
      } else {
        seed = IORouteSeed(
          host: route.reference, slot: route.slot, embed: slots.inputs[slot], scope: scope)
      }
      handlers[slot]._handle(list: entry, route: seed)
    }
  }
}

/// The handlers of a list of child programs, lifted into the parent: each child's outputs go
/// to the child's handlers in a scope of its own (its id), so two children's work never meet,
/// and ``ProgramsIO/Output/removed(_:)`` cancels all of a removed child's work.
public struct ProgramsHandler<ID: Hashable & Sendable, Child: PureApp, each Handler: IOHandler>:
  IOHandler
where
  Child.Input == IOInput<repeat (each Handler).IO>,
  Child.Outputs == IOOutputs<repeat (each Handler).IO>
{
  public typealias IO = ProgramsIO<ID, Child>

  /// The handlers every child of the list uses, by IO type (see ``Main``'s).
  @usableFromInline let handlers: [any IOHandler]
  /// The children's IO types' scopes and inputs, made once.
  @usableFromInline let slots: ChildSlots
  /// What ``_handle(list:route:)`` does, made by the initializer where the program's types are
  /// known (as ``ProgramHandler``'s): compiled generically, a removed row's cancellation looked
  /// up the metadata of every type it touched (two thirds of deleting a row of 100).
  @usableFromInline let deliver: @Sendable (_IOOutputList, IORouteSeed) -> Void

  /// The handlers every child of the list uses, one per IO type, in the child's order.
  @inlinable
  public init(_ child: Child.Type, id: ID.Type = ID.self, handlers: repeat each Handler) {
    let handlers = existentials(repeat each handlers)
    let slots = ChildSlots(count: handlers.count) { Child.Input(slot: $0, payload: $1) }
    self.handlers = handlers
    self.slots = slots
    deliver = { outputs, seed in
      Self.handle(
        outputs._outputs(of: IO.Output.self), route: IORoute<IO>(seed: seed),
        to: handlers, slots: slots)
    }
  }

  public func handle(_ output: IO.Output, context: IOContext<IO>) {
    Self.handle(output, route: context.route, to: handlers, slots: slots)
  }

  /// Handles one step's outputs in order; the children removed one after another are ended
  /// together, in one look at the work (popping a stack of 10,000 screens looks at it once,
  /// not once per screen). Nothing is allocated for a removal unless work is running.
  @inlinable
  static func handle(
    _ outputs: [IO.Output], route: IORoute<IO>, to handlers: [any IOHandler], slots: ChildSlots
  ) {
    var start = 0
    var pending = 0
    for index in outputs.indices {
      if case .removed = outputs[index] {
        if pending == 0 { start = index }
        pending += 1
        continue
      }
      if pending > 0 {
        end(outputs[start..<(start + pending)], route: route)
        pending = 0
      }
      handle(outputs[index], route: route, to: handlers, slots: slots)
    }
    if pending > 0 { end(outputs[start..<(start + pending)], route: route) }
  }

  /// Ends the work of the children `removed` names (each a ``ProgramsIO/Output/removed(_:)``).
  @inlinable
  static func end(_ removed: ArraySlice<IO.Output>, route: IORoute<IO>) {
    if removed.count == 1, case .removed(let id)? = removed.first {
      return route.cancelAll(ofChild: { AnyWorkID(id) })
    }
    route.cancelWork(ofChildren: {
      removed.compactMap { if case .removed(let id) = $0 { AnyWorkID(id) } else { nil } }
    })
  }

  @inlinable
  public func _handle(list: _IOOutputList, route: IORouteSeed) { deliver(list, route) }

  /// Hands a child's outputs to the child's handlers in the child's own scope (its id), its
  /// inputs tagged with its id; or cancels all the work of a removed child's scope.
  @inlinable
  static func handle(
    _ output: IO.Output, route: IORoute<IO>, to handlers: [any IOHandler], slots: ChildSlots
  ) {
    switch output {
    case .outputs(let id, let outputs):
      let child: IORoute<ProgramIO<Child>> = route.map(
        { (input: Child.Input) in IO.Input(id: id, input: input) },
        scope: route.scope.appending(AnyWorkID(id)))
      ProgramHandler<Child, repeat each Handler>.dispatch(
        outputs, route: child, to: handlers, slots: slots)
    case .removed(let id):
      route.cancelAll(ofChild: { AnyWorkID(id) })
    }
  }
}

/// The scope of one IO type of a child program.
@usableFromInline
struct ChildSlot: Hashable, Sendable {
  @usableFromInline let index: Int

  @inlinable init(index: Int) { self.index = index }
}

/// What a nested program's handler hands each of the child's IO types, made once when the
/// handler is: made for each list of outputs instead, they were four allocations and a hash
/// per list (a third of a shell step's handling).
@usableFromInline
struct ChildSlots: Sendable {
  /// Each IO type's scope within the child's.
  @usableFromInline let ids: [AnyWorkID]
  /// Each IO type's scope when the child is in none of its own: its id alone.
  @usableFromInline let scopes: [[AnyWorkID]]
  /// Each IO type's input as the child's, for a route that takes the child's inputs as they
  /// are.
  @usableFromInline let inputs: [@Sendable (any Sendable) -> any Sendable]

  @inlinable
  init<Input: Sendable>(count: Int, input: @escaping @Sendable (Int, any Sendable) -> Input) {
    ids = (0..<count).map { AnyWorkID(ChildSlot(index: $0)) }
    scopes = ids.map { [$0] }
    inputs = (0..<count).map { slot in { input(slot, $0) } }
  }
}

extension Array where Element == AnyWorkID {
  /// This scope with `id` inside it.
  @inlinable
  func appending(_ id: AnyWorkID) -> [AnyWorkID] {
    var scope = self
    scope.reserveCapacity(count + 1)
    scope.append(id)
    return scope
  }
}

extension PureApp {
  /// Runs the child program at `path` on `input`: this app with the child's new state, and the
  /// child's outputs as the list a ``ProgramIO`` of this app's outputs takes (empty when the
  /// child asked for nothing).
  ///
  /// ```swift
  /// case (nil, let counterInput?, _):
  ///   let (next, counter) = run(\.counter, counterInput)
  ///   return (next, Outputs([], counter, []))
  /// ```
  ///
  /// Two children in one step (a child telling its sibling) chain: the second runs on what the
  /// first returned.
  @inlinable
  public func run<Child: PureApp, each ChildIO: IOType>(
    _ path: WritableKeyPath<Self, Child>, _ input: Child.Input
  ) -> (Self, [Child.Outputs]) where Child.Outputs == IOOutputs<repeat each ChildIO> {
    var next = self
    let outputs = next.run(path, inPlace: input)
    return (next, outputs)
  }

  /// Runs the child program at `path` on `input`, changing this app in place: the child's
  /// outputs as the list a ``ProgramIO`` of this app's outputs takes. For an app written in
  /// place (``run(inPlace:)``).
  ///
  /// ```swift
  /// case (nil, let counterInput?, _):
  ///   return Outputs([], run(\.counter, inPlace: counterInput), [])
  /// ```
  @inlinable
  public mutating func run<Child: PureApp, each ChildIO: IOType>(
    _ path: WritableKeyPath<Self, Child>, inPlace input: Child.Input
  ) -> [Child.Outputs] where Child.Outputs == IOOutputs<repeat each ChildIO> {
    let outputs = WritableField.modify(&self, at: path) { $0.run(inPlace: input) }
    return outputs.isEmpty ? [] : [outputs]
  }
}

extension IOOutputs {
  /// These outputs as the list a ``ProgramIO`` of a parent's outputs takes: empty when there
  /// are none.
  @inlinable
  public var lifted: [Self] { isEmpty ? [] : [self] }
}

/// The handler of an IO type that only brings inputs (a screen's intents, a child's messages):
/// it has no output to handle.
public struct InputOnlyHandler<IO: IOType>: IOHandler where IO.Output == Never {
  public init() {}

  public func handle(_ output: Never, context: IOContext<IO>) {}
}

extension IdentifiedList where Element: PureApp {
  /// Runs the child program with `id` on `input` in place: its outputs come back as the list a
  /// ``ProgramsIO`` of the parent's outputs takes (empty when it asked for nothing), or `nil`
  /// when no child has that id (a late input for a removed child, which the parent drops).
  ///
  /// - Complexity: O(1) plus the child's step.
  @inlinable
  public mutating func run<each ChildIO: IOType>(
    _ input: Element.Input, id: ID
  ) -> [ProgramsIO<ID, Element>.Output]? where Element.Outputs == IOOutputs<repeat each ChildIO> {
    update(id: id) { child in
      let outputs = child.run(inPlace: input)
      return outputs.isEmpty ? [] : [.outputs(id, outputs)]
    }
  }

  /// ``run(_:id:)`` for children whose programs have one IO type: `input` is that type's.
  ///
  /// ```swift
  /// guard let outputs = rows.run(intent, id: id) else { return }  // IOInput(intent)
  /// ```
  ///
  /// - Complexity: O(1) plus the child's step.
  @inlinable
  public mutating func run<InputIO: IOType, each OutputIO: IOType>(
    _ input: consuming InputIO.Input, id: ID
  ) -> [ProgramsIO<ID, Element>.Output]?
  where Element.Input == IOInput<InputIO>, Element.Outputs == IOOutputs<repeat each OutputIO> {
    // Made as the one IO type's input directly: `IOInput(input)` goes through the pack's
    // optionals, whose metadata Swift 6.3 looks up on every call.
    run(IOInput(slot: 0, value: input), id: id)
  }
}

// Navigation: a child program that exists only while presented, and a stack of programs. Both
// travel as ``ProgramsIO``: a presented child under its presentation's number, a screen under
// its id. Presenting returns the child's first outputs and dismissing returns
// ``ProgramsIO/Output/removed(_:)``, so nothing happens that the parent's step did not return,
// and ``ProgramsHandler`` ends a dismissed child's scope, its work and its late inputs with it.

/// A child program that exists only while presented — a sheet's form — kept in its parent's
/// state with the number of its presentation. Its outputs go out and its inputs come back as a
/// ``ProgramsIO`` whose id is that number, so each presentation has a scope of its own: handle
/// it with a ``ProgramsHandler``.
///
/// ```swift
/// var form = Presentation<AddForm>()
/// case .addTapped:  outputs.form = form.present(AddForm(), .none)
/// case .cancel:     outputs.form = form.dismiss()            // its create is cancelled
/// case (_, let formInput?):                                   // an input of the form's work
///   outputs.form = form.run(formInput) ?? []                  // nil: an old presentation's
/// ```
public struct Presentation<Child: PureApp>: Sendable {
  /// The IO type a presented child travels as: its outputs under its presentation's number.
  public typealias IO = ProgramsIO<Int, Child>

  // Stored apart from what is read publicly so that the methods below can be inlinable:
  // compiled for the app's types, they cost no type-metadata lookups on every step (as generic
  // code, presenting and dismissing looked up `ProgramsIO.Output`'s metadata each time).
  @usableFromInline var shown: Child?
  @usableFromInline var presentation = 0

  /// The child shown, or `nil`.
  @inlinable public var child: Child? { shown }
  /// The number of the presentation shown, or of the last one; `0` before the first.
  @inlinable public var number: Int { presentation }

  /// Nothing presented yet.
  @inlinable public init() {}

  /// Whether a child is presented.
  @inlinable public var isPresented: Bool { shown != nil }

  /// Presents `child`, which starts with `outputs`, as a new presentation; a child shown
  /// before is dismissed first. Returns the outputs that end the old one's work and start the
  /// new one's.
  @inlinable
  public mutating func present<each ChildIO: IOType>(_ child: Child, _ outputs: Child.Outputs)
    -> [IO.Output] where Child.Outputs == IOOutputs<repeat each ChildIO>
  {
    var result = dismiss()
    presentation += 1
    shown = child
    if !outputs.isEmpty { result.append(.outputs(presentation, outputs)) }
    return result
  }

  /// Dismisses the child shown: returns the output that ends its work and drops what it sends
  /// later (nothing when no child is shown).
  @inlinable
  public mutating func dismiss() -> [IO.Output] {
    guard shown != nil else { return [] }
    shown = nil
    return [.removed(presentation)]
  }

  /// Runs the presented child on `input`, an input its work sent: its outputs, or `nil` when
  /// the input is from another presentation than the one shown (dropped).
  @inlinable
  public mutating func run<each ChildIO: IOType>(_ input: IO.Input) -> [IO.Output]?
  where Child.Outputs == IOOutputs<repeat each ChildIO> {
    guard input.id == presentation else { return nil }
    return run(presented: input.input)
  }

  /// Runs the child presented now on `input` (an intent the parent forwards to it): its
  /// outputs, or `nil` when nothing is presented.
  @inlinable
  public mutating func run<each ChildIO: IOType>(presented input: Child.Input) -> [IO.Output]?
  where Child.Outputs == IOOutputs<repeat each ChildIO> {
    guard shown != nil else { return nil }
    let outputs = shown!.run(inPlace: input)
    return outputs.isEmpty ? [] : [.outputs(presentation, outputs)]
  }

  /// Changes the presented child in place (the parent reading what its step left); `nil`
  /// when nothing is presented.
  @inlinable
  public mutating func update<Result>(_ change: (inout Child) -> Result) -> Result? {
    guard shown != nil else { return nil }
    return change(&shown!)
  }
}

extension Presentation: Equatable where Child: Equatable {}

extension IdentifiedList where Element: PureApp {
  /// Appends `child` under `id` — a screen pushed on a stack — which starts with `outputs`:
  /// its outputs as the list a ``ProgramsIO`` of the parent's outputs takes.
  ///
  /// - Complexity: O(1).
  @inlinable
  public mutating func present<each ChildIO: IOType>(
    _ child: Element, id: ID, _ outputs: Element.Outputs
  ) -> [ProgramsIO<ID, Element>.Output] where Element.Outputs == IOOutputs<repeat each ChildIO> {
    guard append(child, id: id) else { return [] }
    return outputs.isEmpty ? [] : [.outputs(id, outputs)]
  }

  /// Removes the child with `id`: the output that ends its work and drops its late inputs
  /// (nothing when no child has that id).
  ///
  /// - Complexity: O(1) for the last element; O(n) otherwise.
  @inlinable
  public mutating func dismiss(id: ID) -> [ProgramsIO<ID, Element>.Output] {
    remove(id: id) == nil ? [] : [.removed(id)]
  }

  /// Removes every child after `id` in the list, then `id` itself if `including`: a stack
  /// closed down to a screen.
  ///
  /// - Complexity: O(k) for the k children removed.
  @inlinable
  public mutating func dismiss(after id: ID, including: Bool = false)
    -> [ProgramsIO<ID, Element>.Output]
  {
    guard contains(id: id) else { return [] }
    var outputs: [ProgramsIO<ID, Element>.Output] = []
    while let last = ids.last, last != id {
      remove(id: last)
      outputs.append(.removed(last))
    }
    if including { outputs += dismiss(id: id) }
    return outputs
  }

  /// Removes every child that matches: the outputs that end their work.
  @inlinable
  public mutating func dismissAll(where shouldRemove: (Element) -> Bool)
    -> [ProgramsIO<ID, Element>.Output]
  {
    let gone = ids { shouldRemove($0) }
    guard !gone.isEmpty else { return [] }
    removeAll(where: shouldRemove)
    return gone.map { .removed($0) }
  }

  /// Removes every child: the outputs that end their work.
  ///
  /// - Complexity: O(n).
  @inlinable
  public mutating func dismissAll() -> [ProgramsIO<ID, Element>.Output] {
    let gone = ids
    self = IdentifiedList()
    return gone.map { .removed($0) }
  }
}
