import MUE
import MUETesting
import Synchronization
import Testing

/// Calls that wait until the test answers them, each noting its start and its cancellation.
final class PendingCalls: Sendable {
  private let state = Lock<
    (waiting: [Int: (name: String, continuation: CheckedContinuation<Int?, Never>)], log: [String])
  >(([:], []))
  private let counter = Atomic(0)

  /// Waits for ``answerAll(with:)``; `nil` once cancelled.
  func call(_ name: String) async -> Int? {
    let number = counter.add(1, ordering: .relaxed).newValue
    state.withLock { $0.log.append(name) }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let cancelled = state.withLock { state in
          if Task.isCancelled { return true }
          state.waiting[number] = (name, continuation)
          return false
        }
        if cancelled { continuation.resume(returning: nil) }
      }
    } onCancel: {
      let continuation = state.withLock { state in
        state.log.append("cancelled \(name)")
        return state.waiting.removeValue(forKey: number)
      }
      continuation?.continuation.resume(returning: nil)
    }
  }

  /// Answers the waiting calls named `name` with `value`.
  func answer(_ name: String, with value: Int) {
    let waiting = state.withLock { state in
      let matching = state.waiting.filter { $0.value.name == name }
      for key in matching.keys { state.waiting[key] = nil }
      return matching.values.map(\.continuation)
    }
    for continuation in waiting { continuation.resume(returning: value) }
  }

  var log: [String] { state.withLock { $0.log } }
  var waitingCount: Int { state.withLock { $0.waiting.count } }
}

/// A navigation app in MUE: a presented form whose save creates, a stack of screens that load.
enum Nav {
  struct Form: Equatable, Sendable, Identifiable {
    let id: Int
    var isSaving = false
  }

  struct Screen: Equatable, Sendable {
    var value: Int?
  }

  struct State: Equatable, Sendable {
    var form: Form?
    var presentations = 0
    var added: [Int] = []
    var stack = IdentifiedList<Int, Screen>()
    var nextScreen = 1
  }

  enum Event: Equatable, Sendable {
    case present, dismiss, save, push, pop, popToRoot
  }

  enum FormEffect: MUE.Effect, Equatable {
    case create
    typealias Result = Int
    enum ID: Hashable, Sendable { case create }
    var id: ID? { .create }
  }

  struct FormUpdate: MUE.Update {
    func handle(event: Event, changing state: inout Form) -> InPlaceResult<FormEffect> {
      guard event == .save, !state.isSaving else { return .noChange }
      state.isSaving = true
      return .changedState(effect: .create)
    }
    func handle(result: Int, changing state: inout Form) -> InPlaceResult<FormEffect> {
      state.isSaving = false
      return .changedState
    }
  }

  enum Effect: MUE.Effect, Equatable {
    case form(FormEffect)
    case load(screen: Int)

    enum Result: Sendable, Equatable {
      case form(Int)
      case loaded(screen: Int, Int)
    }

    enum ID: Hashable, Sendable {
      case form(FormEffect.ID)
      case load(screen: Int)
    }

    var id: ID? {
      switch self {
      case .form(let effect): effect.id.map(ID.form)
      case .load(let screen): .load(screen: screen)
      }
    }
  }

  struct Update: MUE.Update {
    var children: Children<State, Effect.ID> {
      Children(
        .presented(\.form, effects: { if case .form = $0 { true } else { false } }),
        .forEach(\.stack, effects: { if case .load(let id) = $0 { id } else { nil } }))
    }

    func handle(event: Event, changing state: inout State) -> InPlaceResult<Effect> {
      switch event {
      case .present:
        state.presentations += 1
        state.form = Form(id: state.presentations)
        return .changedState
      case .dismiss:
        guard state.form != nil else { return .noChange }
        state.form = nil
        return .changedState
      case .save:
        return FormUpdate().handle(
          event: event, changing: &state, presented: \.form, effect: Effect.form,
          id: Effect.ID.form) ?? .noChange
      case .push:
        let id = state.nextScreen
        state.nextScreen += 1
        state.stack.append(Screen(), id: id)
        return .changedState(effect: .load(screen: id))
      case .pop:
        guard let top = state.stack.ids.last else { return .noChange }
        state.stack.remove(id: top)
        return .changedState
      case .popToRoot:
        state.stack = IdentifiedList()
        return .changedState
      }
    }

    func handle(result: Effect.Result, changing state: inout State) -> InPlaceResult<Effect> {
      switch result {
      case .form(let id):
        state.added.append(id)
        return FormUpdate().handle(
          result: id, changing: &state, presented: \.form, effect: Effect.form,
          id: Effect.ID.form) ?? .changedState
      case .loaded(let screen, let value):
        guard state.stack.update(id: screen, { $0.value = value }) != nil else {
          return .noChange
        }
        return .changedState
      }
    }
  }

