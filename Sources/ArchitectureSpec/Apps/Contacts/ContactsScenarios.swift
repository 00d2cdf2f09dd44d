extension ContactsApp {
  public static var scenarios: [Scenario<ContactsApp>] { contactsScenarios }

  /// A random program: intents of the list, the form, the alert and screens (also through
  /// scopes kept after their child was dismissed), calls held and answered in any order,
  /// screens observed; some programs start from a launch path, a few from one 2,000 screens deep.
  public static func randomProgram(using random: inout SeededRandom) -> Scenario<ContactsApp> {
    let deep = random.pick([(12, false), (1, true)])
    let launchPath: [Int] =
      deep
      ? (0..<2_000).map { $0 % 4 + 1 }
      : (0..<random.pick([(3, 0), (2, Int.random(in: 1...4, using: &random))])).map { _ in
        Int.random(in: 1...4, using: &random)
      }
    let names = ["Dee", "  Eve  ", "", "   ", "Fay!", String(repeating: "g", count: 104)]
    var steps: [Step<ContactsApp>] = []
    for _ in 0..<Int.random(in: 1...30, using: &random) {
      let contact = Int.random(in: 1...4, using: &random)
      let screen = Int.random(in: 1...(deep ? 2_004 : 8), using: &random)
      let name = names.randomElement(using: &random) ?? ""
      let screenIntent = random.pick([
        (3, ScreenIntent.open(contactID: contact)), (2, .delete), (2, .retry), (2, .close),
      ])
      steps.append(
        random.pick([
          (5, .send(.open(contactID: contact))), (2, .send(.back)), (1, .send(.popToRoot)),
          (3, .send(.addTapped)), (3, .form(.nameChanged(name))), (3, .form(.save)),
          (2, .form(.cancel)), (2, .send(.deleteTapped(contactID: contact))),
          (2, .send(.alert(.confirm))), (1, .send(.alert(.cancel))),
          (4, .screen(screen, screenIntent)), (2, .send(.screen(id: screen, screenIntent))),
          (2, .answerDetails(contact, "About \(contact)")), (1, .failDetails(contact)),
          (1, .answerDetails(contact, "Newest \(contact)", newest: true)),
          (2, .answerCreate(id: Int.random(in: 0...6, using: &random) + 98)), (1, .failCreate),
          (1, .holdCalls), (1, .releaseCalls), (2, .observe(.screen(screen))),
          (1, .keepScope("kept", .form)),
          (2, .sendThroughKeptScope("kept", .form(.nameChanged(name)))),
          (1, .sendThroughKeptScope("kept", .form(.save))),
        ]))
    }
    if random.pick([(6, false), (1, true)]) { steps += [.stop, .send(.open(contactID: 1))] }
    let observed = (0..<Int.random(in: 0...3, using: &random)).map { _ in
      ContactsChild.screen(Int.random(in: 1...6, using: &random))
    }
    return Scenario(
      "random contacts program", rules: [],
      setup: ContactsSetup(
        contacts: ContactsSetup.sample + [Contact(id: 4, name: "  Dan ")], launchPath: launchPath,
        honorsCancellation: random.pick([(3, true), (1, false)]),
        holdsCalls: random.pick([(1, false), (2, true)]), failingDetails: [3],
        failingCreates: ["Fay!"]),
      observing: Array(Set(observed)).sorted(), steps: steps)
  }
}

private let ann = Contact(id: 1, name: "Ann")
private let bob = Contact(id: 2, name: "Bob")
private let cy = Contact(id: 3, name: "Cy")
private let sample = ContactsSetup.sample

private func loading(_ screen: Int, _ contact: Contact) -> ScreenView {
  .loading(screen: screen, contact)
}

private func loaded(_ screen: Int, _ contact: Contact, _ details: String? = nil) -> ScreenView {
  .loaded(
    screen: screen, contact, details: details ?? FakeContactsService.details(of: contact.id))
}

private func failed(_ screen: Int, _ contact: Contact) -> ScreenView {
  .failed(screen: screen, contact)
}

private func view(
  _ contacts: [Contact] = sample, _ destination: Destination = .none, stack: [ScreenView] = []
) -> ContactsView {
  ContactsView(contacts: contacts, destination: destination, stack: stack)
}

private func view(_ destination: Destination, stack: [ScreenView] = []) -> ContactsView {
  ContactsView(contacts: sample, destination: destination, stack: stack)
}

