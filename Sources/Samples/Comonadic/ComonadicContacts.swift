import ArchitectureSpec
import Comonadic

/// The add form as a component of its own: its state, its inputs and a dispatcher whose save
/// step is a `create` task. The contacts app widens it onto its optional form
/// (``ComonadicContacts``); the component cancels its `create` when the form is dismissed.
public enum ComonadicAddForm {
  // side-by-side: contacts state
  public struct State: Equatable, Sendable, Identifiable {
    /// This presentation: a form presented again is a new one (R13).
    public let id: Int
    public var name = ""
    public var isSaving = false
    public var error = ""
    /// The title the last action asked to create; the save step after it starts the task.
    public var titleToCreate: String?
    /// The contact `create` made: the app adds it (the app knows the list) and dismisses the form.
    public var created: Contact?

    public init(id: Int) { self.id = id }
  }

  // side-by-side: contacts intents
  /// What the user does in the form; `cancel` is the app's to do (it dismisses the form).
  public typealias Input = FormIntent

  // side-by-side: contacts effects
  public enum Work: Hashable, Sendable { case create }

  public typealias Dispatcher = StateDispatcher<any ContactsService, State, Input>
  typealias Step = StateEffect<any ContactsService, State>

  // side-by-side: contacts update
  /// Typing sets the name; saving marks the form saving, then creates the contact.
  public static let dispatcher = Dispatcher.workflow { input in
    switch input {
    case .nameChanged(let name): [.action(.mutate { $0.nameChanged(name) })]
    case .save: [.action(.mutate { $0.save() }), .read(create)]
    case .cancel: []
    }
  }

  // side-by-side: contacts effects
  /// The `create` the save asked for, if it asked.
  @Sendable static func create(_ state: State) -> [Step] {
    guard let title = state.titleToCreate else { return [] }
    return [
      .task(id: Work.create) { service in
        let id = try await service.create(name: title)
        return .mutate { $0.answered(title: title, id: id) }
      } catch: { _ in
        .mutate { $0.answered(title: title, id: nil) }  // a dismissed form's is dropped
      }
    ]
  }

  // side-by-side: contacts wiring
  public static func render(_ state: State) -> FormView {
    FormView(name: state.name, isSaving: state.isSaving, error: state.error)
  }
  // side-by-side: end
}

// side-by-side: contacts update
extension ComonadicAddForm.State {
  mutating func nameChanged(_ text: String) {
    titleToCreate = nil
    guard !isSaving else { return }
    name = text
    error = ""
  }

  mutating func save() {
    titleToCreate = nil
    let title = ContactsApp.title(from: name)
    guard !isSaving, !title.isEmpty else { return }
    isSaving = true
    error = ""
    titleToCreate = title
  }

  /// A new id is handed to the app; a failure leaves the form with an error.
  mutating func answered(title: String, id: Int?) {
    titleToCreate = nil
    guard isSaving else { return }
    guard let id else { return failed(title: title) }
    created = Contact(id: id, name: title)
  }

  /// The create of `title` failed (or made an id the app cannot take).
  mutating func failed(title: String) {
    isSaving = false
    created = nil
    error = ContactsApp.addFailedText(title: title)
  }
}
// side-by-side: end

/// One detail screen as a component of its own: `load` asks for the details, `retry` asks
/// again after a failure. The app runs its dispatcher on each screen of the stack.
public enum ComonadicContactScreen {
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
  /// What the screen does: `load` when it arrives (the app sends it), `retry` from the user.
  public enum Input: Sendable, Equatable { case load, retry }

  // side-by-side: contacts effects
  public enum Work: Hashable, Sendable { case details }

  public typealias Dispatcher = StateDispatcher<any ContactsService, State, Input>
  typealias Step = StateEffect<any ContactsService, State>

  // side-by-side: contacts update
  public static let dispatcher = Dispatcher.workflow { input in
    switch input {
    case .load: [load]
    case .retry:
      [
        .read { state in
          guard state.status == .failed else { return [] }
          return [.action(.mutate { $0.loading() }), load]
        }
      ]
    }
  }

