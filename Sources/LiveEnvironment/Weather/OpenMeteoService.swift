import ArchitectureApps
import Foundation

/// The weather app's live service: the Open-Meteo geocoding and forecast APIs (W11).
///
/// ```swift
/// let service = OpenMeteoService()                      // the real API, 10 s per request
/// let places = try await service.search("Zürich")      // GET …/v1/search?name=Z%C3%BCrich&…
/// let now = try await service.forecast(for: places[0])  // GET …/v1/forecast?latitude=…
/// ```
///
/// Requests go through an ``HTTPTransport``: ``URLSessionTransport`` by default, or
/// ``RecordedOpenMeteo`` to run offline on recorded responses through the same decoding. A
/// non-2xx status, a body that is not UTF-8, malformed or truncated JSON, a missing field, a body
/// over ``maximumBodySize`` or no answer within the transport's time limit throws an
/// ``OpenMeteoError``; nothing here traps.
public struct OpenMeteoService: WeatherService {
  /// Open-Meteo's geocoding server.
  public static let defaultGeocodingURL = fixedURL("https://geocoding-api.open-meteo.com")
  /// Open-Meteo's forecast server.
  public static let defaultForecastURL = fixedURL("https://api.open-meteo.com")

  /// The geocoding server; requests go to `<geocodingURL>/v1/search`.
  public var geocodingURL: URL
  /// The forecast server; requests go to `<forecastURL>/v1/forecast`.
  public var forecastURL: URL
  /// Bodies larger than this many bytes are a failure.
  public var maximumBodySize = 1 << 20
  /// What sends the requests.
  public var transport: any HTTPTransport
  /// Called after every request that was not cancelled, with its error or `nil`, so a user
  /// interface can say why a search failed.
  public var report: (@Sendable (OpenMeteoError?) -> Void)?

  /// Creates a service.
  ///
  /// - Parameters:
  ///   - geocodingURL: The geocoding server (default: Open-Meteo's).
  ///   - forecastURL: The forecast server (default: Open-Meteo's).
  ///   - transport: What sends the requests (default: `URLSession`, 10 s per request).
  ///   - report: Called after every request that was not cancelled, with its error or `nil`.
  public init(
    geocodingURL: URL = defaultGeocodingURL, forecastURL: URL = defaultForecastURL,
    transport: any HTTPTransport = URLSessionTransport(),
    report: (@Sendable (OpenMeteoError?) -> Void)? = nil
  ) {
    self.geocodingURL = geocodingURL
    self.forecastURL = forecastURL
    self.transport = transport
    self.report = report
  }

  public func search(_ term: String) async throws -> [Place] {
    let url = Self.url(
      geocodingURL, path: "v1/search",
      query: [("name", term), ("count", "10"), ("language", "en"), ("format", "json")])
    let response: SearchResponse = try await fetch(url)
    return (response.results ?? []).map {
      Place(
        id: $0.id, name: $0.name, country: $0.country ?? "", latitude: $0.latitude,
        longitude: $0.longitude)
    }
  }

  public func forecast(for place: Place) async throws -> Forecast {
    let url = Self.url(
      forecastURL, path: "v1/forecast",
      query: [
        ("latitude", Self.coordinate(place.latitude)),
        ("longitude", Self.coordinate(place.longitude)),
        ("current", "temperature_2m,weather_code,wind_speed_10m"),
      ])
    let response: ForecastResponse = try await fetch(url)
    return Forecast(
      temperature: response.current.temperature, weatherCode: response.current.weatherCode,
      windSpeed: response.current.windSpeed)
  }

  /// Fetches and decodes one response, reporting the outcome.
  private func fetch<Body: Decodable>(_ url: URL) async throws -> Body {
    do {
      let body: Body = try await Self.decode(
        transport.get(url, limit: maximumBodySize), host: url.host ?? url.absoluteString,
        limit: maximumBodySize)
      report?(nil)
      return body
    } catch let error as OpenMeteoError {
      if Task.isCancelled { throw CancellationError() }
      report?(error)
      throw error
    }
  }

  /// The body of `response` from `host`, checked as received (SPEC W11, L6); one larger than
  /// `limit` bytes is refused.
  static func decode<Body: Decodable>(_ response: HTTPResponse, host: String, limit: Int)
    throws(OpenMeteoError) -> Body
  {
    guard response.body.count <= limit else {
      throw .tooLarge(host: host, announced: nil, limit: limit)
    }
    guard (200..<300).contains(response.status) else {
      let reason =
        jsonNestsTooDeep(response.body)
        ? nil : try? JSONDecoder().decode(ErrorResponse.self, from: response.body).reason
      throw .status(host: host, code: response.status, reason: reason)
    }
    guard String(validating: response.body, as: UTF8.self) != nil else {
      throw .notUTF8(host: host)
    }
    guard !jsonNestsTooDeep(response.body) else {
      throw .malformed(host: host, reason: "not JSON the app reads (nested 512 deep or more)")
    }
    return try decodeJSON(response.body, host: host, rewritten: false)
  }

