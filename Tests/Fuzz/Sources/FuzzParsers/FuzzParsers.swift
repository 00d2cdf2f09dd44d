import ArchitectureApps
import Console
import Foundation

@testable import LiveEnvironment

/// The parsers fuzzed, by the name `FUZZ_TARGET` gives. Each checks a property of its result,
/// not only that nothing crashed: a failed check traps, and libFuzzer keeps the input.
enum Target: String, CaseIterable {
  /// The count file (SPEC L4): a count the SPEC's grammar allows, or `corrupt`.
  case countFile = "count-file"
  /// The todos file (T1, L4): a valid list that saves and loads back the same, or `notTodos`.
  case todosFile = "todos-file"
  /// Open-Meteo's search body (W11, L6): places within range, or a clear error.
  case search
  /// Open-Meteo's forecast body (W11, L6): values within range, or a clear error.
  case forecast
  /// The JSON scan that tells a number out of range from text that is not JSON (L6).
  case jsonScan = "json-scan"
  /// The terminal's key decoder: the same keys however the bytes are split into reads.
  case keys
  /// The `--keys` script parser: steps that print back to the same steps, or an error at a
  /// real position.
  case script
  /// The screen's sanitizer (L1): no C0, C1 or bidirectional control comes out.
  case screenText = "screen-text"
}

/// The target this process fuzzes.
let target: Target = {
  let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
  guard let target = Target(rawValue: name) else {
    let names = Target.allCases.map(\.rawValue).joined(separator: ", ")
    fatalError("FUZZ_TARGET must be one of: \(names) (it is '\(name)')")
  }
  return target
}()

/// A property that must hold: traps with `message` when it does not.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("property failed: \(message())") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
  switch target {
  case .countFile: countFile(bytes)
  case .todosFile: todosFile(bytes)
  case .search: search(bytes)
  case .forecast: forecast(bytes)
  case .jsonScan: jsonScan(bytes)
  case .keys: keys(bytes)
  case .script: script(bytes)
  case .screenText: screenText(bytes)
  }
  return 0
}

// MARK: Files

/// The count the SPEC's grammar gives `bytes` (L4): `nil` for nothing stored, `.some(nil)` for
/// text that is not a count. Written apart from the storage's parser, as the SPEC words it.
func specCount(_ bytes: [UInt8]) -> Int?? {
  let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D]
  guard let first = bytes.firstIndex(where: { !space.contains($0) }),
    let last = bytes.lastIndex(where: { !space.contains($0) })
  else { return nil }
  var text = bytes[first...last]
  if text.first == UInt8(ascii: "+") { text = text.dropFirst() }
  guard !text.isEmpty, text.allSatisfy({ (0x30...0x39).contains($0) }) else { return .some(nil) }
  let digits = text.drop(while: { $0 == 0x30 })
  guard digits.count <= 10 else { return .some(nil) }
  let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  return value <= 1_000_000_000 ? .some(value) : .some(nil)
}

func countFile(_ bytes: [UInt8]) {
  let expected = specCount(bytes)
  do {
    let count = try FileCounterStorage.count(in: bytes, path: "count.txt")
    switch expected {
    case .none: check(count == nil, "nothing stored, read as \(String(describing: count))")
    case .some(let value):
      check(
        value != nil && count == value,
        "\(String(describing: value)) read as \(String(describing: count))")
    }
  } catch {
    guard case .corrupt(let path, let reason) = error else {
      return check(false, "unexpected error \(error)")
    }
    check(path == "count.txt" && !reason.isEmpty, "an error without a reason")
    check(expected == .some(nil), "a count refused: \(reason)")
  }
}

func todosFile(_ bytes: [UInt8]) {
  do {
    guard let list = try FileTodoStorage.list(in: bytes, path: "todos.json") else {
      let blank = bytes.allSatisfy { [0x20, 0x0A, 0x0D, 0x09].contains($0) }
      return check(blank, "nothing stored in a file that is not blank")
    }
    check(TodosApp.isValid(list), "an invalid list loaded: \(list)")
    // Saved, then loaded: the same list.
    let saved = FileTodoStorage.bytes(of: list)
    let loaded = try FileTodoStorage.list(in: saved, path: "todos.json")
    check(loaded == list, "\(list) saved and loaded as \(String(describing: loaded))")
  } catch {
    guard case .notTodos(_, let reason) = error else {
      return check(false, "unexpected error \(error)")
    }
    check(!reason.isEmpty, "an error without a reason")
  }
}

// MARK: Open-Meteo

/// A response with `bytes` as its body; the first byte picks the status: a 500 now and then,
/// so the error-body path is fuzzed too.
func response(_ bytes: [UInt8]) -> HTTPResponse {
  let status = bytes.first.map { $0 % 16 == 0 ? 500 : 200 } ?? 200
  return HTTPResponse(status: status, body: Data(bytes.dropFirst()))
}

