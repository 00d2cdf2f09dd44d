import ArchitectureSpec
import Kernel

// side-by-side: contacts wiring
/// The contacts app in plain Swift: a value model with the list, the destination and the
/// stack; a serial message loop that tells each screen's observers about that screen only; and
/// one task per loading screen and one for the form's `create`, cancelled with what they belong
/// to (R13).
public final class BaselineContacts: Sendable {
  // side-by-side: contacts state
  struct Model: LoopModel {
    // side-by-side: contacts intents
    enum Message {
      case intent(ContactsIntent)
      /// A form intent sent through a scope taken while presentation `presentation` was shown.
      case formScope(presentation: Int, FormIntent)
      case detailsAnswered(screen: Int, request: Int, Result<String, any Error>)
      case created(presentation: Int, title: String, Result<Int, any Error>)
    }

    // side-by-side: contacts effects
    /// What one message asks of the environment: requests to cancel, then requests to start.
    struct Effect {
      var cancelScreens: [Int] = []
      var cancelCreate = false
      var loads: [Load] = []
      var create: Create?
    }

    struct Load {
      var screen: Int
      var contactID: Int
      var request: Int
    }

    struct Create {
      var presentation: Int
      var title: String
    }

    // side-by-side: contacts state
    struct Form {
      var presentation: Int
      var name = ""
      var isSaving = false
      var error = ""
    }

    /// What is presented: nothing, the form (one presentation of it), or an alert.
    enum Presented {
      case none
      case form(Form)
      case alert(contactID: Int)
    }

    struct Screen {
      var id: Int
      var contactID: Int
      var status: ScreenView.Status
      var text: String
      /// Which request's answer this screen waits for (a retry asks again).
      var request: Int
    }

    var contacts: [Contact]
    var destination = Presented.none
    /// The screens, bottom to top, by screen id: the kernel's list, which the architectures
    /// share.
    var stack = IdentifiedList<Int, Screen>()
    var nextScreenID = 1
    var presentations = 0
    var requests = 0
    /// Mutation point (tests only): the contact each request asked for.
    var answeredContacts: [Int: Int] = [:]
    var touched = TouchedChildren<Int>()
    let defects: BaselineDefects

    // side-by-side: contacts update+effects
    init(contacts: [Contact], launchPath: [Int], defects: BaselineDefects) {
      self.contacts = contacts
      self.defects = defects
      for contactID in launchPath where contact(contactID) != nil { _ = push(contactID) }
      touched.removeAll()
    }

    func contact(_ id: Int) -> Contact? { contacts.first { $0.id == id } }

    /// The loads the launch screens start with, bottom to top (N1).
    var launchLoads: Effect {
      Effect(loads: stack.map { Load(screen: $0, contactID: $1.contactID, request: $1.request) })
    }

    mutating func handle(_ message: Message) -> Effect? {
      switch message {
      case .intent(let intent): return handle(intent)
      case .formScope(let presentation, let intent):
        guard case .form(let form) = destination, form.presentation == presentation else {
          return nil
        }
        return handle(.form(intent))
      case .detailsAnswered(var screenID, let request, let result):
        // Mutation point (tests only): an answer goes to a loading screen of its contact.
        if defects.contains(.matchesAnswersByContact), !stack.contains(id: screenID),
          let contactID = answeredContacts[request],
          let newer = stack.values.last(where: {
            $0.contactID == contactID && $0.status == .loading
          })
        {
          screenID = newer.id
        }
        guard let screen = stack[id: screenID],
          screen.request == request || defects.contains(.matchesAnswersByContact),
          screen.status == .loading, let contact = contact(screen.contactID)
        else { return nil }
        stack.update(id: screenID) { screen in
          switch result {
          case .success(let details):
            screen.status = .loaded
            screen.text = details
          case .failure:
            screen.status = .failed
            screen.text = ContactsApp.failedText(name: contact.name)
          }
        }
        touched.append(screenID)
        return nil
      case .created(let presentation, let title, let result):
        guard case .form(var form) = destination, form.presentation == presentation,
          form.isSaving
        else {
          // Mutation point (tests only): a dismissed form's answer still adds the contact.
          if defects.contains(.keepsDismissedCreate), case .success(let id) = result, id > 0,
            contact(id) == nil
          {
            contacts.append(Contact(id: id, name: title))
          }
          return nil
        }
        if case .success(let id) = result, id > 0, contact(id) == nil {
          contacts.append(Contact(id: id, name: title))
          destination = .none
          return nil
        }
        form.isSaving = false
        form.error = ContactsApp.addFailedText(title: title)
        destination = .form(form)
        return nil
      }
    }