  /// `json` decoded and checked; `rewritten` once it is JSONSerialization's copy of the body.
  private static func decodeJSON<Body: Decodable>(_ json: Data, host: String, rewritten: Bool)
    throws(OpenMeteoError) -> Body
  {
    do {
      let body = try JSONDecoder().decode(Body.self, from: json)
      // Values are checked as received, before anything rounds them (SPEC L6).
      if let problem = (body as? any CheckedResponse)?.problem {
        throw OpenMeteoError.malformed(host: host, reason: problem)
      }
      return body
    } catch let error as OpenMeteoError {
      throw error
    } catch let error as FieldProblem {
      throw .malformed(host: host, reason: "\(path(error.path)): \(error.reason)")
    } catch let error as DecodingError {
      // Foundation reports a number it cannot represent (1e400, a 30-digit id) as invalid
      // JSON; valid JSON holding one is said to be what it is (SPEC L6).
      if !rewritten, case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
        let scan = JSONScan(json), scan.isValid
      {
        if scan.hasNumberProblem { throw .malformed(host: host, reason: scan.numberProblem) }
        // Foundation's decoder also refuses numbers it can hold (`0e5`, `0.00e3`: Swift 6.3 on
        // Linux; found by the fuzzer). Its JSONSerialization reads them: the same JSON as it
        // writes it back is decoded once more.
        if let object = try? JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed),
          let again = try? JSONSerialization.data(
            withJSONObject: object, options: .fragmentsAllowed)
        {
          return try decodeJSON(again, host: host, rewritten: true)
        }
      }
      throw .malformed(host: host, reason: Self.describe(error))
    } catch {
      throw .malformed(host: host, reason: "\(error)")
    }
  }

  /// `<base>/<path>?<query>`, every query value percent-encoded except RFC 3986's unreserved
  /// characters and the comma, which Open-Meteo's lists use and a query may hold as it is (so
  /// `São Paulo` is `S%C3%A3o%20Paulo`).
  static func url(_ base: URL, path: String, query: [(String, String)]) -> URL {
    var text = base.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    text += "/" + path + "?"
    text += query.map { "\($0)=\(percentEncoded($1))" }.joined(separator: "&")
    return fixedURL(text)
  }

  static func percentEncoded(_ value: String) -> String {
    var result = ""
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ","):
        result.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        result.unicodeScalars.append("%")
        result.unicodeScalars.append(hexDigit(byte >> 4))
        result.unicodeScalars.append(hexDigit(byte & 0x0F))
      }
    }
    return result
  }

  /// `0`–`9`, `A`–`F` for 0–15.
  private static func hexDigit(_ value: UInt8) -> Unicode.Scalar {
    Unicode.Scalar(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10)
  }

  /// A coordinate with five decimals and never in exponent notation (`1e-05` is not a
  /// latitude Open-Meteo accepts).
  static func coordinate(_ value: Double) -> String {
    let scaled = (value * 100_000).rounded(.toNearestOrAwayFromZero)
    guard scaled.isFinite, abs(scaled) < 1e15 else { return "0" }
    let whole = Int(scaled)
    let digits = String(abs(whole) % 100_000)
    let fraction = String(repeating: "0", count: 5 - digits.count) + digits
    return "\(whole < 0 ? "-" : "")\(abs(whole) / 100_000).\(fraction)"
  }

  private static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, let context):
      "missing field '\(path(context.codingPath + [key]))'"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      "wrong type at '\(path(context.codingPath))'"
    case .dataCorrupted(let context):
      context.codingPath.isEmpty
        ? "not JSON (malformed or truncated)" : "bad value at '\(path(context.codingPath))'"
    @unknown default: "\(error)"
    }
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
  }
}

/// A URL written in this file; invalid only through a programming mistake here.
func fixedURL(_ text: String) -> URL {
  guard let url = URL(string: text) else {
    preconditionFailure("'\(text)' is not a URL; percent-encode what OpenMeteoService puts in it")
  }
  return url
}

/// `GET /v1/search`'s body; `results` is absent when nothing matched.
struct SearchResponse: Decodable {
  struct Result: Decodable {
    var id: Int
    var name: String
    var country: String?
    var latitude: Double
    var longitude: Double

