import ArchitectureSpec
import Kernel

// side-by-side: weather wiring
/// The weather app in plain Swift: a value model, a serial message loop, and tasks for the
/// debounce, the search and the forecast, each replaced (and cancelled) by the next.
public final class BaselineWeather: Sendable {
  // side-by-side: weather state
  struct Model: LoopModel {
    // side-by-side: weather intents
    enum Message {
      case intent(WeatherIntent)
      case debounced(term: String, id: Int)
      case searched(id: Int, Result<[Place], any Error>)
      case forecasted(id: Int, Result<Forecast, any Error>)
    }

    // side-by-side: weather effects
    enum Effect {
      case debounce(term: String, id: Int)
      case cancelSearch
      case cancelForecast
      case search(term: String, id: Int)
      case forecast(Place, id: Int)
    }

    // side-by-side: weather state
    enum SearchPhase { case inFlight, succeeded, failed }
    enum Weather {
      case none, loading
      case loaded(Forecast)
      case failed
    }

    var query = ""
    var status = WeatherView.SearchStatus.idle
    var places: [Place] = []
    var selected: Place?
    var weather = Weather.none
    var unit = TemperatureUnit.celsius
    var lastSearch: (term: String, phase: SearchPhase)?
    /// Ids of the latest debounce, search and forecast; a message with an older id is stale.
    var debounceID = 0
    var searchID = 0
    var forecastID = 0
    let defects: BaselineDefects

    // side-by-side: weather update+effects
    mutating func handle(_ message: Message) -> Effect? {
      switch message {
      case .intent(.queryChanged(let text)):
        query = text
        debounceID += 1
        let term = WeatherApp.searchTerm(for: text)
        guard term.isEmpty else { return .debounce(term: term, id: debounceID) }
        searchID += 1
        places = []
        status = .idle
        lastSearch = nil
        return .cancelSearch
      case .debounced(let term, let id):
        guard id == debounceID else { return nil }
        if let lastSearch, lastSearch.term == term, lastSearch.phase != .failed { return nil }
        searchID += 1
        status = .searching
        lastSearch = (term, .inFlight)
        return .search(term: term, id: searchID)
      case .searched(let id, let result):
        // Mutation point (tests only): results of superseded searches applied.
        guard id == searchID || defects.contains(.appliesStaleSearchResults) else { return nil }
        switch result {
        case .success(let found):
          places = Array(found.prefix(WeatherApp.maximumRows))
          status = found.isEmpty ? .noResults : .idle
          lastSearch?.phase = .succeeded
        case .failure:
          places = []
          status = .failed
          lastSearch?.phase = .failed
        }
        return nil
      case .intent(.select(let id)):
        guard let place = places.first(where: { $0.id == id }) else { return nil }
        if selected?.id == id, case .loading = weather { return nil }
        if selected?.id == id, case .loaded = weather { return nil }
        return requestForecast(for: place)
      case .intent(.retry):
        guard case .failed = weather, let selected else { return nil }
        return requestForecast(for: selected)
      case .forecasted(let id, let result):
        guard id == forecastID else { return nil }
        switch result {
        case .success(let forecast): weather = .loaded(forecast)
        case .failure: weather = .failed
        }
        return nil
      case .intent(.toggleUnit):
        unit = unit.toggled
        return nil
      }
    }

    /// Forgets the selection and its weather (the shell's resetAll, H5); a forecast in flight
    /// is cancelled and its late result never applied.
    mutating func clearSelection() -> Effect? {
      guard selected != nil else { return nil }
      let wasLoading = if case .loading = weather { true } else { false }
      selected = nil
      weather = .none
      forecastID += 1
      return wasLoading ? .cancelForecast : nil
    }

    private mutating func requestForecast(for place: Place) -> Effect {
      selected = place
      weather = .loading
      forecastID += 1
      return .forecast(place, id: forecastID)
    }

    // side-by-side: weather wiring
    var view: WeatherView {
      WeatherView(
        query: query, status: status, rows: places.map(WeatherView.Row.init),
        selectedPlaceID: selected?.id, weather: weatherPanel, unit: unit)
    }

