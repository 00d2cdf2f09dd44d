import ArchitectureSpec

/// One thing the workloads measure: an architecture, the baseline, or the bare reducer.
///
/// A contestant provides what it has: the bare reducer has only a ``tally`` subject; the
/// architectures of this repository have every app as well; one of your own may have a counter
/// alone. A workload runs for the contestants that have what it needs.
public struct Contestant: Sendable {
  /// The name in reports: `baseline`, `bare`, `elm-store`, ….
  public var name: String
  /// Its runtime around the benchmark counter, for the synchronous workloads.
  public var tally: (any TallySubject.Type)?
  /// Its counter app, for `counter.increments`.
  public var counter: Implementation<CounterApp>?
  /// Its stopwatch, for `ticks` and `lifecycle`.
  public var stopwatch: Implementation<StopwatchApp>?
  /// Its weather app, for `typing` and `roundtrip`.
  public var weather: Implementation<WeatherApp>?
  /// Its todos list, for the list workloads.
  public var todos: Implementation<TodosApp>?
  /// Its shell, for the shell workloads.
  public var shell: Implementation<ShellApp>?
  /// Its contacts app, for the navigation workloads.
  public var contacts: Implementation<ContactsApp>?
  #if canImport(Observation)
    /// Its Observation adapter around a list and a count, for the `observation.*` workloads.
    public var observation: (any ObservationSubject.Type)?
  #endif

  /// Whether it has an Observation subject (always `false` without the Observation module).
  public var hasObservation: Bool {
    #if canImport(Observation)
      observation != nil
    #else
      false
    #endif
  }

  public init(
    name: String, tally: (any TallySubject.Type)?, counter: Implementation<CounterApp>? = nil,
    stopwatch: Implementation<StopwatchApp>? = nil,
    weather: Implementation<WeatherApp>? = nil, todos: Implementation<TodosApp>? = nil,
    shell: Implementation<ShellApp>? = nil, contacts: Implementation<ContactsApp>? = nil
  ) {
    self.name = name
    self.tally = tally
    self.counter = counter
    self.stopwatch = stopwatch
    self.weather = weather
    self.todos = todos
    self.shell = shell
    self.contacts = contacts
  }

  /// The physical floor: the reducer called in a plain loop.
  public static let bare = Contestant(name: "bare", tally: BareReducer.self)
}
