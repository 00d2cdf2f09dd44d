import ArchitectureSpec
import ElmStore

/// The weather app as an ElmStore app: the update decides, the effects debounce, search and
/// fetch forecasts — each run superseding the one before, so a late result never lands.
public enum ElmWeather {
  // side-by-side: weather state
  public struct State: Equatable, Sendable {
    public var query = ""
    public var status = WeatherView.SearchStatus.idle
    public var places: [Place] = []
    public var selected: Place?
    public var weather = Weather.none
    public var unit = TemperatureUnit.celsius
    public var lastSearch: LastSearch?
    /// The work the update decided on for the action just handled; the effect carries it out.
    public var request: Request?

    public init() {}

    init(unit: TemperatureUnit) { self.unit = unit }
  }

  public enum Weather: Equatable, Sendable {
    case none, loading, failed
    case loaded(Forecast)
  }

  public struct LastSearch: Equatable, Sendable {
    public var term: String
    public var hasFailed: Bool
  }

  // side-by-side: weather effects
  public enum Request: Equatable, Sendable {
    case debounce(term: String)
    case cancelSearch
    case cancelAll
    case search(term: String)
    case forecast(Place)
  }

  // side-by-side: weather intents
  public enum Action: Equatable, Sendable {
    case intent(WeatherIntent)
    case debounced(term: String)
    case searched([Place])
    case searchFailed
    case forecasted(Forecast)
    case forecastFailed
    /// Back to the start, the unit kept: the query emptied (as `queryChanged("")`) and the
    /// selection and its weather cleared, every request cancelled (the shell's resetAll).
    case reset
  }

  // side-by-side: weather update
  public static func update(_ state: inout State, _ action: Action) {
    state.request = nil
    switch action {
    case .intent(.queryChanged(let text)):
      state.query = text
      let term = WeatherApp.searchTerm(for: text)
      if term.isEmpty {
        state.places = []
        state.status = .idle
        state.lastSearch = nil
        state.request = .cancelSearch
      } else {
        state.request = .debounce(term: term)
      }
    case .debounced(let term):
      if let last = state.lastSearch, last.term == term, !last.hasFailed { return }
      state.status = .searching
      state.lastSearch = LastSearch(term: term, hasFailed: false)
      state.request = .search(term: term)
    case .searched(let found):
      state.places = Array(found.prefix(WeatherApp.maximumRows))
      state.status = found.isEmpty ? .noResults : .idle
    case .searchFailed:
      state.places = []
      state.status = .failed
      state.lastSearch?.hasFailed = true
    case .intent(.select(let id)):
      guard let place = state.places.first(where: { $0.id == id }) else { return }
      if state.selected?.id == id, state.weather == .loading { return }
      if state.selected?.id == id, case .loaded = state.weather { return }
      requestForecast(for: place, in: &state)
    case .intent(.retry):
      guard state.weather == .failed, let selected = state.selected else { return }
      requestForecast(for: selected, in: &state)
    case .forecasted(let forecast):
      state.weather = .loaded(forecast)
    case .forecastFailed:
      state.weather = .failed
    case .intent(.toggleUnit):
      state.unit = state.unit.toggled
    case .reset:
      state = State(unit: state.unit)
      state.request = .cancelAll
    }
  }

  private static func requestForecast(for place: Place, in state: inout State) {
    state.selected = place
    state.weather = .loading
    state.request = .forecast(place)
  }

  // side-by-side: weather effects
  /// Carries out the update's request. Each kind of work has one id, so a new run cancels the
  /// one before and the store drops whatever the old one still sends.
  public static func effect(_ environment: WeatherEnvironment) -> Effect<State, Action> {
    let service = environment.service
    let clock = environment.clock
    return Effect { state, _, dispatch in
      switch state.request {
      case nil:
        break
      case .debounce(let term):
        dispatch.run(id: Work.debounce) { send in
          try await sleep(for: WeatherApp.debounce, on: clock)
          send(.debounced(term: term))
        }
      case .cancelSearch:
        dispatch.cancel(id: Work.debounce)
        dispatch.cancel(id: Work.search)
      case .cancelAll:
        dispatch.cancel(id: Work.debounce)
        dispatch.cancel(id: Work.search)
        dispatch.cancel(id: Work.forecast)
      case .search(let term):
        dispatch.run(id: Work.search) { send in
          send(.searched(try await service.search(term)))
        } catch: { _, send in
          send(.searchFailed)
        }
      case .forecast(let place):
        dispatch.run(id: Work.forecast) { send in
          send(.forecasted(try await service.forecast(for: place)))
        } catch: { _, send in
          send(.forecastFailed)
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

  // side-by-side: weather effects
  enum Work { case debounce, search, forecast }

  // side-by-side: weather wiring
  /// A weather store for `environment`.
  public static func makeStore(environment: WeatherEnvironment) -> Store<State, Action> {
    Store(
      state: State(), update: update, effect: effect(environment), executor: environment.executor)
  }
  // side-by-side: end
}

// side-by-side: weather effects
private func sleep<C: Clock<Duration>>(for duration: Duration, on clock: C) async throws {
  try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
}
// side-by-side: end
