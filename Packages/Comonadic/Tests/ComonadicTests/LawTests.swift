import Comonadic
import Testing

/// The comonad laws for `Store` and `Moore`, the monad laws for `State`, and the pairing law
/// `select(m, w) == pair(m, duplicate(w))`, each checked on 300 random cases from a fixed seed.
/// Functions are drawn as data (affine maps, observers), so a failure prints what failed.
@Suite struct Laws {
  static let cases = 300

  // MARK: Store

  @Test func storeExtendingExtractIsIdentity() {
    forAll { random in
      let store = random.store()
      let extended = store.extend { $0.extract() }
      return same(extended, store, at: random.positions())
    }
  }

  @Test func storeExtractAfterExtendIsTheFunction() {
    forAll { random in
      let (store, f) = (random.store(), random.observer())
      return store.extend(f.apply).extract() == f.apply(store)
    }
  }

  @Test func storeExtendIsAssociative() {
    forAll { random in
      let (store, f, g) = (random.store(), random.observer(), random.observer())
      let left = store.extend(f.apply).extend(g.apply)
      let right = store.extend { g.apply($0.extend(f.apply)) }
      return same(left, right, at: random.positions())
    }
  }

  @Test func storeDuplicateLaws() {
    forAll { random in
      let store = random.store()
      let positions = random.positions()
      return same(store.duplicate().extract(), store, at: positions)
        && same(store.duplicate().map { $0.extract() }, store, at: positions)
    }
  }

  @Test func storeSeekAndPeekAgree() {
    forAll { random in
      let store = random.store()
      let position = random.int()
      return store.seek(position).extract() == store.peek(position)
        && store.seek(position).position == position
    }
  }

  // MARK: State

  @Test func stateMonadLaws() {
    forAll { random in
      let (value, f, g, m) = (random.int(), random.action(), random.action(), random.state())
      let states = random.positions()
      let leftIdentity = same(State<Int, Int>.pure(value).flatMap(f.make), f.make(value), states)
      let rightIdentity = same(m.flatMap { .pure($0) }, m, states)
      let associativity = same(
        m.flatMap(f.make).flatMap(g.make), m.flatMap { f.make($0).flatMap(g.make) }, states)
      return leftIdentity && rightIdentity && associativity
    }
  }

  @Test func getSetAndModifyDoWhatTheySay() {
    forAll { random in
      let (state, value, f) = (random.int(), random.int(), random.affine())
      return State<Int, Int>.get().run(state) == (state, state)
        && State<Int, Void>.set(value).finalState(from: state) == value
        && State<Int, Void>.modify(f.apply).finalState(from: state) == f.apply(state)
    }
  }

  // MARK: Pairing

  @Test func selectingWithStateEqualsPairingWithTheDuplicate() {
    forAll { random in
      let (action, store) = (random.state(), random.store())
      let selected = select(action, store)
      let paired = pair(action, store.duplicate()) { _, next in next }
      return selected.position == paired.position
        && same(selected, paired, at: random.positions())
    }
  }

  @Test func selectingWithInputsEqualsPairingWithTheDuplicate() {
    forAll { random in
      let (inputs, machine) = (Inputs(random.inputs(), value: ()), random.moore())
      let selected = select(inputs, machine)
      let paired = pair(inputs, machine.duplicate()) { _, next in next }
      return same(selected, paired, along: random.inputLists())
    }
  }

  // MARK: Moore

  @Test func mooreExtendingExtractIsIdentity() {
    forAll { random in
      let machine = random.moore()
      return same(machine.extend { $0.extract() }, machine, along: random.inputLists())
    }
  }

  @Test func mooreExtractAfterExtendIsTheFunction() {
    forAll { random in
      let (machine, f) = (random.moore(), random.mooreObserver())
      return machine.extend(f.apply).extract() == f.apply(machine)
    }
  }

  @Test func mooreExtendIsAssociative() {
    forAll { random in
      let (machine, f, g) = (random.moore(), random.mooreObserver(), random.mooreObserver())
      let left = machine.extend(f.apply).extend(g.apply)
      let right = machine.extend { g.apply($0.extend(f.apply)) }
      return same(left, right, along: random.inputLists())
    }
  }