    private var weatherPanel: WeatherView.Weather {
      guard let selected else { return .none }
      switch weather {
      case .none: return .none
      case .loading: return .loading(selected)
      case .loaded(let forecast): return .loaded(selected, forecast, unit: unit)
      case .failed: return .failed(selected)
      }
    }
    // side-by-side: end
  }

  // side-by-side: weather wiring
  private let loop: MessageLoop<Model>
  private let effects: WeatherEffects
  private let defects: BaselineDefects

  /// Creates the app; nothing happens until it is started.
  public convenience init(environment: WeatherEnvironment) {
    self.init(environment: environment, defects: [])
  }

  package init(environment: WeatherEnvironment, defects: BaselineDefects) {
    self.defects = defects
    loop = MessageLoop(
      Model(defects: defects), defects: defects, executor: environment.executor)
    effects = WeatherEffects(environment: environment, defects: defects)
    // Results reach the loop, not this object: an effect never keeps the app alive, so
    // releasing it stops it even while a result is being handled (R6).
    loop.performEffects(with: effects.perform)
    effects.connect { [weak loop, weak effects] message in
      guard let loop, let effects else { return }
      loop.send(message, isIntent: false, perform: effects.perform)
    }
  }

  /// Released, it behaves as stopped: calls in flight are cancelled.
  deinit { stop() }

  /// The current view.
  public var view: WeatherView { loop.view }

  /// Starts: shows the empty search.
  public func start(observer: @escaping @Sendable (WeatherView) -> Void) {
    guard loop.start(observer: observer) else { return }
    loop.drain(perform: effects.perform)
  }

  /// Sends an intent; safe from any thread.
  public func send(_ intent: WeatherIntent) {
    loop.send(.intent(intent), isIntent: true, perform: effects.perform)
  }

  /// Stops: pending requests are cancelled and later intents and results are ignored.
  public func stop() {
    loop.stop()
    if !defects.contains(.appliesResultsAfterStop) { effects.stop() }
  }

  // side-by-side: end
}

// side-by-side: weather effects
/// The weather app's effects: the debounce, the search and the forecast, each a task replaced
/// (and cancelled) by the next. The shell runs its weather child with these too.
final class WeatherEffects: Sendable {
  private enum Slot { case debounce, search, forecast }

  private let environment: WeatherEnvironment
  private let defects: BaselineDefects
  private let tasks = TaskSlots<Slot>()
  private let relay = Relay<BaselineWeather.Model.Message>()

  init(environment: WeatherEnvironment, defects: BaselineDefects) {
    self.environment = environment
    self.defects = defects
  }

  /// Where results go; the closure must not hold its owner strongly.
  func connect(_ deliver: @escaping @Sendable (BaselineWeather.Model.Message) -> Void) {
    relay.connect(deliver)
  }

  func perform(_ effect: BaselineWeather.Model.Effect) {
    let service = environment.service
    switch effect {
    case .debounce(let term, let id):
      let clock = environment.clock
      tasks.replace(
        .debounce,
        with: startEffectTask(on: environment.executor) { [weak relay] in
          do { try await sleep(for: WeatherApp.debounce, on: clock) } catch { return }
          relay?.send(.debounced(term: term, id: id))
        })
    case .cancelSearch:
      tasks.cancel(.debounce)
      tasks.cancel(.search)
    case .cancelForecast:
      tasks.cancel(.forecast)
    case .search(let term, let id):
      tasks.replace(
        .search,
        with: startEffectTask(on: environment.executor) { [weak relay] in
          let result = await Result(catching: { try await service.search(term) })
          relay?.send(.searched(id: id, result))
        },
        keepingOthers: defects.contains(.appliesStaleSearchResults))
    case .forecast(let place, let id):
      tasks.replace(
        .forecast,
        with: startEffectTask(on: environment.executor) { [weak relay] in
          let result = await Result(catching: { try await service.forecast(for: place) })
          relay?.send(.forecasted(id: id, result))
        })
    }
  }

  func stop() { tasks.cancelAll() }
}

private func sleep<C: Clock<Duration>>(for duration: Duration, on clock: C) async throws {
  try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
}

extension Result where Failure == any Error {
  /// Runs `body` and captures its value or error.
  init(catching body: () async throws -> Success) async {
    do { self = .success(try await body()) } catch { self = .failure(error) }
  }
}
// side-by-side: end
