import ArchitectureSpec
import Console
import Foundation
import LiveEnvironment
import Samples
import Testing

/// `arch run` scripts against every architecture, with the live storage and service.
@Suite struct ConsoleSessionTests {
  static let architectures = Catalog.architectures.map(\.name)

  /// Made by the tests that need it first; removed after each test.
  let temporary = TemporaryDirectory(notMade: "ConsoleSessionTests")
  var directory: URL { temporary.url }

  func counterScreens(
    _ keys: String, architecture name: String, storage url: URL
  ) async throws -> [ConsoleSession<CounterApp>.Screen] {
    let architecture = try #require(Catalog.architecture(named: name))
    let notices = Notices()
    let storage = FileCounterStorage(url: url) { notices.problem($0?.description) }
    let session = ConsoleSession(implementation: architecture.counter, notices: notices) {
      CounterEnvironment(storage: storage, log: NoticeLog(notices), executor: $0)
    }
    return await session.run(try Script(keys))
  }

  @Test(arguments: architectures)
  func theCounterEndsAtOneAndTheNextRunStartsThere(architecture: String) async throws {
    let url = directory.appending(path: "\(architecture).txt")
    let first = try await counterScreens("++-", architecture: architecture, storage: url)
    #expect(first.map(\.label) == ["start", "+", "+", "-"])
    #expect(
      first.last?.lines == [
        "Count: 1", "keys: + increment   - decrement   r reset   q quit", "log: count: 1",
      ])
    let second = try await counterScreens("", architecture: architecture, storage: url)
    #expect(second.map(\.lines.first) == ["Count: 1"])
  }

  @Test(arguments: architectures)
  func aCorruptFileStartsAtZeroAndSaysSo(architecture: String) async throws {
    let url = directory.appending(path: "\(architecture).txt")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data("forty-two".utf8).write(to: url)
    let screens = try await counterScreens("+", architecture: architecture, storage: url)
    #expect(
      screens.first?.lines == [
        "Count: 0", "keys: + increment   q quit", "log: \(CounterApp.unreadableCountMessage)",
        "! storage: \(url.path) is not a count: 'forty-two' is not a whole number",
      ])
    // What the app could not read is kept: the save fails and says why (SPEC L4).
    #expect(screens.last?.lines.first == "Count: 1")
    #expect(
      screens.last?.lines.last
        == "! storage: not saving: \(url.path) holds data this app could not read; it is left as it is"
    )
    #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self) == "forty-two")
  }

  @Test(arguments: ["-5", "1000000001"])
  func anOutOfRangeCountStartsAtZero(text: String) async throws {
    let url = directory.appending(path: "range.txt")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    let screens = try await counterScreens("", architecture: "elm-store", storage: url)
    #expect(
      screens.first?.lines == [
        "Count: 0", "keys: + increment   q quit", "log: \(CounterApp.unreadableCountMessage)",
        "! storage: \(url.path) is not a count: '\(text)' is \(text.hasPrefix("-") ? "not a whole number" : "larger than 1000000000")",
      ])
  }

  @Test(arguments: architectures)
  func aFailedSaveKeepsTheCountAndSaysWhy(architecture: String) async throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let blocker = directory.appending(path: "blocker")
    try Data("x".utf8).write(to: blocker)
    let url = blocker.appending(path: "counter.txt")
    let screens = try await counterScreens("++", architecture: architecture, storage: url)
    #expect(screens.last?.lines.first == "Count: 2")
    #expect(screens.last?.lines.dropFirst(2).first == "log: \(CounterApp.saveFailedMessage)")
    #expect(
      screens.last?.lines.last?.hasPrefix("! storage: cannot write \(url.path): cannot create")
        == true)
  }

  /// The stopwatch in virtual time: the same waits and keys as in `.ci/run`, deterministic.
  @Test func theStopwatchShowsTheSameScreensInEveryArchitecture() async throws {
    let script = try Script("s{1s}l{500ms}s<space>{300ms}r")
    var outputs: [String: String] = [:]
    for architecture in Catalog.architectures {
      let clock = VirtualClock()
      let session = ConsoleSession(
        implementation: architecture.stopwatch, wait: ConsoleSession<StopwatchApp>.advancing(clock)
      ) { StopwatchEnvironment(clock: clock, executor: $0) }
      outputs[architecture.name] = ConsoleSession<StopwatchApp>.format(await session.run(script))
    }
    let reference = try #require(outputs["baseline"])
    #expect(reference.contains("== l ==\n0:01.0  running\nLap 1  0:01.0\n"))
    #expect(reference.contains("== {500ms} ==\n0:01.5  running\nLap 1  0:01.0\n"))
    #expect(reference.contains("== s ==\n0:01.5  stopped\n"))
    #expect(reference.contains("== {300ms} ==\n0:01.8  running\n"))
    for (name, output) in outputs { #expect(output == reference, "\(name)") }
  }

  /// Weather on recorded responses, with the debounce in virtual time.
  @Test func weatherOnRecordedResponsesShowsTheSameScreensInEveryArchitecture() async throws {
    let script = try Script(
      "Berlin{300ms}<down><enter><tab><bs><bs>{300ms}<bs><bs><bs><bs>error{300ms}")
    var outputs: [String: String] = [:]
    for architecture in Catalog.architectures {
      let clock = VirtualClock()
      let service = OpenMeteoService(transport: RecordedOpenMeteo())
      let session = ConsoleSession(
        implementation: architecture.weather, wait: ConsoleSession<WeatherApp>.advancing(clock)
      ) { WeatherEnvironment(service: service, clock: clock, executor: $0) }
      outputs[architecture.name] = ConsoleSession<WeatherApp>.format(await session.run(script))
    }
    let reference = try #require(outputs["baseline"])
    #expect(
      reference.contains(
        """
        == <tab> ==
        Search: Berlin
          Berlin, Germany
        > Berlin, United States  (selected)
        Berlin: 25.9°F, Snow, wind 6.1 km/h
        """))
    #expect(reference.contains("== {300ms} ==\nSearch: error\nSearch failed\n"))
    #expect(reference.contains("== {300ms} ==\nSearch: Berl\nNo matching places\n"))
    for (name, output) in outputs { #expect(output == reference, "\(name)") }
  }

  /// Weather against a real server on 127.0.0.1 whose forecasts are malformed and whose
  /// searches other than Berlin fail. Each wait advances virtual time and then waits for the
  /// service's next report (the real request's outcome) before the screen is taken.
  @Test(arguments: architectures)
  func aFailingServerShowsTheFailureAndWhy(architecture name: String) async throws {
    let server = try LocalHTTPServer { target in
      if target.hasPrefix("/v1/search?name=Berlin&") { return .json(OpenMeteoServiceTests.berlin) }
      if target.hasPrefix("/v1/search") {
        return .json(#"{"error":true,"reason":"down"}"#, status: 500)
      }
      return .json(#"{"current":{"temperature_2m":1}}"#)
    }
    defer { server.stop() }
    let clock = VirtualClock()
    let notices = Notices()
    let (reports, reported) = AsyncStream.makeStream(of: Void.self)
    let service = OpenMeteoService(geocodingURL: server.url, forecastURL: server.url) {
      notices.problem($0?.description)
      reported.yield()
    }
    let architecture = try #require(Catalog.architecture(named: name))
    let wait: ConsoleSession<WeatherApp>.Wait = { duration, settle in
      await ConsoleSession<WeatherApp>.advancing(clock)(duration, settle)
      var iterator = reports.makeAsyncIterator()
      _ = await iterator.next()
      await settle()
    }
    let session = ConsoleSession(
      implementation: architecture.weather, notices: notices, wait: wait
    ) { WeatherEnvironment(service: service, clock: clock, executor: $0) }
    let screens = await session.run(try Script("Berlin{300ms}<enter>{0ms}x{300ms}"))
    let keys = "keys: type to search   up/down choose   enter select   tab °F"
    let rows = ["> Berlin, Germany  (selected)", "  Berlin, United States"]
    let forecastFailure = [
      "Could not load weather for Berlin", keys + "   ctrl-r retry   esc quit",
      "! 127.0.0.1 sent unexpected JSON: missing field 'current.weather_code'",
    ]
    // The forecast's answer may arrive before or after the screen for <enter> is taken.
    let failed = screens.first { $0.lines.contains("Could not load weather for Berlin") }
    #expect(failed?.lines == ["Search: Berlin"] + rows + forecastFailure)
    #expect(screens.last?.label == "{300ms}")
    let searchFailure: [String] = [
      "Search: Berlinx", "Search failed", "Could not load weather for Berlin",
      "keys: type to search   tab °F   ctrl-r retry   esc quit",
      "! 127.0.0.1 answered HTTP 500: down",
    ]
    #expect(screens.last?.lines == searchFailure)
  }

  /// A server whose place names hold escape sequences and whose error reason is long and
  /// holds line breaks: the screen shows them, never acts on them, and cuts the notice
  /// (SPEC L1).
  @Test func hostileServerTextIsShownSafely() async throws {
    let hostileName = #"Ber\u001b]0;pwned\u0007\u001b[2Jlin\r\nX\u202e"#
    let reason = "down\n\u{1B}[2J" + String(repeating: "r", count: 5_000)
    let escapedReason = reason.replacingOccurrences(of: "\n", with: "\\n")
      .replacingOccurrences(of: "\u{1B}", with: "\\u001b")
    let server = try LocalHTTPServer { target in
      if target.hasPrefix("/v1/search?name=Berlin&") {
        return .json(
          #"{"results":[{"id":1,"name":""# + hostileName
            + #"","latitude":1.5,"longitude":2.5,"country":"Germany"}]}"#)
      }
      return .json(#"{"error":true,"reason":""# + escapedReason + #""}"#, status: 500)
    }
    defer { server.stop() }
    let clock = VirtualClock()
    let notices = Notices()
    let (reports, reported) = AsyncStream.makeStream(of: Void.self)
    let service = OpenMeteoService(geocodingURL: server.url, forecastURL: server.url) {
      notices.problem($0?.description)
      reported.yield()
    }
    let architecture = try #require(Catalog.architecture(named: "baseline"))
    let wait: ConsoleSession<WeatherApp>.Wait = { duration, settle in
      await ConsoleSession<WeatherApp>.advancing(clock)(duration, settle)
      var iterator = reports.makeAsyncIterator()
      _ = await iterator.next()
      await settle()
    }
    let session = ConsoleSession(
      implementation: architecture.weather, notices: notices, wait: wait
    ) { WeatherEnvironment(service: service, clock: clock, executor: $0) }
    let screens = await session.run(try Script("Berlin{300ms}x{300ms}"))
    let lines = screens.flatMap(\.lines)
    #expect(lines.contains { $0.contains("Ber␛]0;pwned␇␛[2Jlin␍␊X\u{FFFD}") })
    for line in lines {
      #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
      #expect(line.count <= 2 + ScreenText.noticeLimit, "\(line.prefix(80))")
    }
    let notice = try #require(lines.first { $0.hasPrefix("! 127.0.0.1 answered HTTP 500") })
    #expect(notice.hasPrefix("! 127.0.0.1 answered HTTP 500: down␊␛[2Jrrr"))
    #expect(notice.hasSuffix("…"))
  }
}