  // side-by-side: contacts effects
  /// Asks for the screen's details.
  static let load = Step.task(id: Work.details) { service, state in
    let details = try await service.details(id: state.contact.id)
    return .mutate { $0.answered(details) }
  } catch: { _ in
    .mutate { $0.answered(nil) }  // a popped screen's is dropped
  }

  // side-by-side: contacts wiring
  public static func render(id: Int, _ state: State) -> ScreenView {
    ScreenView(
      screenID: id, contactID: state.contact.id, contactName: state.contact.name,
      status: state.status, text: state.text)
  }
  // side-by-side: end
}

// side-by-side: contacts update
extension ComonadicContactScreen.State {
  mutating func loading() {
    status = .loading
    text = ContactsApp.loadingText(name: contact.name)
  }

  mutating func answered(_ details: String?) {
    guard status == .loading else { return }
    status = details == nil ? .failed : .loaded
    text = details ?? ContactsApp.failedText(name: contact.name)
  }
}
// side-by-side: end

/// The contacts app as a Bow Arch component: the form's dispatcher widened onto the optional
/// form, the screen's over the stack, and the app's own dispatcher around them. Dismissing is
/// a state change; the component ends the dismissed child's work. Nothing here cancels.
public enum ComonadicContacts {
  // side-by-side: contacts state
  public struct State: Equatable, Sendable {
    public var contacts: [Contact]
    public var form: ComonadicAddForm.State?
    /// The contact the alert asks about, while it is presented.
    public var alert: Int?
    public var stack = IdentifiedList<Int, ComonadicContactScreen.State>()
    public var nextScreenID = 1
    public var presentations = 0
    public var isLaunched = false
    /// The screens the last action pushed: the step after it loads them.
    public var arrivals: [Int] = []

    public init(contacts: [Contact], launchPath: [Int]) {
      self.contacts = contacts
      for id in launchPath { push(id) }
      arrivals = []
    }

    /// Whether a destination covers the list and the stack (N2).
    public var isCovered: Bool { form != nil || alert != nil }
  }

  // side-by-side: contacts intents
  /// What the view sends: the user's intents, and `appear` when it is first shown.
  public enum Input: Sendable {
    case appear
    case intent(ContactsIntent)
  }

  public typealias Dispatcher = StateDispatcher<ContactsEnvironment, State, Input>
  typealias Step = StateEffect<ContactsEnvironment, State>

  // side-by-side: contacts update
  /// The form on the optional form, the screens on the stack (while nothing covers it), and the
  /// app's own intents.
  public static let dispatcher = ComonadicAddForm.dispatcher.widen(
    transformEnvironment: \ContactsEnvironment.service, transformState: \State.form,
    transformInput: { if case .intent(.form(let input)) = $0 { input } else { nil } }
  )
  .combine(
    ComonadicContactScreen.dispatcher.forEach(
      transformEnvironment: \ContactsEnvironment.service, transformState: \State.stack,
      transformInput: {
        if case .intent(.screen(let id, .retry)) = $0 { (id, .retry) } else { nil }
      }
    )
    .enabled(when: { !$0.isCovered })
  )
  .combine(app)

  /// The app's own part: presenting, pushing, popping, deleting, and adding what the form made.
  static let app = Dispatcher.workflow { input in
    switch input {
    case .appear: [.action(.mutate { $0.launch() }), .read(loadArrivals)]
    // The form's save runs first (combine); once its create answered, the app takes the contact.
    case .intent(.form(.save)): [.read(takeCreated)]
    case .intent(.form(.cancel)): [.action(.mutate { $0.form = nil })]
    case .intent(.form), .intent(.screen(_, .retry)): []
    // Opening pushes a screen, which loads in the step after.
    case .intent(let intent) where intent.mayPush:
      [.action(.mutate { $0.apply(intent) }), .read(loadArrivals)]
    case .intent(let intent): [.action(.mutate { $0.apply(intent) })]
    }
  }

  // side-by-side: contacts effects
  static let onScreen = StateEffect<any ContactsService, ComonadicContactScreen.State>.widening(
    transformEnvironment: \ContactsEnvironment.service, forEach: \State.stack)

  /// Each screen the last action pushed loads at once, filed under its screen (N1, N5).
  @Sendable static func loadArrivals(_ state: State) -> [Step] {
    guard !state.arrivals.isEmpty else { return [] }
    return [
      .parallel(
        state.arrivals.map { id in
          ComonadicContactScreen.dispatcher.on(.load).map { onScreen(id, $0) }
        })
    ]
  }

