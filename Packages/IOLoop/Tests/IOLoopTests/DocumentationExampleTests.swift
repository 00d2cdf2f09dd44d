import IOLoop
import Testing

// The example on the catalog's root page (IOLoop.docc/IOLoop.md), run as a test; `print` is
// replaced by a recorder.

private enum Example {
  enum ViewIO: IOType {
    typealias Output = String
    enum Input: Sendable { case increment }
  }

  enum StorageIO: IOType {
    enum Output: Sendable { case save(Int) }
    enum Input: Sendable { case saved(Int) }
  }

  struct Counter: PureApp, Equatable {
    typealias Input = IOInput<ViewIO, StorageIO>
    typealias Outputs = IOOutputs<ViewIO, StorageIO>
    var count = 0
    var saved: Int?

    static func start() -> (Counter, Outputs) { (Counter(), Outputs(["0"], [])) }

    func run(input: Input) -> (Counter, Outputs) {
      switch input.values {
      case (.increment?, _):
        let next = Counter(count: count + 1, saved: saved)
        return (next, Outputs(["\(next.count)"], [.save(next.count)]))
      case (_, .saved(let count)?):
        return (Counter(count: self.count, saved: count), Outputs(["saved \(count)"], []))
      default:
        return (self, .none)
      }
    }
  }

  struct Printer: IOOutputHandler {
    typealias IO = ViewIO
    let printed: Recorder<String>
    func handle(_ text: String) { printed.append(text) }
  }

  struct Storage: IOHandler {
    func handle(_ output: StorageIO.Output, context: IOContext<StorageIO>) {
      switch output {
      case .save(let count):
        context.run(id: "save") { send in send(.saved(count)) }
      }
    }
  }
}

@Test func theRootPageExampleRunsAsDocumented() async {
  let printed = Recorder<String>()
  let main = Main(
    app: Example.Counter.self, handlers: Example.Printer(printed: printed), Example.Storage())
  main.start()
  #expect(printed.all == ["0"])
  main.send(IOInput(.increment, nil))
  #expect(printed.all.prefix(2) == ["0", "1"])
  let final = await main.run()
  #expect(printed.all == ["0", "1", "saved 1"])
  #expect(final == Example.Counter(count: 1, saved: 1))
}
