import ArchitectureSpec
import MUE

/// The add form as a feature of its own: its state, its events, its effect and its update. The
/// contacts app runs it on the presented form (``MUEContacts``); the loop ends its `create`
/// when the form is dismissed.
public enum MUEAddForm {
  // side-by-side: contacts state
  public struct State: Equatable, Sendable, Identifiable {
    /// This presentation: a form presented again is a new one (R13).
    public let id: Int
    public var name = ""
    public var isSaving = false
    public var error = ""

    public init(id: Int) { self.id = id }
  }

  // side-by-side: contacts intents
  public typealias Event = FormIntent

  // side-by-side: contacts effects
  public enum Effect: MUE.Effect, Equatable {
    case create(title: String)

    // side-by-side: contacts intents
    public enum Result: Sendable, Equatable {
      /// The new contact's id, or `nil` when `create` failed.
      case created(title: String, id: Int?)
    }
    // side-by-side: contacts effects

    public enum ID: Hashable, Sendable { case create }
    public var id: ID? { .create }
  }

  // side-by-side: contacts update
  public struct Update: MUE.Update {
    public init() {}

    public func handle(event: Event, changing state: inout State) -> InPlaceResult<Effect> {
      switch event {
      case .nameChanged(let name):
        guard !state.isSaving else { return .noChange }
        state.name = name
        state.error = ""
        return .changedState
      case .save:
        let title = ContactsApp.title(from: state.name)
        guard !state.isSaving, !title.isEmpty else { return .noChange }
        state.isSaving = true
        state.error = ""
        return .changedState(effect: .create(title: title))
      case .cancel:
        return .noChange  // the app dismisses the form
      }
    }

    /// A failed create leaves the form with an error; a new id is the app's to take.
    public func handle(result: Effect.Result, changing state: inout State) -> InPlaceResult<Effect>
    {
      guard case .created(let title, nil) = result, state.isSaving else { return .noChange }
      state.isSaving = false
      state.error = ContactsApp.addFailedText(title: title)
      return .changedState
    }
  }

  // side-by-side: contacts wiring
  public static func view(_ state: State) -> FormView {
    FormView(name: state.name, isSaving: state.isSaving, error: state.error)
  }
  // side-by-side: end
}

/// One detail screen as a feature of its own: its `first` loads the details (Mobius's init
/// with an effect), a retry loads them again. The app runs it on each screen of its stack.
public enum MUEContactScreen {
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
  /// What the user does on the screen: the screen retries; opening, deleting and closing are
  /// the app's to do.
  public typealias Event = ScreenIntent

  // side-by-side: contacts effects
  public enum Effect: MUE.Effect, Equatable {
    case details(contactID: Int)

    // side-by-side: contacts intents
    public enum Result: Sendable, Equatable {
      /// The details, or `nil` when the call failed.
      case answered(String?)
    }
    // side-by-side: contacts effects

    public enum ID: Hashable, Sendable { case details }
    public var id: ID? { .details }
  }

  // side-by-side: contacts update
  public struct Update: MUE.Update {
    public init() {}

    /// A screen loads as it arrives.
    public func first(state: State) -> First<State, Effect> {
      First(initialState: state, initialEffect: .details(contactID: state.contact.id))
    }

    public func handle(event: Event, changing state: inout State) -> InPlaceResult<Effect> {
      guard event == .retry, state.status == .failed else { return .noChange }
      state.status = .loading
      state.text = ContactsApp.loadingText(name: state.contact.name)
      return .changedState(effect: .details(contactID: state.contact.id))
    }