    enum CodingKeys: CodingKey {
      case id, name, country, latitude, longitude
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.wholeNumber(forKey: .id)
      name = try container.decode(String.self, forKey: .name)
      country = try container.decodeIfPresent(String.self, forKey: .country)
      latitude = try container.decode(Double.self, forKey: .latitude)
      longitude = try container.decode(Double.self, forKey: .longitude)
    }
  }
  var results: [Result]?
}

/// `GET /v1/forecast`'s body, the part the app reads.
struct ForecastResponse: Decodable {
  struct Current: Decodable {
    var temperature: Double
    var weatherCode: Int
    var windSpeed: Double

    enum CodingKeys: String, CodingKey {
      case temperature = "temperature_2m"
      case weatherCode = "weather_code"
      case windSpeed = "wind_speed_10m"
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      temperature = try container.decode(Double.self, forKey: .temperature)
      weatherCode = try container.wholeNumber(forKey: .weatherCode)
      windSpeed = try container.decode(Double.self, forKey: .windSpeed)
    }
  }
  var current: Current
}

/// A field whose value is not what the app reads, with where it is: said as
/// `current.weather_code: 1.5 is not a whole number` (SPEC W10, L6).
struct FieldProblem: Error {
  var path: [any CodingKey]
  var reason: String
}

extension KeyedDecodingContainer {
  /// The whole number in `key` (SPEC W10: a weather code, an id). Foundation refuses a number
  /// with a fraction for an `Int` as "not valid JSON", naming no field: a fraction is said to be
  /// one, at its field. A number beyond an `Int`'s range goes on as Foundation's error, and the
  /// JSON scan says where it is ("number out of range").
  func wholeNumber(forKey key: Key) throws -> Int {
    do {
      return try decode(Int.self, forKey: key)
    } catch {
      // Foundation's error here is its own (a number "not representable"), made "not valid
      // JSON" on the way out: the field is only known now.
      // Within an `Int`'s range, a number Foundation would not make an `Int` has a fraction,
      // though a `Double` may have rounded it away (123456784567012345.789).
      guard let value = try? decode(Double.self, forKey: key), value.magnitude < 0x1p63 else {
        throw error
      }
      throw FieldProblem(path: codingPath + [key], reason: "\(value) is not a whole number")
    }
  }
}

/// A response whose values are checked against what is physically possible (SPEC L6).
protocol CheckedResponse {
  /// What is impossible in it, naming the field as the API spells it; `nil` when all is well.
  var problem: String? { get }
}

extension SearchResponse: CheckedResponse {
  var problem: String? {
    for (index, place) in (results ?? []).enumerated() {
      if !(-90...90).contains(place.latitude) {
        return "results.[\(index)].latitude: \(place.latitude) is outside -90…90"
      }
      if !(-180...180).contains(place.longitude) {
        return "results.[\(index)].longitude: \(place.longitude) is outside -180…180"
      }
    }
    return nil
  }
}

extension ForecastResponse: CheckedResponse {
  var problem: String? {
    if !(-100...100).contains(current.temperature) {
      return "current.temperature_2m: \(current.temperature) is outside -100…100 °C"
    }
    // -0 is 0.
    if current.windSpeed < 0 || current.windSpeed.isNaN {
      return "current.wind_speed_10m: \(current.windSpeed) is below 0"
    }
    return nil
  }
}

/// Open-Meteo's error body: `{"error": true, "reason": "…"}`.
struct ErrorResponse: Decodable {
  var reason: String
}

/// A syntax check of a JSON text that also finds the first number a Swift `Double` or `Int`
/// cannot hold, with where it is: what a decoding error that only says "not valid JSON" hides.
struct JSONScan {
  private let bytes: [UInt8]
  private var index = 0
  private var path: [String] = []
  /// The first number out of range: its path (`results.[0].latitude`) and its text.
  private(set) var outOfRange: (path: String, text: String)?
  /// The first number written with a fraction or an exponent whose value is whole but beyond an
  /// `Int` (`1e40`): out of range for a field that holds a whole number (an id, a weather code).
  private(set) var beyondWholeNumbers: (path: String, text: String)?
  /// Whether the whole text is one JSON value.
  private(set) var isValid = false

  /// Scans `data`; `nil` when it is not UTF-8.
  init?(_ data: Data) {
    bytes = Array(data)
    guard String(validating: bytes, as: UTF8.self) != nil else { return nil }
    skipSpace()
    guard value(depth: 0) else { return }
    skipSpace()
    isValid = index == bytes.count
  }

  /// Whether a number out of range was found (``numberProblem`` then says which).
  var hasNumberProblem: Bool { outOfRange != nil || beyondWholeNumbers != nil }

