import ArchitectureSpec
import LayerCore
import Synchronization

/// The add form as a feature of its own: its state (with the `create` it asks for, as a
/// request), its reducer and its machine. The contacts app presents it with
/// ``Layer/presented(_:machine:event:)``: the machine exists while the form does.
public enum LayerAddForm {
  // side-by-side: contacts state
  public struct State: Sendable, Equatable, Identifiable {
    /// This presentation: a form presented again is a new one (R13).
    public let id: Int
    public var name = ""
    public var isSaving = false
    public var error = ""
    /// The `create` the form's machine carries out.
    public var create: Request<String>?

    public init(id: Int) { self.id = id }
  }

  // side-by-side: contacts intents
  /// How the service answered a `create`: the new id, or `nil` when it failed.
  public struct Created: Sendable, Equatable {
    public var request: Request<String>
    public var id: Int?
  }

  // side-by-side: contacts update
  /// Applies `intent` to the form in place; returns whether it changed. `request` numbers a new
  /// `create`.
  public static func reduce(_ state: inout State, _ intent: FormIntent, request: Int) -> Bool {
    switch intent {
    case .nameChanged(let name):
      guard !state.isSaving else { return false }
      state.name = name
      state.error = ""
    case .save:
      let title = ContactsApp.title(from: state.name)
      guard !state.isSaving, !title.isEmpty else { return false }
      state.isSaving = true
      state.error = ""
      state.create = Request(id: request, title)
    case .cancel:
      return false  // the app dismisses the form
    }
    return true
  }

  /// The form after its `create` failed (or the app refused the id).
  public static func failed(_ state: State) -> State {
    var next = state
    next.isSaving = false
    next.error = ContactsApp.addFailedText(title: state.create?.value ?? "")
    next.create = nil
    return next
  }

  // side-by-side: contacts effects
  /// Carries out the form's `create`, once per request.
  final class CreateMachine: ChildMachine {
    let service: any ContactsService
    /// The last request carried out: a word, not a lock (a machine per screen makes one).
    private let latest = Atomic<Int>(0)

    init(service: any ContactsService) { self.service = service }

    func process(input: State?, callback: Handler<Created>) {
      guard let request = input?.create,
        latest.exchange(request.id, ordering: .acquiringAndReleasing) != request.id
      else { return }
      let service = service
      callback.run { send in
        do {
          send(Created(request: request, id: try await service.create(name: request.value)))
        } catch is CancellationError {
        } catch {
          send(Created(request: request, id: nil))
        }
      }
    }
  }

  // side-by-side: contacts wiring
  public static func view(_ state: State) -> FormView {
    FormView(name: state.name, isSaving: state.isSaving, error: state.error)
  }
  // side-by-side: end
}

/// One detail screen as a feature of its own: its state (with the load it asks for), its
/// reducer and its machine. The app runs one machine per screen of its stack with
/// ``Layer/forEach(_:machine:event:)``: popping a screen drops its machine and its load.
public enum LayerContactScreen {
  // side-by-side: contacts state
  public struct State: Sendable, Equatable {
    public var contact: Contact
    public var status = ScreenView.Status.loading
    public var text: String
    /// The load the screen's machine carries out (the contact's id).
    public var load: Request<Int>?

    /// A screen that arrives, loading `contact`'s details under `request`.
    public init(arriving contact: Contact, request: Int) {
      self.contact = contact
      text = ContactsApp.loadingText(name: contact.name)
      load = Request(id: request, contact.id)
    }
  }

  // side-by-side: contacts intents
  /// How the service answered a load: the details, or `nil` when it failed.
  public struct Answer: Sendable, Equatable {
    public var request: Request<Int>
    public var details: String?
  }

  // side-by-side: contacts update
  /// The screen after a retry: loading again under `request`, if it had failed.
  public static func retried(_ state: State, request: Int) -> State? {
    guard state.status == .failed else { return nil }
    var next = state
    next.status = .loading
    next.text = ContactsApp.loadingText(name: state.contact.name)
    next.load = Request(id: request, state.contact.id)
    return next
  }

  /// The screen after `answer`; `nil` when it is not the answer the screen waits for.
  public static func answered(_ state: State, _ answer: Answer) -> State? {
    guard state.load == answer.request, state.status == .loading else { return nil }
    var next = state
    next.status = answer.details == nil ? .failed : .loaded
    next.text = answer.details ?? ContactsApp.failedText(name: state.contact.name)
    next.load = nil
    return next
  }

