import Comonadic
import Testing

/// A part of the state whose sharing an action can see: `isKnownUniquelyReferenced` tells
/// whether anyone else (the component) still holds the state the action changes.
final class Shared: Sendable {}

struct Probe: Equatable, Sendable {
  var shared = Shared()
  var wasUnique: [Bool] = []
  var label = 0

  static func == (lhs: Probe, rhs: Probe) -> Bool {
    lhs.shared === rhs.shared && lhs.wasUnique == rhs.wasUnique && lhs.label == rhs.label
  }
}

enum ProbeInput: Sendable {
  case probe, probeThenRead, probeThenTask
  case relabel(Int)
}

/// A view that cannot be compared: the component compares states instead.
struct Opaque: Sendable { let probes: Int }

@Suite struct ActingInPlace {
  static let dispatcher = StateDispatcher<Void, Probe, ProbeInput>.workflow { input in
    let probe = State<Probe, Void>.mutate {
      $0.wasUnique.append(isKnownUniquelyReferenced(&$0.shared))
    }
    return switch input {
    case .probe: [.action(probe)]
    case .probeThenRead: [.action(probe), .read { _ in [] }]
    case .probeThenTask: [.action(probe), .task { _, _ in .none }]
    case .relabel(let label): [.action(.mutate { $0.label = label })]
    }
  }

  @Test func aMutatingActionChangesTheComponentsOwnStateWhenViewsAreCompared() async {
    let component = StoreComponent(
      initialState: Probe(), environment: (), dispatcher: Self.dispatcher,
      render: { state, _ in state.wasUnique.count })
    let views = Recorder<Int>()
    component.subscribe { views.append($0) }
    component.send(.probe)
    component.send(.probeThenRead)
    component.send(.probeThenTask)
    await component.idle()
    component.send(.probe)
    await component.idle()
    #expect(component.state.wasUnique == [true, true, true, true])
    // The task's own action changed nothing the view shows: no call for it.
    #expect(views.all == [0, 1, 2, 3, 4])
  }

  @Test func comparingStatesKeepsTheStateBeforeEachAction() async {
    let component = StoreComponent(
      initialState: Probe(), environment: (), dispatcher: Self.dispatcher,
      render: { state, _ in Opaque(probes: state.wasUnique.count) })
    let views = Recorder<Int>()
    component.subscribe { views.append($0.probes) }
    component.send(.probe)
    component.send(.relabel(0))  // the same state: no call
    component.send(.relabel(1))  // a new state, the same probes: a call
    await component.idle()
    #expect(component.state.wasUnique == [false])
    #expect(views.all == [0, 1, 1])
  }

  @Test func viewObserversHearOnlyChangedViewsWhicheverJoinsFirst() async {
    let component = StoreComponent(
      initialState: Probe(), environment: (), dispatcher: Self.dispatcher,
      render: { state, _ in state.label })
    let first = Recorder<Int>()
    let second = Recorder<Int>()
    component.subscribe { first.append($0) }
    component.send(.relabel(1))
    component.send(.relabel(1))
    component.subscribe { second.append($0) }
    component.send(.probe)  // the view stays 1
    component.send(.relabel(2))
    await component.idle()
    #expect(first.all == [0, 1, 2])
    #expect(second.all == [1, 2])
  }
}
