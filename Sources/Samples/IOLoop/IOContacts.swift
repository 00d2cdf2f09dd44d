import ArchitectureSpec
import IOLoop

// side-by-side: contacts intents
/// What the form's user does, as an IO type that only brings inputs.
public enum FormIntentIO: IOType {
  public typealias Input = FormIntent
}

// side-by-side: contacts effects
/// Creating a contact as an IO type: a call out, its answer back.
public enum CreateContactIO: IOType {
  public enum Output: Sendable, Equatable {
    case create(title: String)
  }
  // side-by-side: contacts intents
  public enum Input: Sendable, Equatable {
    /// The new contact's id, or `nil` when `create` failed.
    case created(title: String, id: Int?)
  }
  // side-by-side: end
}

// side-by-side: contacts state
/// The add form as a program of its own: its state and a pure step. The contacts app presents
/// one per presentation (``Presentation``); dismissing it ends its `create`.
public struct IOAddForm: PureApp, Equatable {
  // side-by-side: contacts intents
  public typealias Input = IOInput<FormIntentIO, CreateContactIO>
  // side-by-side: contacts effects
  public typealias Outputs = IOOutputs<FormIntentIO, CreateContactIO>

  // side-by-side: contacts state
  public var name = ""
  public var isSaving = false
  public var error = ""

  public init() {}

  // side-by-side: contacts wiring
  public var view: FormView { FormView(name: name, isSaving: isSaving, error: error) }

  // side-by-side: contacts update
  public static func start() -> (IOAddForm, Outputs) { (IOAddForm(), .none) }

  public mutating func run(inPlace input: Input) -> Outputs {
    switch input.values {
    case (.nameChanged(let text)?, _):
      guard !isSaving else { return .none }
      name = text
      error = ""
    case (.save?, _):
      let title = ContactsApp.title(from: name)
      guard !isSaving, !title.isEmpty else { return .none }
      isSaving = true
      error = ""
      return Outputs([], [.create(title: title)])
    case (_, .created(let title, nil)?):
      // A new id is the app's to take; a failure stays with the form.
      guard isSaving else { return .none }
      isSaving = false
      error = ContactsApp.addFailedText(title: title)
    default:
      break  // cancel: the app dismisses the form
    }
    return .none
  }
  // side-by-side: end
}

// side-by-side: contacts intents
/// What a screen's user does, as an IO type that only brings inputs.
public enum ScreenIntentIO: IOType {
  public typealias Input = ScreenIntent
}

// side-by-side: contacts effects
/// Reading a contact's details as an IO type.
public enum DetailsIO: IOType {
  public enum Output: Sendable, Equatable {
    case details(contactID: Int)
  }
  // side-by-side: contacts intents
  public enum Input: Sendable, Equatable {
    /// The details, or `nil` when the call failed.
    case answered(String?)
  }
  // side-by-side: end
}

// side-by-side: contacts state
/// One detail screen as a program of its own: it starts loading as it arrives, and again on
/// retry. The app keeps one per screen of its stack.
public struct IOContactScreen: PureApp, Equatable {
  // side-by-side: contacts intents
  public typealias Input = IOInput<ScreenIntentIO, DetailsIO>
  // side-by-side: contacts effects
  public typealias Outputs = IOOutputs<ScreenIntentIO, DetailsIO>

  // side-by-side: contacts state
  public var contact: Contact
  public var status = ScreenView.Status.loading
  public var text: String

  // side-by-side: contacts wiring
  public func view(id: Int) -> ScreenView {
    ScreenView(
      screenID: id, contactID: contact.id, contactName: contact.name, status: status, text: text)
  }

  // side-by-side: contacts update
  /// A screen for `contact`, and the load it starts with.
  public static func arriving(_ contact: Contact) -> (IOContactScreen, Outputs) {
    let screen = IOContactScreen(
      contact: contact, text: ContactsApp.loadingText(name: contact.name))
    return (screen, Outputs([], [.details(contactID: contact.id)]))
  }

