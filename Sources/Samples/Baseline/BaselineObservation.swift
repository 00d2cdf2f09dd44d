#if canImport(Observation)
  import Kernel
  import Observation
  import Workloads

  /// A list of rows and a count on the baseline's message loop, shown on the main actor by an
  /// `@Observable` model with one object per row: what a careful engineer writes for SwiftUI
  /// without a framework, with the same delivery and row objects the packages' adapters use, so
  /// `observation.*` against it is the price of each adapter's architecture.
  @MainActor @Observable
  public final class BaselineObservation: ObservationSubject {
    struct Model: LoopModel, Equatable {
      var rows = IdentifiedList<Int, ObservedRow>()
      var count = 0

      enum Message: Sendable {
        case toggle(Int)
        case tick
      }

      mutating func handle(_ message: Message) -> Never? {
        switch message {
        case .toggle(let id): rows.update(id: id) { $0.done.toggle() }
        case .tick: count += 1
        }
        return nil
      }

      var view: Model { self }
    }

    /// The count shown now.
    public private(set) var count = 0

    @ObservationIgnored private let loop: MessageLoop<Model>
    @ObservationIgnored private let delivery: MainActorDelivery<Model>
    @ObservationIgnored private let rows: ObservableListFollower<Model, Int, ObservedRow>

    public init(rows count: Int) async {
      var model = Model()
      model.rows.append(contentsOf: (1...count).lazy.map { ($0, ObservedRow()) })
      loop = MessageLoop(model, defects: [])
      rows = ObservableListFollower(path: \.rows, state: model)
      let box = WeakBox<BaselineObservation>()
      let delivery = MainActorDelivery<Model>(gate: loop.gate) { model in
        box.value?.show(model)
      }
      self.delivery = delivery
      box.value = self
      _ = loop.start { delivery.send($0) }
      loop.drain(perform: { _ in })
      await delivery.settled()
    }

    private func show(_ model: Model) {
      if count != model.count { count = model.count }
      rows.follow(model)
    }

    public func isDone(_ id: Int) -> Bool? { rows.list.row(id).value?.done }
    public func toggle(_ id: Int) { loop.send(.toggle(id), isIntent: true, perform: { _ in }) }
    public func tick() { loop.send(.tick, isIntent: true, perform: { _ in }) }
    public func settled() async { await delivery.settled() }
    public func stop() { loop.stop() }
  }
#endif