  // side-by-side: contacts effects
  /// Carries out the screen's load, once per request.
  final class DetailsMachine: ChildMachine {
    let service: any ContactsService
    /// The last request carried out: a word, not a lock (a machine per screen makes one).
    private let latest = Atomic<Int>(0)

    init(service: any ContactsService) { self.service = service }

    func process(input: State?, callback: Handler<Answer>) {
      guard let request = input?.load,
        latest.exchange(request.id, ordering: .acquiringAndReleasing) != request.id
      else { return }
      let service = service
      callback.run { send in
        do {
          send(Answer(request: request, details: try await service.details(id: request.value)))
        } catch is CancellationError {
        } catch {
          send(Answer(request: request, details: nil))
        }
      }
    }
  }

  // side-by-side: contacts wiring
  public static func view(id: Int, _ state: State) -> ScreenView {
    ScreenView(
      screenID: id, contactID: state.contact.id, contactName: state.contact.name,
      status: state.status, text: state.text)
  }
  // side-by-side: end
}

// side-by-side: contacts wiring
/// The screens of the stack on screen: one machine for the whole stack, which the kit asks for
/// single screens, and which sends what the user does on one.
public typealias LayerContactScreens = RowsMachine<Int, LayerContactScreen.State, ContactsIntent>
// side-by-side: end

/// The contacts app as a simprokcore app: the core keeps the list, the destination and the
/// stack; a layer presents the form's machine while the form exists, another runs one machine
/// per screen. Dismissing is a change of the state; the layers end the dismissed child's work.
public enum LayerContacts {
  // side-by-side: contacts state
  public struct AppState: Sendable, Equatable {
    public var contacts: [Contact]
    public var form: LayerAddForm.State?
    /// The contact the alert asks about, while it is presented.
    public var alert: Int?
    public var stack = IdentifiedList<Int, LayerContactScreen.State>()
    public var nextScreenID = 1
    public var presentations = 0
    var lastRequest = 0

    /// Every field compared, the ones that change most often and cost least first: most new
    /// states differ from the last in a counter (a request, a presentation, a screen) or in
    /// which form is presented, found before the form's strings and the lists are looked at
    /// (comparing two forms copies both).
    public static func == (lhs: AppState, rhs: AppState) -> Bool {
      lhs.lastRequest == rhs.lastRequest && lhs.presentations == rhs.presentations
        && lhs.nextScreenID == rhs.nextScreenID && lhs.alert == rhs.alert
        && lhs.form?.id == rhs.form?.id && lhs.form == rhs.form
        && lhs.contacts == rhs.contacts && lhs.stack == rhs.stack
    }

    /// The app with `contacts` and a loading screen for each contact of `launchPath` (N1).
    public init(contacts: [Contact], launchPath: [Int]) {
      self.contacts = contacts
      for id in launchPath { push(id) }
    }

    func contact(_ id: Int) -> Contact? { contacts.first { $0.id == id } }

    mutating func nextRequest() -> Int {
      lastRequest += 1
      return lastRequest
    }

    mutating func push(_ contactID: Int) {
      guard let contact = contact(contactID) else { return }
      stack.append(
        LayerContactScreen.State(arriving: contact, request: nextRequest()), id: nextScreenID)
      nextScreenID += 1
    }

    /// Removes every screen above `screenID`, and `screenID` too if `including`.
    mutating func close(after screenID: Int, including: Bool) {
      while let top = stack.ids.last, top != screenID { stack.remove(id: top) }
      if including { stack.remove(id: screenID) }
    }
  }

  // side-by-side: contacts intents
  public enum AppEvent: Sendable {
    case ui(UIEvent)
    case created(LayerAddForm.Created)
    case screen(id: Int, LayerContactScreen.Answer)
  }

  /// What the user does: an intent, or a form intent sent through the scope of one
  /// presentation of the form.
  public enum UIEvent: Sendable {
    case intent(ContactsIntent)
    case form(presentation: Int, FormIntent)
  }

