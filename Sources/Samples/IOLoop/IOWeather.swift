import ArchitectureSpec
import IOLoop

// side-by-side: weather effects
/// A delay as an IO type: the app asks to hear back about a term after a pause.
public enum DebounceIO: IOType {
  public enum Output: Sendable, Equatable {
    case debounce(term: String)
    case cancel
  }
  // side-by-side: weather intents
  public enum Input: Sendable, Equatable {
    case elapsed(term: String)
  }
  // side-by-side: end
}

// side-by-side: weather effects
/// Place search as an IO type; requests carry ids so the app recognises stale answers.
public enum SearchIO: IOType {
  public enum Output: Sendable, Equatable {
    case search(id: Int, term: String)
    case cancel
  }
  // side-by-side: weather intents
  public enum Input: Sendable, Equatable {
    case found(id: Int, [Place])
    case failed(id: Int)
  }
  // side-by-side: end
}

// side-by-side: weather effects
/// Forecasts as an IO type, with request ids too.
public enum ForecastIO: IOType {
  public enum Output: Sendable, Equatable {
    case fetch(id: Int, Place)
    case cancel
  }
  // side-by-side: weather intents
  public enum Input: Sendable, Equatable {
    case fetched(id: Int, Forecast)
    case failed(id: Int)
  }
  // side-by-side: end
}

// side-by-side: weather state
/// The weather app as one pure function over four kinds of IO.
public struct IOWeather: PureApp, Equatable {
  // side-by-side: weather intents
  public typealias Screen = ScreenIO<WeatherView, WeatherIntent>
  public typealias Input = IOInput<Screen, DebounceIO, SearchIO, ForecastIO>
  // side-by-side: weather effects
  public typealias Outputs = IOOutputs<Screen, DebounceIO, SearchIO, ForecastIO>

  // side-by-side: weather state
  public enum Weather: Equatable, Sendable {
    case none, loading, failed
    case loaded(Forecast)
  }

  public var query = ""
  public var status = WeatherView.SearchStatus.idle
  public var places: [Place] = []
  public var selected: Place?
  public var weather = Weather.none
  public var unit = TemperatureUnit.celsius
  /// The term of the last search sent, and whether it failed (W3).
  public var lastTerm: String?
  public var lastSearchFailed = false
  /// The ids the answers to the latest search and forecast must carry.
  public var searchID = 0
  public var forecastID = 0

  public init() {}

  // side-by-side: weather wiring
  public var view: WeatherView {
    let shown: WeatherView.Weather =
      switch (selected, weather) {
      case (nil, _), (_, .none): .none
      case (let place?, .loading): .loading(place)
      case (let place?, .loaded(let forecast)): .loaded(place, forecast, unit: unit)
      case (let place?, .failed): .failed(place)
      }
    return WeatherView(
      query: query, status: status, rows: places.map(WeatherView.Row.init),
      selectedPlaceID: selected?.id, weather: shown, unit: unit)
  }

  // side-by-side: weather update+effects
  public static func start() -> (IOWeather, Outputs) {
    let app = IOWeather()
    return (app, Outputs([app.view], [], [], []))
  }

  public func run(input: Input) -> (IOWeather, Outputs) {
    var next = self
    var debounce: [DebounceIO.Output] = []
    var search: [SearchIO.Output] = []
    var forecast: [ForecastIO.Output] = []
    switch input.values {
    case (.queryChanged(let text)?, _, _, _):
      next.query = text
      let term = WeatherApp.searchTerm(for: text)
      if term.isEmpty {
        next.places = []
        next.status = .idle
        next.lastTerm = nil
        next.searchID += 1  // any answer still coming is stale
        debounce = [.cancel]
        search = [.cancel]
      } else {
        debounce = [.debounce(term: term)]
      }
    case (.select(let id)?, _, _, _):
      guard let place = places.first(where: { $0.id == id }) else { return (self, .none) }
      if selected?.id == id, weather == .loading { return (self, .none) }
      if selected?.id == id, case .loaded = weather { return (self, .none) }
      forecast = next.requestForecast(for: place)
    case (.retry?, _, _, _):
      guard weather == .failed, let selected else { return (self, .none) }
      forecast = next.requestForecast(for: selected)
    case (.toggleUnit?, _, _, _):
      next.unit = unit.toggled
    case (nil, .elapsed(let term)?, _, _):
      if lastTerm == term, !lastSearchFailed { return (self, .none) }
      next.status = .searching
      next.lastTerm = term
      next.lastSearchFailed = false
      next.searchID += 1
      search = [.search(id: next.searchID, term: term)]
    case (nil, nil, .found(let id, let found)?, _):
      guard id == searchID else { return (self, .none) }
      next.places = Array(found.prefix(WeatherApp.maximumRows))
      next.status = found.isEmpty ? .noResults : .idle
    case (nil, nil, .failed(let id)?, _):
      guard id == searchID else { return (self, .none) }
      next.places = []
      next.status = .failed
      next.lastSearchFailed = true
    case (nil, nil, nil, .fetched(let id, let result)?):
      guard id == forecastID else { return (self, .none) }
      next.weather = .loaded(result)
    case (nil, nil, nil, .failed(let id)?):
      guard id == forecastID else { return (self, .none) }
      next.weather = .failed
    default:
      return (self, .none)
    }
    return (next, Outputs(next.render(after: self), debounce, search, forecast))
  }