    public func handle(result: Effect.Result, changing state: inout State) -> InPlaceResult<Effect>
    {
      guard case .answered(let details) = result, state.status == .loading else {
        return .noChange
      }
      state.status = details == nil ? .failed : .loaded
      state.text = details ?? ContactsApp.failedText(name: state.contact.name)
      return .changedState
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

/// The contacts app in Model-Update-Effect style: the form's update runs on the presented form,
/// the screen's on each screen of the stack, and the update declares both as ``Children`` so
/// the loop ends a dismissed child's effects. The update never cancels anything itself.
public enum MUEContacts {
  // side-by-side: contacts state
  public struct State: Equatable, Sendable, SmartCopy {
    public var contacts: [Contact]
    public var form: MUEAddForm.State?
    /// The contact the alert asks about, while it is presented.
    public var alert: Int?
    public var stack = IdentifiedList<Int, MUEContactScreen.State>()
    public var nextScreenID = 1
    public var presentations = 0

    public init(contacts: [Contact], launchPath: [Int]) {
      self.contacts = contacts
      for id in launchPath { _ = push(id) }
    }

    func contact(_ id: Int) -> Contact? { contacts.first { $0.id == id } }

    /// Pushes a screen for `contactID` and returns its first effects, as the app's.
    mutating func push(_ contactID: Int) -> [Effect] {
      guard let contact = contact(contactID) else { return [] }
      let screenID = nextScreenID
      nextScreenID += 1
      let first = MUEContactScreen.Update().first(state: MUEContactScreen.State(contact: contact))
      stack.append(first.initialState, id: screenID)
      return first.initialEffects.map { .screen(screenID, $0) }
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
  public typealias Event = ContactsIntent

  // side-by-side: contacts effects
  public enum Effect: MUE.Effect, Equatable {
    case form(MUEAddForm.Effect)
    case screen(Int, MUEContactScreen.Effect)

    // side-by-side: contacts intents
    public enum Result: Sendable, Equatable {
      case form(MUEAddForm.Effect.Result)
      case screen(Int, MUEContactScreen.Effect.Result)
    }
    // side-by-side: contacts effects

    public enum ID: Hashable, Sendable {
      case form(MUEAddForm.Effect.ID)
      case screen(Int, MUEContactScreen.Effect.ID)
    }

    public var id: ID? {
      switch self {
      case .form(let effect): effect.id.map(ID.form)
      case .screen(let screen, let effect): effect.id.map { .screen(screen, $0) }
      }
    }
  }

  // side-by-side: contacts update
  // Written in place: popping one screen of a long stack changes the stack where the loop keeps
  // it, without copying it.
  public struct Update: MUE.Update {
    public init() {}

    /// The form's effects end with the form, each screen's with the screen (R13).
    public var children: Children<State, Effect.ID> {
      Children(
        .presented(\.form, effects: { if case .form = $0 { true } else { false } }),
        .forEach(\.stack, effects: { if case .screen(let id, _) = $0 { id } else { nil } }))
    }

    /// The launch screens load, bottom to top (N1).
    public func first(state: State) -> First<State, Effect> {
      First(
        initialState: state,
        initialEffects: state.stack.map { id, screen in
          .screen(id, .details(contactID: screen.contact.id))
        })
    }

    public func handle(event: Event, changing state: inout State) -> InPlaceResult<Effect> {
      switch event {
      case .form(.cancel):
        guard state.form != nil else { return .noChange }
        state.form = nil
        return .changedState
      case .form(let intent):
        return MUEAddForm.Update().handle(
          event: intent, changing: &state, presented: \.form, effect: Effect.form,
          id: Effect.ID.form)
          ?? .noChange
      case .alert(let action):
        guard let contactID = state.alert else { return .noChange }
        state.alert = nil
        if action == .confirm {
          state.contacts.removeAll { $0.id == contactID }
          state.stack.removeAll { $0.contact.id == contactID }
        }
        return .changedState
      default:
        // N2: a destination covers the list and the stack.
        guard state.form == nil, state.alert == nil else { return .noChange }
        return handleUncovered(event, changing: &state)
      }
    }

    /// An event of the list or the stack, with nothing presented over them.
    private func handleUncovered(_ event: Event, changing state: inout State) -> InPlaceResult<
      Effect
    > {
      switch event {
      case .addTapped:
        state.presentations += 1
        state.form = MUEAddForm.State(id: state.presentations)
        return .changedState
      case .deleteTapped(let contactID):
        guard state.contact(contactID) != nil else { return .noChange }
        state.alert = contactID
        return .changedState
      case .open(let contactID):
        guard state.contact(contactID) != nil else { return .noChange }
        return .changedState(effects: state.push(contactID))
      case .back:
        guard let top = state.stack.ids.last else { return .noChange }
        state.close(from: top)
        return .changedState
      case .popToRoot:
        guard !state.stack.isEmpty else { return .noChange }
        state.stack = IdentifiedList()
        return .changedState
      case .screen(let screenID, let intent):
        guard let screen = state.stack[id: screenID] else { return .noChange }
        switch intent {
        case .open(let contactID):
          guard state.contact(contactID) != nil else { return .noChange }
          while let top = state.stack.ids.last, top != screenID { state.stack.remove(id: top) }
          return .changedState(effects: state.push(contactID))
        case .delete:
          state.alert = screen.contact.id
          return .changedState
        case .retry:
          return MUEContactScreen.Update().handle(
            event: intent, changing: &state, forEach: \.stack, id: screenID, effect: Effect.screen,
            id: Effect.ID.screen) ?? .noChange
        case .close:
          state.close(from: screenID)
          return .changedState
        }
      case .form, .alert:
        return .noChange
      }
    }

    public func handle(result: Effect.Result, changing state: inout State) -> InPlaceResult<Effect>
    {
      switch result {
      case .screen(let screenID, let answer):
        return MUEContactScreen.Update().handle(
          result: answer, changing: &state, forEach: \.stack, id: screenID, effect: Effect.screen,
          id: Effect.ID.screen) ?? .noChange
      case .form(.created(let title, let id?)):
        guard state.form?.isSaving == true else { return .noChange }
        // N3: a new id joins the list and dismisses the form; one the list has is a failure.
        guard id > 0, state.contact(id) == nil else {
          return handle(result: .form(.created(title: title, id: nil)), changing: &state)
        }
        state.contacts.append(Contact(id: id, name: title))
        state.form = nil
        return .changedState
      case .form(let answer):
        return MUEAddForm.Update().handle(
          result: answer, changing: &state, presented: \.form, effect: Effect.form,
          id: Effect.ID.form) ?? .noChange
      }
    }
  }

  // side-by-side: contacts effects
  public struct EffectHandler: MUE.EffectHandler {
    let service: any ContactsService

    public init(service: any ContactsService) { self.service = service }

    public func handle(_ effect: Effect) async -> EffectResult<Effect.Result> {
      switch effect {
      case .form(.create(let title)):
        let id = try? await service.create(name: title)
        if Task.isCancelled { return .empty }
        return .single(.form(.created(title: title, id: id)))
      case .screen(let screen, .details(let contactID)):
        let details = try? await service.details(id: contactID)
        if Task.isCancelled { return .empty }
        return .single(.screen(screen, .answered(details)))
      }
    }
  }

  // side-by-side: contacts wiring
  public static func view(_ state: State) -> ContactsView {
    let destination: Destination
    if let form = state.form {
      destination = .addForm(MUEAddForm.view(form))
    } else if let contactID = state.alert {
      destination = .alert(
        title: ContactsApp.alertTitle(name: state.contact(contactID)?.name ?? ""))
    } else {
      destination = .none
    }
    return ContactsView(
      contacts: state.contacts, destination: destination,
      stack: state.stack.map { MUEContactScreen.view(id: $0, $1) })
  }

  /// A contacts loop for `environment`; call `start()` to load the launch screens.
  public static func makeLoop(environment: ContactsEnvironment) -> Loop<Update, EffectHandler> {
    Loop(
      update: Update(), effectHandler: EffectHandler(service: environment.service),
      state: State(contacts: environment.contacts, launchPath: environment.launchPath),
      executor: environment.executor)
  }
  // side-by-side: end
}