  struct Handler: EffectHandler {
    let calls: PendingCalls
    func handle(_ effect: Effect) async -> EffectResult<Effect.Result> {
      switch effect {
      case .form(.create):
        guard let id = await calls.call("create") else { return .empty }
        return .single(.form(id))
      case .load(let screen):
        guard let value = await calls.call("load \(screen)") else { return .empty }
        return .single(.loaded(screen: screen, value))
      }
    }
  }

  /// A handler that answers even when cancelled, as a service that ignores cancellation.
  struct StubbornHandler: EffectHandler {
    let gate: Gate
    func handle(_ effect: Effect) async -> EffectResult<Effect.Result> {
      await gate.wait()
      if case .form = effect { return .single(.form(9)) }
      return .empty
    }
  }
}

@Suite struct Navigation {
  @Test func aPresentedChildsEventWhileNothingIsPresentedIsIgnored() {
    var state = Nav.State()
    let result = Nav.FormUpdate().handle(
      event: .save, changing: &state, presented: \.form, effect: Nav.Effect.form,
      id: Nav.Effect.ID.form)
    #expect(result == nil)
    #expect(state == Nav.State())
  }

  @Test func theLoopEndsADismissedFormsCreate() async {
    let calls = PendingCalls()
    let harness = LoopHarness(
      update: Nav.Update(), effectHandler: Nav.Handler(calls: calls), state: Nav.State())
    await harness.start()
    await harness.send(.present, .save)
    #expect(calls.log == ["create"])
    await harness.send(.dismiss)
    let presented = Nav.State(form: Nav.Form(id: 1), presentations: 1)
    var saving = presented
    saving.form?.isSaving = true
    var dismissed = saving
    dismissed.form = nil
    harness.expect(
      states: [Nav.State(), presented, saving, dismissed], effects: [.form(.create)],
      dismissed: [.form(.create)])
    #expect(calls.log == ["create", "cancelled create"])
  }

  @Test func poppingAScreenEndsItsLoadOnly() async {
    let calls = PendingCalls()
    let harness = LoopHarness(
      update: Nav.Update(), effectHandler: Nav.Handler(calls: calls), state: Nav.State())
    await harness.start()
    await harness.send(.push, .push, .push)
    #expect(calls.waitingCount == 3)
    _ = harness.steps
    await harness.send(.pop)
    #expect(harness.steps.last?.dismissed == [.load(screen: 3)])
    #expect(calls.log.last == "cancelled load 3")
    await harness.send(.popToRoot)
    #expect(Set(harness.steps.last?.dismissed ?? []) == [.load(screen: 1), .load(screen: 2)])
    #expect(calls.waitingCount == 0)
  }

  @Test func theSpecSaysWhatADismissalEnds() {
    let spec = UpdateSpec(Nav.Update())
    var two = Nav.State()
    two.stack.append(Nav.Screen(), id: 1)
    two.stack.append(Nav.Screen(), id: 2)
    two.nextScreen = 3
    var one = two
    one.stack.remove(id: 2)
    spec.given(two, running: [.load(screen: 1), .load(screen: 2)])
      .when(.pop)
      .then(state: one, dismissed: [.load(screen: 2)])
    // Started and dismissed within the inputs.
    spec.given(two).when(.push, .pop)
      .then(
        state: two.with(nextScreen: 4), effects: [.load(screen: 3)],
        dismissed: [.load(screen: 3)])
  }

  @Test func theSpecFailsWhenTheDismissalDiffers() {
    let spec = UpdateSpec(Nav.Update())
    var one = Nav.State()
    one.stack.append(Nav.Screen(), id: 1)
    withKnownIssue {
      spec.given(one, running: [.load(screen: 1)]).when(.dismiss)
        .then(state: one, dismissed: [.load(screen: 1)])
    } matching: { issue in
      issue.comments.contains { "\($0)".contains("effects ended with a dismissed child differ") }
    }
  }

  @Test func aLateAnswerOfADismissedFormIsDropped() async {
    let gate = Gate()
    let loop = Loop(
      update: Nav.Update(), effectHandler: Nav.StubbornHandler(gate: gate), state: Nav.State())
    loop.start()
    loop.send(.present)
    loop.send(.save)
    loop.send(.dismiss)
    loop.send(.present)
    gate.open()
    await loop.idle()
    #expect(loop.state.added == [])
    #expect(loop.state.form == Nav.Form(id: 2))
    loop.stop()
  }

  @Test func aHandlerOfADismissedFormStaysDead() async {
    let calls = PendingCalls()
    let loop = Loop(
      update: Nav.Update(), effectHandler: Nav.Handler(calls: calls), state: Nav.State())
    loop.start()
    #expect(loop.handler(presented: \.form) == nil)
    loop.send(.present)
    let first = try! #require(loop.handler(presented: \.form))
    loop.send(.dismiss)
    loop.send(.present)
    first(.save)
    #expect(loop.state.form == Nav.Form(id: 2))
    let second = try! #require(loop.handler(presented: \.form))
    second(.save)
    #expect(loop.state.form?.isSaving == true)
    loop.stop()
  }