  // side-by-side: contacts wiring
  /// What the screen shows: the state, whose view is made when someone reads it. The screen
  /// layer gets every state, and an app whose root nobody observes (each screen observed on its
  /// own) makes no view of the whole stack per message: pushing a screen onto 10,000 costs what
  /// it costs onto 10 (SPEC R13).
  public struct ScreenModel: Sendable, Equatable {
    /// The state, held by reference: the model goes through the screen's layer, and a copy of
    /// it is then one retain, where a copy of the state retains every list and string it holds
    /// (and moves its whole size). Once shown to observers, the view instead (see ``shown()``).
    let storage: Storage

    init(state: AppState) { storage = StateStorage(state) }

    private init(storage: Storage) { self.storage = storage }

    /// Which presentation of the form is shown, if the form is.
    public var formPresentation: Int? { storage.formPresentation }

    /// The view of the whole app.
    public var view: ContactsView {
      if storage.isShown { return unsafeDowncast(storage, to: ShownStorage.self).view }
      return LayerContacts.view(unsafeDowncast(storage, to: StateStorage.self).state)
    }

    /// The model with its view made, holding no state: what the screen shows its observers and
    /// keeps to compare the next with. A kept model that held the state would share the stack
    /// with the flow, and the reducer's next push or pop would copy it. With no screen on the
    /// stack there is nothing to copy, and the model stays as it is (its state compares for
    /// less than a view, and keeping it allocates nothing).
    public func shown() -> ScreenModel {
      guard !storage.isShown, storage.hasScreens else { return self }
      return ScreenModel(
        storage: ShownStorage(view: view, formPresentation: storage.formPresentation))
    }

    /// Two states are equal when the states are: in this app every change of the state shows
    /// (a request's number changes with the screen or form that starts loading or saving), so
    /// no view is made to compare two (the conformance kit's R10 scenarios and programs check
    /// it). A shown model is compared by its view.
    public static func == (lhs: ScreenModel, rhs: ScreenModel) -> Bool {
      if lhs.storage === rhs.storage { return true }
      guard lhs.storage.formPresentation == rhs.storage.formPresentation else { return false }
      guard lhs.storage.isShown || rhs.storage.isShown else {
        return unsafeDowncast(lhs.storage, to: StateStorage.self).state
          == unsafeDowncast(rhs.storage, to: StateStorage.self).state
      }
      return lhs.view == rhs.view
    }

    /// What a model holds: a state, or (once shown) a view.
    ///
    /// `@unchecked Sendable`: immutable; its subclasses add `let`s of `Sendable` types.
    class Storage: @unchecked Sendable {
      let isShown: Bool
      let hasScreens: Bool
      let formPresentation: Int?

      init(isShown: Bool, hasScreens: Bool, formPresentation: Int?) {
        self.isShown = isShown
        self.hasScreens = hasScreens
        self.formPresentation = formPresentation
      }
    }

    final class StateStorage: Storage, @unchecked Sendable {
      let state: AppState

      init(_ state: AppState) {
        self.state = state
        super.init(
          isShown: false, hasScreens: !state.stack.isEmpty, formPresentation: state.form?.id)
      }
    }

    final class ShownStorage: Storage, @unchecked Sendable {
      let view: ContactsView

      init(view: ContactsView, formPresentation: Int?) {
        self.view = view
        super.init(
          isShown: true, hasScreens: !view.stack.isEmpty, formPresentation: formPresentation)
      }
    }
  }

  public struct App: Core {
    let screen: Screen<ScreenModel, UIEvent>
    let screens: LayerContactScreens
    let environment: ContactsEnvironment

    public init(
      screen: Screen<ScreenModel, UIEvent>, screens: LayerContactScreens,
      environment: ContactsEnvironment
    ) {
      self.screen = screen
      self.screens = screens
      self.environment = environment
    }

    /// The list, and the screens the launch path makes, each loading.
    public var initialState: AppState? {
      AppState(contacts: environment.contacts, launchPath: environment.launchPath)
    }

    /// The screen, the stack's screens, the form's machine while it is presented, then one
    /// machine per screen of the stack.
    public var layers: [Layer<AppState, AppEvent>] {
      let service = environment.service
      return [
        .layer(screen.machine, stateMapper: LayerContacts.model, eventMapper: AppEvent.ui),
        .layer(~screens, stateMapper: \.stack, eventMapper: { .ui(.intent($0)) }),
        .presented(
          { $0.form }, machine: { ~LayerAddForm.CreateMachine(service: service) },
          event: AppEvent.created),
        .forEach(
          { $0.stack }, machine: { _ in ~LayerContactScreen.DetailsMachine(service: service) },
          event: { id, answer in .screen(id: id, answer) }),
      ]
    }