  public static func start() -> (IOContactScreen, Outputs) {
    arriving(Contact(id: 0, name: ""))
  }

  public mutating func run(inPlace input: Input) -> Outputs {
    switch input.values {
    case (.retry?, _):
      guard status == .failed else { return .none }
      status = .loading
      text = ContactsApp.loadingText(name: contact.name)
      return Outputs([], [.details(contactID: contact.id)])
    case (_, .answered(let details)?):
      guard status == .loading else { return .none }
      status = details == nil ? .failed : .loaded
      text = details ?? ContactsApp.failedText(name: contact.name)
      return .none
    default:
      return .none  // opening, deleting and closing are the app's to do
    }
  }
  // side-by-side: end
}

// side-by-side: contacts intents
/// The app's own intents, as an IO type that only brings inputs.
public enum ContactsIntentIO: IOType {
  public typealias Input = ContactsIntent
}

// side-by-side: contacts state
/// The contacts app as one pure function: the form a ``Presentation`` of a program, the stack a
/// list of programs. Presenting returns the child's first outputs; dismissing returns the
/// output that ends its work — nothing happens that a step did not return.
public struct IOContacts: PureApp, Equatable {
  // side-by-side: contacts intents
  public typealias Form = Presentation<IOAddForm>.IO
  public typealias Screens = ProgramsIO<Int, IOContactScreen>
  public typealias Input = IOInput<ContactsIntentIO, Form, Screens>
  // side-by-side: contacts effects
  public typealias Outputs = IOOutputs<ContactsIntentIO, Form, Screens>

  // side-by-side: contacts state
  public var contacts: [Contact]
  public var form = Presentation<IOAddForm>()
  /// The contact the alert asks about, while it is presented.
  public var alert: Int?
  public var stack = IdentifiedList<Int, IOContactScreen>()
  public var nextScreenID = 1

  func contact(_ id: Int) -> Contact? { contacts.first { $0.id == id } }

  // side-by-side: contacts wiring
  public var view: ContactsView {
    let destination: Destination
    if let child = form.child {
      destination = .addForm(child.view)
    } else if let contactID = alert {
      destination = .alert(title: ContactsApp.alertTitle(name: contact(contactID)?.name ?? ""))
    } else {
      destination = .none
    }
    return ContactsView(
      contacts: contacts, destination: destination, stack: stack.map { $1.view(id: $0) })
  }

  // side-by-side: contacts update
  /// The app with `contacts` and a screen for each contact of `launchPath`, each loading.
  public static func launching(contacts: [Contact], launchPath: [Int]) -> (IOContacts, Outputs) {
    var app = IOContacts(contacts: contacts)
    let screens = launchPath.flatMap { app.push($0) }
    return (app, Outputs([], [], screens))
  }

  public static func start() -> (IOContacts, Outputs) { launching(contacts: [], launchPath: []) }

  public mutating func run(inPlace input: Input) -> Outputs {
    switch input.values {
    case (let intent?, _, _):
      return handle(intent)
    case (_, let formInput?, _):
      return Outputs([], handleForm(formInput), [])
    case (_, _, let screenInput?):
      return handleScreen(screenInput)
    default:
      return .none
    }
  }

  private mutating func handle(_ intent: ContactsIntent) -> Outputs {
    switch intent {
    case .form(.cancel):
      return Outputs([], form.dismiss(), [])
    case .form(let formIntent):
      return Outputs([], form.run(presented: IOInput(formIntent, nil)) ?? [], [])
    case .screen(let id, let screenIntent):
      return handleScreen(Screens.Input(id: id, input: IOInput(screenIntent, nil)))
    case .alert(let action):
      guard let contactID = alert else { return .none }
      alert = nil
      guard action == .confirm else { return .none }
      contacts.removeAll { $0.id == contactID }
      return Outputs([], [], stack.dismissAll { $0.contact.id == contactID })
    default:
      // N2: a destination covers the list and the stack.
      guard !form.isPresented, alert == nil else { return .none }
    }
    switch intent {
    case .addTapped:
      return Outputs([], form.present(IOAddForm(), .none), [])
    case .deleteTapped(let contactID):
      if contact(contactID) != nil { alert = contactID }
      return .none
    case .open(let contactID):
      return Outputs([], [], push(contactID))
    case .back:
      guard let top = stack.ids.last else { return .none }
      return Outputs([], [], stack.dismiss(id: top))
    case .popToRoot:
      return Outputs([], [], stack.dismissAll())
    case .form, .screen, .alert:
      return .none
    }
  }

