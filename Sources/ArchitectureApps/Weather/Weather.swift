/// The weather app (SPEC §4): a debounced place search and the current weather of one place.
public enum WeatherApp: Sendable {
  /// How long the query must stay unchanged before a search is issued (W2).
  public static let debounce = Duration.milliseconds(300)

  /// The longest search term; longer terms are cut (W2).
  public static let maximumTermLength = 100

  /// The most rows shown (W5).
  public static let maximumRows = 10

  /// The search term for a query: surrounding whitespace trimmed, cut to 100 characters (W2).
  ///
  /// - Complexity: O(w + 100) for the w whitespace characters that lead the query or follow the
  ///   cut, not O(n): a key typed into a 10,000-character query costs what the term holds
  ///   (SPEC L3).
  public static func searchTerm(for query: String) -> String {
    let rest = query.drop(while: \.isWhitespace)
    var term = rest.prefix(maximumTermLength)
    // Trailing whitespace is trimmed before the cut, so it is cut here only when nothing but
    // whitespace follows the term (a look that stops at the first other character).
    if rest[term.endIndex...].allSatisfy(\.isWhitespace) {
      while let last = term.last, last.isWhitespace { term = term.dropLast() }
    }
    return String(term)
  }

  /// The description of a WMO weather code (W10).
  public static func conditions(code: Int) -> String {
    switch code {
    case 0: "Clear sky"
    case 1: "Mainly clear"
    case 2: "Partly cloudy"
    case 3: "Overcast"
    case 45, 48: "Fog"
    case 51, 53, 55: "Drizzle"
    case 56, 57: "Freezing drizzle"
    case 61, 63, 65: "Rain"
    case 66, 67: "Freezing rain"
    case 71, 73, 75: "Snow"
    case 77: "Snow grains"
    case 80, 81, 82: "Rain showers"
    case 85, 86: "Snow showers"
    case 95: "Thunderstorm"
    case 96, 99: "Thunderstorm with hail"
    default: "Unknown conditions"
    }
  }

  /// Formats a value to one decimal, rounding half away from zero in exact decimal arithmetic
  /// (W7): `12.25` is `12.3`, `-0.04` is `0.0`; plain digits, never an exponent or `-0.0`.
  public static func oneDecimal(_ value: Double) -> String {
    DecimalText(value)?.oneDecimal ?? "\(value)"
  }

  /// A Celsius value in Fahrenheit, to one decimal (W9): F = C × 9/5 + 32 computed exactly on
  /// the decimal the value was written as, then rounded half away from zero.
  public static func fahrenheitText(celsius: Double) -> String {
    DecimalText(celsius)?.celsiusToFahrenheit.oneDecimal ?? "\(celsius * 9 / 5 + 32)"
  }

  /// The text of a loaded forecast (W7), e.g. `Berlin: 12.3°C, Partly cloudy, wind 10.5 km/h`.
  public static func forecastText(
    place: Place, forecast: Forecast, unit: TemperatureUnit
  ) -> String {
    let temperature =
      switch unit {
      case .celsius: oneDecimal(forecast.temperature)
      case .fahrenheit: fahrenheitText(celsius: forecast.temperature)
      }
    return "\(place.name): \(temperature)\(unit.rawValue), "
      + "\(conditions(code: forecast.weatherCode)), wind \(oneDecimal(forecast.windSpeed)) km/h"
  }
}

/// A place the weather service knows.
public struct Place: Codable, Sendable, Hashable, Identifiable {
  public var id: Int
  public var name: String
  public var country: String
  public var latitude: Double
  public var longitude: Double

  public init(id: Int, name: String, country: String, latitude: Double, longitude: Double) {
    self.id = id
    self.name = name
    self.country = country
    self.latitude = latitude
    self.longitude = longitude
  }
}

/// The current weather at a place.
public struct Forecast: Codable, Sendable, Hashable {
  /// Degrees Celsius.
  public var temperature: Double
  /// A WMO weather interpretation code (W10).
  public var weatherCode: Int
  /// Kilometres per hour.
  public var windSpeed: Double

  public init(temperature: Double, weatherCode: Int, windSpeed: Double) {
    self.temperature = temperature
    self.weatherCode = weatherCode
    self.windSpeed = windSpeed
  }
}

/// The unit temperatures are shown in (W9).
public enum TemperatureUnit: String, Codable, Sendable, CaseIterable {
  case celsius = "°C"
  case fahrenheit = "°F"

  /// The other unit.
  public var toggled: TemperatureUnit { self == .celsius ? .fahrenheit : .celsius }
}

