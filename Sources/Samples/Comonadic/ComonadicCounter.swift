import ArchitectureSpec
import Comonadic

/// The counter as a Bow Arch component: a state, inputs, a dispatcher turning inputs into state
/// actions and effects, and a render function.
public enum ComonadicCounter {
  // side-by-side: counter state
  public struct State: Equatable, Sendable {
    public var isLoaded = false
    public var count = 0
    /// Whether the stored count could not be read (C2); logged once loaded.
    public var loadWasUnreadable = false
    /// The count the last intent changed to, to save; `nil` when it changed nothing.
    public var countToSave: Int?
    /// Whether the last save failed.
    public var lastSaveFailed = false

    public init() {}

    // side-by-side: counter update
    /// Applies what storage returned: a valid count, nothing, or something unreadable.
    mutating func load(_ stored: Int?, failed: Bool = false) {
      guard !isLoaded else { return }
      isLoaded = true
      if let stored, CounterApp.validCounts.contains(stored) { count = stored }
      loadWasUnreadable = failed || stored.map { !CounterApp.validCounts.contains($0) } ?? false
    }

    /// Applies an intent; remembers the new count to save if it changed (C3, C4).
    mutating func apply(_ intent: CounterIntent) {
      countToSave = nil
      guard isLoaded else { return }
      let old = count
      switch intent {
      case .increment: count = min(count + 1, CounterApp.maximumCount)
      case .decrement: count = max(count - 1, 0)
      case .reset: count = 0
      }
      if count != old { countToSave = count }
    }
    // side-by-side: end
  }

  // side-by-side: counter intents
  /// What the view sends: the user's intents, and `appear` when it is first shown.
  public enum Input: Sendable {
    case appear
    case intent(CounterIntent)
  }

  // side-by-side: counter effects
  public enum Work: Sendable { case load, save }

  // side-by-side: counter intents
  public typealias Dispatcher = StateDispatcher<CounterEnvironment, State, Input>

  // side-by-side: counter update+effects
  /// Loads on `appear`; applies intents, then saves the changed count (saves one at a time, in
  /// order) and logs the outcome.
  public static let dispatcher = Dispatcher.workflow { input in
    switch input {
    case .appear:
      [
        .task(id: Work.load) { environment in
          let stored = try await environment.storage.load()
          return .mutate { $0.load(stored) }
        } catch: { _ in
          .mutate { $0.load(nil, failed: true) }
        },
        .perform { environment, state in
          if state.loadWasUnreadable { environment.log.log(CounterApp.unreadableCountMessage) }
        },
      ]
    case .intent(let intent):
      [.action(apply(intent)), .read(saveSteps)]
    }
  }

  /// The action an intent is: applies it and remembers the count to save.
  public static func apply(_ intent: CounterIntent) -> Comonadic.State<State, Void> {
    .mutate { $0.apply(intent) }
  }

  /// Saves the count the intent changed to, then logs how it went (C5, C6).
  @Sendable public static func saveSteps(_ state: State) -> [StateEffect<CounterEnvironment, State>]
  {
    guard let count = state.countToSave else { return [] }
    return [
      .task(id: Work.save, whenRunning: .enqueue) { environment in
        // `WhileRunning`: once the component stopped, no save begins (R6).
        try await WhileRunning.call { try await environment.storage.save(count) }
        return .mutate { $0.lastSaveFailed = false }
      } catch: { _ in
        .mutate { $0.lastSaveFailed = true }
      },
      .perform { environment, state in
        environment.log.log(
          state.lastSaveFailed ? CounterApp.saveFailedMessage : CounterApp.savedMessage(count))
      },
    ]
  }

  // side-by-side: counter wiring
  // Inlined where a parent calls it with a handle it made, which this render does not use:
  // the compiler then makes no such handle (an allocation for each render of the parent).
  @inline(__always)
  public static func render(
    _ state: State, _ handle: @escaping @Sendable (Input) -> Void
  ) -> CounterView {
    state.isLoaded ? .ready(count: state.count) : .loading
  }

  public typealias Component = StoreComponent<CounterEnvironment, State, Input, CounterView>

  /// A counter component for `environment`; send `.appear` to load.
  public static func component(environment: CounterEnvironment) -> Component {
    Component(
      initialState: State(), environment: environment, dispatcher: dispatcher,
      executor: environment.executor, render: render)
  }
  // side-by-side: end
}