private func form(_ name: String = "", saving: Bool = false, error: String = "") -> Destination {
  .addForm(FormView(name: name, isSaving: saving, error: error))
}

private let held = ContactsSetup(holdsCalls: true)
private let heldIgnoringCancellation = ContactsSetup(honorsCancellation: false, holdsCalls: true)

private let contactsScenarios: [Scenario<ContactsApp>] = [
  // N1 Start.
  Scenario(
    "n1.start-shows-list-and-launch-screens", rules: [.n1, .r1],
    setup: ContactsSetup(launchPath: [1, 9, 2], holdsCalls: true),
    observing: [.screen(1), .screen(2), .screen(3)],
    steps: [
      .expectView(view(stack: [loading(1, ann), loading(2, bob)])),
      .expectCalls([.details(1), .details(2)]),
      .expectChildViews(.screen(1), [loading(1, ann)]), .expectChildViews(.screen(3), [nil]),
      .answerDetails(2, "Bob's"),
      .expectView(view(stack: [loading(1, ann), loaded(2, bob, "Bob's")])),
    ]),
  Scenario(
    "n1.launch-screens-load-at-start", rules: [.n1, .n6],
    setup: ContactsSetup(launchPath: [3, 3]),
    steps: [
      .expectView(view(stack: [loaded(1, cy), loaded(2, cy)])),
      .expectCalls([.details(3), .details(3)]),
    ]),
  Scenario(
    "n1.no-launch-path", rules: [.n1],
    steps: [.expectView(view()), .expectCalls([]), .send(.back), .expectNotifications(0)]),
  Scenario(
    "n1.launch-path-naming-no-contact", rules: [.n1], setup: ContactsSetup(launchPath: [7, 8]),
    observing: [.screen(1)],
    steps: [
      .expectView(view()), .expectCalls([]), .open(2), .expectView(view(stack: [loaded(1, bob)])),
    ]),
  // N2 One destination at a time.
  Scenario(
    "n2.destination-covers-list-and-stack", rules: [.n2], setup: held,
    steps: [
      .open(1), .send(.addTapped), .send(.deleteTapped(contactID: 2)), .open(2), .send(.back),
      .send(.popToRoot), .screen(1, .close), .screen(1, .delete), .send(.addTapped),
      .send(.alert(.confirm)),
      .expectView(view(form(), stack: [loading(1, ann)])), .expectCalls([.details(1)]),
      .answerDetails(1, "Ann's"),
      .expectView(view(form(), stack: [loaded(1, ann, "Ann's")])),
    ]),
  Scenario(
    "n2.alert-covers-list-and-stack", rules: [.n2, .n4], setup: held,
    steps: [
      .open(1), .send(.deleteTapped(contactID: 2)), .open(3), .send(.back), .screen(1, .close),
      .send(.addTapped), .form(.nameChanged("x")),
      .expectView(view(.alert(title: "Delete Bob?"), stack: [loading(1, ann)])),
      .expectCalls([.details(1)]),
    ]),
  Scenario(
    "n2.intents-for-an-absent-destination-ignored", rules: [.n2, .r10],
    steps: [
      .form(.nameChanged("x")), .form(.save), .form(.cancel), .send(.alert(.confirm)),
      .send(.alert(.cancel)), .expectNotifications(0), .expectView(view()), .expectCalls([]),
    ]),
  // N3 Add.
  Scenario(
    "n3.add-a-contact", rules: [.n3, .r13],
    steps: [
      .send(.addTapped), .expectView(view(form())), .form(.nameChanged("  Dee  ")),
      .expectView(view(form("  Dee  "))), .form(.save),
      .expectView(view(sample + [Contact(id: 100, name: "Dee")])),
      .expectCalls([.create("Dee")]),
    ]),
  Scenario(
    "n3.blank-name-saves-nothing", rules: [.n3],
    steps: [
      .send(.addTapped), .form(.nameChanged(" \t ")), .form(.save),
      .expectView(view(form(" \t "))), .expectCalls([]),
    ]),
  Scenario(
    "n3.saving-ignores-edits-and-saves", rules: [.n3], setup: held,
    steps: [
      .send(.addTapped), .form(.nameChanged("Dee")), .form(.save),
      .expectView(view(form("Dee", saving: true))), .form(.nameChanged("Eve")), .form(.save),
      .expectView(view(form("Dee", saving: true))), .expectCalls([.create("Dee")]),
      .answerCreate(id: 7), .expectView(view(sample + [Contact(id: 7, name: "Dee")])),
    ]),
  Scenario(
    "n3.failed-create-shows-error", rules: [.n3, .r9],
    setup: ContactsSetup(failingCreates: ["Dee"]),
    steps: [
      .send(.addTapped), .form(.nameChanged("Dee")), .form(.save),
      .expectView(view(form("Dee", error: "Could not add Dee"))),
      .expectCalls([.create("Dee")]), .form(.nameChanged("Dee 2")),
      .expectView(view(form("Dee 2"))), .form(.save),
      .expectView(view(sample + [Contact(id: 100, name: "Dee 2")])),
    ]),
  Scenario(
    "n3.id-taken-or-not-positive-is-an-error", rules: [.n3], setup: held,
    steps: [
      .send(.addTapped), .form(.nameChanged("Dee")), .form(.save), .answerCreate(id: 2),
      .expectView(view(form("Dee", error: "Could not add Dee"))), .form(.save),
      .answerCreate(id: 0), .expectView(view(form("Dee", error: "Could not add Dee"))),
      .form(.save), .answerCreate(id: -4), .form(.save), .answerCreate(id: 5),
      .expectView(view(sample + [Contact(id: 5, name: "Dee")])),
      .expectCalls([.create("Dee"), .create("Dee"), .create("Dee"), .create("Dee")]),
    ]),
  Scenario(
    "n3.title-kept-to-100-characters", rules: [.n3],
    steps: [
      .send(.addTapped), .form(.nameChanged(" " + String(repeating: "é", count: 130))),
      .form(.save), .expectCalls([.create(String(repeating: "é", count: 100))]),
    ]),
  // R13 on the form.
  Scenario(
    "r13.cancelled-form-cancels-its-create", rules: [.r13, .n3], setup: held,
    steps: [
      .send(.addTapped), .form(.nameChanged("Dee")), .form(.save), .form(.cancel),
      .expectView(view()), .expectCalls([.create("Dee"), .cancelled(.create("Dee"))]),
      .answerCreate(id: 100), .expectView(view()),
    ]),
  Scenario(
    "r13.late-create-never-reaches-the-next-form", rules: [.r13, .n3],
    setup: heldIgnoringCancellation,
    steps: [
      .send(.addTapped), .form(.nameChanged("Dee")), .form(.save), .form(.cancel),
      .send(.addTapped), .form(.nameChanged("Eve")), .answerCreate(id: 100),
      .expectView(view(form("Eve"))), .form(.save), .answerCreate(id: 101),
      .expectView(view(sample + [Contact(id: 101, name: "Eve")])),
      .expectCalls([.create("Dee"), .cancelled(.create("Dee")), .create("Eve")]),
    ]),
  Scenario(
    "r13.scope-of-a-dismissed-form-stays-dead", rules: [.r13, .n3],
    steps: [
      .send(.addTapped), .keepScope("first", .form),
      .sendThroughKeptScope("first", .form(.nameChanged("A"))),
      .expectView(view(form("A"))), .form(.cancel), .send(.addTapped),
      .sendThroughKeptScope("first", .form(.nameChanged("zzz"))),
      .sendThroughKeptScope("first", .form(.cancel)), .expectView(view(form())),
      .keepScope("second", .form), .sendThroughKeptScope("second", .form(.nameChanged("Eve"))),
      .sendThroughKeptScope("first", .form(.save)), .expectView(view(form("Eve"))),
      .expectCalls([]),
    ]),
  // N4 Delete.
  Scenario(
    "n4.delete-from-the-list", rules: [.n4, .n2],
    steps: [
      .send(.deleteTapped(contactID: 9)), .expectView(view()),
      .send(.deleteTapped(contactID: 2)), .expectView(view(.alert(title: "Delete Bob?"))),
      .send(.alert(.cancel)), .expectView(view()), .send(.deleteTapped(contactID: 2)),
      .send(.alert(.confirm)), .expectView(view([ann, cy])), .expectCalls([]),
    ]),
  Scenario(
    "n4.confirm-removes-every-screen-of-the-contact", rules: [.n4, .r13, .r11], setup: held,
    steps: [
      .open(1), .open(2), .open(1), .open(3), .observe(.screen(1)), .observe(.screen(2)),
      .observe(.screen(3)), .screen(3, .delete),
      .expectView(
        view(
          .alert(title: "Delete Ann?"),
          stack: [loading(1, ann), loading(2, bob), loading(3, ann), loading(4, cy)])),
      .send(.alert(.confirm)),
      .expectView(view([bob, cy], stack: [loading(2, bob), loading(4, cy)])),
      .expectChildViews(.screen(1), [nil]), .expectChildViews(.screen(3), [nil]),
      .expectChildViews(.screen(2), []),
      .expectCalls([
        .details(1), .details(2), .details(1), .details(3), .cancelled(.details(1)),
        .cancelled(.details(1)),
      ]),
      .answerDetails(1, "late"), .answerDetails(2, "Bob's"),
      .expectView(view([bob, cy], stack: [loaded(2, bob, "Bob's"), loading(4, cy)])),
    ]),
  // N5 Stack.
  Scenario(
    "n5.open-pushes-a-screen-that-loads", rules: [.n5, .n6],
    steps: [
      .open(1), .expectView(view(stack: [loaded(1, ann)])), .open(1),
      .expectView(view(stack: [loaded(1, ann), loaded(2, ann)])),
      .expectCalls([.details(1), .details(1)]), .open(9), .expectNotifications(0),
    ]),
  Scenario(
    "n5.open-from-a-screen-removes-the-screens-above-it", rules: [.n5, .r13], setup: held,
    steps: [
      .open(1), .open(2), .open(3), .screen(1, .open(contactID: 3)),
      .expectView(view(stack: [loading(1, ann), loading(4, cy)])),
      .expectCalls([
        .details(1), .details(2), .details(3), .cancelled(.details(2)), .cancelled(.details(3)),
        .details(3),
      ]),
      .screen(1, .open(contactID: 9)), .expectView(view(stack: [loading(1, ann), loading(4, cy)])),
      .screen(4, .open(contactID: 2)),
      .expectView(view(stack: [loading(1, ann), loading(4, cy), loading(5, bob)])),
    ]),
  Scenario(
    "n5.back-and-pop-to-root", rules: [.n5, .r13, .r10], setup: held,
    steps: [
      .open(1), .open(2), .open(3), .send(.back),
      .expectView(view(stack: [loading(1, ann), loading(2, bob)])), .send(.popToRoot),
      .expectView(view()), .send(.back), .expectNotifications(0), .send(.popToRoot),
      .expectNotifications(0),
      .expectCalls([
        .details(1), .details(2), .details(3), .cancelled(.details(3)), .cancelled(.details(1)),
        .cancelled(.details(2)),
      ]),
    ]),
  Scenario(
    "n5.close-removes-the-screen-and-those-above", rules: [.n5, .r13], setup: held,
    steps: [
      .open(1), .open(2), .open(3), .screen(2, .close),
      .expectView(view(stack: [loading(1, ann)])), .screen(2, .close), .screen(3, .retry),
      .expectView(view(stack: [loading(1, ann)])),
    ]),
  Scenario(
    "n5.screen-ids-are-never-reused", rules: [.n5, .r11, .r13],
    observing: [.screen(3)],
    steps: [
      .open(1), .open(2), .observe(.screen(2)), .expectChildViews(.screen(2), [loaded(2, bob)]),
      .send(.back), .expectChildViews(.screen(2), [nil]), .open(3),
      .expectChildViews(.screen(3), []),
      .expectView(view(stack: [loaded(1, ann), loaded(3, cy)])),
      .expectChildViews(.screen(2), []), .observe(.screen(2)),
      .expectChildViews(.screen(2), [nil]), .screen(2, .close),
      .expectView(view(stack: [loaded(1, ann), loaded(3, cy)])),
    ]),
  Scenario(
    "n5.the-same-contact-several-times", rules: [.n5, .n6], setup: held,
    steps: [
      .open(2), .open(2), .answerDetails(2, "second", newest: true), .answerDetails(2, "first"),
      .expectView(view(stack: [loaded(1, bob, "first"), loaded(2, bob, "second")])),
    ]),
  // N6 Details.
  Scenario(
    "n6.failed-load-and-retry", rules: [.n6, .r9], setup: held,
    steps: [
      .open(2), .screen(1, .retry), .failDetails(2), .expectView(view(stack: [failed(1, bob)])),
      .screen(1, .retry), .expectView(view(stack: [loading(1, bob)])),
      .expectCalls([.details(2), .details(2)]), .answerDetails(2, "found"),
      .expectView(view(stack: [loaded(1, bob, "found")])), .screen(1, .retry),
      .expectCalls([]),
    ]),
  Scenario(
    "n6.failing-details-from-the-setup", rules: [.n6], setup: ContactsSetup(failingDetails: [3]),
    steps: [
      .open(3), .expectView(view(stack: [failed(1, cy)])), .open(1),
      .expectView(view(stack: [failed(1, cy), loaded(2, ann)])),
    ]),
  Scenario(
    "n6.details-text-as-received", rules: [.n6], setup: held,
    steps: [
      .open(1), .answerDetails(1, "  line one\nline\u{1B}[2J two  "),
      .expectView(view(stack: [loaded(1, ann, "  line one\nline\u{1B}[2J two  ")])),
    ]),
  // R13 on screens.
  Scenario(
    "r13.popped-screens-late-answer-never-lands-in-a-newer-screen", rules: [.r13, .n6],
    setup: heldIgnoringCancellation,
    steps: [
      .open(1), .send(.back), .open(1), .answerDetails(1, "old"),
      .expectView(view(stack: [loading(2, ann)])), .answerDetails(1, "new"),
      .expectView(view(stack: [loaded(2, ann, "new")])),
      .expectCalls([.details(1), .cancelled(.details(1)), .details(1)]),
    ]),
  Scenario(
    "r13.retry-of-a-closed-screen-is-ignored", rules: [.r13, .n6], setup: heldIgnoringCancellation,
    steps: [
      .open(2), .failDetails(2), .screen(1, .close), .screen(1, .retry), .open(2),
      .expectView(view(stack: [loading(2, bob)])), .expectCalls([.details(2), .details(2)]),
    ]),
  Scenario(
    "r13.scope-of-a-closed-screen-stays-dead", rules: [.r13, .n5], setup: held,
    steps: [
      .open(1), .keepScope("first", .screen(1)), .send(.back), .open(1),
      .sendThroughKeptScope("first", .screen(.close)),
      .sendThroughKeptScope("first", .screen(.open(contactID: 2))),
      .expectView(view(stack: [loading(2, ann)])), .keepScope("second", .screen(2)),
      .sendThroughKeptScope("second", .screen(.open(contactID: 3))),
      .expectView(view(stack: [loading(2, ann), loading(3, cy)])),
    ]),
  // R11 on screens.
  Scenario(
    "r11.a-screen-observer-sees-only-its-screen", rules: [.r11, .r10], setup: held,
    steps: [
      .open(1), .observe(.screen(1)), .expectChildViews(.screen(1), [loading(1, ann)]),
      .open(2), .expectChildViews(.screen(1), []), .observe(.screen(2)),
      .expectChildViews(.screen(2), [loading(2, bob)]), .answerDetails(2, "x"),
      .expectChildViews(.screen(1), []), .expectChildViews(.screen(2), [loaded(2, bob, "x")]),
      .send(.addTapped), .expectChildViews(.screen(2), []), .form(.cancel), .send(.back),
      .expectChildViews(.screen(2), [nil]), .expectChildViews(.screen(1), []),
    ]),
  Scenario(
    "r11.observer-before-start-of-a-missing-screen-gets-nil-once", rules: [.r11, .n1],
    setup: ContactsSetup(launchPath: [1]), observing: [.screen(1), .screen(2)],
    steps: [
      .open(2), .expectChildViews(.screen(2), []),
      .expectView(view(stack: [loaded(1, ann), loaded(2, bob)])),
    ]),
  // R6 Stop.
  Scenario(
    "r6.stop-cancels-every-childs-work", rules: [.r6, .r13], setup: held,
    observing: [.screen(1)],
    steps: [
      .open(1), .send(.addTapped), .form(.nameChanged("Dee")), .form(.save), .stop,
      .expectCalls([
        .details(1), .create("Dee"), .cancelled(.create("Dee")), .cancelled(.details(1)),
      ]),
      .answerDetails(1, "late"), .send(.popToRoot), .expectChildViews(.screen(1), []),
    ]),
  Scenario(
    "r6.subscribing-after-stop-calls-nothing", rules: [.r6, .r11],
    setup: ContactsSetup(launchPath: [1]),
    steps: [
      .stop, .observe(.screen(1)), .observe(.screen(2)), .expectChildViews(.screen(1), []),
    ]),
  // N7 Scale.
  Scenario(
    "n7.pop-to-root-from-10000-screens", rules: [.n7, .r13],
    setup: ContactsSetup(launchPath: (0..<10_000).map { $0 % 3 + 1 }, holdsCalls: true),
    steps: [
      .open(2), .send(.popToRoot), .expectView(view()), .open(1),
      .expectView(view(stack: [loading(10_002, ann)])),
    ]),
]