  /// What to say about the number, for a body that is valid JSON.
  var numberProblem: String {
    guard let outOfRange = outOfRange ?? beyondWholeNumbers else { return "number out of range" }
    let shown = outOfRange.text.count > 40 ? outOfRange.text.prefix(39) + "…" : outOfRange.text
    return "number out of range at '\(outOfRange.path)': \(shown)"
  }

  private mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  private mutating func value(depth: Int) -> Bool {
    guard depth < 512, index < bytes.count else { return false }
    switch bytes[index] {
    case UInt8(ascii: "{"): return object(depth: depth)
    case UInt8(ascii: "["): return array(depth: depth)
    case UInt8(ascii: "\""): return string()
    case UInt8(ascii: "t"): return literal("true")
    case UInt8(ascii: "f"): return literal("false")
    case UInt8(ascii: "n"): return literal("null")
    default: return number()
    }
  }

  private mutating func object(depth: Int) -> Bool {
    index += 1
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return true
    }
    while true {
      skipSpace()
      let start = index
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), string() else { return false }
      let key = String(decoding: bytes[(start + 1)..<(index - 1)], as: UTF8.self)
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
      index += 1
      skipSpace()
      path.append(key)
      guard value(depth: depth + 1) else { return false }
      path.removeLast()
      skipSpace()
      guard index < bytes.count else { return false }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "}") else { return false }
      index += 1
      return true
    }
  }

  private mutating func array(depth: Int) -> Bool {
    index += 1
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return true
    }
    var element = 0
    while true {
      skipSpace()
      path.append("[\(element)]")
      guard value(depth: depth + 1) else { return false }
      path.removeLast()
      skipSpace()
      guard index < bytes.count else { return false }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        element += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "]") else { return false }
      index += 1
      return true
    }
  }

  private mutating func string() -> Bool {
    index += 1
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        index += 1
        return true
      case UInt8(ascii: "\\"):
        guard escape() else { return false }
      case 0..<0x20:
        return false
      default:
        index += 1
      }
    }
    return false
  }

  /// An escape in a string (`index` at its backslash): one of `\" \\ \/ \b \f \n \r \t`,
  /// or `\u` and four hex digits, a UTF-16 surrogate only as a high one followed by a low one
  /// (Foundation refuses a lone surrogate: the text is then not what the app reads).
  private mutating func escape() -> Bool {
    guard index + 1 < bytes.count else { return false }
    let kind = bytes[index + 1]
    guard kind == UInt8(ascii: "u") else {
      index += 2
      return Array(#""\/bfnrt"#.utf8).contains(kind)
    }
    guard let unit = codeUnit(at: index + 2) else { return false }
    index += 6
    switch unit {
    case 0xD800...0xDBFF:
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u"), let low = codeUnit(at: index + 2),
        (0xDC00...0xDFFF).contains(low)
      else { return false }
      index += 6
      return true
    case 0xDC00...0xDFFF: return false
    default: return true
    }
  }

  /// The four hex digits at `start`, as a UTF-16 code unit.
  private func codeUnit(at start: Int) -> UInt16? {
    guard start + 4 <= bytes.count else { return nil }
    var value: UInt16 = 0
    for byte in bytes[start..<start + 4] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt16(digit)
    }
    return value
  }

  private mutating func literal(_ word: String) -> Bool {
    let expected = Array(word.utf8)
    guard bytes.count - index >= expected.count,
      Array(bytes[index..<(index + expected.count)]) == expected
    else { return false }
    index += expected.count
    return true
  }

  private mutating func number() -> Bool {
    let start = index
    func digits() -> Int {
      let from = index
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
      return index - from
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    let integerStart = index
    let integerDigits = digits()
    // JSON's integer part has no leading zero: `0`, `0.5`, never `007`.
    guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
      return false
    }
    var isInteger = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      isInteger = false
      guard digits() > 0 else { return false }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      isInteger = false
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits() > 0 else { return false }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    let representable: Bool
    if isInteger {
      representable = Int(text) != nil
    } else if let value = Double(text), value.isFinite {
      // Too small is out of range too (Foundation refuses `1e-400`): a value of 0 must be
      // written as 0, not have its digits lost.
      let mantissa = text.prefix { $0 != "e" && $0 != "E" }
      representable = value != 0 || !mantissa.contains(where: { ("1"..."9").contains($0) })
    } else {
      representable = false
    }
    if !representable, outOfRange == nil {
      outOfRange = (path.joined(separator: "."), text)
    }
    if !isInteger, beyondWholeNumbers == nil, let value = Double(text), value.rounded() == value,
      value.magnitude >= 0x1p63
    {
      beyondWholeNumbers = (path.joined(separator: "."), text)
    }
    return true
  }
}