    private mutating func handle(_ intent: ContactsIntent) -> Effect? {
      switch (intent, destination) {
      case (.form(let intent), .form(var form)):
        switch intent {
        case .nameChanged(let name):
          guard !form.isSaving else { return nil }
          form.name = name
          form.error = ""
          destination = .form(form)
          return nil
        case .save:
          let title = ContactsApp.title(from: form.name)
          guard !form.isSaving, !title.isEmpty else { return nil }
          form.isSaving = true
          form.error = ""
          destination = .form(form)
          return Effect(create: Create(presentation: form.presentation, title: title))
        case .cancel:
          destination = .none
          return form.isSaving && !defects.contains(.keepsDismissedCreate)
            ? Effect(cancelCreate: true) : nil
        }
      case (.alert(let action), .alert(let contactID)):
        destination = .none
        guard action == .confirm else { return nil }
        contacts.removeAll { $0.id == contactID }
        if defects.contains(.keepsScreensOfDeletedContact) { return nil }
        let removed = stack.ids { $0.contactID == contactID }
        removeScreens(removed)
        return removed.isEmpty ? nil : Effect(cancelScreens: removed)
      case (.form, _), (.alert, _):
        return nil
      case (_, .form), (_, .alert):
        // The destination covers the list and the stack (N2).
        guard defects.contains(.stackReachableUnderAlert), case .alert = destination else {
          return nil
        }
        return handleUncovered(intent)
      case (_, .none):
        return handleUncovered(intent)
      }
    }

    /// An intent of the list or the stack, with no destination presented.
    private mutating func handleUncovered(_ intent: ContactsIntent) -> Effect? {
      switch intent {
      case .addTapped:
        presentations += 1
        destination = .form(Form(presentation: presentations))
        return nil
      case .deleteTapped(let contactID):
        guard contact(contactID) != nil else { return nil }
        destination = .alert(contactID: contactID)
        return nil
      case .open(let contactID):
        guard contact(contactID) != nil else { return nil }
        return Effect(loads: [push(contactID)])
      case .back:
        guard let top = stack.ids.last else { return nil }
        return close(from: top)
      case .popToRoot:
        guard let bottom = stack.ids.first else { return nil }
        return close(from: bottom)
      case .screen(let screenID, let screenIntent):
        guard let screen = stack[id: screenID] else { return nil }
        switch screenIntent {
        case .open(let contactID):
          guard contact(contactID) != nil else { return nil }
          var effect = Effect()
          if stack.ids.last != screenID, let index = stack.ids.lastIndex(of: screenID) {
            let above = stack.ids[index + 1]
            effect = close(from: above) ?? Effect()
          }
          effect.loads.append(push(contactID))
          return effect
        case .delete:
          destination = .alert(contactID: screen.contactID)
          return nil
        case .retry:
          guard screen.status == .failed, let contact = contact(screen.contactID)
          else { return nil }
          requests += 1
          let request = requests
          stack.update(id: screenID) { screen in
            screen.status = .loading
            screen.text = ContactsApp.loadingText(name: contact.name)
            screen.request = request
          }
          touched.append(screenID)
          return Effect(loads: [Load(screen: screenID, contactID: contact.id, request: requests)])
        case .close:
          if defects.contains(.closesOnlyThatScreen) {
            removeScreens([screenID])
            return Effect(cancelScreens: [screenID])
          }
          return close(from: screenID)
        }
      case .alert, .form:
        return nil
      }
    }

