import ElmStore
import ElmStoreTesting
import Synchronization
import Testing

/// A service whose calls wait until the test answers them, and that notes each cancellation.
final class HeldService: Sendable {
  private struct Call {
    var name: String
    var continuation: CheckedContinuation<Int, any Error>
  }
  private let state = Lock<(calls: [Int: Call], next: Int, log: [String])>(([:], 0, []))

  /// Waits for the test's answer; throws `CancellationError` when the caller is cancelled.
  func call(_ name: String) async throws -> Int {
    let number = state.withLock { state in
      state.next += 1
      state.log.append(name)
      return state.next
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let cancelled = state.withLock { state -> Bool in
          guard state.log.last(where: { $0 == "cancelled \(name) \(number)" }) == nil else {
            return true
          }
          state.calls[number] = Call(name: name, continuation: continuation)
          return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let call = state.withLock { state -> Call? in
        state.log.append("cancelled \(name)")
        return state.calls.removeValue(forKey: number)
      }
      call?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Answers every call named `name` that waits, with `value`.
  func answer(_ name: String, with value: Int) {
    let calls = state.withLock { state in
      let matching = state.calls.filter { $0.value.name == name }
      for key in matching.keys { state.calls[key] = nil }
      return matching.values.map(\.continuation)
    }
    for continuation in calls { continuation.resume(returning: value) }
  }

  /// The calls and cancellations so far, in order.
  var log: [String] { state.withLock { $0.log } }
  var waiting: Int { state.withLock { $0.calls.count } }
}

/// A small navigation app: a presented form whose save calls the service, and a stack of
/// screens that each load.
enum Nav {
  struct Form: Equatable, Sendable, Identifiable {
    let id: Int
    var isSaving = false
  }

  enum FormAction: Equatable, Sendable {
    case save
    case created(Int)
  }

  struct Screen: Equatable, Sendable {
    var isLoading = false
    var value: Int?
  }

  enum ScreenAction: Equatable, Sendable {
    case load
    case loaded(Int)
  }

  struct State: Equatable, Sendable {
    var form: Form?
    var presentations = 0
    var added: [Int] = []
    var stack = IdentifiedList<Int, Screen>()
    var nextScreen = 1
  }

  enum Action: Equatable, Sendable {
    case present
    case dismiss
    case form(FormAction)
    case push
    case pop
    case popToRoot
    case screen(id: Int, ScreenAction)
  }

  static let form = ActionPath<Action, FormAction>(
    embed: Action.form, extract: { if case .form(let action) = $0 { action } else { nil } })
  static let screen = ActionPath<Action, (id: Int, action: ScreenAction)>(
    embed: { .screen(id: $0.id, $0.action) },
    extract: { if case .screen(let id, let action) = $0 { (id, action) } else { nil } })

  static func formUpdate(_ state: inout Form, _ action: FormAction) {
    switch action {
    case .save: state.isSaving = true
    case .created: state.isSaving = false
    }
  }

  static func screenUpdate(_ state: inout Screen, _ action: ScreenAction) {
    switch action {
    case .load: state.isLoading = true
    case .loaded(let value):
      state.isLoading = false
      state.value = value
    }
  }

  static let update: Update<State, Action> = combine(
    lift(formUpdate, ifLet: \.form, action: form),
    lift(screenUpdate, forEach: \.stack, action: screen),
    { state, action in
      switch action {
      case .present:
        state.presentations += 1
        state.form = Form(id: state.presentations)
      case .dismiss:
        state.form = nil
      case .form(.created(let id)):
        state.added.append(id)
      case .push:
        state.stack.append(Screen(), id: state.nextScreen)
        state.nextScreen += 1
      case .pop:
        if let top = state.stack.ids.last { state.stack.remove(id: top) }
      case .popToRoot:
        state.stack = IdentifiedList()
      case .form, .screen:
        break
      }
    })

  static func formEffect(_ service: HeldService) -> Effect<Form, FormAction> {
    Effect { _, action, dispatch in
      guard action == .save else { return }
      dispatch.run(id: "create") { send in send(.created(try await service.call("create"))) }
    }
  }

  static func screenEffect(_ service: HeldService) -> Effect<Screen, ScreenAction> {
    Effect { _, action, dispatch in
      guard action == .load else { return }
      dispatch.run(id: "load") { send in send(.loaded(try await service.call("load"))) }
    }
  }

  static func effect(_ service: HeldService) -> Effect<State, Action> {
    Effect {
      formEffect(service).lifted(ifLet: \.form, action: form)
      screenEffect(service).lifted(forEach: \.stack, action: screen)
    }
  }

  /// The same app with the form's effect lifted as if it were always there: its work is the
  /// app's, and dismissing the form leaves it running.
  static func leakyEffect(_ service: HeldService) -> Effect<State, Action> {
    Effect { state, action, dispatch in
      guard let form = state.form, let formAction = Nav.form.extract(action) else { return }
      formEffect(service).run(state: form, action: formAction, dispatch: dispatch.map(Action.form))
    }
  }
}

@Suite struct Navigation {
  @Test func aChildActionWhileNothingIsPresentedIsIgnored() {
    var state = Nav.State()
    Nav.update(&state, .form(.save))
    #expect(state == Nav.State())
    Nav.update(&state, .screen(id: 7, .load))
    #expect(state == Nav.State())
  }

  @Test func dismissingTheFormCancelsItsWork() async {
    let service = HeldService()
    let store = TestStore(
      initialState: Nav.State(), update: Nav.update, effect: Nav.effect(service))
    await store.send(.present) {
      $0.presentations = 1
      $0.form = Nav.Form(id: 1)
    }
    await store.send(.form(.save)) { $0.form?.isSaving = true }
    #expect(service.log == ["create"])
    await store.send(.dismiss, dismissing: \.form) { $0.form = nil }
    #expect(store.endedByLastDismissal == ["\\State.form #1 › create"])
    #expect(service.log == ["create", "cancelled create"])
    await store.finish()
  }

  @Test func poppingAScreenCancelsItsLoadOnly() async {
    let service = HeldService()
    let store = TestStore(
      initialState: Nav.State(), update: Nav.update, effect: Nav.effect(service))
    store.exhaustivity = .off
    for id in 1...3 {
      await store.send(.push)
      await store.send(.screen(id: id, .load))
    }
    #expect(service.waiting == 3)
    await store.send(.pop, dismissing: \.stack[id: 3])
    #expect(store.endedByLastDismissal == ["\\State.stack[3] › load"])
    #expect(service.log == ["load", "load", "load", "cancelled load"])
    await store.send(.popToRoot, dismissing: \.stack[id: 1])
    #expect(service.log.filter { $0 == "cancelled load" }.count == 3)
    await store.finish()
  }

  @Test func theTestStoreFailsWhenADismissedChildsWorkGoesOn() async {
    let service = HeldService()
    let store = TestStore(
      initialState: Nav.State(), update: Nav.update, effect: Nav.leakyEffect(service))
    await store.send(.present) {
      $0.presentations = 1
      $0.form = Nav.Form(id: 1)
    }
    await store.send(.form(.save)) { $0.form?.isSaving = true }
    await withKnownIssue {
      await store.send(.dismiss, dismissing: \.form) { $0.form = nil }
    } matching: { issue in
      issue.comments.contains { "\($0)".contains("left its work running:\n  create") }
    }
    service.answer("create", with: 9)
    await store.skipReceivedActions()
  }

  @Test func aLateAnswerOfADismissedFormIsDropped() async {
    let service = HeldService()
    let store = Store(state: Nav.State(), update: Nav.update, effect: Nav.effect(service))
    store.dispatch(.present)
    store.dispatch(.form(.save))
    await eventually { service.waiting == 1 }
    store.dispatch(.dismiss)
    store.dispatch(.present)
    // The answer arrives anyway (as from a service that ignores cancellation): dropped.
    service.answer("create", with: 9)
    await store.idle()
    #expect(store.state.added == [])
    #expect(store.state.form == Nav.Form(id: 2))
    store.stop()
  }

  @Test func aScopeOfADismissedFormStaysDead() async {
    let service = HeldService()
    let store = Store(state: Nav.State(), update: Nav.update, effect: Nav.effect(service))
    #expect(store.scope(ifLet: \.form, action: Nav.Action.form) == nil)
    store.dispatch(.present)
    let first = try! #require(store.scope(ifLet: \.form, action: Nav.Action.form))
    #expect(first.state == Nav.Form(id: 1))
    store.dispatch(.dismiss)
    store.dispatch(.present)
    #expect(first.state == nil)
    first.dispatch(.save)
    #expect(store.state.form == Nav.Form(id: 2))
    #expect(service.log == [])
    let second = try! #require(store.scope(ifLet: \.form, action: Nav.Action.form))
    second.dispatch(.save)
    #expect(store.state.form?.isSaving == true)
    store.stop()
  }

  @Test func aScopeDispatchQueuedBeforeTheDismissalIsHandledIsIgnored() async {
    let service = HeldService()
    let store = Store(state: Nav.State(), update: Nav.update, effect: Nav.effect(service))
    store.dispatch(.present)
    let form = try! #require(store.scope(ifLet: \.form, action: Nav.Action.form))
    let order = Recorder<Int>()
    // An observer dispatches while the store is busy: the dismissal and a new presentation
    // are queued before the old scope's save.
    let subscription = store.subscribe { (state: Nav.State) in
      guard state.presentations == 1, state.form != nil, order.all.isEmpty else { return }
      order.append(1)
      store.dispatch(.dismiss)
      store.dispatch(.present)
      form.dispatch(.save)
      store.dispatch(.push)  // handled after the save: the test waits for it
    }
    await eventually { store.state.stack.count == 1 }
    subscription.cancel()
    #expect(store.state.form == Nav.Form(id: 2))
    #expect(service.log == [])
    store.stop()
  }

  @Test func aLargeStackPopsOneScreensWork() async {
    let service = HeldService()
    let store = Store(state: Nav.State(), update: Nav.update, effect: Nav.effect(service))
    for id in 1...1_000 {
      store.dispatch(.push)
      store.dispatch(.screen(id: id, .load))
    }
    await eventually { service.waiting == 1_000 }
    store.dispatch(.pop)
    await eventually { service.waiting == 999 }
    #expect(service.log.filter { $0 == "cancelled load" }.count == 1)
    store.dispatch(.popToRoot)
    await eventually { service.waiting == 0 }
    #expect(service.log.filter { $0 == "cancelled load" }.count == 1_000)
    store.stop()
  }
}

#if canImport(Observation)
  import Observation

  @MainActor @Suite struct NavigationObservation {
    @Test func aPresentedChildIsAnObjectOrNilAndItsChangesTouchOnlyIt() async {
      let service = HeldService()
      let store = Store(state: Nav.State(), update: Nav.update, effect: Nav.effect(service))
      let model = ObservableStore(store)
      let form = model.presented(\.form)
      #expect(form.child == nil)
      store.dispatch(.present)
      await model.settled()
      let first = try! #require(form.child)
      #expect(first.value == Nav.Form(id: 1))

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
      store.dispatch(.form(.save))
      await model.settled()
      #expect(!presence.isSet)
      #expect(fields.isSet)
      #expect(first.value.isSaving)

      let replaced = Fired()
      withObservationTracking {
        _ = form.child
      } onChange: {
        replaced.set()
      }
      store.dispatch(.dismiss)
      store.dispatch(.present)
      await model.settled()
      #expect(replaced.isSet)
      #expect(form.child !== first)
      #expect(form.child?.value == Nav.Form(id: 2))
      store.stop()
    }

    @Test func theStackIsIdsAndOneObjectPerScreen() async {
      let service = HeldService()
      let store = Store(state: Nav.State(), update: Nav.update, effect: Nav.effect(service))
      for _ in 1...3 { store.dispatch(.push) }
      let model = ObservableStore(store)
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
      store.dispatch(.screen(id: 3, .load))
      await model.settled()
      #expect(!bottom.isSet)
      #expect(top.isSet)
      #expect(!ids.isSet)

      let popped = Fired()
      withObservationTracking {
        _ = stack.ids
      } onChange: {
        popped.set()
      }
      store.dispatch(.pop)
      await model.settled()
      #expect(popped.isSet)
      #expect(stack.ids == [1, 2])
      #expect(stack.row(3).value == nil)
      store.stop()
    }
  }
#endif
