import ArchitectureSpec
import MUE

/// The weather app in Model-Update-Effect style: debounce, search and forecast are effects with
/// ids, so a new one supersedes the one before and a late result never lands.
public enum MUEWeather {
  // side-by-side: weather state
  public struct State: Equatable, Sendable, SmartCopy {
    public var query = ""
    public var status = WeatherView.SearchStatus.idle
    public var places: [Place] = []
    public var selected: Place?
    public var weather = Weather.none
    public var unit = TemperatureUnit.celsius
    /// The last search issued (W3).
    public var lastSearch: LastSearch?

    public init() {}
  }

  public struct LastSearch: Equatable, Sendable {
    public var term: String
    public var hasFailed: Bool

    public init(term: String, hasFailed: Bool = false) {
      self.term = term
      self.hasFailed = hasFailed
    }
  }

  public enum Weather: Equatable, Sendable {
    case none, loading, failed
    case loaded(Forecast)
  }

  // side-by-side: weather intents
  public typealias Event = WeatherIntent

  // side-by-side: weather effects
  public enum Effect: MUE.Effect, Equatable {
    case debounce(term: String)
    case search(term: String)
    case forecast(Place)

    // side-by-side: weather intents
    public enum Result: Sendable, Equatable {
      case debounced(term: String)
      case searched([Place])
      case searchFailed
      case forecasted(Forecast)
      case forecastFailed
    }

    // side-by-side: weather effects
    public enum ID: Hashable, Sendable { case debounce, search, forecast }

    public var id: ID? {
      switch self {
      case .debounce: .debounce
      case .search: .search
      case .forecast: .forecast
      }
    }
  }

  // side-by-side: weather update+effects
  public struct Update: MUE.Update {
    public init() {}

    public func handle(event: Event, _ state: State) -> UpdateResult<State, Effect> {
      switch event {
      case .queryChanged(let text):
        let term = WeatherApp.searchTerm(for: text)
        guard !term.isEmpty else {
          let cleared = state.copy {
            $0.query = text
            $0.places = []
            $0.status = .idle
            $0.lastSearch = nil
          }
          return .newState(state: cleared).cancelling(.debounce, .search)
        }
        return .dispatchEffect(state: state.copy(\.query, text), effect: .debounce(term: term))
      case .select(let id):
        guard let place = state.places.first(where: { $0.id == id }) else { return .noChange }
        if state.selected?.id == id, state.weather == .loading { return .noChange }
        if state.selected?.id == id, case .loaded = state.weather { return .noChange }
        return forecast(place, state)
      case .retry:
        guard state.weather == .failed, let selected = state.selected else { return .noChange }
        return forecast(selected, state)
      case .toggleUnit:
        return .newState(state: state.copy { $0.unit = $0.unit.toggled })
      }
    }

    public func handle(result: Effect.Result, _ state: State) -> UpdateResult<State, Effect> {
      switch result {
      case .debounced(let term):
        if let last = state.lastSearch, last.term == term, !last.hasFailed { return .noChange }
        let searching = state.copy {
          $0.status = .searching
          $0.lastSearch = LastSearch(term: term)
        }
        return .dispatchEffect(state: searching, effect: .search(term: term))
      case .searched(let found):
        return .newState(
          state: state.copy {
            $0.places = Array(found.prefix(WeatherApp.maximumRows))
            $0.status = found.isEmpty ? .noResults : .idle
          })
      case .searchFailed:
        return .newState(
          state: state.copy {
            $0.places = []
            $0.status = .failed
            $0.lastSearch?.hasFailed = true
          })
      case .forecasted(let forecast):
        return .newState(state: state.copy(\.weather, .loaded(forecast)))
      case .forecastFailed:
        return .newState(state: state.copy(\.weather, .failed))
      }
    }

    /// The weather as the shell's resetAll leaves it (H5): the query, rows and selection
    /// cleared, the unit kept, and every debounce, search and forecast cancelled.
    public func reset(_ state: State) -> UpdateResult<State, Effect> {
      var cleared = State()
      cleared.unit = state.unit
      return .newState(state: cleared).cancelling(.debounce, .search, .forecast)
    }

    private func forecast(_ place: Place, _ state: State) -> UpdateResult<State, Effect> {
      let loading = state.copy {
        $0.selected = place
        $0.weather = .loading
      }
      return .dispatchEffect(state: loading, effect: .forecast(place))
    }
  }

  // side-by-side: weather effects
  public struct EffectHandler: MUE.EffectHandler {
    let service: any WeatherService
    let clock: any Clock<Duration>

    public init(environment: WeatherEnvironment) {
      service = environment.service
      clock = environment.clock
    }

    public func handle(_ effect: Effect) async -> EffectResult<Effect.Result> {
      switch effect {
      case .debounce(let term):
        do {
          try await sleep(for: WeatherApp.debounce, on: clock)
          return .single(.debounced(term: term))
        } catch {
          return .empty  // cancelled: a newer query or an empty one
        }
      case .search(let term):
        do { return .single(.searched(try await service.search(term))) } catch {
          return .single(.searchFailed)
        }
      case .forecast(let place):
        do { return .single(.forecasted(try await service.forecast(for: place))) } catch {
          return .single(.forecastFailed)
        }
      }
    }
  }

  // side-by-side: weather wiring
  public static func view(_ state: State) -> WeatherView {
    let weather: WeatherView.Weather =
      switch (state.selected, state.weather) {
      case (nil, _), (_, .none): .none
      case (let place?, .loading): .loading(place)
      case (let place?, .loaded(let forecast)): .loaded(place, forecast, unit: state.unit)
      case (let place?, .failed): .failed(place)
      }
    return WeatherView(
      query: state.query, status: state.status, rows: state.places.map(WeatherView.Row.init),
      selectedPlaceID: state.selected?.id, weather: weather, unit: state.unit)
  }

  /// A weather loop for `environment`.
  public static func makeLoop(environment: WeatherEnvironment) -> Loop<Update, EffectHandler> {
    Loop(
      update: Update(), effectHandler: EffectHandler(environment: environment), state: State(),
      executor: environment.executor)
  }
  // side-by-side: end
}

// side-by-side: weather effects
private func sleep<C: Clock<Duration>>(for duration: Duration, on clock: C) async throws {
  try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
}
// side-by-side: end