  /// An input of the form: an intent through its scope, or its `create`'s answer. Dropped
  /// when it is from another presentation than the one shown.
  private mutating func handleForm(_ input: Form.Input) -> [Form.Output] {
    guard input.id == form.number, let child = form.child else { return [] }
    if case (_, .created(let title, let id?)?) = input.input.values, child.isSaving {
      // N3: a new id joins the list and dismisses the form; one the list has is a failure.
      guard id > 0, contact(id) == nil else {
        return form.run(presented: IOInput(nil, .created(title: title, id: nil))) ?? []
      }
      contacts.append(Contact(id: id, name: title))
      return form.dismiss()
    }
    if case (.cancel?, _) = input.input.values { return form.dismiss() }
    return form.run(input) ?? []
  }

  /// An input of a screen: an intent through its scope, or its load's answer.
  private mutating func handleScreen(_ input: Screens.Input) -> Outputs {
    guard let screen = stack[id: input.id] else { return .none }
    guard case (let intent?, _) = input.input.values else {
      return Outputs([], [], stack.run(input.input, id: input.id) ?? [])
    }
    // N2: a destination covers the stack.
    guard !form.isPresented, alert == nil else { return .none }
    switch intent {
    case .open(let contactID):
      guard contact(contactID) != nil else { return .none }
      return Outputs([], [], stack.dismiss(after: input.id) + push(contactID))
    case .delete:
      alert = screen.contact.id
      return .none
    case .retry:
      return Outputs([], [], stack.run(input.input, id: input.id) ?? [])
    case .close:
      return Outputs([], [], stack.dismiss(after: input.id, including: true))
    }
  }

  /// Pushes a screen for `contactID`: its first outputs (N5).
  private mutating func push(_ contactID: Int) -> [Screens.Output] {
    guard let contact = contact(contactID) else { return [] }
    let (screen, outputs) = IOContactScreen.arriving(contact)
    defer { nextScreenID += 1 }
    return stack.present(screen, id: nextScreenID, outputs)
  }
  // side-by-side: end
}

// side-by-side: contacts effects
/// Creates contacts; the answer comes back as the form's input.
public struct CreateContactHandler: IOHandler {
  public typealias IO = CreateContactIO
  let service: any ContactsService

  public init(service: any ContactsService) { self.service = service }

  public func handle(_ output: CreateContactIO.Output, context: IOContext<CreateContactIO>) {
    guard case .create(let title) = output else { return }
    let service = self.service
    context.run { send in
      do {
        send(.created(title: title, id: try await service.create(name: title)))
      } catch is CancellationError {
      } catch {
        send(.created(title: title, id: nil))
      }
    }
  }
}

/// Reads details; the answer comes back as the screen's input.
public struct DetailsHandler: IOHandler {
  public typealias IO = DetailsIO
  let service: any ContactsService

  public init(service: any ContactsService) { self.service = service }

  public func handle(_ output: DetailsIO.Output, context: IOContext<DetailsIO>) {
    guard case .details(let contactID) = output else { return }
    let service = self.service
    context.run(id: Work.details) { send in
      do {
        send(.answered(try await service.details(id: contactID)))
      } catch is CancellationError {
      } catch {
        send(.answered(nil))
      }
    }
  }

  enum Work { case details }
}
// side-by-side: end