  @Test func inputsMonadConcatenatesInOrder() {
    forAll { random in
      let (first, second) = (random.inputs(), random.inputs())
      let combined = Inputs(first, value: 1).flatMap { Inputs(second, value: $0 + 1) }
      return combined.inputs == first + second && combined.value == 2
    }
  }
}

// MARK: Random cases

/// Runs `property` on ``Laws/cases`` random cases; records the seed of the first failure.
private func forAll(
  sourceLocation: SourceLocation = #_sourceLocation, _ property: (inout Random) -> Bool
) {
  for seed in 1...UInt64(Laws.cases) {
    var random = Random(seed: seed)
    if !property(&random) {
      Issue.record("fails for seed \(seed)", sourceLocation: sourceLocation)
      return
    }
  }
}

/// SplitMix64: small, fast, and the same everywhere.
private struct Random {
  var bits: UInt64
  init(seed: UInt64) { bits = seed &* 0x9E37_79B9_7F4A_7C15 }

  mutating func next() -> UInt64 {
    bits &+= 0x9E37_79B9_7F4A_7C15
    var z = bits
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func int() -> Int { Int(truncatingIfNeeded: next() % 2001) - 1000 }
  mutating func affine() -> Affine { Affine(scale: int() % 7, offset: int()) }
  mutating func positions() -> [Int] { (0..<8).map { _ in int() } }
  mutating func inputs() -> [Int] { (0..<Int(next() % 5)).map { _ in int() } }
  mutating func inputLists() -> [[Int]] { (0..<6).map { _ in inputs() } }

  mutating func store() -> Store<Int, Int> {
    let render = affine()
    return Store(position: int(), render: render.apply)
  }

  mutating func observer() -> Observer {
    Observer(offset: int(), weight: int() % 5, bias: int())
  }

  mutating func state() -> State<Int, Int> {
    switch next() % 3 {
    case 0: return State<Int, Void>.set(int()).map { 0 }
    case 1:
      let f = affine()
      return State<Int, Void>.modify(f.apply).flatMap { .get() }
    default:
      let (f, g) = (affine(), affine())
      return State { (f.apply($0), g.apply($0)) }
    }
  }

  mutating func action() -> Action { Action(f: affine(), g: affine()) }

  mutating func moore() -> Moore<Int, Int> {
    let (render, mix) = (affine(), int())
    return Moore(state: int(), reduce: { $0 &* 31 &+ $1 &+ mix }, render: render.apply)
  }

  mutating func mooreObserver() -> MooreObserver {
    MooreObserver(input: int(), weight: int() % 5, bias: int())
  }
}

/// x ↦ scale·x + offset, wrapping.
private struct Affine: Sendable {
  var scale: Int
  var offset: Int
  @Sendable func apply(_ x: Int) -> Int { x &* scale &+ offset }
}

/// A function from a store: its value a little way off, weighted, plus its value here.
private struct Observer: Sendable {
  var offset: Int
  var weight: Int
  var bias: Int
  @Sendable func apply(_ store: Store<Int, Int>) -> Int {
    store.peek(store.position &+ offset) &* weight &+ store.extract() &+ bias
  }
}

/// A function from a Moore machine: its value after one input, weighted, plus its value now.
private struct MooreObserver: Sendable {
  var input: Int
  var weight: Int
  var bias: Int
  @Sendable func apply(_ machine: Moore<Int, Int>) -> Int {
    machine.step(input).value &* weight &+ machine.value &+ bias
  }
}

/// a ↦ an action that sets the state to f(state) + a and produces g(a).
private struct Action: Sendable {
  var f: Affine
  var g: Affine
  @Sendable func make(_ value: Int) -> State<Int, Int> {
    let (f, g) = (f, g)
    return State { (f.apply($0) &+ value, g.apply(value)) }
  }
}

private func same(_ a: Store<Int, Int>, _ b: Store<Int, Int>, at positions: [Int]) -> Bool {
  a.extract() == b.extract() && positions.allSatisfy { a.peek($0) == b.peek($0) }
}

private func same(_ a: State<Int, Int>, _ b: State<Int, Int>, _ states: [Int]) -> Bool {
  states.allSatisfy { a.run($0) == b.run($0) }
}

private func same(_ a: Moore<Int, Int>, _ b: Moore<Int, Int>, along lists: [[Int]]) -> Bool {
  a.value == b.value && lists.allSatisfy { a.run($0).value == b.run($0).value }
}
