import ArchitectureSpec
import ElmStore

/// The add form as a feature of its own: its state, its actions, its update and its effect
/// (the `create` call). The contacts app presents it with `lift(_:ifLet:action:)`; dismissing
/// it ends its `create` without the app's code naming it.
public enum ElmAddForm {
  // side-by-side: contacts state
  public struct State: Equatable, Sendable, Identifiable {
    /// This presentation: a form presented again is a new one (R13).
    public let id: Int
    public var name = ""
    public var isSaving = false
    public var error = ""
    /// The title the effect creates after this action, if the action was an accepted save.
    public var titleToCreate: String?

    public init(id: Int) { self.id = id }
  }

  // side-by-side: contacts intents
  public enum Action: Equatable, Sendable {
    case intent(FormIntent)
    /// The service's answer: the new contact's id, or `nil` when `create` failed.
    case created(title: String, id: Int?)
    /// The app refused the answer (an id ≤ 0 or one the list has): the save failed (N3).
    case createRefused(title: String)
  }

  // side-by-side: contacts update
  public static func update(_ state: inout State, _ action: Action) {
    state.titleToCreate = nil
    switch action {
    case .intent(.nameChanged(let name)):
      guard !state.isSaving else { return }
      state.name = name
      state.error = ""
    case .intent(.save):
      let title = ContactsApp.title(from: state.name)
      guard !state.isSaving, !title.isEmpty else { return }
      state.isSaving = true
      state.error = ""
      state.titleToCreate = title
    case .intent(.cancel):
      break  // the app dismisses the form
    case .created(let title, nil), .createRefused(let title):
      guard state.isSaving else { return }
      state.isSaving = false
      state.error = ContactsApp.addFailedText(title: title)
    case .created:
      break  // an id: the app adds the contact and dismisses the form
    }
  }

  // side-by-side: contacts effects
  /// Creates the contact the update asked for; the answer comes back as `.created`.
  public static func effect(_ service: any ContactsService) -> Effect<State, Action> {
    Effect { state, _, dispatch in
      guard let title = state.titleToCreate else { return }
      dispatch.run(id: Work.create) { send in
        send(.created(title: title, id: try await service.create(name: title)))
      } catch: { _, send in
        send(.created(title: title, id: nil))
      }
    }
  }

  enum Work { case create }

  // side-by-side: contacts wiring
  public static func view(_ state: State) -> FormView {
    FormView(name: state.name, isSaving: state.isSaving, error: state.error)
  }
  // side-by-side: end
}

/// One detail screen as a feature of its own: it loads its contact's details when it arrives
/// and again on retry. The app keeps its screens in an `IdentifiedList` by screen id and lifts
/// this feature over it with `lift(_:forEach:action:)`; popping a screen ends its load.
public enum ElmContactScreen {
  // side-by-side: contacts state
  public struct State: Equatable, Sendable {
    public var contact: Contact
    public var status = ScreenView.Status.loading
    public var text: String

    public init(contact: Contact) {
      self.contact = contact
      text = ContactsApp.loadingText(name: contact.name)
    }
  }

  // side-by-side: contacts intents
  public enum Action: Equatable, Sendable {
    /// What the user does on the screen; opening, deleting and closing are the app's to do.
    case intent(ScreenIntent)
    /// Load the details: the screen arrived, or a retry was accepted.
    case load
    /// The service's answer: the details, or `nil` when the call failed.
    case answered(String?)
  }

  // side-by-side: contacts update
  public static func update(_ state: inout State, _ action: Action) {
    switch action {
    case .load, .intent(.open), .intent(.delete), .intent(.close):
      break
    case .intent(.retry):
      guard state.status == .failed else { return }
      state.status = .loading
      state.text = ContactsApp.loadingText(name: state.contact.name)
    case .answered(let details):
      guard state.status == .loading else { return }
      state.status = details == nil ? .failed : .loaded
      state.text = details ?? ContactsApp.failedText(name: state.contact.name)
    }
  }

