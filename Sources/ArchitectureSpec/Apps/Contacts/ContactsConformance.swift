/// How a contacts run's fakes behave before any step, and what the app starts with.
public struct ContactsSetup: ScenarioSetup {
  /// The contacts handed to the app at start.
  public var contacts: [Contact]
  /// The launch path: contact ids of the screens the app starts with, bottom to top.
  public var launchPath: [Int]
  public var honorsCancellation: Bool
  /// Whether `create` and `details` stay pending until the scenario answers them.
  public var holdsCalls: Bool
  /// Contacts whose `details` fail when the end of a step answers them.
  public var failingDetails: Set<Int>
  /// Names whose `create` fails when the end of a step answers it.
  public var failingCreates: Set<String>
  /// The id the service gives the first contact it creates; then one more each time.
  public var firstNewID: Int

  public init() { self.init(contacts: ContactsSetup.sample) }

  public init(
    contacts: [Contact] = ContactsSetup.sample, launchPath: [Int] = [],
    honorsCancellation: Bool = true, holdsCalls: Bool = false, failingDetails: Set<Int> = [],
    failingCreates: Set<String> = [], firstNewID: Int = 100
  ) {
    self.contacts = contacts
    self.launchPath = launchPath
    self.honorsCancellation = honorsCancellation
    self.holdsCalls = holdsCalls
    self.failingDetails = failingDetails
    self.failingCreates = failingCreates
    self.firstNewID = firstNewID
  }

  /// Three contacts: Ann (1), Bob (2), Cy (3).
  public static let sample = [
    Contact(id: 1, name: "Ann"), Contact(id: 2, name: "Bob"), Contact(id: 3, name: "Cy"),
  ]

  public var description: String {
    guard self != ContactsSetup() else { return "" }
    var parts: [String] = []
    if contacts != Self.sample {
      parts.append(
        contacts.count <= 6 ? "contacts \(contacts)" : "\(contacts.count) contacts")
    }
    if !launchPath.isEmpty {
      parts.append(
        launchPath.count <= 8 ? "launch path \(launchPath)" : "launch path of \(launchPath.count)")
    }
    if !honorsCancellation { parts.append("cancellation ignored") }
    if holdsCalls { parts.append("calls held") }
    if !failingDetails.isEmpty { parts.append("details of \(failingDetails.sorted()) fail") }
    if !failingCreates.isEmpty { parts.append("create of \(failingCreates.sorted()) fails") }
    if firstNewID != 100 { parts.append("new ids from \(firstNewID)") }
    return parts.joined(separator: ", ")
  }
}

/// The contacts app's fakes: the service.
public struct ContactsFakes: AppFakes {
  public let service: FakeContactsService
  public let contacts: [Contact]
  public let launchPath: [Int]

  public init(_ setup: ContactsSetup, context: FakeContext) {
    service = FakeContactsService(
      recorder: context.recorder, honorsCancellation: setup.honorsCancellation,
      holdsCalls: setup.holdsCalls, firstNewID: setup.firstNewID,
      failingDetails: setup.failingDetails, failingCreates: setup.failingCreates)
    contacts = setup.contacts
    launchPath = setup.launchPath
  }

  /// Answers one call, the oldest: the runner settles after each, so every answer is processed
  /// to idle before the next (SPEC §8 "Scenario timing").
  public func completeDueCalls() -> Bool { service.answerOldestDue() }

  public func abandonPendingCalls() { service.abandonPendingCalls() }
}

/// What a scenario does to the contacts app's fakes.
public enum ContactsFakeAction: Sendable, Hashable, CustomStringConvertible {
  /// Holds calls pending (`true`) or lets the end of each step answer them again (`false`).
  case holdCalls(Bool)
  /// Answers the oldest (or newest) pending `details` of a contact.
  case answerDetails(contactID: Int, FakeContactsService.Answer, newest: Bool)
  /// Answers the oldest pending `create`.
  case answerCreate(FakeContactsService.Answer)

  public var description: String {
    switch self {
    case .holdCalls(let holds): holds ? "hold calls" : "release calls"
    case .answerDetails(let id, let answer, let newest):
      "\(newest ? "newest " : "")details(\(id)) answers \(answer)"
    case .answerCreate(let answer): "create answers \(answer)"
    }
  }

  func perform(on fakes: ContactsFakes) {
    switch self {
    case .holdCalls(let holds): fakes.service.holdCalls(holds)
    case .answerDetails(let id, let answer, let newest):
      fakes.service.answerDetails(of: id, with: answer, newest: newest)
    case .answerCreate(let answer): fakes.service.answerCreate(with: answer)
    }
  }
}

extension ContactsApp: ConformanceApp {
  public typealias Setup = ContactsSetup

  public static func makeFakes(_ setup: ContactsSetup, context: FakeContext) -> ContactsFakes {
    ContactsFakes(setup, context: context)
  }

  public static func environment(from fakes: ContactsFakes, context: FakeContext)
    -> ContactsEnvironment
  {
    ContactsEnvironment(
      service: fakes.service, contacts: fakes.contacts, launchPath: fakes.launchPath,
      executor: context.executor)
  }

  public static func perform(_ action: ContactsFakeAction, on fakes: ContactsFakes) {
    action.perform(on: fakes)
  }

  /// A screen's view in a trace: its text, or `nil`.
  public static func traceText(of childView: ScreenView?) -> String {
    childView.map(\.description) ?? "nil"
  }
}

extension Step where App == ContactsApp {
  /// Holds `create` and `details` calls until the scenario answers them.
  public static var holdCalls: Step { .fake(.holdCalls(true)) }
  /// Lets the end of each step answer calls again; the held ones end with this step.
  public static var releaseCalls: Step { .fake(.holdCalls(false)) }
  /// Answers the oldest pending `details(id)` (the newest, if `newest`) with `text`.
  public static func answerDetails(_ id: Int, _ text: String, newest: Bool = false) -> Step {
    .fake(.answerDetails(contactID: id, .text(text), newest: newest))
  }
  /// Fails the oldest pending `details(id)` (the newest, if `newest`).
  public static func failDetails(_ id: Int, newest: Bool = false) -> Step {
    .fake(.answerDetails(contactID: id, .failure, newest: newest))
  }
  /// Answers the oldest pending `create` with `id`.
  public static func answerCreate(id: Int) -> Step { .fake(.answerCreate(.id(id))) }
  /// Fails the oldest pending `create`.
  public static var failCreate: Step { .fake(.answerCreate(.failure)) }
  /// Sends a form intent through the app (`form(…)`).
  public static func form(_ intent: FormIntent) -> Step { .send(.form(intent)) }
  /// Sends `open(contactID:)`.
  public static func open(_ contactID: Int) -> Step { .send(.open(contactID: contactID)) }
  /// Sends an intent through screen `id`'s scope.
  public static func screen(_ id: Int, _ intent: ScreenIntent) -> Step {
    .sendToChild(.screen(id), .screen(intent))
  }
}
