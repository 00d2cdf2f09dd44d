/// The contacts app (SPEC §8): navigation. A list of contacts, a sheet that adds one, an alert
/// that confirms a deletion, and a stack of detail screens that each load when they arrive. The
/// add form and the detail screen are child features (R12); every presented child ends as R13
/// says.
public enum ContactsApp: Sendable {
  /// The longest title a new contact gets, in Characters (N3).
  public static let maximumNameLength = 100

  /// The title `form(save)` makes from the typed name (N3): trimmed as in T2, then its first
  /// 100 Characters. Empty when nothing but whitespace was typed.
  public static func title(from name: String) -> String {
    String(TodosApp.trimmed(name).prefix(maximumNameLength))
  }

  /// The alert's title for a contact (N4).
  public static func alertTitle(name: String) -> String { "Delete \(name)?" }

  /// The form's error after a failed create (N3).
  public static func addFailedText(title: String) -> String { "Could not add \(title)" }

  /// A loading screen's text (N5).
  public static func loadingText(name: String) -> String { "Loading \(name)…" }

  /// A failed screen's text (N6).
  public static func failedText(name: String) -> String { "Could not load \(name)" }
}

/// One contact: what the list shows (N1).
public struct Contact: Codable, Sendable, Hashable, CustomStringConvertible {
  public var id: Int
  public var name: String

  public init(id: Int, name: String) {
    self.id = id
    self.name = name
  }

  public var description: String { "\(id) \(quoted(name))" }
}

/// What the user does in the add form (N3).
public enum FormIntent: Codable, Sendable, Hashable, CustomStringConvertible {
  case nameChanged(String)
  case save
  case cancel

  public var description: String {
    switch self {
    case .nameChanged(let name): "nameChanged(\(quoted(name)))"
    case .save: "save"
    case .cancel: "cancel"
    }
  }
}

/// What the user does on one detail screen (N4, N5, N6).
public enum ScreenIntent: Codable, Sendable, Hashable, CustomStringConvertible {
  /// Opens another contact above this screen, removing the screens above it first.
  case open(contactID: Int)
  /// Asks to delete the contact this screen shows (an alert confirms).
  case delete
  /// Loads the details again after a failure.
  case retry
  /// Closes this screen and every screen above it.
  case close

  public var description: String {
    switch self {
    case .open(let id): "open(\(id))"
    case .delete: "delete"
    case .retry: "retry"
    case .close: "close"
    }
  }
}

/// The alert's two buttons (N4).
public enum AlertAction: String, Codable, Sendable, Hashable, CustomStringConvertible {
  case confirm
  case cancel

  public var description: String { rawValue }
}

/// What the user does in the contacts app.
public enum ContactsIntent: Codable, Sendable, Hashable, CustomStringConvertible {
  case addTapped
  case deleteTapped(contactID: Int)
  case open(contactID: Int)
  case back
  case popToRoot
  case alert(AlertAction)
  /// An intent of the add form; sent through the form's scope, a form intent is this.
  case form(FormIntent)
  /// An intent of one screen; sent through a screen's scope, a screen intent is this.
  case screen(id: Int, ScreenIntent)

  public var description: String {
    switch self {
    case .addTapped: "addTapped"
    case .deleteTapped(let id): "deleteTapped(\(id))"
    case .open(let id): "open(\(id))"
    case .back: "back"
    case .popToRoot: "popToRoot"
    case .alert(let action): "alert(\(action))"
    case .form(let intent): "form(\(intent))"
    case .screen(let id, let intent): "screen(\(id), \(intent))"
    }
  }
}

/// What the add form shows (N3).
public struct FormView: Codable, Sendable, Hashable, CustomStringConvertible {
  public var name: String
  public var isSaving: Bool
  /// A title made from the name is not empty and the form is not saving.
  public var canSave: Bool
  /// `""` or `Could not add TITLE`.
  public var error: String

  public init(name: String = "", isSaving: Bool = false, canSave: Bool? = nil, error: String = "") {
    self.name = name
    self.isSaving = isSaving
    self.canSave = canSave ?? (!isSaving && !ContactsApp.title(from: name).isEmpty)
    self.error = error
  }

  public var description: String {
    var parts = ["form \(quoted(name))"]
    if isSaving { parts.append("saving") }
    if canSave { parts.append("canSave") }
    if !error.isEmpty { parts.append("error \(quoted(error))") }
    return parts.joined(separator: " ")
  }
}

/// What one detail screen shows (N5, N6).
public struct ScreenView: Codable, Sendable, Hashable, CustomStringConvertible {
  public enum Status: String, Codable, Sendable, Hashable {
    case loading
    case loaded
    case failed
  }

  public var screenID: Int
  public var contactID: Int
  public var contactName: String
  public var status: Status
  /// `Loading NAME…`, the details exactly as received, or `Could not load NAME`.
  public var text: String

  public init(screenID: Int, contactID: Int, contactName: String, status: Status, text: String) {
    self.screenID = screenID
    self.contactID = contactID
    self.contactName = contactName
    self.status = status
    self.text = text
  }

