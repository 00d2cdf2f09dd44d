import IOLoop
import Testing

@Suite struct OutputHandlers {
  /// A screen: shows every render, in order; its intents come from outside.
  struct Screen: IOOutputHandler {
    typealias IO = ViewIO
    let shown = Recorder<Int>()

    func handle(_ output: ViewIO.Output) {
      guard case .render(let count) = output else { return }
      shown.append(count)
    }
  }

  @Test func anOutputHandlerGetsEveryOutputInOrder() async {
    let screen = Screen()
    let calls = Recorder<String>()
    let main = Main(app: Tally.self, handlers: screen, WorkHandler(calls: calls))
    main.start()
    main.send(.increment, from: ViewIO.self)
    main.send(.echoBoth(4, 5), from: ViewIO.self)
    main.send(.increment, from: ViewIO.self)
    await main.idle()
    #expect(screen.shown.all == [0, 1, 1, 2])
    #expect(calls.all == ["echo(4)", "echo(5)"])
    #expect(main.state.results == [4, 5])
  }
}
