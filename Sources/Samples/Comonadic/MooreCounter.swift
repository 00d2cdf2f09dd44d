import ArchitectureSpec
import Comonadic

/// The counter as a Moore machine: messages folded into the counter's state by a reducer, the
/// Elm/Redux-shaped side of comonadic UIs. Same state and steps as ``ComonadicCounter``; the
/// dispatcher sends the machine ``Inputs`` instead of running ``State`` actions.
public enum MooreCounter {
  public typealias State = ComonadicCounter.State
  public typealias Input = ComonadicCounter.Input

  /// What the machine takes in.
  public enum Message: Sendable {
    case loaded(Int?)
    case loadFailed
    case intent(CounterIntent)
    case saved
    case saveFailed
  }

  static func reduce(_ state: State, _ message: Message) -> State {
    var state = state
    switch message {
    case .loaded(let stored): state.load(stored)
    case .loadFailed: state.load(nil, failed: true)
    case .intent(let intent): state.apply(intent)
    case .saved: state.lastSaveFailed = false
    case .saveFailed: state.lastSaveFailed = true
    }
    return state
  }

  /// The counter's machine, showing its state.
  public static let machine = Moore<Message, State>(state: State(), reduce: reduce) { $0 }

  public enum Work: Sendable { case load, save }

  public typealias Dispatcher = InputsDispatcher<CounterEnvironment, Message, State, Input>

  public static let dispatcher = Dispatcher.workflow { input in
    switch input {
    case .appear:
      [
        .task(id: Work.load) { environment in
          Inputs(.loaded(try await environment.storage.load()))
        } catch: { _ in
          Inputs(.loadFailed)
        },
        .perform { environment, state in
          if state.loadWasUnreadable { environment.log.log(CounterApp.unreadableCountMessage) }
        },
      ]
    case .intent(let intent):
      [.action(Inputs(.intent(intent))), .read(saveSteps)]
    }
  }

  @Sendable static func saveSteps(
    _ state: State
  ) -> [InputsEffect<CounterEnvironment, Message, State>] {
    guard let count = state.countToSave else { return [] }
    return [
      .task(id: Work.save, whenRunning: .enqueue) { environment in
        // `WhileRunning`: once the component stopped, no save begins (R6).
        try await WhileRunning.call { try await environment.storage.save(count) }
        return Inputs(.saved)
      } catch: { _ in
        Inputs(.saveFailed)
      },
      .perform { environment, state in
        environment.log.log(
          state.lastSaveFailed ? CounterApp.saveFailedMessage : CounterApp.savedMessage(count))
      },
    ]
  }

  public typealias Component = MooreComponent<
    CounterEnvironment, Message, State, Input, CounterView
  >

  /// A counter component for `environment`; send `.appear` to load.
  public static func component(environment: CounterEnvironment) -> Component {
    Component(
      machine: machine, environment: environment, dispatcher: dispatcher,
      executor: environment.executor, render: ComonadicCounter.render)
  }
}