    /// Pushes a new screen for `contactID` and returns its load (N5).
    private mutating func push(_ contactID: Int) -> Load {
      let name = contact(contactID)?.name ?? ""
      requests += 1
      if defects.contains(.matchesAnswersByContact) { answeredContacts[requests] = contactID }
      // Mutation point (tests only): the next id after the top screen, as if ids were places.
      let id = defects.contains(.reusesScreenIDs) ? (stack.ids.last ?? 0) + 1 : nextScreenID
      nextScreenID = max(nextScreenID, id + 1)
      stack.append(
        Screen(
          id: id, contactID: contactID, status: .loading,
          text: ContactsApp.loadingText(name: name), request: requests), id: id)
      touched.append(id)
      return Load(screen: id, contactID: contactID, request: requests)
    }

    /// Removes `screenID` and every screen above it, cancelling their loads (R13). Costs what
    /// is removed: the screen is looked for from the top, and screens go from the top down.
    private mutating func close(from screenID: Int) -> Effect? {
      guard let index = stack.ids.lastIndex(of: screenID) else { return nil }
      let removed = Array(stack.ids[index...])
      if index == 0 {
        stack = IdentifiedList()
      } else {
        for id in removed.reversed() { stack.remove(id: id) }
      }
      // Mutation point (tests only): a removed screen's observers are never told.
      if !defects.contains(.forgetsRemovedScreens) { touched.append(contentsOf: removed) }
      return Effect(cancelScreens: removed)
    }

    /// Removes the screens `ids` wherever they are; the rest keep their order.
    private mutating func removeScreens(_ ids: [Int]) {
      guard !ids.isEmpty else { return }
      let gone = Set(ids)
      stack.removeAll { gone.contains($0.id) }
      // Mutation point (tests only): a removed screen's observers are never told.
      if !defects.contains(.forgetsRemovedScreens) { touched.append(contentsOf: ids) }
    }

    // side-by-side: contacts wiring
    var view: ContactsView {
      let shown: Destination
      switch destination {
      case .none: shown = .none
      case .form(let form):
        shown = .addForm(FormView(name: form.name, isSaving: form.isSaving, error: form.error))
      case .alert(let contactID):
        shown = .alert(title: ContactsApp.alertTitle(name: contact(contactID)?.name ?? ""))
      }
      return ContactsView(
        contacts: contacts, destination: shown,
        // The contacts, not the whole model, captured: the closure runs once per screen.
        stack: stack.map { [contacts] in Self.screenView($1, contacts: contacts) })
    }

    static func screenView(_ screen: Screen, contacts: [Contact]) -> ScreenView {
      ScreenView(
        screenID: screen.id, contactID: screen.contactID,
        contactName: contacts.first { $0.id == screen.contactID }?.name ?? "",
        status: screen.status, text: screen.text)
    }

    mutating func takeTouchedChildren() -> [Int]? { touched.take() }
    mutating func reuseTouchedChildren(_ children: consuming [Int]) {
      touched.reuse(consume children)
    }

    func childView(_ screenID: Int) -> ScreenView? {
      stack[id: screenID].map { Self.screenView($0, contacts: contacts) }
    }

    static func isFinal(_ view: ScreenView?) -> Bool { view == nil }

    /// The presentation of the form shown now, if one is.
    var formPresentation: Int? {
      if case .form(let form) = destination { form.presentation } else { nil }
    }
    // side-by-side: end
  }

  // side-by-side: contacts wiring
  private let loop: MessageLoop<Model>
  private let effects: ContactsEffects
  private let launchLoads: Model.Effect

  /// Creates the app with the contacts and launch path `environment` holds; nothing runs until
  /// ``start(observer:)``.
  public convenience init(environment: ContactsEnvironment) {
    self.init(environment: environment, defects: [])
  }

