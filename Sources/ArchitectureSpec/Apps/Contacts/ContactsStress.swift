/// The contacts app under `arch stress` and the race probe: a service that answers at once,
/// recording every call in the probe.
struct StressContactsService: ContactsService {
  let probe: StressProbe

  func create(name: String) async throws -> Int {
    probe.environment("create")
    try Task.checkCancellation()
    return 10 + name.count
  }

  func details(id: Int) async throws -> String {
    probe.environment("details")
    try Task.checkCancellation()
    return "details of \(id)"
  }
}

extension ContactsApp: StressApp {
  public static func stressEnvironment(_ probe: StressProbe) -> ContactsEnvironment {
    ContactsEnvironment(
      service: StressContactsService(probe: probe), contacts: ContactsSetup.sample,
      launchPath: [1, 2])
  }

  public static var stressIntents: [ContactsIntent] {
    [
      .open(contactID: 1), .open(contactID: 2), .open(contactID: 3), .back, .popToRoot,
      .addTapped, .form(.nameChanged("Dee")), .form(.save), .form(.cancel),
      .deleteTapped(contactID: 3), .alert(.cancel), .alert(.confirm), .screen(id: 2, .close),
      .screen(id: 1, .open(contactID: 2)), .screen(id: 3, .retry),
    ]
  }

  public static var stressChildren: [ContactsChild] { [.screen(1), .screen(2), .screen(3)] }
}