  // side-by-side: contacts effects
  /// Loads the details on `.load`; a newer load replaces the one in flight.
  public static func effect(_ service: any ContactsService) -> Effect<State, Action> {
    Effect.take(.load) { state, dispatch in
      let id = state.contact.id
      dispatch.run(id: Work.details) { send in
        send(.answered(try await service.details(id: id)))
      } catch: { _, send in
        send(.answered(nil))
      }
    }
  }

  enum Work { case details }

  // side-by-side: contacts wiring
  public static func view(id: Int, _ state: State) -> ScreenView {
    ScreenView(
      screenID: id, contactID: state.contact.id, contactName: state.contact.name,
      status: state.status, text: state.text)
  }
  // side-by-side: end
}

/// The contacts app as an ElmStore app: the list, one destination at a time (the add form,
/// lifted with `ifLet`, or the alert), and the stack of screens, lifted with `forEach`. The
/// app never cancels anything itself: dismissing a child — the form set to `nil`, screens
/// removed from the stack — ends its work (R13).
public enum ElmContacts {
  // side-by-side: contacts state
  public struct State: Equatable, Sendable {
    public var contacts: [Contact]
    public var form: ElmAddForm.State?
    /// The contact the alert asks about, while it is presented.
    public var alert: Int?
    public var stack = IdentifiedList<Int, ElmContactScreen.State>()
    public var nextScreenID = 1
    public var presentations = 0
    /// The screens that load after this action (they arrived, or a retry was accepted).
    public var screensToLoad: [Int] = []

    public init(contacts: [Contact], launchPath: [Int]) {
      self.contacts = contacts
      for id in launchPath { push(id) }
    }

    func contact(_ id: Int) -> Contact? { contacts.first { $0.id == id } }

    mutating func push(_ contactID: Int) {
      guard let contact = contact(contactID) else { return }
      stack.append(ElmContactScreen.State(contact: contact), id: nextScreenID)
      screensToLoad.append(nextScreenID)
      nextScreenID += 1
    }

    /// Removes `screenID` and every screen above it.
    mutating func close(from screenID: Int) {
      guard stack.contains(id: screenID) else { return }
      while let top = stack.ids.last {
        stack.remove(id: top)
        if top == screenID { return }
      }
    }
  }

  // side-by-side: contacts intents
  public enum Action: Equatable, Sendable {
    /// Starts the app: the launch screens load.
    case start
    case intent(ContactsIntent)
    case form(ElmAddForm.Action)
    case screen(id: Int, ElmContactScreen.Action)
  }

  // side-by-side: contacts update
  /// How an app action carries a form action: the form's own, or a form intent sent to the app.
  static let form = ActionPath<Action, ElmAddForm.Action>(
    embed: Action.form,
    extract: {
      switch $0 {
      case .form(let action): action
      case .intent(.form(let intent)): .intent(intent)
      default: nil
      }
    })
  /// How an app action carries a screen's: the screen's own, or a screen intent sent to the app.
  static let screen = ActionPath<Action, (id: Int, action: ElmContactScreen.Action)>(
    embed: { .screen(id: $0.id, $0.action) },
    extract: {
      switch $0 {
      case .screen(let id, let action): (id, action)
      case .intent(.screen(let id, let intent)): (id, .intent(intent))
      default: nil
      }
    })

  static let formUpdate: Update<State, Action> = lift(
    ElmAddForm.update, ifLet: \.form, action: form)
  static let screenUpdate: Update<State, Action> = lift(
    ElmContactScreen.update, forEach: \.stack, action: screen)