  /// The view to show after `before`: none when the state did not change. (The screen does not
  /// show a view equal to the one it shows already.)
  private func render(after before: IOWeather) -> [WeatherView] {
    self == before ? [] : [view]
  }

  /// Back to an empty query, as `queryChanged("")` does, with no place selected and any
  /// forecast in flight cancelled: what a parent that resets everything asks of the weather.
  public func reset() -> (IOWeather, Outputs) {
    let (cleared, outputs) = run(input: Input(Screen.self, .queryChanged("")))
    guard cleared.selected != nil || cleared.weather != .none else { return (cleared, outputs) }
    var next = cleared
    next.selected = nil
    next.weather = .none
    next.forecastID += 1  // any answer still coming is stale
    let (_, debounce, search, _) = outputs.values
    return (
      next, Outputs(next.render(after: self), debounce, search, [.cancel])
    )
  }

  private mutating func requestForecast(for place: Place) -> [ForecastIO.Output] {
    selected = place
    weather = .loading
    forecastID += 1
    return [.fetch(id: forecastID, place)]
  }
  // side-by-side: end
}

// side-by-side: weather effects
/// Waits on the clock, one pause at a time: a new one replaces the one waiting.
public struct DebounceHandler: IOHandler {
  public typealias IO = DebounceIO
  let clock: any Clock<Duration>

  public init(clock: any Clock<Duration>) { self.clock = clock }

  public func handle(_ output: DebounceIO.Output, context: IOContext<DebounceIO>) {
    switch output {
    case .debounce(let term):
      let clock = self.clock
      context.run(id: Work.debounce) { send in
        guard (try? await sleep(for: WeatherApp.debounce, on: clock)) != nil else { return }
        send(.elapsed(term: term))
      }
    case .cancel:
      context.cancel(id: Work.debounce)
    }
  }
}

/// Searches places; a new search replaces the one in flight.
public struct SearchHandler: IOHandler {
  public typealias IO = SearchIO
  let service: any WeatherService

  public init(service: any WeatherService) { self.service = service }

  public func handle(_ output: SearchIO.Output, context: IOContext<SearchIO>) {
    switch output {
    case .search(let id, let term):
      let service = self.service
      context.run(id: Work.search) { send in
        do { send(.found(id: id, try await service.search(term))) } catch { send(.failed(id: id)) }
      }
    case .cancel:
      context.cancel(id: Work.search)
    }
  }
}

/// Fetches forecasts; a new fetch replaces the one in flight.
public struct ForecastHandler: IOHandler {
  public typealias IO = ForecastIO
  let service: any WeatherService

  public init(service: any WeatherService) { self.service = service }

  public func handle(_ output: ForecastIO.Output, context: IOContext<ForecastIO>) {
    switch output {
    case .fetch(let id, let place):
      let service = self.service
      context.run(id: Work.forecast) { send in
        do {
          send(.fetched(id: id, try await service.forecast(for: place)))
        } catch {
          send(.failed(id: id))
        }
      }
    case .cancel:
      context.cancel(id: Work.forecast)
    }
  }
}

enum Work { case debounce, search, forecast }

private func sleep<C: Clock<Duration>>(for duration: Duration, on clock: C) async throws {
  try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
}
// side-by-side: end
