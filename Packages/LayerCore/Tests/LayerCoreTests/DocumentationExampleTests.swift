import LayerCore
import Synchronization
import Testing

// The example on the catalog's root page (LayerCore.docc/LayerCore.md), run as a test; `print`
// is replaced by a recorder.

private enum Example {
  static let printed = Recorder<String>()
  static func print(_ line: String) { printed.append(line) }

  struct AppState: Sendable { let value: Int }

  enum AppEvent: Sendable {
    case storage(Int)
    case click
  }

  // The UI layer: shows the value, and clicks until it reads 3.
  struct Screen: ChildMachine {
    func process(input: String?, callback: Handler<Void>) {
      print(input ?? "loading")
      if let input, input != "3" { callback(()) }
    }
  }

  struct UILayer: LayerType {
    var machine: Machine<String, Void> { ~Screen() }
    func map(state: AppState) -> String { "\(state.value)" }
    func map(event: Void) -> AppEvent { .click }
  }

  // The storage layer: loads when the flow starts, then saves every value.
  final class Defaults: ChildMachine {
    let stored = Mutex(1)
    func process(input: Int?, callback: Handler<Int>) {
      if let input { stored.withLock { $0 = input } } else { callback(stored.withLock { $0 }) }
    }
  }

  struct StorageLayer: LayerType {
    let defaults: Defaults
    var machine: Machine<Int, Int> { ~defaults }
    func map(state: AppState) -> Int { state.value }
    func map(event: Int) -> AppEvent { .storage(event) }
  }

  // The logger layer: consumes states, emits nothing.
  struct Logger: ChildMachine {
    func process(input: String?, callback: Handler<Never>) {
      if let input { print("log: \(input)") }
    }
  }

  struct LoggerLayer: ConsumerLayer {
    var machine: Machine<String, Never> { ~Logger() }
    func map(state: AppState) -> String { "\(state.value)" }
  }

  struct App: Core {
    let defaults: Defaults

    var layers: [Layer<AppState, AppEvent>] {
      [~UILayer(), Layer(StorageLayer(defaults: defaults)), LoggerLayer().layer()]
    }

    func reduce(state: AppState?, event: AppEvent) -> ReducerResult<AppState> {
      switch event {
      case .click: state.map { .set(AppState(value: $0.value + 1)) } ?? .skip
      case .storage(let value): .set(AppState(value: value))
      }
    }
  }
}

@Suite struct DocumentationExample {
  @Test func theRootPageExampleRunsAsDocumented() {
    let defaults = Example.Defaults()
    let flow = Example.App(defaults: defaults).start()
    #expect(Example.printed.all == ["loading", "1", "log: 1", "2", "log: 2", "3", "log: 3"])
    #expect(flow.state?.value == 3)
    #expect(defaults.stored.withLock { $0 } == 3)
    flow.stop()
  }
}