  package init(environment: ContactsEnvironment, defects: BaselineDefects) {
    let model = Model(
      contacts: environment.contacts, launchPath: environment.launchPath, defects: defects)
    launchLoads = model.launchLoads
    loop = MessageLoop(model, defects: defects, executor: environment.executor)
    effects = ContactsEffects(environment: environment, defects: defects)
    loop.performEffects(with: effects.perform)
    effects.connect { [weak loop, weak effects] message in
      guard let loop, let effects else { return }
      loop.send(message, isIntent: false, perform: effects.perform)
    }
  }

  /// Released, it behaves as stopped: every request in flight is cancelled.
  deinit { stop() }

  /// The current view.
  public var view: ContactsView { loop.view }

  /// Starts: shows the list and the launch screens, and loads their details, bottom to top.
  /// With no `observer`, no view of the whole app is made: only screen observers are told.
  public func start(observer: (@Sendable (ContactsView) -> Void)?) {
    guard loop.start(observer: observer) else { return }
    loop.gate.ifOpen { effects.perform(launchLoads) }
    loop.drain(perform: effects.perform)
  }

  /// Sends an intent; safe from any thread.
  public func send(_ intent: ContactsIntent) {
    loop.send(.intent(intent), isIntent: true, perform: effects.perform)
  }

  /// Observes one screen by its screen id (R11): its view, then its changes, then `nil` once.
  public func observe(screen id: Int, _ observer: @escaping @Sendable (ScreenView?) -> Void) {
    loop.observe(id, observer)
  }

  /// A scope of the add form as presented now: what it sends reaches that presentation only.
  public func formScope() -> @Sendable (FormIntent) -> Void {
    let presentation = loop.read(\.formPresentation) ?? 0
    return { [weak self] intent in
      guard let self else { return }
      loop.send(
        .formScope(presentation: presentation, intent), isIntent: true,
        perform: effects.perform)
    }
  }

  /// Stops: every request in flight is cancelled, later intents and answers are ignored.
  public func stop() {
    loop.stop()
    effects.stop()
  }
}

// side-by-side: end

// side-by-side: contacts effects
/// The contacts app's requests: one `details` task per loading screen, by screen id, and one
/// `create` task for the form; each cancelled with the child it belongs to.
final class ContactsEffects: Sendable {
  private enum Slot: Hashable {
    case screen(Int)
    case create
  }

  private let environment: ContactsEnvironment
  private let defects: BaselineDefects
  private let tasks = TaskSlots<Slot>()
  private let relay = Relay<BaselineContacts.Model.Message>()

  init(environment: ContactsEnvironment, defects: BaselineDefects) {
    self.environment = environment
    self.defects = defects
  }

  /// Where answers go; the closure must not hold its owner strongly.
  func connect(_ deliver: @escaping @Sendable (BaselineContacts.Model.Message) -> Void) {
    relay.connect(deliver)
  }

  func perform(_ effect: BaselineContacts.Model.Effect) {
    // Mutation points (tests only): a removed screen's load goes on.
    if defects.isDisjoint(with: [.forgetsPoppedLoads, .matchesAnswersByContact]) {
      for screen in effect.cancelScreens { tasks.cancel(.screen(screen)) }
    }
    if effect.cancelCreate { tasks.cancel(.create) }
    let service = environment.service
    for load in effect.loads {
      tasks.replace(
        .screen(load.screen),
        with: startEffectTask(on: environment.executor) { [weak relay] in
          let result = await Result(catching: { try await service.details(id: load.contactID) })
          relay?.send(.detailsAnswered(screen: load.screen, request: load.request, result))
        })
    }
    if let create = effect.create {
      tasks.replace(
        .create,
        with: startEffectTask(on: environment.executor) { [weak relay] in
          let result = await Result(catching: { try await service.create(name: create.title) })
          relay?.send(
            .created(presentation: create.presentation, title: create.title, result))
        })
    }
  }

  func stop() { tasks.cancelAll() }
}
// side-by-side: end