  /// A screen that is loading its contact's details.
  public static func loading(screen: Int, _ contact: Contact) -> ScreenView {
    ScreenView(
      screenID: screen, contactID: contact.id, contactName: contact.name, status: .loading,
      text: ContactsApp.loadingText(name: contact.name))
  }

  /// A screen that shows `details`.
  public static func loaded(screen: Int, _ contact: Contact, details: String) -> ScreenView {
    ScreenView(
      screenID: screen, contactID: contact.id, contactName: contact.name, status: .loaded,
      text: details)
  }

  /// A screen whose load failed.
  public static func failed(screen: Int, _ contact: Contact) -> ScreenView {
    ScreenView(
      screenID: screen, contactID: contact.id, contactName: contact.name, status: .failed,
      text: ContactsApp.failedText(name: contact.name))
  }

  public var description: String { "[\(screenID)] #\(contactID) \(status) \(quoted(text))" }
}

/// What is presented over the list and the stack (N2): nothing, the add form, or an alert.
public enum Destination: Codable, Sendable, Hashable, CustomStringConvertible {
  case none
  case addForm(FormView)
  case alert(title: String)

  public var description: String {
    switch self {
    case .none: "none"
    case .addForm(let form): form.description
    case .alert(let title): "alert \(quoted(title))"
    }
  }
}

/// Everything the contacts app shows.
public struct ContactsView: Codable, Sendable, Hashable, CustomStringConvertible {
  /// The contacts in list order.
  public var contacts: [Contact]
  public var destination: Destination
  /// The stack, bottom to top.
  public var stack: [ScreenView]

  public init(contacts: [Contact] = [], destination: Destination = .none, stack: [ScreenView] = [])
  {
    self.contacts = contacts
    self.destination = destination
    self.stack = stack
  }

  public var description: String {
    var parts = [
      contacts.count <= 6 ? "\(contacts.map(\.description))" : "\(contacts.count) contacts"
    ]
    if destination != .none { parts.append(destination.description) }
    if !stack.isEmpty {
      parts.append(
        stack.count <= 4
          ? "stack \(stack.map(\.description))"
          : "stack of \(stack.count), top \(stack[stack.count - 1])")
    }
    return parts.joined(separator: ", ")
  }
}

/// The contacts service (SPEC §8): creates contacts and reads their details.
public protocol ContactsService: Sendable {
  /// Creates a contact named `name`; returns the id the service assigned.
  func create(name: String) async throws -> Int
  /// The details of contact `id`, as text.
  func details(id: Int) async throws -> String
}

/// The contacts app's side effects, and the values it starts with.
public struct ContactsEnvironment: Sendable {
  public var service: any ContactsService
  /// The contacts the app starts with, in list order (ids > 0 and unique: the giver's promise).
  public var contacts: [Contact]
  /// The contact ids of the screens the app starts with, bottom to top (N1).
  public var launchPath: [Int]
  /// The executor every task the runtime creates should prefer (`nil`: the default executor).
  public var executor: (any TaskExecutor)?

  public init(
    service: any ContactsService, contacts: [Contact], launchPath: [Int] = [],
    executor: (any TaskExecutor)? = nil
  ) {
    self.service = service
    self.contacts = contacts
    self.launchPath = launchPath
    self.executor = executor
  }
}

/// A child of the contacts app: the add form, or a screen of the stack by its screen id.
public enum ContactsChild: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
  case form
  case screen(Int)

  public var description: String {
    switch self {
    case .form: "form"
    case .screen(let id): "screen \(id)"
    }
  }

  public static func < (lhs: ContactsChild, rhs: ContactsChild) -> Bool {
    switch (lhs, rhs) {
    case (.form, .screen): true
    case (.screen(let a), .screen(let b)): a < b
    case (.form, .form), (.screen, .form): false
    }
  }
}

/// An intent sent through a child's scope: the form's or a screen's.
public enum ContactsChildIntent: Codable, Sendable, Hashable, CustomStringConvertible {
  case form(FormIntent)
  case screen(ScreenIntent)

  public var description: String {
    switch self {
    case .form(let intent): "form(\(intent))"
    case .screen(let intent): "screen(\(intent))"
    }
  }

  /// The app's intent this is, sent through `child`'s scope; `nil` when it is not that child's.
  public func intent(through child: ContactsChild) -> ContactsIntent? {
    switch (child, self) {
    case (.form, .form(let intent)): .form(intent)
    case (.screen(let id), .screen(let intent)): .screen(id: id, intent)
    case (.form, .screen), (.screen, .form): nil
    }
  }
}

extension ContactsApp: SpecApp {
  public typealias Intent = ContactsIntent
  public typealias View = ContactsView
  public typealias Environment = ContactsEnvironment
  /// A screen by its screen id, or the add form (not observed on its own: seen in the root view).
  public typealias Child = ContactsChild
  /// A screen's view, or `nil` once (the screen is gone, or was never there).
  public typealias ChildView = ScreenView?
  public typealias ChildIntent = ContactsChildIntent

  public static let name = "contacts"
}
