import ArchitectureSpec
import Comonadic

/// The weather app as a Bow Arch component: workflows debounce, search and fetch forecasts;
/// each kind of work has one id, so new work cancels the old and its late result never lands.
public enum ComonadicWeather {
  // side-by-side: weather state
  public struct State: Equatable, Sendable {
    public var query = ""
    public var status = WeatherView.SearchStatus.idle
    public var places: [Place] = []
    public var selected: Place?
    public var weather = Weather.none
    public var unit = TemperatureUnit.celsius
    public var lastSearch: LastSearch?

    public init() {}
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
  public enum Work: Sendable { case debounce, search, forecast }

  // side-by-side: weather intents
  public typealias Dispatcher = StateDispatcher<WeatherEnvironment, State, WeatherIntent>
  // side-by-side: weather effects
  typealias Step = StateEffect<WeatherEnvironment, State>

  // side-by-side: weather update+effects
  public static let dispatcher = Dispatcher.workflow { intent in
    switch intent {
    case .queryChanged(let text):
      queryChanged(text)
    case .select(let id):
      [
        .read { state in
          guard let place = state.places.first(where: { $0.id == id }) else { return [] }
          if state.selected?.id == id {
            if state.weather == .loading { return [] }
            if case .loaded = state.weather { return [] }
          }
          return forecast(for: place)
        }
      ]
    case .retry:
      [
        .read { state in
          guard state.weather == .failed, let place = state.selected else { return [] }
          return forecast(for: place)
        }
      ]
    case .toggleUnit:
      [.action(.mutate { $0.unit = $0.unit.toggled })]
    }
  }

  /// Cancels the debounce, the search and the forecast.
  public static let cancelAll: [StateEffect<WeatherEnvironment, State>] = [
    .cancel(id: Work.debounce), .cancel(id: Work.search), .cancel(id: Work.forecast),
  ]

  /// An empty query, no rows, no search remembered, nothing selected; the unit stays.
  public static let cleared = Comonadic.State<State, Void>.mutate {
    $0.query = ""
    $0.places = []
    $0.status = .idle
    $0.lastSearch = nil
    $0.selected = nil
    $0.weather = .none
  }

  /// An empty term clears the search at once; any other restarts the debounce, after which
  /// the search runs unless the same term was already searched (W2, W3).
  static func queryChanged(_ text: String) -> [Step] {
    let term = WeatherApp.searchTerm(for: text)
    guard !term.isEmpty else {
      return [
        .cancel(id: Work.debounce), .cancel(id: Work.search),
        .action(
          .mutate {
            $0.query = text
            $0.places = []
            $0.status = .idle
            $0.lastSearch = nil
          }),
      ]
    }
    return [
      .action(.mutate { $0.query = text }),
      .task(id: Work.debounce) { environment in
        try await sleep(for: WeatherApp.debounce, on: environment.clock)
        return .none
      } catch: { _ in
        .none  // only a cancelled debounce throws, and its result is dropped
      },
      .read { state in
        if let last = state.lastSearch, last.term == term, !last.hasFailed { return [] }
        return search(term)
      },
    ]
  }

  static func search(_ term: String) -> [Step] {
    [
      .action(
        .mutate {
          $0.status = .searching
          $0.lastSearch = LastSearch(term: term, hasFailed: false)
        }),
      .task(id: Work.search) { environment in
        let found = try await environment.service.search(term)
        return .mutate {
          $0.places = Array(found.prefix(WeatherApp.maximumRows))
          $0.status = found.isEmpty ? .noResults : .idle
        }
      } catch: { _ in
        .mutate {
          $0.places = []
          $0.status = .failed
          $0.lastSearch?.hasFailed = true
        }
      },
    ]
  }

  static func forecast(for place: Place) -> [Step] {
    [
      .action(
        .mutate {
          $0.selected = place
          $0.weather = .loading
        }),
      .task(id: Work.forecast) { environment in
        let forecast = try await environment.service.forecast(for: place)
        return .mutate { $0.weather = .loaded(forecast) }
      } catch: { _ in
        .mutate { $0.weather = .failed }
      },
    ]
  }

  // side-by-side: weather wiring
  // Inlined where a parent calls it with a handle it made, which this render does not use:
  // the compiler then makes no such handle (an allocation for each render of the parent).
  @inline(__always)
  public static func render(
    _ state: State, _ handle: @escaping @Sendable (WeatherIntent) -> Void
  ) -> WeatherView {
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

  public typealias Component = StoreComponent<WeatherEnvironment, State, WeatherIntent, WeatherView>

  public static func component(environment: WeatherEnvironment) -> Component {
    Component(
      initialState: State(), environment: environment, dispatcher: dispatcher,
      executor: environment.executor, render: render)
  }
  // side-by-side: end
}

// side-by-side: weather effects
private func sleep<C: Clock<Duration>>(for duration: Duration, on clock: C) async throws {
  try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
}
// side-by-side: end
