import ArchitectureSpec
import Console
import Foundation
import Kernel
import LiveEnvironment
import Samples

/// `arch run APP --architecture X`: one app of one architecture, live, in the terminal.
struct RunCommand {
  enum WeatherSource: String {
    case live
    case fixtures
  }

  var app: String
  var architecture: Architecture
  var script: Script?
  var storage: URL?
  var todosFile: URL?
  var weather = WeatherSource.live
  var geocodingURL = OpenMeteoService.defaultGeocodingURL
  var forecastURL = OpenMeteoService.defaultForecastURL
  var timeout = Duration.seconds(10)

  init(_ arguments: inout Arguments) throws {
    let names = Catalog.architectures.map(\.name)
    // Options first, so that the one positional argument is found wherever it stands.
    let name = try arguments.option("--architecture", oneOf: names)
    let keys = try arguments.option("--keys", allowingDashes: true)
    let storage = try arguments.option("--storage")
    let file = try arguments.option("--file")
    let weather = try arguments.option("--weather", oneOf: ["live", "fixtures"])
    let geocoding = try arguments.option("--geocoding-url")
    let forecast = try arguments.option("--forecast-url")
    let timeout = try arguments.option("--timeout")
    app = try arguments.positional("APP")
    try arguments.finish()
    guard Catalog.appNames.contains(app) else {
      throw UsageError(
        "APP must be one of \(Catalog.appNames.joined(separator: ", ")); got '\(app)'")
    }
    guard let name else {
      throw UsageError("run needs --architecture (one of \(names.joined(separator: ", ")))")
    }
    architecture = Catalog.architecture(named: name) ?? Catalog.architectures[0]
    if let keys {
      do {
        script = try Script(keys)
      } catch {
        throw UsageError(error.description)
      }
    }

    let countsCounter = [CounterApp.name, ShellApp.name].contains(app)
    let searchesWeather = [WeatherApp.name, ShellApp.name].contains(app)
    if !countsCounter, storage != nil {
      throw UsageError("--storage is for the counter and the shell")
    }
    if app != TodosApp.name, file != nil {
      throw UsageError("--file is for todos")
    }
    if !searchesWeather, weather ?? geocoding ?? forecast ?? timeout != nil {
      throw UsageError(
        "--weather, --geocoding-url, --forecast-url and --timeout are for weather and the shell")
    }
    if let file {
      guard !file.isEmpty else { throw UsageError("--file needs a file path") }
      todosFile = URL(fileURLWithPath: file)
    } else if app == TodosApp.name {
      guard let url = DataDirectory.todosFile(environment: ProcessInfo.processInfo.environment)
      else {
        throw UsageError("neither XDG_DATA_HOME nor HOME is set; pass --file PATH")
      }
      todosFile = url
    }
    if let storage {
      guard !storage.isEmpty else { throw UsageError("--storage needs a file path") }
      self.storage = URL(fileURLWithPath: storage)
    } else if countsCounter {
      guard let file = DataDirectory.counterFile(environment: ProcessInfo.processInfo.environment)
      else {
        throw UsageError("neither XDG_DATA_HOME nor HOME is set; pass --storage PATH")
      }
      self.storage = file
    }
    if let weather { self.weather = WeatherSource(rawValue: weather) ?? .live }
    if let geocoding { geocodingURL = try Self.httpURL(geocoding, option: "--geocoding-url") }
    if let forecast { forecastURL = try Self.httpURL(forecast, option: "--forecast-url") }
    if let timeout {
      guard let seconds = Double(timeout), seconds > 0, seconds <= 600 else {
        throw UsageError("--timeout must be a number of seconds in (0, 600]; got '\(timeout)'")
      }
      self.timeout = .milliseconds(Int(seconds * 1000))
    }
  }

  private static func httpURL(_ text: String, option: String) throws -> URL {
    guard let url = URL(string: text), ["http", "https"].contains(url.scheme), url.host != nil
    else {
      throw UsageError("\(option) must be an http or https URL; got '\(text)'")
    }
    return url
  }