/// What `bytes` decode to as a `Body`, or `nil` after an error that says what happened (SPEC
/// W11, L6): it names the host, and it says "number out of range" only of valid JSON holding
/// one.
func decoded<Body: Decodable>(_ bytes: [UInt8], as: Body.Type) -> Body? {
  let response = response(bytes)
  do {
    let body: Body = try OpenMeteoService.decode(response, host: "example.org", limit: 1 << 20)
    check(response.status == 200, "a body decoded from status \(response.status)")
    return body
  } catch {
    let text = error.description
    check(text.contains("example.org"), "an error that does not name the host: \(text)")
    if case .malformed(_, let reason) = error, reason.hasPrefix("number out of range") {
      let scan = JSONScan(response.body)
      check(scan?.isValid == true, "out of range said of text that is not JSON: \(reason)")
      let number = scan?.outOfRange ?? scan?.beyondWholeNumbers
      check(number != nil, "out of range said of JSON with no such number: \(reason)")
    }
    return nil
  }
}

func search(_ bytes: [UInt8]) {
  guard let body = decoded(bytes, as: SearchResponse.self) else { return }
  for place in body.results ?? [] {
    check((-90...90).contains(place.latitude), "latitude \(place.latitude) accepted")
    check((-180...180).contains(place.longitude), "longitude \(place.longitude) accepted")
  }
}

func forecast(_ bytes: [UInt8]) {
  guard let current = decoded(bytes, as: ForecastResponse.self)?.current else { return }
  check((-100...100).contains(current.temperature), "temperature \(current.temperature) accepted")
  check(current.windSpeed >= 0, "wind \(current.windSpeed) accepted")
}

/// Where Foundation's parser refuses a text the scan calls valid JSON, the scan has found the
/// number Foundation cannot hold: the app then says which (SPEC L6), and never blames a number
/// for anything else.
func jsonScan(_ bytes: [UInt8]) {
  let data = Data(bytes)
  guard let scan = JSONScan(data) else {
    return check(String(validating: bytes, as: UTF8.self) == nil, "UTF-8 refused")
  }
  // Foundation traps on some texts nested 512 deep (see jsonNestsTooDeep): not asked then.
  guard !jsonNestsTooDeep(bytes) else { return }
  // Foundation is more lenient (`[1,]` passes): only its refusals are the scan's business.
  let parsed = (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
  if !parsed, scan.isValid {
    check(scan.outOfRange != nil, "JSON Foundation refuses, with no number out of range")
  }
}

// MARK: The terminal

/// The keys of `bytes` read in one piece equal those read in two, split where the first byte
/// says (an escape sequence, a character or a paste split across reads).
func keys(_ bytes: [UInt8]) {
  guard let first = bytes.first else { return }
  let rest = Array(bytes.dropFirst())
  let split = Int(first) % (rest.count + 1)
  var whole = KeyDecoder()
  let once = whole.keys(from: rest) + whole.flush()
  var parts = KeyDecoder()
  let twice = parts.keys(from: rest[..<split]) + parts.keys(from: rest[split...]) + parts.flush()
  check(once == twice, "split at \(split): \(once) against \(twice)")
  for key in once {
    if case .character(let character) = key {
      let controls = character.unicodeScalars.filter { $0.value < 0x20 || $0.value == 0x7F }
      check(controls.isEmpty, "a control byte typed as a character: \(key)")
    }
  }
}

/// How a step is written in a script, so that it parses back to itself.
func written(_ step: Script.Step) -> String {
  switch step {
  case .wait(let duration): return "{\(format(duration))}"
  case .key(.character("<")): return "<lt>"
  case .key(.character("{")): return "<lbrace>"
  case .key(.character(let character)): return String(character)
  case .key(.enter): return "\n"
  case .key(.tab): return "\t"
  case .key(let key): return key.description
  }
}

func format(_ duration: Duration) -> String {
  let milliseconds =
    duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
  return "\(milliseconds)ms"
}

func script(_ bytes: [UInt8]) {
  let text = String(decoding: bytes, as: UTF8.self)
  do {
    let script = try Script(text)
    // Printed back and parsed again: the same steps, unless printing merged two characters
    // into one (a combining mark after `>`), which no script can express.
    let pieces = script.steps.map(written)
    let printed = pieces.joined()
    guard printed.count == pieces.reduce(0, { $0 + $1.count }) else { return }
    let again = try? Script(printed)
    check(
      again == script,
      "\(script.steps) printed as \(printed) parses as \(String(describing: again?.steps))")
  } catch {
    check((0..<text.count).contains(error.offset), "error at \(error.offset) of \(text.count)")
    check(!error.message.isEmpty, "an error without a message")
  }
}

/// No control the SPEC names comes out; one scalar out for each in; a notice is at most 200
/// characters, cut with `…` only when the safe text is longer.
func screenText(_ bytes: [UInt8]) {
  let text = String(decoding: bytes, as: UTF8.self)
  let safe = ScreenText.safe(text)
  check(safe.unicodeScalars.count == text.unicodeScalars.count, "scalars added or removed")
  for scalar in safe.unicodeScalars {
    let value = scalar.value
    let forbidden =
      value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value)
      || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
      || value == 0x2028 || value == 0x2029
    check(!forbidden, "U+\(String(value, radix: 16)) reaches the screen")
  }
  let notice = ScreenText.notice(text)
  if safe.count <= ScreenText.noticeLimit {
    check(notice == safe, "a short notice changed")
  } else {
    check(
      notice.count == ScreenText.noticeLimit && notice.hasSuffix("…"), "a notice of \(notice.count)"
    )
  }
}