/// What the user does in the weather app.
public enum WeatherIntent: Codable, Sendable, Hashable, CustomStringConvertible {
  case queryChanged(String)
  case select(placeID: Int)
  case retry
  case toggleUnit

  public var description: String {
    switch self {
    case .queryChanged(let query): "queryChanged(\(quoted(query)))"
    case .select(let id): "select(\(id))"
    case .retry: "retry"
    case .toggleUnit: "toggleUnit"
    }
  }
}

/// Everything the weather app shows.
public struct WeatherView: Codable, Sendable, Hashable, CustomStringConvertible {
  /// The state of the place search (W2, W5).
  public enum SearchStatus: String, Codable, Sendable {
    case idle
    case searching
    case noResults
    case failed

    /// The text shown for the status.
    public var text: String {
      switch self {
      case .idle: ""
      case .searching: "Searching…"
      case .noResults: "No matching places"
      case .failed: "Search failed"
      }
    }
  }

  /// One search result.
  public struct Row: Codable, Sendable, Hashable {
    public var id: Int
    public var text: String

    public init(id: Int, text: String) {
      self.id = id
      self.text = text
    }

    /// The row for a place: `Berlin, Germany`.
    public init(_ place: Place) {
      self.init(
        id: place.id, text: place.country.isEmpty ? place.name : "\(place.name), \(place.country)")
    }
  }

  /// The weather panel (W6–W8).
  public struct Weather: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable {
      case none
      case loading
      case loaded
      case failed
    }

    public var kind: Kind
    public var text: String

    public init(kind: Kind, text: String) {
      self.kind = kind
      self.text = text
    }

    /// No place selected.
    public static let none = Weather(kind: .none, text: "")

    /// The forecast for `place` is being requested.
    public static func loading(_ place: Place) -> Weather {
      Weather(kind: .loading, text: "Loading weather for \(place.name)…")
    }

    /// The forecast for `place` arrived.
    public static func loaded(_ place: Place, _ forecast: Forecast, unit: TemperatureUnit)
      -> Weather
    {
      Weather(
        kind: .loaded, text: WeatherApp.forecastText(place: place, forecast: forecast, unit: unit))
    }

    /// The forecast for `place` could not be loaded.
    public static func failed(_ place: Place) -> Weather {
      Weather(kind: .failed, text: "Could not load weather for \(place.name)")
    }
  }

  public var query: String
  public var status: SearchStatus
  public var rows: [Row]
  public var selectedPlaceID: Int?
  public var weather: Weather
  public var unit: TemperatureUnit

  public init(
    query: String = "", status: SearchStatus = .idle, rows: [Row] = [], selectedPlaceID: Int? = nil,
    weather: Weather = .none, unit: TemperatureUnit = .celsius
  ) {
    self.query = query
    self.status = status
    self.rows = rows
    self.selectedPlaceID = selectedPlaceID
    self.weather = weather
    self.unit = unit
  }

  /// The view before anything happened (W1).
  public static let initial = WeatherView()

  public var description: String {
    var parts = ["query \(quoted(query))", "status \(status.rawValue)"]
    if !rows.isEmpty { parts.append("rows [\(rows.map(\.text).joined(separator: "; "))]") }
    if let selectedPlaceID { parts.append("selected \(selectedPlaceID)") }
    if weather.kind != .none { parts.append("weather \(quoted(weather.text))") }
    parts.append(unit.rawValue)
    return parts.joined(separator: ", ")
  }
}

/// Finds places and their current weather.
public protocol WeatherService: Sendable {
  /// The places matching `term`, best first.
  func search(_ term: String) async throws -> [Place]
  /// The current weather at `place`.
  func forecast(for place: Place) async throws -> Forecast
}

/// The weather app's side effects.
public struct WeatherEnvironment: Sendable {
  public var service: any WeatherService
  public var clock: any Clock<Duration>
  /// The executor every task the runtime creates should prefer (`nil`: the default executor).
  public var executor: (any TaskExecutor)?

  public init(
    service: any WeatherService, clock: any Clock<Duration>, executor: (any TaskExecutor)? = nil
  ) {
    self.service = service
    self.clock = clock
    self.executor = executor
  }
}

/// A string in double quotes with quotes and backslashes escaped, for readable messages.
package func quoted(_ string: String) -> String {
  var result = "\""
  for character in string {
    switch character {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case "\n": result += "\\n"
    default: result.append(character)
    }
  }
  return result + "\""
}

extension WeatherApp: SpecApp {
  public typealias Intent = WeatherIntent
  public typealias View = WeatherView
  public typealias Environment = WeatherEnvironment

  public static let name = "weather"
}