  /// Adds the contact the form's `create` made, if it made one (N3).
  @Sendable static func takeCreated(_ state: State) -> [Step] {
    guard state.form?.created != nil else { return [] }
    return [.action(.mutate { $0.takeCreated() })]
  }

  // side-by-side: contacts wiring
  public static func render(
    _ state: State, _ handle: @escaping @Sendable (Input) -> Void
  ) -> ContactsView {
    let destination: Destination
    if let form = state.form {
      destination = .addForm(ComonadicAddForm.render(form))
    } else if let contactID = state.alert {
      destination = .alert(
        title: ContactsApp.alertTitle(name: state.contact(contactID)?.name ?? ""))
    } else {
      destination = .none
    }
    return ContactsView(
      contacts: state.contacts, destination: destination,
      stack: state.stack.map { ComonadicContactScreen.render(id: $0, $1) })
  }

  public typealias Component = StoreComponent<ContactsEnvironment, State, Input, ContactsView>

  /// A contacts component for `environment`; send `.appear` to load the launch screens.
  public static func component(environment: ContactsEnvironment) -> Component {
    Component(
      initialState: State(contacts: environment.contacts, launchPath: environment.launchPath),
      environment: environment, dispatcher: dispatcher, executor: environment.executor,
      render: render)
  }
  // side-by-side: end
}

// side-by-side: contacts update
extension ContactsIntent {
  /// Whether the intent may push a screen.
  var mayPush: Bool {
    switch self {
    case .open, .screen(_, .open): true
    default: false
    }
  }
}

extension ComonadicContacts.State {
  func contact(_ id: Int) -> Contact? { contacts.first { $0.id == id } }

  /// The launch screens load, bottom to top (N1).
  mutating func launch() {
    arrivals = []
    guard !isLaunched else { return }
    isLaunched = true
    arrivals = Array(stack.ids)
  }

  /// Pushes a screen for `contactID`, which loads in the step after this action.
  mutating func push(_ contactID: Int) {
    guard let contact = contact(contactID) else { return }
    let screenID = nextScreenID
    nextScreenID += 1
    stack.append(ComonadicContactScreen.State(contact: contact), id: screenID)
    arrivals.append(screenID)
  }

  /// Removes `screenID` and every screen above it.
  mutating func close(from screenID: Int) {
    guard stack.contains(id: screenID) else { return }
    while let top = stack.ids.last {
      stack.remove(id: top)
      if top == screenID { return }
    }
  }

  /// A new id joins the list and dismisses the form; one the list has is a failure (N3).
  mutating func takeCreated() {
    guard let created = form?.created else { return }
    guard created.id > 0, contact(created.id) == nil else {
      form?.failed(title: created.name)
      return
    }
    contacts.append(created)
    form = nil
  }

  mutating func apply(_ intent: ContactsIntent) {
    arrivals = []
    if case .alert(let action) = intent {
      guard let contactID = alert else { return }
      alert = nil
      if action == .confirm {
        contacts.removeAll { $0.id == contactID }
        stack.removeAll { $0.contact.id == contactID }
      }
      return
    }
    // N2: a destination covers the list and the stack.
    guard !isCovered else { return }
    switch intent {
    case .addTapped:
      presentations += 1
      form = ComonadicAddForm.State(id: presentations)
    case .deleteTapped(let contactID):
      if contact(contactID) != nil { alert = contactID }
    case .open(let contactID):
      push(contactID)
    case .back:
      if let top = stack.ids.last { close(from: top) }
    case .popToRoot:
      if !stack.isEmpty { stack = IdentifiedList() }
    case .screen(let screenID, let intent):
      guard let screen = stack[id: screenID] else { return }
      switch intent {
      case .open(let contactID):
        guard contact(contactID) != nil else { return }
        while let top = stack.ids.last, top != screenID { stack.remove(id: top) }
        push(contactID)
      case .delete: alert = screen.contact.id
      case .close: close(from: screenID)
      case .retry: break  // the screen's own
      }
    case .form, .alert: break
    }
  }
}
// side-by-side: end
