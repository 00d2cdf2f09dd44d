import ArchitectureSpec
import LayerCore

/// The weather app as a simprokcore app: the core keeps the query, the results and the
/// requests it wants carried out; the debounce, search and forecast layers carry out the latest
/// request of their kind, and the core ignores answers to requests it no longer wants.
public enum LayerWeather {
  // side-by-side: weather state
  /// The global state.
  public struct AppState: Sendable {
    public enum SearchPhase: Sendable, Equatable {
      case inFlight
      case succeeded
      case failed
    }

    public enum Weather: Sendable, Equatable {
      case none
      case loading
      case loaded(Forecast)
      case failed
    }

    public var query = ""
    public var status = WeatherView.SearchStatus.idle
    public var places: [Place] = []
    public var selected: Place?
    public var weather = Weather.none
    public var unit = TemperatureUnit.celsius
    /// The last term searched for, and how that search went.
    public var lastSearch: (term: String, phase: SearchPhase)?
    /// The term to search for once typing pauses.
    public var debounce: Request<String>?
    /// The search the core waits for.
    public var search: Request<String>?
    /// The forecast the core waits for.
    public var forecast: Request<Place>?
    var lastID = 0

    public init() {}

    mutating func nextID() -> Int {
      lastID += 1
      return lastID
    }
  }

  // side-by-side: weather intents
  /// The global events.
  public enum AppEvent: Sendable {
    case click(WeatherIntent)
    case debounced(Request<String>)
    case searched(Answer<String, [Place]>)
    case forecasted(Answer<Place, Forecast>)
  }

  // side-by-side: weather wiring
  /// The reducer, and the screen, debounce, search and forecast layers.
  public struct App: Core {
    let screen: Screen<WeatherView, WeatherIntent>
    let environment: WeatherEnvironment

    public init(screen: Screen<WeatherView, WeatherIntent>, environment: WeatherEnvironment) {
      self.screen = screen
      self.environment = environment
    }

    public var layers: [Layer<AppState, AppEvent>] {
      [
        ~UILayer(screen: screen),
        ~DebounceLayer(clock: environment.clock),
        ~SearchLayer(service: environment.service),
        ~ForecastLayer(service: environment.service),
      ]
    }

    // side-by-side: weather update
    // Written in place (`inout`): the flow's state changes where it is kept, not in a copy
    // that then replaces it.
    public func reduce(state: inout AppState?, event: AppEvent) -> InPlaceReducerResult {
      guard case .some = state else {
        var first = AppState()
        let result = Self.reduce(&first, event)
        if result == .set { state = first }
        return result
      }
      return Self.reduce(&state!, event)
    }

    /// Every `.skip` comes before any change: a skipped event leaves `state` as it was.
    private static func reduce(_ state: inout AppState, _ event: AppEvent) -> InPlaceReducerResult {
      switch event {
      case .click(.queryChanged(let text)):
        state.query = text
        let term = WeatherApp.searchTerm(for: text)
        guard term.isEmpty else {
          state.debounce = Request(id: state.nextID(), term)
          return .set
        }
        state.debounce = nil
        state.search = nil
        state.places = []
        state.status = .idle
        state.lastSearch = nil
      case .debounced(let request):
        guard request == state.debounce else { return .skip }
        let term = request.value
        if let last = state.lastSearch, last.term == term, last.phase != .failed { return .skip }
        state.search = Request(id: state.nextID(), term)
        state.status = .searching
        state.lastSearch = (term, .inFlight)
      case .searched(let answer):
        guard answer.request == state.search else { return .skip }
        switch answer.result {
        case .success(let found):
          state.places = Array(found.prefix(WeatherApp.maximumRows))
          state.status = found.isEmpty ? .noResults : .idle
          state.lastSearch?.phase = .succeeded
        case .failure:
          state.places = []
          state.status = .failed
          state.lastSearch?.phase = .failed
        }
      case .click(.select(let id)):
        guard let place = state.places.first(where: { $0.id == id }) else { return .skip }
        if state.selected?.id == id {
          if case .loading = state.weather { return .skip }
          if case .loaded = state.weather { return .skip }
        }
        requestForecast(for: place, in: &state)
      case .click(.retry):
        guard case .failed = state.weather, let selected = state.selected else { return .skip }
        requestForecast(for: selected, in: &state)
      case .forecasted(let answer):
        guard answer.request == state.forecast else { return .skip }
        switch answer.result {
        case .success(let forecast): state.weather = .loaded(forecast)
        case .failure: state.weather = .failed
        }
      case .click(.toggleUnit):
        state.unit = state.unit.toggled
      }
      return .set
    }