  @Test func aHandlerEventQueuedBeforeTheDismissalIsHandledIsIgnored() async {
    let calls = PendingCalls()
    let loop = Loop(
      update: Nav.Update(), effectHandler: Nav.Handler(calls: calls), state: Nav.State())
    loop.start()
    loop.send(.present)
    let form = try! #require(loop.handler(presented: \.form))
    let once = Atomic(false)
    // An observer sends while the loop is busy: the dismissal and a new presentation are
    // queued before the old handler's save.
    let subscription = loop.observe { (state: Nav.State) in
      guard state.presentations == 1, state.form != nil,
        !once.exchange(true, ordering: .relaxed)
      else { return }
      loop.send(.dismiss)
      loop.send(.present)
      form(.save)
      loop.send(.push)
    }
    await eventually { loop.state.stack.count == 1 }
    subscription.cancel()
    #expect(loop.state.form == Nav.Form(id: 2))
    #expect(!calls.log.contains("create"))
    loop.stop()
  }

  @Test func aLargeStackPopsOneScreensLoad() async {
    let calls = PendingCalls()
    let loop = Loop(
      update: Nav.Update(), effectHandler: Nav.Handler(calls: calls), state: Nav.State())
    loop.start()
    for _ in 1...1_000 { loop.send(.push) }
    await eventually { calls.waitingCount == 1_000 }
    // The loop is idle, so `send` handles the event on this thread: a cancelled call has
    // noted it when `send` returns.
    loop.send(.pop)
    #expect(calls.waitingCount == 999)
    #expect(calls.log.filter { $0.hasPrefix("cancelled") } == ["cancelled load 1000"])
    loop.send(.popToRoot)
    #expect(calls.waitingCount == 0)
    #expect(calls.log.filter { $0.hasPrefix("cancelled") }.count == 1_000)
    loop.stop()
  }
}

extension Nav.State {
  func with(nextScreen: Int) -> Nav.State {
    var copy = self
    copy.nextScreen = nextScreen
    return copy
  }
}

#if canImport(Observation)
  import Observation

  @MainActor @Suite struct NavigationObservation {
    @Test func aPresentedChildIsAnObjectOrNilAndItsChangesTouchOnlyIt() async {
      let calls = PendingCalls()
      let loop = Loop(
        update: Nav.Update(), effectHandler: Nav.Handler(calls: calls), state: Nav.State())
      let model = ObservableLoop(loop)
      let form = model.presented(\.form)
      #expect(form.child == nil)
      loop.send(.present)
      await model.settled()
      let first = try! #require(form.child)
      let (presence, fields) = (Fired(), Fired())
      withObservationTracking {
        _ = form.child
      } onChange: {
        presence.set()
      }
      withObservationTracking {
        _ = first.value
      } onChange: {
        fields.set()
      }
      loop.send(.save)
      await model.settled()
      #expect(!presence.isSet)
      #expect(fields.isSet)
      let replaced = Fired()
      withObservationTracking {
        _ = form.child
      } onChange: {
        replaced.set()
      }
      loop.send(.dismiss)
      loop.send(.present)
      await model.settled()
      #expect(replaced.isSet)
      #expect(form.child !== first)
      loop.stop()
    }

    @Test func theStackIsIdsAndOneObjectPerScreen() async {
      let calls = PendingCalls()
      let loop = Loop(
        update: Nav.Update(), effectHandler: Nav.Handler(calls: calls), state: Nav.State())
      let model = ObservableLoop(loop)
      for _ in 1...3 { loop.send(.push) }
      await model.settled()
      let stack = model.list(\.stack)
      #expect(stack.ids == [1, 2, 3])
      let (bottom, top, ids) = (Fired(), Fired(), Fired())
      withObservationTracking {
        _ = stack.row(1).value
      } onChange: {
        bottom.set()
      }
      withObservationTracking {
        _ = stack.row(3).value
      } onChange: {
        top.set()
      }
      withObservationTracking {
        _ = stack.ids
      } onChange: {
        ids.set()
      }
      while calls.waitingCount < 3 { await Task.yield() }
      calls.answer("load 3", with: 5)
      while loop.state.stack[id: 3]?.value != 5 { await Task.yield() }
      await model.settled()
      #expect(!bottom.isSet)
      #expect(top.isSet)
      #expect(!ids.isSet)
      loop.send(.pop)
      await model.settled()
      #expect(stack.ids == [1, 2])
      #expect(stack.row(3).value == nil)
      loop.stop()
    }
  }
#endif