    // side-by-side: contacts update
    // Written in place: popping one screen of a long stack changes it where the flow keeps it.
    public func reduce(state: inout AppState?, event: AppEvent) -> InPlaceReducerResult {
      guard case .some = state else { return .skip }
      switch event {
      case .ui(.intent(let intent)):
        return apply(intent, to: &state!) ? .set : .skip
      case .ui(.form(let presentation, let intent)):
        guard state!.form?.id == presentation else { return .skip }
        return apply(.form(intent), to: &state!) ? .set : .skip
      case .created(let created):
        guard let form = state!.form, form.isSaving, form.create == created.request else {
          return .skip
        }
        // N3: a new id joins the list and dismisses the form; one the list has is a failure.
        if let id = created.id, id > 0, state!.contact(id) == nil {
          state!.contacts.append(Contact(id: id, name: created.request.value))
          state!.form = nil
        } else {
          state!.form = LayerAddForm.failed(form)
        }
        return .set
      case .screen(let id, let answer):
        guard let screen = state!.stack[id: id],
          let next = LayerContactScreen.answered(screen, answer)
        else { return .skip }
        state!.stack[id: id] = next
        return .set
      }
    }

    /// Applies an intent; returns whether the state changed.
    private func apply(_ intent: ContactsIntent, to state: inout AppState) -> Bool {
      switch intent {
      case .form(.cancel):
        guard state.form != nil else { return false }
        state.form = nil
        return true
      case .form(let formIntent):
        // Written in place: the form is not copied out and back for each keystroke.
        let request = state.lastRequest + 1
        guard state.form != nil, LayerAddForm.reduce(&state.form!, formIntent, request: request)
        else { return false }
        if state.form!.create?.id == request { _ = state.nextRequest() }
        return true
      case .alert(let action):
        guard let contactID = state.alert else { return false }
        state.alert = nil
        if action == .confirm {
          state.contacts.removeAll { $0.id == contactID }
          state.stack.removeAll { $0.contact.id == contactID }
        }
        return true
      default:
        // N2: a destination covers the list and the stack.
        guard state.form == nil, state.alert == nil else { return false }
      }
      switch intent {
      case .addTapped:
        state.presentations += 1
        state.form = LayerAddForm.State(id: state.presentations)
      case .deleteTapped(let contactID):
        guard state.contact(contactID) != nil else { return false }
        state.alert = contactID
      case .open(let contactID):
        guard state.contact(contactID) != nil else { return false }
        state.push(contactID)
      case .back:
        guard let top = state.stack.ids.last else { return false }
        state.stack.remove(id: top)
      case .popToRoot:
        guard !state.stack.isEmpty else { return false }
        state.stack = IdentifiedList()
      case .screen(let screenID, let screenIntent):
        guard let screen = state.stack[id: screenID] else { return false }
        switch screenIntent {
        case .open(let contactID):
          guard state.contact(contactID) != nil else { return false }
          state.close(after: screenID, including: false)
          state.push(contactID)
        case .delete:
          state.alert = screen.contact.id
        case .retry:
          guard let next = LayerContactScreen.retried(screen, request: state.lastRequest + 1)
          else { return false }
          _ = state.nextRequest()
          state.stack[id: screenID] = next
        case .close:
          state.close(after: screenID, including: true)
        }
      case .form, .alert:
        return false
      }
      return true
    }
    // side-by-side: end
  }

  // side-by-side: contacts wiring
  /// What the screen shows for `state`.
  public static func model(_ state: AppState) -> ScreenModel { ScreenModel(state: state) }

  /// The view of the whole app in `state`.
  public static func view(_ state: AppState) -> ContactsView {
    let destination: Destination
    if let form = state.form {
      destination = .addForm(LayerAddForm.view(form))
    } else if let contactID = state.alert {
      destination = .alert(
        title: ContactsApp.alertTitle(name: state.contact(contactID)?.name ?? ""))
    } else {
      destination = .none
    }
    return ContactsView(
      contacts: state.contacts, destination: destination,
      stack: state.stack.map { LayerContactScreen.view(id: $0, $1) })
  }
  // side-by-side: end
}