    /// Back to an empty query, as `queryChanged("")` does, with no place selected and the
    /// forecast no longer wanted (its layer cancels it): what a parent that resets everything
    /// asks of the weather.
    public func reset(_ state: inout AppState?) {
      _ = reduce(state: &state, event: .click(.queryChanged("")))
      state!.selected = nil
      state!.weather = .none
      state!.forecast = nil
    }

    private static func requestForecast(for place: Place, in state: inout AppState) {
      state.selected = place
      state.weather = .loading
      state.forecast = Request(id: state.nextID(), place)
    }
    // side-by-side: end
  }

  // side-by-side: weather effects
  /// Waits for typing to pause, then hands the term back.
  struct DebounceLayer: LayerType {
    let clock: any Clock<Duration>

    var machine: Machine<Request<String>?, Request<String>> {
      let clock = clock
      return ~RequestMachine { (request: Request<String>, send: Handler<Request<String>>) in
        if await sleep(for: WeatherApp.debounce, on: clock) { send(request) }
      }
    }
    func map(state: AppState) -> Request<String>? { state.debounce }
    func map(event: Request<String>) -> AppEvent { .debounced(event) }
  }

  /// Searches for places.
  struct SearchLayer: LayerType {
    let service: any WeatherService

    var machine: Machine<Request<String>?, Answer<String, [Place]>> {
      let service = service
      return ~RequestMachine { (request: Request<String>, send: Handler<Answer<String, [Place]>>) in
        send(await .to(request) { try await service.search(request.value) })
      }
    }
    func map(state: AppState) -> Request<String>? { state.search }
    func map(event: Answer<String, [Place]>) -> AppEvent { .searched(event) }
  }

  /// Loads the forecast for the selected place.
  struct ForecastLayer: LayerType {
    let service: any WeatherService

    var machine: Machine<Request<Place>?, Answer<Place, Forecast>> {
      let service = service
      return ~RequestMachine { (request: Request<Place>, send: Handler<Answer<Place, Forecast>>) in
        send(await .to(request) { try await service.forecast(for: request.value) })
      }
    }
    func map(state: AppState) -> Request<Place>? { state.forecast }
    func map(event: Answer<Place, Forecast>) -> AppEvent { .forecasted(event) }
  }

  // side-by-side: weather wiring
  struct UILayer: LayerType {
    let screen: Screen<WeatherView, WeatherIntent>

    var machine: Machine<WeatherView, WeatherIntent> { screen.machine }
    func map(state: AppState) -> WeatherView { view(state) }
    func map(event: WeatherIntent) -> AppEvent { .click(event) }
  }

  /// The screen for `state`; the empty search before the first event.
  public static func view(_ state: AppState?) -> WeatherView {
    guard let state else { return .initial }
    return view(state)
  }

  /// The screen for `state`.
  public static func view(_ state: AppState) -> WeatherView {
    WeatherView(
      query: state.query, status: state.status, rows: state.places.map(WeatherView.Row.init),
      selectedPlaceID: state.selected?.id, weather: panel(state), unit: state.unit)
  }

  private static func panel(_ state: AppState) -> WeatherView.Weather {
    guard let selected = state.selected else { return .none }
    switch state.weather {
    case .none: return .none
    case .loading: return .loading(selected)
    case .loaded(let forecast): return .loaded(selected, forecast, unit: state.unit)
    case .failed: return .failed(selected)
    }
  }
  // side-by-side: end
}