  public static func update(_ state: inout State, _ action: Action) {
    if !state.screensToLoad.isEmpty { state.screensToLoad = [] }
    switch action {
    case .start:
      state.screensToLoad = state.stack.ids
    case .form(.intent(.cancel)):
      state.form = nil
    case .form(let formAction):
      formUpdate(&state, action)
      // N3: the answer's id joins the list and dismisses the form, unless the list has it.
      guard case .created(let title, let id?) = formAction, state.form?.isSaving == true else {
        return
      }
      if id > 0, state.contact(id) == nil {
        state.contacts.append(Contact(id: id, name: title))
        state.form = nil
      } else {
        formUpdate(&state, .form(.createRefused(title: title)))
      }
    case .screen(let screenID, .intent(let intent)):
      // N2: a destination covers the stack.
      guard state.form == nil, state.alert == nil, let screen = state.stack[id: screenID] else {
        return
      }
      apply(intent, of: screenID, showing: screen.contact, to: &state)
    case .screen:
      screenUpdate(&state, action)
    case .intent(.form(let intent)):
      update(&state, .form(.intent(intent)))
    case .intent(.screen(let screenID, let intent)):
      update(&state, .screen(id: screenID, .intent(intent)))
    case .intent(.alert(let action)):
      guard let contactID = state.alert else { return }
      state.alert = nil
      guard action == .confirm else { return }
      state.contacts.removeAll { $0.id == contactID }
      state.stack.removeAll { $0.contact.id == contactID }
    case .intent(let intent):
      // N2: a destination covers the list and the stack.
      guard state.form == nil, state.alert == nil else { return }
      apply(intent, to: &state)
    }
  }

  /// An intent of the list or the stack, with nothing presented over them.
  private static func apply(_ intent: ContactsIntent, to state: inout State) {
    switch intent {
    case .addTapped:
      state.presentations += 1
      state.form = ElmAddForm.State(id: state.presentations)
    case .deleteTapped(let contactID):
      if state.contact(contactID) != nil { state.alert = contactID }
    case .open(let contactID):
      state.push(contactID)
    case .back:
      if let top = state.stack.ids.last { state.close(from: top) }
    case .popToRoot:
      state.stack = IdentifiedList()
    case .form, .screen, .alert:
      break
    }
  }

  /// An intent sent through a screen's scope: the screen's own (retry), or one the app does.
  private static func apply(
    _ intent: ScreenIntent, of screenID: Int, showing contact: Contact, to state: inout State
  ) {
    switch intent {
    case .open(let contactID):
      guard state.contact(contactID) != nil else { return }
      while let top = state.stack.ids.last, top != screenID { state.stack.remove(id: top) }
      state.push(contactID)
    case .delete:
      state.alert = contact.id
    case .retry:
      let before = state.stack[id: screenID]?.status
      screenUpdate(&state, .screen(id: screenID, .intent(.retry)))
      if before == .failed { state.screensToLoad = [screenID] }
    case .close:
      state.close(from: screenID)
    }
  }

  // side-by-side: contacts effects
  /// The form's and the screens' own effects, lifted: the form's `create` belongs to its
  /// presentation and each load to its screen, so dismissing either ends it. The screens the
  /// update asked for load here, in stack order.
  public static func effect(_ service: any ContactsService) -> Effect<State, Action> {
    let screens = ElmContactScreen.effect(service).lifted(forEach: \State.stack, action: screen)
    return Effect {
      ElmAddForm.effect(service).lifted(ifLet: \.form, action: form)
      screens
      Effect { state, _, dispatch in
        for id in state.screensToLoad {
          screens.run(state: state, action: .screen(id: id, .load), dispatch: dispatch)
        }
      }
    }
  }

  // side-by-side: contacts wiring
  public static func view(_ state: State) -> ContactsView {
    let destination: Destination
    if let form = state.form {
      destination = .addForm(ElmAddForm.view(form))
    } else if let contactID = state.alert {
      destination = .alert(
        title: ContactsApp.alertTitle(name: state.contact(contactID)?.name ?? ""))
    } else {
      destination = .none
    }
    return ContactsView(
      contacts: state.contacts, destination: destination,
      stack: state.stack.map { ElmContactScreen.view(id: $0, $1) })
  }

  /// A contacts store for `environment`; dispatch `.start` to start it.
  public static func makeStore(environment: ContactsEnvironment) -> Store<State, Action> {
    Store(
      state: State(contacts: environment.contacts, launchPath: environment.launchPath),
      update: update, effect: effect(environment.service), executor: environment.executor)
  }
  // side-by-side: end
}