  func run() async throws -> Int32 {
    let notices = Notices()
    let saves = SaveOutcome()
    switch app {
    case CounterApp.name:
      let storage = try counterStorage(notices, saves)
      guard let lock = Self.lock(storage.url) else { return 1 }
      defer { withExtendedLifetime(lock) {} }
      let session = try ConsoleSession(
        implementation: implementation(of: CounterApp.self), notices: notices
      ) {
        CounterEnvironment(storage: storage, log: NoticeLog(notices), executor: $0)
      }
      return try await run(session, subtitle: "storage: \(storage.url.path)", saves: saves)
    case StopwatchApp.name:
      let session = try ConsoleSession(
        implementation: implementation(of: StopwatchApp.self), notices: notices
      ) {
        StopwatchEnvironment(clock: ContinuousClock(), executor: $0)
      }
      return try await run(session, subtitle: nil)
    case TodosApp.name:
      guard let url = todosFile else { throw UsageError("todos needs --file PATH") }
      guard let lock = Self.lock(url) else { return 1 }
      defer { withExtendedLifetime(lock) {} }
      let storage = FileTodoStorage(url: url) {
        notices.problem($0?.description, from: "storage")
        saves.record($0)
      }
      let session = try ConsoleSession(
        implementation: implementation(of: TodosApp.self), notices: notices
      ) {
        TodosEnvironment(storage: storage, log: NoticeLog(notices), executor: $0)
      }
      return try await run(session, subtitle: "file: \(url.path)", saves: saves)
    case ContactsApp.name:
      let service = SampleContactsService()
      let session = try ConsoleSession(
        implementation: implementation(of: ContactsApp.self), notices: notices
      ) {
        ContactsEnvironment(
          service: service, contacts: SampleContactsService.contacts, executor: $0)
      }
      return try await run(session, subtitle: "sample data, 300 ms per answer")
    case ShellApp.name:
      let storage = try counterStorage(notices, saves)
      guard let lock = Self.lock(storage.url) else { return 1 }
      defer { withExtendedLifetime(lock) {} }
      let service = weatherService(notices)
      let session = try ConsoleSession(
        implementation: implementation(of: ShellApp.self), notices: notices
      ) {
        ShellEnvironment(
          storage: storage, log: NoticeLog(notices), service: service, clock: ContinuousClock(),
          executor: $0)
      }
      return try await run(session, subtitle: "storage: \(storage.url.path)", saves: saves)
    default:
      let service = weatherService(notices)
      let session = try ConsoleSession(
        implementation: implementation(of: WeatherApp.self), notices: notices
      ) {
        WeatherEnvironment(service: service, clock: ContinuousClock(), executor: $0)
      }
      return try await run(
        session, subtitle: weather == .fixtures ? "recorded Open-Meteo responses" : nil)
    }
  }

  /// The run's lock on its data file (SPEC L5); `nil` after saying on standard error that
  /// another process holds it: the run then changes nothing and exits with status 1. Where no
  /// lock file can be made, nothing can be saved either: the run goes on without a lock and
  /// every save says why it failed.
  private static func lock(_ url: URL) -> StorageLock?? {
    do {
      return try StorageLock(for: url)
    } catch .inUse(let path) {
      FileHandle.standardError.write(Data("\(FileStorageError.inUse(path: path))\n".utf8))
      return nil
    } catch {
      return .some(nil)
    }
  }

  private func implementation<App: SpecApp>(of app: App.Type) throws -> Implementation<App> {
    guard let implementation = architecture.implementation(of: app) else {
      throw UsageError(
        "\(architecture.name) does not implement \(App.name) yet; try --architecture baseline")
    }
    return implementation
  }

  private func counterStorage(_ notices: Notices, _ saves: SaveOutcome) throws
    -> FileCounterStorage
  {
    // `init` always resolves the counter's file (the option or the user's data directory).
    guard let url = storage else { throw UsageError("the counter needs --storage PATH") }
    return FileCounterStorage(url: url) {
      notices.problem($0?.description, from: "storage")
      saves.record($0)
    }
  }

  private func weatherService(_ notices: Notices) -> OpenMeteoService {
    let source = weather
    return OpenMeteoService(
      geocodingURL: geocodingURL, forecastURL: forecastURL,
      transport: source == .fixtures
        ? RecordedOpenMeteo() : URLSessionTransport(timeout: timeout)
    ) { error in
      notices.problem(
        error.map {
          $0.isConnectivityProblem && source == .live
            ? "No network? Run offline with --weather fixtures.\n\($0)" : $0.description
        }, from: "weather")
    }
  }

  /// Runs `session` with the script, or in the terminal; the exit status is 1 when the last save
  /// failed (SPEC L5), after saying why on standard error.
  private func run<App>(
    _ session: ConsoleSession<App>, subtitle: String?, saves: SaveOutcome? = nil
  ) async throws -> Int32 {
    if let script {
      print(ConsoleSession<App>.format(await session.run(script)), terminator: "")
    } else {
      let title = ["\(app) · \(architecture.name)", subtitle].compactMap(\.self)
      try await session.runInteractive(title: title.joined(separator: " · "))
    }
    guard let failure = saves?.lastFailure else { return 0 }
    FileHandle.standardError.write(Data("\(failure)\n".utf8))
    return 1
  }
}

/// Whether the last save of a run failed, from what its storage reported.
final class SaveOutcome: Sendable {
  private let failure = Lock<FileStorageError?>(nil)

  /// Notes a storage's report: errors only a save gives set the failure; a report without an
  /// error after a save (the next save worked) clears it.
  func record(_ report: FileStorageError?) {
    failure.withLock { failure in
      switch report {
      case .unwritable?, .keepsUnreadable?: failure = report
      case nil: failure = nil
      default: break
      }
    }
  }

  /// The last save's error, if it failed.
  var lastFailure: FileStorageError? { failure.withLock { $0 } }
}
